/* chartkinds.h — the table of chart kinds (drawing.h's vb_chart_kind):
 * each kind one const entry in its builder's own file, listed once in
 * chartkinds.c, in the order a case's charts stand in its report. */
#ifndef VB_CHARTKINDS_H
#define VB_CHARTKINDS_H

#include <stddef.h>

#include "drawing.h"

size_t vb_chart_kind_count(void);
/* the i-th kind, or NULL past the last */
const vb_chart_kind *vb_chart_kind_at(size_t i);
/* the kind of a name (draw --chart NAME), or NULL */
const vb_chart_kind *vb_chart_kind_named(const char *name);

#endif
