/* SPDX-License-Identifier: MIT */
/*
 * --by: options and rendering of a file's attribution (cmd/attr.h), shared
 * by plt and stats.  Names no PLT model: causes come with their names.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/attr.h"
#include "cmd/elfplt.h"
#include "lib/error.h"
#include "lib/report.h"

int ep_attr_option(const char *cmd, int c, const char *arg, unsigned int allowed,
		   struct ep_attr_opts *o)
{
	switch (c) {
	case EP_ATTR_OPT_BY:
		if (ep_attr_parse(arg, allowed, &o->by) == 0)
			return 1;
		{
			char names[128] = "";
			unsigned int i;

			for (i = 0; i < EP_BY_NBY; i++)
				if (allowed & 1u << i) {
					if (names[0])
						strcat(names, "|");
					strcat(names, ep_attr_by_name(1u << i));
				}
			return ep_usage_error(cmd, "--by takes %s (several with commas), not '%s'",
					      names, arg);
		}
	case EP_ATTR_OPT_DEBUG_FILE:
		o->dwarf.debug_file = arg;
		return 1;
	case EP_ATTR_OPT_DEBUG_DIR:
		o->dwarf.debug_dir = arg;
		return 1;
	}
	return 0;
}

/*
 * Whether the existing regular file output is the --debug-file (by inode:
 * any of its names) or lies under --debug-dir (resolved: through any
 * symbolic link); both are read as debug info.
 */
static bool output_is_debug_input(const struct ep_attr_opts *o, const char *output)
{
	struct stat ost, st;
	bool clash = false;

	if (!output || strcmp(output, "-") == 0 || stat(output, &ost) != 0 || !S_ISREG(ost.st_mode))
		return false; /* standard output, nothing there yet, or a device */
	if (o->dwarf.debug_file && stat(o->dwarf.debug_file, &st) == 0 && st.st_dev == ost.st_dev &&
	    st.st_ino == ost.st_ino)
		return true;
	if (o->dwarf.debug_dir) {
		char *dir = realpath(o->dwarf.debug_dir, NULL);
		char *out = realpath(output, NULL);
		size_t n = dir ? strlen(dir) : 0;

		/* Out of memory: refuse, better than destroy an input. */
		clash = !dir || !out ||
			(strncmp(out, dir, n) == 0 && (out[n] == '/' || (n == 1 && dir[0] == '/')));
		free(dir);
		free(out);
	}
	return clash;
}

int ep_attr_check_inputs(const char *cmd, const struct ep_attr_opts *o, size_t ninputs,
			 const char *output)
{
	if (o->dwarf.debug_file && ninputs != 1)
		return ep_usage_error(cmd,
				      "--debug-file names the debug info of one input, not %zu",
				      ninputs);
	if (output_is_debug_input(o, output))
		return ep_usage_error(cmd,
				      "-o %s would overwrite an input (the --debug-file or a "
				      "file under --debug-dir); elfplt never writes to its inputs",
				      output);
	return 0;
}

static const char *heading(unsigned int by)
{
	switch (by) {
	case EP_BY_CALLEE:
		return "callee";
	case EP_BY_CALLER:
		return "caller";
	case EP_BY_CU:
		return "compile unit";
	case EP_BY_LINE:
		return "source line";
	case EP_BY_SYMBOL:
		return "symbol";
	case EP_BY_SECTION:
		return "section";
	}
	return "?";
}

/*
 * A row's name as a cell of text: a symbol, section or file name is bytes
 * from the file, so a newline or an escape sequence in it must not reach
 * the terminal; its control characters and bytes that are not UTF-8 become
 * '?' (ep_text_clean(), as for a walked path).  JSON keeps the name exact.
 */
static void cell_name(struct ep_table *tab, const char *name)
{
	char *c;

	if (ep_text_is_clean(name, strlen(name))) {
		ep_table_cell_str(tab, name);
		return;
	}
	c = strdup(name);
	if (c)
		ep_text_clean(c);
	ep_table_cell_str(tab, c ? c : "?");
	free(c);
}

static void print_table(FILE *out, const struct ep_attr_table *t, size_t top, bool plt)
{
	const char *hdr[4] = { heading(t->by), plt ? "sites" : "relocations", "reserved",
			       "minimum" };
	const size_t n = top && top < t->nrows ? top : t->nrows;
	struct ep_table *tab = ep_table_new(plt ? 4 : 2, hdr, plt ? "lrrr" : "lr");
	uint64_t sites = 0;
	size_t i;

	for (i = 0; i < t->nrows; i++)
		sites += t->rows[i].sites;
	fprintf(out, "  by %s: %zu %s, %" PRIu64 " %s%s\n", ep_attr_by_name(t->by), t->nrows,
		ep_plural(t->nrows, "row", "rows"), sites,
		plt ? ep_plural(sites, "site", "sites")
		    : ep_plural(sites, "relocation", "relocations"),
		n < t->nrows ? " (the first shown, --top)" : "");
	for (i = 0; tab && i < n; i++) {
		ep_table_row(tab);
		cell_name(tab, t->rows[i].name);
		ep_table_cell_u64(tab, t->rows[i].sites);
		if (plt) {
			ep_table_cell_u64(tab, t->rows[i].reserved);
			ep_table_cell_u64(tab, t->rows[i].minimum);
		}
	}
	if (tab && n)
		ep_table_print(tab, out, "    ");
	ep_table_free(tab);
}

