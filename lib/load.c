/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/load.h"

static const char *const mode_names[] = { "none", "read", "mmap", "hybrid", "accessor" };
#define NMODE_NAMES (sizeof(mode_names) / sizeof(mode_names[0]))

const char *ep_load_mode_name(enum ep_load_mode mode)
{
	return (unsigned int)mode < NMODE_NAMES ? mode_names[mode] : "?";
}

int ep_load_mode_parse(const char *name, enum ep_load_mode *mode)
{
	unsigned int i;

	for (i = 0; i < NMODE_NAMES; i++)
		if (strcmp(name, mode_names[i]) == 0) {
			*mode = i;
			return 0;
		}
	return -1;
}

uint64_t ep_load_default_threshold(void)
{
	return 4 * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* --- loading -------------------------------------------------------------- */

uint64_t ep_load_checksum(uint64_t sum, const unsigned char *bytes, size_t size)
{
	size_t i = 0;

	for (; i + 8 <= size; i += 8) {
		uint64_t w;

		memcpy(&w, bytes + i, 8);
		sum += le64toh(w);
	}
	if (i < size) {
		unsigned char tail[8] = { 0 };
		uint64_t w;

		memcpy(tail, bytes + i, size - i);
		memcpy(&w, tail, 8);
		sum += le64toh(w);
	}
	return sum;
}

struct held_map {
	void *addr;
	size_t size;
	uint64_t st_dev, st_ino; /* the file mapped */
};

struct ep_load_held {
	void **bufs; /* malloc'd section copies */
	size_t nbufs, capbufs;
	struct held_map *maps;
	size_t nmaps, capmaps;
	struct ep_blob *blobs; /* decoded compressed files */
	size_t nblobs, capblobs;
};

/* Grow *arr (of elem-byte entries, *cap of them) to hold one more. */
static bool grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return true;
	ncap = *cap ? *cap * 2 : 64;
	p = realloc(*arr, ncap * elem);
	if (!p)
		return false;
	*arr = p;
	*cap = ncap;
	return true;
}

static uint64_t size_now(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 ? (uint64_t)st.st_size : UINT64_MAX;
}

/* pread(2) until size bytes arrived; a short file is EP_ETRUNC. */
static int pread_all(int fd, unsigned char *buf, uint64_t size, uint64_t offset, const char *path,
		     struct ep_error *err)
{
	uint64_t done = 0;

	while (done < size) {
		ssize_t n = pread(fd, buf + done, size - done, (off_t)(offset + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ep_error_set(err, EP_EIO, "%s: read: %s", path, strerror(errno));
		if (n == 0)
			return ep_error_set(err, EP_ETRUNC,
					    "%s: changed while being read: %" PRIu64
					    " bytes now, a section at %" PRIu64 " (%" PRIu64
					    " bytes) ends at %" PRIu64,
					    path, size_now(fd), offset, size, offset + size);
		done += (uint64_t)n;
	}
	return 0;
}

static int read_range(struct ep_load_held *h, int fd, const char *path,
		      const struct ep_load_range *r, struct ep_load_result *res,
		      struct ep_error *err)
{
	unsigned char *buf;
	uint64_t t0;
	int rc;

	if (r->size > SIZE_MAX || !grow((void **)&h->bufs, &h->capbufs, h->nbufs, sizeof(void *)))
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", path);
	buf = malloc(r->size);
	if (!buf)
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory for %" PRIu64 " bytes", path,
				    r->size);
	h->bufs[h->nbufs++] = buf;
	t0 = ep_monotonic_ns();
	rc = pread_all(fd, buf, r->size, r->offset, path, err);
	res->copy_ns += ep_monotonic_ns() - t0;
	if (rc)
		return rc;
	res->checksum = ep_load_checksum(res->checksum, buf, r->size);
	res->sections_read++;
	res->bytes_copied += r->size;
	res->bytes_loaded += r->size;
	return 0;
}

/*
 * Map the file of f (open as fd) whole, or reuse the mapping of the file
 * before it when that was the same one: an archive's members come in a row,
 * and a linker that maps its inputs maps an archive once and reads every
 * member it takes in place there (lld: each input file is one mapped buffer;
 * gold: File_read views), not once per member.
 */
static int map_file(struct ep_load_held *h, int fd, const struct ep_load_file *f,
		    const unsigned char **map, uint64_t *map_size, struct ep_error *err)
{
	const char *path = f->path;
	struct stat st;
	void *p;

	if (h->nmaps && h->maps[h->nmaps - 1].st_dev == f->st_dev &&
	    h->maps[h->nmaps - 1].st_ino == f->st_ino) {
		/* ep_load_file_open() checked that fd is f's file, of f's size. */
		*map = h->maps[h->nmaps - 1].addr;
		*map_size = h->maps[h->nmaps - 1].size;
		return 0;
	}
	if (fstat(fd, &st) != 0)
		return ep_error_set(err, EP_EIO, "%s: %s", path, strerror(errno));
	if (!grow((void **)&h->maps, &h->capmaps, h->nmaps, sizeof(*h->maps)))
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", path);
	*map_size = (uint64_t)st.st_size;
	*map = NULL;
	if (st.st_size == 0)
		return 0;
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return ep_error_set(err, errno == ENOMEM ? EP_ENOMEM : EP_EIO, "%s: mmap: %s", path,
				    strerror(errno));
	h->maps[h->nmaps].addr = p;
	h->maps[h->nmaps].size = (size_t)st.st_size;
	h->maps[h->nmaps].st_dev = f->st_dev;
	h->maps[h->nmaps].st_ino = f->st_ino;
	h->nmaps++;
	*map = p;
	return 0;
}

/* Touch a range in place: in a mapping of the file, or in a decoded image. */
static int touch_range(const unsigned char *base, uint64_t limit, const char *path,
		       const struct ep_load_range *r, struct ep_load_result *res,
		       struct ep_error *err)
{
	if (!base || !ep_range_ok(r->offset, r->size, limit))
		return ep_error_set(err, EP_ETRUNC,
				    "%s: section at %" PRIu64 " (%" PRIu64
				    " bytes) ends past the end (%" PRIu64 " bytes): did it change?",
				    path, r->offset, r->size, limit);
	res->checksum = ep_load_checksum(res->checksum, base + r->offset, r->size);
	res->bytes_loaded += r->size;
	return 0;
}

static int load_compressed(struct ep_load_held *h, const struct ep_load_file *f,
			   struct ep_load_result *res, struct ep_error *err)
{
	struct ep_blob *b;
	uint64_t t0;
	size_t j;
	int fd, rc;

