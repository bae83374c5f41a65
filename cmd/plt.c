/* SPDX-License-Identifier: MIT */
/*
 * elfplt plt: PLT slots per section as the arm64 module loader computes
 * them (and the linked/object models), the true minimum, and the sorting
 * the loader does to find out.
 */
#include "config.h"

#include <inttypes.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/elfplt.h"
#include "lib/plt.h"
#include "lib/report.h"

#define DEFAULT_TIMING_REPS 9

struct plt_totals {
	uint64_t files, failed, not_covered, rejected;
	uint64_t by_model[8];
	uint64_t relocations, plt_relocations, veneers, slots, slots_minimal;
	uint64_t bytes, bytes_minimal;
	uint64_t sorted_full, sorted_partitioned, sort_sections, sort_skipped;
	uint64_t leftover_sections, full_ns, partitioned_ns;
};

struct plt_run {
	struct ep_global *g;
	const struct ep_plt_model *forced;
	struct ep_plt_options opt;
	bool summary;
	json_t *doc, *files;
	struct ep_table *modules;	/* one row per arm64 module */
	struct plt_totals t;
};

static size_t model_index(const struct ep_plt_model *m)
{
	size_t i;

	for (i = 0; ep_plt_models[i]; i++)
		if (ep_plt_models[i] == m)
			return i;
	return 0;
}

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
	json_object_set_new(o, "target",
			    json_pack("{s:o, s:s}", "index", json_u(s->target), "name",
				      s->target_name));
	json_object_set_new(o, "group", group ? json_string(group) : json_null());
	json_object_set_new(o, "relocations", json_u(s->relocations));
	json_object_set_new(o, "branch_relocations", json_u(s->branch_relocations));
	json_object_set_new(o, "plt_relocations", json_u(s->plt_relocations));
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

static json_t *json_file(const struct ep_image *img, const struct ep_plt_result *res)
{
	bool module = res->model == &ep_plt_model_arm64_module;
	json_t *o = json_object(), *secs = json_array();
	size_t i;

	json_object_set_new(o, "path", json_string(img->path));
	json_object_set_new(o, "elf", ep_json_elf(img));
	json_object_set_new(o, "model", res->model ? json_string(res->model->name) : json_null());
	json_object_set_new(o, "model_source",
			    res->model ? json_string(res->model->source) : json_null());
	json_object_set_new(o, "note", res->note ? json_string(res->note) : json_null());
	json_object_set_new(o, "options",
			    json_pack("{s:b, s:b, s:I}", "kaslr", res->opt.kaslr, "erratum_843419",
				      res->opt.erratum_843419, "timing_reps",
				      (json_int_t)res->opt.timing_reps));
	for (i = 0; i < res->nsecs; i++)
		json_array_append_new(secs, json_section(res, &res->secs[i]));
	json_object_set_new(o, "sections", secs);
	json_object_set_new(o, "groups", module ? json_groups(img, res) : json_null());
	json_object_set_new(o, "ftrace_trampoline",
			    res->has_tramp ? json_pack("{s:o}", "bytes", json_u(res->tramp_bytes))
					   : json_null());
	json_object_set_new(o, "sorted",
			    json_pack("{s:o, s:o, s:o, s:o}", "full", json_u(res->sorted_full),
				      "partitioned", json_u(res->sorted_partitioned), "sections",
				      json_u(res->sort_sections), "sections_unsorted",
				      json_u(res->sort_skipped)));
	if (res->opt.timing_reps && module)
		json_object_set_new(o, "timing",
				    json_pack("{s:o, s:o}", "full_ns", json_u(res->full_ns),
					      "partitioned_ns", json_u(res->partitioned_ns)));
	json_object_set_new(o, "kernel_rejects",
			    res->kernel_rejects ? json_string(res->kernel_rejects) : json_null());
	if (res->linked_valid) {
		const struct ep_plt_linked *l = &res->linked;

		json_object_set_new(
			o, "linked",
			json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "plt_slots",
				  json_u(l->plt_slots), "jump_slot", json_u(l->jump_slot),
				  "irelative", json_u(l->irelative), "got_entries_glob_dat",
				  json_u(l->glob_dat), "plt_bytes", json_u(l->plt_bytes),
				  "plt_sec_bytes", json_u(l->plt_sec_bytes), "got_bytes",
				  json_u(l->got_bytes), "got_plt_bytes", json_u(l->got_plt_bytes)));
	}
	if (res->object_valid) {
		const struct ep_plt_object *ob = &res->object;

		json_object_set_new(
			o, "object",
			json_pack("{s:o, s:o, s:o, s:o, s:o}", "branch_relocations",
				  json_u(ob->branch_relocations), "undefined_branches",
				  json_u(ob->undefined_branches), "plt_slots_max",
				  json_u(ob->distinct_targets), "got_relocations",
				  json_u(ob->got_relocations), "got_entries_max",
				  json_u(ob->distinct_got_symbols)));
	}
	return o;
}

