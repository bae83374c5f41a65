/* SPDX-License-Identifier: MIT */
/*
 * Attribution (lib/attr.h): each site or relocation gets a name per --by
 * (a symbol, a function, a compile unit, a file:line, a section); the
 * names are sorted and runs of equal ones added up into rows.  Symbol
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/attr.h"
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

/* ---- symbols ------------------------------------------------------------------ */

/* A function's range, for caller. */
struct func {
	uint32_t shndx;
	uint32_t st_name; /* its name: sym_name() */
	uint64_t value, size;
};

/* One symbol table, its strings and its functions. */
struct syms {
	size_t index; /* the table; 0: none opened */
	struct ep_symtab st;
	const char *strtab;
	size_t strsize;
	struct func *funcs;
	size_t nfuncs;
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

static int syms_open(struct ep_image *img, size_t idx, struct syms *s, struct ep_error *err)
{
	Elf_Data *d;
	int rc;

	if (s->index == idx)
		return 0;
	free(s->funcs);
	memset(s, 0, sizeof(*s));
	rc = ep_symtab_open(img, idx, &s->st, err);
	if (rc)
		return rc;
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

/* By (section, st_value), then st_name, so aliases sort the same on every run. */
static inline bool func_lt(const struct func *x, const struct func *y)
{
	if (x->shndx != y->shndx)
		return x->shndx < y->shndx;
	if (x->value != y->value)
		return x->value < y->value;
	return x->st_name < y->st_name;
}

SORT_BY(sort_funcs, struct func, func_lt)

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
		struct sym y;

		sym_get(s, i, &y);
		if ((y.type != STT_FUNC && y.type != STT_GNU_IFUNC &&
		     !(s->objects && y.type == STT_OBJECT)) ||
		    !y.size || y.shndx == SHN_UNDEF || y.shndx >= SHN_LORESERVE)
			continue;
		s->funcs[s->nfuncs++] = (struct func){ y.shndx, y.st_name, y.value, y.size };
	}
	sort_funcs(s->funcs, s->nfuncs);
	s->funcs_made = true;
	return true;
}

