/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_ELF_H
#define ELFPLT_ELF_H

/*
 * The section accessor: one ELF image held in memory (a read-only mapping of
 * the file, or a buffer a decompressor filled), with libelf working over it
 * through elf_memory().  Everything the rest of elfplt reads from the image
 * (e_shoff, e_shnum, e_shstrndx including the extended numbering kept in
 * section 0, every sh_offset/sh_size and section name) is checked against the
 * image here, once, with overflow-safe arithmetic, so later code may index
 * sections[] and read section bytes without further checks.  Bytes after the
 * last thing the headers describe (a module signature) are allowed.
 *
 * SHF_COMPRESSED sections (gABI "Section Compression"): the compression
 * header (Elf32_Chdr/Elf64_Chdr) of every one is read with gelf_getchdr()
 * and checked when the image is opened, so a bad header is an error for the
 * file whatever the command reads; the contents are decoded only when
 * ep_section_data() is asked for them, so what no command reads (the
 * .debug_* sections gas compresses) is never inflated.
 *
 * Include this as "lib/elf.h": the system's <elf.h> is a different file.
 */

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/error.h"

/* gABI value; glibc 2.36's <elf.h> (Debian 12) does not define it yet. */
#ifndef ELFCOMPRESS_ZSTD
#define ELFCOMPRESS_ZSTD 2
#endif

/*
 * The default cap on decoded SHF_COMPRESSED contents, bytes: a section whose
 * ch_size is larger is an error when the image is opened, and decoding
 * stops with an error before an image's decoded sections together
 * (bytes_decoded) would pass it, so no file makes elfplt hold more than
 * this of them.  1 GiB, the default of the whole-file cap (--max-size); see
 * section_decoded_cap() in lib/elf.c, the one place to switch to that
 * option's value.
 */
#define EP_SECTION_DECODED_MAX ((uint64_t)1 << 30)

/*
 * Set that cap, in bytes, for the images opened from now on; 0 restores
 * EP_SECTION_DECODED_MAX.  Process-wide, for an option such as --max-size
 * and for tests: call it before opening images (and before workers fork).
 */
void ep_section_decoded_max_set(uint64_t bytes);

struct ep_section {
	size_t index;	  /* section header index */
	GElf_Shdr shdr;	  /* converted to host byte order by libelf */
	const char *name; /* inside .shstrtab, NUL-terminated; "" if none; a
			   * cleaned copy (ep_text_clean()) if the file's
			   * name is not valid UTF-8 or has control chars */
	Elf_Scn *scn;
	size_t xindex;	     /* for a symbol table: the first SHT_SYMTAB_SHNDX
			      * section whose sh_link names it; 0 if none */
	bool symtab_checked; /* ep_symtab_open() found it consistent once */
	bool compressed;     /* SHF_COMPRESSED (and not SHT_NOBITS): chdr is valid */
	bool converted;	     /* libelf's byte-order copy is in bytes_converted */
	bool loaded;	     /* its file bytes were brought in (ep_section_load()) */
	GElf_Chdr chdr;	     /* its header, host byte order, checked at open:
			      * ch_type ELFCOMPRESS_ZLIB or _ZSTD, ch_size the
			      * decoded bytes, ch_addralign */
	Elf_Data *decoded;   /* owned: the decoded contents, once asked for */
};

struct ep_blob;

struct ep_image {
	const struct ep_blob *src;  /* a sparse blob (lib/blob.h) the bytes come from
				     * on demand, or NULL: all bytes are there */
	const char *path;	    /* as given; used in every error message */
	const unsigned char *bytes; /* the image; not owned */
	size_t size;		    /* bytes */
	Elf *elf;
	GElf_Ehdr ehdr;
	bool native;		     /* file byte order == host byte order */
	size_t shnum;		     /* sections, extended numbering resolved */
	size_t shstrndx;	     /* SHN_UNDEF (0) when there are no names */
	struct ep_section *sections; /* shnum entries */
	size_t bytes_converted;	     /* bytes libelf copied to convert byte order */
	uint64_t bytes_decoded;	     /* bytes of SHF_COMPRESSED contents decoded */
	char *clean_names;	     /* owned: the cleaned copies of names, or NULL */
};

