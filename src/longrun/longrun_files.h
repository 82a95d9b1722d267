/* longrun_files.h — what `verletbench longrun` writes: longrun.csv (every
 * sample of every run), longrun-summary.csv (a row a run: exponents,
 * verdicts, drift) and longrun.md (the summary as a table), with their
 * provenance, written whole or not at all (docs/longrun.md §4). */
#ifndef VB_LONGRUN_FILES_H
#define VB_LONGRUN_FILES_H

#include <stddef.h>
#include <stdio.h>

#include "longrun_study.h"

int vb_long_write(const char *dir, const vb_long_study *s, char *err, size_t errlen);
void vb_long_print_table(FILE *f, const vb_long_study *s);

#endif
