/* SPDX-License-Identifier: MIT */
/*
 * The arm64 kernel-module PLT model: how many PLT slots the module loader
 * reserves, following Linux arch/arm64/kernel/module-plts.c
 * (module_frob_arch_sections(), partition_branch_plt_relas(), count_plts()),
 * quirks included, for each kernel from v5.8 to v7.2 (read in Debian's
 * 6.1.176, 6.12.117 and 7.2.13 sources; module-plts.c is byte-identical in
 * 6.12.117, 7.2.13 and mainline after a7ed7b9d0ebb): the version comes from
 * --kernel, else the module's own vermagic= (.modinfo), else v6.1 (Debian
 * 12).  The rules that differ between versions are in struct ep_arm64_rules
 * (lib/plt.h); what holds for which versions (read from the file's history):
 *
 * - Only SHT_RELA sections whose target (sh_info) has SHF_EXECINSTR are
 *   counted; SHT_REL is ignored.  All versions with PLTs (v4.6 and later).
 * - R_AARCH64_CALL26/JUMP26 need a slot unless the symbol's st_shndx equals
 *   the relocation section's sh_info (the raw 16-bit field: SHN_XINDEX is
 *   never resolved).  From v4.15 to v6.6 this only happens with
 *   CONFIG_RANDOMIZE_BASE (without KASLR modules sat within 128 MiB of the
 *   kernel); commit d35686444fc8 (v6.7, also 6.5.13 and 6.6.3 stable) made
 *   it unconditional after the v6.5 module VA rework (3e35d303ab7d).
 *   --kaslr=off models such a kernel built without CONFIG_RANDOMIZE_BASE;
 *   from v6.7 it changes nothing.
 * - Duplicates: entries are sorted by (r_type, r_sym, r_addend) with
 *   cmp_rela(); an entry counts unless it equals the one just before it
 *   (duplicate_rel()); an entry with a non-zero r_addend always counts.
 *   v4.11 and later.
 * - Before v5.9 every relocation of the section was sorted.  Since commit
 *   d4e0340919fb ("arm64/module: Optimize module load time by optimizing
 *   PLT counting") partition_branch_plt_relas() first moves the
 *   slot-needing branches to the front and only those nents are sorted;
 *   with KASLR off (to 6.5.12 and 6.6.2) it returns 0 and nothing is
 *   sorted.  That commit is v5.9, not v5.8 as this model (its floor, its
 *   "sorted<5.8" column) long said: it came with the arm64 pull "arm64 and
 *   cross-arch updates for 5.9" (2020-08-03, based on v5.8-rc3).  The floor
 *   stays v5.8, modelled as partitioned; a real 5.8 sorts every relocation,
 *   which changes the sorting and, where a leftover (below) duplicates
 *   another entry, one slot.  The quirk: the
 *   partition loop stops when i == j without looking at entry i, so when
 *   every relocation of a section needs a slot (and there are at least
 *   two), the last one is left out of the sorted range.  count_plts() still
 *   walks all entries; that last entry is compared only with the largest
 *   sorted entry and counts again when it duplicates another one.  Any
 *   other layout leaves no slot-needing entry behind (the element at j is
 *   examined whenever i meets a relocation that needs no slot).
 * - Erratum 843419 (CONFIG_ARM64_ERRATUM_843419 and a CPU that has the
 *   ARM64_WORKAROUND_843419 capability; v4.15 and later): an
 *   R_AARCH64_ADR_PREL_PG_HI21[_NC] whose r_offset has bits [11:3] all set
 *   (offset 0xff8 or 0xffc in a 4 KiB page) needs a veneer slot, because
 *   min_align = 2 << ffz(r_offset | 7) exceeds 4 KiB; at other offsets the
 *   loader raises the target section's sh_addralign to min_align instead.
 *   Then each count_plts() call, that is each relocation section, adds
 *   DIV_ROUND_UP(slots, 4096 / 12) = ceil(slots / 341) slack slots.
 * - Groups: a target section whose name starts with ".init" counts for the
 *   init PLT, any other for the core PLT (v4.11 and later).  From v6.6 and
 *   the stable 6.5.1, 6.4.14, 6.1.51, 5.15.130 and 5.10.194 (f928f8b1a249
 *   with 2abcc4b5a64a "module: Expose module_init_layout_section()") the
 *   loader asks module_init_layout_section(), which without
 *   CONFIG_MODULE_UNLOAD (no "mod_unload" in vermagic) also puts ".exit"
 *   targets in the init PLT.  .plt and .init.plt get sh_size (slots + 1) x
 *   sizeof(struct plt_entry), 12 bytes since v4.15.
 * - .text.ftrace_trampoline, when present, gets NR_FTRACE_PLTS x 12 bytes:
 *   2 on v5.5..v6.1.y, 1 from v6.2 (asm/ftrace.h, 26299b3f6ba2 "ftrace:
 *   arm64: move from REGS to ARGS").  .init.text.ftrace_trampoline, when
 *   present, the same, from v6.17 and the stable 6.16.6, 6.12.46 and
 *   6.6.105 (a7ed7b9d0ebb; never 6.1.y, and 6.7..6.11, 6.13..6.15 were
 *   end-of-life before it); before that the loader ignores the section.
 * - The loader rejects the module (-ENOEXEC) when .plt or .init.plt is
 *   missing, or when there is no SHT_SYMTAB (a section named .plt,
 *   .init.plt or .text.ftrace_trampoline is never taken as the symtab);
 *   module_frob_arch_sections(), every version.  Later, module_finalize()
 *   calls module_init_ftrace_plt(), which with CONFIG_DYNAMIC_FTRACE (set by
 *   Debian and every arm64 distribution kernel; modelled as always set)
 *   returns -ENOEXEC without a message when find_section() finds no
 *   .text.ftrace_trampoline (f1a54ae9af0d, v5.5; guarded by
 *   CONFIG_ARM64_MODULE_PLTS too before v6.5, which module-plts.c needs
 *   anyway), and, where .init.text.ftrace_trampoline is sized (above), when
 *   there is none of that either (a7ed7b9d0ebb).  Read in 6.1.176, 6.12.117
 *   and 7.2.13 arch/arm64/kernel/module.c.
 * - Nothing else that changes a count moved from v6.12 to v7.2: the
 *   RELA + SHF_EXECINSTR filter, cmp_rela()/duplicate_rel(), the partition,
 *   the 843419 handling and the rejections are the same in 7.2.13.  v6.19's
 *   1ba9f8979426 merges .text.* into .text when modules are linked; that is
 *   the build, not the loader, and shows in the .ko the model reads.
 *
 * The true minimum counts distinct (r_type, r_sym, r_addend) among the
 * slot-needing branches of each section, plus the veneers, plus the slack
 * computed on that; it is what the loader would reserve with perfect
 * duplicate detection.
 */
