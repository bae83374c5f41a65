/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_REPORT_H
#define ELFPLT_REPORT_H

/*
 * The report: JSON documents through jansson, and aligned text tables.
 * Every command's JSON is one document
 *   {"schema": "elfplt-<command>/1", "elfplt_version": "...", "files": [...],
 *    "totals": {...}}
 * where an enumeration carries both forms, {"name": ..., "value": ...}, and
 * a file that could not be analysed has "error": {"code", "message"}.
 */

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/blob.h"
#include "lib/elf.h"
#include "lib/error.h"

/*
 * A new document for schema ("elfplt-stats/2") with an empty "files" array
 * and "totals" object.  Returns NULL when out of memory.
 */
json_t *ep_report_new(const char *schema);

/* {"name": name, "value": value}; name NULL gives JSON null. */
json_t *ep_json_enum(const char *name, uint64_t value);

/* An unsigned count as a JSON integer (jansson's json_int_t is signed). */
json_t *ep_json_u64(uint64_t v);

/*
 * {"path": path, "error": {"code": ep_errcode_name(), "message": ...}}: the
 * files[] entry of a file that could not be analysed.
 */
json_t *ep_json_file_error(const char *path, const struct ep_error *err);

/*
 * Set in the files[] entry file the keys that say where its image came
 * from: "compression" ("none", "zstd", "xz", "gzip"), and "archive" and
 * "member" (the archive as named and the member's name in it, as clean
 * text, see lib/error.h; both null for a file that is not a member).
 */
void ep_json_input_keys(json_t *file, const struct ep_blob *blob);

/*
 * The "elf" object of img: class, data, type and machine as enumerations
 * ({"name": "EM_AARCH64", "value": 183}, with "description" for machine).
 */
json_t *ep_json_elf(const struct ep_image *img);

/*
 * Write doc to out, indented, with a final newline; reals with 9 significant
 * digits (a nanosecond of a one-second figure).  Returns 0, or -EP_EIO
 * when the stream reports an error.
 */
int ep_report_write_json(json_t *doc, FILE *out);

/*
 * v dumped the way ep_report_write_json() writes it when v sits depth levels
 * deep in the document (each line after the first indented 2 * depth more
 * spaces), as a new NUL-terminated string (free() it) of *len bytes, without
 * a final newline.  Any JSON value, not only objects and arrays.  Returns
 * NULL when out of memory.  Thread-safe for values no other thread changes.
 */
char *ep_json_dump_at(const json_t *v, unsigned int depth, size_t *len);

/*
 * The document of ep_report_new() written as it is made, so a run over
 * thousands of files never holds all their objects: begin writes up to the
 * "files" array, each file object follows as soon as it is ready, end writes
 * the "totals" object and closes the document.  The bytes are exactly those
 * ep_report_write_json() writes for the whole document with the same files
 * and totals.
 */
struct ep_json_stream {
	FILE *out;
	size_t nfiles; /* files[] entries written */
	bool failed;   /* a write or dump failed */
	bool closed;   /* "files" closed (ep_json_stream_key()) */
};

/* Start the document of schema on out.  Returns 0, -EP_EIO or -EP_ENOMEM. */
int ep_json_stream_begin(struct ep_json_stream *js, FILE *out, const char *schema);

/*
 * Append a files[] entry: file itself, or text of len bytes that
 * ep_json_dump_at(file, 2, ...) made (in a worker process, say).
 * Returns 0, -EP_EIO or -EP_ENOMEM.
 */
int ep_json_stream_file(struct ep_json_stream *js, const json_t *file);
int ep_json_stream_file_text(struct ep_json_stream *js, const char *text, size_t len);

/*
 * Close "files" (if still open) and write key: value at the top level,
 * before the totals; for "skipped".  Returns 0, or -EP_EIO.
 */
int ep_json_stream_key(struct ep_json_stream *js, const char *key, const json_t *value);

/*
 * Close "files", write totals (an object) and close the document with a
 * final newline.  Returns 0, or -EP_EIO when anything failed since begin.
 */
int ep_json_stream_end(struct ep_json_stream *js, const json_t *totals);

