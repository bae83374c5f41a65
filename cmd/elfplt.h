/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_CMD_H
#define ELFPLT_CMD_H

/*
 * What every subcommand shares: the command table entry, the global options
 * (--format=text|json, --json, -o FILE, -j N, --quiet) and the loop over
 * input files that reports a bad file and goes on with the others.
 */

#include <getopt.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/elf.h"
#include "lib/blob.h"

/* Exit status: every input analysed; some input failed; usage error. */
enum { EP_EXIT_OK = 0, EP_EXIT_FAILED = 1, EP_EXIT_USAGE = 2 };

enum ep_format { EP_FORMAT_TEXT, EP_FORMAT_JSON };

struct ep_global {
	enum ep_format format;
	const char *output; /* -o FILE, or NULL for stdout */
	FILE *out;	    /* where the report goes */
	const char *cmd;    /* running subcommand's name */
	unsigned int jobs;  /* -j N; 0: ep_jobs_default() */
	bool quiet;	    /* --quiet: no progress bar */
};

struct ep_cmd {
	const char *name;
	int (*fn)(int argc, char **argv, struct ep_global *g);
	const char *help; /* one line for `elfplt --help` */
	bool hidden;	  /* internal entry points are not listed */
};

extern const struct ep_cmd ep_cmd_stats;
extern const struct ep_cmd ep_cmd_plt;
extern const struct ep_cmd ep_cmd_load;
extern const struct ep_cmd ep_cmd_load_child;

struct ep_paths;

/* Long options every subcommand accepts; put in its option array. */
/* clang-format off */
#define EP_GLOBAL_LONGOPTS                                                                         \
	{ "format", required_argument, NULL, 0x100 }, { "json", no_argument, NULL, 0x101 },        \
	{ "output", required_argument, NULL, 'o' }, { "jobs", required_argument, NULL, 'j' },      \
	{ "quiet", no_argument, NULL, 'q' }, { "max-size", required_argument, NULL, 0x102 },       \
	{ "help", no_argument, NULL, 'h' }
/* clang-format on */

/* Short options of EP_GLOBAL_LONGOPTS, to prepend to a command's own. */
#define EP_GLOBAL_SHORTOPTS ":ho:j:q"

/*
 * Handle a global option returned by getopt_long(): --format, --json, -o and
 * --max-size (which sets ep_input_set_max_size()).  Returns 1 when handled,
 * 0 when c is not a global option, -1 after printing a usage error.
 */
int ep_global_option(struct ep_global *g, int c, const char *arg);

/*
 * The end of every command's getopt_long() switch, for what is not the
 * command's own: a global option (returns 0), or an unknown option or a
 * missing argument (a usage error: returns EP_EXIT_USAGE).
 */
int ep_other_option(struct ep_global *g, int c, char **argv);

/* Print "elfplt: <fmt>" and a hint line to stderr; returns EP_EXIT_USAGE. */
int ep_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * The usage error for an option getopt_long() rejected, c being ':' (missing
 * argument) or '?' (unknown option).  For one message, not getopt's and ours,
 * set opterr = 0 and start the short options with ':' (EP_GLOBAL_SHORTOPTS
 * does).  Returns EP_EXIT_USAGE.
 */
int ep_bad_option(const char *cmd, int c, char **argv);

/*
 * Open g->out: stdout, or -o FILE.  Refuses (EP_EXIT_USAGE, after a usage
 * error) a FILE that is one of the inputs in, or an ELF file below an input
 * directory, since opening it would truncate it.  Returns 0, or
 * EP_EXIT_FAILED after a message when FILE cannot be opened for writing.
 */
int ep_output_open(struct ep_global *g, const struct ep_paths *in);

/* Flush and close g->out.  Returns 0, or EP_EXIT_FAILED after a message. */
int ep_output_close(struct ep_global *g);

/*
 * Render text into memory: print(f, arg) writes to a memory stream f, and
 * *out (malloc'd, NUL-terminated, for the caller to free) gets what it
 * wrote, *out_len its length in bytes.  For a command's compute_file(),
 * which may run in a worker process and hands its output back as bytes.
 * Returns 0, or -EP_ENOMEM with *out NULL and *out_len 0.
 */
int ep_render_text(void (*print)(FILE *f, const void *arg), const void *arg, char **out,
		   size_t *out_len);

/*
 * The same for JSON: o (a command's files[] entry; NULL when building it ran
 * out of memory) dumped as ep_json_dump_at(o, 2, ...) does, into *out
 * (malloc'd, for the caller to free), its length in bytes in *out_len.
 * Takes the caller's reference to o.  Returns 0, or -EP_ENOMEM with *out
 * NULL and *out_len 0.
 */
int ep_render_json(json_t *o, char **out, size_t *out_len);

/*
 * Show manual page page(section) with man(1): the build tree's copy when
 * there is one, else the installed page.  Returns only on failure, with an
 * exit status.
 */
int ep_show_man_page(const char *page, int section);

/* Show elfplt-<cmd>(1), or elfplt(1) when cmd is NULL. */
int ep_show_man(const char *cmd);

