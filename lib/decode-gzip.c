/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>
#include <zlib.h>

#include "lib/blob.h"
#include "lib/decode-internal.h"

/* gzip (zlib): every member of the file, and zero padding after them, as gzip -d does. */
int ep_decode_gzip(struct ep_blob *b, const unsigned char *src, size_t n, struct ep_error *err)
{
	struct ep_outbuf o = { .cap = ep_outbuf_cap() };
	z_stream z = { 0 };
	size_t done = 0;
	int zr, rc = 0;

	/* 15 + 16: a 32 KiB window, gzip header and trailer. */
	if (inflateInit2(&z, 15 + 16) != Z_OK)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory for gzip", b->path);
	for (;;) {
		rc = ep_outbuf_reserve(&o, b, n, err);
		if (rc)
			goto out;
		/* zlib counts in uInt: feed at most 1 GiB at a time. */
		z.next_in = (unsigned char *)src + done;
		z.avail_in = n - done > (1u << 30) ? 1u << 30 : (uInt)(n - done);
		z.next_out = o.buf + o.used;
		z.avail_out = ep_outbuf_room(&o) > (1u << 30) ? 1u << 30 : (uInt)ep_outbuf_room(&o);
		{
			const unsigned char *in0 = z.next_in, *out0 = z.next_out;

			zr = inflate(&z, Z_NO_FLUSH);
			done += (size_t)(z.next_in - in0);
			o.used += (size_t)(z.next_out - out0);
		}
		rc = ep_outbuf_check(&o, b, err);
		if (rc)
			goto out;
		if (zr == Z_STREAM_END) {
			/* Zero bytes after a member (block or tape padding): gzip -d ignores them. */
			while (done < n && src[done] == 0)
				done++;
			if (done == n)
				break;
			if (inflateReset(&z) != Z_OK) { /* the next member */
				rc = ep_error_set(err, EP_ETRUNC, "%s: gzip data is corrupt",
						  b->path);
				goto out;
			}
			continue;
		}
		if (zr == Z_OK)
			continue;
		if (zr == Z_BUF_ERROR && z.avail_out > 0)
			rc = ep_error_set(err, EP_ETRUNC, "%s: gzip stream is truncated", b->path);
		else if (zr == Z_BUF_ERROR)
			continue; /* only wanted more room */
		else if (zr == Z_MEM_ERROR)
			rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory for gzip", b->path);
		else
			rc = ep_error_set(err, EP_ETRUNC, "%s: gzip data is corrupt: %s", b->path,
					  z.msg ? z.msg : "inflate failed");
		goto out;
	}
	ep_outbuf_finish(&o, b);
out:
	inflateEnd(&z);
	if (rc)
		free(o.buf);
	return rc;
}