/* The function of section shndx whose range holds value, or NULL. */
static const struct func *func_at(const struct syms *s, uint32_t shndx, uint64_t value)
{
	size_t lo = 0, hi = s->nfuncs;
	const struct func *f;

	/* The last function starting at or before (shndx, value). */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		f = &s->funcs[mid];
		if (f->shndx < shndx || (f->shndx == shndx && f->value <= value))
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
 * The name of symbol r_sym as a branch target with addend; malloc()ed.  A
 * section symbol: by_addend, the function at the addend or
 * "section+ADDEND"; else the section's name.
 */
static char *callee_name(const struct ep_image *img, struct syms *s, uint32_t r_sym, int64_t addend,
			 bool by_addend)
{
	struct sym y;
	char *out = NULL;

	if (!r_sym || r_sym >= s->st.count)
		return strdup("(no symbol)");
	sym_get(s, r_sym, &y);
	if (y.type == STT_SECTION) {
		const char *sec = y.shndx < img->shnum ? img->sections[y.shndx].name : "?";
		const struct func *f;

		if (!by_addend)
			return strdup(sec);
		f = funcs_make(s) ? func_at(s, y.shndx, (uint64_t)addend) : NULL;

		if (f && f->value == (uint64_t)addend)
			return strdup(sym_name(s, f->st_name));
		if (asprintf(&out, "%s%+" PRId64, sec, addend) < 0)
			return NULL;
		return out;
	}
	if (!sym_name(s, y.st_name)[0]) {
		if (asprintf(&out, "(symbol %" PRIu32 ")", r_sym) < 0)
			return NULL;
		return out;
	}
	return strdup(sym_name(s, y.st_name));
}

/* ---- rows ----------------------------------------------------------------------- */

/* One site's name under one --by, before the names are added up. */
struct named {
	char *name;
	uint64_t sites, reserved, minimum;
};

static inline bool named_lt(const struct named *x, const struct named *y)
{
	return strcmp(x->name, y->name) < 0;
}

SORT_BY(sort_named, struct named, named_lt)

/* The rows' order: reserved, then sites, descending, then name. */
static inline bool row_lt(const struct ep_attr_row *x, const struct ep_attr_row *y)
{
	if (x->reserved != y->reserved)
		return x->reserved > y->reserved;
	if (x->sites != y->sites)
		return x->sites > y->sites;
	return strcmp(x->name, y->name) < 0;
}

SORT_BY(sort_rows, struct ep_attr_row, row_lt)

/* Add up v[0..n) (names taken over) into t's rows.  Returns 0 or -EP_ENOMEM. */
static int make_rows(struct named *v, size_t n, struct ep_attr_table *t)
{
	size_t i, k = 0;

	sort_named(v, n);
	t->rows = calloc(n ? n : 1, sizeof(*t->rows));
	if (!t->rows) {
		for (i = 0; i < n; i++)
			free(v[i].name);
		return -EP_ENOMEM;
	}
	for (i = 0; i < n; i++) {
		if (k && strcmp(t->rows[k - 1].name, v[i].name) == 0) {
			free(v[i].name);
		} else {
			t->rows[k].name = v[i].name;
			k++;
		}
		t->rows[k - 1].sites += v[i].sites;
		t->rows[k - 1].reserved += v[i].reserved;
		t->rows[k - 1].minimum += v[i].minimum;
	}
	t->nrows = k;
	sort_rows(t->rows, k);
	return 0;
}

/* "file:line", "unknown" without them; malloc()ed. */
static char *source_name(struct ep_dwarf *dw, unsigned int bit, size_t shndx, uint64_t offset)
{
	const char *cu = NULL, *file = NULL;
	char *out = NULL;
	int line = 0;

	if (dw)
		ep_dwarf_source(dw, shndx, offset, &cu, &file, &line);
	if (bit == EP_BY_CU)
		return strdup(cu ? cu : "unknown");
	if (!file)
		return strdup("unknown");
	if (asprintf(&out, "%s:%d", file, line) < 0)
		return NULL;
	return out;
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
	dw = ep_dwarf_open(img->path, dopt, &has);
	a->dwarf_missing = !has;
	if (dw && ep_dwarf_file(dw))
		a->debug_file = strdup(ep_dwarf_file(dw));
	return dw;
}

void ep_attr_free(struct ep_attr *a)
{
	size_t t, r;

	for (t = 0; t < a->ntables; t++) {
		for (r = 0; r < a->tables[t].nrows; r++)
			free(a->tables[t].rows[r].name);
		free(a->tables[t].rows);
	}
	free(a->debug_file);
	memset(a, 0, sizeof(*a));
}

/* ---- plt ------------------------------------------------------------------------ */

/*
 * A site's key under callee or caller, so sites are added up by number and
 * only each distinct key is named (names are compared once per key, not
 * once per site): callee (symbol table, r_sym, the addend of a section
 * symbol), caller (symbol table, the function's funcs[] index).
 */
struct keyed {
	uint64_t a;
	int64_t b;
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

#define NO_FUNC 0xffffffffu

/*
 * A new row v[(*n)++] named after site p's callee or caller (low: its
 * funcs[] index, NO_FUNC for none), with no sites yet.
 */
static int add_row(const struct ep_image *img, struct syms *s, unsigned int bit,
		   const struct ep_plt_site *p, uint32_t low, struct named *v, size_t *n,
		   struct ep_error *err)
{
	char *name;

	if (bit == EP_BY_CALLEE)
		name = callee_name(img, s, p->r_sym, p->r_addend, true);
	else if (img->ehdr.e_type != ET_REL)
		name = strdup("(not a call site)");
	else if (low != NO_FUNC && funcs_make(s) && low < s->nfuncs)
		name = strdup(sym_name(s, s->funcs[low].st_name));
	else
		name = strdup("(no function)");
	if (!name)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	v[(*n)++] = (struct named){ name, 0, 0, 0 };
	return 0;
}

/* callee or caller rows (bit) of res's sites into v[0..*nv), names malloc()ed. */
static int by_symbol(struct ep_image *img, const struct ep_plt_result *res, unsigned int bit,
		     struct syms *s, struct keyed *kv, struct named *v, size_t *nv,
		     struct ep_error *err)
{
	const bool rel = img->ehdr.e_type == ET_REL;
	size_t k, n = 0, nrest = 0, nb;
	uint32_t *row_of;
	int rc;

	*nv = 0;
	for (k = 0; k < res->nsites; k++) {
		const struct ep_plt_site *p = &res->sites[k];
		size_t symtab = img->sections[p->relsec].shdr.sh_link;
		struct sym y;

		symtab = symtab < img->shnum ? symtab : 0;
		rc = syms_open(img, symtab, s, err);
		if (rc)
			return rc;
		kv[k] = (struct keyed){ (uint64_t)symtab << 32, 0, k };
		if (bit == EP_BY_CALLEE) {
			kv[k].a |= p->r_sym;
			if (p->r_sym && p->r_sym < s->st.count) {
				sym_get(s, p->r_sym, &y);
				if (y.type == STT_SECTION)
					kv[k].b = p->r_addend;
			}
		} else {
			const struct func *f = NULL;

			if (!funcs_make(s))
				return ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
			if (rel)
				f = func_at(s, (uint32_t)p->target, p->r_offset);
			kv[k].a |= f ? (uint64_t)(f - s->funcs) : NO_FUNC;
		}
	}
	/*
	 * Sites of the last table opened whose key is one number (not a
	 * section symbol's addend) go to a bucket per number; the rest, few,
	 * are sorted.
	 */
	nb = bit == EP_BY_CALLEE ? s->st.count : s->nfuncs + 1;
	row_of = calloc(nb ? nb : 1, sizeof(*row_of));
	if (!row_of)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	for (k = 0; k < res->nsites; k++) {
		const struct ep_plt_site *p = &res->sites[kv[k].site];
		uint32_t low = (uint32_t)kv[k].a;
		size_t b;

		if (bit == EP_BY_CALLER && low == NO_FUNC)
			low = (uint32_t)(nb - 1);
		if ((kv[k].a >> 32) != s->index || kv[k].b || low >= nb) {
			kv[nrest++] = kv[k];
			continue;
		}
		b = low;
		if (!row_of[b]) {
			rc = add_row(img, s, bit, p, (uint32_t)kv[k].a, v, &n, err);
			if (rc)
				goto fail;
			row_of[b] = (uint32_t)n;
		}
		v[row_of[b] - 1].sites++;
		v[row_of[b] - 1].reserved += p->reserved;
		v[row_of[b] - 1].minimum += p->minimum;
	}
	sort_keyed(kv, nrest);
	for (k = 0; k < nrest; k++) {
		const struct ep_plt_site *p = &res->sites[kv[k].site];

		if (!k || kv[k].a != kv[k - 1].a || kv[k].b != kv[k - 1].b) {
			rc = syms_open(img, (size_t)(kv[k].a >> 32), s, err);
			if (rc == 0)
				rc = add_row(img, s, bit, p, (uint32_t)kv[k].a, v, &n, err);
			if (rc)
				goto fail;
		}
		v[n - 1].sites++;
		v[n - 1].reserved += p->reserved;
		v[n - 1].minimum += p->minimum;
	}
	free(row_of);
	*nv = n;
	return 0;
fail:
	free(row_of);
	while (n--)
		free(v[n].name);
	return rc;
}

/* cu or line rows (bit) of res's sites into v[0..*nv); -EP_ENOMEM. */
static int by_source(struct ep_image *img, const struct ep_plt_result *res, unsigned int bit,
		     struct ep_dwarf *dw, struct named *v, size_t *nv)
{
	const bool rel = img->ehdr.e_type == ET_REL;
	size_t k;

	*nv = 0;
	for (k = 0; k < res->nsites; k++) {
		const struct ep_plt_site *p = &res->sites[k];

		v[k].name = rel ? source_name(dw, bit, p->target, p->r_offset) : strdup("unknown");
		if (!v[k].name) {
			while (k--)
				free(v[k].name);
			return -EP_ENOMEM;
		}
		v[k].sites = 1;
		v[k].reserved = p->reserved;
		v[k].minimum = p->minimum;
	}
	*nv = res->nsites;
	return 0;
}

int ep_attr_plt(struct ep_image *img, const struct ep_plt_result *res, unsigned int by,
		const struct ep_dwarf_options *dopt, struct ep_attr *a, struct ep_error *err)
{
	const bool rel = img->ehdr.e_type == ET_REL;
	struct syms s = { 0 };
	struct ep_dwarf *dw = NULL;
	struct named *v = NULL;
	struct keyed *kv = NULL;
	unsigned int i;
	size_t nv;
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
	v = malloc((res->nsites ? res->nsites : 1) * sizeof(*v));
	kv = malloc((res->nsites ? res->nsites : 1) * sizeof(*kv));
	if (!v || !kv)
		goto nomem;
	for (i = 0; i < EP_BY_NBY; i++) {
		const unsigned int bit = 1u << i;

		if (!(by & bit))
			continue;
		if (bit & (EP_BY_CALLEE | EP_BY_CALLER))
			rc = by_symbol(img, res, bit, &s, kv, v, &nv, err);
		else if (by_source(img, res, bit, dw, v, &nv))
			goto nomem;
		if (rc)
			goto out;
		a->tables[a->ntables].by = bit;
		rc = make_rows(v, nv, &a->tables[a->ntables]);
		if (rc)
			goto nomem;
		a->ntables++;
	}
	goto out;
nomem:
	rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
out:
	free(v);
	free(kv);
	free(s.funcs);
	ep_dwarf_close(dw);
	return rc;
}

/* ---- stats ---------------------------------------------------------------------- */

/* The SHF_ALLOC section whose addresses hold addr (linked files), or 0 (TLS and the
 * like can overlap: the first wins). */
static size_t section_at(const struct ep_image *img, uint64_t addr)
{
	size_t i;

	for (i = 1; i < img->shnum; i++) {
		const GElf_Shdr *sh = &img->sections[i].shdr;

		/* .bss too: R_*_COPY patches it. */
		if ((sh->sh_flags & SHF_ALLOC) && addr - sh->sh_addr < sh->sh_size)
			return i;
	}
	return 0;
}

/*
 * A relocation without a symbol at addr in a linked file: "(in NAME)", the
 * object or function of .symtab whose bytes it patches, or "(no symbol)".
 */
static char *object_name(const struct ep_image *img, struct syms *objs, uint64_t addr)
{
	const struct func *f;
	char *out = NULL;

	if (img->ehdr.e_type == ET_REL || !objs->index || !funcs_make(objs))
		return strdup("(no symbol)");
	f = func_at(objs, (uint32_t)section_at(img, addr), addr);
	if (!f)
		return strdup("(no symbol)");
	if (asprintf(&out, "(in %s)", sym_name(objs, f->st_name)) < 0)
		return NULL;
	return out;
}

/* Append a name to *v (growing it); false when out of memory. */
static bool push(struct named **v, size_t *n, size_t *cap, char *name)
{
	if (!name)
		return false;
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 256;
		struct named *w = realloc(*v, c * sizeof(*w));

		if (!w) {
			free(name);
			return false;
		}
		*v = w;
		*cap = c;
	}
	(*v)[(*n)++] = (struct named){ name, 1, 0, 0 };
	return true;
}

/* The relocation sections stats reads: SHT_REL, SHT_RELA, SHT_RELR (and what reloc.h adds). */
static int stats_one(struct ep_image *img, unsigned int bit, struct ep_dwarf *dw,
		     struct ep_attr_table *t, struct ep_error *err)
{
	const bool rel = img->ehdr.e_type == ET_REL;
	struct syms s = { 0 }, objs = { 0 };
	struct named *v = NULL;
	size_t n = 0, cap = 0, i;
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
				char *name;
				size_t sec;

				if (bit == EP_BY_SYMBOL && unknown) {
					name = strdup("unknown");
				} else if (bit == EP_BY_SYMBOL && r->r_sym) {
					name = callee_name(img, &s, r->r_sym, r->r_addend, false);
				} else if (bit == EP_BY_SYMBOL) {
					name = object_name(img, &objs, r->r_offset);
				} else if (bit == EP_BY_SECTION) {
					sec = rel ? rs.target : section_at(img, r->r_offset);
					name = strdup(sec   ? ep_section_label(img, sec)
						      : rel ? "unknown"
							    : "(no section)");
				} else {
					name = rel ? source_name(dw, EP_BY_CU, rs.target,
								 r->r_offset)
						   : strdup("unknown");
				}
				if (!push(&v, &n, &cap, name)) {
					rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory",
							  img->path);
					goto out;
				}
			}
		}
		if (got < 0) {
			rc = (int)got;
			goto out;
		}
	}
	t->by = bit;
	rc = make_rows(v, n, t);
	n = 0;
	if (rc)
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
out:
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	free(s.funcs);
	free(objs.funcs);
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
