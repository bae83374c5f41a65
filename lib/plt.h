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

/* What the user asked for; every model gets all of it and uses what applies. */
struct ep_plt_options {
	bool kaslr;		  /* CONFIG_RANDOMIZE_BASE (arm64-module; default true) */
	bool erratum_843419;	  /* ARM64_WORKAROUND_843419 in effect (default true) */
	unsigned int timing_reps; /* --timing repetitions; 0: no timing */
};

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
	bool has_tramp;				  /* .text.ftrace_trampoline present */
	uint64_t tramp_bytes;			  /* its sh_size as the loader sets it */
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
/* NR_FTRACE_PLTS on v5.5..v6.1 (FTRACE_PLT_IDX and FTRACE_REGS_PLT_IDX). */
#define EP_ARM64_NR_FTRACE_PLTS 2

/*
 * count_plts() of one SHT_RELA section whose target (sh_info dstidx) is
 * executable, after partition_branch_plt_relas() and sort() as
 * module_frob_arch_sections() does them, Linux v5.8..v6.6 (see the file's
 * header for the versions of each rule).  r[0..n) is permuted in place, as
 * the kernel permutes the module's copy.  st_shndx[r_sym] is each symbol's
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
