/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_DECODE_H
#define ELFPLT_DECODE_H

/*
 * Compressed inputs.  Compression is recognised by magic bytes, never by
 * suffix: zstd (28 B5 2F FD, or a skippable frame's 5x 2A 4D 18 as pzstd
 * writes first; libzstd), xz (FD 37 7A 58 5A 00, liblzma) and gzip (1F 8B,
 * zlib), each decoded into memory with the size capped (not through libdw's
 * dwelf_elf_begin(): it has no cap, so a small xz or gzip bomb could take
 * all memory).  One file per format, as kmod keeps one per compressor:
 * decode-zstd.c, decode-xz.c, decode-gzip.c; what they share is here and in
 * decode.c (decode-internal.h).
 */

#include <stddef.h>
#include <stdint.h>

#include "lib/error.h"

struct ep_blob;

/*
 * The cap on a decompressed image, in bytes, against zstd, xz and gzip
 * bombs: a compressed input (a whole file, an archive member) that decodes
 * to more fails with EP_ENOMEM, "PATH: xz data decodes to more than N bytes
 * (--max-size)".  EP_MAX_SIZE_DEFAULT (1 GiB) until ep_input_set_max_size()
 * sets it (elfplt's --max-size=BYTES); a process-wide setting, inherited by
 * forked workers and handed to `load`'s exec'd children as --max-size.  The
 * same cap is meant for anything else decoded from an input, such as an
 * SHF_COMPRESSED section's ch_size: ep_input_max_size() gives it.
 */
#define EP_MAX_SIZE_DEFAULT ((uint64_t)1 << 30)

/* Set the cap (bytes, at least 1). */
void ep_input_set_max_size(uint64_t bytes);

/* The cap in bytes. */
uint64_t ep_input_max_size(void);

/*
 * Parse a --max-size value: a positive decimal number of bytes, optionally
 * followed by K, M, G (powers of 1024, as KiB, MiB, GiB also say).  Returns
 * 0 with *bytes set, or -1 when s is not such a size or overflows 64 bits.
 */
int ep_parse_size(const char *s, uint64_t *bytes);

enum ep_compression { EP_COMP_NONE, EP_COMP_ZSTD, EP_COMP_XZ, EP_COMP_GZIP };

/* "none", "zstd", "xz", "gzip". */
const char *ep_compression_name(enum ep_compression c);

/* The compression the first bytes of a file announce (at least 6 bytes). */
enum ep_compression ep_compression_sniff(const unsigned char *head, size_t n);

/*
 * The most n bytes of zstd frames can decode to, in bytes (RFC 8878
 * 3.1.1.2): a block decodes to at most Block_Maximum_Size, 128 KiB, and
 * takes at least 4 bytes of input to do so (a 3-byte Block_Header and the
 * one byte of an RLE_Block): n * 32768, saturating.  A frame header (or an
 * SHF_COMPRESSED section's ch_size) that records more is corrupt, and is
 * refused before its size is allocated.
 */
uint64_t ep_zstd_max_decoded(size_t n);

/*
 * Decode src[0..n), compressed as blob->compression says, into a buffer that
 * blob then owns (blob->bytes, blob->size; freed by ep_blob_close()).  The
 * caller zeroes blob and sets path (for messages) and compression.  The
 * entry point ep_blob_open() uses on a compressed file, public for the fuzz
 * targets.  Errors as ep_blob_open()'s for a compressed file: EP_ENOMEM
 * (out of memory, or the decoded size exceeds the cap: exactly the cap
 * passes, whatever follows that decodes to nothing: an empty frame or
 * member, a skippable frame), EP_ETRUNC (a stream that is truncated or
 * corrupt, or a zstd frame that records more than its bytes can hold:
 * ep_zstd_max_decoded()), EP_ENOTELF (the first decoded bytes are not the
 * ELF magic: decoding stops there); and EP_EUNSUP when compression is
 * EP_COMP_NONE.  Zero bytes after the last gzip member are ignored, as
 * gzip -d does.
 */
int ep_blob_decode(struct ep_blob *blob, const unsigned char *src, size_t n, struct ep_error *err);

#endif
