/* SPDX-License-Identifier: MIT */
/*
 * The s390 kernel-module model: the GOT and PLT space the s390 module loader
 * reserves, following Linux arch/s390/kernel/module.c
 * (module_frob_arch_sections(), check_rela(), apply_rela(),
 * module_finalize()) for each kernel from v6.1 to v7.2, read in Debian's
 * 6.1.176, 6.12.117 and 7.2.13 sources.  The version comes from --kernel,
 * else the module's vermagic= (.modinfo), else v6.12 (Debian 13).
 *
 * What the loader does, the same in every version of the range (the
 * counting code of module.c is identical in 6.1.176, 6.12.117 and 7.2.13):
 *
 * - module_frob_arch_sections() takes the LAST SHT_SYMTAB (its loop's
 *   `break` leaves the switch, not the loop), gives every symbol a
 *   struct mod_arch_syminfo (got_offset, plt_offset = -1), and walks EVERY
 *   SHT_RELA section, whatever its target (non-allocated and .klp.rela
 *   ones too), calling check_rela() on each entry.  The r_sym is not
 *   checked against the symbol count (an out-of-range r_sym is an error
 *   here, naming the section).
 * - check_rela(): R_390_GOT12/16/20/32/64, GOTENT, GOTPLT12/16/20/32/64
 *   and GOTPLTENT give the symbol one GOT entry (8 bytes) unless it has
 *   one; PLT16DBL, PLT32DBL, PLT32, PLT64, PLTOFF16/32/64 one PLT entry
 *   (PLT_ENTRY_SIZE 22 bytes: basr, lg, br or brcl, .quad target).  So
 *   the loader already merges module-wide, by symbol index: r_type within
 *   the class and r_addend never matter (apply_rela() writes the symbol's
 *   value into the entry and adds the addend at the place).  No sort.
 * - With CONFIG_EXPOLINE and expolines not disabled at boot (nospec_disable
 *   0), a PLT that has entries gets one more, the __jump_r1 thunk that
 *   module_finalize() writes at its end (exrl, j ., br %r1); f19fbd5ed642
 *   "s390: introduce execute-trampolines for branches" (v4.16).  The
 *   config is not in the vermagic: this model assumes it from the module
 *   itself, built with it when it has a .s390_indirect* or .s390_return*
 *   section (the tables module_finalize() reverts) or references an
 *   __s390_indirect_jump_* thunk; a module built with expolines that has
 *   neither is modelled without.  Debian 13's s390x config (6.12.113 read)
 *   has CONFIG_EXPOLINE unset.
 * - The space: GOT, then PLT, added to the core layout's text at offset
 *   ALIGN(size, 4), where size is still 0 (module_frob_arch_sections()
 *   runs in layout_and_allocate() before layout_sections()), so it adds
 *   exactly got_size + plt_size bytes, the module's text laid out after
 *   them.  core_layout (text, rodata and data in one allocation) to v6.3;
 *   mem[MOD_TEXT] from v6.4 (ac3b43283923 "module: replace module_layout
 *   with module_memory").  The padding layout_sections() then adds before
 *   the first text section is not modelled.
 * - Refusals, in the order load_module() meets them: no SHT_SYMTAB, "module
 *   has no symbols (stripped?)" (setup_load_info(), every version; frob's
 *   own "no symbol table" is never reached); more than one SHT_SYMTAB, the
 *   same words, from 6.12 as read in Debian's 6.12.117
 *   (elf_validity_cache_index_sym(), 9bd4982cf7d6 "module: Factor out
 *   elf_validity_cache_index_sym", mainline v6.13; the 6.12.y sublevel it
 *   came with was not found); 6.1 takes the first for the generic loader
 *   while frob counts on the last.  Then apply_relocations(), for sections
 *   whose target is allocated (SHF_ALLOC), in section order: SHT_REL,
 *   "REL relocation unsupported" (moduleloader.h's weak apply_relocate());
 *   R_390_COPY, GLOB_DAT, JMP_SLOT, RELATIVE, -ENOEXEC without a message;
 *   any type apply_rela() does not list, "unknown relocation: N"
 *   (PLT12DBL, PLT24DBL, PC12DBL, PC24DBL, TLS and IRELATIVE included).
 *   Range overflows ("relocation error for symbol") depend on addresses
 *   and are not modelled.
 * - v6.12 to v7.2: module.c gains only the stack protector patching of
 *   __stack_protector_loc in module_finalize() (7.2.13); no count changes.
 *
 * The minimum, module-wide: one GOT entry (and one PLT entry) per distinct
 * target among the relocations the loader applies (target section
 * SHF_ALLOC), a target being what the entry holds, the symbol's resolved
 * value: an undefined symbol by its name (_GLOBAL_OFFSET_TABLE_, which frob
 * makes SHN_ABS, as absolute), a defined one by (st_shndx as stored,
 * st_value), SHN_ABS by st_value, other reserved indices by symbol; plus the
 * __jump_r1 entry when expolines apply and a PLT entry remains.  The
 * over-allocation, reserved - minimum, by cause:
 *   "unapplied": entries of symbols whose relocations of that class are all
 *                in sections the loader never applies (non-SHF_ALLOC target);
 *   "alias":     entries of symbols whose target another symbol's entry
 *                already holds (aliases, section symbols, the same undefined
 *                name twice);
 *   "expoline":  the __jump_r1 entry when no PLT entry remains.
 *
 * s390x modules are big-endian (ELFDATA2MSB): the relocation and symbol
 * tables are read through the shared accessor (ep_relsec_next(),
 * ep_symtab_open()), which on a little-endian host has libelf convert them
 * (counted in the image's bytes_converted) and on s390x reads them in
 * place; this model streams the relocations in batches and makes no copy of
 * its own.
 */