static void print_causes(FILE *out, const struct ep_attr *a)
{
	static const char *const hdr[] = { "cause", "slots" };
	const int64_t over = (int64_t)(a->slots.reserved - a->slots.minimum);
	struct ep_table *t;
	size_t i;

	fprintf(out, "  by cause: reserved %" PRIu64 " - minimum %" PRIu64 " = %" PRId64 "%s\n",
		a->slots.reserved, a->slots.minimum, over,
		a->ncauses ? "" : " (the model names no cause: it reserves the minimum)");
	if (!a->ncauses)
		return;
	t = ep_table_new(2, hdr, "lr");
	for (i = 0; t && i < a->ncauses; i++) {
		ep_table_row(t);
		ep_table_cell_str(t, a->causes[i].name);
		ep_table_cell(t, "%" PRId64, a->causes[i].slots);
	}
	if (t)
		ep_table_print(t, out, "    ");
	ep_table_free(t);
}

void ep_attr_print(FILE *out, const struct ep_attr *a, size_t top, bool plt)
{
	size_t i;

	if (plt && a->sites_asked && !a->sites_recorded)
		fputs("  by callee, caller, cu, line: this model does not record its sites\n", out);
	for (i = 0; i < a->ntables; i++)
		print_table(out, &a->tables[i], top, plt);
	if (a->dwarf_asked) {
		char *debug = a->debug_file ? strdup(a->debug_file) : NULL;

		if (debug)
			ep_text_clean(
				debug); /* a path found by .gnu_debuglink: bytes from the file */
		fprintf(out, "  debug info: %s\n",
			a->dwarf_missing
				? "none (cu and line unknown)"
				: (a->debug_file ? (debug ? debug : "?") : "the file's own"));
		free(debug);
	}
	if (a->cause)
		print_causes(out, a);
}

/*
 * A row's name as a JSON string: json_string() checks the bytes are UTF-8,
 * one call a byte; ASCII, nearly every name, is checked here 8 bytes at a
 * time and made without that check (the same string).
 */
static json_t *json_name(const char *name)
{
	const size_t len = strlen(name);
	size_t i = 0;
	uint64_t w, high = 0;

	for (; i + 8 <= len; i += 8) {
		memcpy(&w, name + i, 8);
		high |= w;
	}
	for (; i < len; i++)
		high |= (unsigned char)name[i];
	if (high & 0x8080808080808080ull) {
		json_t *v = json_string(name);
		char *copy;

		if (v)
			return v;
		/* Not UTF-8 (a crafted or corrupt name): its bytes above 0x7f become '?'. */
		copy = strdup(name);
		if (!copy)
			return NULL;
		for (i = 0; i < len; i++)
			if ((unsigned char)copy[i] >= 0x80)
				copy[i] = '?';
		v = json_stringn_nocheck(copy, len);
		free(copy);
		return v;
	}
	return json_stringn_nocheck(name, len);
}

/* Small counts, most of a row's: one value each, shared by the rows of a file. */
#define SMALL_COUNTS 64

/* ep_json_u64(v), shared from small[] when v is small; small[] starts all NULL. */
static json_t *json_count(json_t **small, uint64_t v)
{
	if (v >= SMALL_COUNTS)
		return ep_json_u64(v);
	if (!small[v])
		small[v] = ep_json_u64(v);
	return json_incref(small[v]);
}

json_t *ep_attr_json(const struct ep_attr *a, size_t top, bool plt)
{
	json_t *o = json_object(), *small[SMALL_COUNTS] = { NULL };
	size_t i, r;

	for (i = 0; o && i < a->ntables; i++) {
		const struct ep_attr_table *t = &a->tables[i];
		const size_t n = top && top < t->nrows ? top : t->nrows;
		json_t *rows = json_array();

		for (r = 0; r < n; r++) {
			const struct ep_attr_row *w = &t->rows[r];
			json_t *e = json_object();

			/* Not json_pack(): a format parsed per row is felt on a module tree. */
			json_object_set_new_nocheck(e, "name", json_name(w->name));
			json_object_set_new_nocheck(e, plt ? "sites" : "relocations",
						    json_count(small, w->sites));
			if (plt) {
				json_object_set_new_nocheck(e, "reserved",
							    json_count(small, w->reserved));
				json_object_set_new_nocheck(e, "minimum",
							    json_count(small, w->minimum));
			}
			json_array_append_new(rows, e);
		}
		json_object_set_new(o, ep_attr_by_name(t->by), rows);
	}
	for (i = 0; i < SMALL_COUNTS; i++)
		json_decref(small[i]);
	if (plt)
		json_object_set_new(o, "sites_recorded", json_boolean(a->sites_recorded));
	if (a->dwarf_asked)
		json_object_set_new(o, "debug_info",
				    a->dwarf_missing
					    ? json_null()
					    : json_string(a->debug_file ? a->debug_file : ""));
	if (a->cause) {
		json_t *c = json_array();

		for (i = 0; i < a->ncauses; i++)
			json_array_append_new(c,
					      json_pack("{s:s, s:I}", "name", a->causes[i].name,
							"slots", (json_int_t)a->causes[i].slots));
		json_object_set_new(o, "cause", c);
	}
	return o;
}

void ep_attr_note_no_dwarf(const char *cmd, unsigned long long nfiles)
{
	if (nfiles)
		fprintf(stderr,
			"elfplt %s: no DWARF for %llu %s: %s cu and line rows say \"unknown\"\n",
			cmd, nfiles, nfiles == 1 ? "file" : "files", nfiles == 1 ? "its" : "their");
}
