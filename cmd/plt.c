/* SPDX-License-Identifier: MIT */
/*
 * elfplt plt: PLT slots per section as the arm64 module loader computes
 * them (and the linked/object models), the true minimum, and the sorting
 * the loader does to find out.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/elfplt.h"
#include "lib/plt.h"
#include "lib/report.h"

#define DEFAULT_TIMING_REPS 9

/*
 * Sums over the files of one model.  Only like quantities are added: the
 * arm64-module figures are loader slots and bytes, the object figures upper
 * bounds, the linked figures slots a link made; they never meet in one sum.
 */
struct arm64_totals {
	uint64_t files, rejected;
	uint64_t relocations, plt_relocations, veneers, slots, slots_minimal;
	uint64_t bytes, bytes_minimal, leftover_sections;
	uint64_t sorted_full, sorted_partitioned, sort_sections, sort_skipped;
	uint64_t full_ns, partitioned_ns;
	uint64_t tramp_bytes;		       /* .text and .init.text.ftrace_trampoline */
	uint64_t kernel_from[3];	       /* modules by enum ep_kernel_from */
	uint64_t kaslr_ignored;		       /* modules whose kernel ignores --kaslr */
	uint32_t kernel_oldest, kernel_newest; /* EP_KVER() modelled; 0: no module */
};

struct object_totals {
	uint64_t files, relocations;
	struct ep_plt_object sum;
};

struct linked_totals {
	uint64_t files, relocations;
	struct ep_plt_linked sum; /* rela_plt unused */
};

struct plt_totals {
	uint64_t files, files_failed, not_covered;
	struct arm64_totals arm64;
	struct object_totals object;
	struct linked_totals linked;
};

/* One file's line in a per-model summary table: its path as given, its figures. */
struct summary_row {
	char *path;
	uint64_t v[8]; /* the columns after the path, in the view's order */
};

/* A per-model summary table, filled file by file and printed at the end. */
struct summary {
	struct summary_row *rows;
	size_t nrows, cap;
};

/* One summary table per model elfplt plt shows: model_views[] below. */
#define NVIEWS 3

struct plt_run {
	struct ep_global *g;
	const struct ep_plt_model *forced;
	struct ep_plt_options opt;
	bool summary;
	bool json; /* --format=json */
	struct ep_json_stream js;
	/*
	 * model_views[i]'s table in tables[i]: a line per file, kept to the end
	 * (text only), as a column is as wide as its widest cell.
	 */
	struct summary tables[NVIEWS];
	bool nomem;
	struct plt_totals t;
};

/* "slot" or "slots" after the count n. */
/* ---- the section table: each model its own columns ------------------------ */

enum field {
	F_INDEX,
	F_NAME,
	F_TARGET,
	F_GROUP,
	F_RELOCATIONS,
	F_BRANCHES,
	F_PLT_RELOCATIONS,
	F_GOT_RELOCATIONS,
	F_SLOTS,
	F_MINIMAL,
	F_VENEERS,
	F_SPARE,
	F_SORTED_FULL,
	F_SORTED_PARTITIONED,
	F_FULL_NS,
	F_PARTITIONED_NS,
};

struct column {
	const char *header;
	char align;
	enum field field;
};

/* Every column means something for an arm64 module; the timing ones need --timing. */
static const struct column arm64_columns[] = {
	{ "[Nr]", 'r', F_INDEX },
	{ "relocations", 'l', F_NAME },
	{ "target", 'l', F_TARGET },
	{ "group", 'l', F_GROUP },
	{ "relocs", 'r', F_RELOCATIONS },
	{ "branches", 'r', F_BRANCHES },
	{ "need", 'r', F_PLT_RELOCATIONS },
	{ "slots", 'r', F_SLOTS },
	{ "minimal", 'r', F_MINIMAL },
	{ "veneers", 'r', F_VENEERS },
	{ "spare", 'r', F_SPARE },
	{ "sorted<5.8", 'r', F_SORTED_FULL },
	{ "sorted>=5.8", 'r', F_SORTED_PARTITIONED },
	{ "full ns", 'r', F_FULL_NS },
	{ "part ns", 'r', F_PARTITIONED_NS },
};

/* An object: branches, those to undefined symbols, their distinct targets, GOT. */
static const struct column object_columns[] = {
	{ "[Nr]", 'r', F_INDEX },	 { "relocations", 'l', F_NAME },
	{ "target", 'l', F_TARGET },	 { "relocs", 'r', F_RELOCATIONS },
	{ "branches", 'r', F_BRANCHES }, { "undefined", 'r', F_PLT_RELOCATIONS },
	{ "distinct", 'r', F_SLOTS },	 { "GOT", 'r', F_GOT_RELOCATIONS },
};

/* A linked file: the dynamic tables, their PLT and GLOB_DAT relocations. */
static const struct column linked_columns[] = {
	{ "[Nr]", 'r', F_INDEX },      { "relocations", 'l', F_NAME },
	{ "target", 'l', F_TARGET },   { "relocs", 'r', F_RELOCATIONS },
	{ "PLT slots", 'r', F_SLOTS }, { "GLOB_DAT", 'r', F_GOT_RELOCATIONS },
};

static const char *const arm64_summary[] = { "module",	"sorted<5.8", "sorted>=5.8", "slots",
					     "minimal", "full ns",    "part ns" };
static const char *const object_summary[] = { "object",	       "branches",   "undefined",
					      "PLT slots max", "GOT relocs", "GOT entries max" };
static const char *const linked_summary[] = { "linked file",	"PLT slots",  "JUMP_SLOT",
					      "IRELATIVE",	"GLOB_DAT",   ".plt bytes",
					      ".plt.sec bytes", ".got bytes", ".got.plt bytes" };

/* How the text report shows one model: nouns, section columns, summary columns. */
struct model_view {
	const struct ep_plt_model *model;
	const char *one, *many; /* "module", "modules" */
	const struct column *columns;
	unsigned int ncolumns;
	const char *const *summary; /* the path's header first */
	unsigned int nsummary;
	unsigned int ntiming; /* trailing columns of both that need --timing */
};

#define VIEW(m, one, many, cols, sum, ntiming)                                                     \
	{                                                                                          \
		&(m), one, many, cols, sizeof(cols) / sizeof(cols[0]), sum,                        \
			sizeof(sum) / sizeof(sum[0]), ntiming                                      \
	}

static const struct model_view model_views[] = {
	VIEW(ep_plt_model_arm64_module, "arm64 module", "arm64 modules", arm64_columns,
	     arm64_summary, 2),
	VIEW(ep_plt_model_object, "object", "objects", object_columns, object_summary, 0),
	VIEW(ep_plt_model_linked, "linked file", "linked files", linked_columns, linked_summary, 0),
};

