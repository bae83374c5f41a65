/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/walk.h"

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

/*
 * ep_archive_list()'s callback.  A member is found, not named: walked, so
 * one that is not ELF is passed over quietly; the entry that says why the
 * listing stopped is the archive itself, not walked.
 */
static int add_member(void *pl, const char *entry, const struct ep_member *m, struct ep_error *err)
{
	return push_entry(pl, entry, !m->error, m, err);
}

/*
 * A file named as a PATH: listed as it is, or as the members of the
 * archive it is.  (A file a walk finds is listed without being opened:
 * an archive among them is for the caller to expand when it opens it.)
 */
static int add_file(struct ep_pathlist *pl, const char *path, struct ep_error *err)
{
	int rc = ep_archive_list(path, add_member, pl, err);

	return rc == 1 ? push(pl, path, false, err) : rc;
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

	enum ep_access access = populate ? EP_ACCESS_MMAP : ep_access_mode();

	if (!m->archive)
		return ep_blob_open_access(b, pl->paths[i], pl->paths[i], 0, 0, populate, access,
					   pl->walked[i], err);
	if (m->error) {
		memset(b, 0, sizeof(*b));
		b->path = pl->paths[i];
		return ep_error_set(err, EP_EMALFORMED, "%s", m->error);
	}
	/* A thin archive's member is a whole file; a regular one's, a part. */
	if (m->offset == 0)
		rc = ep_blob_open_access(b, pl->paths[i], m->file, 0, 0, populate, access, false,
					 err);
	else
		rc = ep_blob_open_access(b, pl->paths[i], m->file, m->offset, m->size, populate,
					 access, false, err);
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
