/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_TESTS_EXERCISE_H
#define ELFPLT_TESTS_EXERCISE_H

/*
 * One input through every library entry point a command uses on an image's
 * bytes, for the fuzz harness (tests/fuzz/fuzz_image.c) and the mutation test
 * (tests/unit/mutate_test.c).
 */

#include <stddef.h>
#include <stdint.h>

/*
 * Open data[0..size) as the image "fuzz.o" and run ep_stats_file(), every
 * PLT model (automatic choice; each forced, KASLR on and off) and the load
 * plan of every section set with its text round trip.  An error is the
 * expected answer to bad input; abort()s (so the caller sees a crash) when
 * an error message does not start with "fuzz.o: " or is not one line of
 * clean text (ep_text_is_clean()), or the load plan does not survive its
 * own encoding.  Returns 0 when the image opened, -1 when it did not.
 */
int ep_exercise_image(const uint8_t *data, size_t size);

#endif
