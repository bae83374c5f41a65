/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_CMD_OUTPUT_H
#define ELFPLT_CMD_OUTPUT_H

/*
 * Where the report goes (-o FILE or standard output), the guard that keeps
 * it off the inputs, and a file's part of it rendered into bytes.
 */

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ep_global;
struct ep_paths;

/*
 * Open g->out: stdout, or -o FILE.  Refuses (EP_EXIT_USAGE, after a usage
 * error) a FILE that is one of the inputs in, or an ELF file below an input
 * directory, since opening it would truncate it.  Returns 0, or
 * EP_EXIT_FAILED after a message when FILE cannot be opened for writing.
 */
int ep_output_open(struct ep_global *g, const struct ep_paths *in);

/*
 * Whether the report goes to a terminal (for the progress bar: g->out may be
 * the stream that folds text, which has no file descriptor).
 */
bool ep_output_isatty(const struct ep_global *g);

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
 * Whether the file dev, ino (st_dev, st_ino) is the one the report goes to
 * (-o FILE, or standard output sent to a regular file), as ep_output_open()
 * noted: a walk that meets it passes over it, so that the report never
 * counts itself.  False before ep_output_open() and for a report to a
 * terminal, pipe or device.
 */
bool ep_output_is_report(uint64_t dev, uint64_t ino);

#endif
