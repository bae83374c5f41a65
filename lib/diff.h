/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_DIFF_H
#define ELFPLT_DIFF_H

/*
 * elfplt diff: two sides (each one or more elfplt-stats/1 or /2 and elfplt-plt/2
 * documents, read from a saved report or made by a run), their files paired,
 * every metric's before, after, delta and percent change per file and in
 * total, and the gates a CI job sets on them.  The result is itself a JSON
 * document, elfplt-diff/1 (elfplt-json(7)), that cmd/diff.c renders.
 *
 * Metrics (signed 64-bit integers; names as in --metric and the JSON):
 *   relocations                      stats: relocations.total
 *   relocations.type.NAME            stats: by_type[] count (NAME: psABI name,
 *                                    or "unknown-VALUE")
 *   relocations.section.KIND         stats: relocations of sections of kind KIND
 *                                    (REL, RELA, RELR, CREL)
 *   dynamic.KIND                     stats: dynamic relocations by kind
 *                                    (relative, glob_dat, jump_slot, ...)
 *   relr.savings_bytes               stats: dynamic.relr.savings_bytes
 *   size.text, size.data, size.bss   stats: sizes (bytes)
 *   slots.reserved, slots.minimum    plt: files[].slots (any model)
 *   bytes.reserved, bytes.minimum    plt: files[].bytes (bytes)
 *   slots.reserved.KIND, slots.minimum.KIND, bytes.reserved.KIND,
 *   bytes.minimum.KIND               plt: by kind (plt, got, stub, ...), all
 *                                    groups summed
 */

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/error.h"

/* One side of a diff: its files' metrics, merged over its reports. */
struct ep_diff_side {
	const char *name; /* as named on the command line (OLD or NEW) */
	const char *root; /* the PATH a run was made over; NULL for a saved report */
	json_t *files;	  /* path -> {"m": {metric: value}, "key": ...} */
	json_t *reports;  /* the schemas read, in order */
	bool has_stats;	  /* an elfplt-stats document was read */
	bool has_plt;	  /* an elfplt-plt document was read */
	uint64_t failed;  /* files[] entries with "error" */
};

/*
 * Add the files of doc, an elfplt-stats (/1 or /2) or elfplt-plt/2 document
 * (recognised by its "schema"), to side s; files are merged by "path".
 * Returns 0, or -EP_EMALFORMED with err saying what is wrong ("OLD: schema
 * 'x' is not elfplt-stats or elfplt-plt"), or -EP_ENOMEM.
 */
int ep_diff_side_add(struct ep_diff_side *s, const json_t *doc, struct ep_error *err);

/* Free what s holds (not name and root). */
void ep_diff_side_free(struct ep_diff_side *s);

/* A gate: --fail-above METRIC=+N or METRIC=+N%. */
struct ep_diff_gate {
	char metric[128];
	bool percent;	 /* N is a percentage of the before value */
	int64_t n_milli; /* N in thousandths (of a unit, or of a percent) */
	char text[32];	 /* the limit as given, "+5%" */
};

/*
 * Parse "METRIC=+N" or "METRIC=+N%" (N decimal, up to three fraction digits;
 * the '+' may be left out).  METRIC must be a metric name (see above).
 * Returns 0, or -EP_EMALFORMED with err saying what is wrong.
 */
int ep_diff_gate_parse(const char *arg, struct ep_diff_gate *gate, struct ep_error *err);

/*
 * Whether after passes gate against before: after - before <= N, or for a
 * percentage after - before <= before * N / 100, computed exactly.  A value
 * exactly at the limit passes.  With before 0 a percentage allows no
 * growth at all (0 * N% is 0): use an absolute gate for a metric that may
 * start from nothing.  *limit gets the largest value that passes (rounded
 * down).
 */
bool ep_diff_gate_passes(const struct ep_diff_gate *gate, int64_t before, int64_t after,
			 int64_t *limit);

/*
 * Whether any file of side s has metric (an exact name, "relocations.type.
 * R_AARCH64_CALL26"): a gate on a name neither side has compares 0 with 0
 * and always passes, which is worth a warning (a misspelt name?).
 */
bool ep_diff_side_has_metric(const struct ep_diff_side *s, const char *metric);

/* What ep_diff_compute() compares, and how. */
struct ep_diff_options {
	const char *const *patterns; /* --metric: fnmatch() patterns; NULL: the default set */
	size_t npatterns;
	const struct ep_diff_gate *gates;
	size_t ngates;
	bool per_file; /* gates apply to every file rather than the totals */
};

/*
 * The elfplt-diff/1 document of old against new (without "elfplt_version",
 * which the caller adds): files paired by path relative to each side's
 * root (a run's PATH, or the longest directory prefix a saved report's
 * files share) with a .xz, .zst or .gz suffix dropped (of the archive, for
 * a member), or one with the other when each side holds exactly one file;
 * every selected metric per file and in total, files sorted by the largest
 * absolute delta first; gates evaluated.  A metric of a report one side
 * lacks (stats or plt) is left out, or an error when a pattern or gate
 * names it.  Returns the document, or NULL with err set (-EP_EMALFORMED,
 * -EP_ENOMEM).
 */
json_t *ep_diff_compute(struct ep_diff_side *old, struct ep_diff_side *new,
			const struct ep_diff_options *opt, struct ep_error *err);

/*
 * Whether pattern (a --metric entry) can name a metric: a pattern with
 * wildcards always can; a plain name must be one of the metrics above.
 */
bool ep_diff_metric_valid(const char *pattern);

/*
 * Which reports the metrics named by patterns[0..n) (fnmatch() patterns; none:
 * the default set) and gates[0..ngates) come from: *stats and *plt set true
 * for elfplt-stats and elfplt-plt, so that a run makes only the reports it
 * needs.
 */
void ep_diff_reports_needed(const char *const *patterns, size_t n, const struct ep_diff_gate *gates,
			    size_t ngates, bool *stats, bool *plt);

#endif