#include "config.h"

#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hash.h"
#include "lib/plt-arm64-module.h"
#include "lib/plt-kernel.h"
#include "lib/sort.h"
#include "lib/plt.h"
#include "lib/report.h"

#define SZ_4K 4096u

/* v is in series major.minor at sublevel sub or later (a stable backport). */
static bool stable_from(uint32_t v, uint32_t major, uint32_t minor, uint32_t sub)
{
	return EP_KVER_SERIES(v) == EP_KVER(major, minor, 0) && EP_KVER_SUB(v) >= sub;
}

void ep_arm64_rules_for(uint32_t version, bool mod_unload, struct ep_arm64_rules *r)
{
	uint32_t v = version < EP_ARM64_KVER_FLOOR ? EP_ARM64_KVER_FLOOR : version;

	r->version = version;
	r->mod_unload = mod_unload;
	/* d35686444fc8: v6.7, and the stable 6.6.3 and 6.5.13. */
	r->kaslr_applies = v < EP_KVER(6, 5, 13) || (v >= EP_KVER(6, 6, 0) && v < EP_KVER(6, 6, 3));
	/* f928f8b1a249 (with 2abcc4b5a64a): v6.6, stable 6.5.1, 6.4.14, 6.1.51, 5.15.130, 5.10.194.
	 */
	r->exit_in_init = !mod_unload && (v >= EP_KVER(6, 6, 0) || stable_from(v, 6, 5, 1) ||
					  stable_from(v, 6, 4, 14) || stable_from(v, 6, 1, 51) ||
					  stable_from(v, 5, 15, 130) || stable_from(v, 5, 10, 194));
	/* 26299b3f6ba2: v6.2. */
	r->nr_ftrace_plts = v >= EP_KVER(6, 2, 0) ? 1 : 2;
	/* a7ed7b9d0ebb: v6.17, stable 6.16.6, 6.12.46, 6.6.105; never 6.1.y. */
	r->init_tramp = v >= EP_KVER(6, 17, 0) || stable_from(v, 6, 16, 6) ||
			stable_from(v, 6, 12, 46) || stable_from(v, 6, 6, 105);
}

static bool is_branch(uint32_t r_type)
{
	return r_type == R_AARCH64_JUMP26 || r_type == R_AARCH64_CALL26;
}

/*
 * Branches to a symbol in the same section never get a PLT: no PLT could be
 * placed within range of every branch of a section larger than 128 MiB, so
 * those must resolve directly anyway (branch_rela_needs_plt()).
 */
static bool needs_plt(uint32_t r_type, uint32_t r_sym, const uint32_t *st_shndx, uint32_t dstidx)
{
	return st_shndx[r_sym] != dstidx && is_branch(r_type);
}

static int cmp3(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* partition_branch_plt_relas(), same loop, same stopping point. */
static size_t partition_rel(struct ep_rel *r, size_t n, const uint32_t *st_shndx, uint32_t dstidx)
{
	ptrdiff_t i = 0, j = (ptrdiff_t)n - 1;

	while (i < j) {
		if (needs_plt(r[i].r_type, r[i].r_sym, st_shndx, dstidx)) {
			i++;
		} else if (needs_plt(r[j].r_type, r[j].r_sym, st_shndx, dstidx)) {
			struct ep_rel t = r[i];

			r[i] = r[j];
			r[j] = t;
		} else {
			j--;
		}
	}
	return (size_t)i;
}

uint64_t ep_arm64_spare_slots(uint64_t slots)
{
	const uint64_t per_page = SZ_4K / EP_ARM64_PLT_ENTRY_BYTES;

	return (slots + per_page - 1) / per_page;
}

/*
 * The alignment an ADRP at r_offset asks of its section: 2 << (the lowest
 * clear bit of r_offset | 7).  Returns 0 when no alignment up to 4 KiB helps
 * (bits [11:3] all set): that ADRP needs a veneer.
 */
static uint64_t adrp_min_align(uint64_t r_offset)
{
	uint64_t x = ~(r_offset | 7);
	unsigned int bit;

	if (!x)
		return 0;
	bit = (unsigned int)__builtin_ctzll(x);
	if (bit >= 12)
		return 0;
	return 2ull << bit;
}

/*
 * cmp_rela()'s key, packed: (r_type << 32 | r_sym, r_addend).  Only the order
 * of equal keys matters for the count, so any sort gives the kernel's
 * answer; this one compares inline because it runs on every module.
 */
struct rela_key {
	uint64_t type_sym;
	int64_t addend;
};

static inline bool key_lt(const struct rela_key *x, const struct rela_key *y)
{
	return x->type_sym < y->type_sym || (x->type_sym == y->type_sym && x->addend < y->addend);
}

static inline bool key_eq(const struct rela_key *x, const struct rela_key *y)
{
	return x->type_sym == y->type_sym && x->addend == y->addend;
}

static struct rela_key key_of(const struct ep_rel *r)
{
	return (struct rela_key){ (uint64_t)r->r_type << 32 | r->r_sym, r->r_addend };
}

/*
 * The keys in order: an introsort (lib/sort.h), O(n log n) however a
 * module's relocations are ordered (a quicksort alone goes quadratic on
 * input built against it).
 */
EP_SORT_BY(sort_keys, struct rela_key, key_lt)

static bool in_sorted(const struct rela_key *a, size_t n, const struct rela_key *k)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (key_lt(&a[mid], k))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && key_eq(&a[lo], k);
}

/*
 * A slot-needing entry at index i >= nents, left behind by the partition:
 * count_plts() compares it with the largest sorted entry only, as
 * duplicate_rel(rela, nents) does.  Returns the slot it costs the loader
 * (0 or 1); adds it to *distinct when no sorted entry has its key, and to
 * out's excess by cause when it repeats one.
 */
static uint64_t count_leftover(const struct ep_rel *r, size_t i, const struct rela_key *keys,
			       size_t nents, uint64_t *distinct, struct ep_plt_section *out)
{
	struct rela_key k = key_of(r);
	bool counted = k.addend != 0 || i == 0 || !nents || !key_eq(&k, &keys[nents - 1]);

	out->leftover = true;
	if (!in_sorted(keys, nents, &k))
		(*distinct)++;
	else if (counted && k.addend != 0)
		out->excess_addend++;
	else if (counted)
		out->excess_leftover++;
	return counted;
}

