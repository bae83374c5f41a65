/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_OPENMETRICS_H
#define ELFPLT_OPENMETRICS_H

/*
 * OpenMetrics text exposition (the format of GitLab's metrics report,
 * artifacts:reports:metrics): gauges with labels, grouped by family, ending
 * with "# EOF".  Model: the OpenMetrics 1.0 specification, "Text Format".
 */

#include <jansson.h>
#include <stdio.h>

/* Samples collected before they are written, so that each family is one run. */
struct ep_om {
	struct ep_om_sample *v;
	size_t n, cap;
	int nomem;
	json_t *index; /* "name\0labels" -> its sample, so adding n samples is O(n) */
};

/*
 * Add a gauge sample: name (made of [a-zA-Z0-9_], other bytes become '_'),
 * labels as nlabels key/value pairs (values escaped on output), value.  A
 * second sample with the same name and labels is dropped.  Returns 0, or
 * -EP_ENOMEM (then om->nomem is set and the output will say so by failing).
 */
int ep_om_add(struct ep_om *om, const char *name, const char *const *labels, size_t nlabels,
	      double value);

/*
 * Add every number of the JSON value v (a command's "totals") as a gauge
 * named prefix_key_key...: objects give name parts; an array of objects
 * gives one sample per element, labelled by the element's string members
 * and enumerations ({"name", "value"}: the label is the name) and by those
 * of the arrays around it.  Booleans, strings and nulls are not metrics.
 * Returns 0 or -EP_ENOMEM.
 */
int ep_om_add_json(struct ep_om *om, const char *prefix, const json_t *v);

/*
 * Write the samples, each family after a "# TYPE name gauge" line in the
 * order of its first sample, then "# EOF".  Returns 0, or -EP_EIO when out
 * reports an error, or -EP_ENOMEM when a sample was lost.
 */
int ep_om_write(const struct ep_om *om, FILE *out);

/*
 * A command's --format=openmetrics: totals (a command's JSON "totals"; the
 * reference is taken; NULL counts as out of memory) as ep_om_add_json()
 * names them under prefix ("elfplt_stats"), written to out with
 * ep_om_write().  Returns 0, -EP_ENOMEM or -EP_EIO.
 */
int ep_openmetrics_totals(FILE *out, const char *prefix, json_t *totals);

/* Free what om holds. */
void ep_om_free(struct ep_om *om);

#endif
