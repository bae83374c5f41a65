/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_DECODE_INTERNAL_H
#define ELFPLT_DECODE_INTERNAL_H

/*
 * What the decoders (decode-zstd.c, decode-xz.c, decode-gzip.c) share, and
 * their entry points for ep_blob_decode().  Not for use outside lib/decode*.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/decode.h"
#include "lib/error.h"

/* A decoder's output buffer, grown by doubling up to ep_outbuf_cap(). */
struct ep_outbuf {
	unsigned char *buf;
	size_t size;  /* bytes allocated */
	size_t used;  /* bytes decoded */
	uint64_t cap; /* bytes to allocate at most: ep_outbuf_cap() */
	bool elf;     /* the first bytes decoded are the ELF magic */
};

/*
 * The most a decoder's output buffer grows to, in bytes: the cap
 * (ep_input_max_size()) and one.
 */
uint64_t ep_outbuf_cap(void);

/*
 * After each step of decoding: EP_ENOMEM when o holds more than the cap,
 * EP_ENOTELF when its first bytes are not the ELF magic; else 0.
 */
int ep_outbuf_check(struct ep_outbuf *o, const struct ep_blob *b, struct ep_error *err);

/* The bytes of o to offer the decoder next. */
size_t ep_outbuf_room(const struct ep_outbuf *o);

/*
 * Make room for more output when o is full, before each step of decoding;
 * src_bytes is the size of the compressed data, from which the first
 * allocation is guessed.  Returns 0, or a negative ep_errcode (EP_ENOMEM)
 * when the cap is reached or memory runs out.
 */
int ep_outbuf_reserve(struct ep_outbuf *o, const struct ep_blob *b, size_t src_bytes,
		      struct ep_error *err);

/* Hand o's buffer to b: b->bytes, b->size, and b->owned to free. */
void ep_outbuf_finish(struct ep_outbuf *o, struct ep_blob *b);

/* One decoder per format: ep_blob_decode()'s contract, for that format. */
int ep_decode_zstd(struct ep_blob *b, const unsigned char *src, size_t n, struct ep_error *err);
int ep_decode_xz(struct ep_blob *b, const unsigned char *src, size_t n, struct ep_error *err);
int ep_decode_gzip(struct ep_blob *b, const unsigned char *src, size_t n, struct ep_error *err);

#endif
