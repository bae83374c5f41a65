/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/blob.h"
#include "lib/decode.h"
#include "lib/elf.h"

/*
 * The accessor's sparse window (EP_ACCESS_READ, EP_ACCESS_HYBRID): one
 * anonymous mapping reused from file to file, grown to the largest image,
 * where image byte i lives at window + delta + i with delta the image's file
 * offset modulo the page size, so that a range may be mapped from the file
 * over its place (MAP_FIXED) page for page.  What a file brought in is
 * zeroed (or mapped over with zeros) when it is closed: a byte no one asked
 * for reads as zero, never as another file's.  One sparse blob at a time.
 */
static enum ep_access access_mode = EP_ACCESS_HYBRID;
static uint64_t access_threshold; /* 0: four pages */
static unsigned char *window;
static size_t window_size;
static bool window_busy;
struct range {
	uint64_t off, len; /* image offsets (read) or window offsets (mapped) */
};
static struct range *ranges_read, *ranges_mapped;
static size_t nread, nmapped, read_cap, mapped_cap;
static bool read_short; /* a pread() came back short: the file shrank */
static struct ep_access_counts counts;

/*
 * A mapped file that shrinks while it is read (truncated, or rewritten in
 * place by cp or a build) raises SIGBUS (BUS_ADRERR) on its pages past the
 * new end, which killed the process.  The blobs' live mappings are listed
 * here; for a fault in one, the handler maps a page of zeros over the
 * faulting page, so the read goes on, and marks the mapping shrunk for
 * ep_blob_check() to report.  The page of zeros has the mapping's
 * protection: the sparse window's are written to (ep_blob_need() reads into
 * them, window_release() zeroes them), a read-only one there died of SIGSEGV.
 * A SIGBUS anywhere else gets the action there was before.  (One thread per
 * process: elfplt's jobs are processes.)
 */
struct live_map {
	uintptr_t start, end;
	int prot; /* PROT_READ, or PROT_READ | PROT_WRITE in the window */
	volatile sig_atomic_t shrank;
};

static struct live_map *live;
static size_t nlive, live_cap;
static struct sigaction bus_before;
static uintptr_t page_mask;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	uintptr_t a = (uintptr_t)si->si_addr;
	size_t i;

	(void)sig;
	(void)uc;
	for (i = 0; i < nlive; i++) {
		if (a < live[i].start || a >= live[i].end)
			continue;
		if (mmap((void *)(a & page_mask), ~page_mask + 1, live[i].prot,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
			break;
		live[i].shrank = 1;
		return;
	}
	/* Not ours: returning faults again, now with the action from before. */
	sigaction(SIGBUS, &bus_before, NULL);
}

/* List the mapping [map, map + len) of protection prot; the handler is installed on first use. */
static int guard(const void *map, size_t len, int prot)
{
	struct sigaction sa = { 0 };
	struct live_map *nl;

	if (!page_mask) {
		sa.sa_sigaction = on_sigbus;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGBUS, &sa, &bus_before) != 0)
			return -1;
		page_mask = ~((uintptr_t)sysconf(_SC_PAGESIZE) - 1);
	}
	if (nlive == live_cap) {
		nl = realloc(live, (live_cap ? live_cap * 2 : 8) * sizeof(*nl));
		if (!nl)
			return -1;
		live = nl;
		live_cap = live_cap ? live_cap * 2 : 8;
	}
	live[nlive++] = (struct live_map){ (uintptr_t)map, (uintptr_t)map + len, prot, 0 };
	return 0;
}

int ep_blob_guard(const void *map, size_t len)
{
	return guard(map, len, PROT_READ);
}

static struct live_map *live_find(const void *map)
{
	size_t i;

	for (i = 0; i < nlive; i++)
		if (live[i].start == (uintptr_t)map)
			return &live[i];
	return NULL;
}

/* Take the mapping off the list, before it is unmapped. */
void ep_blob_unguard(const void *map)
{
	struct live_map *m = live_find(map);

	if (m)
		*m = live[--nlive];
}

int ep_blob_check(const struct ep_blob *b, struct ep_error *err)
{
	const struct live_map *m = b->map ? live_find(b->map) : NULL;
	bool shrank = (m && m->shrank) || (b->sparse && read_short);
	size_t i;

	for (i = 0; b->sparse && i < nmapped; i++) {
		m = live_find(window + ranges_mapped[i].off);
		shrank = shrank || (m && m->shrank);
	}
	if (shrank)
		return ep_error_set(err, EP_EIO,
				    "%s: the file shrank while it was read (truncated or "
				    "rewritten in place)",
				    b->path);
	return 0;
}

