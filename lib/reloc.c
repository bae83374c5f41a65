/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <elf.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/reloc.h"
#include "lib/reloc-names.h"

const char *ep_relkind_name(enum ep_relkind kind)
{
	switch (kind) {
	case EP_RELKIND_REL:
		return "REL";
	case EP_RELKIND_RELA:
		return "RELA";
	case EP_RELKIND_RELR:
		return "RELR";
	case EP_RELKIND_CREL:
		return "CREL";
	}
	return "?";
}

uint32_t ep_relkind_sh_type(enum ep_relkind kind)
{
	switch (kind) {
	case EP_RELKIND_REL:
		return SHT_REL;
	case EP_RELKIND_RELA:
		return SHT_RELA;
	case EP_RELKIND_RELR:
		return SHT_RELR;
	case EP_RELKIND_CREL:
		return SHT_CREL;
	}
	return SHT_NULL;
}

bool ep_is_relsec(const GElf_Shdr *sh)
{
	return sh->sh_type == SHT_REL || sh->sh_type == SHT_RELA || sh->sh_type == SHT_RELR ||
	       sh->sh_type == SHT_CREL;
}

/*
 * Section idx's field (sh_link or sh_info, named by field) holds value, a
 * section index: it must be below e_shnum.  Returns 0, or EP_EMALFORMED.
 */
static int check_index(const struct ep_image *img, size_t idx, const char *field, uint32_t value,
		       struct ep_error *err)
{
	if (value < img->shnum)
		return 0;
	return ep_error_set(err, EP_EMALFORMED,
			    "%s: %s %" PRIu32 " is out of range (%zu sections) (section %zu %s)",
			    img->path, field, value, img->shnum, idx, ep_section_label(img, idx));
}

/* Section idx's sh_link (in range) names a section that is not what (EP_EMALFORMED). */
static int link_is_not(const struct ep_image *img, size_t idx, const char *what,
		       struct ep_error *err)
{
	uint32_t link = (uint32_t)img->sections[idx].shdr.sh_link;

	return ep_error_set(err, EP_EMALFORMED,
			    "%s: sh_link %" PRIu32 " (%s) is not %s (section %zu %s)", img->path,
			    link, ep_section_label(img, link), what, idx,
			    ep_section_label(img, idx));
}

/*
 * sh_entsize must be what the class says and divide the contents' size:
 * sh_size, or for an SHF_COMPRESSED table its decoded size ch_size (only the
 * header is read here: the contents are decoded when asked for).
 */
static int check_table(const struct ep_image *img, size_t idx, size_t entsize, struct ep_error *err)
{
	const GElf_Shdr *sh = &img->sections[idx].shdr;
	bool compressed = ep_section_is_compressed(img, idx);
	uint64_t size = ep_section_size(img, idx);

	/* The entry size first: the size cannot be a multiple of a wrong one, or of 0. */
	if (sh->sh_entsize != entsize)
		return ep_error_set(err, EP_EMALFORMED,
				    "%s: sh_entsize %" PRIu64 " is not %zu (section %zu %s)",
				    img->path, (uint64_t)sh->sh_entsize, entsize, idx,
				    ep_section_label(img, idx));
	if (size % sh->sh_entsize != 0)
		return ep_error_set(err, EP_EMALFORMED,
				    "%s: %s %" PRIu64 " is not a multiple of sh_entsize %" PRIu64
				    " (section %zu %s)",
				    img->path, compressed ? "ch_size" : "sh_size", size,
				    (uint64_t)sh->sh_entsize, idx, ep_section_label(img, idx));
	return 0;
}

/* Symbol sym's 16-bit st_shndx field as the file has it. */
static uint32_t sym_st_shndx(const struct ep_symtab *st, size_t sym)
{
	if (st->elfclass == ELFCLASS32)
		return ((const Elf32_Sym *)st->data->d_buf)[sym].st_shndx;
	return ((const Elf64_Sym *)st->data->d_buf)[sym].st_shndx;
}