_Static_assert(sizeof(model_views) / sizeof(model_views[0]) == NVIEWS, "one view per table");

/* The view of m and its index in model_views[]; NULL for a model it does not know. */
static const struct model_view *view_of(const struct ep_plt_model *m, size_t *index)
{
	size_t i;

	for (i = 0; i < NVIEWS; i++)
		if (model_views[i].model == m) {
			if (index)
				*index = i;
			return &model_views[i];
		}
	return NULL;
}

static uint64_t section_count(const struct ep_plt_section *s, enum field f)
{
	switch (f) {
	case F_RELOCATIONS:
		return s->relocations;
	case F_BRANCHES:
		return s->branch_relocations;
	case F_PLT_RELOCATIONS:
		return s->plt_relocations;
	case F_GOT_RELOCATIONS:
		return s->got_relocations;
	case F_SLOTS:
		return s->slots;
	case F_MINIMAL:
		return s->slots_minimal;
	case F_VENEERS:
		return s->veneers;
	case F_SPARE:
		return s->spare;
	case F_SORTED_FULL:
		return s->sorted_full;
	case F_SORTED_PARTITIONED:
		return s->sorted_partitioned;
	case F_FULL_NS:
		return s->full_ns;
	case F_PARTITIONED_NS:
		return s->partitioned_ns;
	default:
		return 0;
	}
}

static void section_cell(struct ep_table *t, const struct ep_plt_section *s, enum field f)
{
	const char *group;

	switch (f) {
	case F_INDEX:
		ep_table_cell(t, "[%zu]", s->index);
		break;
	case F_NAME:
		ep_table_cell(t, "%s", s->name);
		break;
	case F_TARGET:
		/* sh_info 0 (.rela.dyn): no one target section, shown as stats does. */
		if (s->target)
			ep_table_cell(t, "[%zu] %s", s->target, s->target_name);
		else
			ep_table_cell(t, "-");
		break;
	case F_GROUP:
		group = ep_plt_group_name(s->group);
		ep_table_cell(t, "%s", group ? group : "-");
		break;
	case F_PLT_RELOCATIONS:
		ep_table_cell(t, "%" PRIu64 "%s", s->plt_relocations, s->leftover ? "*" : "");
		break;
	default:
		ep_table_cell(t, "%" PRIu64, section_count(s, f));
	}
}

static void print_sections(FILE *out, const struct model_view *v, const struct ep_plt_result *res)
{
	const char *hdr[16];
	char align[17];
	unsigned int i, ncols = v->ncolumns - (res->opt.timing_reps ? 0 : v->ntiming);
	struct ep_table *t;
	size_t k;

	if (!res->nsecs)
		return;
	for (i = 0; i < ncols; i++) {
		hdr[i] = v->columns[i].header;
		align[i] = v->columns[i].align;
	}
	align[ncols] = '\0';
	t = ep_table_new(ncols, hdr, align);
	for (k = 0; t && k < res->nsecs; k++) {
		ep_table_row(t);
		for (i = 0; i < ncols; i++)
			section_cell(t, &res->secs[k], v->columns[i].field);
	}
	if (t)
		ep_table_print(t, out, "  ");
	ep_table_free(t);
}

/* ---- text lines shared by a file and the totals of its model --------------- */