#include "config.h"

#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/plt.h"
#include "lib/report.h"

#define S390_PLT_ENTRY_BYTES 22u /* PLT_ENTRY_SIZE, module.c */
#define S390_GOT_ENTRY_BYTES 8u	 /* sizeof(void *) */
#define S390_KVER_FLOOR	     EP_KVER(6, 1, 0)
#define S390_KVER_CHECKED    EP_KVER(7, 2, 0)
#define S390_KVER_DEFAULT    EP_KVER(6, 12, 0)

extern const struct ep_plt_model ep_plt_model_s390;

/* The entry classes of check_rela(). */
enum s390_class { CLASS_NONE, CLASS_GOT, CLASS_PLT, NCLASS };

/* Over-allocation causes (see the header comment). */
enum s390_cause { CAUSE_UNAPPLIED, CAUSE_ALIAS, CAUSE_EXPOLINE, NCAUSE };

static const char *const cause_name[NCAUSE] = { "unapplied", "alias", "expoline" };

/* The model's own part of a result (res->detail). */
struct s390_detail {
	size_t symtab;		      /* the SHT_SYMTAB frob reads (the last one) */
	uint64_t nsyms;		      /* its symbols */
	bool expoline;		      /* the __jump_r1 entry is modelled */
	bool mod_text;		      /* mem[MOD_TEXT] (v6.4+), else core_layout */
	uint64_t symbols[NCLASS];     /* symbols given an entry, by class */
	uint64_t relocations[NCLASS]; /* relocations of each class */
	uint64_t over[NCAUSE];	      /* over-allocation by cause, entries */
	uint64_t bytes_converted;     /* libelf's byte-order copies for this file */
	char reject[200];	      /* res->rejects when it is not static */
};

/* Sums over files (struct ep_plt_totals' detail[]). */
enum {
	SUM_UNAPPLIED,
	SUM_ALIAS,
	SUM_EXPOLINE,
	SUM_EXPOLINE_FILES,
	SUM_GOT_RELOCS,
	SUM_PLT_RELOCS,
	SUM_CONVERTED
};

/* check_rela()'s switch. */
static enum s390_class rel_class(uint32_t r_type)
{
	switch (r_type) {
	case R_390_GOT12:
	case R_390_GOT16:
	case R_390_GOT20:
	case R_390_GOT32:
	case R_390_GOT64:
	case R_390_GOTENT:
	case R_390_GOTPLT12:
	case R_390_GOTPLT16:
	case R_390_GOTPLT20:
	case R_390_GOTPLT32:
	case R_390_GOTPLT64:
	case R_390_GOTPLTENT:
		return CLASS_GOT;
	case R_390_PLT16DBL:
	case R_390_PLT32DBL:
	case R_390_PLT32:
	case R_390_PLT64:
	case R_390_PLTOFF16:
	case R_390_PLTOFF32:
	case R_390_PLTOFF64:
		return CLASS_PLT;
	default:
		return CLASS_NONE;
	}
}

