/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_STATS_H
#define ELFPLT_STATS_H

/*
 * Relocation statistics for `elfplt stats`.  The counting functions take
 * normalised relocations (struct ep_rel) and plain numbers, so tests drive
 * them without files; ep_stats_file() walks one image and feeds them.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/elf.h"
#include "lib/reloc.h"
#include "lib/warning.h"

/*
 * Counts by r_type: what a relocation table holds of each type.  An
 * open-addressing hash table keyed by r_type (linear probing, a power-of-two
 * number of slots, at most three quarters full), so a table of a few types
 * costs a few slots to clear, merge and sort however large the r_type values
 * are.  A zeroed struct is an empty table.
 */
struct ep_type_counts {
	struct ep_type_count *slots; /* cap entries; count 0 marks a free slot */
	size_t cap;		     /* slots: 0 or a power of two */
	size_t n;		     /* slots in use: distinct types with a non-zero count */
};

struct ep_type_count {
	uint32_t r_type;
	uint64_t count; /* relocations */
};

/* Add n relocations of r_type (n 0 adds nothing).  Returns 0, or -EP_ENOMEM. */
int ep_type_counts_add(struct ep_type_counts *tc, uint32_t r_type, uint64_t n);

/* Relocations of r_type counted so far (0 when none). */
uint64_t ep_type_counts_get(const struct ep_type_counts *tc, uint32_t r_type);

/* dst += src.  Returns 0, or -EP_ENOMEM. */
int ep_type_counts_merge(struct ep_type_counts *dst, const struct ep_type_counts *src);

/*
 * The non-zero counts as a new array (free() it) sorted by count, largest
 * first, ties by r_type; *n gets its length.  Returns NULL only when out of
 * memory (with *n 0 there is nothing to free, and the result may be NULL).
 */
struct ep_type_count *ep_type_counts_sorted(const struct ep_type_counts *tc, size_t *n);

/* Free the table; tc is then empty and still usable. */
void ep_type_counts_free(struct ep_type_counts *tc);

/* What a relocation's symbol is, relative to the section it relocates. */
enum ep_symclass {
	EP_SYM_NONE,	      /* r_sym 0: no symbol */
	EP_SYM_UNDEF,	      /* st_shndx SHN_UNDEF */
	EP_SYM_SAME_SECTION,  /* defined in the relocation's target section */
	EP_SYM_OTHER_SECTION, /* defined in another section */
	EP_SYM_ABS_COMMON,    /* st_shndx SHN_ABS, SHN_COMMON or another reserved index */
	EP_SYM_UNKNOWN,	      /* the section's symbol table is unreadable (lib/xref.h) */
	EP_SYM_NCLASS
};

/* JSON/text key of a class: "none", "undefined", "same_section", ... */
const char *ep_symclass_name(enum ep_symclass c);

/*
 * Class of a relocation with symbol r_sym, in a relocation section whose
 * sh_info is target.  st_shndx is the symbol's field as stored
 * (ep_symtab_st_shndx()): a reserved index there (SHN_LORESERVE to
 * SHN_HIRESERVE, but SHN_XINDEX) is absolute or common; shndx is its section
 * index with SHN_XINDEX resolved (ep_symtab_shndx()), compared with target.
 * A section numbered 0xff00 or above is no reserved index: its symbols have
 * st_shndx SHN_XINDEX and the number in SHT_SYMTAB_SHNDX (gABI).
 */
enum ep_symclass ep_symclass_of(uint32_t r_sym, uint32_t st_shndx, uint32_t shndx, size_t target);

/*
 * The dynamic relocation kinds of linked files, by the psABI name's suffix
 * (R_X86_64_JUMP_SLOT and R_PPC64_JMP_SLOT are both JUMP_SLOT).
 */
enum ep_dynkind {
	EP_DYN_RELATIVE,
	EP_DYN_GLOB_DAT,
	EP_DYN_JUMP_SLOT,
	EP_DYN_IRELATIVE,
	EP_DYN_OTHER,
	EP_DYN_NKIND
};

/* "relative", "glob_dat", "jump_slot", "irelative", "other". */
const char *ep_dynkind_name(enum ep_dynkind k);

/* Kind of r_type on e_machine. */
enum ep_dynkind ep_dynkind_of(unsigned int e_machine, uint32_t r_type);

/* One relocation section of a file. */
struct ep_relsec_stats {
	size_t index;
	const char *name; /* points into the image */
	enum ep_relkind kind;
	uint64_t entries;	 /* table entries (RELR: words) */
	uint64_t relocations;	 /* relocations (RELR: decoded; else = entries) */
	size_t target;		 /* sh_info; 0 for none */
	const char *target_name; /* "" when target is 0 */
	bool target_exec;	 /* target has SHF_EXECINSTR */
	size_t symtab;		 /* sh_link */
	bool dynamic;		 /* SHF_ALLOC: applied by the dynamic loader */
	uint64_t bytes;		 /* sh_size: bytes in the file */
	uint32_t ch_type;	 /* SHF_COMPRESSED: its ch_type; 0 if not compressed */
	uint64_t decoded_bytes;	 /* ch_size if compressed, else sh_size */
	struct ep_type_counts types;
	uint64_t by_symclass[EP_SYM_NCLASS];
	uint64_t crel_bytes; /* REL/RELA/CREL: bytes as LLVM would encode it as
			      * CREL (ep_crel_sizer); RELR: sh_size */
};