static const char *onoff(bool b)
{
	return b ? "on" : "off";
}

static void print_sections(FILE *out, const struct ep_plt_result *res)
{
	static const char *const hdr[] = { "[Nr]",	  "relocations", "target",  "group",
					   "relocs",	  "branches",	 "need",    "slots",
					   "minimal",	  "veneers",	 "spare",   "sorted<5.8",
					   "sorted>=5.8", "full ns",	 "part ns" };
	unsigned int ncols = res->opt.timing_reps ? 15 : 13;
	struct ep_table *t = ep_table_new(ncols, hdr, "rllrrrrrrrrrrrr");
	size_t i;

	for (i = 0; t && i < res->nsecs; i++) {
		const struct ep_plt_section *s = &res->secs[i];
		const char *group = ep_plt_group_name(s->group);

		ep_table_row(t);
		ep_table_cell(t, "[%zu]", s->index);
		ep_table_cell(t, "%s", s->name);
		ep_table_cell(t, "[%zu] %s", s->target, s->target_name);
		ep_table_cell(t, "%s", group ? group : "-");
		ep_table_cell(t, "%" PRIu64, s->relocations);
		ep_table_cell(t, "%" PRIu64, s->branch_relocations);
		ep_table_cell(t, "%" PRIu64 "%s", s->plt_relocations, s->leftover ? "*" : "");
		ep_table_cell(t, "%" PRIu64, s->slots);
		ep_table_cell(t, "%" PRIu64, s->slots_minimal);
		ep_table_cell(t, "%" PRIu64, s->veneers);
		ep_table_cell(t, "%" PRIu64, s->spare);
		ep_table_cell(t, "%" PRIu64, s->sorted_full);
		ep_table_cell(t, "%" PRIu64, s->sorted_partitioned);
		if (res->opt.timing_reps) {
			ep_table_cell(t, "%" PRIu64, s->full_ns);
			ep_table_cell(t, "%" PRIu64, s->partitioned_ns);
		}
	}
	if (t && res->nsecs)
		ep_table_print(t, out, "  ");
	ep_table_free(t);
}

static void print_module(FILE *out, const struct ep_image *img, const struct ep_plt_result *res)
{
	int g;
	size_t i;
	bool leftover = false;

	for (g = 0; g < EP_PLT_NGROUP; g++) {
		const struct ep_plt_group_result *gr = &res->groups[g];

		fprintf(out,
			"  %s: %" PRIu64 " slots (minimal %" PRIu64 "), %s %" PRIu64
			" bytes (minimal %" PRIu64 ")\n",
			ep_plt_group_name(g), gr->slots, gr->slots_minimal,
			g == EP_PLT_CORE ? ".plt" : ".init.plt", gr->bytes, gr->bytes_minimal);
	}
	if (res->has_tramp)
		fprintf(out, "  .text.ftrace_trampoline: %" PRIu64 " bytes\n", res->tramp_bytes);
	fprintf(out,
		"  sorting: %" PRIu64 " entries before v5.8, %" PRIu64
		" since; %zu of %zu sections skip the sort\n",
		res->sorted_full, res->sorted_partitioned, res->sort_skipped, res->sort_sections);
	if (res->opt.timing_reps)
		fprintf(out,
			"  timing (median of %u): full sort %" PRIu64 " ns, partition + sort %" PRIu64
			" ns\n",
			res->opt.timing_reps, res->full_ns, res->partitioned_ns);
	for (i = 0; i < res->nsecs; i++)
		leftover |= res->secs[i].leftover;
	if (leftover)
		fputs("  *: the partition left a slot-needing entry outside the sorted range\n",
		      out);
	if (res->kernel_rejects)
		fprintf(out, "  the kernel rejects this module: %s\n", res->kernel_rejects);
	(void)img;
}

