/* SPDX-License-Identifier: MIT */
/*
 * The LoongArch kernel-module PLT/GOT model: what the module loader reserves
 * in .plt, .plt.idx, .got and .ftrace_trampoline, following Linux
 * arch/loongarch/kernel/module-sections.c (module_frob_arch_sections(),
 * count_max_entries()) and where arch/loongarch/kernel/module.c
 * (apply_relocate_add()) refuses a module, for each kernel from v6.1 to
 * v7.2.  Read in Debian's 6.1.176, 6.12.117 and 7.2.13 sources; the version
 * comes from --kernel, else the module's vermagic=, else 7.2 (Debian has
 * loong64 in unstable only).  What holds for which versions:
 *
 * - Only SHT_RELA sections whose target (sh_info) has SHF_EXECINSTR are
 *   counted, in one module-wide .plt/.plt.idx and one .got (no init/core
 *   split: group "module").  All versions.
 * - PLT: R_LARCH_B26 (66) and R_LARCH_SOP_PUSH_PLT_PCREL (29) each need a
 *   slot, whatever section their symbol is in.  GOT: R_LARCH_GOT_PC_HI20
 *   (75); from 7.x also R_LARCH_GOT_PCADD_HI20 (130, psABI v2.40's
 *   pcaddu12i-based GOT access, for LoongArch32).  It is in 7.2.13 and not in
 *   6.12.117; the commit (with the LoongArch32 work in the v7.0 cycle) was not
 *   found, so the model takes 7.0 as its first version (unverified).
 * - Duplicates, per section: an entry counts unless an entry with the same
 *   r_info (type and symbol) and r_addend was already counted.  v6.1 to
 *   v6.16 find it with duplicate_rela(), a scan of every earlier entry of the
 *   section (O(n^2)); 63dbd8fb2af3 ("LoongArch: Optimize module load time by
 *   optimizing PLT/GOT counting", v6.17-rc3, stable 6.6.103 (its release
 *   notes list it), and the 6.12.y and 6.16.y releases of the same week,
 *   taken here as 6.12.44 and 6.16.3 (unverified); 6.12.117 has it, 6.1.176
 *   not) sorts every relocation of the section in place with
 *   compare_rela() (r_info, then r_addend) and compares each entry with the
 *   one before it.  The counts are the same either way; the cost is not: the
 *   sort takes every relocation (PCALA, ABS, ALIGN, ...) although only the
 *   types above need a slot, as arm64 did before d4e0340919fb (v5.9).
 * - Sizes: .got (gots + 1) x sizeof(struct got_entry) = 8; .plt (plts + 1) x
 *   sizeof(struct plt_entry) = 16 on 64-bit (lu12i.w, lu32i.d, lu52i.d,
 *   jirl); .plt.idx (plts + 1) x sizeof(struct plt_idx_entry) = 8.  All
 *   versions.  .ftrace_trampoline, when present, NR_FTRACE_PLTS (2) x 16;
 *   sized from v6.2 (LoongArch's dynamic ftrace; absent in 6.1.176's
 *   module-sections.c and module.lds.h; the commit id was not looked up).
 * - Rejections (-ENOEXEC) in module_frob_arch_sections(), every version, in
 *   this order: "module GOT section(s) missing", "module PLT section(s)
 *   missing", "module PLT.IDX section(s) missing" (sections found by name,
 *   the last match wins).  Before that kernel/module/main.c refuses a module
 *   without SHT_SYMTAB ("module has no symbols (stripped?)").
 * - Rejections when relocating (kernel/module/main.c apply_relocations():
 *   every SHT_RELA/SHT_REL section whose target is SHF_ALLOC, in index
 *   order): SHT_REL: "REL relocation unsupported" (MODULES_USE_ELF_RELA);
 *   a type at or past the handler table: "Unknown relocation type %u" (the
 *   table ends at R_LARCH_64_PCREL (109) to 6.x, at
 *   R_LARCH_TLS_DESC_PCADD_LO12 (139) in 7.x); a type in the table the
 *   loader does not handle: "Unsupport relocation type %u, please add its
 *   support.".  Handled: NONE, 32, 64, MARK_LA, MARK_PCREL, SOP_PUSH_PCREL,
 *   SOP_PUSH_ABSOLUTE, SOP_PUSH_DUP, SOP_PUSH_PLT_PCREL, SOP_SUB..IF_ELSE,
 *   SOP_POP_*, ADD32..SUB64, B26, PCALA_HI20..PCALA64_HI12, GOT_PC_HI20 and
 *   GOT_PC_LO12 (every version); 32_PCREL (99) and 64_PCREL (109) from v6.7
 *   (Tiezhu Yang's series of 2023-09; absent in 6.1.176, present in 6.12.117;
 *   the tag is unverified); PCADD_HI20/LO12 and GOT_PCADD_HI20/LO12
 *   (128..131) with the rule for GOT_PCADD_HI20 above.  A PCADD_LO12 or
 *   GOT_PCADD_LO12 whose symbol does not sit at the r_offset of a HI20 of
 *   the matching type in the same section: "Can not find HI20 relocation
 *   information".  And when relocating creates more GOT entries than were
 *   reserved (a GOT_PC_LO12 whose target no GOT_PC_HI20 has, or a GOT
 *   relocation in a non-executable section): "module contains bad GOT
 *   relocation" (every version).  The PLT cannot overflow that way: only
 *   B26 and SOP_PUSH_PLT_PCREL emit PLT entries.
 *
 * The minimum is what the same loader would need with perfect duplicate
 * detection: module_emit_plt_entry() and module_emit_got_entry() reuse an
 * entry by target address across the whole module, so the minimum counts,
 * per kind, the distinct targets of the relocations the loader counts,
 * module-wide.  A target is (section, st_value + r_addend) for a symbol
 * defined in a section, (SHN_ABS, st_value + r_addend) for an absolute one,
 * and (symbol, r_addend) for an undefined one (its address is not known
 * before loading).  The over-allocation, reserved - minimum, by cause:
 *   type_split      one target under two counted types in one section
 *                   (B26 and SOP_PUSH_PLT_PCREL; GOT_PC_HI20 and
 *                   GOT_PCADD_HI20): r_info differs, so both count;
 *   alias           one target through two symbols in one section (a
 *                   section symbol plus offset and the function's own
 *                   symbol);
 *   across_sections one target counted again in each further section.
 * Entries out of branch range decide at run time whether a PLT slot is used
 * at all; like the loader, neither count looks at that.
 */
#include "config.h"

#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/plt-kernel.h"
#include "lib/plt.h"
#include "lib/report.h"

