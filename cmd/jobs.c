/* SPDX-License-Identifier: MIT */
/*
 * The run engine: a command's inputs opened and computed on in worker
 * processes, handed out dynamically over a socket, their results read back
 * from per-worker pipes and emitted in input order (ep_for_each_image_jobs()
 * in cmd/jobs.h says how), so that the output is the same for any -j.
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/elfplt.h"
#include "cmd/jobs.h"
#include "cmd/output.h"
#include "cmd/progress.h"
#include "lib/archive.h"
#include "lib/inode-set.h"

/*
 * The walk lists every regular file without analysing it (lib/walk.h): one
 * it found that is not ELF, by its magic bytes after any decompression, or
 * that is gone is passed over, as a tree holds other files too (the gone one
 * with a warning: gone_since_walk()); so is an archive member that is not ELF.  One with the ELF magic is an ELF
 * file, and its faults are reported; so is one we may not read (EACCES,
 * EPERM) or not even name (a path over PATH_MAX): it could be a module, not
 * to vanish unseen; and a thin archive's member file that is missing.
 */
static bool pass_over(const struct ep_pathlist *pl, size_t i, const struct ep_blob *blob,
		      const struct ep_error *err)
{
	if (!pl->walked[i] || err->code != EP_ENOTELF)
		return false;
	return !blob || blob->size < SELFMAG || memcmp(blob->bytes, ELFMAG, SELFMAG) != 0;
}

/*
 * A file the walk found that is gone since, and only that: passed over, but
 * with a warning, as nobody can tell whether it was ELF (a build tree's
 * temporary files come and go; a module removed mid-run must not vanish
 * unseen, nor be counted as not ELF).
 */
static bool gone_since_walk(const struct ep_pathlist *pl, size_t i, const struct ep_error *err)
{
	if (!pl->walked[i] || err->code != EP_EIO || pl->members[i].archive)
		return false;
	return access(pl->paths[i], F_OK) != 0 && (errno == ENOENT || errno == ENOTDIR);
}

/* The inputs passed over in the last run, and for ep_json_skipped() which. */
static uint64_t nskipped;
static json_t *skipped_list;
static bool verbose;

json_t *ep_json_skipped(void)
{
	return skipped_list ? json_incref(skipped_list) : json_array();
}

/* Input shown was passed over for the reason err gives ("PATH: REASON"). */
static void note_skipped(const char *shown, const struct ep_error *err)
{
	const char *reason = err->message;
	size_t n = strlen(shown);

	if (strncmp(reason, shown, n) == 0 && strncmp(reason + n, ": ", 2) == 0)
		reason += n + 2;
	if (!skipped_list)
		skipped_list = json_array();
	if (skipped_list)
		json_array_append_new(skipped_list,
				      json_pack("{s:s, s:s}", "path", shown, "reason", reason));
	if (verbose)
		fprintf(stderr, "elfplt: %s: skipped: %s\n", shown, reason);
}

uint64_t ep_inputs_skipped(void)
{
	return nskipped;
}

void ep_print_skipped(FILE *out)
{
	if (nskipped)
		fprintf(out, "skipped: %" PRIu64 " %s (not ELF)\n", nskipped,
			nskipped == 1 ? "file" : "files");
}

unsigned int ep_jobs_default(void)
{
	cpu_set_t set;
	long n = 0;

	/* The CPUs this process may run on (taskset, cgroups), else those online. */
	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		n = CPU_COUNT(&set);
	if (n <= 0)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	return n > EP_JOBS_MAX ? EP_JOBS_MAX : (unsigned int)n;
}

/* What one input came to, until its turn to be emitted. */
struct outcome {
	int rc;	      /* 0, or a negative ep_errcode with err filled */
	bool quiet;   /* a walked file that is not ELF, or gone: pass over */
	bool gone;    /* of those, one gone since the walk: a warning, not counted as not ELF */
	bool archive; /* a walked file that is an ar archive: list its members in its place */
	bool dup;     /* a walked file taken before by another hard link: not reported */
	bool has_id;  /* a whole file that opened: dev and ino are its identity */
	uint64_t dev, ino;
	void *result; /* compute()'s bytes (malloc'd), when rc is 0 */
	size_t result_len;
	struct ep_error err;
};

