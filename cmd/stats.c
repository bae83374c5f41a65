/* SPDX-License-Identifier: MIT */
/*
 * elfplt stats: relocation statistics per file, and totals.
 */
#include "config.h"

#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/attr.h"
#include "cmd/elfplt.h"
#include "lib/decode.h"
#include "lib/openmetrics.h"
#include "lib/reloc.h"
#include "lib/report.h"
#include "lib/stats.h"
#include "lib/top.h"

/* Totals of one e_machine over the run. */
struct machine_totals {
	unsigned int e_machine;
	uint64_t files;
	uint64_t relocations;
	struct ep_type_counts types;
};

/*
 * What compute_file() hands emit_file() of one file, maybe through a pipe
 * from a worker process: this header, then ntypes struct ep_type_count (the
 * file's counts by type, for the totals), then out_len bytes of its report
 * as rendered there (a text block, or its files[] entry; none for text with
 * --top), then warn_len bytes of its warnings as stderr lines.
 */
struct file_result {
	uint64_t relocations;
	uint64_t nsecs;
	struct ep_sizes sizes;
	struct ep_compressed_sizes compressed;
	struct ep_crel_cost crel;
	uint64_t out_len;
	uint64_t warn_len; /* then warn_len bytes of stderr warning lines */
	uint32_t e_machine;
	uint32_t ntypes;
	uint32_t no_dwarf; /* --by=cu and the file has no DWARF */
	uint32_t unused;
};

/* The run; compute_file() only reads g, tops.max, summary and json. */
struct stats_run {
	struct ep_global *g;
	bool json; /* --format=json */
	struct ep_json_stream js;
	uint64_t nfiles, nfailed, relocations, reloc_sections;
	struct ep_sizes sizes;
	struct ep_compressed_sizes compressed;
	struct ep_crel_cost crel;
	struct machine_totals *machines;
	size_t nmachines;
	struct ep_top tops; /* the --top files so far, by relocations */
	bool summary;	    /* --summary: text has the totals only */
	bool nomem;
	struct ep_attr_opts attr;    /* --by, --debug-file, --debug-dir */
	unsigned long long no_dwarf; /* files whose cu rows are unknown */
};

static json_t *json_by_type(unsigned int e_machine, const struct ep_type_counts *tc)
{
	json_t *a = json_array();
	struct ep_type_count *v;
	size_t i, n;

	v = ep_type_counts_sorted(tc, &n);
	for (i = 0; i < n; i++) {
		json_t *e = ep_json_enum(ep_reloc_type_name(e_machine, v[i].r_type), v[i].r_type);

		json_object_set_new(e, "count", ep_json_u64(v[i].count));
		json_array_append_new(a, e);
	}
	free(v);
	return a;
}

static json_t *json_symbols(const uint64_t *by_class, const uint64_t *distinct)
{
	json_t *o = json_object();
	int c;

	for (c = 0; c < EP_SYM_NCLASS; c++)
		json_object_set_new(o, ep_symclass_name(c), ep_json_u64(by_class[c]));
	if (distinct)
		json_object_set_new(o, "distinct", ep_json_u64(*distinct));
	return o;
}

/* A section's sh_type as an enumeration, {"name": "SHT_RELA", "value": 4}. */
static json_t *json_relkind(enum ep_relkind kind)
{
	char name[16];

	snprintf(name, sizeof(name), "SHT_%s", ep_relkind_name(kind));
	return ep_json_enum(name, ep_relkind_sh_type(kind));
}

/* SHF_COMPRESSED's ch_type, {"name": "ELFCOMPRESS_ZLIB", "value": 1}; null if not compressed. */
static json_t *json_chtype(uint32_t ch_type)
{
	return ch_type ? ep_json_enum(ep_chtype_name(ch_type), ch_type) : json_null();
}