int ep_symtab_open(struct ep_image *img, size_t idx, struct ep_symtab *st, struct ep_error *err)
{
	unsigned int cls = img->ehdr.e_ident[EI_CLASS];
	const GElf_Shdr *sh;
	size_t i;
	int rc;

	memset(st, 0, sizeof(*st));
	st->elfclass = cls;
	if (idx == 0)
		return 0;
	sh = &img->sections[idx].shdr;
	if (sh->sh_type != SHT_SYMTAB && sh->sh_type != SHT_DYNSYM)
		return ep_error_set(err, EP_EMALFORMED,
				    "%s: section %zu is not a symbol table (section %zu %s)",
				    img->path, idx, idx, ep_section_label(img, idx));
	rc = check_table(img, idx, cls == ELFCLASS32 ? sizeof(Elf32_Sym) : sizeof(Elf64_Sym), err);
	if (rc)
		return rc;
	/* Nothing here reads a symbol's name, but the gABI link must hold. */
	rc = check_index(img, idx, "sh_link", (uint32_t)sh->sh_link, err);
	if (rc)
		return rc;
	if (img->sections[sh->sh_link].shdr.sh_type != SHT_STRTAB)
		return link_is_not(img, idx, "a string table", err);
	st->index = idx;
	st->count = ep_section_size(img, idx) / sh->sh_entsize;
	st->data = ep_section_data(img, idx, err);
	if (!st->data)
		return err ? -err->code : -EP_EMALFORMED;
	if (st->data->d_size < st->count * sh->sh_entsize)
		return ep_error_set(err, EP_EMALFORMED, "%s: short symbol table (section %zu %s)",
				    img->path, idx, ep_section_label(img, idx));

	/* SHN_XINDEX symbols keep their section index in a parallel table. */
	i = img->sections[idx].xindex;
	if (i) {
		uint64_t nx = ep_section_size(img, i) / sizeof(Elf32_Word);

		if (nx < st->count)
			return ep_error_set(err, EP_EMALFORMED,
					    "%s: SHT_SYMTAB_SHNDX has %" PRIu64
					    " entries for %zu symbols (section %zu %s)",
					    img->path, nx, st->count, i, ep_section_label(img, i));
		st->shndx = ep_section_data(img, i, err);
		if (!st->shndx)
			return err ? -err->code : -EP_EMALFORMED;
		if (st->shndx->d_size < st->count * sizeof(Elf32_Word))
			return ep_error_set(err, EP_EMALFORMED,
					    "%s: short SHT_SYMTAB_SHNDX (section %zu %s)",
					    img->path, i, ep_section_label(img, i));
	} else if (!img->sections[idx].symtab_checked) {
		/* Without that table an SHN_XINDEX has no section at all (gABI). */
		for (i = 1; i < st->count; i++) {
			if (sym_st_shndx(st, i) != SHN_XINDEX)
				continue;
			return ep_error_set(err, EP_EMALFORMED,
					    "%s: symbol %zu has st_shndx SHN_XINDEX but no "
					    "SHT_SYMTAB_SHNDX section links to its table "
					    "(section %zu %s)",
					    img->path, i, idx, ep_section_label(img, idx));
		}
	}
	img->sections[idx].symtab_checked = true;
	return 0;
}

uint32_t ep_symtab_shndx(const struct ep_symtab *st, size_t sym)
{
	uint32_t shndx = sym_st_shndx(st, sym);

	if (shndx == SHN_XINDEX && st->shndx && sym < st->shndx->d_size / sizeof(Elf32_Word))
		shndx = ((const Elf32_Word *)st->shndx->d_buf)[sym];
	return shndx;
}

uint32_t ep_symtab_st_shndx(const struct ep_symtab *st, size_t sym)
{
	return sym_st_shndx(st, sym);
}

/* One RELR word in host order; libelf 0.188 leaves SHT_RELR untranslated. */
static uint64_t relr_word(const struct ep_relsec *rs, size_t i)
{
	const unsigned char *p = (const unsigned char *)rs->data->d_buf;
	bool msb = rs->img->ehdr.e_ident[EI_DATA] == ELFDATA2MSB;
	unsigned int ws = rs->img->ehdr.e_ident[EI_CLASS] == ELFCLASS32 ? 4 : 8;
	uint64_t v = 0;
	unsigned int k;

	p += i * ws;
	for (k = 0; k < ws; k++)
		v |= (uint64_t)p[msb ? k : ws - 1 - k] << (8 * (ws - 1 - k));
	return v;
}

