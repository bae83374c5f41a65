/* SPDX-License-Identifier: MIT */
/*
 * elfplt diff: metrics out of elfplt-stats and elfplt-plt documents, files
 * paired across two sides, deltas and gates.  Saved reports and runs made
 * for the diff go through the same documents, so both give the same answer.
 */
#include "config.h"

#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diff.h"

/* Shown when no --metric is given: one line per thing a reviewer weighs. */
static const char *const default_metrics[] = {
	"relocations",	  "relr.savings_bytes", "size.text",	  "size.data",	   "size.bss",
	"slots.reserved", "slots.minimum",	"bytes.reserved", "bytes.minimum",
};

/* Metric names: exact ones, and families ending in '.', with the report they need. */
static const struct {
	const char *name;
	bool family;
	bool plt; /* from elfplt-plt, else elfplt-stats */
} known[] = {
	{ "relocations", false, false },	 { "relocations.type.", true, false },
	{ "relocations.section.", true, false }, { "dynamic.", true, false },
	{ "relr.savings_bytes", false, false },	 { "size.text", false, false },
	{ "size.data", false, false },		 { "size.bss", false, false },
	{ "slots.reserved", false, true },	 { "slots.minimum", false, true },
	{ "bytes.reserved", false, true },	 { "bytes.minimum", false, true },
	{ "slots.reserved.", true, true },	 { "slots.minimum.", true, true },
	{ "bytes.reserved.", true, true },	 { "bytes.minimum.", true, true },
};

#define NKNOWN (sizeof(known) / sizeof(known[0]))

/* The known[] entry metric belongs to, or -1. */
static int metric_kind(const char *metric)
{
	size_t i;

	for (i = 0; i < NKNOWN; i++) {
		size_t n = strlen(known[i].name);

		if (known[i].family ? strncmp(metric, known[i].name, n) == 0 && metric[n]
				    : strcmp(metric, known[i].name) == 0)
			return (int)i;
	}
	return -1;
}