static json_t *json_section_keys(const struct ep_image *img, const struct ep_relsec_stats *s)
{
	/* Without section headers, a PT_DYNAMIC table's symbols are DT_SYMTAB's. */
	const char *symtab = img->shnum			   ? img->sections[s->symtab].name
			     : s->kind == EP_RELKIND_RELR ? ""
							  : "DT_SYMTAB";

	return json_pack("{s:I, s:s, s:o, s:I, s:I, s:b, s:I, s:o, s:I, s:{s:I, s:s, s:b},"
			 " s:{s:I, s:s}, s:o, s:o}",
			 "index", (json_int_t)s->index, "name", s->name, "kind",
			 json_relkind(s->kind), "entries", (json_int_t)s->entries, "relocations",
			 (json_int_t)s->relocations, "dynamic", s->dynamic, "bytes",
			 (json_int_t)s->bytes, "compression", json_chtype(s->ch_type),
			 "decoded_bytes", (json_int_t)s->decoded_bytes, "target", "index",
			 (json_int_t)s->target, "name", s->target_name, "executable",
			 s->target_exec, "symtab", "index", (json_int_t)s->symtab, "name",
			 symtab, "by_type",
			 json_by_type(img->ehdr.e_machine, &s->types), "symbols",
			 json_symbols(s->by_symclass, NULL));
}

/* A sections[] entry: the keys above and crel_bytes. */
static json_t *json_section(const struct ep_image *img, const struct ep_relsec_stats *s)
{
	json_t *o = json_section_keys(img, s);

	if (o)
		json_object_set_new(o, "crel_bytes", ep_json_u64(s->crel_bytes));
	return o;
}

/* {sections, bytes, crel_bytes, savings_bytes}: REL/RELA/CREL today and as CREL. */
static json_t *json_crel(const struct ep_crel_cost *c)
{
	return json_pack("{s:I, s:I, s:I, s:I}", "sections", (json_int_t)c->sections, "bytes",
			 (json_int_t)c->bytes, "crel_bytes", (json_int_t)c->crel_bytes,
			 "savings_bytes", (json_int_t)((int64_t)c->bytes - (int64_t)c->crel_bytes));
}

/*
 * "crel: 3 REL/RELA/CREL sections take 3096 bytes; as CREL 401 bytes: 2695
 * bytes less (87.0%)", after prefix.
 */
static void print_crel(FILE *out, const char *prefix, const struct ep_crel_cost *c)
{
	int64_t saved = (int64_t)c->bytes - (int64_t)c->crel_bytes;

	if (!c->sections)
		return;
	fprintf(out,
		"%s%" PRIu64 " REL/RELA/CREL %s %" PRIu64 " bytes; as CREL %" PRIu64 " bytes: ",
		prefix, c->sections, ep_plural(c->sections, "section takes", "sections take"),
		c->bytes, c->crel_bytes);
	if (saved >= 0)
		fprintf(out, "%" PRId64 " bytes less", saved);
	else
		fprintf(out, "%" PRId64 " bytes more", -saved);
	if (c->bytes)
		fprintf(out, " (%.1f%%)",
			100.0 * (double)(saved < 0 ? -saved : saved) / (double)c->bytes);
	fputc('\n', out);
}

static json_t *json_dynamic(const struct ep_file_stats *fs)
{
	const struct ep_dyn_stats *d = &fs->dyn;
	json_t *o = json_object();
	int k;

	if (!fs->linked) {
		json_decref(o);
		return json_null();
	}
	for (k = 0; k < EP_DYN_NKIND; k++)
		json_object_set_new(o, ep_dynkind_name(k), ep_json_u64(d->by_kind[k]));
	json_object_set_new(o, "relr",
			    json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "relative_in_rel",
				      (json_int_t)d->relative_in_rel, "relative_in_rel_bytes",
				      (json_int_t)d->relative_in_rel_bytes, "packable",
				      (json_int_t)d->relr_packable, "packed_bytes",
				      (json_int_t)d->relr_packed_bytes, "savings_bytes",
				      (json_int_t)d->relr_savings_bytes, "present",
				      (json_int_t)d->relr_present, "present_bytes",
				      (json_int_t)d->relr_present_bytes));
	return o;
}

/* {count, bytes, decoded_bytes, by_type[]}: SHF_COMPRESSED sections. */
static json_t *json_compressed(const struct ep_compressed_sizes *c)
{
	json_t *by_type = json_array();
	uint32_t t;

	for (t = 1; t <= EP_CHTYPE_MAX; t++) {
		const struct ep_compressed_count *k = &c->by_type[t];
		json_t *e;

		if (!k->count)
			continue;
		e = ep_json_enum(ep_chtype_name(t), t);
		json_object_set_new(e, "count", ep_json_u64(k->count));
		json_object_set_new(e, "bytes", ep_json_u64(k->bytes));
		json_object_set_new(e, "decoded_bytes", ep_json_u64(k->decoded_bytes));
		json_array_append_new(by_type, e);
	}
	return json_pack("{s:I, s:I, s:I, s:o}", "count", (json_int_t)c->all.count, "bytes",
			 (json_int_t)c->all.bytes, "decoded_bytes",
			 (json_int_t)c->all.decoded_bytes, "by_type", by_type);
}

