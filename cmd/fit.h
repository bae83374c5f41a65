/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_CMD_FIT_H
#define ELFPLT_CMD_FIT_H

/*
 * Text that fits the terminal (cmd/fit.c): the width, and a stream that
 * folds the lines written to it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The width of text that goes to a pipe or a file. */
#define EP_FIT_PIPE_WIDTH 100

/*
 * The width, in columns, of text written to fd: 0 (no limit) with wide
 * (--wide); EP_FIT_PIPE_WIDTH when fd is not a terminal; else COLUMNS when
 * set to a number, else the terminal's width (TIOCGWINSZ), at least 40.
 */
size_t ep_fit_width(bool wide, int fd);

/*
 * A stream that writes to real, each line longer than width columns folded
 * at spaces (continuation lines indented four more columns than the line),
 * a word longer than the room abbreviated in the middle (ep_text_abbrev()).
 * Closing it leaves real open.  Returns NULL when out of memory.
 */
FILE *ep_fit_open(FILE *real, size_t width);

#endif
