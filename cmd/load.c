/* SPDX-License-Identifier: MIT */
/*
 * elfplt load: what bringing the chosen sections in by read-copy, by mmap
 * and by binutils' hybrid rule costs, in time, page faults and resident
 * memory.  Every run of every mode is a fresh process (this binary, exec'd
 * again as the hidden "__load-child" command), so it inherits nothing from
 * this one.  The child measures its load phase alone (snapshots just before
 * and after it, the peak reset in between), and an empty child measured the
 * same way is subtracted.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/elfplt.h"
#include "cmd/load.h"
#include "lib/load.h"
#include "lib/proc.h"
#include "lib/report.h"
#include "lib/top.h"

#define REPEAT_MAX 1000
/* The JSON note of a run with no section to load. */
#define EMPTY_NOTE "no sections to load: the figures are the noise of runs that load nothing"

/*
 * The figures of one run, each the child's load phase (end minus start), in
 * report units; every one but M_THRU then has the empty child's median
 * subtracted.  M_HWM..M_MAJFLT in the order of the start-up figures too.
 */
enum metric {
	M_WALL,
	M_USER,
	M_SYS,
	M_MINFLT,
	M_MAJFLT,
	M_HWM,
	M_ANON,
	M_FILE,
	M_COPIED,
	M_COPY_S,
	M_THRU,
	NMETRICS
};

struct metric_info {
	const char *key;   /* JSON key */
	const char *label; /* text row */
	bool real;	   /* seconds: a JSON real; milliseconds in text */
	bool lower_better; /* improvement = (read - mode) / read */
	double floor;	   /* read's median below this (report unit) is noise: no % */
};

static const struct metric_info metrics[NMETRICS] = {
	/*
	 * The floors: user and system time are split in scheduler ticks (1 to
	 * 10 ms), wall time below 100 us is mostly noise, and a run that touches
	 * nothing still differs from the empty child by a few faults and a few
	 * dozen KiB of library pages.
	 */
	[M_WALL] = { "wall_s", "wall time (ms)", true, true, 1e-4 },
	[M_USER] = { "user_s", "user time (ms)", true, true, 1e-2 },
	[M_SYS] = { "sys_s", "system time (ms)", true, true, 1e-2 },
	[M_MINFLT] = { "minor_faults", "minor faults", false, true, 16 },
	[M_MAJFLT] = { "major_faults", "major faults", false, true, 16 },
	[M_HWM] = { "peak_rss_kib", "peak RSS (KiB)", false, true, 256 },
	[M_ANON] = { "rss_anon_kib", "  anonymous (KiB)", false, true, 256 },
	[M_FILE] = { "rss_file_kib", "  file-backed (KiB)", false, true, 256 },
	[M_COPIED] = { "bytes_copied", "bytes copied", false, true, 1 },
	[M_COPY_S] = { "copy_s", "copy time (ms)", true, true, 1e-4 },
	[M_THRU] = { "copy_bytes_per_s", "copy throughput (MiB/s)", true, false, 0 },
};

/* The modes in the order each repetition runs them; NONE is the baseline. */
static const enum ep_load_mode run_order[] = { EP_LOAD_NONE, EP_LOAD_READ, EP_LOAD_MMAP,
					       EP_LOAD_HYBRID, EP_LOAD_ACCESSOR };
#define NMODES 5

struct sample {
	double v[NMETRICS];
	struct ep_proc_usage startup; /* the child before its load phase, from exec on */
	uint64_t bytes_loaded;
	char checksum[24];
};

struct cold_state {
	bool requested;
	uint64_t drops;	       /* times the whole input set was dropped */
	uint64_t drops_clean;  /* of them, drops that left no page resident */
	uint64_t file_pages;   /* pages of all inputs */
	uint64_t resident_max; /* most pages still resident after a drop */
};

struct load_run {
	struct ep_global *g;
	enum ep_section_set set;
	unsigned int repeat;
	struct ep_load_plan plan;
	json_t **plan_json; /* plan.files[i]'s object in files (borrowed), or NULL */
	json_t *doc, *files;
	uint64_t nfailed;
	int plan_fd;
	struct sample *samples[NMODES]; /* [mode][repetition] */
	struct cold_state cold;
	bool cold_requested; /* --cold */
	struct ep_top top;   /* --top N: the files with the most bytes to load */
	bool summary;	     /* --summary: accepted; the report is its totals already */
	uint64_t timer_res_ns;
	bool peak_reset_failed;	     /* some child could not reset its VmHWM */
	char peak_reset_reason[256]; /* the first such child's reason */
};

/* --- the parent: running children -------------------------------------------- */

static int parse_u64(json_t *o, const char *key, uint64_t *v)
{
	json_t *x = json_object_get(o, key);

	if (!json_is_integer(x) || json_integer_value(x) < 0)
		return -1;
	*v = (uint64_t)json_integer_value(x);
	return 0;
}

static int parse_usage(json_t *o, struct ep_proc_usage *u)
{
	if (!json_is_object(o) || parse_u64(o, "vm_hwm_kib", &u->vm_hwm_kib) ||
	    parse_u64(o, "vm_rss_kib", &u->vm_rss_kib) ||
	    parse_u64(o, "rss_anon_kib", &u->rss_anon_kib) ||
	    parse_u64(o, "rss_file_kib", &u->rss_file_kib) ||
	    parse_u64(o, "user_us", &u->user_us) || parse_u64(o, "sys_us", &u->sys_us) ||
	    parse_u64(o, "minor_faults", &u->minor_faults) ||
	    parse_u64(o, "major_faults", &u->major_faults))
		return -1;
	return 0;
}