static json_t *json_file(const struct ep_image *img, const struct ep_blob *blob,
			 const struct ep_file_stats *fs)
{
	json_t *secs = json_array(), *o;
	size_t i;

	for (i = 0; i < fs->nsecs; i++)
		json_array_append_new(secs, json_section(img, &fs->secs[i]));
	o = json_pack("{s:s, s:o, s:b, s:I, s:s, s:I, s:{s:I, s:I, s:o, s:o, s:o}, s:o,"
		      " s:{s:I, s:I, s:I}, s:o}",
		      "path", img->path, "elf", ep_json_elf(img), "kernel_module",
		      fs->kernel_module, "file_size", (json_int_t)blob->file_size, "compression",
		      ep_compression_name(blob->compression), "image_size", (json_int_t)blob->size,
		      "relocations", "total", (json_int_t)fs->relocations, "sections_count",
		      (json_int_t)fs->nsecs, "sections", secs, "by_type",
		      json_by_type(img->ehdr.e_machine, &fs->types), "symbols",
		      json_symbols(fs->by_symclass, &fs->distinct_symbols), "dynamic",
		      json_dynamic(fs), "sizes", "text", (json_int_t)fs->sizes.text, "data",
		      (json_int_t)fs->sizes.data, "bss", (json_int_t)fs->sizes.bss,
		      "compressed_sections", json_compressed(&fs->compressed));
	if (o)
		json_object_set_new(o, "relocation_source",
				    json_string(fs->from_dynamic ? "dynamic" : "sections"));
	if (o && (fs->warnings.n || fs->warnings.dropped))
		json_object_set_new(o, "warnings", ep_json_warnings(&fs->warnings));
	if (o) {
		ep_json_input_keys(o, blob);
		json_object_set_new(o, "crel", json_crel(&fs->crel));
	}
	return o;
}

static void print_types(FILE *out, unsigned int e_machine, const struct ep_type_counts *tc,
			uint64_t total)
{
	static const char *const hdr[] = { "type", "value", "count", "share" };
	struct ep_table *t = ep_table_new(4, hdr, "lrrr");
	struct ep_type_count *v;
	char pct[16];
	size_t i, n;

	v = ep_type_counts_sorted(tc, &n);
	for (i = 0; t && i < n; i++) {
		const char *name = ep_reloc_type_name(e_machine, v[i].r_type);

		ep_table_row(t);
		if (name)
			ep_table_cell_str(t, name);
		else
			ep_table_cell(t, "unknown (%" PRIu32 ")", v[i].r_type);
		ep_table_cell_u64(t, v[i].r_type);
		ep_table_cell_u64(t, v[i].count);
		ep_table_cell_str(t, ep_percent(pct, sizeof(pct), v[i].count, total));
	}
	if (t && n)
		ep_table_print(t, out, "  ");
	ep_table_free(t);
	free(v);
}

/*
 * "8 SHF_COMPRESSED sections (zlib 8): 2412 bytes in the file, 6035
 * decoded", after prefix; nothing when there are none.
 */
static void print_compressed(FILE *out, const char *prefix, const struct ep_compressed_sizes *c)
{
	const char *sep = " (";
	uint32_t t;

	if (!c->all.count)
		return;
	fprintf(out, "%s%" PRIu64 " SHF_COMPRESSED %s", prefix, c->all.count,
		ep_plural(c->all.count, "section", "sections"));
	for (t = 1; t <= EP_CHTYPE_MAX; t++) {
		if (!c->by_type[t].count)
			continue;
		fprintf(out, "%s%s %" PRIu64, sep, ep_chtype_label(t), c->by_type[t].count);
		sep = ", ";
	}
	fprintf(out, "): %" PRIu64 " bytes in the file, %" PRIu64 " decoded\n", c->all.bytes,
		c->all.decoded_bytes);
}

