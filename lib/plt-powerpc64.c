/* SPDX-License-Identifier: MIT */
/*
 * The powerpc64 kernel-module model: how much of .stubs the module loader
 * reserves, following Linux arch/powerpc/kernel/module_64.c
 * (module_frob_arch_sections(), get_stubs_size(), count_relocs(),
 * relacmp()) for ELFv2 kernels built as Debian builds ppc64el, from v6.1 to
 * v7.2 (read in Debian's 6.1.176, 6.12.117 and 7.2.13 sources).  The kernel
 * comes from --kernel, else the module's own vermagic= (.modinfo), else
 * v6.12 (Debian 13).  What the loader does, and since when:
 *
 * - .stubs is an empty SHT_NOBITS section every module gets from
 *   asm/module.h; module_frob_arch_sections() finds it by name (the last
 *   match wins) and sets its sh_size to get_stubs_size() x sizeof(struct
 *   ppc64_stub_entry), 40 bytes on ELFv2 (7 instructions, a magic word and
 *   an 8-byte func_desc_t).  No .stubs: "doesn't contain .stubs.",
 *   -ENOEXEC.  There is no init group ("We don't do .init separately"):
 *   one .stubs for the whole module.  All versions.
 * - get_stubs_size() sorts every SHT_RELA section in place with the
 *   kernel's sort() (lib/sort.c, a bottom-up heapsort) and relacmp(), which
 *   orders by the whole r_info (symbol << 32 | type) then r_addend, in
 *   descending order (it swaps its arguments), whether or not the section
 *   holds a branch or is ever applied.  count_relocs() then walks the
 *   sorted entries and counts an R_PPC_REL24 whose (symbol, addend) differs
 *   from the last one counted.  It keeps that last pair in two unsigned
 *   ints, so an addend outside [0, 2^32) never equals the one kept: every
 *   such entry counts, even a duplicate; and a first REL24 against symbol 0
 *   with addend 0 is never counted.  Counts are per section, so a function
 *   called from three sections takes three stubs; and every REL24 counts
 *   ("FIXME: Only count external ones"), although apply_relocate_add()
 *   only sends branches to SHN_UNDEF (or SHN_LIVEPATCH) symbols through a
 *   stub.  All versions.  (CONFIG_PPC_KERNEL_PCREL, v6.4, also counts
 *   R_PPC64_REL24_NOTOC and sizes a .mygot; Debian does not set it, nor
 *   does this model.)
 * - Up to v6.17 get_stubs_size() starts at 1, a zero entry that ends
 *   stub_for_addr()'s search.  b137312fbf2d ("powerpc64/modules: replace
 *   stub allocation sentinel with an explicit counter", powerpc-6.18-1 pull,
 *   so v6.18; not in 6.12.117) starts at 0 and counts stubs instead.
 * - ftrace: one stub for ftrace_caller with CONFIG_DYNAMIC_FTRACE and one
 *   for ftrace_regs_caller with CONFIG_DYNAMIC_FTRACE_WITH_REGS
 *   (module_finalize_ftrace() creates both); Debian sets both in 6.1, 6.12
 *   and 7.2.  The model assumes them when the vermagic names an ftrace
 *   flavour ("mprofile-kernel" or "patchable-function-entry",
 *   asm/vermagic.h) or when there is no vermagic; a vermagic that names
 *   neither means no CONFIG_FUNCTION_TRACER, so no ftrace stubs.
 * - From v6.13, eec37961a56a ("powerpc64/ftrace: Move ftrace sequence out
 *   of line"): with CONFIG_PPC_FTRACE_OUT_OF_LINE (def_bool PPC64 &&
 *   ARCH_USING_PATCHABLE_FUNCTION_ENTRY, so on wherever the vermagic says
 *   "patchable-function-entry"; Debian 7.2 has it) the first section named
 *   __patchable_function_entries gives ool_stub_count = sh_size / 8, and
 *   .stubs grows by roundup(count x sizeof(struct ftrace_ool_stub), 40) / 40
 *   entries.  struct ftrace_ool_stub is 16 bytes, 24 with
 *   CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS (e717754f0bb5, also v6.13; Debian
 *   7.2 sets it, and the model assumes it).
 * - Rejections, in the order load_module() meets them: the ELF ABI level
 *   (e_flags & 3) must be 2 on an ELFv2 kernel, "Invalid module
 *   architecture in ELF header" (module_elf_check_arch(), de3d098dd1fc,
 *   v6.2; 6.1 has no such check); no SHT_SYMTAB, "module has no symbols
 *   (stripped?)"; no .stubs (above); then apply_relocations(): an SHT_REL
 *   section whose target is SHF_ALLOC, "REL relocation unsupported"
 *   (moduleloader.h); an SHT_RELA entry of a type apply_relocate_add() does
 *   not know, "Unknown ADD relocation: N" (without PCREL: ADDR32, ADDR64,
 *   TOC, TOC16, TOC16_LO, TOC16_DS, TOC16_LO_DS, TOC16_HA, REL24, REL64,
 *   REL32, TOCSAVE, ENTRY, REL16_HA, REL16_LO, the same in 6.1, 6.12 and
 *   7.2).  Not modelled: the nop that must follow a call through a stub
 *   ("Expected nop after call") and the range checks, which need the
 *   instructions and the final addresses.
 *
 * The minimum: one stub per distinct (symbol, addend) among the REL24
 * relocations that go through a stub (symbol SHN_UNDEF or SHN_LIVEPATCH, in
 * a section apply_relocations() applies: its target SHF_ALLOC), counted
 * module-wide, since stub_for_addr() shares one stub per target address
 * across the module; plus the ftrace and out-of-line stubs, which the
 * loader sizes exactly.  The over-allocation, reserved - minimum, by cause:
 *   sentinel     the terminating entry (1, to v6.17);
 *   addend       count_relocs()'s 32-bit addend: counted minus the distinct
 *                (symbol, addend) REL24 pairs of each section (negative
 *                only if a truncated addend hid a pair);
 *   local        distinct pairs of each section whose symbol is defined in
 *                the module, or whose section is never applied;
 *   per_section  needed pairs counted in more than one section.
 */