/*
 * ep_arm64_count_section(); with keys_out, the sorted keys of the nents
 * entries are handed to the caller (free() them) for --by's sites.
 */
static int count_section(struct ep_rel *r, size_t n, const uint32_t *st_shndx, uint32_t dstidx,
			 const struct ep_plt_options *opt, struct ep_plt_section *out,
			 struct rela_key **keys_out)
{
	uint64_t ret = 0, distinct = 0, minimal;
	struct rela_key *keys = NULL;
	size_t nents = 0, i;

	out->relocations = n;
	out->sorted_full = n;
	if (opt->kaslr) {
		nents = partition_rel(r, n, st_shndx, dstidx);
		keys = malloc((nents ? nents : 1) * sizeof(*keys));
		if (!keys)
			return -EP_ENOMEM;
		for (i = 0; i < nents; i++)
			keys[i] = key_of(&r[i]);
		if (nents)
			sort_keys(keys, nents);
	}
	out->sorted_partitioned = nents;
	/* count_plts() over the sorted range: duplicate_rel() looks one back. */
	for (i = 0; i < nents; i++) {
		bool dup = i > 0 && key_eq(&keys[i], &keys[i - 1]);

		if (keys[i].addend != 0 || !dup)
			ret++;
		distinct += !dup;
		out->excess_addend += dup && keys[i].addend != 0;
	}
	for (i = 0; i < n; i++) {
		uint64_t align;

		switch (r[i].r_type) {
		case R_AARCH64_JUMP26:
		case R_AARCH64_CALL26:
			out->branch_relocations++;
			if (!opt->kaslr || st_shndx[r[i].r_sym] == dstidx)
				break;
			out->plt_relocations++;
			if (i < nents)
				break; /* counted above */
			ret += count_leftover(&r[i], i, keys, nents, &distinct, out);
			break;
		case R_AARCH64_ADR_PREL_PG_HI21_NC:
		case R_AARCH64_ADR_PREL_PG_HI21:
			if (!opt->erratum_843419)
				break;
			align = adrp_min_align(r[i].r_offset);
			if (!align) {
				out->veneers++;
				ret++;
			} else if (align > out->min_align) {
				out->min_align = align;
			}
			break;
		}
	}
	if (keys_out)
		*keys_out = keys;
	else
		free(keys);
	minimal = distinct + out->veneers;
	if (opt->erratum_843419) {
		out->spare = ep_arm64_spare_slots(ret);
		out->spare_minimal = ep_arm64_spare_slots(minimal);
	}
	out->slots = ret + out->spare;
	out->slots_minimal = minimal + out->spare_minimal;
	return 0;
}

int ep_arm64_count_section(struct ep_rel *r, size_t n, const uint32_t *st_shndx, size_t nsyms,
			   uint32_t dstidx, const struct ep_plt_options *opt,
			   struct ep_plt_section *out)
{
	(void)nsyms;
	return count_section(r, n, st_shndx, dstidx, opt, out, NULL);
}

/* ---- --timing: the two methods on scratch copies -------------------------- */

/* cmp_rela(): r_type, then r_sym, then r_addend. */
static int cmp_kernel_rela(const void *a, const void *b)
{
	const struct ep_kernel_rela *x = a, *y = b;
	int i = cmp3(x->r_info & 0xffffffff, y->r_info & 0xffffffff);

	if (i == 0)
		i = cmp3(x->r_info >> 32, y->r_info >> 32);
	if (i == 0)
		i = x->r_addend < y->r_addend ? -1 : x->r_addend > y->r_addend;
	return i;
}

static bool kr_needs_plt(const struct ep_kernel_rela *r, const uint32_t *st_shndx, uint32_t dstidx)
{
	return needs_plt((uint32_t)(r->r_info & 0xffffffff), (uint32_t)(r->r_info >> 32), st_shndx,
			 dstidx);
}

static size_t partition_kernel_rela(struct ep_kernel_rela *r, size_t n, const uint32_t *st_shndx,
				    uint32_t dstidx)
{
	ptrdiff_t i = 0, j = (ptrdiff_t)n - 1;

	while (i < j) {
		if (kr_needs_plt(&r[i], st_shndx, dstidx)) {
			i++;
		} else if (kr_needs_plt(&r[j], st_shndx, dstidx)) {
			struct ep_kernel_rela t = r[i];

			r[i] = r[j];
			r[j] = t;
		} else {
			j--;
		}
	}
	return (size_t)i;
}

int ep_arm64_time_section(const struct ep_rel *r, size_t n, const uint32_t *st_shndx,
			  uint32_t dstidx, bool kaslr, unsigned int reps, uint64_t *full_ns,
			  uint64_t *partitioned_ns)
{
	struct ep_kernel_rela *orig, *work;
	uint64_t *full, *part, t0;
	unsigned int k;
	size_t nents;
	int rc = -EP_ENOMEM;

	*full_ns = *partitioned_ns = 0;
	if (!reps)
		return 0;
	orig = malloc((n ? n : 1) * sizeof(*orig));
	work = malloc((n ? n : 1) * sizeof(*work));
	full = calloc(reps, sizeof(*full));
	part = calloc(reps, sizeof(*part));
	if (!orig || !work || !full || !part)
		goto out;
	ep_kernel_rela_from(orig, r, n);
	for (k = 0; k < reps; k++) {
		memcpy(work, orig, n * sizeof(*work));
		t0 = ep_plt_now_ns();
		ep_kernel_sort(work, n, sizeof(*work), cmp_kernel_rela);
		full[k] = ep_plt_now_ns() - t0;

		memcpy(work, orig, n * sizeof(*work));
		t0 = ep_plt_now_ns();
		nents = kaslr ? partition_kernel_rela(work, n, st_shndx, dstidx) : 0;
		if (nents)
			ep_kernel_sort(work, nents, sizeof(*work), cmp_kernel_rela);
		part[k] = ep_plt_now_ns() - t0;
	}
	*full_ns = ep_plt_median_ns(full, reps);
	*partitioned_ns = ep_plt_median_ns(part, reps);
	rc = 0;
out:
	free(orig);
	free(work);
	free(full);
	free(part);
	return rc;
}

/* ---- the model over one image ---------------------------------------------- */

extern const struct ep_plt_model ep_plt_model_arm64_module;

/* The model's own part of a result (res->detail). */
struct arm64_detail {
	struct ep_arm64_rules rules;
	uint64_t veneers;	    /* erratum 843419 veneer slots, all sections */
	uint64_t leftover_sections; /* sections with a partition leftover */
	/* Slots over the minimum by cause: see over_allocation(). */
	uint64_t excess_addend, excess_leftover, excess_slack;
};

