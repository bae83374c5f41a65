/* SPDX-License-Identifier: MIT */
/*
 * The riscv kernel-module model: the PLT and GOT space the module loader
 * reserves, following Linux arch/riscv/kernel/module-sections.c
 * (module_frob_arch_sections(), count_max_entries()) and what
 * arch/riscv/kernel/module.c's apply_relocate_add() then refuses, read in
 * Debian's 6.1.176, 6.12.117 and 7.2.13 sources.  The kernel version comes
 * from --kernel, else the module's vermagic=, else 6.12 (Debian 13, the
 * first Debian release with riscv64).
 *
 * Whether the loader reserves anything is CONFIG_MODULE_SECTIONS:
 * module-sections.o is built only with it (arch/riscv/kernel/Makefile), and
 * asm/module.lds.h adds the empty .plt, .got and .got.plt to modules only
 * with it.  Up to v6.9 arch/riscv/Kconfig's RISCV selects it whenever
 * MODULES is set (6.1.176).  2aff5f955bba ("riscv: do not select
 * MODULE_SECTIONS by default", in "RISC-V Patches for the 6.10 Merge
 * Window, Part 2", so v6.10, not v6.11) left CONFIG_RELOCATABLE (which
 * CONFIG_RANDOMIZE_BASE needs) as the only select (6.12.117, 7.2.13).
 * Debian's riscv64 6.12 (trixie, /boot/config-6.12.*+deb13-riscv64) and 7.2
 * (sid, linux-base-7.2.13+deb14-riscv64's config) have "# CONFIG_RELOCATABLE
 * is not set", so their modules have none of the three sections.  The model
 * takes the configuration from the module: any of the three sections means
 * a kernel with CONFIG_MODULE_SECTIONS; none means one without, except
 * below v6.10, where every kernel has it (the loader then refuses the
 * module, below).
 *
 * With CONFIG_MODULE_SECTIONS, the count (module_frob_arch_sections()):
 * - Only SHT_RELA sections whose target (sh_info) has SHF_EXECINSTR count,
 *   every version.  .plt gets (plts + 1) x sizeof(struct plt_entry) (12:
 *   auipc, ld, jr), .got.plt (plts + 1) x sizeof(struct got_entry) and .got
 *   (gots + 1) x sizeof(struct got_entry) (an unsigned long: 8, or 4 for
 *   ELFCLASS32) bytes (asm/module.h).
 * - Up to v6.14 (and 6.12.24, 6.14.3): per relocation section, an
 *   R_RISCV_CALL_PLT counts a PLT entry and an R_RISCV_GOT_HI20 a GOT entry
 *   unless an earlier relocation of the same section has the same r_info
 *   and r_addend (duplicate_rela(): a linear search back to the section's
 *   start, so quadratic in the section's size).
 * - v6.15 and the stable 6.14.4 and 6.12.25: R_RISCV_PLT32 counts a PLT
 *   entry too (1ee1313f4722 "riscv: module: Allocate PLT entries for
 *   R_RISCV_PLT32", RISC-V fixes for 6.15-rc3; 6.14- and 6.12-stable review
 *   patches of 2025-04-23, listed in the Linux 6.12.25 announcement).
 * - v6.16 on: be17c0df6795 ("riscv: module: Optimize PLT/GOT entry
 *   counting"; 6.12.117 still has the per-section count, 7.2.13 this one)
 *   copies the three types' relocations of every counted section into one
 *   scratch array, sort()s it by (r_info, r_addend) and counts an entry
 *   unless it equals the one before it: duplicates are now found across
 *   sections, and the cost is n log n.  Its commit message: 99.63% of
 *   `modprobe amdgpu`'s cycles were in the quadratic count.
 * - r_info holds the type, so the same target under CALL_PLT and PLT32
 *   counts twice in every version, although module_emit_plt_entry() gives
 *   both one entry (get_plt_entry() finds it by value).
 * - The loader refuses the module (-ENOEXEC) when .plt, .got or .got.plt is
 *   missing, in that order: "module PLT section(s) missing", "module GOT
 *   section(s) missing", "module GOT.PLT section(s) missing".
 *
 * The minimum: the entries apply_relocate_add() could ever emit with
 * perfect duplicate detection: distinct (symbol, addend) over the CALL_PLT
 * and PLT32 relocations of the counted sections (one value, one entry,
 * whichever type asks), and distinct (symbol, addend) over the GOT_HI20
 * ones.  Before v6.7, which has no PLT32 handler, PLT32 is not in it.
 * Over-allocation (reserved - minimum) by cause, PLT and GOT entries
 * together, in the JSON detail's "over_allocation":
 *   per_section      the same (r_info, r_addend) counted again in another
 *                    section (the per-section counts, up to v6.15);
 *   across_types     the same (symbol, addend) under CALL_PLT and PLT32;
 *   plt32_uncounted  negative: PLT32 targets the count leaves out (v6.7 to
 *                    v6.14, 6.12.24, 6.14.3) although apply_r_riscv_plt32_rela()
 *                    emits an entry for them, which overruns the PLT.
 *
 * Without CONFIG_MODULE_SECTIONS (apply_relocate_add(), every version that
 * has the option off; the same in 6.12.117 and 7.2.13): nothing is
 * reserved and there is no PLT or GOT to fall back on.
 * - R_RISCV_GOT_HI20 is always refused: "can not generate the GOT entry for
 *   symbol = %016llx from PC = %p", -EINVAL.
 * - R_RISCV_CALL_PLT and R_RISCV_PLT32 then work only while the target is
 *   within the signed 32-bit reach of the instruction (±2 GiB), as
 *   R_RISCV_CALL always does: "target %016llx can not be addressed by the
 *   32-bit offset from PC = %p".  The JSON detail's "reach" counts the
 *   relocations of every relocated section (target SHF_ALLOC, or the
 *   per-CPU section: apply_relocations()) whose symbol is undefined in the
 *   module (SHN_UNDEF: the kernel or another module).  "branches_on_reach"
 *   is what a slot would have covered and now relies on reach: CALL_PLT and
 *   PLT32 without CONFIG_MODULE_SECTIONS, plus CALL always.
 *   PCREL_HI20 to such symbols relies on reach too (counted apart), and
 *   JAL, BRANCH, RVC_BRANCH and RVC_JUMP are written with no range check
 *   at all.
 * - Before v6.7 (8fd6c5142395 "riscv: Add remaining module relocations")
 *   there is no R_RISCV_PLT32 handler: "Unknown relocation type 59";
 *   the same for every type the 6.1 handler table lacks (SET*, ADD8/16,
 *   SUB6/8/16, 32_PCREL, the ULEB128 pair, the dynamic and TLS types), and
 *   from v6.7 the dynamic and TLS types get their own -EINVAL messages
 *   (rv_handler_of()).  The first refusal of an applied section, in section
 *   order, is res->rejects.
 *
 * --timing runs both counts on the module's relocations, on scratch copies
 * in the kernel's Elf_Rela layout, whether or not the modelled kernel runs
 * either: sort.full_ns is the per-section quadratic count of v6.15
 * (CALL_PLT, PLT32, GOT_HI20), sort.partitioned_ns the v6.16 count (filter
 * into a scratch array, heapsort as lib/sort.c's sort() does, one pass).
 * The detail's "quadratic_comparisons" is the number of is_rela_equal()
 * calls the per-section count makes, independent of the machine.
 */