#include "config.h"

#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/plt-kernel.h"
#include "lib/plt.h"
#include "lib/reloc.h"
#include "lib/report.h"

/* The range of kernels followed, and the default without a vermagic (Debian 13's). */
#define PPC64_KVER_FLOOR   EP_KVER(6, 1, 0)
#define PPC64_KVER_CHECKED EP_KVER(7, 2, 0)
#define PPC64_KVER_DEFAULT EP_KVER(6, 12, 0)

/* sizeof(struct ppc64_stub_entry) on ELFv2: u32 jump[7], u32 magic, func_desc_t. */
#define PPC64_STUB_BYTES 40u
/* sizeof(struct ftrace_ool_stub) with CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS. */
#define PPC64_OOL_STUB_BYTES 24u
/* An entry of __patchable_function_entries: sizeof(unsigned long). */
#define PPC64_PFE_BYTES 8u

#ifndef SHN_LIVEPATCH
#define SHN_LIVEPATCH 0xff20
#endif
#ifndef SHF_RELA_LIVEPATCH
#define SHF_RELA_LIVEPATCH 0x00100000
#endif
#ifndef R_PPC64_ENTRY
#define R_PPC64_ENTRY 118
#endif

/* The rules of one kernel version (see the header for each). */
struct ppc64_rules {
	bool sentinel;		   /* get_stubs_size() starts at 1: to v6.17 */
	unsigned int ftrace_stubs; /* DYNAMIC_FTRACE + DYNAMIC_FTRACE_WITH_REGS */
	bool ool;		   /* CONFIG_PPC_FTRACE_OUT_OF_LINE: v6.13 and later */
	bool abi_check;		   /* module_elf_check_arch(): v6.2 and later */
};

static void rules_for(const struct ep_plt_kernel *k, struct ppc64_rules *r)
{
	uint32_t v = k->version < PPC64_KVER_FLOOR ? PPC64_KVER_FLOOR : k->version;
	bool pfe = ep_vermagic_has(k->vermagic, "patchable-function-entry");
	bool ftrace = !k->vermagic[0] || pfe || ep_vermagic_has(k->vermagic, "mprofile-kernel");

	r->sentinel = v < EP_KVER(6, 18, 0);
	r->ftrace_stubs = ftrace ? 2 : 0;
	/* No vermagic: Debian's flavour from 6.13 on, patchable-function-entry. */
	r->ool = v >= EP_KVER(6, 13, 0) && (pfe || !k->vermagic[0]);
	r->abi_check = v >= EP_KVER(6, 2, 0);
}

/* The model's own part of a result (res->detail). */
struct ppc64_detail {
	struct ppc64_rules rules;
	uint64_t rel24;		  /* R_PPC_REL24 relocations, every RELA section */
	uint64_t counted;	  /* sum of count_relocs() over the sections */
	uint64_t distinct;	  /* sum of each section's distinct REL24 pairs */
	uint64_t distinct_needed; /* sum of each section's distinct needed pairs */
	uint64_t ool_entries;	  /* __patchable_function_entries entries read */
	uint64_t ool_stubs;	  /* .stubs entries they take */
	char reject[160];	  /* res->rejects when it is made here */
};

/* Sums over files (struct ep_plt_totals' detail[]). */
enum {
	SUM_SENTINEL,
	SUM_ADDEND, /* int64_t, two's complement */
	SUM_LOCAL,
	SUM_PER_SECTION,
	SUM_FTRACE,
	SUM_OOL,
	SUM_REL24,
};

/* relacmp(): r_info, then r_addend, with the arguments swapped (descending). */
static int relacmp(const void *a, const void *b)
{
	const struct ep_kernel_rela *x = b, *y = a;

	if (x->r_info != y->r_info)
		return x->r_info < y->r_info ? -1 : 1;
	if (x->r_addend != y->r_addend)
		return x->r_addend < y->r_addend ? -1 : 1;
	return 0;
}

