/* SPDX-License-Identifier: MIT */
/*
 * elfplt diff OLD NEW: two builds side by side, and gates for CI.
 *
 * Each side is a saved elfplt-stats or elfplt-plt report, or PATHs to run
 * over.  A run is this binary's own `stats --json` and `plt --json` over the
 * PATH (only the ones the metrics need), read back as documents: so a tree
 * and a report saved from it give the same diff through one code path
 * (lib/diff.c), and diffing two trees costs the runs it needs and nothing
 * more (each run is the ordinary one, workers and all).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/elfplt.h"
#include "lib/decode.h"
#include "lib/error.h"
#include "lib/diff.h"
#include "lib/openmetrics.h"
#include "lib/report.h"

struct diff_run {
	struct ep_global *g;
	const char **patterns;
	size_t npatterns;
	struct ep_diff_gate *gates;
	size_t ngates;
	bool per_file, all;
	uint64_t top; /* --top N files; 0: all */
};

/* ---- the sides --------------------------------------------------------------- */

/* Whether path is a regular file that starts (after white space) with '{'. */
static bool is_json_file(const char *path)
{
	struct stat st;
	FILE *f;
	int c;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	f = fopen(path, "re");
	if (!f)
		return false;
	do
		c = fgetc(f);
	while (c == ' ' || c == '\t' || c == '\n' || c == '\r');
	fclose(f);
	return c == '{';
}

/*
 * `elfplt CMD --json PATH` in a child process of this binary, its report read
 * back.  Returns the document (NULL on failure, after a message) and sets
 * *failed when the run said some input failed (exit status 1).
 */
static json_t *run_report(const struct ep_global *g, const char *cmd, const char *path,
			  bool *failed)
{
	char jobs[16], max_size[48];
	json_error_t jerr;
	int fds[2], status;
	json_t *doc;
	pid_t pid;
	FILE *in;

	snprintf(jobs, sizeof(jobs), "-j%u", g->jobs ? g->jobs : ep_jobs_default());
	snprintf(max_size, sizeof(max_size), "--max-size=%" PRIu64, ep_input_max_size());
	if (pipe(fds) != 0) {
		fprintf(stderr, "elfplt: diff: pipe: %s\n", strerror(errno));
		return NULL;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "elfplt: diff: fork: %s\n", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return NULL;
	}
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		/* This very binary, so the reports are the ones this diff reads. */
		char *args[] = { "elfplt", jobs,	 max_size, "--json", (char *)cmd,
				 "--",	   (char *)path, NULL,	   NULL };

		if (g->quiet) {
			memmove(args + 2, args + 1, 7 * sizeof(*args));
			args[1] = "-q";
		}
		execv("/proc/self/exe", args);
		fprintf(stderr, "elfplt: diff: cannot run elfplt %s: %s\n", cmd, strerror(errno));
		_exit(EP_EXIT_FAILED);
	}
	close(fds[1]);
	in = fdopen(fds[0], "r");
	doc = in ? json_loadf(in, 0, &jerr) : NULL;
	if (in)
		fclose(in);
	else
		close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 1) || !doc) {
		json_decref(doc);
		return NULL;
	}
	*failed |= WEXITSTATUS(status) == 1;
	return doc;
}

/* Fill side s from its operand.  Returns EP_EXIT_OK or EP_EXIT_FAILED (after a message). */
static int load_side(const struct diff_run *run, struct ep_diff_side *s, bool need_stats,
		     bool need_plt, bool *failed)
{
	struct ep_error err = { 0 };
	json_error_t jerr;
	json_t *doc;
	int rc;

	if (is_json_file(s->name)) {
		/* A saved report: no ELF file is read. */
		doc = json_load_file(s->name, 0, &jerr);
		if (!doc) {
			fprintf(stderr, "elfplt: %s: not a JSON report: %s (line %d)\n", s->name,
				jerr.text, jerr.line);
			return EP_EXIT_FAILED;
		}
		rc = ep_diff_side_add(s, doc, &err);
		json_decref(doc);
		if (rc) {
			fprintf(stderr, "elfplt: %s\n", err.message);
			return EP_EXIT_FAILED;
		}
		return EP_EXIT_OK;
	}
	/* Named once here, not by each run. */
	if (access(s->name, F_OK) != 0) {
		fprintf(stderr, "elfplt: %s: %s\n", s->name, strerror(errno));
		return EP_EXIT_FAILED;
	}
	s->root = s->name;
	for (int k = 0; k < 2; k++) {
		const char *cmd = k == 0 ? "stats" : "plt";

		if (!(k == 0 ? need_stats : need_plt))
			continue;
		doc = run_report(run->g, cmd, s->name, failed);
		if (!doc) {
			fprintf(stderr, "elfplt: %s: the %s run over it failed\n", s->name, cmd);
			return EP_EXIT_FAILED;
		}
		rc = ep_diff_side_add(s, doc, &err);
		json_decref(doc);
		if (rc) {
			fprintf(stderr, "elfplt: %s\n", err.message);
			return EP_EXIT_FAILED;
		}
		/* An empty or non-ELF tree: the run named it; nothing to compare. */
		if (*failed && !json_object_size(s->files))
			return EP_EXIT_FAILED;
	}
	return EP_EXIT_OK;
}

