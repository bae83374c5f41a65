/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_RELOC_H
#define ELFPLT_RELOC_H

/*
 * Relocation and symbol tables as normalised records.  SHT_REL, SHT_RELA,
 * SHT_RELR (the gABI's packed relative relocations) and SHT_CREL (LLVM's
 * compact relocations, lib/crel.h) all come out as struct ep_rel, so
 * counting code never looks at the file's layout.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/crel.h"
#include "lib/elf.h"

#ifndef SHT_RELR
#define SHT_RELR 19
#endif

/* One relocation, whatever table it came from. */
struct ep_rel {
	uint64_t r_offset; /* place: section offset (ET_REL) or address */
	uint32_t r_type;   /* ELF*_R_TYPE(r_info) */
	uint32_t r_sym;	   /* ELF*_R_SYM(r_info), checked < the symbol count */
	int64_t r_addend;  /* SHT_RELA's (or SHT_CREL's) r_addend; 0 otherwise */
	bool has_addend;   /* false for SHT_REL/SHT_RELR (and a CREL table
			    * without its header's addend bit): the addend is in
			    * the place */
	uint8_t r_type2;   /* EM_MIPS ELFCLASS64 only: the second and third */
	uint8_t r_type3;   /* types of the entry (0, R_MIPS_NONE, elsewhere) */
};

enum ep_relkind { EP_RELKIND_REL, EP_RELKIND_RELA, EP_RELKIND_RELR, EP_RELKIND_CREL };

/* "REL", "RELA", "RELR", "CREL" (the section types without SHT_). */
const char *ep_relkind_name(enum ep_relkind kind);

/*
 * The section type (sh_type) a kind is read from: SHT_REL, SHT_RELA,
 * SHT_RELR, for reports' {"name": "SHT_RELA", "value": 4} enumerations.
 */
uint32_t ep_relkind_sh_type(enum ep_relkind kind);

/* A symbol table (SHT_SYMTAB or SHT_DYNSYM) with its SHT_SYMTAB_SHNDX, if any. */
struct ep_symtab {
	size_t index;	       /* section index; 0 when the table is absent */
	size_t count;	       /* symbols, including the null symbol 0 */
	Elf_Data *data;	       /* elf_getdata() of the table */
	Elf_Data *shndx;       /* Elf32_Word per symbol, or NULL */
	unsigned int elfclass; /* ELFCLASS32 or ELFCLASS64 */
};

/*
 * Open section idx of img as a symbol table.  idx 0 gives an empty table.
 * Errors (EP_EMALFORMED, naming the section): not SHT_SYMTAB/SHT_DYNSYM,
 * sh_entsize not the class's Elf*_Sym size, the contents' size (sh_size, or
 * ch_size when SHF_COMPRESSED, decoded here) not a multiple of it, sh_link
 * not an SHT_STRTAB section (gABI: the symbol names' table), an
 * SHT_SYMTAB_SHNDX with fewer entries than symbols, or a symbol whose
 * st_shndx is SHN_XINDEX when no SHT_SYMTAB_SHNDX links to the table
 * (checked once per table and image).  A compressed table is decoded here:
 * ep_section_data()'s errors.
 */
int ep_symtab_open(struct ep_image *img, size_t idx, struct ep_symtab *st, struct ep_error *err);

/*
 * Symbol sym's section index with SHN_XINDEX resolved through
 * SHT_SYMTAB_SHNDX: SHN_UNDEF, SHN_ABS, SHN_COMMON, another reserved index,
 * or a section index (not checked against e_shnum).  sym < st->count.
 */
uint32_t ep_symtab_shndx(const struct ep_symtab *st, size_t sym);

/*
 * Symbol sym's st_shndx as stored, SHN_XINDEX not resolved: what tells a
 * reserved index (SHN_ABS, SHN_COMMON, ...; gABI: SHN_LORESERVE to
 * SHN_HIRESERVE, SHN_XINDEX excepted) from a section numbered 0xff00 or
 * above, which is only ever reached through SHN_XINDEX.  sym < st->count.
 */
uint32_t ep_symtab_st_shndx(const struct ep_symtab *st, size_t sym);

