/* SPDX-License-Identifier: MIT */
/*
 * Attribution (lib/attr.h): each site or relocation gets a name per --by
 * (a symbol, a function, a compile unit, a file:line, a section), and the
 * sites of one name are added up into a row (found by a hash of the name,
 * its bytes kept once), the rows then sorted.  Symbol
 * names come straight from the symbol and string tables the relocation
 * section links; functions from the STT_FUNC and STT_GNU_IFUNC symbols
 * with a size, per section, sorted once per file.  A branch through a
 * section symbol (a static function in another section, as GCC's
 * -ffunction-sections code calls it) is named after the function at the
 * addend when there is one, else "section+0xADDEND".
 */
#include "config.h"

#include <elf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/attr.h"
#include "lib/hash.h"
#include "lib/reloc.h"
#include "lib/sort.h"
#include "lib/xref.h"

static const char *const by_names[EP_BY_NBY] = { "callee", "caller", "cu",     "line",
						 "cause",  "symbol", "section" };

const char *ep_attr_by_name(unsigned int bit)
{
	unsigned int i;

	for (i = 0; i < EP_BY_NBY; i++)
		if (bit == 1u << i)
			return by_names[i];
	return NULL;
}

int ep_attr_parse(const char *arg, unsigned int allowed, unsigned int *by)
{
	const char *p = arg;

	*by = 0;
	while (*p) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < EP_BY_NBY; i++)
			if ((allowed & 1u << i) && strlen(by_names[i]) == len &&
			    strncmp(p, by_names[i], len) == 0)
				break;
		if (i == EP_BY_NBY)
			return -1;
		*by |= 1u << i;
		p += len;
		if (*p == ',' && *++p == '\0')
			return -1;
	}
	return *by ? 0 : -1;
}

/* SORT_BY: lib/sort.h's introsort, the comparison inlined. */
#define SORT_BY EP_SORT_BY

/* ---- rows ----------------------------------------------------------------------- */

/* A row while it is added up: its name at off in the rowset's pool. */
struct brow {
	uint64_t sites, reserved, minimum;
	uint64_t hash;
	size_t off, len;
	const char *name; /* pool + off, once the pool moves no more */
};

/*
 * A table's rows while the sites are added up, each distinct name once:
 * the names' bytes in one pool (not an allocation per row), a row found
 * again by a hash of its name (not a sort of the names: a module tree has
 * hundreds of thousands of rows).  scratch holds a name being formatted.
 */
struct rowset {
	struct brow *rows;
	size_t n, cap;
	char *pool;
	size_t used, size;
	uint32_t *slots; /* open addressing: a row's index + 1, 0 when free */
	size_t nslots;	 /* a power of two, more than twice n */
	char *scratch;
	size_t scratch_size;
};

static void rowset_free(struct rowset *rs)
{
	free(rs->rows);
	free(rs->pool);
	free(rs->slots);
	free(rs->scratch);
	memset(rs, 0, sizeof(*rs));
}

/* A hash of len bytes of s, eight at a time, keyed by the process's seed (lib/hash.h). */
static uint64_t name_hash(const char *s, size_t len)
{
	uint64_t h = ep_hash_seed() ^ len, w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, len);
	return ep_hash_mix(h ^ w);
}

/* Twice the slots, every row put back; false when out of memory. */
static bool rowset_grow(struct rowset *rs)
{
	size_t nslots = rs->nslots ? 2 * rs->nslots : 64, i, h;
	uint32_t *slots = calloc(nslots, sizeof(*slots));

	if (!slots || nslots > UINT32_MAX) {
		free(slots);
		return false;
	}
	for (i = 0; i < rs->n; i++) {
		for (h = rs->rows[i].hash & (nslots - 1); slots[h]; h = (h + 1) & (nslots - 1))
			;
		slots[h] = (uint32_t)(i + 1);
	}
	free(rs->slots);
	rs->slots = slots;
	rs->nslots = nslots;
	return true;
}

/*
 * The row named name (len bytes, no NUL among them), added with no sites
 * when there is none yet.  Returns its index, or SIZE_MAX when out of memory.
 */
static size_t rowset_add(struct rowset *rs, const char *name, size_t len)
{
	const uint64_t hash = name_hash(name, len);
	size_t h;
	struct brow *r;

	if (2 * (rs->n + 1) > rs->nslots && !rowset_grow(rs))
		return SIZE_MAX;
	for (h = hash & (rs->nslots - 1); rs->slots[h]; h = (h + 1) & (rs->nslots - 1)) {
		r = &rs->rows[rs->slots[h] - 1];
		if (r->hash == hash && r->len == len && memcmp(rs->pool + r->off, name, len) == 0)
			return rs->slots[h] - 1;
	}
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? 2 * rs->cap : 64;
		struct brow *v = realloc(rs->rows, cap * sizeof(*v));

		if (!v)
			return SIZE_MAX;
		rs->rows = v;
		rs->cap = cap;
	}
	if (len + 1 > rs->size - rs->used) {
		size_t size = rs->size ? rs->size : 4096;
		char *p;

		while (size - rs->used < len + 1)
			size *= 2;
		p = realloc(rs->pool, size);
		if (!p)
			return SIZE_MAX;
		rs->pool = p;
		rs->size = size;
	}
	memcpy(rs->pool + rs->used, name, len);
	rs->pool[rs->used + len] = '\0';
	rs->rows[rs->n] = (struct brow){ 0, 0, 0, hash, rs->used, len };
	rs->used += len + 1;
	rs->slots[h] = (uint32_t)(rs->n + 1);
	return rs->n++;
}