static void print_file(FILE *out, struct ep_image *img, const struct ep_file_stats *fs)
{
	static const char *const hdr[] = { "[Nr]",   "section", "kind", "entries",
					   "relocs", "target",	"exec", "symtab" };
	const GElf_Ehdr *eh = &img->ehdr;
	struct ep_table *t;
	char mbuf[32];
	size_t i;
	int c;

	fprintf(out, "%s: ELF%d %s %s %s, %" PRIu64 " %s in %zu %s\n", img->path,
		eh->e_ident[EI_CLASS] == ELFCLASS32 ? 32 : 64,
		eh->e_ident[EI_DATA] == ELFDATA2MSB ? "MSB" : "LSB",
		ep_machine_label(eh->e_machine, mbuf, sizeof(mbuf)), ep_image_kind_label(img),
		fs->relocations, ep_plural(fs->relocations, "relocation", "relocations"), fs->nsecs,
		fs->from_dynamic ? ep_plural(fs->nsecs, "PT_DYNAMIC table", "PT_DYNAMIC tables")
				 : ep_plural(fs->nsecs, "section", "sections"));
	if (fs->nsecs) {
		t = ep_table_new(8, hdr, "rllrrlll");
		for (i = 0; t && i < fs->nsecs; i++) {
			const struct ep_relsec_stats *s = &fs->secs[i];

			ep_table_row(t);
			if (fs->from_dynamic) /* a table the dynamic tags describe */
				ep_table_cell_str(t, "-");
			else
				ep_table_cell_index(t, s->index, NULL);
			ep_table_cell_str(t, s->name);
			if (s->ch_type)
				ep_table_cell(t, "%s %s", ep_relkind_name(s->kind),
					      ep_chtype_label(s->ch_type));
			else
				ep_table_cell_str(t, ep_relkind_name(s->kind));
			ep_table_cell_u64(t, s->entries);
			ep_table_cell_u64(t, s->relocations);
			if (s->target)
				ep_table_cell_index(t, s->target, s->target_name);
			else
				ep_table_cell_str(t, "-");
			ep_table_cell_str(t, s->target_exec ? "yes" : "no");
			if (s->symtab)
				ep_table_cell_index(t, s->symtab, img->sections[s->symtab].name);
			else
				ep_table_cell_str(t, "-");
		}
		if (t)
			ep_table_print(t, out, "  ");
		ep_table_free(t);
		fputc('\n', out);
		print_types(out, eh->e_machine, &fs->types, fs->relocations);
		fputs("  symbols:", out);
		for (c = 0; c < EP_SYM_UNKNOWN; c++)
			fprintf(out, " %s %" PRIu64 "%s", ep_symclass_name(c), fs->by_symclass[c],
				c + 1 < EP_SYM_UNKNOWN ? "," : "");
		/* Only a file with an unreadable symbol table has any. */
		if (fs->by_symclass[EP_SYM_UNKNOWN])
			fprintf(out, ", unknown %" PRIu64, fs->by_symclass[EP_SYM_UNKNOWN]);
		fprintf(out, "; %" PRIu64 " distinct %s\n", fs->distinct_symbols,
			ep_plural(fs->distinct_symbols, "symbol", "symbols"));
	}
	if (fs->linked) {
		const struct ep_dyn_stats *d = &fs->dyn;

		fputs("  dynamic:", out);
		for (c = 0; c < EP_DYN_NKIND; c++)
			fprintf(out, " %s %" PRIu64 "%s", ep_dynkind_name(c), d->by_kind[c],
				c + 1 < EP_DYN_NKIND ? "," : "\n");
		fprintf(out,
			"  relr: %" PRIu64 " RELATIVE in REL/RELA (%" PRIu64 " bytes), %" PRIu64
			" packable into %" PRIu64 " bytes: saves %" PRId64 " bytes",
			d->relative_in_rel, d->relative_in_rel_bytes, d->relr_packable,
			d->relr_packed_bytes, d->relr_savings_bytes);
		if (d->relr_present)
			fprintf(out, "; %" PRIu64 " already in SHT_RELR (%" PRIu64 " bytes)",
				d->relr_present, d->relr_present_bytes);
		fputc('\n', out);
	}
	print_crel(out, "  crel: ", &fs->crel);
	fprintf(out, "  sizes: text %" PRIu64 ", data %" PRIu64 ", bss %" PRIu64 " bytes\n",
		fs->sizes.text, fs->sizes.data, fs->sizes.bss);
	print_compressed(out, "  compressed: ", &fs->compressed);
	fputc('\n', out);
}

