/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <gelf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/blob.h"
#include "lib/decode.h"
#include "lib/dynamic.h"
#include "lib/elf.h"
#include "lib/load.h"
#include "lib/plt.h"
#include "lib/reloc.h"
#include "lib/report.h"
#include "lib/stats.h"
#include "lib/walk.h"
#include "tests/fuzz/exercise.h"

#define EXERCISE_PATH "fuzz.o"

/* A name the report will print: one line of clean text. */
static void check_text(const char *what, const char *s)
{
	if (!s || !ep_text_is_clean(s, strlen(s))) {
		fprintf(stderr, "%s is not clean text\n", what);
		abort();
	}
}

/*
 * The name of the input being exercised, which every error message must
 * start with: "fuzz.o", or an archive member's "ARCHIVE(MEMBER)".
 */
static const char *cur_path = EXERCISE_PATH;

char ep_exercise_first_error[EP_EXERCISE_ERROR_MAX];

/* Off while the load plan runs: the first error recorded is the input's. */
static bool recording = true;

/*
 * Keep msg as ep_exercise_first_error without the directory of name (the
 * archive target's is a temporary one) wherever it occurs.
 */
static void record_error(const char *msg, const char *name)
{
	const char *paren = strchr(name, '('), *slash;
	size_t dir = 0, o = 0;

	slash = paren ? memrchr(name, '/', (size_t)(paren - name)) : strrchr(name, '/');
	if (slash)
		dir = (size_t)(slash - name) + 1;
	while (*msg && o + 1 < EP_EXERCISE_ERROR_MAX) {
		if (dir && strncmp(msg, name, dir) == 0) {
			msg += dir;
			continue;
		}
		ep_exercise_first_error[o++] = *msg++;
	}
	ep_exercise_first_error[o] = '\0';
}

/*
 * A message starts with the input's name as reports show it: cleaned
 * (ep_text_clean()), as an archive member's name from the file may not be
 * clean text; cmd/jobs.c shows names the same way.
 */
static void check_message(const struct ep_error *err)
{
	char *name = strdup(cur_path);
	size_t n;

	if (!name)
		abort();
	ep_text_clean(name);
	n = strlen(name);
	if (strncmp(err->message, name, n) != 0 || strncmp(err->message + n, ": ", 2) != 0 ||
	    !ep_text_is_clean(err->message, strlen(err->message))) {
		fprintf(stderr, "bad message for %s: '%s'\n", name, err->message);
		abort();
	}
	if (recording && !ep_exercise_first_error[0])
		record_error(err->message, name);
	free(name);
}