#ifndef EM_LOONGARCH
#define EM_LOONGARCH 258
#endif

/* LoongArch psABI relocation types; Debian 12's <elf.h> stops at 58. */
enum {
	LA_R_NONE = 0,
	LA_R_32 = 1,
	LA_R_64 = 2,
	LA_R_MARK_LA = 20,
	LA_R_MARK_PCREL = 21,
	LA_R_SOP_PUSH_PCREL = 22,
	LA_R_SOP_PUSH_ABSOLUTE = 23,
	LA_R_SOP_PUSH_DUP = 24,
	LA_R_SOP_PUSH_PLT_PCREL = 29,
	LA_R_SOP_SUB = 32,
	LA_R_SOP_IF_ELSE = 37,
	LA_R_SOP_POP_32_S_10_5 = 38,
	LA_R_SOP_POP_32_U = 46,
	LA_R_ADD32 = 50,
	LA_R_SUB64 = 56,
	LA_R_B26 = 66,
	LA_R_PCALA_HI20 = 71,
	LA_R_PCALA64_HI12 = 74,
	LA_R_GOT_PC_HI20 = 75,
	LA_R_GOT_PC_LO12 = 76,
	LA_R_32_PCREL = 99,
	LA_R_64_PCREL = 109,
	LA_R_PCADD_HI20 = 128,
	LA_R_PCADD_LO12 = 129,
	LA_R_GOT_PCADD_HI20 = 130,
	LA_R_GOT_PCADD_LO12 = 131,
	LA_R_TLS_DESC_PCADD_LO12 = 139,
};

#define LA_KVER_FLOOR	EP_KVER(6, 1, 0)
#define LA_KVER_DEFAULT EP_KVER(7, 2, 0)
#define LA_KVER_CHECKED EP_KVER(7, 2, 0)

/* asm/module.h, CONFIG_64BIT. */
#define LA_PLT_ENTRY_BYTES     16
#define LA_PLT_IDX_ENTRY_BYTES 8
#define LA_GOT_ENTRY_BYTES     8
/* asm/ftrace.h (6.12.117, 7.2.13). */
#define LA_NR_FTRACE_PLTS 2

/* The kinds the loader counts, as indexes of the model's own arrays. */
enum { LA_PLT, LA_GOT, LA_NKIND };

/* The rules that change between versions (see the header for each). */
struct la_rules {
	bool sort;	   /* 63dbd8fb2af3: sort() instead of duplicate_rela() */
	bool got_pcadd;	   /* GOT_PCADD_HI20 counted, PCADD types handled (7.x) */
	bool tramp;	   /* .ftrace_trampoline sized (v6.2) */
	bool pcrel;	   /* 32_PCREL and 64_PCREL handled (v6.7) */
	uint32_t handlers; /* ARRAY_SIZE(reloc_rela_handlers) */
};

/* v is in series major.minor at sublevel sub or later (a stable backport). */
static bool stable_from(uint32_t v, uint32_t major, uint32_t minor, uint32_t sub)
{
	return (v & ~0xffu) == EP_KVER(major, minor, 0) && EP_KVER_SUB(v) >= sub;
}

static void rules_for(uint32_t version, struct la_rules *r)
{
	uint32_t v = version < LA_KVER_FLOOR ? LA_KVER_FLOOR : version;

	r->sort = v >= EP_KVER(6, 17, 0) || stable_from(v, 6, 16, 3) || stable_from(v, 6, 12, 44) ||
		  stable_from(v, 6, 6, 103);
	r->got_pcadd = v >= EP_KVER(7, 0, 0);
	r->tramp = v >= EP_KVER(6, 2, 0);
	r->pcrel = v >= EP_KVER(6, 7, 0);
	r->handlers = r->got_pcadd ? LA_R_TLS_DESC_PCADD_LO12 + 1 : LA_R_64_PCREL + 1;
}

/* Which counter of count_max_entries() a type feeds: LA_PLT, LA_GOT or -1. */
static int counted_kind(uint32_t type, const struct la_rules *r)
{
	if (type == LA_R_B26 || type == LA_R_SOP_PUSH_PLT_PCREL)
		return LA_PLT;
	if (type == LA_R_GOT_PC_HI20 || (r->got_pcadd && type == LA_R_GOT_PCADD_HI20))
		return LA_GOT;
	return -1;
}

/* Does apply_relocate_add() reach a handler for type (below rules->handlers)? */
static bool type_handled(uint32_t t, const struct la_rules *r)
{
	switch (t) {
	case LA_R_NONE:
	case LA_R_32:
	case LA_R_64:
	case LA_R_MARK_LA:
	case LA_R_MARK_PCREL:
	case LA_R_SOP_PUSH_PCREL:
	case LA_R_SOP_PUSH_ABSOLUTE:
	case LA_R_SOP_PUSH_DUP:
	case LA_R_SOP_PUSH_PLT_PCREL:
	case LA_R_B26:
	case LA_R_GOT_PC_HI20:
	case LA_R_GOT_PC_LO12:
		return true;
	case LA_R_32_PCREL:
	case LA_R_64_PCREL:
		return r->pcrel;
	case LA_R_PCADD_HI20:
	case LA_R_PCADD_LO12:
	case LA_R_GOT_PCADD_HI20:
	case LA_R_GOT_PCADD_LO12:
		return r->got_pcadd;
	}
	return (t >= LA_R_SOP_SUB && t <= LA_R_SOP_IF_ELSE) ||
	       (t >= LA_R_SOP_POP_32_S_10_5 && t <= LA_R_SOP_POP_32_U) ||
	       (t >= LA_R_ADD32 && t <= LA_R_SUB64) ||
	       (t >= LA_R_PCALA_HI20 && t <= LA_R_PCALA64_HI12);
}

/* ---- the symbols, as the loader and the minimum need them ------------------ */

struct la_syms {
	size_t count;
	uint16_t *shndx; /* raw st_shndx */
	uint64_t *value; /* st_value */
};

static void syms_free(struct la_syms *s)
{
	free(s->shndx);
	free(s->value);
}

static int syms_read(struct ep_image *img, size_t symidx, struct la_syms *s, struct ep_error *err)
{
	struct ep_symtab st;
	size_t i;
	int rc;

	memset(s, 0, sizeof(*s));
	rc = ep_symtab_open(img, symidx, &st, err);
	if (rc)
		return rc;
	s->shndx = malloc((st.count ? st.count : 1) * sizeof(*s->shndx));
	s->value = malloc((st.count ? st.count : 1) * sizeof(*s->value));
	if (!s->shndx || !s->value) {
		syms_free(s);
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory for %zu symbols", img->path,
				    st.count);
	}
	/* ELFCLASS64 only (la_check()); elf_getdata() gave host byte order. */
	for (i = 0; i < st.count; i++) {
		const Elf64_Sym *sym = (const Elf64_Sym *)st.data->d_buf + i;

		s->shndx[i] = sym->st_shndx;
		s->value[i] = sym->st_value;
	}
	s->count = st.count;
	return 0;
}

