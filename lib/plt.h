/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_PLT_H
#define ELFPLT_PLT_H

/*
 * PLT models for `elfplt plt`.  A model says which relocations need a PLT
 * slot (or a GOT entry), how duplicates are recognised, how sections split
 * into groups and what a slot costs in bytes; it reports both what the
 * loader or linker reserves (its own algorithm, quirks included) and the
 * true minimum, so over-allocation is visible.  One model per file:
 *   lib/plt-arm64-module.c  Linux arm64 module loader (module-plts.c)
 *   lib/plt-linked.c        ET_DYN/ET_EXEC: the PLT and GOT a link made
 *   lib/plt-object.c        ET_REL objects (x86-64, AArch64): upper bounds
 * The arm64 counting function is pure (arrays in, counts out) so unit tests
 * drive it without files.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/elf.h"
#include "lib/error.h"
#include "lib/reloc.h"

/*
 * A Linux version as one number, EP_KVER(6, 12, 117), ordered as the
 * versions are; a sublevel above 255 counts as 255.
 */
#define EP_KVER(major, minor, sub)                                                                 \
	((uint32_t)(major) << 16 | (uint32_t)(minor) << 8 | ((sub) > 255 ? 255u : (uint32_t)(sub)))
#define EP_KVER_MAJOR(v) ((v) >> 16)
#define EP_KVER_MINOR(v) (((v) >> 8) & 0xff)
#define EP_KVER_SUB(v)	 ((uint32_t)(v)&0xff)

/* The oldest kernel the arm64-module model follows (partition_branch_plt_relas()). */
#define EP_ARM64_KVER_FLOOR EP_KVER(5, 8, 0)
/* What it models for a module that names no version (no vermagic=): Debian 12's. */
#define EP_ARM64_KVER_DEFAULT EP_KVER(6, 1, 0)

/* What the user asked for; every model gets all of it and uses what applies. */
struct ep_plt_options {
	bool kaslr;		  /* CONFIG_RANDOMIZE_BASE (arm64-module; default true) */
	bool erratum_843419;	  /* ARM64_WORKAROUND_843419 in effect (default true) */
	unsigned int timing_reps; /* --timing repetitions; 0: no timing */
	/*
	 * arm64-module: the kernel whose loader is modelled, EP_KVER(), at
	 * least EP_ARM64_KVER_FLOOR; 0 (--kernel=auto): each module's own
	 * vermagic=, else EP_ARM64_KVER_DEFAULT.
	 */
	uint32_t kernel;
};

/*
 * Parse the version at the start of s: "6.12", "6.12.117", "v6.1", and so a
 * vermagic "6.12.117+deb12-arm64 SMP mod_unload ..." (the text after the
 * numbers is not looked at).  Returns 0 with *v = EP_KVER(), or -1 when s
 * does not start with MAJOR.MINOR (numbers below 256).
 */
int ep_kernel_version_parse(const char *s, uint32_t *v);

/* Where the modelled kernel version came from. */
enum ep_kernel_from {
	EP_KERNEL_FROM_DEFAULT,	 /* the module has no vermagic=: EP_ARM64_KVER_DEFAULT */
	EP_KERNEL_FROM_VERMAGIC, /* the module's .modinfo vermagic= */
	EP_KERNEL_FROM_OPTION,	 /* --kernel=VERSION */
};

/* "default", "vermagic", "option". */
const char *ep_kernel_from_name(enum ep_kernel_from from);

/*
 * The rules of the arm64 module loader (Linux arch/arm64/kernel/
 * module-plts.c and asm/ftrace.h) that change the reserved slots, bytes or
 * sort cost between v5.8 and v6.12; ep_arm64_rules_for() fills them.  The
 * rule table, with each change's commit:
 *   kaslr_applies   v5.8..v6.6: count_plts() and partition_branch_plt_relas()
 *                   skip branches unless CONFIG_RANDOMIZE_BASE; removed by
 *                   d35686444fc8 in v6.7 (stable 6.5.13, 6.6.3).  When false
 *                   --kaslr has no effect.
 *   exit_in_init    v6.6 and later (f928f8b1a249): the init/core split asks
 *                   module_init_layout_section(), which without
 *                   CONFIG_MODULE_UNLOAD puts ".exit*" targets in the init
 *                   PLT too; before, only ".init*" (str_has_prefix()).  The
 *                   stable backports (6.1.y, 5.15.y, 5.10.y) are not told by
 *                   version: Debian's vermagic says 6.1.0 for every 6.1.y.
 *                   Only true when mod_unload is false.
 *   nr_ftrace_plts  NR_FTRACE_PLTS: 2 (FTRACE_PLT_IDX, FTRACE_REGS_PLT_IDX) on
 *                   v5.5..v6.1; 1 from v6.2 ("ftrace: arm64: move from REGS
 *                   to ARGS").  .text.ftrace_trampoline gets that x 12 bytes.
 *   init_tramp      .init.text.ftrace_trampoline gets NR_FTRACE_PLTS x 12
 *                   bytes: a7ed7b9d0ebb (v6.17, stable 6.6.y and 6.12.y) for
 *                   kernels from v6.5; the section is only in modules built
 *                   by such a kernel, so the rule is v6.5 and later.
 * Unchanged over the range: which RELA sections count, the slot-needing
 * test, cmp_rela()/duplicate_rel(), the partition and its leftover, the
 * erratum 843419 veneers and slack, 12-byte struct plt_entry.
 */
