/* SPDX-License-Identifier: MIT */
/*
 * The 32-bit arm kernel-module PLT model ("arm-module"): the PLT space the
 * module loader reserves, following Linux arch/arm/kernel/module-plts.c
 * (module_frob_arch_sections(), count_plts(), duplicate_rel(), cmp_rel(),
 * is_zero_addend_relocation()) with CONFIG_ARM_MODULE_PLTS as Debian's
 * armmp kernels have it, for each kernel from v6.1 to v7.2 (read in
 * Debian's 6.1.176, 6.12.117 and 7.2.13 sources).  The version comes from
 * --kernel, else the module's vermagic= (.modinfo), else v6.1 (Debian 12).
 *
 * Configuration, from Debian's armmp config (config-6.12.118+deb13-armmp,
 * and the same options in 6.1 and 7.2): ARM_MODULE_PLTS=y;
 * ARM_L1_CACHE_SHIFT=6, so PLT_ENT_STRIDE = L1_CACHE_BYTES = 64,
 * PLT_ENT_COUNT = 16, struct plt_entries = 16 LDRs + 16 literals = 128
 * bytes and PLT_ENT_SIZE = 8 (asm/module.h); DYNAMIC_FTRACE=y, so
 * fixed_plts[] holds FTRACE_ADDR (ftrace_caller) and MCOUNT_ADDR
 * (__gnu_mcount_nc) and both PLTs start at 2 slots (1f12fb25c5c5 "ARM:
 * 9079/1: ftrace: Add MODULE_PLTS support", v5.14, before the floor);
 * VMSPLIT_3G=y; MODULE_UNLOAD=y (read from each vermagic).
 *
 * The rules, every version from v6.1 to v7.2 unless said:
 * - The first loop takes the last section named ".plt" (core) and
 *   ".init.plt" (init), and the last SHT_SYMTAB that is neither.  Without
 *   both PLT sections the loader fails with "module PLT section(s)
 *   missing", without the symtab "module symtab section missing"
 *   (-ENOEXEC).
 * - Only SHT_REL sections whose target (sh_info) has SHF_EXECINSTR count;
 *   SHT_RELA is ignored.  Each is sorted whole (sort(), lib/sort.c), by
 *   cmp_rel(): (ELF32_R_TYPE, ELF32_R_SYM) only, not the addend.
 * - count_plts(): R_ARM_PC24, R_ARM_CALL, R_ARM_JUMP24, R_ARM_THM_CALL and
 *   R_ARM_THM_JUMP24 against a symbol whose raw st_shndx is not the target
 *   section need a slot.  The addend is in the instruction;
 *   is_zero_addend_relocation() tests its bits: ARM (PC24, CALL, JUMP24)
 *   imm24 == 0xfffffe (-8, the PC bias), Thumb-2 (THM_CALL, THM_JUMP24)
 *   upper & 0x7ff == 0x7ff and lower & 0x2fff == 0x2ffe (-4).  An entry
 *   counts unless its addend is zero and duplicate_rel() holds: the entry
 *   just before it in the sorted array has the same type and symbol and a
 *   zero addend.  So among entries of one (type, symbol) the count
 *   depends on where the sort put the non-zero-addend ones: this model runs
 *   the kernel's own heapsort, step for step, on the file's order.
 * - Instruction bytes: read at the target section's contents + r_offset
 *   (sh_addr of the loader's copy), through __mem_to_opcode_arm() and
 *   __mem_to_opcode_thumb16(): little-endian on a little-endian kernel and
 *   on a BE8 one (CPU_ENDIAN_BE8: modules are linked with --be8, arch/arm/
 *   Makefile, so their code is little-endian in an ELFDATA2MSB file, which
 *   e_flags marks EF_ARM_BE8); big-endian on a BE32 kernel
 *   (CPU_ENDIAN_BE32, pre-ARMv6): an ELFDATA2MSB file without EF_ARM_BE8.
 * - lib/sort.c: v6.1 has the bottom-up heapsort that pops one element at a
 *   time and takes the left child on a tie (cmp >= 0).  v6.9 brought
 *   db946a422260 "lib/sort: optimize heapsort for equal elements in
 *   sift-down path" (the right child on a tie, cmp > 0) and 0e02ca29a563
 *   "lib/sort: optimize heapsort with double-pop variation" (both from the
 *   mm-nonmm pull for 6.9-rc1); 6.12.117 and 7.2.13 have both.  Not in
 *   6.1.y (6.1.176 has neither).  Equal keys end up in a different order,
 *   so the count can differ between 6.1 and 6.12 for the same module.
 * - Groups: the target's name through module_init_layout_section() since
 *   a6846234f458 "ARM: module: Use module_init_layout_section() to spot
 *   init sections" (v6.6; stable 6.5.1, 6.4.14, 6.1.51, 5.15.130,
 *   5.10.194): arm's module_init_section() is ".init*", ".ARM.extab.init*"
 *   or ".ARM.exidx.init*"; without CONFIG_MODULE_UNLOAD module_exit_section()
 *   (".exit*", ".ARM.extab.exit*", ".ARM.exidx.exit*") joins it.  Before
 *   it, ".init*" only.
 * - .plt and .init.plt get sh_size round_up(slots x PLT_ENT_SIZE,
 *   sizeof(struct plt_entries)) = round_up(slots x 8, 128), slots
 *   including the 2 fixed ones.
 * - After 6.12.117 and by 7.2.13, the first loop also marks SHT_ARM_EXIDX
 *   and ".ARM.extab*" sections SHF_EXECINSTR under CONFIG_ARM_UNWIND &&
 *   !CONFIG_VMSPLIT_3G (William Zhang, "ARM: module: fix unwind section
 *   relocation out of range error", posted 2025-09-20), which would make
 *   their SHT_REL sections sorted and counted (their R_ARM_PREL31 and
 *   R_ARM_NONE need no slot).  Debian sets VMSPLIT_3G=y, so the model
 *   never applies it.
 * Nothing else that changes a count moved from 6.1.176 to 7.2.13 (the
 * diff is the in_init() helper of get_module_plt() and in_module_plt()).
 *
 * The minimum, per group: the 2 fixed slots plus the number of distinct
 * branch targets (symbol, decoded addend with the PC bias removed) among
 * the slot-needing branches of every counted section of the group, a
 * target that is a fixed one (__gnu_mcount_nc or ftrace_caller, addend
 * 0) excepted: get_module_plt() shares an entry by target value and tries
 * the fixed entries first, so with perfect duplicate detection that is all
 * the loader needs.  The over-allocation, reserved - minimum, walks the
 * loader's counted entries section by section, in sorted order, and names
 * the cause of each one that the minimum does not need:
 *   fixed_ftrace   a branch to __gnu_mcount_nc or ftrace_caller, which
 *                  get_module_plt() sends to a fixed entry;
 *   cross_section  a target already counted by another section of the
 *                  group (count_plts() works per section);
 *   sort_order     a zero-addend duplicate of the same type and symbol
 *                  that counted because the sort put a non-zero-addend
 *                  entry of that type and symbol just before it;
 *   nonzero_addend an entry with a non-zero addend whose target the
 *                  section already counted (duplicates are only looked for
 *                  at addend zero);
 *   type           the same target reached by another branch type (CALL
 *                  and JUMP24, ARM and Thumb-2), which cmp_rel() keeps apart.
 */