/* What apply_rela() does with a type: 0 relocates it, 1 -ENOEXEC silently, 2 "unknown". */
static int apply_verdict(uint32_t r_type)
{
	if (rel_class(r_type) != CLASS_NONE)
		return 0;
	switch (r_type) {
	case R_390_NONE:
	case R_390_8:
	case R_390_12:
	case R_390_16:
	case R_390_20:
	case R_390_32:
	case R_390_64:
	case R_390_PC16:
	case R_390_PC16DBL:
	case R_390_PC32DBL:
	case R_390_PC32:
	case R_390_PC64:
	case R_390_GOTOFF16:
	case R_390_GOTOFF32:
	case R_390_GOTOFF64:
	case R_390_GOTPC:
	case R_390_GOTPCDBL:
		return 0;
	case R_390_COPY:
	case R_390_GLOB_DAT:
	case R_390_JMP_SLOT:
	case R_390_RELATIVE:
		return 1;
	default:
		return 2;
	}
}

static const char *s390_check(const struct ep_image *img, bool forced)
{
	if (img->ehdr.e_machine != EM_S390)
		return "the s390-module model needs an s390 file (e_machine EM_S390)";
	if (img->ehdr.e_ident[EI_CLASS] != ELFCLASS64)
		return "the s390-module model needs an ELFCLASS64 file (s390x; 31-bit modules "
		       "are gone since v4.1)";
	if (img->ehdr.e_type != ET_REL)
		return "the s390-module model needs a relocatable file (ET_REL)";
	if (!forced && !ep_image_is_kernel_module(img))
		return "not a kernel module (no .modinfo and .gnu.linkonce.this_module)";
	return NULL;
}

/* Per symbol: has an entry of a class (loader), and one that is used (applied). */
#define SYM_ANY(c)     (1u << (2 * (c)))
#define SYM_APPLIED(c) (2u << (2 * (c)))

/* The per-file state of one analysis. */
struct s390_run {
	struct ep_image *img;
	struct ep_symtab st;
	const Elf_Data *strtab;	 /* st's names (sh_link) */
	uint8_t *flags;		 /* per symbol: SYM_ANY/SYM_APPLIED bits */
	uint32_t *first[NCLASS]; /* per symbol: res->secs position + 1 of the first applied use */
	uint32_t *site[NCLASS];	 /* --by, per symbol: res->sites index + 1 of that use */
	size_t *secpos;		 /* per section: res->secs position + 1, 0 none */
};

/* The first refusal of apply_relocations(), kept in d->reject. */
static void set_reject(struct ep_plt_result *res, struct s390_detail *d, int verdict,
		       uint32_t r_type, const char *secname)
{
	const char *name = ep_reloc_type_name(EM_S390, r_type);
	char type[64];

	if (res->rejects)
		return;
	if (name)
		snprintf(type, sizeof(type), "%" PRIu32 " (%s)", r_type, name);
	else
		snprintf(type, sizeof(type), "%" PRIu32, r_type);
	if (verdict == 1)
		snprintf(d->reject, sizeof(d->reject),
			 "apply_rela(): -ENOEXEC without a message for type %s, only for modules "
			 "linked with -shared (in %s)",
			 type, secname);
	else
		snprintf(d->reject, sizeof(d->reject), "unknown relocation: %s (in %s)", type,
			 secname);
	res->rejects = d->reject;
}

/*
 * --by: relocation r of section s, class c, as a site: reserved when it
 * gave its symbol the entry (the first of the symbol's in the class);
 * minimum_of() marks the one each target's entry is counted for.
 */
static struct ep_plt_site *s390_site(struct ep_plt_result *res, const struct ep_plt_section *s,
				     const struct ep_rel *r, enum s390_class c, bool reserved)
{
	struct ep_plt_site *p = ep_plt_site_of(res, s, r);

	if (!p)
		return NULL;
	p->kind = c == CLASS_GOT ? EP_PLT_KIND_GOT : EP_PLT_KIND_PLT;
	p->group = EP_PLT_MODULE;
	p->reserved = reserved;
	return p;
}

/*
 * check_rela() on one batch, and apply_rela()'s verdict where the loader
 * applies it.  Returns 0, or -EP_ENOMEM (--by's sites).
 */
static int count_batch(struct s390_run *run, struct ep_plt_result *res, struct ep_plt_section *s,
			size_t pos, bool applied, const struct ep_rel *r, size_t n)
{
	struct s390_detail *d = res->detail;
	size_t k;

	for (k = 0; k < n; k++) {
		enum s390_class c = rel_class(r[k].r_type);
		uint8_t *f = &run->flags[r[k].r_sym];
		int verdict;

		if (applied && (verdict = apply_verdict(r[k].r_type)) != 0)
			set_reject(res, d, verdict, r[k].r_type, s->name);
		if (c == CLASS_NONE)
			continue;
		d->relocations[c]++;
		if (c == CLASS_GOT)
			s->got_relocations++;
		else
			s->plt_relocations++;
		if (res->opt.sites && !s390_site(res, s, &r[k], c, !(*f & SYM_ANY(c))))
			return -EP_ENOMEM;
		if (!(*f & SYM_ANY(c))) {
			*f |= SYM_ANY(c);
			d->symbols[c]++;
			s->slots++;
		}
		if (applied && !(*f & SYM_APPLIED(c))) {
			*f |= SYM_APPLIED(c);
			run->first[c][r[k].r_sym] = (uint32_t)pos + 1;
			if (res->opt.sites)
				run->site[c][r[k].r_sym] = (uint32_t)res->nsites;
		}
	}
	return 0;
}