/*
 * Called for each input that failed (to open, or in the loop's callbacks):
 * the error is already printed on stderr; record it in the report.  path is
 * the path for reports (ep_text_clean()ed, so a path that is not UTF-8 still
 * makes one line and a JSON string).
 */
typedef void (*ep_error_fn)(const char *path, const struct ep_error *err, void *ctx);

/*
 * The inputs the last ep_for_each_image*() run passed over quietly: files a
 * directory walk found and archive members that are not ELF (no ELF magic,
 * directly or after decompression).  For the commands' "skipped" totals.
 */
uint64_t ep_inputs_skipped(void);

/* "skipped: N files (not ELF)" on out when the last run passed over any. */
void ep_print_skipped(FILE *out);

/* Most jobs (worker processes) ep_for_each_image_jobs() runs. */
#define EP_JOBS_MAX 8

/* The CPUs this process may run on, at least 1 and at most EP_JOBS_MAX. */
unsigned int ep_jobs_default(void);

/*
 * The per-file work split in two.  compute runs with the input open, in a
 * worker process or not: it must not print, and all it hands on is its
 * result, one malloc'd block of bytes (*result, *result_len; NULL and 0 are
 * fine) that may cross a pipe, so no pointers in it.  img->path is the path
 * for reports (see ep_error_fn); blob->path is the path itself, the one to
 * open again.  emit runs in the calling process, in input order, for each
 * input compute succeeded on, with the same path for reports: it writes the
 * output and adds to run totals from the bytes (the loop frees them).
 * Either returns 0, or a negative ep_errcode with err filled to have the
 * file reported as failed.
 */
typedef int (*ep_compute_fn)(struct ep_image *img, const struct ep_blob *blob, void *ctx,
			     void **result, size_t *result_len, struct ep_error *err);
typedef int (*ep_emit_fn)(const char *path, const void *result, size_t result_len, void *ctx,
			  struct ep_error *err);

/*
 * Expand paths[0..n) (see ep_pathlist_expand()), then for each file: open it
 * (mapping it read-only, populated ahead when populate), open the image,
 * call compute, then emit; on any error print "elfplt: MESSAGE" on stderr,
 * call on_error and go on.  Files a directory walk found that are not ELF
 * (no ELF magic, directly or after decompression) or cannot be read are
 * passed over quietly.
 *
 * compute is spread over g->jobs worker processes (0: ep_jobs_default();
 * capped at EP_JOBS_MAX and the number of inputs), scheduled dynamically: a
 * worker asks the calling process for work over a socket and is handed the
 * next run of up to 8 inputs, asking for its next run as it starts one, so
 * a worker that drew small files takes more of them than one that drew a
 * big one.  It sends each result back through its own pipe, in the order it
 * was handed the inputs; the calling process knows which worker has which
 * input, and reads the results from their pipes in input order.  emit and
 * on_error run in the calling process strictly in input order, so the
 * output is the same for any jobs.  Processes, not threads: each maps and
 * unmaps its inputs in its own address space, where threads made every
 * munmap() a TLB shootdown of the other CPUs and serialised on the one mmap
 * lock.  Buffered output is flushed before the workers start.  A worker that
 * dies has the input it was analysing reported as failed (EP_EIO, "the
 * worker process analysing it died"), the others it had been handed done by
 * the calling process, and is handed no more.  With one job (or if the
 * workers cannot all start) everything runs in the calling process, compute
 * then emit for one input after the other.  Memory: the list of paths, and
 * the results of the inputs in flight: no input is handed out more than 256
 * inputs ahead of the next one to emit, a worker's results wait in its pipe
 * (1 MiB; then it waits too), and no result is kept after emit.
 *
 * While it runs, the calling process draws a progress bar on stderr (files
 * done/total, percent, files/s; at most 10 times a second, after
 * ELFPLT_PROGRESS_DELAY_MS, default 500) when stderr is a terminal, there
 * is more than one file and not g->quiet, and the report (g->out) is not
 * JSON on a terminal; the bar is erased before every message the loop
 * prints, before emit when g->out is a terminal, and before it returns.
 * Returns EP_EXIT_OK, or EP_EXIT_FAILED when any file failed.
 */
int ep_for_each_image_jobs(const struct ep_global *g, const char *const *paths, size_t n,
			   bool populate, ep_compute_fn compute, ep_emit_fn emit,
			   ep_error_fn on_error, void *ctx);

/* The inputs of a command: its PATH operands, or the default. */
struct ep_paths {
	const char *const *v;
	size_t n;
	const char *def[1];
	char modules[4096];
};

/*
 * Fill in from argv[optind..argc) (after getopt_long()); with no PATH, the
 * running kernel's modules in /lib/modules/$(uname -r), saying so on stderr.
 * Returns 0, or EP_EXIT_USAGE after a usage error when there is no PATH and
 * that directory does not exist.
 */
int ep_paths_get(struct ep_paths *in, const char *cmd, int argc, char **argv);

/*
 * After the options: ep_paths_get() then ep_output_open().  Returns 0, or the
 * exit status either gave (EP_EXIT_USAGE, EP_EXIT_FAILED).
 */
int ep_inputs_and_output(struct ep_global *g, struct ep_paths *in, int argc, char **argv);

#endif
