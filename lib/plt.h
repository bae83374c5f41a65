/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_PLT_H
#define ELFPLT_PLT_H

/*
 * PLT models for `elfplt plt`: the interface every model fills and the
 * registry that chooses one.  A model says which relocations need a PLT
 * slot, a GOT entry or a stub, how duplicates are recognised, how sections
 * split into groups and what the space costs in bytes; it reports both what
 * the loader or linker reserves (its own algorithm, quirks included) and the
 * minimum it would need with perfect duplicate detection, so over-allocation
 * is visible.  Every model fills the same result shape (struct
 * ep_plt_result), and renders what is its own (struct ep_plt_model's
 * columns, print and JSON hooks), so `elfplt plt` names no model.
 *
 * One model per file, each registered by one line in lib/plt.c:
 *   lib/plt-arm64-module.c  Linux arm64 module loader (module-plts.c)
 *   lib/plt-linked.c        ET_DYN/ET_EXEC: the PLT and GOT a link made
 *   lib/plt-object.c        ET_REL objects (x86-64, AArch64): upper bounds
 * Adding a model: write lib/plt-<name>.c defining a struct ep_plt_model,
 * add its line to the registry in lib/plt.c, its section to elfplt-plt(1)
 * and its tests.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "lib/warning.h"
#include "lib/elf.h"
#include "lib/error.h"
#include "lib/reloc.h"

/*
 * A Linux version as one number, EP_KVER(6, 12, 117), ordered as the
 * versions are: major and minor below 256, the sublevel below 65536 (stable
 * series pass 255: 4.9.337, 5.4.290), a larger one counted as 65535.
 * EP_KVER_SERIES(v) is v with the sublevel cleared: EP_KVER(6, 12, 0).
 */
#define EP_KVER(major, minor, sub)                                                                 \
	((uint32_t)(major) << 24 | (uint32_t)(minor) << 16 |                                       \
	 ((sub) > 65535 ? 65535u : (uint32_t)(sub)))
#define EP_KVER_MAJOR(v)  ((v) >> 24)
#define EP_KVER_MINOR(v)  (((v) >> 16) & 0xff)
#define EP_KVER_SERIES(v) ((uint32_t)(v) & ~0xffffu)
#define EP_KVER_SUB(v)	  ((uint32_t)(v)&0xffff)

/*
 * Parse the version at the start of s: "6.12", "6.12.117", "v6.1", and so a
 * vermagic "6.12.117+deb12-arm64 SMP mod_unload ..." (the text after the
 * numbers is not looked at).  Returns 0 with *v = EP_KVER(), or -1 when s
 * does not start with MAJOR.MINOR (numbers below 256) or its SUBLEVEL is
 * above 65535.
 */
int ep_kernel_version_parse(const char *s, uint32_t *v);

/* "6.12.117", or "6.1" for sublevel 0, in buf (at least 16 bytes); returns buf. */
const char *ep_kernel_version_text(uint32_t v, char *buf, size_t size);

/* What the user asked for; every model gets all of it and uses what applies. */
struct ep_plt_options {
	bool kaslr;		  /* CONFIG_RANDOMIZE_BASE (arm64-module; default true) */
	bool erratum_843419;	  /* ARM64_WORKAROUND_843419 in effect (default true) */
	unsigned int timing_reps; /* --timing repetitions; 0: no timing */
	/*
	 * The kernel whose loader a kernel-module model follows, EP_KVER();
	 * 0 (--kernel=auto): each module's own vermagic=, else the model's
	 * default.
	 */
	uint32_t kernel;
	/*
	 * --by: models that can record their slot-needing relocations fill
	 * res->sites (struct ep_plt_site); false costs nothing.
	 */
	bool sites;
};

/* Where the modelled kernel version came from. */
enum ep_kernel_from {
	EP_KERNEL_FROM_DEFAULT,	 /* the module has no vermagic=: the model's default */
	EP_KERNEL_FROM_VERMAGIC, /* the module's .modinfo vermagic= */
	EP_KERNEL_FROM_OPTION,	 /* --kernel=VERSION */
	EP_KERNEL_NFROM,
};