static void print_sorting(FILE *out, uint64_t full, uint64_t partitioned, uint64_t skipped,
			  uint64_t sections)
{
	fprintf(out,
		"  sorting: %" PRIu64 " %s before v5.8, %" PRIu64 " since; no sort in %" PRIu64
		" of %" PRIu64 " %s\n",
		full, ep_plural(full, "entry", "entries"), partitioned, skipped, sections,
		ep_plural(sections, "section", "sections"));
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

static void print_linked(FILE *out, const struct ep_plt_linked *l)
{
	fprintf(out,
		"  PLT: %" PRIu64 " %s (%" PRIu64 " JUMP_SLOT, %" PRIu64
		" IRELATIVE); GOT: %" PRIu64 " GLOB_DAT %s\n"
		"  sizes: .plt %" PRIu64 ", .plt.sec %" PRIu64 ", .got %" PRIu64
		", .got.plt %" PRIu64 " bytes\n",
		l->plt_slots, ep_plural(l->plt_slots, "slot", "slots"), l->jump_slot, l->irelative,
		l->glob_dat, ep_plural(l->glob_dat, "entry", "entries"), l->plt_bytes,
		l->plt_sec_bytes, l->got_bytes, l->got_plt_bytes);
}

/* what: "median" for a file, "sum of the modules' medians" for the totals. */
static void print_timing(FILE *out, const char *what, unsigned int reps, uint64_t full_ns,
			 uint64_t partitioned_ns)
{
	fprintf(out,
		"  timing (%s of %u %s): full sort %" PRIu64 " ns, partition + sort %" PRIu64
		" ns\n",
		what, reps, ep_plural(reps, "run", "runs"), full_ns, partitioned_ns);
}

static void print_module(FILE *out, const struct ep_plt_result *res)
{
	int g;
	size_t i;
	bool leftover = false;

	for (g = 0; g < EP_PLT_NGROUP; g++) {
		const struct ep_plt_group_result *gr = &res->groups[g];

		fprintf(out,
			"  %s: %" PRIu64 " %s (minimal %" PRIu64 "), %s %" PRIu64
			" bytes (minimal %" PRIu64 ")\n",
			ep_plt_group_name(g), gr->slots, ep_plural(gr->slots, "slot", "slots"),
			gr->slots_minimal, g == EP_PLT_CORE ? ".plt" : ".init.plt", gr->bytes,
			gr->bytes_minimal);
	}
	if (res->has_tramp)
		fprintf(out, "  .text.ftrace_trampoline: %" PRIu64 " bytes\n", res->tramp_bytes);
	if (res->has_init_tramp)
		fprintf(out, "  .init.text.ftrace_trampoline: %" PRIu64 " bytes\n",
			res->init_tramp_bytes);
	print_sorting(out, res->sorted_full, res->sorted_partitioned, res->sort_skipped,
		      res->sort_sections);
	if (res->opt.timing_reps)
		print_timing(out, "median", res->opt.timing_reps, res->full_ns,
			     res->partitioned_ns);
	for (i = 0; i < res->nsecs; i++)
		leftover |= res->secs[i].leftover;
	if (leftover)
		fputs("  *: the partition left a slot-needing entry outside the sorted range\n",
		      out);
	if (res->kernel_rejects)
		fprintf(out, "  the kernel rejects this module: %s\n", res->kernel_rejects);
}

static const char *onoff(bool b)
{
	return b ? "on" : "off";
}

/* "6.12.117", or "6.1" for sublevel 0. */
static const char *kernel_version_text(uint32_t v, char *buf, size_t size)
{
	if (EP_KVER_SUB(v))
		snprintf(buf, size, "%u.%u.%u", EP_KVER_MAJOR(v), EP_KVER_MINOR(v), EP_KVER_SUB(v));
	else
		snprintf(buf, size, "%u.%u", EP_KVER_MAJOR(v), EP_KVER_MINOR(v));
	return buf;
}

/* The arm64 model line's tail: the kernel modelled, where from, the options. */
static void print_arm64_options(FILE *out, const struct ep_plt_result *res)
{
	const struct ep_arm64_rules *r = &res->rules;
	char v[32];

	fprintf(out, "; kernel %s", kernel_version_text(r->version, v, sizeof(v)));
	switch (r->from) {
	case EP_KERNEL_FROM_VERMAGIC:
		fputs(" (vermagic)", out);
		break;
	case EP_KERNEL_FROM_OPTION:
		fputs(" (--kernel)", out);
		break;
	default:
		fputs(res->vermagic[0] ? " (default: vermagic has no version)"
				       : " (default: no vermagic)",
		      out);
	}
	if (r->version < EP_ARM64_KVER_FLOOR)
		fputs(" modelled as 5.8, the oldest the model follows", out);
	if (!r->mod_unload)
		fputs(", no mod_unload", out);
	fprintf(out, ", kaslr %s%s, erratum-843419 %s", onoff(res->opt.kaslr),
		r->kaslr_applies ? "" : " (no effect from 6.7)", onoff(res->opt.erratum_843419));
}

static void print_file(FILE *out, const struct ep_image *img, const struct ep_plt_result *res)
{
	const struct model_view *v = view_of(res->model, NULL);

	if (!res->model || !v) {
		fprintf(out, "%s: no model: %s\n\n", img->path,
			res->note ? res->note : "not shown in text");
		return;
	}
	fprintf(out, "%s: %s (%s)", img->path, res->model->name, res->model->source);
	if (res->model == &ep_plt_model_arm64_module)
		print_arm64_options(out, res);
	fputc('\n', out);
	print_sections(out, v, res);
	if (res->model == &ep_plt_model_arm64_module)
		print_module(out, res);
	if (res->linked_valid)
		print_linked(out, &res->linked);
	if (res->object_valid)
		print_object(out, &res->object);
	fputc('\n', out);
}

/* ---- per-model summary tables ---------------------------------------------- */

/* The figures of res's line in its model's summary table, in the view's order. */
static void summary_values(const struct ep_plt_result *res, uint64_t *v)
{
	const struct ep_plt_object *o = &res->object;
	const struct ep_plt_linked *l = &res->linked;

	if (res->model == &ep_plt_model_arm64_module) {
		v[0] = res->sorted_full;
		v[1] = res->sorted_partitioned;
		v[2] = res->groups[EP_PLT_CORE].slots + res->groups[EP_PLT_INIT].slots;
		v[3] = res->groups[EP_PLT_CORE].slots_minimal +
		       res->groups[EP_PLT_INIT].slots_minimal;
		v[4] = res->full_ns;
		v[5] = res->partitioned_ns;
	} else if (res->model == &ep_plt_model_object) {
		v[0] = o->branch_relocations;
		v[1] = o->undefined_branches;
		v[2] = o->distinct_targets;
		v[3] = o->got_relocations;
		v[4] = o->distinct_got_symbols;
	} else if (res->model == &ep_plt_model_linked) {
		v[0] = l->plt_slots;
		v[1] = l->jump_slot;
		v[2] = l->irelative;
		v[3] = l->glob_dat;
		v[4] = l->plt_bytes;
		v[5] = l->plt_sec_bytes;
		v[6] = l->got_bytes;
		v[7] = l->got_plt_bytes;
	}
}

/* Add path's line, its figures v[], to the table of model_views[view]. */
static void summary_add(struct plt_run *run, const char *path, size_t view, const uint64_t *v)
{
	struct summary *s = &run->tables[view];
	struct summary_row *row;

	if (s->nrows == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct summary_row *rows = realloc(s->rows, cap * sizeof(*rows));

		if (!rows) {
			run->nomem = true;
			return;
		}
		s->rows = rows;
		s->cap = cap;
	}
	row = &s->rows[s->nrows];
	row->path = strdup(path);
	if (!row->path) {
		run->nomem = true;
		return;
	}
	memcpy(row->v, v, sizeof(row->v));
	s->nrows++;
}

/* Does the table of model_views[i] get printed? */
static bool summary_shown(const struct plt_run *run, size_t i)
{
	return run->tables[i].nrows > (run->summary ? 0 : 1);
}

/*
 * The longest directory prefix ("a/b/", ending in '/') of every path in the
 * tables shown, as a length; 0 when there is none, it names no directory
 * ("/", "./") or there is only one path.  Paths given distinct stay distinct
 * without it, so the rows still name their files unambiguously.
 */
static size_t common_dir(const struct plt_run *run, const char **first)
{
	size_t i, r, len = 0, nrows = 0;
	const char *p = NULL;

	for (i = 0; i < NVIEWS; i++) {
		const struct summary *s = &run->tables[i];

		if (!summary_shown(run, i))
			continue;
		for (r = 0; r < s->nrows; r++, nrows++) {
			const char *q = s->rows[r].path;
			size_t k = 0;

			if (!p) {
				p = q;
				len = strlen(p);
				continue;
			}
			while (k < len && p[k] == q[k])
				k++;
			len = k;
		}
	}
	while (len && p[len - 1] != '/')
		len--;
	/* "/", "./" or "../" alone would only make the paths look relative. */
	if (strspn(p ? p : "", "./") >= len)
		len = 0;
	*first = p;
	return nrows > 1 ? len : 0;
}

static void summary_print(struct plt_run *run, FILE *out)
{
	const char *first = NULL;
	size_t i, r, cut = common_dir(run, &first);
	unsigned int c, ncols;

	if (cut)
		fprintf(out, "paths below %.*s\n\n", (int)cut, first);
	for (i = 0; i < NVIEWS; i++) {
		const struct model_view *v = &model_views[i];
		const struct summary *s = &run->tables[i];
		char align[17] = "lrrrrrrrrrrrrrrr";
		struct ep_table *t;

		if (!summary_shown(run, i))
			continue;
		ncols = v->nsummary - (run->opt.timing_reps ? 0 : v->ntiming);
		align[ncols] = '\0';
		t = ep_table_new(ncols, v->summary, align);
		for (r = 0; t && r < s->nrows; r++) {
			ep_table_row(t);
			ep_table_cell(t, "%s", s->rows[r].path + cut);
			for (c = 1; c < ncols; c++)
				ep_table_cell(t, "%" PRIu64, s->rows[r].v[c - 1]);
		}
		if (!t || ep_table_print(t, out, ""))
			run->nomem = true;
		ep_table_free(t);
		fputc('\n', out);
	}
}

static void summary_free(struct plt_run *run)
{
	size_t i, r;

	for (i = 0; i < NVIEWS; i++) {
		for (r = 0; r < run->tables[i].nrows; r++)
			free(run->tables[i].rows[r].path);
		free(run->tables[i].rows);
	}
}

/* ---- totals ------------------------------------------------------------------ */

static void add_arm64(struct arm64_totals *t, const struct ep_plt_result *res)
{
	size_t i;
	int g;

	t->rejected += res->kernel_rejects != NULL;
	for (i = 0; i < res->nsecs; i++) {
		const struct ep_plt_section *s = &res->secs[i];

		t->relocations += s->relocations;
		t->plt_relocations += s->plt_relocations;
		t->veneers += s->veneers;
		t->slots += s->slots;
		t->slots_minimal += s->slots_minimal;
		t->leftover_sections += s->leftover;
	}
	for (g = 0; g < EP_PLT_NGROUP; g++) {
		t->bytes += res->groups[g].bytes;
		t->bytes_minimal += res->groups[g].bytes_minimal;
	}
	t->sorted_full += res->sorted_full;
	t->sorted_partitioned += res->sorted_partitioned;
	t->sort_sections += res->sort_sections;
	t->sort_skipped += res->sort_skipped;
	t->full_ns += res->full_ns;
	t->partitioned_ns += res->partitioned_ns;
	t->tramp_bytes += res->tramp_bytes + res->init_tramp_bytes;
	t->kernel_from[res->rules.from]++;
	t->kaslr_ignored += !res->rules.kaslr_applies;
	t->kernel_oldest = t->kernel_newest = res->rules.version;
}

static uint64_t relocations_of(const struct ep_plt_result *res)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < res->nsecs; i++)
		n += res->secs[i].relocations;
	return n;
}

