/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/proc.h"

/* --- what the kernel says ------------------------------------------------- */

/* The number of "NAME:   1234 kB" at the start of a line of text. */
static int status_field(const char *text, const char *name, uint64_t *kib)
{
	size_t n = strlen(name);
	const char *p = text;
	char *end;

	for (;;) {
		if (strncmp(p, name, n) == 0 && p[n] == ':') {
			p += n + 1;
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p < '0' || *p > '9')
				return -1;
			errno = 0;
			*kib = strtoull(p, &end, 10);
			if (errno || strncmp(end, " kB", 3) != 0)
				return -1;
			return 0;
		}
		p = strchr(p, '\n');
		if (!p)
			return -1;
		p++;
	}
}

int ep_proc_status_parse(const char *text, struct ep_proc_usage *u)
{
	if (status_field(text, "VmHWM", &u->vm_hwm_kib) ||
	    status_field(text, "VmRSS", &u->vm_rss_kib) ||
	    status_field(text, "RssAnon", &u->rss_anon_kib) ||
	    status_field(text, "RssFile", &u->rss_file_kib))
		return -1;
	return 0;
}

int ep_proc_usage_self(struct ep_proc_usage *u, struct ep_error *err)
{
	/* status is a few KiB; a static buffer keeps the measurement off the heap. */
	static char text[16384];
	struct rusage ru;
	ssize_t n;
	size_t len = 0;
	int fd;

	memset(u, 0, sizeof(*u));
	fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ep_error_set(err, EP_EIO, "/proc/self/status: %s", strerror(errno));
	while (len + 1 < sizeof(text) && (n = read(fd, text + len, sizeof(text) - 1 - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			return ep_error_set(err, EP_EIO, "/proc/self/status: %s", strerror(errno));
		}
		len += (size_t)n;
	}
	close(fd);
	text[len] = '\0';
	if (ep_proc_status_parse(text, u))
		return ep_error_set(err, EP_EUNSUP,
				    "/proc/self/status: no VmHWM, VmRSS, RssAnon or RssFile "
				    "(Linux 4.5 or later is needed)");
	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return ep_error_set(err, EP_EIO, "getrusage: %s", strerror(errno));
	u->user_us = (uint64_t)ru.ru_utime.tv_sec * 1000000 + (uint64_t)ru.ru_utime.tv_usec;
	u->sys_us = (uint64_t)ru.ru_stime.tv_sec * 1000000 + (uint64_t)ru.ru_stime.tv_usec;
	u->minor_faults = (uint64_t)ru.ru_minflt;
	u->major_faults = (uint64_t)ru.ru_majflt;
	return 0;
}

int ep_proc_peak_reset(struct ep_error *err)
{
	ssize_t n;
	int fd, e;

	fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return ep_error_set(err, EP_EUNSUP, "/proc/self/clear_refs: %s", strerror(errno));
	do
		n = write(fd, "5", 1);
	while (n < 0 && errno == EINTR);
	e = errno;
	close(fd);
	if (n != 1)
		return ep_error_set(err, EP_EUNSUP,
				    "/proc/self/clear_refs: cannot reset VmHWM: %s "
				    "(Linux 4.0 or later is needed)",
				    n < 0 ? strerror(e) : "short write");
	return 0;
}

void ep_phase_cost(const struct ep_proc_usage *start, const struct ep_proc_usage *end,
		   struct ep_phase_cost *cost)
{
	uint64_t top = end->vm_hwm_kib > start->vm_hwm_kib ? end->vm_hwm_kib : end->vm_rss_kib;

	cost->peak_rss_kib = (int64_t)top - (int64_t)start->vm_rss_kib;
	cost->rss_anon_kib = (int64_t)end->rss_anon_kib - (int64_t)start->rss_anon_kib;
	cost->rss_file_kib = (int64_t)end->rss_file_kib - (int64_t)start->rss_file_kib;
	cost->user_us = (int64_t)end->user_us - (int64_t)start->user_us;
	cost->sys_us = (int64_t)end->sys_us - (int64_t)start->sys_us;
	cost->minor_faults = (int64_t)end->minor_faults - (int64_t)start->minor_faults;
	cost->major_faults = (int64_t)end->major_faults - (int64_t)start->major_faults;
}

/* --- the page cache ------------------------------------------------------- */

int ep_cache_resident(const struct ep_load_file *f, uint64_t *resident_pages, uint64_t *total_pages,
		      struct ep_error *err)
{
	const char *path = f->path;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), npages, i;
	unsigned char *vec = NULL;
	struct stat st;
	void *map;
	int fd, rc = 0;

	*resident_pages = 0;
	*total_pages = 0;
	rc = ep_load_file_open(f, &fd, err);
	if (rc)
		return rc;
	if (fstat(fd, &st) != 0) {
		rc = ep_error_set(err, EP_EIO, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (st.st_size == 0)
		goto out;
	npages = ((size_t)st.st_size + page - 1) / page;
	/* Mapping without touching faults nothing in: mincore() only looks. */
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		rc = ep_error_set(err, EP_EIO, "%s: mmap: %s", path, strerror(errno));
		goto out;
	}
	vec = malloc(npages);
	if (!vec)
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", path);
	else if (mincore(map, (size_t)st.st_size, vec) != 0)
		rc = ep_error_set(err, EP_EIO, "%s: mincore: %s", path, strerror(errno));
	for (i = 0; !rc && i < npages; i++)
		*resident_pages += vec[i] & 1;
	*total_pages = npages;
	munmap(map, (size_t)st.st_size);
	free(vec);
out:
	close(fd);
	return rc;
}

int ep_cache_drop(const struct ep_load_file *f, uint64_t *resident_pages, uint64_t *total_pages,
		  struct ep_error *err)
{
	int fd, e, rc;

	rc = ep_load_file_open(f, &fd, err);
	if (rc)
		return rc;
	/* Clean pages only; a read-only descriptor cannot start writeback anyway. */
	e = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	if (e)
		return ep_error_set(err, EP_EIO, "%s: posix_fadvise: %s", f->path, strerror(e));
	return ep_cache_resident(f, resident_pages, total_pages, err);
}