static size_t relr_count(const struct ep_relsec *rs)
{
	size_t i, n = 0;

	for (i = 0; i < rs->entries; i++) {
		uint64_t w = relr_word(rs, i);

		n += (w & 1) ? (size_t)__builtin_popcountll(w >> 1) : 1;
	}
	return n;
}

/* A malformed CREL stream: why names what, the section is added here. */
static int crel_error(const struct ep_relsec *rs, const char *why, struct ep_error *err)
{
	return ep_error_set(err, EP_EMALFORMED, "%s: %s (section %zu %s)", rs->img->path, why,
			    rs->index, ep_section_label(rs->img, rs->index));
}

/*
 * Read an SHT_CREL section's header and walk its whole stream once, so a
 * malformed one is an error here, before any counting; the walk only sums.
 */
static int crel_open(struct ep_relsec *rs, struct ep_error *err)
{
	const uint8_t *p = rs->data->d_buf;
	size_t size = rs->data->d_size;
	bool is64 = rs->img->ehdr.e_ident[EI_CLASS] == ELFCLASS64;
	struct ep_crel_state st = { 0 };
	struct ep_crel_rel r;
	const char *why;
	char buf[128];
	int got = 0;

	if (ep_crel_header_read(p, size, &rs->crel, buf, sizeof(buf), &why))
		return crel_error(rs, why, err);
	while ((got = ep_crel_next(p, size, &rs->crel, is64, &st, &r, buf, sizeof(buf), &why)) > 0)
		;
	if (got < 0)
		return crel_error(rs, why, err);
	if (st.pos < size) {
		snprintf(buf, sizeof(buf), "%zu %s after the last CREL relocation", size - st.pos,
			 size - st.pos == 1 ? "byte" : "bytes");
		return crel_error(rs, buf, err);
	}
	rs->entries = rs->count = rs->crel.count;
	return 0;
}

int ep_relsec_open(struct ep_image *img, size_t idx, struct ep_relsec *rs, struct ep_error *err)
{
	const GElf_Shdr *sh = &img->sections[idx].shdr;
	bool is32 = img->ehdr.e_ident[EI_CLASS] == ELFCLASS32;
	size_t entsize;
	int rc;

	memset(rs, 0, sizeof(*rs));
	rs->img = img;
	rs->index = idx;
	switch (sh->sh_type) {
	case SHT_REL:
		rs->kind = EP_RELKIND_REL;
		entsize = is32 ? sizeof(Elf32_Rel) : sizeof(Elf64_Rel);
		break;
	case SHT_RELA:
		rs->kind = EP_RELKIND_RELA;
		entsize = is32 ? sizeof(Elf32_Rela) : sizeof(Elf64_Rela);
		break;
	case SHT_RELR:
		rs->kind = EP_RELKIND_RELR;
		entsize = is32 ? 4 : 8;
		break;
	case SHT_CREL:
		rs->kind = EP_RELKIND_CREL;
		entsize = 0; /* a byte stream: no entry size to check */
		break;
	default:
		return ep_error_set(err, EP_EMALFORMED,
				    "%s: not a relocation section (section %zu %s)", img->path, idx,
				    ep_section_label(img, idx));
	}
	if (entsize) {
		rc = check_table(img, idx, entsize, err);
		if (rc)
			return rc;
		rs->entries = ep_section_size(img, idx) / entsize;
	}
	rs->data = ep_section_data(img, idx, err);
	if (!rs->data)
		return err ? -err->code : -EP_EMALFORMED;
	if (rs->data->d_size < ep_section_size(img, idx))
		return ep_error_set(err, EP_EMALFORMED,
				    "%s: short relocation table (section %zu %s)", img->path, idx,
				    ep_section_label(img, idx));

	if (rs->kind == EP_RELKIND_RELR) {
		/*
		 * A leading bitmap (no address before it) counts from address 0,
		 * as glibc's loader, the kernel's relocate_relr() and readelf
		 * decode it: not an error, so the counts agree with readelf -r.
		 */
		rs->count = relr_count(rs);
		ep_reloc_type_by_kind(img->ehdr.e_machine, "RELATIVE", &rs->relr_type);
		return 0;
	}
	if (rs->kind == EP_RELKIND_CREL) {
		rc = crel_open(rs, err);
		if (rc)
			return rc;
	}
	rs->count = rs->entries;
	rc = check_index(img, idx, "sh_info", (uint32_t)sh->sh_info, err);
	if (rc)
		return rc;
	/* A table of relocations that applies to its own bytes is no ELF file's. */
	if (sh->sh_info == idx)
		return ep_error_set(err, EP_EMALFORMED,
				    "%s: sh_info %" PRIu32
				    " is the relocation section itself (section %zu %s)",
				    img->path, (uint32_t)sh->sh_info, idx,
				    ep_section_label(img, idx));
	rs->target = sh->sh_info;
	rc = check_index(img, idx, "sh_link", (uint32_t)sh->sh_link, err);
	if (rc)
		return rc;
	/* Blame the relocation section, whose sh_link is wrong, not the one it names. */
	if (sh->sh_link != SHN_UNDEF && img->sections[sh->sh_link].shdr.sh_type != SHT_SYMTAB &&
	    img->sections[sh->sh_link].shdr.sh_type != SHT_DYNSYM)
		return link_is_not(img, idx, "a symbol table", err);
	return ep_symtab_open(img, sh->sh_link, &rs->symtab, err);
}

