/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_CMD_LOAD_H
#define ELFPLT_CMD_LOAD_H

/*
 * What `elfplt load` (cmd/load.c) and its measured child (cmd/load-child.c)
 * share.  The parent execs "/proc/self/exe [--max-size=BYTES] __load-child
 * --mode=MODE" with the plan's ep_load_plan_encode() text on standard input;
 * the child answers with one JSON object on standard output, made by
 * child_json() in cmd/load-child.c and read by parse_child() in cmd/load.c:
 * "mode", "peak_reset" (and "peak_reset_error"), "wall_ns", "copy_ns", the
 * "startup", "start" and "end" snapshots (struct ep_proc_usage, by its field
 * names), the counts of struct ep_load_result and the "checksum" (16 hex
 * digits).  A child that fails on a file of the plan says instead
 * {"mode", "failed_file": INDEX, "error": MESSAGE} and exits 1.
 */

#include <stddef.h>

/* The hidden command of one measured run. */
#define CHILD_CMD "__load-child"

/*
 * Read fd to its end into *buf (malloc'd, *len bytes, not NUL-terminated):
 * the child's plan on standard input, the parent's child report from a pipe.
 * Returns 0, or -1 with errno set (ENOMEM, or read(2)'s) and nothing to free.
 */
int ep_load_read_all(int fd, char **buf, size_t *len);

#endif
