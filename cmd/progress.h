/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_CMD_PROGRESS_H
#define ELFPLT_CMD_PROGRESS_H

/*
 * The progress bar of a run over many inputs: one line on stderr,
 * "[####......] N/TOTAL files P% R files/s", drawn by the calling process
 * only (cmd/jobs.c; workers never draw).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ep_global;

struct ep_progress {
	bool on;	   /* may draw: stderr a terminal, more than one file, no --quiet */
	bool shown;	   /* a bar is on stderr's line now */
	bool out_tty;	   /* the report goes to a terminal too */
	size_t total;	   /* files in the run */
	uint64_t start_ns; /* CLOCK_MONOTONIC */
	uint64_t next_ns;  /* no bar, or no redraw, before this */
};

/*
 * Start the bar for a run of total files reported as g says (g->out, which
 * may be NULL, g->format, g->quiet).  It will draw only when stderr is a
 * terminal, total > 1, not g->quiet and the report is not JSON on a
 * terminal, and not before ELFPLT_PROGRESS_DELAY_MS (default 500) has
 * passed.  Draws nothing yet.
 */
void ep_progress_start(struct ep_progress *p, const struct ep_global *g, size_t total);

/* Erase the bar, if one is on the line: before any message on stderr. */
void ep_progress_clear(struct ep_progress *p);

/* done of p->total files are through: redraw the bar if it is time (10 a second at most). */
void ep_progress_update(struct ep_progress *p, size_t done);

#endif
