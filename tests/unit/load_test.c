/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of lib/load.c's pure parts: the /proc/PID/status parser, the
 * checksum, the plan encoding and the summary.  Expected values are worked
 * out by hand in the comments.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/load.h"
#include "tests/unit/check.h"

static void test_status(void)
{
	/* The layout of proc(5), abridged from a real /proc/self/status. */
	static const char text[] = "Name:\tcat\n"
				   "VmPeak:\t    5556 kB\n"
				   "VmHWM:\t    1000 kB\n"
				   "VmRSS:\t     996 kB\n"
				   "RssAnon:\t      88 kB\n"
				   "RssFile:\t     908 kB\n"
				   "RssShmem:\t       0 kB\n";
	struct ep_proc_usage u = { 0 };

	CHECK(ep_proc_status_parse(text, &u) == 0);
	CHECK(u.vm_hwm_kib == 1000);
	CHECK(u.vm_rss_kib == 996);
	CHECK(u.rss_anon_kib == 88);
	CHECK(u.rss_file_kib == 908);
	/* A kernel before 4.5 has no RssAnon: refused, not read as 0. */
	CHECK(ep_proc_status_parse("VmHWM:\t 1 kB\nVmRSS:\t 1 kB\nRssFile:\t 2 kB\n", &u) == -1);
	/* "VmHWMX" is not VmHWM; a value without "kB" is not accepted. */
	CHECK(ep_proc_status_parse("VmHWMX:\t 1 kB\nVmRSS:\t 1 kB\nRssAnon:\t 2 kB\n"
				   "RssFile:\t 3 kB\n",
				   &u) == -1);
	CHECK(ep_proc_status_parse("VmHWM:\t 1\nVmRSS:\t 1 kB\nRssAnon:\t 2 kB\n"
				   "RssFile:\t 3 kB\n",
				   &u) == -1);
	/* Without VmRSS the start of a phase is unknown: refused. */
	CHECK(ep_proc_status_parse("VmHWM:\t 1 kB\nRssAnon:\t 2 kB\nRssFile:\t 3 kB\n", &u) == -1);
}

/* Two snapshots around a phase, in the units of struct ep_proc_usage. */
static struct ep_proc_usage usage(uint64_t hwm, uint64_t rss, uint64_t anon, uint64_t file,
				  uint64_t minflt)
{
	struct ep_proc_usage u = { 0 };

	u.vm_hwm_kib = hwm;
	u.vm_rss_kib = rss;
	u.rss_anon_kib = anon;
	u.rss_file_kib = file;
	u.minor_faults = minflt;
	u.user_us = 1000;
	return u;
}

static void test_phase_cost(void)
{
	struct ep_proc_usage start, end;
	struct ep_phase_cost c;

	/*
	 * The baseline child: start-up peaked at 3944 KiB and ended at
	 * 1476 + 1832 = 3308 KiB; the peak was reset to 3308 (clear_refs) and a
	 * load then added 100000 KiB of anonymous copies and 20 KiB of file pages:
	 * VmHWM 103328, VmRSS 103328 = 101476 + 1852.  Peak 103328 - 3308 =
	 * 100020 = the growth of anon + file; anon 100000, file 20; 250 faults.
	 */
	start = usage(3308, 3308, 1476, 1832, 700);
	end = usage(103328, 103328, 101476, 1852, 950);
	ep_phase_cost(&start, &end, &c);
	CHECK(c.peak_rss_kib == 100020 && c.rss_anon_kib == 100000 && c.rss_file_kib == 20);
	CHECK(c.minor_faults == 250 && c.major_faults == 0 && c.user_us == 0 && c.sys_us == 0);

	/*
	 * No reset: start's VmHWM is start-up's 3944.  A load adding 400 KiB
	 * ends at 3708 < 3944, VmHWM stays 3944: the mark is start-up's, so the
	 * peak is the RSS growth, 3708 - 3308 = 400, not 3944 - 3308 = 636.
	 */
	start = usage(3944, 3308, 1476, 1832, 700);
	end = usage(3944, 3708, 1876, 1832, 800);
	ep_phase_cost(&start, &end, &c);
	CHECK(c.peak_rss_kib == 400 && c.rss_anon_kib == 400 && c.rss_file_kib == 0);

	/*
	 * No reset, a load that passes start-up's mark: a transient buffer took
	 * VmHWM to 5000 and was freed, leaving 4308 (1000 KiB more).  The mark
	 * is the load's: 5000 - 3308 = 1692, above the RSS growth of 1000.
	 */
	end = usage(5000, 4308, 2476, 1832, 900);
	ep_phase_cost(&start, &end, &c);
	CHECK(c.peak_rss_kib == 1692 && c.rss_anon_kib == 1000);

	/* Pages reclaimed during the phase: the growth is negative, and signed. */
	start = usage(3308, 3308, 1476, 1832, 700);
	end = usage(3308, 3208, 1476, 1732, 700);
	ep_phase_cost(&start, &end, &c);
	CHECK(c.rss_file_kib == -100 && c.peak_rss_kib == -100);
}

/*
 * The kernel's side of ep_proc_peak_reset(): after a freed 16 MiB block,
 * VmHWM is at least 16 MiB above VmRSS; the reset brings it back to VmRSS.
 */
static void test_peak_reset(void)
{
	const size_t size = 16 << 20;
	struct ep_proc_usage before, after;
	struct ep_error err;
	unsigned char *p;

	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(p != MAP_FAILED);
	if (p == MAP_FAILED)
		return;
	memset(p, 1, size);
	munmap(p, size);
	CHECK(ep_proc_usage_self(&before, &err) == 0);
	/*
	 * 16 MiB = 16384 KiB left resident set and mark apart, less the pages
	 * the mark lags by: munmap() records it from the kernel's per-CPU
	 * batched RSS counters (a few hundred KiB on a small machine).  Half of
	 * the gap is asked for.
	 */
	CHECK(before.vm_hwm_kib >= before.vm_rss_kib + 8192);
	if (ep_proc_peak_reset(&err) != 0) {
		printf("note: %s: the reset is not tested\n", err.message);
		return;
	}
	CHECK(ep_proc_usage_self(&after, &err) == 0);
	/*
	 * The mark now sits at the resident set, give or take the kernel's
	 * per-CPU batching of its RSS counters (the reset stores the batched
	 * sum): far below the 16 MiB gap, so at most half of it remains.
	 */
	CHECK(after.vm_hwm_kib < after.vm_rss_kib + 8192);
	CHECK(after.vm_hwm_kib + 8192 <= before.vm_hwm_kib);
}

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
	test_status();
	test_phase_cost();
	test_peak_reset();
	test_checksum();
	test_plan();
	test_summary();
	test_names();
	if (check_status())
		return 1;
	puts("all load unit tests passed");
	return 0;
}
