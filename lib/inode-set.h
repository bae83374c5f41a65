/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_INODE_SET_H
#define ELFPLT_INODE_SET_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A set of files, or parts of files, by identity, to take a file reached by
 * several hard links once: a whole file is (st_dev, st_ino, 0); an archive
 * member is its archive's (st_dev, st_ino) and the offset of its data in it
 * (bytes; never 0: there is the archive's magic).  *set starts NULL.
 * ep_inode_set_add_at() returns 1 when the identity was in the set already,
 * 0 when it was added, -1 when memory ran out.
 */
struct ep_inode_set;
int ep_inode_set_add_at(struct ep_inode_set **set, uint64_t dev, uint64_t ino, uint64_t offset);

/* Whether (dev, ino, offset) is in set (which may be NULL), without adding it. */
bool ep_inode_set_has(const struct ep_inode_set *set, uint64_t dev, uint64_t ino, uint64_t offset);

/* Free the set and its slots.  set may be NULL. */
void ep_inode_set_free(struct ep_inode_set *set);

#endif
