/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_INPUT_H
#define ELFPLT_INPUT_H

/*
 * From paths to image bytes: the directory walk, and the file itself mapped
 * read-only or, when compressed, decoded into memory.  Compression is
 * recognised by magic bytes, never by suffix: zstd (28 B5 2F FD, libzstd),
 * xz (FD 37 7A 58 5A 00, liblzma) and gzip (1F 8B, zlib), each decoded into
 * memory with the size capped (not through libdw's dwelf_elf_begin(): it has
 * no cap, so a small xz or gzip bomb could take all memory).  Nothing is ever
 * written to an input: files are opened O_RDONLY (and O_NONBLOCK, so a FIFO
 * cannot block) and mapped PROT_READ, MAP_PRIVATE.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/error.h"

/*
 * Largest decompressed image accepted, in bytes (a cap against zstd, xz and
 * gzip bombs).  The environment variable ELFPLT_DECOMPRESS_MAX (bytes) can
 * lower it, never raise it.
 */
#define EP_DECOMPRESS_MAX ((uint64_t)4 << 30)

enum ep_compression { EP_COMP_NONE, EP_COMP_ZSTD, EP_COMP_XZ, EP_COMP_GZIP };

/* "none", "zstd", "xz", "gzip". */
const char *ep_compression_name(enum ep_compression c);

/* The compression the first bytes of a file announce (at least 6 bytes). */
enum ep_compression ep_compression_sniff(const unsigned char *head, size_t n);

/* A file's bytes, ready for ep_image_open(). */
struct ep_blob {
	const char *path;
	const unsigned char *bytes; /* the image */
	size_t size;		    /* bytes of the image */
	uint64_t file_size;	    /* bytes on disk (compressed size if compressed) */
	enum ep_compression compression;
	bool mapped; /* bytes is a mapping of the file (no copy) */
	void *map;   /* the mapping to munmap, or NULL */
	size_t map_size;
	void *owned; /* decoded buffer to free, or NULL */
};

/*
 * Open path: map it read-only or decode it.  populate asks the kernel to
 * fault the mapping in ahead (MAP_POPULATE), for callers that read all of it.
 * Errors: EP_EIO (open/fstat/mmap, not a regular file), EP_ENOMEM, EP_ETRUNC
 * (a compressed stream that is truncated or corrupt), EP_ENOTELF (a
 * compressed stream whose first decoded bytes are not the ELF magic:
 * decoding stops there), EP_ENOMEM when the decoded size exceeds the cap
 * (EP_DECOMPRESS_MAX).  An empty file gives size 0.
 */
int ep_blob_open(struct ep_blob *blob, const char *path, bool populate, struct ep_error *err);

/*
 * Decode src[0..n), compressed as blob->compression says, into a buffer that
 * blob then owns (blob->bytes, blob->size; freed by ep_blob_close()).  The
 * caller zeroes blob and sets path (for messages) and compression.  The
 * entry point ep_blob_open() uses on a compressed file, public for the fuzz
 * targets.  Errors as ep_blob_open()'s for a compressed file, and EP_EUNSUP
 * when compression is EP_COMP_NONE.
 */
int ep_blob_decode(struct ep_blob *blob, const unsigned char *src, size_t n, struct ep_error *err);

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

/* A list of paths to analyse, owned. */
struct ep_pathlist {
	char **paths;
	bool *walked; /* found by a directory walk, not named by the user */
	size_t count;
	size_t cap;
};

/*
 * Expand paths[0..n) into pl: a file is taken as it is (even if it turns out
 * not to be ELF: that is for the caller to report); a directory is walked
 * recursively (symbolic links are not followed) and gives all its regular
 * files, each directory's files in strcmp() order, so runs are reproducible.
 * The walk does not open them: every file it found is marked walked[i]; the
 * caller should pass over quietly one that turns out not to be ELF (no ELF
 * magic, directly or after decompression) or that is gone, and report one it
 * may not read (EACCES, EPERM), which could be a module.
 * Returns 0, or a negative ep_errcode (EP_ENOMEM) with err filled.  A path
 * that does not exist is listed like a file, for ep_blob_open() to report;
 * so is a directory below it that cannot be read (EACCES, or a path longer
 * than PATH_MAX: ENAMETOOLONG), not marked walked.  Trees of any depth are
 * walked; a directory that is its own ancestor (a bind mount loop) only once.
 */
int ep_pathlist_expand(struct ep_pathlist *pl, const char *const *paths, size_t n,
		       struct ep_error *err);

/* Free the list's strings and array. */
void ep_pathlist_free(struct ep_pathlist *pl);

#endif
