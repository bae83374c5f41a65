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

#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
};

/* Open the first of a/b[suffix] that exists; -1 when none. */
static int open_candidate(const char *dir, const char *path, const char *suffix, char **name)
{
	char buf[4096];
	int fd;

	while (*path == '/')
		path++;
	if (snprintf(buf, sizeof(buf), "%s/%s%s", dir, path, suffix) >= (int)sizeof(buf))
		return -1;
	fd = open(buf, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		*name = strdup(buf);
	return fd;
}

/*
 * find_debuginfo: --debug-file, then --debug-dir (the input's path as given,
 * then as resolved, each as is and with ".debug"), then libdwfl's standard
 * lookup.
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	struct ep_dwarf *d = *userdata;
	int fd = -1;

	if (d && d->o && d->o->debug_file) {
		fd = open(d->o->debug_file, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			*debuginfo_file_name = strdup(d->o->debug_file);
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
		if (fd >= 0)
			return fd;
	}
	return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
					    debuglink_crc, debuginfo_file_name);
}

struct ep_dwarf *ep_dwarf_open(const char *path, const struct ep_dwarf_options *o, bool *has_dwarf)
{
	struct ep_dwarf *d = calloc(1, sizeof(*d));
	void **ud = NULL;
	GElf_Ehdr eh;

	*has_dwarf = false;
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
	return d;
fail:
	ep_dwarf_close(d);
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
	if (die)
		*cu = dwarf_diename(die);
	l = dwfl_module_getsrc(d->mod, addr);
	if (l)
		*file = dwfl_lineinfo(l, NULL, line, NULL, NULL, NULL);
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

void ep_dwarf_close(struct ep_dwarf *d)
{
	if (!d)
		return;
	if (d->dwfl)
		dwfl_end(d->dwfl);
	free(d);
}
