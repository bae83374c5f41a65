/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of lib/diff.c's gates: parsing METRIC=+N[%] and the exact
 * comparison at, under and over a limit, with values worked out by hand
 * (a limit of N% of B allows B * N / 100; a value exactly at it passes; 0%
 * of 0 allows nothing), including values near INT64_MAX where a product
 * of two int64_t overflows, and the OpenMetrics emitter's escaping and
 * family grouping against text written out by hand.
 * Exit 0 when every check passes, 1 otherwise.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diff.h"
#include "lib/openmetrics.h"
#include "tests/unit/check.h"

static struct ep_diff_gate gate(const char *arg)
{
	struct ep_diff_gate g;
	struct ep_error err = { 0 };

	CHECK(ep_diff_gate_parse(arg, &g, &err) == 0);
	return g;
}

static bool bad(const char *arg)
{
	struct ep_diff_gate g;
	struct ep_error err = { 0 };

	return ep_diff_gate_parse(arg, &g, &err) != 0 && err.message[0];
}

static void test_parse(void)
{
	struct ep_diff_gate g = gate("relocations=+5%");

	CHECK(strcmp(g.metric, "relocations") == 0);
	CHECK(g.percent && g.n_milli == 5000);
	CHECK(strcmp(g.text, "+5%") == 0);
	g = gate("slots.reserved.plt=12.5");
	CHECK(!g.percent && g.n_milli == 12500 && strcmp(g.text, "+12.5") == 0);
	g = gate("relocations.type.R_AARCH64_CALL26=+0.001%");
	CHECK(g.percent && g.n_milli == 1);
	CHECK(bad("relocations"));
	CHECK(bad("=+5"));
	CHECK(bad("relocs=+5"));
	CHECK(bad("relocations=+"));
	CHECK(bad("relocations=+5%%"));
	CHECK(bad("relocations=+1.2345"));
	CHECK(bad("relocations=-5"));
	CHECK(bad("relocations.type.=+5"));
}

static void test_passes(void)
{
	struct ep_diff_gate g = gate("relocations=+5%");
	int64_t limit;

	/* 5% of 100 = 5: 105 passes, 106 trips. */
	CHECK(ep_diff_gate_passes(&g, 100, 105, &limit) && limit == 105);
	CHECK(!ep_diff_gate_passes(&g, 100, 106, &limit));
	/* 5% of 30 = 1.5: 31 passes, 32 trips; the limit shown is rounded down. */
	CHECK(ep_diff_gate_passes(&g, 30, 31, &limit) && limit == 31);
	CHECK(!ep_diff_gate_passes(&g, 30, 32, NULL));
	/* From 0 a percentage allows nothing; staying at 0 passes. */
	CHECK(!ep_diff_gate_passes(&g, 0, 1, &limit) && limit == 0);
	CHECK(ep_diff_gate_passes(&g, 0, 0, NULL));
	/* Shrinking never trips. */
	CHECK(ep_diff_gate_passes(&g, 100, 3, NULL));
	g = gate("relocations=+0.001%");
	/* 0.001% of 100000 = 1 */
	CHECK(ep_diff_gate_passes(&g, 100000, 100001, NULL));
	CHECK(!ep_diff_gate_passes(&g, 100000, 100002, NULL));
	g = gate("relocations=+3");
	CHECK(ep_diff_gate_passes(&g, 0, 3, &limit) && limit == 3);
	CHECK(!ep_diff_gate_passes(&g, 0, 4, NULL));
	g = gate("relocations=+0.5");
	CHECK(ep_diff_gate_passes(&g, 10, 10, &limit) && limit == 10);
	CHECK(!ep_diff_gate_passes(&g, 10, 11, NULL));
	/* Near INT64_MAX: 100% of 2^62 allows 2^62 more, so 2^63 - 1 passes; the
	 * limit, 2^63, is shown as INT64_MAX. */
	g = gate("relocations=+100%");
	CHECK(ep_diff_gate_passes(&g, INT64_C(1) << 62, INT64_MAX, &limit));
	CHECK(limit == INT64_MAX);
	g = gate("relocations=+1");
	CHECK(!ep_diff_gate_passes(&g, INT64_MIN + 1, INT64_MAX, NULL));
}

static void test_openmetrics(void)
{
	static const char want[] = "# TYPE a_b gauge\n"
				   "a_b{k=\"x\\\"y\\\\z\\n\"} 1\n"
				   "a_b{k=\"2\"} 2\n"
				   "# TYPE c gauge\n"
				   "c 3\n"
				   "# EOF\n";
	const char *l1[] = { "k", "x\"y\\z\n" }, *l2[] = { "k", "2" };
	struct ep_om om = { 0 };
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	CHECK(f);
	if (!f)
		return;
	/* a.b becomes a_b; the c sample in between does not split a_b's family. */
	CHECK(ep_om_add(&om, "a.b", l1, 1, 1) == 0);
	CHECK(ep_om_add(&om, "c", NULL, 0, 3) == 0);
	CHECK(ep_om_add(&om, "a_b", l2, 1, 2) == 0);
	CHECK(ep_om_add(&om, "a_b", l2, 1, 9) == 0); /* the same sample again: dropped */
	CHECK(ep_om_write(&om, f) == 0);
	fclose(f);
	CHECK(text && strcmp(text, want) == 0);
	if (text && strcmp(text, want) != 0)
		fprintf(stderr, "got:\n%s", text);
	free(text);
	ep_om_free(&om);
}

int main(void)
{
	test_parse();
	test_passes();
	test_openmetrics();
	return check_status();
}