static struct machine_totals *machine_slot(struct stats_run *run, unsigned int e_machine)
{
	struct machine_totals *m;
	size_t i;

	for (i = 0; i < run->nmachines; i++)
		if (run->machines[i].e_machine == e_machine)
			return &run->machines[i];
	m = realloc(run->machines, (run->nmachines + 1) * sizeof(*m));
	if (!m)
		return NULL;
	run->machines = m;
	m = &run->machines[run->nmachines++];
	memset(m, 0, sizeof(*m));
	m->e_machine = e_machine;
	return m;
}

static int add_totals(struct stats_run *run, const char *path, const struct file_result *r,
		      const struct ep_type_count *types)
{
	struct machine_totals *m = machine_slot(run, r->e_machine);
	uint32_t i;

	run->nfiles++;
	run->relocations += r->relocations;
	run->reloc_sections += r->nsecs;
	run->sizes.text += r->sizes.text;
	run->sizes.data += r->sizes.data;
	run->sizes.bss += r->sizes.bss;
	ep_compressed_add(&run->compressed, &r->compressed);
	ep_crel_cost_add(&run->crel, &r->crel);
	if (!m)
		return -EP_ENOMEM;
	for (i = 0; i < r->ntypes; i++)
		if (ep_type_counts_add(&m->types, types[i].r_type, types[i].count))
			return -EP_ENOMEM;
	m->files++;
	m->relocations += r->relocations;
	return ep_top_add(&run->tops, path, r->relocations, NULL);
}

/* What print_one() prints: one file's counts. */
struct print_args {
	struct ep_image *img;
	const struct ep_file_stats *fs;
	const struct stats_run *run;
	const struct ep_attr *attr;
};

/* print_file() in ep_render_text()'s shape; arg is a struct print_args. */
static void print_one(FILE *f, const void *arg)
{
	const struct print_args *a = arg;

	print_file(f, a->img, a->fs);
	if (a->run->attr.by) {
		ep_attr_print(f, a->attr, a->run->tops.max, false);
		fputc('\n', f);
	}
}

/* The file's report, as the bytes emit_file() writes: text, or a files[] entry. */
static int render_file(const struct stats_run *run, struct ep_image *img,
		       const struct ep_blob *blob, const struct ep_file_stats *fs,
		       const struct ep_attr *attr, char **out, size_t *out_len)
{
	const struct print_args args = { img, fs, run, attr };
	json_t *o;

	*out = NULL;
	*out_len = 0;
	if (run->json) {
		int rc;

		/* The object lives only to be dumped: its values from an arena. */
		ep_json_arena_begin();
		o = json_file(img, blob, fs);
		if (o && run->attr.by)
			json_object_set_new(o, "attribution",
					    ep_attr_json(attr, run->tops.max, false));
		rc = ep_render_json(o, out, out_len);
		ep_json_arena_end();
		return rc;
	}
	/* OpenMetrics (totals only) has no per-file text; --top and --summary list
	 * the totals instead of each file's details, unless --by asks for them. */
	if (run->g->format == EP_FORMAT_OPENMETRICS || ((run->tops.max || run->summary) && !run->attr.by))
		return 0;
	return ep_render_text(print_one, &args, out, out_len);
}

