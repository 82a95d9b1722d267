/* contact_table.h — contact.csv on its schema (schema.h): what each
 * contact handler's run (composed.h, driver/contactrun.h) found, beside
 * the exact answer (docs/contact.md).  Written for a case that measures
 * contact events (VB_MEASURE_CONTACT, profile.h), and for no other: the
 * particle tables are as they were. */
#ifndef VB_CONTACT_TABLE_H
#define VB_CONTACT_TABLE_H

#include <stdio.h>

#include "runs_table.h"
#include "schema.h"

extern const vb_schema vb_contact_schema;

struct vb_sweep;

/* The table: its header, then a row a run with contact measures. */
void vb_write_contact(const struct vb_sweep *s, FILE *f);

/* bounces.csv (chart data) of a case that measures bounces
 * (VB_MEASURE_BOUNCES): after each bounce of each fixed-step run, the
 * height the ball then reaches as stepped, against e^2n h0, and the energy
 * after it over that before the first bounce, against e^2n. */
void vb_write_bounces(const struct vb_sweep *s, FILE *f);

/* summary.md's section of the handlers' findings (nothing for a case
 * without): a row a handler's run with fixed steps. */
void vb_contact_summary(const struct vb_sweep *s, FILE *f);

#endif
