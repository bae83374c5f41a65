/* SPDX-License-Identifier: MIT */
/*
 * What jansson alone costs for a document elfplt writes: the least any
 * jansson-built JSON report of the same content can cost, for issue 16's
 * "JSON at most 1.2x the text report".  Reads a stats or plt --json
 * document (a file argument), then, timed, for each files[] entry: makes it
 * again value by value (json_deep_copy: one allocation and one insertion a
 * value, as elfplt's builders do) and dumps it with elfplt's flags into a
 * reused buffer.  Prints the entries, the bytes dumped and the best of 5
 * runs of build, dump and both, in ms.  No ELF work, no I/O in the timing.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	json_error_t jerr;
	json_t *doc, *files, *copy;
	double build, dump, best_build = 1e30, best_dump = 1e30, best_both = 1e30, t;
	size_t i, n, cap = 1 << 20, bytes = 0, len;
	char *buf = malloc(cap);
	int run;

	if (argc != 2 || !buf) {
		fprintf(stderr, "usage: json-floor REPORT.json\n");
		return 2;
	}
	doc = json_load_file(argv[1], 0, &jerr);
	files = json_object_get(doc, "files");
	if (!json_is_array(files)) {
		fprintf(stderr, "json-floor: %s: no files[] (%s)\n", argv[1], jerr.text);
		return 1;
	}
	n = json_array_size(files);
	for (run = 0; run < 5; run++) {
		build = dump = 0;
		bytes = 0;
		for (i = 0; i < n; i++) {
			t = now_ms();
			copy = json_deep_copy(json_array_get(files, i));
			build += now_ms() - t;
			t = now_ms();
			len = json_dumpb(copy, buf, cap, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
							     JSON_REAL_PRECISION(9));
			if (len > cap) {
				cap = 2 * len;
				buf = realloc(buf, cap);
				if (!buf)
					return 1;
				len = json_dumpb(copy, buf, cap, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
								     JSON_REAL_PRECISION(9));
			}
			dump += now_ms() - t;
			bytes += len;
			t = now_ms();
			json_decref(copy);
			build += now_ms() - t;
		}
		if (build < best_build)
			best_build = build;
		if (dump < best_dump)
			best_dump = dump;
		if (build + dump < best_both)
			best_both = build + dump;
	}
	printf("%zu entries, %zu bytes: build+free %.1f ms, dump %.1f ms, both %.1f ms\n", n, bytes,
	       best_build, best_dump, best_both);
	json_decref(doc);
	free(buf);
	return 0;
}
