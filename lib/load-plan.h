/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_LOAD_PLAN_H
#define ELFPLT_LOAD_PLAN_H

/*
 * The plan of `elfplt load`: which sections of each input a linker would
 * bring in, as byte ranges of the file, with each file's identity at
 * planning.  It is made in one process (the parent, which parses the ELF
 * headers) and carried to the measured process as a small text encoding, so
 * the measured process never parses ELF and holds nothing it did not load;
 * there every file is opened through ep_load_file_open(), which refuses a
 * file that changed since it was planned.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/elf.h"
#include "lib/error.h"
#include "lib/blob.h"

/*
 * Which sections: EP_SET_RELOCS the SHT_REL/SHT_RELA/SHT_RELR/SHT_CREL sections plus
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

/* One section's bytes: offset in the image (the decoded image if compressed). */
struct ep_load_range {
	uint64_t offset; /* bytes */
	uint64_t size;	 /* bytes, > 0 */
};

/* One input to load: where its bytes are, which ranges, and what it was. */
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

/*
 * Sum plan into *t (zeroed first): files, sections and bytes of every range;
 * the compressed ones apart; and, of the uncompressed ones, those hybrid
 * would map (at least plan->threshold bytes).  Cannot fail.
 */
void ep_load_plan_totals(const struct ep_load_plan *plan, struct ep_load_totals *t);

/* Free every file's path and ranges and the files; *plan is left empty (zeroed). */
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
 * Open f->path to load it: O_RDONLY | O_NONBLOCK | O_CLOEXEC (a FIFO put in
 * its place cannot block the open), then fstat(2) it.  Returns 0 with *fd
 * open, or EP_EIO naming the file when it cannot be opened, is not a
 * regular file, or is not the file planned: st_dev, st_ino, st_size or
 * st_mtim differ from f's ("changed since it was planned: ...").
 */
int ep_load_file_open(const struct ep_load_file *f, int *fd, struct ep_error *err);

#endif
