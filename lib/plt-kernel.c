/* SPDX-License-Identifier: MIT */
/*
 * What the kernel-module PLT models share (lib/plt-kernel.h): the kernel's
 * sort(), the --timing clock and medians, the raw st_shndx table.
 */
#include "config.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/plt-kernel.h"
#include "lib/reloc.h"

void ep_kernel_rela_from(struct ep_kernel_rela *out, const struct ep_rel *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		out[i].r_offset = r[i].r_offset;
		out[i].r_info = (uint64_t)r[i].r_sym << 32 | r[i].r_type;
		out[i].r_addend = r[i].r_addend;
	}
}

/* swap_words_64(): the kernel's swap for 8-byte multiples. */
static void swap_words(void *a, void *b, size_t size)
{
	uint64_t *x = a, *y = b, t;
	size_t i;

	for (i = 0; i < size / 8; i++) {
		t = x[i];
		x[i] = y[i];
		y[i] = t;
	}
}

void ep_kernel_sort(void *base, size_t num, size_t size, int (*cmp)(const void *, const void *))
{
	char *v = base;
	size_t start, end;

	if (num < 2)
		return;
	start = num / 2;
	end = num;
	for (;;) {
		size_t a, b, c;

		if (start) {
			a = --start;
		} else if (end > 1) {
			swap_words(v, v + --end * size, size);
			a = 0;
		} else {
			break;
		}
		/* The path of larger children from a to a leaf below end. */
		b = a;
		while ((c = 2 * b + 1) < end)
			b = (c + 1 < end && cmp(v + c * size, v + (c + 1) * size) < 0) ? c + 1 : c;
		/* Climb back to the first place not smaller than v[a]. */
		while (b != a && cmp(v + a * size, v + b * size) >= 0)
			b = (b - 1) / 2;
		/* Rotate v[a] into b: each ancestor of b, up to a, swapped with v[b]. */
		for (c = b; c != a;) {
			c = (c - 1) / 2;
			swap_words(v + c * size, v + b * size, size);
		}
	}
}

uint64_t ep_plt_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t ep_plt_median_ns(uint64_t *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

uint32_t *ep_plt_symbol_shndx64(struct ep_image *img, size_t symidx, size_t *nsyms,
				struct ep_error *err, int *rc)
{
	struct ep_symtab st;
	uint32_t *v;
	size_t i;

	*rc = ep_symtab_open(img, symidx, &st, err);
	if (*rc)
		return NULL;
	v = malloc((st.count ? st.count : 1) * sizeof(*v));
	if (!v) {
		*rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory for %zu symbols", img->path,
				   st.count);
		return NULL;
	}
	/* ELFCLASS64 (the caller's check()); elf_getdata() gave host byte order. */
	for (i = 0; i < st.count; i++)
		v[i] = ((const Elf64_Sym *)st.data->d_buf)[i].st_shndx;
	*nsyms = st.count;
	return v;
}

const char *ep_plt_core_init_rejects(size_t plt, size_t init_plt, size_t symidx)
{
	if (!plt && !init_plt)
		return "module PLT section(s) missing: no .plt and no .init.plt";
	if (!plt)
		return "module PLT section(s) missing: no .plt";
	if (!init_plt)
		return "module PLT section(s) missing: no .init.plt";
	if (!symidx)
		return "module symtab section missing";
	return NULL;
}

const char *ep_plt_loader_rejects_early(const struct ep_image *img)
{
	size_t i;

	for (i = 1; i < img->shnum; i++)
		if (img->sections[i].shdr.sh_type == SHT_SYMTAB)
			return NULL;
	return "module has no symbols (stripped?)";
}

const char *ep_plt_loader_rejects_common(struct ep_image *img, size_t symidx)
{
	size_t strtab = img->sections[symidx].shdr.sh_link, i;
	struct ep_symtab st;

	if (!symidx || ep_symtab_open(img, symidx, &st, NULL))
		return NULL;
	for (i = 1; i < st.count; i++) {
		uint32_t st_name;
		const char *name;

		if (ep_symtab_st_shndx(&st, i) != SHN_COMMON)
			continue;
		st_name = st.elfclass == ELFCLASS32
				  ? ((const Elf32_Sym *)st.data->d_buf)[i].st_name
				  : ((const Elf64_Sym *)st.data->d_buf)[i].st_name;
		/* libelf checks st_name against the string table. */
		name = elf_strptr(img->elf, strtab, st_name);
		if (!name || strncmp(name, "__gnu_lto", 9) != 0)
			return "please compile with -fno-common";
	}
	return NULL;
}
