/* SPDX-License-Identifier: MIT */
/*
 * The PLT-model registry, and what every model shares: choosing a model for
 * a file, the kernel a module's loader is modelled at, the result's
 * bookkeeping and its sums.  The models themselves live in lib/plt-<model>.c.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/plt-kernel.h"
#include "lib/plt.h"
#include "lib/xref.h"
#include "lib/report.h"

/*
 * The registry: one line per model, in the order automatic choice tries
 * them: the kernel loaders (each for its e_machine's modules), then the
 * objects and linked files.
 */
extern const struct ep_plt_model ep_plt_model_arm64_module;
extern const struct ep_plt_model ep_plt_model_arm_module;
extern const struct ep_plt_model ep_plt_model_loongarch_module;
extern const struct ep_plt_model ep_plt_model_powerpc64_module;
extern const struct ep_plt_model ep_plt_model_riscv_module;
extern const struct ep_plt_model ep_plt_model_s390;
extern const struct ep_plt_model ep_plt_model_object;
extern const struct ep_plt_model ep_plt_model_linked;

const struct ep_plt_model *const ep_plt_models[] = {
	&ep_plt_model_arm64_module,
	&ep_plt_model_arm_module,
	&ep_plt_model_loongarch_module,
	&ep_plt_model_powerpc64_module,
	&ep_plt_model_riscv_module,
	&ep_plt_model_s390,
	&ep_plt_model_object,
	&ep_plt_model_linked,
	NULL,
};

size_t ep_plt_model_count(void)
{
	return sizeof(ep_plt_models) / sizeof(ep_plt_models[0]) - 1;
}

const struct ep_plt_model *ep_plt_model_find(const char *name)
{
	size_t i;

	for (i = 0; ep_plt_models[i]; i++)
		if (strcmp(ep_plt_models[i]->name, name) == 0)
			return ep_plt_models[i];
	return NULL;
}

int ep_plt_model_index(const struct ep_plt_model *m)
{
	size_t i;

	for (i = 0; ep_plt_models[i]; i++)
		if (ep_plt_models[i] == m)
			return (int)i;
	return -1;
}

const char *ep_plt_model_names(void)
{
	static char buf[256];
	size_t i, n = ep_plt_model_count(), len = 0;

	if (buf[0])
		return buf;
	for (i = 0; i < n && len < sizeof(buf); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
					i == 0	     ? ""
					: i == n - 1 ? (n > 2 ? ", or " : " or ")
						     : ", ",
					ep_plt_models[i]->name);
	return buf;
}

const char *ep_plt_kind_name(enum ep_plt_kind k)
{
	static const char *const names[EP_PLT_NKIND] = { "plt", "got", "stub", "trampoline" };

	return k < EP_PLT_NKIND ? names[k] : NULL;
}

const char *ep_plt_group_name(enum ep_plt_group g)
{
	static const char *const names[EP_PLT_NGROUP] = { "core", "init", "module" };

	return g < EP_PLT_NGROUP ? names[g] : NULL;
}

/* ---- kernel versions ------------------------------------------------------- */

/* A decimal number at *s, at most 5 digits; -1 when *s is no digit. */
static long version_number(const char **s)
{
	long n = 0;
	int digits = 0;

	while (**s >= '0' && **s <= '9' && digits < 6) {
		n = n * 10 + (**s - '0');
		(*s)++;
		digits++;
	}
	return digits && digits < 6 ? n : -1;
}

int ep_kernel_version_parse(const char *s, uint32_t *v)
{
	long major, minor, sub = 0;

	if (*s == 'v')
		s++;
	major = version_number(&s);
	if (major < 0 || *s++ != '.')
		return -1;
	minor = version_number(&s);
	if (minor < 0 || major > 255 || minor > 255)
		return -1;
	if (*s == '.') {
		s++;
		sub = version_number(&s);
		if (sub < 0 || sub > 65535)
			return -1;
	}
	*v = EP_KVER(major, minor, sub);
	return 0;
}

bool ep_kernel_sublevel_known(const char *s)
{
	const char *p = s + (*s == 'v');
	int dots = 0;

	for (; (*p >= '0' && *p <= '9') || *p == '.'; p++)
		dots += *p == '.';
	if (dots < 2)
		return false;
	/* "X.Y.0-N": the ABI number stands where the sublevel would. */
	return !(p >= s + 2 && p[-1] == '0' && p[-2] == '.' && p[0] == '-' && p[1] >= '0' &&
		 p[1] <= '9');
}