struct run {
	const struct ep_pathlist *pl;
	bool populate;
	ep_compute_fn compute;
	ep_emit_fn emit;
	ep_error_fn on_error;
	void *ctx;
	FILE *out;		      /* the report */
	struct ep_progress *progress; /* the calling process's; workers never draw */
	struct ep_inode_set **seen;   /* the files taken so far; NULL in a worker */
	struct ep_inode_set **elf;    /* of those, the ones that were ELF; NULL in a worker */
};

/*
 * Reports name a file in clean text (lib/error.h), while it is opened as
 * named: path, or a cleaned copy in *clean to free().
 */
static const char *shown_name(const char *path, char **clean)
{
	*clean = NULL;
	if (ep_text_is_clean(path, strlen(path)))
		return path;
	*clean = strdup(path);
	if (!*clean)
		return path;
	ep_text_clean(*clean);
	return *clean;
}

/* The input that opened as o says is the report's own file (ep_output_is_report()). */
static bool is_report_file(const struct outcome *o)
{
	return o->has_id && ep_output_is_report(o->dev, o->ino);
}

/*
 * A worker's own set of what it opened, for it to pass over a file it has
 * seen (a thin archive can name one file 10000 times): the main process
 * took the first of them too, so it will say the same (taken_before()).
 */
static struct ep_inode_set *worker_seen;

static struct ep_inode_set **seen_set(const struct run *r)
{
	return r->seen ? r->seen : &worker_seen;
}

/*
 * Where input i's bytes start in the file it opens (bytes): a member of a
 * regular archive is identified by the archive and this offset; a whole
 * file, or a thin archive's member (a file of its own), by offset 0.
 */
static uint64_t id_offset(const struct run *r, size_t i)
{
	const struct ep_member *m = &r->pl->members[i];

	return m->archive && !m->error ? m->offset : 0;
}

/*
 * In the main process, in input order: whether input i, which opened as
 * o says, is a file the walk reached before by another hard link (the
 * first name in the walk's order is the one reported).  A named file is
 * always taken, and marks the file as taken.  The report's own file, found
 * by a walk, counts as taken too (in a worker as well): it is no input.
 */
static bool taken_before(const struct run *r, size_t i, const struct outcome *o)
{
	if (r->pl->walked[i] && is_report_file(o))
		return true;
	return o->has_id &&
	       ep_inode_set_add_at(seen_set(r), o->dev, o->ino, id_offset(r, i)) == 1 &&
	       r->pl->walked[i];
}

/*
 * Input i, which opened as o says, held ELF (an ELF file, or an archive with
 * an ELF member): reached again, under another PATH or by a hard link, it is
 * a file already read, not a missing one (operands_report_empty()).
 */
static void note_elf(const struct run *r, size_t i, const struct outcome *o)
{
	if (o->has_id && r->elf)
		ep_inode_set_add_at(r->elf, o->dev, o->ino, id_offset(r, i));
}

/*
 * Whether input i, a file taken before (o->dup), was ELF when it was taken:
 * two hard links to one text file are no ELF file read already.
 */
static bool read_as_elf(const struct run *r, size_t i, const struct outcome *o)
{
	return o->has_id && r->elf && ep_inode_set_has(*r->elf, o->dev, o->ino, id_offset(r, i));
}

/*
 * Whether this process has opened a file with more than one hard link: until
 * it has, no walked file can be one taken before under another name, and
 * taken_unopened() spares its stat() (one stat per file: the open's fstat()).
 * A file reached twice under one name (a directory named twice) is still
 * caught after its open, by taken_before().
 */
static bool links_seen;

/*
 * Input i, walked or an archive's member, is a file taken before, by
 * stat(): it is passed over without being opened or decoded again.  (What
 * opens is checked again by its fstat() identity, in taken_before().)
 */
static bool taken_unopened(const struct run *r, size_t i, struct outcome *o)
{
	struct stat st;

	if (!links_seen || !r->pl->walked[i] || r->pl->members[i].error ||
	    stat(ep_pathlist_file(r->pl, i), &st) != 0 ||
	    !ep_inode_set_has(*seen_set(r), (uint64_t)st.st_dev, (uint64_t)st.st_ino,
			      id_offset(r, i)))
		return false;
	o->has_id = true;
	o->dev = (uint64_t)st.st_dev;
	o->ino = (uint64_t)st.st_ino;
	o->dup = true;
	return true;
}