/* A label: a string, or an enumeration's "name" ({"name", "value"}). */
static const char *label_of(const json_t *v)
{
	if (json_is_object(v))
		v = json_object_get(v, "name");
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/*
 * A file's figure beyond +-2^53 (JSON's exact integers) is no count a real
 * file has: a report holding one is refused, so every sum below fits.
 */
#define FIGURE_MAX (INT64_C(1) << 53)
/* Totals stay within +-2^62, so a delta of two of them fits an int64_t. */
#define TOTAL_MAX (INT64_C(1) << 62)

/* Set by add() when a figure is out of range; ep_diff_side_add() checks it. */
static bool figure_out_of_range;

/* m[name] += v */
static int add(json_t *m, const char *name, int64_t v)
{
	json_t *cur = json_object_get(m, name);
	int64_t sum;

	if (v > FIGURE_MAX || v < -FIGURE_MAX) {
		figure_out_of_range = true;
		v = 0;
	}
	if (cur) {
		sum = json_integer_value(cur) + v; /* both within +-2^53 */
		if (sum > FIGURE_MAX || sum < -FIGURE_MAX) {
			figure_out_of_range = true;
			sum = 0;
		}
		return json_integer_set(cur, sum);
	}
	return json_object_set_new(m, name, json_integer(v));
}

/* *acc += v within +-TOTAL_MAX; false when the sum leaves that range. */
static bool total_add(int64_t *acc, int64_t v)
{
	int64_t sum;

	if (__builtin_add_overflow(*acc, v, &sum) || sum > TOTAL_MAX || sum < -TOTAL_MAX)
		return false;
	*acc = sum;
	return true;
}

static int addf(json_t *m, int64_t v, const char *fmt, const char *a)
{
	char name[256];

	snprintf(name, sizeof(name), fmt, a);
	return add(m, name, v);
}

static bool int_at(const json_t *o, const char *key, int64_t *v)
{
	const json_t *j = json_object_get(o, key);

	if (!json_is_integer(j))
		return false;
	*v = json_integer_value(j);
	return true;
}

/* An elfplt-stats files[] entry's metrics into m. */
static int stats_metrics(json_t *m, const json_t *f)
{
	const json_t *rel = json_object_get(f, "relocations");
	const json_t *dyn = json_object_get(f, "dynamic");
	const json_t *sizes = json_object_get(f, "sizes");
	static const char *const size_keys[] = { "text", "data", "bss" };
	const char *key;
	json_t *e;
	size_t i;
	int64_t v;
	int rc = 0;

	if (int_at(rel, "total", &v))
		rc |= add(m, "relocations", v);
	json_array_foreach(json_object_get(rel, "by_type"), i, e)
	{
		const char *name = label_of(e);
		char unknown[32];
		int64_t value = 0;

		if (!int_at(e, "count", &v))
			continue;
		if (!name) {
			int_at(e, "value", &value);
			snprintf(unknown, sizeof(unknown), "unknown-%" PRId64, value);
			name = unknown;
		}
		rc |= addf(m, v, "relocations.type.%s", name);
	}
	json_array_foreach(json_object_get(rel, "sections"), i, e)
	{
		const char *kind = label_of(json_object_get(e, "kind"));

		/* elfplt-stats/2's {"name": "SHT_RELA"} is /1's "RELA": one metric name. */
		if (kind && strncmp(kind, "SHT_", 4) == 0)
			kind += 4;
		if (kind && int_at(e, "relocations", &v))
			rc |= addf(m, v, "relocations.section.%s", kind);
	}
	json_object_foreach((json_t *)dyn, key, e)
	{
		if (json_is_integer(e))
			rc |= addf(m, json_integer_value(e), "dynamic.%s", key);
	}
	if (int_at(json_object_get(dyn, "relr"), "savings_bytes", &v))
		rc |= add(m, "relr.savings_bytes", v);
	for (i = 0; i < 3; i++)
		if (int_at(sizes, size_keys[i], &v))
			rc |= addf(m, v, "size.%s", size_keys[i]);
	return rc ? -EP_ENOMEM : 0;
}

/* An elfplt-plt files[] entry's metrics into m: the same keys for every model. */
static int plt_metrics(json_t *m, const json_t *f)
{
	static const char *const what[] = { "slots", "bytes" };
	static const char *const how[] = { "reserved", "minimum" };
	static const char *const per[] = { "by_kind", "by_section" };
	char name[256];
	size_t w, h, i;
	json_t *e;
	int64_t v;
	int rc = 0;

	for (w = 0; w < 2; w++) {
		const json_t *o = json_object_get(f, what[w]);

		/* null: no model covers the file; nothing is reserved for it. */
		for (h = 0; h < 2; h++) {
			snprintf(name, sizeof(name), "%s.%s", what[w], how[h]);
			rc |= add(m, name, int_at(o, how[h], &v) ? v : 0);
			json_array_foreach(json_object_get(o, per[w]), i, e)
			{
				const char *kind = label_of(json_object_get(e, "kind"));

				if (!kind || !int_at(e, how[h], &v))
					continue;
				snprintf(name, sizeof(name), "%s.%s.%s", what[w], how[h], kind);
				rc |= add(m, name, v);
			}
		}
	}
	return rc ? -EP_ENOMEM : 0;
}

int ep_diff_side_add(struct ep_diff_side *s, const json_t *doc, struct ep_error *err)
{
	const char *schema = json_string_value(json_object_get(doc, "schema"));
	bool plt;
	json_t *f;
	size_t i;

	if (schema && strncmp(schema, "elfplt-stats/", 13) == 0)
		plt = false;
	else if (schema && strncmp(schema, "elfplt-plt/", 11) == 0)
		plt = true;
	else
		return ep_error_set(err, EP_EMALFORMED,
				    "%s: not an elfplt stats or plt report (schema %s)", s->name,
				    schema ? schema : "missing");
	if (!json_is_array(json_object_get(doc, "files")))
		return ep_error_set(err, EP_EMALFORMED, "%s: %s report without a files array",
				    s->name, schema);
	if (!s->files)
		s->files = json_object();
	if (!s->reports)
		s->reports = json_array();
	if (!s->files || !s->reports || json_array_append_new(s->reports, json_string(schema)))
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", s->name);
	if (plt)
		s->has_plt = true;
	else
		s->has_stats = true;
	json_array_foreach(json_object_get(doc, "files"), i, f)
	{
		const char *path = json_string_value(json_object_get(f, "path"));
		json_t *entry, *m;

		if (!path)
			return ep_error_set(err, EP_EMALFORMED, "%s: files[%zu] has no path",
					    s->name, i);
		entry = json_object_get(s->files, path);
		if (json_object_get(f, "error")) {
			/* Paired like any file, so it shows as failed, not as removed
			 * or added; counted once though stats and plt both report it. */
			if (entry && json_is_true(json_object_get(entry, "failed")))
				continue;
			if (!entry) {
				entry = json_pack("{s:s, s:o, s:o?, s:o?}", "path", path, "m",
						  json_object(), "archive",
						  json_incref(json_object_get(f, "archive")), "member",
						  json_incref(json_object_get(f, "member")));
				if (!entry || json_object_set_new(s->files, path, entry))
					return ep_error_set(err, EP_ENOMEM, "%s: out of memory",
							    s->name);
			}
			json_object_set_new(entry, "failed", json_true());
			json_object_clear(json_object_get(entry, "m"));
			s->failed++;
			continue;
		}
		if (entry && json_is_true(json_object_get(entry, "failed")))
			continue; /* the other report of the same file failed */
		if (!entry) {
			entry = json_pack("{s:s, s:o, s:o?, s:o?}", "path", path, "m", json_object(),
					  "archive", json_incref(json_object_get(f, "archive")),
					  "member", json_incref(json_object_get(f, "member")));
			if (!entry || json_object_set_new(s->files, path, entry))
				return ep_error_set(err, EP_ENOMEM, "%s: out of memory", s->name);
		}
		m = json_object_get(entry, "m");
		figure_out_of_range = false;
		if ((plt ? plt_metrics(m, f) : stats_metrics(m, f)))
			return ep_error_set(err, EP_ENOMEM, "%s: out of memory", s->name);
		if (figure_out_of_range)
			return ep_error_set(err, EP_EMALFORMED,
					    "%s: files[%zu] (%s): a figure beyond 2^53, which no "
					    "file has",
					    s->name, i, path);
	}
	return 0;
}

void ep_diff_side_free(struct ep_diff_side *s)
{
	json_decref(s->files);
	json_decref(s->reports);
	s->files = s->reports = NULL;
}

/* ---- gates ------------------------------------------------------------------- */

int ep_diff_gate_parse(const char *arg, struct ep_diff_gate *gate, struct ep_error *err)
{
	const char *eq = strchr(arg, '='), *p;
	int64_t whole = 0, frac = 0;
	int digits = 0, fdigits = 0;

	memset(gate, 0, sizeof(*gate));
	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(gate->metric))
		return ep_error_set(err, EP_EMALFORMED,
				    "--fail-above takes METRIC=+N or METRIC=+N%%, not '%s'", arg);
	memcpy(gate->metric, arg, (size_t)(eq - arg));
	if (metric_kind(gate->metric) < 0)
		return ep_error_set(err, EP_EMALFORMED,
				    "--fail-above: '%s' is not a metric (relocations, "
				    "relocations.type.NAME, size.text, slots.reserved, ...)",
				    gate->metric);
	p = eq + 1;
	snprintf(gate->text, sizeof(gate->text), "%s%s", *p == '+' ? "" : "+", p);
	if (*p == '+')
		p++;
	for (; *p >= '0' && *p <= '9'; p++, digits++)
		if (digits < 15)
			whole = whole * 10 + (*p - '0');
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (fdigits < 3) {
				frac = frac * 10 + (*p - '0');
				fdigits++;
			} else if (*p != '0') {
				digits = -1; /* more precision than is kept */
			}
		}
	}
	while (fdigits < 3) {
		frac *= 10;
		fdigits++;
	}
	if (*p == '%') {
		gate->percent = true;
		p++;
	}
	if (digits <= 0 || digits > 15 || *p)
		return ep_error_set(err, EP_EMALFORMED,
				    "--fail-above %s: the limit is +N or +N%% (N a number with at "
				    "most 3 decimals), not '%s'",
				    gate->metric, eq + 1);
	gate->n_milli = whole * 1000 + frac;
	return 0;
}