/* rowset_add() of a NUL-terminated name; NULL (out of memory) gives SIZE_MAX. */
static size_t rowset_add_str(struct rowset *rs, const char *name)
{
	return name ? rowset_add(rs, name, strlen(name)) : SIZE_MAX;
}

/* printf into rs's scratch buffer; NULL when out of memory. */
__attribute__((format(printf, 2, 3))) static const char *rowset_printf(struct rowset *rs,
								       const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(rs->scratch, rs->scratch_size, fmt, ap);
		va_end(ap);
		if (n < 0)
			return NULL;
		if ((size_t)n < rs->scratch_size)
			return rs->scratch;
		free(rs->scratch);
		rs->scratch_size = (size_t)n + 64;
		rs->scratch = malloc(rs->scratch_size);
		if (!rs->scratch) {
			rs->scratch_size = 0;
			return NULL;
		}
	}
}

/* The rows' order: reserved, then sites, descending, then name. */
static inline bool row_lt(const struct brow *x, const struct brow *y)
{
	if (x->reserved != y->reserved)
		return x->reserved > y->reserved;
	if (x->sites != y->sites)
		return x->sites > y->sites;
	return strcmp(x->name, y->name) < 0;
}

/*
 * A row's sort key, row_lt() told mostly by two integers: weight is
 * ~(reserved << 32 | sites) (ascending as they descend), prefix the name's
 * first 8 bytes big-endian (zeros after its end: ordered as strcmp()
 * orders the names, unless they are equal); both 0 for every row of a
 * table whose counts do not fit 32 bits.
 */
struct row_key {
	uint64_t weight, prefix;
	const struct brow *row;
};

static inline bool row_key_lt(const struct row_key *x, const struct row_key *y)
{
	if (x->weight != y->weight)
		return x->weight < y->weight;
	if (x->prefix != y->prefix)
		return x->prefix < y->prefix;
	return row_lt(x->row, y->row);
}

SORT_BY(sort_rows, struct row_key, row_key_lt)

/*
 * rs's rows sorted into t (the pool handed over as t->names), rs freed.
 * Returns 0 or -EP_ENOMEM.
 */
static int rowset_finish(struct rowset *rs, struct ep_attr_table *t)
{
	struct row_key *k = malloc((rs->n ? rs->n : 1) * sizeof(*k));
	uint64_t wide = 0;
	size_t i, j;

	t->rows = calloc(rs->n ? rs->n : 1, sizeof(*t->rows));
	if (!k || !t->rows) {
		free(k);
		free(t->rows);
		t->rows = NULL;
		rowset_free(rs);
		return -EP_ENOMEM;
	}
	for (i = 0; i < rs->n; i++) {
		struct brow *r = &rs->rows[i];
		uint64_t prefix = 0;

		r->name = rs->pool + r->off;
		for (j = 0; j < 8; j++)
			prefix = prefix << 8 | (j < r->len ? (unsigned char)r->name[j] : 0);
		k[i] = (struct row_key){ ~(r->reserved << 32 | r->sites), prefix, r };
		wide |= (r->reserved | r->sites) >> 32;
	}
	for (i = 0; wide && i < rs->n; i++)
		k[i].weight = k[i].prefix = 0;
	sort_rows(k, rs->n);
	for (i = 0; i < rs->n; i++)
		t->rows[i] = (struct ep_attr_row){ k[i].row->name, k[i].row->sites,
						   k[i].row->reserved, k[i].row->minimum };
	t->nrows = rs->n;
	t->names = rs->pool;
	rs->pool = NULL;
	free(k);
	rowset_free(rs);
	return 0;
}

/* ---- symbols ------------------------------------------------------------------ */

/* A function's range, for caller. */
struct func {
	uint32_t shndx;
	uint32_t st_name; /* its name: sym_name() */
	uint64_t value, size;
};

/*
 * Where a section's functions are in funcs[]: [first, end), and an index
 * of its addresses in nb buckets of 2^shift bytes each (the last one also
 * holding whatever lies beyond sh_size), bucket[base + b] the first
 * function of funcs[] at or above bucket b: so a call site's function is
 * found among the few of its bucket, not by a search of them all.
 */
struct func_sec {
	size_t first, end;
	size_t base, nb;
	unsigned int shift;
};

/* One symbol table, its strings and its functions. */
struct syms {
	const struct ep_image *img;
	size_t index; /* the table; 0: none opened */
	struct ep_symtab st;
	const char *strtab;
	size_t strsize;
	struct func *funcs;
	size_t nfuncs;
	struct func_sec *secs; /* img->shnum of them, or NULL: no index */
	size_t *bucket;
	bool funcs_made;
	bool objects; /* funcs[] holds STT_OBJECT symbols too */
};