static void run_plt(struct ep_image *img, const struct ep_plt_model *m, bool kaslr,
		    unsigned int timing_reps)
{
	const struct ep_plt_options opt = { .kaslr = kaslr,
					    .erratum_843419 = true,
					    .timing_reps = timing_reps };
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

/* Every symbol's section index, SHN_XINDEX resolved. */
static void walk_symtab(struct ep_image *img, size_t idx)
{
	struct ep_error err = { 0 };
	struct ep_symtab st;
	uint64_t sum = 0;
	size_t i;

	if (ep_symtab_open(img, idx, &st, &err) < 0) {
		check_message(&err);
		return;
	}
	for (i = 0; i < st.count; i++)
		sum += ep_symtab_shndx(&st, i);
	(void)sum;
}

/*
 * A relocation section read in batches and all at once: the two must give
 * the same records, rs.count of them.
 */
static void walk_relsec(struct ep_image *img, size_t idx)
{
	struct ep_rel batch[EP_REL_BATCH_MIN], *all = NULL;
	struct ep_rel_cursor cur = { 0 };
	struct ep_error err = { 0 };
	struct ep_relsec rs;
	size_t seen = 0, i;
	ssize_t n;

	if (ep_relsec_open(img, idx, &rs, &err) < 0) {
		check_message(&err);
		return;
	}
	if (ep_relsec_read_all(&rs, &all, &err) < 0) {
		check_message(&err);
		all = NULL;
	}
	while ((n = ep_relsec_next(&rs, &cur, batch, EP_REL_BATCH_MIN, &err)) > 0) {
		for (i = 0; i < (size_t)n; i++, seen++) {
			if (seen >= rs.count ||
			    (all && (all[seen].r_offset != batch[i].r_offset ||
				     all[seen].r_type != batch[i].r_type ||
				     all[seen].r_sym != batch[i].r_sym ||
				     all[seen].r_addend != batch[i].r_addend))) {
				fprintf(stderr, "relocation %zu of section %zu: two reads differ\n",
					seen, idx);
				abort();
			}
			ep_reloc_type_name(img->ehdr.e_machine, batch[i].r_type);
			ep_reloc_type_kind(img->ehdr.e_machine, batch[i].r_type);
		}
	}
	if (n < 0) {
		check_message(&err);
	} else if (seen != rs.count) {
		fprintf(stderr, "section %zu: %zu relocations read, count says %zu\n", idx, seen,
			rs.count);
		abort();
	}
	free(all);
}

/* Every section: its name, contents and raw bytes; tables opened and read. */
static void walk_sections(struct ep_image *img)
{
	struct ep_error err = { 0 };
	struct ep_compressed_sizes csz;
	const unsigned char *raw;
	size_t i, rawsize;
	Elf_Data *data;

	ep_compressed_of(img, &csz);
	ep_image_kind_label(img);
	ep_image_is_kernel_module(img);
	ep_section_is_exec(img, img->shnum);
	for (i = 0; i < img->shnum; i++) {
		const GElf_Shdr *sh = &img->sections[i].shdr;

		ep_section_label(img, i);
		ep_section_is_exec(img, i);
		ep_section_raw(img, i, &raw, &rawsize);
		if (rawsize && (raw < img->bytes || rawsize > img->size ||
				raw - img->bytes > img->size - rawsize)) {
			fprintf(stderr, "section %zu: raw bytes outside the image\n", i);
			abort();
		}
		data = ep_section_data(img, i, &err);
		if (!data)
			check_message(&err);
		else if (ep_section_is_compressed(img, i) &&
			 data->d_size != ep_section_size(img, i)) {
			fprintf(stderr, "section %zu: decoded %zu bytes, ch_size %" PRIu64 "\n", i,
				data->d_size, ep_section_size(img, i));
			abort();
		}
		ep_chtype_label(img->sections[i].compressed ? img->sections[i].chdr.ch_type : 0);
		if (sh->sh_type == SHT_SYMTAB || sh->sh_type == SHT_DYNSYM)
			walk_symtab(img, i);
		if (ep_is_relsec(sh))
			walk_relsec(img, i);
	}
}

static void inconsistent(const char *what, uint64_t sum, uint64_t relocations)
{
	fprintf(stderr, "%s sum to %" PRIu64 ", not to the %" PRIu64 " relocations\n", what, sum,
		relocations);
	abort();
}

/* A JSON value the report would hold, serialised as the report does. */
static void dump_json(json_t *v)
{
	char *text;

	if (!v)
		return; /* out of memory */
	text = json_dumps(v, JSON_COMPACT);
	free(text);
	json_decref(v);
}

/*
 * What the stats report takes from the counts: names (clean text, or the
 * JSON and the table would carry the file's control characters), the totals
 * merged over sections and sorted, the "elf" object.
 */
static void report_stats(const struct ep_image *img, const struct ep_file_stats *fs)
{
	struct ep_type_counts total = { 0 };
	struct ep_type_count *sorted;
	uint64_t by_type = 0, by_class = 0, sec_class;
	size_t i, c, n;

	for (i = 0; i < fs->nsecs; i++) {
		const struct ep_relsec_stats *s = &fs->secs[i];

		check_text("relocation section name", s->name);
		check_text("target section name", s->target_name);
		ep_relkind_name(s->kind);
		for (c = 0, sec_class = 0; c < EP_SYM_NCLASS; c++)
			sec_class += s->by_symclass[c];
		if (sec_class != s->relocations)
			inconsistent("section's symbol classes", sec_class, s->relocations);
		if (ep_type_counts_merge(&total, &s->types) < 0)
			goto out;
	}
	/* Every relocation has one type and one symbol class. */
	sorted = ep_type_counts_sorted(&total, &n);
	if (!sorted && n)
		goto out;
	for (i = 0; i < n; i++) {
		by_type += sorted[i].count;
		ep_reloc_type_name(img->ehdr.e_machine, sorted[i].r_type);
	}
	free(sorted);
	for (c = 0; c < EP_SYM_NCLASS; c++) {
		by_class += fs->by_symclass[c];
		ep_symclass_name(c);
	}
	for (i = 0; i < fs->warnings.n; i++) {
		check_text("warning code", fs->warnings.v[i].code);
		check_text("warning message", fs->warnings.v[i].message);
	}
	/* MIPS64 entries carry up to three types, each counted (lib/stats.h). */
	if (img->ehdr.e_machine == EM_MIPS && img->ehdr.e_ident[EI_CLASS] == ELFCLASS64
		    ? by_type < fs->relocations || by_type > 3 * fs->relocations
		    : by_type != fs->relocations)
		inconsistent("relocation types", by_type, fs->relocations);
	if (by_class != fs->relocations)
		inconsistent("symbol classes", by_class, fs->relocations);
	for (i = 0; i < EP_DYN_NKIND; i++)
		ep_dynkind_name(i);
	dump_json(ep_json_elf(img));
out:
	ep_type_counts_free(&total);
}

static void run_stats(struct ep_image *img, const struct ep_blob *blob)
{
	struct ep_file_stats fs;
	struct ep_error err = { 0 };

	walk_sections(img);
	if (ep_stats_file(img, &fs, &err) < 0) {
		check_message(&err);
		dump_json(ep_json_file_error(cur_path, &err));
	} else {
		report_stats(img, &fs);
	}
	ep_stats_free(&fs);
	recording = false;
	run_load(img, blob);
	recording = true;
}

static void run_plts(struct ep_image *img)
{
	size_t i;

	/* plt --timing sorts each section twice more (one repetition here). */
	run_plt(img, NULL, true, 1);
	for (i = 0; ep_plt_models[i]; i++) {
		run_plt(img, ep_plt_models[i], true, 0);
		run_plt(img, ep_plt_models[i], false, 0);
	}
}

/*
 * The decoded-size caps, whole file and SHF_COMPRESSED sections, lowered to
 * EP_EXERCISE_DECODE_CAP so that a bomb costs milliseconds, not seconds;
 * set once, whatever the environment says.
 */
static void set_caps(void)
{
	static bool done;

	if (done)
		return;
	ep_input_set_max_size(EP_EXERCISE_DECODE_CAP);
	ep_section_decoded_max_set(EP_EXERCISE_DECODE_CAP);
	done = true;
}

/* Open data as the image path; what = 1 stats, 2 PLT models, 3 both. */
static int exercise(const char *path, const uint8_t *data, size_t size, unsigned int what)
{
	struct ep_blob blob = { .path = path, .bytes = data, .size = size };
	struct ep_error err = { 0 };
	struct ep_image img;

	set_caps();
	cur_path = path;
	if (ep_image_open(&img, path, data, size, &err) < 0) {
		check_message(&err);
		return -1;
	}
	if (what & 1)
		run_stats(&img, &blob);
	if (what & 2)
		run_plts(&img);
	ep_image_close(&img);
	return 0;
}

int ep_exercise_stats(const uint8_t *data, size_t size)
{
	return exercise(EXERCISE_PATH, data, size, 1);
}

int ep_exercise_plt(const uint8_t *data, size_t size)
{
	return exercise(EXERCISE_PATH, data, size, 2);
}

int ep_exercise_image(const uint8_t *data, size_t size)
{
	return exercise(EXERCISE_PATH, data, size, 3);
}

int ep_exercise_decode(int compression, const uint8_t *data, size_t size)
{
	struct ep_blob blob = { .path = EXERCISE_PATH, .compression = compression };
	struct ep_error err = { 0 };
	int rc = -1;

	set_caps();
	cur_path = EXERCISE_PATH;
	if (ep_blob_decode(&blob, data, size, &err) < 0) {
		check_message(&err);
		goto out;
	}
	if (blob.size > EP_EXERCISE_DECODE_CAP) {
		fprintf(stderr, "decoded %zu bytes, more than the cap\n", blob.size);
		abort();
	}
	ep_exercise_image(blob.bytes, blob.size);
	rc = 0;
out:
	ep_blob_close(&blob);
	return rc;
}

/*
 * A private directory holding the archive under test, "fuzz.a" (a thin
 * archive's members are named relative to it).  Created once per process,
 * under $TMPDIR; removed at exit.
 */
static char ar_dir[4096], ar_path[4096 + 8];

static void ar_cleanup(void)
{
	unlink(ar_path);
	rmdir(ar_dir);
}

static int ar_setup(void)
{
	const char *tmp = getenv("TMPDIR");

	if (ar_path[0])
		return 0;
	snprintf(ar_dir, sizeof(ar_dir), "%s/elfplt-fuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(ar_dir))
		return -1;
	snprintf(ar_path, sizeof(ar_path), "%s/fuzz.a", ar_dir);
	atexit(ar_cleanup);
	return 0;
}

int ep_exercise_archive(const uint8_t *data, size_t size)
{
	const char *paths[1] = { ar_path };
	struct ep_pathlist pl = { 0 };
	struct ep_error err = { 0 };
	size_t i, opened = 0;
	FILE *f;

	set_caps();
	if (ar_setup() < 0) {
		perror("fuzz: mkdtemp");
		abort();
	}
	f = fopen(ar_path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
		perror(ar_path);
		abort();
	}
	cur_path = ar_path;
	if (ep_pathlist_expand(&pl, paths, 1, &err) < 0) {
		check_message(&err);
		goto out;
	}
	for (i = 0; i < pl.count; i++) {
		struct ep_blob blob = { 0 };

		cur_path = pl.paths[i];
		if (ep_blob_open_entry(&blob, &pl, i, false, &err) < 0) {
			check_message(&err);
			continue;
		}
		if (blob.path != pl.paths[i] && strcmp(blob.path, pl.paths[i]) != 0) {
			fprintf(stderr, "entry %zu opened as %s, listed as %s\n", i, blob.path,
				pl.paths[i]);
			abort();
		}
		opened += exercise(pl.paths[i], blob.bytes, blob.size, 3) == 0;
		/* Nothing changed the file: the check after the last read passes. */
		cur_path = pl.paths[i];
		if (ep_blob_check(&blob, &err) < 0) {
			fprintf(stderr, "ep_blob_check: %s\n", err.message);
			abort();
		}
		ep_blob_close(&blob);
	}
out:
	ep_pathlist_free(&pl);
	cur_path = EXERCISE_PATH;
	return opened ? 0 : -1;
}

/*
 * One PT_DYNAMIC table read both ways (batches and ep_relsec_read_all(),
 * which must agree with the count ep_dynamic_relsec() gave); returns its
 * highest r_sym.
 */
static uint32_t walk_dyntable(struct ep_image *img, const struct ep_dynamic *dy, enum ep_dyntab t)
{
	struct ep_rel buf[EP_REL_BATCH_MIN], *all = NULL;
	struct ep_rel_cursor cur = { 0 };
	struct ep_error err = { 0 };
	struct ep_relsec rs;
	uint32_t max = 0;
	size_t n = 0;
	ssize_t got, k;

	ep_dynamic_relsec(img, dy, t, &rs);
	while ((got = ep_relsec_next(&rs, &cur, buf, EP_REL_BATCH_MIN, &err)) > 0) {
		for (k = 0; k < got; k++)
			if (buf[k].r_sym > max)
				max = buf[k].r_sym;
		n += (size_t)got;
	}
	if (got < 0 || n != rs.count)
		inconsistent("dynamic table's relocations", n, rs.count);
	if (ep_relsec_read_all(&rs, &all, &err) == 0)
		free(all);
	else
		check_message(&err);
	return max;
}

/*
 * The PT_DYNAMIC reader on its own (lib/dynamic.h): the tags and tables,
 * each table read both ways, DT_SYMTAB for the highest r_sym and every
 * symbol's st_shndx, the comparison with the sections (every warning one
 * clean line), then ep_stats_file(), which counts a file without section
 * headers from the same tables.
 */
static int run_dynamic(const uint8_t *data, size_t size)
{
	struct ep_blob blob = { .path = EXERCISE_PATH, .bytes = data, .size = size };
	struct ep_warnings w = { 0 };
	struct ep_error err = { 0 };
	struct ep_dynamic dy;
	struct ep_symtab st;
	struct ep_image img;
	uint32_t max = 0, m;
	size_t t, i;

	set_caps();
	cur_path = EXERCISE_PATH;
	if (ep_image_open(&img, EXERCISE_PATH, data, size, &err) < 0) {
		check_message(&err);
		return -1;
	}
	if (ep_dynamic_read(&img, &dy, &err) < 0) {
		check_message(&err);
		goto stats;
	}
	for (t = 0; t < EP_DT_NTAB; t++) {
		if (!dy.tab[t].present)
			continue;
		check_text("dynamic tag", dy.tab[t].tag);
		m = walk_dyntable(&img, &dy, (enum ep_dyntab)t);
		if (dy.tab[t].kind != EP_RELKIND_RELR && m > max)
			max = m;
	}
	if (ep_dynamic_symtab(&img, &dy, max ? (size_t)max + 1 : 0, &st, &err) < 0)
		check_message(&err);
	else
		for (i = 0; i < st.count; i++)
			ep_symtab_st_shndx(&st, i);
	ep_dynamic_compare(&img, &dy, &w);
	for (i = 0; i < w.n; i++) {
		check_text("warning code", w.v[i].code);
		check_text("warning message", w.v[i].message);
	}
	ep_warnings_free(&w);
stats:
	run_stats(&img, &blob);
	ep_image_close(&img);
	return 0;
}

static int run_zstd(const uint8_t *data, size_t size)
{
	return ep_exercise_decode(EP_COMP_ZSTD, data, size);
}

static int run_xz(const uint8_t *data, size_t size)
{
	return ep_exercise_decode(EP_COMP_XZ, data, size);
}

static int run_gzip(const uint8_t *data, size_t size)
{
	return ep_exercise_decode(EP_COMP_GZIP, data, size);
}

/*
 * The SHT_CREL decoder alone on a section's bytes: data[0] bit 0 picks
 * ELFCLASS64, the rest is the section.  Every entry is decoded, and what
 * the decoder promises is checked: it never moves past the section, stops
 * after the header's count, and a stream it accepts has exactly that many
 * entries; the what-if sizer then takes every record.
 */
static int run_crel(const uint8_t *data, size_t size)
{
	struct ep_crel_sizer z = { 0 };
	struct ep_crel_state st = { 0 };
	struct ep_crel_header h;
	struct ep_crel_rel r;
	const char *why;
	char buf[128];
	bool is64;
	int got;

	if (size == 0)
		return -1;
	is64 = data[0] & 1;
	data++;
	size--;
	if (ep_crel_header_read(data, size, &h, buf, sizeof(buf), &why)) {
		check_text("CREL header error", why);
		return -1;
	}
	if (h.count > size - h.size || h.shift > 3)
		abort();
	z.is64 = is64;
	while ((got = ep_crel_next(data, size, &h, is64, &st, &r, buf, sizeof(buf), &why)) > 0) {
		if (st.pos > size || st.read > h.count)
			abort();
		if (!is64 && (r.r_offset > UINT32_MAX || r.r_addend != (int32_t)r.r_addend))
			abort();
		ep_crel_sizer_add(&z, r.r_offset, r.r_sym, r.r_type, r.r_addend);
	}
	if (got < 0) {
		check_text("CREL entry error", why);
		return -1;
	}
	if (st.read != h.count || z.count != h.count || ep_crel_sizer_bytes(&z) < h.count)
		abort();
	return 0;
}

const struct ep_fuzz_target ep_fuzz_targets[] = {
	{ "stats", ep_exercise_stats },
	{ "plt", ep_exercise_plt },
	{ "zstd", run_zstd },
	{ "xz", run_xz },
	{ "gzip", run_gzip },
	{ "archive", ep_exercise_archive },
	{ "crel", run_crel },
	{ "dynamic", run_dynamic },
	{ NULL, NULL },
};

const struct ep_fuzz_target *ep_fuzz_target_find(const char *name)
{
	const struct ep_fuzz_target *t;

	for (t = ep_fuzz_targets; t->name; t++)
		if (strcmp(t->name, name) == 0)
			return t;
	return NULL;
}
