/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/archive.h"
#include "lib/blob.h"
#include "lib/elf.h"

bool ep_is_archive(const unsigned char *head, size_t n)
{
	return n >= 8 && (memcmp(head, EP_ARMAG, 8) == 0 || memcmp(head, EP_THINMAG, 8) == 0);
}

/* One 60-byte member header (binutils include/aout/ar.h, struct ar_hdr). */
struct ar_hdr {
	char ar_name[16], ar_date[12], ar_uid[6], ar_gid[6], ar_mode[8], ar_size[10], ar_fmag[2];
};

_Static_assert(sizeof(struct ar_hdr) == 60, "struct ar_hdr is 60 bytes");

/* A decimal field padded with spaces; false when it is not one. */
static bool ar_number(const char *field, size_t len, uint64_t *v)
{
	size_t i = 0;

	*v = 0;
	if (len == 0 || field[0] < '0' || field[0] > '9')
		return false;
	for (; i < len && field[i] >= '0' && field[i] <= '9'; i++) {
		if (*v > (UINT64_MAX - 9) / 10)
			return false;
		*v = *v * 10 + (uint64_t)(field[i] - '0');
	}
	for (; i < len; i++)
		if (field[i] != ' ')
			return false;
	return true;
}

/* The archive being listed. */
struct ar_walk {
	const char *path; /* the archive as named */
	const unsigned char *map;
	uint64_t size;
	bool thin;
	const char *names; /* the long-name table ("//"), or NULL */
	uint64_t names_size;
	ep_member_fn *add; /* ep_archive_list()'s callback and its context */
	void *ctx;
};

/*
 * The name of the member whose header is h and whose data (stored in the
 * archive) starts at *data with *size bytes, into *name (malloc'd); NULL
 * for the symbol and long-name tables.  The GNU and SysV forms ("name/",
 * "/N" into the "//" table, whose entries end in "/\n") and BSD's
 * ("#1/N": N bytes of name at the start of the data, counted in ar_size).
 * Returns 0, or -1 with *why set.
 */
static int ar_name(struct ar_walk *w, const struct ar_hdr *h, uint64_t *data, uint64_t *size,
		   char **name, const char **why)
{
	const char *f = h->ar_name, *p;
	uint64_t off, len;
	size_t n = sizeof(h->ar_name);

	*name = NULL;
	while (n && f[n - 1] == ' ')
		n--;
	if ((n == 1 && f[0] == '/') || (n == 7 && memcmp(f, "/SYM64/", 7) == 0) ||
	    (n >= 9 && memcmp(f, "__.SYMDEF", 9) == 0))
		return 0; /* a symbol table */
	if (n == 2 && memcmp(f, "//", 2) == 0) {
		w->names = (const char *)w->map + *data;
		w->names_size = *size;
		return 0;
	}
	if (n > 1 && f[0] == '/' && ar_number(f + 1, n - 1, &off)) {
		if (!w->names || off >= w->names_size) {
			*why = "names a long name that is not in the \"//\" table";
			return -1;
		}
		p = w->names + off;
		len = 0;
		while (off + len < w->names_size && p[len] != '\n' && p[len] != '\0')
			len++;
		if (len && p[len - 1] == '/')
			len--;
		*name = strndup(p, (size_t)len);
	} else if (n > 3 && memcmp(f, "#1/", 3) == 0 && !w->thin && ar_number(f + 3, n - 3, &len)) {
		if (len > *size) {
			*why = "has a BSD name longer than the member";
			return -1;
		}
		p = (const char *)w->map + *data;
		*data += len;
		*size -= len;
		*name = strndup(p, strnlen(p, (size_t)len));
		if (*name && strncmp(*name, "__.SYMDEF", 9) == 0) {
			free(*name);
			*name = NULL;
			return 0;
		}
	} else {
		if (n && f[n - 1] == '/')
			n--;
		*name = strndup(f, n);
	}
	if (!*name) {
		*why = "out of memory";
		return -1;
	}
	return 0;
}

/* A member's file in a thin archive: its name, relative to the archive's directory. */
static char *thin_file(const char *archive, const char *name)
{
	const char *slash = strrchr(archive, '/');
	char *p;

	if (name[0] == '/' || !slash)
		return strdup(name);
	if (asprintf(&p, "%.*s/%s", (int)(slash - archive), archive, name) < 0)
		return NULL;
	return p;
}

