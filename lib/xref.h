/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_XREF_H
#define ELFPLT_XREF_H

/*
 * The links between an image's tables, checked without giving up on the
 * file: what is wrong becomes a warning (lib/warning.h) naming the section
 * and the entry, and what does not depend on the broken link is still
 * counted.  The gABI's rules ("Sections", "Symbol Table", "Relocation"):
 * section 0 is all zeros but for the extended numbers (sh_size e_shnum,
 * sh_link e_shstrndx, sh_info e_phnum); a symbol table's sh_info is one
 * more than its last STB_LOCAL symbol, its sh_link an SHT_STRTAB that ends
 * in NUL, each st_name inside that table and each st_shndx a section or a
 * reserved index (SHN_XINDEX: through SHT_SYMTAB_SHNDX); a relocation
 * section's sh_link is its symbol table and its sh_info the section it
 * relocates.
 */

#include <stdbool.h>

#include "lib/elf.h"
#include "lib/reloc.h"
#include "lib/warning.h"

/*
 * Check section 0 and every SHT_SYMTAB/SHT_DYNSYM of img, adding a warning
 * to w for each fault (codes "section0_nonzero", "symtab_info",
 * "symtab_local_order", "symtab_unreadable", "strtab_unterminated",
 * "symbol_name", "symbol_shndx").  A symbol table ep_symtab_open() refuses
 * is one "symtab_unreadable" warning.  Reads only; nothing fails.
 */
void ep_xref_check(struct ep_image *img, struct ep_warnings *w);

/*
 * Open relocation section idx as ep_relsec_open() does; where that fails
 * only because sh_info is not a section other than idx, or sh_link is not
 * a readable symbol table, open it anyway with a warning ("reloc_info",
 * "reloc_link"): without a target (rs->target 0) or without symbols
 * (rs->symtab empty with count 2^32 and data NULL, *symbols_unknown true:
 * every r_sym passes and none can be classed).  Any other fault is
 * ep_relsec_open()'s error.
 */
int ep_xref_relsec_open(struct ep_image *img, size_t idx, struct ep_relsec *rs,
			bool *symbols_unknown, struct ep_warnings *w, struct ep_error *err);

#endif
