/* summary.h — a case's table, in Markdown: its summary.md, its part of
 * DIR/summary.md, and what run prints. */
#ifndef VB_SUMMARY_H
#define VB_SUMMARY_H

#include <stdio.h>

#include "results.h"

/* The summary table of a case, in Markdown. */
void vb_sweep_summary(const vb_sweep *s, FILE *out);

#endif
