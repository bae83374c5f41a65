/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/error.h"
#include "lib/top.h"

static int cmp_top(const struct ep_top_entry *x, const struct ep_top_entry *y)
{
	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	return strcmp(x->path, y->path);
}

int ep_top_add(struct ep_top *t, const char *path, uint64_t key, const uint64_t *extra)
{
	struct ep_top_entry e = { (char *)path, key, { 0 } }, *v;
	size_t lo = 0, hi = t->n, mid;
	char *copy;

	if (t->n == t->max && (!t->max || cmp_top(&e, &t->v[t->n - 1]) >= 0))
		return 0; /* no --top, or not above the last one kept */
	while (lo < hi) { /* lo: the first entry that sorts after e */
		mid = lo + (hi - lo) / 2;
		if (cmp_top(&t->v[mid], &e) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	copy = strdup(path);
	if (!copy)
		return -EP_ENOMEM;
	if (t->n == t->max) {
		free(t->v[--t->n].path);
	} else if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;

		if (cap > t->max)
			cap = t->max;
		v = realloc(t->v, cap * sizeof(*v));
		if (!v) {
			free(copy);
			return -EP_ENOMEM;
		}
		t->v = v;
		t->cap = cap;
	}
	v = t->v;
	memmove(&v[lo + 1], &v[lo], (t->n - lo) * sizeof(*v));
	e.path = copy;
	if (extra)
		memcpy(e.extra, extra, sizeof(e.extra));
	v[lo] = e;
	t->n++;
	return 0;
}

void ep_top_free(struct ep_top *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->v[i].path);
	free(t->v);
	t->v = NULL;
	t->n = t->cap = 0;
}

int ep_top_parse(const char *arg, size_t *n)
{
	unsigned long v;
	char *end;

	if (!*arg || arg[0] == '-')
		return -1;
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (*end || v == 0 || errno)
		return -1;
	*n = (size_t)v;
	return 0;
}