/* Open input i, compute on it, close it: the part a worker process may do. */
static void process(const struct run *r, size_t i, struct outcome *o)
{
	const char *path = r->pl->paths[i];
	char *clean;
	const char *shown = shown_name(path, &clean);
	struct ep_blob blob;
	struct ep_image img;

	memset(o, 0, sizeof(*o));
	if (taken_unopened(r, i, o)) {
		free(clean);
		return;
	}
	o->rc = ep_blob_open_entry(&blob, r->pl, i, r->populate, &o->err);
	if (o->rc) {
		o->gone = gone_since_walk(r->pl, i, &o->err);
		o->quiet = o->gone || pass_over(r->pl, i, NULL, &o->err);
		free(clean);
		return;
	}
	o->has_id = true;
	o->dev = blob.st_dev;
	o->ino = blob.st_ino;
	links_seen = links_seen || blob.st_nlink > 1;
	o->dup = taken_before(r, i, o);
	/* The walk lists files unopened: an archive among them shows here. */
	o->archive = r->pl->walked[i] && !r->pl->members[i].archive &&
		     blob.compression == EP_COMP_NONE && ep_is_archive(blob.bytes, blob.size);
	if (o->dup || o->archive) {
		ep_blob_close(&blob);
		free(clean);
		return;
	}
	o->rc = ep_image_open_blob(&img, shown, &blob, &o->err);
	if (o->rc == 0) {
		o->rc = r->compute(&img, &blob, r->ctx, &o->result, &o->result_len, &o->err);
		ep_image_close(&img);
	} else {
		o->quiet = pass_over(r->pl, i, &blob, &o->err);
		/* A member that is an archive itself: not expanded, say so. */
		if (o->quiet && r->pl->members[i].archive && blob.compression == EP_COMP_NONE &&
		    ep_is_archive(blob.bytes, blob.size))
			ep_error_set(&o->err, EP_ENOTELF,
				     "%s: an ar archive inside an archive (not expanded)", shown);
	}
	if (ep_blob_check(&blob, &o->err)) {
		/* It shrank as it was read: what came of it came from zeros. */
		free(o->result);
		o->result = NULL;
		o->result_len = 0;
		o->rc = -EP_EIO;
		o->quiet = false;
	}
	ep_blob_close(&blob);
	free(clean);
}

/* The running loop's bar and report, for ep_jobs_stderr() called from emit. */
static const struct run *current_run;

void ep_jobs_stderr(const char *text, size_t len)
{
	if (current_run) {
		fflush(current_run->out);
		ep_progress_clear(current_run->progress);
	}
	fwrite(text, 1, len, stderr);
}

/* Report input i's outcome and free its result; returns false when it failed. */
static bool finish(const struct run *r, size_t i, struct outcome *o)
{
	char *clean;
	const char *shown = shown_name(r->pl->paths[i], &clean);
	bool ok;

	if (o->rc == 0) {
		/* The report and the bar on one terminal: the report's lines go first. */
		if (r->progress->out_tty)
			ep_progress_clear(r->progress);
		current_run = r;
		o->rc = r->emit(shown, o->result, o->result_len, r->ctx, &o->err);
		current_run = NULL;
		if (r->progress->out_tty)
			fflush(r->out);
	}
	free(o->result);
	o->result = NULL;
	ok = o->rc == 0 || o->quiet;
	if (o->gone) {
		ep_progress_clear(r->progress);
		fprintf(stderr, "elfplt: warning: %s: removed since the walk found it; not read\n",
			shown);
	}
	if (!ok) {
		ep_progress_clear(r->progress);
		fprintf(stderr, "elfplt: %s\n", o->err.message);
		r->on_error(shown, &o->err, r->ctx);
	}
	free(clean);
	return ok;
}

/*
 * The workers, scheduled dynamically.  Each has a socket to the calling
 * process, on which it asks for work (a byte) and gets it (a request: a run
 * of up to BATCH inputs), and a pipe on which it sends the outcomes back in
 * the order asked.  It asks for its next run as it starts one, so the
 * answer is there by the time it needs it.  The calling process answers
 * while the run fits within WINDOW inputs of the next one to emit, else as
 * the window moves on, and it notes who has which input: so it reads each
 * input's outcome from the right pipe, in input order, and wakes only for
 * the outcome it waits for and for the workers' asks.  What a worker sends
 * ahead of its turn waits in its pipe (1 MiB, after which the worker waits):
 * the window and the pipes bound it.  A worker does its inputs in the order
 * given, so one that dies has died on the input whose outcome does not come.
 */
#define BATCH  8   /* inputs per request */
#define WINDOW 256 /* inputs handed out and not yet emitted, at most */

/* A request to a worker: inputs first, first + 1, ..., first + count - 1. */
struct request {
	uint64_t first, count;
};