static int count_section(struct s390_run *run, size_t idx, struct ep_plt_result *res,
			 struct ep_error *err)
{
	struct ep_image *img = run->img;
	const GElf_Shdr *sh = &img->sections[idx].shdr;
	struct s390_detail *d = res->detail;
	struct ep_rel batch[256];
	struct ep_rel_cursor cur = { 0 };
	struct ep_plt_section *s;
	struct ep_relsec rs;
	bool applied;
	ssize_t n;
	size_t k;
	int rc;

	rc = ep_relsec_open(img, idx, &rs, err);
	if (rc)
		return rc;
	s = ep_plt_section_add(res);
	if (!s)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	s->index = idx;
	s->name = img->sections[idx].name;
	s->target = sh->sh_info;
	s->target_name = img->sections[sh->sh_info].name;
	s->group = EP_PLT_NOGROUP;
	s->relocations = rs.count;
	run->secpos[idx] = res->nsecs;
	/* apply_relocations() skips a section whose target is not allocated. */
	applied = sh->sh_info != 0 && (img->sections[sh->sh_info].shdr.sh_flags & SHF_ALLOC);
	while ((n = ep_relsec_next(&rs, &cur, batch, sizeof(batch) / sizeof(batch[0]), err)) > 0) {
		/* syminfo[ELF_R_SYM()] is indexed unchecked in the kernel. */
		for (k = 0; k < (size_t)n; k++)
			if (batch[k].r_sym >= d->nsyms)
				return ep_error_set(err, EP_EMALFORMED,
						    "%s: relocation %zu has symbol %" PRIu32
						    ", the symbol table (section %zu) has %" PRIu64
						    " (section %zu %s)",
						    img->path, cur.entry - (size_t)n + k,
						    batch[k].r_sym, d->symtab, d->nsyms, idx,
						    ep_section_label(img, idx));
		if (count_batch(run, res, s, res->nsecs - 1, applied, batch, (size_t)n))
			return ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	}
	return n < 0 ? (int)n : 0;
}

/* ---- the minimum: distinct targets ------------------------------------------ */

enum key_kind { KEY_UNDEF, KEY_SECTION, KEY_ABS, KEY_OTHER };

/* What an entry holds, as far as the file tells: see the header comment. */
struct sym_key {
	enum key_kind kind;
	uint32_t shndx;
	uint64_t value;
	const char *name; /* KEY_UNDEF */
	uint32_t first;	  /* res->secs position + 1 of the symbol's first applied use */
	uint32_t sym;	  /* the symbol's index */
};

static int cmp_key(const void *a, const void *b)
{
	const struct sym_key *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->kind == KEY_UNDEF)
		return strcmp(x->name, y->name);
	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	return x->value < y->value ? -1 : x->value > y->value;
}

/* The name at st_name in strtab, bounds-checked; NULL when it is out of range. */
static const char *sym_name(const Elf_Data *strtab, uint32_t st_name)
{
	const char *s = strtab ? strtab->d_buf : NULL;

	if (!s || st_name >= strtab->d_size || !memchr(s + st_name, 0, strtab->d_size - st_name))
		return NULL;
	return s + st_name;
}

static int key_of(const struct s390_run *run, size_t i, struct sym_key *k, struct ep_error *err)
{
	const Elf64_Sym *sym = (const Elf64_Sym *)run->st.data->d_buf + i;

	memset(k, 0, sizeof(*k));
	k->shndx = sym->st_shndx; /* raw: simplify_symbols() does not resolve SHN_XINDEX */
	k->value = sym->st_value;
	if (sym->st_shndx == SHN_UNDEF) {
		k->name = sym_name(run->strtab, sym->st_name);
		if (!k->name)
			return ep_error_set(err, EP_EMALFORMED,
					    "%s: symbol %zu: st_name %" PRIu32
					    " is outside its string table (section %zu %s)",
					    run->img->path, i, sym->st_name, run->st.index,
					    ep_section_label(run->img, run->st.index));
		k->kind = strcmp(k->name, "_GLOBAL_OFFSET_TABLE_") == 0 ? KEY_ABS : KEY_UNDEF;
		k->shndx = SHN_ABS;
	} else if (sym->st_shndx == SHN_ABS) {
		k->kind = KEY_ABS;
	} else if (sym->st_shndx >= SHN_LORESERVE) {
		k->kind = KEY_OTHER;
		k->value = i;
	} else {
		k->kind = KEY_SECTION;
	}
	return 0;
}