/* "default", "vermagic", "option". */
const char *ep_kernel_from_name(enum ep_kernel_from from);

/*
 * The kernel a kernel-module model follows, and how far the model was
 * checked.  ep_plt_kernel_choose() fills it; models that follow no kernel
 * leave it zeroed (applies false).
 */
struct ep_plt_kernel {
	bool applies;		  /* the model follows a kernel version's loader */
	uint32_t version;	  /* EP_KVER() modelled */
	enum ep_kernel_from from; /* where version came from */
	bool mod_unload;    /* CONFIG_MODULE_UNLOAD: "mod_unload" in vermagic (true without one) */
	char vermagic[256]; /* .modinfo's vermagic= value ("" none; cut at 255, cleaned) */
	uint32_t floor;	    /* the oldest version the model follows */
	uint32_t checked_through; /* the newest series it was checked against (sublevel 0) */
	bool below_floor;	  /* version < floor: the floor's rules were applied */
	bool beyond_checked;	  /* version past that series: the newest rules applied */
	/*
	 * The stable sublevel is the kernel's own: false when the vermagic
	 * hides it, as distribution ABI names do ("6.1.0-57-arm64": Debian
	 * and Ubuntu keep X.Y.0 and count ABIs after the "-"), or names none
	 * ("6.1"): version then reads it as 0, and --kernel chooses.  True
	 * from --kernel and for the default.
	 */
	bool sublevel_known;
};

/*
 * Read img's .modinfo vermagic= and choose the kernel to model: --kernel
 * (opt->kernel), else the vermagic's version, else fallback.  floor and
 * checked_through are the model's range (EP_KVER()).  Returns 0, or a
 * negative ep_errcode with err filled when .modinfo cannot be read.
 */
int ep_plt_kernel_choose(struct ep_image *img, const struct ep_plt_options *opt, uint32_t fallback,
			 uint32_t floor, uint32_t checked_through, struct ep_plt_kernel *k,
			 struct ep_error *err);

/*
 * Does the version at the start of s (as ep_kernel_version_parse() reads it)
 * carry the kernel's stable sublevel?  No for "6.1" and for an ABI name
 * "6.1.0-57-arm64" (sublevel 0, then "-" and a number).
 */
bool ep_kernel_sublevel_known(const char *s);

/*
 * The kernel part of a file's text header line, the same for every kernel
 * model: "; kernel 6.12.118 (vermagic)", "(--kernel)", "(default: no
 * vermagic)", "(vermagic 6.1.0-57: sublevel unknown, read as 6.1.0)", then
 * below the floor or beyond the checked series, and ", no mod_unload".  No
 * newline; the model's own options follow (print_rules).
 */
void ep_plt_print_kernel(FILE *out, const struct ep_plt_kernel *k);

/* Does vermagic (its words after the version) contain word? */
bool ep_vermagic_has(const char *vermagic, const char *word);

/*
 * The kinds of space a loader or linker reserves: PLT slots, GOT entries,
 * branch stubs (powerpc64's .stubs), ftrace trampolines.
 */
enum ep_plt_kind {
	EP_PLT_KIND_PLT,
	EP_PLT_KIND_GOT,
	EP_PLT_KIND_STUB,
	EP_PLT_KIND_TRAMPOLINE,
	EP_PLT_NKIND,
};

/* "plt", "got", "stub", "trampoline". */
const char *ep_plt_kind_name(enum ep_plt_kind k);

/*
 * Groups: the kernel's mod->arch.core and mod->arch.init, or the whole
 * file ("module") where the loader or linker has no split.
 */
enum ep_plt_group {
	EP_PLT_CORE,
	EP_PLT_INIT,
	EP_PLT_MODULE,
	EP_PLT_NGROUP,
	EP_PLT_NOGROUP = EP_PLT_NGROUP,
};

