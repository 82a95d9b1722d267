/* rollcharts.h — the charts of a rigid body at a contact (docs/contact.md,
 * "3D: rolling and resting bodies"), each written as gnuplot commands by C
 * that reads its table, as gpcharts.h's:
 *  - roll-time (motion.csv): v and w R against time, a panel a solver,
 *    each method's at one fixed step beside the exact ones: the moment the
 *    slide turns into a roll;
 *  - creep (contact.csv of a body that must stick): |creep| against dt,
 *    log-log, a panel a rotation method, a curve a solver;
 *  - roll-map (grid.csv of a roll grid over alpha and mu, with each
 *    point's contact.csv beside it): where each solver's ball rolled,
 *    against the exact boundary tan(alpha) = mu (1 + k)/k.
 * Each returns 0, or -1 with a message naming the file. */
#ifndef VB_ROLLCHARTS_H
#define VB_ROLLCHARTS_H

#include <stddef.h>

#include "csvread.h"
#include "gp.h"

/* the step roll-time draws: 1/60 s (a game's frame) where the table has
 * it, else its coarsest fixed step */
#define VB_ROLL_TIME_DT (1.0 / 60.0)

int vb_chart_roll_time(vb_chart *ch, const vb_csv *t, const char *title, char *err,
                       size_t errlen);
int vb_chart_creep(vb_chart *ch, const vb_csv *t, const char *title, char *err, size_t errlen);
int vb_chart_roll_map(vb_chart *ch, const vb_csv *t, const char *title, char *err,
                      size_t errlen);

/* contact.csv of a round body (t_roll_exact a number, inf where it never
 * rolls; a box's is blank) */
int vb_roll_time_applies(const char *contact_csv);
/* contact.csv of a body that must stick: a row with creep_exact 0 */
int vb_creep_applies(const char *contact_csv);
/* grid.csv of model roll whose keys are alpha and mu */
int vb_roll_map_applies(const char *grid_csv);

#endif
