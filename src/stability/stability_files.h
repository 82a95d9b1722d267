/* stability_files.h — what `verletbench stability` writes: stability.csv
 * (a row a search), stability-summary.csv (a row an integrator, point and
 * jitter, over its seeds) and stability.md (that summary as a table), each
 * with its provenance, written whole or not at all (docs/stability.md §6). */
#ifndef VB_STABILITY_FILES_H
#define VB_STABILITY_FILES_H

#include <stddef.h>
#include <stdio.h>

#include "stability_study.h"

/* The three files into dir (made if missing).  0, or -1 with a message. */
int vb_stab_write(const char *dir, const vb_stab_study *s, char *err, size_t errlen);
/* The summary as a Markdown table. */
void vb_stab_print_table(FILE *f, const vb_stab_study *s);

#endif
