/* SPDX-License-Identifier: MIT */
/*
 * elfplt: the dispatcher.  Global options, then a command from the table; a
 * command is one line here and one cmd/<name>.c file, as in kmod and git.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/elfplt.h"
#include "lib/elf.h"
#include "lib/blob.h"
#include "lib/decode.h"
#include "lib/walk.h"

static const struct ep_cmd *const commands[] = {
	&ep_cmd_stats,
	&ep_cmd_plt,
	&ep_cmd_load,
	&ep_cmd_diff,
	&ep_cmd_load_child,
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct ep_cmd *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

/*
 * "'NAME' is not a command" (what: "an elfplt command", "a help topic"), with
 * the nearest commands (and, for help, topics) when one is close enough.
 */
static int not_a_command(const char *name, const char *what, bool topics)
{
	const char *names[NCOMMANDS + 2], *best[4];
	char hint[256];
	size_t i, n = 0, k;

	for (i = 0; i < NCOMMANDS; i++)
		if (!commands[i]->hidden)
			names[n++] = commands[i]->name;
	names[n++] = topics ? "json" : "help";
	k = ep_suggest(name, names, n, best, sizeof(best) / sizeof(best[0]));
	ep_suggestion_text(hint, sizeof(hint), "", best, k);
	return ep_usage_error(NULL, "'%s' is not %s%s", name, what, hint);
}

/* --list-commands and --list-topics, for shell completion (cmd/describe.c). */
static int list_commands(bool topics)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (!commands[i]->hidden)
			puts(commands[i]->name);
	puts(topics ? "json" : "help");
	return fflush(stdout) == 0 ? EP_EXIT_OK : EP_EXIT_FAILED;
}

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: elfplt [--version] [--help] [--format=text|json] [-o FILE] [-j N] [-q]\n"
	      "              [--max-size=BYTES] [--access=read|mmap|hybrid] [--wide]\n"
	      "              <command> [options] [PATH...]\n\ncommands:\n",
	      f);
	for (i = 0; i < NCOMMANDS; i++)
		if (!commands[i]->hidden)
			fprintf(f, "  %-8s %s\n", commands[i]->name, commands[i]->help);
	fputs("  help     show a command's manual page: elfplt help <command>;\n"
	      "           elfplt help json: the JSON contract, elfplt-json(7)\n\n"
	      "global options (also accepted after the command):\n"
	      "  --format=text|json  output for people (default) or machines\n"
	      "  --format=openmetrics|markdown\n"
	      "                      for CI: totals as OpenMetrics (stats, plt, diff); a\n"
	      "                      Markdown table and verdict (diff)\n"
	      "  --json              same as --format=json\n"
	      "  -o, --output FILE   write the report to FILE instead of standard output ('-':\n"
	      "                      standard output)\n"
	      "  -j, --jobs N        analyse N files at a time (default: from the work: one per\n"
	      "                      CPU, at most 8, when files take 20 us or more each)\n"
	      "  -q, --quiet         no progress bar on a terminal\n"
	      "      --verbose       name each input passed over (not ELF) and why\n"
	      "  --max-size=BYTES    refuse a compressed input or section that decodes to more\n"
	      "                      than BYTES (K, M, G suffixes: KiB, MiB, GiB; default 1G)\n"
	      "  --allow-empty       a PATH holding no ELF input is a warning, not an error\n"
	      "  --wide              text as wide as it needs: no table or line fitted to the\n"
	      "                      terminal (or to 100 columns in a pipe or file)\n"
	      "  --access=MODE       how a file's bytes come in: hybrid (default: what is read,\n"
	      "                      pread() under 4 pages, mapped from 4 pages), read, mmap\n",
	      f);
}

/* -j N, --jobs N: 1 to EP_JOBS_MAX.  Returns 0, or -1 after a usage error. */
static int parse_jobs(struct ep_global *g, const char *arg)
{
	unsigned long jobs;
	char *end;

	jobs = strtoul(arg, &end, 10);
	if (!*arg || *end || jobs == 0 || jobs > EP_JOBS_MAX || arg[0] == '-') {
		ep_usage_error(g->cmd, "--jobs takes a number from 1 to %d, not '%s'", EP_JOBS_MAX,
			       arg);
		return -1;
	}
	g->jobs = (unsigned int)jobs;
	return 0;
}

int ep_global_option(struct ep_global *g, int c, const char *arg)
{
	enum ep_access access;
	uint64_t size;

	switch (c) {
	case 0x100:
		if (strcmp(arg, "text") == 0)
			g->format = EP_FORMAT_TEXT;
		else if (strcmp(arg, "json") == 0)
			g->format = EP_FORMAT_JSON;
		else if (strcmp(arg, "markdown") == 0)
			g->format = EP_FORMAT_MARKDOWN;
		else if (strcmp(arg, "openmetrics") == 0)
			g->format = EP_FORMAT_OPENMETRICS;
		else {
			ep_usage_error(
				g->cmd,
				"--format takes text, json, markdown or openmetrics, not '%s'",
				arg);
			return -1;
		}
		return 1;
	case 0x101:
		g->format = EP_FORMAT_JSON;
		return 1;
	case 'o':
		g->output = arg;
		return 1;
	case 'j':
		return parse_jobs(g, arg) ? -1 : 1;
	case 'q':
		g->quiet = true;
		return 1;
	case 0x103:
		g->allow_empty = true;
		return 1;
	case 0x104:
		g->wide = true;
		return 1;
	case 0x106:
		g->verbose = true;
		return 1;
	case 0x102:
		if (ep_parse_size(arg, &size)) {
			ep_usage_error(
				g->cmd,
				"--max-size takes a number of bytes, optionally with K, M, G "
				"(KiB, MiB, GiB), not '%s'",
				arg);
			return -1;
		}
		/* One cap for whole files and for SHF_COMPRESSED sections alike. */
		ep_input_set_max_size(size);
		ep_section_decoded_max_set(size);
		return 1;
	case 0x105:
		if (ep_access_parse(arg, &access)) {
			ep_usage_error(g->cmd, "--access takes read, mmap or hybrid, not '%s'", arg);
			return -1;
		}
		ep_access_set(access, ep_access_threshold());
		return 1;
	}
	return 0;
}

