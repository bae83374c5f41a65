/* SPDX-License-Identifier: MIT */
/*
 * decoded_probe FILE [CAP]: how many bytes of SHF_COMPRESSED contents the library
 * decodes for FILE, for tests/cli/compressed-*.sh to compare with what
 * readelf says the sections hold.  Prints, one per line:
 *   stats N   img->bytes_decoded after ep_stats_file() (what `elfplt stats` decodes)
 *   plt N     the same after ep_plt_analyse() on a fresh image
 *   all N     after ep_section_data() twice on every SHF_COMPRESSED section
 *             of a fresh image (the second call must not decode again)
 *   same yes  the second call gave the first call's buffer
 * and exits 1 with the library's message on an error.  CAP, if given, is
 * passed to ep_section_decoded_max_set() first (bytes).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/elf.h"
#include "lib/blob.h"
#include "lib/plt.h"
#include "lib/stats.h"

static int open_image(struct ep_blob *blob, struct ep_image *img, const char *path,
		      struct ep_error *err)
{
	memset(blob, 0, sizeof(*blob));
	memset(img, 0, sizeof(*img));
	if (ep_blob_open(blob, path, false, err) < 0)
		return -1;
	return ep_image_open(img, path, blob->bytes, blob->size, err) < 0 ? -1 : 0;
}

static void close_image(struct ep_blob *blob, struct ep_image *img)
{
	ep_image_close(img);
	ep_blob_close(blob);
	memset(blob, 0, sizeof(*blob));
}

int main(int argc, char **argv)
{
	const struct ep_plt_options opt = { .kaslr = true, .erratum_843419 = true };
	struct ep_error err = { 0 };
	struct ep_plt_result res;
	struct ep_file_stats fs;
	struct ep_image img;
	struct ep_blob blob;
	bool same = true;
	size_t i;
	int rc;

	if (argc != 2 && argc != 3) {
		fputs("usage: decoded_probe FILE [CAP]\n", stderr);
		return 2;
	}
	if (argc == 3)
		ep_section_decoded_max_set(strtoull(argv[2], NULL, 10));
	if (open_image(&blob, &img, argv[1], &err) < 0)
		goto fail;
	/* Both free what they allocated, whether they failed or not. */
	rc = ep_stats_file(&img, &fs, &err);
	ep_stats_free(&fs);
	if (rc < 0)
		goto fail;
	printf("stats %llu\n", (unsigned long long)img.bytes_decoded);
	close_image(&blob, &img);

	if (open_image(&blob, &img, argv[1], &err) < 0)
		goto fail;
	rc = ep_plt_analyse(&img, NULL, &opt, &res, &err);
	ep_plt_result_free(&res);
	if (rc < 0)
		goto fail;
	printf("plt %llu\n", (unsigned long long)img.bytes_decoded);
	close_image(&blob, &img);

	if (open_image(&blob, &img, argv[1], &err) < 0)
		goto fail;
	for (i = 1; i < img.shnum; i++) {
		Elf_Data *a, *b;

		if (!ep_section_is_compressed(&img, i))
			continue;
		a = ep_section_data(&img, i, &err);
		b = a ? ep_section_data(&img, i, &err) : NULL;
		if (!a || !b)
			goto fail;
		same = same && a == b && a->d_size == ep_section_size(&img, i);
	}
	printf("all %llu\nsame %s\n", (unsigned long long)img.bytes_decoded, same ? "yes" : "no");
	close_image(&blob, &img);
	return 0;
fail:
	fprintf(stderr, "decoded_probe: %s\n", err.message);
	close_image(&blob, &img);
	return 1;
}