static void print_file(FILE *out, const struct ep_image *img, const struct ep_plt_result *res)
{
	if (!res->model) {
		fprintf(out, "%s: no model: %s\n\n", img->path, res->note);
		return;
	}
	fprintf(out, "%s: %s (%s)", img->path, res->model->name, res->model->source);
	if (res->model == &ep_plt_model_arm64_module)
		fprintf(out, "; kaslr %s, erratum-843419 %s", onoff(res->opt.kaslr),
			onoff(res->opt.erratum_843419));
	fputc('\n', out);
	print_sections(out, res);
	if (res->model == &ep_plt_model_arm64_module)
		print_module(out, img, res);
	if (res->linked_valid) {
		const struct ep_plt_linked *l = &res->linked;

		fprintf(out,
			"  plt: %" PRIu64 " slots (%" PRIu64 " JUMP_SLOT, %" PRIu64
			" IRELATIVE); got: %" PRIu64 " GLOB_DAT entries\n"
			"  sizes: .plt %" PRIu64 ", .plt.sec %" PRIu64 ", .got %" PRIu64
			", .got.plt %" PRIu64 " bytes\n",
			l->plt_slots, l->jump_slot, l->irelative, l->glob_dat, l->plt_bytes,
			l->plt_sec_bytes, l->got_bytes, l->got_plt_bytes);
	}
	if (res->object_valid) {
		const struct ep_plt_object *o = &res->object;

		fprintf(out,
			"  branches: %" PRIu64 ", %" PRIu64 " to undefined symbols: at most %" PRIu64
			" PLT slots; GOT relocations %" PRIu64 ": at most %" PRIu64
			" GOT entries\n",
			o->branch_relocations, o->undefined_branches, o->distinct_targets,
			o->got_relocations, o->distinct_got_symbols);
	}
	fputc('\n', out);
}

static void module_row(struct plt_run *run, const struct ep_image *img,
		       const struct ep_plt_result *res)
{
	char *copy = strdup(img->path);
	uint64_t slots = res->groups[0].slots + res->groups[1].slots;
	uint64_t minimal = res->groups[0].slots_minimal + res->groups[1].slots_minimal;

	if (!run->modules || !copy) {
		free(copy);
		return;
	}
	ep_table_row(run->modules);
	ep_table_cell(run->modules, "%s", basename(copy));
	ep_table_cell(run->modules, "%" PRIu64, res->sorted_full);
	ep_table_cell(run->modules, "%" PRIu64, res->sorted_partitioned);
	ep_table_cell(run->modules, "%" PRIu64, slots);
	ep_table_cell(run->modules, "%" PRIu64, minimal);
	if (run->opt.timing_reps) {
		ep_table_cell(run->modules, "%" PRIu64, res->full_ns);
		ep_table_cell(run->modules, "%" PRIu64, res->partitioned_ns);
	}
	free(copy);
}

static void add_totals(struct plt_run *run, const struct ep_plt_result *res)
{
	struct plt_totals *t = &run->t;
	size_t i;
	int g;

	t->files++;
	if (!res->model) {
		t->not_covered++;
		return;
	}
	t->by_model[model_index(res->model)]++;
	if (res->kernel_rejects)
		t->rejected++;
	for (i = 0; i < res->nsecs; i++) {
		const struct ep_plt_section *s = &res->secs[i];

		t->relocations += s->relocations;
		t->plt_relocations += s->plt_relocations;
		t->veneers += s->veneers;
		t->slots += s->slots;
		t->slots_minimal += s->slots_minimal;
		t->leftover_sections += s->leftover;
	}
	if (res->model == &ep_plt_model_arm64_module)
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
}