/*
 * The minimum of class c in *count: distinct targets among the symbols whose
 * entry is used; each counts for the section of its first use.  Returns 0,
 * or a negative ep_errcode with err filled.
 */
static int minimum_of(struct s390_run *run, struct ep_plt_result *res, enum s390_class c,
		      int64_t *count, struct ep_error *err)
{
	struct sym_key *keys;
	size_t i, n = 0, j;
	int rc = 0;

	*count = 0;
	keys = malloc((run->st.count ? run->st.count : 1) * sizeof(*keys));
	if (!keys)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", run->img->path);
	for (i = 0; i < run->st.count; i++) {
		if (!(run->flags[i] & SYM_APPLIED(c)))
			continue;
		rc = key_of(run, i, &keys[n], err);
		if (rc)
			goto out;
		keys[n].sym = (uint32_t)i;
		keys[n++].first = run->first[c][i];
	}
	if (n) /* qsort() takes no NULL, even for 0 elements */
		qsort(keys, n, sizeof(*keys), cmp_key);
	for (i = 0; i < n; i = j) {
		uint32_t first = keys[i].first, sym = keys[i].sym;

		for (j = i + 1; j < n && cmp_key(&keys[i], &keys[j]) == 0; j++)
			if (keys[j].first < first) {
				first = keys[j].first;
				sym = keys[j].sym;
			}
		++*count;
		res->secs[first - 1].slots_minimal++;
		/* --by: the target's entry is that symbol's first applied use. */
		if (res->sites_recorded && run->site[c][sym])
			res->sites[run->site[c][sym] - 1].minimum = true;
	}
out:
	free(keys);
	return rc;
}

/* ---- the model over one image ---------------------------------------------- */

/* The generic loader's refusal over the symbol tables, or NULL; *last the one frob reads. */
static const char *symtab_rejects(const struct ep_image *img, uint32_t version, size_t *last)
{
	size_t i, count = 0;

	*last = 0;
	for (i = 1; i < img->shnum; i++)
		if (img->sections[i].shdr.sh_type == SHT_SYMTAB) {
			count++;
			*last = i;
		}
	if (count == 0)
		return "module has no symbols (stripped?): no SHT_SYMTAB";
	if (count > 1 && version >= EP_KVER(6, 12, 0))
		return "module has no symbols (stripped?): more than one SHT_SYMTAB";
	return NULL;
}

/* Built with CONFIG_EXPOLINE, as far as the module shows (see the header comment). */
static bool built_with_expolines(const struct s390_run *run)
{
	const struct ep_image *img = run->img;
	size_t i;

	for (i = 1; i < img->shnum; i++)
		if (strncmp(img->sections[i].name, ".s390_indirect", 14) == 0 ||
		    strncmp(img->sections[i].name, ".s390_return", 12) == 0)
			return true;
	for (i = 1; i < run->st.count; i++) {
		const Elf64_Sym *sym = (const Elf64_Sym *)run->st.data->d_buf + i;
		const char *name = sym_name(run->strtab, sym->st_name);

		if (sym->st_shndx == SHN_UNDEF && name &&
		    strncmp(name, "__s390_indirect_jump_", 21) == 0)
			return true;
	}
	return false;
}

/* Record the GOT and PLT the loader adds to the core text, and their slots. */
static void size_space(struct ep_plt_result *res, const struct s390_detail *d,
		       const int64_t *minimum)
{
	static const char *const name[2][NCLASS] = {
		{ NULL, "GOT (core_layout)", "PLT (core_layout)" },
		{ NULL, "GOT (MOD_TEXT)", "PLT (MOD_TEXT)" },
	};
	static const enum ep_plt_kind kind[NCLASS] = { EP_PLT_KIND_PLT, EP_PLT_KIND_GOT,
						       EP_PLT_KIND_PLT };
	static const uint64_t entry[NCLASS] = { 0, S390_GOT_ENTRY_BYTES, S390_PLT_ENTRY_BYTES };
	int c;

	for (c = CLASS_GOT; c < NCLASS; c++) {
		struct ep_plt_count *slots = &res->slots[kind[c]][EP_PLT_CORE];
		struct ep_plt_sized *z =
			ep_plt_sized_add(res, name[d->mod_text][c], 0, kind[c], EP_PLT_CORE);

		slots->reserved = d->symbols[c];
		slots->minimum = (uint64_t)minimum[c];
		/* module_frob_arch_sections(): the __jump_r1 entry ends a non-empty PLT. */
		if (c == CLASS_PLT && d->expoline) {
			slots->reserved += slots->reserved != 0;
			slots->minimum += slots->minimum != 0;
		}
		z->bytes.reserved = slots->reserved * entry[c];
		z->bytes.minimum = slots->minimum * entry[c];
	}
}