struct sym {
	uint32_t st_name; /* its name: sym_name() */
	unsigned int type;
	uint32_t shndx; /* SHN_XINDEX resolved */
	uint64_t value, size;
};

/* The name at st_name in s's string table; "" when it is out of range or unterminated. */
static const char *sym_name(const struct syms *s, uint32_t st_name)
{
	if (s->strtab && st_name < s->strsize &&
	    memchr(s->strtab + st_name, 0, s->strsize - st_name))
		return s->strtab + st_name;
	return "";
}

/* Symbol i of s (i < s->st.count), its name not looked at: many are never shown. */
static void sym_get(const struct syms *s, size_t i, struct sym *out)
{
	if (s->st.elfclass == ELFCLASS64) {
		const Elf64_Sym *e = (const Elf64_Sym *)s->st.data->d_buf + i;

		out->st_name = e->st_name;
		out->type = ELF64_ST_TYPE(e->st_info);
		out->value = e->st_value;
		out->size = e->st_size;
	} else {
		const Elf32_Sym *e = (const Elf32_Sym *)s->st.data->d_buf + i;

		out->st_name = e->st_name;
		out->type = ELF32_ST_TYPE(e->st_info);
		out->value = e->st_value;
		out->size = e->st_size;
	}
	out->shndx = ep_symtab_shndx(&s->st, i);
}

/* Symbol i's type alone (i < s->st.count): what most symbols are passed over on. */
static inline unsigned int sym_type(const struct syms *s, size_t i)
{
	if (s->st.elfclass == ELFCLASS64)
		return ELF64_ST_TYPE(((const Elf64_Sym *)s->st.data->d_buf)[i].st_info);
	return ELF32_ST_TYPE(((const Elf32_Sym *)s->st.data->d_buf)[i].st_info);
}

/* Free what s holds; s is zeroed. */
static void syms_close(struct syms *s)
{
	free(s->funcs);
	free(s->secs);
	free(s->bucket);
	memset(s, 0, sizeof(*s));
}

static int syms_open(struct ep_image *img, size_t idx, struct syms *s, struct ep_error *err)
{
	Elf_Data *d;
	int rc;

	if (s->index == idx)
		return 0;
	syms_close(s);
	rc = ep_symtab_open(img, idx, &s->st, err);
	if (rc)
		return rc;
	s->img = img;
	s->index = idx;
	if (idx && img->sections[idx].shdr.sh_link < img->shnum) {
		d = ep_section_data(img, img->sections[idx].shdr.sh_link, err);
		if (!d)
			return -EP_EMALFORMED;
		s->strtab = d->d_buf;
		s->strsize = d->d_size;
	}
	return 0;
}

/*
 * By (section, st_value), then st_name and st_size, so aliases sort the
 * same on every run, however they came in.
 */
static inline bool func_lt(const struct func *x, const struct func *y)
{
	if (x->shndx != y->shndx)
		return x->shndx < y->shndx;
	if (x->value != y->value)
		return x->value < y->value;
	if (x->st_name != y->st_name)
		return x->st_name < y->st_name;
	return x->size < y->size;
}

SORT_BY(sort_funcs, struct func, func_lt)

/* The bucket of f (its section's, shndx < img->shnum) in s's index. */
static inline size_t func_bucket(const struct syms *s, const struct func *f)
{
	const struct func_sec *fs = &s->secs[f->shndx];
	const uint64_t b = f->value >> fs->shift;

	return fs->base + (b < fs->nb ? (size_t)b : fs->nb - 1);
}

/*
 * Sort s's funcs[] by bucket (struct func_sec: about two a function over
 * its section's addresses), then each bucket's few, and keep the buckets
 * as the index: a distribution sort, not a comparison sort of thousands
 * (it was a fifth of --by=caller's extra time).  Functions of a section
 * beyond e_shnum go last, sorted.  false when out of memory (funcs[] left
 * as it was, no index).
 */
