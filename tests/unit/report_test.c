/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of lib/report.c: the text tables (alignment, padding, the printf
 * and printf-free cell functions, cells larger than the first text buffer),
 * and the streamed JSON document against the one written whole.
 * Expected text is written out by hand from ep_table_print()'s contract:
 * indent, columns padded to their widest cell, two spaces between columns,
 * the last column of a left-aligned table not padded.
 * Exit 0 when every check passes, 1 otherwise.
 */
#include "config.h"

#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/report.h"
#include "tests/unit/check.h"

/* t printed with indent, as a string to free(). */
static char *printed(const struct ep_table *t, const char *indent)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	if (!f)
		return NULL;
	CHECK(ep_table_print(t, f, indent) == 0);
	fclose(f);
	return text;
}

static void check_text(const char *got, const char *want, int line)
{
	if (!got || strcmp(got, want) != 0) {
		fprintf(stderr, "FAIL %s:%d: table is\n%s\nexpected\n%s\n", __FILE__, line,
			got ? got : "(null)", want);
		failures++;
	}
}

static void test_alignment(void)
{
	static const char *const hdr[] = { "name", "n", "note" };
	struct ep_table *t = ep_table_new(3, hdr, "lrl");
	char *s;

	CHECK(t != NULL);
	if (!t)
		return;
	ep_table_row(t);
	ep_table_cell_str(t, "a");
	ep_table_cell_u64(t, 0);
	ep_table_cell(t, "[%d] %s", 7, "x");
	ep_table_row(t);
	ep_table_cell(t, "%s", "longer");
	ep_table_cell_u64(t, UINT64_MAX); /* 18446744073709551615: 20 digits */
	/* Third cell missing: printed empty. */
	CHECK(ep_table_rows(t) == 2);
	s = printed(t, "  ");
	/*
	 * Widths: name 6 ("longer"), n 20 (UINT64_MAX), note 5 ("[7] x").
	 * Right-aligned n pads on the left; the last column is not padded.
	 * Row 1: "a" + 5 spaces (to 6), 2 between, 19 spaces + "0" (to 20).
	 */
	check_text(s,
		   "  name                       n  note\n"
		   "  a"
		   "     "
		   "  "
		   "                   0"
		   "  [7] x\n"
		   "  longer  18446744073709551615  \n",
		   __LINE__);
	free(s);
	ep_table_free(t);
}

/* ep_table_cell_index(): readelf's "[N]" and "[N] NAME". */
static void test_index_cells(void)
{
	static const char *const hdr[] = { "sec" };
	struct ep_table *t = ep_table_new(1, hdr, "l");
	char *s;

	CHECK(t != NULL);
	if (!t)
		return;
	ep_table_row(t);
	ep_table_cell_index(t, 0, NULL);
	ep_table_row(t);
	ep_table_cell_index(t, 12345, ".rela.text");
	ep_table_row(t);
	ep_table_cell_index(t, UINT64_MAX, "");
	s = printed(t, "");
	/* One left-aligned column, the last: no padding. */
	check_text(s, "sec\n[0]\n[12345] .rela.text\n[18446744073709551615] \n", __LINE__);
	free(s);
	ep_table_free(t);
}