/*
 * A counted relocation's keys.  loader: what compare_rela() compares
 * (r_info = sym << 32 | type, r_addend); merged: the same without the type;
 * target: the address the entry will hold (see the header).
 */
struct la_key {
	uint64_t a, b, c;
};

struct la_ent {
	struct la_key loader, merged, target;
	int kind;
	size_t index; /* in the section, for the duplicate_rela() cost */
	bool reserved; /* the first of its loader key in the section: counted */
	size_t site;   /* --by: its res->sites[] index */
};

static int key_cmp(const struct la_key *x, const struct la_key *y)
{
	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	if (x->b != y->b)
		return x->b < y->b ? -1 : 1;
	return x->c < y->c ? -1 : x->c > y->c;
}

static int cmp_loader(const void *x, const void *y)
{
	const struct la_ent *p = x, *q = y;
	int c = key_cmp(&p->loader, &q->loader);

	return c ? c : (p->index < q->index ? -1 : p->index > q->index);
}

static int cmp_merged(const void *x, const void *y)
{
	const struct la_ent *p = x, *q = y;

	return p->kind != q->kind ? p->kind - q->kind : key_cmp(&p->merged, &q->merged);
}

static int cmp_target(const void *x, const void *y)
{
	const struct la_ent *p = x, *q = y;

	return p->kind != q->kind ? p->kind - q->kind : key_cmp(&p->target, &q->target);
}

static struct la_key target_of(const struct ep_rel *r, const struct la_syms *s)
{
	uint16_t shndx = s->shndx[r->r_sym];
	uint64_t addr = s->value[r->r_sym] + (uint64_t)r->r_addend;

	if (shndx == SHN_ABS)
		return (struct la_key){ 2, 0, addr };
	if (shndx != SHN_UNDEF && shndx < SHN_LORESERVE)
		return (struct la_key){ 1, shndx, addr };
	return (struct la_key){ 0, r->r_sym, (uint64_t)r->r_addend };
}

/* Distinct runs of ents[0..n) (sorted by cmp) per kind, added to out[]. */
typedef int (*la_cmp)(const void *, const void *);

static void count_distinct(const struct la_ent *e, size_t n, la_cmp cmp, uint64_t *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (i == 0 || cmp(&e[i - 1], &e[i]) != 0)
			out[e[i].kind]++;
}

/* ---- one section ------------------------------------------------------------ */

/* The model's own part of a section record (res->secs[i] is secs[i]). */
struct la_sec {
	uint64_t slots[LA_NKIND]; /* what count_max_entries() adds */
	uint64_t need[LA_NKIND];  /* counted relocations */
	uint64_t comparisons;	  /* is_rela_equal() calls of duplicate_rela() */
};

/* The model's own part of a result (res->detail); secs[] as many as res->secs. */
struct la_detail {
	struct la_rules rules;
	uint64_t need[LA_NKIND];
	uint64_t reserved[LA_NKIND], merged[LA_NKIND], untyped[LA_NKIND], minimum[LA_NKIND];
	uint64_t comparisons;
	uint64_t got_runtime; /* distinct GOT targets relocating creates */
	char why[160];	      /* a relocation refusal's message (res->rejects) */
	struct la_ent *all;   /* counted entries of every section, for the minimum */
	size_t nall;
	size_t nsecs, cap;
	struct la_sec secs[];
};

/*
 * count_max_entries() of one section, pure: the loader's counts (r_info and
 * r_addend equal), the same with types merged and by target, into d, and the
 * section's counted entries appended to d->all.  The duplicate_rela() cost:
 * entry i compares with 0..i-1 and stops at the first equal one.
 */
static int count_section(const struct ep_rel *r, size_t n, const struct la_syms *s,
			 struct la_detail *d, struct la_sec *out)
{
	struct la_ent *e, *grown;
	uint64_t merged[LA_NKIND] = { 0 }, untyped[LA_NKIND] = { 0 };
	size_t i, m = 0, first_index = 0;
	int k;

	grown = realloc(d->all, (d->nall + n + 1) * sizeof(*grown));
	if (!grown)
		return -EP_ENOMEM;
	d->all = grown;
	e = d->all + d->nall;
	for (i = 0; i < n; i++) {
		k = counted_kind(r[i].r_type, &d->rules);
		if (k < 0)
			continue;
		e[m].kind = k;
		e[m].index = i;
		e[m].loader = (struct la_key){ (uint64_t)r[i].r_sym << 32 | r[i].r_type,
					       (uint64_t)r[i].r_addend, 0 };
		e[m].merged = (struct la_key){ r[i].r_sym, (uint64_t)r[i].r_addend, 0 };
		e[m].target = target_of(&r[i], s);
		out->need[k]++;
		m++;
	}
	if (m) /* qsort() takes no NULL, even for 0 elements */
		qsort(e, m, sizeof(*e), cmp_loader);
	for (i = 0; i < m; i++) {
		/* The first of a run is the first occurrence in the section. */
		bool first = i == 0 || key_cmp(&e[i - 1].loader, &e[i].loader) != 0;

		e[i].reserved = first;
		if (first) {
			first_index = e[i].index;
			out->slots[e[i].kind]++;
			out->comparisons += e[i].index;
		} else {
			out->comparisons += first_index + 1;
		}
	}
	if (m) /* qsort() takes no NULL, even for 0 elements */
		qsort(e, m, sizeof(*e), cmp_merged);
	count_distinct(e, m, cmp_merged, merged);
	if (m) /* qsort() takes no NULL, even for 0 elements */
		qsort(e, m, sizeof(*e), cmp_target);
	count_distinct(e, m, cmp_target, untyped);
	for (k = 0; k < LA_NKIND; k++) {
		d->need[k] += out->need[k];
		d->reserved[k] += out->slots[k];
		d->merged[k] += merged[k];
		d->untyped[k] += untyped[k];
	}
	d->comparisons += out->comparisons;
	d->nall += m;
	return 0;
}

/* ---- --timing: the loader's way and the partitioned way, on copies --------- */