/* Its sums over files (struct ep_plt_totals' detail[]). */
enum {
	SUM_VENEERS,
	SUM_LEFTOVER,
	SUM_KASLR_IGNORED,
	SUM_EXCESS_ADDEND,
	SUM_EXCESS_LEFTOVER,
	SUM_EXCESS_SLACK
};

static const char *arm64_check(const struct ep_image *img, bool forced)
{
	if (img->ehdr.e_machine != EM_AARCH64)
		return "the arm64-module model needs an AArch64 file (e_machine EM_AARCH64)";
	if (img->ehdr.e_ident[EI_CLASS] != ELFCLASS64)
		return "the arm64-module model needs an ELFCLASS64 file (the loader reads "
		       "Elf64_Rela)";
	if (img->ehdr.e_type != ET_REL)
		return "the arm64-module model needs a relocatable file (ET_REL)";
	if (!forced && !ep_image_is_kernel_module(img))
		return "not a kernel module (no .modinfo and .gnu.linkonce.this_module)";
	return NULL;
}

/*
 * The PLT a relocation section's target counts for: ".init*" targets the
 * init PLT; module_init_layout_section() adds ".exit*" ones when the kernel
 * has no CONFIG_MODULE_UNLOAD (module_exit_section()).
 */
static enum ep_plt_group target_group(const char *tname, const struct ep_arm64_rules *rules)
{
	if (strncmp(tname, ".init", 5) == 0)
		return EP_PLT_INIT;
	if (rules->exit_in_init && strncmp(tname, ".exit", 5) == 0)
		return EP_PLT_INIT;
	return EP_PLT_CORE;
}

/* Add one counted section to the file's slots, sort and detail. */
static void add_section(struct ep_plt_result *res, struct arm64_detail *d,
			const struct ep_plt_section *s)
{
	struct ep_plt_count *c = &res->slots[EP_PLT_KIND_PLT][s->group];

	c->reserved += s->slots;
	c->minimum += s->slots_minimal;
	res->sort.full += s->sorted_full;
	res->sort.loader += s->sorted_partitioned;
	res->sort.needed += s->plt_relocations;
	res->sort.full_ns += s->full_ns;
	res->sort.partitioned_ns += s->partitioned_ns;
	res->sort.sections++;
	res->sort.sections_unsorted += !s->sorted_partitioned;
	d->veneers += s->veneers;
	d->leftover_sections += s->leftover;
	d->excess_addend += s->excess_addend;
	d->excess_leftover += s->excess_leftover;
	d->excess_slack += s->spare - s->spare_minimal;
}

static struct ep_plt_site *add_site(struct ep_plt_result *res, const struct ep_plt_section *s,
				    const struct ep_rel *r, bool reserved, bool minimum)
{
	struct ep_plt_site *p = ep_plt_site_of(res, s, r);

	if (!p)
		return NULL;
	p->kind = EP_PLT_KIND_PLT;
	p->group = s->group;
	p->reserved = reserved;
	p->minimum = minimum;
	return p;
}

/* The position of k's first copy in the sorted keys a[0..n); n when there is none. */
static size_t key_index(const struct rela_key *a, size_t n, const struct rela_key *k)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (key_lt(&a[mid], k))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && key_eq(&a[lo], k) ? lo : n;
}

/* The slot of key k in seen[0..cap) (a power of two): its own, or the empty one it would take. */
static size_t seen_slot(const struct rela_key *seen, size_t cap, const struct rela_key *k)
{
	/* Keyed and mixed (lib/hash.h): addends chosen to share a slot took 19 s for 200,000. */
	size_t h = (size_t)ep_hash_mix((uint64_t)k->addend ^
				       ep_hash_mix(k->type_sym ^ ep_hash_seed())) &
		   (cap - 1);

	while (seen[h].type_sym && !key_eq(&seen[h], k))
		h = (h + 1) & (cap - 1);
	return h;
}

/*
 * --by: the sites of one section, r[0..n) as count_section() left it (the
 * nents slot-needing branches in front) and keys[0..nents) its sorted
 * keys.  In the sorted range the first of each (r_type, r_sym, r_addend)
 * met gets a slot and counts in the minimum, a repeat gets one only with a
 * non-zero addend; a partition leftover gets one as count_leftover() says;
 * every ADRP veneer has its own.  Returns 0 or -EP_ENOMEM.
 */
static int record_sites(struct ep_plt_result *res, const struct ep_plt_section *s,
			const struct ep_rel *r, size_t n, const uint32_t *shndx, bool kaslr,
			const struct rela_key *keys)
{
	const size_t nents = s->sorted_partitioned;
	size_t cap = 16, used = 0, i, h;
	uint64_t left;
	struct rela_key *seen, *bigger;

	/*
	 * The keys met so far, open addressing (a binary search per entry cost
	 * more), a slot empty while its type_sym is 0 (no branch's is); as
	 * large as twice the distinct keys count_section() found (the slots'
	 * minimum), grown should there be more, not twice the entries: the
	 * table is cleared for every section.
	 */
	while (cap < 2 * (s->slots_minimal < nents ? s->slots_minimal : nents))
		cap *= 2;
	seen = calloc(cap, sizeof(*seen));
	if (!seen)
		return -EP_ENOMEM;
	for (i = 0; i < nents; i++) {
		const struct rela_key k = key_of(&r[i]);
		bool first;

		h = seen_slot(seen, cap, &k);
		first = !seen[h].type_sym;
		if (first) {
			seen[h] = k;
			if (2 * ++used > cap) { /* more keys than counted: twice the slots */
				bigger = calloc(2 * cap, sizeof(*bigger));
				if (!bigger)
					goto nomem;
				for (h = 0; h < cap; h++)
					if (seen[h].type_sym)
						bigger[seen_slot(bigger, 2 * cap, &seen[h])] = seen[h];
				free(seen);
				seen = bigger;
				cap *= 2;
			}
		}
		if (!add_site(res, s, &r[i], first || k.addend != 0, first))
			goto nomem;
	}
	/*
	 * After the sorted range: count_section() counted the ADRP veneers
	 * and the slot-needing branches there (plt_relocations - nents, the
	 * partition's leftovers); the scan stops at the last of them.
	 */
	left = s->veneers + (kaslr ? s->plt_relocations - nents : 0);
	for (i = nents; i < n && left; i++) {
		const struct ep_rel *e = &r[i];
		struct rela_key k;
		bool counted;

		if (e->r_type == R_AARCH64_ADR_PREL_PG_HI21 ||
		    e->r_type == R_AARCH64_ADR_PREL_PG_HI21_NC) {
			if (res->opt.erratum_843419 && !adrp_min_align(e->r_offset)) {
				if (!add_site(res, s, e, true, true))
					goto nomem;
				left--;
			}
			continue;
		}
		/* The type first: most relocations are no branch, and st_shndx[] is far. */
		if (!kaslr || !is_branch(e->r_type) ||
		    !needs_plt(e->r_type, e->r_sym, shndx, (uint32_t)s->target))
			continue;
		k = key_of(e);
		counted = k.addend != 0 || !nents || !key_eq(&k, &keys[nents - 1]);
		if (!add_site(res, s, e, counted, key_index(keys, nents, &k) == nents))
			goto nomem;
		left--;
	}
	free(seen);
	return 0;
nomem:
	free(seen);
	return -EP_ENOMEM;
}