static void swap_rela(struct ep_kernel_rela *a, struct ep_kernel_rela *b)
{
	struct ep_kernel_rela t = *a;

	*a = *b;
	*b = t;
}

static uint32_t rela_type(const struct ep_kernel_rela *r)
{
	return (uint32_t)(r->r_info & 0xffffffffu);
}

static uint32_t rela_sym(const struct ep_kernel_rela *r)
{
	return (uint32_t)(r->r_info >> 32);
}

/*
 * count_relocs(rela, num, R_PPC_REL24) over the sorted entries: the last
 * pair counted kept as two unsigned ints, the addend compared after
 * promotion to 64 bits, as the C in module_64.c does.  counted[i], when
 * not NULL, says whether entry i was counted (--by).
 */
static uint64_t count_relocs(const struct ep_kernel_rela *r, size_t n, bool *counted)
{
	uint32_t last_sym = 0, last_addend = 0;
	uint64_t count = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (counted)
			counted[i] = false;
		if (rela_type(&r[i]) != R_PPC_REL24)
			continue;
		if (last_sym != rela_sym(&r[i]) || (int64_t)last_addend != r[i].r_addend) {
			if (counted)
				counted[i] = true;
			count++;
			last_sym = rela_sym(&r[i]);
			last_addend = (uint32_t)r[i].r_addend;
		}
	}
	return count;
}

/* Does a REL24 against sym go through a stub (apply_relocate_add())? */
static bool external(const uint32_t *st_shndx, uint32_t sym)
{
	return st_shndx[sym] == SHN_UNDEF || st_shndx[sym] == SHN_LIVEPATCH;
}

static bool needs_stub(const struct ep_kernel_rela *r, const uint32_t *st_shndx, bool applied)
{
	return applied && rela_type(r) == R_PPC_REL24 && external(st_shndx, rela_sym(r));
}

/* Is r_type one apply_relocate_add() handles (a kernel without PCREL)? */
static bool known_type(uint32_t t)
{
	switch (t) {
	case R_PPC64_ADDR32:
	case R_PPC64_ADDR64:
	case R_PPC64_TOC:
	case R_PPC64_TOC16:
	case R_PPC64_TOC16_LO:
	case R_PPC64_TOC16_DS:
	case R_PPC64_TOC16_LO_DS:
	case R_PPC64_TOC16_HA:
	case R_PPC_REL24:
	case R_PPC64_REL64:
	case R_PPC64_REL32:
	case R_PPC64_TOCSAVE:
	case R_PPC64_ENTRY:
	case R_PPC64_REL16_HA:
	case R_PPC64_REL16_LO:
		return true;
	}
	return false;
}

/* ---- --timing ------------------------------------------------------------ */

/*
 * Medians over reps runs, on scratch copies of the section in file order:
 * the loader's sort of every entry, and moving the entries that need a stub
 * to the front then sorting only those.
 */
static int time_section(const struct ep_kernel_rela *orig, size_t n, const uint32_t *st_shndx,
			bool applied, unsigned int reps, uint64_t *full_ns, uint64_t *part_ns)
{
	struct ep_kernel_rela *work = malloc((n ? n : 1) * sizeof(*work));
	uint64_t *full = calloc(reps, sizeof(*full)), *part = calloc(reps, sizeof(*part));
	unsigned int k;
	int rc = -EP_ENOMEM;

	if (!work || !full || !part)
		goto out;
	for (k = 0; k < reps; k++) {
		size_t i, m = 0;
		uint64_t t0;

		memcpy(work, orig, n * sizeof(*work));
		t0 = ep_plt_now_ns();
		ep_kernel_sort(work, n, sizeof(*work), relacmp);
		full[k] = ep_plt_now_ns() - t0;

		memcpy(work, orig, n * sizeof(*work));
		t0 = ep_plt_now_ns();
		for (i = 0; i < n; i++)
			if (needs_stub(&work[i], st_shndx, applied))
				swap_rela(&work[m++], &work[i]);
		ep_kernel_sort(work, m, sizeof(*work), relacmp);
		part[k] = ep_plt_now_ns() - t0;
	}
	*full_ns = ep_plt_median_ns(full, reps);
	*part_ns = ep_plt_median_ns(part, reps);
	rc = 0;
out:
	free(work);
	free(full);
	free(part);
	return rc;
}

/* ---- the model over one image ---------------------------------------------- */

extern const struct ep_plt_model ep_plt_model_powerpc64_module;

static const char *ppc64_check(const struct ep_image *img, bool forced)
{
	if (img->ehdr.e_machine != EM_PPC64)
		return "the powerpc64-module model needs a PowerPC64 file (e_machine EM_PPC64)";
	if (img->ehdr.e_ident[EI_CLASS] != ELFCLASS64)
		return "the powerpc64-module model needs an ELFCLASS64 file (the loader reads "
		       "Elf64_Rela)";
	if (img->ehdr.e_type != ET_REL)
		return "the powerpc64-module model needs a relocatable file (ET_REL)";
	if (!forced && !ep_image_is_kernel_module(img))
		return "not a kernel module (no .modinfo and .gnu.linkonce.this_module)";
	return NULL;
}

