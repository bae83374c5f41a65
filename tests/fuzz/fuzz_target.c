/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for one entry point an attacker reaches, chosen at
 * compile time: EP_FUZZ_TARGET is "stats", "plt", "zstd", "xz" or "gzip"
 * (tests/fuzz/exercise.c: ep_fuzz_targets[]); Makefile.am builds it as
 * tests/fuzz/fuzz_NAME.  A crash, a hang, a leak, a sanitizer report or an
 * abort() from exercise.c is a bug; an error return is the right answer to
 * bad input.  Run by make fuzz (tests/fuzz/fuzz.sh), never by make check,
 * which replays tests/fuzz/regress/ through tests/fuzz/replay.c instead.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/fuzz/exercise.h"

#ifndef EP_FUZZ_TARGET
#error "EP_FUZZ_TARGET names the target (Makefile.am sets it)"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct ep_fuzz_target *t;

	if (!t && !(t = ep_fuzz_target_find(EP_FUZZ_TARGET))) {
		fprintf(stderr, "no fuzz target %s\n", EP_FUZZ_TARGET);
		abort();
	}
	t->run(data, size);
	return 0;
}
