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
 * A mapped file that shrinks while it is read (truncated, or rewritten in
 * place by cp or a build) raises SIGBUS (BUS_ADRERR) on its pages past the
 * new end, which killed the process.  The blobs' live mappings are listed
 * here; for a fault in one, the handler maps a page of zeros over the
 * faulting page, so the read goes on, and marks the mapping shrunk for
 * ep_blob_check() to report.  A SIGBUS anywhere else gets the action there
 * was before.  (One thread per process: elfplt's jobs are processes.)
 */
struct live_map {
	uintptr_t start, end;
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
		if (mmap((void *)(a & page_mask), ~page_mask + 1, PROT_READ,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
			break;
		live[i].shrank = 1;
		return;
	}
	/* Not ours: returning faults again, now with the action from before. */
	sigaction(SIGBUS, &bus_before, NULL);
}

/* List the mapping [map, map + len); the handler is installed on first use. */
int ep_blob_guard(const void *map, size_t len)
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
	live[nlive++] = (struct live_map){ (uintptr_t)map, (uintptr_t)map + len, 0 };
	return 0;
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

	if (m && m->shrank)
		return ep_error_set(err, EP_EIO,
				    "%s: the file shrank while it was read (truncated or "
				    "rewritten in place)",
				    b->path);
	return 0;
}

int ep_open_regular(const char *path, struct stat *st)
{
	int fd;

	if (stat(path, st) != 0)
		return -1;
	if (!S_ISREG(st->st_mode))
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
		     uint64_t size, bool whole, bool populate, struct ep_error *err)
{
	const char *via = strcmp(path, file) != 0 ? file : NULL;
	struct stat st;
	int fd, rc = 0;

	memset(b, 0, sizeof(*b));
	b->path = path;
	/* An empty PATH would make "elfplt: : ..."; name it as ls(1) does. */
	if (!path[0])
		return ep_error_set(err, EP_EIO, "'': %s", strerror(ENOENT));
	/* A FIFO or a device is refused without being opened. */
	fd = ep_open_regular(file, &st);
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
	if (size)
		rc = map_part(b, fd, offset, size, populate, err);
out:
	close(fd);
	if (rc)
		ep_blob_close(b);
	b->path = path;
	b->file = file;
	b->file_offset = offset;
	if (!rc) {
		b->st_dev = (uint64_t)st.st_dev;
		b->st_ino = (uint64_t)st.st_ino;
	}
	return rc;
}

int ep_blob_open(struct ep_blob *b, const char *path, bool populate, struct ep_error *err)
{
	return open_part(b, path, path, 0, 0, true, populate, err);
}

int ep_blob_open_file(struct ep_blob *b, const char *path, const char *file, bool populate,
		      struct ep_error *err)
{
	return open_part(b, path, file, 0, 0, true, populate, err);
}

int ep_blob_open_part(struct ep_blob *b, const char *path, const char *file, uint64_t offset,
		      uint64_t size, bool populate, struct ep_error *err)
{
	return open_part(b, path, file, offset, size, false, populate, err);
}

void ep_blob_close(struct ep_blob *b)
{
	if (b->map) {
		ep_blob_unguard(b->map);
		munmap(b->map, b->map_size);
	}
	free(b->owned);
	memset(b, 0, sizeof(*b));
}