/* Cells larger than the table's first text buffer (1 KiB) and many of them. */
static void test_growth(void)
{
	static const char *const hdr[] = { "k", "v" };
	struct ep_table *t = ep_table_new(2, hdr, "rl");
	char big[3000], *s, *want;
	size_t i, off = 0;

	CHECK(t != NULL);
	if (!t)
		return;
	memset(big, 'b', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ep_table_row(t);
	ep_table_cell(t, "%zu", (size_t)1);
	ep_table_cell(t, "%s", big); /* 2999 bytes through vsnprintf */
	for (i = 2; i <= 100; i++) {
		ep_table_row(t);
		ep_table_cell_u64(t, i);
		ep_table_cell_str(t, big + sizeof(big) - 1 - i); /* i bytes of 'b' */
	}
	s = printed(t, "");
	/* Column k is 3 wide ("100"); each line: k right-aligned, 2 spaces, v. */
	want = malloc(200000);
	if (!want || !s) {
		CHECK(!"out of memory");
		goto out;
	}
	off += (size_t)sprintf(want + off, "  k  v\n  1  %s\n", big);
	for (i = 2; i <= 100; i++)
		off += (size_t)sprintf(want + off, "%3zu  %.*s\n", i, (int)i, big);
	check_text(s, want, __LINE__);
out:
	free(want);
	free(s);
	ep_table_free(t);
}

/* out's text as a string to free(): f is an open_memstream() of it. */
static char *closed(FILE *f, char **text)
{
	fclose(f);
	return *text;
}

/*
 * The streamed document against ep_report_write_json() of the same document
 * built whole: the same bytes, for nfiles files (0 gives "files": []).
 * Values with newlines, quotes and non-ASCII in strings, nested arrays and
 * objects, empty ones, and a file entry bigger than the dump's first buffer.
 */
static void test_stream(size_t nfiles)
{
	char *whole = NULL, *streamed = NULL, big[40000];
	size_t whole_len = 0, streamed_len = 0, i;
	json_t *doc = ep_report_new("elfplt-test/1"), *files, *totals;
	struct ep_json_stream js;
	FILE *f;

	CHECK(doc != NULL);
	if (!doc)
		return;
	files = json_object_get(doc, "files");
	totals = json_pack("{s:I, s:[], s:{}, s:[{s:s}, {s:n}]}", "files", (json_int_t)nfiles,
			   "empty_array", "empty_object", "list", "k", "line\nbreak", "z");
	json_object_update(json_object_get(doc, "totals"), totals);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	for (i = 0; i < nfiles; i++)
		json_array_append_new(files,
				      json_pack("{s:s, s:I, s:{s:[i, i, {s:s}], s:{}}, s:s}",
						"path",
						i == 1 ? "a \"quoted\"\n\tpath \xc3\xa9" : "p",
						"index", (json_int_t)i, "nested", "arr", 1, 2,
						"deep", "v", "none", "big", i == 2 ? big : ""));

	f = open_memstream(&whole, &whole_len);
	CHECK(f && ep_report_write_json(doc, f) == 0);
	if (f)
		closed(f, &whole);

	f = open_memstream(&streamed, &streamed_len);
	CHECK(f != NULL);
	if (f) {
		CHECK(ep_json_stream_begin(&js, f, "elfplt-test/1") == 0);
		for (i = 0; i < nfiles; i++) {
			json_t *e = json_array_get(files, i);
			size_t len;
			char *text;

			/* Half as ready-made text (as a worker thread makes it), half direct. */
			if (i % 2) {
				text = ep_json_dump_at(e, 2, &len);
				CHECK(text != NULL && strlen(text) == len);
				if (text)
					CHECK(ep_json_stream_file_text(&js, text, len) == 0);
				free(text);
			} else {
				CHECK(ep_json_stream_file(&js, e) == 0);
			}
		}
		CHECK(ep_json_stream_end(&js, totals) == 0);
		closed(f, &streamed);
	}
	if (!whole || !streamed || strcmp(whole, streamed) != 0) {
		fprintf(stderr, "FAIL %s:%d: %zu files: streamed document differs:\n%s\n---\n%s\n",
			__FILE__, __LINE__, nfiles, whole ? whole : "(null)",
			streamed ? streamed : "(null)");
		failures++;
	}
	free(whole);
	free(streamed);
	json_decref(totals);
	json_decref(doc);
}

/* ep_json_dump_at() of scalars and at depth 0: what json_dumps() gives. */
static void test_dump_at(void)
{
	json_t *v = json_pack("{s:[i, s]}", "a", 1, "b\nc");
	size_t len;
	char *got = ep_json_dump_at(v, 0, &len), *want;

	want = json_dumps(v, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	CHECK(got && want && strcmp(got, want) == 0 && len == strlen(want));
	free(got);
	free(want);
	/* At depth 3 every line after the first gets 6 more spaces. */
	got = ep_json_dump_at(v, 3, &len);
	check_text(got,
		   "{\n        \"a\": [\n          1,\n          \"b\\nc\"\n        ]\n      }",
		   __LINE__);
	free(got);
	json_decref(v);
	v = json_integer(42);
	got = ep_json_dump_at(v, 2, &len);
	check_text(got, "42", __LINE__);
	free(got);
	json_decref(v);
}

/* A document of n entries with a string of big bytes: made in or out of an arena. */
static json_t *arena_doc(size_t n, size_t big)
{
	json_t *o = json_object(), *a = json_array();
	char *s = malloc(big + 1);
	size_t i;

	if (!o || !a || !s) {
		CHECK(!"out of memory");
		free(s);
		return NULL;
	}
	memset(s, 'x', big);
	s[big] = '\0';
	for (i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:I, s:s, s:{s:b}}", "index", (json_int_t)i,
						   "name", i % 2 ? ".rela.text" : ".rela.data", "kind",
						   "dynamic", (int)(i % 3 == 0)));
	json_object_set_new(o, "sections", a);
	json_object_set_new(o, "big", json_string(s));
	free(s);
	return o;
}