bool ep_diff_gate_passes(const struct ep_diff_gate *gate, int64_t before, int64_t after,
			 int64_t *limit)
{
	/* In thousandths of a unit (or, for a percentage, of a hundredth of before). */
	__int128 allowed = gate->percent ? (__int128)before * gate->n_milli / 100 : gate->n_milli;
	__int128 growth = ((__int128)after - before) * 1000;
	__int128 lim;

	if (gate->percent && before < 0)
		allowed = 0;
	/* floor(before + allowed / 1000): the largest integer value that passes */
	lim = (__int128)before + (allowed >= 0 ? allowed / 1000 : -((-allowed + 999) / 1000));
	if (limit)
		*limit = lim > INT64_MAX ? INT64_MAX : (int64_t)lim;
	if (gate->percent)
		return growth * 100 <= (__int128)before * gate->n_milli || after <= before;
	return growth <= allowed;
}

/* ---- pairing ----------------------------------------------------------------- */

/* Drop a .xz, .zst or .gz suffix at the end of s[0..*len). */
static void strip_compression(const char *s, size_t *len)
{
	static const char *const sfx[] = { ".xz", ".zst", ".gz" };
	size_t i, n;

	for (i = 0; i < 3; i++) {
		n = strlen(sfx[i]);
		if (*len > n && memcmp(s + *len - n, sfx[i], n) == 0) {
			*len -= n;
			return;
		}
	}
}

