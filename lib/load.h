/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_LOAD_H
#define ELFPLT_LOAD_H

/*
 * The mmap-versus-read-copy measurement behind `elfplt load`: which sections
 * of each input a linker would bring in (the plan), the three ways of
 * bringing them in (read, mmap, hybrid), the checksum that touches every
 * loaded byte, and what the kernel says the process cost: VmHWM, RssAnon and
 * RssFile from /proc/self/status (proc(5)) and getrusage(RUSAGE_SELF).
 *
 * The plan is made in one process (the parent, which parses the ELF headers)
 * and carried to the measured process as a small text encoding, so the
 * measured process never parses ELF and holds nothing it did not load.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/blob.h"
#include "lib/decode.h"
#include "lib/elf.h"
#include "lib/error.h"

/*
 * How sections are brought in.  EP_LOAD_NONE loads nothing: it is the empty
 * child whose cost (exec, dynamic linking, reading the plan) is subtracted.
 */
enum ep_load_mode { EP_LOAD_NONE, EP_LOAD_READ, EP_LOAD_MMAP, EP_LOAD_HYBRID };

/* "none", "read", "mmap", "hybrid". */
const char *ep_load_mode_name(enum ep_load_mode mode);

/* The mode called name; returns 0, or -1 when name is not a mode. */
int ep_load_mode_parse(const char *name, enum ep_load_mode *mode);

/*
 * Which sections: EP_SET_RELOCS the SHT_REL/SHT_RELA/SHT_RELR sections plus
 * the symbol table each names in sh_link and that table's string table (its
 * own sh_link): what a linker's relocation pass reads; EP_SET_ALLOC the
 * SHF_ALLOC sections; EP_SET_ALL every section.  SHT_NOBITS and empty
 * sections are never loaded (they have no file bytes).
 */
enum ep_section_set { EP_SET_RELOCS, EP_SET_ALLOC, EP_SET_ALL };

/* "relocs", "alloc", "all". */
const char *ep_section_set_name(enum ep_section_set set);

/* The set called name; returns 0, or -1 when name is not a set. */
int ep_section_set_parse(const char *name, enum ep_section_set *set);

/*
 * binutils' rule for the hybrid mode: sections of at least 4 pages are mapped,
 * smaller ones are read (bfd/libbfd.c: bfd_init_pagesize() sets
 * _bfd_minimum_mmap_size to 4 * getpagesize(), and _bfd_mmap_temporary()
 * mallocs and reads anything smaller; binutils-gdb commit c6291d749aec "elf: Use
 * mmap to map in symbol and relocation tables", April 2024, first released in
 * binutils 2.43).  In bytes.
 */
uint64_t ep_load_default_threshold(void);

/* One section's bytes: offset in the image (the decoded image if compressed). */
struct ep_load_range {
	uint64_t offset; /* bytes */
	uint64_t size;	 /* bytes, > 0 */
};

struct ep_load_file {
	char *path;			 /* the file read: for an archive member, the archive
					  * (ranges then count from the archive's start) or a
					  * thin archive's member file */
	enum ep_compression compression; /* not EP_COMP_NONE: decoded in every mode */
	uint64_t image_size;		 /* bytes of the ELF image (decoded size if compressed) */
	struct ep_load_range *ranges;
	size_t nranges;
	uint64_t part_offset, part_size; /* the image's bytes in path: what a compressed
					  * file decodes; an archive member's extent (ar_size) */
	/*
	 * path's identity when the plan was made (stat(2)): the measured
	 * process refuses a file that is no longer this one (replaced,
	 * truncated, grown, or rewritten in place: st_mtim, seconds and ns)
	 * rather than measure something else.
	 */
	uint64_t st_dev, st_ino, st_size;
	uint64_t mtime_s, mtime_ns;
};

/* What to load: files in order, and the hybrid threshold. */
struct ep_load_plan {
	struct ep_load_file *files;
	size_t nfiles;
	uint64_t threshold; /* bytes: hybrid maps sections at least this big */
};

