/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_WALK_H
#define ELFPLT_WALK_H

/*
 * From PATHs to inputs: the files named, the members of the archives named
 * (lib/archive.h) and the regular files under the directories named, walked
 * in a reproducible order; and an entry of the list opened as a blob
 * (lib/blob.h).
 */

#include <stdbool.h>
#include <stddef.h>

#include "lib/archive.h"
#include "lib/blob.h"
#include "lib/error.h"

/* A list of inputs to analyse, owned. */
struct ep_pathlist {
	char **paths; /* as named or found; "ARCHIVE(MEMBER)" for a member: for reports */
	bool *walked; /* found by a directory walk or in an archive, not named by the user */
	struct ep_member *members; /* members[i].archive: entry i is an archive member */
	size_t count;
	size_t cap;
};

/*
 * Expand paths[0..n) into pl (appending).  A file is taken as it is (even if
 * it turns out not to be ELF: that is for the caller to report), unless it
 * is an ar archive ("!<arch>\n", or a thin archive "!<thin>\n", recognised by
 * its first bytes, never its name): then each member but the archive's
 * symbol table ("/", "/SYM64/") and long-name table ("//") is one entry,
 * "ARCHIVE(MEMBER)", in archive order, marked walked (one that is not ELF
 * is to be passed over quietly); members of a thin archive are files named
 * relative to the archive's directory.  An archive whose headers are
 * broken gives an entry for the archive with members[i].error set at the
 * point where listing stopped.  A directory is walked recursively and gives
 * all its regular files, each directory's files in strcmp() order, so runs
 * are reproducible; symbolic links inside it are not followed (one named in
 * paths is).  The walk does not open the files it lists: every one is
 * marked walked[i]; the caller should pass over quietly one that turns out
 * not to be ELF (no ELF magic, directly or after decompression) or that is
 * gone, report one it may not read (EACCES, EPERM), which could be a module,
 * expand one that is an archive (ep_is_archive() on its bytes: expanding
 * its path lists its members) and take a file reached by several hard links
 * once (ep_inode_set_add_at() on the blob's st_dev and st_ino, offset 0; for
 * a member of a regular archive, with its offset, so an archive
 * both named and walked is read once; a thin archive's member is a file of
 * its own, identified as one).  Returns 0, or
 * a negative ep_errcode (EP_ENOMEM) with err filled.  A path that does not
 * exist (or loops: ELOOP) is listed like a file, for ep_blob_open() to
 * report; so is a directory below it that cannot be read (EACCES, or a path
 * longer than PATH_MAX: ENAMETOOLONG), not marked walked.  Trees of any
 * depth are walked; a directory that is its own ancestor (a bind mount
 * loop) only once.
 */
int ep_pathlist_expand(struct ep_pathlist *pl, const char *const *paths, size_t n,
		       struct ep_error *err);

/* The file entry i opens: paths[i], or a member's members[i].file. */
const char *ep_pathlist_file(const struct ep_pathlist *pl, size_t i);

/*
 * Open entry i of pl as ep_blob_open() opens a file, blob->path being
 * pl->paths[i]; a member through ep_blob_open_part(), with blob->archive
 * and blob->member set.  The process's access mode (ep_access_mode()) says
 * how the bytes come in; populate maps the whole file, populated.  An entry with members[i].error fails with that
 * message (EP_EMALFORMED).
 */
int ep_blob_open_entry(struct ep_blob *blob, const struct ep_pathlist *pl, size_t i, bool populate,
		       struct ep_error *err);

/* Free the list's strings and array. */
void ep_pathlist_free(struct ep_pathlist *pl);

#endif
