/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <lzma.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/blob.h"
#include "lib/decode-internal.h"

/* xz (liblzma): every stream of the file, as xz -d does. */
int ep_decode_xz(struct ep_blob *b, const unsigned char *src, size_t n, struct ep_error *err)
{
	struct ep_outbuf o = { .cap = ep_outbuf_cap() };
	lzma_stream z = LZMA_STREAM_INIT;
	lzma_ret lr;
	int rc = 0;

	/* The decoder's own memory (the dictionary): 1 GiB is more than xz -9e needs. */
	if (lzma_stream_decoder(&z, (uint64_t)1 << 30, LZMA_CONCATENATED) != LZMA_OK)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory for xz", b->path);
	z.next_in = src;
	z.avail_in = n;
	for (;;) {
		rc = ep_outbuf_reserve(&o, b, n, err);
		if (rc)
			goto out;
		z.next_out = o.buf + o.used;
		z.avail_out = ep_outbuf_room(&o);
		/* All input is there: LZMA_FINISH lets the decoder see the end. */
		lr = lzma_code(&z, LZMA_FINISH);
		o.used = (size_t)(z.next_out - o.buf);
		rc = ep_outbuf_check(&o, b, err);
		if (rc)
			goto out;
		if (lr == LZMA_STREAM_END)
			break;
		if (lr == LZMA_OK)
			continue;
		if (lr == LZMA_MEMLIMIT_ERROR)
			rc = ep_error_set(err, EP_ENOMEM,
					  "%s: xz data needs more than 1 GiB to decode", b->path);
		else if (lr == LZMA_MEM_ERROR)
			rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory for xz", b->path);
		else if (lr == LZMA_BUF_ERROR)
			rc = ep_error_set(err, EP_ETRUNC, "%s: xz stream is truncated", b->path);
		else
			rc = ep_error_set(err, EP_ETRUNC,
					  "%s: xz data is corrupt (liblzma error %d)", b->path,
					  (int)lr);
		goto out;
	}
	ep_outbuf_finish(&o, b);
out:
	lzma_end(&z);
	if (rc)
		free(o.buf);
	return rc;
}
