/* SPDX-License-Identifier: MIT */
/*
 * elfplt __load-child: one measured run of `elfplt load`, in a process of
 * its own that cmd/load.c execs for every run of every mode.  It reads the
 * plan (lib/load-plan.h) on standard input, loads it (lib/load.h) between
 * two snapshots of what the kernel says it cost (lib/proc.h), and writes
 * them as one JSON object for the parent.  It parses no ELF and, before the
 * second snapshot, allocates nothing the load does not.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/elfplt.h"
#include "cmd/load.h"
#include "lib/load.h"
#include "lib/proc.h"
#include "lib/report.h"

int ep_load_read_all(int fd, char **buf, size_t *len)
{
	size_t cap = 65536;
	char *b = malloc(cap), *nb;
	ssize_t n;

	*len = 0;
	if (!b)
		return -1;
	for (;;) {
		if (*len == cap) {
			nb = realloc(b, cap * 2);
			if (!nb)
				goto fail;
			b = nb;
			cap *= 2;
		}
		n = read(fd, b + *len, cap - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		*len += (size_t)n;
	}
	*buf = b;
	return 0;
fail:
	free(b);
	return -1;
}

/* The usage fields the parent needs, by the names of struct ep_proc_usage. */
static json_t *usage_json(const struct ep_proc_usage *u)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "vm_hwm_kib",
			 (json_int_t)u->vm_hwm_kib, "vm_rss_kib", (json_int_t)u->vm_rss_kib,
			 "rss_anon_kib", (json_int_t)u->rss_anon_kib, "rss_file_kib",
			 (json_int_t)u->rss_file_kib, "user_us", (json_int_t)u->user_us, "sys_us",
			 (json_int_t)u->sys_us, "minor_faults", (json_int_t)u->minor_faults,
			 "major_faults", (json_int_t)u->major_faults);
}

struct child_report {
	enum ep_load_mode mode;
	const char *peak_reset_error; /* NULL: VmHWM was reset before loading */
	struct ep_proc_usage startup, start, end;
	uint64_t wall_ns;
	const struct ep_load_result *res;
};

static json_t *child_json(const struct child_report *c)
{
	const struct ep_load_result *r = c->res;
	char sum[24];

	snprintf(sum, sizeof(sum), "%016" PRIx64, r->checksum);
	return json_pack("{s:s, s:b, s:s?, s:I, s:I, s:o, s:o, s:o, s:I, s:I, s:I, s:I, s:I, s:I,"
			 " s:s}",
			 "mode", ep_load_mode_name(c->mode), "peak_reset", !c->peak_reset_error,
			 "peak_reset_error", c->peak_reset_error, "wall_ns", (json_int_t)c->wall_ns,
			 "copy_ns", (json_int_t)r->copy_ns, "startup", usage_json(&c->startup),
			 "start", usage_json(&c->start), "end", usage_json(&c->end),
			 "sections_read", (json_int_t)r->sections_read, "sections_mapped",
			 (json_int_t)r->sections_mapped, "sections_decoded",
			 (json_int_t)r->sections_decoded, "bytes_loaded",
			 (json_int_t)r->bytes_loaded, "bytes_copied", (json_int_t)r->bytes_copied,
			 "bytes_decoded", (json_int_t)r->bytes_decoded, "checksum", sum);
}

/*
 * elfplt __load-child --mode=MODE: the plan on standard input, one JSON
 * object on standard output (when a file of the plan fails: its index,
 * "failed_file", and the one-line "error", with exit status 1).  Start-up
 * (exec, dynamic linking, reading the plan, priming the decompressors) comes
 * first and is recorded as "startup"; then VmHWM is reset to the resident set, "start" is taken, the
 * load runs, and "end" is taken while everything is still held.  The JSON
 * is built after that, so its allocations are in no figure.
 */
static int cmd_load_child(int argc, char **argv, struct ep_global *g)
{
	struct ep_load_plan plan = { 0 };
	struct ep_load_held *held = NULL;
	struct ep_load_result res;
	struct ep_error err = { 0 }, reset_err = { 0 };
	struct child_report c = { .res = &res };
	size_t failed = SIZE_MAX;
	uint64_t t0, t1;
	json_t *out;
	size_t len;
	char *buf;
	int rc;

	(void)g;
	if (argc != 2 || strncmp(argv[1], "--mode=", 7) != 0 ||
	    ep_load_mode_parse(argv[1] + 7, &c.mode) != 0)
		return ep_usage_error(NULL, CHILD_CMD " is internal to 'elfplt load'");
	if (ep_load_read_all(0, &buf, &len) != 0) {
		fprintf(stderr, "elfplt: " CHILD_CMD ": cannot read the plan: %s\n",
			strerror(errno));
		return EP_EXIT_FAILED;
	}
	rc = ep_load_plan_decode(&plan, buf, len, &err);
	free(buf);
	if (rc)
		goto fail;
	/* Every child primes, the empty one too: the decompressors are start-up. */
	rc = ep_load_prime(&plan, &failed, &err);
	if (rc)
		goto fail;
	rc = ep_proc_usage_self(&c.startup, &err);
	if (rc)
		goto fail;
	/*
	 * Start-up peaks above where it ends (the dynamic linker's and libc's
	 * transient pages); without the reset that mark would hide any load
	 * that peaks lower, and differ between children.
	 */
	if (ep_proc_peak_reset(&reset_err))
		c.peak_reset_error = reset_err.message;
	rc = ep_proc_usage_self(&c.start, &err);
	if (rc)
		goto fail;

	t0 = ep_monotonic_ns();
	rc = ep_load_run(&plan, c.mode, &res, &held, &err);
	t1 = ep_monotonic_ns();
	failed = res.failed_file;
	if (rc)
		goto fail;
	rc = ep_proc_usage_self(&c.end, &err);
	if (rc)
		goto fail;
	c.wall_ns = t1 - t0;

	out = child_json(&c);
	rc = !out || json_dumpf(out, stdout, JSON_COMPACT) != 0 || fflush(stdout) != 0;
	json_decref(out);
	ep_load_release(held);
	ep_load_plan_free(&plan);
	return rc ? EP_EXIT_FAILED : EP_EXIT_OK;
fail:
	/*
	 * A file to blame: the parent says so once, leaves that file out and
	 * measures the others again.  Anything else is this child's to say.
	 */
	out = failed == SIZE_MAX
		      ? NULL
		      : json_pack("{s:s, s:I, s:s}", "mode", ep_load_mode_name(c.mode),
				  "failed_file", (json_int_t)failed, "error", err.message);
	if (!out || json_dumpf(out, stdout, JSON_COMPACT) != 0 || fflush(stdout) != 0)
		fprintf(stderr, "elfplt: %s\n", err.message);
	json_decref(out);
	ep_load_release(held);
	ep_load_plan_free(&plan);
	return EP_EXIT_FAILED;
}

const struct ep_cmd ep_cmd_load_child = { CHILD_CMD, cmd_load_child,
					  "internal: one measured run of elfplt load", true };
