/* SPDX-License-Identifier: MIT */
/*
 * "Did you mean ...?" for an unknown command or long option: the candidates
 * nearest by a weighted edit distance, as git's help.c picks them with its
 * levenshtein.c (Damerau-Levenshtein, optimal string alignment).  The
 * weights are git's for commands: a swap of two neighbours costs 0 (the
 * commonest typo), adding a character 1 (a word cut short), substituting
 * one 2, and deleting one 3 (a typed character is rarely one too many).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/elfplt.h"

enum { W_SWAP = 0, W_SUBST = 2, W_ADD = 1, W_DEL = 3 };

static unsigned int min3(unsigned int a, unsigned int b, unsigned int c)
{
	unsigned int m = a < b ? a : b;

	return m < c ? m : c;
}

unsigned int ep_edit_distance(const char *typed, const char *want)
{
	size_t n = strlen(typed), m = strlen(want), i, j;
	unsigned int *prev2, *prev, *cur, *row, d;

	/* Three rows of m + 1: two back for a swap, one back, this one. */
	row = calloc(3 * (m + 1), sizeof(*row));
	if (!row)
		return (unsigned int)-1;
	prev2 = row;
	prev = row + (m + 1);
	cur = row + 2 * (m + 1);
	for (j = 0; j <= m; j++)
		prev[j] = (unsigned int)j * W_ADD;
	for (i = 1; i <= n; i++) {
		unsigned int *t;

		cur[0] = (unsigned int)i * W_DEL;
		for (j = 1; j <= m; j++) {
			d = prev[j - 1] + (typed[i - 1] == want[j - 1] ? 0 : W_SUBST);
			d = min3(d, cur[j - 1] + W_ADD, prev[j] + W_DEL);
			if (i > 1 && j > 1 && typed[i - 1] == want[j - 2] &&
			    typed[i - 2] == want[j - 1] && prev2[j - 2] + W_SWAP < d)
				d = prev2[j - 2] + W_SWAP;
			cur[j] = d;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	d = prev[m];
	free(row);
	return d;
}

/*
 * Close enough to suggest: the typed word is the start of the candidate, or
 * the distance is at most half the typed word's length (plus one), so that
 * "stat" finds "stats" and "jsn" finds "json" but "foo" finds nothing.
 */
static bool close_enough(const char *typed, const char *want, unsigned int d)
{
	if (*typed && strncmp(want, typed, strlen(typed)) == 0)
		return true;
	return d <= 1 + strlen(typed) / 2;
}

size_t ep_suggest(const char *typed, const char *const *cands, size_t n, const char **out,
		  size_t max)
{
	unsigned int best = (unsigned int)-1, d;
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		d = ep_edit_distance(typed, cands[i]);
		if (strncmp(cands[i], typed, strlen(typed)) == 0)
			d = 0;
		if (!close_enough(typed, cands[i], d) || d > best)
			continue;
		if (d < best) {
			best = d;
			k = 0;
		}
		if (k < max)
			out[k++] = cands[i];
	}
	return k;
}

void ep_suggestion_text(char *buf, size_t size, const char *prefix, const char *const *v, size_t n)
{
	size_t i, len;

	buf[0] = '\0';
	if (!n || size < 2)
		return;
	len = (size_t)snprintf(buf, size, "; did you mean ");
	for (i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s'%s%s'",
					i == 0	     ? ""
					: i + 1 == n ? " or "
						     : ", ",
					prefix, v[i]);
	if (len < size)
		snprintf(buf + len, size - len, "?");
}
