/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <elf.h>
#include <endian.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_decompressBound() */
#include <zstd.h>
#include <zstd_errors.h>

#include "lib/blob.h"
#include "lib/elf.h"
#include "lib/reloc-names.h"

static bool libelf_ready;

/* Bring image bytes [off, off + len) in from a sparse blob; 0 when there is none. */
static int need(const struct ep_image *img, uint64_t off, uint64_t len, struct ep_error *err)
{
	return img->src ? ep_blob_need(img->src, off, len, err) : 0;
}

/* Section idx's file bytes brought in, once (its bounds were checked at open). */
static int load_section(const struct ep_image *img, size_t idx, struct ep_error *err)
{
	struct ep_section *s = &img->sections[idx];
	int rc;

	if (s->loaded || !img->src)
		return 0;
	if (s->shdr.sh_type != SHT_NOBITS && s->shdr.sh_size) {
		rc = need(img, s->shdr.sh_offset, s->shdr.sh_size, err);
		if (rc)
			return rc;
	}
	s->loaded = true;
	return 0;
}

int ep_section_load(struct ep_image *img, size_t idx, struct ep_error *err)
{
	return load_section(img, idx, err);
}

const unsigned char *ep_image_bytes(struct ep_image *img, uint64_t off, uint64_t len,
				    struct ep_error *err)
{
	if (!ep_range_ok(off, len, img->size)) {
		ep_error_set(err, EP_ETRUNC,
			     "%s: %" PRIu64 " bytes at offset %" PRIu64
			     " are outside the file (%zu bytes)",
			     img->path, len, off, img->size);
		return NULL;
	}
	if (need(img, off, len, err))
		return NULL;
	return img->bytes + off;
}

static size_t ehdr_size(unsigned int cls)
{
	return cls == ELFCLASS32 ? sizeof(Elf32_Ehdr) : sizeof(Elf64_Ehdr);
}

static size_t shdr_size(unsigned int cls)
{
	return cls == ELFCLASS32 ? sizeof(Elf32_Shdr) : sizeof(Elf64_Shdr);
}

/* Section 0's header straight from the image, converted by libelf. */
static int read_shdr0(const struct ep_image *img, GElf_Shdr *sh0)
{
	unsigned int cls = img->ehdr.e_ident[EI_CLASS];
	union {
		Elf32_Shdr s32;
		Elf64_Shdr s64;
	} raw, host;
	Elf_Data src = { 0 }, dst = { 0 };

	memcpy(&raw, img->bytes + img->ehdr.e_shoff, shdr_size(cls));
	src.d_buf = &raw;
	src.d_type = ELF_T_SHDR;
	src.d_size = shdr_size(cls);
	src.d_version = EV_CURRENT;
	dst = src;
	dst.d_buf = &host;
	if (!gelf_xlatetom(img->elf, &dst, &src, img->ehdr.e_ident[EI_DATA]))
		return -1;
	memset(sh0, 0, sizeof(*sh0));
	if (cls == ELFCLASS32) {
		sh0->sh_size = host.s32.sh_size;
		sh0->sh_link = host.s32.sh_link;
	} else {
		sh0->sh_size = host.s64.sh_size;
		sh0->sh_link = host.s64.sh_link;
	}
	return 0;
}

static int shdr_table_outside(const char *path, uint64_t shnum, uint64_t shoff, size_t size,
			      struct ep_error *err)
{
	return ep_error_set(err, EP_ETRUNC,
			    "%s: section header table of %" PRIu64 " entries at offset %" PRIu64
			    " is outside the file (%zu bytes)",
			    path, shnum, shoff, size);
}

/*
 * The section header table must lie inside the image before libelf is asked
 * for any section: libelf quietly reports no sections when it does not.
 */
static int check_shdr_table(struct ep_image *img, struct ep_error *err)
{
	const GElf_Ehdr *eh = &img->ehdr;
	unsigned int cls = eh->e_ident[EI_CLASS];
	uint64_t shnum = eh->e_shnum;
	size_t libelf_shnum, libelf_shstrndx;
	GElf_Shdr sh0;

	if (eh->e_shoff == 0) {
		if (eh->e_shnum != 0)
			return ep_error_set(err, EP_EMALFORMED,
					    "%s: e_shnum is %u but e_shoff is 0", img->path,
					    eh->e_shnum);
		img->shnum = 0;
		img->shstrndx = SHN_UNDEF;
		return 0;
	}
	if (eh->e_shentsize != shdr_size(cls))
		return ep_error_set(err, EP_EMALFORMED,
				    "%s: e_shentsize is %u, expected %zu for ELFCLASS%u", img->path,
				    eh->e_shentsize, shdr_size(cls), cls == ELFCLASS32 ? 32 : 64);
	if (!ep_range_ok(eh->e_shoff, eh->e_shentsize, img->size))
		return ep_error_set(err, EP_ETRUNC,
				    "%s: section header table at offset %" PRIu64
				    " is outside the file (%zu bytes)",
				    img->path, (uint64_t)eh->e_shoff, img->size);
	/*
	 * Not gelf_getshdr(): libelf has no sections at all when the table runs
	 * past the end, and the extent is what section 0 is needed to tell.
	 */
	if (read_shdr0(img, &sh0))
		return ep_error_set(err, EP_EMALFORMED, "%s: cannot read section 0: %s", img->path,
				    elf_errmsg(-1));
	/* Extended numbering: the real counts live in section 0. */
	if (shnum == 0)
		shnum = sh0.sh_size;
	if (shnum > (img->size - eh->e_shoff) / eh->e_shentsize)
		return shdr_table_outside(img->path, shnum, eh->e_shoff, img->size, err);
	if (elf_getshdrnum(img->elf, &libelf_shnum) != 0 || libelf_shnum != shnum)
		return ep_error_set(err, EP_EMALFORMED,
				    "%s: libelf sees %zu sections where the header says %" PRIu64,
				    img->path, libelf_shnum, shnum);
	img->shnum = shnum;

	img->shstrndx = eh->e_shstrndx == SHN_XINDEX ? sh0.sh_link : eh->e_shstrndx;
	/*
	 * SHN_XINDEX says the index is in section 0's sh_link: a 0 there names
	 * no table, so every section would silently lose its name.
	 */
	if (eh->e_shstrndx == SHN_XINDEX && img->shstrndx == SHN_UNDEF)
		return ep_error_set(err, EP_EMALFORMED,
				    "%s: e_shstrndx is SHN_XINDEX and section 0's sh_link is 0",
				    img->path);
	if (img->shstrndx >= img->shnum && eh->e_shstrndx == SHN_XINDEX)
		return ep_error_set(err, EP_EMALFORMED,
				    "%s: e_shstrndx is SHN_XINDEX and section 0's sh_link %zu is "
				    "out of range (%zu sections)",
				    img->path, img->shstrndx, img->shnum);
	if (img->shstrndx >= img->shnum)
		return ep_error_set(err, EP_EMALFORMED,
				    "%s: e_shstrndx %zu is out of range (%zu sections)", img->path,
				    img->shstrndx, img->shnum);
	if (img->shstrndx != SHN_UNDEF && (elf_getshdrstrndx(img->elf, &libelf_shstrndx) != 0 ||
					   libelf_shstrndx != img->shstrndx))
		return ep_error_set(err, EP_EMALFORMED, "%s: cannot resolve e_shstrndx %zu",
				    img->path, img->shstrndx);
	return 0;
}