struct ep_arm64_rules {
	uint32_t version; /* EP_KVER() modelled; below the floor: the floor's rules */
	enum ep_kernel_from from;
	bool mod_unload; /* CONFIG_MODULE_UNLOAD: "mod_unload" in vermagic (true without one) */
	bool kaslr_applies;
	bool exit_in_init;
	bool init_tramp;
	unsigned int nr_ftrace_plts;
};

/*
 * The rules of kernel version (EP_KVER()) for a kernel with or without
 * CONFIG_MODULE_UNLOAD; r->from is left for the caller.
 */
void ep_arm64_rules_for(uint32_t version, bool mod_unload, struct ep_arm64_rules *r);

/* arm64 module PLT groups: the kernel's mod->arch.core and mod->arch.init. */
enum ep_plt_group { EP_PLT_CORE, EP_PLT_INIT, EP_PLT_NGROUP, EP_PLT_NOGROUP = EP_PLT_NGROUP };

/* "core", "init", or NULL for EP_PLT_NOGROUP. */
const char *ep_plt_group_name(enum ep_plt_group g);

/*
 * One relocation section as a model saw it.  Counts are relocations unless
 * said; a field a model does not use stays 0 (veneers .. partitioned_ns are
 * arm64-module only).
 */
struct ep_plt_section {
	size_t index;		 /* the relocation section */
	const char *name;	 /* points into the image */
	size_t target;		 /* sh_info; 0 when the table relocates no one section */
	const char *target_name; /* "" when target is 0 */
	enum ep_plt_group group;
	uint64_t relocations;	     /* entries: sh_size / sh_entsize */
	uint64_t branch_relocations; /* CALL26/JUMP26 (AArch64), PLT32 (x86-64) */
	/*
	 * arm64-module: branches that need a slot; object: branches to
	 * undefined symbols; linked: JUMP_SLOT and IRELATIVE (.rela.plt only).
	 */
	uint64_t plt_relocations;
	uint64_t got_relocations; /* linked: GLOB_DAT; object: GOT-generating; arm64: 0 */
	/*
	 * arm64-module: slots the loader reserves; object: distinct undefined
	 * symbols branched to in this section; linked: plt_relocations.
	 */
	uint64_t slots;
	uint64_t slots_minimal;	     /* slots really needed (see the model) */
	uint64_t veneers;	     /* erratum 843419 ADRP veneer slots (in slots) */
	uint64_t spare;		     /* erratum 843419 slack slots (in slots) */
	uint64_t spare_minimal;	     /* the same slack computed on the minimum */
	uint64_t sorted_full;	     /* entries sorted before v5.8: all of them */
	uint64_t sorted_partitioned; /* entries sorted since v5.8: nents */
	uint64_t min_align; /* sh_addralign the ADRP rule raises the target to, bytes; 0 none */
	bool leftover;	    /* the partition left a slot-needing entry unsorted */
	uint64_t full_ns;   /* --timing: median ns of the full sort */
	uint64_t partitioned_ns; /* --timing: median ns of partition + sort */
};

/* Slots and bytes of one arm64 module PLT group. */
struct ep_plt_group_result {
	uint64_t slots; /* plt_max_entries */
	uint64_t slots_minimal;
	uint64_t bytes;		/* sh_size the loader gives .plt/.init.plt: (slots + 1) x 12 */
	uint64_t bytes_minimal; /* (slots_minimal + 1) x 12 */
	size_t plt_index;	/* the .plt/.init.plt section, 0 when missing */
};

/* ET_DYN/ET_EXEC: what the static linker made. */
struct ep_plt_linked {
	uint64_t jump_slot; /* JUMP_SLOT relocations in .rela.plt/.rel.plt */
	uint64_t irelative; /* IRELATIVE relocations in .rela.plt/.rel.plt */
	uint64_t plt_slots; /* jump_slot + irelative */
	uint64_t glob_dat;  /* GLOB_DAT relocations in every dynamic table */
	uint64_t plt_bytes, plt_sec_bytes, got_bytes, got_plt_bytes; /* sh_size; 0 absent */
	size_t rela_plt; /* index of .rela.plt/.rel.plt, 0 when absent */
};

/* ET_REL objects that are not kernel modules: bounds for a static link. */
struct ep_plt_object {
	uint64_t branch_relocations; /* R_X86_64_PLT32, R_AARCH64_CALL26/JUMP26 */
	uint64_t undefined_branches; /* of those, against undefined symbols */
	uint64_t distinct_targets;   /* distinct undefined symbols branched to */
	uint64_t got_relocations;    /* R_X86_64_GOTPCREL*, R_AARCH64_ADR_GOT_PAGE */
	uint64_t distinct_got_symbols;
};

struct ep_plt_model;

