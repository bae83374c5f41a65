/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness over the library entry points every command uses on an
 * input's bytes (tests/fuzz/exercise.c): a crash, a hang, a leak, a
 * sanitizer report or an abort() for a message that does not name the file
 * in one clean line is a bug; an error return is the right answer to bad
 * input.  Not part of make check: see tests/fuzz/run.sh.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "tests/fuzz/exercise.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ep_exercise_image(data, size);
	return 0;
}