/* An outcome as it goes through a worker's pipe: this, the message, the result. */
struct wire {
	uint64_t index; /* the input's, to check */
	int32_t rc;
	uint32_t code; /* err.code */
	uint32_t quiet;
	uint32_t message_len; /* bytes of err.message, without its NUL */
	uint64_t result_len;
	uint32_t archive;
	uint32_t has_id;
	uint32_t gone;
	uint32_t unused;
	uint64_t dev, ino;
};

/*
 * The calling process's end of a worker's pipe, read ahead: one read(2)
 * takes in what outcomes are there, not a read(2) for each part of each.
 */
struct reader {
	int fd;
	size_t start, end; /* what is read ahead: buf[start..end) */
	char buf[1 << 16];
};

struct pool {
	unsigned int started;		/* workers */
	pid_t pid[EP_JOBS_MAX];		/* worker k */
	int sock[EP_JOBS_MAX];		/* our end of its socket; -1: it asks no more */
	struct reader in[EP_JOBS_MAX];	/* its pipe of outcomes */
	unsigned int asks[EP_JOBS_MAX]; /* its asks not answered yet */
	int owner[WINDOW];		/* input i's worker, or -1 (the calling process) */
	size_t next;			/* the first input not handed out */
};

/*
 * All n bytes at p through fd, written when out, else read: again after a
 * signal, on after a short count.  False on an error or at EOF (a read),
 * or when nothing could be written.
 */
static bool transfer_all(int fd, char *p, size_t n, bool out)
{
	ssize_t k;

	while (n) {
		k = out ? write(fd, p, n) : read(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		p += k;
		n -= (size_t)k;
	}
	return true;
}

static bool write_all(int fd, const void *buf, size_t n)
{
	/* Written from, never to: the cast only lets one loop serve both ways. */
	return transfer_all(fd, (char *)buf, n, true);
}

static bool read_all(int fd, void *buf, size_t n)
{
	return transfer_all(fd, buf, n, false);
}

/* n bytes from rd into dst; false at EOF or on an error: the worker is gone. */
static bool read_from(struct reader *rd, void *dst, size_t n)
{
	char *p = dst;
	size_t c;
	ssize_t k;

	while (n) {
		if (rd->start == rd->end) {
			if (n >= sizeof(rd->buf))
				return read_all(rd->fd, p, n);
			k = read(rd->fd, rd->buf, sizeof(rd->buf));
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0)
				return false;
			rd->start = 0;
			rd->end = (size_t)k;
		}
		c = rd->end - rd->start < n ? rd->end - rd->start : n;
		memcpy(p, rd->buf + rd->start, c);
		rd->start += c;
		p += c;
		n -= c;
	}
	return true;
}

/* From <sanitizer/lsan_interface.h>; NULL unless built with ASan (LSan). */
extern void __lsan_do_leak_check(void) __attribute__((weak));

/* In a worker: do input i and send its outcome; false when the main process is gone. */
static bool send_outcome(const struct run *r, size_t i, int fd)
{
	struct outcome o;
	struct wire w;
	bool sent;

	process(r, i, &o);
	w = (struct wire){ .index = i,
			   .rc = o.rc,
			   .code = o.err.code,
			   .quiet = o.quiet,
			   .gone = o.gone,
			   .archive = o.archive,
			   .has_id = o.has_id,
			   .dev = o.dev,
			   .ino = o.ino };
	if (o.rc)
		w.message_len = (uint32_t)strnlen(o.err.message, sizeof(o.err.message) - 1);
	w.result_len = o.rc ? 0 : o.result_len;
	sent = write_all(fd, &w, sizeof(w)) && write_all(fd, o.err.message, w.message_len) &&
	       write_all(fd, o.result, w.result_len);
	free(o.result);
	return sent;
}

/*
 * A worker: ask, and do the inputs of each request, until the socket
 * closes.  pool is the calling process's, as fork() copied it.
 */
static void worker(const struct run *main_run, struct pool *pool, int sock, int out)
{
	struct run local = *main_run, *r = &local;
	struct request q;
	uint64_t i;

	local.seen = NULL; /* which link is taken is for the main process to say */
	local.elf = NULL;
	if (send(sock, "?", 1, MSG_NOSIGNAL) != 1)
		_exit(1);
	while (read_all(sock, &q, sizeof(q))) {
		/* The next run's ask: the answer comes while this one is done. */
		if (send(sock, "?", 1, MSG_NOSIGNAL) != 1)
			_exit(1); /* the main process is gone */
		for (i = q.first; i - q.first < q.count && i < r->pl->count; i++)
			if (!send_outcome(r, i, out))
				_exit(1);
	}
	free(pool); /* not needed here: a leak checker need not see it lost */
	/* _exit() skips LeakSanitizer's check at exit: a sanitized build asks for it. */
	if (__lsan_do_leak_check)
		__lsan_do_leak_check();
	_exit(0);
}