static int plt_one(struct ep_image *img, const struct ep_blob *blob, void *ctx,
		   struct ep_error *err)
{
	struct plt_run *run = ctx;
	struct ep_plt_result res;
	int rc;

	(void)blob;
	rc = ep_plt_analyse(img, run->forced, &run->opt, &res, err);
	if (rc == 0) {
		add_totals(run, &res);
		if (run->g->format == EP_FORMAT_JSON) {
			json_array_append_new(run->files, json_file(img, &res));
		} else {
			if (!run->summary)
				print_file(run->g->out, img, &res);
			if (res.model == &ep_plt_model_arm64_module)
				module_row(run, img, &res);
		}
	}
	ep_plt_result_free(&res);
	return rc;
}

static void plt_error(const char *path, const struct ep_error *err, void *ctx)
{
	struct plt_run *run = ctx;

	run->t.failed++;
	if (run->g->format == EP_FORMAT_JSON)
		json_array_append_new(run->files, ep_json_file_error(path, err));
}

static void totals_json(struct plt_run *run)
{
	json_t *totals = json_object_get(run->doc, "totals");
	const struct plt_totals *t = &run->t;
	json_t *by_model = json_object();
	size_t i;

	for (i = 0; ep_plt_models[i]; i++)
		json_object_set_new(by_model, ep_plt_models[i]->name, json_u(t->by_model[i]));
	json_object_set_new(totals, "files", json_u(t->files));
	json_object_set_new(totals, "failed", json_u(t->failed));
	json_object_set_new(totals, "not_covered", json_u(t->not_covered));
	json_object_set_new(totals, "by_model", by_model);
	json_object_set_new(totals, "kernel_rejects", json_u(t->rejected));
	json_object_set_new(totals, "relocations", json_u(t->relocations));
	json_object_set_new(totals, "plt_relocations", json_u(t->plt_relocations));
	json_object_set_new(totals, "veneers", json_u(t->veneers));
	json_object_set_new(totals, "slots", json_u(t->slots));
	json_object_set_new(totals, "slots_minimal", json_u(t->slots_minimal));
	json_object_set_new(totals, "bytes", json_u(t->bytes));
	json_object_set_new(totals, "bytes_minimal", json_u(t->bytes_minimal));
	json_object_set_new(totals, "partition_leftover_sections", json_u(t->leftover_sections));
	json_object_set_new(totals, "sorted",
			    json_pack("{s:o, s:o, s:o, s:o}", "full", json_u(t->sorted_full),
				      "partitioned", json_u(t->sorted_partitioned), "sections",
				      json_u(t->sort_sections), "sections_unsorted",
				      json_u(t->sort_skipped)));
	if (run->opt.timing_reps)
		json_object_set_new(totals, "timing",
				    json_pack("{s:o, s:o}", "full_ns", json_u(t->full_ns),
					      "partitioned_ns", json_u(t->partitioned_ns)));
}

static void totals_text(struct plt_run *run)
{
	const struct plt_totals *t = &run->t;
	FILE *out = run->g->out;

	if (run->modules && ep_table_rows(run->modules) > (run->summary ? 0 : 1)) {
		ep_table_print(run->modules, out, "");
		fputc('\n', out);
	}
	if (t->files + t->failed <= 1)
		return;
	fprintf(out,
		"total: %" PRIu64 " files, %" PRIu64 " arm64 modules (%" PRIu64
		" rejected by the kernel), %" PRIu64 " objects, %" PRIu64 " linked, %" PRIu64
		" not covered",
		t->files, t->by_model[model_index(&ep_plt_model_arm64_module)], t->rejected,
		t->by_model[model_index(&ep_plt_model_object)],
		t->by_model[model_index(&ep_plt_model_linked)], t->not_covered);
	if (t->failed)
		fprintf(out, "; %" PRIu64 " failed", t->failed);
	fprintf(out,
		"\nslots: %" PRIu64 " (minimal %" PRIu64 "), %" PRIu64 " veneers; arm64 PLT bytes %" PRIu64
		" (minimal %" PRIu64 "); %" PRIu64 " sections with a partition leftover\n"
		"sorting: %" PRIu64 " entries before v5.8, %" PRIu64 " since; %" PRIu64 " of %" PRIu64
		" sections skip the sort\n",
		t->slots, t->slots_minimal, t->veneers, t->bytes, t->bytes_minimal,
		t->leftover_sections, t->sorted_full, t->sorted_partitioned, t->sort_skipped,
		t->sort_sections);
	if (run->opt.timing_reps)
		fprintf(out, "timing: full sort %" PRIu64 " ns, partition + sort %" PRIu64 " ns\n",
			t->full_ns, t->partitioned_ns);
}

