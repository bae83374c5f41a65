/* SPDX-License-Identifier: MIT */
/*
 * Write an x86-64 relocatable object with N relocations in one .rela.text,
 * for bench/speed.sh's per-relocation cost: gen-relocs N OUT.  Built with
 * libelf's write API (elf_begin(ELF_C_WRITE), elf_newscn(), elf_update()).
 * .text holds 4 bytes per relocation; each is R_X86_64_PLT32 or
 * R_X86_64_PC32 (alternating) against one of 64 undefined functions.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NSYMS 64

static Elf_Scn *section(Elf *e, const char *name, size_t *strpos, char *shstr, Elf64_Word type,
			void *buf, size_t size, Elf_Type dt, size_t entsize)
{
	Elf_Scn *s = elf_newscn(e);
	Elf_Data *d = elf_newdata(s);
	GElf_Shdr sh;

	d->d_buf = buf;
	d->d_size = size;
	d->d_type = dt;
	d->d_align = 8;
	gelf_getshdr(s, &sh);
	sh.sh_name = (Elf64_Word)*strpos;
	strcpy(shstr + *strpos, name);
	*strpos += strlen(name) + 1;
	sh.sh_type = type;
	sh.sh_entsize = entsize;
	sh.sh_addralign = 8;
	gelf_update_shdr(s, &sh);
	return s;
}

int main(int argc, char **argv)
{
	size_t n, i, pos = 1, spos = 1;
	char shstr[256] = "", *strtab;
	Elf64_Rela *rela;
	Elf64_Sym *syms;
	unsigned char *text;
	Elf_Scn *stext, *ssym, *sstr, *srela, *sshstr;
	GElf_Shdr sh;
	Elf64_Ehdr *eh;
	Elf *e;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: gen-relocs N OUT\n");
		return 2;
	}
	n = strtoull(argv[1], NULL, 10);
	elf_version(EV_CURRENT);
	fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	e = fd < 0 ? NULL : elf_begin(fd, ELF_C_WRITE, NULL);
	text = calloc(n ? n * 4 : 1, 1);
	rela = calloc(n ? n : 1, sizeof(*rela));
	syms = calloc(NSYMS + 1, sizeof(*syms));
	strtab = calloc(NSYMS, 16);
	if (!e || !text || !rela || !syms || !strtab) {
		fprintf(stderr, "gen-relocs: %s\n", e ? "out of memory" : elf_errmsg(-1));
		return 1;
	}
	eh = elf64_newehdr(e);
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_type = ET_REL;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	for (i = 1; i <= NSYMS; i++) {
		syms[i].st_name = (Elf64_Word)spos;
		spos += (size_t)sprintf(strtab + spos, "f%zu", i) + 1;
		syms[i].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
	}
	for (i = 0; i < n; i++) {
		rela[i].r_offset = i * 4;
		rela[i].r_info = ELF64_R_INFO(1 + i % NSYMS, i & 1 ? 2 /* PC32 */ : 4 /* PLT32 */);
		rela[i].r_addend = -4;
	}
	stext = section(e, ".text", &pos, shstr, SHT_PROGBITS, text, n * 4, ELF_T_BYTE, 0);
	sstr = section(e, ".strtab", &pos, shstr, SHT_STRTAB, strtab, spos, ELF_T_BYTE, 0);
	ssym = section(e, ".symtab", &pos, shstr, SHT_SYMTAB, syms, (NSYMS + 1) * sizeof(*syms),
		       ELF_T_SYM, sizeof(Elf64_Sym));
	srela = section(e, ".rela.text", &pos, shstr, SHT_RELA, rela, n * sizeof(*rela), ELF_T_RELA,
			sizeof(Elf64_Rela));
	sshstr = section(e, ".shstrtab", &pos, shstr, SHT_STRTAB, shstr, sizeof(shstr), ELF_T_BYTE,
			 0);
	gelf_getshdr(stext, &sh);
	sh.sh_flags = SHF_ALLOC | SHF_EXECINSTR;
	gelf_update_shdr(stext, &sh);
	gelf_getshdr(ssym, &sh);
	sh.sh_link = (Elf64_Word)elf_ndxscn(sstr);
	sh.sh_info = 1;
	gelf_update_shdr(ssym, &sh);
	gelf_getshdr(srela, &sh);
	sh.sh_link = (Elf64_Word)elf_ndxscn(ssym);
	sh.sh_info = (Elf64_Word)elf_ndxscn(stext);
	sh.sh_flags = SHF_INFO_LINK;
	gelf_update_shdr(srela, &sh);
	eh->e_shstrndx = (Elf64_Half)elf_ndxscn(sshstr);
	if (elf_update(e, ELF_C_WRITE) < 0) {
		fprintf(stderr, "gen-relocs: %s\n", elf_errmsg(-1));
		return 1;
	}
	elf_end(e);
	close(fd);
	return 0;
}
