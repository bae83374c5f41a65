/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <lzma.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "lib/input.h"

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
	if (n >= 6 && memcmp(h,
			     "\xfd"
			     "7zXZ\0",
			     6) == 0)
		return EP_COMP_XZ;
	if (n >= 2 && h[0] == 0x1f && h[1] == 0x8b)
		return EP_COMP_GZIP;
	return EP_COMP_NONE;
}

/*
 * The decoded-size cap in bytes: EP_DECOMPRESS_MAX, or less when the
 * environment's ELFPLT_DECOMPRESS_MAX asks for less (it never raises it).
 */
static uint64_t decode_cap(void)
{
	const char *env = getenv("ELFPLT_DECOMPRESS_MAX");
	unsigned long long v;
	char *end;

	if (env && *env) {
		errno = 0;
		v = strtoull(env, &end, 10);
		if (!errno && !*end && v < EP_DECOMPRESS_MAX)
			return v;
	}
	return EP_DECOMPRESS_MAX;
}

/* A decoder's output buffer, grown by doubling up to the cap. */
struct outbuf {
	unsigned char *buf;
	size_t size; /* bytes allocated */
	size_t used; /* bytes decoded */
	uint64_t cap;
	bool elf; /* the first bytes decoded are the ELF magic */
};

/*
 * Stop as soon as the first decoded bytes show that this is no ELF file:
 * a large compressed file of something else (a log, a tarball) found by a
 * directory walk costs a few bytes of decoding, not gigabytes.
 */
static int outbuf_check(struct outbuf *o, const struct ep_blob *b, struct ep_error *err)
{
	if (o->elf || o->used < SELFMAG)
		return 0;
	if (memcmp(o->buf, ELFMAG, SELFMAG) != 0)
		return ep_error_set(err, EP_ENOTELF, "%s: not an ELF file", b->path);
	o->elf = true;
	return 0;
}

/* Room to offer the decoder: a little until the magic is seen, then all. */
static size_t outbuf_room(const struct outbuf *o)
{
	size_t room = o->size - o->used;

	return !o->elf && room > 4096 ? 4096 : room;
}

/*
 * Make room for more output; first is the size of the first allocation.
 * Returns 0, or a negative ep_errcode when the cap is reached or memory
 * runs out.
 */
static int outbuf_grow(struct outbuf *o, const struct ep_blob *b, size_t first,
		       struct ep_error *err)
{
	uint64_t want = o->size ? (uint64_t)o->size * 2 : first;
	unsigned char *nb;

