/* SPDX-License-Identifier: MIT */
/*
 * A mapped input that shrinks while it is read (lib/blob.h,
 * ep_blob_check()): reading its pages past the new end must not kill the
 * process with SIGBUS; the read sees zeros and the blob reports the change.
 * A SIGBUS outside any blob still gets the action it had before.  The file is
 * 16 pages of 0xAA bytes; after ftruncate() to 100 bytes, page 4 is past the
 * end (the kernel raises SIGBUS for pages wholly beyond EOF, mmap(2)).
 * Exit 0 when every check passes, 1 otherwise.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/blob.h"
#include "tests/unit/check.h"

/* From <sanitizer/common_interface_defs.h>; NULL unless built with ASan. */
extern void __sanitizer_set_report_path(const char *path) __attribute__((weak));

/* A temporary file of npages pages of 0xAA; its fd, its name in path. */
static int make_file(char *path, size_t npages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *buf = malloc(page);
	size_t i;
	int fd = mkstemp(path);

	if (fd < 0 || !buf) {
		perror("shrink_test");
		exit(1);
	}
	memset(buf, 0xAA, page);
	for (i = 0; i < npages; i++)
		if (write(fd, buf, page) != (ssize_t)page) {
			perror("shrink_test: write");
			exit(1);
		}
	free(buf);
	return fd;
}

/*
 * The sparse accessor (EP_ACCESS_HYBRID, EP_ACCESS_READ): the threshold's
 * boundary (a range of exactly four pages mapped, one byte less read with
 * pread()), counted by ep_access_counts(); bytes no one asked for read as
 * zero, also after another file used the window; a file that shrinks under a
 * mapped range or before a read is reported as a mapped one is.
 */
static void check_sparse(size_t page)
{
	char p1[] = "/tmp/elfplt-shrink.XXXXXX", p2[] = "/tmp/elfplt-shrink.XXXXXX";
	struct ep_error err = { 0 };
	struct ep_access_counts c0, c1;
	struct ep_blob b;
	int fd1 = make_file(p1, 16), fd2 = make_file(p2, 16);

	ep_access_set(EP_ACCESS_HYBRID, 0);
	CHECK(ep_access_threshold() == 4 * page);
	CHECK(ep_blob_open_access(&b, p1, p1, 0, 0, false, EP_ACCESS_HYBRID, false, &err) == 0);
	CHECK(b.sparse && !b.mapped && b.size == 16 * page);
	CHECK(b.bytes[0] == 0xAA && b.bytes[64] == 0); /* only the first 64 bytes so far */
	ep_access_counts(&c0);
	CHECK(ep_blob_need(&b, 100, 4 * page - 1, &err) == 0);
	ep_access_counts(&c1);
	CHECK(c1.preads == c0.preads + 1 && c1.bytes_read == c0.bytes_read + 4 * page - 1);
	CHECK(c1.maps == c0.maps);
	CHECK(b.bytes[100] == 0xAA && b.bytes[100 + 4 * page - 2] == 0xAA);
	CHECK(b.bytes[100 + 4 * page - 1] == 0);
	CHECK(ep_blob_need(&b, 8 * page + 1, 4 * page, &err) == 0);
	ep_access_counts(&c0);
	CHECK(c0.maps == c1.maps + 1 && c0.preads == c1.preads);
	CHECK(c0.bytes_mapped == 5 * page); /* pages 8 to 12, around the range */
	CHECK(b.bytes[8 * page + 1] == 0xAA && b.bytes[12 * page] == 0xAA);
	CHECK(ep_blob_check(&b, &err) == 0);
	/* Shrunk: the mapped range reads zeros past the end, a read comes back short. */
	CHECK(ftruncate(fd1, (off_t)(10 * page)) == 0);
	CHECK(b.bytes[11 * page] == 0);
	CHECK(ep_blob_check(&b, &err) == -EP_EIO);
	CHECK(strstr(err.message, ": the file shrank while it was read") != NULL);
	ep_blob_close(&b);

	/* Read mode reads even a large range; the last file's bytes are gone. */
	CHECK(ep_blob_open_access(&b, p2, p2, 0, 0, false, EP_ACCESS_READ, false, &err) == 0);
	CHECK(b.sparse && b.bytes[100] == 0 && b.bytes[9 * page] == 0);
	ep_access_counts(&c0);
	CHECK(ep_blob_need(&b, 0, 16 * page, &err) == 0);
	ep_access_counts(&c1);
	CHECK(c1.maps == c0.maps && c1.preads == c0.preads + 1);
	CHECK(b.bytes[16 * page - 1] == 0xAA);
	CHECK(ftruncate(fd2, (off_t)(8 * page)) == 0);
	CHECK(ep_blob_check(&b, &err) == 0); /* read before it shrank */
	ep_blob_close(&b);
	/* A file that shrinks before a read: the read comes back short. */
	CHECK(ep_blob_open_access(&b, p2, p2, 0, 0, false, EP_ACCESS_READ, false, &err) == 0);
	CHECK(b.size == 8 * page && b.bytes[64] == 0);
	CHECK(ftruncate(fd2, 200) == 0);
	CHECK(ep_blob_need(&b, 0, page, &err) == 0);
	CHECK(b.bytes[199] == 0xAA && b.bytes[200] == 0);
	CHECK(ep_blob_check(&b, &err) == -EP_EIO);
	ep_blob_close(&b);
	/* A file under the threshold is read whole when it opens, in one pread(). */
	ep_access_counts(&c0);
	CHECK(ep_blob_open_access(&b, p2, p2, 0, 0, false, EP_ACCESS_HYBRID, false, &err) == 0);
	ep_access_counts(&c1);
	CHECK(c1.preads == c0.preads + 1 && c1.bytes_read == c0.bytes_read + 200);
	CHECK(b.bytes[199] == 0xAA && ep_blob_need(&b, 10, 150, &err) == 0);
	ep_access_counts(&c0);
	CHECK(c0.preads == c1.preads);
	ep_blob_close(&b);

	/* mmap mode maps the whole file, as ep_blob_open() does. */
	CHECK(ep_blob_open_access(&b, p2, p2, 0, 0, false, EP_ACCESS_MMAP, false, &err) == 0);
	CHECK(!b.sparse && b.mapped && b.size == 200);
	ep_blob_close(&b);
	close(fd1);
	close(fd2);
	unlink(p1);
	unlink(p2);
}

