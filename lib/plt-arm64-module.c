/* SPDX-License-Identifier: MIT */
/*
 * The arm64 kernel-module PLT model: how many PLT slots the module loader
 * reserves, following Linux arch/arm64/kernel/module-plts.c
 * (module_frob_arch_sections(), partition_branch_plt_relas(), count_plts()),
 * quirks included, for each kernel from v5.8 to v6.12: the version comes from
 * --kernel, else the module's own vermagic= (.modinfo), else v6.1 (Debian
 * 12).  The rules that differ between versions are in struct ep_arm64_rules
 * (lib/plt.h); what holds for which versions (read from the file's history):
 *
 * - Only SHT_RELA sections whose target (sh_info) has SHF_EXECINSTR are
 *   counted; SHT_REL is ignored.  All versions with PLTs (v4.6 and later).
 * - R_AARCH64_CALL26/JUMP26 need a slot unless the symbol's st_shndx equals
 *   the relocation section's sh_info (the raw 16-bit field: SHN_XINDEX is
 *   never resolved).  From v4.15 to v6.6 this only happens with
 *   CONFIG_RANDOMIZE_BASE (without KASLR modules sat within 128 MiB of the
 *   kernel); commit d35686444fc8 (v6.7, also 6.5.13 and 6.6.3 stable) made
 *   it unconditional after the v6.5 module VA rework (3e35d303ab7d).
 *   --kaslr=off models such a kernel built without CONFIG_RANDOMIZE_BASE;
 *   from v6.7 it changes nothing.
 * - Duplicates: entries are sorted by (r_type, r_sym, r_addend) with
 *   cmp_rela(); an entry counts unless it equals the one just before it
 *   (duplicate_rel()); an entry with a non-zero r_addend always counts.
 *   v4.11 and later.
 * - Before v5.8 every relocation of the section was sorted.  Since v5.8
 *   (commit "arm64/module: Optimize module load time by optimizing PLT
 *   counting") partition_branch_plt_relas() first moves the slot-needing
 *   branches to the front and only those nents are sorted; with KASLR off
 *   (v5.8..v6.6) it returns 0 and nothing is sorted.  The quirk: the
 *   partition loop stops when i == j without looking at entry i, so when
 *   every relocation of a section needs a slot (and there are at least
 *   two), the last one is left out of the sorted range.  count_plts() still
 *   walks all entries; that last entry is compared only with the largest
 *   sorted entry and counts again when it duplicates another one.  Any
 *   other layout leaves no slot-needing entry behind (the element at j is
 *   examined whenever i meets a relocation that needs no slot).
 * - Erratum 843419 (CONFIG_ARM64_ERRATUM_843419 and a CPU that has the
 *   ARM64_WORKAROUND_843419 capability; v4.15 and later): an
 *   R_AARCH64_ADR_PREL_PG_HI21[_NC] whose r_offset has bits [11:3] all set
 *   (offset 0xff8 or 0xffc in a 4 KiB page) needs a veneer slot, because
 *   min_align = 2 << ffz(r_offset | 7) exceeds 4 KiB; at other offsets the
 *   loader raises the target section's sh_addralign to min_align instead.
 *   Then each count_plts() call, that is each relocation section, adds
 *   DIV_ROUND_UP(slots, 4096 / 12) = ceil(slots / 341) slack slots.
 * - Groups: a target section whose name starts with ".init" counts for the
 *   init PLT, any other for the core PLT (v4.11 and later).  From v6.6
 *   (f928f8b1a249) the loader asks module_init_layout_section(), which
 *   without CONFIG_MODULE_UNLOAD (no "mod_unload" in vermagic) also puts
 *   ".exit" targets in the init PLT.  .plt and .init.plt get sh_size
 *   (slots + 1) x sizeof(struct plt_entry), 12 bytes since v4.15.
 *   .text.ftrace_trampoline, when present, gets NR_FTRACE_PLTS x 12 bytes:
 *   2 on v5.5..v6.1, 1 from v6.2 (asm/ftrace.h, "ftrace: arm64: move from
 *   REGS to ARGS").  .init.text.ftrace_trampoline, when present, the same
 *   (a7ed7b9d0ebb, v6.17 and stable 6.6.y, 6.12.y; modelled from v6.5).
 * - The loader rejects the module (-ENOEXEC) when .plt or .init.plt is
 *   missing, or when there is no SHT_SYMTAB (a section named .plt,
 *   .init.plt or .text.ftrace_trampoline is never taken as the symtab).
 *
 * The true minimum counts distinct (r_type, r_sym, r_addend) among the
 * slot-needing branches of each section, plus the veneers, plus the slack
 * computed on that; it is what the loader would reserve with perfect
 * duplicate detection.
 */
