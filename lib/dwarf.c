/* SPDX-License-Identifier: MIT */
/*
 * DWARF source positions through libdwfl (see lib/dwarf.h).  For ET_REL,
 * libdwfl's own copy of the file gets section addresses
 * (dwfl_offline_section_address()) and its DWARF relocated when the module
 * is reported offline; a place given as (section, offset) becomes that
 * section's sh_addr in libdwfl's copy plus the module's bias plus the
 * offset, which is what eu-addr2line -j SECTION computes (elfutils
 * src/addr2line.c, adjust_to_section()).
 */
#include "config.h"

#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/blob.h"
#include "lib/dwarf.h"

struct ep_dwarf {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwfl_Callbacks cb;
	char *debuginfo_path; /* libdwfl's search path: NULL, its default */
	const char *path;
	const struct ep_dwarf_options *o;
	Elf *elf; /* libdwfl's main file, sections laid out */
	Dwarf_Addr bias;
	bool rel;
	char warning[512]; /* a --debug-file or --debug-dir file refused, or "" */
};

/*
 * Open dir/path[suffix] if it is a regular file (ep_open_regular(): a FIFO
 * or a device is never opened, as open() would block on a FIFO with no
 * writer); -1 when it is not there or not a regular file.
 */
static int open_candidate(const char *dir, const char *path, const char *suffix, char **name)
{
	char buf[4096];
	struct stat st;
	int fd;

	while (*path == '/')
		path++;
	if (snprintf(buf, sizeof(buf), "%s/%s%s", dir, path, suffix) >= (int)sizeof(buf))
		return -1;
	fd = ep_open_regular(buf, &st);
	if (fd < 0)
		return -1;
	*name = strdup(buf);
	return fd;
}

/* The CRC-32 of fd's bytes (zlib's crc32() is the .gnu_debuglink one); false on a read error. */
static bool file_crc(int fd, GElf_Word *crc)
{
	unsigned char buf[1 << 16];
	uLong c = crc32(0, Z_NULL, 0);
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) != 0)
		return false;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		c = crc32(c, buf, (uInt)n);
	*crc = (GElf_Word)c;
	return n == 0;
}

/*
 * Whether fd is mod's debug info: its build ID is the module's when the
 * module has one, else its CRC-32 is debuglink_crc when the name came from a
 * .gnu_debuglink, else it is taken (libdwfl's rules, elfutils
 * libdwfl/find-debuginfo.c validate()).
 */
static bool debug_matches(Dwfl_Module *mod, int fd, bool check_crc, GElf_Word debuglink_crc)
{
	const unsigned char *want;
	GElf_Addr vaddr;
	int wlen = dwfl_module_build_id(mod, &want, &vaddr);
	GElf_Word crc;

	if (wlen > 0) {
		Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		const void *got;
		ssize_t glen = e ? dwelf_elf_gnu_build_id(e, &got) : -1;
		bool ok = glen == wlen && memcmp(got, want, (size_t)wlen) == 0;

		elf_end(e);
		return ok;
	}
	return !check_crc || (file_crc(fd, &crc) && crc == debuglink_crc);
}

/*
 * Whether section shndx of the debug file e, an allocated one that a
 * relocation of its DWARF refers to, is the input's section of that index
 * (main, n sections): libdwfl takes its address from there and asserts the
 * two sections' sh_flags agree.
 */
static bool section_agrees(Elf *main, size_t n, Elf *e, size_t shndx)
{
	GElf_Shdr a, b;

	if (!gelf_getshdr(elf_getscn(e, shndx), &b) || !(b.sh_flags & SHF_ALLOC))
		return true; /* not laid out: libdwfl asks no address for it */
	return shndx < n && gelf_getshdr(elf_getscn(main, shndx), &a) && a.sh_flags == b.sh_flags;
}

/*
 * Why the ELF file open on fd cannot be the separate debug file of d's
 * input, or NULL when it can: a build ID other than the input's (when both
 * have one), or an allocated section its DWARF's relocations refer to that
 * is not the input's section of the same index (elfutils
 * libdwfl/offline.c dwfl_offline_section_address() asserts their sh_flags
 * agree: another module's debug file aborted the run).
 */
