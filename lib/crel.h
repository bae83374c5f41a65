/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_CREL_H
#define ELFPLT_CREL_H

/*
 * SHT_CREL, LLVM's compact relocations (LLVM 19+: clang -Wa,--crel; read by
 * llvm-readelf -r).  The format, as llvm/include/llvm/Object/ELF.h
 * (decodeCrel) reads it and llvm/include/llvm/MC/MCELFExtras.h (encodeCrel)
 * writes it, and as Fangrui Song's proposal describes it:
 *
 *   header   ULEB128 count << 3 | addend_bit << 2 | shift  (shift 0..3)
 *   entries  one byte: bit 0 symbol index changes, bit 1 type changes,
 *            bit 2 addend changes (only when the header's addend bit is set;
 *            otherwise that bit belongs to the offset), the rest (and, when
 *            bit 7 is set, a ULEB128 after it) the offset delta >> shift;
 *            then an SLEB128 delta for each flagged member, in that order.
 *
 * Offsets, symbol indexes, types and addends are running sums from 0,
 * wrapping at the word size (32 bits for ELFCLASS32's offsets and addends).
 * Every read here is bounded by the section's size: nothing is read past it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef SHT_CREL
#define SHT_CREL 0x40000014
#endif

/* The header's addend bit (LLVM's ELF::CREL_HDR_ADDEND). */
#define EP_CREL_HDR_ADDEND 4

/* A CREL section's header. */
struct ep_crel_header {
	uint64_t count;	    /* relocations */
	bool has_addend;    /* entries may carry addend deltas */
	unsigned int shift; /* offsets are stored >> shift (0..3) */
	size_t size;	    /* bytes the header takes (its ULEB128) */
};

/* Decoding position: the running sums after the entries read so far. */
struct ep_crel_state {
	size_t pos;	 /* next byte; 0 before the header (ep_crel_next() skips it) */
	uint64_t read;	 /* entries decoded */
	uint64_t offset; /* r_offset of the last entry, before << shift */
	uint64_t addend; /* r_addend of the last entry, modulo the word size */
	uint32_t sym;	 /* r_sym of the last entry */
	uint32_t type;	 /* r_type of the last entry */
};

/* One decoded entry. */
struct ep_crel_rel {
	uint64_t r_offset;
	uint32_t r_sym;
	uint32_t r_type;
	int64_t r_addend; /* sign-extended from 32 bits for ELFCLASS32 */
};

/*
 * Read the header of the size bytes at p.  Returns 0, or -1 with *why set to
 * a static phrase ("truncated header", "header count 9 exceeds ...") for a
 * header that runs past the section, overflows 64 bits, or counts more
 * relocations than there are bytes after it (each takes at least one).
 * *why's phrase may hold the number in buf (at least 96 bytes).
 */
int ep_crel_header_read(const uint8_t *p, size_t size, struct ep_crel_header *h, char *buf,
			size_t buflen, const char **why);

/*
 * Decode the next entry of the stream p[0..size) whose header is h into *out.
 * is64: ELFCLASS64 (offsets and addends wrap at 64 bits, else at 32).
 * Returns 1 with *out filled, 0 after the last of h->count entries, or -1
 * with *why set ("truncated entry 5", "ULEB128 too long in entry 5", ...; the
 * phrase is built in buf, at least 96 bytes) when an entry runs past the
 * section or a LEB128 holds more than 64 bits.  st starts zeroed.
 */
int ep_crel_next(const uint8_t *p, size_t size, const struct ep_crel_header *h, bool is64,
		 struct ep_crel_state *st, struct ep_crel_rel *out, char *buf, size_t buflen,
		 const char **why);

/*
 * The exact size LLVM's encoder (encodeCrel(), MCELFExtras.h) gives a table:
 * feed every relocation in table order with ep_crel_sizer_add(), then read
 * ep_crel_sizer_bytes().  As LLVM's assembler writes CREL, the header's
 * addend bit is always set (addends explicit; 0 for an SHT_REL table, whose
 * addends stay in the places), and the shift is the number of trailing zero
 * bits common to every r_offset, at most 3.  Since the shift is only known
 * at the end, the entries' sizes are summed for each of the four shifts.
 * Symbol index and type deltas are SLEB128s of the 32-bit difference taken
 * as signed, as LLVM 19's assembler writes them (tests/real/crel-project.sh
 * checks the sizes object by object).  yaml2obj-19 writes a falling symbol
 * index's delta zero-extended instead (5 bytes for -2), so its CREL
 * sections can be larger than this figure for the same table.
 * Zero the struct and set is64 to start.
 */
struct ep_crel_sizer {
	bool is64;	    /* ELFCLASS64: 64-bit offset and addend deltas */
	uint64_t count;	    /* relocations added */
	uint64_t offset_or; /* every r_offset or'ed together */
	uint64_t bytes[4];  /* entries' bytes for shift 0..3 */
	uint64_t offset;    /* previous entry's r_offset */
	uint64_t addend;    /* previous entry's r_addend (word-size wrapped) */
	uint32_t sym, type; /* previous entry's r_sym and r_type */
};

/* Add one relocation (r_addend 0 for SHT_REL). */
void ep_crel_sizer_add(struct ep_crel_sizer *z, uint64_t r_offset, uint32_t r_sym, uint32_t r_type,
		       int64_t r_addend);

/* Bytes the CREL section would take: header and entries. */
uint64_t ep_crel_sizer_bytes(const struct ep_crel_sizer *z);

#endif
