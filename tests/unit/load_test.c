/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of lib/load.c's pure parts: the checksum, the plan encoding,
 * the summary and the names.  Expected values are worked out by hand in the
 * comments.  lib/proc.c's are in proc_test.c.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/load.h"
#include "tests/unit/check.h"

static void test_checksum(void)
{
	static const unsigned char b[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };

	/* Little-endian words: 0x0807060504030201, then the tail 09 0a = 0x0a09. */
	CHECK(ep_load_checksum(0, b, 8) == UINT64_C(0x0807060504030201));
	CHECK(ep_load_checksum(0, b, 10) == UINT64_C(0x0807060504030c0a));
	CHECK(ep_load_checksum(5, b, 0) == 5);
	/* Addition wraps modulo 2^64: 0xff..ff + 1 = 0. */
	CHECK(ep_load_checksum(UINT64_MAX, b, 1) == 0);
}

static void test_plan(void)
{
	struct ep_load_range r1[2] = { { 64, 100 }, { 4096, 20000 } };
	struct ep_load_file files[2] = {
		{ (char *)"a b\nc.ko", EP_COMP_NONE, 30000, r1, 2 },
		{ (char *)"z.ko.xz", EP_COMP_XZ, 777, NULL, 0 },
	};
	struct ep_load_plan in = { files, 2, 16384 }, out;
	struct ep_load_totals t;
	struct ep_error err;
	char *buf;
	size_t len;

	CHECK(ep_load_plan_encode(&in, &buf, &len, &err) == 0);
	CHECK(ep_load_plan_decode(&out, buf, len, &err) == 0);
	CHECK(out.nfiles == 2 && out.threshold == 16384);
	if (out.nfiles == 2) {
		/* A path with a space and a newline survives (length-prefixed). */
		CHECK(strcmp(out.files[0].path, "a b\nc.ko") == 0);
		CHECK(out.files[0].compression == EP_COMP_NONE && out.files[0].image_size == 30000);
		CHECK(out.files[0].nranges == 2 && out.files[0].ranges[1].offset == 4096 &&
		      out.files[0].ranges[1].size == 20000);
		/* The compression itself survives, not only "compressed". */
		CHECK(out.files[1].compression == EP_COMP_XZ && out.files[1].nranges == 0);
	}
	/* 100 + 20000 bytes; only the 20000-byte range reaches 16384. */
	ep_load_plan_totals(&out, &t);
	CHECK(t.files == 2 && t.sections == 2 && t.bytes == 20100);
	CHECK(t.mapped_sections == 1 && t.mapped_bytes == 20000);
	CHECK(t.compressed_files == 1 && t.decoded_bytes == 777);
	ep_load_plan_free(&out);

	/* Every truncation of the encoding is refused, never misread. */
	for (size_t n = 0; n < len; n++) {
		int rc = ep_load_plan_decode(&out, buf, n, &err);

		CHECK(rc != 0);
		if (rc == 0)
			ep_load_plan_free(&out);
	}
	/* A record count far beyond the bytes is refused before allocating. */
	{
		static const char huge[] = "elfplt-load-plan 3 1 1\nF 0 1 99999999999 1\nx\n";

		CHECK(ep_load_plan_decode(&out, huge, strlen(huge), &err) != 0);
	}
	/* A compression past EP_COMP_GZIP (3) is not one the encoder writes. */
	{
		static const char bad[] = "elfplt-load-plan 3 1 1\nF 4 1 0 1\nx\n";

		CHECK(ep_load_plan_decode(&out, bad, strlen(bad), &err) != 0);
	}
	free(buf);
}

static void test_summary(void)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 };
	struct ep_summary s;

	s = ep_summarize(odd, 3);
	CHECK(s.median == 3 && s.min == 1 && s.max == 5);
	/* Even count: the mean of the middle two, (2 + 3) / 2. */
	s = ep_summarize(even, 4);
	CHECK(s.median == 2.5 && s.min == 1 && s.max == 4);
	s = ep_summarize(NULL, 0);
	CHECK(s.median == 0 && s.min == 0 && s.max == 0);
}

/* ep_compare_runs(): ranges by hand. */
static void test_verdict(void)
{
	struct ep_summary read = { 10, 9, 12 }, apart = { 5, 4, 8 }, touching = { 7, 5, 9 },
			  inside = { 10.5, 10, 11 }, point = { 4, 4, 4 };

	/* [4..8] and [9..12] do not meet: a result. */
	CHECK(ep_compare_runs(read, apart, 3, 1) == EP_VERDICT_RESULT);
	/* [5..9] meets [9..12] at 9: noise, however far apart the medians. */
	CHECK(ep_compare_runs(read, touching, 5, 1) == EP_VERDICT_WITHIN_NOISE);
	CHECK(ep_compare_runs(read, inside, 3, 1) == EP_VERDICT_WITHIN_NOISE);
	/* The same ranges from 1 or 2 runs say nothing. */
	CHECK(ep_compare_runs(read, apart, 1, 1) == EP_VERDICT_TOO_FEW_RUNS);
	CHECK(ep_compare_runs(read, point, 2, 1) == EP_VERDICT_TOO_FEW_RUNS);
	/* read's median 10 under a floor of 16: too small to compare. */
	CHECK(ep_compare_runs(read, apart, 3, 16) == EP_VERDICT_BELOW_FLOOR);
	CHECK(strcmp(ep_verdict_name(EP_VERDICT_WITHIN_NOISE), "within_noise") == 0);
	CHECK(ep_verdict_name((enum ep_verdict)99) == NULL);
}

static void test_names(void)
{
	enum ep_load_mode m;
	enum ep_section_set set;

	CHECK(ep_load_mode_parse("hybrid", &m) == 0 && m == EP_LOAD_HYBRID);
	CHECK(ep_load_mode_parse("copy", &m) == -1);
	CHECK(ep_section_set_parse("relocs", &set) == 0 && set == EP_SET_RELOCS);
	CHECK(strcmp(ep_section_set_name(EP_SET_ALLOC), "alloc") == 0);
	/* binutils' rule: four pages. */
	CHECK(ep_load_default_threshold() == 4 * (uint64_t)sysconf(_SC_PAGESIZE));
}

int main(void)
{
	test_checksum();
	test_plan();
	test_summary();
	test_verdict();
	test_names();
	if (check_status())
		return 1;
	puts("all load unit tests passed");
	return 0;
}
