/* SPDX-License-Identifier: MIT */
/*
 * OpenMetrics text for CI dashboards: GitLab reads a merge request's metrics
 * report in this format and shows each metric beside the target branch's.
 * A family's samples must be contiguous (OpenMetrics 1.0, "MetricFamily"),
 * so samples are collected first and written family by family.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/error.h"
#include "lib/openmetrics.h"

struct ep_om_sample {
	char *name;
	char *labels; /* {k="v",...} with the values escaped, or "" */
	double value;
};

/* Metric and label names: [a-zA-Z_][a-zA-Z0-9_]*; anything else becomes '_'. */
static void sanitize(char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			*s = '_';
}

/* Label values escape backslash, double quote and newline (OpenMetrics "Escaping"). */
static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		if (*s == '\n') {
			fputs("\\n", f);
			continue;
		}
		fputc(*s, f);
	}
}

static char *labels_text(const char *const *labels, size_t nlabels)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f;

	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	if (nlabels)
		fputc('{', f);
	for (i = 0; i < nlabels; i++) {
		char *key = strdup(labels[2 * i]);

		if (!key)
			break;
		sanitize(key);
		fprintf(f, "%s%s=\"", i ? "," : "", key);
		free(key);
		put_escaped(f, labels[2 * i + 1]);
		fputc('"', f);
	}
	if (nlabels)
		fputc('}', f);
	if (fclose(f) != 0 || i < nlabels) {
		free(buf);
		return NULL;
	}
	return buf;
}

int ep_om_add(struct ep_om *om, const char *name, const char *const *labels, size_t nlabels,
	      double value)
{
	struct ep_om_sample s = { strdup(name), labels_text(labels, nlabels), value };
	size_t nlen, klen;
	char *key = NULL;

	if (!s.name || !s.labels)
		goto nomem;
	sanitize(s.name);
	/* The first sample of a name and labels stands; a hash, not a scan. */
	nlen = strlen(s.name);
	klen = nlen + 1 + strlen(s.labels);
	key = malloc(klen + 1);
	if (!key || (!om->index && !(om->index = json_object())))
		goto nomem;
	memcpy(key, s.name, nlen + 1);
	memcpy(key + nlen + 1, s.labels, klen - nlen);
	if (json_object_getn(om->index, key, klen)) {
		free(key);
		free(s.name);
		free(s.labels);
		return 0;
	}
	if (json_object_setn_new_nocheck(om->index, key, klen, json_integer((json_int_t)om->n)))
		goto nomem;
	free(key);
	key = NULL;
	if (om->n == om->cap) {
		size_t cap = om->cap ? 2 * om->cap : 64;
		struct ep_om_sample *v = realloc(om->v, cap * sizeof(*v));

		if (!v)
			goto nomem;
		om->v = v;
		om->cap = cap;
	}
	om->v[om->n++] = s;
	return 0;
nomem:
	free(key);
	free(s.name);
	free(s.labels);
	om->nomem = 1;
	return -EP_ENOMEM;
}

/* {"name": "...", "value": N}: an enumeration, which labels rather than counts. */
static const char *enum_name(const json_t *v)
{
	const json_t *name = json_object_get(v, "name");

	if (!json_is_object(v) || !json_is_string(name) ||
	    !json_is_integer(json_object_get(v, "value")))
		return NULL;
	return json_string_value(name);
}

#define MAX_LABELS 8

/* Labels of one array element: its string members and enumerations. */
static size_t element_labels(const json_t *e, const char **labels, size_t n)
{
	const char *key;
	json_t *m;

	json_object_foreach((json_t *)e, key, m)
	{
		const char *val = json_is_string(m) ? json_string_value(m) : enum_name(m);

		if (!val || n >= MAX_LABELS)
			continue;
		/* The same key from an enclosing array: the inner one wins. */
		labels[2 * n] = key;
		labels[2 * n + 1] = val;
		n++;
	}
	return n;
}

static int add_json(struct ep_om *om, const char *name, const json_t *v, const char **labels,
		    size_t nlabels);

/*
 * The members of object o under name; labelling members (strings,
 * enumerations) are left out, and so is "value" when o is itself an
 * enumeration with counts beside it ({"name", "value", "count"}).
 */