/* Read input i's outcome from rd; false when its worker is gone. */
static bool receive(size_t i, struct reader *rd, struct outcome *o)
{
	struct wire w;

	memset(o, 0, sizeof(*o));
	if (!read_from(rd, &w, sizeof(w)) || w.index != i ||
	    w.message_len >= sizeof(o->err.message))
		return false;
	o->rc = w.rc;
	o->quiet = w.quiet;
	o->gone = w.gone;
	o->archive = w.archive;
	o->has_id = w.has_id;
	o->dev = w.dev;
	o->ino = w.ino;
	o->err.code = (enum ep_errcode)w.code;
	if (!read_from(rd, o->err.message, w.message_len))
		return false;
	o->err.message[w.message_len] = '\0';
	if (w.rc == 0 && w.result_len) {
		o->result = malloc(w.result_len);
		if (!o->result || !read_from(rd, o->result, w.result_len)) {
			free(o->result);
			o->result = NULL;
			return false;
		}
		o->result_len = w.result_len;
	}
	return true;
}

/* Worker k asks no more: it is gone, or it is to go. */
static void hang_up(struct pool *p, unsigned int k)
{
	if (p->sock[k] >= 0)
		close(p->sock[k]);
	p->sock[k] = -1;
	p->asks[k] = 0;
}

/* Take in worker k's asks (one byte each). */
static void take_asks(struct pool *p, unsigned int k)
{
	char asks[16];
	ssize_t n;

	n = recv(p->sock[k], asks, sizeof(asks), MSG_DONTWAIT);
	if (n > 0)
		p->asks[k] += (unsigned int)n;
	else if (n == 0 || (errno != EAGAIN && errno != EINTR))
		hang_up(p, k);
}

/* Answer the asks with the next inputs, within WINDOW of base, the next to emit. */
static void hand_out(struct pool *p, const struct run *r, size_t base)
{
	struct request q;
	unsigned int k;
	size_t j;

	for (k = 0; k < p->started; k++) {
		while (p->asks[k] && p->next < r->pl->count) {
			q.first = p->next;
			q.count = r->pl->count - p->next;
			if (q.count > BATCH)
				q.count = BATCH;
			if (q.first + q.count > base + WINDOW)
				return;
			/* A socket, for MSG_NOSIGNAL: a worker gone is no SIGPIPE here. */
			if (send(p->sock[k], &q, sizeof(q), MSG_NOSIGNAL) != (ssize_t)sizeof(q)) {
				hang_up(p, k); /* its pipe tells what it died on */
				break;
			}
			for (j = q.first; j < q.first + q.count; j++)
				p->owner[j % WINDOW] = (int)k;
			p->asks[k]--;
			p->next += q.count;
		}
	}
}

/*
 * Input i's outcome into o from the worker that has it, answering the
 * workers' asks while waiting; false when the calling process is to do i:
 * its worker died on an input before it, or no worker is left to ask.
 */
static bool take(struct pool *p, const struct run *r, size_t i, struct outcome *o)
{
	struct pollfd pfd[EP_JOBS_MAX + 1];
	unsigned int who[EP_JOBS_MAX + 1], n, m, k;
	int owner = -1;
	char *clean;

	for (;;) {
		/* The asks taken in so far, as far as the window has moved. */
		hand_out(p, r, i);
		n = 0;
		if (i < p->next) {
			owner = p->owner[i % WINDOW];
			if (owner < 0)
				return false;
			if (p->in[owner].start < p->in[owner].end)
				break; /* read ahead already */
			pfd[n++] = (struct pollfd){ .fd = p->in[owner].fd, .events = POLLIN };
		}
		for (k = 0; k < p->started; k++) {
			if (p->sock[k] < 0)
				continue;
			who[n] = k;
			pfd[n++] = (struct pollfd){ .fd = p->sock[k], .events = POLLIN };
		}
		if (n == 0) { /* every worker gone */
			p->next = i + 1;
			return false;
		}
		if (poll(pfd, n, -1) < 0 && errno != EINTR)
			break; /* for good: wait on the pipe alone */
		for (m = owner < 0 ? 0 : 1; m < n; m++)
			if (pfd[m].revents)
				take_asks(p, who[m]);
		if (owner >= 0 && pfd[0].revents)
			break;
	}
	if (owner < 0) {
		p->next = i + 1;
		return false;
	}
	if (receive(i, &p->in[owner], o))
		return true;
	/* It died on this input (a bug): report it; the calling process does its others. */
	hang_up(p, (unsigned int)owner);
	for (k = 0; k < WINDOW; k++)
		if (p->owner[k] == owner)
			p->owner[k] = -1;
	free(o->result);
	*o = (struct outcome){ .rc = -EP_EIO };
	ep_error_set(&o->err, EP_EIO, "%s: the worker process analysing it died",
		     shown_name(r->pl->paths[i], &clean));
	free(clean);
	return true;
}