/* The pairs that need a stub, from every section, for the module-wide minimum. */
struct pairs {
	struct ep_kernel_rela *v;
	size_t n, cap;
};

static int pairs_add(struct pairs *p, const struct ep_kernel_rela *r)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 256;
		struct ep_kernel_rela *v = realloc(p->v, cap * sizeof(*v));

		if (!v)
			return -EP_ENOMEM;
		p->v = v;
		p->cap = cap;
	}
	p->v[p->n++] = *r;
	return 0;
}

/* Distinct (symbol, addend) pairs of sorted v[0..n) that keep(); type is in r_info too. */
static uint64_t distinct_sorted(const struct ep_kernel_rela *v, size_t n, const uint32_t *st_shndx,
				bool applied, bool need_only)
{
	const struct ep_kernel_rela *last = NULL;
	uint64_t d = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (rela_type(&v[i]) != R_PPC_REL24)
			continue;
		if (need_only && !needs_stub(&v[i], st_shndx, applied))
			continue;
		if (!last || last->r_info != v[i].r_info || last->r_addend != v[i].r_addend)
			d++;
		last = &v[i];
	}
	return d;
}

/* The first entry (in the loader's order) of a type apply_relocate_add() rejects. */
static void unknown_type(const struct ep_image *img, size_t idx, const struct ep_kernel_rela *v,
			 size_t n, struct ppc64_detail *d, struct ep_plt_result *res)
{
	size_t i;

	for (i = 0; i < n && !res->rejects; i++)
		if (!known_type(rela_type(&v[i]))) {
			snprintf(d->reject, sizeof(d->reject),
				 "Unknown ADD relocation: %" PRIu32 " (section %zu %s)",
				 rela_type(&v[i]), idx, img->sections[idx].name);
			res->rejects = d->reject;
		}
}

/* Is relocation section idx applied by apply_relocations() (its target SHF_ALLOC)? */
static bool applied_section(const struct ep_image *img, size_t idx)
{
	const GElf_Shdr *sh = &img->sections[idx].shdr;

	return sh->sh_info && sh->sh_info < img->shnum &&
	       (img->sections[sh->sh_info].shdr.sh_flags & SHF_ALLOC);
}

/*
 * --by: the REL24 entries of one section, v[0..n) sorted as the loader
 * sorts them, as sites: reserved when count_relocs() counts them; those
 * that need a stub are marked minimum here as candidates, and
 * mark_minimum() keeps the mark on the module's first of each (symbol,
 * addend) only.  Returns 0 or -EP_ENOMEM.
 */
static int record_sites(struct ep_plt_result *res, const struct ep_plt_section *s,
			const struct ep_kernel_rela *v, size_t n, const uint32_t *shndx,
			bool applied)
{
	bool *counted = malloc((n ? n : 1) * sizeof(*counted));
	size_t i;

	if (!counted)
		return -EP_ENOMEM;
	count_relocs(v, n, counted);
	for (i = 0; i < n; i++) {
		struct ep_plt_site *p;

		if (rela_type(&v[i]) != R_PPC_REL24)
			continue;
		p = ep_plt_site_add(res);
		if (!p) {
			free(counted);
			return -EP_ENOMEM;
		}
		p->relsec = s->index;
		p->target = s->target;
		p->r_offset = v[i].r_offset;
		p->r_type = R_PPC_REL24;
		p->r_sym = rela_sym(&v[i]);
		p->r_addend = v[i].r_addend;
		p->kind = EP_PLT_KIND_STUB;
		p->group = EP_PLT_MODULE;
		p->reserved = counted[i];
		p->minimum = needs_stub(&v[i], shndx, applied);
	}
	free(counted);
	return 0;
}

