/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <elf.h>
#include <inttypes.h>
#include <string.h>

#include "lib/dynamic.h"

/* gABI values; glibc before 2.36 lacks them. */
#ifndef DT_RELRSZ
#define DT_RELRSZ  35
#define DT_RELR	   36
#define DT_RELRENT 37
#endif

static const struct {
	const char *tag, *size_tag;
	int64_t d_tag, d_size_tag, d_ent_tag; /* d_ent_tag 0: none (DT_JMPREL) */
} tables[EP_DT_NTAB] = {
	[EP_DT_REL] = { "DT_REL", "DT_RELSZ", DT_REL, DT_RELSZ, DT_RELENT },
	[EP_DT_RELA] = { "DT_RELA", "DT_RELASZ", DT_RELA, DT_RELASZ, DT_RELAENT },
	[EP_DT_JMPREL] = { "DT_JMPREL", "DT_PLTRELSZ", DT_JMPREL, DT_PLTRELSZ, 0 },
	[EP_DT_RELR] = { "DT_RELR", "DT_RELRSZ", DT_RELR, DT_RELRSZ, DT_RELRENT },
};

static uint64_t kind_entsize(const struct ep_image *img, enum ep_relkind kind)
{
	bool is32 = img->ehdr.e_ident[EI_CLASS] == ELFCLASS32;

	switch (kind) {
	case EP_RELKIND_REL:
		return is32 ? sizeof(Elf32_Rel) : sizeof(Elf64_Rel);
	case EP_RELKIND_RELA:
		return is32 ? sizeof(Elf32_Rela) : sizeof(Elf64_Rela);
	default:
		return is32 ? 4 : 8;
	}
}

/* The program header table, checked against the image once: its count. */
static int phdr_count(const struct ep_image *img, size_t *phnum, struct ep_error *err)
{
	const GElf_Ehdr *eh = &img->ehdr;
	size_t entsize =
		eh->e_ident[EI_CLASS] == ELFCLASS32 ? sizeof(Elf32_Phdr) : sizeof(Elf64_Phdr);

	*phnum = 0;
	if (eh->e_phoff == 0)
		return 0;
	if (elf_getphdrnum(img->elf, phnum) != 0)
		return ep_error_set(err, EP_EMALFORMED, "%s: program header table: %s", img->path,
				    elf_errmsg(-1));
	if (*phnum == 0)
		return 0;
	if (eh->e_phentsize != entsize)
		return ep_error_set(err, EP_EMALFORMED, "%s: e_phentsize is %u, not %zu", img->path,
				    eh->e_phentsize, entsize);
	if (*phnum > SIZE_MAX / entsize || !ep_range_ok(eh->e_phoff, *phnum * entsize, img->size))
		return ep_error_set(err, EP_ETRUNC,
				    "%s: program header table (%zu entries at offset 0x%" PRIx64
				    ") extends past the end of the file (%zu bytes)",
				    img->path, *phnum, (uint64_t)eh->e_phoff, img->size);
	/* A sparse image brings bytes in on demand: the table, before gelf reads
	 * it (bringing bytes in changes no figure the image reports). */
	if (!ep_image_bytes((struct ep_image *)img, eh->e_phoff, (uint64_t)*phnum * entsize, err))
		return -err->code;
	return 0;
}

/*
 * File offset of [addr, addr + bytes) through the PT_LOAD segment whose
 * p_vaddr..p_vaddr+p_memsz holds addr; all of it must be file-backed.
 */
