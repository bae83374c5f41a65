/* SPDX-License-Identifier: MIT */
/*
 * Where the report goes: standard output or -o FILE, refused when it is one
 * of the inputs (opening it would truncate it), buffered for a file; and a
 * file's part of the report rendered into bytes.
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/elfplt.h"
#include "cmd/fit.h"
#include "cmd/output.h"
#include "lib/report.h"

/*
 * Read the first 8 bytes of path into head, a regular file only (a device or
 * FIFO is never opened: ep_open_regular()).  Returns how many were read, or
 * -1 when none could be.
 */
static ssize_t read_head(const char *path, unsigned char head[8])
{
	struct stat st;
	ssize_t n;
	int fd;

	fd = ep_open_regular(path, &st);
	if (fd < 0)
		return -1;
	n = read(fd, head, 8);
	close(fd);
	return n;
}

/* The first bytes of path are an ELF, compression or ar magic: a walk takes it. */
static bool looks_like_input(const char *path)
{
	unsigned char head[8];
	ssize_t n = read_head(path, head);

	if (n < SELFMAG)
		return false;
	return memcmp(head, ELFMAG, SELFMAG) == 0 ||
	       ep_compression_sniff(head, (size_t)n) != EP_COMP_NONE ||
	       (n == 8 && (memcmp(head, EP_ARMAG, 8) == 0 || memcmp(head, EP_THINMAG, 8) == 0));
}

/* path is the file ost describes, by any of its names (by inode: a hard link is the same file). */
static bool same_file(const char *path, const struct stat *ost)
{
	struct stat st;

	return stat(path, &st) == 0 && st.st_dev == ost->st_dev && st.st_ino == ost->st_ino;
}

/* The first 8 bytes of path are a thin archive's magic. */
static bool is_thin_archive(const char *path)
{
	unsigned char head[8];

	return read_head(path, head) == 8 && memcmp(head, EP_THINMAG, 8) == 0;
}

/*
 * Whether the run of pl (the inputs, expanded as the run expands them) reads
 * the file ost describes: an archive member's file (a thin archive's members
 * are files of their own, named in it: inputs as much as the archive), a
 * walked file when walked_too (the output looks like an input: a walk
 * passes over anything else), or a member of a thin archive a walk found
 * (the run lists those when it opens the archive).  When listing runs out
 * of memory, say so: better refuse an output than destroy an input.
 */
static bool list_reads(const struct ep_pathlist *pl, const struct stat *ost, bool walked_too)
{
	struct ep_pathlist sub = { 0 };
	struct ep_error err;
	const char *path;
	bool found = false;
	size_t i;

	for (i = 0; i < pl->count && !found; i++) {
		path = pl->paths[i];
		if (pl->members[i].archive) {
			found = same_file(ep_pathlist_file(pl, i), ost);
		} else if (pl->walked[i]) {
			found = walked_too && same_file(path, ost);
			if (!found && is_thin_archive(path)) {
				found = ep_pathlist_expand(&sub, &path, 1, &err) != 0 ||
					list_reads(&sub, ost, false);
				ep_pathlist_free(&sub);
			}
		}
	}
	return found;
}

/*
 * Opening the output truncates it: refuse an output that is one of the
 * inputs, a member file of a thin archive among them, or an ELF file that
 * the walk of an input directory would take.
 */
static bool output_is_input(const char *output, const struct ep_paths *in)
{
	struct ep_pathlist pl = { 0 };
	struct ep_error err;
	struct stat ost;
	bool clash = false;
	size_t i;

	if (stat(output, &ost) != 0 || !S_ISREG(ost.st_mode))
		return false; /* nothing there yet, or a device such as /dev/null */
	for (i = 0; i < in->n && !clash; i++)
		clash = same_file(in->v[i], &ost);
	if (!clash) {
		clash = ep_pathlist_expand(&pl, in->v, in->n, &err) != 0 ||
			list_reads(&pl, &ost, looks_like_input(output));
		ep_pathlist_free(&pl);
	}
	return clash;
}

/* stdio's buffer for the report when it does not go to a terminal. */
static char out_buffer[1 << 18];