/* Totals over a plan. */
struct ep_load_totals {
	uint64_t files;
	uint64_t sections;
	uint64_t bytes; /* section bytes loaded per run */
	uint64_t compressed_files;
	uint64_t compressed_sections;
	uint64_t compressed_bytes; /* section bytes inside compressed files */
	uint64_t decoded_bytes;	   /* whole decoded images of compressed files */
	uint64_t mapped_sections;  /* hybrid: sections at least threshold bytes */
	uint64_t mapped_bytes;	   /* hybrid: their bytes (uncompressed files only) */
};

/*
 * Append img (opened from blob) to plan with the sections of set, in section
 * header order, each once.  The plan names the file by blob->file (img->path
 * may be a cleaned form of it, for reports; an archive member's file is the
 * archive, its ranges offset by blob->file_offset).  A file with no such section is still appended
 * (with nranges 0) so the report counts it.  Returns 0, or EP_EMALFORMED
 * when a relocation section's sh_link or a symbol table's sh_link is out of
 * range (naming the section), or EP_ENOMEM.
 */
int ep_load_plan_add(struct ep_load_plan *plan, const struct ep_image *img,
		     const struct ep_blob *blob, enum ep_section_set set, struct ep_error *err);

/*
 * Move every file of from to the end of plan, in order, leaving from empty:
 * for a plan made in parts (elfplt load plans its inputs in worker processes,
 * one file at a time, and each part crosses a pipe as ep_load_plan_encode()
 * text).  from's threshold is not used.  Returns 0, or EP_ENOMEM (plan and
 * from unchanged).
 */
int ep_load_plan_append(struct ep_load_plan *plan, struct ep_load_plan *from, struct ep_error *err);

void ep_load_plan_totals(const struct ep_load_plan *plan, struct ep_load_totals *t);

void ep_load_plan_free(struct ep_load_plan *plan);

/*
 * The plan as text for the measured process: *buf (malloc'd, *len bytes,
 * not NUL-terminated).  Paths are length-prefixed, so any byte but NUL may
 * appear in them.  Returns 0 or EP_ENOMEM.
 */
int ep_load_plan_encode(const struct ep_load_plan *plan, char **buf, size_t *len,
			struct ep_error *err);

/*
 * Parse buf[0..len) made by ep_load_plan_encode() into plan (zeroed first).
 * Returns 0, or EP_EMALFORMED ("plan: ...") on anything it did not write.
 */
int ep_load_plan_decode(struct ep_load_plan *plan, const char *buf, size_t len,
			struct ep_error *err);

/*
 * A sum of every loaded byte that the caller must use (print it), so the
 * compiler cannot drop the reads: bytes are taken as little-endian 64-bit
 * words from the start of the range, the last word zero-padded, and the words
 * added modulo 2^64.  Returns sum + the words of bytes[0..size).
 */
uint64_t ep_load_checksum(uint64_t sum, const unsigned char *bytes, size_t size);

/* What one load did (counts and bytes). */
struct ep_load_result {
	uint64_t sections_read;	   /* malloc + pread */
	uint64_t sections_mapped;  /* touched in place in a mapping */
	uint64_t sections_decoded; /* inside a compressed file, touched in its buffer */
	uint64_t bytes_loaded;	   /* section bytes touched */
	uint64_t bytes_copied;	   /* bytes pread into malloc'd buffers, plus decoded bytes */
	uint64_t bytes_decoded;	   /* bytes of decoded images (compressed inputs) */
	uint64_t copy_ns;	   /* time inside pread(2) of copied sections and inside
				      decoding compressed files: CLOCK_MONOTONIC, ns */
	uint64_t checksum;	   /* ep_load_checksum() over every section, in plan order */
	size_t failed_file;	   /* on an error, the index in the plan of the file that
				      failed; SIZE_MAX when no file is to blame */
};

/* The buffers and mappings a load holds until ep_load_release(). */
struct ep_load_held;