const char *ep_kernel_version_text(uint32_t v, char *buf, size_t size)
{
	if (EP_KVER_SUB(v))
		snprintf(buf, size, "%u.%u.%u", EP_KVER_MAJOR(v), EP_KVER_MINOR(v), EP_KVER_SUB(v));
	else
		snprintf(buf, size, "%u.%u", EP_KVER_MAJOR(v), EP_KVER_MINOR(v));
	return buf;
}

const char *ep_kernel_from_name(enum ep_kernel_from from)
{
	switch (from) {
	case EP_KERNEL_FROM_VERMAGIC:
		return "vermagic";
	case EP_KERNEL_FROM_OPTION:
		return "option";
	default:
		return "default";
	}
}

/* Is word one of the space-separated words of p[0..len)? */
static bool has_word(const char *p, size_t len, const char *word)
{
	const size_t n = strlen(word);
	const char *q = p, *end = p + len;

	while ((q = memmem(q, (size_t)(end - q), word, n)) != NULL) {
		if ((q == p || q[-1] == ' ') && (q + n == end || q[n] == ' '))
			return true;
		q += n;
	}
	return false;
}

bool ep_vermagic_has(const char *vermagic, const char *word)
{
	return has_word(vermagic, strlen(vermagic), word);
}

/*
 * Copy the value of .modinfo's "vermagic=" entry into buf (NUL-terminated,
 * cut to fit, bytes that are not clean UTF-8 text made '?': ep_text_clean()),
 * or leave buf "" when there is none; *mod_unload tells whether the whole
 * value, not only what fits, has the word "mod_unload" (true without a
 * vermagic).  .modinfo is a run of NUL-terminated "key=value" strings
 * (modpost, MODULE_INFO()).
 */
static int read_vermagic(struct ep_image *img, char *buf, size_t size, bool *mod_unload,
			 struct ep_error *err)
{
	static const char key[] = "vermagic=";
	size_t idx = ep_image_find_section(img, ".modinfo"), off = 0, n;
	const char *p;
	Elf_Data *d;

	buf[0] = '\0';
	*mod_unload = true;
	if (!idx || img->sections[idx].shdr.sh_type == SHT_NOBITS)
		return 0;
	d = ep_section_data(img, idx, err);
	if (!d)
		return -EP_EMALFORMED;
	p = d->d_buf;
	while (p && off < d->d_size) {
		const char *e = memchr(p + off, '\0', d->d_size - off);
		size_t len = e ? (size_t)(e - (p + off)) : d->d_size - off;

		if (len >= sizeof(key) - 1 && memcmp(p + off, key, sizeof(key) - 1) == 0) {
			n = len - (sizeof(key) - 1);
			*mod_unload = has_word(p + off + sizeof(key) - 1, n, "mod_unload");
			if (n >= size)
				n = size - 1;
			memcpy(buf, p + off + sizeof(key) - 1, n);
			buf[n] = '\0';
			ep_text_clean(buf); /* for one-line text and a valid JSON string */
			return 0;
		}
		off += len + 1;
	}
	return 0;
}

int ep_plt_kernel_choose(struct ep_image *img, const struct ep_plt_options *opt, uint32_t fallback,
			 uint32_t floor, uint32_t checked_through, struct ep_plt_kernel *k,
			 struct ep_error *err)
{
	uint32_t v = 0;
	int rc;

	memset(k, 0, sizeof(*k));
	rc = read_vermagic(img, k->vermagic, sizeof(k->vermagic), &k->mod_unload, err);
	if (rc)
		return rc;
	k->applies = true;
	k->from = EP_KERNEL_FROM_DEFAULT;
	k->sublevel_known = true;
	if (k->vermagic[0]) {
		if (ep_kernel_version_parse(k->vermagic, &v) == 0) {
			k->from = EP_KERNEL_FROM_VERMAGIC;
			k->sublevel_known = ep_kernel_sublevel_known(k->vermagic);
		}
	}
	if (opt->kernel) {
		v = opt->kernel;
		k->from = EP_KERNEL_FROM_OPTION;
		k->sublevel_known = true;
	} else if (k->from == EP_KERNEL_FROM_DEFAULT) {
		v = fallback;
	}
	k->version = v;
	k->floor = floor;
	k->checked_through = checked_through;
	k->below_floor = v < floor;
	/* checked_through names a series: every sublevel of it was checked. */
	k->beyond_checked = EP_KVER_SERIES(v) > EP_KVER_SERIES(checked_through);
	return 0;
}