static const char *debug_mismatch(const struct ep_dwarf *d, int fd)
{
	const char *why = NULL;
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	const void *want, *got;
	ssize_t wlen, glen;
	Elf_Scn *scn = NULL;
	size_t n, m;

	if (!e || elf_kind(e) != ELF_K_ELF)
		why = "is not ELF";
	else if (!d->elf)
		why = NULL;
	else if ((wlen = dwelf_elf_gnu_build_id(d->elf, &want)) > 0 &&
		 (glen = dwelf_elf_gnu_build_id(e, &got)) > 0 &&
		 (wlen != glen || memcmp(want, got, (size_t)wlen) != 0))
		why = "has another build ID than the input";
	else if (elf_getshdrnum(d->elf, &n) != 0 || elf_getshdrnum(e, &m) != 0)
		why = "has no readable section headers";
	while (!why && d->elf && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr rs, target;
		Elf_Data *rd, *sd;
		size_t i, count;

		if (!gelf_getshdr(scn, &rs) || (rs.sh_type != SHT_RELA && rs.sh_type != SHT_REL) ||
		    rs.sh_entsize == 0 || !gelf_getshdr(elf_getscn(e, rs.sh_info), &target) ||
		    (target.sh_flags & SHF_ALLOC) || !(rd = elf_getdata(scn, NULL)) ||
		    !(sd = elf_getdata(elf_getscn(e, rs.sh_link), NULL)))
			continue; /* only the relocations libdwfl applies to the DWARF */
		count = rs.sh_size / rs.sh_entsize;
		for (i = 0; !why && i < count; i++) {
			GElf_Rela ra;
			GElf_Rel rl;
			GElf_Sym sym;
			size_t sym_index;

			if (rs.sh_type == SHT_RELA ? !gelf_getrela(rd, (int)i, &ra)
						   : !gelf_getrel(rd, (int)i, &rl))
				break;
			sym_index = GELF_R_SYM(rs.sh_type == SHT_RELA ? ra.r_info : rl.r_info);
			if (sym_index && gelf_getsym(sd, (int)sym_index, &sym) &&
			    sym.st_shndx != SHN_UNDEF && sym.st_shndx < SHN_LORESERVE &&
			    !section_agrees(d->elf, n, e, sym.st_shndx))
				why = "has other sections than the input (section flags differ)";
		}
	}
	elf_end(e);
	return why;
}

/* fd if it can be d's debug file; else closed, -1, and the reason in d->warning for what. */
static int debug_checked(struct ep_dwarf *d, int fd, const char *what, char **name)
{
	const char *why = fd >= 0 ? debug_mismatch(d, fd) : NULL;

	if (!why)
		return fd;
	if (what && !d->warning[0])
		snprintf(d->warning, sizeof(d->warning), "%s %s %s: not used", what,
			 *name ? *name : "?", why);
	close(fd);
	free(*name);
	*name = NULL;
	return -1;
}

/*
 * The .gnu_debuglink search libdwfl's standard lookup makes (its default
 * debuginfo_path ":.debug:/usr/lib/debug": the file's directory, its .debug
 * subdirectory, /usr/lib/debug followed by the directory), for the name in
 * .gnu_debuglink or, with none, the file's name plus ".debug" — done here so
 * that a candidate that is not a regular file is never opened (libdwfl's
 * open() blocks forever on a FIFO).  Returns a descriptor, or -1.
 */