static int bad_sym(const struct ep_relsec *rs, size_t entry, uint32_t sym, struct ep_error *err)
{
	return ep_error_set(err, EP_EMALFORMED,
			    "%s: relocation %zu: r_sym %" PRIu32
			    " is out of range (%zu symbols) (section %zu %s)",
			    rs->img->path, entry, sym, rs->symtab.count, rs->index,
			    ep_section_label(rs->img, rs->index));
}

/*
 * The four table layouts in one macro so each loop stays a straight walk over
 * libelf's (host-order, and on the native path uncopied) array.
 */
#define DECODE(TYPE, R_SYM, R_TYPE, ADDEND)                                                        \
	do {                                                                                       \
		const TYPE *t = (const TYPE *)rs->data->d_buf + cur->entry;                        \
		for (k = 0; k < todo; k++) {                                                       \
			out[k].r_offset = t[k].r_offset;                                           \
			out[k].r_sym = R_SYM(t[k].r_info);                                         \
			out[k].r_type = R_TYPE(t[k].r_info);                                       \
			out[k].r_addend = ADDEND;                                                  \
			out[k].has_addend = rs->kind == EP_RELKIND_RELA;                           \
			out[k].r_type2 = out[k].r_type3 = 0;                                       \
			if (out[k].r_sym >= nsyms && out[k].r_sym != 0)                            \
				return bad_sym(rs, cur->entry + k, out[k].r_sym, err);             \
		}                                                                                  \
	} while (0)

static ssize_t relr_next(const struct ep_relsec *rs, struct ep_rel_cursor *cur, struct ep_rel *out,
			 size_t n)
{
	unsigned int ws = rs->img->ehdr.e_ident[EI_CLASS] == ELFCLASS32 ? 4 : 8;
	size_t k = 0;

	while (cur->entry < rs->entries && n - k >= ws * 8) {
		uint64_t w = relr_word(rs, cur->entry++);
		unsigned int bit;

		if (!(w & 1)) {
			out[k++] = (struct ep_rel){ .r_offset = w, .r_type = rs->relr_type };
			cur->relr_base = w + ws;
			continue;
		}
		for (bit = 1; bit < ws * 8; bit++)
			if (w >> bit & 1)
				out[k++] = (struct ep_rel){
					.r_offset = cur->relr_base + (uint64_t)(bit - 1) * ws,
					.r_type = rs->relr_type,
				};
		cur->relr_base += (uint64_t)(ws * 8 - 1) * ws;
	}
	return (ssize_t)k;
}

/*
 * MIPS64's r_info is no ELF64_R_INFO: a 32-bit r_sym, then the bytes
 * r_ssym, r_type3, r_type2, r_type, in that order in the file whatever its
 * byte order (MIPS64 ELF supplement; binutils' elf64-mips.c,
 * mips_elf64_swap_reloc_in()).  libelf (elfutils 0.188) converts the 64-bit
 * field as a whole, so a big-endian file's value reads r_sym from the high
 * half and r_type from the low byte, and a little-endian file's holds r_sym
 * in the low half and the four bytes above it in reverse: r_type on top.
 * tests/cli/mips64.sh checks both against readelf -rW.
 */