/* One file's share of the run's totals, in *t (zeroed here). */
static void file_totals(struct plt_totals *t, const struct ep_plt_result *res)
{
	memset(t, 0, sizeof(*t));
	t->files = 1;
	if (!res->model) {
		t->not_covered = 1;
	} else if (res->model == &ep_plt_model_arm64_module) {
		t->arm64.files = 1;
		add_arm64(&t->arm64, res);
	} else if (res->model == &ep_plt_model_object) {
		t->object.files = 1;
		t->object.relocations = relocations_of(res);
		t->object.sum = res->object;
	} else if (res->model == &ep_plt_model_linked) {
		t->linked.files = 1;
		t->linked.relocations = relocations_of(res);
		t->linked.sum = res->linked;
		t->linked.sum.rela_plt = 0; /* an index, not a quantity */
	}
}

static void arm64_totals_add(struct arm64_totals *to, const struct arm64_totals *a)
{
	size_t i;

	to->files += a->files;
	to->rejected += a->rejected;
	to->relocations += a->relocations;
	to->plt_relocations += a->plt_relocations;
	to->veneers += a->veneers;
	to->slots += a->slots;
	to->slots_minimal += a->slots_minimal;
	to->bytes += a->bytes;
	to->bytes_minimal += a->bytes_minimal;
	to->leftover_sections += a->leftover_sections;
	to->sorted_full += a->sorted_full;
	to->sorted_partitioned += a->sorted_partitioned;
	to->sort_sections += a->sort_sections;
	to->sort_skipped += a->sort_skipped;
	to->full_ns += a->full_ns;
	to->partitioned_ns += a->partitioned_ns;
	to->tramp_bytes += a->tramp_bytes;
	for (i = 0; i < 3; i++)
		to->kernel_from[i] += a->kernel_from[i];
	to->kaslr_ignored += a->kaslr_ignored;
	if (a->kernel_oldest && (!to->kernel_oldest || a->kernel_oldest < to->kernel_oldest))
		to->kernel_oldest = a->kernel_oldest;
	if (a->kernel_newest > to->kernel_newest)
		to->kernel_newest = a->kernel_newest;
}

/* Add the totals t (of one file, say) to those of the run, to. */
static void totals_add(struct plt_totals *to, const struct plt_totals *t)
{
	struct ep_plt_object *o = &to->object.sum;
	struct ep_plt_linked *l = &to->linked.sum;

	to->files += t->files;
	to->files_failed += t->files_failed;
	to->not_covered += t->not_covered;
	arm64_totals_add(&to->arm64, &t->arm64);
	to->object.files += t->object.files;
	to->object.relocations += t->object.relocations;
	o->branch_relocations += t->object.sum.branch_relocations;
	o->undefined_branches += t->object.sum.undefined_branches;
	o->distinct_targets += t->object.sum.distinct_targets;
	o->got_relocations += t->object.sum.got_relocations;
	o->distinct_got_symbols += t->object.sum.distinct_got_symbols;
	to->linked.files += t->linked.files;
	to->linked.relocations += t->linked.relocations;
	l->jump_slot += t->linked.sum.jump_slot;
	l->irelative += t->linked.sum.irelative;
	l->plt_slots += t->linked.sum.plt_slots;
	l->glob_dat += t->linked.sum.glob_dat;
	l->plt_bytes += t->linked.sum.plt_bytes;
	l->plt_sec_bytes += t->linked.sum.plt_sec_bytes;
	l->got_bytes += t->linked.sum.got_bytes;
	l->got_plt_bytes += t->linked.sum.got_plt_bytes;
}

static uint64_t files_of(const struct plt_totals *t, const struct ep_plt_model *m)
{
	if (m == &ep_plt_model_arm64_module)
		return t->arm64.files;
	if (m == &ep_plt_model_object)
		return t->object.files;
	if (m == &ep_plt_model_linked)
		return t->linked.files;
	return 0;
}