#include "config.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/plt.h"

#define SZ_4K 4096u

/* A decimal number at *s, at most 5 digits; -1 when *s is no digit. */
static long version_number(const char **s)
{
	long n = 0;
	int digits = 0;

	while (**s >= '0' && **s <= '9' && digits < 6) {
		n = n * 10 + (**s - '0');
		(*s)++;
		digits++;
	}
	return digits && digits < 6 ? n : -1;
}

int ep_kernel_version_parse(const char *s, uint32_t *v)
{
	long major, minor, sub = 0;

	if (*s == 'v')
		s++;
	major = version_number(&s);
	if (major < 0 || *s++ != '.')
		return -1;
	minor = version_number(&s);
	if (minor < 0 || major > 255 || minor > 255)
		return -1;
	if (*s == '.') {
		s++;
		sub = version_number(&s);
		if (sub < 0)
			return -1;
	}
	*v = EP_KVER(major, minor, sub);
	return 0;
}

const char *ep_kernel_from_name(enum ep_kernel_from from)
{
	switch (from) {
	case EP_KERNEL_FROM_VERMAGIC:
		return "vermagic";
	case EP_KERNEL_FROM_OPTION:
		return "option";
	default:
		return "default";
	}
}

void ep_arm64_rules_for(uint32_t version, bool mod_unload, struct ep_arm64_rules *r)
{
	uint32_t v = version < EP_ARM64_KVER_FLOOR ? EP_ARM64_KVER_FLOOR : version;

	r->version = version;
	r->mod_unload = mod_unload;
	/* d35686444fc8: v6.7, and the stable 6.6.3 and 6.5.13. */
	r->kaslr_applies = v < EP_KVER(6, 5, 13) || (v >= EP_KVER(6, 6, 0) && v < EP_KVER(6, 6, 3));
	r->exit_in_init = !mod_unload && v >= EP_KVER(6, 6, 0);
	r->nr_ftrace_plts = v >= EP_KVER(6, 2, 0) ? 1 : 2;
	r->init_tramp = v >= EP_KVER(6, 5, 0);
}

static bool is_branch(uint32_t r_type)
{
	return r_type == R_AARCH64_JUMP26 || r_type == R_AARCH64_CALL26;
}

/*
 * Branches to a symbol in the same section never get a PLT: no PLT could be
 * placed within range of every branch of a section larger than 128 MiB, so
 * those must resolve directly anyway (branch_rela_needs_plt()).
 */
static bool needs_plt(uint32_t r_type, uint32_t r_sym, const uint32_t *st_shndx, uint32_t dstidx)
{
	return st_shndx[r_sym] != dstidx && is_branch(r_type);
}

