/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cmd/elfplt.h"

int ep_global_option(struct ep_global *g, int c, const char *arg)
{
	switch (c) {
	case 0x100:
		if (strcmp(arg, "text") == 0)
			g->format = EP_FORMAT_TEXT;
		else if (strcmp(arg, "json") == 0)
			g->format = EP_FORMAT_JSON;
		else {
			ep_usage_error(g->cmd, "--format takes text or json, not '%s'", arg);
			return -1;
		}
		return 1;
	case 0x101:
		g->format = EP_FORMAT_JSON;
		return 1;
	case 'o':
		g->output = arg;
		return 1;
	}
	return 0;
}

int ep_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("elfplt: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (cmd)
		fprintf(stderr, "Try 'elfplt %s --help' or 'elfplt help %s'.\n", cmd, cmd);
	else
		fputs("Try 'elfplt --help'.\n", stderr);
	return EP_EXIT_USAGE;
}

int ep_bad_option(const char *cmd, int c, char **argv)
{
	if (c == ':')
		return ep_usage_error(cmd, "option '%s' needs an argument", argv[optind - 1]);
	if (optopt)
		return ep_usage_error(cmd, "unknown option '-%c'", optopt);
	return ep_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
}

/* The first bytes of path are an ELF or compression magic: a walk takes it. */
static bool looks_like_input(const char *path)
{
	unsigned char head[8];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n < SELFMAG)
		return false;
	return memcmp(head, ELFMAG, SELFMAG) == 0 ||
	       ep_compression_sniff(head, (size_t)n) != EP_COMP_NONE;
}

/* dir contains file (both resolved): "/a/b" contains "/a/b/c/d". */
static bool contains(const char *dir, const char *file)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return true;
	return strncmp(dir, file, n) == 0 && file[n] == '/';
}

/*
 * Opening the output truncates it: refuse an output that is one of the
 * inputs, or an ELF file inside an input directory that the walk would take.
 */
static bool output_is_input(const char *output, const struct ep_paths *in)
{
	struct stat ost, st;
	char *oreal, *dreal;
	bool clash = false;
	size_t i;

	if (stat(output, &ost) != 0 || !S_ISREG(ost.st_mode))
		return false;	/* nothing there yet, or a device such as /dev/null */
	oreal = realpath(output, NULL);
	for (i = 0; i < in->n && !clash; i++) {
		if (stat(in->v[i], &st) != 0)
			continue;
		if (st.st_dev == ost.st_dev && st.st_ino == ost.st_ino) {
			clash = true;
		} else if (S_ISDIR(st.st_mode) && oreal) {
			dreal = realpath(in->v[i], NULL);
			clash = dreal && contains(dreal, oreal) && looks_like_input(output);
			free(dreal);
		}
	}
	free(oreal);
	return clash;
}

int ep_output_open(struct ep_global *g, const struct ep_paths *in)
{
	if (!g->output || strcmp(g->output, "-") == 0) {
		g->out = stdout;
		return 0;
	}
	if (output_is_input(g->output, in))
		return ep_usage_error(g->cmd, "-o %s would overwrite an input; elfplt never "
				      "writes to its inputs", g->output);
	g->out = fopen(g->output, "w");
	if (!g->out) {
		fprintf(stderr, "elfplt: cannot write %s: %s\n", g->output, strerror(errno));
		return EP_EXIT_FAILED;
	}
	return 0;
}

int ep_output_close(struct ep_global *g)
{
	const char *name = g->out == stdout ? "standard output" : g->output;
	int bad;

	if (!g->out)
		return 0;
	bad = fflush(g->out) != 0 || ferror(g->out);
	if (g->out != stdout)
		bad |= fclose(g->out) != 0;
	g->out = NULL;
	if (bad) {
		fprintf(stderr, "elfplt: error writing %s: %s\n", name, strerror(errno));
		return EP_EXIT_FAILED;
	}
	return 0;
}

int ep_show_man_page(const char *page, int section)
{
	char local[4096];
	struct stat st;

	/* Uninstalled, from the build tree: read the page just built. */
	snprintf(local, sizeof(local), "%s/man/%s.%d", ELFPLT_BUILDDIR, page, section);
	fflush(stdout);
	if (stat(local, &st) == 0)
		execlp("man", "man", "-l", local, (char *)NULL);
	else
		execlp("man", "man", section == 7 ? "7" : "1", page, (char *)NULL);
	fprintf(stderr, "elfplt: cannot run man to show %s(%d): %s\n", page, section,
		strerror(errno));
	return EP_EXIT_FAILED;
}

int ep_show_man(const char *cmd)
{
	char page[64];

	snprintf(page, sizeof(page), cmd ? "elfplt-%s" : "elfplt", cmd);
	return ep_show_man_page(page, 1);
}