/* compare_rela(): r_info, then r_addend (signed). */
static int cmp_kernel_rela(const void *a, const void *b)
{
	const struct ep_kernel_rela *x = a, *y = b;

	if (x->r_info != y->r_info)
		return x->r_info < y->r_info ? -1 : 1;
	return x->r_addend < y->r_addend ? -1 : x->r_addend > y->r_addend;
}

/* The counting loop after the sort: returns the slots, so it is not optimised away. */
static uint64_t count_sorted(const struct ep_kernel_rela *a, size_t n, const struct la_rules *r)
{
	uint64_t slots = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if ((i == 0 || cmp_kernel_rela(&a[i - 1], &a[i]) != 0) &&
		    counted_kind((uint32_t)a[i].r_info, r) >= 0)
			slots++;
	return slots;
}

/* count_max_entries() before 63dbd8fb2af3: duplicate_rela() for each counted entry. */
static uint64_t count_scan(const struct ep_kernel_rela *a, size_t n, const struct la_rules *r)
{
	uint64_t slots = 0;
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (counted_kind((uint32_t)a[i].r_info, r) < 0)
			continue;
		for (j = 0; j < i; j++)
			if (a[j].r_info == a[i].r_info && a[j].r_addend == a[i].r_addend)
				break;
		slots += j == i;
	}
	return slots;
}

static size_t partition_counted(struct ep_kernel_rela *a, size_t n, const struct la_rules *r)
{
	size_t i, m = 0;
	struct ep_kernel_rela t;

	for (i = 0; i < n; i++)
		if (counted_kind((uint32_t)a[i].r_info, r) >= 0) {
			t = a[m], a[m] = a[i], a[i] = t;
			m++;
		}
	return m;
}

/* A sink for the timed counts. */
static volatile uint64_t timing_sink;

/*
 * Median ns of reps runs of the loader's own count_max_entries() (sort of
 * every entry, or the duplicate_rela() scan before 63dbd8fb2af3) and of
 * partition + sort of the counted entries only, each on a fresh copy of the
 * section in file order.  Returns 0 or -EP_ENOMEM.
 */
static int time_section(const struct ep_rel *r, size_t n, const struct la_rules *rules,
			unsigned int reps, uint64_t *full_ns, uint64_t *part_ns)
{
	struct ep_kernel_rela *orig = malloc((n ? n : 1) * sizeof(*orig));
	struct ep_kernel_rela *work = malloc((n ? n : 1) * sizeof(*work));
	uint64_t *full = calloc(reps ? reps : 1, sizeof(*full)), t0;
	uint64_t *part = calloc(reps ? reps : 1, sizeof(*part));
	unsigned int k, runs = 0;
	size_t m;
	int rc = -EP_ENOMEM;

	*full_ns = *part_ns = 0;
	if (!reps) {
		rc = 0;
		goto out;
	}
	if (!orig || !work || !full || !part)
		goto out;
	ep_kernel_rela_from(orig, r, n);
	for (k = 0; k < reps && (!k || full[k - 1] < EP_PLT_TIMING_SLOW_NS); k++) {
		memcpy(work, orig, n * sizeof(*work));
		t0 = ep_plt_now_ns();
		if (rules->sort) {
			ep_kernel_sort(work, n, sizeof(*work), cmp_kernel_rela);
			timing_sink += count_sorted(work, n, rules);
		} else {
			timing_sink += count_scan(work, n, rules);
		}
		full[k] = ep_plt_now_ns() - t0;

		memcpy(work, orig, n * sizeof(*work));
		t0 = ep_plt_now_ns();
		m = partition_counted(work, n, rules);
		ep_kernel_sort(work, m, sizeof(*work), cmp_kernel_rela);
		timing_sink += count_sorted(work, m, rules);
		part[k] = ep_plt_now_ns() - t0;
		runs++;
	}
	*full_ns = ep_plt_median_ns(full, runs);
	*part_ns = ep_plt_median_ns(part, runs);
	rc = 0;
out:
	free(orig);
	free(work);
	free(full);
	free(part);
	return rc;
}

/* ---- the loader's refusals --------------------------------------------------- */

/*
 * apply_relocate_add()'s -EINVAL for one section, or NULL: the first entry
 * whose type has no handler, or a PCADD_LO12 / GOT_PCADD_LO12 whose HI20 is
 * not where its symbol points.  buf holds the message.
 */
static const char *section_rejects(const struct ep_rel *r, size_t n, const struct la_syms *s,
				   size_t target, const struct la_rules *rules, char *buf,
				   size_t size)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		uint32_t t = r[i].r_type;

		if (t >= rules->handlers) {
			snprintf(buf, size, "Unknown relocation type %u", t);
			return buf;
		}
		if (!type_handled(t, rules)) {
			snprintf(buf, size, "Unsupport relocation type %u, please add its support.",
				 t);
			return buf;
		}
		if (t != LA_R_PCADD_LO12 && t != LA_R_GOT_PCADD_LO12)
			continue;
		/* The HI20 sits at the LO12 symbol's address: same section, r_offset == st_value. */
		for (j = 0; j < n; j++)
			if (r[j].r_type == t - 1 && s->shndx[r[i].r_sym] == target &&
			    r[j].r_offset == s->value[r[i].r_sym])
				break;
		if (j == n) {
			snprintf(buf, size, "Can not find HI20 relocation information");
			return buf;
		}
	}
	return NULL;
}

/* ---- the model over one image ---------------------------------------------- */

extern const struct ep_plt_model ep_plt_model_loongarch_module;

static const char *la_check(const struct ep_image *img, bool forced)
{
	if (img->ehdr.e_machine != EM_LOONGARCH)
		return "the loongarch-module model needs a LoongArch file (e_machine EM_LOONGARCH)";
	if (img->ehdr.e_ident[EI_CLASS] != ELFCLASS64)
		return "the loongarch-module model needs an ELFCLASS64 file (LoongArch64's "
		       "Elf64_Rela; LoongArch32 is not modelled)";
	if (img->ehdr.e_type != ET_REL)
		return "the loongarch-module model needs a relocatable file (ET_REL)";
	if (!forced && !ep_image_is_kernel_module(img))
		return "not a kernel module (no .modinfo and .gnu.linkonce.this_module)";
	return NULL;
}

/* The sections module_frob_arch_sections() looks for by name; the last match wins. */
struct frob_sections {
	size_t got, plt, plt_idx, tramp, symidx;
};

static void find_sections(const struct ep_image *img, struct frob_sections *f)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < img->shnum; i++) {
		const char *name = img->sections[i].name;

		if (strcmp(name, ".got") == 0)
			f->got = i;
		else if (strcmp(name, ".plt") == 0)
			f->plt = i;
		else if (strcmp(name, ".plt.idx") == 0)
			f->plt_idx = i;
		else if (strcmp(name, ".ftrace_trampoline") == 0)
			f->tramp = i;
		if (img->sections[i].shdr.sh_type == SHT_SYMTAB)
			f->symidx = i;
	}
}

