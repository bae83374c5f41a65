/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/crel.h"
#include "lib/load-plan.h"

#ifndef SHT_RELR
#define SHT_RELR 19
#endif

static const char *const set_names[] = { "relocs", "alloc", "all" };

const char *ep_section_set_name(enum ep_section_set set)
{
	return (unsigned int)set < 3 ? set_names[set] : "?";
}

int ep_section_set_parse(const char *name, enum ep_section_set *set)
{
	unsigned int i;

	for (i = 0; i < 3; i++)
		if (strcmp(name, set_names[i]) == 0) {
			*set = i;
			return 0;
		}
	return -1;
}

/* --- the plan ------------------------------------------------------------- */

static bool is_reloc_type(uint32_t sh_type)
{
	return sh_type == SHT_REL || sh_type == SHT_RELA || sh_type == SHT_RELR ||
	       sh_type == SHT_CREL;
}

static bool is_symtab_type(uint32_t sh_type)
{
	return sh_type == SHT_SYMTAB || sh_type == SHT_DYNSYM;
}

/* Section idx's sh_link, link, names no section: EP_EMALFORMED, naming idx. */
static int link_out_of_range(const struct ep_image *img, size_t idx, size_t link,
			     struct ep_error *err)
{
	return ep_error_set(err, EP_EMALFORMED,
			    "%s: sh_link %zu is out of range (%zu sections) (section %zu %s)",
			    img->path, link, img->shnum, idx, ep_section_label(img, idx));
}

/*
 * Mark the sections of the relocation pass: each relocation section, the
 * symbol table its sh_link names (SHT_RELR has none: sh_link 0) and that
 * table's string table.
 */
static int mark_relocs(const struct ep_image *img, bool *want, struct ep_error *err)
{
	size_t i;

	for (i = 1; i < img->shnum; i++) {
		const GElf_Shdr *sh = &img->sections[i].shdr;
		size_t sym, str;

		if (!is_reloc_type(sh->sh_type))
			continue;
		want[i] = true;
		sym = sh->sh_link;
		if (sym == SHN_UNDEF)
			continue;
		if (sym >= img->shnum)
			return link_out_of_range(img, i, sym, err);
		if (!is_symtab_type(img->sections[sym].shdr.sh_type))
			continue;
		want[sym] = true;
		str = img->sections[sym].shdr.sh_link;
		if (str >= img->shnum)
			return link_out_of_range(img, sym, str, err);
		if (str != SHN_UNDEF)
			want[str] = true;
	}
	return 0;
}

int ep_load_plan_add(struct ep_load_plan *plan, const struct ep_image *img,
		     const struct ep_blob *blob, enum ep_section_set set, struct ep_error *err)
{
	struct ep_load_file *f, *files;
	bool *want = NULL;
	struct stat st;
	uint64_t base;
	size_t i;
	int rc = 0;

	files = realloc(plan->files, (plan->nfiles + 1) * sizeof(*files));
	if (!files)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	plan->files = files;
	f = &files[plan->nfiles];
	memset(f, 0, sizeof(*f));
	/* The file itself: img->path may be cleaned, or name an archive member. */
	f->path = strdup(blob->file ? blob->file : blob->path);
	f->compression = blob->compression;
	f->image_size = img->size;
	f->part_offset = blob->file_offset;
	f->part_size = blob->file_size;
	/*
	 * The identity the measured runs check: the file was opened a moment
	 * ago (blob->st_dev, st_ino); its size is the whole file's, an
	 * archive's too.  A file replaced in between keeps the blob's identity
	 * here and so fails the check later, as it should.
	 */
	if (f->path && stat(f->path, &st) != 0) {
		rc = ep_error_set(err, EP_EIO, "%s: %s", f->path, strerror(errno));
		goto out;
	}
	if (f->path) {
		f->st_dev = blob->st_ino ? blob->st_dev : (uint64_t)st.st_dev;
		f->st_ino = blob->st_ino ? blob->st_ino : (uint64_t)st.st_ino;
		f->st_size = (uint64_t)st.st_size;
		f->mtime_s = (uint64_t)st.st_mtim.tv_sec;
		f->mtime_ns = (uint64_t)st.st_mtim.tv_nsec;
	}
	/* A member read in place: its sections are at its offset in the archive. */
	base = blob->compression == EP_COMP_NONE ? blob->file_offset : 0;
	if (img->shnum)
		want = calloc(img->shnum, sizeof(*want));
	if (!f->path || (img->shnum && !want) ||
	    (img->shnum && !(f->ranges = calloc(img->shnum, sizeof(*f->ranges))))) {
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
		goto out;
	}
	if (set == EP_SET_RELOCS) {
		rc = mark_relocs(img, want, err);
		if (rc)
			goto out;
	}
	for (i = 1; i < img->shnum; i++) {
		const GElf_Shdr *sh = &img->sections[i].shdr;

		if (sh->sh_type == SHT_NOBITS || sh->sh_size == 0)
			continue;
		if ((set == EP_SET_RELOCS && !want[i]) ||
		    (set == EP_SET_ALLOC && !(sh->sh_flags & SHF_ALLOC)))
			continue;
		/* ep_image_open() checked sh_offset + sh_size against the image. */
		f->ranges[f->nranges].offset = base + sh->sh_offset;
		f->ranges[f->nranges].size = sh->sh_size;
		f->nranges++;
	}
	plan->nfiles++;
out:
	free(want);
	if (rc) {
		free(f->path);
		free(f->ranges);
	}
	return rc;
}