/*
 * Open the image bytes[0..size) under the name path (not opened: the caller
 * maps or decodes the file, see lib/blob.h).  bytes must stay valid and
 * unchanged until ep_image_close(); nothing is written to them.
 * Returns 0, or a negative ep_errcode with err filled:
 *   EP_ENOTELF  no ELF magic, or an ELF class/byte order that is not 1 or 2;
 *   EP_ETRUNC   the ELF header or the section header table extends past size;
 *   EP_EMALFORMED  e_shentsize, e_shstrndx, a section's contents or name
 *               inconsistent with the file; an SHF_COMPRESSED section that is
 *               SHF_ALLOC (the gABI forbids it), too small for its
 *               Elf*_Chdr, or whose ch_addralign is not 0 or a power of two;
 *   EP_EUNSUP   an SHF_COMPRESSED section whose ch_type is not
 *               ELFCOMPRESS_ZLIB or ELFCOMPRESS_ZSTD;
 *   EP_ENOMEM   out of memory, or an SHF_COMPRESSED section's ch_size over
 *               the cap (EP_SECTION_DECODED_MAX, ep_section_decoded_max_set()).
 * On a file whose byte order is not the host's, gelf_getchdr() has libelf
 * convert the whole of each SHF_COMPRESSED section (header and stream):
 * counted in bytes_converted.
 */
int ep_image_open(struct ep_image *img, const char *path, const void *bytes, size_t size,
		  struct ep_error *err);

/*
 * ep_image_open() over a blob's bytes (lib/blob.h): for a sparse blob, only
 * the ELF header, the section header table and .shstrtab are brought in at
 * open; a section's bytes when ep_section_data() (or ep_section_load(),
 * ep_section_raw(), ep_image_bytes()) asks for them.  blob must stay open
 * until ep_image_close().  Errors as ep_image_open()'s, and EP_EIO when a
 * read fails.
 */
int ep_image_open_blob(struct ep_image *img, const char *path, const struct ep_blob *blob,
		       struct ep_error *err);

/*
 * The image's bytes at file offset [off, off + len) (for program headers,
 * PT_DYNAMIC, anything not reached through a section), brought in when the
 * image is sparse.  Returns a pointer into the image, or NULL with err
 * filled: EP_ETRUNC when the range is not inside the image, EP_EIO when a
 * read fails.
 */
const unsigned char *ep_image_bytes(struct ep_image *img, uint64_t off, uint64_t len,
				    struct ep_error *err);

/*
 * Bring section idx's file bytes in (a no-op but for a sparse image), for a
 * libelf call that reads a section behind ep_section_data()'s back, such as
 * elf_strptr() on a string table.  Returns 0, or a negative ep_errcode with
 * err filled (EP_EIO).  idx < shnum.
 */
int ep_section_load(struct ep_image *img, size_t idx, struct ep_error *err);

/*
 * Release what ep_image_open() allocated, the decoded section contents too;
 * img may be partly opened or zeroed.
 */
void ep_image_close(struct ep_image *img);

/*
 * Section idx's contents in host byte order via elf_getdata(): on the
 * native-byte-order path d_buf points into the image (no copy); otherwise
 * libelf converts into its own buffer, once per section, and
 * img->bytes_converted grows by sh_size the first time (contents libelf
 * leaves in the image, bytes such as strings, are not counted).  SHT_NOBITS
 * gives d_size 0.  Returns NULL with err filled (EP_EMALFORMED naming the
 * section) when libelf refuses the section.
 *
 * An SHF_COMPRESSED section is decoded on the first call (ELFCOMPRESS_ZLIB
 * with zlib, ELFCOMPRESS_ZSTD with libzstd) into a buffer of exactly
 * ch_size bytes that the image owns until ep_image_close(); later calls
 * return the same data; img->bytes_decoded grows by ch_size.  Tables
 * (SHT_REL, SHT_RELA, SHT_SYMTAB, SHT_DYNSYM, SHT_SYMTAB_SHNDX, SHT_DYNAMIC)
 * are converted to host byte order in place; other contents stay as the
 * file has them, as libelf 0.188 leaves SHT_RELR.  That Elf_Data is
 * elfplt's, not libelf's: read d_buf, d_size, d_type, d_align, but do not
 * pass it to gelf_getsym(), gelf_getrela() and the like, which look behind
 * it for libelf's section.  Errors, each naming the section: EP_EMALFORMED
 * a stream that is corrupt or decodes to more or fewer than ch_size bytes,
 * or a ch_size the stream cannot back (zlib: over 1032:1; zstd: over
 * ZSTD_decompressBound() or 128 KiB per 3 bytes, RFC 8878's largest block
 * for its smallest header), checked before ch_size bytes are allocated,
 * EP_ETRUNC a stream that ends early, EP_ENOMEM out of memory or the
 * image's decoded sections would pass the cap.  A compressed .shstrtab is
 * decoded by ep_image_open(), which reads the section names from it.
 */