/*
 * The length of the prefix every path of s shares that ends with '/':
 * a saved report does not record its PATH operands, so its root is the
 * deepest directory all of its files are in.
 */
static size_t common_dir(const struct ep_diff_side *s)
{
	const char *first = NULL, *path;
	size_t n = 0, i;
	json_t *e;

	json_object_foreach(s->files, path, e)
	{
		if (!first) {
			first = path;
			n = strlen(path);
			continue;
		}
		for (i = 0; i < n && first[i] == path[i]; i++)
			;
		n = i;
	}
	while (n && first[n - 1] != '/')
		n--;
	return n;
}

/* The pairing key of entry e (its "path", "archive", "member"); malloc'd. */
static char *pair_key(const struct ep_diff_side *s, size_t prefix, const char *path,
		      const json_t *e)
{
	const char *member = json_string_value(json_object_get(e, "member"));
	size_t len, mlen = member ? strlen(member) : 0;
	const char *rel = path;
	char *key;

	if (s->root) {
		size_t r = strlen(s->root);

		while (r > 1 && s->root[r - 1] == '/')
			r--;
		if (strncmp(path, s->root, r) == 0 && path[r] == '/')
			rel = path + r + 1;
		else if (strcmp(path, s->root) == 0 || strncmp(path, s->root, r) == 0)
			rel = strrchr(s->root, '/') ? strrchr(s->root, '/') + 1 : s->root;
		/* a member of the archive named as the root: ARCHIVE(MEMBER) */
		if (strncmp(path, s->root, r) == 0 && path[r] == '(')
			rel = path +
			      (strrchr(s->root, '/') ? strrchr(s->root, '/') + 1 - s->root : 0);
	} else if (strlen(path) > prefix) {
		rel = path + prefix;
	}
	len = strlen(rel);
	/* ARCHIVE(MEMBER): the suffix is the archive's. */
	if (member && len > mlen + 2 && rel[len - 1] == ')' && rel[len - mlen - 2] == '(') {
		size_t alen = len - mlen - 2;

		strip_compression(rel, &alen);
		if (asprintf(&key, "%.*s(%s)", (int)alen, rel, member) < 0)
			return NULL;
		return key;
	}
	strip_compression(rel, &len);
	return strndup(rel, len);
}