/*
 * The walk lists every regular file without opening it (lib/input.h): one it
 * found that is not ELF, by its magic bytes after any decompression, or that
 * is gone is passed over quietly, as a tree holds other files too.  One with
 * the ELF magic is an ELF file, and its faults are reported; so is one we may
 * not read (EACCES, EPERM): it could be a module, not to vanish unseen.
 */
static bool pass_over(bool walked, const char *path, const struct ep_blob *blob,
		      const struct ep_error *err)
{
	if (!walked)
		return false;
	if (err->code == EP_EIO)
		return access(path, R_OK) != 0 && errno != EACCES && errno != EPERM;
	if (err->code != EP_ENOTELF)
		return false;
	return !blob || blob->size < SELFMAG || memcmp(blob->bytes, ELFMAG, SELFMAG) != 0;
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

/* What one input came to, kept until its turn to be emitted. */
struct slot {
	bool done;		/* computed, not yet emitted */
	int rc;			/* 0, or a negative ep_errcode with err filled */
	bool quiet;		/* a walked file that is not ELF: pass over */
	void *result;		/* compute()'s, when rc is 0 */
	struct ep_error err;
};

/*
 * The inputs shared between the threads, which claim them in order, and the
 * calling thread, which emits them in the same order and, rather than wait
 * for the next one to be done, claims and computes inputs itself: with jobs
 * threads in all, jobs - 1 workers are started.  No thread runs more than
 * window inputs ahead of the emitter, which bounds the memory results hold.
 */
struct pool {
	const struct ep_pathlist *pl;
	bool populate;
	ep_compute_fn compute;
	void *ctx;
	pthread_mutex_t lock;
	pthread_cond_t room;	/* workers wait here for the window to move */
	pthread_cond_t ready;	/* the emitter waits here for its next input */
	bool emitter_waiting;
	size_t next;		/* next input to claim */
	size_t emitted;		/* inputs emitted */
	size_t window;		/* slots */
	struct slot *slots;
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

/* Open input i, compute on it, close it: the part that runs on any thread. */
static void process(const struct pool *p, size_t i, struct slot *sl)
{
	const char *path = p->pl->paths[i];
	char *clean;
	const char *shown = shown_name(path, &clean);
	struct ep_blob blob;
	struct ep_image img;

	sl->result = NULL;
	sl->quiet = false;
	sl->rc = ep_blob_open(&blob, path, p->populate, &sl->err);
	if (sl->rc) {
		sl->quiet = pass_over(p->pl->walked[i], path, NULL, &sl->err);
		free(clean);
		return;
	}
	sl->rc = ep_image_open(&img, shown, blob.bytes, blob.size, &sl->err);
	if (sl->rc == 0) {
		sl->rc = p->compute(&img, &blob, p->ctx, &sl->result, &sl->err);
		ep_image_close(&img);
	} else {
		sl->quiet = pass_over(p->pl->walked[i], path, &blob, &sl->err);
	}
	ep_blob_close(&blob);
	free(clean);
}

/* With the lock held: claim the next input if the window allows; SIZE_MAX if not. */
static size_t claim(struct pool *p)
{
	if (p->next >= p->pl->count || p->next >= p->emitted + p->window)
		return SIZE_MAX;
	return p->next++;
}

/* Compute input i (claimed, lock not held) and mark it done. */
static void work_on(struct pool *p, size_t i)
{
	process(p, i, &p->slots[i % p->window]);
	pthread_mutex_lock(&p->lock);
	p->slots[i % p->window].done = true;
	if (i == p->emitted && p->emitter_waiting)
		pthread_cond_signal(&p->ready);
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	size_t i;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		while ((i = claim(p)) == SIZE_MAX && p->next < p->pl->count)
			pthread_cond_wait(&p->room, &p->lock);
		if (i == SIZE_MAX)
			break;
		pthread_mutex_unlock(&p->lock);
		work_on(p, i);	/* returns with the lock held */
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* On the calling thread: until input i is done, work on others or wait. */
static void await(struct pool *p, size_t i)
{
	struct slot *sl = &p->slots[i % p->window];
	size_t j;

	pthread_mutex_lock(&p->lock);
	while (!sl->done) {
		j = claim(p);
		if (j != SIZE_MAX) {
			pthread_mutex_unlock(&p->lock);
			work_on(p, j);
			continue;
		}
		p->emitter_waiting = true;
		pthread_cond_wait(&p->ready, &p->lock);
		p->emitter_waiting = false;
	}
	pthread_mutex_unlock(&p->lock);
}

/* Report input i's outcome; returns false when it failed. */
static bool finish(const struct pool *p, size_t i, struct slot *sl, ep_emit_fn emit,
		   ep_error_fn on_error)
{
	char *clean;
	const char *shown = shown_name(p->pl->paths[i], &clean);
	bool ok;

	if (sl->rc == 0)
		sl->rc = emit(shown, sl->result, p->ctx, &sl->err);
	ok = sl->rc == 0 || sl->quiet;
	if (!ok) {
		fprintf(stderr, "elfplt: %s\n", sl->err.message);
		on_error(shown, &sl->err, p->ctx);
	}
	free(clean);
	return ok;
}

int ep_for_each_image_jobs(const char *const *paths, size_t n, bool populate, unsigned int jobs,
			   ep_compute_fn compute, ep_emit_fn emit, ep_error_fn on_error,
			   void *ctx)
{
	struct ep_pathlist pl = { 0 };
	struct ep_error err = { 0 };
	struct pool p = { .pl = &pl, .populate = populate, .compute = compute, .ctx = ctx };
	pthread_t threads[EP_JOBS_MAX];
	unsigned int workers = 0, t;
	int status = EP_EXIT_OK;
	struct slot one;
	size_t i;

	if (ep_pathlist_expand(&pl, paths, n, &err)) {
		fprintf(stderr, "elfplt: %s\n", err.message);
		ep_pathlist_free(&pl);
		return EP_EXIT_FAILED;
	}
	if (jobs > EP_JOBS_MAX)
		jobs = EP_JOBS_MAX;
	if (jobs > pl.count)
		jobs = (unsigned int)pl.count;
	/* Threads need libelf set up before they start (see ep_libelf_init()). */
	ep_libelf_init();
	/*
	 * The window must outlast the biggest file: while one thread spends a
	 * millisecond on xfs.ko the others run through dozens of small modules,
	 * and with 16 slots a thread they stalled on it (2,000 waits per run).
	 */
	if (jobs > 1) {
		p.window = 128 * (size_t)jobs;
		p.slots = calloc(p.window, sizeof(*p.slots));
	}
	if (p.slots) {
		pthread_mutex_init(&p.lock, NULL);
		pthread_cond_init(&p.room, NULL);
		pthread_cond_init(&p.ready, NULL);
		for (t = 1; t < jobs; t++)
			if (pthread_create(&threads[workers], NULL, worker, &p) == 0)
				workers++;
	}
	for (i = 0; i < pl.count; i++) {
		struct slot *sl = &one;

		if (workers) {
			sl = &p.slots[i % p.window];
			await(&p, i);
		} else {
			/* One job, or no thread would start: here, in order. */
			process(&p, i, sl);
		}
		if (!finish(&p, i, sl, emit, on_error))
			status = EP_EXIT_FAILED;
		if (workers) {
			pthread_mutex_lock(&p.lock);
			sl->done = false;
			p.emitted++;
			pthread_cond_broadcast(&p.room);
			pthread_mutex_unlock(&p.lock);
		}
	}
	for (t = 0; t < workers; t++)
		pthread_join(threads[t], NULL);
	if (p.slots) {
		pthread_mutex_destroy(&p.lock);
		pthread_cond_destroy(&p.room);
		pthread_cond_destroy(&p.ready);
		free(p.slots);
	}
	ep_pathlist_free(&pl);
	return status;
}

/* ep_for_each_image() on the one-job path: fn does its own output, in order. */
struct serial {
	ep_image_fn fn;
	ep_error_fn on_error;
	void *ctx;
};

static int serial_compute(struct ep_image *img, const struct ep_blob *blob, void *ctx,
			  void **result, struct ep_error *err)
{
	const struct serial *s = ctx;

	*result = NULL;
	return s->fn(img, blob, s->ctx, err);
}

static int serial_emit(const char *path, void *result, void *ctx, struct ep_error *err)
{
	(void)path;
	(void)result;
	(void)ctx;
	(void)err;
	return 0;
}

static void serial_error(const char *path, const struct ep_error *err, void *ctx)
{
	const struct serial *s = ctx;

	s->on_error(path, err, s->ctx);
}

int ep_for_each_image(const char *const *paths, size_t n, bool populate, ep_image_fn fn,
		      ep_error_fn on_error, void *ctx)
{
	struct serial s = { fn, on_error, ctx };

	return ep_for_each_image_jobs(paths, n, populate, 1, serial_compute, serial_emit,
				      serial_error, &s);
}

int ep_paths_get(struct ep_paths *in, const char *cmd, int argc, char **argv)
{
	struct utsname u;
	struct stat st;

	in->v = (const char *const *)argv + optind;
	in->n = optind < argc ? (size_t)(argc - optind) : 0;
	if (in->n)
		return 0;
	if (uname(&u) != 0)
		return ep_usage_error(cmd, "no PATH given and uname failed: %s", strerror(errno));
	snprintf(in->modules, sizeof(in->modules), "/lib/modules/%s", u.release);
	if (stat(in->modules, &st) != 0 || !S_ISDIR(st.st_mode))
		return ep_usage_error(cmd,
				      "no PATH given and %s does not exist; name a module, object or "
				      "directory, e.g. 'elfplt %s foo.ko'",
				      in->modules, cmd);
	fprintf(stderr, "elfplt: no PATH given: analysing the running kernel's modules in %s\n",
		in->modules);
	in->def[0] = in->modules;
	in->v = in->def;
	in->n = 1;
	return 0;
}
