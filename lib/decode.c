/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/blob.h"
#include "lib/decode-internal.h"

const char *ep_compression_name(enum ep_compression c)
{
	switch (c) {
	case EP_COMP_NONE:
		return "none";
	case EP_COMP_ZSTD:
		return "zstd";
	case EP_COMP_XZ:
		return "xz";
	case EP_COMP_GZIP:
		return "gzip";
	}
	return "?";
}

enum ep_compression ep_compression_sniff(const unsigned char *h, size_t n)
{
	if (n >= 4 && h[0] == 0x28 && h[1] == 0xb5 && h[2] == 0x2f && h[3] == 0xfd)
		return EP_COMP_ZSTD;
	/* A skippable frame (RFC 8878 3.1.2: 0x184D2A50..5F), as pzstd writes first. */
	if (n >= 4 && (h[0] & 0xf0) == 0x50 && h[1] == 0x2a && h[2] == 0x4d && h[3] == 0x18)
		return EP_COMP_ZSTD;
	if (n >= 6 && memcmp(h,
			     "\xfd"
			     "7zXZ\0",
			     6) == 0)
		return EP_COMP_XZ;
	if (n >= 2 && h[0] == 0x1f && h[1] == 0x8b)
		return EP_COMP_GZIP;
	return EP_COMP_NONE;
}

static uint64_t max_size = EP_MAX_SIZE_DEFAULT;

void ep_input_set_max_size(uint64_t bytes)
{
	max_size = bytes ? bytes : 1;
}

uint64_t ep_input_max_size(void)
{
	return max_size;
}

int ep_parse_size(const char *s, uint64_t *bytes)
{
	static const struct {
		const char *suffix;
		unsigned int shift;
	} units[] = { { "", 0 },     { "K", 10 },   { "M", 20 },  { "G", 30 },
		      { "KiB", 10 }, { "MiB", 20 }, { "GiB", 30 } };
	unsigned long long v;
	char *end;
	size_t i;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || v == 0)
		return -1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].suffix) != 0)
			continue;
		if (v > UINT64_MAX >> units[i].shift)
			return -1;
		*bytes = (uint64_t)v << units[i].shift;
		return 0;
	}
	return -1;
}

/* The error of a decoder that would go past the cap. */
static int over_cap(const struct ep_blob *b, struct ep_error *err)
{
	return ep_error_set(err, EP_ENOMEM,
			    "%s: %s data decodes to more than %" PRIu64 " bytes (--max-size)",
			    b->path, ep_compression_name(b->compression), max_size);
}

/*
 * The most a decoder's output buffer grows to: one byte over the cap, so
 * that data decoding to exactly the cap passes even when more input follows
 * that decodes to nothing (an empty zstd frame or gzip member, a skippable
 * frame), and a byte more is seen to be over it (ep_outbuf_check()).
 */
uint64_t ep_outbuf_cap(void)
{
	uint64_t cap = max_size < SIZE_MAX ? max_size + 1 : SIZE_MAX;

	return cap;
}

/*
 * Stop as soon as the first decoded bytes show that this is no ELF file:
 * a large compressed file of something else (a log, a tarball) found by a
 * directory walk costs a few bytes of decoding, not gigabytes.
 */
int ep_outbuf_check(struct ep_outbuf *o, const struct ep_blob *b, struct ep_error *err)
{
	if (o->used > max_size)
		return over_cap(b, err);
	if (o->elf || o->used < SELFMAG)
		return 0;
	if (memcmp(o->buf, ELFMAG, SELFMAG) != 0)
		return ep_error_set(err, EP_ENOTELF, "%s: not an ELF file", b->path);
	o->elf = true;
	return 0;
}

/* Room to offer the decoder: a little until the magic is seen, then all. */
size_t ep_outbuf_room(const struct ep_outbuf *o)
{
	size_t room = o->size - o->used;

	return !o->elf && room > 4096 ? 4096 : room;
}

/* Grow o: first is the size of the first allocation, in bytes. */
static int outbuf_grow(struct ep_outbuf *o, const struct ep_blob *b, size_t first,
		       struct ep_error *err)
{
	uint64_t want = o->size ? (uint64_t)o->size * 2 : first;
	unsigned char *nb;

	if (o->size >= o->cap)
		return over_cap(b, err);
	if (want > o->cap)
		want = o->cap;
	if (want == 0)
		want = 1;
	nb = realloc(o->buf, (size_t)want);
	if (!nb)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory decoding %s data", b->path,
				    ep_compression_name(b->compression));
	o->buf = nb;
	o->size = (size_t)want;
	return 0;
}

/* A first guess of four times the compressed size, and a page more for tiny inputs. */
int ep_outbuf_reserve(struct ep_outbuf *o, const struct ep_blob *b, size_t src_bytes,
		      struct ep_error *err)
{
	if (o->used < o->size)
		return 0;
	return outbuf_grow(o, b, src_bytes * 4 + 4096, err);
}

void ep_outbuf_finish(struct ep_outbuf *o, struct ep_blob *b)
{
	b->owned = o->buf;
	b->bytes = o->buf;
	b->size = o->used;
}

/* One file per format, as kmod keeps one per compressor. */
int ep_blob_decode(struct ep_blob *b, const unsigned char *src, size_t n, struct ep_error *err)
{
	switch (b->compression) {
	case EP_COMP_ZSTD:
		return ep_decode_zstd(b, src, n, err);
	case EP_COMP_XZ:
		return ep_decode_xz(b, src, n, err);
	case EP_COMP_GZIP:
		return ep_decode_gzip(b, src, n, err);
	case EP_COMP_NONE:
		break;
	}
	return ep_error_set(err, EP_EUNSUP, "%s: not compressed", b->path);
}