static const char *frob_rejects(const struct frob_sections *f)
{
	if (!f->symidx)
		return "module has no symbols (stripped?)";
	if (!f->got)
		return "module GOT section(s) missing";
	if (!f->plt)
		return "module PLT section(s) missing";
	if (!f->plt_idx)
		return "module PLT.IDX section(s) missing";
	return NULL;
}

/* Is section idx one apply_relocations() relocates (target SHF_ALLOC)? */
static bool relocated(const struct ep_image *img, size_t idx)
{
	const GElf_Shdr *sh = &img->sections[idx].shdr;

	return (sh->sh_type == SHT_RELA || sh->sh_type == SHT_REL) && sh->sh_info < img->shnum &&
	       (img->sections[sh->sh_info].shdr.sh_flags & SHF_ALLOC);
}

/* Read relocation section idx, every r_sym checked against the symbol table. */
static int read_checked(struct ep_image *img, size_t idx, const struct la_syms *s,
			struct ep_rel **r, size_t *n, struct ep_error *err)
{
	struct ep_relsec rs;
	size_t i;
	int rc = ep_plt_read_section(img, idx, &rs, r, err);

	if (rc)
		return rc;
	*n = rs.count;
	for (i = 0; i < rs.count; i++) {
		uint32_t sym = (*r)[i].r_sym;

		if (sym < s->count)
			continue;
		free(*r);
		*r = NULL;
		return ep_error_set(err, EP_EMALFORMED,
				    "%s: relocation %zu has symbol %u, the symbol table has %zu "
				    "(section %zu %s)",
				    img->path, i, sym, s->count, idx, ep_section_label(img, idx));
	}
	return 0;
}

/*
 * The GOT entries relocating creates: module_emit_got_entry() for every
 * GOT_PC_HI20, GOT_PC_LO12 and GOT_PCADD_HI20 of every relocated section,
 * one per distinct target.  More than were reserved: "module contains bad
 * GOT relocation".  Returns the count, or UINT64_MAX out of memory.
 */
static uint64_t got_runtime(struct ep_image *img, const struct la_syms *s,
			    const struct la_rules *rules, struct ep_error *err, int *rc)
{
	struct la_ent *e = NULL, *grown;
	struct ep_rel *r = NULL;
	size_t idx, i, n, m = 0;
	uint64_t distinct[LA_NKIND] = { 0 };

	for (idx = 1; idx < img->shnum; idx++) {
		if (img->sections[idx].shdr.sh_type != SHT_RELA || !relocated(img, idx))
			continue;
		*rc = read_checked(img, idx, s, &r, &n, err);
		if (*rc)
			goto out;
		grown = realloc(e, (m + n + 1) * sizeof(*e));
		if (!grown) {
			*rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
			goto out;
		}
		e = grown;
		for (i = 0; i < n; i++) {
			uint32_t t = r[i].r_type;

			if (t != LA_R_GOT_PC_HI20 && t != LA_R_GOT_PC_LO12 &&
			    !(rules->got_pcadd && t == LA_R_GOT_PCADD_HI20))
				continue;
			memset(&e[m], 0, sizeof(e[m]));
			e[m].kind = LA_GOT;
			e[m++].target = target_of(&r[i], s);
		}
		free(r);
		r = NULL;
	}
	if (m) /* qsort() takes no NULL, even for 0 elements */
		qsort(e, m, sizeof(*e), cmp_target);
	count_distinct(e, m, cmp_target, distinct);
out:
	free(r);
	free(e);
	return *rc ? UINT64_MAX : distinct[LA_GOT];
}

/*
 * The relocation pass's refusals, in apply_relocations()' order; buf holds
 * the message.  Returns 0 (with *why NULL or buf) or a negative ep_errcode.
 */
static int relocation_rejects(struct ep_image *img, const struct la_syms *s,
			      const struct la_rules *rules, char *buf, size_t size,
			      const char **why, struct ep_error *err)
{
	struct ep_rel *r = NULL;
	size_t idx, n;
	int rc;

	*why = NULL;
	for (idx = 1; idx < img->shnum && !*why; idx++) {
		const GElf_Shdr *sh = &img->sections[idx].shdr;

		if (!relocated(img, idx))
			continue;
		if (sh->sh_type == SHT_REL) {
			snprintf(buf, size, "REL relocation unsupported (section %zu %s)", idx,
				 img->sections[idx].name);
			*why = buf;
			break;
		}
		rc = read_checked(img, idx, s, &r, &n, err);
		if (rc)
			return rc;
		*why = section_rejects(r, n, s, sh->sh_info, rules, buf, size);
		free(r);
		r = NULL;
	}
	return 0;
}

/* Add one counted section: records, sort, timing. */
/*
 * --by: the counted entries e[0..m) of the section rec (r its relocations)
 * as sites, reserved when count_max_entries() counted them; which is the
 * first of its target module-wide (minimum) module_minimum() marks.
 */
static int record_sites(struct ep_plt_result *res, const struct ep_plt_section *rec,
			const struct ep_rel *r, struct la_ent *e, size_t m)
{
	size_t i;

	for (i = 0; i < m; i++) {
		const struct ep_rel *x = &r[e[i].index];
		struct ep_plt_site *p = ep_plt_site_add(res);

		if (!p)
			return -EP_ENOMEM;
		p->relsec = rec->index;
		p->target = rec->target;
		p->r_offset = x->r_offset;
		p->r_type = x->r_type;
		p->r_sym = x->r_sym;
		p->r_addend = x->r_addend;
		p->kind = e[i].kind == LA_PLT ? EP_PLT_KIND_PLT : EP_PLT_KIND_GOT;
		p->group = EP_PLT_MODULE;
		p->reserved = e[i].reserved;
		e[i].site = res->nsites - 1;
	}
	return 0;
}

static int count_one(struct ep_image *img, size_t idx, const struct la_syms *s,
		     struct ep_plt_result *res, struct ep_error *err)
{
	struct la_detail *d = res->detail;
	const GElf_Shdr *sh = &img->sections[idx].shdr;
	struct ep_plt_section *rec;
	struct la_sec *ls;
	struct ep_rel *r = NULL;
	size_t n, nall;
	int rc;