static bool funcs_sort(struct syms *s)
{
	const size_t nsec = s->img ? s->img->shnum : 0;
	size_t i, k, b, nb = 0, in = 0, *next = NULL;
	struct func *v = NULL;

	s->secs = calloc(nsec ? nsec : 1, sizeof(*s->secs));
	if (!s->secs)
		goto nomem;
	for (i = 0; i < s->nfuncs; i++)
		if (s->funcs[i].shndx < nsec) {
			s->secs[s->funcs[i].shndx].end++; /* the count, for now */
			in++;
		}
	for (i = 0; i < nsec; i++) {
		struct func_sec *fs = &s->secs[i];
		const uint64_t size = s->img->sections[i].shdr.sh_size;

		if (!fs->end)
			continue;
		/* (size >> 63) is at most 1: the loop ends. */
		while ((size >> fs->shift) >= 2 * fs->end)
			fs->shift++;
		fs->nb = (size_t)(size >> fs->shift) + 1;
		fs->base = nb;
		nb += fs->nb;
	}
	s->bucket = calloc(nb + 1, sizeof(*s->bucket));
	next = malloc((nb ? nb : 1) * sizeof(*next));
	v = malloc((s->nfuncs ? s->nfuncs : 1) * sizeof(*v));
	if (!s->bucket || !next || !v)
		goto nomem;
	/* How many in each bucket, then where each starts. */
	for (i = 0; i < s->nfuncs; i++)
		if (s->funcs[i].shndx < nsec)
			s->bucket[func_bucket(s, &s->funcs[i]) + 1]++;
	for (b = 0; b < nb; b++) {
		s->bucket[b + 1] += s->bucket[b];
		next[b] = s->bucket[b];
	}
	for (i = 0, k = in; i < s->nfuncs; i++) {
		const struct func *f = &s->funcs[i];

		v[f->shndx < nsec ? next[func_bucket(s, f)]++ : k++] = *f;
	}
	for (b = 0; b < nb; b++)
		sort_funcs(v + s->bucket[b], s->bucket[b + 1] - s->bucket[b]);
	sort_funcs(v + in, s->nfuncs - in);
	for (i = 0; i < nsec; i++) {
		struct func_sec *fs = &s->secs[i];

		fs->first = fs->nb ? s->bucket[fs->base] : 0;
		fs->end = fs->nb ? s->bucket[fs->base + fs->nb] : 0;
	}
	free(s->funcs);
	s->funcs = v;
	free(next);
	return true;
nomem:
	free(v);
	free(next);
	free(s->secs);
	free(s->bucket);
	s->secs = NULL;
	s->bucket = NULL;
	return false;
}

/* The functions of s, sorted by (section, st_value); false when out of memory. */
static bool funcs_make(struct syms *s)
{
	size_t i;

	if (s->funcs_made)
		return true;
	s->funcs = malloc((s->st.count ? s->st.count : 1) * sizeof(*s->funcs));
	if (!s->funcs)
		return false;
	for (i = 1; i < s->st.count; i++) {
		const unsigned int type = sym_type(s, i);
		struct sym y;

		if (type != STT_FUNC && type != STT_GNU_IFUNC &&
		    !(s->objects && type == STT_OBJECT))
			continue;
		sym_get(s, i, &y);
		if ((y.type != STT_FUNC && y.type != STT_GNU_IFUNC &&
		     !(s->objects && y.type == STT_OBJECT)) ||
		    !y.size || y.shndx == SHN_UNDEF || y.shndx >= SHN_LORESERVE)
			continue;
		s->funcs[s->nfuncs++] = (struct func){ y.shndx, y.st_name, y.value, y.size };
	}
	if (!funcs_sort(s)) /* no room for an index: binary searches */
		sort_funcs(s->funcs, s->nfuncs);
	s->funcs_made = true;
	return true;
}

/* Whether f starts at or before value of section shndx. */
static inline bool func_le(const struct func *f, uint32_t shndx, uint64_t value)
{
	return f->shndx < shndx || (f->shndx == shndx && f->value <= value);
}