/* Close the channels (a worker reads EOF and exits) and wait for the workers. */
static void stop_workers(struct pool *p)
{
	unsigned int k;

	for (k = 0; k < p->started; k++) {
		hang_up(p, k);
		close(p->in[k].fd);
		waitpid(p->pid[k], NULL, 0);
	}
	p->started = 0;
}

/* Start up to jobs workers, each with a socket and a pipe.  Returns how many started. */
static unsigned int start_workers(const struct run *r, struct pool *p, unsigned int jobs)
{
	unsigned int k, j;
	int sv[2], out[2];

	for (k = 0; k < jobs; k++) {
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
			break;
		if (pipe2(out, O_CLOEXEC) != 0) {
			close(sv[0]);
			close(sv[1]);
			break;
		}
		/* A big pipe lets a worker run far ahead past a slow input of another. */
		fcntl(out[1], F_SETPIPE_SZ, 1 << 20);
		p->pid[k] = fork();
		if (p->pid[k] == 0) {
			for (j = 0; j < k; j++) {
				close(p->sock[j]);
				close(p->in[j].fd);
			}
			close(sv[0]);
			close(out[0]);
			worker(r, p, sv[1], out[1]);
		}
		close(sv[1]);
		close(out[1]);
		if (p->pid[k] < 0) {
			close(sv[0]);
			close(out[0]);
			break;
		}
		p->sock[k] = sv[0];
		p->in[k].fd = out[0];
	}
	return k;
}

/*
 * Input i's outcome o, neither a file taken before nor an archive, into the
 * report and the run's counts: one passed over is skipped, any other makes
 * its PATH one that held an ELF file (*found; found may be NULL).  Returns
 * finish()'s answer: false when it failed.
 */
static bool finish_counted(const struct run *r, size_t i, struct outcome *o, bool *found)
{
	if (!o->quiet) {
		note_elf(r, i, o);
		if (found)
			*found = true;
	}
	if (o->quiet && !o->gone) {
		char *clean;
		const char *shown = shown_name(r->pl->paths[i], &clean);

		nskipped++;
		ep_progress_clear(r->progress);
		note_skipped(shown, &o->err);
		free(clean);
	}
	return finish(r, i, o);
}

/*
 * Input i, found by a walk, is an ar archive: list its members and analyse
 * them here, in order, in its place.  *found (may be NULL) becomes true
 * when one is ELF.  Returns false when any failed.
 */
static bool expand_here(const struct run *r, size_t i, bool *found)
{
	struct ep_pathlist sub = { 0 };
	struct run members = *r;
	const char *path = r->pl->paths[i];
	struct outcome o = { 0 };
	bool ok = true;
	size_t j;

	members.pl = &sub;
	if (ep_pathlist_expand(&sub, &path, 1, &o.err)) {
		o.rc = -(int)o.err.code;
		ep_pathlist_free(&sub);
		return finish(r, i, &o);
	}
	for (j = 0; j < sub.count; j++) {
		process(&members, j, &o);
		/*
		 * A member read before (its archive was also named, or a thin
		 * archive names one file twice) is an ELF file all the same: no
		 * "no ELF files found" for the PATH holding the archive, if it
		 * was ELF then.
		 */
		if (o.dup && found && read_as_elf(&members, j, &o))
			*found = true;
		if (o.dup || o.archive) /* it changed since: it was no archive after all */
			continue;
		if (!finish_counted(&members, j, &o, found))
			ok = false;
	}
	ep_pathlist_free(&sub);
	return ok;
}