#include "config.h"

#include <elf.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/plt-kernel.h"
#include "lib/plt.h"
#include "lib/report.h"

#ifndef R_RISCV_PLT32
#define R_RISCV_PLT32 59
#endif

/* The oldest kernel the model follows, its default, the newest it was checked against. */
#define RV_KVER_FLOOR	EP_KVER(6, 1, 0)
#define RV_KVER_DEFAULT EP_KVER(6, 12, 0)
#define RV_KVER_CHECKED EP_KVER(7, 2, 0)

#define RV_PLT_ENTRY_BYTES 12 /* struct plt_entry: auipc, ld, jr */

/* How the modelled kernel counts (module_frob_arch_sections()). */
enum rv_era {
	RV_ERA_PER_SECTION, /* up to v6.14: CALL_PLT and GOT_HI20, per section */
	RV_ERA_PLT32,	    /* v6.15, 6.14.4, 6.12.25: and PLT32 */
	RV_ERA_SORTED,	    /* v6.16: module-wide, sorted */
};

static const char *const era_name[] = { "per-section", "per-section+plt32", "sorted" };

/* The rules of one kernel version. */
struct rv_rules {
	enum rv_era era;
	bool always_sections; /* RISCV selects MODULE_SECTIONS (before v6.10) */
	bool plt32_handler;   /* apply_relocate_add() knows PLT32 (v6.7) */
};

static bool stable_from(uint32_t v, uint32_t major, uint32_t minor, uint32_t sub)
{
	return (v & ~0xffu) == EP_KVER(major, minor, 0) && EP_KVER_SUB(v) >= sub;
}

static void rules_for(uint32_t version, struct rv_rules *r)
{
	uint32_t v = version < RV_KVER_FLOOR ? RV_KVER_FLOOR : version;

	if (v >= EP_KVER(6, 16, 0))
		r->era = RV_ERA_SORTED; /* be17c0df6795 */
	else if (v >= EP_KVER(6, 15, 0) || stable_from(v, 6, 14, 4) || stable_from(v, 6, 12, 25))
		r->era = RV_ERA_PLT32; /* 1ee1313f4722 */
	else
		r->era = RV_ERA_PER_SECTION;
	r->always_sections = v < EP_KVER(6, 10, 0); /* 2aff5f955bba */
	r->plt32_handler = v >= EP_KVER(6, 7, 0);   /* 8fd6c5142395 */
}

/* Relocations to symbols outside the module, in the relocated sections. */
struct rv_reach {
	uint64_t call_plt, plt32, call; /* branches a PLT slot covers (CALL: never) */
	uint64_t pcrel_hi20;		/* address references, range-checked */
	uint64_t short_unchecked;	/* JAL, BRANCH, RVC_*: no range check */
	uint64_t on_reach;		/* branches that rely on reach, not a slot */
};

/* The model's own part of a result (res->detail). */
struct rv_detail {
	struct rv_rules rules;
	bool sections;		       /* CONFIG_MODULE_SECTIONS modelled */
	const char *why;	       /* where that came from */
	size_t plt, got, got_plt;      /* the sections found, 0: none */
	uint64_t count_plt, count_got; /* what count_max_entries() gives */
	uint64_t module_wide; /* distinct (r_info, r_addend) of the counted types, module-wide */
	int64_t over_per_section, over_across_types, over_plt32_uncounted;
	struct rv_reach reach;
	uint64_t got_hi20_refused; /* GOT_HI20 without a GOT */
	uint64_t quadratic_comparisons;
	uint64_t old_ns, new_ns; /* --timing: the two counts */
	char rejects[320];
};

enum {
	SUM_NO_SECTIONS,
	SUM_ON_REACH,
	SUM_CALL_PLT,
	SUM_PLT32,
	SUM_CALL,
	SUM_PCREL,
	SUM_SHORT,
	SUM_PER_SECTION,
	SUM_ACROSS,
	SUM_PLT32_UNCOUNTED, /* its magnitude */
	SUM_GOT_REFUSED,
	SUM_COMPARISONS,
};

/* ---- the counting, pure -------------------------------------------------- */

/* One PLT- or GOT-counted relocation: its key, section and place in it. */
struct rv_ent {
	uint64_t info; /* the kernel's r_info test: type and symbol */
	int64_t addend;
	uint32_t type, sym;
	uint32_t sec;	/* index into res->secs */
	uint64_t index; /* its place in its relocation section */
	size_t site;	/* --by: its res->sites index */
};

static bool is_plt_type(uint32_t t)
{
	return t == R_RISCV_CALL_PLT || t == R_RISCV_PLT32;
}

/* Does the count of era take relocation type t? */
static bool counted(uint32_t t, enum rv_era era)
{
	return t == R_RISCV_CALL_PLT || t == R_RISCV_GOT_HI20 ||
	       (t == R_RISCV_PLT32 && era != RV_ERA_PER_SECTION);
}

static int cmp_key(const struct rv_ent *a, const struct rv_ent *b)
{
	if (a->info != b->info)
		return a->info < b->info ? -1 : 1;
	if (a->addend != b->addend)
		return a->addend < b->addend ? -1 : 1;
	return 0;
}