/* The figures of one run, in report units, from the child's load phase. */
static void fill_sample(struct sample *s, const struct ep_proc_usage *start,
			const struct ep_proc_usage *end, uint64_t wall_ns, uint64_t copy_ns,
			uint64_t bytes_copied)
{
	struct ep_phase_cost cost;

	ep_phase_cost(start, end, &cost);
	s->v[M_WALL] = (double)wall_ns * 1e-9;
	s->v[M_USER] = (double)cost.user_us * 1e-6;
	s->v[M_SYS] = (double)cost.sys_us * 1e-6;
	s->v[M_MINFLT] = (double)cost.minor_faults;
	s->v[M_MAJFLT] = (double)cost.major_faults;
	s->v[M_HWM] = (double)cost.peak_rss_kib;
	s->v[M_ANON] = (double)cost.rss_anon_kib;
	s->v[M_FILE] = (double)cost.rss_file_kib;
	s->v[M_COPIED] = (double)bytes_copied;
	s->v[M_COPY_S] = (double)copy_ns * 1e-9;
	s->v[M_THRU] = copy_ns ? (double)bytes_copied / s->v[M_COPY_S] : 0;
}

static int parse_child(struct load_run *run, const char *text, size_t len, enum ep_load_mode mode,
		       struct sample *s)
{
	struct ep_proc_usage start, end;
	uint64_t wall_ns, copy_ns, copied;
	json_error_t jerr;
	json_t *o = json_loadb(text, len, 0, &jerr), *v;
	int rc = -1;

	if (!o)
		return -1;
	v = json_object_get(o, "mode");
	if (!json_is_string(v) || strcmp(json_string_value(v), ep_load_mode_name(mode)) != 0)
		goto out;
	if (parse_usage(json_object_get(o, "startup"), &s->startup) ||
	    parse_usage(json_object_get(o, "start"), &start) ||
	    parse_usage(json_object_get(o, "end"), &end) || parse_u64(o, "wall_ns", &wall_ns) ||
	    parse_u64(o, "copy_ns", &copy_ns) || parse_u64(o, "bytes_copied", &copied) ||
	    parse_u64(o, "bytes_loaded", &s->bytes_loaded))
		goto out;
	fill_sample(s, &start, &end, wall_ns, copy_ns, copied);
	v = json_object_get(o, "peak_reset");
	if (!json_is_boolean(v))
		goto out;
	if (!json_is_true(v) && !run->peak_reset_failed) {
		const char *why = json_string_value(json_object_get(o, "peak_reset_error"));

		run->peak_reset_failed = true;
		snprintf(run->peak_reset_reason, sizeof(run->peak_reset_reason), "%s",
			 why ? why : "unknown");
	}
	v = json_object_get(o, "checksum");
	if (!json_is_string(v))
		goto out;
	snprintf(s->checksum, sizeof(s->checksum), "%s", json_string_value(v));
	rc = 0;
out:
	json_decref(o);
	return rc;
}

/*
 * A child that blamed a file: {"failed_file": I, "error": MESSAGE}.  Returns
 * 0 with *failed and ferr filled, or -1 when text is not that.
 */
static int parse_child_failure(const struct load_run *run, const char *text, size_t len,
			       size_t *failed, struct ep_error *ferr)
{
	json_t *o = json_loadb(text, len, 0, NULL);
	json_t *i = json_object_get(o, "failed_file"), *e = json_object_get(o, "error");
	int rc = -1;

	if (json_is_integer(i) && json_is_string(e) && json_integer_value(i) >= 0 &&
	    (uint64_t)json_integer_value(i) < run->plan.nfiles) {
		*failed = (size_t)json_integer_value(i);
		ep_error_set(ferr, EP_EIO, "%s", json_string_value(e));
		rc = 0;
	}
	json_decref(o);
	return rc;
}

/*
 * Run one child in mode and fill s.  Returns 0; 1 when the child failed on
 * a file (*failed its index in the plan, ferr its message, nothing printed);
 * or -1 after a message.
 */
static int run_child(struct load_run *run, enum ep_load_mode mode, struct sample *s, size_t *failed,
		     struct ep_error *ferr)
{
	char arg[32], max_size[48], *text = NULL;
	int pfd[2], wstatus, rc = -1;
	size_t len = 0;
	pid_t pid;

	snprintf(arg, sizeof(arg), "--mode=%s", ep_load_mode_name(mode));
	/* The child decodes compressed inputs again: under the same cap. */
	snprintf(max_size, sizeof(max_size), "--max-size=%" PRIu64, ep_input_max_size());
	if (pipe2(pfd, O_CLOEXEC) != 0) {
		fprintf(stderr, "elfplt: load: pipe: %s\n", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "elfplt: load: fork: %s\n", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (pid == 0) {
		/* dup2() clears close-on-exec on the copies; the originals close. */
		if (dup2(run->plan_fd, 0) < 0 || lseek(0, 0, SEEK_SET) != 0 || dup2(pfd[1], 1) < 0)
			_exit(127);
		execl("/proc/self/exe", "elfplt", max_size, CHILD_CMD, arg, (char *)NULL);
		fprintf(stderr, "elfplt: load: cannot run /proc/self/exe: %s\n", strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	if (ep_load_read_all(pfd[0], &text, &len) != 0) {
		fprintf(stderr, "elfplt: load: reading from the %s child: %s\n",
			ep_load_mode_name(mode), strerror(errno));
		text = NULL;
	}
	close(pfd[0]);
	while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == EP_EXIT_FAILED && text &&
	    parse_child_failure(run, text, len, failed, ferr) == 0)
		rc = 1;
	else if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0)
		fprintf(stderr, "elfplt: load: the %s child failed (%s %d)\n",
			ep_load_mode_name(mode), WIFEXITED(wstatus) ? "exit status" : "signal",
			WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : WTERMSIG(wstatus));
	else if (!text || parse_child(run, text, len, mode, s) != 0)
		fprintf(stderr, "elfplt: load: the %s child's report does not parse\n",
			ep_load_mode_name(mode));
	else
		rc = 0;
	free(text);
	return rc;
}

/*
 * Drop every input from the page cache and count what stayed.  Returns 0, or
 * 1 when file *failed could not be dropped (ferr says why; nothing printed).
 */
static int drop_cache(struct load_run *run, size_t *failed, struct ep_error *ferr)
{
	uint64_t resident = 0, total = 0;
	size_t i;

	for (i = 0; i < run->plan.nfiles; i++) {
		uint64_t r, t;

		if (ep_cache_drop(&run->plan.files[i], &r, &t, ferr)) {
			*failed = i;
			return 1;
		}
		resident += r;
		total += t;
	}
	run->cold.drops++;
	if (resident == 0)
		run->cold.drops_clean++;
	run->cold.file_pages = total;
	if (resident > run->cold.resident_max)
		run->cold.resident_max = resident;
	return 0;
}

static int make_plan_fd(struct load_run *run)
{
	struct ep_error err = { 0 };
	size_t len, done = 0;
	char *buf;
	int fd;

	if (ep_load_plan_encode(&run->plan, &buf, &len, &err)) {
		fprintf(stderr, "elfplt: %s\n", err.message);
		return -1;
	}
	/* A memory file every child reads from the start: no pipe to keep fed. */
	fd = memfd_create("elfplt-load-plan", MFD_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "elfplt: load: memfd_create: %s\n", strerror(errno));
		free(buf);
		return -1;
	}
	while (done < len) {
		ssize_t n = write(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "elfplt: load: writing the plan: %s\n", strerror(errno));
			close(fd);
			free(buf);
			return -1;
		}
		done += (size_t)n;
	}
	free(buf);
	run->plan_fd = fd;
	return 0;
}