/* qsort_r(): sites (arg) by (r_sym, r_addend), then index. */
static int cmp_site(const void *a, const void *b, void *arg)
{
	const struct ep_plt_site *sites = arg;
	const struct ep_plt_site *x = &sites[*(const size_t *)a];
	const struct ep_plt_site *y = &sites[*(const size_t *)b];

	if (x->r_sym != y->r_sym)
		return x->r_sym < y->r_sym ? -1 : 1;
	if (x->r_addend != y->r_addend)
		return x->r_addend < y->r_addend ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/*
 * --by: the minimum's stub of each (symbol, addend) is its first site that
 * needs one, module-wide, as module_minimum() counts them.  Returns 0 or
 * -EP_ENOMEM.
 */
static int mark_minimum(struct ep_plt_result *res)
{
	size_t *ix = malloc((res->nsites ? res->nsites : 1) * sizeof(*ix));
	size_t i, n = 0;

	if (!ix)
		return -EP_ENOMEM;
	for (i = 0; i < res->nsites; i++)
		if (res->sites[i].minimum)
			ix[n++] = i;
	qsort_r(ix, n, sizeof(*ix), cmp_site, res->sites);
	for (i = 1; i < n; i++)
		if (res->sites[ix[i - 1]].r_sym == res->sites[ix[i]].r_sym &&
		    res->sites[ix[i - 1]].r_addend == res->sites[ix[i]].r_addend)
			res->sites[ix[i]].minimum = false;
	free(ix);
	return 0;
}

/*
 * Everything get_stubs_size() does to one SHT_RELA section, and what it
 * should need.  Long because it follows count_relocs() step by step, in the
 * loader's order (bounds, the copy as Elf64_Rela, timing on the file's
 * order, the sort, the count); split, each piece would need the others'
 * state.
 */
static int count_one(struct ep_image *img, size_t idx, const uint32_t *shndx, size_t nsyms,
		     struct pairs *need, struct ep_plt_result *res, struct ep_error *err)
{
	struct ppc64_detail *d = res->detail;
	bool applied = applied_section(img, idx);
	struct ep_kernel_rela *v = NULL;
	struct ep_plt_section *s;
	struct ep_rel *r = NULL;
	struct ep_relsec rs;
	size_t i;
	int rc;

	rc = ep_plt_read_section(img, idx, &rs, &r, err);
	if (rc)
		return rc;
	v = malloc((rs.count ? rs.count : 1) * sizeof(*v));
	s = ep_plt_section_add(res);
	if (!v || !s) {
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
		goto out;
	}
	for (i = 0; i < rs.count; i++) {
		if (r[i].r_sym >= nsyms) {
			rc = ep_error_set(err, EP_EMALFORMED,
					  "%s: relocation %zu has symbol %u, the symbol table has "
					  "%zu (section %zu %s)",
					  img->path, i, r[i].r_sym, nsyms, idx,
					  ep_section_label(img, idx));
			goto out;
		}
		v[i].r_offset = r[i].r_offset;
		v[i].r_info = (uint64_t)r[i].r_sym << 32 | r[i].r_type;
		v[i].r_addend = r[i].r_addend;
	}
	s->index = idx;
	s->name = img->sections[idx].name;
	s->target = rs.target;
	s->target_name = rs.target < img->shnum ? img->sections[rs.target].name : "";
	s->group = EP_PLT_MODULE;
	s->relocations = rs.count;
	s->sorted_full = s->sorted_partitioned = rs.count;
	if (res->opt.timing_reps) {
		rc = time_section(v, rs.count, shndx, applied, res->opt.timing_reps, &s->full_ns,
				  &s->partitioned_ns);
		if (rc) {
			rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
			goto out;
		}
	}
	ep_kernel_sort(v, rs.count, sizeof(*v), relacmp);
	for (i = 0; i < rs.count; i++) {
		if (rela_type(&v[i]) != R_PPC_REL24)
			continue;
		s->branch_relocations++;
		if (!needs_stub(&v[i], shndx, applied))
			continue;
		s->plt_relocations++;
		if (pairs_add(need, &v[i])) {
			rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
			goto out;
		}
	}
	if (res->opt.sites) {
		rc = record_sites(res, s, v, rs.count, shndx, applied);
		if (rc) {
			rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
			goto out;
		}
	}
	s->slots = count_relocs(v, rs.count, NULL);
	s->slots_minimal = distinct_sorted(v, rs.count, shndx, applied, true);
	d->rel24 += s->branch_relocations;
	d->counted += s->slots;
	d->distinct += distinct_sorted(v, rs.count, shndx, applied, false);
	d->distinct_needed += s->slots_minimal;
	if (applied && !(img->sections[idx].shdr.sh_flags & SHF_RELA_LIVEPATCH))
		unknown_type(img, idx, v, rs.count, d, res);
	res->sort.full += rs.count;
	res->sort.loader += rs.count;
	res->sort.needed += s->plt_relocations;
	res->sort.full_ns += s->full_ns;
	res->sort.partitioned_ns += s->partitioned_ns;
	res->sort.sections++;
	res->sort.sections_unsorted += rs.count < 2;
out:
	free(v);
	free(r);
	return rc;
}

/* Module-wide distinct pairs among those that need a stub. */
static uint64_t module_minimum(struct pairs *need)
{
	ep_kernel_sort(need->v, need->n, sizeof(*need->v), relacmp);
	return distinct_sorted(need->v, need->n, NULL, true, false);
}

/* The sections the loader looks for by name or type. */
struct frob_sections {
	size_t stubs, symtab, pfe;
};

static void find_sections(const struct ep_image *img, struct frob_sections *f)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	for (i = 1; i < img->shnum; i++) {
		const char *name = img->sections[i].name;

		if (strcmp(name, ".stubs") == 0)
			f->stubs = i; /* module_frob_arch_sections(): the last one */
		if (img->sections[i].shdr.sh_type == SHT_SYMTAB && !f->symtab)
			f->symtab = i;
		if (!f->pfe && strcmp(name, "__patchable_function_entries") == 0)
			f->pfe = i; /* get_stubs_size(): the first one */
	}
}

/*
 * The rejections before any relocation is applied, in load_module()'s order;
 * or NULL.  apply_relocations()' come later (ppc64_analyse(), count_one()).
 */
static const char *early_rejects(const struct ep_image *img, const struct frob_sections *f,
				 struct ppc64_detail *d)
{
	unsigned int level = (unsigned int)(img->ehdr.e_flags & 3);