/* By key, then section, then place: the first of equals is the earliest. */
static int cmp_ent(const void *x, const void *y)
{
	const struct rv_ent *a = x, *b = y;
	int c = cmp_key(a, b);

	if (c)
		return c;
	if (a->sec != b->sec)
		return a->sec < b->sec ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* By (plt-or-got, symbol, addend): the minimum's key. */
static int cmp_value(const void *x, const void *y)
{
	const struct rv_ent *a = x, *b = y;
	bool pa = is_plt_type(a->type), pb = is_plt_type(b->type);

	if (pa != pb)
		return pa ? -1 : 1;
	if (a->sym != b->sym)
		return a->sym < b->sym ? -1 : 1;
	if (a->addend != b->addend)
		return a->addend < b->addend ? -1 : 1;
	return a->sec < b->sec ? -1 : a->sec > b->sec;
}

/*
 * The counts of e[0..n) (sorted here) for era: per section (first of each
 * key in each section) or module-wide (first of each key), the per-section
 * count's is_rela_equal() calls, and each section's share (slots: the keys
 * it counts, attributed to the earliest section for the sorted count).
 */
static void count_entries(struct rv_ent *e, size_t n, enum rv_era era, struct ep_plt_section *secs,
			  struct rv_detail *d, struct ep_plt_site *sites)
{
	uint64_t ps_plt = 0, ps_got = 0, mw_plt = 0, mw_got = 0, first = 0;
	size_t i;

	if (n) /* qsort() takes no NULL, even for 0 elements */
		qsort(e, n, sizeof(*e), cmp_ent);
	for (i = 0; i < n; i++) {
		bool new_key = i == 0 || cmp_key(&e[i], &e[i - 1]) != 0;
		bool new_in_sec = new_key || e[i].sec != e[i - 1].sec;
		bool plt = is_plt_type(e[i].type);

		if (new_in_sec)
			first = e[i].index;
		if (!counted(e[i].type, era))
			continue;
		/* duplicate_rela(): index compares when unique, else up to the first equal. */
		d->quadratic_comparisons += new_in_sec ? e[i].index : first + 1;
		/* --by: the entry the loader counts is the first of its key (per section). */
		if (sites && (era == RV_ERA_SORTED ? new_key : new_in_sec))
			sites[e[i].site].reserved = true;
		if (new_in_sec) {
			ps_plt += plt;
			ps_got += !plt;
			if (era != RV_ERA_SORTED)
				secs[e[i].sec].slots++;
		}
		if (new_key) {
			mw_plt += plt;
			mw_got += !plt;
			if (era == RV_ERA_SORTED)
				secs[e[i].sec].slots++;
		}
	}
	d->count_plt = era == RV_ERA_SORTED ? mw_plt : ps_plt;
	d->count_got = era == RV_ERA_SORTED ? mw_got : ps_got;
	d->module_wide = mw_plt + mw_got;
	d->over_per_section = (int64_t)(d->count_plt + d->count_got) - (int64_t)d->module_wide;
}

/*
 * The minimum over e[0..n): distinct (symbol, addend) among the PLT types
 * the kernel handles and among GOT_HI20; each section's share attributed
 * to the earliest.  Returns the PLT entries in *plt, GOT entries in *got.
 */
static void count_minimum(struct rv_ent *e, size_t n, bool plt32, struct ep_plt_section *secs,
			  uint64_t *plt, uint64_t *got, struct ep_plt_site *sites)
{
	size_t i, last = SIZE_MAX;

	*plt = *got = 0;
	if (n) /* qsort() takes no NULL, even for 0 elements */
		qsort(e, n, sizeof(*e), cmp_value);
	for (i = 0; i < n; i++) {
		bool p = is_plt_type(e[i].type);

		if (e[i].type == R_RISCV_PLT32 && !plt32)
			continue;
		if (last != SIZE_MAX && is_plt_type(e[last].type) == p && e[last].sym == e[i].sym &&
		    e[last].addend == e[i].addend)
			continue;
		last = i;
		if (sites)
			sites[e[i].site].minimum = true;
		*plt += p;
		*got += !p;
		secs[e[i].sec].slots_minimal++;
	}
}

/* ---- --timing: the quadratic count and the sorted one ---------------------- */

/* The v6.16 count's cmp_rela(): r_info, then r_addend. */
static int cmp_rela(const void *a, const void *b)
{
	const struct ep_kernel_rela *x = a, *y = b;

	if (x->r_info != y->r_info)
		return x->r_info < y->r_info ? -1 : 1;
	return x->r_addend < y->r_addend ? -1 : x->r_addend > y->r_addend;
}

static bool rela_needs_entry(uint64_t r_info)
{
	uint32_t t = (uint32_t)(r_info & 0xffffffff);

	return t == R_RISCV_CALL_PLT || t == R_RISCV_GOT_HI20 || t == R_RISCV_PLT32;
}

/* The v6.15 count of one section: each counted entry searches back to the start. */
static uint64_t quadratic_count(const struct ep_kernel_rela *r, size_t n)
{
	uint64_t slots = 0;
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (!rela_needs_entry(r[i].r_info))
			continue;
		for (j = 0; j < i; j++)
			if (r[j].r_info == r[i].r_info && r[j].r_addend == r[i].r_addend)
				break;
		slots += j == i;
	}
	return slots;
}

/* The v6.16 count: filter every section into scratch, sort, one pass. */
static uint64_t sorted_count(const struct ep_kernel_rela *r, size_t n,
			     struct ep_kernel_rela *scratch)
{
	uint64_t slots = 0;
	size_t i, m = 0;

	for (i = 0; i < n; i++)
		if (rela_needs_entry(r[i].r_info))
			scratch[m++] = r[i];
	ep_kernel_sort(scratch, m, sizeof(*scratch), cmp_rela);
	for (i = 0; i < m; i++)
		slots += i == 0 || cmp_rela(&scratch[i], &scratch[i - 1]) != 0;
	return slots;
}

/*
 * Median ns of reps runs of each count over r[0..n), sections starting at
 * starts[0..nsec) (starts[nsec] == n).  volatile sink: keep the counts.
 */
static int time_counts(const struct ep_kernel_rela *r, size_t n, const size_t *starts, size_t nsec,
		       unsigned int reps, uint64_t *old_ns, uint64_t *new_ns)
{
	struct ep_kernel_rela *scratch = malloc((n ? n : 1) * sizeof(*scratch));
	uint64_t *o = calloc(reps ? reps : 1, sizeof(*o)), *s = calloc(reps ? reps : 1, sizeof(*s));
	static volatile uint64_t sink;
	unsigned int k, runs = 0;
	uint64_t t0;
	size_t i;
	int rc = -EP_ENOMEM;

	*old_ns = *new_ns = 0;
	if (!scratch || !o || !s)
		goto out;
	/* The old count is quadratic: stop repeating once a run took a second. */
	for (k = 0; k < reps && (!k || o[k - 1] < EP_PLT_TIMING_SLOW_NS); k++) {
		t0 = ep_plt_now_ns();
		for (i = 0; i < nsec; i++)
			sink += quadratic_count(r + starts[i], starts[i + 1] - starts[i]);
		o[k] = ep_plt_now_ns() - t0;
		t0 = ep_plt_now_ns();
		sink += sorted_count(r, n, scratch);
		s[k] = ep_plt_now_ns() - t0;
		runs++;
	}
	*old_ns = ep_plt_median_ns(o, runs);
	*new_ns = ep_plt_median_ns(s, runs);
	rc = 0;
out:
	free(scratch);
	free(o);
	free(s);
	return rc;
}