/* key -> {"old": entry, "new": entry}, in pairs. */
static int pair_side(json_t *pairs, const struct ep_diff_side *s, const char *which,
		     const char *only_key)
{
	size_t prefix = s->root ? 0 : common_dir(s);
	const char *path;
	json_t *e;

	json_object_foreach(s->files, path, e)
	{
		char *key = only_key ? strdup(only_key) : pair_key(s, prefix, path, e);
		json_t *p;

		if (!key)
			return -EP_ENOMEM;
		p = json_object_get(pairs, key);
		/* Two files of a side with one key (a.ko and a.ko.xz): the path itself. */
		if (p && json_object_get(p, which)) {
			free(key);
			key = strdup(path);
			if (!key)
				return -EP_ENOMEM;
			p = json_object_get(pairs, key);
		}
		if (!p) {
			p = json_object();
			if (!p || json_object_set_new(pairs, key, p)) {
				free(key);
				return -EP_ENOMEM;
			}
		}
		free(key);
		if (json_object_set(p, which, e))
			return -EP_ENOMEM;
	}
	return 0;
}

/* ---- metrics ----------------------------------------------------------------- */

static bool family_ok(const struct ep_diff_side *o, const struct ep_diff_side *n, int kind)
{
	if (kind < 0)
		return false;
	return known[kind].plt ? o->has_plt && n->has_plt : o->has_stats && n->has_stats;
}

static int metric_cmp(const void *a, const void *b)
{
	const char *x = json_string_value(*(json_t *const *)a);
	const char *y = json_string_value(*(json_t *const *)b);
	int kx = metric_kind(x), ky = metric_kind(y);

	return kx != ky ? kx - ky : strcmp(x, y);
}

/* The metric names compared, in order; NULL with err set on a bad --metric. */
static json_t *select_metrics(const struct ep_diff_side *o, const struct ep_diff_side *n,
			      const struct ep_diff_options *opt, struct ep_error *err)
{
	json_t *names = json_object(), *list = json_array(), *v;
	const struct ep_diff_side *sides[2] = { o, n };
	const char *path, *name;
	json_t **sorted = NULL;
	size_t i, s, cnt;

	if (!names || !list)
		goto nomem;
	if (!opt->npatterns) {
		for (i = 0; i < sizeof(default_metrics) / sizeof(default_metrics[0]); i++)
			if (family_ok(o, n, metric_kind(default_metrics[i])))
				json_array_append_new(list, json_string(default_metrics[i]));
		json_decref(names);
		return list;
	}
	for (s = 0; s < 2; s++)
		json_object_foreach(sides[s]->files, path, v)
		{
			json_t *m;

			json_object_foreach(json_object_get(v, "m"), name,
					    m) for (i = 0; i < opt->npatterns;
						    i++) if (fnmatch(opt->patterns[i], name, 0) ==
								     0 &&
							     family_ok(o, n, metric_kind(name)))
				json_object_set_new(names, name, json_true());
		}
	for (i = 0; i < opt->npatterns; i++) {
		const char *p = opt->patterns[i];
		bool matched = false;

		json_object_foreach(names, name, v) if (fnmatch(p, name, 0) == 0) matched = true;
		if (matched)
			continue;
		/* A metric both sides have, zero throughout (size.bss of modules). */
		if (!p[strcspn(p, "*?[\\")] && family_ok(o, n, metric_kind(p))) {
			json_object_set_new(names, p, json_true());
			continue;
		}
		if (metric_kind(p) >= 0 && !family_ok(o, n, metric_kind(p)))
			ep_error_set(err, EP_EMALFORMED, "--metric %s: %s has no elfplt-%s report",
				     p,
				     (known[metric_kind(p)].plt ? !o->has_plt : !o->has_stats)
					     ? o->name
					     : n->name,
				     known[metric_kind(p)].plt ? "plt" : "stats");
		else
			ep_error_set(err, EP_EMALFORMED,
				     "--metric %s: matches no metric of either side (relocations, "
				     "relocations.type.*, size.text, slots.reserved, ...)",
				     p);
		json_decref(names);
		json_decref(list);
		return NULL;
	}
	cnt = json_object_size(names);
	sorted = calloc(cnt ? cnt : 1, sizeof(*sorted));
	if (!sorted)
		goto nomem;
	i = 0;
	json_object_foreach(names, name, v) sorted[i++] = json_string(name);
	qsort(sorted, cnt, sizeof(*sorted), metric_cmp);
	for (i = 0; i < cnt; i++)
		json_array_append_new(list, sorted[i]);
	free(sorted);
	json_decref(names);
	return list;
nomem:
	json_decref(names);
	json_decref(list);
	ep_error_set(err, EP_ENOMEM, "out of memory");
	return NULL;
}

