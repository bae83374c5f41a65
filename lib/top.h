/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_TOP_H
#define ELFPLT_TOP_H

/*
 * --top N: the N files with the largest key seen so far, kept sorted (key
 * descending, then path ascending, so ties list the same way on every run
 * and every -j), holding N entries however many files a run sees.
 */

#include <stddef.h>
#include <stdint.h>

/* The figures an entry carries besides its key, for the report. */
#define EP_TOP_EXTRA 3

struct ep_top_entry {
	char *path; /* malloc()ed copy */
	uint64_t key;
	uint64_t extra[EP_TOP_EXTRA];
};

struct ep_top {
	size_t max; /* N; 0: keep nothing */
	size_t n, cap;
	struct ep_top_entry *v; /* v[0..n), in order */
};

/*
 * Offer path with key and extra[0..EP_TOP_EXTRA) (NULL: zeros).  Returns 0
 * (kept or not), or -EP_ENOMEM.
 */
int ep_top_add(struct ep_top *t, const char *path, uint64_t key, const uint64_t *extra);

/* Free the kept paths and the list; t itself is the caller's and is left empty. */
void ep_top_free(struct ep_top *t);

/* --top's argument: a positive decimal number into *n.  Returns 0, or -1. */
int ep_top_parse(const char *arg, size_t *n);

#endif