/* "core", "init", "module", or NULL for EP_PLT_NOGROUP. */
const char *ep_plt_group_name(enum ep_plt_group g);

/* What a loader reserves, and what it would need with perfect duplicate detection. */
struct ep_plt_count {
	uint64_t reserved;
	uint64_t minimum;
};

/*
 * One relocation section as a model saw it.  Counts are relocations unless
 * said; a field a model does not use stays 0 (veneers .. min_align and
 * leftover are arm64-module only).
 */
struct ep_plt_section {
	size_t index;		     /* the relocation section */
	const char *name;	     /* points into the image */
	size_t target;		     /* sh_info; 0 when the table relocates no one section */
	const char *target_name;     /* "" when target is 0 */
	enum ep_plt_group group;     /* EP_PLT_NOGROUP where the model has no groups */
	uint64_t relocations;	     /* entries: sh_size / sh_entsize */
	uint64_t branch_relocations; /* CALL26/JUMP26 (AArch64), PLT32 (x86-64) */
	/*
	 * Relocations that need a slot: arm64-module: branches the loader
	 * gives a slot; object: branches to undefined symbols; linked:
	 * JUMP_SLOT and IRELATIVE (.rela.plt only).
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
	uint64_t sorted_full;	     /* entries a sort of every relocation sorts */
	uint64_t sorted_partitioned; /* entries the loader sorts (arm64 since v5.8: nents) */
	uint64_t min_align; /* sh_addralign the ADRP rule raises the target to, bytes; 0 none */
	bool leftover;	    /* the partition left a slot-needing entry unsorted */
	/*
	 * arm64-module: slots over the minimum by cause, before the erratum
	 * slack (spare - spare_minimal): a duplicate with a non-zero r_addend
	 * (never merged), a partition leftover that duplicates a sorted entry.
	 */
	uint64_t excess_addend, excess_leftover;
	uint64_t full_ns;	 /* --timing: median ns of the full sort */
	uint64_t partitioned_ns; /* --timing: median ns of partition + sort */
};

/* A section the loader or linker sizes, and the bytes it gives it. */
struct ep_plt_sized {
	const char *name;	   /* ".plt", ".init.plt", ".text.ftrace_trampoline", ... */
	size_t index;		   /* its section, 0 when the file has none */
	enum ep_plt_kind kind;	   /* what it holds */
	enum ep_plt_group group;   /* whose it is */
	struct ep_plt_count bytes; /* sh_size as the loader sets it, and at the minimum */
};

/* The most sections one model sizes. */
#define EP_PLT_MAX_SIZED 8

/*
 * The loader's sort, where it sorts relocations to find duplicates.  Entries
 * are relocations; full is what sorting every relocation of the sections
 * considered costs, loader what the modelled loader sorts, needed the
 * entries that need a slot (what sorting only those would cost).
 */
struct ep_plt_sort {
	bool applies;		    /* the loader sorts */
	uint64_t full;		    /* entries in the sections the loader considers */
	uint64_t loader;	    /* entries the modelled loader sorts */
	uint64_t needed;	    /* entries that need a slot */
	uint64_t sections;	    /* sections the loader considers */
	uint64_t sections_unsorted; /* of those, sections where it sorts nothing */
	uint64_t full_ns;	    /* --timing: sum of the sections' medians, full sort */
	uint64_t partitioned_ns;    /* --timing: the same, sorting only what needs a slot */
};

/*
 * One relocation that needs a slot, an entry or a veneer, as a model saw it
 * (--by attribution, lib/attr.h): which relocation, and what it costs.
 * reserved: the loader gave it a slot of its own (not merged with an
 * earlier one); minimum: it is the first of its target, so it counts in
 * the minimum.  Sums of reserved and minimum over a file's sites are its
 * slots of those kinds less what no relocation causes (fixed slots, slack).
 * 40 bytes: a module tree's sites are hundreds of thousands, each written
 * once by the model and read once per --by table (section indices fit in
 * 32 bits: sh_link and sh_info are Elf32_Word and Elf64_Word).
 */
