/* SPDX-License-Identifier: MIT */
/*
 * EP_SORT_BY(name, type, lt): defines static void name(type *v, size_t n),
 * sorting v's n elements (not stably) so that no lt(&v[i + 1], &v[i]),
 * where lt(a, b) (two const type *) says a sorts before b.  The comparison
 * is inlined: qsort()'s indirect calls were most of --by=callee's cost on a
 * module tree (bench/plt-by.sh).
 *
 * An introsort (Musser, "Introspective Sorting and Selection Algorithms",
 * 1997): quicksort (median of three, recursing into the smaller part,
 * insertion sort below 17 elements) until a part has been split
 * 2 * log2(n) times, then heapsort for that part.  So O(n log n)
 * comparisons in the worst case: a quicksort alone goes quadratic on input
 * built against it (McIlroy, "A Killer Adversary for Quicksort", 1999):
 * 31 s for 400,000 symbols.
 */
#ifndef EP_SORT_H
#define EP_SORT_H

#include <stddef.h>

/* 2 * floor(log2(n)): introsort's depth limit. */
static inline unsigned int ep_sort_depth(size_t n)
{
	unsigned int d = 0;

	while (n > 1) {
		n >>= 1;
		d += 2;
	}
	return d;
}

/* clang-format off */
#define EP_SORT_BY(name, type, lt)                                                                 \
	static void name##_sift(type *v, size_t root, size_t n)                                    \
	{                                                                                          \
		type t = v[root];                                                                  \
		size_t c;                                                                          \
                                                                                                   \
		while ((c = 2 * root + 1) < n) {                                                   \
			if (c + 1 < n && lt(&v[c], &v[c + 1]))                                     \
				c++;                                                               \
			if (!lt(&t, &v[c]))                                                        \
				break;                                                             \
			v[root] = v[c];                                                            \
			root = c;                                                                  \
		}                                                                                  \
		v[root] = t;                                                                       \
	}                                                                                          \
                                                                                                   \
	static void name##_heap(type *v, size_t n)                                                 \
	{                                                                                          \
		type t;                                                                            \
		size_t i;                                                                          \
                                                                                                   \
		for (i = n / 2; i-- > 0;)                                                          \
			name##_sift(v, i, n);                                                      \
		for (i = n; i-- > 1;) {                                                            \
			t = v[0], v[0] = v[i], v[i] = t;                                           \
			name##_sift(v, 0, i);                                                      \
		}                                                                                  \
	}                                                                                          \
                                                                                                   \
	static void name##_intro(type *v, size_t n, unsigned int depth)                            \
	{                                                                                          \
		type t, p;                                                                         \
		size_t i, j, mid;                                                                  \
                                                                                                   \
		while (n > 16) {                                                                   \
			if (depth-- == 0) {                                                        \
				name##_heap(v, n);                                                 \
				return;                                                            \
			}                                                                          \
			mid = n / 2;                                                               \
			if (lt(&v[mid], &v[0]))                                                    \
				t = v[mid], v[mid] = v[0], v[0] = t;                               \
			if (lt(&v[n - 1], &v[0]))                                                  \
				t = v[n - 1], v[n - 1] = v[0], v[0] = t;                           \
			if (lt(&v[n - 1], &v[mid]))                                                \
				t = v[n - 1], v[n - 1] = v[mid], v[mid] = t;                       \
			p = v[mid];                                                                \
			i = 0;                                                                     \
			j = n - 1;                                                                 \
			for (;;) {                                                                 \
				while (lt(&v[i], &p))                                              \
					i++;                                                       \
				while (lt(&p, &v[j]))                                              \
					j--;                                                       \
				if (i >= j)                                                        \
					break;                                                     \
				t = v[i], v[i] = v[j], v[j] = t;                                   \
				i++;                                                               \
				j--;                                                               \
			}                                                                          \
			if (j + 1 < n - j - 1) {                                                   \
				name##_intro(v, j + 1, depth);                                     \
				v += j + 1;                                                        \
				n -= j + 1;                                                        \
			} else {                                                                   \
				name##_intro(v + j + 1, n - j - 1, depth);                         \
				n = j + 1;                                                         \
			}                                                                          \
		}                                                                                  \
		for (i = 1; i < n; i++) {                                                          \
			t = v[i];                                                                  \
			for (j = i; j > 0 && lt(&t, &v[j - 1]); j--)                               \
				v[j] = v[j - 1];                                                   \
			v[j] = t;                                                                  \
		}                                                                                  \
	}                                                                                          \
                                                                                                   \
	static void name(type *v, size_t n)                                                        \
	{                                                                                          \
		name##_intro(v, n, ep_sort_depth(n));                                              \
	}
/* clang-format on */

#endif
