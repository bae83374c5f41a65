/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of lib/sort.h's EP_SORT_BY: the result is sorted and a
 * permutation of the input, and the comparisons stay under 4 n log2(n) on
 * every input tried, among them McIlroy's adversary ("A Killer Adversary
 * for Quicksort", Software: Practice and Experience 29(4), 1999), which
 * decides each comparison's answer as late as it can so as to make a
 * quicksort's pivots the worst; a plain median-of-three quicksort makes
 * about n^2/4 comparisons against it (10^8 for n = 20,000, against a bound
 * of 1.1 * 10^6).  Exit 0 when every check passes, 1 otherwise.
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/sort.h"
#include "tests/unit/check.h"

#define N 20000

static unsigned long long ncmp;

/* ---- plain keys ---- */

static bool int_lt(const int *a, const int *b)
{
	ncmp++;
	return *a < *b;
}
EP_SORT_BY(sort_ints, int, int_lt)

/* ---- the adversary: the elements are indices into val[] ---- */

static int val[N];
static int gas, nsolid, candidate;

/*
 * An element still "gas" has no value yet; comparing two gas elements
 * freezes one (the one not the pivot candidate) to the next solid value,
 * smaller than every gas, so the candidate pivot ends up ranked badly.
 */
static bool adv_lt(const int *px, const int *py)
{
	const int x = *px, y = *py;

	ncmp++;
	if (val[x] == gas && val[y] == gas)
		val[x == candidate ? x : y] = nsolid++;
	if (val[x] == gas)
		candidate = x;
	else if (val[y] == gas)
		candidate = y;
	return val[x] < val[y];
}
EP_SORT_BY(sort_adv, int, adv_lt)

/* 4 n log2(n); 0 for fewer than 2 elements, which take no comparison. */
static double bound(size_t n)
{
	return n < 2 ? 0 : 4.0 * (double)n * log2((double)n);
}

static bool sorted(const int *v, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i] < v[i - 1])
			return false;
	return true;
}

/* Sort v (n elements, kinds of input named by what), checking order, content, comparisons. */
static void try_ints(const char *what, int *v, size_t n)
{
	long long sum = 0, after = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += v[i];
	ncmp = 0;
	sort_ints(v, n);
	for (i = 0; i < n; i++)
		after += v[i];
	if (!sorted(v, n) || sum != after || (double)ncmp > bound(n))
		fprintf(stderr, "%s: %llu comparisons (bound %.0f)\n", what, ncmp, bound(n));
	CHECK(sorted(v, n));
	CHECK(sum == after);
	CHECK((double)ncmp <= bound(n));
}

int main(void)
{
	static int v[N];
	size_t i;

	for (i = 0; i < N; i++)
		v[i] = (int)i;
	try_ints("sorted", v, N);
	for (i = 0; i < N; i++)
		v[i] = (int)(N - i);
	try_ints("reverse", v, N);
	for (i = 0; i < N; i++)
		v[i] = 7;
	try_ints("all equal", v, N);
	for (i = 0; i < N; i++)
		v[i] = (int)(i % 3);
	try_ints("three keys", v, N);
	for (i = 0; i < N; i++)
		v[i] = (int)(i < N / 2 ? i : N - i);
	try_ints("organ pipe", v, N);
	srand(1);
	for (i = 0; i < N; i++)
		v[i] = rand();
	try_ints("random", v, N);
	try_ints("one", v, 1);
	try_ints("none", v, 0);

	/* The adversary: every element gas (above any solid value) at first. */
	gas = N;
	nsolid = 0;
	candidate = 0;
	for (i = 0; i < N; i++) {
		val[i] = gas;
		v[i] = (int)i;
	}
	ncmp = 0;
	sort_adv(v, N);
	fprintf(stderr, "adversary: %llu comparisons for %d elements (bound %.0f)\n", ncmp, N,
		bound(N));
	CHECK((double)ncmp <= bound(N));
	for (i = 1; i < N; i++)
		if (val[v[i]] < val[v[i - 1]])
			break;
	CHECK(i == N);
	return check_status();
}
