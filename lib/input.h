/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_INPUT_H
#define ELFPLT_INPUT_H

/*
 * From paths to image bytes: the directory walk, and the file itself mapped
 * read-only or, when compressed, decoded into memory.  Compression is
 * recognised by magic bytes, never by suffix: zstd (28 B5 2F FD, or a
 * skippable frame's 5x 2A 4D 18 as pzstd writes first; libzstd),
 * xz (FD 37 7A 58 5A 00, liblzma) and gzip (1F 8B, zlib), each decoded into
 * memory with the size capped (not through libdw's dwelf_elf_begin(): it has
 * no cap, so a small xz or gzip bomb could take all memory).  Nothing is ever
 * written to an input: files are opened O_RDONLY (and O_NONBLOCK, so a FIFO
 * cannot block) and mapped PROT_READ, MAP_PRIVATE; anything but a regular
 * file is refused before it is opened (ep_open_regular()).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/decode.h"
#include "lib/error.h"
#include "lib/inode-set.h"

/* The magic of an ar archive (binutils include/aout/ar.h), 8 bytes each. */
#define EP_ARMAG   "!<arch>\n"
#define EP_THINMAG "!<thin>\n"

/* A file's bytes, or an archive member's, ready for ep_image_open(). */
struct ep_blob {
	const char *path;	    /* for messages and reports: "lib.a(x.o)" for a member */
	const unsigned char *bytes; /* the image */
	size_t size;		    /* bytes of the image */
	uint64_t file_size;	    /* bytes on disk (compressed size if compressed); a
				     * member: its bytes in the archive (ar_size) */
	enum ep_compression compression;
	bool mapped; /* bytes is a mapping of the file (no copy) */
	void *map;   /* the mapping to munmap, or NULL */
	size_t map_size;
	void *owned; /* decoded buffer to free, or NULL */
	/*
	 * Where the bytes are on disk, for a caller that reads them again
	 * (elfplt load): file_size bytes at file_offset in file.  For a whole
	 * file, file is path and file_offset 0; for a member of a regular
	 * archive, the archive and the member's data offset; for a member of a
	 * thin archive, the member's own file.
	 */
	const char *file;
	uint64_t file_offset;
	const char *archive;	 /* a member's archive as named, else NULL */
	const char *member;	 /* a member's name in its archive, else NULL */
	uint64_t st_dev, st_ino; /* file's identity (fstat), for hard links */
};

/* head[0..n) starts with EP_ARMAG or EP_THINMAG. */
bool ep_is_archive(const unsigned char *head, size_t n);

struct stat;

/*
 * Open path for reading (O_RDONLY, O_NONBLOCK, O_CLOEXEC) if it is a regular
 * file, with *st its fstat().  stat() comes first: a FIFO or a device node
 * (a thin archive can name /dev/st0, which rewinds a tape on close, or
 * /dev/watchdog) is never opened; the open file is checked again, for one
 * swapped in between.  Returns the descriptor, -1 with errno set when
 * stat(), open() or fstat() fails, or -2 when path is not a regular file.
 */
int ep_open_regular(const char *path, struct stat *st);

/*
 * Open path: map it read-only or decode it.  populate asks the kernel to
 * fault the mapping in ahead (MAP_POPULATE), for callers that read all of it.
 * Errors: EP_EIO (open/fstat/mmap, not a regular file), EP_ENOMEM, EP_ETRUNC
 * (a compressed stream that is truncated or corrupt), EP_ENOTELF (a
 * compressed stream whose first decoded bytes are not the ELF magic:
 * decoding stops there), EP_ENOMEM when the decoded size exceeds the cap
 * (ep_input_max_size(); exactly the cap passes, whatever follows that
 * decodes to nothing: an empty frame or member, a skippable frame), EP_ETRUNC
 * for a zstd frame that records more than its bytes can hold
 * (ep_zstd_max_decoded()).  Zero bytes after the last gzip member are
 * ignored, as gzip -d does.  An empty file gives size 0.
 */
int ep_blob_open(struct ep_blob *blob, const char *path, bool populate, struct ep_error *err);

/*
 * ep_blob_open() of part of a file: the size bytes at offset in file (size
 * 0: from offset to the end), named path in messages and in blob->path
 * (both strings must outlive blob).  What an archive member is: its bytes
 * are mapped in place (the page-aligned window around them, never copied),
 * or decoded when they are compressed.  Errors as ep_blob_open()'s, and
 * EP_ETRUNC when the part goes past the end of file.
 */