#include "config.h"

#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/plt-kernel.h"
#include "lib/plt.h"
#include "lib/report.h"

#ifndef EF_ARM_BE8
#define EF_ARM_BE8 0x00800000
#endif
/* The ARM ELF ABI's name; glibc's <elf.h> calls type 10 R_ARM_THM_PC22. */
#ifndef R_ARM_THM_CALL
#define R_ARM_THM_CALL 10
#endif

/* The range of kernels followed, and the default (Debian 12). */
#define ARM_KVER_FLOOR	 EP_KVER(6, 1, 0)
#define ARM_KVER_DEFAULT EP_KVER(6, 1, 0)
#define ARM_KVER_CHECKED EP_KVER(7, 2, 0)

/* asm/module.h with L1_CACHE_BYTES 64: struct plt_entries and its slots. */
#define PLT_ENT_STRIDE	  64u
#define PLT_ENT_COUNT	  (PLT_ENT_STRIDE / 4u)
#define PLT_ENTRIES_BYTES (2u * PLT_ENT_COUNT * 4u)
#define PLT_ENT_SIZE	  (PLT_ENTRIES_BYTES / PLT_ENT_COUNT)
#define ARM_FIXED_PLTS	  2u /* fixed_plts[]: FTRACE_ADDR, MCOUNT_ADDR */

/* The rules of one kernel version (see the header comment). */
struct arm_rules {
	bool double_pop;   /* lib/sort.c of v6.9 and later */
	bool exit_in_init; /* module_init_layout_section() and no MODULE_UNLOAD */
};

/* v is in series major.minor at sublevel sub or later (a stable backport). */
static bool stable_from(uint32_t v, uint32_t major, uint32_t minor, uint32_t sub)
{
	return (v & ~0xffu) == EP_KVER(major, minor, 0) && EP_KVER_SUB(v) >= sub;
}

static void rules_for(uint32_t version, bool mod_unload, struct arm_rules *r)
{
	uint32_t v = version < ARM_KVER_FLOOR ? ARM_KVER_FLOOR : version;

	/* db946a422260 and 0e02ca29a563: v6.9. */
	r->double_pop = v >= EP_KVER(6, 9, 0);
	/* a6846234f458 (with 2abcc4b5a64a): v6.6, stable 6.5.1, 6.4.14, 6.1.51. */
	r->exit_in_init = !mod_unload && (v >= EP_KVER(6, 6, 0) || stable_from(v, 6, 5, 1) ||
					  stable_from(v, 6, 4, 14) || stable_from(v, 6, 1, 51));
}

/* ---- lib/sort.c's heapsort on Elf32_Rel ------------------------------------ */

/* The kernel's Elf32_Rel, host byte order: the sort moves what the kernel's moves. */
struct kernel_rel {
	uint32_t r_offset;
	uint32_t r_info;
};

/* cmp_rel(): ELF32_R_TYPE, then ELF32_R_SYM; the addend is not looked at. */
static int cmp_rel(const struct kernel_rel *x, const struct kernel_rel *y)
{
	uint32_t tx = x->r_info & 0xff, ty = y->r_info & 0xff;
	uint32_t sx = x->r_info >> 8, sy = y->r_info >> 8;

	if (tx != ty)
		return tx < ty ? -1 : 1;
	return sx < sy ? -1 : sx > sy;
}

static void swap_rel(struct kernel_rel *a, size_t i, size_t j)
{
	struct kernel_rel t = a[i];

	a[i] = a[j];
	a[j] = t;
}

/* parent() of lib/sort.c in element units: (i - 1) / 2. */
static size_t parent(size_t i)
{
	return (i - 1) / 2;
}

/*
 * Sift a[at] down the heap a[0..n): lib/sort.c's bottom-up variant.  Find
 * the path of larger children to a leaf (ties go left before v6.9, cmp >= 0,
 * and right from v6.9, cmp > 0), back up it to where a[at] belongs, then
 * rotate it in with swaps from the top down, the kernel's order.
 */
static void sift_down(struct kernel_rel *a, size_t at, size_t n, bool tie_right)
{
	size_t b = at, c, d;

	for (;;) {
		c = 2 * b + 1;
		d = c + 1;
		if (d >= n)
			break;
		if (tie_right)
			b = cmp_rel(&a[c], &a[d]) > 0 ? c : d;
		else
			b = cmp_rel(&a[c], &a[d]) >= 0 ? c : d;
	}
	if (d == n) /* the last leaf has no sibling */
		b = c;
	while (b != at && cmp_rel(&a[at], &a[b]) >= 0)
		b = parent(b);
	c = b;
	while (b != at) {
		b = parent(b);
		swap_rel(a, b, c);
	}
}

/*
 * sort() of v6.1 (and everything before v6.9): build the heap, then pop
 * the root to the end one element at a time.
 */
static void heapsort_v61(struct kernel_rel *a, size_t num)
{
	size_t n = num, at = num / 2;

	if (!at)
		return;
	for (;;) {
		if (at)
			at--;
		else if (--n)
			swap_rel(a, 0, n);
		else
			break;
		sift_down(a, at, n, false);
	}
}

