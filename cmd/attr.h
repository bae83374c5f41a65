/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_CMD_ATTR_H
#define ELFPLT_CMD_ATTR_H

/*
 * --by for plt and stats: the options (--by, --debug-file, --debug-dir),
 * and a file's attribution (lib/attr.h) as text and JSON.
 */

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "lib/attr.h"

/* getopt_long() codes of the options below (above EP_GLOBAL_LONGOPTS' 0x100..). */
#define EP_ATTR_OPT_BY	       0x180
#define EP_ATTR_OPT_DEBUG_FILE 0x181
#define EP_ATTR_OPT_DEBUG_DIR  0x182

/* clang-format off */
#define EP_ATTR_LONGOPTS                                                                           \
	{ "by", required_argument, NULL, EP_ATTR_OPT_BY },                                         \
	{ "debug-file", required_argument, NULL, EP_ATTR_OPT_DEBUG_FILE },                         \
	{ "debug-dir", required_argument, NULL, EP_ATTR_OPT_DEBUG_DIR }
/* clang-format on */

/* What a command's --by options set. */
struct ep_attr_opts {
	unsigned int by; /* EP_BY_ mask; 0: no attribution */
	struct ep_dwarf_options dwarf;
};

/*
 * Handle option c (one of EP_ATTR_OPT_*) with arg; allowed is the command's
 * --by names (a mask).  Returns 1 when handled, 0 when c is not one of them,
 * or EP_EXIT_USAGE after a usage error.
 */
int ep_attr_option(const char *cmd, int c, const char *arg, unsigned int allowed,
		   struct ep_attr_opts *o);

/*
 * After the options, ninputs the PATH operands: --debug-file takes one
 * (a file: a directory's modules would all get its DWARF).  output (-o's
 * FILE, or NULL) must not be the --debug-file nor an existing file under
 * --debug-dir: those are inputs, and opening the output truncates it.  0 or
 * EP_EXIT_USAGE.
 */
int ep_attr_check_inputs(const char *cmd, const struct ep_attr_opts *o, size_t ninputs,
			 const char *output);

/*
 * A file's attribution as text: a table per --by (all its rows, or the
 * first top when top is not 0), the causes.  unit names the rows'
 * count ("call sites", "relocations").
 */
void ep_attr_print(FILE *out, const struct ep_attr *a, size_t top, bool plt);

/* {"callee": [{"name", "sites", "reserved", "minimum"}, ...], ..., "cause": [...]}. */
json_t *ep_attr_json(const struct ep_attr *a, size_t top, bool plt);

/*
 * The once-per-run note on stderr that nfiles inputs had no DWARF, so their
 * cu and line rows say "unknown".  Nothing when nfiles is 0.
 */
void ep_attr_note_no_dwarf(const char *cmd, unsigned long long nfiles);

#endif