struct ep_plt_site {
	uint64_t r_offset;	/* in target (ET_REL), else a virtual address */
	int64_t r_addend;	/* RELA's, or decoded by the model; 0 otherwise */
	uint32_t relsec;	/* the relocation section (its sh_link: the symbols) */
	uint32_t target;	/* its sh_info, the section patched; 0 for none */
	uint32_t r_type, r_sym; /* r_sym in relsec's symbol table */
	uint8_t kind;		/* what it needs: an enum ep_plt_kind */
	uint8_t group;		/* whose: an enum ep_plt_group */
	bool reserved;		/* counted by the loader: a slot of its own */
	bool minimum;		/* counted in the minimum: the first of its target */
};

/*
 * One cause of over-allocation (slots.reserved - slots.minimum), in the
 * model's own words; slots is signed (a cause may lower the count).  A
 * model's causes sum to its file's reserved - minimum over every kind.
 */
struct ep_plt_cause {
	const char *name; /* "nonzero_addend", ...; static */
	int64_t slots;	  /* slots or entries */
};

/* The most causes a model names. */
#define EP_PLT_MAX_CAUSES 8

struct ep_plt_model;

/* Everything `elfplt plt` reports for one file, in the shape every model fills. */
struct ep_plt_result {
	const struct ep_plt_model *model; /* NULL: no model covers the file */
	const char *note;		  /* why not, when model is NULL; static */
	struct ep_plt_options opt;
	/* Slots of each kind in each group; sum with ep_plt_result_slots(). */
	struct ep_plt_count slots[EP_PLT_NKIND][EP_PLT_NGROUP];
	/* The sections the loader sizes; sum with ep_plt_result_bytes(). */
	struct ep_plt_sized sized[EP_PLT_MAX_SIZED];
	size_t nsized;
	struct ep_plt_sort sort;
	const char *rejects; /* why the loader refuses the file, in its words; or NULL */
	char rejects_text[96]; /* where rejects points when the words carry a number */
	struct ep_warnings warnings; /* lib/xref.h's checks of the file's tables */
	struct ep_plt_kernel kernel;
	struct ep_plt_section *secs;
	size_t nsecs;
	void *detail; /* the model's own, malloc()ed, freed by ep_plt_result_free() */
	/*
	 * With opt.sites, the relocations the model attributes (when it
	 * records them: sites_recorded), in the order it met them;
	 * malloc()ed, freed by ep_plt_result_free().
	 */
	bool sites_recorded;
	struct ep_plt_site *sites;
	size_t nsites, sites_cap;
};

/*
 * Append a zeroed site to res (model files, under opt.sites).  Returns it,
 * or NULL when out of memory.
 */
struct ep_plt_site *ep_plt_site_add(struct ep_plt_result *res);

/*
 * ep_plt_site_add() with the site's relocation filled in from relocation r
 * of section s: relsec, target, r_offset, r_type, r_sym, r_addend (the
 * kind, group and marks are the model's to set).  NULL when out of memory.
 */
struct ep_plt_site *ep_plt_site_of(struct ep_plt_result *res, const struct ep_plt_section *s,
				   const struct ep_rel *r);

/*
 * The over-allocation of res by cause into out[0..EP_PLT_MAX_CAUSES):
 * the model's causes hook, or none when it has none (its reserved equals
 * its minimum).  Returns how many.
 */
size_t ep_plt_causes(const struct ep_plt_result *res, struct ep_plt_cause *out);

/* Slots (of every kind and group) and bytes (of every section sized) of res. */
struct ep_plt_count ep_plt_result_slots(const struct ep_plt_result *res);
struct ep_plt_count ep_plt_result_bytes(const struct ep_plt_result *res);

