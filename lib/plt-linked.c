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
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/plt.h"
#include "lib/report.h"
#include "lib/stats.h"

/* What the static linker made (res->detail), and its sums over files. */
struct ep_plt_linked {
	uint64_t jump_slot; /* JUMP_SLOT relocations in .rela.plt/.rel.plt */
	uint64_t irelative; /* IRELATIVE relocations in .rela.plt/.rel.plt */
	uint64_t plt_slots; /* jump_slot + irelative */
	uint64_t glob_dat;  /* GLOB_DAT relocations in every dynamic table */
	uint64_t plt_bytes, plt_sec_bytes, got_bytes, got_plt_bytes; /* sh_size; 0 absent */
};

/* Its sums in struct ep_plt_totals' detail[]: the fields above, in order. */
#define LINKED_SUMS (sizeof(struct ep_plt_linked) / sizeof(uint64_t))
_Static_assert(LINKED_SUMS <= EP_PLT_DETAIL_SUMS, "the linked sums fit");

extern const struct ep_plt_model ep_plt_model_linked;

static const char *linked_check(const struct ep_image *img, bool forced)
{
	(void)forced;
	if (img->ehdr.e_type != ET_DYN && img->ehdr.e_type != ET_EXEC)
		return "the linked model needs an executable or shared object (ET_EXEC, ET_DYN)";
	return NULL;
}

/* --by: a JUMP_SLOT, IRELATIVE or GLOB_DAT: each is one slot the link made. */
static struct ep_plt_site *linked_site(struct ep_plt_result *res, const struct ep_plt_section *s,
				       const struct ep_rel *r, enum ep_plt_kind kind)
{
	struct ep_plt_site *p = ep_plt_site_of(res, s, r);

	if (!p)
		return NULL;
	p->kind = kind;
	p->group = EP_PLT_MODULE;
	p->reserved = p->minimum = true;
	return p;
}

static int count_table(struct ep_image *img, size_t idx, bool is_plt, struct ep_plt_result *res,
		       struct ep_error *err)
{
	struct ep_plt_linked *l = res->detail;
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
				l->glob_dat++;
				s->got_relocations++;
				if (res->opt.sites &&
				    !linked_site(res, s, &batch[k], EP_PLT_KIND_GOT))
					return ep_error_set(err, EP_ENOMEM, "%s: out of memory",
							    img->path);
			}
			if (!is_plt)
				continue;
			if (kind == EP_DYN_JUMP_SLOT)
				l->jump_slot++;
			else if (kind == EP_DYN_IRELATIVE)
				l->irelative++;
			else
				continue;
			s->plt_relocations++;
			if (res->opt.sites && !linked_site(res, s, &batch[k], EP_PLT_KIND_PLT))
				return ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
		}
	}
	if (got < 0)
		return (int)got;
	s->slots = s->slots_minimal = s->plt_relocations;
	return 0;
}

/* A section the linker sized, when the file has it: its sh_size. */
static uint64_t sized(struct ep_plt_result *res, const struct ep_image *img, const char *name,
		      enum ep_plt_kind kind)
{
	size_t i = ep_image_find_section(img, name);
	struct ep_plt_sized *z;

	if (!i)
		return 0;
	z = ep_plt_sized_add(res, img->sections[i].name, i, kind, EP_PLT_MODULE);
	z->bytes.reserved = z->bytes.minimum = img->sections[i].shdr.sh_size;
	return z->bytes.reserved;
}

static int linked_analyse(struct ep_image *img, struct ep_plt_result *res, struct ep_error *err)
{
	struct ep_plt_linked *l = calloc(1, sizeof(*l));
	size_t i, rela_plt;
	int rc;

	if (!l)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	res->detail = l;
	res->sites_recorded = res->opt.sites;
	rela_plt = ep_image_find_section(img, ".rela.plt");
	if (!rela_plt)
		rela_plt = ep_image_find_section(img, ".rel.plt");
	for (i = 1; i < img->shnum; i++) {
		const GElf_Shdr *sh = &img->sections[i].shdr;

		/* Dynamic tables only: SHF_ALLOC REL/RELA (RELR holds RELATIVE only). */
		if ((sh->sh_type != SHT_RELA && sh->sh_type != SHT_REL) ||
		    !(sh->sh_flags & SHF_ALLOC))
			continue;
		rc = count_table(img, i, i == rela_plt, res, err);
		if (rc)
			return rc;
	}
	l->plt_slots = l->jump_slot + l->irelative;
	/* A link made exactly what it needed: the minimum is what is there. */
	res->slots[EP_PLT_KIND_PLT][EP_PLT_MODULE].reserved = l->plt_slots;
	res->slots[EP_PLT_KIND_PLT][EP_PLT_MODULE].minimum = l->plt_slots;
	res->slots[EP_PLT_KIND_GOT][EP_PLT_MODULE].reserved = l->glob_dat;
	res->slots[EP_PLT_KIND_GOT][EP_PLT_MODULE].minimum = l->glob_dat;
	l->plt_bytes = sized(res, img, ".plt", EP_PLT_KIND_PLT);
	l->plt_sec_bytes = sized(res, img, ".plt.sec", EP_PLT_KIND_PLT);
	l->got_bytes = sized(res, img, ".got", EP_PLT_KIND_GOT);
	l->got_plt_bytes = sized(res, img, ".got.plt", EP_PLT_KIND_GOT);
	return 0;
}