/*
 * sort() of v6.9 and later: the double pop.  Each round moves the root
 * and the larger of its two children to the end, sifts the element now at
 * that child's place down, then (shift remembers which child) the root;
 * the last two or three elements are finished by hand.
 */
static void heapsort_v69(struct kernel_rel *a, size_t num)
{
	size_t n = num, at = num / 2;
	unsigned int shift = 0;

	if (!at)
		return;
	for (;;) {
		if (at) {
			at -= (size_t)1 << shift;
		} else if (n > 3) {
			n--;
			swap_rel(a, 0, n);
			shift = cmp_rel(&a[1], &a[2]) <= 0;
			at = (size_t)1 << shift;
			n--;
			swap_rel(a, at, n);
		} else {
			break;
		}
		sift_down(a, at, n, true);
	}
	n--;
	swap_rel(a, 0, n);
	if (n == 2 && cmp_rel(&a[0], &a[1]) > 0)
		swap_rel(a, 0, 1);
}

static void kernel_sort(struct kernel_rel *a, size_t n, const struct arm_rules *rules)
{
	if (rules->double_pop)
		heapsort_v69(a, n);
	else
		heapsort_v61(a, n);
}

/* ---- branches and their addends -------------------------------------------- */

static bool is_branch(uint32_t r_type)
{
	switch (r_type) {
	case R_ARM_PC24:
	case R_ARM_CALL:
	case R_ARM_JUMP24:
	case R_ARM_THM_CALL:
	case R_ARM_THM_JUMP24:
		return true;
	}
	return false;
}

static bool is_thumb(uint32_t r_type)
{
	return r_type == R_ARM_THM_CALL || r_type == R_ARM_THM_JUMP24;
}

/* One target section's bytes, and the order its instructions are stored in. */
struct insn_view {
	const unsigned char *bytes;
	size_t size;
	bool little; /* ELFDATA2LSB, or EF_ARM_BE8 */
};

/* A branch's addend: the kernel's zero test and the decoded value. */
struct addend {
	bool zero;	/* is_zero_addend_relocation() */
	int32_t target; /* the addend with the PC bias taken off: 0 when zero */
};

static uint32_t rd16(const unsigned char *p, bool little)
{
	return little ? (uint32_t)p[0] | (uint32_t)p[1] << 8 : (uint32_t)p[0] << 8 | p[1];
}

static int32_t sign_extend(uint32_t v, unsigned int bits)
{
	uint32_t m = 1u << (bits - 1);

	return (int32_t)((v ^ m) - m);
}

/*
 * Decode the addend of branch r_type at offset off of v.  ARM: imm24 << 2,
 * plus the PC bias 8 (apply_relocate()); Thumb-2 BL/B.W: S:I1:I2:imm10:
 * imm11:0 with I = NOT(J XOR S), plus 4.  Returns false when the 4 bytes
 * are not all inside the section.
 */
static bool decode_addend(const struct insn_view *v, uint64_t off, uint32_t r_type,
			  struct addend *a)
{
	if (!ep_range_ok(off, 4, v->size))
		return false;
	if (is_thumb(r_type)) {
		uint32_t upper = rd16(v->bytes + off, v->little);
		uint32_t lower = rd16(v->bytes + off + 2, v->little);
		uint32_t s = (upper >> 10) & 1, j1 = (lower >> 13) & 1, j2 = (lower >> 11) & 1;
		uint32_t i1 = !(j1 ^ s), i2 = !(j2 ^ s);
		uint32_t imm = s << 24 | i1 << 23 | i2 << 22 | (upper & 0x3ff) << 12 |
			       (lower & 0x7ff) << 1;

		a->zero = (upper & 0x7ff) == 0x7ff && (lower & 0x2fff) == 0x2ffe;
		a->target = sign_extend(imm, 25) + 4;
	} else {
		uint32_t insn = rd16(v->bytes + off, v->little);
		uint32_t hi = rd16(v->bytes + off + 2, v->little);

		insn = v->little ? hi << 16 | insn : insn << 16 | hi;
		a->zero = (insn & 0xffffff) == 0xfffffe;
		a->target = sign_extend((insn & 0xffffff) << 2, 26) + 8;
	}
	return true;
}

/* ---- the model over one image ---------------------------------------------- */

extern const struct ep_plt_model ep_plt_model_arm_module;

/* Over-allocation causes, in the order of the header comment. */
enum { CAUSE_FIXED, CAUSE_CROSS, CAUSE_SORT, CAUSE_ADDEND, CAUSE_TYPE, NCAUSE };
static const char *const cause_name[NCAUSE] = { "fixed_ftrace", "cross_section", "sort_order",
						"nonzero_addend", "type" };

/*
 * A branch target: symbol and decoded addend; type is 0 in a group's set of
 * targets and the relocation type in a section's (to tell "type" apart).
 */
struct target {
	uint32_t sym;
	int32_t addend;
	uint32_t type;
};

/* The targets a group counted so far (the minimum), kept sorted. */
struct target_set {
	struct target *v;
	size_t n, cap;
};

/* The model's own part of a result (res->detail). */
struct arm_detail {
	struct arm_rules rules;
	bool insn_little;			 /* instructions read little-endian */
	uint64_t causes[NCAUSE];		 /* over-allocation by cause, slots */
	struct target_set groups[EP_PLT_NGROUP]; /* scratch while analysing */
};

/* Its sums over files (struct ep_plt_totals' detail[]): the causes, then these. */
enum { SUM_BIG_ENDIAN = NCAUSE, SUM_DOUBLE_POP };

static int cmp_target(const struct target *x, const struct target *y)
{
	if (x->sym != y->sym)
		return x->sym < y->sym ? -1 : 1;
	if (x->addend != y->addend)
		return x->addend < y->addend ? -1 : 1;
	return x->type < y->type ? -1 : x->type > y->type;
}

/* Position of t in s (or where it would go); *found whether it is there. */
static size_t target_find(const struct target_set *s, const struct target *t, bool *found)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_target(&s->v[mid], t) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < s->n && cmp_target(&s->v[lo], t) == 0;
	return lo;
}

/* Add t to s; returns 0, or -1 out of memory. */
static int target_add(struct target_set *s, size_t at, const struct target *t)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		struct target *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	memmove(s->v + at + 1, s->v + at, (s->n - at) * sizeof(*s->v));
	s->v[at] = *t;
	s->n++;
	return 0;
}