/*
 * Record a section the loader sizes.  Returns it, or NULL when the model
 * sizes more than EP_PLT_MAX_SIZED (a bug in the model).
 */
struct ep_plt_sized *ep_plt_sized_add(struct ep_plt_result *res, const char *name, size_t index,
				      enum ep_plt_kind kind, enum ep_plt_group group);

/*
 * The model-specific sums a model keeps over files (struct ep_plt_totals'
 * detail[]): plain counts, added element by element.
 */
#define EP_PLT_DETAIL_SUMS 12

/*
 * Sums over the files of one model (or of all).  Plain old data, so a worker
 * process can hand a file's share through a pipe.
 */
struct ep_plt_totals {
	uint64_t files;
	uint64_t relocations; /* in the sections the model looked at */
	uint64_t rejected;    /* files the loader refuses */
	struct ep_plt_count slots[EP_PLT_NKIND][EP_PLT_NGROUP];
	struct ep_plt_count bytes[EP_PLT_NKIND][EP_PLT_NGROUP];
	struct ep_plt_sort sort;	       /* applies: some file's loader sorts */
	uint64_t kernel_from[EP_KERNEL_NFROM]; /* files by where their kernel came from */
	uint64_t below_floor, beyond_checked;  /* files modelled outside the checked range */
	uint32_t kernel_oldest, kernel_newest; /* EP_KVER() modelled; 0: none */
	uint64_t detail[EP_PLT_DETAIL_SUMS];   /* the model's own (model->detail_sums) */
};

/* One file's share of the totals, in *t (zeroed here). */
void ep_plt_totals_of(const struct ep_plt_result *res, struct ep_plt_totals *t);

/* Add the totals from to those of to. */
void ep_plt_totals_add(struct ep_plt_totals *to, const struct ep_plt_totals *from);

/*
 * "  kernels: 6.1 to 6.12.117 (12 from vermagic, 1 from --kernel)" without
 * the newline, for a kernel model's print_totals(); nothing when no file
 * was modelled at a kernel version.
 */
void ep_plt_print_kernels(FILE *out, const struct ep_plt_totals *t);

/* The JSON of ep_plt_print_kernels(): {oldest, newest, from {...}, below_floor, beyond_checked}. */
json_t *ep_plt_json_kernels(const struct ep_plt_totals *t);

/* Sum of a totals' slots or bytes over every kind and group. */
struct ep_plt_count ep_plt_totals_sum(const struct ep_plt_count (*c)[EP_PLT_NGROUP]);

/*
 * A column of a model's section table: a shared cell, or the model's own
 * value (EP_PLT_COL_VALUE, through value()).
 */
enum ep_plt_col {
	EP_PLT_COL_INDEX,	/* "[12]" */
	EP_PLT_COL_NAME,	/* the relocation section's name */
	EP_PLT_COL_TARGET,	/* "[11] .text", or "-" */
	EP_PLT_COL_GROUP,	/* "core", "init", or "-" */
	EP_PLT_COL_RELOCATIONS, /* relocations */
	EP_PLT_COL_BRANCHES,	/* branch_relocations */
	EP_PLT_COL_GOT,		/* got_relocations */
	EP_PLT_COL_NEED,	/* plt_relocations, "*" after it on a partition leftover */
	EP_PLT_COL_SLOTS,	/* slots */
	EP_PLT_COL_MINIMAL,	/* slots_minimal */
	EP_PLT_COL_SORT_FULL,	/* sorted_full */
	EP_PLT_COL_SORT_LOADER, /* sorted_partitioned */
	EP_PLT_COL_FULL_NS,	/* --timing only: full_ns */
	EP_PLT_COL_PART_NS,	/* --timing only: partitioned_ns */
	EP_PLT_COL_VALUE,	/* value(s) */
};

struct ep_plt_column {
	const char *header;
	enum ep_plt_col col;
	uint64_t (*value)(const struct ep_plt_section *s); /* EP_PLT_COL_VALUE only */
};