/* Section idx's contents (unless SHT_NOBITS) must lie inside the image. */
static int check_contents(const struct ep_image *img, size_t idx, struct ep_error *err)
{
	const GElf_Shdr *sh = &img->sections[idx].shdr;

	if (sh->sh_type == SHT_NOBITS || ep_range_ok(sh->sh_offset, sh->sh_size, img->size))
		return 0;
	return ep_error_set(err, EP_ETRUNC,
			    "%s: contents at offset %" PRIu64 ", %" PRIu64
			    " bytes, are outside the file (%zu bytes) (section %zu%s%s)",
			    img->path, (uint64_t)sh->sh_offset, (uint64_t)sh->sh_size, img->size,
			    idx, img->sections[idx].name[0] ? " " : "", img->sections[idx].name);
}

static int check_chdr(struct ep_image *img, size_t idx, struct ep_error *err);
static int decode_section(struct ep_image *img, size_t idx, struct ep_error *err);

static int load_sections(struct ep_image *img, struct ep_error *err)
{
	const unsigned char *strtab = NULL;
	uint64_t strtab_size = 0;
	size_t i;
	int rc;

	if (img->shnum == 0)
		return 0;
	img->sections = calloc(img->shnum, sizeof(*img->sections));
	if (!img->sections)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory for %zu sections", img->path,
				    img->shnum);

	for (i = 0; i < img->shnum; i++) {
		struct ep_section *s = &img->sections[i];

		s->index = i;
		s->name = "";
		s->scn = elf_getscn(img->elf, i);
		if (!s->scn || !gelf_getshdr(s->scn, &s->shdr))
			return ep_error_set(err, EP_EMALFORMED,
					    "%s: cannot read section header %zu: %s", img->path, i,
					    elf_errmsg(-1));
	}

	if (img->shstrndx != SHN_UNDEF) {
		const GElf_Shdr *sh = &img->sections[img->shstrndx].shdr;

		if (sh->sh_type != SHT_STRTAB)
			return ep_error_set(
				err, EP_EMALFORMED,
				"%s: e_shstrndx %zu is not a string table (section %zu)", img->path,
				img->shstrndx, img->shstrndx);
		rc = check_contents(img, img->shstrndx, err);
		if (!rc && !(sh->sh_flags & SHF_COMPRESSED))
			rc = load_section(img, img->shstrndx, err);
		if (rc)
			return rc;
		strtab = img->bytes + sh->sh_offset;
		strtab_size = sh->sh_size;
		/*
		 * A compressed .shstrtab (eu-elfcompress --name=.shstrtab) holds
		 * its names only once decoded, as eu-readelf reads it: the names
		 * are checked in the decoded bytes, which the image keeps.
		 */
		if ((sh->sh_flags & SHF_COMPRESSED) && sh->sh_size) {
			rc = check_chdr(img, img->shstrndx, err);
			if (!rc)
				rc = decode_section(img, img->shstrndx, err);
			if (rc)
				return rc;
			strtab = img->sections[img->shstrndx].decoded->d_buf;
			strtab_size = img->sections[img->shstrndx].decoded->d_size;
		}
	}
	for (i = 0; strtab && i < img->shnum; i++) {
		uint64_t off = img->sections[i].shdr.sh_name;

		if (off >= strtab_size)
			return ep_error_set(err, EP_EMALFORMED,
					    "%s: sh_name %" PRIu64 " is outside .shstrtab (%" PRIu64
					    " bytes) (section %zu)",
					    img->path, off, strtab_size, i);
		if (!memchr(strtab + off, '\0', strtab_size - off))
			return ep_error_set(err, EP_EMALFORMED,
					    "%s: sh_name %" PRIu64
					    " runs past the end of .shstrtab "
					    "(%" PRIu64 " bytes, no NUL) (section %zu)",
					    img->path, off, strtab_size, i);
		img->sections[i].name = (const char *)strtab + off;
	}
	/* With the names known, the message can name the section to blame. */
	for (i = 1; i < img->shnum; i++) {
		rc = check_contents(img, i, err);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * Link each symbol table to its SHT_SYMTAB_SHNDX once, so that opening a
 * symbol table for each of thousands of relocation sections does not search
 * every section every time.
 */
static void link_xindex_tables(struct ep_image *img)
{
	size_t i;

	for (i = img->shnum; i-- > 1;) {
		const GElf_Shdr *sh = &img->sections[i].shdr;

		if (sh->sh_type != SHT_SYMTAB_SHNDX || sh->sh_link == 0 ||
		    sh->sh_link >= img->shnum)
			continue;
		img->sections[sh->sh_link].xindex = i; /* the lowest index wins */
	}
}

/*
 * Names go into messages and JSON strings as they are, so a name that is not
 * clean text (a corrupt .shstrtab: control characters, a newline, bytes that
 * are not UTF-8) is replaced by a cleaned copy.  Real files never need one:
 * nothing is allocated for them.
 */
static int clean_section_names(struct ep_image *img, struct ep_error *err)
{
	size_t i, need = 0;
	char *p;

	for (i = 0; i < img->shnum; i++) {
		const char *name = img->sections[i].name;
		size_t n = strlen(name);

		if (!ep_text_is_clean(name, n))
			need += n + 1;
	}
	if (!need)
		return 0;
	p = img->clean_names = malloc(need);
	if (!p)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory for section names",
				    img->path);
	for (i = 0; i < img->shnum; i++) {
		const char *name = img->sections[i].name;
		size_t n = strlen(name);

		if (ep_text_is_clean(name, n))
			continue;
		memcpy(p, name, n + 1);
		ep_text_clean(p);
		img->sections[i].name = p;
		p += n + 1;
	}
	return 0;
}