/* The over-allocation by cause; the causes sum to reserved - minimum. */
static void over_allocation(struct s390_run *run, struct s390_detail *d, const int64_t *minimum)
{
	size_t i;
	int c;

	for (c = CLASS_GOT; c < NCLASS; c++) {
		uint64_t applied = 0;

		for (i = 0; i < run->st.count; i++)
			applied += (run->flags[i] & SYM_APPLIED(c)) != 0;
		d->over[CAUSE_UNAPPLIED] += d->symbols[c] - applied;
		d->over[CAUSE_ALIAS] += applied - (uint64_t)minimum[c];
	}
	d->over[CAUSE_EXPOLINE] = d->expoline && d->symbols[CLASS_PLT] && !minimum[CLASS_PLT];
}

static void run_free(struct s390_run *run)
{
	free(run->flags);
	free(run->first[CLASS_GOT]);
	free(run->first[CLASS_PLT]);
	free(run->site[CLASS_GOT]);
	free(run->site[CLASS_PLT]);
	free(run->secpos);
}

static int s390_analyse(struct ep_image *img, struct ep_plt_result *res, struct ep_error *err)
{
	struct s390_run run = { .img = img };
	int64_t minimum[NCLASS] = { 0 };
	struct s390_detail *d;
	size_t i;
	int rc, c;

	rc = ep_plt_kernel_choose(img, &res->opt, S390_KVER_DEFAULT, S390_KVER_FLOOR,
				  S390_KVER_CHECKED, &res->kernel, err);
	if (rc)
		return rc;
	d = calloc(1, sizeof(*d));
	if (!d)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	res->detail = d;
	d->mod_text = res->kernel.version >= EP_KVER(6, 4, 0);
	res->rejects = symtab_rejects(img, res->kernel.version, &d->symtab);
	/* Without a symbol table the loader stops before it counts anything. */
	if (!d->symtab)
		goto sized;
	rc = ep_symtab_open(img, d->symtab, &run.st, err);
	if (rc)
		return rc;
	d->nsyms = run.st.count;
	/* ep_symtab_open() checked that sh_link is an SHT_STRTAB. */
	run.strtab = ep_section_data(img, img->sections[d->symtab].shdr.sh_link, err);
	if (!run.strtab)
		return -(int)err->code;
	run.flags = calloc(run.st.count ? run.st.count : 1, 1);
	run.first[CLASS_GOT] = calloc(run.st.count ? run.st.count : 1, sizeof(uint32_t));
	run.first[CLASS_PLT] = calloc(run.st.count ? run.st.count : 1, sizeof(uint32_t));
	run.secpos = calloc(img->shnum ? img->shnum : 1, sizeof(size_t));
	if (res->opt.sites) {
		run.site[CLASS_GOT] = calloc(run.st.count ? run.st.count : 1, sizeof(uint32_t));
		run.site[CLASS_PLT] = calloc(run.st.count ? run.st.count : 1, sizeof(uint32_t));
		res->sites_recorded = run.site[CLASS_GOT] && run.site[CLASS_PLT];
	}
	if (!run.flags || !run.first[CLASS_GOT] || !run.first[CLASS_PLT] || !run.secpos ||
	    res->sites_recorded != res->opt.sites) {
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
		goto out;
	}
	d->expoline = built_with_expolines(&run);
	for (i = 1; i < img->shnum; i++) {
		const GElf_Shdr *sh = &img->sections[i].shdr;

		/* apply_relocations(): REL into an allocated section is refused. */
		if (sh->sh_type == SHT_REL && sh->sh_info && sh->sh_info < img->shnum &&
		    (img->sections[sh->sh_info].shdr.sh_flags & SHF_ALLOC) && !res->rejects)
			res->rejects = "REL relocation unsupported";
		if (sh->sh_type != SHT_RELA)
			continue;
		rc = count_section(&run, i, res, err);
		if (rc)
			goto out;
	}
	for (c = CLASS_GOT; c < NCLASS; c++) {
		rc = minimum_of(&run, res, (enum s390_class)c, &minimum[c], err);
		if (rc)
			goto out;
	}
	over_allocation(&run, d, minimum);
sized:
	size_space(res, d, minimum);
out:
	d->bytes_converted = img->bytes_converted;
	run_free(&run);
	return rc;
}