	rc = read_checked(img, idx, s, &r, &n, err);
	if (rc)
		return rc;
	rec = ep_plt_section_add(res);
	if (!rec || d->nsecs >= d->cap) {
		free(r);
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	}
	ls = &d->secs[d->nsecs++];
	rec->index = idx;
	rec->name = img->sections[idx].name;
	rec->target = sh->sh_info;
	rec->target_name = img->sections[sh->sh_info].name;
	rec->group = EP_PLT_MODULE;
	rec->relocations = n;
	rc = time_section(r, n, &d->rules, res->opt.timing_reps, &rec->full_ns,
			  &rec->partitioned_ns);
	nall = d->nall;
	if (rc == 0)
		rc = count_section(r, n, s, d, ls);
	if (rc == 0 && res->opt.sites)
		rc = record_sites(res, rec, r, d->all + nall, d->nall - nall);
	free(r);
	if (rc)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	rec->branch_relocations = ls->need[LA_PLT];
	rec->plt_relocations = ls->need[LA_PLT] + ls->need[LA_GOT];
	rec->got_relocations = ls->need[LA_GOT];
	rec->slots = ls->slots[LA_PLT] + ls->slots[LA_GOT];
	rec->slots_minimal = rec->slots;
	rec->sorted_full = n;
	rec->sorted_partitioned = d->rules.sort ? n : 0;
	res->sort.full += n;
	res->sort.loader += rec->sorted_partitioned;
	res->sort.needed += rec->plt_relocations;
	res->sort.sections++;
	res->sort.sections_unsorted += !rec->sorted_partitioned;
	res->sort.full_ns += rec->full_ns;
	res->sort.partitioned_ns += rec->partitioned_ns;
	return 0;
}

/* The sections the loader sizes: (n + 1) entries each, the trampoline NR_FTRACE_PLTS. */
static void size_sections(struct ep_plt_result *res, const struct frob_sections *f)
{
	const struct la_detail *d = res->detail;
	const struct ep_plt_count *plt = &res->slots[EP_PLT_KIND_PLT][EP_PLT_MODULE];
	const struct ep_plt_count *got = &res->slots[EP_PLT_KIND_GOT][EP_PLT_MODULE];
	struct ep_plt_count *tr = &res->slots[EP_PLT_KIND_TRAMPOLINE][EP_PLT_MODULE];
	struct ep_plt_sized *z;

	z = ep_plt_sized_add(res, ".got", f->got, EP_PLT_KIND_GOT, EP_PLT_MODULE);
	z->bytes = (struct ep_plt_count){ (got->reserved + 1) * LA_GOT_ENTRY_BYTES,
					  (got->minimum + 1) * LA_GOT_ENTRY_BYTES };
	z = ep_plt_sized_add(res, ".plt", f->plt, EP_PLT_KIND_PLT, EP_PLT_MODULE);
	z->bytes = (struct ep_plt_count){ (plt->reserved + 1) * LA_PLT_ENTRY_BYTES,
					  (plt->minimum + 1) * LA_PLT_ENTRY_BYTES };
	z = ep_plt_sized_add(res, ".plt.idx", f->plt_idx, EP_PLT_KIND_PLT, EP_PLT_MODULE);
	z->bytes = (struct ep_plt_count){ (plt->reserved + 1) * LA_PLT_IDX_ENTRY_BYTES,
					  (plt->minimum + 1) * LA_PLT_IDX_ENTRY_BYTES };
	if (f->tramp && d->rules.tramp) {
		tr->reserved = tr->minimum = LA_NR_FTRACE_PLTS;
		z = ep_plt_sized_add(res, ".ftrace_trampoline", f->tramp, EP_PLT_KIND_TRAMPOLINE,
				     EP_PLT_MODULE);
		z->bytes.reserved = z->bytes.minimum = LA_NR_FTRACE_PLTS * LA_PLT_ENTRY_BYTES;
	}
}

/* Sections module_frob_arch_sections() counts: SHT_RELA with an executable target. */
static bool counted_section(const struct ep_image *img, size_t idx)
{
	const GElf_Shdr *sh = &img->sections[idx].shdr;

	/* sh_info out of range: let ep_relsec_open() say so. */
	return sh->sh_type == SHT_RELA &&
	       (sh->sh_info >= img->shnum || ep_section_is_exec(img, sh->sh_info));
}

/* The minimum and the over-allocation's causes, from every section's counted entries. */
static void module_minimum(struct ep_plt_result *res)
{
	struct la_detail *d = res->detail;
	static const enum ep_plt_kind kinds[LA_NKIND] = { EP_PLT_KIND_PLT, EP_PLT_KIND_GOT };
	size_t i;
	int k;

	if (d->nall) /* qsort() takes no NULL, even for 0 elements */
		qsort(d->all, d->nall, sizeof(*d->all), cmp_target);
	count_distinct(d->all, d->nall, cmp_target, d->minimum);
	/* --by: the first of each target is what the minimum counts. */
	for (i = 0; res->sites_recorded && i < d->nall; i++)
		if (i == 0 || cmp_target(&d->all[i - 1], &d->all[i]) != 0)
			res->sites[d->all[i].site].minimum = true;
	for (k = 0; k < LA_NKIND; k++) {
		res->slots[kinds[k]][EP_PLT_MODULE].reserved = d->reserved[k];
		res->slots[kinds[k]][EP_PLT_MODULE].minimum = d->minimum[k];
	}
	free(d->all);
	d->all = NULL;
}

static int la_analyse(struct ep_image *img, struct ep_plt_result *res, struct ep_error *err)
{
	struct frob_sections f;
	struct la_detail *d;
	struct la_syms s = { 0 };
	size_t i, ncounted = 0;
	uint64_t got_rt;
	const char *reloc_why = NULL;
	int rc;

	rc = ep_plt_kernel_choose(img, &res->opt, LA_KVER_DEFAULT, LA_KVER_FLOOR, LA_KVER_CHECKED,
				  &res->kernel, err);
	if (rc)
		return rc;
	for (i = 1; i < img->shnum; i++)
		ncounted += counted_section(img, i);
	d = calloc(1, sizeof(*d) + (ncounted + 1) * sizeof(d->secs[0]));
	if (!d)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	res->detail = d;
	res->sites_recorded = res->opt.sites;
	d->cap = ncounted;
	rules_for(res->kernel.version, &d->rules);
	res->sort.applies = true;

	find_sections(img, &f);
	res->rejects = frob_rejects(&f);
	/* Without a symbol table there is nothing the loader could count. */
	if (!f.symidx) {
		size_sections(res, &f);
		return 0;
	}
	rc = syms_read(img, f.symidx, &s, err);
	if (rc)
		return rc;
	for (i = 1; i < img->shnum && rc == 0; i++)
		if (counted_section(img, i))
			rc = count_one(img, i, &s, res, err);
	if (rc)
		goto out;
	module_minimum(res);
	size_sections(res, &f);
	if (!res->rejects) {
		rc = relocation_rejects(img, &s, &d->rules, d->why, sizeof(d->why), &reloc_why,
					err);
		if (rc)
			goto out;
		res->rejects = reloc_why;
	}
	got_rt = got_runtime(img, &s, &d->rules, err, &rc);
	if (rc)
		goto out;
	d->got_runtime = got_rt;
	if (!res->rejects && got_rt > d->reserved[LA_GOT])
		res->rejects = "module contains bad GOT relocation";
out:
	free(d->all);
	d->all = NULL;
	syms_free(&s);
	return rc;
}