/* ---- the result -------------------------------------------------------------- */

struct ep_plt_count ep_plt_result_slots(const struct ep_plt_result *res)
{
	return ep_plt_totals_sum(res->slots);
}

struct ep_plt_count ep_plt_result_bytes(const struct ep_plt_result *res)
{
	struct ep_plt_count c = { 0, 0 };
	size_t i;

	for (i = 0; i < res->nsized; i++) {
		c.reserved += res->sized[i].bytes.reserved;
		c.minimum += res->sized[i].bytes.minimum;
	}
	return c;
}

struct ep_plt_sized *ep_plt_sized_add(struct ep_plt_result *res, const char *name, size_t index,
				      enum ep_plt_kind kind, enum ep_plt_group group)
{
	struct ep_plt_sized *s;

	if (res->nsized >= EP_PLT_MAX_SIZED)
		return NULL;
	s = &res->sized[res->nsized++];
	memset(s, 0, sizeof(*s));
	s->name = name;
	s->index = index;
	s->kind = kind;
	s->group = group;
	return s;
}

struct ep_plt_section *ep_plt_section_add(struct ep_plt_result *res)
{
	struct ep_plt_section *v = realloc(res->secs, (res->nsecs + 1) * sizeof(*v));

	if (!v)
		return NULL;
	res->secs = v;
	memset(&v[res->nsecs], 0, sizeof(*v));
	v[res->nsecs].group = EP_PLT_NOGROUP;
	return &v[res->nsecs++];
}

struct ep_plt_site *ep_plt_site_add(struct ep_plt_result *res)
{
	if (res->nsites == res->sites_cap) {
		size_t cap = res->sites_cap ? 2 * res->sites_cap : 64;
		struct ep_plt_site *v = realloc(res->sites, cap * sizeof(*v));

		if (!v)
			return NULL;
		res->sites = v;
		res->sites_cap = cap;
	}
	memset(&res->sites[res->nsites], 0, sizeof(res->sites[0]));
	return &res->sites[res->nsites++];
}

struct ep_plt_site *ep_plt_site_of(struct ep_plt_result *res, const struct ep_plt_section *s,
				   const struct ep_rel *r)
{
	struct ep_plt_site *p;

	if (res->nsites < res->sites_cap)
		p = &res->sites[res->nsites++];
	else if (!(p = ep_plt_site_add(res))) /* grows the array */
		return NULL;
	/* Whole, not zeroed then filled: this is once per slot-needing relocation. */
	*p = (struct ep_plt_site){ .r_offset = r->r_offset,
				   .r_addend = r->r_addend,
				   .relsec = (uint32_t)s->index,
				   .target = (uint32_t)s->target,
				   .r_type = r->r_type,
				   .r_sym = r->r_sym };
	return p;
}

size_t ep_plt_causes(const struct ep_plt_result *res, struct ep_plt_cause *out)
{
	if (!res->model || !res->model->causes)
		return 0;
	return res->model->causes(res, out);
}

int ep_plt_read_section(struct ep_image *img, size_t idx, struct ep_relsec *rs, struct ep_rel **out,
			struct ep_error *err)
{
	int rc = ep_relsec_open(img, idx, rs, err);

	*out = NULL;
	if (rc)
		return rc;
	return ep_relsec_read_all(rs, out, err);
}

/* "no PLT model covers this kind of file (models: ...)", made once. */
static const char *no_model_note(void)
{
	static char buf[320];

	if (!buf[0])
		snprintf(buf, sizeof(buf), "no PLT model covers this kind of file (models: %s)",
			 ep_plt_model_names());
	return buf;
}

/* The first SHT_SYMTAB, the one the loader takes; 0 if none. */
static size_t symtab_of(const struct ep_image *img)
{
	size_t i;

	for (i = 1; i < img->shnum; i++)
		if (img->sections[i].shdr.sh_type == SHT_SYMTAB)
			return i;
	return 0;
}

int ep_plt_analyse(struct ep_image *img, const struct ep_plt_model *forced,
		   const struct ep_plt_options *opt, struct ep_plt_result *res,
		   struct ep_error *err)
{
	const struct ep_plt_model *m = NULL;
	const char *why = NULL;
	size_t i;
	int rc;

