/* SPDX-License-Identifier: MIT */
/*
 * elfplt plt: what each file's loader or linker reserves for PLT slots, GOT
 * entries, stubs and trampolines, the minimum it would need, and the
 * sorting it does to find out.  This file knows the shape every PLT model
 * fills (lib/plt.h) and no model by name: what is a model's own, it renders
 * through the model's hooks.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/attr.h"
#include "cmd/elfplt.h"
#include "lib/openmetrics.h"
#include "lib/plt.h"
#include "lib/report.h"
#include "lib/top.h"

#define DEFAULT_TIMING_REPS 9

/* The most figures a model's summary line has after the path. */
#define SUMMARY_VALUES 8

/* One file's line in a per-model summary table: its path as given, its figures. */
struct summary_row {
	char *path;
	uint64_t v[SUMMARY_VALUES];
};

/* A per-model summary table, filled file by file and printed at the end. */
struct summary {
	struct summary_row *rows;
	size_t nrows, cap;
};

/* The run's sums: over every file, and per model (by its ep_plt_models[] index). */
struct plt_totals {
	uint64_t files, files_failed, not_covered;
	struct ep_plt_totals all;
	struct ep_plt_totals *by_model;
};

struct plt_run {
	struct ep_global *g;
	const struct ep_plt_model *forced;
	struct ep_plt_options opt;
	bool summary;
	struct ep_top top; /* --top N: the files reserving the most slots */
	bool json;	   /* --format=json */
	struct ep_json_stream js;
	/*
	 * Each model's table, by its ep_plt_models[] index: a line per file,
	 * kept to the end (text only), as a column is as wide as its widest cell.
	 */
	struct summary *tables;
	size_t nmodels;
	bool nomem;
	struct plt_totals t;
	struct ep_attr_opts attr;    /* --by, --debug-file, --debug-dir */
	unsigned long long no_dwarf; /* files whose cu/line rows are unknown */
};

/* ---- text ------------------------------------------------------------------- */

/* Is column c of a model shown?  The timing ones only with --timing. */
static bool column_shown(const struct ep_plt_column *c, const struct plt_run *run)
{
	return run->opt.timing_reps ||
	       (c->col != EP_PLT_COL_FULL_NS && c->col != EP_PLT_COL_PART_NS);
}

static void section_cell(struct ep_table *t, const struct ep_plt_section *s,
			 const struct ep_plt_column *c)
{
	const char *group;

	switch (c->col) {
	case EP_PLT_COL_INDEX:
		ep_table_cell(t, "[%zu]", s->index);
		break;
	case EP_PLT_COL_NAME:
		ep_table_cell_str(t, s->name);
		break;
	case EP_PLT_COL_TARGET:
		/* sh_info 0 (.rela.dyn): no one target section, shown as stats does. */
		if (s->target)
			ep_table_cell(t, "[%zu] %s", s->target, s->target_name);
		else
			ep_table_cell_str(t, "-");
		break;
	case EP_PLT_COL_GROUP:
		group = ep_plt_group_name(s->group);
		ep_table_cell_str(t, group ? group : "-");
		break;
	case EP_PLT_COL_RELOCATIONS:
		ep_table_cell_u64(t, s->relocations);
		break;
	case EP_PLT_COL_BRANCHES:
		ep_table_cell_u64(t, s->branch_relocations);
		break;
	case EP_PLT_COL_GOT:
		ep_table_cell_u64(t, s->got_relocations);
		break;
	case EP_PLT_COL_NEED:
		ep_table_cell(t, "%" PRIu64 "%s", s->plt_relocations, s->leftover ? "*" : "");
		break;
	case EP_PLT_COL_SLOTS:
		ep_table_cell_u64(t, s->slots);
		break;
	case EP_PLT_COL_MINIMAL:
		ep_table_cell_u64(t, s->slots_minimal);
		break;
	case EP_PLT_COL_SORT_FULL:
		ep_table_cell_u64(t, s->sorted_full);
		break;
	case EP_PLT_COL_SORT_LOADER:
		ep_table_cell_u64(t, s->sorted_partitioned);
		break;
	case EP_PLT_COL_FULL_NS:
		ep_table_cell_u64(t, s->full_ns);
		break;
	case EP_PLT_COL_PART_NS:
		ep_table_cell_u64(t, s->partitioned_ns);
		break;
	case EP_PLT_COL_VALUE:
		ep_table_cell_u64(t, c->value(s));
		break;
	}
}

