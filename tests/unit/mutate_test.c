/* SPDX-License-Identifier: MIT */
/*
 * A bounded, deterministic mutation test: usage mutate_test SEED COUNT FILE...
 * For each FILE, every prefix of it (a file cut short at each length) and
 * COUNT mutants (a few bytes or fields overwritten, mostly in the ELF header
 * and near the end where the section header table usually lies) go through
 * ep_exercise_image(): every library entry point a command uses.  It passes
 * when nothing crashes and every error message names the file in one clean
 * line (exercise.c abort()s otherwise).  The same SEED gives the same
 * mutants, so a failure can be replayed; tests/cli/bad-input-mutants.sh runs
 * it in make check, and a sanitizer build (./configure CC=clang
 * CFLAGS='-fsanitize=address,undefined') makes it stricter.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/exercise.h"

/* xorshift64* (Vigna): small, fast and the same on every machine. */
static uint64_t next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

static int read_file(const char *path, unsigned char **buf, size_t *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b = NULL, *nb;
	size_t n = 0, cap = 0, got;

	if (!f)
		return -1;
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			nb = realloc(b, cap);
			if (!nb) {
				free(b);
				fclose(f);
				return -1;
			}
			b = nb;
		}
		got = fread(b + n, 1, cap - n, f);
		n += got;
	} while (got);
	fclose(f);
	*buf = b;
	*size = n;
	return 0;
}

/* A place to damage: the ELF header, the last quarter, or anywhere. */
static size_t pick_offset(uint64_t *s, size_t size)
{
	uint64_t r = next(s) % 4;

	if (r == 0 && size > 64)
		return next(s) % 64;
	if (r <= 2 && size >= 4)
		return size - 1 - next(s) % (size / 4);
	return next(s) % size;
}

/* Overwrite a byte or a whole 2-, 4- or 8-byte field with an extreme value. */
static void mutate(unsigned char *m, size_t size, uint64_t *s)
{
	static const uint64_t extremes[] = {
		0,
		1,
		0xff,
		0x7f,
		0x80,
		0xffff,
		0xff00,
		0x7fffffff,
		0x80000000,
		0xffffffff,
		0x7fffffffffffffffull,
		0xffffffffffffffffull,
	};
	const size_t nextremes = sizeof(extremes) / sizeof(extremes[0]);
	unsigned int k, edits = 1 + (unsigned int)(next(s) % 4);

	for (k = 0; k < edits; k++) {
		size_t off = pick_offset(s, size), width = (size_t)1 << (next(s) % 4), i;
		uint64_t v = next(s) % 2 ? extremes[next(s) % nextremes] : next(s);

		for (i = 0; i < width && off + i < size; i++)
			m[off + i] = (unsigned char)(v >> (8 * i));
	}
}

int main(int argc, char **argv)
{
	uint64_t seed, count, j;
	int a;

	if (argc < 4) {
		fprintf(stderr, "usage: mutate_test SEED COUNT FILE...\n");
		return 2;
	}
	seed = strtoull(argv[1], NULL, 0);
	count = strtoull(argv[2], NULL, 0);
	for (a = 3; a < argc; a++) {
		unsigned char *orig, *m;
		size_t size, n, opened = 0;
		uint64_t s = seed * 0x9e3779b97f4a7c15ull + (uint64_t)a;

		if (read_file(argv[a], &orig, &size) != 0 || size == 0) {
			fprintf(stderr, "mutate_test: cannot read %s: %s\n", argv[a],
				strerror(errno));
			return 1;
		}
		if (!s)
			s = 1;
		m = malloc(size);
		if (!m)
			return 1;
		/* Every prefix, each in a buffer of its own size (ASan sees overreads). */
		for (n = 0; n <= size; n++) {
			unsigned char *p = malloc(n ? n : 1);

			if (!p)
				return 1;
			memcpy(p, orig, n);
			opened += ep_exercise_image(p, n) == 0;
			free(p);
		}
		for (j = 0; j < count; j++) {
			memcpy(m, orig, size);
			mutate(m, size, &s);
			opened += ep_exercise_image(m, size) == 0;
		}
		printf("%s: %zu bytes, %zu prefixes and %" PRIu64 " mutants, %zu opened\n", argv[a],
		       size, size + 1, count, opened);
		free(m);
		free(orig);
	}
	return 0;
}