/*
 * A run's PATH operands, each expanded to a run of inputs of its own, so
 * that a PATH which yields no ELF file at all (an empty or mistyped tree)
 * can be named once every file has been seen.
 */
struct operands {
	size_t n;	   /* PATHs */
	size_t *ends;	   /* PATH a's inputs end before input ends[a] */
	bool *found;	   /* PATH a held an ELF file */
	bool *read_before; /* PATH a held files read before under another PATH or name */
};

/*
 * Expand paths[0..n) into pl one PATH at a time, noting in ops where each
 * one's inputs end.  Returns EP_EXIT_OK, or EP_EXIT_FAILED after a message
 * (ops and pl then hold what was done, for operands_free() and
 * ep_pathlist_free()).
 */
static int operands_expand(struct operands *ops, struct ep_pathlist *pl, const char *const *paths,
			   size_t n)
{
	struct ep_error err = { 0 };
	size_t a;

	ops->n = n;
	ops->ends = calloc(n ? n : 1, sizeof(*ops->ends));
	ops->found = calloc(n ? n : 1, sizeof(*ops->found));
	ops->read_before = calloc(n ? n : 1, sizeof(*ops->read_before));
	if (!ops->ends || !ops->found || !ops->read_before) {
		fputs("elfplt: out of memory\n", stderr);
		return EP_EXIT_FAILED;
	}
	for (a = 0; a < n; a++) {
		if (ep_pathlist_expand(pl, paths + a, 1, &err)) {
			fprintf(stderr, "elfplt: %s\n", err.message);
			return EP_EXIT_FAILED;
		}
		ops->ends[a] = pl->count;
	}
	return EP_EXIT_OK;
}

static void operands_free(struct operands *ops)
{
	free(ops->ends);
	free(ops->found);
	free(ops->read_before);
}

/*
 * Name on stderr each PATH of paths[0..ops->n) that held no ELF file: an
 * error, so that an empty or mistyped tree cannot pass for a clean one (a
 * warning with allow_empty, --allow-empty).  Returns true when it printed
 * an error.
 */
static bool operands_report_empty(const struct operands *ops, const char *const *paths,
				  bool allow_empty)
{
	bool failed = false;
	char *clean;
	size_t a;

	for (a = 0; a < ops->n; a++) {
		if (ops->found[a])
			continue;
		/* A PATH inside another, or hard links: its files are not missing. */
		if (ops->read_before[a])
			fprintf(stderr,
				"elfplt: note: %s: no ELF files found that were not already "
				"read under another PATH or name\n",
				shown_name(paths[a], &clean));
		else if (allow_empty)
			fprintf(stderr, "elfplt: warning: %s: no ELF files found\n",
				shown_name(paths[a], &clean));
		else {
			fprintf(stderr,
				"elfplt: %s: no ELF files found (--allow-empty to accept "
				"that)\n",
				shown_name(paths[a], &clean));
			failed = true;
		}
		free(clean);
	}
	return failed;
}

/*
 * The workers for r's inputs: jobs of them (0: ep_jobs_default()), at most
 * EP_JOBS_MAX and one per input.  Returns the pool, or NULL for the calling
 * process to do everything: one job, or not all of the workers started.
 */
static struct pool *pool_start(const struct run *r, unsigned int jobs, size_t first)
{
	struct pool *pool;

	if (!jobs)
		jobs = ep_jobs_default();
	if (jobs > EP_JOBS_MAX)
		jobs = EP_JOBS_MAX;
	if (jobs > r->pl->count - first)
		jobs = (unsigned int)(r->pl->count - first);
	if (jobs <= 1)
		return NULL;
	pool = calloc(1, sizeof(*pool));
	if (!pool)
		return NULL;
	/* What is buffered must not be written again by a worker's copy. */
	fflush(NULL);
	pool->next = first; /* the inputs before it are done here already */
	pool->started = start_workers(r, pool, jobs);
	if (pool->started < jobs) {
		/* Fewer than asked for: do without, as with one job. */
		stop_workers(pool);
		free(pool);
		return NULL;
	}
	return pool;
}

/*
 * Input i, of PATH a of ops (ops->n: of none), in its turn: its outcome
 * from the worker that has it, or done here; then passed over (a file
 * taken before), analysed member by member (an archive a walk found) or
 * emitted.  Returns false when it, or a member of it, failed.
 */
