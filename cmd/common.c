/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cmd/elfplt.h"

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
	uint64_t size;

	switch (c) {
	case 0x100:
		if (strcmp(arg, "text") == 0)
			g->format = EP_FORMAT_TEXT;
		else if (strcmp(arg, "json") == 0)
			g->format = EP_FORMAT_JSON;
		else {
			ep_usage_error(g->cmd, "--format takes text or json, not '%s'", arg);
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
	}
	return 0;
}

int ep_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("elfplt: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (cmd)
		fprintf(stderr, "Try 'elfplt %s --help' or 'elfplt help %s'.\n", cmd, cmd);
	else
		fputs("Try 'elfplt --help'.\n", stderr);
	return EP_EXIT_USAGE;
}

int ep_bad_option(const char *cmd, int c, char **argv)
{
	if (c == ':')
		return ep_usage_error(cmd, "option '%s' needs an argument", argv[optind - 1]);
	if (optopt)
		return ep_usage_error(cmd, "unknown option '-%c'", optopt);
	return ep_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
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

int ep_paths_get(struct ep_paths *in, const char *cmd, int argc, char **argv)
{
	struct utsname u;
	struct stat st;

	in->v = (const char *const *)argv + optind;
	in->n = optind < argc ? (size_t)(argc - optind) : 0;
	if (in->n)
		return 0;
	if (uname(&u) != 0)
		return ep_usage_error(cmd, "no PATH given and uname failed: %s", strerror(errno));
	snprintf(in->modules, sizeof(in->modules), "/lib/modules/%s", u.release);
	if (stat(in->modules, &st) != 0 || !S_ISDIR(st.st_mode))
		return ep_usage_error(
			cmd,
			"no PATH given and %s does not exist; name a module, object or "
			"directory, e.g. 'elfplt %s foo.ko'",
			in->modules, cmd);
	fprintf(stderr, "elfplt: no PATH given: analysing the running kernel's modules in %s\n",
		in->modules);
	in->def[0] = in->modules;
	in->v = in->def;
	in->n = 1;
	return 0;
}

int ep_other_option(struct ep_global *g, int c, char **argv)
{
	if (c == ':' || c == '?')
		return ep_bad_option(g->cmd, c, argv);
	return ep_global_option(g, c, optarg) < 0 ? EP_EXIT_USAGE : 0;
}

int ep_inputs_and_output(struct ep_global *g, struct ep_paths *in, int argc, char **argv)
{
	if (ep_paths_get(in, g->cmd, argc, argv))
		return EP_EXIT_USAGE;
	return ep_output_open(g, in);
}