static int find_debuglink(struct ep_dwarf *d, Dwfl_Module *mod, const char *file_name,
			  const char *debuglink_file, GElf_Word debuglink_crc,
			  char **debuginfo_file_name)
{
	char *real = file_name ? realpath(file_name, NULL) : NULL;
	char *dir_copy = NULL, *dir = NULL, *base_copy = NULL, *localname = NULL, *sub = NULL,
	     *usr = NULL;
	const char *name = debuglink_file;
	const char *dirs[3];
	struct stat self;
	bool have_self;
	size_t i;
	int fd = -1;

	if (!real)
		return -1;
	have_self = stat(real, &self) == 0;
	dir_copy = strdup(real);
	if (!dir_copy)
		goto out;
	dir = dirname(dir_copy); /* real is absolute: "/" at least */
	if (!name) {
		base_copy = strdup(real);
		if (!base_copy || asprintf(&localname, "%s.debug", basename(base_copy)) < 0) {
			localname = NULL;
			goto out;
		}
		name = localname;
	}
	if (asprintf(&sub, "%s/.debug", dir) < 0)
		sub = NULL;
	if (asprintf(&usr, "/usr/lib/debug%s", dir) < 0)
		usr = NULL;
	dirs[0] = dir;
	dirs[1] = sub;
	dirs[2] = usr;
	for (i = 0; fd < 0 && i < 3; i++) {
		struct stat st;

		if (!dirs[i])
			continue;
		fd = open_candidate(dirs[i], name, "", debuginfo_file_name);
		if (fd < 0)
			continue;
		if ((have_self && fstat(fd, &st) == 0 && st.st_dev == self.st_dev &&
		     st.st_ino == self.st_ino) ||
		    !debug_matches(mod, fd, debuglink_file != NULL, debuglink_crc)) {
			close(fd);
			free(*debuginfo_file_name);
			*debuginfo_file_name = NULL;
			fd = -1;
		}
		fd = debug_checked(d, fd, NULL, debuginfo_file_name);
	}
out:
	free(dir_copy);
	free(real);
	free(base_copy);
	free(localname);
	free(sub);
	free(usr);
	return fd;
}

/*
 * find_debuginfo: --debug-file, then --debug-dir (the input's path as given,
 * then as resolved, each as is and with ".debug"), then the build ID under
 * /usr/lib/debug/.build-id (libdwfl), then .gnu_debuglink (find_debuglink()).
 * Only regular files are opened.
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	struct ep_dwarf *d = *userdata;
	int fd = -1;

	if (d && d->o && d->o->debug_file) {
		struct stat st;

		fd = ep_open_regular(d->o->debug_file, &st);
		if (fd >= 0) {
			*debuginfo_file_name = strdup(d->o->debug_file);
			fd = debug_checked(d, fd, "--debug-file", debuginfo_file_name);
			if (fd >= 0)
				return fd;
		}
	}
	if (d && d->o && d->o->debug_dir) {
		char *real = realpath(d->path, NULL);
		const char *const paths[] = { d->path, real };
		size_t i;

		for (i = 0; fd < 0 && i < 2; i++) {
			if (!paths[i])
				continue;
			fd = open_candidate(d->o->debug_dir, paths[i], "", debuginfo_file_name);
			if (fd < 0)
				fd = open_candidate(d->o->debug_dir, paths[i], ".debug",
						    debuginfo_file_name);
		}
		free(real);
		fd = debug_checked(d, fd, "--debug-dir file", debuginfo_file_name);
		if (fd >= 0)
			return fd;
	}
	fd = dwfl_build_id_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
					  debuglink_crc, debuginfo_file_name);
	if (d)
		fd = debug_checked(d, fd, NULL, debuginfo_file_name);
	if (fd >= 0 || !d)
		return fd;
	return find_debuglink(d, mod, file_name, debuglink_file, debuglink_crc,
			      debuginfo_file_name);
}

struct ep_dwarf *ep_dwarf_open(const char *path, const struct ep_dwarf_options *o, bool *has_dwarf,
			       char *why, size_t n)
{
	struct ep_dwarf *d = calloc(1, sizeof(*d));
	void **ud = NULL;
	GElf_Ehdr eh;

	*has_dwarf = false;
	if (n)
		why[0] = '\0';
	if (!d)
		return NULL;
	d->path = path;
	d->o = o;
	d->cb.find_elf = dwfl_build_id_find_elf;
	d->cb.find_debuginfo = find_debuginfo;
	d->cb.section_address = dwfl_offline_section_address;
	d->cb.debuginfo_path = &d->debuginfo_path;
	d->dwfl = dwfl_begin(&d->cb);
	if (!d->dwfl)
		goto fail;
	d->mod = dwfl_report_offline(d->dwfl, path, path, -1);
	if (!d->mod || dwfl_report_end(d->dwfl, NULL, NULL) != 0)
		goto fail;
	/* The callback reads the options through the module's user data. */
	dwfl_module_info(d->mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
	if (ud)
		*ud = d;
	d->elf = dwfl_module_getelf(d->mod, &d->bias);
	if (!d->elf || !gelf_getehdr(d->elf, &eh))
		goto fail;
	d->rel = eh.e_type == ET_REL;
	{
		Dwarf_Addr b;

		if (!dwfl_module_getdwarf(d->mod, &b))
			goto fail;
	}
	*has_dwarf = true;
	snprintf(why, n, "%s", d->warning);
	return d;
fail:
	snprintf(why, n, "%s", d ? d->warning : "");
	ep_dwarf_close(d);
	return NULL;
}

