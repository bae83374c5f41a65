/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_CMD_H
#define ELFPLT_CMD_H

/*
 * What every subcommand shares: the command table entry and the global
 * options (--format=text|json, --json, -o FILE, -j N, --quiet, --max-size,
 * --wide),
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

/* Exit status: every input analysed; some input failed (or a PATH held no
 * ELF input); usage error; a `diff` gate tripped. */
enum { EP_EXIT_OK = 0, EP_EXIT_FAILED = 1, EP_EXIT_USAGE = 2, EP_EXIT_GATE = 3 };

/* --format: text, json; markdown and openmetrics for totals and diffs (CI). */
enum ep_format { EP_FORMAT_TEXT, EP_FORMAT_JSON, EP_FORMAT_MARKDOWN, EP_FORMAT_OPENMETRICS };

struct ep_global {
	enum ep_format format;
	const char *output; /* -o FILE, or NULL for stdout */
	FILE *out;	    /* where the report goes */
	const char *cmd;    /* running subcommand's name */
	unsigned int jobs;  /* -j N; 0: ep_jobs_default() */
	bool quiet;	    /* --quiet: no progress bar */
	bool allow_empty;   /* --allow-empty: a PATH with no ELF input only warns */
	bool wide;	    /* --wide: text not fitted to the terminal (cmd/fit.c) */
	bool verbose;	    /* --verbose: name each input passed over, and why */
};

/*
 * A command parses its options with ep_getopt_long() (cmd/getopt.c), so that
 * did-you-mean and shell completion see its table; an option whose value is
 * one of a few words gets a line in cmd/describe.c's table for completion.
 */
struct ep_cmd {
	const char *name;
	int (*fn)(int argc, char **argv, struct ep_global *g);
	const char *help; /* one line for `elfplt --help` */
	bool hidden;	  /* internal entry points are not listed */
};

extern const struct ep_cmd ep_cmd_stats;
extern const struct ep_cmd ep_cmd_plt;
extern const struct ep_cmd ep_cmd_load;
extern const struct ep_cmd ep_cmd_diff;
extern const struct ep_cmd ep_cmd_load_child;

struct ep_paths;

/* Long options every subcommand accepts; put in its option array. */
/* clang-format off */
#define EP_GLOBAL_LONGOPTS                                                                         \
	{ "format", required_argument, NULL, 0x100 }, { "json", no_argument, NULL, 0x101 },        \
	{ "output", required_argument, NULL, 'o' }, { "jobs", required_argument, NULL, 'j' },      \
	{ "quiet", no_argument, NULL, 'q' }, { "max-size", required_argument, NULL, 0x102 },       \
	{ "help", no_argument, NULL, 'h' }, { "allow-empty", no_argument, NULL, 0x103 },      \
	{ "wide", no_argument, NULL, 0x104 },      \
	{ "access", required_argument, NULL, 0x105 },      \
	{ "verbose", no_argument, NULL, 0x106 }
/* clang-format on */

/* Short options of EP_GLOBAL_LONGOPTS, to prepend to a command's own. */
#define EP_GLOBAL_SHORTOPTS ":ho:j:q"

/* cmd/elfplt.c, the dispatcher: */

/*
 * Handle a global option returned by getopt_long(): --format, --json, -o,
 * --max-size (which sets ep_input_set_max_size()) and --access (which sets
 * ep_access_set(), lib/blob.h).  Returns 1 when handled,
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

/* A bit per enum ep_format, for ep_format_check(). */
#define EP_FORMAT_BIT(f) (1u << (f))

/*
 * After the options: a usage error (EP_EXIT_USAGE) when g->format is not
 * one of the formats (EP_FORMAT_BIT()s) the command writes; else 0.
 */
int ep_format_check(const struct ep_global *g, unsigned int formats);

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

/* cmd/getopt.c: getopt_long() as every command calls it. */

/*
 * Before a command's option parsing: its name (NULL for the dispatcher), and
 * whether it is to print its options (--list-options) instead of parsing.
 */
void ep_getopt_begin(const char *cmd, bool list_options);

/*
 * getopt_long() with longindex kept to itself, which also: remembers
 * longopts and shortopts for ep_bad_option()'s suggestions; prints the
 * options (ep_describe_options()) and exits 0 when ep_getopt_begin() asked
 * for the list; and returns '?' for a number written apart from an option
 * whose argument is optional ("--timing 5", no file "5"), the message for
 * it then in ep_getopt_detached().  Every command parses with it.
 */
int ep_getopt_long(int argc, char **argv, const char *shortopts, const struct option *longopts);

/* The tables of the last ep_getopt_long() call, or NULL before any. */
const struct option *ep_getopt_longopts(void);
const char *ep_getopt_shortopts(void);

/* The message for a detached optional value, or NULL (see ep_getopt_long()). */
const char *ep_getopt_detached(void);

/* cmd/describe.c: the options for shell completion. */

/*
 * Print one line per spelling of each option, "--name ARG [VALUE...]" or
 * "-c ARG [VALUE...]": ARG none, required or optional; VALUEs the words the
 * option takes (from describe.c's table for cmd, NULL the dispatcher), or
 * "<file>".
 */
void ep_describe_options(FILE *f, const char *cmd, const char *shortopts,
			 const struct option *longopts);

/* cmd/suggest.c: did you mean? */

/*
 * The weighted Damerau-Levenshtein distance from typed to want, git's
 * weights (swap 0, add 1, substitute 2, delete 3); (unsigned)-1 when out of
 * memory.
 */
unsigned int ep_edit_distance(const char *typed, const char *want);

/*
 * The candidates of cands[0..n) nearest to typed and close enough to be
 * meant (typed starts them, or the distance is at most 1 + half typed's
 * length), at most max of them, into out in cands' order.  Returns how many.
 */
size_t ep_suggest(const char *typed, const char *const *cands, size_t n, const char **out,
		  size_t max);

/*
 * "; did you mean 'P1' or 'P2'?" into buf (prefix before each: "--"), or ""
 * when n is 0.
 */
void ep_suggestion_text(char *buf, size_t size, const char *prefix, const char *const *v, size_t n);

#endif