/*
 * ELFPLT_ACCESS (read, mmap, hybrid) and ELFPLT_MMAP_THRESHOLD (bytes, K, M,
 * G suffixes) set the access mode and threshold before the options, which
 * win.  Returns 0, or -1 after a usage error.
 */
static int access_from_env(void)
{
	const char *mode = getenv("ELFPLT_ACCESS"), *thr = getenv("ELFPLT_MMAP_THRESHOLD");
	enum ep_access access = EP_ACCESS_HYBRID;
	uint64_t bytes = 0;

	if (mode && *mode && ep_access_parse(mode, &access)) {
		ep_usage_error(NULL, "ELFPLT_ACCESS takes read, mmap or hybrid, not '%s'", mode);
		return -1;
	}
	if (thr && *thr && (ep_parse_size(thr, &bytes) || bytes == 0)) {
		ep_usage_error(NULL,
			       "ELFPLT_MMAP_THRESHOLD takes a number of bytes over 0, optionally "
			       "with K, M, G (KiB, MiB, GiB), not '%s'",
			       thr);
		return -1;
	}
	ep_access_set(access, bytes);
	return 0;
}

int ep_show_man_page(const char *page, int section)
{
	char local[4096];
	struct stat st;

	/* Uninstalled, from the build tree: read the page just built. */
	snprintf(local, sizeof(local), "%s/man/%s.%d", ELFPLT_BUILDDIR, page, section);
	fflush(stdout);
	if (stat(local, &st) == 0)
		execlp("man", "man", "-l", local, (char *)NULL);
	else
		execlp("man", "man", section == 7 ? "7" : "1", page, (char *)NULL);
	fprintf(stderr, "elfplt: cannot run man to show %s(%d): %s\n", page, section,
		strerror(errno));
	return EP_EXIT_FAILED;
}

int ep_show_man(const char *cmd)
{
	char page[64];

	snprintf(page, sizeof(page), cmd ? "elfplt-%s" : "elfplt", cmd);
	return ep_show_man_page(page, 1);
}

static int cmd_help(int argc, char **argv)
{
	if (argc < 2)
		return ep_show_man(NULL);
	/* help's own help is the usage, which says what help does. */
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return EP_EXIT_OK;
	}
	if (strcmp(argv[1], "json") == 0)
		return ep_show_man_page("elfplt-json", 7);
	if (!find_command(argv[1]))
		return not_a_command(argv[1], "a command or help topic", true);
	return ep_show_man(argv[1]);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "version", no_argument, NULL, 'V' },
		EP_GLOBAL_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct ep_global g = { .format = EP_FORMAT_TEXT };
	const struct ep_cmd *cmd;
	int c, rc;

	if (access_from_env())
		return EP_EXIT_USAGE;
	if (argc == 2 && strcmp(argv[1], "--list-commands") == 0)
		return list_commands(false);
	if (argc == 2 && strcmp(argv[1], "--list-topics") == 0)
		return list_commands(true);
	ep_getopt_begin(NULL, argc == 2 && strcmp(argv[1], "--list-options") == 0);
	opterr = 0;
	/* "+": stop at the command name so its own options reach it. */
	while ((c = ep_getopt_long(argc, argv, "+" EP_GLOBAL_SHORTOPTS "V", longopts)) != -1) {
		switch (c) {
		case 'V':
			printf("elfplt %s\n", PACKAGE_VERSION);
			return EP_EXIT_OK;
		case 'h':
			usage(stdout);
			return EP_EXIT_OK;
		case ':':
		case '?':
			return ep_bad_option(NULL, c, argv);
		default:
			if (ep_global_option(&g, c, optarg) < 0)
				return EP_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return ep_usage_error(NULL, "no command given");
	}
	if (strcmp(argv[optind], "help") == 0)
		return cmd_help(argc - optind, argv + optind);
	cmd = find_command(argv[optind]);
	if (!cmd)
		return not_a_command(argv[optind], "a command", false);
	g.cmd = cmd->name;
	/* "elfplt CMD --list-options": CMD's ep_getopt_long() prints them. */
	ep_getopt_begin(cmd->name,
			argc - optind == 2 && strcmp(argv[optind + 1], "--list-options") == 0);
	argc -= optind;
	argv += optind;
	optind = 0; /* restart getopt for the command's own options */
	rc = cmd->fn(argc, argv, &g);
	return rc;
}