static const char *arm_check(const struct ep_image *img, bool forced)
{
	if (img->ehdr.e_machine != EM_ARM)
		return "the arm-module model needs a 32-bit Arm file (e_machine EM_ARM)";
	if (img->ehdr.e_ident[EI_CLASS] != ELFCLASS32)
		return "the arm-module model needs an ELFCLASS32 file (the loader reads "
		       "Elf32_Rel)";
	if (img->ehdr.e_type != ET_REL)
		return "the arm-module model needs a relocatable file (ET_REL)";
	if (!forced && !ep_image_is_kernel_module(img))
		return "not a kernel module (no .modinfo and .gnu.linkonce.this_module)";
	return NULL;
}

/* The symbols of the kernel's symtab: raw st_shndx, and which are fixed ftrace targets. */
struct arm_syms {
	uint32_t *shndx;
	bool *fixed;
	size_t n;
};

static int read_syms(struct ep_image *img, size_t symidx, struct arm_syms *s, struct ep_error *err)
{
	struct ep_symtab st;
	const char *strtab;
	size_t i, strsize = 0;
	Elf_Data *sd;
	int rc;

	rc = ep_symtab_open(img, symidx, &st, err);
	if (rc)
		return rc;
	s->n = st.count;
	s->shndx = malloc((st.count ? st.count : 1) * sizeof(*s->shndx));
	s->fixed = calloc(st.count ? st.count : 1, sizeof(*s->fixed));
	if (!s->shndx || !s->fixed)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory for %zu symbols", img->path,
				    st.count);
	/* sh_link was checked to be an SHT_STRTAB by ep_symtab_open(). */
	sd = ep_section_data(img, img->sections[symidx].shdr.sh_link, err);
	if (!sd)
		return -EP_EMALFORMED;
	strtab = sd->d_buf;
	strsize = sd->d_size;
	for (i = 0; i < st.count; i++) {
		const Elf32_Sym *sym = &((const Elf32_Sym *)st.data->d_buf)[i];
		static const char *const fixed[] = { "__gnu_mcount_nc", "ftrace_caller" };
		size_t k;

		s->shndx[i] = sym->st_shndx;
		for (k = 0; k < 2 && sym->st_name < strsize; k++) {
			size_t len = strlen(fixed[k]) + 1;

			if (ep_range_ok(sym->st_name, len, strsize) &&
			    memcmp(strtab + sym->st_name, fixed[k], len) == 0)
				s->fixed[i] = true;
		}
	}
	return 0;
}

/* module_init_layout_section(): the PLT a target section's branches count for. */
static enum ep_plt_group target_group(const char *tname, const struct arm_rules *rules)
{
	static const char *const init[] = { ".init", ".ARM.extab.init", ".ARM.exidx.init" };
	static const char *const exit[] = { ".exit", ".ARM.extab.exit", ".ARM.exidx.exit" };
	size_t k;

	for (k = 0; k < 3; k++) {
		if (strncmp(tname, init[k], strlen(init[k])) == 0)
			return EP_PLT_INIT;
		if (rules->exit_in_init && strncmp(tname, exit[k], strlen(exit[k])) == 0)
			return EP_PLT_INIT;
	}
	return EP_PLT_CORE;
}

/*
 * --timing: the loader's sort of all n entries against a sort of only the
 * slot-needing ones (need[] marks them), reps runs each on scratch copies of
 * the file's order, medians in *full_ns and *part_ns.  Returns 0 or -1 out
 * of memory.
 */
static int time_section(const struct kernel_rel *orig, size_t n, const bool *need,
			const struct arm_rules *rules, unsigned int reps, uint64_t *full_ns,
			uint64_t *part_ns)
{
	struct kernel_rel *work = malloc((n ? n : 1) * sizeof(*work));
	struct kernel_rel *needed = malloc((n ? n : 1) * sizeof(*needed));
	uint64_t *full = calloc(reps, sizeof(*full)), *part = calloc(reps, sizeof(*part));
	size_t i, m = 0;
	unsigned int k;
	int rc = -1;

	if (!work || !needed || !full || !part)
		goto out;
	for (i = 0; i < n; i++)
		if (need[i])
			needed[m++] = orig[i];
	for (k = 0; k < reps; k++) {
		uint64_t t0;

		memcpy(work, orig, n * sizeof(*work));
		t0 = ep_plt_now_ns();
		kernel_sort(work, n, rules);
		full[k] = ep_plt_now_ns() - t0;
		for (i = 0; i < m; i++)
			work[i] = needed[i];
		t0 = ep_plt_now_ns();
		kernel_sort(work, m, rules);
		part[k] = ep_plt_now_ns() - t0;
	}
	*full_ns = ep_plt_median_ns(full, reps);
	*part_ns = ep_plt_median_ns(part, reps);
	rc = 0;
out:
	free(work);
	free(needed);
	free(full);
	free(part);
	return rc;
}

/* What count_section() works on: the image, its symbols, the section's target. */
struct count_ctx {
	struct ep_image *img;
	const struct arm_syms *syms;
	struct insn_view insn;
	size_t relidx, dstidx;
	struct ep_plt_result *res;
	struct ep_error *err;
};

static int addend_at(struct count_ctx *cx, const struct kernel_rel *r, struct addend *a)
{
	if (decode_addend(&cx->insn, r->r_offset, r->r_info & 0xff, a))
		return 0;
	return ep_error_set(cx->err, EP_EMALFORMED,
			    "%s: a branch at offset 0x%" PRIx32
			    " is past the end of section %zu %s "
			    "(%zu bytes), relocated by section %zu %s",
			    cx->img->path, r->r_offset, cx->dstidx,
			    ep_section_label(cx->img, cx->dstidx), cx->insn.size, cx->relidx,
			    ep_section_label(cx->img, cx->relidx));
}

/*
 * Why the loader counted an entry whose target t the group's minimum already
 * has (header comment).  sec holds the targets the section counted before
 * it, by type.
 */