/* Turn plan file i's entry of files[] into err, keeping the name it had. */
static void mark_failed(struct load_run *run, size_t i, const struct ep_error *err)
{
	json_t *o = run->plan_json[i], *path;
	size_t k;

	for (k = 0; o && k < json_array_size(run->files); k++) {
		if (json_array_get(run->files, k) != o)
			continue;
		/* An archive member's entry names the member: keep that name. */
		path = json_incref(json_object_get(o, "path"));
		json_array_set_new(run->files, k,
				   ep_json_file_error(path ? json_string_value(path)
							   : run->plan.files[i].path,
						      err));
		json_decref(path);
		return;
	}
}

/*
 * Leave plan file i out after it failed (err): say so once, turn its entry
 * of files[] into an error, count it failed, and write the smaller plan for
 * the children.  Every other plan file read from the same file (the other
 * members of an archive) goes with it: that file is what changed, and one
 * restart per member would not end.  Returns 0, or -1 after a message.
 */
static int leave_out(struct load_run *run, size_t i, const struct ep_error *err)
{
	char *file = run->plan.files[i].path;
	size_t j, kept = 0;

	fprintf(stderr, "elfplt: %s\n", err->message);
	for (j = 0; j < run->plan.nfiles; j++) {
		struct ep_load_file *f = &run->plan.files[j];

		if (j == i || strcmp(f->path, file) == 0) {
			mark_failed(run, j, err);
			run->nfailed++;
			if (j != i)
				free(f->path);
			free(f->ranges);
			continue;
		}
		run->plan.files[kept] = *f;
		run->plan_json[kept] = run->plan_json[j];
		kept++;
	}
	free(file);
	run->plan.nfiles = kept;
	close(run->plan_fd);
	run->plan_fd = -1;
	return make_plan_fd(run);
}

/*
 * All repetitions, modes interleaved.  A file that fails in a run (changed
 * or replaced since planning) is left out and every run starts again, so all
 * samples measure the same files.  Returns 0, or -1 after a message.
 */
static int measure(struct load_run *run)
{
	struct ep_load_totals t;
	struct ep_error ferr;
	unsigned int r, m;
	const char *sum0;
	size_t failed;
	int rc;

	for (m = 0; m < NMODES; m++) {
		run->samples[m] = calloc(run->repeat, sizeof(struct sample));
		if (!run->samples[m]) {
			fprintf(stderr, "elfplt: load: out of memory\n");
			return -1;
		}
	}
again:
	ep_load_plan_totals(&run->plan, &t);
	sum0 = NULL;
	memset(&run->cold, 0, sizeof(run->cold));
	run->cold.requested = run->cold_requested;
	for (r = 0; r < run->repeat; r++) {
		for (m = 0; m < NMODES; m++) {
			struct sample *s = &run->samples[m][r];
			enum ep_load_mode mode = run_order[m];

			rc = 0;
			if (run->cold.requested && mode != EP_LOAD_NONE)
				rc = drop_cache(run, &failed, &ferr);
			if (!rc)
				rc = run_child(run, mode, s, &failed, &ferr);
			if (rc == 1) {
				if (leave_out(run, failed, &ferr))
					return -1;
				goto again;
			}
			if (rc)
				return -1;
			if (mode == EP_LOAD_NONE)
				continue;
			/* Every mode must have read the same bytes, and all of them. */
			if (s->bytes_loaded != t.bytes) {
				fprintf(stderr,
					"elfplt: load: the %s child loaded %" PRIu64
					" bytes, not %" PRIu64 "\n",
					ep_load_mode_name(mode), s->bytes_loaded, t.bytes);
				return -1;
			}
			if (!sum0) {
				sum0 = s->checksum;
			} else if (strcmp(sum0, s->checksum) != 0) {
				fprintf(stderr,
					"elfplt: load: checksums differ between runs (%s, %s):"
					" did an input change during the measurement?\n",
					sum0, s->checksum);
				return -1;
			}
		}
	}
	return 0;
}

/* --- statistics and the report ------------------------------------------------ */

/* Summary of metric k of mode index m, baseline-subtracted unless m is the baseline. */
static struct ep_summary summary(const struct load_run *run, unsigned int m, int k)
{
	double v[REPEAT_MAX], base[REPEAT_MAX], base_median = 0;
	unsigned int r, n = run->repeat;

