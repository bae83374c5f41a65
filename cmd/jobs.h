/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_CMD_JOBS_H
#define ELFPLT_CMD_JOBS_H

/*
 * The run engine every command's per-file work goes through: the inputs
 * expanded, opened and computed on in up to EP_JOBS_MAX worker processes,
 * emitted in input order (cmd/jobs.c).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "lib/elf.h"
#include "lib/blob.h"
#include "lib/decode.h"
#include "lib/walk.h"

struct ep_global;

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

/*
 * The inputs counted by ep_inputs_skipped(), in input order, as a JSON
 * array of {"path": PATH, "reason": REASON}: PATH as reports show it, REASON
 * "not an ELF file", "an ar archive inside an archive (not expanded)", ...
 * NULL when out of memory.  With --verbose, the loop also prints
 * "elfplt: PATH: skipped: REASON" on stderr as it passes each over.
 */
json_t *ep_json_skipped(void);

/* "skipped: N files (not ELF)" on out when the last run passed over any. */
void ep_print_skipped(FILE *out);

/*
 * Write len bytes of whole lines (a file's warnings) on stderr from emit:
 * the report so far flushed and the progress bar erased first.
 */
void ep_jobs_stderr(const char *text, size_t len);

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
 * A PATH of paths[] that held no ELF input at all (an empty, mistyped or
 * non-ELF tree) is named on stderr and fails the run, unless
 * g->allow_empty (--allow-empty), when it only gets a warning.
 * Returns EP_EXIT_OK, or EP_EXIT_FAILED when any file or PATH failed.
 */
int ep_for_each_image_jobs(const struct ep_global *g, const char *const *paths, size_t n,
			   bool populate, ep_compute_fn compute, ep_emit_fn emit,
			   ep_error_fn on_error, void *ctx);

#endif
