/* SPDX-License-Identifier: MIT */
/*
 * The PLT-model registry: choosing a model for a file and the result's
 * bookkeeping.  The models themselves live in lib/plt-<model>.c.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/plt.h"

const struct ep_plt_model *const ep_plt_models[] = {
	&ep_plt_model_arm64_module,
	&ep_plt_model_object,
	&ep_plt_model_linked,
	NULL,
};

const char *ep_plt_group_name(enum ep_plt_group g)
{
	switch (g) {
	case EP_PLT_CORE:
		return "core";
	case EP_PLT_INIT:
		return "init";
	default:
		return NULL;
	}
}

const struct ep_plt_model *ep_plt_model_find(const char *name)
{
	size_t i;

	for (i = 0; ep_plt_models[i]; i++)
		if (strcmp(ep_plt_models[i]->name, name) == 0)
			return ep_plt_models[i];
	return NULL;
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

int ep_plt_analyse(struct ep_image *img, const struct ep_plt_model *forced,
		   const struct ep_plt_options *opt, struct ep_plt_result *res,
		   struct ep_error *err)
{
	const struct ep_plt_model *m = NULL;
	const char *why = NULL;
	size_t i;

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
			why = "no PLT model covers this kind of file (models: arm64 kernel "
			      "modules, "
			      "x86-64/AArch64 relocatable objects, linked executables and shared "
			      "objects)";
	}
	if (!m) {
		res->note = why;
		return 0;
	}
	res->model = m;
	return m->analyse(img, res, err);
}

void ep_plt_result_free(struct ep_plt_result *res)
{
	free(res->secs);
	res->secs = NULL;
	res->nsecs = 0;
}