/* ep_open_regular(), with the stat() before the open or without it. */
static int open_regular(const char *path, struct stat *st, bool stat_first)
{
	int fd;

	if (stat_first && stat(path, st) != 0)
		return -1;
	if (stat_first && !S_ISREG(st->st_mode))
		return -2;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (fstat(fd, st) != 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	if (!S_ISREG(st->st_mode)) { /* swapped for something else since the stat() */
		close(fd);
		return -2;
	}
	return fd;
}

int ep_open_regular(const char *path, struct stat *st)
{
	return open_regular(path, st, true);
}

void ep_access_set(enum ep_access mode, uint64_t threshold_bytes)
{
	access_mode = mode;
	access_threshold = threshold_bytes;
}

enum ep_access ep_access_mode(void)
{
	return access_mode;
}

uint64_t ep_access_threshold(void)
{
	return access_threshold ? access_threshold : 4 * (uint64_t)sysconf(_SC_PAGESIZE);
}

static const char *const access_names[] = { "hybrid", "read", "mmap" };

int ep_access_parse(const char *name, enum ep_access *mode)
{
	size_t i;

	for (i = 0; i < sizeof(access_names) / sizeof(access_names[0]); i++)
		if (strcmp(name, access_names[i]) == 0) {
			*mode = (enum ep_access)i;
			return 0;
		}
	return -1;
}

const char *ep_access_name(enum ep_access mode)
{
	return access_names[mode];
}

void ep_access_counts(struct ep_access_counts *c)
{
	*c = counts;
}

static int range_add(struct range **r, size_t *n, size_t *cap, uint64_t off, uint64_t len)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		struct range *nr = realloc(*r, nc * sizeof(*nr));

		if (!nr)
			return -1;
		*r = nr;
		*cap = nc;
	}
	(*r)[(*n)++] = (struct range){ off, len };
	return 0;
}

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

/* The window made at least need bytes long; its old contents are dropped. */
static int window_reserve(size_t need)
{
	size_t pg = page_size(), sz;
	void *w;

	if (need <= window_size)
		return 0;
	sz = window_size * 2 > need ? window_size * 2 : need;
	sz = (sz + pg - 1) & ~(pg - 1);
	if (window)
		munmap(window, window_size);
	window = NULL;
	window_size = 0;
	w = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
		 0);
	if (w == MAP_FAILED)
		return -1;
	window = w;
	window_size = sz;
	return 0;
}