/* ---- how the model shows what is its own ------------------------------------ */

static uint64_t col_got(const struct ep_plt_section *s)
{
	return s->got_relocations;
}

static uint64_t col_plt(const struct ep_plt_section *s)
{
	return s->plt_relocations;
}

static const struct ep_plt_column s390_columns[] = {
	{ "[Nr]", EP_PLT_COL_INDEX, NULL },    { "relocations", EP_PLT_COL_NAME, NULL },
	{ "target", EP_PLT_COL_TARGET, NULL }, { "relocs", EP_PLT_COL_RELOCATIONS, NULL },
	{ "got", EP_PLT_COL_VALUE, col_got },  { "plt", EP_PLT_COL_VALUE, col_plt },
	{ "entries", EP_PLT_COL_SLOTS, NULL }, { "minimal", EP_PLT_COL_MINIMAL, NULL },
};

static const char *const s390_summary[] = { "module", "got", "plt", "minimal", "bytes" };

static void s390_summary_values(const struct ep_plt_result *res, uint64_t *v)
{
	const struct ep_plt_count *got = &res->slots[EP_PLT_KIND_GOT][EP_PLT_CORE];
	const struct ep_plt_count *plt = &res->slots[EP_PLT_KIND_PLT][EP_PLT_CORE];

	v[0] = got->reserved;
	v[1] = plt->reserved;
	v[2] = got->minimum + plt->minimum;
	v[3] = ep_plt_result_bytes(res).reserved;
}

static void s390_print_rules(FILE *out, const struct ep_plt_result *res)
{
	const struct s390_detail *d = res->detail;

	fprintf(out, ", expolines %s", d->expoline ? "on" : "off");
}

static void print_over(FILE *out, const uint64_t *over)
{
	int i;

	fputs("  over-allocation:", out);
	for (i = 0; i < NCAUSE; i++)
		fprintf(out, " %s %" PRIu64 "%s", cause_name[i], over[i],
			i + 1 < NCAUSE ? "," : "");
	fputc('\n', out);
}

static void s390_print_detail(FILE *out, const struct ep_plt_result *res)
{
	const struct s390_detail *d = res->detail;
	size_t i;

	for (i = 0; i < res->nsized; i++) {
		const struct ep_plt_sized *z = &res->sized[i];
		const struct ep_plt_count *c = &res->slots[z->kind][z->group];

		fprintf(out,
			"  %s: %" PRIu64 " %s (minimal %" PRIu64 "), %" PRIu64
			" bytes (minimal %" PRIu64 ")\n",
			z->name, c->reserved, ep_plural(c->reserved, "entry", "entries"),
			c->minimum, z->bytes.reserved, z->bytes.minimum);
	}
	print_over(out, d->over);
}

static void s390_print_totals(FILE *out, const struct ep_plt_totals *t, unsigned int timing_reps)
{
	const struct ep_plt_count *got = &t->slots[EP_PLT_KIND_GOT][EP_PLT_CORE];
	const struct ep_plt_count *plt = &t->slots[EP_PLT_KIND_PLT][EP_PLT_CORE];
	const struct ep_plt_count *gotb = &t->bytes[EP_PLT_KIND_GOT][EP_PLT_CORE];
	const struct ep_plt_count *pltb = &t->bytes[EP_PLT_KIND_PLT][EP_PLT_CORE];

	(void)timing_reps; /* the loader does not sort */
	fprintf(out, "%s, %" PRIu64 " %s (%" PRIu64 " rejected by the kernel):\n",
		ep_plt_model_s390.name, t->files, ep_plural(t->files, "module", "modules"),
		t->rejected);
	fprintf(out,
		"  GOT %" PRIu64 " %s (minimal %" PRIu64 "), %" PRIu64 " bytes (minimal %" PRIu64
		"); PLT %" PRIu64 " %s (minimal %" PRIu64 "), %" PRIu64 " bytes (minimal %" PRIu64
		")\n",
		got->reserved, ep_plural(got->reserved, "entry", "entries"), got->minimum,
		gotb->reserved, gotb->minimum, plt->reserved,
		ep_plural(plt->reserved, "entry", "entries"), plt->minimum, pltb->reserved,
		pltb->minimum);
	print_over(out, t->detail);
	ep_plt_print_kernels(out, t);
	fprintf(out, "; %" PRIu64 " with expolines\n", t->detail[SUM_EXPOLINE_FILES]);
}

