/* SPDX-License-Identifier: MIT */
/*
 * Replay fuzz inputs without libFuzzer, for make check (plain gcc builds
 * too): every file goes through every fuzz target's function
 * (tests/fuzz/exercise.c: ep_fuzz_targets[]), not only the one that found
 * it, as a fix in one place can move a crash to another entry point.
 *
 *   replay [FILE|DIR]...
 *
 * A DIR is read one level deep, then its subdirectories (one per target,
 * tests/fuzz/regress/<target>/<bug-name>).  With no argument it replays
 * $top_srcdir/tests/fuzz/regress (AM_TESTS_ENVIRONMENT sets top_srcdir) and
 * fails when that holds no file, so a lost corpus cannot pass unnoticed.
 * Passing means every run returned: a crash or an abort() from exercise.c
 * kills the process, and under --enable-sanitizers (halt on error) so does
 * any sanitizer finding or leak.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/fuzz/exercise.h"

static size_t nfiles;

/* One file through every target.  Returns 0, or -1 when it cannot be read. */
static int replay_file(const char *path)
{
	const struct ep_fuzz_target *t;
	uint8_t *buf = NULL;
	size_t size = 0;
	long end;
	FILE *f;
	int rc = -1;

	f = fopen(path, "rb");
	if (!f)
		goto fail;
	if (fseek(f, 0, SEEK_END) < 0 || (end = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) < 0)
		goto fail;
	size = (size_t)end;
	/* An exact-size heap copy: ASan sees any read past the input's end. */
	buf = malloc(size ? size : 1);
	if (!buf || fread(buf, 1, size, f) != size)
		goto fail;
	for (t = ep_fuzz_targets; t->name; t++)
		t->run(buf, size);
	printf("replay: %s (%zu bytes): %zu targets returned\n", path, size,
	       (size_t)(t - ep_fuzz_targets));
	nfiles++;
	rc = 0;
	goto out;
fail:
	fprintf(stderr, "replay: %s: %s\n", path, strerror(errno ? errno : EIO));
out:
	if (f)
		fclose(f);
	free(buf);
	return rc;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Files of dir in name order, then its subdirectories' (depth 2 at most). */
static int replay_path(const char *path, int depth)
{
	struct dirent *de;
	struct stat st;
	char **names = NULL, *p;
	size_t n = 0, i;
	DIR *d;
	int rc = 0;

	if (stat(path, &st) < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return replay_file(path);
	if (depth > 1)
		return 0;
	d = opendir(path);
	if (!d) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		char **nn;

		if (de->d_name[0] == '.' || strstr(de->d_name, ".md"))
			continue;
		nn = realloc(names, (n + 1) * sizeof(*names));
		if (!nn || asprintf(&p, "%s/%s", path, de->d_name) < 0) {
			fprintf(stderr, "replay: out of memory\n");
			names = nn ? nn : names;
			rc = -1;
			break;
		}
		names = nn;
		names[n++] = p;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		if (replay_path(names[i], depth + 1) < 0)
			rc = -1;
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	const char *top = getenv("top_srcdir");
	char *dflt = NULL;
	int i, rc = 0;

	if (argc < 2) {
		if (asprintf(&dflt, "%s/tests/fuzz/regress", top ? top : ".") < 0)
			return 99;
		rc = replay_path(dflt, 0);
		if (!nfiles) {
			fprintf(stderr, "replay: no file in %s\n", dflt);
			rc = -1;
		}
		free(dflt);
	}
	for (i = 1; i < argc; i++)
		if (replay_path(argv[i], 0) < 0)
			rc = -1;
	printf("replay: %zu files\n", nfiles);
	return rc < 0 ? 1 : 0;
}