static int64_t value_of(const json_t *entry, const char *metric)
{
	const json_t *v = json_object_get(json_object_get(entry, "m"), metric);

	return json_is_integer(v) ? json_integer_value(v) : 0;
}

/* Whether pair p ({"old", "new"}) has a side that failed: out of totals and gates. */
static bool pair_failed(const json_t *p)
{
	return json_is_true(json_object_get(json_object_get(p, "old"), "failed")) ||
	       json_is_true(json_object_get(json_object_get(p, "new"), "failed"));
}

bool ep_diff_side_has_metric(const struct ep_diff_side *s, const char *metric)
{
	const char *key;
	json_t *entry;

	json_object_foreach(s->files, key, entry)
	{
		if (json_object_get(json_object_get(entry, "m"), metric))
			return true;
	}
	return false;
}

/* {"before", "after", "delta", "percent"}; before or after null for a side without it. */
static json_t *change(bool has_before, int64_t before, bool has_after, int64_t after)
{
	int64_t delta = after - before;
	json_t *pct = before > 0 ? json_real((double)delta * 100.0 / (double)before)
				 : (delta == 0 && has_before ? json_real(0) : json_null());

	return json_pack("{s:o, s:o, s:I, s:o}", "before",
			 has_before ? json_integer(before) : json_null(), "after",
			 has_after ? json_integer(after) : json_null(), "delta", (json_int_t)delta,
			 "percent", pct);
}

/* Sort files: the first metric's |delta|, then the others', largest first; then key. */
static int file_cmp(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	const json_t *kx = json_object_get(x, "sort"), *ky = json_object_get(y, "sort");
	size_t i;

	for (i = 0; i < json_array_size(kx); i++) {
		int64_t dx = json_integer_value(json_array_get(kx, i));
		int64_t dy = json_integer_value(json_array_get(ky, i));

		if (dx != dy)
			return dx > dy ? -1 : 1;
	}
	return strcmp(json_string_value(json_object_get(x, "path")),
		      json_string_value(json_object_get(y, "path")));
}

static json_t *side_json(const struct ep_diff_side *s)
{
	return json_pack("{s:s, s:s, s:O, s:I, s:I}", "path", s->name, "source",
			 s->root ? "run" : "report", "reports",
			 s->reports ? s->reports : json_array(), "files",
			 (json_int_t)json_object_size(s->files), "files_failed",
			 (json_int_t)s->failed);
}

static json_t *gate_result(const char *path, const struct ep_diff_gate *g, int64_t before,
			   int64_t after, bool *tripped)
{
	int64_t limit;

	*tripped = !ep_diff_gate_passes(g, before, after, &limit);
	return json_pack("{s:o, s:I, s:I, s:I, s:b}", "path",
			 path ? json_string(path) : json_null(), "before", (json_int_t)before,
			 "after", (json_int_t)after, "allowed", (json_int_t)limit, "tripped",
			 *tripped);
}