/* Maybe in a worker process: count, render, pack what emit_file() needs. */
static int compute_file(struct ep_image *img, const struct ep_blob *blob, void *ctx, void **result,
			size_t *result_len, struct ep_error *err)
{
	const struct stats_run *run = ctx;
	struct file_result r = { 0 };
	struct ep_type_count *types;
	struct ep_file_stats fs;
	struct ep_attr attr = { 0 };
	unsigned char *p;
	char *out = NULL, *warn = NULL;
	size_t i, out_len = 0, warn_len = 0;
	int rc;

	rc = ep_stats_file(img, &fs, err);
	if (rc == 0 && run->attr.by)
		rc = ep_attr_stats(img, run->attr.by, &run->attr.dwarf, &attr, err);
	if (rc == 0 && attr.debug_warning[0])
		ep_warn(&fs.warnings, "debug_file", "%s", attr.debug_warning);
	if (rc == 0 && render_file(run, img, blob, &fs, &attr, &out, &out_len))
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
	if (rc)
		goto out;
	r.relocations = fs.relocations;
	r.nsecs = fs.nsecs;
	r.sizes = fs.sizes;
	r.compressed = fs.compressed;
	r.crel = fs.crel;
	r.out_len = out_len;
	r.e_machine = img->ehdr.e_machine;
	r.ntypes = (uint32_t)fs.types.n;
	r.no_dwarf = attr.dwarf_missing;
	warn = ep_warnings_text(img->path, &fs.warnings, &warn_len);
	r.warn_len = warn_len;
	*result_len = sizeof(r) + r.ntypes * sizeof(*types) + out_len + warn_len;
	p = malloc(*result_len);
	if (!p) {
		rc = ep_error_set(err, EP_ENOMEM, "%s: out of memory", img->path);
		goto out;
	}
	memcpy(p, &r, sizeof(r));
	types = (struct ep_type_count *)(p + sizeof(r));
	/* In table order: the totals sort them anyway. */
	for (i = 0; i < fs.types.cap; i++)
		if (fs.types.slots[i].count)
			*types++ = fs.types.slots[i];
	if (out_len)
		memcpy(types, out, out_len);
	if (warn_len)
		memcpy((char *)types + out_len, warn, warn_len);
	*result = p;
out:
	free(warn);
	free(out);
	ep_attr_free(&attr);
	ep_stats_free(&fs);
	return rc;
}

/* In the main process, in input order: write the file's report, add it up. */
static int emit_file(const char *path, const void *result, size_t result_len, void *ctx,
		     struct ep_error *err)
{
	struct stats_run *run = ctx;
	const unsigned char *p = result;
	const struct ep_type_count *types;
	const char *out;
	struct file_result r;

	if (result_len >= sizeof(r))
		memcpy(&r, p, sizeof(r));
	if (result_len < sizeof(r) || r.ntypes > (result_len - sizeof(r)) / sizeof(*types) ||
	    r.out_len > result_len - sizeof(r) - r.ntypes * sizeof(*types) ||
	    r.warn_len != result_len - sizeof(r) - r.ntypes * sizeof(*types) - r.out_len)
		return ep_error_set(err, EP_EIO, "%s: the worker's result is malformed", path);
	types = (const struct ep_type_count *)(p + sizeof(r));
	out = (const char *)(types + r.ntypes);
	run->no_dwarf += r.no_dwarf != 0;
	if (r.warn_len)
		ep_jobs_stderr(out + r.out_len, r.warn_len);
	if (add_totals(run, path, &r, types))
		return ep_error_set(err, EP_ENOMEM, "%s: out of memory", path);
	if (run->json)
		ep_json_stream_file_text(&run->js, out, r.out_len);
	else if (r.out_len)
		fwrite(out, 1, r.out_len, run->g->out);
	return 0;
}

static void stats_error(const char *path, const struct ep_error *err, void *ctx)
{
	struct stats_run *run = ctx;
	json_t *e;

	run->nfailed++;
	if (!run->json)
		return;
	e = ep_json_file_error(path, err);
	if (!e || ep_json_stream_file(&run->js, e))
		run->js.failed = true;
	json_decref(e);
}

static json_t *totals_json_keys(struct stats_run *run);

/* The totals object: the keys below and crel. */
static json_t *totals_json(struct stats_run *run)
{
	json_t *o = totals_json_keys(run);

	if (o)
		json_object_set_new(o, "crel", json_crel(&run->crel));
	return o;
}

