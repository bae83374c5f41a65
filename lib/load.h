/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_LOAD_H
#define ELFPLT_LOAD_H

/*
 * The mmap-versus-read-copy measurement behind `elfplt load`: the three ways
 * of bringing a plan's sections in (read, mmap, hybrid), the checksum that
 * touches every loaded byte, the clock that times them and the summary of
 * repeated runs.  Which sections to load (the plan, and its text encoding
 * for the measured process) is lib/load-plan.h's; what the kernel says a
 * load cost (VmHWM, RssAnon and RssFile, faults, times) and the page
 * cache's state are lib/proc.h's.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/error.h"
#include "lib/blob.h"
#include "lib/decode.h"
#include "lib/walk.h"
#include "lib/load-plan.h"

/*
 * How sections are brought in.  EP_LOAD_NONE loads nothing: it is the empty
 * child whose cost (exec, dynamic linking, reading the plan) is subtracted.
 */
enum ep_load_mode { EP_LOAD_NONE, EP_LOAD_READ, EP_LOAD_MMAP, EP_LOAD_HYBRID, EP_LOAD_ACCESSOR };

/* "none", "read", "mmap", "hybrid", "accessor". */
const char *ep_load_mode_name(enum ep_load_mode mode);

/* The mode called name; returns 0, or -1 when name is not a mode. */
int ep_load_mode_parse(const char *name, enum ep_load_mode *mode);

/*
 * binutils' rule for the hybrid mode: sections of at least 4 pages are mapped,
 * smaller ones are read (bfd/libbfd.c: bfd_init_pagesize() sets
 * _bfd_minimum_mmap_size to 4 * getpagesize(), and _bfd_mmap_temporary()
 * mallocs and reads anything smaller; binutils-gdb commit c6291d749aec "elf: Use
 * mmap to map in symbol and relocation tables", April 2024, first released in
 * binutils 2.43).  In bytes.
 */
uint64_t ep_load_default_threshold(void);

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
 *   EP_LOAD_ACCESSOR  elfplt's own accessor, as stats and plt read
 *                   (lib/blob.h, EP_ACCESS_HYBRID): a file at a time in
 *                   its reused window, sections under plan->threshold read
 *                   with pread(2), larger ones mapped over their place, the
 *                   window given back before the next file (so nothing
 *                   stays held but the window);
 *   EP_LOAD_NONE    nothing.
 * A compressed file is decoded into memory (lib/decode.h) in every mode and
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

/*
 * clock_gettime(CLOCK_MONOTONIC) in ns (the clock of copy_ns and of every
 * wall time elfplt reports), and clock_getres() of that clock in ns, 0 when
 * the kernel does not say.
 */
uint64_t ep_monotonic_ns(void);
uint64_t ep_monotonic_res_ns(void);

/* Median (mean of the middle two when n is even), minimum and maximum. */
struct ep_summary {
	double median, min, max;
};

/* Summarise v[0..n); v is sorted in place.  n 0 gives all zeros. */
struct ep_summary ep_summarize(double *v, size_t n);

/* The fewest runs whose [min..max] range says anything about noise. */
#define EP_NOISE_MIN_RUNS 3

/* What a difference between two modes' runs of one figure is. */
enum ep_verdict {
	EP_VERDICT_RESULT,	 /* the ranges do not overlap: a difference */
	EP_VERDICT_WITHIN_NOISE, /* they overlap: no difference can be told */
	EP_VERDICT_TOO_FEW_RUNS, /* fewer than EP_NOISE_MIN_RUNS runs: no range */
	EP_VERDICT_BELOW_FLOOR,	 /* the reference's median is below the floor */
};

/*
 * Compare mode with ref (each the summary of runs runs of one figure, in
 * the same unit as floor): a result only when the two [min..max] ranges do
 * not overlap, so that the spread of the runs themselves is the noise
 * measured; nothing is said from fewer than EP_NOISE_MIN_RUNS runs, nor of
 * a ref whose median is below floor (a figure too small to measure).
 */
enum ep_verdict ep_compare_runs(struct ep_summary ref, struct ep_summary mode, size_t runs,
				double floor);

/* "result", "within_noise", "too_few_runs", "below_floor"; NULL if out of range. */
const char *ep_verdict_name(enum ep_verdict v);

#endif
