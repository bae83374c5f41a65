/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_ARCHIVE_H
#define ELFPLT_ARCHIVE_H

/*
 * ar archives: regular ("!<arch>\n") and thin ("!<thin>\n"), with GNU and
 * SysV long names ("/N" into the "//" table) and BSD names ("#1/N"),
 * members found in place.  Parsed here, not with libelf's elf_next(), which
 * stops at a member cut short and cannot read thin archives.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/error.h"

/* The magic of an ar archive (binutils include/aout/ar.h), 8 bytes each. */
#define EP_ARMAG   "!<arch>\n"
#define EP_THINMAG "!<thin>\n"

/* head[0..n) starts with EP_ARMAG or EP_THINMAG. */
bool ep_is_archive(const unsigned char *head, size_t n);

/*
 * Where entry i of a path list (lib/walk.h) is when it is an archive member:
 * archive is NULL for a file.  A regular archive's member is size bytes at
 * offset in file (the archive); a thin archive's member is the whole of
 * file, named relative to the archive's directory (offset and size 0).
 * error, when set, is why the archive could not be listed from this entry
 * on: opening the entry fails with it.
 */
struct ep_member {
	char *archive; /* the archive as named or found */
	char *name;    /* the member's name in the archive (ar_name, long names resolved) */
	char *file;    /* the file holding its bytes */
	uint64_t offset, size;
	char *error;
};

/*
 * What ep_archive_list() hands each entry to: entry is "ARCHIVE(MEMBER)"
 * for a member, or the archive's path for the entry whose m->error says
 * why listing stopped.  Returns 0 having taken over m's strings (malloc'd),
 * or a negative ep_errcode with err filled, the strings left to the caller.
 */
typedef int ep_member_fn(void *ctx, const char *entry, const struct ep_member *m,
			 struct ep_error *err);

/*
 * List the members of the ar archive path, in archive order, to add(ctx,
 * ...): each member but the archive's symbol table ("/", "/SYM64/",
 * "__.SYMDEF") and long-name table ("//"); members of a thin archive are
 * files named relative to the archive's directory.  Whether path is an
 * archive is told by its first bytes, never its name.  The archive is
 * mapped, guarded as a blob is (ep_blob_guard()), and only its headers are
 * read, never a member's bytes.  Headers that are broken end the list with
 * one entry more, its m->error saying where and why ("PATH: the member
 * header at offset N is cut short").  Returns 0 when path was listed; 1
 * when it is not an archive, or cannot be opened or mapped (for the caller
 * to take as a file, whose open says why); or a negative ep_errcode
 * (EP_ENOMEM, or add's) with err filled.
 */
int ep_archive_list(const char *path, ep_member_fn *add, void *ctx, struct ep_error *err);

#endif
