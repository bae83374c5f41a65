/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "lib/dynamic.h"
#include "lib/stats.h"
#include "lib/xref.h"

/* First table size: more distinct types than one relocation section holds. */
#define TYPE_SLOTS_MIN 32

/* Fibonacci hashing: spreads the clustered psABI numbers (257..313) apart. */
static inline size_t type_slot(uint32_t r_type, size_t cap)
{
	return (size_t)((r_type * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

/* The slot holding r_type, or the free slot where it belongs.  tc->cap > 0. */
static inline struct ep_type_count *type_find(const struct ep_type_counts *tc, uint32_t r_type)
{
	size_t i = type_slot(r_type, tc->cap);

	while (tc->slots[i].count && tc->slots[i].r_type != r_type)
		i = (i + 1) & (tc->cap - 1);
	return &tc->slots[i];
}

static int type_grow(struct ep_type_counts *tc)
{
	struct ep_type_counts bigger = { 0 };
	size_t i;

	bigger.cap = tc->cap ? tc->cap * 2 : TYPE_SLOTS_MIN;
	bigger.slots = calloc(bigger.cap, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -EP_ENOMEM;
	for (i = 0; i < tc->cap; i++)
		if (tc->slots[i].count)
			*type_find(&bigger, tc->slots[i].r_type) = tc->slots[i];
	bigger.n = tc->n;
	free(tc->slots);
	*tc = bigger;
	return 0;
}

/* Keep the table at most three quarters full, so probes stay short. */
static inline int type_add(struct ep_type_counts *tc, uint32_t r_type, uint64_t n)
{
	struct ep_type_count *e;

	if (tc->cap == 0 && type_grow(tc))
		return -EP_ENOMEM;
	e = type_find(tc, r_type);
	if (!e->count) {
		if ((tc->n + 1) * 4 > tc->cap * 3) {
			if (type_grow(tc))
				return -EP_ENOMEM;
			e = type_find(tc, r_type);
		}
		e->r_type = r_type;
		tc->n++;
	}
	e->count += n;
	return 0;
}

int ep_type_counts_add(struct ep_type_counts *tc, uint32_t r_type, uint64_t n)
{
	return n ? type_add(tc, r_type, n) : 0;
}

uint64_t ep_type_counts_get(const struct ep_type_counts *tc, uint32_t r_type)
{
	return tc->cap ? type_find(tc, r_type)->count : 0;
}

int ep_type_counts_merge(struct ep_type_counts *dst, const struct ep_type_counts *src)
{
	size_t i;

	for (i = 0; i < src->cap; i++)
		if (src->slots[i].count && type_add(dst, src->slots[i].r_type, src->slots[i].count))
			return -EP_ENOMEM;
	return 0;
}

static int cmp_count(const void *a, const void *b)
{
	const struct ep_type_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->r_type < y->r_type ? -1 : x->r_type > y->r_type;
}

struct ep_type_count *ep_type_counts_sorted(const struct ep_type_counts *tc, size_t *n)
{
	struct ep_type_count *v;
	size_t i, k = 0;

	*n = 0;
	if (tc->n == 0)
		return NULL;
	v = malloc(tc->n * sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < tc->cap; i++)
		if (tc->slots[i].count)
			v[k++] = tc->slots[i];
	qsort(v, k, sizeof(*v), cmp_count);
	*n = k;
	return v;
}

void ep_type_counts_free(struct ep_type_counts *tc)
{
	free(tc->slots);
	memset(tc, 0, sizeof(*tc));
}

const char *ep_symclass_name(enum ep_symclass c)
{
	static const char *const names[EP_SYM_NCLASS] = {
		"none", "undefined", "same_section", "other_section", "absolute_or_common",
		"unknown",
	};

	return c < EP_SYM_NCLASS ? names[c] : "?";
}

enum ep_symclass ep_symclass_of(uint32_t r_sym, uint32_t st_shndx, uint32_t shndx, size_t target)
{
	if (r_sym == 0)
		return EP_SYM_NONE;
	if (shndx == SHN_UNDEF)
		return EP_SYM_UNDEF;
	/* Only the field as stored can be reserved: SHN_XINDEX leads to a section. */
	if (st_shndx >= SHN_LORESERVE && st_shndx <= SHN_HIRESERVE && st_shndx != SHN_XINDEX)
		return EP_SYM_ABS_COMMON;
	return shndx == target ? EP_SYM_SAME_SECTION : EP_SYM_OTHER_SECTION;
}

const char *ep_dynkind_name(enum ep_dynkind k)
{
	static const char *const names[EP_DYN_NKIND] = {
		"relative", "glob_dat", "jump_slot", "irelative", "other",
	};

	return k < EP_DYN_NKIND ? names[k] : "?";
}

enum ep_dynkind ep_dynkind_of(unsigned int e_machine, uint32_t r_type)
{
	const char *kind = ep_reloc_type_kind(e_machine, r_type);

	if (!kind)
		return EP_DYN_OTHER;
	if (strcmp(kind, "RELATIVE") == 0)
		return EP_DYN_RELATIVE;
	if (strcmp(kind, "GLOB_DAT") == 0)
		return EP_DYN_GLOB_DAT;
	if (strcmp(kind, "JUMP_SLOT") == 0 || strcmp(kind, "JMP_SLOT") == 0)
		return EP_DYN_JUMP_SLOT;
	if (strcmp(kind, "IRELATIVE") == 0)
		return EP_DYN_IRELATIVE;
	return EP_DYN_OTHER;
}

void ep_sizes_of(const struct ep_image *img, struct ep_sizes *sz)
{
	size_t i;

	memset(sz, 0, sizeof(*sz));
	for (i = 1; i < img->shnum; i++) {
		const GElf_Shdr *sh = &img->sections[i].shdr;

		if (!(sh->sh_flags & SHF_ALLOC))
			continue;
		/* binutils size.c berkeley_sum(): code or read-only, then contents. */
		if ((sh->sh_flags & SHF_EXECINSTR) || !(sh->sh_flags & SHF_WRITE))
			sz->text += sh->sh_size;
		else if (sh->sh_type != SHT_NOBITS)
			sz->data += sh->sh_size;
		else
			sz->bss += sh->sh_size;
	}
}

static void compressed_count_add(struct ep_compressed_count *c, uint64_t n, uint64_t bytes,
				 uint64_t decoded_bytes)
{
	c->count += n;
	c->bytes += bytes;
	c->decoded_bytes += decoded_bytes;
}

void ep_compressed_of(const struct ep_image *img, struct ep_compressed_sizes *c)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 1; i < img->shnum; i++) {
		const struct ep_section *s = &img->sections[i];

		if (!ep_section_is_compressed(img, i) || s->chdr.ch_type > EP_CHTYPE_MAX)
			continue;
		compressed_count_add(&c->all, 1, s->shdr.sh_size, s->chdr.ch_size);
		compressed_count_add(&c->by_type[s->chdr.ch_type], 1, s->shdr.sh_size,
				     s->chdr.ch_size);
	}
}

void ep_compressed_add(struct ep_compressed_sizes *dst, const struct ep_compressed_sizes *src)
{
	size_t t;

	compressed_count_add(&dst->all, src->all.count, src->all.bytes, src->all.decoded_bytes);
	for (t = 0; t <= EP_CHTYPE_MAX; t++)
		compressed_count_add(&dst->by_type[t], src->by_type[t].count, src->by_type[t].bytes,
				     src->by_type[t].decoded_bytes);
}

int ep_stats_count(struct ep_relsec_stats *s, const struct ep_rel *r, size_t n,
		   const struct ep_symtab *st, uint64_t *seen)
{
	struct ep_type_count *last = NULL; /* in use; valid until the table grows */
	bool unknown = !st->data && st->count; /* a table ep_xref_relsec_open() could not read */
	size_t i;

	for (i = 0; i < n; i++) {
		uint32_t sym = r[i].r_sym;
		bool valid = sym && sym < st->count && !unknown;
		uint32_t st_shndx = valid ? ep_symtab_st_shndx(st, sym) : SHN_UNDEF;
		uint32_t shndx = valid ? ep_symtab_shndx(st, sym) : SHN_UNDEF;

		/* Runs of one type are common (a function's CALL26s): skip the probe. */
		if (!last || last->r_type != r[i].r_type)
			last = s->types.cap ? type_find(&s->types, r[i].r_type) : NULL;
		if (last && last->count) {
			last->count++;
		} else {
			if (type_add(&s->types, r[i].r_type, 1))
				return -EP_ENOMEM;
			last = type_find(&s->types, r[i].r_type);
		}
		/* MIPS64's second and third types, as readelf lists them; not R_MIPS_NONE. */
		if ((r[i].r_type2 && type_add(&s->types, r[i].r_type2, 1)) ||
		    (r[i].r_type3 && type_add(&s->types, r[i].r_type3, 1)))
			return -EP_ENOMEM;
		if (r[i].r_type2 || r[i].r_type3)
			last = NULL; /* the table may have grown */
		s->by_symclass[sym && unknown ? EP_SYM_UNKNOWN
					      : ep_symclass_of(sym, st_shndx, shndx, s->target)]++;
		if (seen && sym)
			seen[sym / 64] |= 1ULL << (sym % 64);
	}
	return 0;
}

/* Bitmaps of referenced symbols, one per symbol table section. */
struct seen_set {
	size_t *symtab;
	uint64_t **bits;
	size_t *nsyms;
	size_t n;
	size_t *slot; /* per section index: 1 + its place above, or 0 */
};

static uint64_t *seen_for(struct seen_set *ss, const struct ep_symtab *st, size_t max)
{
	if (st->index == 0)
		return NULL;
	/* Not a search: a file can have as many symbol tables as relocation sections. */
	if (ss->slot[st->index])
		return ss->bits[ss->slot[st->index] - 1];
	if (ss->n == max)
		return NULL;
	ss->bits[ss->n] = calloc((st->count + 63) / 64, sizeof(uint64_t));
	if (!ss->bits[ss->n])
		return NULL;
	ss->symtab[ss->n] = st->index;
	ss->nsyms[ss->n] = st->count;
	ss->slot[st->index] = ss->n + 1;
	return ss->bits[ss->n++];
}

static uint64_t seen_total(struct seen_set *ss)
{
	uint64_t total = 0;
	size_t i, w;

	for (i = 0; i < ss->n; i++) {
		for (w = 0; w < (ss->nsyms[i] + 63) / 64; w++)
			total += (uint64_t)__builtin_popcountll(ss->bits[i][w]);
		free(ss->bits[i]);
	}
	return total;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* RELATIVE offsets of REL/RELA tables, kept to price SHT_RELR packing. */
struct offsets {
	uint64_t *v;
	size_t n, cap;
};

static int offsets_push(struct offsets *o, uint64_t off)
{
	if (o->n == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 1024;
		uint64_t *v = realloc(o->v, cap * sizeof(*v));

		if (!v)
			return -EP_ENOMEM;
		o->v = v;
		o->cap = cap;
	}
	o->v[o->n++] = off;
	return 0;
}

static int count_dynamic(const struct ep_image *img, const struct ep_relsec *rs,
			 uint64_t entsize, const struct ep_rel *r, size_t n,
			 struct ep_dyn_stats *dyn, struct offsets *rel_offsets)
{
	unsigned int ws = img->ehdr.e_ident[EI_CLASS] == ELFCLASS32 ? 4 : 8;
	size_t i;

	for (i = 0; i < n; i++) {
		enum ep_dynkind k = ep_dynkind_of(img->ehdr.e_machine, r[i].r_type);

		dyn->by_kind[k]++;
		if (k != EP_DYN_RELATIVE || rs->kind == EP_RELKIND_RELR)
			continue;
		dyn->relative_in_rel++;
		dyn->relative_in_rel_bytes += entsize;
		/* SHT_RELR can only describe word-aligned places. */
		if (r[i].r_offset % ws == 0 && offsets_push(rel_offsets, r[i].r_offset))
			return -EP_ENOMEM;
	}
	return 0;
}

static void price_relr(const struct ep_image *img, struct ep_dyn_stats *dyn, struct offsets *o)
{
	unsigned int ws = img->ehdr.e_ident[EI_CLASS] == ELFCLASS32 ? 4 : 8;
	size_t i, k = 0;
	uint64_t entsize = 0;

	if (dyn->relative_in_rel)
		entsize = dyn->relative_in_rel_bytes / dyn->relative_in_rel;
	if (o->n) /* qsort()'s base must not be NULL, even for 0 elements */
		qsort(o->v, o->n, sizeof(*o->v), cmp_u64);
	for (i = 0; i < o->n; i++) /* one place relocated twice packs once */
		if (k == 0 || o->v[i] != o->v[k - 1])
			o->v[k++] = o->v[i];
	dyn->relr_packable = o->n;
	dyn->relr_packed_bytes = ep_relr_encoded_size(o->v, k, ws);
	dyn->relr_savings_bytes = (int64_t)(o->n * entsize) - (int64_t)dyn->relr_packed_bytes;
}

void ep_crel_cost_add(struct ep_crel_cost *dst, const struct ep_crel_cost *src)
{
	dst->sections += src->sections;
	dst->bytes += src->bytes;
	dst->crel_bytes += src->crel_bytes;
}

/* Price r[0..n) as CREL entries; the addends REL keeps in the places stay 0. */
static void crel_size_add(struct ep_crel_sizer *z, const struct ep_rel *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		ep_crel_sizer_add(z, r[i].r_offset, r[i].r_sym, r[i].r_type, r[i].r_addend);
}

static int stats_section(struct ep_image *img, size_t idx, struct ep_relsec_stats *s,
			 struct seen_set *seen, size_t nseen_max, struct ep_file_stats *fs,
			 struct offsets *rel_offsets, struct ep_error *err)
{
	struct ep_rel buf[1024];
	struct ep_rel_cursor cur = { 0 };
	struct ep_crel_sizer crel = { 0 };
	struct ep_relsec rs;
	uint64_t *bits;
	bool unknown;
	ssize_t got;
	int rc;

	rc = ep_xref_relsec_open(img, idx, &rs, &unknown, &fs->warnings, err);
	if (rc)
		return rc;
	s->index = idx;
	s->name = img->sections[idx].name;
	s->kind = rs.kind;
	s->entries = rs.entries;
	s->relocations = rs.count;
	s->target = rs.target;
	s->target_name = rs.target ? img->sections[rs.target].name : "";
	s->target_exec = ep_section_is_exec(img, rs.target);
	s->symtab = rs.symtab.index;
	s->dynamic = img->sections[idx].shdr.sh_flags & SHF_ALLOC;
	s->bytes = img->sections[idx].shdr.sh_size;
	s->ch_type = ep_section_is_compressed(img, idx) ? img->sections[idx].chdr.ch_type : 0;
	s->decoded_bytes = ep_section_size(img, idx);
	bits = unknown ? NULL : seen_for(seen, &rs.symtab, nseen_max);
	crel.is64 = img->ehdr.e_ident[EI_CLASS] == ELFCLASS64;

	while ((got = ep_relsec_next(&rs, &cur, buf, 1024, err)) > 0) {
		if (ep_stats_count(s, buf, (size_t)got, &rs.symtab, bits))
			goto nomem;
		if (rs.kind != EP_RELKIND_RELR)
			crel_size_add(&crel, buf, (size_t)got);
		if (fs->linked && (s->dynamic || rs.kind == EP_RELKIND_RELR) &&
		    count_dynamic(img, &rs, img->sections[idx].shdr.sh_entsize, buf, (size_t)got,
				  &fs->dyn, rel_offsets))
			goto nomem;
	}
	if (got < 0)
		return (int)got;
	s->crel_bytes = s->bytes;
	if (rs.kind != EP_RELKIND_RELR) {
		s->crel_bytes = ep_crel_sizer_bytes(&crel);
		fs->crel.sections++;
		fs->crel.bytes += s->bytes;
		fs->crel.crel_bytes += s->crel_bytes;
	}
	if (rs.kind == EP_RELKIND_RELR && fs->linked) {
		fs->dyn.relr_present += rs.count;
		fs->dyn.relr_present_bytes += s->bytes;
	}
	return 0;
nomem:
	return ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
}

/* Table t of a file without section headers, counted as stats_section() counts one. */
static int stats_dyntable(struct ep_image *img, const struct ep_dynamic *dy, enum ep_dyntab t,
			  const struct ep_symtab *st, uint64_t *seen, struct ep_file_stats *fs,
			  struct offsets *rel_offsets, struct ep_error *err)
{
	struct ep_relsec_stats *s = &fs->secs[fs->nsecs++];
	struct ep_rel buf[1024];
	struct ep_rel_cursor cur = { 0 };
	struct ep_relsec rs;
	ssize_t got;
	size_t c;

	ep_dynamic_relsec(img, dy, t, &rs);
	rs.symtab = *st;
	s->name = dy->tab[t].tag;
	s->kind = rs.kind;
	s->entries = rs.entries;
	s->relocations = rs.count;
	s->target_name = "";
	s->dynamic = true;
	s->bytes = dy->tab[t].bytes;
	s->decoded_bytes = s->bytes;
	while ((got = ep_relsec_next(&rs, &cur, buf, 1024, err)) > 0)
		if (ep_stats_count(s, buf, (size_t)got, st, seen) ||
		    count_dynamic(img, &rs, dy->tab[t].entsize, buf, (size_t)got, &fs->dyn,
				  rel_offsets))
			return ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	if (got < 0)
		return (int)got;
	if (rs.kind == EP_RELKIND_RELR) {
		fs->dyn.relr_present += rs.count;
		fs->dyn.relr_present_bytes += s->bytes;
	}
	fs->relocations += s->relocations;
	for (c = 0; c < EP_SYM_NCLASS; c++)
		fs->by_symclass[c] += s->by_symclass[c];
	if (ep_type_counts_merge(&fs->types, &s->types))
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	return 0;
}

/* The highest r_sym of dy's REL/RELA tables: how many DT_SYMTAB entries to read. */
static uint32_t dynamic_max_sym(struct ep_image *img, const struct ep_dynamic *dy)
{
	struct ep_rel buf[1024];
	uint32_t max = 0;
	size_t t;

	for (t = 0; t < EP_DT_NTAB; t++) {
		struct ep_rel_cursor cur = { 0 };
		struct ep_relsec rs;
		ssize_t got, k;

		if (!dy->tab[t].data || dy->tab[t].kind == EP_RELKIND_RELR)
			continue;
		ep_dynamic_relsec(img, dy, (enum ep_dyntab)t, &rs);
		while ((got = ep_relsec_next(&rs, &cur, buf, 1024, NULL)) > 0)
			for (k = 0; k < got; k++)
				if (buf[k].r_sym > max)
					max = buf[k].r_sym;
	}
	return max;
}

/*
 * A linked file without section headers: its relocations as the dynamic
 * loader finds them, through PT_DYNAMIC (lib/dynamic.h), one entry of
 * fs->secs per table, named by its tag.
 */
static int stats_dynamic(struct ep_image *img, struct ep_file_stats *fs, struct ep_error *err)
{
	struct offsets rel_offsets = { 0 };
	struct ep_dynamic dy;
	struct ep_symtab st;
	uint64_t *seen = NULL;
	uint32_t max;
	size_t t, n = 0, w;
	int rc;

	rc = ep_dynamic_read(img, &dy, err);
	if (rc || !dy.present)
		return rc;
	fs->from_dynamic = true;
	for (t = 0; t < EP_DT_NTAB; t++)
		n += dy.tab[t].present;
	if (n == 0)
		return 0;
	max = dynamic_max_sym(img, &dy);
	rc = ep_dynamic_symtab(img, &dy, max ? (size_t)max + 1 : 0, &st, err);
	if (rc)
		return rc;
	fs->secs = calloc(n, sizeof(*fs->secs));
	seen = calloc(((size_t)max + 64) / 64, sizeof(*seen));
	if (!fs->secs || !seen) {
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
		goto out;
	}
	for (t = 0; t < EP_DT_NTAB && rc == 0; t++)
		if (dy.tab[t].present)
			rc = stats_dyntable(img, &dy, (enum ep_dyntab)t, &st, seen, fs,
					    &rel_offsets, err);
	if (rc == 0)
		price_relr(img, &fs->dyn, &rel_offsets);
	for (w = 0; w < ((size_t)max + 64) / 64; w++)
		fs->distinct_symbols += (uint64_t)__builtin_popcountll(seen[w]);
out:
	free(seen);
	free(rel_offsets.v);
	return rc;
}

/*
 * A linked file with section headers: its PT_DYNAMIC compared with them.
 * What is wrong there is a warning: the sections are what is counted.
 */
static void check_dynamic(struct ep_image *img, struct ep_file_stats *fs)
{
	struct ep_dynamic dy;
	struct ep_error e;

	if (ep_dynamic_read(img, &dy, &e) == 0)
		ep_dynamic_compare(img, &dy, &fs->warnings);
	else
		ep_warn(&fs->warnings, "dynamic_unreadable", "%s",
			strncmp(e.message, img->path, strlen(img->path)) == 0 &&
					e.message[strlen(img->path)] == ':'
				? e.message + strlen(img->path) + 2
				: e.message);
}

int ep_stats_file(struct ep_image *img, struct ep_file_stats *fs, struct ep_error *err)
{
	struct offsets rel_offsets = { 0 };
	struct seen_set seen = { 0 };
	size_t i, nrel = 0, c;
	int rc = 0;

	memset(fs, 0, sizeof(*fs));
	fs->kernel_module = ep_image_is_kernel_module(img);
	fs->linked = img->ehdr.e_type == ET_EXEC || img->ehdr.e_type == ET_DYN;
	ep_sizes_of(img, &fs->sizes);
	ep_compressed_of(img, &fs->compressed);
	if (fs->linked && img->shnum == 0)
		return stats_dynamic(img, fs, err);
	ep_xref_check(img, &fs->warnings);
	if (fs->linked)
		check_dynamic(img, fs);
	for (i = 1; i < img->shnum; i++)
		nrel += ep_is_relsec(&img->sections[i].shdr);
	if (nrel == 0)
		return 0;
	fs->secs = calloc(nrel, sizeof(*fs->secs));
	seen.symtab = calloc(nrel, sizeof(size_t));
	seen.nsyms = calloc(nrel, sizeof(size_t));
	seen.bits = calloc(nrel, sizeof(uint64_t *));
	seen.slot = calloc(img->shnum, sizeof(size_t));
	if (!fs->secs || !seen.symtab || !seen.nsyms || !seen.bits || !seen.slot) {
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
		goto out;
	}
	for (i = 1; i < img->shnum && rc == 0; i++) {
		struct ep_relsec_stats *s;

		if (!ep_is_relsec(&img->sections[i].shdr))
			continue;
		s = &fs->secs[fs->nsecs++];
		rc = stats_section(img, i, s, &seen, nrel, fs, &rel_offsets, err);
		if (rc)
			break;
		fs->relocations += s->relocations;
		for (c = 0; c < EP_SYM_NCLASS; c++)
			fs->by_symclass[c] += s->by_symclass[c];
		if (ep_type_counts_merge(&fs->types, &s->types))
			rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	}
	if (rc == 0 && fs->linked)
		price_relr(img, &fs->dyn, &rel_offsets);
out:
	fs->distinct_symbols = seen_total(&seen);
	free(seen.symtab);
	free(seen.nsyms);
	free(seen.bits);
	free(seen.slot);
	free(rel_offsets.v);
	return rc;
}

void ep_stats_free(struct ep_file_stats *fs)
{
	size_t i;

	for (i = 0; i < fs->nsecs; i++)
		ep_type_counts_free(&fs->secs[i].types);
	free(fs->secs);
	ep_type_counts_free(&fs->types);
	ep_warnings_free(&fs->warnings);
	memset(fs, 0, sizeof(*fs));
}