static int cmp3(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* partition_branch_plt_relas(), same loop, same stopping point. */
static size_t partition_rel(struct ep_rel *r, size_t n, const uint32_t *st_shndx, uint32_t dstidx)
{
	ptrdiff_t i = 0, j = (ptrdiff_t)n - 1;

	while (i < j) {
		if (needs_plt(r[i].r_type, r[i].r_sym, st_shndx, dstidx)) {
			i++;
		} else if (needs_plt(r[j].r_type, r[j].r_sym, st_shndx, dstidx)) {
			struct ep_rel t = r[i];

			r[i] = r[j];
			r[j] = t;
		} else {
			j--;
		}
	}
	return (size_t)i;
}

uint64_t ep_arm64_spare_slots(uint64_t slots)
{
	const uint64_t per_page = SZ_4K / EP_ARM64_PLT_ENTRY_BYTES;

	return (slots + per_page - 1) / per_page;
}

/*
 * The alignment an ADRP at r_offset asks of its section: 2 << (the lowest
 * clear bit of r_offset | 7).  Returns 0 when no alignment up to 4 KiB helps
 * (bits [11:3] all set): that ADRP needs a veneer.
 */
static uint64_t adrp_min_align(uint64_t r_offset)
{
	uint64_t x = ~(r_offset | 7);
	unsigned int bit;

	if (!x)
		return 0;
	bit = (unsigned int)__builtin_ctzll(x);
	if (bit >= 12)
		return 0;
	return 2ull << bit;
}

/*
 * cmp_rela()'s key, packed: (r_type << 32 | r_sym, r_addend).  Only the order
 * of equal keys matters for the count, so any sort gives the kernel's
 * answer; this one compares inline because it runs on every module.
 */
struct rela_key {
	uint64_t type_sym;
	int64_t addend;
};

static inline bool key_lt(const struct rela_key *x, const struct rela_key *y)
{
	return x->type_sym < y->type_sym || (x->type_sym == y->type_sym && x->addend < y->addend);
}

static inline bool key_eq(const struct rela_key *x, const struct rela_key *y)
{
	return x->type_sym == y->type_sym && x->addend == y->addend;
}

static struct rela_key key_of(const struct ep_rel *r)
{
	return (struct rela_key){ (uint64_t)r->r_type << 32 | r->r_sym, r->r_addend };
}

static void insertion_sort(struct rela_key *a, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		struct rela_key t = a[i];

		for (j = i; j > 0 && key_lt(&t, &a[j - 1]); j--)
			a[j] = a[j - 1];
		a[j] = t;
	}
}