static int add_members(struct ep_om *om, const char *name, const json_t *o, const char **labels,
		       size_t nlabels)
{
	const bool is_enum = enum_name(o) != NULL;
	const char *key;
	json_t *m;
	int rc = 0;

	json_object_foreach((json_t *)o, key, m)
	{
		char *sub;

		if (json_is_string(m) || enum_name(m) || (is_enum && strcmp(key, "value") == 0))
			continue;
		if (asprintf(&sub, "%s_%s", name, key) < 0) {
			om->nomem = 1;
			return -EP_ENOMEM;
		}
		rc = add_json(om, sub, m, labels, nlabels);
		free(sub);
		if (rc)
			break;
	}
	return rc;
}

static int add_json(struct ep_om *om, const char *name, const json_t *v, const char **labels,
		    size_t nlabels)
{
	size_t i;
	int rc = 0;

	if (json_is_integer(v))
		return ep_om_add(om, name, labels, nlabels, (double)json_integer_value(v));
	if (json_is_real(v))
		return ep_om_add(om, name, labels, nlabels, json_real_value(v));
	if (json_is_array(v)) {
		for (i = 0; i < json_array_size(v) && !rc; i++) {
			const json_t *e = json_array_get(v, i);
			const char *inner[2 * MAX_LABELS];
			size_t n;

			if (!json_is_object(e))
				continue;
			memcpy(inner, labels, 2 * nlabels * sizeof(*inner));
			n = element_labels(e, inner, nlabels);
			rc = add_members(om, name, e, inner, n);
		}
		return rc;
	}
	if (!json_is_object(v) || enum_name(v))
		return 0;
	return add_members(om, name, v, labels, nlabels);
}

int ep_om_add_json(struct ep_om *om, const char *prefix, const json_t *v)
{
	const char *labels[2 * MAX_LABELS];

	return add_json(om, prefix, v, labels, 0);
}

/* A sample's place: its family's first sample, then its own. */
struct om_order {
	size_t family, i;
};

static int order_cmp(const void *a, const void *b)
{
	const struct om_order *x = a, *y = b;

	if (x->family != y->family)
		return x->family < y->family ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

int ep_om_write(const struct ep_om *om, FILE *out)
{
	struct om_order *ord = calloc(om->n ? om->n : 1, sizeof(*ord));
	json_t *first = json_object(); /* family name -> its first sample */
	bool nomem = false;
	size_t i;

	if (!ord || !first) {
		free(ord);
		json_decref(first);
		return -EP_ENOMEM;
	}
	/* Families in the order of their first samples, each sample once: n log n. */
	for (i = 0; i < om->n; i++) {
		const json_t *f = json_object_get(first, om->v[i].name);

		if (!f && json_object_set_new(first, om->v[i].name, json_integer((json_int_t)i)))
			nomem = true;
		ord[i].family = f ? (size_t)json_integer_value(f) : i;
		ord[i].i = i;
	}
	qsort(ord, om->n, sizeof(*ord), order_cmp);
	for (i = 0; i < om->n; i++) {
		const struct ep_om_sample *s = &om->v[ord[i].i];

		if (ord[i].family == ord[i].i)
			fprintf(out, "# TYPE %s gauge\n", s->name);
		fprintf(out, "%s%s %.17g\n", s->name, s->labels, s->value);
	}
	fputs("# EOF\n", out);
	free(ord);
	json_decref(first);
	if (om->nomem || nomem)
		return -EP_ENOMEM;
	return ferror(out) ? -EP_EIO : 0;
}

int ep_openmetrics_totals(FILE *out, const char *prefix, json_t *totals)
{
	struct ep_om om = { 0 };
	int rc;

	if (!totals)
		return -EP_ENOMEM;
	rc = ep_om_add_json(&om, prefix, totals);
	if (!rc)
		rc = ep_om_write(&om, out);
	ep_om_free(&om);
	json_decref(totals);
	return rc;
}

void ep_om_free(struct ep_om *om)
{
	size_t i;

	for (i = 0; i < om->n; i++) {
		free(om->v[i].name);
		free(om->v[i].labels);
	}
	free(om->v);
	json_decref(om->index);
	memset(om, 0, sizeof(*om));
}