/* The function of section shndx whose range holds value, or NULL. */
static const struct func *func_at(const struct syms *s, uint32_t shndx, uint64_t value)
{
	size_t lo = 0, hi = s->nfuncs;
	const struct func *f;

	/* lo: how many functions start at or before (shndx, value); in [lo, hi]. */
	if (s->secs && shndx < s->img->shnum) {
		const struct func_sec *fs = &s->secs[shndx];
		const uint64_t b = value >> fs->shift;

		if (fs->first == fs->end)
			return NULL;   /* no function in that section */
		if (fs->nb == 0 || b >= fs->nb - 1) { /* the last bucket, or beyond sh_size */
			lo = s->bucket[fs->base + fs->nb - 1];
			hi = fs->end;
		} else {
			lo = s->bucket[fs->base + b];
			hi = s->bucket[fs->base + b + 1];
		}
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (func_le(&s->funcs[mid], shndx, value))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	f = &s->funcs[lo - 1];
	return f->shndx == shndx && value - f->value < f->size ? f : NULL;
}

/*
 * The name of symbol r_sym: in s's string table, static, or formatted in
 * rs's scratch buffer; NULL when out of memory.  A section symbol is its
 * section's name (a branch through one is named by name_by_addend()).
 */
static const char *callee_name(const struct ep_image *img, struct syms *s, struct rowset *rs,
			       uint32_t r_sym)
{
	struct sym y;

	if (!r_sym || r_sym >= s->st.count)
		return "(no symbol)";
	sym_get(s, r_sym, &y);
	if (y.type == STT_SECTION)
		return y.shndx < img->shnum ? img->sections[y.shndx].name : "?";
	if (!sym_name(s, y.st_name)[0])
		return rowset_printf(rs, "(symbol %" PRIu32 ")", r_sym);
	return sym_name(s, y.st_name);
}

/*
 * A site's compile unit (bit EP_BY_CU) or "file:line" (EP_BY_LINE), from
 * dw, "unknown" without them: static, libdw's, or in rs's scratch buffer;
 * NULL when out of memory.
 */
static const char *source_name(struct ep_dwarf *dw, struct rowset *rs, unsigned int bit,
			       size_t shndx, uint64_t offset)
{
	const char *cu = NULL, *file = NULL;
	int line = 0;

	if (dw)
		ep_dwarf_source(dw, shndx, offset, &cu, &file, &line);
	if (bit == EP_BY_CU)
		return cu ? cu : "unknown";
	if (!file)
		return "unknown";
	return rowset_printf(rs, "%s:%d", file, line);
}

/* Open the DWARF a's cu or line rows need; NULL (and dwarf_missing) when there is none. */
static struct ep_dwarf *dwarf_for(const struct ep_image *img, unsigned int by,
				  const struct ep_dwarf_options *dopt, struct ep_attr *a)
{
	struct ep_dwarf_options ignored;
	struct ep_dwarf *dw;
	bool has = false;

	if (!(by & (EP_BY_CU | EP_BY_LINE)))
		return NULL;
	a->dwarf_asked = true;
	if (dopt && dopt->debug_file &&
	    !ep_dwarf_debug_file_usable(dopt->debug_file, &img->ehdr, a->debug_warning,
					sizeof(a->debug_warning))) {
		/* Not given to libdwfl, which would take another machine's DWARF. */
		ignored = *dopt;
		ignored.debug_file = NULL;
		dopt = &ignored;
	}
	if (a->debug_warning[0])
		dw = ep_dwarf_open(img->path, dopt, &has, (char[1]){ 0 }, 1);
	else
		dw = ep_dwarf_open(img->path, dopt, &has, a->debug_warning,
				   sizeof(a->debug_warning));
	a->dwarf_missing = !has;
	if (dw && ep_dwarf_file(dw))
		a->debug_file = strdup(ep_dwarf_file(dw));
	return dw;
}

void ep_attr_free(struct ep_attr *a)
{
	size_t t;

	for (t = 0; t < a->ntables; t++) {
		free(a->tables[t].rows);
		free(a->tables[t].names);
	}
	free(a->debug_file);
	memset(a, 0, sizeof(*a));
}

/* ---- plt ------------------------------------------------------------------------ */

/*
 * A branch through a section symbol: its row depends on the addend too
 * (the function there), so these few sites are sorted by (symbol table,
 * r_sym, r_addend) and each distinct key named once.
 */
struct keyed {
	uint64_t a; /* the symbol table << 32 | r_sym */
	int64_t b;  /* r_addend */
	size_t site;
};

static inline bool keyed_lt(const struct keyed *p, const struct keyed *q)
{
	if (p->a != q->a)
		return p->a < q->a;
	if (p->b != q->b)
		return p->b < q->b;
	return p->site < q->site;
}

SORT_BY(sort_keyed, struct keyed, keyed_lt)

/* row_of[]: not seen yet, and a section symbol's (its sites go to struct keyed). */
#define ROW_NONE      0u
#define ROW_BY_ADDEND UINT32_MAX

/* Site p's sites, reserved and minimum added to row r of rs. */
static void count_site(struct rowset *rs, size_t r, const struct ep_plt_site *p)
{
	rs->rows[r].sites++;
	rs->rows[r].reserved += p->reserved;
	rs->rows[r].minimum += p->minimum;
}

/*
 * The row of the function funcs[f] of s (f == s->nfuncs: none) as a
 * caller; SIZE_MAX when out of memory.
 */
static size_t caller_row(const struct ep_image *img, const struct syms *s, struct rowset *rs,
			 size_t f)
{
	if (img->ehdr.e_type != ET_REL)
		return rowset_add_str(rs, "(not a call site)");
	if (f < s->nfuncs)
		return rowset_add_str(rs, sym_name(s, s->funcs[f].st_name));
	return rowset_add_str(rs, "(no function)");
}

/* A section symbol's branch target: the function at (shndx, value), when there is one. */
struct at_addend {
	uint32_t shndx;
	uint64_t value;
	uint32_t st_name; /* the greatest of the functions there (funcs[]' last) */
	bool found;
};

static inline bool at_addend_lt(const struct at_addend *x, const struct at_addend *y)
{
	return x->shndx < y->shndx || (x->shndx == y->shndx && x->value < y->value);
}

SORT_BY(sort_at_addend, struct at_addend, at_addend_lt)

/*
 * Every function symbol of s (funcs_make()'s choice) at one of the sorted
 * w[0..n): found, with the greatest st_name, as func_at() on funcs[] would
 * pick it.  One pass over the symbols, no sort of them: most files have a
 * few such targets and thousands of functions.
 */
static void find_at_addend(const struct syms *s, struct at_addend *w, size_t n)
{
	size_t i;

	for (i = 1; i < s->st.count && n; i++) {
		const unsigned int type = sym_type(s, i);
		struct sym y;
		size_t lo = 0, hi = n;

		if (type != STT_FUNC && type != STT_GNU_IFUNC)
			continue;
		sym_get(s, i, &y);
		if ((y.type != STT_FUNC && y.type != STT_GNU_IFUNC) || !y.size ||
		    y.shndx == SHN_UNDEF || y.shndx >= SHN_LORESERVE)
			continue;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (w[mid].shndx < y.shndx ||
			    (w[mid].shndx == y.shndx && w[mid].value < y.value))
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < n && w[lo].shndx == y.shndx && w[lo].value == y.value; lo++) {
			if (!w[lo].found || y.st_name > w[lo].st_name)
				w[lo].st_name = y.st_name;
			w[lo].found = true;
		}
	}
}