/*
 * What the REL, RELA and CREL sections of a file (or a run) take, and what
 * they would take encoded as CREL the way LLVM's assembler writes it (lib/crel.h:
 * ep_crel_sizer, in each table's order).  RELR sections are not included:
 * they stay RELR (see struct ep_dyn_stats for what RELR would save).
 */
struct ep_crel_cost {
	uint64_t sections;   /* REL, RELA and CREL sections */
	uint64_t bytes;	     /* their sh_size, summed: bytes in the file */
	uint64_t crel_bytes; /* the same tables as CREL, summed */
};

/* dst += src. */
void ep_crel_cost_add(struct ep_crel_cost *dst, const struct ep_crel_cost *src);

/* Dynamic relocations of an ET_EXEC/ET_DYN file (SHF_ALLOC sections). */
struct ep_dyn_stats {
	uint64_t by_kind[EP_DYN_NKIND]; /* relocations */
	uint64_t relative_in_rel;	/* RELATIVE entries in REL/RELA tables */
	uint64_t relative_in_rel_bytes; /* bytes those entries take */
	uint64_t relr_packable;		/* of those, at word-aligned places */
	uint64_t relr_packed_bytes;	/* bytes SHT_RELR would take for them */
	int64_t relr_savings_bytes;	/* packable entries' bytes - packed bytes */
	uint64_t relr_present;		/* relocations already in SHT_RELR */
	uint64_t relr_present_bytes;	/* sh_size of the SHT_RELR sections */
};

/* Sizes the way size(1)'s Berkeley format sums SHF_ALLOC sections, bytes. */
struct ep_sizes {
	uint64_t text; /* executable or read-only */
	uint64_t data; /* writable with contents */
	uint64_t bss;  /* writable SHT_NOBITS */
};

/* SHF_COMPRESSED sections: how many, and their bytes both ways. */
struct ep_compressed_count {
	uint64_t count;		/* sections */
	uint64_t bytes;		/* sh_size summed: Elf*_Chdr and stream, as in the file */
	uint64_t decoded_bytes; /* ch_size summed */
};

/* Highest ch_type ep_image_open() accepts. */
#define EP_CHTYPE_MAX ELFCOMPRESS_ZSTD

struct ep_compressed_sizes {
	struct ep_compressed_count all;
	struct ep_compressed_count by_type[EP_CHTYPE_MAX + 1]; /* by ch_type; [0] unused */
};

/* Everything `elfplt stats` reports for one file. */
struct ep_file_stats {
	bool kernel_module;
	uint64_t relocations; /* all relocation sections */
	struct ep_relsec_stats *secs;
	size_t nsecs;
	struct ep_type_counts types;
	uint64_t by_symclass[EP_SYM_NCLASS];
	uint64_t distinct_symbols; /* symbols referenced, per symbol table, summed */
	bool linked;		   /* ET_EXEC or ET_DYN: dyn is filled */
	struct ep_dyn_stats dyn;
	struct ep_sizes sizes;
	struct ep_compressed_sizes compressed;
	struct ep_crel_cost crel; /* REL/RELA/CREL bytes today and as CREL */
	bool from_dynamic; /* no section headers: secs[] are PT_DYNAMIC's tables,
			    * named by tag ("DT_RELA"), index 0 (lib/dynamic.h) */
	struct ep_warnings warnings; /* what is wrong but did not stop the counts */
};

/*
 * Sizes of img's SHF_ALLOC sections as binutils size(1) -B sums them:
 * executable or not writable -> text; writable with contents -> data;
 * writable SHT_NOBITS -> bss.
 */
void ep_sizes_of(const struct ep_image *img, struct ep_sizes *sz);

/*
 * img's SHF_COMPRESSED sections from their headers (checked by
 * ep_image_open()), whatever they hold: nothing is decoded.
 */
void ep_compressed_of(const struct ep_image *img, struct ep_compressed_sizes *c);

/* dst += src. */
void ep_compressed_add(struct ep_compressed_sizes *dst, const struct ep_compressed_sizes *src);

/*
 * Count relocations r[0..n) of one section into s: by type (MIPS64's
 * r_type2 and r_type3 too, each when not R_MIPS_NONE, so the counts by type
 * may sum to more than n), and by symbol
 * class using st, the section's symbol table (empty when sh_link is 0; every
 * r_sym is then 0, which ep_relsec_next() has checked; with no data but a
 * count, one ep_xref_relsec_open() could not read: every r_sym but 0 is
 * EP_SYM_UNKNOWN).  Marks each
 * referenced symbol's bit in seen (a bitmap of st->count bits, or NULL).
 * Returns 0 or -EP_ENOMEM.
 */
int ep_stats_count(struct ep_relsec_stats *s, const struct ep_rel *r, size_t n,
		   const struct ep_symtab *st, uint64_t *seen);

/*
 * Compute fs for img.  Returns 0, or a negative ep_errcode with err filled
 * from ep_relsec_open()/ep_relsec_next() (a malformed relocation section
 * makes the whole file fail: its counts would be wrong) or EP_ENOMEM.
 * A linked file without section headers is counted from its PT_DYNAMIC
 * tables (ep_dynamic_read()'s errors); one with them has its PT_DYNAMIC
 * compared with them, a disagreement or an unreadable PT_DYNAMIC a
 * warning in fs->warnings ("dynamic_mismatch", "dynamic_unreadable").
 */
int ep_stats_file(struct ep_image *img, struct ep_file_stats *fs, struct ep_error *err);

/* Free what ep_stats_file() allocated. */
void ep_stats_free(struct ep_file_stats *fs);

#endif