static uint64_t section_cap_set; /* ep_section_decoded_max_set(); 0: default */

void ep_section_decoded_max_set(uint64_t bytes)
{
	section_cap_set = bytes;
}

/*
 * The cap on decoded SHF_COMPRESSED bytes, per section and per image:
 * cmd/elfplt.c passes --max-size (lib/decode.h's cap) to
 * ep_section_decoded_max_set().
 */
static uint64_t section_decoded_cap(void)
{
	return section_cap_set ? section_cap_set : EP_SECTION_DECODED_MAX;
}

static size_t chdr_size(unsigned int cls)
{
	return cls == ELFCLASS32 ? sizeof(Elf32_Chdr) : sizeof(Elf64_Chdr);
}

/*
 * Read and check section idx's compression header.  Only the header: the
 * stream is looked at when someone asks for the contents.
 */
static int check_chdr(struct ep_image *img, size_t idx, struct ep_error *err)
{
	struct ep_section *s = &img->sections[idx];
	unsigned int cls = img->ehdr.e_ident[EI_CLASS];
	const GElf_Chdr *ch = &s->chdr;
	uint64_t align;
	int rc;

	/* gABI: "SHF_COMPRESSED ... cannot be used with SHF_ALLOC". */
	if (s->shdr.sh_flags & SHF_ALLOC)
		return ep_error_set(err, EP_EMALFORMED,
				    "%s: SHF_COMPRESSED on an SHF_ALLOC section, which the gABI "
				    "forbids (section %zu %s)",
				    img->path, idx, ep_section_label(img, idx));
	if (s->shdr.sh_size < chdr_size(cls))
		return ep_error_set(err, EP_EMALFORMED,
				    "%s: sh_size %" PRIu64
				    " of an SHF_COMPRESSED section is smaller "
				    "than its %zu-byte Elf%d_Chdr (section %zu %s)",
				    img->path, (uint64_t)s->shdr.sh_size, chdr_size(cls),
				    cls == ELFCLASS32 ? 32 : 64, idx, ep_section_label(img, idx));
	/* The header is all gelf_getchdr() reads; the stream waits for decode_section(). */
	rc = need(img, s->shdr.sh_offset, chdr_size(cls), err);
	if (rc)
		return rc;
	elf_errno();
	if (!gelf_getchdr(s->scn, &s->chdr))
		return ep_error_set(err, EP_EMALFORMED,
				    "%s: libelf cannot read the compression header: %s "
				    "(section %zu %s)",
				    img->path, elf_errmsg(-1), idx, ep_section_label(img, idx));
	/* The converted copy gelf_getchdr() had libelf make (elf_getdata()). */
	if (!img->native)
		img->bytes_converted += s->shdr.sh_size;
	if (ch->ch_type != ELFCOMPRESS_ZLIB && ch->ch_type != ELFCOMPRESS_ZSTD)
		return ep_error_set(err, EP_EUNSUP,
				    "%s: ch_type %" PRIu32 " is not ELFCOMPRESS_ZLIB (1) or "
				    "ELFCOMPRESS_ZSTD (2) (section %zu %s)",
				    img->path, (uint32_t)ch->ch_type, idx,
				    ep_section_label(img, idx));
	if (ch->ch_size > section_decoded_cap())
		return ep_error_set(err, EP_ENOMEM,
				    "%s: ch_size %" PRIu64 " bytes exceeds the %" PRIu64
				    "-byte cap on a decoded section (section %zu %s)",
				    img->path, (uint64_t)ch->ch_size, section_decoded_cap(), idx,
				    ep_section_label(img, idx));
	align = ch->ch_addralign;
	if (align & (align - 1))
		return ep_error_set(err, EP_EMALFORMED,
				    "%s: ch_addralign %" PRIu64 " is not a power of two "
				    "(section %zu %s)",
				    img->path, align, idx, ep_section_label(img, idx));
	s->compressed = true;
	return 0;
}

/*
 * Every SHF_COMPRESSED header, once at open (a few bytes each): a file with
 * a bad one fails for every command, not only for one that reads the
 * section.  SHT_NOBITS has no contents to compress; the flag is ignored
 * there, as it is on section 0.
 */