/* "  kernels: 6.12.117 (4351 from vermagic); --kaslr has no effect on 4351" */
static void print_kernels(FILE *out, const struct arm64_totals *a)
{
	static const enum ep_kernel_from order[] = { EP_KERNEL_FROM_VERMAGIC, EP_KERNEL_FROM_OPTION,
						     EP_KERNEL_FROM_DEFAULT };
	const char *sep = " (";
	char lo[32], hi[32];
	size_t i;

	fprintf(out, "  kernels: %s", kernel_version_text(a->kernel_oldest, lo, sizeof(lo)));
	if (a->kernel_newest != a->kernel_oldest)
		fprintf(out, " to %s", kernel_version_text(a->kernel_newest, hi, sizeof(hi)));
	for (i = 0; i < 3; i++) {
		if (!a->kernel_from[order[i]])
			continue;
		fprintf(out, "%s%" PRIu64 " from %s", sep, a->kernel_from[order[i]],
			order[i] == EP_KERNEL_FROM_DEFAULT  ? "the default (no vermagic)"
			: order[i] == EP_KERNEL_FROM_OPTION ? "--kernel"
							    : "vermagic");
		sep = ", ";
	}
	fputc(')', out);
	if (a->kaslr_ignored)
		fprintf(out, "; --kaslr has no effect on %" PRIu64, a->kaslr_ignored);
	fputc('\n', out);
}

static void print_totals(struct plt_run *run)
{
	const struct plt_totals *t = &run->t;
	const struct arm64_totals *a = &t->arm64;
	FILE *out = run->g->out;
	const char *sep = ": ";
	size_t i;

	fprintf(out, "total: %" PRIu64 " %s", t->files, ep_plural(t->files, "file", "files"));
	for (i = 0; i < NVIEWS; i++) {
		const uint64_t n = files_of(t, model_views[i].model);

		if (!n)
			continue;
		fprintf(out, "%s%" PRIu64 " %s", sep, n,
			ep_plural(n, model_views[i].one, model_views[i].many));
		sep = ", ";
	}
	if (t->not_covered)
		fprintf(out, "%s%" PRIu64 " not covered", sep, t->not_covered);
	if (t->files_failed)
		fprintf(out, "; %" PRIu64 " %s failed", t->files_failed,
			ep_plural(t->files_failed, "file", "files"));
	fputc('\n', out);
	if (a->files) {
		fprintf(out, "%s, %" PRIu64 " %s (%" PRIu64 " rejected by the kernel):\n",
			ep_plt_model_arm64_module.name, a->files,
			ep_plural(a->files, "module", "modules"), a->rejected);
		fprintf(out,
			"  slots: %" PRIu64 " (minimal %" PRIu64 "), %" PRIu64
			" %s; .plt and .init.plt"
			" %" PRIu64 " bytes (minimal %" PRIu64 ")\n",
			a->slots, a->slots_minimal, a->veneers,
			ep_plural(a->veneers, "veneer", "veneers"), a->bytes, a->bytes_minimal);
		fprintf(out, "  ftrace trampolines: %" PRIu64 " bytes\n", a->tramp_bytes);
		print_kernels(out, a);
		print_sorting(out, a->sorted_full, a->sorted_partitioned, a->sort_skipped,
			      a->sort_sections);
		if (run->opt.timing_reps)
			print_timing(out, "sum of the modules' medians", run->opt.timing_reps,
				     a->full_ns, a->partitioned_ns);
		if (a->leftover_sections)
			fprintf(out, "  %" PRIu64 " %s with a partition leftover\n",
				a->leftover_sections,
				ep_plural(a->leftover_sections, "section", "sections"));
	}
	if (t->object.files) {
		fprintf(out, "%s, %" PRIu64 " %s (bounds added file by file):\n",
			ep_plt_model_object.name, t->object.files,
			ep_plural(t->object.files, "file", "files"));
		print_object(out, &t->object.sum);
	}
	if (t->linked.files) {
		fprintf(out, "%s, %" PRIu64 " %s:\n", ep_plt_model_linked.name, t->linked.files,
			ep_plural(t->linked.files, "file", "files"));
		print_linked(out, &t->linked.sum);
	}
}

static void totals_text(struct plt_run *run)
{
	const struct plt_totals *t = &run->t;

	summary_print(run, run->g->out);
	/* A single file's details are its totals, except when only totals are asked for. */
	if (t->files + t->files_failed > (run->summary ? 0 : 1))
		print_totals(run);
	ep_print_skipped(run->g->out);
}

/* ---- JSON -------------------------------------------------------------------- */

static json_t *json_u(uint64_t v)
{
	return ep_json_u64(v);
}

static json_t *json_section(const struct ep_plt_result *res, const struct ep_plt_section *s)
{
	const char *group = ep_plt_group_name(s->group);
	json_t *o = json_object();

	json_object_set_new(o, "index", json_u(s->index));
	json_object_set_new(o, "name", json_string(s->name));
	/* sh_info 0: {"index": 0, "name": ""}, as elfplt-stats/1 has it. */
	json_object_set_new(o, "target",
			    json_pack("{s:o, s:s}", "index", json_u(s->target), "name",
				      s->target ? s->target_name : ""));
	json_object_set_new(o, "group", group ? json_string(group) : json_null());
	json_object_set_new(o, "relocations", json_u(s->relocations));
	json_object_set_new(o, "branch_relocations", json_u(s->branch_relocations));
	json_object_set_new(o, "plt_relocations", json_u(s->plt_relocations));
	json_object_set_new(o, "got_relocations", json_u(s->got_relocations));
	json_object_set_new(o, "slots", json_u(s->slots));
	json_object_set_new(o, "slots_minimal", json_u(s->slots_minimal));
	json_object_set_new(o, "veneers", json_u(s->veneers));
	json_object_set_new(o, "spare", json_u(s->spare));
	json_object_set_new(o, "sorted_full", json_u(s->sorted_full));
	json_object_set_new(o, "sorted_partitioned", json_u(s->sorted_partitioned));
	json_object_set_new(o, "min_align", json_u(s->min_align));
	json_object_set_new(o, "partition_leftover", json_boolean(s->leftover));
	if (res->opt.timing_reps)
		json_object_set_new(o, "timing",
				    json_pack("{s:o, s:o}", "full_ns", json_u(s->full_ns),
					      "partitioned_ns", json_u(s->partitioned_ns)));
	return o;
}

static json_t *json_groups(const struct ep_image *img, const struct ep_plt_result *res)
{
	json_t *o = json_object();
	int g;

	for (g = 0; g < EP_PLT_NGROUP; g++) {
		const struct ep_plt_group_result *gr = &res->groups[g];

		json_object_set_new(
			o, ep_plt_group_name(g),
			json_pack("{s:o, s:o, s:o, s:o, s:o}", "slots", json_u(gr->slots),
				  "slots_minimal", json_u(gr->slots_minimal), "bytes",
				  json_u(gr->bytes), "bytes_minimal", json_u(gr->bytes_minimal),
				  "section",
				  gr->plt_index ? json_string(img->sections[gr->plt_index].name)
						: json_null()));
	}
	return o;
}