static int cause_of(const struct target_set *sec, const struct target *t, bool zero)
{
	struct target any = { t->sym, t->addend, 0 };
	bool same_type;
	size_t at;

	at = target_find(sec, &any, &same_type);
	if (at == sec->n || sec->v[at].sym != t->sym || sec->v[at].addend != t->addend)
		return CAUSE_CROSS;
	if (!zero)
		return CAUSE_ADDEND;
	target_find(sec, t, &same_type);
	return same_type ? CAUSE_SORT : CAUSE_TYPE;
}

/*
 * --by: the branch a as a site of group g, its addend decoded (the PC bias
 * taken off); reserved when count_plts() counts it, minimum when its target
 * is new to the group's minimum (a fixed slot's target is neither: the
 * fixed slots are no relocation's).  Returns 0 or -EP_ENOMEM.
 */
static int arm_site(struct count_ctx *cx, const struct kernel_rel *a, enum ep_plt_group g,
		    int32_t addend, bool reserved, bool minimum)
{
	struct ep_plt_site *p;

	if (!cx->res->opt.sites)
		return 0;
	p = ep_plt_site_add(cx->res);
	if (!p)
		return -EP_ENOMEM;
	p->relsec = cx->relidx;
	p->target = cx->dstidx;
	p->r_offset = a->r_offset;
	p->r_type = a->r_info & 0xff;
	p->r_sym = a->r_info >> 8;
	p->r_addend = addend;
	p->kind = EP_PLT_KIND_PLT;
	p->group = g;
	p->reserved = reserved;
	p->minimum = minimum;
	return 0;
}

/*
 * count_plts() over the sorted a[0..n): adds the loader's count to *ret, the
 * over-allocation causes and the group's distinct targets to d.  sec is
 * scratch for the targets this section counted.
 */
static int count_sorted(struct count_ctx *cx, const struct kernel_rel *a, size_t n,
			enum ep_plt_group g, struct arm_detail *d, struct target_set *sec,
			uint64_t *ret)
{
	struct addend prev, cur;
	size_t i;
	int rc;

	sec->n = 0;
	for (i = 0; i < n; i++) {
		uint32_t type = a[i].r_info & 0xff, sym = a[i].r_info >> 8;
		struct target t, ts;
		bool found, fixed;
		size_t at;

		if (!is_branch(type) || cx->syms->shndx[sym] == cx->dstidx)
			continue;
		rc = addend_at(cx, &a[i], &cur);
		if (rc)
			return rc;
		/* duplicate_rel(): the entry before has the same (type, sym) and addend 0. */
		if (cur.zero && i > 0 && cmp_rel(&a[i], &a[i - 1]) == 0) {
			rc = addend_at(cx, &a[i - 1], &prev);
			if (rc)
				return rc;
			if (prev.zero) {
				rc = arm_site(cx, &a[i], g, cur.target, false, false);
				if (rc)
					return rc;
				continue;
			}
		}
		(*ret)++;
		fixed = cx->syms->fixed[sym] && cur.zero;
		t = (struct target){ sym, cur.target, 0 };
		ts = (struct target){ sym, cur.target, type };
		found = true;
		if (fixed) {
			d->causes[CAUSE_FIXED]++;
		} else {
			at = target_find(&d->groups[g], &t, &found);
			if (!found) {
				if (target_add(&d->groups[g], at, &t))
					return -EP_ENOMEM;
			} else {
				d->causes[cause_of(sec, &ts, cur.zero)]++;
			}
		}
		rc = arm_site(cx, &a[i], g, cur.target, true, !found);
		if (rc)
			return rc;
		at = target_find(sec, &ts, &found);
		if (!found && target_add(sec, at, &ts))
			return -EP_ENOMEM;
	}
	return 0;
}

/* Add one counted section to the file's slots and sort. */
static void add_section(struct ep_plt_result *res, const struct ep_plt_section *s)
{
	struct ep_plt_count *c = &res->slots[EP_PLT_KIND_PLT][s->group];

	c->reserved += s->slots;
	res->sort.full += s->sorted_full;
	res->sort.loader += s->sorted_partitioned;
	res->sort.needed += s->plt_relocations;
	res->sort.full_ns += s->full_ns;
	res->sort.partitioned_ns += s->partitioned_ns;
	res->sort.sections++;
	res->sort.sections_unsorted += s->sorted_partitioned < 2;
}

/*
 * One SHT_REL section with an executable target: read it, copy it into the
 * kernel's Elf32_Rel layout in file order, sort it as sort() does, count it
 * as count_plts() does.
 */
static int count_one(struct count_ctx *cx, struct arm_detail *d, struct target_set *sec)
{
	struct ep_image *img = cx->img;
	const GElf_Shdr *sh = &img->sections[cx->relidx].shdr;
	struct kernel_rel *a = NULL;
	struct ep_plt_section *s;
	struct ep_rel *r = NULL;
	struct ep_relsec rs;
	bool *need = NULL;
	size_t i, before;
	Elf_Data *dd;
	int rc;

	rc = ep_plt_read_section(img, cx->relidx, &rs, &r, cx->err);
	if (rc)
		return rc;
	cx->dstidx = sh->sh_info;
	dd = ep_section_data(img, cx->dstidx, cx->err);
	if (!dd) {
		rc = -EP_EMALFORMED;
		goto out;
	}
	cx->insn.bytes = dd->d_buf;
	cx->insn.size = dd->d_buf ? dd->d_size : 0;
	a = malloc((rs.count ? rs.count : 1) * sizeof(*a));
	need = calloc(rs.count ? rs.count : 1, sizeof(*need));
	s = ep_plt_section_add(cx->res);
	if (!a || !need || !s) {
		rc = ep_error_set(cx->err, EP_ENOMEM, "%s: out of memory", img->path);
		goto out;
	}
	s->index = cx->relidx;
	s->name = img->sections[cx->relidx].name;
	s->target = cx->dstidx;
	s->target_name = img->sections[cx->dstidx].name;
	s->group = target_group(s->target_name, &d->rules);
	s->relocations = s->sorted_full = s->sorted_partitioned = rs.count;
	for (i = 0; i < rs.count; i++) {
		if (r[i].r_sym >= cx->syms->n) {
			rc = ep_error_set(cx->err, EP_EMALFORMED,
					  "%s: relocation %zu has symbol %u, the symbol table has "
					  "%zu (section %zu %s)",
					  img->path, i, r[i].r_sym, cx->syms->n, cx->relidx,
					  ep_section_label(img, cx->relidx));
			goto out;
		}
		a[i].r_offset = (uint32_t)r[i].r_offset;
		a[i].r_info = r[i].r_sym << 8 | (r[i].r_type & 0xff);
		if (!is_branch(r[i].r_type))
			continue;
		s->branch_relocations++;
		need[i] = cx->syms->shndx[r[i].r_sym] != cx->dstidx;
		s->plt_relocations += need[i];
	}
	if (cx->res->opt.timing_reps &&
	    time_section(a, rs.count, need, &d->rules, cx->res->opt.timing_reps, &s->full_ns,
			 &s->partitioned_ns)) {
		rc = ep_error_set(cx->err, EP_ENOMEM, "%s: out of memory", img->path);
		goto out;
	}
	kernel_sort(a, rs.count, &d->rules);
	before = d->groups[s->group].n;
	rc = count_sorted(cx, a, rs.count, s->group, d, sec, &s->slots);
	if (rc == -EP_ENOMEM)
		rc = ep_error_set(cx->err, EP_ENOMEM, "%s: out of memory", img->path);
	if (rc)
		goto out;
	s->slots_minimal = d->groups[s->group].n - before;
	add_section(cx->res, s);
out:
	free(r);
	free(a);
	free(need);
	return rc;
}