json_t *ep_diff_compute(struct ep_diff_side *old, struct ep_diff_side *new,
			const struct ep_diff_options *opt, struct ep_error *err)
{
	json_t *pairs = json_object(), *metrics, *files = json_array(), *totals_m = json_object();
	json_t *gates = json_array(), *doc = NULL, *p, *name;
	/* added, removed, changed, unchanged, failed (on either side) */
	size_t nfiles, i, j, counts[5] = { 0 };
	static const char *const status_name[] = { "added", "removed", "changed", "unchanged",
						   "failed" };
	const char *key, *only = NULL;
	json_t **sorted = NULL;
	bool failed_gate = false;

	if (!old->files)
		old->files = json_object();
	if (!new->files)
		new->files = json_object();
	metrics = select_metrics(old, new, opt, err);
	if (!metrics)
		goto out;
	if (!json_array_size(metrics)) {
		ep_error_set(err, EP_EMALFORMED,
			     "%s (%s) and %s (%s) have no report in common to compare", old->name,
			     old->has_stats ? "stats" : "plt", new->name,
			     new->has_stats ? "stats" : "plt");
		goto out;
	}
	for (i = 0; i < opt->ngates; i++)
		if (!family_ok(old, new, metric_kind(opt->gates[i].metric))) {
			ep_error_set(err, EP_EMALFORMED,
				     "--fail-above %s: one side has no elfplt-%s report",
				     opt->gates[i].metric,
				     known[metric_kind(opt->gates[i].metric)].plt ? "plt"
										  : "stats");
			goto out;
		}
	/* One file against one file: compared whatever their names. */
	if (json_object_size(old->files) == 1 && json_object_size(new->files) == 1)
		only = "";
	if (!pairs || !files || !totals_m || !gates || pair_side(pairs, old, "old", NULL) ||
	    pair_side(pairs, new, "new", NULL))
		goto nomem;
	if (only) {
		json_t *one = json_object();

		json_object_clear(pairs);
		json_object_foreach(old->files, key, p) json_object_set(one, "old", p);
		json_object_foreach(new->files, key, p) json_object_set(one, "new", p);
		json_object_foreach(old->files, key, p)
		{
			char *k = pair_key(old, common_dir(old), key, p);

			json_object_set_new(pairs, k ? k : key, one);
			free(k);
		}
	}
	nfiles = json_object_size(pairs);
	sorted = calloc(nfiles ? nfiles : 1, sizeof(*sorted));
	if (!sorted)
		goto nomem;
	j = 0;
	json_object_foreach(pairs, key, p)
	{
		const json_t *o0 = json_object_get(p, "old"), *n0 = json_object_get(p, "new");
		bool failed = json_is_true(json_object_get(o0, "failed")) ||
			      json_is_true(json_object_get(n0, "failed"));
		/* A side that failed has no figures: as if the file were not there. */
		const json_t *o = json_is_true(json_object_get(o0, "failed")) ? NULL : o0;
		const json_t *n = json_is_true(json_object_get(n0, "failed")) ? NULL : n0;
		json_t *fm = json_object(), *sort = json_array(), *f;
		bool differs = false;
		int st;

		json_array_foreach(metrics, i, name)
		{
			const char *mn = json_string_value(name);
			int64_t b = value_of(o, mn), a = value_of(n, mn);

			differs |= a != b;
			json_object_set_new(fm, mn, change(o, b, n, a));
			json_array_append_new(sort, json_integer(a > b ? a - b : b - a));
		}
		st = failed ? 4 : !o ? 0 : !n ? 1 : differs ? 2 : 3;
		counts[st]++;
		f = json_pack("{s:s, s:o, s:o, s:s, s:o, s:o}", "path", key, "old_path",
			      o0 ? json_incref(json_object_get((json_t *)o0, "path")) : json_null(),
			      "new_path",
			      n0 ? json_incref(json_object_get((json_t *)n0, "path")) : json_null(),
			      "status", status_name[st], "metrics", fm, "sort", sort);
		if (!f)
			goto nomem;
		sorted[j++] = f;
	}
	qsort(sorted, nfiles, sizeof(*sorted), file_cmp);
	for (i = 0; i < nfiles; i++) {
		json_object_del(sorted[i], "sort");
		json_array_append_new(files, sorted[i]);
	}
	free(sorted);
	sorted = NULL;
	json_array_foreach(metrics, i, name)
	{
		const char *mn = json_string_value(name);
		int64_t b = 0, a = 0;

		json_object_foreach(pairs, key, p)
		{
			if (pair_failed(p))
				continue;
			if (!total_add(&b, value_of(json_object_get(p, "old"), mn)) ||
			    !total_add(&a, value_of(json_object_get(p, "new"), mn))) {
				ep_error_set(err, EP_EMALFORMED,
					     "the total of %s is beyond 2^62: not reports of real files",
					     mn);
				goto out;
			}
		}
		json_object_set_new(totals_m, mn, change(true, b, true, a));
	}
	for (i = 0; i < opt->ngates; i++) {
		const struct ep_diff_gate *g = &opt->gates[i];
		json_t *results = json_array(), *gj;
		uint64_t checked = 0, tripped_n = 0;
		bool tripped;

		if (!opt->per_file) {
			int64_t b = 0, a = 0;

			json_object_foreach(pairs, key, p)
			{
				if (pair_failed(p))
					continue;
				/* As the totals above, which have checked the range. */
				total_add(&b, value_of(json_object_get(p, "old"), g->metric));
				total_add(&a, value_of(json_object_get(p, "new"), g->metric));
			}
			json_array_append_new(results, gate_result(NULL, g, b, a, &tripped));
			checked = 1;
			tripped_n = tripped;
		} else {
			/* In the files' order: largest change first. */
			json_array_foreach(files, j, p)
			{
				const json_t *pr =
					json_object_get(pairs, json_string_value(
								       json_object_get(p, "path")));
				const json_t *o = json_object_get(pr, "old");
				const json_t *n = json_object_get(pr, "new");
				json_t *r;

				if (pair_failed(pr))
					continue;
				r =
					gate_result(json_string_value(json_object_get(p, "path")),
						    g, value_of(o, g->metric),
						    value_of(n, g->metric), &tripped);

				checked++;
				if (tripped) {
					tripped_n++;
					json_array_append_new(results, r);
				} else {
					json_decref(r);
				}
			}
		}
		failed_gate |= tripped_n > 0;
		gj = json_pack("{s:s, s:s, s:s, s:I, s:I, s:o}", "metric", g->metric, "limit",
			       g->text, "scope", opt->per_file ? "file" : "total", "checked",
			       (json_int_t)checked, "tripped", (json_int_t)tripped_n, "results",
			       results);
		if (!gj || json_array_append_new(gates, gj))
			goto nomem;
	}
	/* A file that failed makes the figures incomplete: no pass then. */
	doc = json_pack("{s:s, s:o, s:o, s:O, s:O, s:{s:{s:I, s:I, s:I, s:I, s:I, s:I}, s:O},"
			" s:O, s:s}",
			"schema", "elfplt-diff/1", "old", side_json(old), "new", side_json(new),
			"metrics", metrics, "files", files, "totals", "files", "paired",
			(json_int_t)(counts[2] + counts[3]), "added", (json_int_t)counts[0],
			"removed", (json_int_t)counts[1], "changed", (json_int_t)counts[2],
			"unchanged", (json_int_t)counts[3], "failed", (json_int_t)counts[4],
			"metrics", totals_m, "gates", gates, "verdict",
			counts[4] || old->failed || new->failed ? "error"
			: failed_gate			      ? "fail"
							      : "pass");
	if (!doc)
		goto nomem;
	goto out;
nomem:
	ep_error_set(err, EP_ENOMEM, "out of memory");
out:
	free(sorted);
	json_decref(pairs);
	json_decref(metrics);
	json_decref(files);
	json_decref(totals_m);
	json_decref(gates);
	return doc;
}

