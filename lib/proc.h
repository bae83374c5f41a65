/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_PROC_H
#define ELFPLT_PROC_H

/*
 * What the kernel says about this process and about the page cache, for
 * `elfplt load`: the resident set from /proc/self/status (proc(5)), the peak
 * reset through /proc/self/clear_refs, times and page faults from
 * getrusage(RUSAGE_SELF), and how many of a file's pages are in the page
 * cache (posix_fadvise(2) to drop them, mincore(2) to count them).
 */

#include <stdint.h>

#include "lib/error.h"
#include "lib/load-plan.h"

/* What the kernel says this process cost so far. */
struct ep_proc_usage {
	uint64_t vm_hwm_kib;   /* VmHWM: peak resident set of this mm, KiB */
	uint64_t vm_rss_kib;   /* VmRSS: resident now (RssAnon + RssFile + RssShmem), KiB */
	uint64_t rss_anon_kib; /* RssAnon: anonymous resident now, KiB */
	uint64_t rss_file_kib; /* RssFile: file-backed resident now, KiB */
	uint64_t user_us;      /* ru_utime, microseconds */
	uint64_t sys_us;       /* ru_stime, microseconds */
	uint64_t minor_faults; /* ru_minflt */
	uint64_t major_faults; /* ru_majflt */
};

/*
 * Take VmHWM, VmRSS, RssAnon and RssFile from text, the contents of a
 * /proc/PID/status file (proc(5): "VmHWM:\t    1234 kB" lines; RssAnon and
 * RssFile exist since Linux 4.5).  Returns 0, or -1 when a field is missing
 * or not a number.  The other fields of u are left alone.
 */
int ep_proc_status_parse(const char *text, struct ep_proc_usage *u);

/*
 * Fill u for the calling process: /proc/self/status and getrusage(RUSAGE_SELF).
 * Returns 0, or EP_EIO / EP_EUNSUP (a kernel without RssAnon) with err filled.
 */
int ep_proc_usage_self(struct ep_proc_usage *u, struct ep_error *err);

/*
 * Reset this process's peak resident set (VmHWM) to its current resident
 * set by writing "5" to /proc/self/clear_refs (Linux 4.0 and later,
 * Documentation/filesystems/proc.rst, "To reset the peak resident set size
 * ('high water mark') to the process's current value").  Returns 0, or
 * EP_EUNSUP when the file cannot be opened or the kernel refuses the value
 * (older kernels: EINVAL), with err naming the reason.
 */
int ep_proc_peak_reset(struct ep_error *err);

/*
 * What a phase of this process cost, from snapshots taken before (start)
 * and after (end) it; each figure end minus start, so it may be negative
 * (pages reclaimed meanwhile).
 */
struct ep_phase_cost {
	int64_t peak_rss_kib; /* peak resident set during the phase over start's, KiB */
	int64_t rss_anon_kib; /* RssAnon growth, KiB */
	int64_t rss_file_kib; /* RssFile growth, KiB */
	int64_t user_us;      /* ru_utime, microseconds */
	int64_t sys_us;	      /* ru_stime, microseconds */
	int64_t minor_faults; /* ru_minflt */
	int64_t major_faults; /* ru_majflt */
};

/*
 * The cost of the phase between start and end.  The peak: when end's VmHWM
 * is above start's, the phase set a new high-water mark and the peak is
 * end VmHWM - start VmRSS; otherwise the phase stayed under a mark left from
 * before it (ep_proc_peak_reset() was not possible, and start-up peaked
 * higher) and the best figure left is end VmRSS - start VmRSS, exact for a
 * phase that frees nothing.  Either way the peak is at least the growth of
 * VmRSS (VmHWM is never below VmRSS), hence at least the growth of RssAnon
 * and of RssFile when the other does not shrink.
 */
void ep_phase_cost(const struct ep_proc_usage *start, const struct ep_proc_usage *end,
		   struct ep_phase_cost *cost);

/*
 * Cold cache: ask the kernel to drop f->path's pages from the page cache with
 * posix_fadvise(POSIX_FADV_DONTNEED) on the whole file, then map it and ask
 * mincore(2) how many of its pages are still resident.  The kernel keeps
 * pages that are dirty, locked or mapped by some process, so *resident_pages
 * may stay above 0.  *total_pages counts the file's pages (of
 * sysconf(_SC_PAGESIZE) bytes, the last one partial).
 * The file is opened by ep_load_file_open(): a FIFO or a changed file is
 * refused.  Returns 0, or EP_EIO naming the file (EP_ENOMEM when mincore's
 * vector cannot be allocated).  Nothing is written to it.
 */
int ep_cache_drop(const struct ep_load_file *f, uint64_t *resident_pages, uint64_t *total_pages,
		  struct ep_error *err);

/*
 * mincore(2) only: *resident_pages of *total_pages of f->path are in the
 * page cache, counted as by ep_cache_drop().  Opened as by ep_cache_drop().
 * Returns 0, or EP_EIO / EP_ENOMEM naming the file.
 */
int ep_cache_resident(const struct ep_load_file *f, uint64_t *resident_pages, uint64_t *total_pages,
		      struct ep_error *err);

#endif