static int count_one(struct ep_image *img, size_t idx, const uint32_t *shndx, size_t nsyms,
		     const struct ep_plt_options *opt, struct ep_plt_result *res,
		     struct ep_error *err)
{
	struct arm64_detail *d = res->detail;
	const GElf_Shdr *sh = &img->sections[idx].shdr;
	struct ep_plt_section *s;
	struct ep_relsec rs;
	struct ep_rel *r = NULL;
	struct rela_key *keys = NULL;
	size_t i;
	int rc;

	rc = ep_plt_read_section(img, idx, &rs, &r, err);
	if (rc)
		return rc;
	for (i = 0; i < rs.count; i++)
		if (r[i].r_sym >= nsyms) {
			rc = ep_error_set(err, EP_EMALFORMED,
					  "%s: relocation %zu has symbol %u, the symbol table has "
					  "%zu (section %zu %s)",
					  img->path, i, r[i].r_sym, nsyms, idx,
					  ep_section_label(img, idx));
			goto out;
		}
	s = ep_plt_section_add(res);
	if (!s) {
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
		goto out;
	}
	s->index = idx;
	s->name = img->sections[idx].name;
	s->target = sh->sh_info;
	s->target_name = img->sections[sh->sh_info].name;
	s->group = target_group(s->target_name, &d->rules);
	/* Time on the file's order, before counting permutes the records. */
	rc = ep_arm64_time_section(r, rs.count, shndx, (uint32_t)sh->sh_info, opt->kaslr,
				   opt->timing_reps, &s->full_ns, &s->partitioned_ns);
	if (rc == 0)
		rc = count_section(r, rs.count, shndx, (uint32_t)sh->sh_info, opt, s,
				   opt->sites ? &keys : NULL);
	if (rc == 0 && opt->sites)
		rc = record_sites(res, s, r, rs.count, shndx, opt->kaslr, keys);
	if (rc) {
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
		goto out;
	}
	add_section(res, d, s);
out:
	free(keys);
	free(r);
	return rc;
}

/* The sections module_frob_arch_sections() looks for by name. */
struct frob_sections {
	size_t plt, init_plt, tramp, init_tramp, symidx;
};

/* The first loop of module_frob_arch_sections(): the last match wins. */
static void find_sections(const struct ep_image *img, const struct ep_arm64_rules *rules,
			  struct frob_sections *f)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < img->shnum; i++) {
		const char *name = img->sections[i].name;

		if (strcmp(name, ".plt") == 0)
			f->plt = i;
		else if (strcmp(name, ".init.plt") == 0)
			f->init_plt = i;
		else if (strcmp(name, ".text.ftrace_trampoline") == 0)
			f->tramp = i;
		else if (rules->init_tramp && strcmp(name, ".init.text.ftrace_trampoline") == 0)
			f->init_tramp = i;
		else if (img->sections[i].shdr.sh_type == SHT_SYMTAB)
			f->symidx = i;
	}
}

/*
 * module_finalize()'s -ENOEXEC from module_init_ftrace_plt() with
 * CONFIG_DYNAMIC_FTRACE, which prints nothing: find_section() by name (the
 * first match, any type) for the trampolines it fills.  Or NULL.
 */
static const char *finalize_rejects(const struct ep_image *img, const struct ep_arm64_rules *rules)
{
	bool tramp = false, init_tramp = false;
	size_t i;

	for (i = 0; i < img->shnum; i++) {
		const char *name = img->sections[i].name;

		tramp |= strcmp(name, ".text.ftrace_trampoline") == 0;
		init_tramp |= strcmp(name, ".init.text.ftrace_trampoline") == 0;
	}
	if (!tramp)
		return "module_init_ftrace_plt(): -ENOEXEC, no .text.ftrace_trampoline "
		       "(CONFIG_DYNAMIC_FTRACE)";
	if (rules->init_tramp && !init_tramp)
		return "module_init_ftrace_plt(): -ENOEXEC, no .init.text.ftrace_trampoline "
		       "(CONFIG_DYNAMIC_FTRACE)";
	return NULL;
}

/*
 * apply_relocate_add()'s switch (arch/arm64/kernel/module.c, the same 41
 * cases in Linux 6.1, 6.12 and 7.2): any other type is "unsupported RELA
 * relocation" and -ENOEXEC, the GOT ones of a module built -fPIC
 * (R_AARCH64_ADR_GOT_PAGE, R_AARCH64_LD64_GOT_LO12_NC) among them.
 */
static bool relocation_supported(uint32_t r_type)
{
	switch (r_type) {
	case R_AARCH64_NONE:
	case 256: /* the kernel's own R_AARCH64_NONE (its R_ARM_NONE is 0) */
	case R_AARCH64_ABS64:
	case R_AARCH64_ABS32:
	case R_AARCH64_ABS16:
	case R_AARCH64_PREL64:
	case R_AARCH64_PREL32:
	case R_AARCH64_PREL16:
	case R_AARCH64_MOVW_UABS_G0_NC:
	case R_AARCH64_MOVW_UABS_G0:
	case R_AARCH64_MOVW_UABS_G1_NC:
	case R_AARCH64_MOVW_UABS_G1:
	case R_AARCH64_MOVW_UABS_G2_NC:
	case R_AARCH64_MOVW_UABS_G2:
	case R_AARCH64_MOVW_UABS_G3:
	case R_AARCH64_MOVW_SABS_G0:
	case R_AARCH64_MOVW_SABS_G1:
	case R_AARCH64_MOVW_SABS_G2:
	case R_AARCH64_MOVW_PREL_G0_NC:
	case R_AARCH64_MOVW_PREL_G0:
	case R_AARCH64_MOVW_PREL_G1_NC:
	case R_AARCH64_MOVW_PREL_G1:
	case R_AARCH64_MOVW_PREL_G2_NC:
	case R_AARCH64_MOVW_PREL_G2:
	case R_AARCH64_MOVW_PREL_G3:
	case R_AARCH64_LD_PREL_LO19:
	case R_AARCH64_ADR_PREL_LO21:
	case R_AARCH64_ADR_PREL_PG_HI21_NC:
	case R_AARCH64_ADR_PREL_PG_HI21:
	case R_AARCH64_ADD_ABS_LO12_NC:
	case R_AARCH64_LDST8_ABS_LO12_NC:
	case R_AARCH64_LDST16_ABS_LO12_NC:
	case R_AARCH64_LDST32_ABS_LO12_NC:
	case R_AARCH64_LDST64_ABS_LO12_NC:
	case R_AARCH64_LDST128_ABS_LO12_NC:
	case R_AARCH64_TSTBR14:
	case R_AARCH64_CONDBR19:
	case R_AARCH64_JUMP26:
	case R_AARCH64_CALL26:
		return true;
	default:
		return false;
	}
}