/* The sections module_frob_arch_sections()'s first loop finds: the last match wins. */
struct frob_sections {
	size_t plt, init_plt, symidx;
};

static void find_sections(const struct ep_image *img, struct frob_sections *f)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < img->shnum; i++) {
		const char *name = img->sections[i].name;

		if (strcmp(name, ".plt") == 0)
			f->plt = i;
		else if (strcmp(name, ".init.plt") == 0)
			f->init_plt = i;
		else if (img->sections[i].shdr.sh_type == SHT_SYMTAB)
			f->symidx = i;
	}
}

static uint64_t plt_bytes(uint64_t slots)
{
	uint64_t b = slots * PLT_ENT_SIZE;

	return (b + PLT_ENTRIES_BYTES - 1) / PLT_ENTRIES_BYTES * PLT_ENTRIES_BYTES;
}

/*
 * The two PLTs: the fixed entries plus what count_plts() found, and the
 * minimum; sh_size round_up(slots x PLT_ENT_SIZE, sizeof(struct plt_entries)).
 */
static void size_sections(struct ep_plt_result *res, const struct frob_sections *f,
			  const struct arm_detail *d)
{
	static const char *const plt_name[] = { ".plt", ".init.plt" };
	const size_t plt_index[] = { f->plt, f->init_plt };
	int g;

	for (g = EP_PLT_CORE; g <= EP_PLT_INIT; g++) {
		struct ep_plt_count *c = &res->slots[EP_PLT_KIND_PLT][g];
		struct ep_plt_sized *z;

		c->reserved += ARM_FIXED_PLTS;
		c->minimum = ARM_FIXED_PLTS + d->groups[g].n;
		z = ep_plt_sized_add(res, plt_name[g], plt_index[g], EP_PLT_KIND_PLT, g);
		z->bytes.reserved = plt_bytes(c->reserved);
		z->bytes.minimum = plt_bytes(c->minimum);
	}
}

static void free_scratch(struct arm_detail *d, struct arm_syms *syms, struct target_set *sec)
{
	int g;

	for (g = 0; g < EP_PLT_NGROUP; g++) {
		free(d->groups[g].v);
		d->groups[g] = (struct target_set){ NULL, 0, 0 };
	}
	free(syms->shndx);
	free(syms->fixed);
	free(sec->v);
}

/*
 * The types apply_relocate()'s switch handles (arch/arm/kernel/module.c,
 * the same cases in Linux 6.1, 6.12 and 7.2) with Debian's armmp
 * configuration: CONFIG_ARM_HAS_GROUP_RELOCS=y brings R_ARM_ALU_PC_G0_NC,
 * R_ARM_ALU_PC_G1_NC and R_ARM_LDR_PC_G2; CONFIG_THUMB2_KERNEL is not set,
 * so the R_ARM_THM_* cases are compiled out.  Any other type takes the
 * default: "%s: unknown relocation: %u" and -ENOEXEC.
 */
static bool relocation_supported(uint32_t r_type)
{
	switch (r_type) {
	case R_ARM_NONE:
	case R_ARM_ABS32:
	case R_ARM_TARGET1:
	case R_ARM_PC24:
	case R_ARM_CALL:
	case R_ARM_JUMP24:
	case R_ARM_V4BX:
	case R_ARM_PREL31:
	case R_ARM_REL32:
	case R_ARM_MOVW_ABS_NC:
	case R_ARM_MOVT_ABS:
	case R_ARM_MOVW_PREL_NC:
	case R_ARM_MOVT_PREL:
	case R_ARM_ALU_PC_G0_NC:
	case R_ARM_ALU_PC_G1_NC:
	case R_ARM_LDR_PC_G2:
		return true;
	default:
		return false;
	}
}

/*
 * The first refusal of apply_relocations() (kernel/module/main.c), which
 * visits the relocation sections whose target (sh_info) is SHF_ALLOC in
 * section order, the per-CPU section excepted (layout_and_allocate() clears
 * its SHF_ALLOC first): an SHT_REL entry of a type apply_relocate() does not
 * handle ("unknown relocation: N", the module's name left out), or an
 * SHT_RELA section at all: arm selects MODULES_USE_ELF_REL only, so
 * apply_relocate_add() is include/linux/moduleloader.h's stub, whose
 * message says "REL" for RELA too.  Its words in res->rejects_text; NULL
 * when there is none or a table cannot be read (counting reports that).
 * apply_relocate()'s checks of r_sym and r_offset and its range errors are
 * not modelled here.
 */