	if (m != 0 && k != M_THRU) {
		for (r = 0; r < n; r++)
			base[r] = run->samples[0][r].v[k];
		base_median = ep_summarize(base, n).median;
	}
	/* Throughput is a ratio within one run: nothing to subtract from it. */
	for (r = 0; r < n; r++)
		v[r] = run->samples[m][r].v[k] - base_median;
	return ep_summarize(v, n);
}

/* What mode index m's figure k is against read's: a result, noise, or nothing. */
static enum ep_verdict verdict(const struct load_run *run, unsigned int m, int k)
{
	return ep_compare_runs(summary(run, 1, k), summary(run, m, k), run->repeat,
			       metrics[k].floor);
}

/* Improvement of mode over read for a lower-is-better metric, in %; NAN if none. */
static double improvement(const struct load_run *run, unsigned int m, int k)
{
	double read = summary(run, 1, k).median, x = summary(run, m, k).median;

	if (!metrics[k].lower_better || read < metrics[k].floor)
		return NAN;
	return 100.0 * (read - x) / read;
}

static json_t *json_number(double x, bool real)
{
	/* -0.0 (a zero median minus a zero baseline) is printed as 0. */
	if (x == 0)
		x = 0;
	if (!real && x == floor(x) && fabs(x) < 9e15)
		return json_integer((json_int_t)x);
	return json_real(x);
}

static json_t *json_figure(struct ep_summary s, bool real)
{
	return json_pack("{s:o, s:o, s:o}", "median", json_number(s.median, real), "min",
			 json_number(s.min, real), "max", json_number(s.max, real));
}

/* The start-up figures: what the child cost from exec to its load phase. */
static const int startup_metrics[] = { M_USER, M_SYS, M_MINFLT, M_MAJFLT, M_HWM, M_ANON, M_FILE };
#define NSTARTUP (sizeof(startup_metrics) / sizeof(startup_metrics[0]))

static double startup_value(const struct ep_proc_usage *u, int k)
{
	switch (k) {
	case M_USER:
		return (double)u->user_us * 1e-6;
	case M_SYS:
		return (double)u->sys_us * 1e-6;
	case M_MINFLT:
		return (double)u->minor_faults;
	case M_MAJFLT:
		return (double)u->major_faults;
	case M_HWM:
		return (double)u->vm_hwm_kib; /* read before the reset: start-up's own peak */
	case M_ANON:
		return (double)u->rss_anon_kib;
	default:
		return (double)u->rss_file_kib;
	}
}

/* Summary of start-up figure k of the empty child's runs. */
static struct ep_summary startup_summary(const struct load_run *run, int k)
{
	double v[REPEAT_MAX];
	unsigned int r;

	for (r = 0; r < run->repeat; r++)
		v[r] = startup_value(&run->samples[0][r].startup, k);
	return ep_summarize(v, run->repeat);
}

static json_t *json_startup(const struct load_run *run)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; i < NSTARTUP; i++) {
		int k = startup_metrics[i];

		json_object_set_new(o, metrics[k].key,
				    json_figure(startup_summary(run, k), metrics[k].real));
	}
	return o;
}

static json_t *json_mode(const struct load_run *run, unsigned int m)
{
	json_t *o = json_pack("{s:s, s:i}", "mode", ep_load_mode_name(run_order[m]), "repeat",
			      (int)run->repeat);
	json_t *vs = json_object(), *vv = json_object();
	int k;

	for (k = 0; k < NMETRICS; k++) {
		double imp;

		if (m == 0 && k == M_THRU)
			continue;
		json_object_set_new(o, metrics[k].key,
				    json_figure(summary(run, m, k), metrics[k].real));
		if (m == 0)
			continue;
		imp = improvement(run, m, k);
		json_object_set_new(vs, metrics[k].key, isnan(imp) ? json_null() : json_real(imp));
		json_object_set_new(vv, metrics[k].key,
				    isnan(imp) ? json_null()
					       : json_string(ep_verdict_name(verdict(run, m, k))));
	}
	if (m == 0) {
		json_decref(vs);
		json_decref(vv);
		json_object_set_new(o, "startup", json_startup(run));
	} else {
		json_object_set_new(o, "vs_read_pct", vs);
		json_object_set_new(o, "vs_read_verdict", vv);
	}
	return o;
}

/*
 * --top N: the files measured (those left out are not) with the most
 * section bytes to load.  Returns 0, or -1 when out of memory.
 */
static int top_files(struct load_run *run)
{
	size_t i, j;

	for (i = 0; run->top.max && i < run->plan.nfiles; i++) {
		const struct ep_load_file *f = &run->plan.files[i];
		json_t *path = json_object_get(run->plan_json[i], "path");
		uint64_t bytes = 0;

		for (j = 0; j < f->nranges; j++)
			bytes += f->ranges[j].size;
		if (ep_top_add(&run->top, path ? json_string_value(path) : f->path, bytes, NULL))
			return -1;
	}
	return 0;
}

static json_t *top_json(const struct load_run *run)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < run->top.n; i++)
		json_array_append_new(a, json_pack("{s:s, s:I}", "path", run->top.v[i].path,
						   "bytes", (json_int_t)run->top.v[i].key));
	return a;
}

static void top_text(const struct load_run *run)
{
	static const char *const hdr[] = { "#", "bytes", "file" };
	FILE *out = run->g->out;
	struct ep_table *t;
	size_t i;

	if (!run->top.n)
		return;
	fprintf(out, "\ntop %zu %s by bytes loaded:\n", run->top.n,
		ep_plural(run->top.n, "file", "files"));
	t = ep_table_new(3, hdr, "rrl");
	for (i = 0; t && i < run->top.n; i++) {
		ep_table_row(t);
		ep_table_cell_u64(t, i + 1);
		ep_table_cell_u64(t, run->top.v[i].key);
		ep_table_cell_str(t, run->top.v[i].path);
	}
	if (t)
		ep_table_print(t, out, "  ");
	ep_table_free(t);
}