Elf_Data *ep_section_data(struct ep_image *img, size_t idx, struct ep_error *err);

/* Section idx is SHF_COMPRESSED (with contents: not SHT_NOBITS).  idx < shnum. */
bool ep_section_is_compressed(const struct ep_image *img, size_t idx);

/*
 * Bytes of section idx's contents as ep_section_data() gives them: ch_size
 * for an SHF_COMPRESSED section, else sh_size.  idx < shnum.
 */
uint64_t ep_section_size(const struct ep_image *img, size_t idx);

/*
 * Names of a ch_type: ep_chtype_name() the gABI's, "ELFCOMPRESS_ZLIB",
 * "ELFCOMPRESS_ZSTD" (NULL for another value); ep_chtype_label() the short
 * one reports use beside a file's compression, "zlib", "zstd", and "none"
 * for 0 (a section that is not compressed), "?" for another value.
 */
const char *ep_chtype_name(uint32_t ch_type);
const char *ep_chtype_label(uint32_t ch_type);

/*
 * Section idx's raw file bytes, never copied: *bytes points into the image
 * (NULL and *size 0 for SHT_NOBITS or an empty section); for an
 * SHF_COMPRESSED section, its Elf*_Chdr and the compressed stream, as on
 * disk.  idx < shnum.
 */
void ep_section_raw(const struct ep_image *img, size_t idx, const unsigned char **bytes,
		    size_t *size);

/* The section's name for messages: "" becomes "(no name)". */
const char *ep_section_label(const struct ep_image *img, size_t idx);

/* Index of the first section called name, or 0 (SHN_UNDEF) if none. */
size_t ep_image_find_section(const struct ep_image *img, const char *name);

/*
 * A Linux kernel module: ET_REL with both a .modinfo and a
 * .gnu.linkonce.this_module section (what kmod and the kernel's
 * load_module() look for).
 */
bool ep_image_is_kernel_module(const struct ep_image *img);

/*
 * What the file is, for people, as file(1) would say it: "kernel module",
 * "relocatable", "executable", "position-independent executable" (ET_DYN
 * with a PT_INTERP program header, or DF_1_PIE in DT_FLAGS_1 as static-pie
 * has), "shared object", "core file".
 */
const char *ep_image_kind_label(struct ep_image *img);

/* Section executable (SHF_EXECINSTR); idx 0 or out of range is not. */
bool ep_section_is_exec(const struct ep_image *img, size_t idx);

/*
 * Names for the ELF header fields, from the gABI and <elf.h>:
 * class "ELFCLASS64", data "ELFDATA2LSB", type "ET_REL"; machine "EM_AARCH64"
 * (NULL when <elf.h> does not name the value); ep_machine_label() a short name
 * for people ("AArch64", "x86-64"), falling back to <elf.h>'s comment or to
 * the number.  ep_type_label() "relocatable", "executable", ...
 */
const char *ep_class_name(unsigned int ei_class);
const char *ep_data_name(unsigned int ei_data);
const char *ep_type_name(unsigned int e_type);
const char *ep_type_label(unsigned int e_type);
const char *ep_machine_name(unsigned int e_machine);
const char *ep_machine_label(unsigned int e_machine, char *buf, size_t bufsize);

/* Overflow-safe "off + len <= limit". */
static inline bool ep_range_ok(uint64_t off, uint64_t len, uint64_t limit)
{
	return off <= limit && len <= limit - off;
}

#endif
