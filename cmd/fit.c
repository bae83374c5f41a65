/* SPDX-License-Identifier: MIT */
/*
 * Text that fits: the width the report is fitted to, and the stream that
 * folds its lines.  Tables fit themselves (ep_table_print()); every other
 * line longer than the width is folded here, at spaces, its continuation
 * lines indented four columns more than the line, and a word longer than
 * the room left (a long path) is abbreviated in its middle with '~'.
 * --wide turns all of it off.
 */
#define _GNU_SOURCE
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cmd/fit.h"
#include "lib/report.h"

/* A terminal narrower than this is taken as this wide: a table needs room. */
#define FIT_MIN_WIDTH 40

size_t ep_fit_width(bool wide, int fd)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	char *end;
	unsigned long w = 0;

	if (wide)
		return 0;
	if (!isatty(fd))
		return EP_FIT_PIPE_WIDTH;
	if (env && *env) {
		w = strtoul(env, &end, 10);
		if (*end)
			w = 0;
	}
	if (w == 0 && ioctl(fd, TIOCGWINSZ, &ws) == 0)
		w = ws.ws_col;
	if (w == 0)
		return EP_FIT_PIPE_WIDTH;
	return w < FIT_MIN_WIDTH ? FIT_MIN_WIDTH : w;
}

struct fit {
	FILE *real;
	size_t width;
	char *line; /* the part of a line written so far */
	size_t len, cap;
};

/* Columns of s: UTF-8 characters, each taken as one column. */
static size_t columns(const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

static void spaces(FILE *out, size_t n)
{
	while (n--)
		fputc(' ', out);
}

/* Write line s (len bytes, no newline) folded to f->width, then a newline. */
static void fold_line(struct fit *f, const char *s, size_t len)
{
	size_t lead = 0, indent, col, start, pos;

	if (columns(s, len) <= f->width) {
		fwrite(s, 1, len, f->real);
		fputc('\n', f->real);
		return;
	}
	while (lead < len && s[lead] == ' ')
		lead++;
	indent = lead + 4 < f->width / 2 ? lead + 4 : f->width / 2;
	spaces(f->real, lead);
	col = start = lead;
	for (pos = lead; pos < len;) {
		size_t end = pos, wcols;

		while (end < len && s[end] != ' ')
			end++;
		wcols = columns(s + pos, end - pos);
		if (col > start && col + 1 + wcols > f->width) {
			fputc('\n', f->real);
			spaces(f->real, indent);
			col = start = indent;
		}
		if (col > start) {
			fputc(' ', f->real);
			col++;
		}
		if (col + wcols > f->width && f->width - col >= 3) {
			char *buf = malloc(f->width - col + 1);

			if (buf) {
				size_t n = ep_text_abbrev(s + pos, end - pos, f->width - col, buf);

				fwrite(buf, 1, n, f->real);
				wcols = columns(buf, n);
				free(buf);
			}
		} else {
			fwrite(s + pos, 1, end - pos, f->real);
		}
		col += wcols;
		for (pos = end; pos < len && s[pos] == ' ';)
			pos++;
	}
	fputc('\n', f->real);
}

static ssize_t fit_write(void *cookie, const char *buf, size_t size)
{
	struct fit *f = cookie;
	size_t i = 0;

	while (i < size) {
		const char *nl = memchr(buf + i, '\n', size - i);
		size_t n = nl ? (size_t)(nl - (buf + i)) : size - i;

		if (!f->len && nl && n <= f->width) {
			/*
			 * Whole lines of no more bytes than the width (so no
			 * more columns) are written as they are, as fold_line()
			 * would write them, together: most lines are.
			 */
			size_t start = i;

			do {
				i += n + 1;
				nl = i < size ? memchr(buf + i, '\n', size - i) : NULL;
				n = nl ? (size_t)(nl - (buf + i)) : size - i;
			} while (nl && n <= f->width);
			fwrite(buf + start, 1, i - start, f->real);
			continue;
		}
		if (f->len + n > f->cap) {
			size_t cap = f->cap ? f->cap : 256;
			char *p;

			while (cap < f->len + n)
				cap *= 2;
			p = realloc(f->line, cap);
			if (!p)
				return -1;
			f->line = p;
			f->cap = cap;
		}
		memcpy(f->line + f->len, buf + i, n);
		f->len += n;
		i += n;
		if (nl) {
			fold_line(f, f->line, f->len);
			f->len = 0;
			i++;
		}
	}
	return (ssize_t)size;
}

/*
 * The folding stream's state, while it is open: a worker process forked
 * while it is open exits without closing it (its report goes through the
 * parent), and a reference kept here keeps that from looking like a leak.
 */
static struct fit *fit_open_now;

static int fit_close(void *cookie)
{
	struct fit *f = cookie;

	if (f->len) /* a last line without its newline stays without one */
		fwrite(f->line, 1, f->len, f->real);
	free(f->line);
	if (fit_open_now == f)
		fit_open_now = NULL;
	free(f);
	return 0;
}

FILE *ep_fit_open(FILE *real, size_t width)
{
	cookie_io_functions_t io = { .write = fit_write, .close = fit_close };
	struct fit *f = calloc(1, sizeof(*f));
	FILE *out;

	if (!f)
		return NULL;
	f->real = real;
	f->width = width;
	out = fopencookie(f, "w", io);
	if (!out)
		free(f);
	else
		fit_open_now = f;
	return out;
}