/* ---- rendering --------------------------------------------------------------- */

static int64_t ival(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

/* "+12", "-3", "0" */
static const char *signed_str(char *buf, size_t size, int64_t v)
{
	snprintf(buf, size, v > 0 ? "+%" PRId64 : "%" PRId64, v);
	return buf;
}

/* "+5.3%", "-0.1%", "0.0%", or "new" when there was nothing before. */
static const char *pct_str(char *buf, size_t size, const json_t *c)
{
	const json_t *p = json_object_get(c, "percent");

	if (json_is_number(p))
		snprintf(buf, size, "%+.1f%%", json_number_value(p));
	else if (json_is_null(json_object_get(c, "before")))
		snprintf(buf, size, "added");
	else if (json_is_null(json_object_get(c, "after")))
		snprintf(buf, size, "removed");
	else
		snprintf(buf, size, "new");
	if (strcmp(buf, "+0.0%") == 0 || strcmp(buf, "-0.0%") == 0)
		snprintf(buf, size, "%s",
			 ival(c, "delta") ? (ival(c, "delta") > 0 ? "+0.0%" : "-0.0%") : "0.0%");
	return buf;
}

/* "123", or "-" for a side without the file. */
static const char *value_str(char *buf, size_t size, const json_t *v)
{
	if (json_is_null(v))
		return "-";
	snprintf(buf, size, "%" PRId64, (int64_t)json_integer_value(v));
	return buf;
}

/* A row of a table, text or Markdown: the cells of one change. */
struct row_sink {
	struct ep_table *t; /* text */
	FILE *md;	    /* Markdown */
};

/* Markdown cell text: '|' would end the cell, and '\\' escapes. */
static void md_cell(FILE *f, const char *s)
{
	fputs("| ", f);
	for (; *s; s++) {
		if (*s == '|' || *s == '\\' || *s == '*' || *s == '_' || *s == '`' || *s == '<')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputc(' ', f);
}

static void sink_row(struct row_sink *k, const char *const *cells, size_t n)
{
	size_t i;

	if (k->t) {
		ep_table_row(k->t);
		for (i = 0; i < n; i++)
			ep_table_cell_str(k->t, cells[i]);
		return;
	}
	for (i = 0; i < n; i++)
		md_cell(k->md, cells[i]);
	fputs("|\n", k->md);
}

static void md_header(FILE *f, const char *const *hdr, const char *align, size_t n)
{
	size_t i;

	fputc('\n', f);
	for (i = 0; i < n; i++)
		md_cell(f, hdr[i]);
	fputs("|\n", f);
	for (i = 0; i < n; i++)
		fputs(align[i] == 'r' ? "| ---: " : "| :--- ", f);
	fputs("|\n", f);
}

/* The change c of metric name as cells after the lead cells lead[0..nlead). */
static void change_row(struct row_sink *k, const char *const *lead, size_t nlead, const char *name,
		       const json_t *c)
{
	char b[32], a[32], d[32], p[32];
	const char *cells[8];
	size_t n = 0, i;

	for (i = 0; i < nlead; i++)
		cells[n++] = lead[i];
	cells[n++] = name;
	cells[n++] = value_str(b, sizeof(b), json_object_get(c, "before"));
	cells[n++] = value_str(a, sizeof(a), json_object_get(c, "after"));
	cells[n++] = signed_str(d, sizeof(d), ival(c, "delta"));
	cells[n++] = pct_str(p, sizeof(p), c);
	sink_row(k, cells, n);
}

static void print_totals(const struct diff_run *run, const json_t *doc, bool md)
{
	static const char *const hdr[] = { "metric", "before", "after", "delta", "percent" };
	FILE *out = run->g->out;
	struct row_sink k = { NULL, md ? out : NULL };
	const json_t *tm = json_object_get(json_object_get(doc, "totals"), "metrics");
	json_t *name;
	size_t i;

	if (md)
		md_header(out, hdr, "lrrrr", 5);
	else
		k.t = ep_table_new(5, hdr, "lrrrr");
	json_array_foreach(json_object_get(doc, "metrics"), i, name)
	{
		const char *mn = json_string_value(name);

		change_row(&k, NULL, 0, mn, json_object_get(tm, mn));
	}
	if (k.t) {
		ep_table_print(k.t, out, "");
		ep_table_free(k.t);
	}
}

/*
 * A path of a report as text: control characters and bytes that are not
 * UTF-8 made '?' (ep_text_clean()), as for the paths a walk finds, so a
 * hostile saved report cannot send escape sequences to a terminal.
 */
static const char *clean_path(char *buf, size_t size, const char *path)
{
	snprintf(buf, size, "%s", path ? path : "");
	ep_text_clean(buf);
	return buf;
}

/* The per-file rows: changed metrics of changed, added and removed files. */
static void print_files(const struct diff_run *run, const json_t *doc, bool md)
{
	static const char *const hdr[] = { "file",  "status", "metric", "before",
					   "after", "delta",  "percent" };
	FILE *out = run->g->out;
	struct row_sink k = { NULL, md ? out : NULL };
	uint64_t shown = 0, hidden = 0;
	json_t *f, *name;
	size_t i, j;

	json_array_foreach(json_object_get(doc, "files"), i, f)
	{
		const char *status = json_string_value(json_object_get(f, "status"));
		char path[PATH_MAX];
		const char *lead[2] = { clean_path(path, sizeof(path),
						   json_string_value(json_object_get(f, "path"))),
					status };
		const json_t *fm = json_object_get(f, "metrics");

		if (strcmp(status, "unchanged") == 0 && !run->all)
			continue;
		if (run->top && shown >= run->top) {
			hidden++;
			continue;
		}
		if (!shown) {
			fputc('\n', out);
			if (md)
				md_header(out, hdr, "lllrrrr", 7);
			else
				k.t = ep_table_new(7, hdr, "lllrrrr");
		}
		shown++;
		json_array_foreach(json_object_get(doc, "metrics"), j, name)
		{
			const char *mn = json_string_value(name);
			const json_t *c = json_object_get(fm, mn);

			if (ival(c, "delta") == 0 && !run->all)
				continue;
			change_row(&k, lead, 2, mn, c);
		}
	}
	if (k.t) {
		ep_table_print(k.t, out, "");
		ep_table_free(k.t);
	}
	if (hidden)
		fprintf(out, "%s%" PRIu64 " more %s not shown (--top %" PRIu64 ")\n",
			md ? "\n" : "", hidden, ep_plural(hidden, "file", "files"), run->top);
}

/* "gate relocations +5%: 100 -> 106, at most 105" for result r of gate g. */
static void gate_line(FILE *f, const json_t *g, const json_t *r, const char *arrow)
{
	const json_t *path = json_object_get(r, "path");
	char clean[PATH_MAX];

	if (json_is_string(path))
		fprintf(f, "%s: ", clean_path(clean, sizeof(clean), json_string_value(path)));
	fprintf(f, "%s %" PRId64 " %s %" PRId64 ", limit %s (at most %" PRId64 ")",
		json_string_value(json_object_get(g, "metric")), ival(r, "before"), arrow,
		ival(r, "after"), json_string_value(json_object_get(g, "limit")),
		ival(r, "allowed"));
}

/* Each tripped gate on one stderr line. */
static void report_gates(const json_t *doc)
{
	json_t *g, *r;
	size_t i, j;

	json_array_foreach(json_object_get(doc, "gates"), i, g)
		json_array_foreach(json_object_get(g, "results"), j, r)
	{
		if (!json_is_true(json_object_get(r, "tripped")))
			continue;
		fputs("elfplt: gate tripped: ", stderr);
		gate_line(stderr, g, r, "->");
		fputc('\n', stderr);
	}
}

static void print_header(const struct diff_run *run, const json_t *doc)
{
	const json_t *tf = json_object_get(json_object_get(doc, "totals"), "files");
	FILE *out = run->g->out;

	fprintf(out,
		"old: %s, %" PRId64 " files; new: %s, %" PRId64 " files\n"
		"files: %" PRId64 " paired (%" PRId64 " changed), %" PRId64 " added, %" PRId64
		" removed",
		json_string_value(json_object_get(json_object_get(doc, "old"), "path")),
		ival(json_object_get(doc, "old"), "files"),
		json_string_value(json_object_get(json_object_get(doc, "new"), "path")),
		ival(json_object_get(doc, "new"), "files"), ival(tf, "paired"), ival(tf, "changed"),
		ival(tf, "added"), ival(tf, "removed"));
	if (ival(tf, "failed"))
		fprintf(out, ", %" PRId64 " failed", ival(tf, "failed"));
	fputs("\n\n", out);
}

/* The one-line verdict of the Markdown report. */
static void md_verdict(FILE *out, const json_t *doc)
{
	const json_t *gates = json_object_get(doc, "gates");
	const json_t *tf = json_object_get(json_object_get(doc, "totals"), "files");
	json_t *g, *r;
	const char *sep = ": ";
	size_t i, j;

	const char *verdict = json_string_value(json_object_get(doc, "verdict"));

	/* "error": a file failed, the figures are incomplete. */
	fprintf(out, "\n**elfplt diff: %s**",
		strcmp(verdict, "pass") == 0	? "pass"
		: strcmp(verdict, "error") == 0 ? "ERROR (an input failed)"
						: "FAIL");
	if (!json_array_size(gates))
		fputs(" (no gates)", out);
	json_array_foreach(gates, i, g) json_array_foreach(json_object_get(g, "results"), j, r)
	{
		if (!json_is_true(json_object_get(r, "tripped")))
			continue;
		fputs(sep, out);
		gate_line(out, g, r, "→");
		sep = "; ";
	}
	if (!strcmp(sep, ": ") && json_array_size(gates))
		fprintf(out, ": %zu %s held", json_array_size(gates),
			ep_plural(json_array_size(gates), "gate", "gates"));
	fprintf(out, "; %" PRId64 " changed, %" PRId64 " added, %" PRId64 " removed",
		ival(tf, "changed"), ival(tf, "added"), ival(tf, "removed"));
	if (ival(tf, "failed"))
		fprintf(out, ", %" PRId64 " failed", ival(tf, "failed"));
	fputs(" files\n", out);
}

/* OpenMetrics: the totals of each metric, the file counts and the gates. */
static int print_openmetrics(FILE *out, const json_t *doc)
{
	const json_t *tm = json_object_get(json_object_get(doc, "totals"), "metrics");
	const json_t *tf = json_object_get(json_object_get(doc, "totals"), "files");
	static const char *const what[] = { "before", "after", "delta" };
	struct ep_om om = { 0 };
	const char *key;
	json_t *name, *v, *g;
	size_t i, w;
	int rc;

	for (w = 0; w < 3; w++)
		json_array_foreach(json_object_get(doc, "metrics"), i, name)
		{
			const char *label[2] = { "metric", json_string_value(name) };
			char fam[32];

			snprintf(fam, sizeof(fam), "elfplt_diff_%s", what[w]);
			ep_om_add(&om, fam, label, 1,
				  (double)ival(json_object_get(tm, json_string_value(name)),
					       what[w]));
		}
	json_object_foreach((json_t *)tf, key, v)
	{
		const char *label[2] = { "status", key };

		ep_om_add(&om, "elfplt_diff_files", label, 1, (double)json_integer_value(v));
	}
	json_array_foreach(json_object_get(doc, "gates"), i, g)
	{
		const char *label[4] = { "metric", json_string_value(json_object_get(g, "metric")),
					 "limit", json_string_value(json_object_get(g, "limit")) };

		ep_om_add(&om, "elfplt_diff_gate_tripped", label, 2, (double)ival(g, "tripped"));
	}
	rc = ep_om_write(&om, out);
	ep_om_free(&om);
	return rc;
}

static int render(const struct diff_run *run, json_t *doc)
{
	FILE *out = run->g->out;

	switch (run->g->format) {
	case EP_FORMAT_JSON:
		json_object_set_new(doc, "elfplt_version", json_string(PACKAGE_VERSION));
		return ep_report_write_json(doc, out);
	case EP_FORMAT_OPENMETRICS:
		return print_openmetrics(out, doc);
	case EP_FORMAT_MARKDOWN:
		fprintf(out, "### elfplt diff: `%s` → `%s`\n",
			json_string_value(json_object_get(json_object_get(doc, "old"), "path")),
			json_string_value(json_object_get(json_object_get(doc, "new"), "path")));
		print_totals(run, doc, true);
		print_files(run, doc, true);
		md_verdict(out, doc);
		return 0;
	default:
		print_header(run, doc);
		print_totals(run, doc, false);
		print_files(run, doc, false);
		return 0;
	}
}

/* ---- options ----------------------------------------------------------------- */

static void diff_usage(FILE *f)
{
	fputs("usage: elfplt diff [--metric=LIST] [--top N] [--all]\n"
	      "                   [--fail-above METRIC=+N[%]]... [--per-file]\n"
	      "                   [-j N] [-q] [--max-size=BYTES]\n"
	      "                   [--format=text|json|markdown|openmetrics] [-o FILE] OLD NEW\n"
	      "Compare two builds: each of OLD and NEW is a file, archive or directory (run over\n"
	      "with stats and plt) or a saved 'elfplt stats --json' or 'plt --json' report.\n\n"
	      "  --metric=LIST       metrics to compare, comma-separated names or patterns\n"
	      "                      (relocations, relocations.type.*, relocations.section.*,\n"
	      "                      dynamic.*, relr.savings_bytes, size.text, size.data,\n"
	      "                      size.bss, slots.reserved, slots.minimum, bytes.reserved,\n"
	      "                      bytes.minimum, slots.reserved.KIND, ...)\n"
	      "  --top N             show the N files that changed most\n"
	      "  --all               show unchanged files and metrics too\n"
	      "  --fail-above METRIC=+N, METRIC=+N%\n"
	      "                      exit 3 when METRIC grows by more than N (or N percent of\n"
	      "                      its old value; from 0, any growth); repeatable\n"
	      "  --per-file          gates apply to every file instead of the totals\n"
	      "  --format=FORMAT     text (default), json (elfplt-diff/1), markdown (a table\n"
	      "                      and a verdict line), openmetrics (GitLab metrics report)\n"
	      "  -o, --output FILE   write the report to FILE\n"
	      "Exit status: 0 no gate tripped, 1 an input failed, 2 usage, 3 a gate tripped.\n"
	      "See 'elfplt help diff' for the whole manual.\n",
	      f);
}

static int add_patterns(struct diff_run *run, char *list)
{
	char *save = NULL, *p;

	for (p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		const char **v = realloc(run->patterns, (run->npatterns + 1) * sizeof(*v));

		if (!v)
			return -1;
		run->patterns = v;
		v[run->npatterns++] = p;
		if (!ep_diff_metric_valid(p))
			return 1;
	}
	return 0;
}

static int parse_options(int argc, char **argv, struct diff_run *run)
{
	static const struct option longopts[] = {
		{ "metric", required_argument, NULL, 'm' },
		{ "top", required_argument, NULL, 't' },
		{ "all", no_argument, NULL, 'a' },
		{ "fail-above", required_argument, NULL, 'F' },
		{ "per-file", no_argument, NULL, 'P' },
		EP_GLOBAL_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct ep_global *g = run->g;
	struct ep_error err = { 0 };
	struct ep_diff_gate *gates;
	char *end;
	int c, rc;

	opterr = 0;
	while ((c = ep_getopt_long(argc, argv, EP_GLOBAL_SHORTOPTS, longopts)) != -1) {
		switch (c) {
		case 'm':
			rc = add_patterns(run, optarg);
			if (rc < 0)
				return ep_usage_error(g->cmd, "out of memory");
			if (rc)
				return ep_usage_error(
					g->cmd,
					"--metric: '%s' is not a metric (relocations, "
					"relocations.type.NAME, size.text, slots.reserved, ...)",
					run->patterns[run->npatterns - 1]);
			break;
		case 't':
			errno = 0;
			run->top = strtoull(optarg, &end, 10);
			if (!*optarg || *end || errno || !run->top || optarg[0] == '-')
				return ep_usage_error(g->cmd,
						      "--top takes a positive number, not '%s'",
						      optarg);
			break;
		case 'a':
			run->all = true;
			break;
		case 'F':
			gates = realloc(run->gates, (run->ngates + 1) * sizeof(*gates));
			if (!gates)
				return ep_usage_error(g->cmd, "out of memory");
			run->gates = gates;
			if (ep_diff_gate_parse(optarg, &gates[run->ngates], &err))
				return ep_usage_error(g->cmd, "%s", err.message);
			run->ngates++;
			break;
		case 'P':
			run->per_file = true;
			break;
		case 'h':
			diff_usage(stdout);
			return -1;
		default:
			rc = ep_other_option(g, c, argv);
			if (rc)
				return rc;
		}
	}
	if (argc - optind != 2)
		return ep_usage_error(g->cmd, "diff takes two operands, OLD and NEW (%d given)",
				      argc - optind);
	if (run->per_file && !run->ngates)
		return ep_usage_error(g->cmd, "--per-file applies to gates: add --fail-above");
	return ep_format_check(g, EP_FORMAT_BIT(EP_FORMAT_TEXT) | EP_FORMAT_BIT(EP_FORMAT_JSON) |
					  EP_FORMAT_BIT(EP_FORMAT_MARKDOWN) |
					  EP_FORMAT_BIT(EP_FORMAT_OPENMETRICS));
}

static int cmd_diff(int argc, char **argv, struct ep_global *g)
{
	struct diff_run run = { .g = g };
	struct ep_diff_side old = { 0 }, new = { 0 };
	struct ep_diff_options opt;
	struct ep_error err = { 0 };
	bool need_stats, need_plt, failed = false;
	struct ep_paths in;
	json_t *doc = NULL;
	size_t i;
	int rc, status = EP_EXIT_OK;

	rc = parse_options(argc, argv, &run);
	if (rc)
		goto out;
	old.name = argv[optind];
	new.name = argv[optind + 1];
	/* -o must not be one of the sides. */
	in.v = (const char *const *)argv + optind;
	in.n = 2;
	rc = ep_output_open(g, &in);
	if (rc)
		goto out;
	ep_diff_reports_needed(run.patterns, run.npatterns, run.gates, run.ngates, &need_stats,
			       &need_plt);
	if (load_side(&run, &old, need_stats, need_plt, &failed) ||
	    load_side(&run, &new, need_stats, need_plt, &failed)) {
		status = EP_EXIT_FAILED;
		goto close;
	}
	opt = (struct ep_diff_options){ run.patterns, run.npatterns, run.gates, run.ngates,
					run.per_file };
	for (i = 0; i < run.ngates; i++)
		if (!ep_diff_side_has_metric(&old, run.gates[i].metric) &&
		    !ep_diff_side_has_metric(&new, run.gates[i].metric))
			fprintf(stderr,
				"elfplt: warning: --fail-above %s: neither %s nor %s has this "
				"metric (misspelt?); it compares 0 with 0\n",
				run.gates[i].metric, old.name, new.name);
	doc = ep_diff_compute(&old, &new, &opt, &err);
	if (!doc) {
		fprintf(stderr, "elfplt: %s\n", err.message);
		status = EP_EXIT_FAILED;
		goto close;
	}
	if (render(&run, doc))
		status = EP_EXIT_FAILED;
	report_gates(doc);
	/* Files that failed make the numbers incomplete: that outranks a gate. */
	if (failed || old.failed || new.failed)
		status = EP_EXIT_FAILED;
	else if (status == EP_EXIT_OK &&
		 strcmp(json_string_value(json_object_get(doc, "verdict")), "fail") == 0)
		status = EP_EXIT_GATE;
close:
	if (ep_output_close(g) && status != EP_EXIT_GATE)
		status = EP_EXIT_FAILED;
	rc = status;
out:
	json_decref(doc);
	ep_diff_side_free(&old);
	ep_diff_side_free(&new);
	free(run.patterns);
	free(run.gates);
	return rc < 0 ? EP_EXIT_OK : rc;
}

const struct ep_cmd ep_cmd_diff = { "diff", cmd_diff,
				    "compare two builds (trees or saved reports); gates for CI",
				    false };