static json_t *json_sorted(uint64_t full, uint64_t partitioned, uint64_t sections,
			   uint64_t unsorted)
{
	return json_pack("{s:o, s:o, s:o, s:o}", "full", json_u(full), "partitioned",
			 json_u(partitioned), "sections", json_u(sections), "sections_unsorted",
			 json_u(unsorted));
}

static json_t *json_timing(uint64_t full_ns, uint64_t partitioned_ns)
{
	return json_pack("{s:o, s:o}", "full_ns", json_u(full_ns), "partitioned_ns",
			 json_u(partitioned_ns));
}

/* files[].linked, and the same keys summed in totals.by_model[]. */
static json_t *json_linked(const struct ep_plt_linked *l)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "plt_slots",
			 json_u(l->plt_slots), "jump_slot", json_u(l->jump_slot), "irelative",
			 json_u(l->irelative), "got_entries_glob_dat", json_u(l->glob_dat),
			 "plt_bytes", json_u(l->plt_bytes), "plt_sec_bytes",
			 json_u(l->plt_sec_bytes), "got_bytes", json_u(l->got_bytes),
			 "got_plt_bytes", json_u(l->got_plt_bytes));
}

/* files[].object, and the same keys summed in totals.by_model[]. */
static json_t *json_object_bounds(const struct ep_plt_object *ob)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o}", "branch_relocations",
			 json_u(ob->branch_relocations), "undefined_branches",
			 json_u(ob->undefined_branches), "plt_slots_max",
			 json_u(ob->distinct_targets), "got_relocations",
			 json_u(ob->got_relocations), "got_entries_max",
			 json_u(ob->distinct_got_symbols));
}

/* The arm64-module file's "kernel": the loader modelled and where from. */
static json_t *json_kernel(const struct ep_plt_result *res)
{
	const struct ep_arm64_rules *r = &res->rules;
	char v[32];

	return json_pack("{s:s, s:s, s:o, s:b, s:b, s:b, s:I, s:b}", "version",
			 kernel_version_text(r->version, v, sizeof(v)), "from",
			 ep_kernel_from_name(r->from), "vermagic",
			 res->vermagic[0] ? json_string(res->vermagic) : json_null(), "mod_unload",
			 r->mod_unload, "kaslr_applies", r->kaslr_applies, "exit_in_init",
			 r->exit_in_init, "nr_ftrace_plts", (json_int_t)r->nr_ftrace_plts,
			 "below_floor", r->version < EP_ARM64_KVER_FLOOR);
}

static json_t *json_file(const struct ep_image *img, const struct ep_plt_result *res)
{
	bool module = res->model == &ep_plt_model_arm64_module;
	char kv[32];
	json_t *o = json_object(), *secs = json_array();
	size_t i;

	json_object_set_new(o, "path", json_string(img->path));
	json_object_set_new(o, "elf", ep_json_elf(img));
	json_object_set_new(o, "model", res->model ? json_string(res->model->name) : json_null());
	json_object_set_new(o, "model_source",
			    res->model ? json_string(res->model->source) : json_null());
	json_object_set_new(o, "note", res->note ? json_string(res->note) : json_null());
	json_object_set_new(o, "options",
			    json_pack("{s:b, s:b, s:I, s:s}", "kaslr", res->opt.kaslr,
				      "erratum_843419", res->opt.erratum_843419, "timing_reps",
				      (json_int_t)res->opt.timing_reps, "kernel",
				      res->opt.kernel
					      ? kernel_version_text(res->opt.kernel, kv, sizeof(kv))
					      : "auto"));
	json_object_set_new(o, "kernel", module ? json_kernel(res) : json_null());
	for (i = 0; i < res->nsecs; i++)
		json_array_append_new(secs, json_section(res, &res->secs[i]));
	json_object_set_new(o, "sections", secs);
	json_object_set_new(o, "groups", module ? json_groups(img, res) : json_null());
	json_object_set_new(o, "ftrace_trampoline",
			    res->has_tramp ? json_pack("{s:o}", "bytes", json_u(res->tramp_bytes))
					   : json_null());
	json_object_set_new(o, "init_ftrace_trampoline",
			    res->has_init_tramp
				    ? json_pack("{s:o}", "bytes", json_u(res->init_tramp_bytes))
				    : json_null());
	json_object_set_new(o, "sorted",
			    json_sorted(res->sorted_full, res->sorted_partitioned,
					res->sort_sections, res->sort_skipped));
	if (res->opt.timing_reps && module)
		json_object_set_new(o, "timing", json_timing(res->full_ns, res->partitioned_ns));
	json_object_set_new(o, "kernel_rejects",
			    res->kernel_rejects ? json_string(res->kernel_rejects) : json_null());
	if (res->linked_valid)
		json_object_set_new(o, "linked", json_linked(&res->linked));
	if (res->object_valid)
		json_object_set_new(o, "object", json_object_bounds(&res->object));
	return o;
}

/* The arm64-module sums: totals.by_model[] and, unchanged, the top of totals. */
/* totals' "kernels": the versions modelled and where they came from. */
static json_t *json_kernels(const struct arm64_totals *a)
{
	char lo[32], hi[32];

	return json_pack("{s:s?, s:s?, s:{s:o, s:o, s:o}, s:o}", "oldest",
			 a->kernel_oldest ? kernel_version_text(a->kernel_oldest, lo, sizeof(lo))
					  : NULL,
			 "newest",
			 a->kernel_newest ? kernel_version_text(a->kernel_newest, hi, sizeof(hi))
					  : NULL,
			 "from", "vermagic", json_u(a->kernel_from[EP_KERNEL_FROM_VERMAGIC]),
			 "option", json_u(a->kernel_from[EP_KERNEL_FROM_OPTION]), "default",
			 json_u(a->kernel_from[EP_KERNEL_FROM_DEFAULT]), "kaslr_ignored",
			 json_u(a->kaslr_ignored));
}