/*
 * The compile unit whose DW_AT_low_pc/high_pc or DW_AT_ranges hold addr,
 * with *bias its module bias; NULL when none.  For what
 * dwfl_module_addrdie() misses: libdw 0.188 finds a CU by .debug_aranges
 * only, which clang does not emit unless -gdwarf-aranges (gcc does).
 */
static Dwarf_Die *cu_holding(Dwfl_Module *mod, Dwarf_Addr addr, Dwarf_Addr *bias)
{
	Dwarf_Die *cu = NULL;

	while ((cu = dwfl_module_nextcu(mod, cu, bias)))
		if (dwarf_haspc(cu, addr - *bias) > 0)
			return cu;
	return NULL;
}

bool ep_dwarf_source(struct ep_dwarf *d, size_t shndx, uint64_t offset, const char **cu,
		     const char **file, int *line)
{
	Dwarf_Addr addr = offset, b;
	Dwfl_Line *l;
	Dwarf_Die *die;

	*cu = *file = NULL;
	*line = 0;
	if (d->rel) {
		GElf_Shdr sh;
		Elf_Scn *scn = elf_getscn(d->elf, shndx);

		if (!shndx || !scn || !gelf_getshdr(scn, &sh))
			return false;
		addr = sh.sh_addr + d->bias + offset;
	} else {
		addr = offset + d->bias;
	}
	die = dwfl_module_addrdie(d->mod, addr, &b);
	if (!die)
		die = cu_holding(d->mod, addr, &b);
	if (die)
		*cu = dwarf_diename(die);
	l = dwfl_module_getsrc(d->mod, addr);
	if (l) {
		*file = dwfl_lineinfo(l, NULL, line, NULL, NULL, NULL);
	} else if (die) {
		Dwarf_Line *dl = dwarf_getsrc_die(die, addr - b);

		if (dl && (*file = dwarf_linesrc(dl, NULL, NULL)) && dwarf_lineno(dl, line) != 0)
			*line = 0;
	}
	return *cu || *file;
}

const char *ep_dwarf_file(struct ep_dwarf *d)
{
	const char *debug = NULL;

	if (!d)
		return NULL;
	dwfl_module_info(d->mod, NULL, NULL, NULL, NULL, NULL, NULL, &debug);
	return debug;
}

bool ep_dwarf_debug_file_usable(const char *path, const GElf_Ehdr *eh, char *why, size_t n)
{
	const char *problem = NULL;
	bool debug_info = false;
	struct stat st;
	GElf_Ehdr dh;
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	Elf *e = NULL;
	int fd = ep_open_regular(path, &st);

	if (fd == -2)
		problem = "is not a regular file";
	else if (fd < 0)
		problem = "cannot be opened";
	else if (!(e = elf_begin(fd, ELF_C_READ_MMAP, NULL)) || elf_kind(e) != ELF_K_ELF ||
		 !gelf_getehdr(e, &dh))
		problem = "is not ELF";
	else if (dh.e_ident[EI_CLASS] != eh->e_ident[EI_CLASS] || dh.e_machine != eh->e_machine)
		problem = "is for another machine or ELF class than the input";
	else if (elf_getshdrstrndx(e, &shstrndx) != 0)
		problem = "has no section names";
	if (!problem) {
		while (!debug_info && (scn = elf_nextscn(e, scn))) {
			GElf_Shdr sh;
			const char *name;

			if (gelf_getshdr(scn, &sh) && sh.sh_type != SHT_NOBITS &&
			    (name = elf_strptr(e, shstrndx, sh.sh_name)))
				debug_info = strcmp(name, ".debug_info") == 0 ||
					     strcmp(name, ".zdebug_info") == 0;
		}
		if (!debug_info)
			problem = "has no .debug_info (no DWARF)";
	}
	elf_end(e);
	if (fd >= 0)
		close(fd);
	if (problem)
		snprintf(why, n, "--debug-file %s %s: not used", path, problem);
	return !problem;
}

void ep_dwarf_close(struct ep_dwarf *d)
{
	if (!d)
		return;
	if (d->dwfl)
		dwfl_end(d->dwfl);
	free(d);
}