/*
 * One file's JSON objects from an arena: between ep_json_arena_begin() and
 * ep_json_arena_end(), every value jansson makes (objects, their tables and
 * keys, strings, numbers) is carved from large blocks instead of one
 * malloc() each, and ep_json_arena_end() takes them all back at once.  A
 * file's object is thousands of values built, dumped once and dropped: this
 * takes a fifth off `stats --json` (profile: malloc and free were a sixth of
 * it).  Through jansson's json_set_alloc_funcs(), set on the first begin and
 * kept: outside a scope allocations go to malloc(), and freeing a value
 * made in a scope is a no-op, so values from before a scope may be dropped
 * inside it.  No value made inside a scope may be used after its end (ASan
 * builds poison the blocks to catch that), nor may a string jansson hands
 * over for free() (json_dumps()) be made inside one: ep_json_dump_at()'s
 * buffer is malloc()'s and outlives the scope.  Scopes do not nest; not for
 * threads (a process's workers each have their own).  begin returns 0;
 * running out of memory shows as jansson's NULL, as with malloc().
 */
int ep_json_arena_begin(void);
void ep_json_arena_end(void);

/* A text table: columns with headers, each left- or right-aligned. */
struct ep_table;

/*
 * A table of ncols columns; align is a string of ncols letters, 'l' or 'r'
 * (numbers are right-aligned).  Returns NULL when out of memory.
 */
struct ep_table *ep_table_new(unsigned int ncols, const char *const *headers, const char *align);

/*
 * Append a row; cells are printf-formatted one after the other by
 * ep_table_cell() calls after ep_table_row().  Out-of-memory is remembered
 * and reported by ep_table_print().
 */
void ep_table_row(struct ep_table *t);
void ep_table_cell(struct ep_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The same as ep_table_cell(t, "%s", s) and (t, "%" PRIu64, v), without printf. */
void ep_table_cell_str(struct ep_table *t, const char *s);
void ep_table_cell_u64(struct ep_table *t, uint64_t v);

/* "[index]", or "[index] name" when name is not NULL: a section as readelf shows it. */
void ep_table_cell_index(struct ep_table *t, uint64_t index, const char *name);

/*
 * Print t to out, each line starting with indent, columns separated by two
 * spaces and padded to their widest cell.  Returns 0 or -EP_ENOMEM.
 *
 * With a text width set (ep_text_width_set()), a table wider than it is
 * fitted: when narrowing its left-aligned columns (names) is enough, they
 * are narrowed, the widest first but none below EP_TABLE_MIN_NAME columns
 * or its header, each longer cell abbreviated in the middle
 * (ep_text_abbrev()); otherwise the columns that do not fit are printed
 * below as further tables of the same rows, each led again by the first
 * column (the row's key), and a block still too wide is narrowed so.
 * Widths are counted in bytes: the tables' text is ASCII but for names.
 */
int ep_table_print(const struct ep_table *t, FILE *out, const char *indent);

/* The narrowest a name column is made to fit a table in the width. */
#define EP_TABLE_MIN_NAME 16

/*
 * The width, in columns, text output is fitted to (tables by
 * ep_table_print(), other lines by the command's output stream); 0 (the
 * default, and --wide) for no limit.  Set once before the run: worker
 * processes inherit it.
 */
void ep_text_width_set(size_t columns);
size_t ep_text_width(void);

/*
 * s (len bytes) abbreviated to at most width bytes by replacing its middle
 * with one '~': the first (width - 1 + 1) / 2 and the last (width - 1) / 2
 * bytes are kept, never splitting a UTF-8 sequence.  Writes to buf (at least
 * width + 1 bytes) and returns the bytes written, or copies s whole when it
 * fits.  width >= 3.
 */
size_t ep_text_abbrev(const char *s, size_t len, size_t width, char *buf);

/* Rows added so far. */
size_t ep_table_rows(const struct ep_table *t);

/* Free the table and its cells; t may be NULL. */
void ep_table_free(struct ep_table *t);

/* one when n is 1, else many: "1 file", "2 files". */
static inline const char *ep_plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* "12.3%" of part in whole into buf ("-" when whole is 0). */
const char *ep_percent(char *buf, size_t size, uint64_t part, uint64_t whole);

#endif