static json_t *s390_json_rules(const struct ep_plt_result *res)
{
	const struct s390_detail *d = res->detail;

	return json_pack("{s:b, s:s, s:I, s:I}", "expoline", d->expoline, "space",
			 d->mod_text ? "MOD_TEXT" : "core_layout", "plt_entry_bytes",
			 (json_int_t)S390_PLT_ENTRY_BYTES, "got_entry_bytes",
			 (json_int_t)S390_GOT_ENTRY_BYTES);
}

static json_t *json_over(const uint64_t *over)
{
	json_t *o = json_object();
	int i;

	for (i = 0; o && i < NCAUSE; i++)
		json_object_set_new(o, cause_name[i], ep_json_u64(over[i]));
	return o;
}

static json_t *s390_json_detail(const struct ep_plt_result *res)
{
	const struct s390_detail *d = res->detail;

	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "symtab",
			 ep_json_u64(d->symtab), "symbols", ep_json_u64(d->nsyms), "got_symbols",
			 ep_json_u64(d->symbols[CLASS_GOT]), "plt_symbols",
			 ep_json_u64(d->symbols[CLASS_PLT]), "got_relocations",
			 ep_json_u64(d->relocations[CLASS_GOT]), "plt_relocations",
			 ep_json_u64(d->relocations[CLASS_PLT]), "over_allocation",
			 json_over(d->over), "bytes_converted", ep_json_u64(d->bytes_converted));
}

static json_t *s390_json_section(const struct ep_plt_result *res, const struct ep_plt_section *s)
{
	(void)res;
	return json_pack("{s:o, s:o}", "got_relocations", ep_json_u64(s->got_relocations),
			 "plt_relocations", ep_json_u64(s->plt_relocations));
}

static void s390_detail_sums(const struct ep_plt_result *res, uint64_t *sums)
{
	const struct s390_detail *d = res->detail;

	sums[SUM_UNAPPLIED] = d->over[CAUSE_UNAPPLIED];
	sums[SUM_ALIAS] = d->over[CAUSE_ALIAS];
	sums[SUM_EXPOLINE] = d->over[CAUSE_EXPOLINE];
	sums[SUM_EXPOLINE_FILES] = d->expoline;
	sums[SUM_GOT_RELOCS] = d->relocations[CLASS_GOT];
	sums[SUM_PLT_RELOCS] = d->relocations[CLASS_PLT];
	sums[SUM_CONVERTED] = d->bytes_converted;
}

static json_t *s390_json_totals(const struct ep_plt_totals *t)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o}", "over_allocation", json_over(t->detail),
			 "expoline_files", ep_json_u64(t->detail[SUM_EXPOLINE_FILES]),
			 "got_relocations", ep_json_u64(t->detail[SUM_GOT_RELOCS]),
			 "plt_relocations", ep_json_u64(t->detail[SUM_PLT_RELOCS]),
			 "bytes_converted", ep_json_u64(t->detail[SUM_CONVERTED]));
}

/* --by=cause: d->over, in cause_name[]'s words. */
static size_t s390_causes(const struct ep_plt_result *res, struct ep_plt_cause *out)
{
	const struct s390_detail *d = res->detail;
	size_t k;

	for (k = 0; k < NCAUSE; k++)
		out[k] = (struct ep_plt_cause){ cause_name[k], (int64_t)d->over[k] };
	return NCAUSE;
}

const struct ep_plt_model ep_plt_model_s390 = {
	.name = "s390-module",
	.source = "Linux arch/s390/kernel/module.c, v6.1 to v7.2",
	.one = "s390 module",
	.many = "s390 modules",
	.check = s390_check,
	.analyse = s390_analyse,
	.columns = s390_columns,
	.ncolumns = sizeof(s390_columns) / sizeof(s390_columns[0]),
	.summary = s390_summary,
	.nsummary = sizeof(s390_summary) / sizeof(s390_summary[0]),
	.nsummary_timing = 0,
	.summary_values = s390_summary_values,
	.print_rules = s390_print_rules,
	.print_detail = s390_print_detail,
	.print_totals = s390_print_totals,
	.json_rules = s390_json_rules,
	.json_detail = s390_json_detail,
	.json_section = s390_json_section,
	.detail_sums = s390_detail_sums,
	.json_totals = s390_json_totals,
	.causes = s390_causes,
};