/*
 * The first relocation apply_relocate_add() would refuse, in the sections
 * apply_relocations() applies (SHT_RELA whose target is SHF_ALLOC), in
 * section order; its words in res->rejects_text.  NULL when there is none
 * or a table cannot be read (counting reports that).
 */
static const char *relocation_rejects(struct ep_image *img, struct ep_plt_result *res)
{
	struct ep_rel buf[256];
	size_t i;

	for (i = 1; i < img->shnum; i++) {
		const GElf_Shdr *sh = &img->sections[i].shdr;
		struct ep_rel_cursor cur = { 0 };
		struct ep_relsec rs;
		ssize_t got, k;

		if (sh->sh_type != SHT_RELA || sh->sh_info >= img->shnum ||
		    !(img->sections[sh->sh_info].shdr.sh_flags & SHF_ALLOC) ||
		    ep_relsec_open(img, i, &rs, NULL))
			continue;
		while ((got = ep_relsec_next(&rs, &cur, buf, 256, NULL)) > 0)
			for (k = 0; k < got; k++)
				if (!relocation_supported(buf[k].r_type)) {
					snprintf(res->rejects_text, sizeof(res->rejects_text),
						 "unsupported RELA relocation: %" PRIu32,
						 buf[k].r_type);
					return res->rejects_text;
				}
	}
	return NULL;
}

/* A trampoline section: NR_FTRACE_PLTS entries, each a struct plt_entry. */
static void size_tramp(struct ep_plt_result *res, const char *name, size_t index,
		       enum ep_plt_group g, const struct ep_arm64_rules *rules)
{
	struct ep_plt_sized *z = ep_plt_sized_add(res, name, index, EP_PLT_KIND_TRAMPOLINE, g);
	struct ep_plt_count *c = &res->slots[EP_PLT_KIND_TRAMPOLINE][g];

	c->reserved = c->minimum = rules->nr_ftrace_plts;
	z->bytes.reserved = z->bytes.minimum = c->reserved * EP_ARM64_PLT_ENTRY_BYTES;
}

/*
 * The sh_size module_frob_arch_sections() gives each section it sizes:
 * .plt and .init.plt (slots + 1) x 12 (the +1 for the empty entry that
 * ends the PLT), a trampoline NR_FTRACE_PLTS x 12.
 */
static void size_sections(struct ep_plt_result *res, const struct frob_sections *f,
			  const struct ep_arm64_rules *rules)
{
	static const char *const plt_name[] = { ".plt", ".init.plt" };
	const size_t plt_index[] = { f->plt, f->init_plt };
	struct ep_plt_sized *z;
	int g;

	for (g = EP_PLT_CORE; g <= EP_PLT_INIT; g++) {
		const struct ep_plt_count *c = &res->slots[EP_PLT_KIND_PLT][g];

		z = ep_plt_sized_add(res, plt_name[g], plt_index[g], EP_PLT_KIND_PLT, g);
		z->bytes.reserved = (c->reserved + 1) * EP_ARM64_PLT_ENTRY_BYTES;
		z->bytes.minimum = (c->minimum + 1) * EP_ARM64_PLT_ENTRY_BYTES;
	}
	if (f->tramp)
		size_tramp(res, ".text.ftrace_trampoline", f->tramp, EP_PLT_CORE, rules);
	if (f->init_tramp)
		size_tramp(res, ".init.text.ftrace_trampoline", f->init_tramp, EP_PLT_INIT, rules);
}

static int arm64_analyse(struct ep_image *img, struct ep_plt_result *res, struct ep_error *err)
{
	struct ep_plt_options opt = res->opt;
	struct frob_sections f;
	struct arm64_detail *d;
	uint32_t *shndx = NULL;
	size_t i, nsyms = 0;
	int rc;

	rc = ep_plt_kernel_choose(img, &res->opt, EP_ARM64_KVER_DEFAULT, EP_ARM64_KVER_FLOOR,
				  EP_ARM64_KVER_CHECKED, &res->kernel, err);
	if (rc)
		return rc;
	d = calloc(1, sizeof(*d));
	if (!d)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	res->detail = d;
	ep_arm64_rules_for(res->kernel.version, res->kernel.mod_unload, &d->rules);
	res->sort.applies = true;
	res->sites_recorded = opt.sites;
	/* Kernels that no longer ask CONFIG_RANDOMIZE_BASE count as if it were on. */
	if (!d->rules.kaslr_applies)
		opt.kaslr = true;

	find_sections(img, &d->rules, &f);
	/*
	 * In load_module()'s order: module_frob_arch_sections() at layout,
	 * simplify_symbols(), apply_relocate_add(), module_finalize().
	 */
	res->rejects = ep_plt_core_init_rejects(f.plt, f.init_plt, f.symidx);
	if (!res->rejects)
		res->rejects = ep_plt_loader_rejects_common(img, f.symidx);
	if (!res->rejects)
		res->rejects = relocation_rejects(img, res);
	if (!res->rejects)
		res->rejects = finalize_rejects(img, &d->rules);
	/* Without a symbol table there is nothing the loader could count. */
	if (f.symidx) {
		shndx = ep_plt_symbol_shndx64(img, f.symidx, &nsyms, err, &rc);
		if (!shndx)
			return rc;
	}
	for (i = 1; f.symidx && i < img->shnum; i++) {
		const GElf_Shdr *sh = &img->sections[i].shdr;

		if (sh->sh_type != SHT_RELA)
			continue;
		/* sh_info out of range: let ep_relsec_open() say so. */
		if (sh->sh_info < img->shnum && !ep_section_is_exec(img, sh->sh_info))
			continue;
		rc = count_one(img, i, shndx, nsyms, &opt, res, err);
		if (rc)
			break;
	}
	size_sections(res, &f, &d->rules);
	free(shndx);
	return rc;
}

