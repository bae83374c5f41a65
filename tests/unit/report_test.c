/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of lib/report.c's text tables: alignment, padding, the printf
 * and printf-free cell functions, cells larger than the first text buffer.
 * Expected text is written out by hand from ep_table_print()'s contract:
 * indent, columns padded to their widest cell, two spaces between columns,
 * the last column of a left-aligned table not padded.
 * Exit 0 when every check passes, 1 otherwise.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/report.h"

static int failures;

#define CHECK(cond)                                                              \
	do {                                                                     \
		if (!(cond)) {                                                   \
			fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
			failures++;                                              \
		}                                                                \
	} while (0)

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
	ep_table_cell_u64(t, UINT64_MAX);	/* 18446744073709551615: 20 digits */
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
		   "  a" "     " "  " "                   0" "  [7] x\n"
		   "  longer  18446744073709551615  \n",
		   __LINE__);
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
	ep_table_cell(t, "%s", big);	/* 2999 bytes through vsnprintf */
	for (i = 2; i <= 100; i++) {
		ep_table_row(t);
		ep_table_cell_u64(t, i);
		ep_table_cell_str(t, big + sizeof(big) - 1 - i);	/* i bytes of 'b' */
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

int main(void)
{
	test_alignment();
	test_growth();
	return failures ? 1 : 0;
}