	if (o->size >= o->cap)
		return ep_error_set(err, EP_ENOMEM,
				    "%s: %s data decodes to more than %" PRIu64 " bytes (the cap)",
				    b->path, ep_compression_name(b->compression), o->cap);
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

static void outbuf_finish(struct outbuf *o, struct ep_blob *b)
{
	b->owned = o->buf;
	b->bytes = o->buf;
	b->size = o->used;
}

/* zstd: the frame's recorded size sizes the buffer; all frames are decoded. */
static int decode_zstd(struct ep_blob *b, const unsigned char *src, size_t n, struct ep_error *err)
{
	unsigned long long want = ZSTD_getFrameContentSize(src, n);
	struct outbuf o = { .cap = decode_cap() };
	ZSTD_inBuffer in = { src, n, 0 };
	ZSTD_outBuffer out;
	ZSTD_DCtx *dctx;
	size_t first, zr;
	int rc = 0;

	if (want == ZSTD_CONTENTSIZE_ERROR)
		return ep_error_set(err, EP_ETRUNC, "%s: not a valid zstd frame", b->path);
	if (want != ZSTD_CONTENTSIZE_UNKNOWN && want > o.cap)
		return ep_error_set(err, EP_ENOMEM,
				    "%s: zstd frame declares %llu bytes, over the %" PRIu64
				    " bytes cap",
				    b->path, want, o.cap);
	first = want != ZSTD_CONTENTSIZE_UNKNOWN ? (size_t)want + 1 : n * 4 + 4096;
	dctx = ZSTD_createDCtx();
	if (!dctx)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory for zstd", b->path);
	for (;;) {
		if (o.used == o.size) {
			rc = outbuf_grow(&o, b, first, err);
			if (rc)
				goto out;
		}
		out = (ZSTD_outBuffer){ o.buf, o.used + outbuf_room(&o), o.used };
		zr = ZSTD_decompressStream(dctx, &out, &in);
		o.used = out.pos;
		rc = outbuf_check(&o, b, err);
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
	outbuf_finish(&o, b);
out:
	ZSTD_freeDCtx(dctx);
	if (rc)
		free(o.buf);
	return rc;
}

/* xz (liblzma): every stream of the file, as xz -d does. */
static int decode_xz(struct ep_blob *b, const unsigned char *src, size_t n, struct ep_error *err)
{
	struct outbuf o = { .cap = decode_cap() };
	lzma_stream z = LZMA_STREAM_INIT;
	lzma_ret lr;
	int rc = 0;

	/* The decoder's own memory (the dictionary): 1 GiB is more than xz -9e needs. */
	if (lzma_stream_decoder(&z, (uint64_t)1 << 30, LZMA_CONCATENATED) != LZMA_OK)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory for xz", b->path);
	z.next_in = src;
	z.avail_in = n;
	for (;;) {
		if (o.used == o.size) {
			rc = outbuf_grow(&o, b, n * 4 + 4096, err);
			if (rc)
				goto out;
		}
		z.next_out = o.buf + o.used;
		z.avail_out = outbuf_room(&o);
		/* All input is there: LZMA_FINISH lets the decoder see the end. */
		lr = lzma_code(&z, LZMA_FINISH);
		o.used = (size_t)(z.next_out - o.buf);
		rc = outbuf_check(&o, b, err);
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
	outbuf_finish(&o, b);
out:
	lzma_end(&z);
	if (rc)
		free(o.buf);
	return rc;
}

/* gzip (zlib): every member of the file, as gzip -d does. */
static int decode_gzip(struct ep_blob *b, const unsigned char *src, size_t n, struct ep_error *err)
{
	struct outbuf o = { .cap = decode_cap() };
	z_stream z = { 0 };
	size_t done = 0;
	int zr, rc = 0;

	/* 15 + 16: a 32 KiB window, gzip header and trailer. */
	if (inflateInit2(&z, 15 + 16) != Z_OK)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory for gzip", b->path);
	for (;;) {
		if (o.used == o.size) {
			rc = outbuf_grow(&o, b, n * 4 + 4096, err);
			if (rc)
				goto out;
		}
		/* zlib counts in uInt: feed at most 1 GiB at a time. */
		z.next_in = (unsigned char *)src + done;
		z.avail_in = n - done > (1u << 30) ? 1u << 30 : (uInt)(n - done);
		z.next_out = o.buf + o.used;
		z.avail_out = outbuf_room(&o) > (1u << 30) ? 1u << 30 : (uInt)outbuf_room(&o);
		{
			const unsigned char *in0 = z.next_in, *out0 = z.next_out;

			zr = inflate(&z, Z_NO_FLUSH);
			done += (size_t)(z.next_in - in0);
			o.used += (size_t)(z.next_out - out0);
		}
		rc = outbuf_check(&o, b, err);
		if (rc)
			goto out;
		if (zr == Z_STREAM_END) {
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
	outbuf_finish(&o, b);
out:
	inflateEnd(&z);
	if (rc)
		free(o.buf);
	return rc;
}

int ep_blob_decode(struct ep_blob *b, const unsigned char *src, size_t n, struct ep_error *err)
{
	switch (b->compression) {
	case EP_COMP_ZSTD:
		return decode_zstd(b, src, n, err);
	case EP_COMP_XZ:
		return decode_xz(b, src, n, err);
	case EP_COMP_GZIP:
		return decode_gzip(b, src, n, err);
	case EP_COMP_NONE:
		break;
	}
	return ep_error_set(err, EP_EUNSUP, "%s: not compressed", b->path);
}

/*
 * A mapped file that shrinks while it is read (truncated, or rewritten in
 * place by cp or a build) raises SIGBUS (BUS_ADRERR) on its pages past the
 * new end, which killed the process.  The blobs' live mappings are listed
 * here; for a fault in one, the handler maps a page of zeros over the
 * faulting page, so the read goes on, and marks the mapping shrunk for
 * ep_blob_check() to report.  A SIGBUS anywhere else gets the action there
 * was before.  (One thread per process: elfplt's jobs are processes.)
 */
struct live_map {
	uintptr_t start, end;
	volatile sig_atomic_t shrank;
};

static struct live_map *live;
static size_t nlive, live_cap;
static struct sigaction bus_before;
static uintptr_t page_mask;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	uintptr_t a = (uintptr_t)si->si_addr;
	size_t i;

	(void)sig;
	(void)uc;
	for (i = 0; i < nlive; i++) {
		if (a < live[i].start || a >= live[i].end)
			continue;
		if (mmap((void *)(a & page_mask), ~page_mask + 1, PROT_READ,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
			break;
		live[i].shrank = 1;
		return;
	}
	/* Not ours: returning faults again, now with the action from before. */
	sigaction(SIGBUS, &bus_before, NULL);
}

/* List the mapping [map, map + len); the handler is installed on first use. */
static int live_add(const void *map, size_t len)
{
	struct sigaction sa = { 0 };
	struct live_map *nl;

	if (!page_mask) {
		sa.sa_sigaction = on_sigbus;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGBUS, &sa, &bus_before) != 0)
			return -1;
		page_mask = ~((uintptr_t)sysconf(_SC_PAGESIZE) - 1);
	}
	if (nlive == live_cap) {
		nl = realloc(live, (live_cap ? live_cap * 2 : 8) * sizeof(*nl));
		if (!nl)
			return -1;
		live = nl;
		live_cap = live_cap ? live_cap * 2 : 8;
	}
	live[nlive++] = (struct live_map){ (uintptr_t)map, (uintptr_t)map + len, 0 };
	return 0;
}

static struct live_map *live_find(const void *map)
{
	size_t i;

	for (i = 0; i < nlive; i++)
		if (live[i].start == (uintptr_t)map)
			return &live[i];
	return NULL;
}

/* Take the mapping off the list, before it is unmapped. */
static void live_remove(const void *map)
{
	struct live_map *m = live_find(map);

	if (m)
		*m = live[--nlive];
}

int ep_blob_check(const struct ep_blob *b, struct ep_error *err)
{
	const struct live_map *m = b->map ? live_find(b->map) : NULL;

	if (m && m->shrank)
		return ep_error_set(err, EP_EIO,
				    "%s: the file shrank while it was read (truncated or "
				    "rewritten in place)",
				    b->path);
	return 0;
}

int ep_blob_open(struct ep_blob *b, const char *path, bool populate, struct ep_error *err)
{
	struct stat st;
	int fd, rc = 0;

	memset(b, 0, sizeof(*b));
	b->path = path;
	/* An empty PATH would make "elfplt: : ..."; name it as ls(1) does. */
	if (!path[0])
		return ep_error_set(err, EP_EIO, "'': %s", strerror(ENOENT));
	/*
	 * O_NONBLOCK: opening a FIFO (or a tty) for reading would otherwise wait
	 * for a writer, forever; it is refused below as not a regular file.
	 * For a regular file the flag changes nothing.
	 */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return ep_error_set(err, EP_EIO, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) != 0) {
		rc = ep_error_set(err, EP_EIO, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = ep_error_set(err, EP_EIO, "%s: not a regular file", path);
		goto out;
	}
	b->file_size = (uint64_t)st.st_size;
	if (st.st_size == 0)
		goto out;
	b->map_size = (size_t)st.st_size;
	b->map = mmap(NULL, b->map_size, PROT_READ, MAP_PRIVATE | (populate ? MAP_POPULATE : 0), fd,
		      0);
	if (b->map == MAP_FAILED) {
		b->map = NULL;
		rc = ep_error_set(err, EP_EIO, "%s: mmap: %s", path, strerror(errno));
		goto out;
	}
	if (live_add(b->map, b->map_size)) {
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", path);
		goto out;
	}
	b->compression = ep_compression_sniff(b->map, b->map_size);
	if (b->compression == EP_COMP_NONE) {
		b->bytes = b->map;
		b->size = b->map_size;
		b->mapped = true;
	} else {
		rc = ep_blob_decode(b, b->map, b->map_size, err);
	}
	if (!b->mapped && b->map) {
		if (!rc)
			rc = ep_blob_check(b, err);
		live_remove(b->map);
		munmap(b->map, b->map_size);
		b->map = NULL;
	}
out:
	close(fd);
	if (rc)
		ep_blob_close(b);
	b->path = path;
	return rc;
}

void ep_blob_close(struct ep_blob *b)
{
	if (b->map) {
		live_remove(b->map);
		munmap(b->map, b->map_size);
	}
	free(b->owned);
	memset(b, 0, sizeof(*b));
}

static int push(struct ep_pathlist *pl, const char *path, bool walked, struct ep_error *err)
{
	if (pl->count == pl->cap) {
		size_t cap = pl->cap ? pl->cap * 2 : 64;
		char **np = realloc(pl->paths, cap * sizeof(*np));
		bool *nw;

		if (!np)
			goto nomem;
		pl->paths = np;
		nw = realloc(pl->walked, cap * sizeof(*nw));
		if (!nw)
			goto nomem;
		pl->walked = nw;
		pl->cap = cap;
	}
	pl->paths[pl->count] = strdup(path);
	if (!pl->paths[pl->count])
		goto nomem;
	pl->walked[pl->count++] = walked;
	return 0;
nomem:
	return ep_error_set(err, EP_ENOMEM, "%s: out of memory", path);
}

/* A directory entry: its name and readdir()'s d_type (DT_UNKNOWN on some filesystems). */
struct dir_entry {
	char *name;
	unsigned char type;
};

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct dir_entry *)a)->name, ((const struct dir_entry *)b)->name);
}