static void report_json(struct load_run *run, const struct ep_load_totals *t)
{
	json_t *doc = run->doc, *modes = json_array();
	bool achieved = run->cold.requested && run->cold.resident_max == 0;
	unsigned int m;

	json_object_set_new(
		doc, "inputs",
		json_pack("{s:I, s:I, s:I, s:s, s:I, s:{s:I, s:I, s:I}, s:{s:I, s:I, s:I, s:I}}",
			  "files", (json_int_t)t->files, "sections", (json_int_t)t->sections,
			  "bytes", (json_int_t)t->bytes, "section_set",
			  ep_section_set_name(run->set), "files_failed", (json_int_t)run->nfailed,
			  "hybrid", "threshold_bytes", (json_int_t)run->plan.threshold,
			  "mapped_sections", (json_int_t)t->mapped_sections, "mapped_bytes",
			  (json_int_t)t->mapped_bytes, "compressed", "files",
			  (json_int_t)t->compressed_files, "sections",
			  (json_int_t)t->compressed_sections, "bytes",
			  (json_int_t)t->compressed_bytes, "decoded_bytes",
			  (json_int_t)t->decoded_bytes));
	for (m = 1; m < NMODES; m++)
		json_array_append_new(modes, json_mode(run, m));
	json_object_set_new(doc, "modes", modes);
	json_object_set_new(doc, "baseline", json_mode(run, 0));
	json_object_set_new(doc, "cold",
			    json_pack("{s:b, s:o, s:I, s:I, s:I, s:I}", "requested",
				      run->cold.requested, "achieved",
				      run->cold.requested ? json_boolean(achieved) : json_null(),
				      "drops", (json_int_t)run->cold.drops, "drops_clean",
				      (json_int_t)run->cold.drops_clean, "file_pages",
				      (json_int_t)run->cold.file_pages, "resident_pages_max",
				      (json_int_t)run->cold.resident_max));
	json_object_set_new(doc, "peak_reset",
			    json_pack("{s:b, s:s?}", "achieved", !run->peak_reset_failed, "reason",
				      run->peak_reset_failed ? run->peak_reset_reason : NULL));
	json_object_set_new(doc, "nothing_to_load", json_boolean(t->sections == 0));
	json_object_set_new(doc, "note", t->sections ? json_null() : json_string(EMPTY_NOTE));
	json_object_set_new(doc, "checksum", json_string(run->samples[1][0].checksum));
	json_object_set_new(doc, "timer_resolution_ns",
			    json_integer((json_int_t)run->timer_res_ns));
	json_object_update_new(json_object_get(doc, "totals"),
			       json_pack("{s:I, s:I, s:I, s:I, s:I, s:o}", "files",
					 (json_int_t)t->files, "files_failed",
					 (json_int_t)run->nfailed, "skipped",
					 (json_int_t)ep_inputs_skipped(), "sections",
					 (json_int_t)t->sections, "bytes", (json_int_t)t->bytes,
					 "top", top_json(run)));
}

/*
 * A number rounded to nothing keeps its sign in printf ("-0.000"); it is
 * zero, so print it so.  buf holds a formatted number, maybe signed.
 */
static void drop_zero_sign(char *buf)
{
	if ((buf[0] == '-' || buf[0] == '+') && !strpbrk(buf, "123456789"))
		memmove(buf, buf + 1, strlen(buf));
}

static void format_value(char *buf, size_t size, int k, double x)
{
	if (k == M_THRU)
		snprintf(buf, size, "%.1f", x / (1024.0 * 1024.0));
	else if (metrics[k].real)
		snprintf(buf, size, "%.3f", x * 1e3);
	else
		snprintf(buf, size, "%.0f", x);
	drop_zero_sign(buf);
}

/* "median [min..max]"; the median alone from fewer than EP_NOISE_MIN_RUNS runs. */
static void cell_figure(struct ep_table *tab, int k, struct ep_summary s, unsigned int runs)
{
	char med[32], lo[32], hi[32];

	format_value(med, sizeof(med), k, s.median);
	if (runs < EP_NOISE_MIN_RUNS) {
		ep_table_cell_str(tab, med);
		return;
	}
	format_value(lo, sizeof(lo), k, s.min);
	format_value(hi, sizeof(hi), k, s.max);
	ep_table_cell(tab, "%s [%s..%s]", med, lo, hi);
}

/* The text report's page-cache line: warm, cold, or cold asked for but not had. */
static void text_cache_line(FILE *out, const struct cold_state *cold)
{
	if (!cold->requested)
		fputs("  page cache: warm (--cold not given)\n", out);
	else if (cold->resident_max == 0)
		fprintf(out,
			"  page cache: cold: dropped before each of %" PRIu64
			" runs, mincore found 0 of %" PRIu64 " pages resident\n",
			cold->drops, cold->file_pages);
	else
		fprintf(out,
			"  page cache: cold requested but NOT achieved: after %" PRIu64
			" of %" PRIu64 " drops, up to %" PRIu64 " of %" PRIu64
			" pages stayed resident"
			" (dirty: run sync; tmpfs; in use by another process); major faults"
			" mean little\n",
			cold->drops - cold->drops_clean, cold->drops, cold->resident_max,
			cold->file_pages);
}

/*
 * The measurement's own floor, beside the figures: what the empty child's
 * load phase costs (the baseline every figure has subtracted), the clock's
 * resolution, and what the "mmap vs read" column can claim from this many
 * runs.
 */
