/* SPDX-License-Identifier: MIT */
/*
 * getopt_long() as every command calls it, through ep_getopt_long(): the
 * same parse, plus what the option table alone makes possible.  It keeps
 * the table the caller passed, so that an unknown option can be answered
 * with the nearest known ones (cmd/options.c) and "--list-options" can print
 * the command's options for shell completion (cmd/describe.c) from the very
 * table its parser uses; and it refuses a count written apart from an
 * option whose argument is optional ("--timing 5"), which getopt would
 * otherwise leave as the PATH "5".
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/elfplt.h"

static const struct option *cur_longopts;
static const char *cur_shortopts;
static const char *cur_cmd;
static bool listing;
static char detached[256];

void ep_getopt_begin(const char *cmd, bool list_options)
{
	cur_cmd = cmd;
	listing = list_options;
}

const struct option *ep_getopt_longopts(void)
{
	return cur_longopts;
}

const char *ep_getopt_shortopts(void)
{
	return cur_shortopts;
}

const char *ep_getopt_detached(void)
{
	return detached[0] ? detached : NULL;
}

static bool all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

int ep_getopt_long(int argc, char **argv, const char *shortopts, const struct option *longopts)
{
	struct stat st;
	int c, li = -1;

	cur_longopts = longopts;
	cur_shortopts = shortopts;
	detached[0] = '\0';
	if (listing) {
		ep_describe_options(stdout, cur_cmd, shortopts, longopts);
		exit(fflush(stdout) == 0 ? EP_EXIT_OK : EP_EXIT_FAILED);
	}
	c = getopt_long(argc, argv, shortopts, longopts, &li);
	/*
	 * "--timing 5": getopt gives --timing its default and leaves "5" as an
	 * operand.  A number where no file of that name exists was meant as the
	 * count; say so now rather than fail on a PATH "5" after the whole run.
	 */
	if (c != -1 && c != '?' && c != ':' && li >= 0 &&
	    longopts[li].has_arg == optional_argument && !optarg && optind < argc &&
	    all_digits(argv[optind]) && stat(argv[optind], &st) != 0) {
		snprintf(detached, sizeof(detached),
			 "option '--%s' takes its value attached: '--%s=%s' ('%s' is no file)",
			 longopts[li].name, longopts[li].name, argv[optind], argv[optind]);
		return '?';
	}
	return c;
}