/* ---- how the model shows what is its own ------------------------------------ */

/* The record's index in res->secs, to find its la_sec. */
static const struct la_sec *la_sec_of(const struct ep_plt_result *res,
				      const struct ep_plt_section *s)
{
	const struct la_detail *d = res->detail;
	size_t i = (size_t)(s - res->secs);

	return i < d->nsecs ? &d->secs[i] : NULL;
}

static uint64_t col_plt_need(const struct ep_plt_section *s)
{
	return s->branch_relocations;
}

static uint64_t col_got_need(const struct ep_plt_section *s)
{
	return s->got_relocations;
}

static const struct ep_plt_column la_columns[] = {
	{ "[Nr]", EP_PLT_COL_INDEX, NULL },
	{ "relocations", EP_PLT_COL_NAME, NULL },
	{ "target", EP_PLT_COL_TARGET, NULL },
	{ "relocs", EP_PLT_COL_RELOCATIONS, NULL },
	{ "plt rel", EP_PLT_COL_VALUE, col_plt_need },
	{ "got rel", EP_PLT_COL_VALUE, col_got_need },
	{ "slots", EP_PLT_COL_SLOTS, NULL },
	{ "sorted", EP_PLT_COL_SORT_LOADER, NULL },
	{ "needed", EP_PLT_COL_NEED, NULL },
	{ "full ns", EP_PLT_COL_FULL_NS, NULL },
	{ "part ns", EP_PLT_COL_PART_NS, NULL },
};

static const char *const la_summary[] = { "module", "sorted",  "needed",  "plt",
					  "got",    "minimal", "full ns", "part ns" };

static void la_summary_values(const struct ep_plt_result *res, uint64_t *v)
{
	const struct ep_plt_count *plt = &res->slots[EP_PLT_KIND_PLT][EP_PLT_MODULE];
	const struct ep_plt_count *got = &res->slots[EP_PLT_KIND_GOT][EP_PLT_MODULE];

	v[0] = res->sort.loader;
	v[1] = res->sort.needed;
	v[2] = plt->reserved;
	v[3] = got->reserved;
	v[4] = plt->minimum + got->minimum;
	v[5] = res->sort.full_ns;
	v[6] = res->sort.partitioned_ns;
}

static void la_print_rules(FILE *out, const struct ep_plt_result *res)
{
	const struct la_detail *d = res->detail;

	fprintf(out, ", %s", d->rules.sort ? "sorts every relocation" : "duplicate_rela() scan");
	if (d->rules.got_pcadd)
		fputs(", GOT_PCADD_HI20 counted", out);
}

/* Over-allocation of kind k by cause; they sum to reserved - minimum. */
static void causes(const struct la_detail *d, int k, uint64_t *type_split, uint64_t *alias,
		   uint64_t *across)
{
	*type_split = d->reserved[k] - d->merged[k];
	*alias = d->merged[k] - d->untyped[k];
	*across = d->untyped[k] - d->minimum[k];
}

static void la_print_detail(FILE *out, const struct ep_plt_result *res)
{
	const struct la_detail *d = res->detail;
	static const char *const names[LA_NKIND] = { "plt", "got" };
	uint64_t t, a, x;
	size_t i;
	int k;

	for (k = 0; k < LA_NKIND; k++) {
		causes(d, k, &t, &a, &x);
		fprintf(out,
			"  %s: %" PRIu64 " %s (minimal %" PRIu64 ") from %" PRIu64
			" relocations; over by type_split %" PRIu64 ", alias %" PRIu64
			", across_sections %" PRIu64 "\n",
			names[k], d->reserved[k], ep_plural(d->reserved[k], "slot", "slots"),
			d->minimum[k], d->need[k], t, a, x);
	}
	for (i = 0; i < res->nsized; i++)
		fprintf(out, "  %s: %" PRIu64 " bytes (minimal %" PRIu64 ")\n", res->sized[i].name,
			res->sized[i].bytes.reserved, res->sized[i].bytes.minimum);
	fprintf(out,
		"  sorting: %" PRIu64 " %s sorted (%" PRIu64 " needed a slot); duplicate_rela() "
		"before 6.17: %" PRIu64 " comparisons\n",
		res->sort.loader, ep_plural(res->sort.loader, "entry", "entries"), res->sort.needed,
		d->comparisons);
	if (res->opt.timing_reps)
		fprintf(out,
			"  timing (median of %u runs): loader %" PRIu64
			" ns, partition + sort %" PRIu64 " ns\n",
			res->opt.timing_reps, res->sort.full_ns, res->sort.partitioned_ns);
}

/* Sums over files, struct ep_plt_totals' detail[]. */
enum {
	SUM_PLT_TYPE,
	SUM_PLT_ALIAS,
	SUM_PLT_ACROSS,
	SUM_GOT_TYPE,
	SUM_GOT_ALIAS,
	SUM_GOT_ACROSS,
	SUM_COMPARISONS,
	SUM_PLT_NEED,
	SUM_GOT_NEED,
};

static void la_detail_sums(const struct ep_plt_result *res, uint64_t *sums)
{
	const struct la_detail *d = res->detail;

	causes(d, LA_PLT, &sums[SUM_PLT_TYPE], &sums[SUM_PLT_ALIAS], &sums[SUM_PLT_ACROSS]);
	causes(d, LA_GOT, &sums[SUM_GOT_TYPE], &sums[SUM_GOT_ALIAS], &sums[SUM_GOT_ACROSS]);
	sums[SUM_COMPARISONS] = d->comparisons;
	sums[SUM_PLT_NEED] = d->need[LA_PLT];
	sums[SUM_GOT_NEED] = d->need[LA_GOT];
}

