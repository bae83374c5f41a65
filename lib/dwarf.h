/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_DWARF_H
#define ELFPLT_DWARF_H

/*
 * Source positions of a file's code from its DWARF, through elfutils'
 * libdwfl: the file is reported with dwfl_report_offline(), which lays an
 * ET_REL file's sections out and applies its relocations to its DWARF, as
 * eu-addr2line does for a .ko; the debug info is the file's own, or a
 * separate file: --debug-file, --debug-dir (a tree mirroring the inputs'),
 * else the build ID under /usr/lib/debug/.build-id (libdwfl), else
 * .gnu_debuglink as libdwfl's standard lookup searches; only regular files
 * are opened.
 */

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where to look for separate debug info; NULL fields: not given. */
struct ep_dwarf_options {
	const char *debug_file; /* --debug-file=PATH: the debug info of the one input */
	const char *debug_dir;	/* --debug-dir=DIR: DIR/<input path>[.debug] */
};

struct ep_dwarf;

/*
 * Open the debug info of the file at path (a file on disk: an archive
 * member has none).  Returns a handle, or NULL when out of memory or when
 * no DWARF was found for it (*has_dwarf false then); never an error: a
 * file without DWARF is attributed to "unknown".  A separate file that
 * --debug-file or --debug-dir names but that is not this input's (another
 * build ID, other section headers) is not used, and why[0..n) says so in
 * one line naming it; else why[0] is NUL.
 */
struct ep_dwarf *ep_dwarf_open(const char *path, const struct ep_dwarf_options *o, bool *has_dwarf,
			       char *why, size_t n);

/*
 * The source of the code at offset bytes into section shndx (ET_REL: a
 * section-relative place, as r_offset is), or at virtual address offset
 * when shndx is 0 (ET_EXEC, ET_DYN).  *cu is the compile unit's DW_AT_name,
 * *file and *line the line table's row; each NULL / 0 when unknown.  The
 * strings belong to d.  Returns true when anything was found.
 */
bool ep_dwarf_source(struct ep_dwarf *d, size_t shndx, uint64_t offset, const char **cu,
		     const char **file, int *line);

/* The debug file libdwfl used (the input itself or a separate one), or NULL. */
const char *ep_dwarf_file(struct ep_dwarf *d);

/*
 * Whether --debug-file path can be the debug info of a file whose ELF
 * header is eh: a regular file, ELF, the same class and e_machine, with a
 * .debug_info section.  When it cannot, why[0..n) says why in one line that
 * names path ("--debug-file PATH is not ELF") and false is returned.
 */
bool ep_dwarf_debug_file_usable(const char *path, const GElf_Ehdr *eh, char *why, size_t n);

/* Close d; NULL is allowed. */
void ep_dwarf_close(struct ep_dwarf *d);

#endif