/*
 * A model: what it follows, when it applies, how it counts, and how it shows
 * what is its own.  check() returns NULL when the model applies to img, else
 * a one-line reason; forced is true under --model (looser: e.g. an AArch64
 * ET_REL that is not a module may still be counted as one).  analyse() fills
 * res (zeroed by the caller, model and opt set) and returns 0 or a negative
 * ep_errcode with err filled.  The hooks below analyse() may be NULL.
 */
struct ep_plt_model {
	const char *name;	/* "arm64-module", "linked", "object" */
	const char *source;	/* what it follows, for people and the JSON */
	const char *one, *many; /* how text names its files: "arm64 module", "arm64 modules" */
	const char *(*check)(const struct ep_image *img, bool forced);
	int (*analyse)(struct ep_image *img, struct ep_plt_result *res, struct ep_error *err);

	/* Text: the section table's columns, in order (timing ones are dropped without --timing). */
	const struct ep_plt_column *columns;
	size_t ncolumns;
	/* Text: a file's summary line, the path's header first, then nsummary - 1 figures. */
	const char *const *summary;
	size_t nsummary;	/* at most 9 */
	size_t nsummary_timing; /* of those, the last ones that need --timing */
	void (*summary_values)(const struct ep_plt_result *res, uint64_t *v);
	/* Text: the tail of a file's header line, after ep_plt_print_kernel()'s part. */
	void (*print_rules)(FILE *out, const struct ep_plt_result *res);
	/* Text: a file's lines after its section table. */
	void (*print_detail)(FILE *out, const struct ep_plt_result *res);
	/* Text: the block of the model's totals, t its files' sums. */
	void (*print_totals)(FILE *out, const struct ep_plt_totals *t, unsigned int timing_reps);

	/* JSON: keys added to the file's "rules" object (kernel models). */
	json_t *(*json_rules)(const struct ep_plt_result *res);
	/* JSON: the file's "detail" object. */
	json_t *(*json_detail)(const struct ep_plt_result *res);
	/* JSON: a section's "detail" object. */
	json_t *(*json_section)(const struct ep_plt_result *res, const struct ep_plt_section *s);
	/* Totals: the file's own sums, EP_PLT_DETAIL_SUMS counts, and their JSON. */
	void (*detail_sums)(const struct ep_plt_result *res, uint64_t *sums);
	json_t *(*json_totals)(const struct ep_plt_totals *t);
	/*
	 * --by=cause: the file's over-allocation by cause into
	 * out[0..EP_PLT_MAX_CAUSES), returning how many; NULL for a model
	 * that never over-allocates.
	 */
	size_t (*causes)(const struct ep_plt_result *res, struct ep_plt_cause *out);
};

/* The models in the order automatic choice tries them; NULL-terminated. */
extern const struct ep_plt_model *const ep_plt_models[];

/* How many models ep_plt_models[] lists. */
size_t ep_plt_model_count(void);

/* The model called name, or NULL. */
const struct ep_plt_model *ep_plt_model_find(const char *name);

/* The index of m in ep_plt_models[], or -1. */
int ep_plt_model_index(const struct ep_plt_model *m);

/* The models' names, ", "-separated with "or" before the last, for messages. */
const char *ep_plt_model_names(void);

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

/* Free what ep_plt_analyse() allocated in res (its sections, the model's detail). */
void ep_plt_result_free(struct ep_plt_result *res);

/*
 * Append a zeroed section record to res.  Returns it, or NULL when out of
 * memory.  For the model files.
 */
struct ep_plt_section *ep_plt_section_add(struct ep_plt_result *res);

/*
 * Read every relocation of relocation section idx into *out (malloc()ed,
 * the caller frees it) with rs opened on it.  Returns 0, or a negative
 * ep_errcode with err filled.  For the model files.
 */
int ep_plt_read_section(struct ep_image *img, size_t idx, struct ep_relsec *rs, struct ep_rel **out,
			struct ep_error *err);

#endif