	memset(res, 0, sizeof(*res));
	res->opt = *opt;
	if (forced) {
		why = forced->check(img, true);
		if (!why)
			m = forced;
	} else {
		for (i = 0; ep_plt_models[i] && !m; i++)
			if (!ep_plt_models[i]->check(img, false))
				m = ep_plt_models[i];
		if (!m)
			why = no_model_note();
	}
	if (!m) {
		res->note = why;
		return 0;
	}
	res->model = m;
	/* The links between the tables (lib/xref.h), for a file a model reads:
	 * one no model covers is not read at all. */
	ep_xref_check(img, &res->warnings);
	rc = m->analyse(img, res, err);
	/*
	 * The generic loader's refusals (lib/plt-kernel.h) for a kernel
	 * model's module: setup_load_info()'s comes before any arch code;
	 * simplify_symbols()'s, for a model that has not placed it itself,
	 * after the arch's frob (a model's later-stage refusal keeps its place).
	 */
	if (rc == 0 && res->kernel.applies && ep_image_is_kernel_module(img)) {
		const char *early = ep_plt_loader_rejects_early(img);

		/* A model may have said it already, with its own detail after. */
		if (early && (!res->rejects || strncmp(res->rejects, early, strlen(early)) != 0))
			res->rejects = early;
		else if (!res->rejects)
			res->rejects = ep_plt_loader_rejects_common(img, symtab_of(img));
	}
	return rc;
}

void ep_plt_result_free(struct ep_plt_result *res)
{
	free(res->secs);
	res->secs = NULL;
	res->nsecs = 0;
	free(res->detail);
	res->detail = NULL;
	free(res->sites);
	res->sites = NULL;
	res->nsites = res->sites_cap = 0;
	ep_warnings_free(&res->warnings);
}

/* ---- totals ------------------------------------------------------------------ */

struct ep_plt_count ep_plt_totals_sum(const struct ep_plt_count (*c)[EP_PLT_NGROUP])
{
	struct ep_plt_count s = { 0, 0 };
	int k, g;

	for (k = 0; k < EP_PLT_NKIND; k++)
		for (g = 0; g < EP_PLT_NGROUP; g++) {
			s.reserved += c[k][g].reserved;
			s.minimum += c[k][g].minimum;
		}
	return s;
}

static void count_add(struct ep_plt_count *to, const struct ep_plt_count *c)
{
	to->reserved += c->reserved;
	to->minimum += c->minimum;
}

static void sort_add(struct ep_plt_sort *to, const struct ep_plt_sort *s)
{
	to->applies |= s->applies;
	to->full += s->full;
	to->loader += s->loader;
	to->needed += s->needed;
	to->sections += s->sections;
	to->sections_unsorted += s->sections_unsorted;
	to->full_ns += s->full_ns;
	to->partitioned_ns += s->partitioned_ns;
}

void ep_plt_totals_of(const struct ep_plt_result *res, struct ep_plt_totals *t)
{
	const struct ep_plt_kernel *k = &res->kernel;
	size_t i;

	memset(t, 0, sizeof(*t));
	t->files = 1;
	if (!res->model)
		return;
	for (i = 0; i < res->nsecs; i++)
		t->relocations += res->secs[i].relocations;
	t->rejected = res->rejects != NULL;
	memcpy(t->slots, res->slots, sizeof(t->slots));
	for (i = 0; i < res->nsized; i++)
		count_add(&t->bytes[res->sized[i].kind][res->sized[i].group], &res->sized[i].bytes);
	/* A file whose loader sorts nothing adds nothing to what is sorted. */
	if (res->sort.applies)
		t->sort = res->sort;
	if (k->applies) {
		t->kernel_from[k->from] = 1;
		t->below_floor = k->below_floor;
		t->beyond_checked = k->beyond_checked;
		t->kernel_oldest = t->kernel_newest = k->version;
	}
	if (res->model->detail_sums)
		res->model->detail_sums(res, t->detail);
}

void ep_plt_totals_add(struct ep_plt_totals *to, const struct ep_plt_totals *from)
{
	int k, g;
	size_t i;

	to->files += from->files;
	to->relocations += from->relocations;
	to->rejected += from->rejected;
	for (k = 0; k < EP_PLT_NKIND; k++)
		for (g = 0; g < EP_PLT_NGROUP; g++) {
			count_add(&to->slots[k][g], &from->slots[k][g]);
			count_add(&to->bytes[k][g], &from->bytes[k][g]);
		}
	sort_add(&to->sort, &from->sort);
	for (i = 0; i < EP_KERNEL_NFROM; i++)
		to->kernel_from[i] += from->kernel_from[i];
	to->below_floor += from->below_floor;
	to->beyond_checked += from->beyond_checked;
	if (from->kernel_oldest && (!to->kernel_oldest || from->kernel_oldest < to->kernel_oldest))
		to->kernel_oldest = from->kernel_oldest;
	if (from->kernel_newest > to->kernel_newest)
		to->kernel_newest = from->kernel_newest;
	for (i = 0; i < EP_PLT_DETAIL_SUMS; i++)
		to->detail[i] += from->detail[i];
}