	if (d->rules.abi_check && level != 2) {
		snprintf(d->reject, sizeof(d->reject),
			 "Invalid module architecture in ELF header: %u (e_flags ABI level %u, "
			 "not 2: ELFv2)",
			 (unsigned int)img->ehdr.e_machine, level);
		return d->reject;
	}
	if (!f->symtab)
		return "module has no symbols (stripped?)";
	if (!f->stubs)
		return "doesn't contain .stubs.";
	return NULL;
}

/* The ftrace and out-of-line stubs, and .stubs' sh_size. */
static void size_stubs(const struct ep_image *img, const struct frob_sections *f,
		       struct ep_plt_result *res, struct ppc64_detail *d, uint64_t minimum)
{
	struct ep_plt_count *stub = &res->slots[EP_PLT_KIND_STUB][EP_PLT_MODULE];
	struct ep_plt_count *tramp = &res->slots[EP_PLT_KIND_TRAMPOLINE][EP_PLT_MODULE];
	struct ep_plt_sized *z;

	stub->reserved = d->counted + d->rules.sentinel;
	stub->minimum = minimum;
	if (d->rules.ool && f->pfe) {
		/* ool_stub_count is an unsigned int in struct mod_arch_specific. */
		d->ool_entries = (uint32_t)(img->sections[f->pfe].shdr.sh_size / PPC64_PFE_BYTES);
		d->ool_stubs = (d->ool_entries * PPC64_OOL_STUB_BYTES + PPC64_STUB_BYTES - 1) /
			       PPC64_STUB_BYTES;
	}
	tramp->reserved = tramp->minimum = d->rules.ftrace_stubs + d->ool_stubs;
	z = ep_plt_sized_add(res, ".stubs", f->stubs, EP_PLT_KIND_STUB, EP_PLT_MODULE);
	if (!z)
		return;
	z->bytes.reserved = (stub->reserved + tramp->reserved) * PPC64_STUB_BYTES;
	z->bytes.minimum = (stub->minimum + tramp->minimum) * PPC64_STUB_BYTES;
}

static int ppc64_analyse(struct ep_image *img, struct ep_plt_result *res, struct ep_error *err)
{
	struct pairs need = { NULL, 0, 0 };
	struct frob_sections f;
	struct ppc64_detail *d;
	uint32_t *shndx = NULL;
	size_t i, nsyms = 0;
	int rc;

	rc = ep_plt_kernel_choose(img, &res->opt, PPC64_KVER_DEFAULT, PPC64_KVER_FLOOR,
				  PPC64_KVER_CHECKED, &res->kernel, err);
	if (rc)
		return rc;
	d = calloc(1, sizeof(*d));
	if (!d)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	res->detail = d;
	res->sites_recorded = res->opt.sites;
	rules_for(&res->kernel, &d->rules);
	res->sort.applies = true;
	find_sections(img, &f);
	res->rejects = early_rejects(img, &f, d);
	if (f.symtab) {
		shndx = ep_plt_symbol_shndx64(img, f.symtab, &nsyms, err, &rc);
		if (!shndx)
			return rc;
	}
	/*
	 * get_stubs_size() sorts and counts every SHT_RELA section; later
	 * apply_relocations() fails on the first applied section, in index
	 * order, that is SHT_REL or holds a type it does not know.
	 */
	for (i = 1; f.symtab && i < img->shnum; i++) {
		if (img->sections[i].shdr.sh_type == SHT_REL && applied_section(img, i) &&
		    !res->rejects) {
			snprintf(d->reject, sizeof(d->reject),
				 "REL relocation unsupported (section %zu %s)", i,
				 img->sections[i].name);
			res->rejects = d->reject;
		}
		if (img->sections[i].shdr.sh_type != SHT_RELA)
			continue;
		rc = count_one(img, i, shndx, nsyms, &need, res, err);
		if (rc)
			goto out;
	}
	size_stubs(img, &f, res, d, module_minimum(&need));
	if (res->sites_recorded && mark_minimum(res))
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
out:
	free(need.v);
	free(shndx);
	return rc;
}

/* ---- how the model shows what is its own ------------------------------------ */

static uint64_t col_rel24(const struct ep_plt_section *s)
{
	return s->branch_relocations;
}

static const struct ep_plt_column ppc64_columns[] = {
	{ "[Nr]", EP_PLT_COL_INDEX, NULL },	    { "relocations", EP_PLT_COL_NAME, NULL },
	{ "target", EP_PLT_COL_TARGET, NULL },	    { "relocs", EP_PLT_COL_RELOCATIONS, NULL },
	{ "rel24", EP_PLT_COL_VALUE, col_rel24 },   { "need", EP_PLT_COL_NEED, NULL },
	{ "stubs", EP_PLT_COL_SLOTS, NULL },	    { "minimal", EP_PLT_COL_MINIMAL, NULL },
	{ "sorted", EP_PLT_COL_SORT_LOADER, NULL }, { "full ns", EP_PLT_COL_FULL_NS, NULL },
	{ "part ns", EP_PLT_COL_PART_NS, NULL },
};

