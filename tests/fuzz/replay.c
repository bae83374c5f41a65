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
 * any sanitizer finding or leak.  And, for the default corpus, that each
 * input's own target (its directory's name) met the first error line
 * tests/fuzz/regress/errors.txt gives for it ("TARGET/NAME: LINE", LINE
 * "(none)" when the input is valid): an input without a line, a line
 * without an input, or another first error fails.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/fuzz/exercise.h"

static size_t nfiles;

/* errors.txt: "TARGET/NAME" -> the expected first error line; used marks. */
struct expected {
	char *key, *line;
	bool used;
};
static struct expected *expect;
static size_t nexpect;
static bool check_expected;

static int load_expected(const char *path)
{
	char *line = NULL, *sep;
	size_t cap = 0;
	ssize_t len;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		struct expected *e;

		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (!len || line[0] == '#')
			continue;
		sep = strstr(line, ": ");
		e = realloc(expect, (nexpect + 1) * sizeof(*expect));
		if (!sep || !e) {
			fprintf(stderr, "replay: %s: bad line '%s'\n", path, line);
			free(e ? e : expect);
			expect = NULL;
			fclose(f);
			free(line);
			return -1;
		}
		expect = e;
		*sep = '\0';
		expect[nexpect].key = strdup(line);
		expect[nexpect].line = strdup(sep + 2);
		expect[nexpect].used = false;
		nexpect++;
	}
	free(line);
	fclose(f);
	check_expected = true;
	return 0;
}

/* The expected line of path's "TARGET/NAME", or NULL. */
static struct expected *expected_for(const char *path, const char **target)
{
	const char *name = strrchr(path, '/'), *dir;
	size_t i;

	if (!name || name == path)
		return NULL;
	for (dir = name - 1; dir > path && dir[-1] != '/'; dir--)
		;
	*target = dir;
	for (i = 0; i < nexpect; i++)
		if (strcmp(expect[i].key, dir) == 0)
			return &expect[i];
	return NULL;
}

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
	nfiles++;
	for (t = ep_fuzz_targets; t->name; t++) {
		const char *target = "";
		struct expected *e = check_expected ? expected_for(path, &target) : NULL;
		const char *got;

		ep_exercise_first_error[0] = '\0';
		t->run(buf, size);
		if (!check_expected || strncmp(target, t->name, strlen(t->name)) != 0 ||
		    target[strlen(t->name)] != '/')
			continue;
		got = ep_exercise_first_error[0] ? ep_exercise_first_error : "(none)";
		if (!e) {
			printf("replay: FAIL %s: no line in errors.txt (first error: %s)\n", target,
			       got);
			goto fail_quiet;
		}
		e->used = true;
		if (strcmp(e->line, got) != 0) {
			printf("replay: FAIL %s: expected '%s', got '%s'\n", target, e->line, got);
			goto fail_quiet;
		}
		printf("replay: ok %s: %s\n", target, got);
	}
	printf("replay: %s (%zu bytes): %zu targets returned\n", path, size,
	       (size_t)(t - ep_fuzz_targets));
	rc = 0;
	goto out;
fail:
	fprintf(stderr, "replay: %s: %s\n", path, strerror(errno ? errno : EIO));
	goto out;
fail_quiet:
	rc = -1;
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

		if (de->d_name[0] == '.' || strstr(de->d_name, ".md") ||
		    strcmp(de->d_name, "errors.txt") == 0)
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
		char *errors;

		if (asprintf(&dflt, "%s/tests/fuzz/regress", top ? top : ".") < 0 ||
		    asprintf(&errors, "%s/errors.txt", dflt) < 0)
			return 99;
		if (load_expected(errors) < 0)
			rc = -1;
		free(errors);
		if (replay_path(dflt, 0) < 0)
			rc = -1;
		if (!nfiles) {
			fprintf(stderr, "replay: no file in %s\n", dflt);
			rc = -1;
		}
		free(dflt);
	}
	for (i = 1; i < argc; i++)
		if (replay_path(argv[i], 0) < 0)
			rc = -1;
	for (size_t k = 0; k < nexpect; k++) {
		if (!expect[k].used) {
			printf("replay: FAIL %s: a line in errors.txt for no input\n", expect[k].key);
			rc = -1;
		}
		free(expect[k].key);
		free(expect[k].line);
	}
	free(expect);
	printf("replay: %zu files\n", nfiles);
	return rc < 0 ? 1 : 0;
}