static json_t *totals_json_keys(struct stats_run *run)
{
	json_t *machines = json_array(), *top = json_array();
	size_t i, ntop = run->tops.n;

	for (i = 0; i < run->nmachines; i++) {
		struct machine_totals *m = &run->machines[i];

		json_array_append_new(machines,
				      json_pack("{s:o, s:I, s:I, s:o}", "machine",
						ep_json_enum(ep_machine_name(m->e_machine),
							     m->e_machine),
						"files", (json_int_t)m->files, "relocations",
						(json_int_t)m->relocations, "by_type",
						json_by_type(m->e_machine, &m->types)));
	}
	for (i = 0; i < ntop; i++)
		json_array_append_new(top,
				      json_pack("{s:s, s:I}", "path", run->tops.v[i].path,
						"relocations", (json_int_t)run->tops.v[i].key));
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:{s:I, s:I, s:I}, s:o, s:o, s:o}", "files",
			 (json_int_t)run->nfiles, "files_failed", (json_int_t)run->nfailed,
			 "skipped", (json_int_t)ep_inputs_skipped(), "relocations",
			 (json_int_t)run->relocations, "relocation_sections",
			 (json_int_t)run->reloc_sections, "sizes", "text",
			 (json_int_t)run->sizes.text, "data", (json_int_t)run->sizes.data, "bss",
			 (json_int_t)run->sizes.bss, "compressed_sections",
			 json_compressed(&run->compressed), "by_machine", machines, "top", top);
}

static void totals_text(struct stats_run *run)
{
	static const char *const hdr[] = { "#", "relocations", "file" };
	FILE *out = run->g->out;
	char mbuf[32];
	size_t i, ntop = run->tops.n;

	if (run->nfiles + run->nfailed <= 1 && !run->tops.max && !run->summary)
		return;
	fprintf(out,
		"total: %" PRIu64 " %s, %" PRIu64 " %s in %" PRIu64 " %s; text %" PRIu64
		", data %" PRIu64 ", bss %" PRIu64 " bytes",
		run->nfiles, ep_plural(run->nfiles, "file", "files"), run->relocations,
		ep_plural(run->relocations, "relocation", "relocations"), run->reloc_sections,
		ep_plural(run->reloc_sections, "section", "sections"), run->sizes.text,
		run->sizes.data, run->sizes.bss);
	if (run->nfailed)
		fprintf(out, "; %" PRIu64 " %s failed", run->nfailed,
			ep_plural(run->nfailed, "file", "files"));
	fputc('\n', out);
	print_compressed(out, "compressed: ", &run->compressed);
	print_crel(out, "crel: ", &run->crel);
	for (i = 0; i < run->nmachines; i++) {
		struct machine_totals *m = &run->machines[i];

		fprintf(out, "%s: %" PRIu64 " %s, %" PRIu64 " %s\n",
			ep_machine_label(m->e_machine, mbuf, sizeof(mbuf)), m->files,
			ep_plural(m->files, "file", "files"), m->relocations,
			ep_plural(m->relocations, "relocation", "relocations"));
		print_types(out, m->e_machine, &m->types, m->relocations);
	}
	if (ntop) {
		struct ep_table *t = ep_table_new(3, hdr, "rrl");

		fprintf(out, "top %zu %s by relocations:\n", ntop,
			ep_plural(ntop, "file", "files"));
		for (i = 0; t && i < ntop; i++) {
			ep_table_row(t);
			ep_table_cell_u64(t, i + 1);
			ep_table_cell_u64(t, run->tops.v[i].key);
			ep_table_cell_str(t, run->tops.v[i].path);
		}
		if (t)
			ep_table_print(t, out, "  ");
		ep_table_free(t);
	}
}

static void run_free(struct stats_run *run)
{
	size_t i;

	for (i = 0; i < run->nmachines; i++)
		ep_type_counts_free(&run->machines[i].types);
	free(run->machines);
	ep_top_free(&run->tops);
}

static void stats_usage(FILE *f)
{
	fputs("usage: elfplt stats [--top N] [--summary] [--by=symbol|section|cu[,...]] [--debug-file=PATH]\n"
	      "                    [--debug-dir=DIR] [-j N] [-q] [--max-size=BYTES]\n"
	      "                    [--format=text|json|openmetrics] [-o FILE] [PATH...]\n"
	      "Relocation statistics of ELF files; directories are searched for ELF files.\n"
	      "With no PATH, the running kernel's modules in /lib/modules/$(uname -r).\n\n"
	      "  --top N             list the N files with most relocations (text: instead of\n"
	      "                      each file's details)\n"
	      "  --summary           the totals only, not each file's details (text)\n"
	      "  --by=LIST           each file's relocations by the symbol they reference, the\n"
	      "                      section they patch, or the compile unit (DWARF) of the\n"
	      "                      place; commas join; with --top N, the first N rows\n"
	      "  --debug-file=PATH   the debug info of the one input (cu)\n"
	      "  --debug-dir=DIR     debug info in DIR/<input path>[.debug], else by build-id\n"
	      "                      under /usr/lib/debug\n"

	      "  -j, --jobs N        analyse N files at a time (default: from the work,\n"
	      "                      see elfplt(1)); the report is the same for any N\n"
	      "  -q, --quiet         no progress bar on a terminal\n"
	      "  --max-size=BYTES    refuse a compressed input or section that decodes to more\n"
	      "                      than BYTES (K, M, G suffixes; default 1G)\n"
	      "  --format=text|json  output for people (default) or machines (elfplt-stats/2)\n"
	      "  --json              same as --format=json\n"
	      "  --format=openmetrics  the totals as OpenMetrics gauges (GitLab metrics report)\n"
	      "  -o, --output FILE   write the report to FILE ('-': standard output)\n"
	      "See 'elfplt help stats' for the whole manual.\n",
	      f);
}