static void mips64_info(uint64_t info, bool msb, struct ep_rel *r)
{
	if (msb) {
		r->r_sym = (uint32_t)(info >> 32);
		r->r_type3 = (uint8_t)(info >> 16);
		r->r_type2 = (uint8_t)(info >> 8);
		r->r_type = (uint8_t)info;
	} else {
		r->r_sym = (uint32_t)info;
		r->r_type3 = (uint8_t)(info >> 40);
		r->r_type2 = (uint8_t)(info >> 48);
		r->r_type = (uint8_t)(info >> 56);
	}
}

static ssize_t mips64_next(const struct ep_relsec *rs, struct ep_rel_cursor *cur,
			   struct ep_rel *out, size_t todo, struct ep_error *err)
{
	bool msb = rs->img->ehdr.e_ident[EI_DATA] == ELFDATA2MSB;
	bool rela = rs->kind == EP_RELKIND_RELA;
	size_t k;

	for (k = 0; k < todo; k++) {
		size_t i = cur->entry + k;
		uint64_t info;

		memset(&out[k], 0, sizeof(out[k]));
		if (rela) {
			const Elf64_Rela *t = (const Elf64_Rela *)rs->data->d_buf + i;

			out[k].r_offset = t->r_offset;
			out[k].r_addend = t->r_addend;
			info = t->r_info;
		} else {
			const Elf64_Rel *t = (const Elf64_Rel *)rs->data->d_buf + i;

			out[k].r_offset = t->r_offset;
			info = t->r_info;
		}
		out[k].has_addend = rela;
		mips64_info(info, msb, &out[k]);
		if (out[k].r_sym >= rs->symtab.count && out[k].r_sym != 0)
			return bad_sym(rs, i, out[k].r_sym, err);
	}
	cur->entry += todo;
	return (ssize_t)todo;
}

/* The stream was checked whole by crel_open(): only r_sym can fail here. */
static ssize_t crel_next(const struct ep_relsec *rs, struct ep_rel_cursor *cur, struct ep_rel *out,
			 size_t n, struct ep_error *err)
{
	bool is64 = rs->img->ehdr.e_ident[EI_CLASS] == ELFCLASS64;
	struct ep_crel_rel r;
	const char *why;
	char buf[128];
	size_t k = 0;
	int got = 0;

	while (k < n && (got = ep_crel_next(rs->data->d_buf, rs->data->d_size, &rs->crel, is64,
					    &cur->crel, &r, buf, sizeof(buf), &why)) > 0) {
		if (r.r_sym >= rs->symtab.count && r.r_sym != 0)
			return bad_sym(rs, cur->entry, r.r_sym, err);
		out[k++] = (struct ep_rel){
			.r_offset = r.r_offset,
			.r_type = r.r_type,
			.r_sym = r.r_sym,
			.r_addend = r.r_addend,
			.has_addend = rs->crel.has_addend,
		};
		cur->entry++;
	}
	if (k < n && got < 0)
		return crel_error(rs, why, err);
	return (ssize_t)k;
}

ssize_t ep_relsec_next(const struct ep_relsec *rs, struct ep_rel_cursor *cur, struct ep_rel *out,
		       size_t n, struct ep_error *err)
{
	size_t nsyms = rs->symtab.count, todo, k;

	if (rs->kind == EP_RELKIND_RELR)
		return relr_next(rs, cur, out, n);
	if (rs->kind == EP_RELKIND_CREL)
		return crel_next(rs, cur, out, n, err);
	todo = rs->entries - cur->entry;
	if (todo > n)
		todo = n;
	if (todo == 0)
		return 0; /* an empty table has no d_buf to index */
	if (rs->img->ehdr.e_ident[EI_CLASS] == ELFCLASS64 && rs->img->ehdr.e_machine == EM_MIPS)
		return mips64_next(rs, cur, out, todo, err);
	if (rs->img->ehdr.e_ident[EI_CLASS] == ELFCLASS32) {
		if (rs->kind == EP_RELKIND_RELA)
			DECODE(Elf32_Rela, ELF32_R_SYM, ELF32_R_TYPE, t[k].r_addend);
		else
			DECODE(Elf32_Rel, ELF32_R_SYM, ELF32_R_TYPE, 0);
	} else {
		if (rs->kind == EP_RELKIND_RELA)
			DECODE(Elf64_Rela, ELF64_R_SYM, ELF64_R_TYPE, t[k].r_addend);
		else
			DECODE(Elf64_Rel, ELF64_R_SYM, ELF64_R_TYPE, 0);
	}
	cur->entry += todo;
	return (ssize_t)todo;
}

