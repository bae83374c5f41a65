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
 * Include this as "lib/elf.h": the system's <elf.h> is a different file.
 */

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/error.h"

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
};

struct ep_image {
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
	char *clean_names;	     /* owned: the cleaned copies of names, or NULL */
};

/*
 * Open the image bytes[0..size) under the name path (not opened: the caller
 * maps or decodes the file, see lib/input.h).  bytes must stay valid and
 * unchanged until ep_image_close(); nothing is written to them.
 * Returns 0, or a negative ep_errcode with err filled:
 *   EP_ENOTELF  no ELF magic, or an ELF class/byte order that is not 1 or 2;
 *   EP_ETRUNC   the ELF header or the section header table extends past size;
 *   EP_EMALFORMED  e_shentsize, e_shstrndx, a section's contents or name
 *               inconsistent with the file;
 *   EP_ENOMEM.
 */
int ep_image_open(struct ep_image *img, const char *path, const void *bytes, size_t size,
		  struct ep_error *err);

/* Release what ep_image_open() allocated; img may be partly opened or zeroed. */
void ep_image_close(struct ep_image *img);

/*
 * Section idx's contents in host byte order via elf_getdata(): on the
 * native-byte-order path d_buf points into the image (no copy); otherwise
 * libelf converts into its own buffer and img->bytes_converted grows by
 * sh_size.  SHT_NOBITS gives d_size 0.  Returns NULL with err filled
 * (EP_EMALFORMED naming the section) when libelf refuses the section.
 */
Elf_Data *ep_section_data(struct ep_image *img, size_t idx, struct ep_error *err);

/*
 * Section idx's raw file bytes, never copied: *bytes points into the image
 * (NULL and *size 0 for SHT_NOBITS or an empty section).  idx < shnum.
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
