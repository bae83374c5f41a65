/* SPDX-License-Identifier: MIT */
/*
 * elfplt describing itself to shell completion (completion/), so that the
 * scripts hold no list of commands or options to fall behind:
 *
 *   elfplt --list-commands      every command, one a line, "help" last
 *   elfplt --list-topics        what "elfplt help" takes: the commands, json
 *   elfplt --list-options       the options before a command
 *   elfplt CMD --list-options   CMD's options, from the table its parser uses
 *
 * An option line is "SPELLING ARG [VALUE...]": SPELLING "--name" or "-c";
 * ARG none, required or optional; the VALUEs the option takes, when it takes
 * one of a few words, or "<file>" for a file name.  The words come from the
 * table below: an option whose value is one of fixed words gets one line
 * there (cmd NULL: the option means the same in every command).
 */
#include "config.h"

#include <string.h>

#include "cmd/elfplt.h"
#include "lib/plt.h"

struct option_values {
	const char *cmd;	       /* NULL: every command */
	const char *name;	       /* the long option, without "--" */
	const char *words;	       /* its values, space-separated */
	const char *(*words_fn)(void); /* or a function giving them */
};

/* --model: the registry's names, in the order the models are tried. */
static const char *plt_models(void)
{
	static char buf[512];
	size_t i, len = 0;

	for (i = 0; ep_plt_models[i] && len < sizeof(buf); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? " " : "",
					ep_plt_models[i]->name);
	return buf;
}

static const struct option_values values[] = {
	{ "diff", "format", "text json markdown openmetrics", NULL },
	{ "stats", "format", "text json openmetrics", NULL },
	{ "plt", "format", "text json openmetrics", NULL },
	{ NULL, "format", "text json", NULL },
	{ NULL, "output", "<file>", NULL },
	{ NULL, "access", "read mmap hybrid", NULL },
	{ "plt", "kernel", "auto", NULL },
	{ "plt", "kaslr", "on off", NULL },
	{ "plt", "erratum-843419", "on off", NULL },
	{ "plt", "model", NULL, plt_models },
	{ "plt", "by", "callee caller cu line cause", NULL },
	{ "stats", "by", "symbol section cu", NULL },
	{ NULL, "debug-file", "<file>", NULL },
	{ NULL, "debug-dir", "<file>", NULL },
	{ "load", "sections", "relocs alloc all", NULL },
};

static const char *words_of(const char *cmd, const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		const struct option_values *v = &values[i];

		if (strcmp(v->name, name) != 0 || (v->cmd && (!cmd || strcmp(v->cmd, cmd) != 0)))
			continue;
		return v->words_fn ? v->words_fn() : v->words;
	}
	return NULL;
}

static const char *const arg_kind[] = { "none", "required", "optional" };

static void line(FILE *f, const char *dashes, const char *name, size_t len, int has_arg,
		 const char *words)
{
	fprintf(f, "%s%.*s %s", dashes, (int)len, name, arg_kind[has_arg]);
	if (has_arg != no_argument && words)
		fprintf(f, " %s", words);
	fputc('\n', f);
}

void ep_describe_options(FILE *f, const char *cmd, const char *shortopts,
			 const struct option *longopts)
{
	const struct option *o;
	const char *s;

	for (o = longopts; o->name; o++)
		line(f, "--", o->name, strlen(o->name), o->has_arg, words_of(cmd, o->name));
	/* A short option's values are its long twin's: the one with val == c. */
	for (s = shortopts; *s; s++) {
		int has_arg = no_argument;
		const char *words = NULL;

		if (*s == ':' || *s == '+' || *s == '-')
			continue;
		if (s[1] == ':')
			has_arg = s[2] == ':' ? optional_argument : required_argument;
		for (o = longopts; o->name; o++)
			if (!o->flag && o->val == *s)
				words = words_of(cmd, o->name);
		line(f, "-", s, 1, has_arg, words);
	}
}
