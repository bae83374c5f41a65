/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/elf.h"
#include "lib/input.h"
#include "lib/load.h"
#include "lib/plt.h"
#include "lib/stats.h"
#include "tests/fuzz/exercise.h"

#define EXERCISE_PATH "fuzz.o"

static void check_message(const struct ep_error *err)
{
	if (strncmp(err->message, EXERCISE_PATH ": ", strlen(EXERCISE_PATH ": ")) != 0 ||
	    !ep_text_is_clean(err->message, strlen(err->message))) {
		fprintf(stderr, "bad message: '%s'\n", err->message);
		abort();
	}
}

static void run_plt(struct ep_image *img, const struct ep_plt_model *m, bool kaslr)
{
	const struct ep_plt_options opt = { .kaslr = kaslr, .erratum_843419 = true };
	struct ep_plt_result res;
	struct ep_error err = { 0 };

	if (ep_plt_analyse(img, m, &opt, &res, &err) < 0)
		check_message(&err);
	ep_plt_result_free(&res);
}

static void run_load(struct ep_image *img, const struct ep_blob *blob)
{
	static const enum ep_section_set sets[] = { EP_SET_RELOCS, EP_SET_ALLOC, EP_SET_ALL };
	struct ep_load_plan plan = { 0 }, back;
	struct ep_load_totals t;
	struct ep_error err = { 0 };
	size_t i, len;
	char *buf;

	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		if (ep_load_plan_add(&plan, img, blob, sets[i], &err) < 0)
			check_message(&err);
	ep_load_plan_totals(&plan, &t);
	if (ep_load_plan_encode(&plan, &buf, &len, &err) == 0) {
		if (ep_load_plan_decode(&back, buf, len, &err) != 0 || back.nfiles != plan.nfiles) {
			fprintf(stderr, "load plan does not decode: %s\n", err.message);
			abort();
		}
		ep_load_plan_free(&back);
		free(buf);
	}
	ep_load_plan_free(&plan);
}

int ep_exercise_image(const uint8_t *data, size_t size)
{
	struct ep_blob blob = { .path = EXERCISE_PATH, .bytes = data, .size = size };
	struct ep_file_stats fs;
	struct ep_error err = { 0 };
	struct ep_image img;
	size_t i;

	if (ep_image_open(&img, EXERCISE_PATH, data, size, &err) < 0) {
		check_message(&err);
		return -1;
	}
	if (ep_stats_file(&img, &fs, &err) < 0)
		check_message(&err);
	ep_stats_free(&fs);
	run_plt(&img, NULL, true);
	for (i = 0; ep_plt_models[i]; i++) {
		run_plt(&img, ep_plt_models[i], true);
		run_plt(&img, ep_plt_models[i], false);
	}
	run_load(&img, &blob);
	ep_image_close(&img);
	return 0;
}