/* ---- how the model shows what is its own ------------------------------------ */

static uint64_t col_veneers(const struct ep_plt_section *s)
{
	return s->veneers;
}

static uint64_t col_spare(const struct ep_plt_section *s)
{
	return s->spare;
}

/* Every column means something for an arm64 module; the timing ones need --timing. */
static const struct ep_plt_column arm64_columns[] = {
	{ "[Nr]", EP_PLT_COL_INDEX, NULL },
	{ "relocations", EP_PLT_COL_NAME, NULL },
	{ "target", EP_PLT_COL_TARGET, NULL },
	{ "group", EP_PLT_COL_GROUP, NULL },
	{ "relocs", EP_PLT_COL_RELOCATIONS, NULL },
	{ "branches", EP_PLT_COL_BRANCHES, NULL },
	{ "need", EP_PLT_COL_NEED, NULL },
	{ "slots", EP_PLT_COL_SLOTS, NULL },
	{ "minimal", EP_PLT_COL_MINIMAL, NULL },
	{ "veneers", EP_PLT_COL_VALUE, col_veneers },
	{ "spare", EP_PLT_COL_VALUE, col_spare },
	{ "sorted<5.8", EP_PLT_COL_SORT_FULL, NULL },
	{ "sorted>=5.8", EP_PLT_COL_SORT_LOADER, NULL },
	{ "full ns", EP_PLT_COL_FULL_NS, NULL },
	{ "part ns", EP_PLT_COL_PART_NS, NULL },
};

static const char *const arm64_summary[] = { "module",	"sorted<5.8", "sorted>=5.8", "slots",
					     "minimal", "full ns",    "part ns" };

static void arm64_summary_values(const struct ep_plt_result *res, uint64_t *v)
{
	const struct ep_plt_count *core = &res->slots[EP_PLT_KIND_PLT][EP_PLT_CORE];
	const struct ep_plt_count *init = &res->slots[EP_PLT_KIND_PLT][EP_PLT_INIT];

	v[0] = res->sort.full;
	v[1] = res->sort.loader;
	v[2] = core->reserved + init->reserved;
	v[3] = core->minimum + init->minimum;
	v[4] = res->sort.full_ns;
	v[5] = res->sort.partitioned_ns;
}

static const char *onoff(bool b)
{
	return b ? "on" : "off";
}

/* The header line's tail: the kernel modelled, where from, the options. */
static void arm64_print_rules(FILE *out, const struct ep_plt_result *res)
{
	const struct arm64_detail *d = res->detail;

	fprintf(out, ", kaslr %s%s, erratum-843419 %s", onoff(res->opt.kaslr),
		d->rules.kaslr_applies ? "" : " (no effect from 6.7)",
		onoff(res->opt.erratum_843419));
}

static void print_sorting(FILE *out, const struct ep_plt_sort *s)
{
	fprintf(out,
		"  sorting: %" PRIu64 " %s before v5.8, %" PRIu64 " since; no sort in %" PRIu64
		" of %" PRIu64 " %s\n",
		s->full, ep_plural(s->full, "entry", "entries"), s->loader, s->sections_unsorted,
		s->sections, ep_plural(s->sections, "section", "sections"));
}

/* what: "median" for a file, "sum of the modules' medians" for the totals. */
static void print_timing(FILE *out, const char *what, unsigned int reps,
			 const struct ep_plt_sort *s)
{
	fprintf(out,
		"  timing (%s of %u %s): full sort %" PRIu64 " ns, partition + sort %" PRIu64
		" ns\n",
		what, reps, ep_plural(reps, "run", "runs"), s->full_ns, s->partitioned_ns);
}

/*
 * "over_allocation": slots.reserved - slots.minimum by cause.  The loader
 * never merges a branch with a non-zero addend (duplicate_rel() asks for
 * r_addend 0), so every repeat of one costs a slot (nonzero_addend); a
 * partition leftover that duplicates a sorted entry other than the last is
 * counted again (partition_leftover); and the erratum 843419 slack
 * ceil(slots / 341) is computed on the inflated count (erratum_slack).
 */
static json_t *over_allocation(uint64_t addend, uint64_t leftover, uint64_t slack)
{
	return json_pack("{s:o, s:o, s:o}", "nonzero_addend", ep_json_u64(addend),
			 "partition_leftover", ep_json_u64(leftover), "erratum_slack",
			 ep_json_u64(slack));
}

/* The text of over_allocation(), when there is any. */
static void print_over(FILE *out, uint64_t addend, uint64_t leftover, uint64_t slack)
{
	if (addend + leftover + slack)
		fprintf(out,
			"  over the minimum: %" PRIu64 " %s (non-zero addends never merged %" PRIu64
			", partition leftover %" PRIu64 ", erratum slack %" PRIu64 ")\n",
			addend + leftover + slack,
			ep_plural(addend + leftover + slack, "slot", "slots"), addend, leftover,
			slack);
}

static void arm64_print_detail(FILE *out, const struct ep_plt_result *res)
{
	const struct arm64_detail *d = res->detail;
	size_t i;

	for (i = 0; i < res->nsized; i++) {
		const struct ep_plt_sized *z = &res->sized[i];
		const struct ep_plt_count *c = &res->slots[z->kind][z->group];

		/* "core: 6 slots (minimal 5), .plt 84 bytes (minimal 72)" */
		if (z->kind == EP_PLT_KIND_PLT)
			fprintf(out,
				"  %s: %" PRIu64 " %s (minimal %" PRIu64 "), %s %" PRIu64
				" bytes (minimal %" PRIu64 ")\n",
				ep_plt_group_name(z->group), c->reserved,
				ep_plural(c->reserved, "slot", "slots"), c->minimum, z->name,
				z->bytes.reserved, z->bytes.minimum);
		else
			fprintf(out, "  %s: %" PRIu64 " bytes\n", z->name, z->bytes.reserved);
	}
	print_sorting(out, &res->sort);
	if (res->opt.timing_reps)
		print_timing(out, "median", res->opt.timing_reps, &res->sort);
	if (d->leftover_sections)
		fputs("  *: the partition left a slot-needing entry outside the sorted range\n",
		      out);
	print_over(out, d->excess_addend, d->excess_leftover, d->excess_slack);
}

