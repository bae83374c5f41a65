/* SPDX-License-Identifier: MIT */
/*
 * The linked-file model (ET_DYN, ET_EXEC): the PLT and GOT a static link
 * already made.  PLT slots are the JUMP_SLOT and IRELATIVE relocations of
 * .rela.plt (.rel.plt on REL targets), the table the dynamic loader walks
 * for lazy binding (gABI DT_JMPREL); GOT entries for data are the GLOB_DAT
 * relocations of every dynamic table.  Section sizes come from the section
 * headers: .plt, .plt.sec (x86 IBT's second PLT), .got and .got.plt.
 * Nothing here is over-allocated by construction, so the minimum is the
 * count itself.
 */
#include "config.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "lib/plt.h"
#include "lib/stats.h"

static const char *linked_check(const struct ep_image *img, bool forced)
{
	(void)forced;
	if (img->ehdr.e_type != ET_DYN && img->ehdr.e_type != ET_EXEC)
		return "the linked model needs an executable or shared object (ET_EXEC, ET_DYN)";
	return NULL;
}

static uint64_t size_of(const struct ep_image *img, const char *name)
{
	size_t i = ep_image_find_section(img, name);

	return i ? img->sections[i].shdr.sh_size : 0;
}

static int count_table(struct ep_image *img, size_t idx, bool is_plt, struct ep_plt_result *res,
		       struct ep_error *err)
{
	struct ep_rel batch[EP_REL_BATCH_MIN * 4];
	struct ep_rel_cursor cur = { 0 };
	struct ep_plt_section *s;
	struct ep_relsec rs;
	ssize_t got, k;
	int rc;

	rc = ep_relsec_open(img, idx, &rs, err);
	if (rc)
		return rc;
	s = ep_plt_section_add(res);
	if (!s)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	s->index = idx;
	s->name = img->sections[idx].name;
	s->target = rs.target;
	s->target_name = img->sections[rs.target].name;
	s->relocations = rs.count;
	while ((got = ep_relsec_next(&rs, &cur, batch, sizeof(batch) / sizeof(batch[0]), err)) >
	       0) {
		for (k = 0; k < got; k++) {
			enum ep_dynkind kind = ep_dynkind_of(img->ehdr.e_machine, batch[k].r_type);

			if (kind == EP_DYN_GLOB_DAT) {
				res->linked.glob_dat++;
				s->got_relocations++;
			}
			if (!is_plt)
				continue;
			if (kind == EP_DYN_JUMP_SLOT)
				res->linked.jump_slot++;
			else if (kind == EP_DYN_IRELATIVE)
				res->linked.irelative++;
			else
				continue;
			s->plt_relocations++;
		}
	}
	if (got < 0)
		return (int)got;
	s->slots = s->slots_minimal = s->plt_relocations;
	return 0;
}

static int linked_analyse(struct ep_image *img, struct ep_plt_result *res, struct ep_error *err)
{
	struct ep_plt_linked *l = &res->linked;
	size_t i;
	int rc;

	res->linked_valid = true;
	l->rela_plt = ep_image_find_section(img, ".rela.plt");
	if (!l->rela_plt)
		l->rela_plt = ep_image_find_section(img, ".rel.plt");
	for (i = 1; i < img->shnum; i++) {
		const GElf_Shdr *sh = &img->sections[i].shdr;

		/* Dynamic tables only: SHF_ALLOC REL/RELA (RELR holds RELATIVE only). */
		if ((sh->sh_type != SHT_RELA && sh->sh_type != SHT_REL) ||
		    !(sh->sh_flags & SHF_ALLOC))
			continue;
		rc = count_table(img, i, i == l->rela_plt, res, err);
		if (rc)
			return rc;
	}
	l->plt_slots = l->jump_slot + l->irelative;
	l->plt_bytes = size_of(img, ".plt");
	l->plt_sec_bytes = size_of(img, ".plt.sec");
	l->got_bytes = size_of(img, ".got");
	l->got_plt_bytes = size_of(img, ".got.plt");
	return 0;
}

const struct ep_plt_model ep_plt_model_linked = {
	.name = "linked",
	.source = "gABI DT_JMPREL/.rela.plt; psABI JUMP_SLOT, IRELATIVE, GLOB_DAT",
	.check = linked_check,
	.analyse = linked_analyse,
};
