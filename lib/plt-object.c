/* SPDX-License-Identifier: MIT */
/*
 * The relocatable-object model (ET_REL that is not a kernel module; x86-64
 * and AArch64): an upper bound on the PLT slots and GOT entries a static
 * link against shared libraries can create from this object.  A branch to
 * an undefined symbol (R_X86_64_PLT32, R_AARCH64_CALL26/JUMP26) gets a PLT
 * slot if the symbol ends up in a shared library, one slot per symbol
 * however many calls; a GOT-generating relocation (R_X86_64_GOTPCREL,
 * GOTPCRELX, REX_GOTPCRELX, GOTPCREL64; R_AARCH64_ADR_GOT_PAGE) gets one
 * GOT entry per symbol.  Sources: the x86-64 psABI section 4.4 and the
 * AArch64 ELF psABI (aaelf64) relocation tables.
 */
#include "config.h"

#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/plt.h"
#include "lib/report.h"

#ifndef R_X86_64_GOTPCRELX
#define R_X86_64_GOTPCRELX 41
#endif
#ifndef R_X86_64_REX_GOTPCRELX
#define R_X86_64_REX_GOTPCRELX 42
#endif

/* The bounds of one object (res->detail), and their sums over files. */
struct ep_plt_object {
	uint64_t branch_relocations; /* R_X86_64_PLT32, R_AARCH64_CALL26/JUMP26 */
	uint64_t undefined_branches; /* of those, against undefined symbols */
	uint64_t distinct_targets;   /* distinct undefined symbols branched to */
	uint64_t got_relocations;    /* R_X86_64_GOTPCREL*, R_AARCH64_ADR_GOT_PAGE */
	uint64_t distinct_got_symbols;
};

/* Its sums in struct ep_plt_totals' detail[]: the fields above, in order. */
#define OBJECT_SUMS (sizeof(struct ep_plt_object) / sizeof(uint64_t))
_Static_assert(OBJECT_SUMS <= EP_PLT_DETAIL_SUMS, "the object sums fit");

extern const struct ep_plt_model ep_plt_model_object;

static const char *object_check(const struct ep_image *img, bool forced)
{
	unsigned int m = img->ehdr.e_machine;

	if (img->ehdr.e_type != ET_REL)
		return "the object model needs a relocatable file (ET_REL)";
	if (m != EM_X86_64 && m != EM_AARCH64)
		return "the object model covers x86-64 and AArch64 objects only";
	if (!forced && ep_image_is_kernel_module(img))
		return m == EM_X86_64 ? "an x86-64 kernel module: its loader reserves no PLT"
				      : "a kernel module (see the arm64-module model)";
	return NULL;
}

static bool is_branch(unsigned int m, uint32_t t)
{
	if (m == EM_X86_64)
		return t == R_X86_64_PLT32;
	return t == R_AARCH64_CALL26 || t == R_AARCH64_JUMP26;
}

static bool is_got(unsigned int m, uint32_t t)
{
	if (m == EM_X86_64)
		return t == R_X86_64_GOTPCREL || t == R_X86_64_GOTPCRELX ||
		       t == R_X86_64_REX_GOTPCRELX || t == R_X86_64_GOTPCREL64;
	return t == R_AARCH64_ADR_GOT_PAGE;
}

/*
 * Per symbol table: which symbols were already counted, one byte per symbol
 * (simple, and objects are small).  Kept for the whole file, one pair per
 * table, so sections that alternate between tables neither lose the marks
 * nor allocate a table's worth of marks again for each section.
 */
struct seen {
	size_t symtab;
	size_t count;
	uint8_t *branch, *got;
};

struct seen_all {
	struct seen *v;
	size_t n;
	size_t *slot; /* per section index: 1 + its place in v, or 0 */
};

/* The marks of st, made on first use; NULL when out of memory. */
static struct seen *seen_for(struct seen_all *all, const struct ep_symtab *st)
{
	struct seen *s, *v;

	if (all->slot[st->index])
		return &all->v[all->slot[st->index] - 1];
	v = realloc(all->v, (all->n + 1) * sizeof(*v));
	if (!v)
		return NULL;
	all->v = v;
	s = &v[all->n];
	s->symtab = st->index;
	s->count = st->count;
	s->branch = calloc(st->count + 1, 1);
	s->got = calloc(st->count + 1, 1);
	if (!s->branch || !s->got) {
		free(s->branch);
		free(s->got);
		return NULL;
	}
	all->slot[st->index] = ++all->n;
	return s;
}