static bool run_one(const struct run *r, struct pool *pool, size_t i, struct operands *ops,
		    size_t a)
{
	struct outcome o;
	bool held = false, ok;

	if (pool && take(pool, r, i, &o)) {
		/* A worker's: the main process knows which link was taken. */
		if (taken_before(r, i, &o))
			o.dup = true;
	} else {
		/* One job, or a worker died: here, in order. */
		process(r, i, &o);
	}
	if (o.dup) {
		/* Read before, and ELF then: not missing (a non-ELF file is no ELF file twice). */
		if (a < ops->n && !is_report_file(&o) && read_as_elf(r, i, &o))
			ops->read_before[a] = true;
		free(o.result);
		return true;
	}
	if (!o.archive)
		return finish_counted(r, i, &o, a < ops->n ? &ops->found[a] : NULL);
	ok = expand_here(r, i, &held);
	if (held) {
		note_elf(r, i, &o); /* the archive, for a hard link to it */
		if (a < ops->n)
			ops->found[a] = true;
	}
	return ok;
}

/*
 * The default -j is chosen from the work: the first PROBE_INPUTS inputs are
 * done here, timed, and worker processes start for the rest only when an
 * input took at least PARALLEL_MIN_NS on average and the rest would take
 * at least PARALLEL_MIN_REST_NS so.  Measured on a 2-CPU VM (issue 16,
 * bench/speed.sh), once one file no longer cost a munmap(): 2 workers made
 * the 6.1 tree's plain modules (60 us each in text, 170 us in JSON) 1.3x
 * and 1.5x faster than one process, and .ko.xz modules (1 ms each to
 * decode) 1.8x; what a worker costs an input (its result through a pipe)
 * is some microseconds, so only inputs quicker than that stay here.
 */
#define PROBE_INPUTS	     32
#define PARALLEL_MIN_NS	     (20 * 1000)
#define PARALLEL_MIN_REST_NS ((uint64_t)200 * 1000 * 1000)

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * After the probe: whether the rest, count - done inputs, is worth workers.
 * ELFPLT_JOBS_MIN_NS sets PARALLEL_MIN_NS, for the tests to have workers
 * start after the probe (0: always, whatever the rest would take).
 */
static bool worth_workers(uint64_t probe_ns, size_t done, size_t count)
{
	const char *env = getenv("ELFPLT_JOBS_MIN_NS");
	uint64_t per = done ? probe_ns / done : 0, min = PARALLEL_MIN_NS;

	if (env && *env) {
		min = strtoull(env, NULL, 10);
		if (!min)
			return true;
	}
	return per >= min && (count - done) * per >= PARALLEL_MIN_REST_NS;
}

int ep_for_each_image_jobs(const struct ep_global *g, const char *const *paths, size_t n,
			   bool populate, ep_compute_fn compute, ep_emit_fn emit,
			   ep_error_fn on_error, void *ctx)
{
	struct ep_pathlist pl = { 0 };
	struct operands ops = { 0 };
	struct ep_progress progress = { 0 };
	struct ep_inode_set *seen = NULL, *elf = NULL;
	struct run r = {
		&pl, populate, compute, emit, on_error, ctx, g->out, &progress, &seen, &elf
	};
	struct pool *pool = NULL;
	bool probe;
	uint64_t t0 = 0;
	int status;
	size_t i, a = 0;

	nskipped = 0;
	json_decref(skipped_list);
	skipped_list = NULL;
	verbose = g->verbose;
	status = operands_expand(&ops, &pl, paths, n);
	if (status)
		goto out;
	/* -j given: that many from the start; the default: from the work. */
	probe = !g->jobs && ep_jobs_default() > 1 && pl.count > PROBE_INPUTS;
	if (probe)
		t0 = now_ns();
	else
		pool = pool_start(&r, g->jobs, 0);
	ep_progress_start(&progress, g, pl.count);
	for (i = 0; i < pl.count; i++) {
		while (a < n && i >= ops.ends[a])
			a++;
		if (probe && i == PROBE_INPUTS) {
			probe = false;
			if (worth_workers(now_ns() - t0, i, pl.count))
				pool = pool_start(&r, 0, i);
		}
		if (!run_one(&r, pool, i, &ops, a))
			status = EP_EXIT_FAILED;
		ep_progress_update(&progress, i + 1);
	}
	ep_progress_clear(&progress);
	if (pool)
		stop_workers(pool);
	free(pool);
	if (operands_report_empty(&ops, paths, g->allow_empty))
		status = EP_EXIT_FAILED;
out:
	operands_free(&ops);
	ep_pathlist_free(&pl);
	ep_inode_set_free(seen);
	ep_inode_set_free(elf);
	return status;
}