/*
 * stdio's 4 KiB buffer made a write(2) per 4 KiB: 10,000 of them for the
 * module tree's JSON.  A terminal keeps its line buffering.  glibc takes
 * the size only with a buffer, which must outlive the stream.
 */
static void set_out_buffer(FILE *out)
{
	if (!isatty(fileno(out)))
		setvbuf(out, out_buffer, _IOFBF, sizeof(out_buffer));
}

/* The report's file, when it is a regular file: a walk passes over it. */
static struct {
	bool set;
	uint64_t dev, ino;
} report_file;

/*
 * Note which file the report goes to (-o FILE, or standard output sent to a
 * file), so that a walk that meets it leaves it out: the report must not
 * count itself (as a skipped file) depending on where it is written.
 */
static void note_report_file(FILE *out)
{
	struct stat st;

	report_file.set = fstat(fileno(out), &st) == 0 && S_ISREG(st.st_mode);
	report_file.dev = st.st_dev;
	report_file.ino = st.st_ino;
}

bool ep_output_is_report(uint64_t dev, uint64_t ino)
{
	return report_file.set && dev == report_file.dev && ino == report_file.ino;
}

/* The stream under the folding one (cmd/fit.c), when text is fitted; else NULL. */
static FILE *out_real;

/*
 * Text goes through a stream that folds it to the width (cmd/fit.c), and
 * tables are fitted to the same width (ep_text_width_set()).
 */
static int fit_text(struct ep_global *g)
{
	size_t width;
	FILE *fit;

	if (g->format != EP_FORMAT_TEXT)
		return 0;
	width = ep_fit_width(g->wide, fileno(g->out));
	ep_text_width_set(width);
	if (!width)
		return 0;
	fit = ep_fit_open(g->out, width);
	if (!fit) {
		fprintf(stderr, "elfplt: out of memory\n");
		return EP_EXIT_FAILED;
	}
	if (isatty(fileno(g->out)))
		setvbuf(fit, NULL, _IOLBF, 0);
	out_real = g->out;
	g->out = fit;
	return 0;
}

bool ep_output_isatty(const struct ep_global *g)
{
	FILE *out = out_real ? out_real : g->out;

	return out && isatty(fileno(out));
}

int ep_output_open(struct ep_global *g, const struct ep_paths *in)
{
	if (!g->output || strcmp(g->output, "-") == 0) {
		g->out = stdout;
		set_out_buffer(g->out);
		note_report_file(g->out);
		return fit_text(g);
	}
	if (output_is_input(g->output, in))
		return ep_usage_error(g->cmd,
				      "-o %s would overwrite an input; elfplt never "
				      "writes to its inputs",
				      g->output);
	g->out = fopen(g->output, "w");
	if (!g->out) {
		fprintf(stderr, "elfplt: cannot write %s: %s\n", g->output, strerror(errno));
		return EP_EXIT_FAILED;
	}
	set_out_buffer(g->out);
	note_report_file(g->out);
	return fit_text(g);
}

int ep_output_close(struct ep_global *g)
{
	/* Named by the real stream: g->out may still be the folding one (fit_text()). */
	FILE *real = out_real ? out_real : g->out;
	const char *name = real == stdout ? "standard output" : g->output;
	int bad;

	if (!g->out)
		return 0;
	if (out_real) {
		bad = fclose(g->out) != 0; /* the folding stream: its last bytes */
		g->out = out_real;
		out_real = NULL;
		if (bad)
			fprintf(stderr, "elfplt: error writing %s: %s\n", name, strerror(errno));
	}
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

int ep_render_text(void (*print)(FILE *f, const void *arg), const void *arg, char **out,
		   size_t *out_len)
{
	FILE *f;

	*out = NULL;
	*out_len = 0;
	f = open_memstream(out, out_len);
	if (!f)
		return -EP_ENOMEM;
	print(f, arg);
	if (fclose(f) != 0) {
		free(*out);
		*out = NULL;
		*out_len = 0;
		return -EP_ENOMEM;
	}
	return 0;
}

int ep_render_json(json_t *o, char **out, size_t *out_len)
{
	*out = NULL;
	*out_len = 0;
	if (o)
		*out = ep_json_dump_at(o, 2, out_len);
	json_decref(o);
	if (!*out) {
		*out_len = 0;
		return -EP_ENOMEM;
	}
	return 0;
}
