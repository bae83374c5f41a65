/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_RELOC_NAMES_H
#define ELFPLT_RELOC_NAMES_H

#include <stddef.h>
#include <stdint.h>

/*
 * Tables generated at build time from the C library's <elf.h> by
 * lib/gen-reloc-names.sh (reloc-names.c in the build tree).  Use the lookup
 * functions in lib/reloc.h rather than these arrays.
 */
struct ep_reloc_name {
	uint16_t e_machine; /* EM_* the type belongs to */
	uint32_t r_type;    /* the psABI value */
	const char *name;   /* "R_AARCH64_CALL26" */
	uint8_t prefix_len; /* strlen("R_AARCH64_"): where the kind starts */
};

struct ep_machine_name {
	uint16_t e_machine;
	const char *name;	 /* "EM_AARCH64" */
	const char *description; /* <elf.h>'s comment: "ARM AARCH64" */
};

extern const struct ep_reloc_name ep_reloc_name_table[];
extern const size_t ep_reloc_name_count;
extern const struct ep_machine_name ep_machine_name_table[];
extern const size_t ep_machine_name_count;

#endif
