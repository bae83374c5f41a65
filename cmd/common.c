/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cmd/elfplt.h"

int ep_global_option(struct ep_global *g, int c, const char *arg)
{
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

/* The first bytes of path are an ELF or compression magic: a walk takes it. */
static bool looks_like_input(const char *path)
{
	unsigned char head[8];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n < SELFMAG)
		return false;
	return memcmp(head, ELFMAG, SELFMAG) == 0 ||
	       ep_compression_sniff(head, (size_t)n) != EP_COMP_NONE;
}

/* dir contains file (both resolved): "/a/b" contains "/a/b/c/d". */
static bool contains(const char *dir, const char *file)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return true;
	return strncmp(dir, file, n) == 0 && file[n] == '/';
}

/*
 * Opening the output truncates it: refuse an output that is one of the
 * inputs, or an ELF file inside an input directory that the walk would take.
 */
static bool output_is_input(const char *output, const struct ep_paths *in)
{
	struct stat ost, st;
	char *oreal, *dreal;
	bool clash = false;
	size_t i;

	if (stat(output, &ost) != 0 || !S_ISREG(ost.st_mode))
		return false;	/* nothing there yet, or a device such as /dev/null */
	oreal = realpath(output, NULL);
	for (i = 0; i < in->n && !clash; i++) {
		if (stat(in->v[i], &st) != 0)
			continue;
		if (st.st_dev == ost.st_dev && st.st_ino == ost.st_ino) {
			clash = true;
		} else if (S_ISDIR(st.st_mode) && oreal) {
			dreal = realpath(in->v[i], NULL);
			clash = dreal && contains(dreal, oreal) && looks_like_input(output);
			free(dreal);
		}
	}
	free(oreal);
	return clash;
}

int ep_output_open(struct ep_global *g, const struct ep_paths *in)
{
	if (!g->output || strcmp(g->output, "-") == 0) {
		g->out = stdout;
		return 0;
	}
	if (output_is_input(g->output, in))
		return ep_usage_error(g->cmd, "-o %s would overwrite an input; elfplt never "
				      "writes to its inputs", g->output);
	g->out = fopen(g->output, "w");
	if (!g->out) {
		fprintf(stderr, "elfplt: cannot write %s: %s\n", g->output, strerror(errno));
		return EP_EXIT_FAILED;
	}
	return 0;
}

int ep_output_close(struct ep_global *g)
{
	const char *name = g->out == stdout ? "standard output" : g->output;
	int bad;

	if (!g->out)
		return 0;
	bad = fflush(g->out) != 0 || ferror(g->out);
	if (g->out != stdout)
		bad |= fclose(g->out) != 0;
	g->out = NULL;
	if (bad) {
		fprintf(stderr, "elfplt: error writing %s: %s\n", name, strerror(errno));
		return EP_EXIT_FAILED;
	}
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

/*
 * The walk lists every regular file without opening it (lib/input.h): one it
 * found that is not ELF, by its magic bytes after any decompression, or that
 * is gone is passed over quietly, as a tree holds other files too.  One with
 * the ELF magic is an ELF file, and its faults are reported; so is one we may
 * not read (EACCES, EPERM): it could be a module, not to vanish unseen.
 */
static bool pass_over(bool walked, const char *path, const struct ep_blob *blob,
		      const struct ep_error *err)
{
	if (!walked)
		return false;
	if (err->code == EP_EIO)
		return access(path, R_OK) != 0 && errno != EACCES && errno != EPERM;
	if (err->code != EP_ENOTELF)
		return false;
	return !blob || blob->size < SELFMAG || memcmp(blob->bytes, ELFMAG, SELFMAG) != 0;
}

int ep_for_each_image(const char *const *paths, size_t n, bool populate, ep_image_fn fn,
		      ep_error_fn on_error, void *ctx)
{
	struct ep_pathlist pl = { 0 };
	struct ep_error err = { 0 };
	int status = EP_EXIT_OK;
	size_t i;

	if (ep_pathlist_expand(&pl, paths, n, &err)) {
		fprintf(stderr, "elfplt: %s\n", err.message);
		ep_pathlist_free(&pl);
		return EP_EXIT_FAILED;
	}
	for (i = 0; i < pl.count; i++) {
		const char *shown = pl.paths[i];
		char *clean = NULL;
		struct ep_blob blob;
		struct ep_image img;
		bool quiet;
		int rc;

		/* Reports name the file in clean text; the file is opened as named. */
		if (!ep_text_is_clean(shown, strlen(shown))) {
			clean = strdup(shown);
			if (clean) {
				ep_text_clean(clean);
				shown = clean;
			}
		}
		rc = ep_blob_open(&blob, pl.paths[i], populate, &err);
		if (rc) {
			quiet = pass_over(pl.walked[i], pl.paths[i], NULL, &err);
		} else {
			rc = ep_image_open(&img, shown, blob.bytes, blob.size, &err);
			if (rc == 0) {
				rc = fn(&img, &blob, ctx, &err);
				ep_image_close(&img);
				quiet = false;
			} else {
				quiet = pass_over(pl.walked[i], pl.paths[i], &blob, &err);
			}
			ep_blob_close(&blob);
		}
		if (rc && !quiet) {
			fprintf(stderr, "elfplt: %s\n", err.message);
			on_error(shown, &err, ctx);
			status = EP_EXIT_FAILED;
		}
		free(clean);
	}
	ep_pathlist_free(&pl);
	return status;
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
		return ep_usage_error(cmd,
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
