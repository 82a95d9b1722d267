/* ratefiles.h — the frame-rate table's files (sweep/rates.h): rates.csv, and
 * its spreads as a table of summary.md. */
#ifndef VB_RATEFILES_H
#define VB_RATEFILES_H

#include <stdio.h>

#include "rates.h"

void vb_write_rates(const vb_sweep *s, FILE *f);
/* the Markdown table of the spreads across rates; nothing without rates */
void vb_write_rates_summary(const vb_sweep *s, FILE *f);

#endif