/*
 * The rows of callee's branches through section symbols, kv[0..n) sorted:
 * each distinct (symbol table, r_sym, r_addend) is named after the
 * function at the addend in the symbol's section, else "section+ADDEND".
 * Returns 0, syms_open()'s errors, or -EP_ENOMEM (err filled).
 */
static int name_by_addend(struct ep_image *img, const struct ep_plt_result *res, struct syms *s,
			  const struct keyed *kv, size_t n, struct rowset *rs, struct ep_error *err)
{
	struct at_addend *w = NULL, *ws = NULL;
	size_t g, e, k, nw, nws, r = 0;
	int rc = 0;

	for (g = 0; g < n; g = e) {
		/* One table's keys: kv[g..e). */
		for (e = g; e < n && kv[e].a >> 32 == kv[g].a >> 32; e++)
			;
		rc = syms_open(img, (size_t)(kv[g].a >> 32), s, err);
		if (rc)
			goto out;
		free(w);
		free(ws);
		w = malloc((e - g) * sizeof(*w));
		ws = malloc((e - g) * sizeof(*ws));
		if (!w || !ws)
			goto nomem;
		for (nw = 0, k = g; k < e; k++) {
			struct sym y;

			if (k > g && kv[k].a == kv[k - 1].a && kv[k].b == kv[k - 1].b)
				continue;
			sym_get(s, (uint32_t)kv[k].a, &y);
			w[nw++] = (struct at_addend){ y.shndx, (uint64_t)kv[k].b, 0, false };
		}
		memcpy(ws, w, nw * sizeof(*w));
		sort_at_addend(ws, nw);
		find_at_addend(s, ws, nw);
		nws = nw;
		for (nw = 0, k = g; k < e; k++) {
			if (k == g || kv[k].a != kv[k - 1].a || kv[k].b != kv[k - 1].b) {
				const struct at_addend key = w[nw++];
				const struct at_addend *f;
				size_t lo = 0, hi = nws;
				const char *name;

				/* key's copy in ws[], where find_at_addend() left its answer */
				while (lo < hi) {
					size_t mid = lo + (hi - lo) / 2;

					if (at_addend_lt(&ws[mid], &key))
						lo = mid + 1;
					else
						hi = mid;
				}
				f = &ws[lo];
				if (f->found)
					name = sym_name(s, f->st_name);
				else
					name = rowset_printf(rs, "%s%+" PRId64,
							     key.shndx < img->shnum
								     ? img->sections[key.shndx].name
								     : "?",
							     kv[k].b);
				r = rowset_add_str(rs, name);
				if (r == SIZE_MAX)
					goto nomem;
			}
			count_site(rs, r, &res->sites[kv[k].site]);
		}
	}
	goto out;
nomem:
	rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
out:
	free(w);
	free(ws);
	return rc;
}

/*
 * callee or caller rows (bit) of res's sites into rs.  Sites are added up
 * by number, a row per r_sym (callee) or per function (caller) of the
 * symbol table their relocation section links (row_of[]), so each name is
 * looked up once per number, not once per site; callee's branches through
 * section symbols go by (r_sym, r_addend) (struct keyed, kv).  Returns 0,
 * or syms_open()'s errors, or -EP_ENOMEM (err filled).
 */
static int by_symbol(struct ep_image *img, const struct ep_plt_result *res, unsigned int bit,
		     struct syms *s, struct rowset *rs, struct ep_error *err)
{
	const bool rel = img->ehdr.e_type == ET_REL;
	size_t k, nkv = 0, kvcap = 0, nb = 0, relsec = SIZE_MAX, table = SIZE_MAX, r = 0;
	struct keyed *kv = NULL;
	uint32_t *row_of = NULL;
	int rc = 0;