static const char *relocation_rejects(struct ep_image *img, struct ep_plt_result *res)
{
	struct ep_rel buf[256];
	size_t i, pcpu = 0;

	/* find_pcpusec(): the first SHF_ALLOC ".data..percpu". */
	for (i = 1; i < img->shnum && !pcpu; i++)
		if ((img->sections[i].shdr.sh_flags & SHF_ALLOC) &&
		    strcmp(img->sections[i].name, ".data..percpu") == 0)
			pcpu = i;
	for (i = 1; i < img->shnum; i++) {
		const GElf_Shdr *sh = &img->sections[i].shdr;
		struct ep_rel_cursor cur = { 0 };
		struct ep_relsec rs;
		ssize_t got, k;

		if ((sh->sh_type != SHT_REL && sh->sh_type != SHT_RELA) ||
		    sh->sh_info >= img->shnum ||
		    !(img->sections[sh->sh_info].shdr.sh_flags & SHF_ALLOC) || sh->sh_info == pcpu)
			continue;
		if (sh->sh_type == SHT_RELA)
			return "REL relocation unsupported (apply_relocate_add() for an SHT_RELA "
			       "section)";
		if (ep_relsec_open(img, i, &rs, NULL))
			continue;
		while ((got = ep_relsec_next(&rs, &cur, buf, 256, NULL)) > 0)
			for (k = 0; k < got; k++)
				if (!relocation_supported(buf[k].r_type)) {
					snprintf(res->rejects_text, sizeof(res->rejects_text),
						 "unknown relocation: %" PRIu32, buf[k].r_type);
					return res->rejects_text;
				}
	}
	return NULL;
}

static int arm_analyse(struct ep_image *img, struct ep_plt_result *res, struct ep_error *err)
{
	struct arm_syms syms = { NULL, NULL, 0 };
	struct target_set sec = { NULL, 0, 0 };
	struct count_ctx cx;
	struct frob_sections f;
	struct arm_detail *d;
	size_t i;
	int rc;

	rc = ep_plt_kernel_choose(img, &res->opt, ARM_KVER_DEFAULT, ARM_KVER_FLOOR,
				  ARM_KVER_CHECKED, &res->kernel, err);
	if (rc)
		return rc;
	d = calloc(1, sizeof(*d));
	if (!d)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	res->detail = d;
	res->sites_recorded = res->opt.sites;
	rules_for(res->kernel.version, res->kernel.mod_unload, &d->rules);
	d->insn_little =
		img->ehdr.e_ident[EI_DATA] == ELFDATA2LSB || (img->ehdr.e_flags & EF_ARM_BE8);
	res->sort.applies = true;

	find_sections(img, &f);
	res->rejects = ep_plt_core_init_rejects(f.plt, f.init_plt, f.symidx);
	/* load_module()'s order: simplify_symbols(), then apply_relocations(). */
	if (!res->rejects)
		res->rejects = ep_plt_loader_rejects_common(img, f.symidx);
	if (!res->rejects)
		res->rejects = relocation_rejects(img, res);
	/* Without a symbol table there is nothing the loader could count. */
	if (f.symidx) {
		rc = read_syms(img, f.symidx, &syms, err);
		if (rc)
			goto out;
	}
	cx = (struct count_ctx){ img, &syms, { NULL, 0, d->insn_little }, 0, 0, res, err };
	for (i = 1; f.symidx && i < img->shnum; i++) {
		const GElf_Shdr *sh = &img->sections[i].shdr;

		if (sh->sh_type != SHT_REL)
			continue;
		/* sh_info out of range: let ep_relsec_open() say so. */
		if (sh->sh_info < img->shnum && !ep_section_is_exec(img, sh->sh_info))
			continue;
		cx.relidx = i;
		rc = count_one(&cx, d, &sec);
		if (rc)
			goto out;
	}
	size_sections(res, &f, d);
out:
	free_scratch(d, &syms, &sec);
	return rc;
}

/* ---- how the model shows what is its own ------------------------------------ */

static uint64_t col_branches(const struct ep_plt_section *s)
{
	return s->branch_relocations;
}

static const struct ep_plt_column arm_columns[] = {
	{ "[Nr]", EP_PLT_COL_INDEX, NULL },	    { "relocations", EP_PLT_COL_NAME, NULL },
	{ "target", EP_PLT_COL_TARGET, NULL },	    { "group", EP_PLT_COL_GROUP, NULL },
	{ "relocs", EP_PLT_COL_RELOCATIONS, NULL }, { "branches", EP_PLT_COL_VALUE, col_branches },
	{ "need", EP_PLT_COL_NEED, NULL },	    { "slots", EP_PLT_COL_SLOTS, NULL },
	{ "new", EP_PLT_COL_MINIMAL, NULL },	    { "sorted", EP_PLT_COL_SORT_LOADER, NULL },
	{ "full ns", EP_PLT_COL_FULL_NS, NULL },    { "need ns", EP_PLT_COL_PART_NS, NULL },
};

static const char *const arm_summary[] = { "module",  "sorted",	 "needed", "slots",
					   "minimal", "full ns", "need ns" };

static void arm_summary_values(const struct ep_plt_result *res, uint64_t *v)
{
	struct ep_plt_count c = ep_plt_result_slots(res);

	v[0] = res->sort.loader;
	v[1] = res->sort.needed;
	v[2] = c.reserved;
	v[3] = c.minimum;
	v[4] = res->sort.full_ns;
	v[5] = res->sort.partitioned_ns;
}

static const char *sort_name(const struct arm_rules *r)
{
	return r->double_pop ? "heapsort, double pop (v6.9+)" : "heapsort, single pop (<v6.9)";
}

static void arm_print_rules(FILE *out, const struct ep_plt_result *res)
{
	const struct arm_detail *d = res->detail;

	fprintf(out, ", sort: %s, instructions %s", sort_name(&d->rules),
		d->insn_little ? "little-endian" : "big-endian (BE32)");
}

/* "over the minimum: 7 slots: fixed_ftrace 5, cross_section 2" */
static void print_causes(FILE *out, const uint64_t *causes)
{
	uint64_t sum = 0;
	int k;

	for (k = 0; k < NCAUSE; k++)
		sum += causes[k];
	fprintf(out, "  over the minimum: %" PRIu64 " %s", sum, ep_plural(sum, "slot", "slots"));
	for (k = 0; k < NCAUSE; k++)
		if (causes[k])
			fprintf(out, "%s %s %" PRIu64, k ? "," : ":", cause_name[k], causes[k]);
	fputc('\n', out);
}