/* ---- the model over one image ---------------------------------------------- */

extern const struct ep_plt_model ep_plt_model_riscv_module;

static const char *riscv_check(const struct ep_image *img, bool forced)
{
	if (img->ehdr.e_machine != EM_RISCV)
		return "the riscv-module model needs a RISC-V file (e_machine EM_RISCV)";
	if (img->ehdr.e_type != ET_REL)
		return "the riscv-module model needs a relocatable file (ET_REL)";
	if (!forced && !ep_image_is_kernel_module(img))
		return "not a kernel module (no .modinfo and .gnu.linkonce.this_module)";
	return NULL;
}

/* Everything one pass over the relocation sections gathers. */
struct rv_scan {
	struct ep_symtab st;
	size_t symidx, pcpu;
	struct rv_ent *ents; /* PLT/GOT-type relocations of the counted sections */
	size_t nents, capents;
	struct ep_kernel_rela *all; /* --timing: every counted section's relocations */
	size_t nall, capall;
	size_t *starts; /* --timing: where each counted section starts in all */
	size_t capstarts;
	bool first_refusal_set;
};

/* The first loop of module_frob_arch_sections(): the last match wins. */
static void find_sections(const struct ep_image *img, struct rv_detail *d, struct rv_scan *sc)
{
	size_t i;

	for (i = 0; i < img->shnum; i++) {
		const char *name = img->sections[i].name;

		if (strcmp(name, ".plt") == 0)
			d->plt = i;
		else if (strcmp(name, ".got") == 0)
			d->got = i;
		else if (strcmp(name, ".got.plt") == 0)
			d->got_plt = i;
		if (img->sections[i].shdr.sh_type == SHT_SYMTAB)
			sc->symidx = i;
		if (strcmp(name, ".data..percpu") == 0)
			sc->pcpu = i;
	}
}

static int grow(void **v, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 256;
	void *p;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	p = realloc(*v, c * size);
	if (!p)
		return -EP_ENOMEM;
	*v = p;
	*cap = c;
	return 0;
}

/* The symbol's name for a message, or "?". */
static const char *sym_name(struct ep_image *img, const struct rv_scan *sc, uint32_t sym)
{
	GElf_Sym s;
	const char *name;

	if (!gelf_getsym(sc->st.data, (int)sym, &s) ||
	    ep_section_load(img, img->sections[sc->symidx].shdr.sh_link, NULL))
		return "?";
	name = elf_strptr(img->elf, img->sections[sc->symidx].shdr.sh_link, s.st_name);
	return name && *name ? name : "?";
}

/* What apply_relocate_add()'s handler table holds for a type. */
enum rv_handler { RV_H_UNKNOWN, RV_H_APPLY, RV_H_DYNAMIC, RV_H_TLS };

/*
 * The handler arch/riscv/kernel/module.c apply_relocate_add() finds for
 * type t.  Before v6.7, reloc_handlers_rela[] (6.1.176) has 21 entries:
 * 32, 64, BRANCH, JAL, CALL, CALL_PLT, GOT_HI20, PCREL_HI20,
 * PCREL_LO12_I/S, HI20, LO12_I/S, ADD32, ADD64, SUB32, SUB64, ALIGN,
 * RVC_BRANCH, RVC_JUMP, RELAX.  From v6.7 (8fd6c5142395 "riscv: Add
 * remaining module relocations", the table of 6.12.117 and 7.2.13)
 * reloc_handlers[] covers types 1-11, 16-40, 43-45 and 51-61: the dynamic
 * ones (RELATIVE, COPY, JUMP_SLOT, TLS_DTPMOD/DTPREL/TPREL32/64, IRELATIVE)
 * go to dynamic_linking_not_supported(), the TLS ones (TLS_GOT_HI20,
 * TLS_GD_HI20, TPREL_HI20/LO12_I/LO12_S/ADD) to tls_not_supported(), both
 * -EINVAL.  R_RISCV_NONE (0) has no entry in any version.  A type without
 * a handler: "Unknown relocation type %u", -EINVAL.
 */
static enum rv_handler rv_handler_of(uint32_t t, bool v67)
{
	static const uint8_t v61[] = { 1,  2,  16, 17, 18, 19, 20, 23, 24, 25, 26,
				       27, 28, 35, 36, 39, 40, 43, 44, 45, 51 };
	size_t i;

	if (!v67) {
		for (i = 0; i < sizeof(v61); i++)
			if (t == v61[i])
				return RV_H_APPLY;
		return RV_H_UNKNOWN;
	}
	if ((t >= 3 && t <= 11) || t == 58)
		return RV_H_DYNAMIC;
	if (t == 21 || t == 22 || (t >= 29 && t <= 32))
		return RV_H_TLS;
	if ((t >= 1 && t <= 2) || (t >= 16 && t <= 40) || (t >= 43 && t <= 45) ||
	    (t >= 51 && t <= 61))
		return RV_H_APPLY;
	return RV_H_UNKNOWN;
}

/* A RISC-V type's name: <elf.h>'s, or the few it lacks that the loader knows; NULL none. */
static const char *rv_type_name(uint32_t t)
{
	switch (t) {
	case 58:
		return "R_RISCV_IRELATIVE";
	case 59:
		return "R_RISCV_PLT32";
	case 60:
		return "R_RISCV_SET_ULEB128";
	case 61:
		return "R_RISCV_SUB_ULEB128";
	}
	return ep_reloc_type_name(EM_RISCV, t);
}

/*
 * What apply_relocate_add() does with r, a relocation of an applied
 * section.  The per-CPU section loses SHF_ALLOC in layout_and_allocate()
 * (kernel/module/main.c) before apply_relocations() runs, so its
 * relocations are never handed to apply_relocate_add(): no refusal there.
 */