static void arm64_print_totals(FILE *out, const struct ep_plt_totals *t, unsigned int timing_reps)
{
	const struct ep_plt_count *core = &t->bytes[EP_PLT_KIND_PLT][EP_PLT_CORE];
	const struct ep_plt_count *init = &t->bytes[EP_PLT_KIND_PLT][EP_PLT_INIT];
	const struct ep_plt_count *sc = &t->slots[EP_PLT_KIND_PLT][EP_PLT_CORE];
	const struct ep_plt_count *si = &t->slots[EP_PLT_KIND_PLT][EP_PLT_INIT];
	const struct ep_plt_count slots = { sc->reserved + si->reserved,
					    sc->minimum + si->minimum };
	const uint64_t veneers = t->detail[SUM_VENEERS], leftover = t->detail[SUM_LEFTOVER];

	fprintf(out, "%s, %" PRIu64 " %s (%" PRIu64 " rejected by the kernel):\n",
		ep_plt_model_arm64_module.name, t->files, ep_plural(t->files, "module", "modules"),
		t->rejected);
	fprintf(out,
		"  PLT slots: %" PRIu64 " (minimal %" PRIu64 "), %" PRIu64 " %s; .plt and .init.plt"
		" %" PRIu64 " bytes (minimal %" PRIu64 ")\n",
		slots.reserved, slots.minimum, veneers, ep_plural(veneers, "veneer", "veneers"),
		core->reserved + init->reserved, core->minimum + init->minimum);
	fprintf(out, "  ftrace trampolines: %" PRIu64 " bytes\n",
		t->bytes[EP_PLT_KIND_TRAMPOLINE][EP_PLT_CORE].reserved +
			t->bytes[EP_PLT_KIND_TRAMPOLINE][EP_PLT_INIT].reserved);
	ep_plt_print_kernels(out, t);
	if (t->detail[SUM_KASLR_IGNORED])
		fprintf(out, "; --kaslr has no effect on %" PRIu64, t->detail[SUM_KASLR_IGNORED]);
	fputc('\n', out);
	print_sorting(out, &t->sort);
	if (timing_reps)
		print_timing(out, "sum of the modules' medians", timing_reps, &t->sort);
	if (leftover)
		fprintf(out, "  %" PRIu64 " %s with a partition leftover\n", leftover,
			ep_plural(leftover, "section", "sections"));
	print_over(out, t->detail[SUM_EXCESS_ADDEND], t->detail[SUM_EXCESS_LEFTOVER],
		   t->detail[SUM_EXCESS_SLACK]);
}

static json_t *arm64_json_rules(const struct ep_plt_result *res)
{
	const struct ep_arm64_rules *r = &((const struct arm64_detail *)res->detail)->rules;

	return json_pack("{s:b, s:b, s:I, s:b}", "kaslr_applies", r->kaslr_applies, "exit_in_init",
			 r->exit_in_init, "nr_ftrace_plts", (json_int_t)r->nr_ftrace_plts,
			 "init_ftrace_trampoline", r->init_tramp);
}

static json_t *arm64_json_detail(const struct ep_plt_result *res)
{
	const struct arm64_detail *d = res->detail;

	return json_pack("{s:o, s:o, s:o}", "veneers", ep_json_u64(d->veneers),
			 "partition_leftover_sections", ep_json_u64(d->leftover_sections),
			 "over_allocation",
			 over_allocation(d->excess_addend, d->excess_leftover, d->excess_slack));
}

static json_t *arm64_json_section(const struct ep_plt_result *res, const struct ep_plt_section *s)
{
	(void)res;
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:b, s:o}", "branch_relocations",
			 ep_json_u64(s->branch_relocations), "veneers", ep_json_u64(s->veneers),
			 "spare", ep_json_u64(s->spare), "spare_minimal",
			 ep_json_u64(s->spare_minimal), "min_align", ep_json_u64(s->min_align),
			 "partition_leftover", s->leftover, "over_allocation",
			 over_allocation(s->excess_addend, s->excess_leftover,
					 s->spare - s->spare_minimal));
}

static void arm64_detail_sums(const struct ep_plt_result *res, uint64_t *sums)
{
	const struct arm64_detail *d = res->detail;

	sums[SUM_VENEERS] = d->veneers;
	sums[SUM_LEFTOVER] = d->leftover_sections;
	sums[SUM_KASLR_IGNORED] = !d->rules.kaslr_applies;
	sums[SUM_EXCESS_ADDEND] = d->excess_addend;
	sums[SUM_EXCESS_LEFTOVER] = d->excess_leftover;
	sums[SUM_EXCESS_SLACK] = d->excess_slack;
}

static json_t *arm64_json_totals(const struct ep_plt_totals *t)
{
	return json_pack("{s:o, s:o, s:o, s:o}", "veneers", ep_json_u64(t->detail[SUM_VENEERS]),
			 "partition_leftover_sections", ep_json_u64(t->detail[SUM_LEFTOVER]),
			 "kaslr_ignored", ep_json_u64(t->detail[SUM_KASLR_IGNORED]),
			 "over_allocation",
			 over_allocation(t->detail[SUM_EXCESS_ADDEND],
					 t->detail[SUM_EXCESS_LEFTOVER],
					 t->detail[SUM_EXCESS_SLACK]));
}

/* --by=cause: the three of over_allocation(). */
static size_t arm64_causes(const struct ep_plt_result *res, struct ep_plt_cause *out)
{
	const struct arm64_detail *d = res->detail;

	out[0] = (struct ep_plt_cause){ "nonzero_addend", (int64_t)d->excess_addend };
	out[1] = (struct ep_plt_cause){ "partition_leftover", (int64_t)d->excess_leftover };
	out[2] = (struct ep_plt_cause){ "erratum_slack", (int64_t)d->excess_slack };
	return 3;
}

const struct ep_plt_model ep_plt_model_arm64_module = {
	.name = "arm64-module",
	.source = "Linux arch/arm64/kernel/module-plts.c, v5.8 to v7.2",
	.one = "arm64 module",
	.many = "arm64 modules",
	.check = arm64_check,
	.analyse = arm64_analyse,
	.columns = arm64_columns,
	.ncolumns = sizeof(arm64_columns) / sizeof(arm64_columns[0]),
	.summary = arm64_summary,
	.nsummary = sizeof(arm64_summary) / sizeof(arm64_summary[0]),
	.nsummary_timing = 2,
	.summary_values = arm64_summary_values,
	.print_rules = arm64_print_rules,
	.print_detail = arm64_print_detail,
	.print_totals = arm64_print_totals,
	.json_rules = arm64_json_rules,
	.json_detail = arm64_json_detail,
	.json_section = arm64_json_section,
	.detail_sums = arm64_detail_sums,
	.json_totals = arm64_json_totals,
	.causes = arm64_causes,
};