/* Everything `elfplt plt` reports for one file. */
struct ep_plt_result {
	const struct ep_plt_model *model; /* NULL: no model covers the file */
	const char *note;		  /* why not, when model is NULL; static */
	struct ep_plt_options opt;
	const char *kernel_rejects; /* arm64-module: why load_module() fails, or NULL */
	struct ep_plt_section *secs;
	size_t nsecs;
	struct ep_plt_group_result groups[EP_PLT_NGROUP];
	bool has_tramp;		     /* .text.ftrace_trampoline present */
	uint64_t tramp_bytes;	     /* its sh_size as the loader sets it */
	bool has_init_tramp;	     /* .init.text.ftrace_trampoline present and sized (v6.5+) */
	uint64_t init_tramp_bytes;   /* its sh_size as the loader sets it */
	struct ep_arm64_rules rules; /* arm64-module: the loader modelled */
	char vermagic[256]; /* arm64-module: .modinfo's vermagic= value ("" none; cut at 255) */
	uint64_t sorted_full, sorted_partitioned; /* sums over secs */
	size_t sort_sections;		  /* sections the loader considers (exec-target RELA) */
	size_t sort_skipped;		  /* of those, sections with nents 0: no sort at all */
	uint64_t full_ns, partitioned_ns; /* --timing: sums of the section medians */
	bool linked_valid;
	struct ep_plt_linked linked;
	bool object_valid;
	struct ep_plt_object object;
};

/*
 * A model.  check() returns NULL when the model applies to img, else a
 * one-line reason; forced is true under --model (looser: e.g. an AArch64
 * ET_REL that is not a module may still be counted as one).  analyse()
 * fills res (zeroed by the caller, model and opt set) and returns 0 or a
 * negative ep_errcode with err filled.
 */
struct ep_plt_model {
	const char *name;   /* "arm64-module", "linked", "object" */
	const char *source; /* what it follows, for people and the JSON */
	const char *(*check)(const struct ep_image *img, bool forced);
	int (*analyse)(struct ep_image *img, struct ep_plt_result *res, struct ep_error *err);
};

extern const struct ep_plt_model ep_plt_model_arm64_module;
extern const struct ep_plt_model ep_plt_model_linked;
extern const struct ep_plt_model ep_plt_model_object;

/* The models in the order automatic choice tries them; NULL-terminated. */
extern const struct ep_plt_model *const ep_plt_models[];

/* The model called name, or NULL. */
const struct ep_plt_model *ep_plt_model_find(const char *name);

/*
 * Analyse img with model forced (NULL: the first model whose check() passes,
 * by e_machine and e_type).  A file no model covers is not an error: res has
 * model NULL and a note.  Returns 0, or a negative ep_errcode with err filled
 * (a malformed relocation or symbol table, EP_ENOMEM).  Free res with
 * ep_plt_result_free() either way.
 */
int ep_plt_analyse(struct ep_image *img, const struct ep_plt_model *forced,
		   const struct ep_plt_options *opt, struct ep_plt_result *res,
		   struct ep_error *err);

void ep_plt_result_free(struct ep_plt_result *res);

/*
 * Append a zeroed section record to res.  Returns it, or NULL when out of
 * memory.  For the model files.
 */
struct ep_plt_section *ep_plt_section_add(struct ep_plt_result *res);

/* ---- arm64 module loader, pure counting (lib/plt-arm64-module.c) ---------- */

/* sizeof(struct plt_entry) since v4.15: ADRP, ADD, BR. */
#define EP_ARM64_PLT_ENTRY_BYTES 12

/*
 * count_plts() of one SHT_RELA section whose target (sh_info dstidx) is
 * executable, after partition_branch_plt_relas() and sort() as
 * module_frob_arch_sections() does them, Linux v5.8..v6.12 (see the file's
 * header for the versions of each rule).  r[0..n) is permuted in place, as
 * the kernel permutes the module's copy; opt->kaslr is the effective
 * CONFIG_RANDOMIZE_BASE (true for v6.7 and later, which no longer ask, see
 * struct ep_arm64_rules).  st_shndx[r_sym] is each symbol's
 * raw 16-bit st_shndx (SHN_XINDEX not resolved: the kernel compares the
 * field itself); every r_sym < nsyms.  Fills out's counting fields
 * (relocations .. leftover); out->group and names are the caller's.
 * The minimum (slots_minimal) takes the same raw field: it is the loader's
 * own rule for which branch needs a slot, with perfect duplicate detection.
 * Resolving SHN_XINDEX for it would describe no module that loads: Linux's
 * module loader has no extended section indexes (simplify_symbols() indexes
 * the section headers by st_shndx as stored), so a module whose symbols sit
 * in sections numbered 0xff00 and above is not loadable at all.
 * `elfplt stats`, which describes the file and not a loader, resolves it.
 * Returns 0 or -EP_ENOMEM.
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
 * *partitioned_ns.  Returns 0 or -EP_ENOMEM.
 */
int ep_arm64_time_section(const struct ep_rel *r, size_t n, const uint32_t *st_shndx,
			  uint32_t dstidx, bool kaslr, unsigned int reps, uint64_t *full_ns,
			  uint64_t *partitioned_ns);

#endif