static void applied(struct ep_image *img, struct ep_plt_result *res, struct rv_scan *sc, size_t idx,
		    const struct ep_rel *r, struct ep_plt_section *s)
{
	struct rv_detail *d = res->detail;
	bool outside = r->r_sym && ep_symtab_st_shndx(&sc->st, r->r_sym) == SHN_UNDEF;
	const char *refusal = NULL, *tname = rv_type_name(r->r_type);
	const char *target = img->sections[img->sections[idx].shdr.sh_info].name;
	enum rv_handler h = rv_handler_of(r->r_type, d->rules.plt32_handler);

	if (r->r_type == R_RISCV_GOT_HI20 && !d->sections) {
		d->got_hi20_refused++;
		refusal = "can not generate the GOT entry for symbol";
	}
	if (h != RV_H_APPLY)
		refusal = "";
	if (sc->pcpu && img->sections[idx].shdr.sh_info == sc->pcpu)
		refusal = NULL;
	if (refusal && !sc->first_refusal_set) {
		sc->first_refusal_set = true;
		if (h == RV_H_UNKNOWN)
			snprintf(d->rejects, sizeof(d->rejects),
				 "Unknown relocation type %" PRIu32 " (%s%sin %s), -EINVAL",
				 r->r_type, tname ? tname : "", tname ? " " : "",
				 img->sections[idx].name);
		else if (h != RV_H_APPLY)
			snprintf(d->rejects, sizeof(d->rejects),
				 "%s not supported in kernel modules PC = %s+0x%" PRIx64
				 " (%s), -EINVAL",
				 h == RV_H_DYNAMIC ? "Dynamic linking" : "Thread local storage",
				 target, r->r_offset, tname ? tname : "?");
		else
			snprintf(d->rejects, sizeof(d->rejects),
				 "%s = %s from PC = %s+0x%" PRIx64
				 " (R_RISCV_GOT_HI20 without CONFIG_MODULE_SECTIONS), -EINVAL",
				 refusal, sym_name(img, sc, r->r_sym), target, r->r_offset);
	}
	if (!outside)
		return;
	switch (r->r_type) {
	case R_RISCV_CALL_PLT:
		d->reach.call_plt++;
		break;
	case R_RISCV_PLT32:
		d->reach.plt32++;
		break;
	case R_RISCV_CALL:
		d->reach.call++;
		break;
	case R_RISCV_PCREL_HI20:
		d->reach.pcrel_hi20++;
		return;
	case R_RISCV_JAL:
	case R_RISCV_BRANCH:
	case R_RISCV_RVC_BRANCH:
	case R_RISCV_RVC_JUMP:
		d->reach.short_unchecked++;
		return;
	default:
		return;
	}
	if (r->r_type == R_RISCV_CALL || !d->sections) {
		d->reach.on_reach++;
		if (s)
			s->branch_relocations++;
	}
}

/* A counted section (SHF_EXECINSTR target): its record and its PLT/GOT entries. */
static int counted_section(struct ep_image *img, struct ep_plt_result *res, struct rv_scan *sc,
			   size_t idx, const struct ep_rel *r, size_t n,
			   struct ep_plt_section **out)
{
	struct ep_plt_section *s = ep_plt_section_add(res);
	size_t i;

	*out = s;
	if (!s)
		return -EP_ENOMEM;
	s->index = idx;
	s->name = img->sections[idx].name;
	s->target = img->sections[idx].shdr.sh_info;
	s->target_name = img->sections[s->target].name;
	s->group = EP_PLT_MODULE;
	s->relocations = n;
	s->sorted_full = n;
	if (grow((void **)&sc->ents, &sc->capents, sc->nents + n, sizeof(*sc->ents)))
		return -EP_ENOMEM;
	for (i = 0; i < n; i++) {
		struct rv_ent *e;

		if (is_plt_type(r[i].r_type))
			s->plt_relocations++;
		else if (r[i].r_type == R_RISCV_GOT_HI20)
			s->got_relocations++;
		else
			continue;
		e = &sc->ents[sc->nents++];
		e->type = r[i].r_type;
		e->sym = r[i].r_sym;
		e->info = (uint64_t)r[i].r_sym << 32 | r[i].r_type;
		e->addend = r[i].r_addend;
		e->sec = (uint32_t)(res->nsecs - 1);
		e->index = i;
		if (res->opt.sites) {
			struct ep_plt_site *p = ep_plt_site_add(res);

			if (!p)
				return -EP_ENOMEM;
			p->relsec = idx;
			p->target = s->target;
			p->r_offset = r[i].r_offset;
			p->r_type = r[i].r_type;
			p->r_sym = r[i].r_sym;
			p->r_addend = r[i].r_addend;
			p->kind = is_plt_type(r[i].r_type) ? EP_PLT_KIND_PLT : EP_PLT_KIND_GOT;
			p->group = EP_PLT_MODULE;
			e->site = res->nsites - 1;
		}
	}
	if (!res->opt.timing_reps)
		return 0;
	if (grow((void **)&sc->all, &sc->capall, sc->nall + n, sizeof(*sc->all)) ||
	    grow((void **)&sc->starts, &sc->capstarts, res->nsecs + 1, sizeof(*sc->starts)))
		return -EP_ENOMEM;
	sc->starts[res->nsecs - 1] = sc->nall;
	for (i = 0; i < n; i++) {
		sc->all[sc->nall].r_offset = r[i].r_offset;
		sc->all[sc->nall].r_info = (uint64_t)r[i].r_sym << 32 | r[i].r_type;
		sc->all[sc->nall++].r_addend = r[i].r_addend;
	}
	sc->starts[res->nsecs] = sc->nall;
	return 0;
}

/* One SHT_RELA section: read, checked, counted and/or applied. */
static int scan_one(struct ep_image *img, size_t idx, struct ep_plt_result *res, struct rv_scan *sc,
		    struct ep_error *err)
{
	const GElf_Shdr *sh = &img->sections[idx].shdr;
	struct ep_plt_section *s = NULL;
	struct ep_relsec rs;
	struct ep_rel *r = NULL;
	bool count, apply;
	size_t i;
	int rc;

	rc = ep_plt_read_section(img, idx, &rs, &r, err);
	if (rc)
		return rc;
	for (i = 0; i < rs.count; i++)
		if (r[i].r_sym >= sc->st.count) {
			rc = ep_error_set(err, EP_EMALFORMED,
					  "%s: relocation %zu has symbol %u, the symbol table has "
					  "%zu (section %zu %s)",
					  img->path, i, r[i].r_sym, sc->st.count, idx,
					  ep_section_label(img, idx));
			goto out;
		}
	count = ep_section_is_exec(img, sh->sh_info);
	apply = (img->sections[sh->sh_info].shdr.sh_flags & SHF_ALLOC) ||
		(sh->sh_info && sh->sh_info == sc->pcpu);
	if (count && counted_section(img, res, sc, idx, r, rs.count, &s)) {
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
		goto out;
	}
	for (i = 0; apply && i < rs.count; i++)
		applied(img, res, sc, idx, &r[i], s);
out:
	free(r);
	return rc;
}