static int cmd_stats(int argc, char **argv, struct ep_global *g)
{
	static const struct option longopts[] = {
		{ "top", required_argument, NULL, 't' },
		{ "summary", no_argument, NULL, 's' },
		EP_ATTR_LONGOPTS,
		EP_GLOBAL_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct stats_run run = { .g = g };
	struct ep_paths in;
	json_t *totals;
	int c, rc, status;

	/* Our own messages, so they start "elfplt: " like every other one. */
	opterr = 0;
	while ((c = ep_getopt_long(argc, argv, EP_GLOBAL_SHORTOPTS, longopts)) != -1) {
		switch (c) {
		case 't':
			if (ep_top_parse(optarg, &run.tops.max))
				return ep_usage_error(g->cmd,
						      "--top takes a positive number, not '%s'",
						      optarg);
			break;
		case 's':
			run.summary = true;
			break;
		case 'h':
			stats_usage(stdout);
			return EP_EXIT_OK;
		case EP_ATTR_OPT_BY:
		case EP_ATTR_OPT_DEBUG_FILE:
		case EP_ATTR_OPT_DEBUG_DIR:
			rc = ep_attr_option(g->cmd, c, optarg,
					    EP_BY_SYMBOL | EP_BY_SECTION | EP_BY_CU, &run.attr);
			if (rc != 1)
				return rc;
			break;
		default:
			rc = ep_other_option(g, c, argv);
			if (rc)
				return rc;
		}
	}
	rc = ep_format_check(g, EP_FORMAT_BIT(EP_FORMAT_TEXT) | EP_FORMAT_BIT(EP_FORMAT_JSON) |
					EP_FORMAT_BIT(EP_FORMAT_OPENMETRICS));
	if (rc)
		return rc;
	/* Before -o creates its file: the PATH operands, not what they expand to. */
	rc = ep_attr_check_inputs(g->cmd, &run.attr, (size_t)(argc - optind), g->output);
	if (rc == 0)
		rc = ep_inputs_and_output(g, &in, argc, argv);
	if (rc)
		return rc;
	run.json = g->format == EP_FORMAT_JSON;
	if (run.json && ep_json_stream_begin(&run.js, g->out, "elfplt-stats/2"))
		run.js.failed = true;

	status = ep_for_each_image_jobs(g, in.v, in.n, false, compute_file, emit_file, stats_error,
					&run);
	if (run.json) {
		json_t *skipped = ep_json_skipped();

		if (!skipped || ep_json_stream_key(&run.js, "skipped", skipped))
			status = EP_EXIT_FAILED;
		json_decref(skipped);
		totals = totals_json(&run);
		if (!totals || ep_json_stream_end(&run.js, totals))
			status = EP_EXIT_FAILED;
		json_decref(totals);
	} else if (g->format == EP_FORMAT_OPENMETRICS) {
		if (ep_openmetrics_totals(g->out, "elfplt_stats", totals_json(&run)))
			status = EP_EXIT_FAILED;
	} else {
		totals_text(&run);
		ep_print_skipped(g->out);
	}
	ep_attr_note_no_dwarf(g->cmd, run.no_dwarf);
	run_free(&run);
	if (ep_output_close(g))
		status = EP_EXIT_FAILED;
	return status;
}

const struct ep_cmd ep_cmd_stats = { "stats", cmd_stats, "relocation statistics", false };