	/* The same checks as an uncompressed file, before the decoder opens it. */
	rc = ep_load_file_open(f, &fd, err);
	if (rc)
		return rc;
	close(fd);
	if (!grow((void **)&h->blobs, &h->capblobs, h->nblobs, sizeof(*h->blobs)))
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", f->path);
	b = &h->blobs[h->nblobs];
	/* The decoding is the copy: the compressed bytes are read and expanded. */
	t0 = ep_monotonic_ns();
	rc = ep_blob_open_part(b, f->path, f->path, f->part_offset, f->part_size, false, err);
	res->copy_ns += ep_monotonic_ns() - t0;
	if (rc)
		return rc;
	h->nblobs++;
	res->bytes_decoded += b->size;
	res->bytes_copied += b->size;
	for (j = 0; j < f->nranges; j++) {
		rc = touch_range(b->bytes, b->size, f->path, &f->ranges[j], res, err);
		if (rc)
			return rc;
		res->sections_decoded++;
	}
	return 0;
}

/*
 * EP_LOAD_ACCESSOR: the file through elfplt's accessor, one range at a time,
 * as ep_section_data() brings sections in; what each range cost is told by
 * ep_access_counts() (a read or a mapping).  The window is given back at the
 * end of the file, as after every file stats and plt read.
 */
static int load_accessor(const struct ep_load_file *f, uint64_t threshold,
			 struct ep_load_result *res, struct ep_error *err)
{
	struct ep_access_counts c0, c1;
	struct ep_blob b;
	uint64_t t0, t1;
	size_t j;
	int fd, rc;

	/* The same checks as the other modes (the file is the plan's). */
	rc = ep_load_file_open(f, &fd, err);
	if (rc)
		return rc;
	close(fd);
	ep_access_set(EP_ACCESS_HYBRID, threshold);
	rc = ep_blob_open_access(&b, f->path, f->path, 0, 0, false, EP_ACCESS_HYBRID, false, err);
	if (rc)
		return rc;
	for (j = 0; !rc && j < f->nranges; j++) {
		const struct ep_load_range *r = &f->ranges[j];

		ep_access_counts(&c0);
		t0 = ep_monotonic_ns();
		rc = ep_blob_need(&b, r->offset, r->size, err);
		t1 = ep_monotonic_ns();
		ep_access_counts(&c1);
		if (rc)
			break;
		if (c1.bytes_read > c0.bytes_read) {
			res->copy_ns += t1 - t0;
			res->bytes_copied += c1.bytes_read - c0.bytes_read;
			res->sections_read++;
		} else {
			res->sections_mapped++;
		}
		rc = touch_range(b.bytes, b.size, f->path, r, res, err);
	}
	if (!rc)
		rc = ep_blob_check(&b, err);
	ep_blob_close(&b);
	return rc;
}

static int load_file(struct ep_load_held *h, const struct ep_load_file *f, enum ep_load_mode mode,
		     uint64_t threshold, struct ep_load_result *res, struct ep_error *err)
{
	const unsigned char *map = NULL;
	uint64_t map_size = 0;
	bool need_map = false;
	size_t j;
	int fd, rc = 0;

	if (f->nranges == 0)
		return 0;
	if (f->compression != EP_COMP_NONE)
		return load_compressed(h, f, res, err);
	if (mode == EP_LOAD_ACCESSOR)
		return load_accessor(f, threshold, res, err);
	for (j = 0; j < f->nranges; j++)
		if (mode == EP_LOAD_MMAP ||
		    (mode == EP_LOAD_HYBRID && f->ranges[j].size >= threshold))
			need_map = true;
	rc = ep_load_file_open(f, &fd, err);
	if (rc)
		return rc;
	if (need_map) {
		rc = map_file(h, fd, f, &map, &map_size, err);
		if (rc)
			goto out;
	}
	for (j = 0; j < f->nranges; j++) {
		const struct ep_load_range *r = &f->ranges[j];

		if (mode == EP_LOAD_MMAP || (mode == EP_LOAD_HYBRID && r->size >= threshold)) {
			rc = touch_range(map, map_size, f->path, r, res, err);
			if (!rc)
				res->sections_mapped++;
		} else {
			rc = read_range(h, fd, f->path, r, res, err);
		}
		if (rc)
			goto out;
	}
out:
	close(fd);
	return rc;
}

int ep_load_run(const struct ep_load_plan *plan, enum ep_load_mode mode, struct ep_load_result *res,
		struct ep_load_held **held, struct ep_error *err)
{
	struct ep_load_held *h;
	size_t i;
	int rc = 0;