static void text_floor(const struct load_run *run)
{
	FILE *out = run->g->out;

	/* Microseconds: the empty load phase is far below the table's 0.001 ms. */
	fprintf(out,
		"  floor: empty child %.1f us wall, %.0f minor faults, %.0f KiB peak RSS;"
		" clock resolution %" PRIu64 " ns\n",
		summary(run, 0, M_WALL).median * 1e6, summary(run, 0, M_MINFLT).median,
		summary(run, 0, M_HWM).median, run->timer_res_ns);
	if (run->repeat < EP_NOISE_MIN_RUNS)
		fprintf(out,
			"  mmap vs read: not judged from %u %s; noise needs %d runs or more"
			" (--repeat %d)\n",
			run->repeat, ep_plural(run->repeat, "run", "runs"), EP_NOISE_MIN_RUNS,
			EP_NOISE_MIN_RUNS);
	else
		fputs("  mmap vs read: a difference where the runs' [min..max] do not overlap,"
		      " else within noise\n",
		      out);
}

/* The text report's header: what was measured, and how. */
static void text_header(const struct load_run *run, const struct ep_load_totals *t)
{
	FILE *out = run->g->out;

	fprintf(out,
		"elfplt load: %" PRIu64 " %s, %" PRIu64 " %s (--sections=%s), %" PRIu64 " bytes",
		t->files, ep_plural(t->files, "file", "files"), t->sections,
		ep_plural(t->sections, "section", "sections"), ep_section_set_name(run->set),
		t->bytes);
	if (run->nfailed)
		fprintf(out, "; %" PRIu64 " %s failed and %s left out", run->nfailed,
			ep_plural(run->nfailed, "file", "files"),
			ep_plural(run->nfailed, "is", "are"));
	fputc('\n', out);
	if (ep_inputs_skipped())
		fputs("  ", out);
	ep_print_skipped(out);
	fprintf(out,
		"  hybrid: maps %" PRIu64 " of them (%" PRIu64 " bytes) of at least %" PRIu64
		" bytes, reads the others\n",
		t->mapped_sections, t->mapped_bytes, run->plan.threshold);
	if (t->compressed_files)
		fprintf(out,
			"  %" PRIu64 " compressed %s (%" PRIu64 " %s, %" PRIu64 " bytes; %" PRIu64
			" bytes decoded): decoded into memory in every mode,"
			" mmap cannot help them\n",
			t->compressed_files, ep_plural(t->compressed_files, "file", "files"),
			t->compressed_sections,
			ep_plural(t->compressed_sections, "section", "sections"),
			t->compressed_bytes, t->decoded_bytes);
	text_cache_line(out, &run->cold);
	fprintf(out,
		"  runs per mode: %u, interleaved; each figure is the load phase alone, minus"
		" the empty child's median\n",
		run->repeat);
	text_floor(run);
	fprintf(out,
		"  start-up of every child (not in the figures): peak RSS %.0f KiB,"
		" %.0f minor faults\n",
		startup_summary(run, M_HWM).median, startup_summary(run, M_MINFLT).median);
	if (run->peak_reset_failed)
		fprintf(out,
			"  peak RSS: VmHWM NOT reset before loading (%s): a load that stays"
			" under start-up's peak shows its final RSS growth\n",
			run->peak_reset_reason);
}

/* The text report's table: each metric's figures per mode, and mmap against read. */
static void text_table(const struct load_run *run)
{
	static const char *const hdr[] = { "median [min..max]", "read", "mmap", "hybrid",
					   "accessor", "mmap vs read" };
	static const char *const hdr_median[] = { "median", "read", "mmap", "hybrid", "accessor",
						  "mmap vs read" };
	FILE *out = run->g->out;
	struct ep_table *tab;
	unsigned int m;
	int k;

	tab = ep_table_new(6, run->repeat < EP_NOISE_MIN_RUNS ? hdr_median : hdr, "lrrrrr");
	for (k = 0; tab && k < NMETRICS; k++) {
		double imp = improvement(run, 2, k);

		ep_table_row(tab);
		ep_table_cell(tab, "%s", metrics[k].label);
		for (m = 1; m < NMODES; m++) {
			/* A mode that copies nothing has no copy throughput. */
			if (k == M_THRU && summary(run, m, M_COPIED).max <= 0)
				ep_table_cell(tab, "-");
			else
				cell_figure(tab, k, summary(run, m, k), run->repeat);
		}
		if (isnan(imp) || verdict(run, 2, k) == EP_VERDICT_TOO_FEW_RUNS) {
			ep_table_cell(tab, "-");
		} else if (verdict(run, 2, k) == EP_VERDICT_WITHIN_NOISE) {
			ep_table_cell(tab, "within noise");
		} else {
			char pct[32];

			snprintf(pct, sizeof(pct), "%+.1f", imp);
			drop_zero_sign(pct);
			ep_table_cell(tab, "%s%%", pct);
		}
	}
	if (tab)
		ep_table_print(tab, out, "");
	ep_table_free(tab);
}

static void report_text(struct load_run *run, const struct ep_load_totals *t)
{
	text_header(run, t);
	fputc('\n', run->g->out);
	text_table(run);
	top_text(run);
}

/* --- options and planning --------------------------------------------------- */

/*
 * What compute_plan() hands emit_plan() of one file, maybe through a pipe
 * from a worker process: this header, then plan_len bytes of the file's
 * plan as ep_load_plan_encode() writes it, then for an archive member
 * archive_len bytes of its archive's name and member_len of its own.
 */
struct plan_result {
	uint64_t file_size;  /* bytes of the file as stored */
	uint64_t image_size; /* bytes of its ELF image (decoded, if compressed) */
	uint64_t plan_len;
	uint32_t is_member;
	uint32_t archive_len, member_len;
	uint32_t reserved; /* 0: no padding crosses the pipe uninitialised */
};