static const char *const ppc64_summary[] = { "module",	"sorted",  "needed", "stubs",
					     "minimal", "full ns", "part ns" };

static void ppc64_summary_values(const struct ep_plt_result *res, uint64_t *v)
{
	struct ep_plt_count c = ep_plt_result_slots(res);

	v[0] = res->sort.loader;
	v[1] = res->sort.needed;
	v[2] = c.reserved;
	v[3] = c.minimum;
	v[4] = res->sort.full_ns;
	v[5] = res->sort.partitioned_ns;
}

/* The over-allocation of one file by cause (the header's definitions). */
struct over {
	uint64_t sentinel, local, per_section;
	int64_t addend;
};

static struct over over_of(const struct ep_plt_result *res)
{
	const struct ppc64_detail *d = res->detail;
	const struct ep_plt_count *stub = &res->slots[EP_PLT_KIND_STUB][EP_PLT_MODULE];

	return (struct over){
		.sentinel = d->rules.sentinel,
		.addend = (int64_t)(d->counted - d->distinct),
		.local = d->distinct - d->distinct_needed,
		.per_section = d->distinct_needed - stub->minimum,
	};
}

static void ppc64_print_rules(FILE *out, const struct ep_plt_result *res)
{
	const struct ppc64_detail *d = res->detail;

	fprintf(out, ", ftrace stubs %u%s%s", d->rules.ftrace_stubs,
		d->rules.ool ? ", out-of-line ftrace" : "",
		d->rules.sentinel ? ", sentinel entry" : "");
}

static void print_over(FILE *out, uint64_t sentinel, int64_t addend, uint64_t local,
		       uint64_t per_section)
{
	fprintf(out,
		"  over-allocation: sentinel %" PRIu64 ", per-section %" PRIu64 ", local %" PRIu64
		", addend %" PRId64 "\n",
		sentinel, per_section, local, addend);
}

static void ppc64_print_detail(FILE *out, const struct ep_plt_result *res)
{
	const struct ppc64_detail *d = res->detail;
	const struct ep_plt_count *stub = &res->slots[EP_PLT_KIND_STUB][EP_PLT_MODULE];
	const struct ep_plt_count *tramp = &res->slots[EP_PLT_KIND_TRAMPOLINE][EP_PLT_MODULE];
	struct over o = over_of(res);

	if (res->nsized)
		fprintf(out,
			"  .stubs: %" PRIu64 " branch stubs (minimal %" PRIu64 ") + %" PRIu64
			" ftrace (%" PRIu64 " out of line) = %" PRIu64 " bytes (minimal %" PRIu64
			")\n",
			stub->reserved, stub->minimum, tramp->reserved, d->ool_stubs,
			res->sized[0].bytes.reserved, res->sized[0].bytes.minimum);
	fprintf(out,
		"  sorting: %" PRIu64 " %s sorted, %" PRIu64 " needed a stub, in %" PRIu64 " %s\n",
		res->sort.loader, ep_plural(res->sort.loader, "entry", "entries"), res->sort.needed,
		res->sort.sections, ep_plural(res->sort.sections, "section", "sections"));
	if (res->opt.timing_reps)
		fprintf(out,
			"  timing (median of %u): full sort %" PRIu64 " ns, needed only %" PRIu64
			" ns\n",
			res->opt.timing_reps, res->sort.full_ns, res->sort.partitioned_ns);
	print_over(out, o.sentinel, o.addend, o.local, o.per_section);
}

static void ppc64_print_totals(FILE *out, const struct ep_plt_totals *t, unsigned int timing_reps)
{
	const struct ep_plt_count *stub = &t->slots[EP_PLT_KIND_STUB][EP_PLT_MODULE];
	const struct ep_plt_count *tramp = &t->slots[EP_PLT_KIND_TRAMPOLINE][EP_PLT_MODULE];
	const struct ep_plt_count *bytes = &t->bytes[EP_PLT_KIND_STUB][EP_PLT_MODULE];

	fprintf(out, "%s, %" PRIu64 " %s (%" PRIu64 " rejected by the kernel):\n",
		ep_plt_model_powerpc64_module.name, t->files,
		ep_plural(t->files, "module", "modules"), t->rejected);
	fprintf(out,
		"  branch stubs: %" PRIu64 " (minimal %" PRIu64 "), ftrace stubs %" PRIu64
		" (%" PRIu64 " out of line); .stubs %" PRIu64 " bytes (minimal %" PRIu64 ")\n",
		stub->reserved, stub->minimum, tramp->reserved, t->detail[SUM_OOL], bytes->reserved,
		bytes->minimum);
	ep_plt_print_kernels(out, t);
	fputc('\n', out);
	fprintf(out, "  sorting: %" PRIu64 " entries sorted, %" PRIu64 " needed a stub\n",
		t->sort.loader, t->sort.needed);
	if (timing_reps)
		fprintf(out,
			"  timing (sum of the modules' medians of %u): full sort %" PRIu64
			" ns, needed only %" PRIu64 " ns\n",
			timing_reps, t->sort.full_ns, t->sort.partitioned_ns);
	print_over(out, t->detail[SUM_SENTINEL], (int64_t)t->detail[SUM_ADDEND],
		   t->detail[SUM_LOCAL], t->detail[SUM_PER_SECTION]);
}