static int map_addr(const struct ep_image *img, size_t phnum, const char *what, uint64_t addr,
		    uint64_t bytes, uint64_t *offset, size_t *load, struct ep_error *err)
{
	GElf_Phdr ph;
	size_t i;

	for (i = 0; i < phnum; i++) {
		uint64_t rel;

		if (!gelf_getphdr(img->elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    addr < ph.p_vaddr || addr - ph.p_vaddr >= ph.p_memsz)
			continue;
		rel = addr - ph.p_vaddr;
		if (!ep_range_ok(rel, bytes, ph.p_filesz))
			return ep_error_set(err, EP_EMALFORMED,
					    "%s: %s 0x%" PRIx64 " (%" PRIu64
					    " bytes) is past the file bytes of PT_LOAD (program "
					    "header %zu, p_filesz %" PRIu64 ")",
					    img->path, what, addr, bytes, i, (uint64_t)ph.p_filesz);
		if (ph.p_offset > UINT64_MAX - rel ||
		    !ep_range_ok(ph.p_offset + rel, bytes, img->size))
			return ep_error_set(err, EP_ETRUNC,
					    "%s: %s 0x%" PRIx64 " (%" PRIu64
					    " bytes) extends past the end of the file (%zu bytes)",
					    img->path, what, addr, bytes, img->size);
		*offset = ph.p_offset + rel;
		*load = i;
		return 0;
	}
	return ep_error_set(err, EP_EMALFORMED, "%s: %s 0x%" PRIx64 " is in no PT_LOAD segment",
			    img->path, what, addr);
}

static int read_phdr(struct ep_image *img, struct ep_dynamic *dy, size_t *phnum,
		     struct ep_error *err)
{
	GElf_Phdr ph;
	size_t i;
	int rc;

	rc = phdr_count(img, phnum, err);
	if (rc)
		return rc;
	for (i = 0; i < *phnum; i++) {
		if (!gelf_getphdr(img->elf, (int)i, &ph))
			return ep_error_set(err, EP_EMALFORMED, "%s: program header %zu: %s",
					    img->path, i, elf_errmsg(-1));
		if (ph.p_type != PT_DYNAMIC)
			continue;
		if (!ep_range_ok(ph.p_offset, ph.p_filesz, img->size))
			return ep_error_set(
				err, EP_ETRUNC,
				"%s: PT_DYNAMIC (program header %zu, p_offset 0x%" PRIx64
				", p_filesz %" PRIu64
				") extends past the end of the file (%zu bytes)",
				img->path, i, (uint64_t)ph.p_offset, (uint64_t)ph.p_filesz,
				img->size);
		dy->present = true;
		dy->phdr = i;
		dy->offset = ph.p_offset;
		dy->filesz = ph.p_filesz;
		return 0;
	}
	return 0;
}

/* The tags the tables need, first of each as glibc's loader keeps them. */
struct tags {
	bool has[EP_DT_NTAB], has_size[EP_DT_NTAB], has_ent[EP_DT_NTAB], has_pltrel;
	uint64_t addr[EP_DT_NTAB], size[EP_DT_NTAB], ent[EP_DT_NTAB], pltrel;
};

static void take_tag(struct ep_dynamic *dy, struct tags *tg, const GElf_Dyn *d)
{
	size_t t;

	for (t = 0; t < EP_DT_NTAB; t++) {
		if (d->d_tag == tables[t].d_tag && !tg->has[t]) {
			tg->has[t] = true;
			tg->addr[t] = d->d_un.d_ptr;
		} else if (d->d_tag == tables[t].d_size_tag && !tg->has_size[t]) {
			tg->has_size[t] = true;
			tg->size[t] = d->d_un.d_val;
		} else if (tables[t].d_ent_tag && d->d_tag == tables[t].d_ent_tag &&
			   !tg->has_ent[t]) {
			tg->has_ent[t] = true;
			tg->ent[t] = d->d_un.d_val;
		}
	}
	if (d->d_tag == DT_PLTREL && !tg->has_pltrel) {
		tg->has_pltrel = true;
		tg->pltrel = d->d_un.d_val;
	} else if (d->d_tag == DT_SYMTAB && !dy->has_symtab) {
		dy->has_symtab = true;
		dy->symtab_addr = d->d_un.d_ptr;
	} else if (d->d_tag == DT_SYMENT) {
		dy->syment = d->d_un.d_val;
	}
}

static int read_tags(struct ep_image *img, struct ep_dynamic *dy, struct tags *tg,
		     struct ep_error *err)
{
	size_t entsize =
		img->ehdr.e_ident[EI_CLASS] == ELFCLASS32 ? sizeof(Elf32_Dyn) : sizeof(Elf64_Dyn);
	size_t n = dy->filesz / entsize, i;
	Elf_Data *d;
	GElf_Dyn dyn;

	if (n == 0)
		return 0;
	if (!ep_image_bytes(img, dy->offset, n * entsize, err))
		return -err->code;
	d = elf_getdata_rawchunk(img->elf, (int64_t)dy->offset, n * entsize, ELF_T_DYN);
	if (!d)
		return ep_error_set(err, EP_EMALFORMED, "%s: PT_DYNAMIC (program header %zu): %s",
				    img->path, dy->phdr, elf_errmsg(-1));
	for (i = 0; i < n && gelf_getdyn(d, (int)i, &dyn); i++) {
		if (dyn.d_tag == DT_NULL)
			break;
		take_tag(dy, tg, &dyn);
	}
	return 0;
}

/* One table's tags checked, mapped and read. */
static int read_table(struct ep_image *img, struct ep_dynamic *dy, const struct tags *tg,
		      enum ep_dyntab t, struct ep_error *err)
{
	struct ep_dyntable *tab = &dy->tab[t];

	tab->tag = tables[t].tag;
	tab->size_tag = tables[t].size_tag;
	tab->kind = t == EP_DT_REL    ? EP_RELKIND_REL
		    : t == EP_DT_RELR ? EP_RELKIND_RELR
				      : EP_RELKIND_RELA;
	if (!tg->has[t])
		return 0;
	tab->present = true;
	tab->addr = tg->addr[t];
	if (!tg->has_size[t])
		return ep_error_set(err, EP_EMALFORMED, "%s: %s without %s", img->path, tab->tag,
				    tab->size_tag);
	tab->bytes = tg->size[t];
	if (t == EP_DT_JMPREL) {
		if (!tg->has_pltrel || (tg->pltrel != DT_REL && tg->pltrel != DT_RELA))
			return ep_error_set(
				err, EP_EMALFORMED,
				"%s: DT_JMPREL without a DT_PLTREL of DT_REL or DT_RELA",
				img->path);
		tab->kind = tg->pltrel == DT_REL ? EP_RELKIND_REL : EP_RELKIND_RELA;
	}
	tab->entsize = kind_entsize(img, tab->kind);
	if (tg->has_ent[t] && tg->ent[t] != tab->entsize)
		return ep_error_set(err, EP_EMALFORMED, "%s: %sENT is %" PRIu64 ", not %" PRIu64,
				    img->path, tab->tag, tg->ent[t], tab->entsize);
	if (tab->bytes % tab->entsize)
		return ep_error_set(err, EP_EMALFORMED,
				    "%s: %s %" PRIu64
				    " is not a multiple of the entry size %" PRIu64,
				    img->path, tab->size_tag, tab->bytes, tab->entsize);
	return 0;
}

static int read_chunk(struct ep_image *img, size_t phnum, struct ep_dyntable *tab,
		      struct ep_error *err)
{
	Elf_Type type = tab->kind == EP_RELKIND_REL ? ELF_T_REL
			: tab->kind == EP_RELKIND_RELA
				? ELF_T_RELA
				: ELF_T_BYTE; /* ep_relsec_next() swaps RELR */
	int rc;

	if (!tab->present || tab->bytes == 0)
		return 0;
	rc = map_addr(img, phnum, tab->tag, tab->addr, tab->bytes, &tab->offset, &tab->load, err);
	if (rc)
		return rc;
	if (!ep_image_bytes(img, tab->offset, tab->bytes, err))
		return -err->code;
	tab->data = elf_getdata_rawchunk(img->elf, (int64_t)tab->offset, tab->bytes, type);
	if (!tab->data)
		return ep_error_set(err, EP_EMALFORMED, "%s: %s: %s", img->path, tab->tag,
				    elf_errmsg(-1));
	return 0;
}

/*
 * glibc's elf/dynamic-link.h: linkers once made DT_RELASZ cover .rela.plt
 * too, so a DT_JMPREL table that ends the DT_RELA (or DT_REL) range is
 * taken out of it.
 */
static void split_jmprel(struct ep_dynamic *dy)
{
	struct ep_dyntable *j = &dy->tab[EP_DT_JMPREL];
	struct ep_dyntable *r = &dy->tab[j->kind == EP_RELKIND_REL ? EP_DT_REL : EP_DT_RELA];

	if (!j->present || !r->present || j->bytes == 0 || r->bytes < j->bytes ||
	    r->addr > UINT64_MAX - r->bytes || j->addr > UINT64_MAX - j->bytes)
		return;
	if (r->addr + r->bytes == j->addr + j->bytes && j->addr >= r->addr)
		r->bytes -= j->bytes;
}

int ep_dynamic_read(struct ep_image *img, struct ep_dynamic *dy, struct ep_error *err)
{
	struct tags tg = { 0 };
	size_t phnum, t;
	int rc;

	memset(dy, 0, sizeof(*dy));
	rc = read_phdr(img, dy, &phnum, err);
	if (rc || !dy->present)
		return rc;
	dy->syment =
		img->ehdr.e_ident[EI_CLASS] == ELFCLASS32 ? sizeof(Elf32_Sym) : sizeof(Elf64_Sym);
	rc = read_tags(img, dy, &tg, err);
	for (t = 0; t < EP_DT_NTAB && rc == 0; t++)
		rc = read_table(img, dy, &tg, (enum ep_dyntab)t, err);
	if (rc == 0)
		split_jmprel(dy);
	for (t = 0; t < EP_DT_NTAB && rc == 0; t++)
		rc = read_chunk(img, phnum, &dy->tab[t], err);
	return rc;
}

void ep_dynamic_relsec(struct ep_image *img, const struct ep_dynamic *dy, enum ep_dyntab t,
		       struct ep_relsec *rs)
{
	const struct ep_dyntable *tab = &dy->tab[t];

	memset(rs, 0, sizeof(*rs));
	rs->img = img;
	rs->kind = tab->kind;
	rs->entries = tab->data ? tab->bytes / tab->entsize : 0;
	rs->data = tab->data;
	rs->symtab.elfclass = img->ehdr.e_ident[EI_CLASS];
	rs->symtab.count = (size_t)UINT32_MAX + 1;
	rs->count = rs->entries;
	if (tab->kind == EP_RELKIND_RELR) {
		struct ep_rel_cursor cur = { 0 };
		struct ep_rel buf[EP_REL_BATCH_MIN * 4];
		ssize_t got;

		ep_reloc_type_by_kind(img->ehdr.e_machine, "RELATIVE", &rs->relr_type);
		/* RELR never fails in ep_relsec_next(): count by decoding. */
		rs->count = 0;
		while ((got = ep_relsec_next(rs, &cur, buf, EP_REL_BATCH_MIN * 4, NULL)) > 0)
			rs->count += (size_t)got;
	}
}

int ep_dynamic_symtab(struct ep_image *img, const struct ep_dynamic *dy, size_t nsyms,
		      struct ep_symtab *st, struct ep_error *err)
{
	uint64_t offset, bytes;
	size_t phnum, load;
	int rc;

	memset(st, 0, sizeof(*st));
	st->elfclass = img->ehdr.e_ident[EI_CLASS];
	if (nsyms == 0)
		return 0;
	if (!dy->has_symtab)
		return ep_error_set(
			err, EP_EMALFORMED,
			"%s: dynamic relocations name symbols but there is no DT_SYMTAB",
			img->path);
	if (dy->syment != (st->elfclass == ELFCLASS32 ? sizeof(Elf32_Sym) : sizeof(Elf64_Sym)))
		return ep_error_set(err, EP_EMALFORMED, "%s: DT_SYMENT is %" PRIu64 ", not %zu",
				    img->path, dy->syment,
				    st->elfclass == ELFCLASS32 ? sizeof(Elf32_Sym)
							       : sizeof(Elf64_Sym));
	bytes = (uint64_t)nsyms * dy->syment;
	rc = phdr_count(img, &phnum, err);
	if (rc == 0)
		rc = map_addr(img, phnum, "DT_SYMTAB", dy->symtab_addr, bytes, &offset, &load, err);
	if (rc)
		return rc;
	if (!ep_image_bytes(img, offset, bytes, err))
		return -err->code;
	st->data = elf_getdata_rawchunk(img->elf, (int64_t)offset, bytes, ELF_T_SYM);
	if (!st->data)
		return ep_error_set(err, EP_EMALFORMED, "%s: DT_SYMTAB: %s", img->path,
				    elf_errmsg(-1));
	st->count = nsyms;
	return 0;
}

static uint64_t section_end(const GElf_Shdr *sh)
{
	return sh->sh_addr > UINT64_MAX - sh->sh_size ? UINT64_MAX : sh->sh_addr + sh->sh_size;
}

static bool kind_is(const GElf_Shdr *sh, enum ep_relkind kind)
{
	return (sh->sh_flags & SHF_ALLOC) &&
	       ((kind == EP_RELKIND_REL && sh->sh_type == SHT_REL) ||
		(kind == EP_RELKIND_RELA && sh->sh_type == SHT_RELA) ||
		(kind == EP_RELKIND_RELR && sh->sh_type == SHT_RELR));
}

/* Table t against the sections of its kind inside its range. */
static void compare_table(const struct ep_image *img, const struct ep_dyntable *tab,
			  struct ep_warnings *w)
{
	uint64_t end = tab->addr > UINT64_MAX - tab->bytes ? UINT64_MAX : tab->addr + tab->bytes;
	uint64_t inside = 0;
	size_t i, first = 0, n = 0;

	if (!tab->present || tab->bytes == 0)
		return;
	for (i = 1; i < img->shnum; i++) {
		const GElf_Shdr *sh = &img->sections[i].shdr;

		if (!kind_is(sh, tab->kind) || sh->sh_addr < tab->addr || section_end(sh) > end)
			continue;
		if (sh->sh_addr == tab->addr && !first)
			first = i;
		inside += sh->sh_size;
		n++;
	}
	if (!first)
		ep_warn(w, "dynamic_mismatch",
			"%s is 0x%" PRIx64 " (%s %" PRIu64 ") but no SHT_%s section starts there",
			tab->tag, tab->addr, tab->size_tag, tab->bytes, ep_relkind_name(tab->kind));
	else if (inside != tab->bytes && n == 1)
		ep_warn(w, "dynamic_mismatch",
			"%s is %" PRIu64 " bytes but section %zu (%s) at %s 0x%" PRIx64
			" has sh_size %" PRIu64,
			tab->size_tag, tab->bytes, first, ep_section_label(img, first), tab->tag,
			tab->addr, img->sections[first].shdr.sh_size);
	else if (inside != tab->bytes)
		ep_warn(w, "dynamic_mismatch",
			"%s is %" PRIu64
			" bytes but the %zu sections from section %zu (%s) at %s 0x%" PRIx64
			" hold %" PRIu64,
			tab->size_tag, tab->bytes, n, first, ep_section_label(img, first), tab->tag,
			tab->addr, inside);
}

void ep_dynamic_compare(const struct ep_image *img, const struct ep_dynamic *dy,
			struct ep_warnings *w)
{
	size_t i, t;

	if (!dy->present)
		return;
	for (t = 0; t < EP_DT_NTAB; t++)
		compare_table(img, &dy->tab[t], w);
	for (i = 1; i < img->shnum; i++) {
		const GElf_Shdr *sh = &img->sections[i].shdr;
		bool covered = false;

		if (!(sh->sh_flags & SHF_ALLOC) || !ep_is_relsec(sh) || sh->sh_size == 0)
			continue;
		for (t = 0; t < EP_DT_NTAB && !covered; t++) {
			const struct ep_dyntable *tab = &dy->tab[t];

			covered = tab->present && kind_is(sh, tab->kind) &&
				  sh->sh_addr >= tab->addr &&
				  tab->addr <= UINT64_MAX - tab->bytes &&
				  section_end(sh) <= tab->addr + tab->bytes;
		}
		if (!covered)
			ep_warn(w, "dynamic_mismatch",
				"section %zu (%s) at 0x%" PRIx64
				" is in no DT_REL, DT_RELA, DT_JMPREL or DT_RELR table",
				i, ep_section_label(img, i), (uint64_t)sh->sh_addr);
	}
}