void ep_plt_print_kernels(FILE *out, const struct ep_plt_totals *t)
{
	static const enum ep_kernel_from order[] = { EP_KERNEL_FROM_VERMAGIC, EP_KERNEL_FROM_OPTION,
						     EP_KERNEL_FROM_DEFAULT };
	const char *sep = " (";
	char lo[32], hi[32];
	size_t i;

	if (!t->kernel_oldest)
		return;
	fprintf(out, "  kernels: %s", ep_kernel_version_text(t->kernel_oldest, lo, sizeof(lo)));
	if (t->kernel_newest != t->kernel_oldest)
		fprintf(out, " to %s", ep_kernel_version_text(t->kernel_newest, hi, sizeof(hi)));
	for (i = 0; i < 3; i++) {
		if (!t->kernel_from[order[i]])
			continue;
		fprintf(out, "%s%" PRIu64 " from %s", sep, t->kernel_from[order[i]],
			order[i] == EP_KERNEL_FROM_DEFAULT  ? "the default (no vermagic)"
			: order[i] == EP_KERNEL_FROM_OPTION ? "--kernel"
							    : "vermagic");
		sep = ", ";
	}
	fputc(')', out);
	if (t->beyond_checked)
		fprintf(out, "; %" PRIu64 " beyond the newest kernel checked", t->beyond_checked);
}

json_t *ep_plt_json_kernels(const struct ep_plt_totals *t)
{
	char lo[32], hi[32];

	return json_pack(
		"{s:s?, s:s?, s:{s:o, s:o, s:o}, s:o, s:o}", "oldest",
		t->kernel_oldest ? ep_kernel_version_text(t->kernel_oldest, lo, sizeof(lo)) : NULL,
		"newest",
		t->kernel_newest ? ep_kernel_version_text(t->kernel_newest, hi, sizeof(hi)) : NULL,
		"from", "vermagic", ep_json_u64(t->kernel_from[EP_KERNEL_FROM_VERMAGIC]), "option",
		ep_json_u64(t->kernel_from[EP_KERNEL_FROM_OPTION]), "default",
		ep_json_u64(t->kernel_from[EP_KERNEL_FROM_DEFAULT]), "below_floor",
		ep_json_u64(t->below_floor), "beyond_checked", ep_json_u64(t->beyond_checked));
}

/* The length of "6.1.0-57" in "6.1.0-57-arm64 SMP ...": the version and its ABI number. */
static int abi_name_len(const char *vermagic)
{
	size_t n = strcspn(vermagic, " +"), dash = strcspn(vermagic, "-");

	if (dash < n)
		n = dash + 1 + strcspn(vermagic + dash + 1, " +-");
	return (int)n;
}

void ep_plt_print_kernel(FILE *out, const struct ep_plt_kernel *k)
{
	char v[32], f[32];

	fprintf(out, "; kernel %s", ep_kernel_version_text(k->version, v, sizeof(v)));
	switch (k->from) {
	case EP_KERNEL_FROM_VERMAGIC:
		if (k->sublevel_known)
			fputs(" (vermagic)", out);
		else
			fprintf(out, " (vermagic %.*s: sublevel unknown, read as %u.%u.0)",
				abi_name_len(k->vermagic), k->vermagic, EP_KVER_MAJOR(k->version),
				EP_KVER_MINOR(k->version));
		break;
	case EP_KERNEL_FROM_OPTION:
		fputs(" (--kernel)", out);
		break;
	default:
		fputs(k->vermagic[0] ? " (default: vermagic has no version)"
				     : " (default: no vermagic)",
		      out);
	}
	if (k->below_floor)
		fprintf(out, " modelled as %s, the oldest the model follows",
			ep_kernel_version_text(k->floor, f, sizeof(f)));
	if (k->beyond_checked)
		fprintf(out,
			" modelled with the rules of %u.%u, the newest the model was checked "
			"against",
			EP_KVER_MAJOR(k->checked_through), EP_KVER_MINOR(k->checked_through));
	if (!k->mod_unload)
		fputs(", no mod_unload", out);
}