/* CONFIG_MODULE_SECTIONS: from the module's sections, or the version. */
static void choose_config(struct rv_detail *d)
{
	if (d->plt || d->got || d->got_plt) {
		d->sections = true;
		d->why = "the module has .plt/.got/.got.plt (asm/module.lds.h adds them only then)";
	} else if (d->rules.always_sections) {
		d->sections = true;
		d->why = "every kernel before v6.10 selects it (2aff5f955bba)";
	} else {
		d->sections = false;
		d->why = "no .plt, .got or .got.plt in the module; since v6.10 only "
			 "CONFIG_RELOCATABLE selects it";
	}
}

/* module_frob_arch_sections()'s -ENOEXEC, in its words; or NULL. */
static const char *frob_rejects(const struct rv_detail *d)
{
	if (!d->sections)
		return NULL;
	if (!d->plt)
		return "module PLT section(s) missing, -ENOEXEC";
	if (!d->got)
		return "module GOT section(s) missing, -ENOEXEC";
	if (!d->got_plt)
		return "module GOT.PLT section(s) missing, -ENOEXEC";
	return NULL;
}

/* Slots, minimum, causes and the bytes of .plt, .got.plt and .got. */
static void settle(struct ep_plt_result *res, struct rv_scan *sc, bool is64)
{
	struct rv_detail *d = res->detail;
	const uint64_t got_bytes = is64 ? 8 : 4;
	struct ep_plt_count *plt = &res->slots[EP_PLT_KIND_PLT][EP_PLT_MODULE];
	struct ep_plt_count *got = &res->slots[EP_PLT_KIND_GOT][EP_PLT_MODULE];
	uint64_t mplt, mgot;
	struct ep_plt_sized *z;
	size_t i;

	/* --by: without CONFIG_MODULE_SECTIONS no site costs anything. */
	struct ep_plt_site *sites = d->sections && res->sites_recorded ? res->sites : NULL;

	count_entries(sc->ents, sc->nents, d->rules.era, res->secs, d, sites);
	count_minimum(sc->ents, sc->nents, d->rules.plt32_handler, res->secs, &mplt, &mgot, sites);
	/*
	 * Module-wide keys less distinct values: the same value under CALL_PLT
	 * and PLT32 (both counted), or, where PLT32 is not counted, the PLT32
	 * values the count leaves out (negative).
	 */
	if (d->rules.era == RV_ERA_PER_SECTION)
		d->over_plt32_uncounted = (int64_t)d->module_wide - (int64_t)(mplt + mgot);
	else
		d->over_across_types = (int64_t)d->module_wide - (int64_t)(mplt + mgot);
	res->sort.needed = sc->nents;
	for (i = 0; i < res->nsecs; i++) {
		res->sort.full += res->secs[i].relocations;
		res->sort.sections++;
		res->sort.sections_unsorted +=
			!(res->secs[i].plt_relocations + res->secs[i].got_relocations);
		if (d->sections && d->rules.era == RV_ERA_SORTED)
			res->secs[i].sorted_partitioned =
				res->secs[i].plt_relocations + res->secs[i].got_relocations;
		res->sort.loader += res->secs[i].sorted_partitioned;
		if (!d->sections)
			res->secs[i].slots = res->secs[i].slots_minimal = 0;
	}
	if (!d->sections) {
		/* module-sections.o is not built: nothing counts. */
		d->count_plt = d->count_got = 0;
		return;
	}
	res->sort.applies = true;
	plt->reserved = d->count_plt;
	got->reserved = d->count_got;
	plt->minimum = mplt;
	got->minimum = mgot;
	z = ep_plt_sized_add(res, ".plt", d->plt, EP_PLT_KIND_PLT, EP_PLT_MODULE);
	z->bytes.reserved = (plt->reserved + 1) * RV_PLT_ENTRY_BYTES;
	z->bytes.minimum = (plt->minimum + 1) * RV_PLT_ENTRY_BYTES;
	/* .got.plt holds one address per PLT entry: it counts with the PLT. */
	z = ep_plt_sized_add(res, ".got.plt", d->got_plt, EP_PLT_KIND_PLT, EP_PLT_MODULE);
	z->bytes.reserved = (plt->reserved + 1) * got_bytes;
	z->bytes.minimum = (plt->minimum + 1) * got_bytes;
	z = ep_plt_sized_add(res, ".got", d->got, EP_PLT_KIND_GOT, EP_PLT_MODULE);
	z->bytes.reserved = (got->reserved + 1) * got_bytes;
	z->bytes.minimum = (got->minimum + 1) * got_bytes;
}

static void scan_free(struct rv_scan *sc)
{
	free(sc->ents);
	free(sc->all);
	free(sc->starts);
}

static int riscv_analyse(struct ep_image *img, struct ep_plt_result *res, struct ep_error *err)
{
	struct rv_scan sc;
	struct rv_detail *d;
	size_t i;
	int rc;

	memset(&sc, 0, sizeof(sc));
	rc = ep_plt_kernel_choose(img, &res->opt, RV_KVER_DEFAULT, RV_KVER_FLOOR, RV_KVER_CHECKED,
				  &res->kernel, err);
	if (rc)
		return rc;
	d = calloc(1, sizeof(*d));
	if (!d)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	res->detail = d;
	res->sites_recorded = res->opt.sites;
	rules_for(res->kernel.version, &d->rules);
	find_sections(img, d, &sc);
	choose_config(d);
	if (!sc.symidx) {
		/* load_module() stops before the arch code: nothing to count. */
		res->rejects = "module has no symbols (stripped?), -ENOEXEC";
		return 0;
	}
	rc = ep_symtab_open(img, sc.symidx, &sc.st, err);
	if (rc)
		return rc;
	for (i = 1; i < img->shnum && rc == 0; i++)
		if (img->sections[i].shdr.sh_type == SHT_RELA)
			rc = scan_one(img, i, res, &sc, err);
	if (rc == 0 && res->opt.timing_reps && sc.nall &&
	    time_counts(sc.all, sc.nall, sc.starts, res->nsecs, res->opt.timing_reps, &d->old_ns,
			&d->new_ns))
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	if (rc == 0) {
		settle(res, &sc, img->ehdr.e_ident[EI_CLASS] == ELFCLASS64);
		/* The sort cost is only the loader's when it counts at all. */
		res->sort.full_ns = d->old_ns;
		res->sort.partitioned_ns = d->new_ns;
		res->rejects = frob_rejects(d);
		if (!res->rejects && d->rejects[0])
			res->rejects = d->rejects;
	}
	scan_free(&sc);
	return rc;
}