static int check_compressed(struct ep_image *img, struct ep_error *err)
{
	size_t i;
	int rc;

	for (i = 1; i < img->shnum; i++) {
		const GElf_Shdr *sh = &img->sections[i].shdr;

		if (!(sh->sh_flags & SHF_COMPRESSED) || sh->sh_type == SHT_NOBITS)
			continue;
		if (img->sections[i].compressed) /* .shstrtab: load_sections() did it */
			continue;
		rc = check_chdr(img, i, err);
		if (rc)
			return rc;
	}
	return 0;
}

/* n bytes of type at src, in the file's byte order data, into host order at dst. */
static bool xlate(void *dst, const void *src, size_t n, Elf_Type type, unsigned int cls,
		  unsigned int data)
{
	Elf_Data d = { .d_buf = dst, .d_type = type, .d_size = n, .d_version = EV_CURRENT };
	Elf_Data s = d;

	memcpy(dst, src, n); /* aligned, for libelf */
	s.d_buf = dst;
	return cls == ELFCLASS32 ? elf32_xlatetom(&d, &s, data) != NULL
				 : elf64_xlatetom(&d, &s, data) != NULL;
}

/*
 * elf_memory() refuses a file whose section 0 holds a section count over
 * 2^32 - 1 (extended numbering, e_shnum 0) saying only "invalid ELF file
 * data".  Say what check_shdr_table() says of any count the file cannot
 * hold; returns 0 when that is not why, for the caller's own message.
 * The header and section 0 are converted with libelf's elfNN_xlatetom().
 */
static int explain_refusal(const char *path, const unsigned char *b, size_t size, unsigned int cls,
			   unsigned int data, struct ep_error *err)
{
	union {
		Elf32_Ehdr e32;
		Elf64_Ehdr e64;
	} eh;
	union {
		Elf32_Shdr s32;
		Elf64_Shdr s64;
	} sh0;
	uint64_t shoff, shnum;
	unsigned int e_shnum, shentsize;

	if (!xlate(&eh, b, ehdr_size(cls), ELF_T_EHDR, cls, data))
		return 0;
	shoff = cls == ELFCLASS32 ? eh.e32.e_shoff : eh.e64.e_shoff;
	e_shnum = cls == ELFCLASS32 ? eh.e32.e_shnum : eh.e64.e_shnum;
	shentsize = cls == ELFCLASS32 ? eh.e32.e_shentsize : eh.e64.e_shentsize;
	if (e_shnum != 0 || shoff == 0 || shentsize != shdr_size(cls) ||
	    !ep_range_ok(shoff, shentsize, size) ||
	    !xlate(&sh0, b + shoff, shentsize, ELF_T_SHDR, cls, data))
		return 0;
	shnum = cls == ELFCLASS32 ? sh0.s32.sh_size : sh0.s64.sh_size;
	if (shnum <= (size - shoff) / shentsize)
		return 0;
	return shdr_table_outside(path, shnum, shoff, size, err);
}

/*
 * A sparse image: the section header table brought in before elf_memory(),
 * which reads it (and section 0's sh_size for extended numbering).  The
 * header is read through libelf's elfNN_xlatetom(); the table is clipped to
 * the image, whose checks come after.
 */
static int preload_headers(struct ep_image *img, unsigned int cls, unsigned int data,
			   struct ep_error *err)
{
	union {
		Elf32_Ehdr e32;
		Elf64_Ehdr e64;
	} eh;
	union {
		Elf32_Shdr s32;
		Elf64_Shdr s64;
	} sh0;
	uint64_t shoff, shnum, n;
	unsigned int shentsize;
	int rc;

	rc = need(img, 0, ehdr_size(cls), err);
	if (rc || !xlate(&eh, img->bytes, ehdr_size(cls), ELF_T_EHDR, cls, data))
		return rc;
	shoff = cls == ELFCLASS32 ? eh.e32.e_shoff : eh.e64.e_shoff;
	shnum = cls == ELFCLASS32 ? eh.e32.e_shnum : eh.e64.e_shnum;
	shentsize = cls == ELFCLASS32 ? eh.e32.e_shentsize : eh.e64.e_shentsize;
	if (shoff == 0 || shoff >= img->size || shentsize != shdr_size(cls))
		return 0;
	/* Extended numbering: the count is section 0's sh_size. */
	if (shnum == 0) {
		rc = need(img, shoff, shentsize, err);
		if (rc)
			return rc;
		if (ep_range_ok(shoff, shentsize, img->size) &&
		    xlate(&sh0, img->bytes + shoff, shentsize, ELF_T_SHDR, cls, data))
			shnum = cls == ELFCLASS32 ? sh0.s32.sh_size : sh0.s64.sh_size;
	}
	n = img->size - shoff;
	if (shnum <= n / shentsize)
		n = shnum * shentsize;
	return need(img, shoff, n, err);
}

static int open_image(struct ep_image *img, const char *path, const void *bytes, size_t size,
		      const struct ep_blob *src, struct ep_error *err);

int ep_image_open(struct ep_image *img, const char *path, const void *bytes, size_t size,
		  struct ep_error *err)
{
	return open_image(img, path, bytes, size, NULL, err);
}

int ep_image_open_blob(struct ep_image *img, const char *path, const struct ep_blob *blob,
		       struct ep_error *err)
{
	return open_image(img, path, blob->bytes, blob->size, blob->sparse ? blob : NULL, err);
}

