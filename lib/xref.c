/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <elf.h>
#include <inttypes.h>
#include <string.h>

#include "lib/xref.h"

/* An error message without its leading "PATH: ", for a warning's text. */
static const char *without_path(const struct ep_image *img, const char *msg)
{
	size_t n = strlen(img->path);

	if (strncmp(msg, img->path, n) == 0 && msg[n] == ':' && msg[n + 1] == ' ')
		return msg + n + 2;
	return msg;
}

static void check_section0(const struct ep_image *img, struct ep_warnings *w)
{
	GElf_Shdr sh;
	Elf_Scn *scn;

	/* libelf's section 0 is the file's: the extended numbers are read from it. */
	scn = elf_getscn(img->elf, 0);
	if (!scn || !gelf_getshdr(scn, &sh))
		return;
#define ZERO(field)                                                                                \
	if (sh.field)                                                                              \
		ep_warn(w, "section0_nonzero", "section 0: " #field " is 0x%" PRIx64 ", not 0",    \
			(uint64_t)sh.field);
	ZERO(sh_name);
	ZERO(sh_type);
	ZERO(sh_flags);
	ZERO(sh_addr);
	ZERO(sh_offset);
	ZERO(sh_entsize);
	ZERO(sh_addralign);
#undef ZERO
	/* Each extended number is there only when its ELF header field says so. */
	if (sh.sh_size && img->ehdr.e_shnum != 0)
		ep_warn(w, "section0_nonzero",
			"section 0: sh_size is %" PRIu64 " but e_shnum is %u, not 0 (extended)",
			(uint64_t)sh.sh_size, img->ehdr.e_shnum);
	if (sh.sh_link && img->ehdr.e_shstrndx != SHN_XINDEX)
		ep_warn(w, "section0_nonzero",
			"section 0: sh_link is %" PRIu32 " but e_shstrndx is %u, not SHN_XINDEX",
			(uint32_t)sh.sh_link, img->ehdr.e_shstrndx);
	if (sh.sh_info && img->ehdr.e_phnum != PN_XNUM)
		ep_warn(w, "section0_nonzero",
			"section 0: sh_info is %" PRIu32 " but e_phnum is %u, not PN_XNUM",
			(uint32_t)sh.sh_info, img->ehdr.e_phnum);
}

static uint32_t sym_name(const struct ep_symtab *st, size_t i)
{
	if (st->elfclass == ELFCLASS32)
		return ((const Elf32_Sym *)st->data->d_buf)[i].st_name;
	return ((const Elf64_Sym *)st->data->d_buf)[i].st_name;
}

static unsigned int sym_bind(const struct ep_symtab *st, size_t i)
{
	if (st->elfclass == ELFCLASS32)
		return ELF32_ST_BIND(((const Elf32_Sym *)st->data->d_buf)[i].st_info);
	return ELF64_ST_BIND(((const Elf64_Sym *)st->data->d_buf)[i].st_info);
}

/* The string table's size, or 0 with a warning when it does not end in NUL. */
static uint64_t check_strtab(struct ep_image *img, size_t idx, size_t link, struct ep_warnings *w)
{
	struct ep_error err;
	Elf_Data *d;
	unsigned char last;

	d = ep_section_data(img, link, &err);
	if (!d) {
		ep_warn(w, "symtab_unreadable", "section %zu (%s): its string table: %s", idx,
			ep_section_label(img, idx), without_path(img, err.message));
		return 0;
	}
	if (d->d_size == 0 || img->sections[link].shdr.sh_type == SHT_NOBITS)
		last = 1;
	else
		last = ((const unsigned char *)d->d_buf)[d->d_size - 1];
	if (last != 0) {
		ep_warn(w, "strtab_unterminated",
			"section %zu (%s), the string table of section %zu (%s), does not end in "
			"NUL",
			link, ep_section_label(img, link), idx, ep_section_label(img, idx));
		return 0;
	}
	return d->d_size;
}

static void check_symtab(struct ep_image *img, size_t idx, struct ep_warnings *w)
{
	const GElf_Shdr *sh = &img->sections[idx].shdr;
	struct ep_symtab st;
	struct ep_error err;
	uint64_t strsz;
	size_t i, bad_order = 0;

	if (ep_symtab_open(img, idx, &st, &err) < 0) {
		ep_warn(w, "symtab_unreadable", "%s", without_path(img, err.message));
		return;
	}
	if (sh->sh_info > st.count)
		ep_warn(w, "symtab_info",
			"section %zu (%s): sh_info %" PRIu32
			" (first non-local symbol) is past its %zu symbols",
			idx, ep_section_label(img, idx), (uint32_t)sh->sh_info, st.count);
	/* gABI: locals first, and sh_info one past the last of them. */
	for (i = 1; i < st.count && !bad_order; i++)
		if ((i < sh->sh_info) != (sym_bind(&st, i) == STB_LOCAL))
			bad_order = i;
	if (bad_order && sh->sh_info <= st.count)
		ep_warn(w, "symtab_local_order",
			"section %zu (%s): symbol %zu is %s but sh_info (first non-local) is "
			"%" PRIu32,
			idx, ep_section_label(img, idx), bad_order,
			sym_bind(&st, bad_order) == STB_LOCAL ? "STB_LOCAL" : "not STB_LOCAL",
			(uint32_t)sh->sh_info);
	strsz = check_strtab(img, idx, sh->sh_link, w);
	for (i = 1; i < st.count; i++) {
		uint32_t st_shndx = ep_symtab_st_shndx(&st, i), shndx = ep_symtab_shndx(&st, i);

		if (strsz && sym_name(&st, i) >= strsz)
			ep_warn(w, "symbol_name",
				"section %zu (%s): symbol %zu: st_name %" PRIu32
				" is past its string table section %" PRIu32 " (%s), %" PRIu64
				" bytes",
				idx, ep_section_label(img, idx), i, sym_name(&st, i),
				(uint32_t)sh->sh_link, ep_section_label(img, sh->sh_link), strsz);
		if (st_shndx == SHN_XINDEX && shndx >= img->shnum)
			ep_warn(w, "symbol_shndx",
				"section %zu (%s): symbol %zu: SHN_XINDEX leads to section %" PRIu32
				", past the %zu sections",
				idx, ep_section_label(img, idx), i, shndx, img->shnum);
		else if (st_shndx < SHN_LORESERVE && st_shndx >= img->shnum)
			ep_warn(w, "symbol_shndx",
				"section %zu (%s): symbol %zu: st_shndx %" PRIu32
				" is past the %zu sections",
				idx, ep_section_label(img, idx), i, st_shndx, img->shnum);
	}
}

