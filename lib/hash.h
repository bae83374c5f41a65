/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_HASH_H
#define ELFPLT_HASH_H

/*
 * Hashing for the open-addressing tables that group what an input names
 * (attribution's row names, arm64's relocation keys).  An input is hostile
 * as often as not: a table indexed by an unkeyed hash can be filled with
 * chosen names or addends that all land in one slot, and a 200,000-symbol
 * file then took 30 s instead of half a second.  So every hash starts from
 * a seed drawn once per process (getrandom(), else time and address) and
 * ends with a full avalanche, so that which keys share a slot cannot be
 * known when the file is written.  Nothing printed depends on the seed:
 * rows are sorted by their counts and names, not by slot.
 */

#include <stdint.h>
#include <sys/random.h>
#include <time.h>

/* MurmurHash3's 64-bit finalizer: every input bit changes every output bit half the time. */
static inline uint64_t ep_hash_mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return h;
}

/* This process's seed: random, drawn on the first call. */
static inline uint64_t ep_hash_seed(void)
{
	static uint64_t seed;
	static int drawn;

	if (!drawn) {
		if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) != (ssize_t)sizeof(seed))
			seed = (uint64_t)time(NULL) ^ (uint64_t)(uintptr_t)&seed;
		seed |= 1;
		drawn = 1;
	}
	return seed;
}

#endif