static json_t *json_arm64_totals(const struct arm64_totals *a, bool timing)
{
	json_t *o = json_object();

	json_object_set_new(o, "kernel_rejects", json_u(a->rejected));
	json_object_set_new(o, "relocations", json_u(a->relocations));
	json_object_set_new(o, "plt_relocations", json_u(a->plt_relocations));
	json_object_set_new(o, "veneers", json_u(a->veneers));
	json_object_set_new(o, "slots", json_u(a->slots));
	json_object_set_new(o, "slots_minimal", json_u(a->slots_minimal));
	json_object_set_new(o, "bytes", json_u(a->bytes));
	json_object_set_new(o, "bytes_minimal", json_u(a->bytes_minimal));
	json_object_set_new(o, "partition_leftover_sections", json_u(a->leftover_sections));
	json_object_set_new(o, "ftrace_trampoline_bytes", json_u(a->tramp_bytes));
	json_object_set_new(o, "kernels", json_kernels(a));
	json_object_set_new(o, "sorted",
			    json_sorted(a->sorted_full, a->sorted_partitioned, a->sort_sections,
					a->sort_skipped));
	if (timing)
		json_object_set_new(o, "timing", json_timing(a->full_ns, a->partitioned_ns));
	return o;
}

/* {"model": name, "files": files, "relocations": relocations, ...keys}; steals keys. */
static json_t *json_model_totals(const struct ep_plt_model *m, uint64_t files, uint64_t relocations,
				 json_t *keys)
{
	json_t *o = json_pack("{s:s, s:o, s:o}", "model", m->name, "files", json_u(files),
			      "relocations", json_u(relocations));

	json_object_update(o, keys);
	json_decref(keys);
	return o;
}

/* The "totals" object; NULL when out of memory. */
static json_t *totals_json(struct plt_run *run)
{
	json_t *totals = json_object();
	const struct plt_totals *t = &run->t;
	json_t *arm64 = json_arm64_totals(&t->arm64, run->opt.timing_reps != 0);
	json_t *by_model = json_array();

	json_object_set_new(totals, "files", json_u(t->files));
	json_object_set_new(totals, "files_failed", json_u(t->files_failed));
	json_object_set_new(totals, "skipped", json_u(ep_inputs_skipped()));
	json_object_set_new(totals, "not_covered", json_u(t->not_covered));
	/* Loader slots, bytes and sorting are only ever added over arm64 modules. */
	json_object_update(totals, arm64);
	json_array_append_new(by_model,
			      json_model_totals(&ep_plt_model_arm64_module, t->arm64.files,
						t->arm64.relocations, arm64));
	json_array_append_new(by_model, json_model_totals(&ep_plt_model_object, t->object.files,
							  t->object.relocations,
							  json_object_bounds(&t->object.sum)));
	json_array_append_new(by_model, json_model_totals(&ep_plt_model_linked, t->linked.files,
							  t->linked.relocations,
							  json_linked(&t->linked.sum)));
	json_object_set_new(totals, "by_model", by_model);
	return totals;
}

/* ---- the loop ---------------------------------------------------------------- */

/*
 * What compute_file() hands emit_file() of one file, maybe through a pipe
 * from a worker process: this header, then out_len bytes of its report as
 * rendered there (a text block, or its files[] entry; none for text with
 * --summary).
 */
struct file_result {
	struct plt_totals t; /* the file's share of the run's totals */
	uint64_t row[8];     /* its line in a summary table (text) */
	int32_t view;	     /* the model_views[] index of that table; -1: none */
	uint32_t unused;
	uint64_t out_len;
};

/* What print_one() prints: one file's analysis. */
struct print_args {
	const struct ep_image *img;
	const struct ep_plt_result *res;
};

/* print_file() in ep_render_text()'s shape; arg is a struct print_args. */
static void print_one(FILE *f, const void *arg)
{
	const struct print_args *a = arg;

	print_file(f, a->img, a->res);
}

/* The file's report, as the bytes emit_file() writes: text, or a files[] entry. */
static int render_file(const struct plt_run *run, const struct ep_image *img,
		       const struct ep_blob *blob, const struct ep_plt_result *res, char **out,
		       size_t *out_len)
{
	const struct print_args args = { img, res };
	json_t *o;

	*out = NULL;
	*out_len = 0;
	if (run->json) {
		o = json_file(img, res);
		if (o)
			ep_json_input_keys(o, blob);
		return ep_render_json(o, out, out_len);
	}
	if (run->summary)
		return 0;
	return ep_render_text(print_one, &args, out, out_len);
}

/* Maybe in a worker process: analyse, render, pack what emit_file() needs. */
static int compute_file(struct ep_image *img, const struct ep_blob *blob, void *ctx, void **result,
			size_t *result_len, struct ep_error *err)
{
	const struct plt_run *run = ctx;
	struct ep_plt_result res;
	struct file_result r;
	unsigned char *p;
	char *out = NULL;
	size_t view, out_len = 0;
	int rc;

	rc = ep_plt_analyse(img, run->forced, &run->opt, &res, err);
	if (rc == 0 && render_file(run, img, blob, &res, &out, &out_len))
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	if (rc)
		goto out;
	memset(&r, 0, sizeof(r)); /* no stray bytes through the pipe */
	file_totals(&r.t, &res);
	r.view = view_of(res.model, &view) ? (int32_t)view : -1;
	summary_values(&res, r.row);
	r.out_len = out_len;
	*result_len = sizeof(r) + out_len;
	p = malloc(*result_len);
	if (!p) {
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
		goto out;
	}
	memcpy(p, &r, sizeof(r));
	if (out_len)
		memcpy(p + sizeof(r), out, out_len);
	*result = p;
out:
	free(out);
	ep_plt_result_free(&res);
	return rc;
}

/* In the main process, in input order: write the file's report, add it up. */
static int emit_file(const char *path, const void *result, size_t result_len, void *ctx,
		     struct ep_error *err)
{
	struct plt_run *run = ctx;
	const char *out = (const char *)result + sizeof(struct file_result);
	struct file_result r;

	if (result_len >= sizeof(r))
		memcpy(&r, result, sizeof(r));
	if (result_len < sizeof(r) || r.out_len != result_len - sizeof(r) || r.view >= NVIEWS)
		return ep_error_set(err, EP_EIO, "%s: the worker's result is malformed", path);
	totals_add(&run->t, &r.t);
	if (run->json) {
		ep_json_stream_file_text(&run->js, out, r.out_len);
		return 0;
	}
	if (r.out_len)
		fwrite(out, 1, r.out_len, run->g->out);
	if (r.view >= 0)
		summary_add(run, path, (size_t)r.view, r.row);
	return 0;
}

static void plt_error(const char *path, const struct ep_error *err, void *ctx)
{
	struct plt_run *run = ctx;
	json_t *e;

	run->t.files_failed++;
	if (!run->json)
		return;
	e = ep_json_file_error(path, err);
	if (!e || ep_json_stream_file(&run->js, e))
		run->js.failed = true;
	json_decref(e);
}