void ep_xref_check(struct ep_image *img, struct ep_warnings *w)
{
	size_t i;

	if (img->shnum == 0)
		return;
	check_section0(img, w);
	for (i = 1; i < img->shnum; i++) {
		uint32_t type = img->sections[i].shdr.sh_type;

		if (type == SHT_SYMTAB || type == SHT_DYNSYM)
			check_symtab(img, i, w);
	}
}

int ep_xref_relsec_open(struct ep_image *img, size_t idx, struct ep_relsec *rs,
			bool *symbols_unknown, struct ep_warnings *w, struct ep_error *err)
{
	const GElf_Shdr *sh = &img->sections[idx].shdr;
	bool is32 = img->ehdr.e_ident[EI_CLASS] == ELFCLASS32;
	bool info_bad, link_bad;
	struct ep_error serr;
	struct ep_symtab st;
	size_t entsize;
	int rc;

	*symbols_unknown = false;
	rc = ep_relsec_open(img, idx, rs, err);
	if (rc == 0 || (sh->sh_type != SHT_REL && sh->sh_type != SHT_RELA))
		return rc;
	entsize = sh->sh_type == SHT_REL ? (is32 ? sizeof(Elf32_Rel) : sizeof(Elf64_Rel))
					 : (is32 ? sizeof(Elf32_Rela) : sizeof(Elf64_Rela));
	/* ep_relsec_open() checks the table itself first: its faults stay errors. */
	if (sh->sh_entsize != entsize || ep_section_size(img, idx) % entsize)
		return rc;
	info_bad = sh->sh_info >= img->shnum || sh->sh_info == idx;
	link_bad = sh->sh_link >= img->shnum ||
		   (sh->sh_link != SHN_UNDEF &&
		    img->sections[sh->sh_link].shdr.sh_type != SHT_SYMTAB &&
		    img->sections[sh->sh_link].shdr.sh_type != SHT_DYNSYM);
	if (!link_bad && ep_symtab_open(img, sh->sh_link, &st, &serr) < 0)
		link_bad = true;
	else
		serr.message[0] = '\0';
	if (!info_bad && !link_bad)
		return rc;

	memset(rs, 0, sizeof(*rs));
	rs->img = img;
	rs->index = idx;
	rs->kind = sh->sh_type == SHT_REL ? EP_RELKIND_REL : EP_RELKIND_RELA;
	rs->entries = ep_section_size(img, idx) / entsize;
	rs->count = rs->entries;
	rs->data = ep_section_data(img, idx, err);
	if (!rs->data)
		return err ? -err->code : -EP_EMALFORMED;
	if (rs->data->d_size < rs->entries * entsize)
		return rc;
	if (info_bad && sh->sh_info == idx)
		ep_warn(w, "reloc_info",
			"section %zu (%s): sh_info %" PRIu32
			" is the relocation section itself: relocations counted without a target",
			idx, ep_section_label(img, idx), (uint32_t)sh->sh_info);
	else if (info_bad)
		ep_warn(w, "reloc_info",
			"section %zu (%s): sh_info %" PRIu32
			" is out of range (%zu sections): relocations counted without a target",
			idx, ep_section_label(img, idx), (uint32_t)sh->sh_info, img->shnum);
	else
		rs->target = sh->sh_info;
	if (link_bad) {
		if (serr.message[0])
			ep_warn(w, "reloc_link",
				"section %zu (%s): its symbol table is unreadable (%s): "
				"relocations counted, their symbols not classed",
				idx, ep_section_label(img, idx), without_path(img, serr.message));
		else if (sh->sh_link >= img->shnum)
			ep_warn(w, "reloc_link",
				"section %zu (%s): sh_link %" PRIu32
				" is out of range (%zu sections): relocations counted, their "
				"symbols not classed",
				idx, ep_section_label(img, idx), (uint32_t)sh->sh_link, img->shnum);
		else
			ep_warn(w, "reloc_link",
				"section %zu (%s): sh_link %" PRIu32
				" (%s) is not a symbol table: relocations counted, their symbols "
				"not classed",
				idx, ep_section_label(img, idx), (uint32_t)sh->sh_link,
				ep_section_label(img, sh->sh_link));
		rs->symtab.elfclass = img->ehdr.e_ident[EI_CLASS];
		rs->symtab.count = (size_t)UINT32_MAX + 1;
		*symbols_unknown = true;
	} else {
		rs->symtab = st;
	}
	return 0;
}
