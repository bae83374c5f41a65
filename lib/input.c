/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/blob.h"
#include "lib/elf.h"
#include "lib/input.h"

/* Append an entry named path; m (copied, its strings taken over) for a member. */
static int push_entry(struct ep_pathlist *pl, const char *path, bool walked,
		      const struct ep_member *m, struct ep_error *err)
{
	if (pl->count == pl->cap) {
		size_t cap = pl->cap ? pl->cap * 2 : 64;
		char **np = realloc(pl->paths, cap * sizeof(*np));
		struct ep_member *nm;
		bool *nw;

		if (!np)
			goto nomem;
		pl->paths = np;
		nw = realloc(pl->walked, cap * sizeof(*nw));
		if (!nw)
			goto nomem;
		pl->walked = nw;
		nm = realloc(pl->members, cap * sizeof(*nm));
		if (!nm)
			goto nomem;
		pl->members = nm;
		pl->cap = cap;
	}
	pl->paths[pl->count] = strdup(path);
	if (!pl->paths[pl->count])
		goto nomem;
	if (m)
		pl->members[pl->count] = *m;
	else
		memset(&pl->members[pl->count], 0, sizeof(*m));
	pl->walked[pl->count++] = walked;
	return 0;
nomem:
	return ep_error_set(err, EP_ENOMEM, "%s: out of memory", path);
}

static int push(struct ep_pathlist *pl, const char *path, bool walked, struct ep_error *err)
{
	return push_entry(pl, path, walked, NULL, err);
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

/* Push the entry that says why the archive could not be listed from offset on. */
static int ar_error(struct ep_pathlist *pl, const char *path, uint64_t offset, const char *why,
		    struct ep_error *err)
{
	struct ep_member m = { 0 };

	m.archive = strdup(path);
	if (!m.archive || asprintf(&m.error, "%s: the member header at offset %" PRIu64 " %s", path,
				   offset, why) < 0) {
		free(m.archive);
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", path);
	}
	if (push_entry(pl, path, false, &m, err)) {
		free(m.archive);
		free(m.error);
		return -EP_ENOMEM;
	}
	return 0;
}

/*
 * List the members of the archive path, size bytes mapped at map.  The ar
 * format is read here, not with libelf: elfutils' elf_next() cannot step
 * past a member that elf_begin() refuses (an ELF header cut short), so the
 * members after it would vanish without a word; and it does not read thin
 * archives at all.  Listing reads headers only, never a member's bytes.
 */
static int list_archive(struct ep_pathlist *pl, const char *path, const unsigned char *map,
			uint64_t size, bool thin, struct ep_error *err)
{
	struct ar_walk w = { path, map, size, thin, NULL, 0 };
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
			return ar_error(pl, path, pos, "is cut short", err);
		}
		h = (const struct ar_hdr *)(map + pos);
		if (memcmp(h->ar_fmag, "`\n", 2) != 0 ||
		    !ar_number(h->ar_size, sizeof(h->ar_size), &asize))
			return ar_error(pl, path, pos, "is not an ar member header", err);
		data = pos + sizeof(*h);
		/* A thin archive stores only its tables; members are files of their own. */
		stored = !thin ||
			 (h->ar_name[0] == '/' &&
			  (h->ar_name[1] == ' ' || h->ar_name[1] == '/' || h->ar_name[1] == 'S'));
		if (stored && !ep_range_ok(data, asize, size))
			return ar_error(pl, path, pos, "declares more bytes than the archive has",
					err);
		dsize = asize;
		if (ar_name(&w, h, &data, &dsize, &name, &why))
			return ar_error(pl, path, pos, why, err);
		if (name) {
			memset(&m, 0, sizeof(m));
			m.name = name;
			m.archive = strdup(path);
			m.file = thin ? thin_file(path, name) : strdup(path);
			m.offset = thin ? 0 : data;
			m.size = thin ? 0 : dsize;
			rc = !m.archive || !m.file || asprintf(&entry, "%s(%s)", path, name) < 0;
			if (!rc) {
				rc = push_entry(pl, entry, true, &m, err);
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

/*
 * A file named as a PATH: listed as it is, or as the members of the
 * archive it is.  (A file a walk finds is listed without being opened:
 * an archive among them is for the caller to expand when it opens it.)
 */
static int add_file(struct ep_pathlist *pl, const char *path, struct ep_error *err)
{
	unsigned char head[8];
	struct stat st;
	void *map;
	int fd, rc;

	fd = ep_open_regular(path, &st);
	if (fd < 0) /* its open in ep_blob_open() reports it */
		return push(pl, path, false, err);
	if (st.st_size < 8 || pread(fd, head, 8, 0) != 8 || !ep_is_archive(head, 8)) {
		close(fd);
		return push(pl, path, false, err);
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) /* ep_blob_open() says why */
		return push(pl, path, false, err);
	/* Guarded like a blob's mapping: a file that shrinks is read as zeros. */
	if (ep_blob_guard(map, (size_t)st.st_size)) {
		munmap(map, (size_t)st.st_size);
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", path);
	}
	rc = list_archive(pl, path, map, (uint64_t)st.st_size, head[2] == 't', err);
	ep_blob_unguard(map);
	munmap(map, (size_t)st.st_size);
	return rc;
}

bool ep_is_archive(const unsigned char *head, size_t n)
{
	return n >= 8 && (memcmp(head, EP_ARMAG, 8) == 0 || memcmp(head, EP_THINMAG, 8) == 0);
}

const char *ep_pathlist_file(const struct ep_pathlist *pl, size_t i)
{
	const struct ep_member *m = &pl->members[i];

	return m->archive && m->file ? m->file : pl->paths[i];
}

int ep_blob_open_entry(struct ep_blob *b, const struct ep_pathlist *pl, size_t i, bool populate,
		       struct ep_error *err)
{
	const struct ep_member *m = &pl->members[i];
	int rc;

	if (!m->archive)
		return ep_blob_open(b, pl->paths[i], populate, err);
	if (m->error) {
		memset(b, 0, sizeof(*b));
		b->path = pl->paths[i];
		return ep_error_set(err, EP_EMALFORMED, "%s", m->error);
	}
	/* A thin archive's member is a whole file; a regular one's, a part. */
	if (m->offset == 0)
		rc = ep_blob_open_file(b, pl->paths[i], m->file, populate, err);
	else
		rc = ep_blob_open_part(b, pl->paths[i], m->file, m->offset, m->size, populate, err);
	b->archive = m->archive;
	b->member = m->name;
	return rc;
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
			rc = add_file(pl, paths[i], err);
		if (rc)
			return rc;
	}
	return 0;
}

void ep_pathlist_free(struct ep_pathlist *pl)
{
	size_t i;

	for (i = 0; i < pl->count; i++) {
		free(pl->paths[i]);
		free(pl->members[i].archive);
		free(pl->members[i].name);
		free(pl->members[i].file);
		free(pl->members[i].error);
	}
	free(pl->paths);
	free(pl->walked);
	free(pl->members);
	memset(pl, 0, sizeof(*pl));
}
