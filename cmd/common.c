/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/elfplt.h"
#include "lib/archive.h"
#include "lib/blob.h"
#include "lib/decode.h"
#include "lib/inode-set.h"
#include "lib/load.h"
#include "lib/report.h"
#include "lib/walk.h"

/* -j N, --jobs N: 1 to EP_JOBS_MAX.  Returns 0, or -1 after a usage error. */
static int parse_jobs(struct ep_global *g, const char *arg)
{
	unsigned long jobs;
	char *end;

	jobs = strtoul(arg, &end, 10);
	if (!*arg || *end || jobs == 0 || jobs > EP_JOBS_MAX || arg[0] == '-') {
		ep_usage_error(g->cmd, "--jobs takes a number from 1 to %d, not '%s'", EP_JOBS_MAX,
			       arg);
		return -1;
	}
	g->jobs = (unsigned int)jobs;
	return 0;
}

int ep_global_option(struct ep_global *g, int c, const char *arg)
{
	uint64_t size;

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
	case 'j':
		return parse_jobs(g, arg) ? -1 : 1;
	case 'q':
		g->quiet = true;
		return 1;
	case 0x102:
		if (ep_parse_size(arg, &size)) {
			ep_usage_error(
				g->cmd,
				"--max-size takes a number of bytes, optionally with K, M, G "
				"(KiB, MiB, GiB), not '%s'",
				arg);
			return -1;
		}
		/* One cap for whole files and for SHF_COMPRESSED sections alike. */
		ep_input_set_max_size(size);
		ep_section_decoded_max_set(size);
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

/*
 * Read the first 8 bytes of path into head, a regular file only (a device or
 * FIFO is never opened: ep_open_regular()).  Returns how many were read, or
 * -1 when none could be.
 */
static ssize_t read_head(const char *path, unsigned char head[8])
{
	struct stat st;
	ssize_t n;
	int fd;

	fd = ep_open_regular(path, &st);
	if (fd < 0)
		return -1;
	n = read(fd, head, 8);
	close(fd);
	return n;
}

/* The first bytes of path are an ELF, compression or ar magic: a walk takes it. */
static bool looks_like_input(const char *path)
{
	unsigned char head[8];
	ssize_t n = read_head(path, head);

	if (n < SELFMAG)
		return false;
	return memcmp(head, ELFMAG, SELFMAG) == 0 ||
	       ep_compression_sniff(head, (size_t)n) != EP_COMP_NONE ||
	       (n == 8 && (memcmp(head, EP_ARMAG, 8) == 0 || memcmp(head, EP_THINMAG, 8) == 0));
}

/* path is the file ost describes, by any of its names (by inode: a hard link is the same file). */
static bool same_file(const char *path, const struct stat *ost)
{
	struct stat st;

	return stat(path, &st) == 0 && st.st_dev == ost->st_dev && st.st_ino == ost->st_ino;
}

/* The first 8 bytes of path are a thin archive's magic. */
static bool is_thin_archive(const char *path)
{
	unsigned char head[8];

	return read_head(path, head) == 8 && memcmp(head, EP_THINMAG, 8) == 0;
}

/*
 * Whether the run of pl (the inputs, expanded as the run expands them) reads
 * the file ost describes: an archive member's file (a thin archive's members
 * are files of their own, named in it: inputs as much as the archive), a
 * walked file when walked_too (the output looks like an input: a walk
 * passes over anything else), or a member of a thin archive a walk found
 * (the run lists those when it opens the archive).  When listing runs out
 * of memory, say so: better refuse an output than destroy an input.
 */
static bool list_reads(const struct ep_pathlist *pl, const struct stat *ost, bool walked_too)
{
	struct ep_pathlist sub = { 0 };
	struct ep_error err;
	const char *path;
	bool found = false;
	size_t i;

	for (i = 0; i < pl->count && !found; i++) {
		path = pl->paths[i];
		if (pl->members[i].archive) {
			found = same_file(ep_pathlist_file(pl, i), ost);
		} else if (pl->walked[i]) {
			found = walked_too && same_file(path, ost);
			if (!found && is_thin_archive(path)) {
				found = ep_pathlist_expand(&sub, &path, 1, &err) != 0 ||
					list_reads(&sub, ost, false);
				ep_pathlist_free(&sub);
			}
		}
	}
	return found;
}

/*
 * Opening the output truncates it: refuse an output that is one of the
 * inputs, a member file of a thin archive among them, or an ELF file that
 * the walk of an input directory would take.
 */
static bool output_is_input(const char *output, const struct ep_paths *in)
{
	struct ep_pathlist pl = { 0 };
	struct ep_error err;
	struct stat ost;
	bool clash = false;
	size_t i;

	if (stat(output, &ost) != 0 || !S_ISREG(ost.st_mode))
		return false; /* nothing there yet, or a device such as /dev/null */
	for (i = 0; i < in->n && !clash; i++)
		clash = same_file(in->v[i], &ost);
	if (!clash) {
		clash = ep_pathlist_expand(&pl, in->v, in->n, &err) != 0 ||
			list_reads(&pl, &ost, looks_like_input(output));
		ep_pathlist_free(&pl);
	}
	return clash;
}

/* stdio's buffer for the report when it does not go to a terminal. */
static char out_buffer[1 << 18];

/*
 * stdio's 4 KiB buffer made a write(2) per 4 KiB: 10,000 of them for the
 * module tree's JSON.  A terminal keeps its line buffering.  glibc takes
 * the size only with a buffer, which must outlive the stream.
 */
static void set_out_buffer(FILE *out)
{
	if (!isatty(fileno(out)))
		setvbuf(out, out_buffer, _IOFBF, sizeof(out_buffer));
}

/* The report's file, when it is a regular file: a walk passes over it. */
static struct {
	bool set;
	uint64_t dev, ino;
} report_file;

/*
 * Note which file the report goes to (-o FILE, or standard output sent to a
 * file), so that a walk that meets it leaves it out: the report must not
 * count itself (as a skipped file) depending on where it is written.
 */
static void note_report_file(FILE *out)
{
	struct stat st;

	report_file.set = fstat(fileno(out), &st) == 0 && S_ISREG(st.st_mode);
	report_file.dev = st.st_dev;
	report_file.ino = st.st_ino;
}

int ep_output_open(struct ep_global *g, const struct ep_paths *in)
{
	if (!g->output || strcmp(g->output, "-") == 0) {
		g->out = stdout;
		set_out_buffer(g->out);
		note_report_file(g->out);
		return 0;
	}
	if (output_is_input(g->output, in))
		return ep_usage_error(g->cmd,
				      "-o %s would overwrite an input; elfplt never "
				      "writes to its inputs",
				      g->output);
	g->out = fopen(g->output, "w");
	if (!g->out) {
		fprintf(stderr, "elfplt: cannot write %s: %s\n", g->output, strerror(errno));
		return EP_EXIT_FAILED;
	}
	set_out_buffer(g->out);
	note_report_file(g->out);
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

int ep_render_text(void (*print)(FILE *f, const void *arg), const void *arg, char **out,
		   size_t *out_len)
{
	FILE *f;

	*out = NULL;
	*out_len = 0;
	f = open_memstream(out, out_len);
	if (!f)
		return -EP_ENOMEM;
	print(f, arg);
	if (fclose(f) != 0) {
		free(*out);
		*out = NULL;
		*out_len = 0;
		return -EP_ENOMEM;
	}
	return 0;
}

int ep_render_json(json_t *o, char **out, size_t *out_len)
{
	*out = NULL;
	*out_len = 0;
	if (o)
		*out = ep_json_dump_at(o, 2, out_len);
	json_decref(o);
	if (!*out) {
		*out_len = 0;
		return -EP_ENOMEM;
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
 * The walk lists every regular file without analysing it (lib/input.h): one
 * it found that is not ELF, by its magic bytes after any decompression, or
 * that is gone is passed over quietly, as a tree holds other files too; so
 * is an archive member that is not ELF.  One with the ELF magic is an ELF
 * file, and its faults are reported; so is one we may not read (EACCES,
 * EPERM) or not even name (a path over PATH_MAX): it could be a module, not
 * to vanish unseen; and a thin archive's member file that is missing.
 */
static bool pass_over(const struct ep_pathlist *pl, size_t i, const struct ep_blob *blob,
		      const struct ep_error *err)
{
	if (!pl->walked[i])
		return false;
	if (err->code == EP_EIO && !pl->members[i].archive) /* gone since the walk, and only that */
		return access(pl->paths[i], F_OK) != 0 && (errno == ENOENT || errno == ENOTDIR);
	if (err->code != EP_ENOTELF)
		return false;
	return !blob || blob->size < SELFMAG || memcmp(blob->bytes, ELFMAG, SELFMAG) != 0;
}

/* The inputs passed over in the last run. */
static uint64_t nskipped;

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

/*
 * The progress bar: one line on stderr, "[####......]  N/TOTAL files  P%
 * R files/s", redrawn in place with '\r' by the calling process only.  It
 * shows on a terminal (stderr) only, for a run of more than one file, and
 * only once the run has taken PROGRESS_DELAY_NS: a quick run stays silent.
 * ELFPLT_PROGRESS_DELAY_MS sets that delay, for the tests to see a bar on a
 * few small files.  A bar on the line is erased (\r, then ESC [ K: erase to
 * the end of the line) before any message, so none is printed after half a
 * bar, and before the loop returns.
 */
#define PROGRESS_DELAY_NS  500000000ull /* about half a second */
#define PROGRESS_PERIOD_NS 100000000ull /* at most 10 redraws a second */
#define PROGRESS_BAR	   24		/* characters between the brackets */

struct progress {
	bool on;	   /* may draw: stderr a terminal, more than one file, no --quiet */
	bool shown;	   /* a bar is on stderr's line now */
	bool out_tty;	   /* the report goes to a terminal too */
	size_t total;	   /* files in the run */
	uint64_t start_ns; /* CLOCK_MONOTONIC */
	uint64_t next_ns;  /* no bar, or no redraw, before this */
};

static void progress_start(struct progress *p, const struct ep_global *g, size_t total)
{
	const char *env = getenv("ELFPLT_PROGRESS_DELAY_MS");
	uint64_t delay_ns = PROGRESS_DELAY_NS;
	char *end;

	memset(p, 0, sizeof(*p));
	p->total = total;
	p->out_tty = g->out && isatty(fileno(g->out));
	/*
	 * JSON on a terminal leaves lines half written between files (the comma
	 * comes with the next one): a bar there would overwrite them.
	 */
	p->on = !g->quiet && total > 1 && isatty(STDERR_FILENO) &&
		!(p->out_tty && g->format == EP_FORMAT_JSON);
	if (env && *env) {
		unsigned long ms = strtoul(env, &end, 10);

		if (!*end)
			delay_ns = (uint64_t)ms * 1000000;
	}
	p->start_ns = ep_monotonic_ns();
	p->next_ns = p->start_ns + delay_ns;
}

/* Erase the bar, if one is on the line. */
static void progress_clear(struct progress *p)
{
	if (!p->shown)
		return;
	fputs("\r\033[K", stderr);
	p->shown = false;
}

/* done of total files are through: redraw the bar if it is time. */
static void progress_update(struct progress *p, size_t done)
{
	char bar[PROGRESS_BAR + 1], line[160];
	uint64_t now, rate, elapsed;
	struct winsize ws;
	size_t width = 80, fill, len;

	if (!p->on || done >= p->total)
		return;
	now = ep_monotonic_ns();
	if (now < p->next_ns)
		return;
	p->next_ns = now + PROGRESS_PERIOD_NS;
	elapsed = now - p->start_ns;
	rate = elapsed ? (uint64_t)((double)done * 1e9 / (double)elapsed) : 0;
	fill = done * PROGRESS_BAR / p->total;
	memset(bar, '#', fill);
	memset(bar + fill, '.', PROGRESS_BAR - fill);
	bar[PROGRESS_BAR] = '\0';
	len = (size_t)snprintf(line, sizeof(line),
			       "\r[%s] %zu/%zu files %3zu%% %" PRIu64 " files/s", bar, done,
			       p->total, done * 100 / p->total, rate);
	if (len >= sizeof(line))
		len = sizeof(line) - 1;
	/* A line as wide as the terminal wraps, and '\r' would go back to the wrong one. */
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		width = ws.ws_col;
	if (len > width) /* the '\r' takes no column */
		len = width;
	memcpy(line + len, "\033[K", 4);
	fputs(line, stderr);
	p->shown = true;
}

/* What one input came to, until its turn to be emitted. */
struct outcome {
	int rc;	      /* 0, or a negative ep_errcode with err filled */
	bool quiet;   /* a walked file that is not ELF: pass over */
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
	FILE *out;		    /* the report */
	struct progress *progress;  /* the calling process's; workers never draw */
	struct ep_inode_set **seen; /* the files taken so far; NULL in a worker */
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

/*
 * In the main process, in input order: whether input i, which opened as
 * o says, is a file the walk reached before by another hard link (the
 * first name in the walk's order is the one reported).  A named file is
 * always taken, and marks the file as taken.  The report's own file, found
 * by a walk, counts as taken too (in a worker as well): it is no input.
 */
static bool is_report_file(const struct outcome *o)
{
	return o->has_id && report_file.set && o->dev == report_file.dev &&
	       o->ino == report_file.ino;
}

static bool taken_before(const struct run *r, size_t i, const struct outcome *o);

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

static bool taken_before(const struct run *r, size_t i, const struct outcome *o)
{
	if (r->pl->walked[i] && is_report_file(o))
		return true;
	return o->has_id &&
	       ep_inode_set_add_at(seen_set(r), o->dev, o->ino, id_offset(r, i)) == 1 &&
	       r->pl->walked[i];
}

/*
 * Input i, walked or an archive's member, is a file taken before, by
 * stat(): it is passed over without being opened or decoded again.  (What
 * opens is checked again by its fstat() identity, in taken_before().)
 */
static bool taken_unopened(const struct run *r, size_t i, struct outcome *o)
{
	struct stat st;

	if (!r->pl->walked[i] || r->pl->members[i].error ||
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
		o->quiet = pass_over(r->pl, i, NULL, &o->err);
		free(clean);
		return;
	}
	o->has_id = true;
	o->dev = blob.st_dev;
	o->ino = blob.st_ino;
	o->dup = taken_before(r, i, o);
	/* The walk lists files unopened: an archive among them shows here. */
	o->archive = r->pl->walked[i] && !r->pl->members[i].archive &&
		     blob.compression == EP_COMP_NONE && ep_is_archive(blob.bytes, blob.size);
	if (o->dup || o->archive) {
		ep_blob_close(&blob);
		free(clean);
		return;
	}
	o->rc = ep_image_open(&img, shown, blob.bytes, blob.size, &o->err);
	if (o->rc == 0) {
		o->rc = r->compute(&img, &blob, r->ctx, &o->result, &o->result_len, &o->err);
		ep_image_close(&img);
	} else {
		o->quiet = pass_over(r->pl, i, &blob, &o->err);
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

/* Report input i's outcome and free its result; returns false when it failed. */
static bool finish(const struct run *r, size_t i, struct outcome *o)
{
	char *clean;
	const char *shown = shown_name(r->pl->paths[i], &clean);
	bool ok;

	if (o->rc == 0) {
		/* The report and the bar on one terminal: the report's lines go first. */
		if (r->progress->out_tty)
			progress_clear(r->progress);
		o->rc = r->emit(shown, o->result, o->result_len, r->ctx, &o->err);
		if (r->progress->out_tty)
			fflush(r->out);
	}
	free(o->result);
	o->result = NULL;
	ok = o->rc == 0 || o->quiet;
	if (!ok) {
		progress_clear(r->progress);
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

static bool write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	ssize_t k;

	while (n) {
		k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		p += k;
		n -= (size_t)k;
	}
	return true;
}

static bool read_all(int fd, void *buf, size_t n)
{
	char *p = buf;
	ssize_t k;

	while (n) {
		k = read(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		p += k;
		n -= (size_t)k;
	}
	return true;
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
		 * "no ELF files found" for the PATH holding the archive.
		 */
		if (o.dup && found)
			*found = true;
		if (o.dup || o.archive) /* it changed since: it was no archive after all */
			continue;
		if (!o.quiet && found)
			*found = true;
		if (o.quiet)
			nskipped++;
		if (!finish(&members, j, &o))
			ok = false;
	}
	ep_pathlist_free(&sub);
	return ok;
}

int ep_for_each_image_jobs(const struct ep_global *g, const char *const *paths, size_t n,
			   bool populate, ep_compute_fn compute, ep_emit_fn emit,
			   ep_error_fn on_error, void *ctx)
{
	struct ep_pathlist pl = { 0 };
	struct ep_error err = { 0 };
	struct progress progress = { 0 };
	struct ep_inode_set *seen = NULL;
	struct run r = { &pl, populate, compute, emit, on_error, ctx, g->out, &progress, &seen };
	unsigned int jobs = g->jobs ? g->jobs : ep_jobs_default();
	struct pool *pool = NULL;
	int status = EP_EXIT_OK;
	struct outcome o;
	size_t i, a = 0, *ends;
	bool *found, *read_before;

	nskipped = 0;
	/*
	 * One PATH at a time, so that a PATH which yields no ELF file at all (an
	 * empty or mistyped tree) can be named once every file has been seen.
	 */
	ends = calloc(n ? n : 1, sizeof(*ends));
	found = calloc(n ? n : 1, sizeof(*found));
	read_before = calloc(n ? n : 1, sizeof(*read_before));
	if (!ends || !found || !read_before) {
		fputs("elfplt: out of memory\n", stderr);
		status = EP_EXIT_FAILED;
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (ep_pathlist_expand(&pl, paths + i, 1, &err)) {
			fprintf(stderr, "elfplt: %s\n", err.message);
			status = EP_EXIT_FAILED;
			goto out;
		}
		ends[i] = pl.count;
	}
	if (jobs > EP_JOBS_MAX)
		jobs = EP_JOBS_MAX;
	if (jobs > pl.count)
		jobs = (unsigned int)pl.count;
	if (jobs > 1)
		pool = calloc(1, sizeof(*pool));
	if (pool) {
		/* What is buffered must not be written again by a worker's copy. */
		fflush(NULL);
		pool->started = start_workers(&r, pool, jobs);
		if (pool->started < jobs) {
			/* Fewer than asked for: do without, as with one job. */
			stop_workers(pool);
			free(pool);
			pool = NULL;
		}
	}
	progress_start(&progress, g, pl.count);
	for (i = 0; i < pl.count; i++) {
		if (pool && take(pool, &r, i, &o)) {
			/* A worker's: the main process knows which link was taken. */
			if (taken_before(&r, i, &o))
				o.dup = true;
		} else {
			/* One job, or a worker died: here, in order. */
			process(&r, i, &o);
		}
		while (a < n && i >= ends[a])
			a++;
		if (o.dup) {
			if (a < n && !is_report_file(&o))
				read_before[a] = true;
			free(o.result);
		} else if (o.archive) {
			if (!expand_here(&r, i, a < n ? &found[a] : NULL))
				status = EP_EXIT_FAILED;
		} else {
			if (a < n && !o.quiet)
				found[a] = true;
			if (o.quiet)
				nskipped++;
			if (!finish(&r, i, &o))
				status = EP_EXIT_FAILED;
		}
		progress_update(&progress, i + 1);
	}
	progress_clear(&progress);
	if (pool)
		stop_workers(pool);
	for (a = 0; a < n; a++) {
		char *clean;

		if (found[a])
			continue;
		/* A PATH inside another, or hard links: its files are not missing. */
		if (read_before[a])
			fprintf(stderr,
				"elfplt: note: %s: no ELF files found that were not already "
				"read under another PATH or name\n",
				shown_name(paths[a], &clean));
		else
			fprintf(stderr, "elfplt: warning: %s: no ELF files found\n",
				shown_name(paths[a], &clean));
		free(clean);
	}
out:
	free(pool);
	free(ends);
	free(found);
	free(read_before);
	ep_pathlist_free(&pl);
	ep_inode_set_free(seen);
	return status;
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
		return ep_usage_error(
			cmd,
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

int ep_other_option(struct ep_global *g, int c, char **argv)
{
	if (c == ':' || c == '?')
		return ep_bad_option(g->cmd, c, argv);
	return ep_global_option(g, c, optarg) < 0 ? EP_EXIT_USAGE : 0;
}

int ep_inputs_and_output(struct ep_global *g, struct ep_paths *in, int argc, char **argv)
{
	if (ep_paths_get(in, g->cmd, argc, argv))
		return EP_EXIT_USAGE;
	return ep_output_open(g, in);
}