/* Whether pattern p may match metrics of known[k]: their literal prefixes agree. */
static bool may_match(const char *p, size_t k)
{
	size_t lit = strcspn(p, "*?[\\"), n = strlen(known[k].name);

	if (lit == strlen(p) && !known[k].family)
		return strcmp(p, known[k].name) == 0;
	return strncmp(p, known[k].name, lit < n ? lit : n) == 0;
}

bool ep_diff_metric_valid(const char *pattern)
{
	return pattern[strcspn(pattern, "*?[\\")] || metric_kind(pattern) >= 0;
}

void ep_diff_reports_needed(const char *const *patterns, size_t n, const struct ep_diff_gate *gates,
			    size_t ngates, bool *stats, bool *plt)
{
	size_t i, k;
	int kind;

	*stats = *plt = false;
	if (!n) {
		for (i = 0; i < sizeof(default_metrics) / sizeof(default_metrics[0]); i++) {
			kind = metric_kind(default_metrics[i]);
			*(known[kind].plt ? plt : stats) = true;
		}
	}
	for (i = 0; i < n; i++)
		for (k = 0; k < NKNOWN; k++)
			if (may_match(patterns[i], k))
				*(known[k].plt ? plt : stats) = true;
	for (i = 0; i < ngates; i++) {
		kind = metric_kind(gates[i].metric);
		if (kind >= 0)
			*(known[kind].plt ? plt : stats) = true;
	}
}
