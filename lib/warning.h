/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_WARNING_H
#define ELFPLT_WARNING_H

/*
 * Warnings about one file: something wrong that the rest of the report does
 * not depend on (a table two headers describe differently, a link that leads
 * nowhere).  lib/ collects them on the file's result; cmd/ prints each as
 * "elfplt: PATH: warning: MESSAGE" on stderr and lists them in the file's
 * JSON object as "warnings": [{"code": CODE, "message": MESSAGE}].
 */

#include <jansson.h>
#include <stddef.h>

#include "lib/error.h"

struct ep_warning {
	char code[32];		     /* stable JSON name: "dynamic_mismatch", ... */
	char message[EP_ERRMSG_MAX]; /* one line, clean text; does not name the file */
};

/* A file's warnings, in the order they were found; zeroed is empty. */
struct ep_warnings {
	struct ep_warning *v;
	size_t n, cap;
	size_t dropped; /* past EP_WARNINGS_MAX, counted but not kept */
};

/* Warnings kept per file: a crafted file must not make the report huge. */
#define EP_WARNINGS_MAX 64

/*
 * Add a warning with code (a short snake_case name) and a printf-style
 * message (cleaned with ep_text_clean()).  Returns 0, or -EP_ENOMEM (the
 * warning is then counted in dropped).  w may be NULL (dropped silently).
 */
int ep_warn(struct ep_warnings *w, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The JSON "warnings" array: [{"code": CODE, "message": MESSAGE}, ...], and
 * one {"code": "warnings_dropped", ...} for the ones past EP_WARNINGS_MAX.
 * NULL when out of memory.
 */
json_t *ep_json_warnings(const struct ep_warnings *w);

/*
 * The stderr lines, "elfplt: PATH: warning: MESSAGE\n" each, as one new
 * string (free() it) of *len bytes; NULL with *len 0 when there are none or
 * out of memory.  path is the path for reports.
 */
char *ep_warnings_text(const char *path, const struct ep_warnings *w, size_t *len);

/* Free the list; w is then empty and still usable. */
void ep_warnings_free(struct ep_warnings *w);

#endif
