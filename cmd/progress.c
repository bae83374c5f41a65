/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cmd/elfplt.h"
#include "cmd/progress.h"
#include "lib/load.h"

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

void ep_progress_start(struct ep_progress *p, const struct ep_global *g, size_t total)
{
	const char *env = getenv("ELFPLT_PROGRESS_DELAY_MS");
	uint64_t delay_ns = PROGRESS_DELAY_NS;
	char *end;

	memset(p, 0, sizeof(*p));
	p->total = total;
	p->out_tty = ep_output_isatty(g);
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
void ep_progress_clear(struct ep_progress *p)
{
	if (!p->shown)
		return;
	fputs("\r\033[K", stderr);
	p->shown = false;
}

/* done of total files are through: redraw the bar if it is time. */
void ep_progress_update(struct ep_progress *p, size_t done)
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