/* ---- how the model shows what is its own ------------------------------------ */

static uint64_t col_got(const struct ep_plt_section *s)
{
	return s->got_relocations;
}

static uint64_t col_reach(const struct ep_plt_section *s)
{
	return s->branch_relocations;
}

static const struct ep_plt_column riscv_columns[] = {
	{ "[Nr]", EP_PLT_COL_INDEX, NULL },	     { "relocations", EP_PLT_COL_NAME, NULL },
	{ "target", EP_PLT_COL_TARGET, NULL },	     { "relocs", EP_PLT_COL_RELOCATIONS, NULL },
	{ "plt-rel", EP_PLT_COL_NEED, NULL },	     { "got-rel", EP_PLT_COL_VALUE, col_got },
	{ "slots", EP_PLT_COL_SLOTS, NULL },	     { "minimal", EP_PLT_COL_MINIMAL, NULL },
	{ "on-reach", EP_PLT_COL_VALUE, col_reach }, { "sorted", EP_PLT_COL_SORT_LOADER, NULL },
};

static const char *const riscv_summary[] = { "module",	 "slots",  "minimal", "bytes",
					     "on reach", "old ns", "new ns" };

static void riscv_summary_values(const struct ep_plt_result *res, uint64_t *v)
{
	const struct rv_detail *d = res->detail;
	struct ep_plt_count s = ep_plt_result_slots(res), b = ep_plt_result_bytes(res);

	v[0] = s.reserved;
	v[1] = s.minimum;
	v[2] = b.reserved;
	v[3] = d->reach.on_reach;
	v[4] = d->old_ns;
	v[5] = d->new_ns;
}

static const char *era_text(enum rv_era e)
{
	switch (e) {
	case RV_ERA_PER_SECTION:
		return "per section, CALL_PLT and GOT_HI20 (to v6.14)";
	case RV_ERA_PLT32:
		return "per section, with PLT32 (v6.15, 6.14.4, 6.12.25)";
	default:
		return "module-wide sort (v6.16)";
	}
}

static void riscv_print_rules(FILE *out, const struct ep_plt_result *res)
{
	const struct rv_detail *d = res->detail;

	fprintf(out, ", CONFIG_MODULE_SECTIONS %s", d->sections ? "on" : "off");
	if (d->sections)
		fprintf(out, ", count %s", era_text(d->rules.era));
}

static void print_reach(FILE *out, const struct rv_reach *r)
{
	fprintf(out,
		"  outside the module: CALL_PLT %" PRIu64 ", PLT32 %" PRIu64 ", CALL %" PRIu64
		", PCREL_HI20 %" PRIu64 ", unchecked JAL/BRANCH/RVC %" PRIu64 "\n"
		"  %" PRIu64 " %s on the ±2 GiB reach, not a slot\n",
		r->call_plt, r->plt32, r->call, r->pcrel_hi20, r->short_unchecked, r->on_reach,
		ep_plural(r->on_reach, "branch relies", "branches rely"));
}

static void riscv_print_detail(FILE *out, const struct ep_plt_result *res)
{
	const struct rv_detail *d = res->detail;
	struct ep_plt_count s = ep_plt_result_slots(res), b = ep_plt_result_bytes(res);

	if (!d->sections) {
		fprintf(out,
			"  nothing reserved: CONFIG_MODULE_SECTIONS off, no PLT and no GOT\n"
			"  (%s)\n",
			d->why);
	} else {
		fprintf(out,
			"  reserved: %" PRIu64 " PLT, %" PRIu64 " GOT entries (minimal %" PRIu64
			"), .plt + .got.plt + .got %" PRIu64 " bytes (minimal %" PRIu64 ")\n",
			d->count_plt, d->count_got, s.minimum, b.reserved, b.minimum);
		fprintf(out,
			"  over the minimum: per section %" PRId64 ", across types %" PRId64
			", PLT32 uncounted %" PRId64 "\n",
			d->over_per_section, d->over_across_types, d->over_plt32_uncounted);
	}
	print_reach(out, &d->reach);
	if (d->got_hi20_refused)
		fprintf(out, "  %" PRIu64 " R_RISCV_GOT_HI20 without a GOT: refused\n",
			d->got_hi20_refused);
	if (res->opt.timing_reps)
		fprintf(out,
			"  count timing (median of %u): per-section quadratic (v6.15) %" PRIu64
			" ns, %" PRIu64 " comparisons; sorted (v6.16) %" PRIu64 " ns\n",
			res->opt.timing_reps, d->old_ns, d->quadratic_comparisons, d->new_ns);
}

static void riscv_print_totals(FILE *out, const struct ep_plt_totals *t, unsigned int timing_reps)
{
	const struct ep_plt_count *p = &t->slots[EP_PLT_KIND_PLT][EP_PLT_MODULE];
	const struct ep_plt_count *g = &t->slots[EP_PLT_KIND_GOT][EP_PLT_MODULE];
	struct ep_plt_count b = ep_plt_totals_sum(t->bytes);

	fprintf(out, "%s, %" PRIu64 " %s (%" PRIu64 " rejected by the kernel):\n",
		ep_plt_model_riscv_module.name, t->files, ep_plural(t->files, "module", "modules"),
		t->rejected);
	fprintf(out,
		"  %" PRIu64 " without CONFIG_MODULE_SECTIONS (nothing reserved); PLT %" PRIu64
		" (minimal %" PRIu64 "), GOT %" PRIu64 " (minimal %" PRIu64 "), %" PRIu64
		" bytes (minimal %" PRIu64 ")\n",
		t->detail[SUM_NO_SECTIONS], p->reserved, p->minimum, g->reserved, g->minimum,
		b.reserved, b.minimum);
	fprintf(out,
		"  outside the module: CALL_PLT %" PRIu64 ", PLT32 %" PRIu64 ", CALL %" PRIu64
		", PCREL_HI20 %" PRIu64 ", unchecked %" PRIu64 "\n  %" PRIu64
		" %s on reach, not a slot\n",
		t->detail[SUM_CALL_PLT], t->detail[SUM_PLT32], t->detail[SUM_CALL],
		t->detail[SUM_PCREL], t->detail[SUM_SHORT], t->detail[SUM_ON_REACH],
		ep_plural(t->detail[SUM_ON_REACH], "branch relies", "branches rely"));
	ep_plt_print_kernels(out, t);
	fputc('\n', out);
	if (timing_reps)
		fprintf(out,
			"  count timing (sum of medians of %u): quadratic %" PRIu64 " ns, %" PRIu64
			" comparisons; sorted %" PRIu64 " ns\n",
			timing_reps, t->sort.full_ns, t->detail[SUM_COMPARISONS],
			t->sort.partitioned_ns);
}