	for (k = 0; k < res->nsites; k++) {
		const struct ep_plt_site *p = &res->sites[k];
		size_t b;

		if (p->relsec != relsec) {
			size_t symtab = img->sections[p->relsec].shdr.sh_link;

			relsec = p->relsec;
			rc = syms_open(img, symtab < img->shnum ? symtab : 0, s, err);
			if (rc)
				goto out;
			if (bit == EP_BY_CALLER && !funcs_make(s))
				goto nomem;
			if (s->index != table) {
				/* Numbers of another table: rows found again by name. */
				table = s->index;
				nb = bit == EP_BY_CALLEE ? s->st.count : s->nfuncs + 1;
				free(row_of);
				row_of = calloc(nb ? nb : 1, sizeof(*row_of));
				if (!row_of)
					goto nomem;
			}
		}
		if (bit == EP_BY_CALLER) {
			const struct func *f =
				rel ? func_at(s, (uint32_t)p->target, p->r_offset) : NULL;

			b = f ? (size_t)(f - s->funcs) : s->nfuncs;
			if (row_of[b] == ROW_NONE) {
				r = caller_row(img, s, rs, b);
				if (r == SIZE_MAX)
					goto nomem;
				row_of[b] = (uint32_t)(r + 1);
			}
		} else {
			b = p->r_sym;
			if (b >= nb || row_of[b] == ROW_NONE) {
				struct sym y = { 0 };

				if (b < nb)
					sym_get(s, b, &y);
				if (y.type == STT_SECTION) {
					row_of[b] = ROW_BY_ADDEND;
				} else {
					r = rowset_add_str(rs, callee_name(img, s, rs, p->r_sym));
					if (r == SIZE_MAX)
						goto nomem;
					if (b >= nb) { /* no such symbol */
						count_site(rs, r, p);
						continue;
					}
					row_of[b] = (uint32_t)(r + 1);
				}
			}
			if (row_of[b] == ROW_BY_ADDEND) {
				if (nkv == kvcap) {
					struct keyed *v;

					kvcap = kvcap ? 2 * kvcap : 64;
					v = realloc(kv, kvcap * sizeof(*v));
					if (!v)
						goto nomem;
					kv = v;
				}
				kv[nkv++] =
					(struct keyed){ (uint64_t)table << 32 | b, p->r_addend, k };
				continue;
			}
		}
		count_site(rs, row_of[b] - 1, p);
	}
	sort_keyed(kv, nkv);
	rc = name_by_addend(img, res, s, kv, nkv, rs, err);
	goto out;
nomem:
	rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
out:
	free(row_of);
	free(kv);
	return rc;
}

/* cu or line rows (bit) of res's sites into rs; -EP_ENOMEM. */
static int by_source(struct ep_image *img, const struct ep_plt_result *res, unsigned int bit,
		     struct ep_dwarf *dw, struct rowset *rs)
{
	const bool rel = img->ehdr.e_type == ET_REL;
	size_t k, r;

	for (k = 0; k < res->nsites; k++) {
		const struct ep_plt_site *p = &res->sites[k];

		r = rowset_add_str(rs, rel ? source_name(dw, rs, bit, p->target, p->r_offset)
					   : "unknown");
		if (r == SIZE_MAX)
			return -EP_ENOMEM;
		count_site(rs, r, p);
	}
	return 0;
}

int ep_attr_plt(struct ep_image *img, const struct ep_plt_result *res, unsigned int by,
		const struct ep_dwarf_options *dopt, struct ep_attr *a, struct ep_error *err)
{
	const bool rel = img->ehdr.e_type == ET_REL;
	struct syms s = { 0 };
	struct ep_dwarf *dw = NULL;
	struct rowset rs = { 0 };
	unsigned int i;
	int rc = 0;

	memset(a, 0, sizeof(*a));
	a->sites_recorded = res->sites_recorded;
	a->slots = ep_plt_result_slots(res);
	if (by & EP_BY_CAUSE) {
		a->cause = true;
		a->ncauses = ep_plt_causes(res, a->causes);
	}
	by &= EP_BY_CALLEE | EP_BY_CALLER | EP_BY_CU | EP_BY_LINE;
	a->sites_asked = by != 0;
	if (!by || !res->sites_recorded)
		return 0;
	if (rel)
		dw = dwarf_for(img, by, dopt, a);
	for (i = 0; i < EP_BY_NBY; i++) {
		const unsigned int bit = 1u << i;

		if (!(by & bit))
			continue;
		if (bit & (EP_BY_CALLEE | EP_BY_CALLER))
			rc = by_symbol(img, res, bit, &s, &rs, err);
		else if (by_source(img, res, bit, dw, &rs))
			goto nomem;
		if (rc)
			goto out;
		a->tables[a->ntables].by = bit;
		rc = rowset_finish(&rs, &a->tables[a->ntables]);
		if (rc)
			goto nomem;
		a->ntables++;
	}
	goto out;
nomem:
	rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
out:
	rowset_free(&rs);
	syms_close(&s);
	ep_dwarf_close(dw);
	return rc;
}

/* ---- stats ---------------------------------------------------------------------- */

/*
 * The SHF_ALLOC section whose addresses hold addr (linked files), or 0.
 * .tbss is left out: its sh_addr is the TLS template's, and it takes no
 * address space of its own (readelf maps no segment's bytes to it), so it
 * overlaps the sections after it (.init_array, .data.rel.ro): it took
 * their RELATIVE relocations.  .bss counts: R_*_COPY patches it.
 */
static size_t section_at(const struct ep_image *img, uint64_t addr)
{
	size_t i;

	for (i = 1; i < img->shnum; i++) {
		const GElf_Shdr *sh = &img->sections[i].shdr;

		if ((sh->sh_flags & SHF_TLS) && sh->sh_type == SHT_NOBITS)
			continue;
		if ((sh->sh_flags & SHF_ALLOC) && addr - sh->sh_addr < sh->sh_size)
			return i;
	}
	return 0;
}