/*
 * ep_json_arena_begin()/end(): values made in a scope dump as values made
 * outside one do (the document spans several blocks, one value larger than
 * the first block); a value from before a scope dropped inside it is freed
 * (the sanitized run's leak check); a scope's blocks are taken back, so a
 * thousand scopes do not take a thousand times the memory.
 */
static void test_arena(void)
{
	json_t *before = json_string("made before the scope");
	json_t *outside = arena_doc(20000, 3 << 20), *inside;
	char *want = ep_json_dump_at(outside, 0, &(size_t){ 0 }), *got;
	size_t i, used_after_first = 0;
	struct mallinfo2 mi;

	CHECK(want != NULL);
	CHECK(ep_json_arena_begin() == 0);
	json_decref(before);
	inside = arena_doc(20000, 3 << 20);
	/* ep_json_dump_at()'s buffer is malloc()'s, not jansson's: it outlives the scope. */
	got = ep_json_dump_at(inside, 0, &(size_t){ 0 });
	json_decref(inside);
	ep_json_arena_end();
	CHECK(got && want && strcmp(got, want) == 0);
	free(got);
	for (i = 0; i < 1000; i++) {
		CHECK(ep_json_arena_begin() == 0);
		inside = arena_doc(100, 64);
		got = ep_json_dump_at(inside, 2, &(size_t){ 0 });
		CHECK(got != NULL);
		free(got);
		json_decref(inside);
		ep_json_arena_end();
		mi = mallinfo2();
		if (i == 0)
			used_after_first = mi.uordblks + mi.hblkhd;
	}
	mi = mallinfo2();
	CHECK(mi.uordblks + mi.hblkhd <= used_after_first + (64 << 10));
	/* Outside a scope values are malloc()'s again. */
	json_decref(outside);
	outside = arena_doc(10, 10);
	CHECK(outside != NULL);
	json_decref(outside);
	free(want);
}

/* ep_percent() against glibc's printf("%.1f%%"), the independent oracle. */
static void check_percent(uint64_t part, uint64_t whole)
{
	char got[32], want[32];

	ep_percent(got, sizeof(got), part, whole);
	snprintf(want, sizeof(want), "%.1f%%", 100.0 * (double)part / (double)whole);
	if (strcmp(got, want) != 0) {
		fprintf(stderr,
			"FAIL %s:%d: ep_percent(%" PRIu64 ", %" PRIu64 ") = %s, printf %s\n",
			__FILE__, __LINE__, part, whole, got, want);
		failures++;
	}
}

static void test_percent(void)
{
	uint64_t whole, part, x = 88172645463325252ull;
	char buf[32];
	int i;

	CHECK(strcmp(ep_percent(buf, sizeof(buf), 5, 0), "-") == 0);
	/* Every share of every whole up to 1500: ties such as 1/16 (6.25%) among them. */
	for (whole = 1; whole <= 1500; whole++)
		for (part = 0; part <= whole; part++)
			check_percent(part, whole);
	CHECK(strcmp(ep_percent(buf, sizeof(buf), 1, 16), "6.2%") == 0);  /* tie: to even */
	CHECK(strcmp(ep_percent(buf, sizeof(buf), 3, 16), "18.8%") == 0); /* 18.75: to even */
	CHECK(strcmp(ep_percent(buf, sizeof(buf), 7, 7), "100.0%") == 0);
	/* Large wholes, up to and past 2^40 (xorshift64 for the numbers). */
	for (i = 0; i < 200000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		whole = (x >> (i % 40)) | 1;
		part = x % (whole + 1);
		check_percent(part, whole);
	}
}

int main(void)
{
	test_alignment();
	test_growth();
	test_index_cells();
	test_percent();
	test_dump_at();
	test_arena();
	test_stream(0);
	test_stream(1);
	test_stream(5);
	return check_status();
}
