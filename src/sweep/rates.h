/* rates.h — the frame-rate table (docs/method.md §9): a case with
 * [loop] rates runs the same scenario at each display rate, fixed and
 * jittered frames, every loop x integrator at each; what a player sees at
 * each rate (the final position, the highest point, the energy error, the
 * drawn state's error) and how far the rates spread. */
#ifndef VB_RATES_H
#define VB_RATES_H

#include <stddef.h>

#include "results.h"

/* vb_rate_row, vb_rate_spread: results.h */

/* The height a rate row reports: the last coordinate of the first body
 * (y in 2-D, z in 3-D, x in 1-D). */
size_t vb_rate_height_index(const vb_model *m);

/* Run the table into s->rates (none when the case gives no rates).  0, or
 * -1 with a message (out of memory, a write error). */
int vb_sweep_rates(vb_sweep *s, char *err, size_t errlen);

/* The spread of rows[0..n) that belong to integrator i, frames kind. */
vb_rate_spread vb_rate_spread_of(const vb_sweep *s, size_t i, vb_plan_kind kind);

#endif