/* --by: relocation r of section s as a site; first: the file's first for its symbol. */
static struct ep_plt_site *object_site(struct ep_plt_result *res, const struct ep_plt_section *s,
				       const struct ep_rel *r, enum ep_plt_kind kind, bool first)
{
	struct ep_plt_site *p = ep_plt_site_of(res, s, r);

	if (!p)
		return NULL;
	p->kind = kind;
	p->group = EP_PLT_MODULE;
	p->reserved = p->minimum = first;
	return p;
}

static int count_table(struct ep_image *img, size_t idx, struct seen_all *all,
		       struct ep_plt_result *res, struct ep_error *err)
{
	unsigned int m = img->ehdr.e_machine;
	struct ep_plt_object *o = res->detail;
	struct ep_plt_section *s;
	struct ep_relsec rs;
	struct ep_rel *r = NULL;
	struct seen *seen;
	size_t i;
	int rc;

	rc = ep_plt_read_section(img, idx, &rs, &r, err);
	if (rc)
		goto out;
	seen = seen_for(all, &rs.symtab);
	if (!seen) {
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
		goto out;
	}
	s = ep_plt_section_add(res);
	if (!s) {
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
		goto out;
	}
	s->index = idx;
	s->name = img->sections[idx].name;
	s->target = rs.target;
	s->target_name = img->sections[rs.target].name;
	s->relocations = rs.count;
	for (i = 0; i < rs.count; i++) {
		uint32_t sym = r[i].r_sym;

		if (is_got(m, r[i].r_type)) {
			o->got_relocations++;
			s->got_relocations++;
			if (res->opt.sites && sym &&
			    !object_site(res, s, &r[i], EP_PLT_KIND_GOT, !seen->got[sym])) {
				rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
				goto out;
			}
			if (sym && !seen->got[sym]) {
				seen->got[sym] = 1;
				o->distinct_got_symbols++;
			}
			continue;
		}
		if (!is_branch(m, r[i].r_type))
			continue;
		s->branch_relocations++;
		o->branch_relocations++;
		if (!sym || ep_symtab_shndx(&rs.symtab, sym) != SHN_UNDEF)
			continue;
		s->plt_relocations++;
		o->undefined_branches++;
		/* One slot per symbol in the file: its first branch is what costs it. */
		if (res->opt.sites &&
		    !object_site(res, s, &r[i], EP_PLT_KIND_PLT, !seen->branch[sym])) {
			rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
			goto out;
		}
		/* Slots of this section: distinct targets, counted per section. */
		if (seen->branch[sym] != 2) {
			if (!seen->branch[sym])
				o->distinct_targets++;
			seen->branch[sym] = 2;
			s->slots++;
		}
	}
	/* Reset the per-section mark (2) to "seen in the file" (1). */
	for (i = 0; i < rs.count; i++)
		if (r[i].r_sym < seen->count + 1 && seen->branch[r[i].r_sym] == 2)
			seen->branch[r[i].r_sym] = 1;
	s->slots_minimal = s->slots;
out:
	free(r);
	return rc;
}

static int object_analyse(struct ep_image *img, struct ep_plt_result *res, struct ep_error *err)
{
	struct seen_all seen = { NULL, 0, NULL };
	struct ep_plt_object *o = calloc(1, sizeof(*o));
	size_t i;
	int rc = 0;

	if (!o)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	res->detail = o;
	res->sites_recorded = res->opt.sites;
	seen.slot = calloc(img->shnum ? img->shnum : 1, sizeof(*seen.slot));
	if (!seen.slot)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	for (i = 1; i < img->shnum; i++) {
		unsigned int type = img->sections[i].shdr.sh_type;

		/* A static linker reads SHT_CREL (LLVM's lld 19+) as it reads RELA. */
		if (type != SHT_RELA && type != SHT_REL && type != SHT_CREL)
			continue;
		rc = count_table(img, i, &seen, res, err);
		if (rc)
			break;
	}
	for (i = 0; i < seen.n; i++) {
		free(seen.v[i].branch);
		free(seen.v[i].got);
	}
	free(seen.v);
	free(seen.slot);
	/* Bounds: at most one slot per symbol, and that is also what is needed. */
	res->slots[EP_PLT_KIND_PLT][EP_PLT_MODULE].reserved = o->distinct_targets;
	res->slots[EP_PLT_KIND_PLT][EP_PLT_MODULE].minimum = o->distinct_targets;
	res->slots[EP_PLT_KIND_GOT][EP_PLT_MODULE].reserved = o->distinct_got_symbols;
	res->slots[EP_PLT_KIND_GOT][EP_PLT_MODULE].minimum = o->distinct_got_symbols;
	return rc;
}

/* ---- how the model shows what is its own ------------------------------------ */

