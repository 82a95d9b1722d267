/* contact_orders.h — the order in dt of each contact measure of a rigid
 * body at a contact (contact.csv's body view): for every entry
 * (METHOD+SOLVER) and plan, each measure's distance from its exact value
 * at each level, fitted by orders.csv's own code (vb_fit_order, its
 * floors, saturation and asymptotic range: docs/method.md §5).  No label
 * order is claimed for a contact measure, so a power law is "measured"
 * (vb_fit_verdict with none), never judged above or below one
 * (docs/contact.md, "Orders in dt"). */
#ifndef VB_CONTACT_ORDERS_H
#define VB_CONTACT_ORDERS_H

#include "results.h"

/* Whether the case's exact body has the measure: the rolling ones where it
 * rolls (a finite t_roll_exact), creep where it must stick (creep_exact
 * 0), the others always.  c: any run's measures (the exact values are the
 * model's, the same in every run). */
int vb_contact_err_applies(const vb_contact_result *c, vb_contact_err m);

/* One run's error of the measure: its distance from the exact value; inf
 * for a run that did not finish, or a measure that never came (a body
 * that never rolled).  Its scale: the size it is measured against (the
 * case's t_end for a time, the run's pos_scale for a length, vel_scale
 * for a speed, 1 for a relative error). */
double vb_contact_err_value(const vb_run_result *r, vb_contact_err m);
double vb_contact_err_scale(const vb_run_result *r, vb_contact_err m);

/* Fill s->contact_orders: a row an entry, plan and measure that applies,
 * for a case of a rigid body at a contact (none for any other, whose
 * contact.csv is a wall's).  0, or -1 out of memory. */
int vb_sweep_contact_orders(vb_sweep *s);

#endif