/* pread() exactly len bytes at off, short only at the end of the file. */
static ssize_t pread_full(int fd, unsigned char *dst, size_t len, uint64_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, dst + got, len - got, (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

static unsigned char *window_image(const struct ep_blob *b)
{
	return window + (b->file_offset & (page_size() - 1));
}

/* Map the file's pages under image bytes [off, off + len) over their place in the window. */
static int map_range(const struct ep_blob *b, uint64_t off, uint64_t len, struct ep_error *err)
{
	uint64_t pg = page_size(), delta = b->file_offset & (pg - 1);
	uint64_t first = (delta + off) & ~(pg - 1), end = (delta + off + len + pg - 1) & ~(pg - 1);
	void *at = window + first, *m;

	/* Writable (private, never written back): a small range that shares a page is read in. */
	m = mmap(at, (size_t)(end - first), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, b->fd,
		 (off_t)(b->file_offset - delta + first));
	if (m == MAP_FAILED)
		return ep_error_set(err, EP_EIO, "%s: mmap: %s", b->path, strerror(errno));
	if (range_add(&ranges_mapped, &nmapped, &mapped_cap, first, end - first) ||
	    guard(at, (size_t)(end - first), PROT_READ | PROT_WRITE))
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", b->path);
	counts.maps++;
	counts.bytes_mapped += end - first;
	return 0;
}

int ep_blob_need(const struct ep_blob *b, uint64_t off, uint64_t len, struct ep_error *err)
{
	unsigned char *img = window_image(b);
	uint64_t delta = b->file_offset & (page_size() - 1);
	ssize_t got;
	size_t i;

	if (!b->sparse || off >= b->size)
		return 0;
	if (len > b->size - off)
		len = b->size - off;
	if (!len)
		return 0;
	for (i = 0; i < nmapped; i++)
		if (ranges_mapped[i].off <= delta + off &&
		    delta + off + len <= ranges_mapped[i].off + ranges_mapped[i].len)
			return 0;
	/* The ranges asked for twice are the ones asked for last. */
	if (nread && ranges_read[nread - 1].off <= off &&
	    off + len <= ranges_read[nread - 1].off + ranges_read[nread - 1].len)
		return 0;
	if (b->access == EP_ACCESS_HYBRID && len >= ep_access_threshold())
		return map_range(b, off, len, err);
	got = pread_full(b->fd, img + off, (size_t)len, b->file_offset + off);
	if (got < 0)
		return ep_error_set(err, EP_EIO, "%s: read: %s", b->path, strerror(errno));
	counts.preads++;
	counts.bytes_read += (uint64_t)got;
	if ((uint64_t)got < len)
		read_short = true; /* the rest stays zero, as a shrunk mapping reads */
	if (range_add(&ranges_read, &nread, &read_cap, off, len))
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", b->path);
	return 0;
}

/*
 * Give the window back zeroed, for the next sparse blob: the mapped ranges
 * first, replaced by anonymous zeros, then the ranges read.  A range read
 * may share a page with a mapped range (ep_blob_need() maps over it, or
 * reads into it); zeroed the other way round, memset() would write to the
 * file's page, which past the end of a file that shrank is a SIGBUS.
 */
static void window_release(const struct ep_blob *b)
{
	size_t i;

	for (i = 0; i < nmapped; i++)
		ep_blob_unguard(window + ranges_mapped[i].off);
	for (i = 0; i < nmapped; i++) {
		if (mmap(window + ranges_mapped[i].off, (size_t)ranges_mapped[i].len,
			 PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1,
			 0) == MAP_FAILED) {
			/* Cannot zero it: let the next file get a new window. */
			munmap(window, window_size);
			window = NULL;
			window_size = 0;
			break;
		}
	}
	for (i = 0; window && i < nread; i++)
		memset(window_image(b) + ranges_read[i].off, 0, (size_t)ranges_read[i].len);
	nread = nmapped = 0;
	read_short = false;
	window_busy = false;
}

/*
 * Take size bytes at offset in fd, the file opened as b->path, sparsely:
 * the first bytes (for the magic numbers) now, the rest on demand.  A
 * compressed one is mapped and decoded as map_part() does.  Returns 1 when
 * it is compressed and the caller should map it instead.
 */
static int sparse_part(struct ep_blob *b, int fd, uint64_t offset, uint64_t size,
		       enum ep_access access, struct ep_error *err)
{
	uint64_t delta = offset & (page_size() - 1);
	int rc;

	if (size > SIZE_MAX - delta - page_size() || window_reserve((size_t)(delta + size)))
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory for %" PRIu64 " bytes",
				    b->path, size);
	window_busy = true;
	b->sparse = true;
	b->access = access;
	b->fd = fd;
	b->file_offset = offset;
	b->size = (size_t)size;
	b->bytes = window_image(b);
	/*
	 * The magic numbers; a file under the threshold whole, in one read,
	 * rather than its header, table and sections one by one.
	 */
	rc = ep_blob_need(b, 0, size < ep_access_threshold() ? size : 64, err);
	if (rc)
		return rc;
	b->compression = ep_compression_sniff(b->bytes, size < 64 ? (size_t)size : 64);
	if (b->compression == EP_COMP_NONE)
		return 0;
	window_release(b);
	b->sparse = false;
	b->access = EP_ACCESS_MMAP;
	b->fd = -1;
	b->bytes = NULL;
	b->size = 0;
	return 1;
}

/*
 * Map size bytes at offset in fd, the file opened as b->path, into b: in
 * place, through the page-aligned window around them (a member is never
 * copied), or decoded when they are compressed.  On error b may hold a
 * mapping for ep_blob_close() to undo.
 */
static int map_part(struct ep_blob *b, int fd, uint64_t offset, uint64_t size, bool populate,
		    struct ep_error *err)
{
	uint64_t start, delta;
	int rc;

	start = offset & ~(uint64_t)(sysconf(_SC_PAGESIZE) - 1);
	delta = offset - start;
	if (size > SIZE_MAX - delta)
		return ep_error_set(err, EP_ENOMEM, "%s: too big to map", b->path);
	b->map_size = (size_t)(delta + size);
	b->map = mmap(NULL, b->map_size, PROT_READ, MAP_PRIVATE | (populate ? MAP_POPULATE : 0), fd,
		      (off_t)start);
	if (b->map == MAP_FAILED) {
		b->map = NULL;
		return ep_error_set(err, EP_EIO, "%s: mmap: %s", b->path, strerror(errno));
	}
	if (ep_blob_guard(b->map, b->map_size))
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", b->path);
	b->compression = ep_compression_sniff((unsigned char *)b->map + delta, (size_t)size);
	if (b->compression == EP_COMP_NONE) {
		b->bytes = (unsigned char *)b->map + delta;
		b->size = (size_t)size;
		b->mapped = true;
		return 0;
	}
	rc = ep_blob_decode(b, (unsigned char *)b->map + delta, (size_t)size, err);
	/* Decoded: the mapping goes now, so the file is checked now (ep_blob_check()). */
	if (!rc)
		rc = ep_blob_check(b, err);
	ep_blob_unguard(b->map);
	munmap(b->map, b->map_size);
	b->map = NULL;
	return rc;
}

/*
 * Open file and take its bytes [offset, offset + size), or all of it when
 * whole, under the name path: mapped in place, or decoded when compressed.
 */
static int open_part(struct ep_blob *b, const char *path, const char *file, uint64_t offset,
		     uint64_t size, bool whole, bool populate, enum ep_access access,
		     bool listed_regular, struct ep_error *err)
{
	const char *via = strcmp(path, file) != 0 ? file : NULL;
	struct stat st;
	int fd, rc = 0;

	memset(b, 0, sizeof(*b));
	b->path = path;
	b->access = EP_ACCESS_MMAP;
	/* An empty PATH would make "elfplt: : ..."; name it as ls(1) does. */
	if (!path[0])
		return ep_error_set(err, EP_EIO, "'': %s", strerror(ENOENT));
	/* A FIFO or a device is refused without being opened. */
	fd = open_regular(file, &st, !listed_regular);
	if (fd == -2)
		return ep_error_set(err, EP_EIO, "%s: %s%snot a regular file", path, via ? via : "",
				    via ? ": " : "");
	if (fd < 0)
		return ep_error_set(err, EP_EIO, "%s: %s%s%s", path, via ? via : "",
				    via ? ": " : "", strerror(errno));
	if (whole) {
		offset = 0;
		size = (uint64_t)st.st_size;
	} else if (!ep_range_ok(offset, size, (uint64_t)st.st_size)) {
		rc = ep_error_set(err, EP_ETRUNC,
				  "%s: its %" PRIu64 " bytes at %" PRIu64
				  " go past the end of %s (%" PRIu64 " bytes)",
				  path, size, offset, file, (uint64_t)st.st_size);
		goto out;
	}
	b->file_size = size;
	if (size && access != EP_ACCESS_MMAP && !populate && !window_busy) {
		rc = sparse_part(b, fd, offset, size, access, err);
		if (b->sparse)
			fd = -1; /* the blob's now, closed by ep_blob_close() */
		if (rc <= 0)
			goto out;
		rc = 0;
	}
	if (size)
		rc = map_part(b, fd, offset, size, populate, err);
out:
	if (fd >= 0)
		close(fd);
	if (rc)
		ep_blob_close(b);
	b->path = path;
	b->file = file;
	b->file_offset = offset;
	if (!rc) {
		b->st_dev = (uint64_t)st.st_dev;
		b->st_ino = (uint64_t)st.st_ino;
		b->st_nlink = (uint64_t)st.st_nlink;
	}
	return rc;
}

int ep_blob_open(struct ep_blob *b, const char *path, bool populate, struct ep_error *err)
{
	return open_part(b, path, path, 0, 0, true, populate, EP_ACCESS_MMAP, false, err);
}

int ep_blob_open_file(struct ep_blob *b, const char *path, const char *file, bool populate,
		      struct ep_error *err)
{
	return open_part(b, path, file, 0, 0, true, populate, EP_ACCESS_MMAP, false, err);
}

int ep_blob_open_part(struct ep_blob *b, const char *path, const char *file, uint64_t offset,
		      uint64_t size, bool populate, struct ep_error *err)
{
	return open_part(b, path, file, offset, size, false, populate, EP_ACCESS_MMAP, false, err);
}

int ep_blob_open_access(struct ep_blob *b, const char *path, const char *file, uint64_t offset,
			uint64_t size, bool populate, enum ep_access access, bool listed_regular,
			struct ep_error *err)
{
	bool whole = offset == 0 && size == 0;

	return open_part(b, path, file, offset, size, whole, populate, access, listed_regular, err);
}

void ep_blob_close(struct ep_blob *b)
{
	if (b->sparse) {
		window_release(b);
		close(b->fd);
	}
	if (b->map) {
		ep_blob_unguard(b->map);
		munmap(b->map, b->map_size);
	}
	free(b->owned);
	memset(b, 0, sizeof(*b));
}