/* An object: branches, those to undefined symbols, their distinct targets, GOT. */
static const struct ep_plt_column object_columns[] = {
	{ "[Nr]", EP_PLT_COL_INDEX, NULL },	   { "relocations", EP_PLT_COL_NAME, NULL },
	{ "target", EP_PLT_COL_TARGET, NULL },	   { "relocs", EP_PLT_COL_RELOCATIONS, NULL },
	{ "branches", EP_PLT_COL_BRANCHES, NULL }, { "undefined", EP_PLT_COL_NEED, NULL },
	{ "distinct", EP_PLT_COL_SLOTS, NULL },	   { "GOT", EP_PLT_COL_GOT, NULL },
};

static const char *const object_summary[] = { "object",	       "branches",   "undefined",
					      "PLT slots max", "GOT relocs", "GOT entries max" };

static void object_summary_values(const struct ep_plt_result *res, uint64_t *v)
{
	const struct ep_plt_object *o = res->detail;

	v[0] = o->branch_relocations;
	v[1] = o->undefined_branches;
	v[2] = o->distinct_targets;
	v[3] = o->got_relocations;
	v[4] = o->distinct_got_symbols;
}

static void print_object(FILE *out, const struct ep_plt_object *o)
{
	fprintf(out,
		"  branch relocations: %" PRIu64 ", to undefined symbols: %" PRIu64
		", distinct targets: %" PRIu64 " -> at most %" PRIu64 " PLT %s\n"
		"  GOT relocations: %" PRIu64 ", distinct symbols: %" PRIu64 " -> at most %" PRIu64
		" GOT %s\n",
		o->branch_relocations, o->undefined_branches, o->distinct_targets,
		o->distinct_targets, ep_plural(o->distinct_targets, "slot", "slots"),
		o->got_relocations, o->distinct_got_symbols, o->distinct_got_symbols,
		ep_plural(o->distinct_got_symbols, "entry", "entries"));
}

static void object_print_detail(FILE *out, const struct ep_plt_result *res)
{
	print_object(out, res->detail);
}

/* The sums, as the struct they were added from. */
static struct ep_plt_object sums_of(const struct ep_plt_totals *t)
{
	struct ep_plt_object o;

	memcpy(&o, t->detail, sizeof(o));
	return o;
}

static void object_print_totals(FILE *out, const struct ep_plt_totals *t, unsigned int timing_reps)
{
	const struct ep_plt_object o = sums_of(t);

	(void)timing_reps;
	fprintf(out, "%s, %" PRIu64 " %s (bounds added file by file):\n", ep_plt_model_object.name,
		t->files, ep_plural(t->files, "file", "files"));
	print_object(out, &o);
}

/* files[].detail, and the same keys summed in totals.by_model[].detail. */
static json_t *json_bounds(const struct ep_plt_object *ob)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o}", "branch_relocations",
			 ep_json_u64(ob->branch_relocations), "undefined_branches",
			 ep_json_u64(ob->undefined_branches), "plt_slots_max",
			 ep_json_u64(ob->distinct_targets), "got_relocations",
			 ep_json_u64(ob->got_relocations), "got_entries_max",
			 ep_json_u64(ob->distinct_got_symbols));
}

static json_t *object_json_detail(const struct ep_plt_result *res)
{
	return json_bounds(res->detail);
}

static json_t *object_json_section(const struct ep_plt_result *res, const struct ep_plt_section *s)
{
	(void)res;
	return json_pack("{s:o, s:o}", "branch_relocations", ep_json_u64(s->branch_relocations),
			 "got_relocations", ep_json_u64(s->got_relocations));
}

static void object_detail_sums(const struct ep_plt_result *res, uint64_t *sums)
{
	memcpy(sums, res->detail, sizeof(struct ep_plt_object));
}

static json_t *object_json_totals(const struct ep_plt_totals *t)
{
	const struct ep_plt_object o = sums_of(t);

	return json_bounds(&o);
}

const struct ep_plt_model ep_plt_model_object = {
	.name = "object",
	.source = "x86-64 psABI and AArch64 aaelf64: branch and GOT relocation types",
	.one = "object",
	.many = "objects",
	.check = object_check,
	.analyse = object_analyse,
	.columns = object_columns,
	.ncolumns = sizeof(object_columns) / sizeof(object_columns[0]),
	.summary = object_summary,
	.nsummary = sizeof(object_summary) / sizeof(object_summary[0]),
	.summary_values = object_summary_values,
	.print_detail = object_print_detail,
	.print_totals = object_print_totals,
	.json_detail = object_json_detail,
	.json_section = object_json_section,
	.detail_sums = object_detail_sums,
	.json_totals = object_json_totals,
};