static void plt_usage(FILE *f)
{
	fputs("usage: elfplt plt [--kernel=auto|VERSION] [--kaslr=on|off] "
	      "[--erratum-843419=on|off]\n"
	      "                  [--model=NAME] [--timing[=REPS]] [--summary] [-j N] [-q]\n"
	      "                  [--max-size=BYTES] [--format=text|json] [-o FILE] [PATH...]\n"
	      "PLT slots per section as the arm64 module loader reserves them (Linux\n"
	      "module-plts.c, v5.8 to v6.12), the true minimum, and the sorting it does.\n"
	      "With no PATH, the running kernel's modules in /lib/modules/$(uname -r).\n\n"
	      "  --kernel=auto|VERSION    the loader of which kernel (default auto: each\n"
	      "                           module's vermagic, else 6.1); VERSION 5.8 or later\n"
	      "  --kaslr=on|off           CONFIG_RANDOMIZE_BASE (default on; no effect from 6.7)\n"
	      "  --erratum-843419=on|off  Cortex-A53 erratum 843419 workaround (default on)\n"
	      "  --model=NAME             arm64-module, object or linked instead of by e_type\n"
	      "  --timing[=REPS]          time full sort vs partition + sort (median of REPS,\n"
	      "                           default 9)\n"
	      "  --summary                a table per model, one line per file, and the totals\n"
	      "                           instead of each file's details\n"
	      "  -j, --jobs N             analyse N files at a time (default: one per CPU, at\n"
	      "                           most 8); the report is the same for any N\n"
	      "  -q, --quiet              no progress bar on a terminal\n"
	      "  --max-size=BYTES         refuse a compressed input or section that decodes to\n"
	      "                           more than BYTES (K, M, G suffixes; default 1G)\n"
	      "  --format=text|json       output for people (default) or machines (elfplt-plt/1)\n"
	      "  --json                   same as --format=json\n"
	      "  -o, --output FILE        write the report to FILE\n"
	      "See 'elfplt help plt' for the whole manual.\n",
	      f);
}

static int parse_onoff(const char *cmd, const char *opt, const char *arg, bool *v)
{
	if (strcmp(arg, "on") == 0)
		*v = true;
	else if (strcmp(arg, "off") == 0)
		*v = false;
	else
		return ep_usage_error(cmd, "--%s takes on or off, not '%s'", opt, arg);
	return 0;
}

static size_t dots(const char *s)
{
	size_t n = 0;

	while ((s = strchr(s, '.')) != NULL) {
		n++;
		s++;
	}
	return n;
}

static int cmd_plt(int argc, char **argv, struct ep_global *g)
{
	static const struct option longopts[] = {
		{ "kaslr", required_argument, NULL, 'k' },
		{ "kernel", required_argument, NULL, 'K' },
		{ "erratum-843419", required_argument, NULL, 'e' },
		{ "model", required_argument, NULL, 'm' },
		{ "timing", optional_argument, NULL, 't' },
		{ "summary", no_argument, NULL, 's' },
		EP_GLOBAL_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct plt_run run = { .g = g, .opt = { .kaslr = true, .erratum_843419 = true } };
	struct ep_paths in;
	json_t *totals;
	char *end;
	unsigned long reps;
	int c, rc, status;

	opterr = 0;
	while ((c = getopt_long(argc, argv, EP_GLOBAL_SHORTOPTS, longopts, NULL)) != -1) {
		switch (c) {
		case 'k':
			if (parse_onoff(g->cmd, "kaslr", optarg, &run.opt.kaslr))
				return EP_EXIT_USAGE;
			break;
		case 'K':
			if (strcmp(optarg, "auto") == 0) {
				run.opt.kernel = 0;
				break;
			}
			/* Only MAJOR.MINOR[.SUBLEVEL]: no "+deb12" or ".4" after it. */
			if (strspn(optarg, "v0123456789.") != strlen(optarg) || dots(optarg) > 2 ||
			    ep_kernel_version_parse(optarg, &run.opt.kernel) ||
			    run.opt.kernel < EP_ARM64_KVER_FLOOR)
				return ep_usage_error(g->cmd,
						      "--kernel takes auto or a version from 5.8 "
						      "(such as 6.1 or 6.12.117), not '%s'",
						      optarg);
			break;
		case 'e':
			if (parse_onoff(g->cmd, "erratum-843419", optarg, &run.opt.erratum_843419))
				return EP_EXIT_USAGE;
			break;
		case 'm':
			run.forced = ep_plt_model_find(optarg);
			if (!run.forced)
				return ep_usage_error(
					g->cmd,
					"--model takes arm64-module, object or linked, "
					"not '%s'",
					optarg);
			break;
		case 't':
			reps = DEFAULT_TIMING_REPS;
			if (optarg) {
				reps = strtoul(optarg, &end, 10);
				if (!*optarg || *end || optarg[0] == '-' || reps == 0 ||
				    reps > 100000)
					return ep_usage_error(g->cmd,
							      "--timing takes a repetition count "
							      "from 1 to 100000, not '%s'",
							      optarg);
			}
			run.opt.timing_reps = (unsigned int)reps;
			break;
		case 's':
			run.summary = true;
			break;
		case 'h':
			plt_usage(stdout);
			return EP_EXIT_OK;
		default:
			rc = ep_other_option(g, c, argv);
			if (rc)
				return rc;
		}
	}
	rc = ep_inputs_and_output(g, &in, argc, argv);
	if (rc)
		return rc;
	run.json = g->format == EP_FORMAT_JSON;
	if (run.json && ep_json_stream_begin(&run.js, g->out, "elfplt-plt/1"))
		run.js.failed = true;

	/* Only headers, relocations and symbols are read: no MAP_POPULATE. */
	status = ep_for_each_image_jobs(g, in.v, in.n, false, compute_file, emit_file, plt_error,
					&run);
	if (run.json) {
		totals = totals_json(&run);
		if (!totals || ep_json_stream_end(&run.js, totals))
			status = EP_EXIT_FAILED;
		json_decref(totals);
	} else {
		totals_text(&run);
	}
	if (run.nomem) {
		fputs("elfplt: out of memory for the summary tables\n", stderr);
		status = EP_EXIT_FAILED;
	}
	summary_free(&run);
	if (ep_output_close(g))
		status = EP_EXIT_FAILED;
	return status;
}

const struct ep_cmd ep_cmd_plt = { "plt", cmd_plt, "PLT slots the arm64 module loader reserves",
				   false };