static void arm_print_detail(FILE *out, const struct ep_plt_result *res)
{
	const struct arm_detail *d = res->detail;
	size_t i;

	for (i = 0; i < res->nsized; i++) {
		const struct ep_plt_sized *z = &res->sized[i];
		const struct ep_plt_count *c = &res->slots[z->kind][z->group];

		fprintf(out,
			"  %s: %" PRIu64 " %s (minimal %" PRIu64 "; %u fixed), %s %" PRIu64
			" bytes (minimal %" PRIu64 ")\n",
			ep_plt_group_name(z->group), c->reserved,
			ep_plural(c->reserved, "slot", "slots"), c->minimum, ARM_FIXED_PLTS,
			z->name, z->bytes.reserved, z->bytes.minimum);
	}
	fprintf(out, "  sorting: %" PRIu64 " %s in %" PRIu64 " %s, %" PRIu64 " need a slot\n",
		res->sort.loader, ep_plural(res->sort.loader, "entry", "entries"),
		res->sort.sections, ep_plural(res->sort.sections, "section", "sections"),
		res->sort.needed);
	if (res->opt.timing_reps)
		fprintf(out,
			"  timing (median of %u): loader's sort %" PRIu64
			" ns, sorting only what needs a slot %" PRIu64 " ns\n",
			res->opt.timing_reps, res->sort.full_ns, res->sort.partitioned_ns);
	print_causes(out, d->causes);
}

static void arm_print_totals(FILE *out, const struct ep_plt_totals *t, unsigned int timing_reps)
{
	struct ep_plt_count slots = ep_plt_totals_sum(t->slots);
	struct ep_plt_count bytes = ep_plt_totals_sum(t->bytes);

	fprintf(out, "%s, %" PRIu64 " %s (%" PRIu64 " rejected by the kernel):\n",
		ep_plt_model_arm_module.name, t->files, ep_plural(t->files, "module", "modules"),
		t->rejected);
	fprintf(out,
		"  slots: %" PRIu64 " (minimal %" PRIu64 "); .plt and .init.plt %" PRIu64
		" bytes (minimal %" PRIu64 ")\n",
		slots.reserved, slots.minimum, bytes.reserved, bytes.minimum);
	ep_plt_print_kernels(out, t);
	fputc('\n', out);
	fprintf(out, "  sorting: %" PRIu64 " entries, %" PRIu64 " need a slot\n", t->sort.loader,
		t->sort.needed);
	if (timing_reps)
		fprintf(out,
			"  timing (sum of the modules' medians of %u): loader's sort %" PRIu64
			" ns, sorting only what needs a slot %" PRIu64 " ns\n",
			timing_reps, t->sort.full_ns, t->sort.partitioned_ns);
	print_causes(out, t->detail);
}

static json_t *json_causes(const uint64_t *causes)
{
	json_t *o = json_object();
	int k;

	for (k = 0; o && k < NCAUSE; k++)
		json_object_set_new(o, cause_name[k], ep_json_u64(causes[k]));
	return o;
}

static json_t *arm_json_rules(const struct ep_plt_result *res)
{
	const struct arm_detail *d = res->detail;

	return json_pack("{s:s, s:b, s:s, s:I, s:I, s:I, s:b}", "sort",
			 d->rules.double_pop ? "heapsort-double-pop" : "heapsort", "exit_in_init",
			 d->rules.exit_in_init, "instruction_byte_order",
			 d->insn_little ? "little" : "big", "plt_entry_bytes",
			 (json_int_t)PLT_ENT_SIZE, "plt_entries_bytes",
			 (json_int_t)PLT_ENTRIES_BYTES, "fixed_plts", (json_int_t)ARM_FIXED_PLTS,
			 "unwind_sections_exec", 0);
}

static json_t *arm_json_detail(const struct ep_plt_result *res)
{
	const struct arm_detail *d = res->detail;

	return json_pack("{s:o}", "over_allocation", json_causes(d->causes));
}

static json_t *arm_json_section(const struct ep_plt_result *res, const struct ep_plt_section *s)
{
	(void)res;
	return json_pack("{s:o, s:o}", "branch_relocations", ep_json_u64(s->branch_relocations),
			 "new_targets", ep_json_u64(s->slots_minimal));
}

static void arm_detail_sums(const struct ep_plt_result *res, uint64_t *sums)
{
	const struct arm_detail *d = res->detail;
	int k;

	for (k = 0; k < NCAUSE; k++)
		sums[k] = d->causes[k];
	sums[SUM_BIG_ENDIAN] = !d->insn_little;
	sums[SUM_DOUBLE_POP] = d->rules.double_pop;
}

static json_t *arm_json_totals(const struct ep_plt_totals *t)
{
	return json_pack("{s:o, s:o, s:o}", "over_allocation", json_causes(t->detail),
			 "big_endian_instructions", ep_json_u64(t->detail[SUM_BIG_ENDIAN]),
			 "double_pop_sort", ep_json_u64(t->detail[SUM_DOUBLE_POP]));
}

/* --by=cause: d->causes, in cause_name[]'s words. */
static size_t arm_causes(const struct ep_plt_result *res, struct ep_plt_cause *out)
{
	const struct arm_detail *d = res->detail;
	size_t k;

	for (k = 0; k < NCAUSE; k++)
		out[k] = (struct ep_plt_cause){ cause_name[k], (int64_t)d->causes[k] };
	return NCAUSE;
}

const struct ep_plt_model ep_plt_model_arm_module = {
	.name = "arm-module",
	.source = "Linux arch/arm/kernel/module-plts.c, v6.1 to v7.2",
	.one = "arm module",
	.many = "arm modules",
	.check = arm_check,
	.analyse = arm_analyse,
	.columns = arm_columns,
	.ncolumns = sizeof(arm_columns) / sizeof(arm_columns[0]),
	.summary = arm_summary,
	.nsummary = sizeof(arm_summary) / sizeof(arm_summary[0]),
	.nsummary_timing = 2,
	.summary_values = arm_summary_values,
	.print_rules = arm_print_rules,
	.print_detail = arm_print_detail,
	.print_totals = arm_print_totals,
	.json_rules = arm_json_rules,
	.json_detail = arm_json_detail,
	.json_section = arm_json_section,
	.detail_sums = arm_detail_sums,
	.json_totals = arm_json_totals,
	.causes = arm_causes,
};
