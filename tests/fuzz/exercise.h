/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_TESTS_EXERCISE_H
#define ELFPLT_TESTS_EXERCISE_H

/*
 * Inputs through the library entry points a command uses on a file's bytes,
 * shared by the fuzz targets (tests/fuzz/fuzz_target.c), the regression
 * replay of make check (tests/fuzz/replay.c) and the mutation test
 * (tests/unit/mutate_test.c).  An error return is the expected answer to
 * bad input; each function abort()s (so the caller sees a crash) when an
 * error message does not start with "fuzz.o: " or is not one line of clean
 * text (ep_text_is_clean()), or when a result contradicts itself.
 */

#include <stddef.h>
#include <stdint.h>

/*
 * Every function here lowers the caps on decoded bytes (whole file and
 * SHF_COMPRESSED sections) to EP_EXERCISE_DECODE_CAP, for the process.
 *
 * Open data[0..size) as the image "fuzz.o", walk every section (name,
 * contents, raw bytes; SHF_COMPRESSED contents decoded to exactly ch_size
 * bytes), open every symbol table and every relocation
 * section and read it both ways (ep_relsec_next() in batches and
 * ep_relsec_read_all(), which must agree), then ep_stats_file() and the
 * load plan of every section set with its text round trip.  Returns 0 when
 * the image opened, -1 when it did not.
 */
int ep_exercise_stats(const uint8_t *data, size_t size);

/*
 * Open data[0..size) as "fuzz.o" and run every PLT model: the automatic
 * choice (with plt --timing's sorts, one repetition), and each model forced
 * with KASLR on and off.  Returns 0 when the
 * image opened, -1 when it did not.
 */
int ep_exercise_plt(const uint8_t *data, size_t size);

/* Both of the above on one open image.  Returns 0 when it opened, else -1. */
int ep_exercise_image(const uint8_t *data, size_t size);

/*
 * Decode data[0..size) with ep_blob_decode() as zstd, xz or gzip
 * (EP_COMP_ZSTD, ...; an enum ep_compression) under the cap; when it decodes,
 * the result goes through ep_exercise_image().  Returns 0 when it decoded,
 * -1 when it did not.
 */
#define EP_EXERCISE_DECODE_CAP (4u << 20)
int ep_exercise_decode(int compression, const uint8_t *data, size_t size);

/*
 * Write data[0..size) to a file, "fuzz.a" in a private directory under
 * $TMPDIR, and take it as a PATH is taken: ep_pathlist_expand() (an ar or
 * thin archive gives its members, "ARCHIVE(MEMBER)"), then each entry
 * opened with ep_blob_open_entry() (mapped, or decoded when compressed) and
 * put through ep_exercise_image()'s work under its own name.  Returns 0
 * when some entry opened as an image, -1 when none did.
 */
int ep_exercise_archive(const uint8_t *data, size_t size);

/*
 * The first error message a run met since the caller last set [0] to '\0'
 * (an input's name without its directory), or "" when none: what the
 * regression replay compares with each input's expected line.
 */
#define EP_EXERCISE_ERROR_MAX 512
extern char ep_exercise_first_error[EP_EXERCISE_ERROR_MAX];

/* The fuzz targets by name ("stats", "plt", "zstd", "xz", "gzip", "archive"). */
struct ep_fuzz_target {
	const char *name;
	int (*run)(const uint8_t *data, size_t size);
};

/* NULL-terminated (name NULL) list of every target. */
extern const struct ep_fuzz_target ep_fuzz_targets[];

/* The target called name, or NULL. */
const struct ep_fuzz_target *ep_fuzz_target_find(const char *name);

#endif