/* A relocation section, checked and ready to iterate. */
struct ep_relsec {
	struct ep_image *img;
	size_t index; /* the relocation section's index */
	enum ep_relkind kind;
	size_t entries;		 /* table entries: sh_size (SHF_COMPRESSED: ch_size)
				  * / sh_entsize; CREL: the header's count */
	size_t count;		 /* relocations; for RELR decoded from the bitmaps */
	size_t target;		 /* sh_info: section relocated; 0 for none */
	struct ep_symtab symtab; /* sh_link's table (empty for RELR) */
	Elf_Data *data;
	uint32_t relr_type; /* RELR: the machine's *_RELATIVE type, or 0 */
	struct ep_crel_header crel; /* CREL: the header, checked */
};

/* SHT_REL, SHT_RELA, SHT_RELR or SHT_CREL. */
bool ep_is_relsec(const GElf_Shdr *sh);

/*
 * Open relocation section idx of img.  Checks, each an EP_EMALFORMED naming
 * the section: sh_entsize is the class's Elf*_Rel/Elf*_Rela/Elf*_Relr size
 * and the contents' size (sh_size, or ch_size when SHF_COMPRESSED) a
 * multiple of it; sh_info < e_shnum and not idx itself; sh_link a symbol
 * table (or 0).  An SHF_COMPRESSED table, or symbol table, is decoded here
 * (ep_section_data(), with its errors), once per image.
 * r_sym is checked while reading, by ep_relsec_next().  RELR bitmaps are
 * decoded once here to count them (no allocation); a bitmap before any
 * address counts from address 0, as glibc, the kernel and readelf do.
 * SHT_CREL (any sh_entsize: LLVM writes 1) is decoded once here to check
 * it: a header or entry that runs past the section (nothing is read past
 * it), a LEB128 wider than 64 bits, a count larger than the bytes after the
 * header, or bytes left after the last entry, each an EP_EMALFORMED naming
 * the section ("CREL relocation 5: type delta runs past the section").
 */
int ep_relsec_open(struct ep_image *img, size_t idx, struct ep_relsec *rs, struct ep_error *err);

/* Position in a relocation section; zero it to start. */
struct ep_rel_cursor {
	size_t entry;	    /* next table entry */
	uint64_t relr_base; /* RELR: address the next bitmap starts at */
	struct ep_crel_state crel; /* CREL: the running sums */
};

/* Records ep_relsec_next() needs room for at least (one RELR bitmap). */
#define EP_REL_BATCH_MIN 64

/*
 * Decode the next relocations of rs into out[0..n), n >= EP_REL_BATCH_MIN.
 * Returns how many (0 at the end), or a negative ep_errcode with err filled
 * when an r_sym is not below the symbol table's count (EP_EMALFORMED).
 */
ssize_t ep_relsec_next(const struct ep_relsec *rs, struct ep_rel_cursor *cur, struct ep_rel *out,
		       size_t n, struct ep_error *err);

/*
 * Decode all of rs into a new array (free() it) of rs->count records; the
 * scratch copy models that need to sort use.  Same errors as
 * ep_relsec_next(), plus EP_ENOMEM.
 */
int ep_relsec_read_all(const struct ep_relsec *rs, struct ep_rel **out, struct ep_error *err);

/*
 * Relocation type names, generated from <elf.h> (see lib/gen-reloc-names.sh).
 * ep_reloc_type_name(): "R_AARCH64_CALL26", or NULL when <elf.h> has no name
 * for that type on that machine.  Where two names share a value the one
 * <elf.h> defines first is used.
 * ep_reloc_type_kind(): the name without its machine prefix ("CALL26",
 * "JUMP_SLOT"), or NULL.
 * ep_reloc_type_by_kind(): the type whose name is the machine's prefix plus
 * kind ("RELATIVE" -> R_AARCH64_RELATIVE); returns true and sets *r_type if
 * <elf.h> has one.
 */
const char *ep_reloc_type_name(unsigned int e_machine, uint32_t r_type);
const char *ep_reloc_type_kind(unsigned int e_machine, uint32_t r_type);
bool ep_reloc_type_by_kind(unsigned int e_machine, const char *kind, uint32_t *r_type);

/*
 * Bytes the RELR encoding of the sorted, distinct addresses addr[0..n) takes
 * (the greedy address + bitmap encoding of the gABI, as lld and GNU ld emit
 * it), for words of word_size bytes (4 or 8).  Every address must be a
 * multiple of word_size.
 */
uint64_t ep_relr_encoded_size(const uint64_t *addr, size_t n, unsigned int word_size);

#endif