static void plt_usage(FILE *f)
{
	fputs("usage: elfplt plt [--kaslr=on|off] [--erratum-843419=on|off] [--model=NAME]\n"
	      "                  [--timing[=REPS]] [--summary] [--format=text|json] [-o FILE] "
	      "[PATH...]\n"
	      "PLT slots per section as the arm64 module loader reserves them (Linux 6.1\n"
	      "module-plts.c), the true minimum, and the sorting the loader does.\n"
	      "With no PATH, the running kernel's modules in /lib/modules/$(uname -r).\n\n"
	      "  --kaslr=on|off           CONFIG_RANDOMIZE_BASE (default on)\n"
	      "  --erratum-843419=on|off  Cortex-A53 erratum 843419 workaround (default on)\n"
	      "  --model=NAME             arm64-module, object or linked instead of by e_type\n"
	      "  --timing[=REPS]          time full sort vs partition + sort (median of REPS,\n"
	      "                           default 9)\n"
	      "  --summary                one line per module instead of each file's details\n"
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

static int cmd_plt(int argc, char **argv, struct ep_global *g)
{
	static const struct option longopts[] = {
		{ "kaslr", required_argument, NULL, 'k' },
		{ "erratum-843419", required_argument, NULL, 'e' },
		{ "model", required_argument, NULL, 'm' },
		{ "timing", optional_argument, NULL, 't' },
		{ "summary", no_argument, NULL, 's' },
		EP_GLOBAL_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	static const char *const mhdr[] = { "module",	"sorted before", "sorted after", "slots",
					    "minimal", "full ns",	 "part ns" };
	struct plt_run run = { .g = g, .opt = { .kaslr = true, .erratum_843419 = true } };
	struct ep_paths in;
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
		case 'e':
			if (parse_onoff(g->cmd, "erratum-843419", optarg, &run.opt.erratum_843419))
				return EP_EXIT_USAGE;
			break;
		case 'm':
			run.forced = ep_plt_model_find(optarg);
			if (!run.forced)
				return ep_usage_error(g->cmd,
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
		case ':':
		case '?':
			return ep_bad_option(g->cmd, c, argv);
		default:
			if (ep_global_option(g, c, optarg) < 0)
				return EP_EXIT_USAGE;
		}
	}
	if (ep_paths_get(&in, g->cmd, argc, argv))
		return EP_EXIT_USAGE;
	rc = ep_output_open(g, &in);
	if (rc)
		return rc;
	run.doc = ep_report_new("elfplt-plt/1");
	run.files = json_object_get(run.doc, "files");
	if (g->format == EP_FORMAT_TEXT)
		run.modules = ep_table_new(run.opt.timing_reps ? 7 : 5, mhdr, "lrrrrrr");

	/* Only headers, relocations and symbols are read: no MAP_POPULATE. */
	status = ep_for_each_image(in.v, in.n, false, plt_one, plt_error, &run);
	if (g->format == EP_FORMAT_JSON) {
		totals_json(&run);
		if (ep_report_write_json(run.doc, g->out))
			status = EP_EXIT_FAILED;
	} else {
		totals_text(&run);
	}
	ep_table_free(run.modules);
	json_decref(run.doc);
	if (ep_output_close(g))
		status = EP_EXIT_FAILED;
	return status;
}

const struct ep_cmd ep_cmd_plt = { "plt", cmd_plt, "PLT slots the arm64 module loader reserves",
				   false };