static json_t *json_over(uint64_t sentinel, int64_t addend, uint64_t local, uint64_t per_section)
{
	return json_pack("{s:o, s:I, s:o, s:o}", "sentinel", ep_json_u64(sentinel), "addend",
			 (json_int_t)addend, "local", ep_json_u64(local), "per_section",
			 ep_json_u64(per_section));
}

static json_t *ppc64_json_rules(const struct ep_plt_result *res)
{
	const struct ppc64_rules *r = &((const struct ppc64_detail *)res->detail)->rules;

	return json_pack("{s:b, s:I, s:b, s:b, s:I, s:I}", "sentinel_entry", r->sentinel,
			 "ftrace_stubs", (json_int_t)r->ftrace_stubs, "ftrace_out_of_line", r->ool,
			 "abi_check", r->abi_check, "stub_bytes", (json_int_t)PPC64_STUB_BYTES,
			 "ool_stub_bytes", (json_int_t)PPC64_OOL_STUB_BYTES);
}

static json_t *ppc64_json_detail(const struct ep_plt_result *res)
{
	const struct ppc64_detail *d = res->detail;
	struct over o = over_of(res);

	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "rel24_relocations",
			 ep_json_u64(d->rel24), "counted", ep_json_u64(d->counted),
			 "distinct_per_section", ep_json_u64(d->distinct), "needed_per_section",
			 ep_json_u64(d->distinct_needed), "ool_entries",
			 ep_json_u64(d->ool_entries), "ool_stubs", ep_json_u64(d->ool_stubs),
			 "over_allocation",
			 json_over(o.sentinel, o.addend, o.local, o.per_section));
}

static json_t *ppc64_json_section(const struct ep_plt_result *res, const struct ep_plt_section *s)
{
	(void)res;
	return json_pack("{s:o}", "rel24_relocations", ep_json_u64(s->branch_relocations));
}

static void ppc64_detail_sums(const struct ep_plt_result *res, uint64_t *sums)
{
	const struct ppc64_detail *d = res->detail;
	struct over o = over_of(res);

	sums[SUM_SENTINEL] = o.sentinel;
	sums[SUM_ADDEND] = (uint64_t)o.addend;
	sums[SUM_LOCAL] = o.local;
	sums[SUM_PER_SECTION] = o.per_section;
	sums[SUM_FTRACE] = d->rules.ftrace_stubs;
	sums[SUM_OOL] = d->ool_stubs;
	sums[SUM_REL24] = d->rel24;
}

static json_t *ppc64_json_totals(const struct ep_plt_totals *t)
{
	return json_pack("{s:o, s:o, s:o, s:o}", "rel24_relocations",
			 ep_json_u64(t->detail[SUM_REL24]), "ftrace_stubs",
			 ep_json_u64(t->detail[SUM_FTRACE]), "ool_stubs",
			 ep_json_u64(t->detail[SUM_OOL]), "over_allocation",
			 json_over(t->detail[SUM_SENTINEL], (int64_t)t->detail[SUM_ADDEND],
				   t->detail[SUM_LOCAL], t->detail[SUM_PER_SECTION]));
}

/* --by=cause: over_of(), as the JSON detail's over_allocation names it. */
static size_t ppc64_causes(const struct ep_plt_result *res, struct ep_plt_cause *out)
{
	const struct over o = over_of(res);

	out[0] = (struct ep_plt_cause){ "sentinel", (int64_t)o.sentinel };
	out[1] = (struct ep_plt_cause){ "addend", o.addend };
	out[2] = (struct ep_plt_cause){ "local", (int64_t)o.local };
	out[3] = (struct ep_plt_cause){ "per_section", (int64_t)o.per_section };
	return 4;
}

const struct ep_plt_model ep_plt_model_powerpc64_module = {
	.name = "powerpc64-module",
	.source = "Linux arch/powerpc/kernel/module_64.c (ELFv2), v6.1 to v7.2",
	.one = "powerpc64 module",
	.many = "powerpc64 modules",
	.check = ppc64_check,
	.analyse = ppc64_analyse,
	.columns = ppc64_columns,
	.ncolumns = sizeof(ppc64_columns) / sizeof(ppc64_columns[0]),
	.summary = ppc64_summary,
	.nsummary = sizeof(ppc64_summary) / sizeof(ppc64_summary[0]),
	.nsummary_timing = 2,
	.summary_values = ppc64_summary_values,
	.print_rules = ppc64_print_rules,
	.print_detail = ppc64_print_detail,
	.print_totals = ppc64_print_totals,
	.json_rules = ppc64_json_rules,
	.json_detail = ppc64_json_detail,
	.json_section = ppc64_json_section,
	.detail_sums = ppc64_detail_sums,
	.json_totals = ppc64_json_totals,
	.causes = ppc64_causes,
};