static int open_image(struct ep_image *img, const char *path, const void *bytes, size_t size,
		      const struct ep_blob *src, struct ep_error *err)
{
	const unsigned char *b = bytes;
	unsigned int cls, data;
	int rc;

	memset(img, 0, sizeof(*img));
	img->src = src;
	img->path = path;
	img->bytes = bytes;
	img->size = size;

	if (size < SELFMAG || memcmp(b, ELFMAG, SELFMAG) != 0)
		return ep_error_set(err, EP_ENOTELF, "%s: not an ELF file", path);
	if (size < EI_NIDENT)
		return ep_error_set(err, EP_ETRUNC,
				    "%s: file ends inside the ELF header (%zu bytes)", path, size);
	cls = b[EI_CLASS];
	data = b[EI_DATA];
	if (cls != ELFCLASS32 && cls != ELFCLASS64)
		return ep_error_set(err, EP_ENOTELF, "%s: unknown ELF class %u", path, cls);
	if (data != ELFDATA2LSB && data != ELFDATA2MSB)
		return ep_error_set(err, EP_ENOTELF, "%s: unknown ELF byte order %u", path, data);
	/* libelf takes only EV_CURRENT and would not say why it gave up. */
	if (b[EI_VERSION] != EV_CURRENT)
		return ep_error_set(err, EP_ENOTELF,
				    "%s: unknown ELF version %u in e_ident[EI_VERSION] "
				    "(expected %u)",
				    path, b[EI_VERSION], EV_CURRENT);
	if (size < ehdr_size(cls))
		return ep_error_set(err, EP_ETRUNC,
				    "%s: file ends inside the ELF header (%zu bytes)", path, size);

	if (!libelf_ready) {
		elf_version(EV_CURRENT);
		libelf_ready = true;
	}
	rc = preload_headers(img, cls, data, err);
	if (rc)
		goto fail;
	/*
	 * elf_memory() reads in ELF_C_READ mode: libelf never writes the image.
	 * elf_errno() first drops an error left over from an earlier file, so
	 * the message below cannot give another file's reason.
	 */
	elf_errno();
	img->elf = elf_memory((char *)bytes, size);
	if (!img->elf || elf_kind(img->elf) != ELF_K_ELF || !gelf_getehdr(img->elf, &img->ehdr)) {
		int e = elf_errno();

		rc = explain_refusal(path, b, size, cls, data, err);
		if (!rc)
			rc = ep_error_set(err, EP_ENOTELF,
					  "%s: libelf cannot read the ELF header: %s", path,
					  e ? elf_errmsg(e) : "not recognised as ELF");
		goto fail;
	}
#if __BYTE_ORDER == __LITTLE_ENDIAN
	img->native = data == ELFDATA2LSB;
#else
	img->native = data == ELFDATA2MSB;
#endif
	rc = check_shdr_table(img, err);
	if (rc)
		goto fail;
	rc = load_sections(img, err);
	if (rc)
		goto fail;
	rc = clean_section_names(img, err);
	if (rc)
		goto fail;
	rc = check_compressed(img, err);
	if (rc)
		goto fail;
	link_xindex_tables(img);
	return 0;
fail:
	ep_image_close(img);
	img->path = path;
	return rc;
}

void ep_image_close(struct ep_image *img)
{
	size_t i;

	if (img->elf)
		elf_end(img->elf);
	for (i = 0; img->sections && i < img->shnum; i++) {
		if (!img->sections[i].decoded)
			continue;
		free(img->sections[i].decoded->d_buf);
		free(img->sections[i].decoded);
	}
	free(img->sections);
	free(img->clean_names);
	memset(img, 0, sizeof(*img));
}

/* Message tail naming section idx: "(section N NAME)". */
#define SEC_FMT		   "(section %zu %s)"
#define SEC_ARGS(img, idx) (idx), ep_section_label((img), (idx))

/* zlib takes at most UINT_MAX bytes per call. */
static uInt zlib_chunk(size_t n)
{
	return n > UINT_MAX ? UINT_MAX : (uInt)n;
}

/*
 * ELFCOMPRESS_ZLIB: src[0..n) into dst[0..want).  One zlib stream, or
 * several back to back, as binutils' and libelf's readers also accept.
 */
static int inflate_section(struct ep_image *img, size_t idx, const unsigned char *src, size_t n,
			   unsigned char *dst, uint64_t want, struct ep_error *err)
{
	z_stream z = { 0 };
	uint64_t in_left = n, out_left = want, got;
	int zrc, rc = 0;

	if (inflateInit(&z) != Z_OK)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory for zlib " SEC_FMT,
				    img->path, SEC_ARGS(img, idx));
	z.next_in = (Bytef *)src;
	z.next_out = dst;
	for (;;) {
		if (z.avail_in == 0 && in_left) {
			z.avail_in = zlib_chunk(in_left);
			in_left -= z.avail_in;
		}
		if (z.avail_out == 0 && out_left) {
			z.avail_out = zlib_chunk(out_left);
			out_left -= z.avail_out;
		}
		zrc = inflate(&z, Z_NO_FLUSH);
		if (zrc == Z_OK)
			continue;
		if (zrc == Z_STREAM_END) {
			if (z.avail_in == 0 && in_left == 0)
				break;
			inflateReset(&z); /* another stream follows */
			continue;
		}
		/*
		 * No progress: out of input (the stream ends early, maybe only
		 * its Adler-32 is missing), or else out of room (more data than
		 * ch_size).
		 */
		got = want - out_left - z.avail_out;
		if (zrc == Z_BUF_ERROR && z.avail_in == 0 && in_left == 0)
			rc = ep_error_set(err, EP_ETRUNC,
					  "%s: zlib stream is truncated after %" PRIu64
					  " of ch_size %" PRIu64 " bytes " SEC_FMT,
					  img->path, got, want, SEC_ARGS(img, idx));
		else if (zrc == Z_BUF_ERROR)
			rc = ep_error_set(err, EP_EMALFORMED,
					  "%s: zlib stream decodes to more than ch_size %" PRIu64
					  " bytes " SEC_FMT,
					  img->path, want, SEC_ARGS(img, idx));
		else if (zrc == Z_MEM_ERROR)
			rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory for zlib " SEC_FMT,
					  img->path, SEC_ARGS(img, idx));
		else
			rc = ep_error_set(err, EP_EMALFORMED,
					  "%s: zlib stream is corrupt: %s " SEC_FMT, img->path,
					  z.msg ? z.msg : "bad data", SEC_ARGS(img, idx));
		goto out;
	}
	got = want - out_left - z.avail_out;
	if (got != want)
		rc = ep_error_set(err, EP_EMALFORMED,
				  "%s: zlib stream decodes to %" PRIu64
				  " bytes, not ch_size %" PRIu64 " " SEC_FMT,
				  img->path, got, want, SEC_ARGS(img, idx));