/* Quicksort, median of three, recursing into the smaller part only. */
static void sort_keys(struct rela_key *a, size_t n)
{
	while (n > 16) {
		size_t mid = n / 2, i = 0, j = n - 1;
		struct rela_key p, t;

		if (key_lt(&a[mid], &a[0]))
			t = a[mid], a[mid] = a[0], a[0] = t;
		if (key_lt(&a[n - 1], &a[0]))
			t = a[n - 1], a[n - 1] = a[0], a[0] = t;
		if (key_lt(&a[n - 1], &a[mid]))
			t = a[n - 1], a[n - 1] = a[mid], a[mid] = t;
		p = a[mid];
		for (;;) {
			while (key_lt(&a[i], &p))
				i++;
			while (key_lt(&p, &a[j]))
				j--;
			if (i >= j)
				break;
			t = a[i], a[i] = a[j], a[j] = t;
			i++;
			j--;
		}
		/* a[0..j] <= p <= a[j+1..n) */
		if (j + 1 < n - j - 1) {
			sort_keys(a, j + 1);
			a += j + 1;
			n -= j + 1;
		} else {
			sort_keys(a + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	insertion_sort(a, n);
}

static bool in_sorted(const struct rela_key *a, size_t n, const struct rela_key *k)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (key_lt(&a[mid], k))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && key_eq(&a[lo], k);
}

int ep_arm64_count_section(struct ep_rel *r, size_t n, const uint32_t *st_shndx, size_t nsyms,
			   uint32_t dstidx, const struct ep_plt_options *opt,
			   struct ep_plt_section *out)
{
	uint64_t ret = 0, distinct = 0, minimal;
	struct rela_key *keys = NULL;
	size_t nents = 0, i;

	(void)nsyms;
	out->relocations = n;
	out->sorted_full = n;
	if (opt->kaslr) {
		nents = partition_rel(r, n, st_shndx, dstidx);
		keys = malloc((nents ? nents : 1) * sizeof(*keys));
		if (!keys)
			return -EP_ENOMEM;
		for (i = 0; i < nents; i++)
			keys[i] = key_of(&r[i]);
		if (nents)
			sort_keys(keys, nents);
	}
	out->sorted_partitioned = nents;
	/* count_plts() over the sorted range: duplicate_rel() looks one back. */
	for (i = 0; i < nents; i++) {
		bool dup = i > 0 && key_eq(&keys[i], &keys[i - 1]);

		if (keys[i].addend != 0 || !dup)
			ret++;
		distinct += !dup;
	}
	for (i = 0; i < n; i++) {
		uint64_t align;

		switch (r[i].r_type) {
		case R_AARCH64_JUMP26:
		case R_AARCH64_CALL26:
			out->branch_relocations++;
			if (!opt->kaslr || st_shndx[r[i].r_sym] == dstidx)
				break;
			out->plt_relocations++;
			if (i < nents)
				break; /* counted above */
			/*
			 * Left behind by the partition: compared with the largest
			 * sorted entry only, as duplicate_rel(rela, nents) does.
			 */
			out->leftover = true;
			{
				struct rela_key k = key_of(&r[i]);

				if (k.addend != 0 || i == 0 || !nents ||
				    !key_eq(&k, &keys[nents - 1]))
					ret++;
				if (!in_sorted(keys, nents, &k))
					distinct++;
			}
			break;
		case R_AARCH64_ADR_PREL_PG_HI21_NC:
		case R_AARCH64_ADR_PREL_PG_HI21:
			if (!opt->erratum_843419)
				break;
			align = adrp_min_align(r[i].r_offset);
			if (!align) {
				out->veneers++;
				ret++;
			} else if (align > out->min_align) {
				out->min_align = align;
			}
			break;
		}
	}
	free(keys);
	minimal = distinct + out->veneers;
	if (opt->erratum_843419) {
		out->spare = ep_arm64_spare_slots(ret);
		out->spare_minimal = ep_arm64_spare_slots(minimal);
	}
	out->slots = ret + out->spare;
	out->slots_minimal = minimal + out->spare_minimal;
	return 0;
}

/* ---- --timing: the two methods on scratch copies -------------------------- */

/* The kernel's Elf64_Rela, so the sorts move as many bytes as the kernel's. */
struct kernel_rela {
	uint64_t r_offset;
	uint64_t r_info;
	int64_t r_addend;
};

static int cmp_kernel_rela(const struct kernel_rela *x, const struct kernel_rela *y)
{
	int i = cmp3(x->r_info & 0xffffffff, y->r_info & 0xffffffff);

	if (i == 0)
		i = cmp3(x->r_info >> 32, y->r_info >> 32);
	if (i == 0)
		i = x->r_addend < y->r_addend ? -1 : x->r_addend > y->r_addend;
	return i;
}

/* A heapsort, as the kernel's lib/sort.c sort() is. */
static void heapsort_rela(struct kernel_rela *a, size_t n)
{
	size_t start, end, root, child;
	struct kernel_rela t;

	if (n < 2)
		return;
	for (start = n / 2; start-- > 0;) {
		for (root = start; (child = 2 * root + 1) < n; root = child) {
			if (child + 1 < n && cmp_kernel_rela(&a[child], &a[child + 1]) < 0)
				child++;
			if (cmp_kernel_rela(&a[root], &a[child]) >= 0)
				break;
			t = a[root], a[root] = a[child], a[child] = t;
		}
	}
	for (end = n - 1; end > 0; end--) {
		t = a[0], a[0] = a[end], a[end] = t;
		for (root = 0; (child = 2 * root + 1) < end; root = child) {
			if (child + 1 < end && cmp_kernel_rela(&a[child], &a[child + 1]) < 0)
				child++;
			if (cmp_kernel_rela(&a[root], &a[child]) >= 0)
				break;
			t = a[root], a[root] = a[child], a[child] = t;
		}
	}
}

static bool kr_needs_plt(const struct kernel_rela *r, const uint32_t *st_shndx, uint32_t dstidx)
{
	return needs_plt((uint32_t)(r->r_info & 0xffffffff), (uint32_t)(r->r_info >> 32), st_shndx,
			 dstidx);
}

static size_t partition_kernel_rela(struct kernel_rela *r, size_t n, const uint32_t *st_shndx,
				    uint32_t dstidx)
{
	ptrdiff_t i = 0, j = (ptrdiff_t)n - 1;

	while (i < j) {
		if (kr_needs_plt(&r[i], st_shndx, dstidx)) {
			i++;
		} else if (kr_needs_plt(&r[j], st_shndx, dstidx)) {
			struct kernel_rela t = r[i];

			r[i] = r[j];
			r[j] = t;
		} else {
			j--;
		}
	}
	return (size_t)i;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	return cmp3(*(const uint64_t *)a, *(const uint64_t *)b);
}

int ep_arm64_time_section(const struct ep_rel *r, size_t n, const uint32_t *st_shndx,
			  uint32_t dstidx, bool kaslr, unsigned int reps, uint64_t *full_ns,
			  uint64_t *partitioned_ns)
{
	struct kernel_rela *orig, *work;
	uint64_t *full, *part, t0;
	unsigned int k;
	size_t i, nents;
	int rc = -EP_ENOMEM;

	*full_ns = *partitioned_ns = 0;
	if (!reps)
		return 0;
	orig = malloc((n ? n : 1) * sizeof(*orig));
	work = malloc((n ? n : 1) * sizeof(*work));
	full = calloc(reps, sizeof(*full));
	part = calloc(reps, sizeof(*part));
	if (!orig || !work || !full || !part)
		goto out;
	for (i = 0; i < n; i++) {
		orig[i].r_offset = r[i].r_offset;
		orig[i].r_info = (uint64_t)r[i].r_sym << 32 | r[i].r_type;
		orig[i].r_addend = r[i].r_addend;
	}
	for (k = 0; k < reps; k++) {
		memcpy(work, orig, n * sizeof(*work));
		t0 = now_ns();
		heapsort_rela(work, n);
		full[k] = now_ns() - t0;

		memcpy(work, orig, n * sizeof(*work));
		t0 = now_ns();
		nents = kaslr ? partition_kernel_rela(work, n, st_shndx, dstidx) : 0;
		if (nents)
			heapsort_rela(work, nents);
		part[k] = now_ns() - t0;
	}
	qsort(full, reps, sizeof(*full), cmp_u64);
	qsort(part, reps, sizeof(*part), cmp_u64);
	*full_ns = full[reps / 2];
	*partitioned_ns = part[reps / 2];
	rc = 0;
out:
	free(orig);
	free(work);
	free(full);
	free(part);
	return rc;
}

/* ---- the model over one image ---------------------------------------------- */

static const char *arm64_check(const struct ep_image *img, bool forced)
{
	if (img->ehdr.e_machine != EM_AARCH64)
		return "the arm64-module model needs an AArch64 file (e_machine EM_AARCH64)";
	if (img->ehdr.e_ident[EI_CLASS] != ELFCLASS64)
		return "the arm64-module model needs an ELFCLASS64 file (the loader reads "
		       "Elf64_Rela)";
	if (img->ehdr.e_type != ET_REL)
		return "the arm64-module model needs a relocatable file (ET_REL)";
	if (!forced && !ep_image_is_kernel_module(img))
		return "not a kernel module (no .modinfo and .gnu.linkonce.this_module)";
	return NULL;
}

/* The raw st_shndx of every symbol of the kernel's symtab, or NULL. */
static uint32_t *symbol_shndx(struct ep_image *img, size_t symidx, size_t *nsyms,
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
	/* ELFCLASS64 only (arm64_check()); elf_getdata() gave host byte order. */
	for (i = 0; i < st.count; i++)
		v[i] = ((const Elf64_Sym *)st.data->d_buf)[i].st_shndx;
	*nsyms = st.count;
	return v;
}

/*
 * The PLT a relocation section's target counts for: ".init*" targets the
 * init PLT; from v6.6 module_init_layout_section() adds ".exit*" ones when
 * the kernel has no CONFIG_MODULE_UNLOAD (module_exit_section()).
 */
static enum ep_plt_group target_group(const char *tname, const struct ep_arm64_rules *rules)
{
	if (strncmp(tname, ".init", 5) == 0)
		return EP_PLT_INIT;
	if (rules->exit_in_init && strncmp(tname, ".exit", 5) == 0)
		return EP_PLT_INIT;
	return EP_PLT_CORE;
}

static int count_one(struct ep_image *img, size_t idx, const uint32_t *shndx, size_t nsyms,
		     const struct ep_plt_options *opt, struct ep_plt_result *res,
		     struct ep_error *err)
{
	const GElf_Shdr *sh = &img->sections[idx].shdr;
	struct ep_plt_section *s;
	struct ep_relsec rs;
	struct ep_rel *r = NULL;
	const char *tname;
	size_t i;
	int rc;

	rc = ep_relsec_open(img, idx, &rs, err);
	if (rc)
		return rc;
	rc = ep_relsec_read_all(&rs, &r, err);
	if (rc)
		return rc;
	for (i = 0; i < rs.count; i++)
		if (r[i].r_sym >= nsyms) {
			rc = ep_error_set(err, EP_EMALFORMED,
					  "%s: relocation %zu has symbol %u, the symbol table has "
					  "%zu (section %zu %s)",
					  img->path, i, r[i].r_sym, nsyms, idx,
					  ep_section_label(img, idx));
			goto out;
		}
	s = ep_plt_section_add(res);
	if (!s) {
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
		goto out;
	}
	tname = img->sections[sh->sh_info].name;
	s->index = idx;
	s->name = img->sections[idx].name;
	s->target = sh->sh_info;
	s->target_name = tname;
	s->group = target_group(tname, &res->rules);
	/* Time on the file's order, before counting permutes the records. */
	rc = ep_arm64_time_section(r, rs.count, shndx, (uint32_t)sh->sh_info, opt->kaslr,
				   opt->timing_reps, &s->full_ns, &s->partitioned_ns);
	if (rc == 0)
		rc = ep_arm64_count_section(r, rs.count, shndx, nsyms, (uint32_t)sh->sh_info, opt,
					    s);
	if (rc) {
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
		goto out;
	}
	res->groups[s->group].slots += s->slots;
	res->groups[s->group].slots_minimal += s->slots_minimal;
	res->sorted_full += s->sorted_full;
	res->sorted_partitioned += s->sorted_partitioned;
	res->full_ns += s->full_ns;
	res->partitioned_ns += s->partitioned_ns;
	res->sort_sections++;
	if (!s->sorted_partitioned)
		res->sort_skipped++;
out:
	free(r);
	return rc;
}

/*
 * Copy the value of .modinfo's "vermagic=" entry into buf (NUL-terminated,
 * cut to fit, bytes that are not clean UTF-8 text made '?': ep_text_clean()),
 * or leave buf "" when there is none.  .modinfo is a run of
 * NUL-terminated "key=value" strings (modpost, MODULE_INFO()).
 */
static int read_vermagic(struct ep_image *img, char *buf, size_t size, struct ep_error *err)
{
	static const char key[] = "vermagic=";
	size_t idx = ep_image_find_section(img, ".modinfo"), off = 0, n;
	const char *p;
	Elf_Data *d;

	buf[0] = '\0';
	if (!idx || img->sections[idx].shdr.sh_type == SHT_NOBITS)
		return 0;
	d = ep_section_data(img, idx, err);
	if (!d)
		return -EP_EMALFORMED;
	p = d->d_buf;
	while (p && off < d->d_size) {
		const char *e = memchr(p + off, '\0', d->d_size - off);
		size_t len = e ? (size_t)(e - (p + off)) : d->d_size - off;

		if (len >= sizeof(key) - 1 && memcmp(p + off, key, sizeof(key) - 1) == 0) {
			n = len - (sizeof(key) - 1);
			if (n >= size)
				n = size - 1;
			memcpy(buf, p + off + sizeof(key) - 1, n);
			buf[n] = '\0';
			ep_text_clean(buf); /* for one-line text and a valid JSON string */
			return 0;
		}
		off += len + 1;
	}
	return 0;
}

/* vermagic's words after the version: "SMP preempt mod_unload ..." */
static bool vermagic_has(const char *vermagic, const char *word)
{
	size_t n = strlen(word);
	const char *p = vermagic;

	while ((p = strstr(p, word)) != NULL) {
		if ((p == vermagic || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
		p += n;
	}
	return false;
}

/* Which loader to model: --kernel, else vermagic=, else the default. */
static void choose_rules(struct ep_plt_result *res)
{
	uint32_t v = 0;
	bool unload = true;
	enum ep_kernel_from from = EP_KERNEL_FROM_DEFAULT;

	if (res->vermagic[0]) {
		unload = vermagic_has(res->vermagic, "mod_unload");
		if (ep_kernel_version_parse(res->vermagic, &v) == 0)
			from = EP_KERNEL_FROM_VERMAGIC;
	}
	if (res->opt.kernel) {
		v = res->opt.kernel;
		from = EP_KERNEL_FROM_OPTION;
	} else if (from == EP_KERNEL_FROM_DEFAULT) {
		v = EP_ARM64_KVER_DEFAULT;
	}
	ep_arm64_rules_for(v, unload, &res->rules);
	res->rules.from = from;
}

static int arm64_analyse(struct ep_image *img, struct ep_plt_result *res, struct ep_error *err)
{
	size_t i, plt = 0, init_plt = 0, tramp = 0, init_tramp = 0, symidx = 0, nsyms = 0;
	struct ep_plt_options opt = res->opt;
	uint32_t *shndx = NULL;
	int g, rc;

	rc = read_vermagic(img, res->vermagic, sizeof(res->vermagic), err);
	if (rc)
		return rc;
	choose_rules(res);
	/* From v6.7 the loader no longer asks CONFIG_RANDOMIZE_BASE: as if on. */
	if (!res->rules.kaslr_applies)
		opt.kaslr = true;

	/* The first loop of module_frob_arch_sections(): the last match wins. */
	for (i = 0; i < img->shnum; i++) {
		const char *name = img->sections[i].name;

		if (strcmp(name, ".plt") == 0)
			plt = i;
		else if (strcmp(name, ".init.plt") == 0)
			init_plt = i;
		else if (strcmp(name, ".text.ftrace_trampoline") == 0)
			tramp = i;
		else if (res->rules.init_tramp && strcmp(name, ".init.text.ftrace_trampoline") == 0)
			init_tramp = i;
		else if (img->sections[i].shdr.sh_type == SHT_SYMTAB)
			symidx = i;
	}
	res->groups[EP_PLT_CORE].plt_index = plt;
	res->groups[EP_PLT_INIT].plt_index = init_plt;
	if (!plt && !init_plt)
		res->kernel_rejects = "module PLT section(s) missing: no .plt and no .init.plt";
	else if (!plt)
		res->kernel_rejects = "module PLT section(s) missing: no .plt";
	else if (!init_plt)
		res->kernel_rejects = "module PLT section(s) missing: no .init.plt";
	else if (!symidx)
		res->kernel_rejects = "module symtab section missing";
	if (tramp) {
		res->has_tramp = true;
		res->tramp_bytes = res->rules.nr_ftrace_plts * EP_ARM64_PLT_ENTRY_BYTES;
	}
	if (init_tramp) {
		res->has_init_tramp = true;
		res->init_tramp_bytes = res->rules.nr_ftrace_plts * EP_ARM64_PLT_ENTRY_BYTES;
	}
	/* Without a symbol table there is nothing the loader could count. */
	if (symidx) {
		shndx = symbol_shndx(img, symidx, &nsyms, err, &rc);
		if (!shndx)
			return rc;
	}
	for (i = 1; symidx && i < img->shnum; i++) {
		const GElf_Shdr *sh = &img->sections[i].shdr;

		if (sh->sh_type != SHT_RELA)
			continue;
		/* sh_info out of range: let ep_relsec_open() say so. */
		if (sh->sh_info < img->shnum && !ep_section_is_exec(img, sh->sh_info))
			continue;
		rc = count_one(img, i, shndx, nsyms, &opt, res, err);
		if (rc)
			break;
	}
	for (g = 0; g < EP_PLT_NGROUP; g++) {
		res->groups[g].bytes = (res->groups[g].slots + 1) * EP_ARM64_PLT_ENTRY_BYTES;
		res->groups[g].bytes_minimal =
			(res->groups[g].slots_minimal + 1) * EP_ARM64_PLT_ENTRY_BYTES;
	}
	free(shndx);
	return rc;
}

const struct ep_plt_model ep_plt_model_arm64_module = {
	.name = "arm64-module",
	.source = "Linux arch/arm64/kernel/module-plts.c, v5.8 to v6.12",
	.check = arm64_check,
	.analyse = arm64_analyse,
};