/* The model's section table: names left-aligned, counts right-aligned. */
static void print_sections(FILE *out, const struct plt_run *run, const struct ep_plt_result *res)
{
	const struct ep_plt_model *m = res->model;
	const struct ep_plt_column *cols[24];
	const char *hdr[24];
	char align[25];
	unsigned int n = 0;
	struct ep_table *t;
	size_t i, k;

	if (!res->nsecs)
		return;
	for (i = 0; i < m->ncolumns && n < 24; i++) {
		const struct ep_plt_column *c = &m->columns[i];

		if (!column_shown(c, run))
			continue;
		cols[n] = c;
		hdr[n] = c->header;
		align[n++] = c->col == EP_PLT_COL_NAME || c->col == EP_PLT_COL_TARGET ||
					     c->col == EP_PLT_COL_GROUP
				     ? 'l'
				     : 'r';
	}
	align[n] = '\0';
	t = ep_table_new(n, hdr, align);
	for (k = 0; t && k < res->nsecs; k++) {
		ep_table_row(t);
		for (i = 0; i < n; i++)
			section_cell(t, &res->secs[k], cols[i]);
	}
	if (t)
		ep_table_print(t, out, "  ");
	ep_table_free(t);
}

static void print_file(FILE *out, const struct plt_run *run, const struct ep_image *img,
		       const struct ep_plt_result *res, const struct ep_attr *attr)
{
	const struct ep_plt_model *m = res->model;

	if (!m) {
		fprintf(out, "%s: no model: %s\n\n", img->path, res->note);
		return;
	}
	fprintf(out, "%s: %s (%s)", img->path, m->name, m->source);
	if (res->kernel.applies)
		ep_plt_print_kernel(out, &res->kernel);
	if (m->print_rules)
		m->print_rules(out, res);
	fputc('\n', out);
	print_sections(out, run, res);
	if (m->print_detail)
		m->print_detail(out, res);
	if (res->rejects)
		fprintf(out, "  the %s rejects this %s: %s\n",
			res->kernel.applies ? "kernel" : "loader",
			res->kernel.applies ? "module" : "file", res->rejects);
	if (run->attr.by)
		ep_attr_print(out, attr, run->top.max, true);
	fputc('\n', out);
}

/* ---- per-model summary tables ---------------------------------------------- */

/* Add path's line, its figures v[], to the table of model index view. */
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

