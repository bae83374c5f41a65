/* SPDX-License-Identifier: MIT */
/*
 * The floor for bench/speed.sh: the least work that answers "how many
 * relocations of each type does each file hold".  For each path read from
 * standard input (one a line): open, pread() the ELF header, the section
 * header table and every SHT_REL/SHT_RELA section into one buffer reused
 * from file to file, count r_type, close.  Host-byte-order ELF only (the
 * bench's inputs); no checks beyond what keeps it in its buffer.  Prints
 * the files read, the relocations and the distinct types seen.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned char *buf;
static size_t cap;

static unsigned char *grow(size_t n)
{
	if (n > cap) {
		free(buf);
		cap = n;
		buf = malloc(cap);
		if (!buf) {
			perror("floor");
			exit(1);
		}
	}
	return buf;
}

static unsigned long long counts[65536], files, relocs;

static void count(int fd, const Elf64_Shdr *sh, int is64)
{
	size_t ent = sh->sh_type == SHT_RELA ? (is64 ? 24 : 12) : (is64 ? 16 : 8);
	size_t n = sh->sh_size / ent, i;
	unsigned char *p = grow(sh->sh_size);

	if (pread(fd, p, sh->sh_size, (off_t)sh->sh_offset) != (ssize_t)sh->sh_size)
		return;
	for (i = 0; i < n; i++) {
		unsigned int type;

		if (is64)
			type = (unsigned int)((const Elf64_Rel *)(p + i * ent))->r_info & 0xffff;
		else
			type = ELF32_R_TYPE(((const Elf32_Rel *)(p + i * ent))->r_info);
		counts[type & 0xffff]++;
	}
	relocs += n;
}

static void one(const char *path)
{
	unsigned char eh[64];
	Elf64_Shdr *tab;
	size_t i, shnum, shentsize;
	unsigned long long shoff;
	int fd = open(path, O_RDONLY | O_CLOEXEC), is64;

	if (fd < 0)
		return;
	if (pread(fd, eh, sizeof(eh), 0) < 52 || memcmp(eh, ELFMAG, SELFMAG) != 0)
		goto out;
	is64 = eh[EI_CLASS] == ELFCLASS64;
	if (is64) {
		const Elf64_Ehdr *e = (const void *)eh;

		shoff = e->e_shoff, shnum = e->e_shnum, shentsize = e->e_shentsize;
	} else {
		const Elf32_Ehdr *e = (const void *)eh;

		shoff = e->e_shoff, shnum = e->e_shnum, shentsize = e->e_shentsize;
	}
	tab = malloc(shnum * sizeof(*tab) + 1);
	{
		unsigned char *raw = malloc(shnum * shentsize + 1);

		if (!tab || !raw ||
		    pread(fd, raw, shnum * shentsize, (off_t)shoff) !=
			    (ssize_t)(shnum * shentsize)) {
			free(raw);
			free(tab);
			goto out;
		}
		for (i = 0; i < shnum; i++) {
			if (is64) {
				memcpy(&tab[i], raw + i * shentsize, sizeof(tab[i]));
			} else {
				const Elf32_Shdr *s = (const void *)(raw + i * shentsize);

				tab[i].sh_type = s->sh_type;
				tab[i].sh_offset = s->sh_offset;
				tab[i].sh_size = s->sh_size;
			}
		}
		free(raw);
	}
	files++;
	for (i = 1; i < shnum; i++)
		if (tab[i].sh_type == SHT_RELA || tab[i].sh_type == SHT_REL)
			count(fd, &tab[i], is64);
	free(tab);
out:
	close(fd);
}

int main(void)
{
	char *line = NULL;
	size_t n = 0, types = 0, i;
	ssize_t len;

	while ((len = getline(&line, &n, stdin)) > 0) {
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		one(line);
	}
	for (i = 0; i < 65536; i++)
		types += counts[i] != 0;
	printf("%llu files, %llu relocations, %zu types\n", files, relocs, types);
	free(line);
	free(buf);
	return 0;
}