static void la_print_totals(FILE *out, const struct ep_plt_totals *t, unsigned int timing_reps)
{
	const struct ep_plt_count *plt = &t->slots[EP_PLT_KIND_PLT][EP_PLT_MODULE];
	const struct ep_plt_count *got = &t->slots[EP_PLT_KIND_GOT][EP_PLT_MODULE];
	const uint64_t *s = t->detail;
	struct ep_plt_count bytes = ep_plt_totals_sum(t->bytes);

	fprintf(out, "%s, %" PRIu64 " %s (%" PRIu64 " rejected by the kernel):\n",
		ep_plt_model_loongarch_module.name, t->files,
		ep_plural(t->files, "module", "modules"), t->rejected);
	fprintf(out,
		"  plt: %" PRIu64 " slots (minimal %" PRIu64 "); got: %" PRIu64 " (minimal %" PRIu64
		"); %" PRIu64 " bytes (minimal %" PRIu64 ")\n",
		plt->reserved, plt->minimum, got->reserved, got->minimum, bytes.reserved,
		bytes.minimum);
	fprintf(out,
		"  over-allocation: type_split %" PRIu64 ", alias %" PRIu64
		", across_sections %" PRIu64 "\n",
		s[SUM_PLT_TYPE] + s[SUM_GOT_TYPE], s[SUM_PLT_ALIAS] + s[SUM_GOT_ALIAS],
		s[SUM_PLT_ACROSS] + s[SUM_GOT_ACROSS]);
	ep_plt_print_kernels(out, t);
	fputc('\n', out);
	fprintf(out,
		"  sorting: %" PRIu64 " entries sorted, %" PRIu64 " needed a slot; %" PRIu64
		" duplicate_rela() comparisons before 6.17\n",
		t->sort.loader, t->sort.needed, s[SUM_COMPARISONS]);
	if (timing_reps)
		fprintf(out,
			"  timing (sum of the modules' medians of %u runs): loader %" PRIu64
			" ns, partition + sort %" PRIu64 " ns\n",
			timing_reps, t->sort.full_ns, t->sort.partitioned_ns);
}

static json_t *la_json_rules(const struct ep_plt_result *res)
{
	const struct la_rules *r = &((const struct la_detail *)res->detail)->rules;

	return json_pack("{s:b, s:b, s:b, s:b, s:I}", "sort_all_relocations", r->sort,
			 "got_pcadd_hi20", r->got_pcadd, "ftrace_trampoline", r->tramp,
			 "pcrel_32_64", r->pcrel, "relocation_handlers", (json_int_t)r->handlers);
}

static json_t *over_json(uint64_t type_split, uint64_t alias, uint64_t across)
{
	return json_pack("{s:o, s:o, s:o}", "type_split", ep_json_u64(type_split), "alias",
			 ep_json_u64(alias), "across_sections", ep_json_u64(across));
}

static json_t *la_json_detail(const struct ep_plt_result *res)
{
	const struct la_detail *d = res->detail;
	uint64_t pt, pa, px, gt, ga, gx;

	causes(d, LA_PLT, &pt, &pa, &px);
	causes(d, LA_GOT, &gt, &ga, &gx);
	return json_pack("{s:o, s:{s:o, s:o}, s:{s:o, s:o}, s:o, s:o}", "over_allocation",
			 over_json(pt + gt, pa + ga, px + gx), "plt", "relocations",
			 ep_json_u64(d->need[LA_PLT]), "over_allocation", over_json(pt, pa, px),
			 "got", "relocations", ep_json_u64(d->need[LA_GOT]), "over_allocation",
			 over_json(gt, ga, gx), "duplicate_rela_comparisons",
			 ep_json_u64(d->comparisons), "got_entries_at_relocation",
			 ep_json_u64(d->got_runtime));
}

static json_t *la_json_section(const struct ep_plt_result *res, const struct ep_plt_section *s)
{
	const struct la_sec *ls = la_sec_of(res, s);

	if (!ls)
		return json_object();
	return json_pack("{s:o, s:o, s:o, s:o, s:o}", "plt_relocations",
			 ep_json_u64(ls->need[LA_PLT]), "got_relocations",
			 ep_json_u64(ls->need[LA_GOT]), "plt_slots", ep_json_u64(ls->slots[LA_PLT]),
			 "got_slots", ep_json_u64(ls->slots[LA_GOT]), "duplicate_rela_comparisons",
			 ep_json_u64(ls->comparisons));
}

static json_t *la_json_totals(const struct ep_plt_totals *t)
{
	const uint64_t *s = t->detail;

	return json_pack("{s:o, s:o, s:o, s:o}", "over_allocation",
			 over_json(s[SUM_PLT_TYPE] + s[SUM_GOT_TYPE],
				   s[SUM_PLT_ALIAS] + s[SUM_GOT_ALIAS],
				   s[SUM_PLT_ACROSS] + s[SUM_GOT_ACROSS]),
			 "plt_relocations", ep_json_u64(s[SUM_PLT_NEED]), "got_relocations",
			 ep_json_u64(s[SUM_GOT_NEED]), "duplicate_rela_comparisons",
			 ep_json_u64(s[SUM_COMPARISONS]));
}

/* --by=cause: causes() of the PLT and the GOT together, as the JSON detail has them. */
static size_t la_causes(const struct ep_plt_result *res, struct ep_plt_cause *out)
{
	const struct la_detail *d = res->detail;
	uint64_t pt, pa, px, gt, ga, gx;

	causes(d, LA_PLT, &pt, &pa, &px);
	causes(d, LA_GOT, &gt, &ga, &gx);
	out[0] = (struct ep_plt_cause){ "type_split", (int64_t)(pt + gt) };
	out[1] = (struct ep_plt_cause){ "alias", (int64_t)(pa + ga) };
	out[2] = (struct ep_plt_cause){ "across_sections", (int64_t)(px + gx) };
	return 3;
}

const struct ep_plt_model ep_plt_model_loongarch_module = {
	.name = "loongarch-module",
	.source = "Linux arch/loongarch/kernel/module-sections.c and module.c, v6.1 to v7.2",
	.one = "LoongArch module",
	.many = "LoongArch modules",
	.check = la_check,
	.analyse = la_analyse,
	.columns = la_columns,
	.ncolumns = sizeof(la_columns) / sizeof(la_columns[0]),
	.summary = la_summary,
	.nsummary = sizeof(la_summary) / sizeof(la_summary[0]),
	.nsummary_timing = 2,
	.summary_values = la_summary_values,
	.print_rules = la_print_rules,
	.print_detail = la_print_detail,
	.print_totals = la_print_totals,
	.json_rules = la_json_rules,
	.json_detail = la_json_detail,
	.json_section = la_json_section,
	.detail_sums = la_detail_sums,
	.json_totals = la_json_totals,
	.causes = la_causes,
};
