/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the pure counting functions of lib/stats.c and lib/reloc.c,
 * with hand-worked expected values, and of the section accessor's zero-copy
 * claim on fixtures that yaml2obj builds here ($YAML2OBJ, $top_srcdir).
 * Exit 0 when every check passes, 1 otherwise, 77 when yaml2obj is missing
 * (after the pure tests have passed).
 */
#include "config.h"

#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/elf.h"
#include "lib/blob.h"
#include "lib/reloc.h"
#include "lib/stats.h"
#include "tests/unit/check.h"

#define CHECK_EQ_U64(a, b)                                                                         \
	do {                                                                                       \
		uint64_t a_ = (a), b_ = (b);                                                       \
		if (a_ != b_) {                                                                    \
			fprintf(stderr, "FAIL %s:%d: %s = %" PRIu64 ", expected %" PRIu64 "\n",    \
				__FILE__, __LINE__, #a, a_, b_);                                   \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

#define CHECK_STR(a, b)                                                                            \
	do {                                                                                       \
		const char *a_ = (a), *b_ = (b);                                                   \
		if (!a_ || strcmp(a_, b_) != 0) {                                                  \
			fprintf(stderr, "FAIL %s:%d: %s = \"%s\", expected \"%s\"\n", __FILE__,    \
				__LINE__, #a, a_ ? a_ : "(null)", b_);                             \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

/* gABI: r_sym 0 is no symbol; SHN_UNDEF, SHN_ABS, SHN_COMMON are reserved. */
static void test_symclass(void)
{
	/* (r_sym, st_shndx as stored, section index resolved, target) */
	CHECK(ep_symclass_of(0, 1, 1, 1) == EP_SYM_NONE);
	CHECK(ep_symclass_of(0, SHN_UNDEF, SHN_UNDEF, 1) == EP_SYM_NONE);
	CHECK(ep_symclass_of(5, SHN_UNDEF, SHN_UNDEF, 1) == EP_SYM_UNDEF);
	CHECK(ep_symclass_of(5, 1, 1, 1) == EP_SYM_SAME_SECTION);
	CHECK(ep_symclass_of(5, 2, 2, 1) == EP_SYM_OTHER_SECTION);
	CHECK(ep_symclass_of(5, SHN_ABS, SHN_ABS, 1) == EP_SYM_ABS_COMMON);
	CHECK(ep_symclass_of(5, SHN_COMMON, SHN_COMMON, 1) == EP_SYM_ABS_COMMON);
	/* A section index past SHN_HIRESERVE (from SHT_SYMTAB_SHNDX) is a section. */
	CHECK(ep_symclass_of(5, SHN_XINDEX, 0x10005, 0x10005) == EP_SYM_SAME_SECTION);
	CHECK(ep_symclass_of(5, SHN_XINDEX, 0x10005, 3) == EP_SYM_OTHER_SECTION);
	/*
	 * So is one from SHN_LORESERVE (0xff00) to SHN_HIRESERVE (0xffff): only
	 * a stored st_shndx there is reserved, never a resolved SHN_XINDEX.
	 */
	CHECK(ep_symclass_of(5, SHN_XINDEX, 0xff00, 0xff00) == EP_SYM_SAME_SECTION);
	CHECK(ep_symclass_of(5, SHN_XINDEX, 0xfff1, 0xfff1) == EP_SYM_SAME_SECTION);
	CHECK(ep_symclass_of(5, SHN_XINDEX, 0xffff, 0xff00) == EP_SYM_OTHER_SECTION);
	CHECK(ep_symclass_of(5, SHN_XINDEX, 0xfff2, 0x10) == EP_SYM_OTHER_SECTION);
	CHECK_STR(ep_symclass_name(EP_SYM_NONE), "none");
	CHECK_STR(ep_symclass_name(EP_SYM_ABS_COMMON), "absolute_or_common");
}

static void test_type_counts(void)
{
	struct ep_type_counts a, b;
	struct ep_type_count *v;
	size_t n;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	/* a: type 283 x5, 257 x2, 0x20001 x2; b: 257 x3, 0x20001 x1, 0x30000 x7. */
	CHECK(ep_type_counts_add(&a, 283, 5) == 0);
	CHECK(ep_type_counts_add(&a, 257, 1) == 0);
	CHECK(ep_type_counts_add(&a, 257, 1) == 0);
	CHECK(ep_type_counts_add(&a, 0x20001, 2) == 0);
	CHECK(ep_type_counts_add(&b, 257, 3) == 0);
	CHECK(ep_type_counts_add(&b, 0x20001, 1) == 0);
	CHECK(ep_type_counts_add(&b, 0x30000, 7) == 0);
	CHECK(ep_type_counts_merge(&a, &b) == 0);
	/* a: 0x30000 7, 283 5, 257 5, 0x20001 3; sorted by count, ties by r_type. */
	v = ep_type_counts_sorted(&a, &n);
	CHECK_EQ_U64(n, 4);
	if (v && n == 4) {
		CHECK_EQ_U64(v[0].r_type, 0x30000);
		CHECK_EQ_U64(v[0].count, 7);
		CHECK_EQ_U64(v[1].r_type, 257);
		CHECK_EQ_U64(v[1].count, 5);
		CHECK_EQ_U64(v[2].r_type, 283);
		CHECK_EQ_U64(v[2].count, 5);
		CHECK_EQ_U64(v[3].r_type, 0x20001);
		CHECK_EQ_U64(v[3].count, 3);
	}
	free(v);
	ep_type_counts_free(&a);
	ep_type_counts_free(&b);
	/* Empty: n 0. */
	memset(&a, 0, sizeof(a));
	v = ep_type_counts_sorted(&a, &n);
	CHECK_EQ_U64(n, 0);
	free(v);
	/* Adding 0 relocations adds no type. */
	CHECK(ep_type_counts_add(&a, 7, 0) == 0);
	CHECK_EQ_U64(a.n, 0);
	/*
	 * 300 distinct types, r_type t counted t % 7 + 1 times, spread over the
	 * whole 32-bit range so the table grows several times: every count is
	 * still found afterwards, and the sorted list holds all 300.
	 */
	for (n = 0; n < 300; n++)
		CHECK(ep_type_counts_add(&a, (uint32_t)(n * 14316557u), n % 7 + 1) == 0);
	CHECK_EQ_U64(a.n, 300);
	for (n = 0; n < 300; n++)
		CHECK_EQ_U64(ep_type_counts_get(&a, (uint32_t)(n * 14316557u)), n % 7 + 1);
	v = ep_type_counts_sorted(&a, &n);
	CHECK_EQ_U64(n, 300);
	/* Largest count first: 7, for n % 7 == 6, the first such n being 6. */
	if (v && n == 300)
		CHECK_EQ_U64(v[0].count, 7);
	free(v);
	ep_type_counts_free(&a);
}

/*
 * gABI SHT_RELR: an address word relocates the word at it; then each bitmap
 * word relocates, for bit i (1..wordbits-1), the word at base + (i-1) words,
 * base starting one word after the address and moving on wordbits-1 words
 * per bitmap.
 */
static void test_relr_size(void)
{
	uint64_t a[80];
	size_t i;

	CHECK_EQ_U64(ep_relr_encoded_size(NULL, 0, 8), 0);
	a[0] = 0x1000;
	CHECK_EQ_U64(ep_relr_encoded_size(a, 1, 8), 8); /* one address */
	a[1] = 0x1008;
	a[2] = 0x1010;
	CHECK_EQ_U64(ep_relr_encoded_size(a, 3, 8), 16); /* address + bitmap */
	/* 64 consecutive words: the address and one bitmap of 63 bits. */
	for (i = 0; i < 65; i++)
		a[i] = 0x1000 + 8 * i;
	CHECK_EQ_U64(ep_relr_encoded_size(a, 64, 8), 16);
	/* The 65th (0x1200) needs a second bitmap. */
	CHECK_EQ_U64(ep_relr_encoded_size(a, 65, 8), 24);
	/* 0x1000 and 0x2000: 0x2000 is 0xff8 past the base, beyond 63 words. */
	a[0] = 0x1000;
	a[1] = 0x2000;
	CHECK_EQ_U64(ep_relr_encoded_size(a, 2, 8), 16);
	/* A hole: 0x1000, 0x1010: the bitmap covers 0x1010 (bit 2). */
	a[1] = 0x1010;
	CHECK_EQ_U64(ep_relr_encoded_size(a, 2, 8), 16);
	/* The last word a bitmap covers: 0x1008 + 62 * 8 = 0x11f8; one more is out. */
	a[1] = 0x11f8;
	CHECK_EQ_U64(ep_relr_encoded_size(a, 2, 8), 16);
	/*
	 * 0x1200 is 63 words past 0x1008, outside the first bitmap: a second
	 * address word (16 bytes), not an empty bitmap and a second one (24).
	 */
	a[1] = 0x1200;
	CHECK_EQ_U64(ep_relr_encoded_size(a, 2, 8), 16);
	a[2] = 0x1208; /* ... and 0x1208 is bit 1 of a bitmap after it: 24 */
	CHECK_EQ_U64(ep_relr_encoded_size(a, 3, 8), 24);
	/* 4-byte words, 31-bit bitmaps: 32 consecutive = 2 words, 33 = 3. */
	for (i = 0; i < 33; i++)
		a[i] = 0x100 + 4 * i;
	CHECK_EQ_U64(ep_relr_encoded_size(a, 32, 4), 8);
	CHECK_EQ_U64(ep_relr_encoded_size(a, 33, 4), 12);
}

/* Values from the psABI documents (and glibc's <elf.h>). */
static void test_reloc_names(void)
{
	uint32_t t = 0;

	CHECK_STR(ep_reloc_type_name(EM_AARCH64, 283), "R_AARCH64_CALL26");
	CHECK_STR(ep_reloc_type_name(EM_AARCH64, 282), "R_AARCH64_JUMP26");
	CHECK_STR(ep_reloc_type_name(EM_AARCH64, 257), "R_AARCH64_ABS64");
	CHECK_STR(ep_reloc_type_name(EM_AARCH64, 1027), "R_AARCH64_RELATIVE");
	CHECK_STR(ep_reloc_type_name(EM_X86_64, 0), "R_X86_64_NONE");
	CHECK_STR(ep_reloc_type_name(EM_X86_64, 4), "R_X86_64_PLT32");
	CHECK_STR(ep_reloc_type_name(EM_X86_64, 37), "R_X86_64_IRELATIVE");
	CHECK_STR(ep_reloc_type_name(EM_386, 8), "R_386_RELATIVE");
	CHECK_STR(ep_reloc_type_name(EM_ARM, 28), "R_ARM_CALL");
	CHECK_STR(ep_reloc_type_name(EM_RISCV, 3), "R_RISCV_RELATIVE");
	CHECK_STR(ep_reloc_type_name(EM_PPC64, 21), "R_PPC64_JMP_SLOT");
	CHECK_STR(ep_reloc_type_name(EM_MIPS, 4), "R_MIPS_26");
	CHECK(ep_reloc_type_name(EM_AARCH64, 9999) == NULL);
	CHECK(ep_reloc_type_name(0xfffe, 1) == NULL);
	CHECK_STR(ep_reloc_type_kind(EM_AARCH64, 283), "CALL26");
	CHECK(ep_reloc_type_by_kind(EM_AARCH64, "RELATIVE", &t));
	CHECK_EQ_U64(t, 1027);
	CHECK(ep_reloc_type_by_kind(EM_PPC, "RELATIVE", &t));
	CHECK_EQ_U64(t, 22);
	CHECK(!ep_reloc_type_by_kind(EM_AARCH64, "NO_SUCH_KIND", &t));
	/* PowerPC spells it JMP_SLOT: still the JUMP_SLOT kind. */
	CHECK(ep_dynkind_of(EM_PPC64, 21) == EP_DYN_JUMP_SLOT);
	CHECK(ep_dynkind_of(EM_X86_64, 7) == EP_DYN_JUMP_SLOT);
	CHECK(ep_dynkind_of(EM_X86_64, 6) == EP_DYN_GLOB_DAT);
	CHECK(ep_dynkind_of(EM_X86_64, 8) == EP_DYN_RELATIVE);
	CHECK(ep_dynkind_of(EM_X86_64, 37) == EP_DYN_IRELATIVE);
	CHECK(ep_dynkind_of(EM_X86_64, 1) == EP_DYN_OTHER);
	CHECK(ep_dynkind_of(EM_X86_64, 9999) == EP_DYN_OTHER);
}

/*
 * ep_stats_count() on hand-made records and a hand-made symbol table:
 * symbols 1 (in section 2), 2 (SHN_UNDEF), 3 (SHN_ABS), 4 (in section 5).
 */
static void test_stats_count(void)
{
	Elf64_Sym syms[5] = {
		{ 0 },
		{ .st_shndx = 2 },
		{ .st_shndx = SHN_UNDEF },
		{ .st_shndx = SHN_ABS },
		{ .st_shndx = 5 },
	};
	Elf_Data data = { .d_buf = syms, .d_size = sizeof(syms) };
	struct ep_symtab st = { .index = 7, .count = 5, .data = &data, .elfclass = ELFCLASS64 };
	const struct ep_rel r[] = {
		{ .r_type = 283, .r_sym = 2 },	{ .r_type = 283, .r_sym = 2 },
		{ .r_type = 283, .r_sym = 1 },	{ .r_type = 257, .r_sym = 4 },
		{ .r_type = 257, .r_sym = 3 },	{ .r_type = 0, .r_sym = 0 },
		{ .r_type = 5000, .r_sym = 4 },
	};
	struct ep_relsec_stats s;
	uint64_t seen[1] = { 0 };

	memset(&s, 0, sizeof(s));
	s.target = 2;
	CHECK(ep_stats_count(&s, r, sizeof(r) / sizeof(r[0]), &st, seen) == 0);
	/* Types: 283 x3, 257 x2, 0 x1, 5000 x1: four distinct; 284 none. */
	CHECK_EQ_U64(ep_type_counts_get(&s.types, 283), 3);
	CHECK_EQ_U64(ep_type_counts_get(&s.types, 257), 2);
	CHECK_EQ_U64(ep_type_counts_get(&s.types, 0), 1);
	CHECK_EQ_U64(ep_type_counts_get(&s.types, 5000), 1);
	CHECK_EQ_U64(ep_type_counts_get(&s.types, 284), 0);
	CHECK_EQ_U64(s.types.n, 4);
	/* Target 2: sym 2 undefined x2, sym 1 same, sym 4 other x2, sym 3 abs, none 1. */
	CHECK_EQ_U64(s.by_symclass[EP_SYM_UNDEF], 2);
	CHECK_EQ_U64(s.by_symclass[EP_SYM_SAME_SECTION], 1);
	CHECK_EQ_U64(s.by_symclass[EP_SYM_OTHER_SECTION], 2);
	CHECK_EQ_U64(s.by_symclass[EP_SYM_ABS_COMMON], 1);
	CHECK_EQ_U64(s.by_symclass[EP_SYM_NONE], 1);
	/* Symbols 1, 2, 3, 4 seen, 0 not. */
	CHECK_EQ_U64(seen[0], 0x1e);
	ep_type_counts_free(&s.types);
}

/* Build tests/fixtures/NAME.yaml into dir/NAME; returns the path or NULL. */
static char *build_fixture(const char *yaml2obj, const char *srcdir, const char *dir,
			   const char *name)
{
	char *cmd = NULL, *out = NULL;
	int rc;

	if (asprintf(&out, "%s/%s", dir, name) < 0)
		return NULL;
	if (asprintf(&cmd, "'%s' '%s/tests/fixtures/%s.yaml' -o '%s'", yaml2obj, srcdir, name,
		     out) < 0) {
		free(out);
		return NULL;
	}
	rc = system(cmd);
	free(cmd);
	if (rc != 0) {
		fprintf(stderr, "FAIL: yaml2obj could not build %s\n", name);
		failures++;
		free(out);
		return NULL;
	}
	return out;
}

/* Open path as blob and image, or count a failure. */
static bool open_image(const char *path, struct ep_blob *blob, struct ep_image *img)
{
	struct ep_error err = { 0 };

	if (ep_blob_open(blob, path, false, &err) ||
	    ep_image_open(img, path, blob->bytes, blob->size, &err)) {
		fprintf(stderr, "FAIL: %s\n", err.message);
		failures++;
		ep_blob_close(blob);
		return false;
	}
	return true;
}

/*
 * Native byte order: the relocation table's d_buf is the mapping itself and
 * nothing is converted.  stats-kmod.yaml's .rela.text is section 2, six
 * Elf64_Rela (144 bytes), 8-byte aligned.
 */
static void test_zero_copy(const char *path)
{
	struct ep_error err = { 0 };
	struct ep_blob blob;
	struct ep_image img;
	const unsigned char *raw;
	size_t raw_size;
	Elf_Data *d;

	if (!path || !open_image(path, &blob, &img))
		return;
	CHECK(blob.mapped);
	CHECK(img.native);
	CHECK_EQ_U64(img.shnum, 13);
	CHECK_STR(img.sections[2].name, ".rela.text");
	d = ep_section_data(&img, 2, &err);
	CHECK(d != NULL);
	ep_section_raw(&img, 2, &raw, &raw_size);
	if (d) {
		CHECK(d->d_buf == (const void *)(blob.bytes + img.sections[2].shdr.sh_offset));
		CHECK(d->d_buf == (const void *)raw);
		CHECK_EQ_U64(d->d_size, 144);
	}
	CHECK_EQ_U64(raw_size, 144);
	CHECK_EQ_U64(img.bytes_converted, 0);
	ep_image_close(&img);
	ep_blob_close(&blob);
}

/*
 * Big-endian on a little-endian host: libelf converts, into its own buffer,
 * and the accessor counts the bytes.  stats-mips-be32.yaml's .rel.text is
 * section 3: five Elf32_Rel (40 bytes): R_MIPS_26 (4) at 0, 8 (callee, symbol
 * 3) and 0xc (helper, 1), R_MIPS_HI16 (5) at 0x10 and R_MIPS_LO16 (6) at 0x14
 * (counter, 2); symbols in yaml2obj order: helper (local), counter, callee.
 */
static void test_converted(const char *path)
{
	static const uint64_t off[] = { 0, 8, 0xc, 0x10, 0x14 };
	static const uint32_t type[] = { 4, 4, 4, 5, 6 }, sym[] = { 3, 3, 1, 2, 2 };
	struct ep_error err = { 0 };
	struct ep_blob blob;
	struct ep_image img;
	struct ep_relsec rs;
	struct ep_rel *r = NULL;
	size_t i;

	if (!path || !open_image(path, &blob, &img))
		return;
	if (img.native) {
		fprintf(stderr, "note: big-endian host, conversion not checked\n");
		goto out;
	}
	CHECK(ep_relsec_open(&img, 3, &rs, &err) == 0);
	/* 40 bytes of .rel.text + 64 bytes (4 Elf32_Sym) of .symtab. */
	CHECK_EQ_U64(img.bytes_converted, 40 + 64);
	CHECK(rs.data->d_buf != (const void *)(blob.bytes + img.sections[3].shdr.sh_offset));
	CHECK_EQ_U64(rs.count, 5);
	CHECK(ep_relsec_read_all(&rs, &r, &err) == 0);
	for (i = 0; r && i < 5; i++) {
		CHECK_EQ_U64(r[i].r_offset, off[i]);
		CHECK_EQ_U64(r[i].r_type, type[i]);
		CHECK_EQ_U64(r[i].r_sym, sym[i]);
		CHECK(!r[i].has_addend);
	}
	free(r);
out:
	ep_image_close(&img);
	ep_blob_close(&blob);
}

/*
 * RELR decoding through ep_relsec_next(), offsets worked out from the gABI
 * rule above.  stats-relr.yaml (8-byte words, section 5): 0x10000; bitmap 0x7
 * -> 0x10008, 0x10010; 0x20000; bitmap bits 2, 63 -> 0x20008 + 8 = 0x20010,
 * 0x20008 + 62 * 8 = 0x201f8.  stats-relr-ppc32.yaml (4-byte big-endian
 * words, section 1): 0x10000; 0x7 -> 0x10004, 0x10008; 0x10100; bits 1, 31
 * -> 0x10104, 0x10104 + 30 * 4 = 0x1017c.
 */
static void test_relr(const char *path, size_t idx, const uint64_t *want, uint32_t r_type)
{
	struct ep_error err = { 0 };
	struct ep_rel_cursor cur = { 0 };
	struct ep_rel out[EP_REL_BATCH_MIN];
	struct ep_blob blob;
	struct ep_image img;
	struct ep_relsec rs;
	size_t k = 0;
	ssize_t got, i;

	if (!path || !open_image(path, &blob, &img))
		return;
	CHECK(ep_relsec_open(&img, idx, &rs, &err) == 0);
	CHECK_EQ_U64(rs.entries, 4);
	CHECK_EQ_U64(rs.count, 6);
	CHECK_EQ_U64(rs.relr_type, r_type);
	while ((got = ep_relsec_next(&rs, &cur, out, EP_REL_BATCH_MIN, &err)) > 0)
		for (i = 0; i < got; i++, k++)
			if (k < 6)
				CHECK_EQ_U64(out[i].r_offset, want[k]);
	CHECK(got == 0);
	CHECK_EQ_U64(k, 6);
	ep_image_close(&img);
	ep_blob_close(&blob);
}

int main(void)
{
	static const uint64_t relr64[] = { 0x10000, 0x10008, 0x10010, 0x20000, 0x20010, 0x201f8 };
	static const uint64_t relr32[] = { 0x10000, 0x10004, 0x10008, 0x10100, 0x10104, 0x1017c };
	const char *yaml2obj = getenv("YAML2OBJ"), *srcdir = getenv("top_srcdir");
	char dir[] = "/tmp/elfplt-unit.XXXXXX", *kmod, *mips, *relr, *ppc, *cmd;

	test_symclass();
	test_type_counts();
	test_relr_size();
	test_reloc_names();
	test_stats_count();
	if (!yaml2obj || !srcdir || strcmp(yaml2obj, "no") == 0) {
		fprintf(stderr, "SKIP: accessor tests need YAML2OBJ and top_srcdir (make check)\n");
		return failures ? 1 : 77;
	}
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	kmod = build_fixture(yaml2obj, srcdir, dir, "stats-kmod");
	mips = build_fixture(yaml2obj, srcdir, dir, "stats-mips-be32");
	relr = build_fixture(yaml2obj, srcdir, dir, "stats-relr");
	ppc = build_fixture(yaml2obj, srcdir, dir, "stats-relr-ppc32");
	test_zero_copy(kmod);
	test_converted(mips);
	test_relr(relr, 5, relr64, 1027); /* R_AARCH64_RELATIVE */
	test_relr(ppc, 1, relr32, 22);	  /* R_PPC_RELATIVE */
	free(kmod);
	free(mips);
	free(relr);
	free(ppc);
	if (asprintf(&cmd, "rm -rf '%s'", dir) >= 0) {
		if (system(cmd) != 0)
			fprintf(stderr, "note: could not remove %s\n", dir);
		free(cmd);
	}
	if (check_status())
		return 1;
	printf("all checks passed\n");
	return 0;
}
