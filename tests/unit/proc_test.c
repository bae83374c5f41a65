/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of lib/proc.c: the /proc/PID/status parser, the cost of a
 * phase from two snapshots, and the kernel's side of the peak reset.
 * Expected values are worked out by hand in the comments.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "lib/proc.h"
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

int main(void)
{
	test_status();
	test_phase_cost();
	test_peak_reset();
	if (check_status())
		return 1;
	puts("all proc unit tests passed");
	return 0;
}