/* ---- how the model shows what is its own ------------------------------------ */

/* A linked file: the dynamic tables, their PLT and GLOB_DAT relocations. */
static const struct ep_plt_column linked_columns[] = {
	{ "[Nr]", EP_PLT_COL_INDEX, NULL },	 { "relocations", EP_PLT_COL_NAME, NULL },
	{ "target", EP_PLT_COL_TARGET, NULL },	 { "relocs", EP_PLT_COL_RELOCATIONS, NULL },
	{ "PLT slots", EP_PLT_COL_SLOTS, NULL }, { "GLOB_DAT", EP_PLT_COL_GOT, NULL },
};

static const char *const linked_summary[] = { "linked file",	"PLT slots",  "JUMP_SLOT",
					      "IRELATIVE",	"GLOB_DAT",   ".plt bytes",
					      ".plt.sec bytes", ".got bytes", ".got.plt bytes" };

static void linked_summary_values(const struct ep_plt_result *res, uint64_t *v)
{
	const struct ep_plt_linked *l = res->detail;

	v[0] = l->plt_slots;
	v[1] = l->jump_slot;
	v[2] = l->irelative;
	v[3] = l->glob_dat;
	v[4] = l->plt_bytes;
	v[5] = l->plt_sec_bytes;
	v[6] = l->got_bytes;
	v[7] = l->got_plt_bytes;
}

static void print_linked(FILE *out, const struct ep_plt_linked *l)
{
	fprintf(out,
		"  PLT: %" PRIu64 " %s (%" PRIu64 " JUMP_SLOT, %" PRIu64
		" IRELATIVE); GOT: %" PRIu64 " GLOB_DAT %s\n"
		"  sizes: .plt %" PRIu64 ", .plt.sec %" PRIu64 ", .got %" PRIu64
		", .got.plt %" PRIu64 " bytes\n",
		l->plt_slots, ep_plural(l->plt_slots, "slot", "slots"), l->jump_slot, l->irelative,
		l->glob_dat, ep_plural(l->glob_dat, "entry", "entries"), l->plt_bytes,
		l->plt_sec_bytes, l->got_bytes, l->got_plt_bytes);
}

static void linked_print_detail(FILE *out, const struct ep_plt_result *res)
{
	print_linked(out, res->detail);
}

/* The sums, as the struct they were added from. */
static struct ep_plt_linked sums_of(const struct ep_plt_totals *t)
{
	struct ep_plt_linked l;

	memcpy(&l, t->detail, sizeof(l));
	return l;
}

static void linked_print_totals(FILE *out, const struct ep_plt_totals *t, unsigned int timing_reps)
{
	const struct ep_plt_linked l = sums_of(t);

	(void)timing_reps;
	fprintf(out, "%s, %" PRIu64 " %s:\n", ep_plt_model_linked.name, t->files,
		ep_plural(t->files, "file", "files"));
	print_linked(out, &l);
}

/* files[].detail, and the same keys summed in totals.by_model[].detail. */
static json_t *json_linked(const struct ep_plt_linked *l)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "plt_slots",
			 ep_json_u64(l->plt_slots), "jump_slot", ep_json_u64(l->jump_slot),
			 "irelative", ep_json_u64(l->irelative), "got_entries_glob_dat",
			 ep_json_u64(l->glob_dat), "plt_bytes", ep_json_u64(l->plt_bytes),
			 "plt_sec_bytes", ep_json_u64(l->plt_sec_bytes), "got_bytes",
			 ep_json_u64(l->got_bytes), "got_plt_bytes", ep_json_u64(l->got_plt_bytes));
}

static json_t *linked_json_detail(const struct ep_plt_result *res)
{
	return json_linked(res->detail);
}

static json_t *linked_json_section(const struct ep_plt_result *res, const struct ep_plt_section *s)
{
	(void)res;
	return json_pack("{s:o}", "got_relocations", ep_json_u64(s->got_relocations));
}

static void linked_detail_sums(const struct ep_plt_result *res, uint64_t *sums)
{
	memcpy(sums, res->detail, sizeof(struct ep_plt_linked));
}

static json_t *linked_json_totals(const struct ep_plt_totals *t)
{
	const struct ep_plt_linked l = sums_of(t);

	return json_linked(&l);
}

const struct ep_plt_model ep_plt_model_linked = {
	.name = "linked",
	.source = "gABI DT_JMPREL/.rela.plt; psABI JUMP_SLOT, IRELATIVE, GLOB_DAT",
	.one = "linked file",
	.many = "linked files",
	.check = linked_check,
	.analyse = linked_analyse,
	.columns = linked_columns,
	.ncolumns = sizeof(linked_columns) / sizeof(linked_columns[0]),
	.summary = linked_summary,
	.nsummary = sizeof(linked_summary) / sizeof(linked_summary[0]),
	.summary_values = linked_summary_values,
	.print_detail = linked_print_detail,
	.print_totals = linked_print_totals,
	.json_detail = linked_json_detail,
	.json_section = linked_json_section,
	.detail_sums = linked_detail_sums,
	.json_totals = linked_json_totals,
};
