/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <elfutils/libdwelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
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
	if (n >= 6 && memcmp(h, "\xfd" "7zXZ\0", 6) == 0)
		return EP_COMP_XZ;
	if (n >= 2 && h[0] == 0x1f && h[1] == 0x8b)
		return EP_COMP_GZIP;
	return EP_COMP_NONE;
}

/*
 * zstd: one-shot when the frame records its size, streaming otherwise, both
 * capped at EP_DECOMPRESS_MAX.
 */
static int decode_zstd(struct ep_blob *b, const unsigned char *src, size_t n,
		       struct ep_error *err)
{
	unsigned long long want = ZSTD_getFrameContentSize(src, n);
	ZSTD_inBuffer in = { src, n, 0 };
	size_t cap, rc;
	ZSTD_DCtx *dctx;
	unsigned char *buf = NULL;
	ZSTD_outBuffer out;

	if (want == ZSTD_CONTENTSIZE_ERROR)
		return ep_error_set(err, EP_ETRUNC, "%s: not a valid zstd frame", b->path);
	if (want != ZSTD_CONTENTSIZE_UNKNOWN && want > EP_DECOMPRESS_MAX)
		return ep_error_set(err, EP_ENOMEM,
				    "%s: zstd frame declares %llu bytes, over the %" PRIu64 " cap",
				    b->path, want, EP_DECOMPRESS_MAX);
	cap = want != ZSTD_CONTENTSIZE_UNKNOWN ? (size_t)want + 1 : n * 4 + 4096;
	dctx = ZSTD_createDCtx();
	if (!dctx)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory for zstd", b->path);
	for (out = (ZSTD_outBuffer){ NULL, 0, 0 };;) {
		if (out.pos == out.size) {
			unsigned char *nb;

			if (out.size >= EP_DECOMPRESS_MAX) {
				rc = (size_t)ep_error_set(err, EP_ENOMEM,
							  "%s: zstd data decodes to more than %" PRIu64
							  " bytes", b->path, EP_DECOMPRESS_MAX);
				goto fail;
			}
			if (out.size)
				cap = out.size * 2 > EP_DECOMPRESS_MAX ? EP_DECOMPRESS_MAX : out.size * 2;
			nb = realloc(buf, cap);
			if (!nb) {
				rc = (size_t)ep_error_set(err, EP_ENOMEM, "%s: out of memory", b->path);
				goto fail;
			}
			buf = nb;
			out.dst = buf;
			out.size = cap;
		}
		rc = ZSTD_decompressStream(dctx, &out, &in);
		if (ZSTD_isError(rc)) {
			rc = (size_t)ep_error_set(err, EP_ETRUNC, "%s: zstd: %s", b->path,
						  ZSTD_getErrorName(rc));
			goto fail;
		}
		if (rc == 0 && in.pos == in.size)
			break;
		if (in.pos == in.size && out.pos < out.size) {
			rc = (size_t)ep_error_set(err, EP_ETRUNC, "%s: zstd stream is truncated",
						  b->path);
			goto fail;
		}
	}
	ZSTD_freeDCtx(dctx);
	b->owned = buf;
	b->bytes = buf;
	b->size = out.pos;
	return 0;
fail:
	ZSTD_freeDCtx(dctx);
	free(buf);
	return (int)rc;
}

/* xz and gzip through libdw, which decodes the whole file into memory. */
static int decode_dwelf(struct ep_blob *b, int fd, struct ep_error *err)
{
	Elf *e;
	char *raw;
	size_t n = 0;

	elf_version(EV_CURRENT);
	e = dwelf_elf_begin(fd);
	if (!e)
		return ep_error_set(err, EP_ENOTELF, "%s: %s data does not decode: %s", b->path,
				    ep_compression_name(b->compression), elf_errmsg(-1));
	raw = elf_rawfile(e, &n);
	if (!raw || elf_kind(e) != ELF_K_ELF) {
		elf_end(e);
		return ep_error_set(err, EP_ENOTELF, "%s: %s data is not an ELF file", b->path,
				    ep_compression_name(b->compression));
	}
	b->dwelf = e;
	b->bytes = (const unsigned char *)raw;
	b->size = n;
	return 0;
}

int ep_blob_open(struct ep_blob *b, const char *path, bool populate, struct ep_error *err)
{
	struct stat st;
	int fd, rc = 0;

	memset(b, 0, sizeof(*b));
	b->path = path;
	fd = open(path, O_RDONLY | O_CLOEXEC);
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
	b->map = mmap(NULL, b->map_size, PROT_READ, MAP_PRIVATE | (populate ? MAP_POPULATE : 0),
		      fd, 0);
	if (b->map == MAP_FAILED) {
		b->map = NULL;
		rc = ep_error_set(err, EP_EIO, "%s: mmap: %s", path, strerror(errno));
		goto out;
	}
	b->compression = ep_compression_sniff(b->map, b->map_size);
	switch (b->compression) {
	case EP_COMP_NONE:
		b->bytes = b->map;
		b->size = b->map_size;
		b->mapped = true;
		break;
	case EP_COMP_ZSTD:
		rc = decode_zstd(b, b->map, b->map_size, err);
		break;
	case EP_COMP_XZ:
	case EP_COMP_GZIP:
		rc = decode_dwelf(b, fd, err);
		break;
	}
	if (!b->mapped && b->map) {
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
	if (b->map)
		munmap(b->map, b->map_size);
	free(b->owned);
	if (b->dwelf)
		elf_end(b->dwelf);
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

/* ELF magic, or a compression magic, at the start of a regular file. */
static bool worth_opening(const char *path, bool *compressed)
{
	unsigned char head[8];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return false;
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n >= SELFMAG && memcmp(head, ELFMAG, SELFMAG) == 0) {
		*compressed = false;
		return true;
	}
	*compressed = n > 0 && ep_compression_sniff(head, (size_t)n) != EP_COMP_NONE;
	return *compressed;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int walk(struct ep_pathlist *pl, const char *dir, unsigned int depth,
		struct ep_error *err)
{
	struct ep_pathlist names = { 0 };
	struct dirent *de;
	DIR *d;
	size_t i;
	int rc = 0;

	if (depth > 64)
		return 0;	/* deeper than any real tree: a loop of bind mounts */
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		rc = push(&names, de->d_name, false, err);
		if (rc)
			break;
	}
	closedir(d);
	if (!rc)
		qsort(names.paths, names.count, sizeof(char *), cmp_str);
	for (i = 0; !rc && i < names.count; i++) {
		struct stat st;
		bool compressed;
		char *p;

		if (asprintf(&p, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/",
			     names.paths[i]) < 0) {
			rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", dir);
			break;
		}
		if (lstat(p, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				rc = walk(pl, p, depth + 1, err);
			else if (S_ISREG(st.st_mode) && worth_opening(p, &compressed))
				rc = push(pl, p, compressed, err);
		}
		free(p);
	}
	ep_pathlist_free(&names);
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
			rc = walk(pl, paths[i], 0, err);
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
