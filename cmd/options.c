/* SPDX-License-Identifier: MIT */
/*
 * What every command's option parsing ends with: usage errors in one
 * voice, the options getopt_long() rejected, global options after the
 * command, and the PATH operands (the running kernel's modules by default).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "cmd/elfplt.h"

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

/*
 * The long options of the current table that typed (an unknown "--name" or
 * "--name=value", dashes and value dropped) may have meant, as "; did you
 * mean ..." into buf.  A prefix of several is getopt's "ambiguous": those
 * are listed.
 */
static void option_suggestions(const char *typed, char *buf, size_t size)
{
	const struct option *o = ep_getopt_longopts();
	const char *names[64], *best[8];
	char word[128];
	size_t n = 0, k;

	buf[0] = '\0';
	if (!o || strncmp(typed, "--", 2) != 0)
		return;
	snprintf(word, sizeof(word), "%.*s", (int)strcspn(typed + 2, "="), typed + 2);
	for (; o->name && n < sizeof(names) / sizeof(names[0]); o++)
		names[n++] = o->name;
	k = ep_suggest(word, names, n, best, sizeof(best) / sizeof(best[0]));
	ep_suggestion_text(buf, size, "--", best, k);
}

/*
 * The option of the current table that typed ("--name=value", the name
 * perhaps abbreviated) names when it takes no value, or NULL: none, one that
 * takes a value, or a prefix of several.
 */
static const struct option *valueless_option(const char *typed)
{
	const struct option *o = ep_getopt_longopts(), *hit = NULL;
	size_t len;

	if (!o || strncmp(typed, "--", 2) != 0 || !strchr(typed, '='))
		return NULL;
	typed += 2;
	len = strcspn(typed, "=");
	for (; o->name; o++) {
		if (strncmp(o->name, typed, len) != 0)
			continue;
		if (strlen(o->name) == len) {
			hit = o;
			break;
		}
		/* getopt_long()'s ambiguity: prefixes of different options. */
		if (hit && (hit->has_arg != o->has_arg || hit->flag != o->flag ||
			    hit->val != o->val))
			return NULL;
		hit = hit ? hit : o;
	}
	return hit && hit->has_arg == no_argument ? hit : NULL;
}

int ep_bad_option(const char *cmd, int c, char **argv)
{
	const struct option *valueless;
	char hint[512];

	if (ep_getopt_detached())
		return ep_usage_error(cmd, "%s", ep_getopt_detached());
	if (c == ':')
		return ep_usage_error(cmd, "option '%s' needs an argument", argv[optind - 1]);
	/* getopt's optopt is then the option's val, printed as a stray "'-'" or "'-q'". */
	valueless = valueless_option(argv[optind - 1]);
	if (valueless)
		return ep_usage_error(cmd, "option '--%s' takes no value", valueless->name);
	if (optopt)
		return ep_usage_error(cmd, "unknown option '-%c'", optopt);
	option_suggestions(argv[optind - 1], hint, sizeof(hint));
	return ep_usage_error(cmd, "unknown option '%s'%s", argv[optind - 1], hint);
}

int ep_other_option(struct ep_global *g, int c, char **argv)
{
	if (c == ':' || c == '?')
		return ep_bad_option(g->cmd, c, argv);
	return ep_global_option(g, c, optarg) < 0 ? EP_EXIT_USAGE : 0;
}

int ep_format_check(const struct ep_global *g, unsigned int formats)
{
	static const char *const names[] = { "text", "json", "markdown", "openmetrics" };

	if (formats & EP_FORMAT_BIT(g->format))
		return 0;
	return ep_usage_error(g->cmd, "%s has no --format=%s", g->cmd, names[g->format]);
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

int ep_inputs_and_output(struct ep_global *g, struct ep_paths *in, int argc, char **argv)
{
	if (ep_paths_get(in, g->cmd, argc, argv))
		return EP_EXIT_USAGE;
	return ep_output_open(g, in);
}
