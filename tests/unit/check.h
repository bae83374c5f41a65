/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_TESTS_CHECK_H
#define ELFPLT_TESTS_CHECK_H

/*
 * The unit tests' one assertion: CHECK(cond) reports a false cond with its
 * file and line and counts it, so one run shows every failure; main() ends
 * with check_status() for automake's harness (0 pass, 1 fail).
 */

#include <stdio.h>

static int failures;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);            \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

/* 0 when every CHECK held, else 1 after saying how many did not. */
static inline int check_status(void)
{
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}

#endif
