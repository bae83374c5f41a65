/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_CMD_H
#define ELFPLT_CMD_H

/*
 * What every subcommand shares: the command table entry and the global
 * options (--format=text|json, --json, -o FILE, -j N, --quiet, --max-size),
 * handled by the dispatcher (cmd/elfplt.c); the end of every command's
 * option parsing and its PATH operands (cmd/options.c).  It includes the
 * run over the input files (cmd/jobs.h) and where the report goes
 * (cmd/output.h), which every command uses too.
 */

#include <getopt.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/elf.h"
#include "lib/blob.h"

#include "cmd/jobs.h"
#include "cmd/output.h"

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
	bool verbose;	    /* --verbose: name each input passed over, and why */
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
	{ "verbose", no_argument, NULL, 0x103 }, { "help", no_argument, NULL, 'h' }
/* clang-format on */

/* Short options of EP_GLOBAL_LONGOPTS, to prepend to a command's own. */
#define EP_GLOBAL_SHORTOPTS ":ho:j:q"

/* cmd/elfplt.c, the dispatcher: */

/*
 * Handle a global option returned by getopt_long(): --format, --json, -o and
 * --max-size (which sets ep_input_set_max_size()).  Returns 1 when handled,
 * 0 when c is not a global option, -1 after printing a usage error.
 */
int ep_global_option(struct ep_global *g, int c, const char *arg);

/*
 * Show manual page page(section) with man(1): the build tree's copy when
 * there is one, else the installed page.  Returns only on failure, with an
 * exit status.
 */
int ep_show_man_page(const char *page, int section);

/* Show elfplt-<cmd>(1), or elfplt(1) when cmd is NULL. */
int ep_show_man(const char *cmd);

/* cmd/options.c, the end of every command's option parsing: */

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