out:
	inflateEnd(&z);
	return rc;
}

/*
 * ELFCOMPRESS_ZSTD: src[0..n), one or more zstd frames, into dst[0..room),
 * room being want (ch_size) or, when zstd_bound() is less, that bound: a
 * stream that cannot fill ch_size decodes short and is refused as such.
 * ZSTD_decompress() writes no more than room bytes and needs no window
 * beyond dst.
 */
static int unzstd_section(struct ep_image *img, size_t idx, const unsigned char *src, size_t n,
			  unsigned char *dst, uint64_t room, uint64_t want, struct ep_error *err)
{
	size_t got = ZSTD_decompress(dst, (size_t)room, src, n);

	if (ZSTD_isError(got) && ZSTD_getErrorCode(got) == ZSTD_error_dstSize_tooSmall &&
	    room == want)
		return ep_error_set(err, EP_EMALFORMED,
				    "%s: zstd stream decodes to more than ch_size %" PRIu64
				    " bytes " SEC_FMT,
				    img->path, want, SEC_ARGS(img, idx));
	/* The input ends inside a frame (a further frame would be "unknown"). */
	if (ZSTD_isError(got) && ZSTD_getErrorCode(got) == ZSTD_error_srcSize_wrong)
		return ep_error_set(err, EP_ETRUNC, "%s: zstd stream is truncated: %s " SEC_FMT,
				    img->path, ZSTD_getErrorName(got), SEC_ARGS(img, idx));
	if (ZSTD_isError(got))
		return ep_error_set(err, EP_EMALFORMED,
				    "%s: zstd stream does not decode: %s " SEC_FMT, img->path,
				    ZSTD_getErrorName(got), SEC_ARGS(img, idx));
	if (got != want)
		return ep_error_set(err, EP_EMALFORMED,
				    "%s: zstd stream decodes to %zu bytes, not ch_size %" PRIu64
				    " " SEC_FMT,
				    img->path, got, want, SEC_ARGS(img, idx));
	return 0;
}

/*
 * The most ELFCOMPRESS_ZSTD src[0..n) can decode to, so that ch_size is
 * never allocated unless the stream can fill it.  RFC 8878: a block has a
 * 3-byte header and decodes to at most Block_Maximum_Size, 128 KiB
 * (ZSTD_BLOCKSIZE_MAX), so n bytes hold at most n / 3 such blocks, whatever
 * the frame headers claim; and ZSTD_decompressBound() (libzstd 1.4.10 and
 * later) walks the frames and gives their declared content sizes, or blocks
 * times the window, when the frames are well formed (a malformed stream is
 * left to ZSTD_decompress() to name).
 */
static uint64_t zstd_bound(const unsigned char *src, size_t n)
{
	uint64_t bound = (uint64_t)(n / 3) * ZSTD_BLOCKSIZE_MAX;
	unsigned long long b = ZSTD_decompressBound(src, n);

	if (b != ZSTD_CONTENTSIZE_ERROR && b < bound)
		bound = b;
	return bound;
}

/*
 * The libelf type of the decoded contents of a section of type sh_type, for
 * gelf_xlatetom(): the tables elfplt reads; anything else stays bytes.
 */
static Elf_Type contents_type(uint32_t sh_type)
{
	switch (sh_type) {
	case SHT_REL:
		return ELF_T_REL;
	case SHT_RELA:
		return ELF_T_RELA;
	case SHT_SYMTAB:
	case SHT_DYNSYM:
		return ELF_T_SYM;
	case SHT_SYMTAB_SHNDX:
		return ELF_T_WORD;
	case SHT_DYNAMIC:
		return ELF_T_DYN;
	}
	return ELF_T_BYTE;
}

/*
 * Decode SHF_COMPRESSED section idx into s->decoded.  Not elf_compress(scn,
 * 0, 0), libelf's own decoder: it stores the new sh_size, sh_addralign and
 * sh_flags in libelf's section header, and for an image in the host's byte
 * order that header is the one in the image (elf_memory(), ELF_C_READ): a
 * write to the read-only mapping, which kills the process (SIGSEGV with
 * elfutils 0.188).  libelf 0.188 cannot decode ELFCOMPRESS_ZSTD either.
 */