/* d's entries but "." and "..", sorted by name; *n gets how many.  Closes d. */
static int read_dir(DIR *d, const char *dir, struct dir_entry **out, size_t *n,
		    struct ep_error *err)
{
	struct dir_entry *v = NULL, *nv;
	size_t cap = 0;
	struct dirent *de;
	int rc = 0;

	*n = 0;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				goto nomem;
			v = nv;
		}
		v[*n].name = strdup(de->d_name);
		if (!v[*n].name)
			goto nomem;
		v[(*n)++].type = de->d_type;
	}
	if (*n) /* an empty directory has no array at all */
		qsort(v, *n, sizeof(*v), cmp_entry);
	goto out;
nomem:
	rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", dir);
out:
	closedir(d);
	*out = v;
	return rc;
}

/* A directory the walk is in, from the one it started at down. */
struct ancestor {
	dev_t dev;
	ino_t ino;
	const struct ancestor *up;
};

/*
 * Files are listed without being opened: whether a file is ELF (or a
 * compressed ELF file) is for its one open to tell, see walked[].  d_type
 * saves an lstat() per entry; lstat() is the fallback where the filesystem
 * does not fill it in.  Symbolic links are never followed.  A directory
 * that cannot be read (EACCES, or a path over PATH_MAX) is listed as a path
 * of its own, not walked, for its open to report: files under it could be
 * modules.  One that is its own ancestor (a bind mount of a directory
 * inside itself) is not read again: its files are listed already.  There is
 * no other depth limit: PATH_MAX bounds the recursion.
 */