/* Maybe in a worker process: the plan of one file, packed for emit_plan(). */
static int compute_plan(struct ep_image *img, const struct ep_blob *blob, void *ctx, void **result,
			size_t *result_len, struct ep_error *err)
{
	const struct load_run *run = ctx;
	struct ep_load_plan one = { 0 };
	struct plan_result r = { blob->file_size, blob->size, 0 };
	unsigned char *p;
	char *text = NULL;
	size_t len = 0;
	int rc;

	rc = ep_load_plan_add(&one, img, blob, run->set, err);
	if (rc == 0)
		rc = ep_load_plan_encode(&one, &text, &len, err);
	if (rc)
		goto out;
	r.plan_len = len;
	if (blob->archive && blob->member) {
		r.is_member = 1;
		r.archive_len = (uint32_t)strlen(blob->archive);
		r.member_len = (uint32_t)strlen(blob->member);
	}
	*result_len = sizeof(r) + len + r.archive_len + r.member_len;
	p = malloc(*result_len);
	if (!p) {
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
		goto out;
	}
	memcpy(p, &r, sizeof(r));
	memcpy(p + sizeof(r), text, len);
	if (r.is_member) {
		memcpy(p + sizeof(r) + len, blob->archive, r.archive_len);
		memcpy(p + sizeof(r) + len + r.archive_len, blob->member, r.member_len);
	}
	*result = p;
out:
	free(text);
	ep_load_plan_free(&one);
	return rc;
}

/* In the main process, in input order: the file joins the plan and files[]. */
static int emit_plan(const char *path, const void *result, size_t result_len, void *ctx,
		     struct ep_error *err)
{
	struct load_run *run = ctx;
	const char *text = (const char *)result + sizeof(struct plan_result);
	const struct ep_load_file *f;
	struct ep_load_plan one;
	struct ep_error derr;
	struct plan_result r;
	json_t **pj;
	uint64_t bytes = 0;
	json_t *o;
	size_t j;
	int rc;

	if (result_len >= sizeof(r))
		memcpy(&r, result, sizeof(r));
	if (result_len < sizeof(r) ||
	    r.plan_len + r.archive_len + r.member_len != result_len - sizeof(r) ||
	    ep_load_plan_decode(&one, text, r.plan_len, &derr))
		return ep_error_set(err, EP_EIO, "%s: the worker's result is malformed", path);
	if (one.nfiles != 1) {
		ep_load_plan_free(&one);
		return ep_error_set(err, EP_EIO, "%s: the worker's result is malformed", path);
	}
	f = &one.files[0];
	for (j = 0; j < f->nranges; j++)
		bytes += f->ranges[j].size;
	o = json_pack("{s:s, s:s, s:I, s:I, s:I, s:I}", "path", path, "compression",
		      ep_compression_name(f->compression), "file_size", (json_int_t)r.file_size,
		      "image_size", (json_int_t)r.image_size, "sections", (json_int_t)f->nranges,
		      "bytes", (json_int_t)bytes);
	if (o) {
		struct ep_blob where = { .compression = f->compression };
		char *archive = NULL, *member = NULL;

		if (r.is_member) {
			archive = strndup(text + r.plan_len, r.archive_len);
			member = strndup(text + r.plan_len + r.archive_len, r.member_len);
			where.archive = archive;
			where.member = member;
		}
		ep_json_input_keys(o, &where);
		free(archive);
		free(member);
	}
	pj = realloc(run->plan_json, (run->plan.nfiles + 1) * sizeof(*pj));
	if (!pj) {
		json_decref(o);
		ep_load_plan_free(&one);
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", path);
	}
	run->plan_json = pj;
	pj[run->plan.nfiles] = o;
	json_array_append_new(run->files, o);
	rc = ep_load_plan_append(&run->plan, &one, err);
	ep_load_plan_free(&one);
	return rc;
}

static void plan_error(const char *path, const struct ep_error *err, void *ctx)
{
	struct load_run *run = ctx;

	run->nfailed++;
	json_array_append_new(run->files, ep_json_file_error(path, err));
}

static void load_usage(FILE *f)
{
	fputs("usage: elfplt load [--sections=relocs|alloc|all] [--repeat N]\n"
	      "                   [--threshold BYTES] [--cold] [--top N] [--summary]\n"
	      "                   [-j N] [-q] [--max-size=BYTES]\n"
	      "                   [--format=text|json] [-o FILE] [PATH...]\n"
	      "Page faults, resident memory and time of loading sections by read-copy, by mmap,\n"
	      "by binutils' hybrid rule and by elfplt's own accessor (--access=hybrid), each\n"
	      "run in a fresh process.\n"
	      "With no PATH, the running kernel's modules in /lib/modules/$(uname -r).\n\n"
	      "  --sections=SET      relocs (relocation sections with their symbol and string\n"
	      "                      tables), alloc (SHF_ALLOC sections) or all (default)\n"
	      "  --repeat N          runs per mode, interleaved (default 5)\n"
	      "  --threshold BYTES   hybrid and accessor map sections of at least BYTES\n"
	      "                      (default 4 pages; K, M, G suffixes: KiB, MiB, GiB)\n"
	      "  --cold              drop the inputs from the page cache before every run\n"
	      "  --top N             list the N files with the most bytes to load\n"
	      "  --summary           the totals only (load's report is its totals already)\n"
	      "  -j, --jobs N        read N files' headers at a time to plan (default: one per\n"
	      "                      CPU, at most 8); the measured runs are one at a time\n"
	      "  -q, --quiet         no progress bar on a terminal\n"
	      "  --max-size=BYTES    refuse a compressed input or section that decodes to more\n"
	      "                      than BYTES (K, M, G suffixes; default 1G)\n"
	      "  --format=text|json  output for people (default) or machines (elfplt-load/1)\n"
	      "  --json              same as --format=json\n"
	      "  -o, --output FILE   write the report to FILE ('-': standard output)\n"
	      "See 'elfplt help load' for the whole manual.\n",
	      f);
}