	memset(res, 0, sizeof(*res));
	res->failed_file = SIZE_MAX;
	h = calloc(1, sizeof(*h));
	*held = h;
	if (!h)
		return ep_error_set(err, EP_ENOMEM, "load: out of memory");
	if (mode == EP_LOAD_NONE)
		return 0;
	for (i = 0; i < plan->nfiles; i++) {
		rc = load_file(h, &plan->files[i], mode, plan->threshold, res, err);
		/* Memory running out is no fault of the file it ran out on. */
		if (rc) {
			res->failed_file = err && err->code == EP_ENOMEM ? SIZE_MAX : i;
			return rc;
		}
	}
	return 0;
}

void ep_load_release(struct ep_load_held *h)
{
	size_t i;

	if (!h)
		return;
	for (i = 0; i < h->nbufs; i++)
		free(h->bufs[i]);
	for (i = 0; i < h->nmaps; i++)
		munmap(h->maps[i].addr, h->maps[i].size);
	for (i = 0; i < h->nblobs; i++)
		ep_blob_close(&h->blobs[i]);
	free(h->bufs);
	free(h->maps);
	free(h->blobs);
	free(h);
}

int ep_load_prime(const struct ep_load_plan *plan, size_t *failed, struct ep_error *err)
{
	const struct ep_load_file *smallest[EP_COMP_GZIP + 1] = { NULL };
	struct ep_blob b;
	size_t i;
	int c, fd, rc;

	*failed = SIZE_MAX;
	for (i = 0; i < plan->nfiles; i++) {
		const struct ep_load_file *f = &plan->files[i];

		/* A file none of whose sections is loaded is not decoded by the load either. */
		if (f->compression == EP_COMP_NONE || f->nranges == 0)
			continue;
		if (!smallest[f->compression] ||
		    f->image_size < smallest[f->compression]->image_size)
			smallest[f->compression] = f;
	}
	for (c = EP_COMP_NONE + 1; c <= EP_COMP_GZIP; c++) {
		if (!smallest[c])
			continue;
		*failed = (size_t)(smallest[c] - plan->files);
		rc = ep_load_file_open(smallest[c], &fd, err);
		if (rc)
			return rc;
		close(fd);
		rc = ep_blob_open_part(&b, smallest[c]->path, smallest[c]->path,
				       smallest[c]->part_offset, smallest[c]->part_size, false,
				       err);
		if (rc)
			return rc;
		ep_blob_close(&b);
	}
	*failed = SIZE_MAX;
	return 0;
}

/* --- the clock ----------------------------------------------------------- */

uint64_t ep_monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t ep_monotonic_res_ns(void)
{
	struct timespec ts;

	if (clock_getres(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* --- statistics ----------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct ep_summary ep_summarize(double *v, size_t n)
{
	struct ep_summary s = { 0, 0, 0 };

	if (n == 0)
		return s;
	qsort(v, n, sizeof(*v), cmp_double);
	s.min = v[0];
	s.max = v[n - 1];
	s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	return s;
}

enum ep_verdict ep_compare_runs(struct ep_summary ref, struct ep_summary mode, size_t runs,
				double floor)
{
	if (runs < EP_NOISE_MIN_RUNS)
		return EP_VERDICT_TOO_FEW_RUNS;
	if (ref.median < floor)
		return EP_VERDICT_BELOW_FLOOR;
	if (ref.min <= mode.max && mode.min <= ref.max)
		return EP_VERDICT_WITHIN_NOISE;
	return EP_VERDICT_RESULT;
}

const char *ep_verdict_name(enum ep_verdict v)
{
	static const char *const names[] = { "result", "within_noise", "too_few_runs",
					     "below_floor" };

	return (unsigned int)v < sizeof(names) / sizeof(names[0]) ? names[v] : NULL;
}