int ep_load_plan_append(struct ep_load_plan *plan, struct ep_load_plan *from, struct ep_error *err)
{
	struct ep_load_file *files;

	if (!from->nfiles)
		return 0;
	if (from->nfiles > SIZE_MAX / sizeof(*files) - plan->nfiles)
		return ep_error_set(err, EP_ENOMEM, "plan: out of memory");
	files = realloc(plan->files, (plan->nfiles + from->nfiles) * sizeof(*files));
	if (!files)
		return ep_error_set(err, EP_ENOMEM, "plan: out of memory");
	plan->files = files;
	memcpy(files + plan->nfiles, from->files, from->nfiles * sizeof(*files));
	plan->nfiles += from->nfiles;
	free(from->files);
	from->files = NULL;
	from->nfiles = 0;
	return 0;
}

void ep_load_plan_totals(const struct ep_load_plan *plan, struct ep_load_totals *t)
{
	size_t i, j;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < plan->nfiles; i++) {
		const struct ep_load_file *f = &plan->files[i];

		t->files++;
		if (f->compression != EP_COMP_NONE) {
			t->compressed_files++;
			t->decoded_bytes += f->image_size;
		}
		for (j = 0; j < f->nranges; j++) {
			uint64_t size = f->ranges[j].size;

			t->sections++;
			t->bytes += size;
			if (f->compression != EP_COMP_NONE) {
				t->compressed_sections++;
				t->compressed_bytes += size;
			} else if (size >= plan->threshold) {
				t->mapped_sections++;
				t->mapped_bytes += size;
			}
		}
	}
}

void ep_load_plan_free(struct ep_load_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->nfiles; i++) {
		free(plan->files[i].path);
		free(plan->files[i].ranges);
	}
	free(plan->files);
	memset(plan, 0, sizeof(*plan));
}

#define PLAN_MAGIC "elfplt-load-plan 3"

/*
 * The encoding, one record a line:
 *   elfplt-load-plan 3 THRESHOLD NFILES
 *   F COMPRESSION IMAGE_SIZE NRANGES PATHLEN     then PATHLEN bytes of path and "\n"
 *                                               (COMPRESSION: enum ep_compression)
 *   P PART_OFFSET PART_SIZE                     the image's bytes in path
 *   I ST_DEV ST_INO ST_SIZE MTIME_S MTIME_NS     path's identity at planning
 *   OFFSET SIZE                                 NRANGES times
 */
int ep_load_plan_encode(const struct ep_load_plan *plan, char **buf, size_t *len,
			struct ep_error *err)
{
	FILE *f;
	size_t i, j;
	int bad;

	*buf = NULL;
	*len = 0;
	f = open_memstream(buf, len);
	if (!f)
		return ep_error_set(err, EP_ENOMEM, "plan: out of memory");
	fprintf(f, PLAN_MAGIC " %" PRIu64 " %zu\n", plan->threshold, plan->nfiles);
	for (i = 0; i < plan->nfiles; i++) {
		const struct ep_load_file *lf = &plan->files[i];

		fprintf(f, "F %d %" PRIu64 " %zu %zu\n", (int)lf->compression, lf->image_size,
			lf->nranges, strlen(lf->path));
		fputs(lf->path, f);
		fputc('\n', f);
		fprintf(f, "P %" PRIu64 " %" PRIu64 "\n", lf->part_offset, lf->part_size);
		fprintf(f, "I %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
			lf->st_dev, lf->st_ino, lf->st_size, lf->mtime_s, lf->mtime_ns);
		for (j = 0; j < lf->nranges; j++)
			fprintf(f, "%" PRIu64 " %" PRIu64 "\n", lf->ranges[j].offset,
				lf->ranges[j].size);
	}
	bad = ferror(f);
	bad |= fclose(f) != 0;
	if (bad) {
		free(*buf);
		*buf = NULL;
		return ep_error_set(err, EP_ENOMEM, "plan: out of memory");
	}
	return 0;
}

struct cursor {
	const char *p, *end;
};

/* A decimal number followed by one space or newline. */
static bool take_u64(struct cursor *c, uint64_t *v)
{
	uint64_t x = 0;
	const char *start = c->p;

	while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
		unsigned int d = (unsigned int)(*c->p - '0');

		if (x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
		c->p++;
	}
	if (c->p == start || c->p == c->end || (*c->p != ' ' && *c->p != '\n'))
		return false;
	c->p++;
	*v = x;
	return true;
}