/* Hand on the entry that says why the archive could not be listed from hdr_offset on. */
static int ar_error(const struct ar_walk *w, uint64_t hdr_offset, const char *why,
		    struct ep_error *err)
{
	struct ep_member m = { 0 };
	int rc;

	m.archive = strdup(w->path);
	if (!m.archive || asprintf(&m.error, "%s: the member header at offset %" PRIu64 " %s",
				   w->path, hdr_offset, why) < 0) {
		free(m.archive);
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", w->path);
	}
	rc = w->add(w->ctx, w->path, &m, err);
	if (rc) {
		free(m.archive);
		free(m.error);
	}
	return rc;
}

/*
 * List the members of the archive path, size bytes mapped at map.  The ar
 * format is read here, not with libelf: elfutils' elf_next() cannot step
 * past a member that elf_begin() refuses (an ELF header cut short), so the
 * members after it would vanish without a word; and it does not read thin
 * archives at all.  Listing reads headers only, never a member's bytes.
 */
static int list_archive(const char *path, const unsigned char *map, uint64_t size, bool thin,
			ep_member_fn *add, void *ctx, struct ep_error *err)
{
	struct ar_walk w = { path, map, size, thin, NULL, 0, add, ctx };
	uint64_t pos = 8, asize, data, dsize, i;
	const struct ar_hdr *h;
	const char *why = NULL;
	struct ep_member m;
	char *name, *entry;
	bool stored;
	int rc;

	while (pos < size) {
		if (size - pos < sizeof(*h)) {
			/* ar pads with newlines; anything else is a header cut short. */
			for (i = pos; i < size && map[i] == '\n'; i++)
				;
			if (i == size)
				break;
			return ar_error(&w, pos, "is cut short", err);
		}
		h = (const struct ar_hdr *)(map + pos);
		if (memcmp(h->ar_fmag, "`\n", 2) != 0 ||
		    !ar_number(h->ar_size, sizeof(h->ar_size), &asize))
			return ar_error(&w, pos, "is not an ar member header", err);
		data = pos + sizeof(*h);
		/* A thin archive stores only its tables; members are files of their own. */
		stored = !thin ||
			 (h->ar_name[0] == '/' &&
			  (h->ar_name[1] == ' ' || h->ar_name[1] == '/' || h->ar_name[1] == 'S'));
		if (stored && !ep_range_ok(data, asize, size))
			return ar_error(&w, pos, "declares more bytes than the archive has", err);
		dsize = asize;
		if (ar_name(&w, h, &data, &dsize, &name, &why))
			return ar_error(&w, pos, why, err);
		if (name) {
			memset(&m, 0, sizeof(m));
			m.name = name;
			m.archive = strdup(path);
			m.file = thin ? thin_file(path, name) : strdup(path);
			m.offset = thin ? 0 : data;
			m.size = thin ? 0 : dsize;
			rc = !m.archive || !m.file || asprintf(&entry, "%s(%s)", path, name) < 0;
			if (!rc) {
				rc = add(ctx, entry, &m, err);
				free(entry);
			}
			if (rc) {
				free(m.name);
				free(m.archive);
				free(m.file);
				return ep_error_set(err, EP_ENOMEM, "%s: out of memory", path);
			}
		}
		pos = stored ? pos + sizeof(*h) + asize : pos + sizeof(*h);
		pos += pos & 1; /* members start on even offsets */
	}
	return 0;
}

int ep_archive_list(const char *path, ep_member_fn *add, void *ctx, struct ep_error *err)
{
	unsigned char head[8];
	struct stat st;
	void *map;
	int fd, rc;

	fd = ep_open_regular(path, &st);
	if (fd < 0) /* its open in ep_blob_open() reports it */
		return 1;
	if (st.st_size < 8 || pread(fd, head, 8, 0) != 8 || !ep_is_archive(head, 8)) {
		close(fd);
		return 1;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) /* ep_blob_open() says why */
		return 1;
	/* Guarded like a blob's mapping: a file that shrinks is read as zeros. */
	if (ep_blob_guard(map, (size_t)st.st_size)) {
		munmap(map, (size_t)st.st_size);
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", path);
	}
	rc = list_archive(path, map, (uint64_t)st.st_size, head[2] == 't', add, ctx, err);
	ep_blob_unguard(map);
	munmap(map, (size_t)st.st_size);
	return rc;
}