static json_t *riscv_json_rules(const struct ep_plt_result *res)
{
	const struct rv_detail *d = res->detail;

	return json_pack("{s:b, s:s, s:s, s:b, s:b}", "module_sections", d->sections,
			 "module_sections_from", d->why, "count", era_name[d->rules.era],
			 "plt32_handler", d->rules.plt32_handler, "always_module_sections",
			 d->rules.always_sections);
}

static json_t *json_i64(int64_t v)
{
	return json_integer((json_int_t)v);
}

static json_t *riscv_json_detail(const struct ep_plt_result *res)
{
	const struct rv_detail *d = res->detail;
	const struct rv_reach *r = &d->reach;

	return json_pack(
		"{s:o, s:o, s:{s:o, s:o, s:o}, s:{s:o, s:o, s:o, s:o, s:o, s:o}, s:o, s:o, s:o, "
		"s:o}",
		"count_plt", ep_json_u64(d->count_plt), "count_got", ep_json_u64(d->count_got),
		"over_allocation", "per_section", json_i64(d->sections ? d->over_per_section : 0),
		"across_types", json_i64(d->sections ? d->over_across_types : 0), "plt32_uncounted",
		json_i64(d->sections ? d->over_plt32_uncounted : 0), "reach", "call_plt",
		ep_json_u64(r->call_plt), "plt32", ep_json_u64(r->plt32), "call",
		ep_json_u64(r->call), "pcrel_hi20", ep_json_u64(r->pcrel_hi20), "short_unchecked",
		ep_json_u64(r->short_unchecked), "branches_on_reach", ep_json_u64(r->on_reach),
		"got_hi20_refused", ep_json_u64(d->got_hi20_refused), "quadratic_comparisons",
		ep_json_u64(d->quadratic_comparisons), "quadratic_ns", ep_json_u64(d->old_ns),
		"sorted_ns", ep_json_u64(d->new_ns));
}

static json_t *riscv_json_section(const struct ep_plt_result *res, const struct ep_plt_section *s)
{
	(void)res;
	return json_pack("{s:o, s:o}", "got_relocations", ep_json_u64(s->got_relocations),
			 "branches_on_reach", ep_json_u64(s->branch_relocations));
}

static void riscv_detail_sums(const struct ep_plt_result *res, uint64_t *sums)
{
	const struct rv_detail *d = res->detail;

	sums[SUM_NO_SECTIONS] = !d->sections;
	sums[SUM_ON_REACH] = d->reach.on_reach;
	sums[SUM_CALL_PLT] = d->reach.call_plt;
	sums[SUM_PLT32] = d->reach.plt32;
	sums[SUM_CALL] = d->reach.call;
	sums[SUM_PCREL] = d->reach.pcrel_hi20;
	sums[SUM_SHORT] = d->reach.short_unchecked;
	if (d->sections) {
		sums[SUM_PER_SECTION] = (uint64_t)d->over_per_section;
		sums[SUM_ACROSS] = (uint64_t)d->over_across_types;
		sums[SUM_PLT32_UNCOUNTED] = (uint64_t)-d->over_plt32_uncounted;
	}
	sums[SUM_GOT_REFUSED] = d->got_hi20_refused;
	sums[SUM_COMPARISONS] = d->quadratic_comparisons;
}

static json_t *riscv_json_totals(const struct ep_plt_totals *t)
{
	const uint64_t *s = t->detail;

	return json_pack("{s:o, s:{s:o, s:o, s:o}, s:{s:o, s:o, s:o, s:o, s:o, s:o}, s:o, s:o}",
			 "without_module_sections", ep_json_u64(s[SUM_NO_SECTIONS]),
			 "over_allocation", "per_section", ep_json_u64(s[SUM_PER_SECTION]),
			 "across_types", ep_json_u64(s[SUM_ACROSS]), "plt32_uncounted",
			 json_i64(-(int64_t)s[SUM_PLT32_UNCOUNTED]), "reach", "call_plt",
			 ep_json_u64(s[SUM_CALL_PLT]), "plt32", ep_json_u64(s[SUM_PLT32]), "call",
			 ep_json_u64(s[SUM_CALL]), "pcrel_hi20", ep_json_u64(s[SUM_PCREL]),
			 "short_unchecked", ep_json_u64(s[SUM_SHORT]), "branches_on_reach",
			 ep_json_u64(s[SUM_ON_REACH]), "got_hi20_refused",
			 ep_json_u64(s[SUM_GOT_REFUSED]), "quadratic_comparisons",
			 ep_json_u64(s[SUM_COMPARISONS]));
}

/* --by=cause: the JSON detail's over_allocation; nothing without CONFIG_MODULE_SECTIONS. */
static size_t riscv_causes(const struct ep_plt_result *res, struct ep_plt_cause *out)
{
	const struct rv_detail *d = res->detail;

	out[0] = (struct ep_plt_cause){ "per_section", d->sections ? d->over_per_section : 0 };
	out[1] = (struct ep_plt_cause){ "across_types", d->sections ? d->over_across_types : 0 };
	out[2] = (struct ep_plt_cause){ "plt32_uncounted",
					d->sections ? d->over_plt32_uncounted : 0 };
	return 3;
}

const struct ep_plt_model ep_plt_model_riscv_module = {
	.name = "riscv-module",
	.source = "Linux arch/riscv/kernel/module-sections.c and module.c, v6.1 to v7.2",
	.one = "riscv module",
	.many = "riscv modules",
	.check = riscv_check,
	.analyse = riscv_analyse,
	.columns = riscv_columns,
	.ncolumns = sizeof(riscv_columns) / sizeof(riscv_columns[0]),
	.summary = riscv_summary,
	.nsummary = sizeof(riscv_summary) / sizeof(riscv_summary[0]),
	.nsummary_timing = 2,
	.summary_values = riscv_summary_values,
	.print_rules = riscv_print_rules,
	.print_detail = riscv_print_detail,
	.print_totals = riscv_print_totals,
	.json_rules = riscv_json_rules,
	.json_detail = riscv_json_detail,
	.json_section = riscv_json_section,
	.detail_sums = riscv_detail_sums,
	.json_totals = riscv_json_totals,
	.causes = riscv_causes,
};