static int decode_section(struct ep_image *img, size_t idx, struct ep_error *err)
{
	struct ep_section *s = &img->sections[idx];
	size_t hdr = chdr_size(img->ehdr.e_ident[EI_CLASS]);
	const unsigned char *src = img->bytes + s->shdr.sh_offset + hdr;
	size_t n = s->shdr.sh_size - hdr; /* check_chdr(): sh_size >= hdr */
	uint64_t want = s->chdr.ch_size, cap = section_decoded_cap();
	uint64_t room = want; /* bytes allocated: want, unless the stream cannot fill it */
	Elf_Data *d;
	int rc;

	rc = load_section(img, idx, err);
	if (rc)
		return rc;
	/* Many sections under the cap each must not add up to a bomb. */
	if (img->bytes_decoded > cap || want > cap - img->bytes_decoded)
		return ep_error_set(err, EP_ENOMEM,
				    "%s: ch_size %" PRIu64 " bytes would take the file's decoded "
				    "sections to %" PRIu64 " bytes, over the %" PRIu64
				    "-byte cap " SEC_FMT,
				    img->path, want, img->bytes_decoded + want, cap,
				    SEC_ARGS(img, idx));
	/*
	 * A size the stream cannot back is corrupt, not a reason to allocate
	 * it.  zlib's deflate expands at most 1032:1 (zlib.net/zlib_tech.html).
	 */
	if (s->chdr.ch_type == ELFCOMPRESS_ZLIB && want / 1032 > n)
		return ep_error_set(err, EP_EMALFORMED,
				    "%s: ch_size %" PRIu64 " bytes cannot come from %zu bytes of "
				    "zlib stream (deflate expands at most 1032:1) " SEC_FMT,
				    img->path, want, n, SEC_ARGS(img, idx));
	if (s->chdr.ch_type == ELFCOMPRESS_ZSTD) {
		room = zstd_bound(src, n);
		if (room > want)
			room = want;
	}
	d = calloc(1, sizeof(*d));
	if (d)
		d->d_buf = malloc(room ? (size_t)room : 1);
	if (!d || !d->d_buf) {
		rc = ep_error_set(err, EP_ENOMEM,
				  "%s: out of memory for %" PRIu64 " decoded bytes " SEC_FMT,
				  img->path, want, SEC_ARGS(img, idx));
		goto fail;
	}
	if (s->chdr.ch_type == ELFCOMPRESS_ZLIB)
		rc = inflate_section(img, idx, src, n, d->d_buf, want, err);
	else
		rc = unzstd_section(img, idx, src, n, d->d_buf, room, want, err);
	if (rc)
		goto fail;
	d->d_type = contents_type(s->shdr.sh_type);
	d->d_version = EV_CURRENT;
	d->d_size = want;
	d->d_align = s->chdr.ch_addralign ? s->chdr.ch_addralign : 1;
	/* In place: libelf's converters go field by field. */
	if (!img->native && d->d_type != ELF_T_BYTE &&
	    !gelf_xlatetom(img->elf, d, d, img->ehdr.e_ident[EI_DATA])) {
		rc = ep_error_set(err, EP_EMALFORMED,
				  "%s: libelf cannot convert the decoded contents: %s " SEC_FMT,
				  img->path, elf_errmsg(-1), SEC_ARGS(img, idx));
		goto fail;
	}
	s->decoded = d;
	img->bytes_decoded += want;
	return 0;
fail:
	if (d)
		free(d->d_buf);
	free(d);
	return rc;
}

Elf_Data *ep_section_data(struct ep_image *img, size_t idx, struct ep_error *err)
{
	Elf_Data *d;

	if (img->sections[idx].compressed) {
		if (!img->sections[idx].decoded && decode_section(img, idx, err))
			return NULL;
		return img->sections[idx].decoded;
	}
	if (load_section(img, idx, err))
		return NULL;
	d = elf_getdata(img->sections[idx].scn, NULL);
	if (!d) {
		ep_error_set(err, EP_EMALFORMED,
			     "%s: libelf cannot read the contents: %s (section %zu %s)", img->path,
			     elf_errmsg(-1), idx, ep_section_label(img, idx));
		return NULL;
	}
	/*
	 * Count libelf's copy once: elf_getdata() returns the same converted
	 * buffer on later calls, and leaves bytes (ELF_T_BYTE: strings,
	 * .modinfo) in the image, where there is nothing to convert.
	 */
	if (!img->native && !img->sections[idx].converted && d->d_buf && d->d_size &&
	    ((const unsigned char *)d->d_buf < img->bytes ||
	     (const unsigned char *)d->d_buf >= img->bytes + img->size)) {
		img->sections[idx].converted = true;
		img->bytes_converted += d->d_size;
	}
	return d;
}

void ep_section_raw(const struct ep_image *img, size_t idx, const unsigned char **bytes,
		    size_t *size)
{
	const GElf_Shdr *sh = &img->sections[idx].shdr;

	if (sh->sh_type == SHT_NOBITS || sh->sh_size == 0 || idx == 0 ||
	    load_section(img, idx, NULL)) {
		*bytes = NULL;
		*size = 0;
		return;
	}
	*bytes = img->bytes + sh->sh_offset;
	*size = sh->sh_size;
}

bool ep_section_is_compressed(const struct ep_image *img, size_t idx)
{
	return img->sections[idx].compressed;
}

uint64_t ep_section_size(const struct ep_image *img, size_t idx)
{
	const struct ep_section *s = &img->sections[idx];

	return s->compressed ? s->chdr.ch_size : s->shdr.sh_size;
}

const char *ep_chtype_name(uint32_t ch_type)
{
	switch (ch_type) {
	case ELFCOMPRESS_ZLIB:
		return "ELFCOMPRESS_ZLIB";
	case ELFCOMPRESS_ZSTD:
		return "ELFCOMPRESS_ZSTD";
	}
	return NULL;
}

const char *ep_chtype_label(uint32_t ch_type)
{
	switch (ch_type) {
	case 0:
		return "none";
	case ELFCOMPRESS_ZLIB:
		return "zlib";
	case ELFCOMPRESS_ZSTD:
		return "zstd";
	}
	return "?";
}

const char *ep_section_label(const struct ep_image *img, size_t idx)
{
	if (idx >= img->shnum || !img->sections[idx].name[0])
		return "(no name)";
	return img->sections[idx].name;
}