static bool take_lit(struct cursor *c, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, lit, n) != 0)
		return false;
	c->p += n;
	return true;
}

static int decode_file(struct ep_load_file *f, struct cursor *c)
{
	uint64_t compression, nranges, pathlen, i;

	if (!take_lit(c, "F ") || !take_u64(c, &compression) || compression > EP_COMP_GZIP ||
	    !take_u64(c, &f->image_size) || !take_u64(c, &nranges) || !take_u64(c, &pathlen))
		return -1;
	if (pathlen == 0 || pathlen >= (uint64_t)(c->end - c->p) || c->p[pathlen] != '\n' ||
	    memchr(c->p, '\0', pathlen))
		return -1;
	/* Each range takes at least 4 bytes ("0 1\n"): bounds nranges before calloc. */
	if (nranges > (uint64_t)(c->end - c->p) / 4)
		return -1;
	f->compression = (enum ep_compression)compression;
	f->path = strndup(c->p, pathlen);
	c->p += pathlen + 1;
	if (!take_lit(c, "P ") || !take_u64(c, &f->part_offset) || !take_u64(c, &f->part_size) ||
	    !take_lit(c, "I ") || !take_u64(c, &f->st_dev) || !take_u64(c, &f->st_ino) ||
	    !take_u64(c, &f->st_size) || !take_u64(c, &f->mtime_s) || !take_u64(c, &f->mtime_ns))
		return -1;
	f->ranges = nranges ? calloc(nranges, sizeof(*f->ranges)) : NULL;
	if (!f->path || (nranges && !f->ranges))
		return -1;
	for (i = 0; i < nranges; i++) {
		struct ep_load_range *r = &f->ranges[i];

		if (!take_u64(c, &r->offset) || !take_u64(c, &r->size) || r->size == 0)
			return -1;
		f->nranges++;
	}
	return 0;
}

int ep_load_plan_decode(struct ep_load_plan *plan, const char *buf, size_t len,
			struct ep_error *err)
{
	struct cursor c = { buf, buf + len };
	uint64_t nfiles, i;

	memset(plan, 0, sizeof(*plan));
	if (!take_lit(&c, PLAN_MAGIC " ") || !take_u64(&c, &plan->threshold) ||
	    !take_u64(&c, &nfiles) || nfiles > len)
		return ep_error_set(err, EP_EMALFORMED, "plan: bad header");
	plan->files = nfiles ? calloc(nfiles, sizeof(*plan->files)) : NULL;
	if (nfiles && !plan->files)
		return ep_error_set(err, EP_ENOMEM, "plan: out of memory");
	for (i = 0; i < nfiles; i++) {
		int rc = decode_file(&plan->files[i], &c);

		plan->nfiles++;
		if (rc) {
			ep_load_plan_free(plan);
			return ep_error_set(err, EP_EMALFORMED,
					    "plan: bad record for file %" PRIu64, i);
		}
	}
	if (c.p != c.end) {
		ep_load_plan_free(plan);
		return ep_error_set(err, EP_EMALFORMED, "plan: trailing bytes");
	}
	return 0;
}

int ep_load_file_open(const struct ep_load_file *f, int *fdp, struct ep_error *err)
{
	struct stat st;
	int fd;

	*fdp = -1;
	/* O_NONBLOCK: a FIFO put in the file's place must not block the open. */
	fd = open(f->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return ep_error_set(err, EP_EIO, "%s: %s", f->path, strerror(errno));
	if (fstat(fd, &st) != 0) {
		int e = errno;

		close(fd);
		return ep_error_set(err, EP_EIO, "%s: %s", f->path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return ep_error_set(err, EP_EIO,
				    "%s: changed since it was planned: not a regular file now",
				    f->path);
	}
	if ((uint64_t)st.st_dev != f->st_dev || (uint64_t)st.st_ino != f->st_ino) {
		close(fd);
		return ep_error_set(err, EP_EIO,
				    "%s: changed since it was planned: another file now "
				    "(device and inode differ)",
				    f->path);
	}
	if ((uint64_t)st.st_size != f->st_size) {
		close(fd);
		return ep_error_set(err, EP_EIO,
				    "%s: changed since it was planned: %" PRIu64
				    " bytes then, %" PRIu64 " now",
				    f->path, f->st_size, (uint64_t)st.st_size);
	}
	if ((uint64_t)st.st_mtim.tv_sec != f->mtime_s ||
	    (uint64_t)st.st_mtim.tv_nsec != f->mtime_ns) {
		close(fd);
		return ep_error_set(err, EP_EIO,
				    "%s: changed since it was planned: rewritten in place "
				    "(same size, another st_mtime)",
				    f->path);
	}
	*fdp = fd;
	return 0;
}

/* The size of fd now, for a message; UINT64_MAX if fstat fails. */