/* Does the table of model i get printed? */
static bool summary_shown(const struct plt_run *run, size_t i)
{
	if (run->top.max && !run->summary)
		return false; /* --top's list stands for the files */
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

	for (i = 0; i < run->nmodels; i++) {
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
	for (i = 0; i < run->nmodels; i++) {
		const struct ep_plt_model *m = ep_plt_models[i];
		const struct summary *s = &run->tables[i];
		char align[SUMMARY_VALUES + 2] = "lrrrrrrrr";
		struct ep_table *t;

		if (!summary_shown(run, i))
			continue;
		ncols = (unsigned int)(m->nsummary -
				       (run->opt.timing_reps ? 0 : m->nsummary_timing));
		align[ncols] = '\0';
		t = ep_table_new(ncols, m->summary, align);
		for (r = 0; t && r < s->nrows; r++) {
			ep_table_row(t);
			ep_table_cell_str(t, s->rows[r].path + cut);
			for (c = 1; c < ncols; c++)
				ep_table_cell_u64(t, s->rows[r].v[c - 1]);
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

	for (i = 0; i < run->nmodels; i++) {
		for (r = 0; r < run->tables[i].nrows; r++)
			free(run->tables[i].rows[r].path);
		free(run->tables[i].rows);
	}
	free(run->tables);
}

/* ---- totals ------------------------------------------------------------------ */

/* --top's list: the files that reserve the most slots, of every kind and group. */
static void top_text(const struct plt_run *run, FILE *out)
{
	static const char *const hdr[] = { "#", "slots", "minimal", "relocations", "model", "file" };
	struct ep_table *t;
	size_t i;

	if (!run->top.n)
		return;
	fprintf(out, "top %zu %s by reserved slots, every kind:\n", run->top.n,
		ep_plural(run->top.n, "file", "files"));
	t = ep_table_new(6, hdr, "rrrrll");
	for (i = 0; t && i < run->top.n; i++) {
		const struct ep_top_entry *e = &run->top.v[i];

		ep_table_row(t);
		ep_table_cell_u64(t, i + 1);
		ep_table_cell_u64(t, e->key);
		ep_table_cell_u64(t, e->extra[0]);
		ep_table_cell_u64(t, e->extra[1]);
		ep_table_cell_str(t, ep_plt_models[e->extra[2]]->name);
		ep_table_cell_str(t, e->path);
	}
	if (t)
		ep_table_print(t, out, "  ");
	ep_table_free(t);
}

static void totals_text(struct plt_run *run)
{
	const struct plt_totals *t = &run->t;
	FILE *out = run->g->out;
	const char *sep = ": ";
	size_t i;

	summary_print(run, out);
	/* A single file's details are its totals, except when only totals are asked for. */
	if (t->files + t->files_failed > (run->summary || run->top.max ? 0 : 1)) {
		fprintf(out, "total: %" PRIu64 " %s", t->files,
			ep_plural(t->files, "file", "files"));
		for (i = 0; i < run->nmodels; i++) {
			const uint64_t n = t->by_model[i].files;

			if (!n)
				continue;
			fprintf(out, "%s%" PRIu64 " %s", sep, n,
				ep_plural(n, ep_plt_models[i]->one, ep_plt_models[i]->many));
			sep = ", ";
		}
		if (t->not_covered)
			fprintf(out, "%s%" PRIu64 " not covered", sep, t->not_covered);
		if (t->files_failed)
			fprintf(out, "; %" PRIu64 " %s failed", t->files_failed,
				ep_plural(t->files_failed, "file", "files"));
		fputc('\n', out);
		for (i = 0; i < run->nmodels; i++)
			if (t->by_model[i].files && ep_plt_models[i]->print_totals)
				ep_plt_models[i]->print_totals(out, &t->by_model[i],
							       run->opt.timing_reps);
	}
	top_text(run, out);
	ep_print_skipped(out);
}

/* ---- JSON -------------------------------------------------------------------- */

static json_t *json_u(uint64_t v)
{
	return ep_json_u64(v);
}

static json_t *json_count(const struct ep_plt_count *c)
{
	return json_pack("{s:o, s:o}", "reserved", json_u(c->reserved), "minimum",
			 json_u(c->minimum));
}

/* {"kind", "group", "reserved", "minimum"}: one cell of a by_kind or by_section list. */
static json_t *json_cell(enum ep_plt_kind k, enum ep_plt_group g, const struct ep_plt_count *c)
{
	return json_pack("{s:s, s:s, s:o, s:o}", "kind", ep_plt_kind_name(k), "group",
			 ep_plt_group_name(g), "reserved", json_u(c->reserved), "minimum",
			 json_u(c->minimum));
}

/*
 * {"reserved", "minimum", key: [{"kind", "group", "reserved", "minimum"}, ...]}:
 * the cells that are non-zero or that shown[] names (a file's: those whose
 * section the loader sizes, so an empty .plt still has its line).
 */
static json_t *json_cells(const struct ep_plt_count (*c)[EP_PLT_NGROUP],
			  const bool (*shown)[EP_PLT_NGROUP], const char *key)
{
	const struct ep_plt_count sum = ep_plt_totals_sum(c);
	json_t *o = json_count(&sum), *v = json_array();
	int k, g;

	for (k = 0; k < EP_PLT_NKIND; k++)
		for (g = 0; g < EP_PLT_NGROUP; g++)
			if (c[k][g].reserved || c[k][g].minimum || (shown && shown[k][g]))
				json_array_append_new(v, json_cell(k, g, &c[k][g]));
	json_object_set_new(o, key, v);
	return o;
}

/* files[].slots: the sum, and the cells of the file's slots and sized sections. */
static json_t *json_slots(const struct ep_plt_result *res)
{
	bool shown[EP_PLT_NKIND][EP_PLT_NGROUP] = { { false } };
	size_t i;

	for (i = 0; i < res->nsized; i++)
		shown[res->sized[i].kind][res->sized[i].group] = true;
	return json_cells(res->slots, shown, "by_kind");
}

/* files[].bytes: the sum and every section the loader sizes. */
static json_t *json_bytes(const struct ep_plt_result *res)
{
	const struct ep_plt_count sum = ep_plt_result_bytes(res);
	json_t *o = json_count(&sum), *v = json_array();
	size_t i;

	for (i = 0; i < res->nsized; i++) {
		const struct ep_plt_sized *z = &res->sized[i];
		json_t *e = json_pack("{s:s, s:o}", "name", z->name, "index",
				      z->index ? json_u(z->index) : json_null());

		json_object_update_new(e, json_cell(z->kind, z->group, &z->bytes));
		json_array_append_new(v, e);
	}
	json_object_set_new(o, "by_section", v);
	return o;
}

/* "sort": what the loader sorts; with --timing the measured cost of both ways. */
static json_t *json_sort(const struct ep_plt_sort *s, bool timing)
{
	json_t *o =
		json_pack("{s:o, s:o, s:o, s:o, s:o}", "full", json_u(s->full), "loader",
			  json_u(s->loader), "needed", json_u(s->needed), "sections",
			  json_u(s->sections), "sections_unsorted", json_u(s->sections_unsorted));

	if (timing)
		json_object_set_new(o, "timing",
				    json_pack("{s:o, s:o}", "full_ns", json_u(s->full_ns),
					      "partitioned_ns", json_u(s->partitioned_ns)));
	return o;
}

static json_t *json_section(const struct ep_plt_result *res, const struct ep_plt_section *s)
{
	const char *group = ep_plt_group_name(s->group);
	const struct ep_plt_count slots = { s->slots, s->slots_minimal };
	json_t *o = json_object();

	json_object_set_new(o, "index", json_u(s->index));
	json_object_set_new(o, "name", json_string(s->name));
	/* sh_info 0: {"index": 0, "name": ""}, as elfplt-stats/2 has it. */
	json_object_set_new(o, "target",
			    json_pack("{s:o, s:s}", "index", json_u(s->target), "name",
				      s->target ? s->target_name : ""));
	json_object_set_new(o, "group", group ? json_string(group) : json_null());
	json_object_set_new(o, "relocations", json_u(s->relocations));
	json_object_set_new(o, "needed", json_u(s->plt_relocations));
	json_object_set_new(o, "slots", json_count(&slots));
	if (res->sort.applies) {
		const struct ep_plt_sort sort = { .full = s->sorted_full,
						  .loader = s->sorted_partitioned,
						  .full_ns = s->full_ns,
						  .partitioned_ns = s->partitioned_ns };
		json_t *so = json_sort(&sort, res->opt.timing_reps != 0);

		/* Per section: what is sorted, not the section counts. */
		json_object_del(so, "needed");
		json_object_del(so, "sections");
		json_object_del(so, "sections_unsorted");
		json_object_set_new(o, "sort", so);
	}
	json_object_set_new(o, "detail",
			    res->model->json_section ? res->model->json_section(res, s)
						     : json_null());
	return o;
}

/* "rules": the kernel modelled and the model's own rule keys; null when none. */
static json_t *json_rules(const struct ep_plt_result *res)
{
	const struct ep_plt_kernel *k = &res->kernel;
	char v[32], lo[32], hi[32];
	json_t *o;

	if (!k->applies)
		return res->model->json_rules ? res->model->json_rules(res) : json_null();
	o = json_pack("{s:{s:s, s:s, s:o, s:b}, s:b, s:s, s:s, s:b, s:b}", "kernel", "version",
		      ep_kernel_version_text(k->version, v, sizeof(v)), "from",
		      ep_kernel_from_name(k->from), "vermagic",
		      k->vermagic[0] ? json_string(k->vermagic) : json_null(), "sublevel_known",
		      k->sublevel_known, "mod_unload", k->mod_unload, "floor",
		      ep_kernel_version_text(k->floor, lo, sizeof(lo)), "checked_through",
		      ep_kernel_version_text(k->checked_through, hi, sizeof(hi)), "below_floor",
		      k->below_floor, "beyond_checked", k->beyond_checked);
	if (o && res->model->json_rules) {
		json_t *own = res->model->json_rules(res);

		json_object_update(o, own);
		json_decref(own);
	}
	return o;
}

static json_t *json_options(const struct ep_plt_options *opt)
{
	char kv[32];

	return json_pack("{s:b, s:b, s:I, s:s}", "kaslr", opt->kaslr, "erratum_843419",
			 opt->erratum_843419, "timing_reps", (json_int_t)opt->timing_reps, "kernel",
			 opt->kernel ? ep_kernel_version_text(opt->kernel, kv, sizeof(kv))
				     : "auto");
}

static json_t *json_file(const struct plt_run *run, const struct ep_image *img,
			 const struct ep_plt_result *res, const struct ep_attr *attr)
{
	const struct ep_plt_model *m = res->model;
	json_t *o = json_object(), *secs;
	size_t i;

	json_object_set_new(o, "path", json_string(img->path));
	json_object_set_new(o, "elf", ep_json_elf(img));
	json_object_set_new(o, "model", m ? json_string(m->name) : json_null());
	json_object_set_new(o, "model_source", m ? json_string(m->source) : json_null());
	json_object_set_new(o, "note", res->note ? json_string(res->note) : json_null());
	json_object_set_new(o, "options", json_options(&res->opt));
	if (!m) {
		json_object_set_new(o, "slots", json_null());
		json_object_set_new(o, "bytes", json_null());
		return o;
	}
	json_object_set_new(o, "rules", json_rules(res));
	json_object_set_new(o, "slots", json_slots(res));
	json_object_set_new(o, "bytes", json_bytes(res));
	json_object_set_new(o, "sort",
			    res->sort.applies ? json_sort(&res->sort, res->opt.timing_reps != 0)
					      : json_null());
	json_object_set_new(o, "rejects", res->rejects ? json_string(res->rejects) : json_null());
	secs = json_array();
	for (i = 0; i < res->nsecs; i++)
		json_array_append_new(secs, json_section(res, &res->secs[i]));
	json_object_set_new(o, "sections", secs);
	json_object_set_new(o, "detail", m->json_detail ? m->json_detail(res) : json_null());
	if (run->attr.by)
		json_object_set_new(o, "attribution", ep_attr_json(attr, run->top.max, true));
	return o;
}

/*
 * The sums every model shares: files, relocations, slots, bytes, sort,
 * rejects, kernels; and, for one model, its own under "detail".
 */
static json_t *json_sums(const struct ep_plt_totals *t, const struct ep_plt_model *m, bool timing)
{
	bool shown[EP_PLT_NKIND][EP_PLT_NGROUP];
	json_t *o = json_object();
	int k, g;

	/* A cell some section was sized for is listed in both, as in a file. */
	for (k = 0; k < EP_PLT_NKIND; k++)
		for (g = 0; g < EP_PLT_NGROUP; g++)
			shown[k][g] = t->bytes[k][g].reserved || t->bytes[k][g].minimum;
	json_object_set_new(o, "relocations", json_u(t->relocations));
	json_object_set_new(o, "slots", json_cells(t->slots, shown, "by_kind"));
	json_object_set_new(o, "bytes", json_cells(t->bytes, shown, "by_kind"));
	json_object_set_new(o, "sort", json_sort(&t->sort, timing && t->sort.applies));
	json_object_set_new(o, "rejects", json_u(t->rejected));
	json_object_set_new(o, "kernels", ep_plt_json_kernels(t));
	if (m)
		json_object_set_new(o, "detail", m->json_totals ? m->json_totals(t) : json_null());
	return o;
}

/* totals.top: --top's list, [] without it. */
static json_t *top_json(const struct plt_run *run)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < run->top.n; i++) {
		const struct ep_top_entry *e = &run->top.v[i];
		const struct ep_plt_count c = { e->key, e->extra[0] };

		json_array_append_new(a, json_pack("{s:s, s:s, s:o, s:o}", "path", e->path, "model",
						   ep_plt_models[e->extra[2]]->name, "slots",
						   json_count(&c), "relocations",
						   json_u(e->extra[1])));
	}
	return a;
}

/* The "totals" object; NULL when out of memory. */
static json_t *totals_json(struct plt_run *run)
{
	const struct plt_totals *t = &run->t;
	const bool timing = run->opt.timing_reps != 0;
	json_t *totals = json_sums(&t->all, NULL, timing);
	json_t *by_model = json_array();
	size_t i;

	json_object_set_new(totals, "files", json_u(t->files));
	json_object_set_new(totals, "files_failed", json_u(t->files_failed));
	json_object_set_new(totals, "skipped", json_u(ep_inputs_skipped()));
	json_object_set_new(totals, "not_covered", json_u(t->not_covered));
	for (i = 0; i < run->nmodels; i++) {
		json_t *e = json_sums(&t->by_model[i], ep_plt_models[i], timing);

		json_object_set_new(e, "model", json_string(ep_plt_models[i]->name));
		json_object_set_new(e, "files", json_u(t->by_model[i].files));
		json_array_append_new(by_model, e);
	}
	json_object_set_new(totals, "by_model", by_model);
	json_object_set_new(totals, "top", top_json(run));
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
	struct ep_plt_totals t;	      /* the file's share of the run's totals */
	uint64_t row[SUMMARY_VALUES]; /* its line in a summary table (text) */
	int32_t model;		      /* the ep_plt_models[] index; -1: none covers it */
	uint32_t no_dwarf;	      /* --by=cu|line and the file has no DWARF */
	uint64_t out_len;
	uint64_t warn_len; /* after the out_len bytes: its warnings as stderr lines */
};

/* What print_one() prints: one file's analysis. */
struct print_args {
	const struct plt_run *run;
	const struct ep_image *img;
	const struct ep_plt_result *res;
	const struct ep_attr *attr;
};

/* print_file() in ep_render_text()'s shape; arg is a struct print_args. */
static void print_one(FILE *f, const void *arg)
{
	const struct print_args *a = arg;

	print_file(f, a->run, a->img, a->res, a->attr);
}

/* The file's report, as the bytes emit_file() writes: text, or a files[] entry. */
static int render_file(const struct plt_run *run, const struct ep_image *img,
		       const struct ep_blob *blob, const struct ep_plt_result *res,
		       const struct ep_attr *attr, char **out, size_t *out_len)
{
	const struct print_args args = { run, img, res, attr };
	json_t *o;

	*out = NULL;
	*out_len = 0;
	if (run->json) {
		int rc;

		/* The object lives only to be dumped: its values from an arena. */
		ep_json_arena_begin();
		o = json_file(run, img, res, attr);
		if (o)
			ep_json_input_keys(o, blob);
		if (o && (res->warnings.n || res->warnings.dropped))
			json_object_set_new(o, "warnings", ep_json_warnings(&res->warnings));
		rc = ep_render_json(o, out, out_len);
		ep_json_arena_end();
		return rc;
	}
	/* OpenMetrics is the totals only; --top and --summary list the totals
	 * instead of each file's report, unless --by asks for its tables (then
	 * --top N keeps each table's first N rows, as in stats). */
	if (run->g->format == EP_FORMAT_OPENMETRICS ||
	    ((run->summary || run->top.max) && !run->attr.by))
		return 0;
	return ep_render_text(print_one, &args, out, out_len);
}

/* Maybe in a worker process: analyse, render, pack what emit_file() needs. */
static int compute_file(struct ep_image *img, const struct ep_blob *blob, void *ctx, void **result,
			size_t *result_len, struct ep_error *err)
{
	const struct plt_run *run = ctx;
	struct ep_plt_result res;
	struct ep_attr attr = { 0 };
	struct file_result r;
	unsigned char *p;
	char *out = NULL, *warn = NULL;
	size_t out_len = 0, warn_len = 0;
	int rc;

	rc = ep_plt_analyse(img, run->forced, &run->opt, &res, err);
	if (rc == 0 && run->attr.by && res.model)
		rc = ep_attr_plt(img, &res, run->attr.by, &run->attr.dwarf, &attr, err);
	if (rc == 0 && attr.debug_warning[0])
		ep_warn(&res.warnings, "debug_file", "%s", attr.debug_warning);
	if (rc == 0 && render_file(run, img, blob, &res, &attr, &out, &out_len))
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	if (rc)
		goto out;
	memset(&r, 0, sizeof(r)); /* no stray bytes through the pipe */
	ep_plt_totals_of(&res, &r.t);
	r.model = ep_plt_model_index(res.model);
	r.no_dwarf = attr.dwarf_missing;
	if (res.model && res.model->summary_values)
		res.model->summary_values(&res, r.row);
	r.out_len = out_len;
	warn = ep_warnings_text(img->path, &res.warnings, &warn_len);
	r.warn_len = warn_len;
	*result_len = sizeof(r) + out_len + warn_len;
	p = malloc(*result_len);
	if (!p) {
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
		goto out;
	}
	memcpy(p, &r, sizeof(r));
	if (out_len)
		memcpy(p + sizeof(r), out, out_len);
	if (warn_len)
		memcpy(p + sizeof(r) + out_len, warn, warn_len);
	*result = p;
out:
	free(warn);
	free(out);
	ep_attr_free(&attr);
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
	if (result_len < sizeof(r) || r.out_len > result_len - sizeof(r) ||
	    r.warn_len != result_len - sizeof(r) - r.out_len || r.model < -1 ||
	    r.model >= (int32_t)run->nmodels)
		return ep_error_set(err, EP_EIO, "%s: the worker's result is malformed", path);
	if (r.warn_len)
		ep_jobs_stderr(out + r.out_len, r.warn_len);
	run->t.files++;
	run->no_dwarf += r.no_dwarf != 0;
	if (r.model < 0) {
		run->t.not_covered++;
	} else {
		const struct ep_plt_count slots = ep_plt_totals_sum(r.t.slots);
		const uint64_t extra[EP_TOP_EXTRA] = { slots.minimum, r.t.relocations,
						       (uint64_t)r.model };

		ep_plt_totals_add(&run->t.all, &r.t);
		ep_plt_totals_add(&run->t.by_model[r.model], &r.t);
		if (ep_top_add(&run->top, path, slots.reserved, extra))
			run->nomem = true;
	}
	if (run->json) {
		ep_json_stream_file_text(&run->js, out, r.out_len);
		return 0;
	}
	if (r.out_len)
		fwrite(out, 1, r.out_len, run->g->out);
	if (r.model >= 0 && ep_plt_models[r.model]->summary)
		summary_add(run, path, (size_t)r.model, r.row);
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

/* ---- options ----------------------------------------------------------------- */

static void plt_usage(FILE *f)
{
	size_t i;

	fputs("usage: elfplt plt [--kernel=auto|VERSION] [--kaslr=on|off] "
	      "[--erratum-843419=on|off]\n"
	      "                  [--model=NAME] [--timing[=REPS]] [--summary] [--top N]\n"
	      "                  [--by=callee|caller|cu|line|cause[,...]]\n"
	      "                  [--debug-file=PATH] [--debug-dir=DIR] [-j N] [-q]\n"
	      "                  [--max-size=BYTES] [--format=text|json|openmetrics] [-o FILE] [PATH...]\n"
	      "PLT slots, GOT entries and stubs per section as each file's loader or linker\n"
	      "reserves them (a kernel module's: the loader of the module's own kernel), the\n"
	      "true minimum, and the sorting the loader does.\n"
	      "With no PATH, the running kernel's modules in /lib/modules/$(uname -r).\n\n"
	      "  --kernel=auto|VERSION    the loader of which kernel (default auto: each\n"
	      "                           module's vermagic, else the model's default);\n"
	      "                           VERSION 5.8 or later\n"
	      "  --kaslr=on|off           arm64: CONFIG_RANDOMIZE_BASE (default on; no effect\n"
	      "                           from 6.7)\n"
	      "  --erratum-843419=on|off  arm64: Cortex-A53 erratum 843419 workaround (default on)\n"
	      "  --model=NAME             one of the models below, instead of by e_type\n"
	      "  --timing[=REPS]          time the loader's sort against sorting only what\n"
	      "                           needs a slot (median of REPS, default 9)\n"
	      "  --summary                a table per model, one line per file, and the totals\n"
	      "                           instead of each file's details\n"
	      "  --top N                  list the N files that reserve the most slots (text:\n"
	      "                           with the totals instead of each file's details)\n"
	      "  --by=LIST                attribute each file's slots to the callee, the caller\n"
	      "                           (its function), the compile unit, the source line, or\n"
	      "                           break its over-allocation down by cause; commas join\n"
	      "  --debug-file=PATH        the debug info of the one input (cu, line)\n"
	      "  --debug-dir=DIR          debug info in DIR/<input path>[.debug], else by\n"
	      "                           build-id under /usr/lib/debug\n"

	      "  -j, --jobs N             analyse N files at a time (default: from the\n"
	      "                           work, see elfplt(1)); the report is the same for any N\n"
	      "  -q, --quiet              no progress bar on a terminal\n"
	      "  --max-size=BYTES         refuse a compressed input or section that decodes to\n"
	      "                           more than BYTES (K, M, G suffixes; default 1G)\n"
	      "  --format=text|json       output for people (default) or machines (elfplt-plt/2)\n"
	      "  --format=openmetrics     the totals as OpenMetrics gauges (GitLab metrics report)\n"
	      "  --json                   same as --format=json\n"
	      "  -o, --output FILE        write the report to FILE ('-': standard output)\n"
	      "models, in the order they are tried:\n",
	      f);
	for (i = 0; ep_plt_models[i]; i++)
		fprintf(f, "  %-18s %s\n", ep_plt_models[i]->name, ep_plt_models[i]->source);
	fputs("See 'elfplt help plt' for the whole manual.\n", f);
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

/* --kernel=auto|VERSION: only MAJOR.MINOR[.SUBLEVEL], no "+deb12" or ".4" after it. */
static int parse_kernel(const char *cmd, const char *arg, uint32_t *kernel)
{
	if (strcmp(arg, "auto") == 0) {
		*kernel = 0;
		return 0;
	}
	if (strspn(arg, "v0123456789.") != strlen(arg) || dots(arg) > 2 ||
	    ep_kernel_version_parse(arg, kernel) || *kernel < EP_KVER(5, 8, 0))
		return ep_usage_error(cmd,
				      "--kernel takes auto or a version from 5.8 "
				      "(such as 6.1 or 6.12.117), not '%s'",
				      arg);
	return 0;
}

/* --timing[=REPS] */
static int parse_timing(const char *cmd, const char *arg, unsigned int *reps)
{
	unsigned long n = DEFAULT_TIMING_REPS;
	char *end;

	if (arg) {
		n = strtoul(arg, &end, 10);
		if (!*arg || *end || arg[0] == '-' || n == 0 || n > 100000)
			return ep_usage_error(cmd,
					      "--timing takes a repetition count "
					      "from 1 to 100000, not '%s'",
					      arg);
	}
	*reps = (unsigned int)n;
	return 0;
}

/* The command's own options into run; 0, or an exit status to return. */
static int parse_options(int argc, char **argv, struct plt_run *run)
{
	static const struct option longopts[] = {
		{ "kaslr", required_argument, NULL, 'k' },
		{ "kernel", required_argument, NULL, 'K' },
		{ "erratum-843419", required_argument, NULL, 'e' },
		{ "model", required_argument, NULL, 'm' },
		{ "timing", optional_argument, NULL, 't' },
		{ "summary", no_argument, NULL, 's' },
		{ "top", required_argument, NULL, 'T' },
		EP_ATTR_LONGOPTS,
		EP_GLOBAL_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct ep_global *g = run->g;
	int c, rc = 0;

	opterr = 0;
	while (rc == 0 && (c = ep_getopt_long(argc, argv, EP_GLOBAL_SHORTOPTS, longopts)) != -1) {
		switch (c) {
		case 'k':
			rc = parse_onoff(g->cmd, "kaslr", optarg, &run->opt.kaslr);
			break;
		case 'K':
			rc = parse_kernel(g->cmd, optarg, &run->opt.kernel);
			break;
		case 'e':
			rc = parse_onoff(g->cmd, "erratum-843419", optarg,
					 &run->opt.erratum_843419);
			break;
		case 'm':
			run->forced = ep_plt_model_find(optarg);
			if (!run->forced)
				rc = ep_usage_error(g->cmd, "--model takes %s, not '%s'",
						    ep_plt_model_names(), optarg);
			break;
		case 't':
			rc = parse_timing(g->cmd, optarg, &run->opt.timing_reps);
			break;
		case 's':
			run->summary = true;
			break;
		case 'T':
			if (ep_top_parse(optarg, &run->top.max))
				rc = ep_usage_error(g->cmd,
						    "--top takes a positive number, not '%s'",
						    optarg);
			break;
		case 'h':
			plt_usage(stdout);
			return -1;
		case EP_ATTR_OPT_BY:
		case EP_ATTR_OPT_DEBUG_FILE:
		case EP_ATTR_OPT_DEBUG_DIR:
			rc = ep_attr_option(g->cmd, c, optarg,
					    EP_BY_CALLEE | EP_BY_CALLER | EP_BY_CU | EP_BY_LINE |
						    EP_BY_CAUSE,
					    &run->attr);
			rc = rc == 1 ? 0 : rc;
			break;
		default:
			rc = ep_other_option(g, c, argv);
		}
	}
	return rc;
}

static int cmd_plt(int argc, char **argv, struct ep_global *g)
{
	struct plt_run run = { .g = g, .opt = { .kaslr = true, .erratum_843419 = true } };
	struct ep_paths in;
	json_t *totals;
	int rc, status;

	rc = parse_options(argc, argv, &run);
	if (rc)
		return rc < 0 ? EP_EXIT_OK : rc;
	rc = ep_format_check(g, EP_FORMAT_BIT(EP_FORMAT_TEXT) | EP_FORMAT_BIT(EP_FORMAT_JSON) |
					EP_FORMAT_BIT(EP_FORMAT_OPENMETRICS));
	if (rc)
		return rc;
	run.opt.sites = (run.attr.by & (EP_BY_CALLEE | EP_BY_CALLER | EP_BY_CU | EP_BY_LINE)) != 0;
	/* Before -o creates its file: the PATH operands, not what they expand to. */
	rc = ep_attr_check_inputs(g->cmd, &run.attr, (size_t)(argc - optind), g->output);
	if (rc == 0)
		rc = ep_inputs_and_output(g, &in, argc, argv);
	if (rc)
		return rc;
	run.nmodels = ep_plt_model_count();
	run.tables = calloc(run.nmodels, sizeof(*run.tables));
	run.t.by_model = calloc(run.nmodels, sizeof(*run.t.by_model));
	if (!run.tables || !run.t.by_model) {
		fputs("elfplt: out of memory\n", stderr);
		free(run.tables);
		free(run.t.by_model);
		return EP_EXIT_FAILED;
	}
	run.json = g->format == EP_FORMAT_JSON;
	if (run.json && ep_json_stream_begin(&run.js, g->out, "elfplt-plt/2"))
		run.js.failed = true;

	/* Only headers, relocations and symbols are read: no MAP_POPULATE. */
	status = ep_for_each_image_jobs(g, in.v, in.n, false, compute_file, emit_file, plt_error,
					&run);
	if (run.json) {
		json_t *skipped = ep_json_skipped();

		if (!skipped || ep_json_stream_key(&run.js, "skipped", skipped))
			status = EP_EXIT_FAILED;
		json_decref(skipped);
		totals = totals_json(&run);
		if (!totals || ep_json_stream_end(&run.js, totals))
			status = EP_EXIT_FAILED;
		json_decref(totals);
	} else if (g->format == EP_FORMAT_OPENMETRICS) {
		if (ep_openmetrics_totals(g->out, "elfplt_plt", totals_json(&run)))
			status = EP_EXIT_FAILED;
	} else {
		totals_text(&run);
	}
	ep_attr_note_no_dwarf(g->cmd, run.no_dwarf);
	if (run.nomem) {
		fputs("elfplt: out of memory for the summary tables\n", stderr);
		status = EP_EXIT_FAILED;
	}
	summary_free(&run);
	ep_top_free(&run.top);
	free(run.t.by_model);
	if (ep_output_close(g))
		status = EP_EXIT_FAILED;
	return status;
}

const struct ep_cmd ep_cmd_plt = { "plt", cmd_plt,
				   "PLT slots, GOT entries and stubs a loader or linker reserves",
				   false };