int ep_relsec_read_all(const struct ep_relsec *rs, struct ep_rel **out, struct ep_error *err)
{
	struct ep_rel_cursor cur = { 0 };
	size_t have = 0, cap = rs->count + EP_REL_BATCH_MIN;
	struct ep_rel *v;
	ssize_t got;

	v = malloc(cap * sizeof(*v));
	if (!v)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory for %zu relocations",
				    rs->img->path, rs->count);
	while ((got = ep_relsec_next(rs, &cur, v + have, cap - have, err)) > 0)
		have += (size_t)got;
	if (got < 0) {
		free(v);
		return (int)got;
	}
	*out = v;
	return 0;
}

/* Name table sorted by (e_machine, r_type, position in <elf.h>), built once. */
static const struct ep_reloc_name **sorted_names;
static pthread_once_t sorted_once = PTHREAD_ONCE_INIT;

static int cmp_name(const void *a, const void *b)
{
	const struct ep_reloc_name *x = *(const struct ep_reloc_name *const *)a;
	const struct ep_reloc_name *y = *(const struct ep_reloc_name *const *)b;

	if (x->e_machine != y->e_machine)
		return x->e_machine < y->e_machine ? -1 : 1;
	if (x->r_type != y->r_type)
		return x->r_type < y->r_type ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void sort_names(void)
{
	size_t i;

	sorted_names = malloc(ep_reloc_name_count * sizeof(*sorted_names));
	if (!sorted_names)
		return;
	for (i = 0; i < ep_reloc_name_count; i++)
		sorted_names[i] = &ep_reloc_name_table[i];
	qsort(sorted_names, ep_reloc_name_count, sizeof(*sorted_names), cmp_name);
}

static const struct ep_reloc_name *find_name(unsigned int e_machine, uint32_t r_type)
{
	size_t lo = 0, hi = ep_reloc_name_count;

	pthread_once(&sorted_once, sort_names);
	if (!sorted_names)
		return NULL;
	/* First entry not less than (e_machine, r_type): the earliest name. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ep_reloc_name *m = sorted_names[mid];

		if (m->e_machine < e_machine || (m->e_machine == e_machine && m->r_type < r_type))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < ep_reloc_name_count && sorted_names[lo]->e_machine == e_machine &&
	    sorted_names[lo]->r_type == r_type)
		return sorted_names[lo];
	return NULL;
}

const char *ep_reloc_type_name(unsigned int e_machine, uint32_t r_type)
{
	const struct ep_reloc_name *n = find_name(e_machine, r_type);

	return n ? n->name : NULL;
}

const char *ep_reloc_type_kind(unsigned int e_machine, uint32_t r_type)
{
	const struct ep_reloc_name *n = find_name(e_machine, r_type);

	return n ? n->name + n->prefix_len : NULL;
}

bool ep_reloc_type_by_kind(unsigned int e_machine, const char *kind, uint32_t *r_type)
{
	size_t i;

	for (i = 0; i < ep_reloc_name_count; i++) {
		const struct ep_reloc_name *n = &ep_reloc_name_table[i];

		if (n->e_machine == e_machine && strcmp(n->name + n->prefix_len, kind) == 0) {
			*r_type = n->r_type;
			return true;
		}
	}
	return false;
}

uint64_t ep_relr_encoded_size(const uint64_t *addr, size_t n, unsigned int word_size)
{
	const uint64_t nbits = (uint64_t)word_size * 8 - 1;
	uint64_t words = 0;
	size_t i = 0;

	while (i < n) {
		uint64_t base = addr[i++] + word_size;

		words++; /* the address entry */
		for (;;) {
			uint64_t bitmap = 0;

			for (; i < n; i++) {
				uint64_t d = addr[i] - base;

				if (addr[i] < base || d >= nbits * word_size || d % word_size)
					break;
				bitmap |= 1ULL << (d / word_size);
			}
			if (!bitmap)
				break;
			words++; /* one bitmap entry */
			base += nbits * word_size;
		}
	}
	return words * word_size;
}
