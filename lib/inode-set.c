/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>

#include "lib/inode-set.h"

/*
 * Files listed, by identity: an open-addressing hash set of (st_dev, st_ino,
 * offset).
 */
struct inode_key {
	uint64_t dev, ino, offset;
	bool used;
};

struct ep_inode_set {
	struct inode_key *slots;
	size_t n, cap; /* cap: a power of two */
};

static size_t inode_hash(uint64_t dev, uint64_t ino, uint64_t offset)
{
	uint64_t h = ((uint64_t)ino * 0x9e3779b97f4a7c15ull) ^
		     ((uint64_t)dev * 0xc2b2ae3d27d4eb4full) ^ (offset * 0x165667b19e3779f9ull);

	return (size_t)(h ^ (h >> 29));
}

/* The slot of (dev, ino, offset), or the free slot where it would go. */
static struct inode_key *inode_slot(const struct ep_inode_set *set, uint64_t dev, uint64_t ino,
				    uint64_t offset)
{
	size_t j;

	for (j = inode_hash(dev, ino, offset) & (set->cap - 1);; j = (j + 1) & (set->cap - 1)) {
		const struct inode_key *k = &set->slots[j];

		if (!k->used || (k->dev == dev && k->ino == ino && k->offset == offset))
			return &set->slots[j];
	}
}

int ep_inode_set_add_at(struct ep_inode_set **setp, uint64_t dev, uint64_t ino, uint64_t offset)
{
	struct ep_inode_set *set = *setp;
	struct inode_key *old, *k;
	size_t i, oldcap;

	if (!set) {
		set = calloc(1, sizeof(*set));
		if (!set)
			return -1;
		*setp = set;
	}
	if (2 * (set->n + 1) > set->cap) { /* at most half full */
		old = set->slots;
		oldcap = set->cap;
		set->cap = oldcap ? oldcap * 2 : 256;
		set->slots = calloc(set->cap, sizeof(*set->slots));
		if (!set->slots) {
			set->slots = old;
			set->cap = oldcap;
			return -1;
		}
		for (i = 0; i < oldcap; i++)
			if (old[i].used)
				*inode_slot(set, old[i].dev, old[i].ino, old[i].offset) = old[i];
		free(old);
	}
	k = inode_slot(set, dev, ino, offset);
	if (k->used)
		return 1;
	*k = (struct inode_key){ dev, ino, offset, true };
	set->n++;
	return 0;
}

bool ep_inode_set_has(const struct ep_inode_set *set, uint64_t dev, uint64_t ino, uint64_t offset)
{
	return set && set->n && inode_slot(set, dev, ino, offset)->used;
}

void ep_inode_set_free(struct ep_inode_set *set)
{
	if (set)
		free(set->slots);
	free(set);
}