static int parse_count(const char *arg, uint64_t max, uint64_t *v)
{
	char *end;

	if (!*arg || arg[0] == '-')
		return -1;
	errno = 0;
	*v = strtoull(arg, &end, 10);
	if (errno || *end || *v == 0 || *v > max)
		return -1;
	return 0;
}

static void run_free(struct load_run *run)
{
	unsigned int m;

	for (m = 0; m < NMODES; m++)
		free(run->samples[m]);
	if (run->plan_fd >= 0)
		close(run->plan_fd);
	ep_load_plan_free(&run->plan);
	ep_top_free(&run->top);
	free(run->plan_json);
	json_decref(run->doc);
}

/*
 * Text: with no section to load (none selected, or none left once failed
 * files are out: left is " left"), a table would show only noise, so say so
 * and return true.  JSON still measures, so its modes are there (near zero:
 * the baseline subtraction at work).
 */
static bool nothing_to_load(const struct ep_global *g, const struct load_run *run,
			    const struct ep_load_totals *t, const char *left)
{
	if (t->sections != 0 || g->format == EP_FORMAT_JSON)
		return false;
	fprintf(g->out,
		"elfplt load: no sections%s to load in %" PRIu64 " %s"
		" (--sections=%s): nothing to measure\n",
		left, t->files, ep_plural(t->files, "file", "files"),
		ep_section_set_name(run->set));
	return true;
}

/*
 * Parse load's own options into run (its defaults already set) and the
 * global ones into g.  Returns -1 to go on, or the exit status to end with:
 * EP_EXIT_OK after --help, a usage error's.
 */
static int load_options(int argc, char **argv, struct ep_global *g, struct load_run *run)
{
	static const struct option longopts[] = {
		{ "sections", required_argument, NULL, 's' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "threshold", required_argument, NULL, 't' },
		{ "cold", no_argument, NULL, 'c' },
		{ "top", required_argument, NULL, 'T' },
		{ "summary", no_argument, NULL, 'S' },
		EP_GLOBAL_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int c, rc;

	opterr = 0;
	while ((c = ep_getopt_long(argc, argv, EP_GLOBAL_SHORTOPTS, longopts)) != -1) {
		switch (c) {
		case 's':
			if (ep_section_set_parse(optarg, &run->set))
				return ep_usage_error(
					g->cmd, "--sections takes relocs, alloc or all, not '%s'",
					optarg);
			break;
		case 'r':
			if (parse_count(optarg, REPEAT_MAX, &v))
				return ep_usage_error(g->cmd,
						      "--repeat takes a number from 1 to %d,"
						      " not '%s'",
						      REPEAT_MAX, optarg);
			run->repeat = (unsigned int)v;
			break;
		case 't':
			/* Sizes read alike wherever an option takes one (--max-size). */
			if (ep_parse_size(optarg, &v))
				return ep_usage_error(g->cmd,
						      "--threshold takes a number of bytes, "
						      "optionally with K, M, G (KiB, MiB, "
						      "GiB), not '%s'",
						      optarg);
			run->plan.threshold = v;
			break;
		case 'c':
			run->cold_requested = true;
			break;
		case 'T':
			if (ep_top_parse(optarg, &run->top.max))
				return ep_usage_error(g->cmd,
						      "--top takes a positive number, not '%s'",
						      optarg);
			break;
		case 'S':
			run->summary = true;
			break;
		case 'h':
			load_usage(stdout);
			return EP_EXIT_OK;
		default:
			rc = ep_other_option(g, c, argv);
			if (rc)
				return rc;
		}
	}
	return -1;
}

static int cmd_load(int argc, char **argv, struct ep_global *g)
{
	struct load_run run = { .g = g, .set = EP_SET_ALL, .repeat = 5, .plan_fd = -1 };
	struct ep_load_totals totals;
	struct ep_paths in;
	int rc, status;

	run.plan.threshold = ep_load_default_threshold();
	rc = load_options(argc, argv, g, &run);
	if (rc >= 0)
		return rc;
	rc = ep_format_check(g, EP_FORMAT_BIT(EP_FORMAT_TEXT) | EP_FORMAT_BIT(EP_FORMAT_JSON));
	if (!rc)
		rc = ep_inputs_and_output(g, &in, argc, argv);
	if (rc)
		return rc;
	run.doc = ep_report_new("elfplt-load/1");
	run.files = json_object_get(run.doc, "files");
	run.timer_res_ns = ep_monotonic_res_ns();

	/* Planning reads headers only, in -j workers; the measurement is serial (measure()). */
	status = ep_for_each_image_jobs(g, in.v, in.n, false, compute_plan, emit_plan, plan_error,
					&run);
	ep_load_plan_totals(&run.plan, &totals);
	if (nothing_to_load(g, &run, &totals, ""))
		goto out;
	if (make_plan_fd(&run) || measure(&run)) {
		status = EP_EXIT_FAILED;
		goto out;
	}
	/* Files left out while measuring are failed files: the totals lose them. */
	if (run.nfailed)
		status = EP_EXIT_FAILED;
	ep_load_plan_totals(&run.plan, &totals);
	if (nothing_to_load(g, &run, &totals, " left"))
		goto out;
	if (top_files(&run)) {
		fputs("elfplt: load: out of memory for --top\n", stderr);
		status = EP_EXIT_FAILED;
		goto out;
	}
	if (g->format == EP_FORMAT_JSON) {
		report_json(&run, &totals);
		json_object_set_new(run.doc, "skipped", ep_json_skipped());
		if (ep_report_write_json(run.doc, g->out))
			status = EP_EXIT_FAILED;
	} else {
		report_text(&run, &totals);
	}
out:
	run_free(&run);
	if (ep_output_close(g))
		status = EP_EXIT_FAILED;
	return status;
}

const struct ep_cmd ep_cmd_load = { "load", cmd_load, "cost of loading sections: mmap vs read",
				    false };
