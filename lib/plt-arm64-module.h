/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_PLT_ARM64_MODULE_H
#define ELFPLT_PLT_ARM64_MODULE_H

/*
 * The arm64 module loader's counting, pure (arrays in, counts out) so unit
 * tests drive it without files: Linux arch/arm64/kernel/module-plts.c, see
 * lib/plt-arm64-module.c's header for the version of each rule.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/plt.h"
#include "lib/reloc.h"

/*
 * The oldest kernel the arm64-module model follows (partition_branch_plt_relas(),
 * d4e0340919fb, which is in fact v5.9: see lib/plt-arm64-module.c).
 */
#define EP_ARM64_KVER_FLOOR EP_KVER(5, 8, 0)
/* What it models for a module that names no version (no vermagic=): Debian 12's. */
#define EP_ARM64_KVER_DEFAULT EP_KVER(6, 1, 0)
/* The newest kernel series (any sublevel) whose loader source the model was checked against. */
#define EP_ARM64_KVER_CHECKED EP_KVER(7, 2, 0)

/* sizeof(struct plt_entry) since v4.15: ADRP, ADD, BR. */
#define EP_ARM64_PLT_ENTRY_BYTES 12

/*
 * The rules of the arm64 module loader (Linux arch/arm64/kernel/
 * module-plts.c and asm/ftrace.h) that change the reserved slots, bytes or
 * sort cost between versions; ep_arm64_rules_for() fills them.  The
 * versions of each are in lib/plt-arm64-module.c's header.
 *   kaslr_applies   count_plts() and partition_branch_plt_relas() skip
 *                   branches unless CONFIG_RANDOMIZE_BASE.  When false
 *                   --kaslr has no effect.
 *   exit_in_init    the init/core split asks module_init_layout_section(),
 *                   which without CONFIG_MODULE_UNLOAD puts ".exit*"
 *                   targets in the init PLT too (v6.6; stable 6.5.1,
 *                   6.4.14, 6.1.51, 5.15.130, 5.10.194).  Only true when
 *                   mod_unload is false.
 *   nr_ftrace_plts  NR_FTRACE_PLTS: .text.ftrace_trampoline gets that x 12
 *                   bytes (2 to v6.1.y, 1 from v6.2).
 *   init_tramp      .init.text.ftrace_trampoline is sized too, and with
 *                   CONFIG_DYNAMIC_FTRACE its absence fails the load
 *                   (v6.17; stable 6.16.6, 6.12.46, 6.6.105; never 6.1.y).
 */
struct ep_arm64_rules {
	uint32_t version; /* EP_KVER() modelled; below the floor: the floor's rules */
	bool mod_unload;  /* CONFIG_MODULE_UNLOAD */
	bool kaslr_applies;
	bool exit_in_init;
	bool init_tramp;
	unsigned int nr_ftrace_plts;
};

/* The rules of kernel version (EP_KVER()) for a kernel with or without CONFIG_MODULE_UNLOAD. */
void ep_arm64_rules_for(uint32_t version, bool mod_unload, struct ep_arm64_rules *r);

/*
 * count_plts() of one SHT_RELA section whose target (sh_info dstidx) is
 * executable, after partition_branch_plt_relas() and sort() as
 * module_frob_arch_sections() does them.  r[0..n) is permuted in place, as
 * the kernel permutes the module's copy; opt->kaslr is the effective
 * CONFIG_RANDOMIZE_BASE (true for kernels that no longer ask, see struct
 * ep_arm64_rules).  st_shndx[r_sym] is each symbol's raw 16-bit st_shndx
 * (SHN_XINDEX not resolved: the kernel compares the field itself); every
 * r_sym < nsyms.  Fills out's counting fields (relocations .. leftover);
 * out->group and names are the caller's.  The minimum (slots_minimal) takes
 * the same raw field: it is the loader's own rule for which branch needs a
 * slot, with perfect duplicate detection.  Resolving SHN_XINDEX for it would
 * describe no module that loads: Linux's module loader has no extended
 * section indexes (simplify_symbols() indexes the section headers by
 * st_shndx as stored), so a module whose symbols sit in sections numbered
 * 0xff00 and above is not loadable at all.  `elfplt stats`, which describes
 * the file and not a loader, resolves it.  Returns 0 or -EP_ENOMEM.
 */
int ep_arm64_count_section(struct ep_rel *r, size_t n, const uint32_t *st_shndx, size_t nsyms,
			   uint32_t dstidx, const struct ep_plt_options *opt,
			   struct ep_plt_section *out);

/*
 * DIV_ROUND_UP(slots, SZ_4K / sizeof(struct plt_entry)): the slack slots the
 * erratum 843419 workaround adds to count_plts()'s result.
 */
uint64_t ep_arm64_spare_slots(uint64_t slots);

/*
 * Time the two ways of finding duplicates on r[0..n) (scratch copies, never
 * the input): full, sort() of every entry (before v5.8), and partitioned,
 * partition_branch_plt_relas() then sort() of the nents in front (v5.8 and
 * later); the kernel's sort() is a heapsort, and so is this.  reps runs of
 * each, median of clock_gettime(CLOCK_MONOTONIC) in *full_ns and
 * *partitioned_ns, nanoseconds.  Returns 0 or -EP_ENOMEM.
 */
int ep_arm64_time_section(const struct ep_rel *r, size_t n, const uint32_t *st_shndx,
			  uint32_t dstidx, bool kaslr, unsigned int reps, uint64_t *full_ns,
			  uint64_t *partitioned_ns);

#endif