int ep_blob_open_part(struct ep_blob *blob, const char *path, const char *file, uint64_t offset,
		      uint64_t size, bool populate, struct ep_error *err);

/*
 * Whether the file changed under blob while it was read: a mapped file that
 * shrinks (truncated, or rewritten in place) makes reading past its new end
 * raise SIGBUS.  ep_blob_open() installs a SIGBUS handler (sigaction, once
 * per process) that has such a read see zeros instead, for the process to
 * live on; what was computed from the bytes is then worthless.  Call this
 * after the last read of blob->bytes.  Returns 0, or -EP_EIO with err filled
 * ("PATH: the file shrank while it was read").  A compressed file is checked
 * by ep_blob_open() itself, as its mapping is gone once decoded.
 */
int ep_blob_check(const struct ep_blob *blob, struct ep_error *err);

/* Unmap or free what ep_blob_open() made.  blob may be zeroed. */
void ep_blob_close(struct ep_blob *blob);

/*
 * Where entry i of a path list is when it is an archive member: archive is
 * NULL for a file.  A regular archive's member is size bytes at offset in
 * file (the archive); a thin archive's member is the whole of file, named
 * relative to the archive's directory (offset and size 0).  error, when
 * set, is why the archive could not be listed from this entry on: opening
 * the entry fails with it.
 */
struct ep_member {
	char *archive; /* the archive as named or found */
	char *name;    /* the member's name in the archive (ar_name, long names resolved) */
	char *file;    /* the file holding its bytes */
	uint64_t offset, size;
	char *error;
};

/* A list of inputs to analyse, owned. */
struct ep_pathlist {
	char **paths; /* as named or found; "ARCHIVE(MEMBER)" for a member: for reports */
	bool *walked; /* found by a directory walk or in an archive, not named by the user */
	struct ep_member *members; /* members[i].archive: entry i is an archive member */
	size_t count;
	size_t cap;
};

/*
 * Expand paths[0..n) into pl (appending).  A file is taken as it is (even if
 * it turns out not to be ELF: that is for the caller to report), unless it
 * is an ar archive ("!<arch>\n", or a thin archive "!<thin>\n", recognised by
 * its first bytes, never its name): then each member but the archive's
 * symbol table ("/", "/SYM64/") and long-name table ("//") is one entry,
 * "ARCHIVE(MEMBER)", in archive order, marked walked (one that is not ELF
 * is to be passed over quietly); members of a thin archive are files named
 * relative to the archive's directory.  An archive whose headers are
 * broken gives an entry for the archive with members[i].error set at the
 * point where listing stopped.  A directory is walked recursively and gives
 * all its regular files, each directory's files in strcmp() order, so runs
 * are reproducible; symbolic links inside it are not followed (one named in
 * paths is).  The walk does not open the files it lists: every one is
 * marked walked[i]; the caller should pass over quietly one that turns out
 * not to be ELF (no ELF magic, directly or after decompression) or that is
 * gone, report one it may not read (EACCES, EPERM), which could be a module,
 * expand one that is an archive (ep_is_archive() on its bytes: expanding
 * its path lists its members) and take a file reached by several hard links
 * once (ep_inode_set_add_at() on the blob's st_dev and st_ino, offset 0; for
 * a member of a regular archive, with its offset, so an archive
 * both named and walked is read once; a thin archive's member is a file of
 * its own, identified as one).  Returns 0, or
 * a negative ep_errcode (EP_ENOMEM) with err filled.  A path that does not
 * exist (or loops: ELOOP) is listed like a file, for ep_blob_open() to
 * report; so is a directory below it that cannot be read (EACCES, or a path
 * longer than PATH_MAX: ENAMETOOLONG), not marked walked.  Trees of any
 * depth are walked; a directory that is its own ancestor (a bind mount
 * loop) only once.
 */
int ep_pathlist_expand(struct ep_pathlist *pl, const char *const *paths, size_t n,
		       struct ep_error *err);

/* The file entry i opens: paths[i], or a member's members[i].file. */
const char *ep_pathlist_file(const struct ep_pathlist *pl, size_t i);

/*
 * Open entry i of pl as ep_blob_open() opens a file, blob->path being
 * pl->paths[i]; a member through ep_blob_open_part(), with blob->archive
 * and blob->member set.  An entry with members[i].error fails with that
 * message (EP_EMALFORMED).
 */
int ep_blob_open_entry(struct ep_blob *blob, const struct ep_pathlist *pl, size_t i, bool populate,
		       struct ep_error *err);

/* Free the list's strings and array. */
void ep_pathlist_free(struct ep_pathlist *pl);

#endif