/*
 * Load every range of plan in mode and touch every byte:
 *   EP_LOAD_READ    each section malloc'd and filled with pread(2) from the
 *                   file (never copied out of a mapping);
 *   EP_LOAD_MMAP    each file mapped whole, PROT_READ, MAP_PRIVATE, and the
 *                   sections read in place; an archive's members, which
 *                   come in a row, share one mapping of the archive (as in
 *                   lld, which maps each input file once);
 *   EP_LOAD_HYBRID  sections of at least plan->threshold bytes as in mmap,
 *                   the others as in read (the file is mapped only if it
 *                   has such a section);
 *   EP_LOAD_NONE    nothing.
 * A compressed file is decoded into memory (lib/input.h) in every mode and
 * its sections read there: a mapping cannot help it.  res->copy_ns sums the
 * time of each copy alone (two clock reads around each pread_all() and each
 * decoding), so bytes_copied / copy_ns is a copy throughput that neither
 * the mapped sections nor the checksum dilute.  Everything stays held
 * (so the caller can measure the resident set) until ep_load_release(*held).
 * Each file is opened by ep_load_file_open().  Returns 0, or EP_EIO /
 * EP_ETRUNC (the file changed since the plan was made) / EP_ENOMEM / a
 * decoding error, naming the file, with res->failed_file its index in the
 * plan (SIZE_MAX for EP_ENOMEM, mmap's ENOMEM included: the file is not to
 * blame); what was loaded so far is still in *held.
 */
int ep_load_run(const struct ep_load_plan *plan, enum ep_load_mode mode, struct ep_load_result *res,
		struct ep_load_held **held, struct ep_error *err);

/*
 * Open f->path to load it: O_RDONLY | O_NONBLOCK | O_CLOEXEC (a FIFO put in
 * its place cannot block the open), then fstat(2) it.  Returns 0 with *fd
 * open, or EP_EIO naming the file when it cannot be opened, is not a
 * regular file, or is not the file planned: st_dev, st_ino, st_size or
 * st_mtim differ from f's ("changed since it was planned: ...").
 */
int ep_load_file_open(const struct ep_load_file *f, int *fd, struct ep_error *err);

/* Free and unmap what ep_load_run() held; held may be NULL. */
void ep_load_release(struct ep_load_held *held);

/*
 * Bring the decompressors the plan needs into this process before it is
 * measured: decode, and free again, the smallest file (by image_size) of each
 * compression in the plan.  Decoding pages in the decompressor's code
 * (libzstd; libdw with liblzma or zlib) and fills its lazily made tables,
 * some hundreds of KiB of file-backed and anonymous memory that any loader
 * pays once whatever its mode; primed, it is part of the starting point and
 * not of the figures.  The primed files are read once (under a cold cache
 * they are warm afterwards).  Returns 0, or the error of ep_load_file_open()
 * or ep_blob_open_part() with *failed the index in the plan of that file.
 */
int ep_load_prime(const struct ep_load_plan *plan, size_t *failed, struct ep_error *err);

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

/* clock_gettime(CLOCK_MONOTONIC) in ns, and clock_getres() of that clock in ns. */
uint64_t ep_monotonic_ns(void);
uint64_t ep_monotonic_res_ns(void);

/*
 * Cold cache: ask the kernel to drop f->path's pages from the page cache with
 * posix_fadvise(POSIX_FADV_DONTNEED) on the whole file, then map it and ask
 * mincore(2) how many of its pages are still resident.  The kernel keeps
 * pages that are dirty, locked or mapped by some process, so *resident_pages
 * may stay above 0.  *total_pages counts the file's pages.
 * The file is opened by ep_load_file_open(): a FIFO or a changed file is
 * refused.  Returns 0, or EP_EIO naming the file.  Nothing is written to it.
 */
int ep_cache_drop(const struct ep_load_file *f, uint64_t *resident_pages, uint64_t *total_pages,
		  struct ep_error *err);

/*
 * mincore(2) only: *resident_pages of *total_pages of f->path are in the
 * page cache.  Opened as by ep_cache_drop().  Returns 0, or EP_EIO naming
 * the file.
 */
int ep_cache_resident(const struct ep_load_file *f, uint64_t *resident_pages, uint64_t *total_pages,
		      struct ep_error *err);

/* Median (mean of the middle two when n is even), minimum and maximum. */
struct ep_summary {
	double median, min, max;
};

/* Summarise v[0..n); v is sorted in place.  n 0 gives all zeros. */
struct ep_summary ep_summarize(double *v, size_t n);

#endif
