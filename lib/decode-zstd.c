/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <elf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
/* ZSTD_findDecompressedSize() and the bufferless API (stable since zstd 1.0). */
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include "lib/blob.h"
#include "lib/decode-internal.h"

uint64_t ep_zstd_max_decoded(size_t n)
{
	return (uint64_t)n > UINT64_MAX / 32768 ? UINT64_MAX : (uint64_t)n * 32768;
}

/*
 * Frames that all record their decoded size (zstd's default), want bytes in
 * all, decoded straight into a buffer of exactly that size with the
 * bufferless API: block by block, with no window buffer to copy through and
 * no growing, as fast as ZSTD_decompressDCtx(), but the first block's bytes
 * can be looked at before the rest is decoded: a large file of something
 * else costs one block (at most 128 KiB), not all of it.  Skippable frames
 * are passed over, as zstd -d does.  The context is made once per process
 * (each worker has its own) and reused.
 */
static int decode_zstd_oneshot(struct ep_blob *b, const unsigned char *src, size_t n, uint64_t want,
			       struct ep_error *err)
{
	static ZSTD_DCtx *dctx;
	size_t done = 0, used = 0, need, zr;
	bool checked = false;
	unsigned char *buf;

	if (!dctx)
		dctx = ZSTD_createDCtx();
	buf = malloc(want ? (size_t)want : 1);
	if (!dctx || !buf) {
		free(buf);
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory decoding zstd data",
				    b->path);
	}
	while (done < n) {
		zr = ZSTD_decompressBegin(dctx); /* the next frame */
		while (!ZSTD_isError(zr) && (need = ZSTD_nextSrcSizeToDecompress(dctx)) != 0) {
			if (need > n - done) {
				free(buf);
				return ep_error_set(err, EP_ETRUNC, "%s: zstd stream is truncated",
						    b->path);
			}
			zr = ZSTD_decompressContinue(dctx, buf + used, (size_t)want - used,
						     src + done, need);
			if (ZSTD_isError(zr))
				break;
			done += need;
			used += zr;
			if (!checked && used >= SELFMAG) {
				if (memcmp(buf, ELFMAG, SELFMAG) != 0) {
					free(buf);
					return ep_error_set(err, EP_ENOTELF, "%s: not an ELF file",
							    b->path);
				}
				checked = true;
			}
		}
		if (ZSTD_isError(zr)) {
			free(buf);
			return ep_error_set(err, EP_ETRUNC, "%s: zstd: %s", b->path,
					    ZSTD_getErrorName(zr));
		}
	}
	if (used != want) {
		free(buf);
		return ep_error_set(err, EP_ETRUNC,
				    "%s: zstd: frame decodes to less than it records", b->path);
	}
	b->owned = buf;
	b->bytes = buf;
	b->size = used;
	return 0;
}

/*
 * zstd: one-shot when every frame records its size (skippable frames
 * record none and count as 0 bytes); streamed otherwise (zstd
 * --no-content-size, a stream written through a pipe, a truncated or
 * corrupt stream, for its error), the buffer growing up to the cap.
 */
int ep_decode_zstd(struct ep_blob *b, const unsigned char *src, size_t n, struct ep_error *err)
{
	unsigned long long want = ZSTD_findDecompressedSize(src, n);
	struct ep_outbuf o = { .cap = ep_outbuf_cap() };
	ZSTD_inBuffer in = { src, n, 0 };
	ZSTD_outBuffer out;
	ZSTD_DCtx *dctx;
	size_t zr;
	int rc = 0;

	if (ZSTD_getFrameContentSize(src, n) == ZSTD_CONTENTSIZE_ERROR)
		return ep_error_set(err, EP_ETRUNC, "%s: not a valid zstd frame", b->path);
	if (want != ZSTD_CONTENTSIZE_UNKNOWN && want != ZSTD_CONTENTSIZE_ERROR) {
		if (want > ep_input_max_size())
			return ep_error_set(
				err, EP_ENOMEM,
				"%s: zstd data decodes to %llu bytes, more than %" PRIu64
				" (--max-size)",
				b->path, want, ep_input_max_size());
		if (want > ep_zstd_max_decoded(n))
			return ep_error_set(err, EP_ETRUNC,
					    "%s: zstd data is corrupt: its frames record %llu "
					    "decoded bytes, more than %zu bytes can hold",
					    b->path, want, n);
		return decode_zstd_oneshot(b, src, n, want, err);
	}
	dctx = ZSTD_createDCtx();
	if (!dctx)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory for zstd", b->path);
	for (;;) {
		rc = ep_outbuf_reserve(&o, b, n, err);
		if (rc)
			goto out;
		out = (ZSTD_outBuffer){ o.buf, o.used + ep_outbuf_room(&o), o.used };
		zr = ZSTD_decompressStream(dctx, &out, &in);
		o.used = out.pos;
		rc = ep_outbuf_check(&o, b, err);
		if (rc)
			goto out;
		if (ZSTD_isError(zr)) {
			rc = ep_error_set(err, EP_ETRUNC, "%s: zstd: %s", b->path,
					  ZSTD_getErrorName(zr));
			goto out;
		}
		if (zr == 0 && in.pos == in.size)
			break;
		/* All input read, yet room left over: the stream ends early. */
		if (in.pos == in.size && out.pos < out.size) {
			rc = ep_error_set(err, EP_ETRUNC, "%s: zstd stream is truncated", b->path);
			goto out;
		}
	}
	ep_outbuf_finish(&o, b);
out:
	ZSTD_freeDCtx(dctx);
	if (rc)
		free(o.buf);
	return rc;
}