/*
 * Hybrid access, a small range read with pread() and then a large one mapped
 * over the same page, the file then truncated to nothing: a read of that
 * page sees zeros (the handler's page) and closing the blob zeroes the read
 * range in the window for the next file.  That memset() once hit the
 * handler's read-only page and died of SIGSEGV (breaker3 #1); it runs in a
 * child, for the death to be a failed check.
 */
static void check_shrunk_shared_page(size_t page)
{
	char p1[] = "/tmp/elfplt-shrink.XXXXXX", p2[] = "/tmp/elfplt-shrink.XXXXXX";
	struct ep_error err = { 0 };
	struct ep_blob b;
	int fd1 = make_file(p1, 16), fd2 = make_file(p2, 16), status;
	pid_t pid = fork();

	if (pid == 0) {
		if (ep_blob_open_access(&b, p1, p1, 0, 0, false, EP_ACCESS_HYBRID, false, &err) ||
		    ep_blob_need(&b, 100, 200, &err) || ep_blob_need(&b, 0, 4 * page, &err))
			_exit(2);
		if (ftruncate(fd1, 0) != 0)
			_exit(3);
		if (b.bytes[150] != 0 || ep_blob_check(&b, &err) != -EP_EIO)
			_exit(4);
		ep_blob_close(&b);
		/* The next file's window: zeros but what it reads, and writable. */
		if (ep_blob_open_access(&b, p2, p2, 0, 0, false, EP_ACCESS_HYBRID, false, &err))
			_exit(5);
		if (b.bytes[0] != 0xAA || b.bytes[150] != 0 || ep_blob_need(&b, 0, page, &err) ||
		    b.bytes[page - 1] != 0xAA || ep_blob_check(&b, &err) != 0)
			_exit(6);
		ep_blob_close(&b);
		_exit(0);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
	if (WIFSIGNALED(status))
		fprintf(stderr, "shrink_test: closing a shrunk hybrid blob: signal %d\n",
			WTERMSIG(status));
	else if (WEXITSTATUS(status))
		fprintf(stderr, "shrink_test: shrunk hybrid blob: child exit %d\n",
			WEXITSTATUS(status));
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(fd1);
	close(fd2);
	unlink(p1);
	unlink(p2);
}

int main(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char path[] = "/tmp/elfplt-shrink.XXXXXX";
	struct ep_error err = { 0 };
	struct ep_blob b;
	volatile unsigned char c;
	unsigned char *m;
	int fd, status;
	pid_t pid;

	fd = make_file(path, 16);
	CHECK(ep_blob_open(&b, path, false, &err) == 0);
	CHECK(b.size == 16 * page && b.mapped);
	/* Untouched: nothing to report. */
	CHECK(b.bytes[page] == 0xAA);
	CHECK(ep_blob_check(&b, &err) == 0);

	/* Shrink it under the mapping; this read used to die of SIGBUS. */
	CHECK(ftruncate(fd, 100) == 0);
	c = b.bytes[4 * page + 1];
	CHECK(c == 0);
	CHECK(b.bytes[50] == 0xAA); /* still in the file */
	CHECK(ep_blob_check(&b, &err) == -EP_EIO);
	CHECK(err.code == EP_EIO);
	CHECK(strstr(err.message, path) == err.message);
	CHECK(strstr(err.message, ": the file shrank while it was read") != NULL);
	ep_blob_close(&b);

	/* A fresh blob of the same (now short) file starts clean. */
	CHECK(ep_blob_open(&b, path, false, &err) == 0);
	CHECK(b.size == 100);
	CHECK(ep_blob_check(&b, &err) == 0);
	ep_blob_close(&b);

	check_sparse(page);
	check_shrunk_shared_page(page);

	/*
	 * A mapping that is no blob's keeps the SIGBUS action from before (the
	 * default, or a sanitizer's report): the child must not read on.
	 */
	CHECK(ftruncate(fd, (off_t)(16 * page)) == 0);
	m = mmap(NULL, 16 * page, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(m != MAP_FAILED);
	pid = fork();
	if (pid == 0) {
		/*
		 * Under ASan this SIGBUS is the report wanted, not a finding:
		 * to stderr, not to the files tests/sanitized.sh fails on.
		 */
		if (__sanitizer_set_report_path)
			__sanitizer_set_report_path("stderr");
		if (ftruncate(fd, 100) != 0)
			_exit(2);
		c = m[4 * page + 1];
		_exit(0);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
	/* ASan's report: exit status 1, or 86 as make check sets it (Makefile.am). */
	CHECK(!WIFEXITED(status) || WEXITSTATUS(status) == 1 || WEXITSTATUS(status) == 86);
	CHECK(!WIFSIGNALED(status) || WTERMSIG(status) == SIGBUS);

	close(fd);
	unlink(path);
	return check_status();
}
