/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_DYNAMIC_H
#define ELFPLT_DYNAMIC_H

/*
 * The dynamic relocation tables of a linked file (ET_EXEC, ET_DYN) as the
 * dynamic loader finds them: through the PT_DYNAMIC program header's tags
 * (gABI "Dynamic Section": DT_RELA/DT_RELASZ/DT_RELAENT, DT_REL/DT_RELSZ/
 * DT_RELENT, DT_JMPREL/DT_PLTRELSZ/DT_PLTREL, DT_RELR/DT_RELRSZ/DT_RELRENT,
 * DT_SYMTAB/DT_SYMENT), each address mapped to a file offset through the
 * PT_LOAD segment that holds it, as glibc's loader does with l_addr.  This
 * is the only way to the relocations of a file without section headers
 * (llvm-objcopy --strip-sections, sstrip), and a cross-check of the
 * section headers where both exist.  Everything is read with gelf
 * (gelf_getphdr(), gelf_getdyn()) over elf_getdata_rawchunk(), which
 * converts byte order into its own buffer: nothing is written to the image.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/elf.h"
#include "lib/reloc.h"
#include "lib/warning.h"

/* The tables, in the order glibc's loader applies them (RELR last). */
enum ep_dyntab { EP_DT_REL, EP_DT_RELA, EP_DT_JMPREL, EP_DT_RELR, EP_DT_NTAB };

/* One table the dynamic tags describe. */
struct ep_dyntable {
	bool present;	      /* its address tag (DT_RELA, ...) is in PT_DYNAMIC */
	const char *tag;      /* "DT_REL", "DT_RELA", "DT_JMPREL", "DT_RELR" */
	const char *size_tag; /* "DT_RELSZ", "DT_RELASZ", "DT_PLTRELSZ", "DT_RELRSZ" */
	enum ep_relkind kind; /* for DT_JMPREL, DT_PLTREL's */
	uint64_t addr;	      /* the address tag's d_ptr */
	uint64_t bytes;	      /* the size tag's d_val (DT_RELA's less a DT_JMPREL
			       * table at its end, see ep_dynamic_read()) */
	uint64_t entsize;     /* bytes per entry: the class's Elf*_Rel, _Rela, _Relr */
	uint64_t offset;      /* file offset of addr */
	size_t load;	      /* index of the PT_LOAD program header holding it */
	Elf_Data *data;	      /* libelf's rawchunk: Elf*_Rel/_Rela in host order,
			       * RELR as the file has it; NULL when bytes is 0 */
};

struct ep_dynamic {
	bool present;	 /* the file has a PT_DYNAMIC program header */
	size_t phdr;	 /* its index */
	uint64_t offset; /* its p_offset and p_filesz, bytes */
	uint64_t filesz;
	struct ep_dyntable tab[EP_DT_NTAB];
	bool has_symtab; /* DT_SYMTAB */
	uint64_t symtab_addr;
	uint64_t syment; /* DT_SYMENT, or the class's Elf*_Sym size */
};

/*
 * Read img's PT_DYNAMIC and the relocation tables its tags describe into
 * dy.  A file without PT_DYNAMIC gives dy->present false and 0.  Errors,
 * each naming the program header or tag: EP_ETRUNC the program header
 * table, the PT_DYNAMIC segment or a table extends past the end of the
 * file; EP_EMALFORMED an address tag without its size tag, a DT_*ENT or
 * DT_PLTREL with a value the gABI does not allow, a size not a multiple of
 * the entry size, a table in no PT_LOAD segment or past that segment's
 * file bytes (p_filesz); EP_ENOMEM.  As glibc's loader (elf/dynamic-link.h)
 * does for old linkers, a DT_JMPREL table at the very end of the DT_RELA
 * (or DT_REL) range is taken out of that range, so nothing counts twice.
 */
int ep_dynamic_read(struct ep_image *img, struct ep_dynamic *dy, struct ep_error *err);

/*
 * Table t of dy as a relocation section to iterate with ep_relsec_next():
 * index 0, target 0, an empty symbol table whose count is 2^32 (every r_sym
 * passes; see ep_dynamic_symtab() for the symbols).  dy->tab[t].present.
 */
void ep_dynamic_relsec(struct ep_image *img, const struct ep_dynamic *dy, enum ep_dyntab t,
		       struct ep_relsec *rs);

/*
 * The first nsyms entries of the DT_SYMTAB table as a symbol table (index
 * 0, no SHT_SYMTAB_SHNDX), for the r_sym of dynamic relocations: a file
 * without section headers does not record the table's length, so the
 * caller asks for as many as its relocations reference.  Errors naming
 * DT_SYMTAB: EP_EMALFORMED no DT_SYMTAB, a DT_SYMENT that is not the class's
 * Elf*_Sym size, or the table in no PT_LOAD segment's file bytes;
 * EP_ETRUNC past the end of the file.
 */
int ep_dynamic_symtab(struct ep_image *img, const struct ep_dynamic *dy, size_t nsyms,
		      struct ep_symtab *st, struct ep_error *err);

/*
 * Compare dy's tables with img's SHF_ALLOC relocation sections of the same
 * kind, adding a "dynamic_mismatch" warning to w naming both for: a table
 * no section starts at, a table whose bytes differ from those of the
 * sections inside it, a section in no table.
 */
void ep_dynamic_compare(const struct ep_image *img, const struct ep_dynamic *dy,
			struct ep_warnings *w);

#endif
