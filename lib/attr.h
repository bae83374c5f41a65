/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_ATTR_H
#define ELFPLT_ATTR_H

/*
 * Attribution for `elfplt plt --by` and `elfplt stats --by`: the sites a
 * PLT model recorded (struct ep_plt_site), or a file's relocations, counted
 * by the symbol they reference (callee), the function whose code holds
 * them (caller: the symbol table's STT_FUNC ranges), the compile unit or
 * the source line (DWARF through lib/dwarf.h), and a model's
 * over-allocation by cause.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/dwarf.h"
#include "lib/elf.h"
#include "lib/error.h"
#include "lib/plt.h"

/* What to attribute to; a mask, several may be asked at once. */
enum ep_attr_by {
	EP_BY_CALLEE = 1 << 0,	/* plt: the symbol branched to */
	EP_BY_CALLER = 1 << 1,	/* plt: the function holding the call site */
	EP_BY_CU = 1 << 2,	/* plt, stats: the compile unit (DWARF) */
	EP_BY_LINE = 1 << 3,	/* plt: the source file and line (DWARF) */
	EP_BY_CAUSE = 1 << 4,	/* plt: the over-allocation by the model's causes */
	EP_BY_SYMBOL = 1 << 5,	/* stats: the symbol a relocation references */
	EP_BY_SECTION = 1 << 6, /* stats: the section a relocation patches */
	EP_BY_NBY = 7,
};

/* "callee", "caller", "cu", "line", "cause", "symbol", "section" for one bit. */
const char *ep_attr_by_name(unsigned int bit);

/*
 * Parse --by's comma-separated names among those allowed (a mask) into
 * *by.  Returns 0, or -1 when a name is not one of them.
 */
int ep_attr_parse(const char *arg, unsigned int allowed, unsigned int *by);

/* One row: what the sites share (name), how many, and the slots they cost. */
struct ep_attr_row {
	const char *name;  /* in its table's names; "unknown" without debug info */
	uint64_t sites;	   /* relocations (plt: slot-needing call sites) */
	uint64_t reserved; /* plt: slots the loader reserves for them */
	uint64_t minimum;  /* plt: slots in the minimum */
};

/* A table of rows, sorted by reserved (stats: sites), then sites, descending, then name. */
struct ep_attr_table {
	unsigned int by; /* one EP_BY_ bit */
	struct ep_attr_row *rows;
	size_t nrows;
	char *names; /* the rows' names, NUL-terminated, one after another; malloc()ed */
};

/* A file's attribution. */
struct ep_attr {
	struct ep_attr_table tables[EP_BY_NBY];
	size_t ntables;
	bool cause; /* --by=cause asked: causes[] */
	struct ep_plt_cause causes[EP_PLT_MAX_CAUSES];
	size_t ncauses;
	struct ep_plt_count slots; /* plt: the file's reserved and minimum, every kind */
	bool sites_recorded;	   /* plt: the model recorded its sites */
	bool sites_asked;	   /* plt: callee, caller, cu or line asked */
	bool dwarf_asked;	   /* cu or line asked */
	bool dwarf_missing;	   /* ... and the file has no DWARF */
	char *debug_file;	   /* the file the DWARF came from, malloc()ed, or NULL */
	char debug_warning[512];   /* why --debug-file was not usable (one line), or "" */
};

/*
 * Attribute the sites res recorded (ep_plt_analyse() with opt.sites) by
 * each of by's bits.  img is the file res describes; dopt where its debug
 * info is.  Fills *a (free with ep_attr_free()).  Returns 0, or a negative
 * ep_errcode with err filled: EP_ENOMEM, EP_EMALFORMED for a symbol or
 * string table the names cannot be read from.
 */
int ep_attr_plt(struct ep_image *img, const struct ep_plt_result *res, unsigned int by,
		const struct ep_dwarf_options *dopt, struct ep_attr *a, struct ep_error *err);

/*
 * Attribute every relocation of img's SHT_REL, SHT_RELA (and CREL/RELR
 * sections lib/reloc.h reads) by symbol (the name of r_sym; linked files:
 * the dynamic relocations per symbol), section (the section patched: sh_info
 * for ET_REL, the section holding r_offset for a dynamic table) or cu
 * (ET_REL: the compile unit holding r_offset).  rows count relocations
 * (sites); reserved and minimum stay 0.  Same returns as ep_attr_plt().
 */
int ep_attr_stats(struct ep_image *img, unsigned int by, const struct ep_dwarf_options *dopt,
		  struct ep_attr *a, struct ep_error *err);

/* Free what ep_attr_plt() or ep_attr_stats() allocated; a may be zeroed. */
void ep_attr_free(struct ep_attr *a);

#endif