static int walk(struct ep_pathlist *pl, const char *dir, const struct ancestor *up,
		struct ep_error *err)
{
	struct dir_entry *names;
	struct ancestor self = { .up = up };
	const struct ancestor *a;
	struct stat st;
	size_t i, n;
	DIR *d;
	int rc = 0;

	d = opendir(dir);
	if (!d) /* gone since it was listed: quietly, as for a file */
		return errno == ENOENT ? 0 : push(pl, dir, false, err);
	if (fstat(dirfd(d), &st) == 0) {
		self.dev = st.st_dev;
		self.ino = st.st_ino;
		for (a = up; a; a = a->up) {
			if (a->dev == self.dev && a->ino == self.ino) {
				closedir(d);
				return 0;
			}
		}
	}
	rc = read_dir(d, dir, &names, &n, err);
	for (i = 0; !rc && i < n; i++) {
		unsigned char type = names[i].type;
		char *p;

		if (type != DT_DIR && type != DT_REG && type != DT_UNKNOWN)
			continue;
		if (asprintf(&p, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/",
			     names[i].name) < 0) {
			rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", dir);
			break;
		}
		if (type == DT_UNKNOWN && lstat(p, &st) == 0)
			type = S_ISDIR(st.st_mode)   ? DT_DIR
			       : S_ISREG(st.st_mode) ? DT_REG
						     : DT_UNKNOWN;
		if (type == DT_DIR)
			rc = walk(pl, p, &self, err);
		else if (type == DT_REG)
			rc = push(pl, p, true, err);
		free(p);
	}
	for (i = 0; i < n; i++)
		free(names[i].name);
	free(names);
	return rc;
}

int ep_pathlist_expand(struct ep_pathlist *pl, const char *const *paths, size_t n,
		       struct ep_error *err)
{
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		struct stat st;

		/* A path that cannot be stat'ed is one file that fails to open. */
		if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode))
			rc = walk(pl, paths[i], NULL, err);
		else
			rc = push(pl, paths[i], false, err);
		if (rc)
			return rc;
	}
	return 0;
}

void ep_pathlist_free(struct ep_pathlist *pl)
{
	size_t i;

	for (i = 0; i < pl->count; i++)
		free(pl->paths[i]);
	free(pl->paths);
	free(pl->walked);
	memset(pl, 0, sizeof(*pl));
}
