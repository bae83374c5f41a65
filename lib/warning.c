/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/warning.h"

int ep_warn(struct ep_warnings *w, const char *code, const char *fmt, ...)
{
	struct ep_warning *e;
	va_list ap;

	if (!w)
		return 0;
	if (w->n == EP_WARNINGS_MAX) {
		w->dropped++;
		return 0;
	}
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 4;
		struct ep_warning *v = realloc(w->v, cap * sizeof(*v));

		if (!v) {
			w->dropped++;
			return -EP_ENOMEM;
		}
		w->v = v;
		w->cap = cap;
	}
	e = &w->v[w->n++];
	snprintf(e->code, sizeof(e->code), "%s", code);
	va_start(ap, fmt);
	vsnprintf(e->message, sizeof(e->message), fmt, ap);
	va_end(ap);
	ep_text_clean(e->message);
	return 0;
}

void ep_warnings_free(struct ep_warnings *w)
{
	free(w->v);
	memset(w, 0, sizeof(*w));
}

json_t *ep_json_warnings(const struct ep_warnings *w)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < w->n; i++)
		if (json_array_append_new(a, json_pack("{s:s, s:s}", "code", w->v[i].code,
						       "message", w->v[i].message))) {
			json_decref(a);
			return NULL;
		}
	if (a && w->dropped) {
		char msg[64];

		snprintf(msg, sizeof(msg), "%zu more warnings not listed", w->dropped);
		json_array_append_new(a, json_pack("{s:s, s:s}", "code", "warnings_dropped",
						   "message", msg));
	}
	return a;
}

char *ep_warnings_text(const char *path, const struct ep_warnings *w, size_t *len)
{
	char *text = NULL;
	size_t i;
	FILE *f;

	*len = 0;
	if (w->n == 0 && w->dropped == 0)
		return NULL;
	f = open_memstream(&text, len);
	if (!f)
		return NULL;
	for (i = 0; i < w->n; i++)
		fprintf(f, "elfplt: %s: warning: %s\n", path, w->v[i].message);
	if (w->dropped)
		fprintf(f, "elfplt: %s: warning: %zu more warnings not listed\n", path, w->dropped);
	if (fclose(f) != 0) {
		free(text);
		*len = 0;
		return NULL;
	}
	return text;
}
