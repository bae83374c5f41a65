/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_PLT_KERNEL_H
#define ELFPLT_PLT_KERNEL_H

/*
 * What the kernel-module PLT models share: the relocation record as the
 * loaders sort it, the kernel's sort() to sort it the same way, the
 * monotonic clock and medians of --timing, and the raw st_shndx table the
 * loaders index.  Each model keeps what is its own loader's (its compare
 * function, its partition, its count).
 */

#include <stddef.h>
#include <stdint.h>

#include "lib/elf.h"
#include "lib/error.h"
#include "lib/reloc.h"

/*
 * The kernel's Elf64_Rela, so a sort moves as many bytes as the loader's:
 * r_info is ELF64_R_INFO(sym, type), sym << 32 | type.
 */
struct ep_kernel_rela {
	uint64_t r_offset;
	uint64_t r_info;
	int64_t r_addend;
};

/* r[0..n) as the kernel's Elf64_Rela, into out[0..n). */
void ep_kernel_rela_from(struct ep_kernel_rela *out, const struct ep_rel *r, size_t n);

/*
 * sort(base, num, size, cmp, NULL) of Linux lib/sort.c as it is from v5.1
 * (the bottom-up heapsort of 22a241ccb2c1): build the heap, take the
 * largest out each round; each sift walks the path of larger children to a
 * leaf, climbs back to where the element belongs and rotates it in.  The
 * compare goes through a pointer, as the kernel's does, so --timing
 * measures the same kind of work.  size is a multiple of 8 bytes.  Models
 * whose counts depend on the order of equal elements, or on a kernel older
 * or newer than this form (arm: lib/plt-arm.c), keep their own.
 */
void ep_kernel_sort(void *base, size_t num, size_t size, int (*cmp)(const void *, const void *));

/*
 * --timing stops repeating a measurement once one run of it took this long
 * (nanoseconds, 1 s) and takes the median of the runs made: the counts of
 * loaders before their sort (LoongArch before v6.17, riscv before v6.16)
 * are quadratic, and amdgpu's takes seconds a run.
 */
#define EP_PLT_TIMING_SLOW_NS 1000000000ull

/* CLOCK_MONOTONIC now, nanoseconds. */
uint64_t ep_plt_now_ns(void);

/* The median of v[0..n) nanoseconds (v is sorted in place); 0 when n is 0. */
uint64_t ep_plt_median_ns(uint64_t *v, size_t n);

/*
 * The raw 16-bit st_shndx of every symbol of ELFCLASS64 symbol table
 * symidx (SHN_XINDEX not resolved: the loaders compare the field itself), in
 * a malloc()ed array of *nsyms entries.  Returns it, or NULL with *rc a
 * negative ep_errcode and err filled (a malformed table, EP_ENOMEM).
 */
uint32_t *ep_plt_symbol_shndx64(struct ep_image *img, size_t symidx, size_t *nsyms,
				struct ep_error *err, int *rc);

/*
 * The -ENOEXEC of module_frob_arch_sections() on arm and arm64 (Linux
 * arch/arm{,64}/kernel/module-plts.c, every version modelled), in its
 * words, for the indexes of .plt, .init.plt and the SHT_SYMTAB (0: none);
 * NULL when it accepts them.
 */
const char *ep_plt_core_init_rejects(size_t plt, size_t init_plt, size_t symidx);

/*
 * The generic loader's own refusals, kernel/module/main.c (Linux 6.1, 6.12,
 * 7.2 alike), in its words, for kernel module img; NULL when it has none.
 * ep_plt_loader_rejects_early(): setup_load_info(), before any arch code:
 * "module has no symbols (stripped?)" without an SHT_SYMTAB.
 * ep_plt_loader_rejects_common(): simplify_symbols(), after
 * module_frob_arch_sections() and before apply_relocate_add(): "please
 * compile with -fno-common" for a symbol of SHT_SYMTAB symidx whose
 * st_shndx is SHN_COMMON, unless its name starts "__gnu_lto" (the loader
 * ignores those).  Reads the table through ep_symtab_open(); a table it
 * cannot read gives NULL (the model reports that error itself).
 */
const char *ep_plt_loader_rejects_early(const struct ep_image *img);
const char *ep_plt_loader_rejects_common(struct ep_image *img, size_t symidx);

#endif
