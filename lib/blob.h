/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_BLOB_H
#define ELFPLT_BLOB_H

/*
 * A file's bytes, or an archive member's: the file mapped read-only or, when
 * compressed, decoded into memory (lib/decode.h).  Nothing is ever written
 * to an input: files are opened O_RDONLY (and O_NONBLOCK, so a FIFO cannot
 * block) and mapped PROT_READ, MAP_PRIVATE; anything but a regular file is
 * refused before it is opened (ep_open_regular()).  A mapped file that
 * shrinks while it is read is read as zeros and reported (ep_blob_check()).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/decode.h"
#include "lib/error.h"

/*
 * How a plain (uncompressed) input's bytes are brought in:
 *   EP_ACCESS_HYBRID  what is needed, by size: a range under the threshold
 *                     (ep_access_threshold(), default four pages as binutils
 *                     uses) read with pread() into a buffer reused from file
 *                     to file, a larger one mapped from the file;
 *   EP_ACCESS_READ    what is needed, every range read with pread();
 *   EP_ACCESS_MMAP    the whole file mapped.
 * A compressed input is mapped and decoded whatever the mode.
 */
enum ep_access { EP_ACCESS_HYBRID, EP_ACCESS_READ, EP_ACCESS_MMAP };

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
	uint64_t st_nlink;	 /* its hard links (fstat) */
	/*
	 * EP_ACCESS_READ or EP_ACCESS_HYBRID (ep_blob_open_access()): bytes is
	 * a window of size bytes of which only the first 64 bytes (all of
	 * them when size is under the threshold: one read, not one per
	 * section) and what ep_blob_need() brought in hold the file's bytes;
	 * the rest reads as zeros.  fd stays open until ep_blob_close().
	 */
	bool sparse;
	enum ep_access access; /* how it was opened */
	int fd;		       /* the open file of a sparse blob, else -1 or 0 */
};

/*
 * The process-wide access mode and threshold (bytes; 0 keeps the default,
 * four pages), for the inputs opened from now on by ep_blob_open_entry()
 * (lib/walk.h); set before workers fork.
 */
void ep_access_set(enum ep_access mode, uint64_t threshold_bytes);
enum ep_access ep_access_mode(void);
uint64_t ep_access_threshold(void);

/* "read", "mmap", "hybrid" -> *mode; returns 0, or -1 for another name. */
int ep_access_parse(const char *name, enum ep_access *mode);
const char *ep_access_name(enum ep_access mode);

/*
 * ep_blob_open_part() (size 0 and offset 0: the whole file) with the given
 * access mode.  listed_regular: a directory walk saw file as a regular file
 * (readdir()'s d_type): it is opened without a stat() first, and refused
 * after its fstat() if it is not regular any more.  A sparse blob
 * (EP_ACCESS_READ, EP_ACCESS_HYBRID) holds the one reused window of the
 * process: while one is open, another opens mapped.  Errors as
 * ep_blob_open_part()'s.
 */
int ep_blob_open_access(struct ep_blob *blob, const char *path, const char *file, uint64_t offset,
			uint64_t size, bool populate, enum ep_access access, bool listed_regular,
			struct ep_error *err);

/*
 * Bring the image bytes [off, off + len) of blob in, clipped to the image:
 * a no-op for a blob that is not sparse.  Bytes past the end of a file that
 * shrank read as zeros, and ep_blob_check() reports it, as for a mapping.
 * Returns 0, or a negative ep_errcode with err filled (EP_EIO: pread() or
 * mmap() failed, naming the file).
 */
int ep_blob_need(const struct ep_blob *blob, uint64_t off, uint64_t len, struct ep_error *err);

/*
 * What the accessor did in this process, for `elfplt load` and tests:
 * pread() calls and bytes read, mmap() calls and bytes mapped, by sparse
 * blobs since the process started.
 */
struct ep_access_counts {
	uint64_t preads, bytes_read, maps, bytes_mapped;
};
void ep_access_counts(struct ep_access_counts *counts);

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
 * ep_blob_open() of the whole of file, named path in messages and in
 * blob->path (both strings must outlive blob): what a thin archive's member
 * is.  Errors as ep_blob_open()'s; one about file names both.
 */
int ep_blob_open_file(struct ep_blob *blob, const char *path, const char *file, bool populate,
		      struct ep_error *err);

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
 * Guard a mapping of a file that is not a blob's (an archive mapped to list
 * its members) as a blob's is guarded: a read in [map, map + len) past the
 * end of a file that shrank sees zeros instead of raising SIGBUS.  The
 * handler is installed on first use.  Returns 0, or -1 when memory runs out
 * or sigaction() fails.  ep_blob_unguard() it before munmap().
 */
int ep_blob_guard(const void *map, size_t len);

/* Take the mapping that starts at map off the guarded list, before it is unmapped. */
void ep_blob_unguard(const void *map);

#endif