size_t ep_image_find_section(const struct ep_image *img, const char *name)
{
	size_t i;

	for (i = 1; i < img->shnum; i++)
		if (strcmp(img->sections[i].name, name) == 0)
			return i;
	return SHN_UNDEF;
}

bool ep_image_is_kernel_module(const struct ep_image *img)
{
	return img->ehdr.e_type == ET_REL && ep_image_find_section(img, ".modinfo") &&
	       ep_image_find_section(img, ".gnu.linkonce.this_module");
}

bool ep_section_is_exec(const struct ep_image *img, size_t idx)
{
	return idx != 0 && idx < img->shnum && (img->sections[idx].shdr.sh_flags & SHF_EXECINSTR);
}

const char *ep_class_name(unsigned int ei_class)
{
	switch (ei_class) {
	case ELFCLASS32:
		return "ELFCLASS32";
	case ELFCLASS64:
		return "ELFCLASS64";
	}
	return "ELFCLASSNONE";
}

const char *ep_data_name(unsigned int ei_data)
{
	switch (ei_data) {
	case ELFDATA2LSB:
		return "ELFDATA2LSB";
	case ELFDATA2MSB:
		return "ELFDATA2MSB";
	}
	return "ELFDATANONE";
}

const char *ep_type_name(unsigned int e_type)
{
	switch (e_type) {
	case ET_NONE:
		return "ET_NONE";
	case ET_REL:
		return "ET_REL";
	case ET_EXEC:
		return "ET_EXEC";
	case ET_DYN:
		return "ET_DYN";
	case ET_CORE:
		return "ET_CORE";
	}
	return "ET_UNKNOWN";
}

const char *ep_type_label(unsigned int e_type)
{
	switch (e_type) {
	case ET_REL:
		return "relocatable";
	case ET_EXEC:
		return "executable";
	case ET_DYN:
		return "shared object";
	case ET_CORE:
		return "core file";
	}
	return "file of unknown type";
}

const char *ep_machine_name(unsigned int e_machine)
{
	size_t i;

	for (i = 0; i < ep_machine_name_count; i++)
		if (ep_machine_name_table[i].e_machine == e_machine)
			return ep_machine_name_table[i].name;
	return NULL;
}

/* The names people use, where <elf.h>'s comment is not one ("ARM AARCH64"). */
static const struct {
	unsigned int e_machine;
	const char *label;
} machine_labels[] = {
	{ EM_AARCH64, "AArch64" },  { EM_X86_64, "x86-64" },
	{ EM_386, "i386" },	    { EM_ARM, "ARM" },
	{ EM_PPC64, "PowerPC64" },  { EM_PPC, "PowerPC" },
	{ EM_S390, "S/390" },	    { EM_RISCV, "RISC-V" },
	{ EM_MIPS, "MIPS" },	    { EM_LOONGARCH, "LoongArch" },
	{ EM_SPARCV9, "SPARC V9" }, { EM_SPARC, "SPARC" },
};

const char *ep_machine_label(unsigned int e_machine, char *buf, size_t bufsize)
{
	size_t i;

	for (i = 0; i < sizeof(machine_labels) / sizeof(machine_labels[0]); i++)
		if (machine_labels[i].e_machine == e_machine)
			return machine_labels[i].label;
	for (i = 0; i < ep_machine_name_count; i++)
		if (ep_machine_name_table[i].e_machine == e_machine &&
		    ep_machine_name_table[i].description[0])
			return ep_machine_name_table[i].description;
	snprintf(buf, bufsize, "machine %u", e_machine);
	return buf;
}

/* A PT_INTERP program header, with the table checked against the image. */
static bool has_interp(const struct ep_image *img)
{
	const GElf_Ehdr *eh = &img->ehdr;
	size_t phnum, i;
	GElf_Phdr ph;

	if (eh->e_phoff == 0 || eh->e_phoff > img->size || eh->e_phentsize == 0 ||
	    elf_getphdrnum(img->elf, &phnum) != 0 ||
	    phnum > (img->size - eh->e_phoff) / eh->e_phentsize ||
	    need(img, eh->e_phoff, (uint64_t)phnum * eh->e_phentsize, NULL))
		return false;
	for (i = 0; i < phnum; i++)
		if (gelf_getphdr(img->elf, (int)i, &ph) && ph.p_type == PT_INTERP)
			return true;
	return false;
}

/* DF_1_PIE in the SHT_DYNAMIC section's DT_FLAGS_1. */
static bool has_df1_pie(struct ep_image *img)
{
	size_t i, k, n;
	GElf_Dyn dyn;
	Elf_Data *d;

	for (i = 1; i < img->shnum; i++) {
		const GElf_Shdr *sh = &img->sections[i].shdr;

		/*
		 * A compressed one is not SHF_ALLOC (check_chdr()), so no loader
		 * reads it; and gelf_getdyn() takes only libelf's own Elf_Data.
		 */
		if (sh->sh_type != SHT_DYNAMIC || sh->sh_entsize == 0 ||
		    img->sections[i].compressed)
			continue;
		d = ep_section_data(img, i, NULL);
		if (!d)
			return false;
		n = d->d_size / sh->sh_entsize;
		for (k = 0; k < n && gelf_getdyn(d, (int)k, &dyn); k++) {
			if (dyn.d_tag == DT_NULL)
				break;
			if (dyn.d_tag == DT_FLAGS_1)
				return dyn.d_un.d_val & DF_1_PIE;
		}
	}
	return false;
}

const char *ep_image_kind_label(struct ep_image *img)
{
	if (ep_image_is_kernel_module(img))
		return "kernel module";
	if (img->ehdr.e_type == ET_DYN && (has_interp(img) || has_df1_pie(img)))
		return "position-independent executable";
	return ep_type_label(img->ehdr.e_type);
}
