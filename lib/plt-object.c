/* SPDX-License-Identifier: MIT */
/*
 * The relocatable-object model (ET_REL that is not a kernel module; x86-64
 * and AArch64): an upper bound on the PLT slots and GOT entries a static
 * link against shared libraries can create from this object.  A branch to
 * an undefined symbol (R_X86_64_PLT32, R_AARCH64_CALL26/JUMP26) gets a PLT
 * slot if the symbol ends up in a shared library, one slot per symbol
 * however many calls; a GOT-generating relocation (R_X86_64_GOTPCREL,
 * GOTPCRELX, REX_GOTPCRELX, GOTPCREL64; R_AARCH64_ADR_GOT_PAGE) gets one
 * GOT entry per symbol.  Sources: the x86-64 psABI section 4.4 and the
 * AArch64 ELF psABI (aaelf64) relocation tables.
 */
#include "config.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "lib/plt.h"

#ifndef R_X86_64_GOTPCRELX
#define R_X86_64_GOTPCRELX 41
#endif
#ifndef R_X86_64_REX_GOTPCRELX
#define R_X86_64_REX_GOTPCRELX 42
#endif

static const char *object_check(const struct ep_image *img, bool forced)
{
	unsigned int m = img->ehdr.e_machine;

	if (img->ehdr.e_type != ET_REL)
		return "the object model needs a relocatable file (ET_REL)";
	if (m != EM_X86_64 && m != EM_AARCH64)
		return "the object model covers x86-64 and AArch64 objects only";
	if (!forced && ep_image_is_kernel_module(img))
		return m == EM_X86_64 ? "an x86-64 kernel module: its loader reserves no PLT"
				      : "a kernel module (see the arm64-module model)";
	return NULL;
}

static bool is_branch(unsigned int m, uint32_t t)
{
	if (m == EM_X86_64)
		return t == R_X86_64_PLT32;
	return t == R_AARCH64_CALL26 || t == R_AARCH64_JUMP26;
}

static bool is_got(unsigned int m, uint32_t t)
{
	if (m == EM_X86_64)
		return t == R_X86_64_GOTPCREL || t == R_X86_64_GOTPCRELX ||
		       t == R_X86_64_REX_GOTPCRELX || t == R_X86_64_GOTPCREL64;
	return t == R_AARCH64_ADR_GOT_PAGE;
}

/*
 * Per symbol table: which symbols were already counted, one byte per symbol
 * (simple, and objects are small).  Kept for the whole file, one pair per
 * table, so sections that alternate between tables neither lose the marks
 * nor allocate a table's worth of marks again for each section.
 */
struct seen {
	size_t symtab;
	size_t count;
	uint8_t *branch, *got;
};

struct seen_all {
	struct seen *v;
	size_t n;
	size_t *slot; /* per section index: 1 + its place in v, or 0 */
};

/* The marks of st, made on first use; NULL when out of memory. */
static struct seen *seen_for(struct seen_all *all, const struct ep_symtab *st)
{
	struct seen *s, *v;

	if (all->slot[st->index])
		return &all->v[all->slot[st->index] - 1];
	v = realloc(all->v, (all->n + 1) * sizeof(*v));
	if (!v)
		return NULL;
	all->v = v;
	s = &v[all->n];
	s->symtab = st->index;
	s->count = st->count;
	s->branch = calloc(st->count + 1, 1);
	s->got = calloc(st->count + 1, 1);
	if (!s->branch || !s->got) {
		free(s->branch);
		free(s->got);
		return NULL;
	}
	all->slot[st->index] = ++all->n;
	return s;
}

static int count_table(struct ep_image *img, size_t idx, struct seen_all *all,
		       struct ep_plt_result *res, struct ep_error *err)
{
	unsigned int m = img->ehdr.e_machine;
	struct ep_plt_object *o = &res->object;
	struct ep_plt_section *s;
	struct ep_relsec rs;
	struct ep_rel *r = NULL;
	struct seen *seen;
	size_t i;
	int rc;

	rc = ep_relsec_open(img, idx, &rs, err);
	if (rc)
		return rc;
	rc = ep_relsec_read_all(&rs, &r, err);
	if (rc)
		return rc;
	seen = seen_for(all, &rs.symtab);
	if (!seen) {
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
		goto out;
	}
	s = ep_plt_section_add(res);
	if (!s) {
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
		goto out;
	}
	s->index = idx;
	s->name = img->sections[idx].name;
	s->target = rs.target;
	s->target_name = img->sections[rs.target].name;
	s->relocations = rs.count;
	for (i = 0; i < rs.count; i++) {
		uint32_t sym = r[i].r_sym;

		if (is_got(m, r[i].r_type)) {
			o->got_relocations++;
			s->got_relocations++;
			if (sym && !seen->got[sym]) {
				seen->got[sym] = 1;
				o->distinct_got_symbols++;
			}
			continue;
		}
		if (!is_branch(m, r[i].r_type))
			continue;
		s->branch_relocations++;
		o->branch_relocations++;
		if (!sym || ep_symtab_shndx(&rs.symtab, sym) != SHN_UNDEF)
			continue;
		s->plt_relocations++;
		o->undefined_branches++;
		/* Slots of this section: distinct targets, counted per section. */
		if (seen->branch[sym] != 2) {
			if (!seen->branch[sym])
				o->distinct_targets++;
			seen->branch[sym] = 2;
			s->slots++;
		}
	}
	/* Reset the per-section mark (2) to "seen in the file" (1). */
	for (i = 0; i < rs.count; i++)
		if (r[i].r_sym < seen->count + 1 && seen->branch[r[i].r_sym] == 2)
			seen->branch[r[i].r_sym] = 1;
	s->slots_minimal = s->slots;
out:
	free(r);
	return rc;
}

static int object_analyse(struct ep_image *img, struct ep_plt_result *res, struct ep_error *err)
{
	struct seen_all seen = { NULL, 0, NULL };
	size_t i;
	int rc = 0;

	res->object_valid = true;
	seen.slot = calloc(img->shnum ? img->shnum : 1, sizeof(*seen.slot));
	if (!seen.slot)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	for (i = 1; i < img->shnum; i++) {
		unsigned int type = img->sections[i].shdr.sh_type;

		if (type != SHT_RELA && type != SHT_REL)
			continue;
		rc = count_table(img, i, &seen, res, err);
		if (rc)
			break;
	}
	for (i = 0; i < seen.n; i++) {
		free(seen.v[i].branch);
		free(seen.v[i].got);
	}
	free(seen.v);
	free(seen.slot);
	return rc;
}

const struct ep_plt_model ep_plt_model_object = {
	.name = "object",
	.source = "x86-64 psABI and AArch64 aaelf64: branch and GOT relocation types",
	.check = object_check,
	.analyse = object_analyse,
};