/*
 * A relocation without a symbol at addr in a linked file: "(in NAME)", the
 * object or function of .symtab whose bytes it patches (in rs's scratch
 * buffer), or "(no symbol)"; NULL when out of memory.
 */
static const char *object_name(const struct ep_image *img, struct syms *objs, struct rowset *rs,
			       uint64_t addr)
{
	const struct func *f;

	if (img->ehdr.e_type == ET_REL || !objs->index || !funcs_make(objs))
		return "(no symbol)";
	f = func_at(objs, (uint32_t)section_at(img, addr), addr);
	if (!f)
		return "(no symbol)";
	return rowset_printf(rs, "(in %s)", sym_name(objs, f->st_name));
}

/* The relocation sections stats reads: SHT_REL, SHT_RELA, SHT_RELR (and what reloc.h adds). */
static int stats_one(struct ep_image *img, unsigned int bit, struct ep_dwarf *dw,
		     struct ep_attr_table *t, struct ep_error *err)
{
	const bool rel = img->ehdr.e_type == ET_REL;
	struct syms s = { 0 }, objs = { 0 };
	struct rowset rows = { 0 };
	size_t i;
	int rc = 0;

	/* A linked file's relocations without a symbol (RELATIVE): the object patched. */
	if (bit == EP_BY_SYMBOL && !rel) {
		for (i = 1; i < img->shnum && !objs.index; i++)
			if (img->sections[i].shdr.sh_type == SHT_SYMTAB) {
				rc = syms_open(img, i, &objs, err);
				if (rc)
					goto out;
			}
		objs.objects = true;
	}

	for (i = 1; i < img->shnum; i++) {
		struct ep_rel batch[EP_REL_BATCH_MIN * 4];
		struct ep_rel_cursor cur = { 0 };
		struct ep_relsec rs;
		bool unknown = false;
		ssize_t got, k;

		if (!ep_is_relsec(&img->sections[i].shdr))
			continue;
		/* Linked files: the dynamic tables only, as the loader applies them. */
		if (!rel && !(img->sections[i].shdr.sh_flags & SHF_ALLOC))
			continue;
		/*
		 * As plain stats reads it (its warnings already said what is
		 * wrong): a bad sh_link or sh_info puts its rows under "unknown".
		 */
		rc = ep_xref_relsec_open(img, i, &rs, &unknown, NULL, err);
		if (rc)
			goto out;
		if (bit == EP_BY_SYMBOL && !unknown) {
			rc = syms_open(img, rs.symtab.index, &s, err);
			if (rc)
				goto out;
		}
		while ((got = ep_relsec_next(&rs, &cur, batch, sizeof(batch) / sizeof(batch[0]),
					     err)) > 0) {
			for (k = 0; k < got; k++) {
				const struct ep_rel *r = &batch[k];
				const char *name;
				size_t sec, row;

				if (bit == EP_BY_SYMBOL && unknown) {
					name = "unknown";
				} else if (bit == EP_BY_SYMBOL && r->r_sym) {
					name = callee_name(img, &s, &rows, r->r_sym);
				} else if (bit == EP_BY_SYMBOL) {
					name = object_name(img, &objs, &rows, r->r_offset);
				} else if (bit == EP_BY_SECTION) {
					sec = rel ? rs.target : section_at(img, r->r_offset);
					name = sec   ? ep_section_label(img, sec)
					       : rel ? "unknown"
						     : "(no section)";
				} else {
					name = rel ? source_name(dw, &rows, EP_BY_CU, rs.target,
								 r->r_offset)
						   : "unknown";
				}
				row = rowset_add_str(&rows, name);
				if (row == SIZE_MAX) {
					rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory",
							  img->path);
					goto out;
				}
				rows.rows[row].sites++;
			}
		}
		if (got < 0) {
			rc = (int)got;
			goto out;
		}
	}
	t->by = bit;
	rc = rowset_finish(&rows, t);
	if (rc)
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
out:
	rowset_free(&rows);
	syms_close(&s);
	syms_close(&objs);
	return rc;
}
int ep_attr_stats(struct ep_image *img, unsigned int by, const struct ep_dwarf_options *dopt,
		  struct ep_attr *a, struct ep_error *err)
{
	struct ep_dwarf *dw = NULL;
	unsigned int i;
	int rc = 0;

	memset(a, 0, sizeof(*a));
	if ((by & EP_BY_CU) && img->ehdr.e_type == ET_REL)
		dw = dwarf_for(img, EP_BY_CU, dopt, a);
	for (i = 0; i < EP_BY_NBY && rc == 0; i++) {
		const unsigned int bit = 1u << i;

		if (!(by & bit & (EP_BY_SYMBOL | EP_BY_SECTION | EP_BY_CU)))
			continue;
		rc = stats_one(img, bit, dw, &a->tables[a->ntables], err);
		if (rc == 0)
			a->ntables++;
	}
	ep_dwarf_close(dw);
	return rc;
}
