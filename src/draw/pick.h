/* pick.h — the rows of a table that a chart draws when draw is told which
 * (draw --dt, --methods): the curves of some methods, and the exact one; a
 * rigid body's w at one of the fixed steps run records it at (the polhode
 * and angvel-time charts of polhode.csv, docs/rigid.md §7). */
#ifndef VB_PICK_H
#define VB_PICK_H

#include <stddef.h>

#include "csvread.h"

typedef struct vb_pick {
    double dt;           /* > 0: this fixed step (VB_PICK_STEP_TOL); 0: the coarsest */
    const char *methods; /* "a,b": only these curves and the exact one; NULL: every one */
} vb_pick;

/* How far a step asked for may be from one of a table's, relative: the
 * steps of a case differ by factors of 2, so no other step is within it,
 * and it admits the table's ten digits and a step typed short (0.01667
 * for 1/60 s) */
#define VB_PICK_STEP_TOL 1e-3

/* the most fixed steps a table is read for (a case has at most 30 halvings) */
#define VB_PICK_MAX_STEPS 64

/* The distinct steps (dt) of a table's fixed rows, largest first, into out
 * (room for VB_PICK_MAX_STEPS); their number */
size_t vb_pick_steps(const vb_csv *t, double *out);
/* "0.1, 0.05, 0.025" */
void vb_pick_steps_text(const double *steps, size_t n, char *buf, size_t len);
/* the index of dt among steps (dt 0: the first, the coarsest), or -1 */
int vb_pick_step(const double *steps, size_t n, double dt);
/* the comma-separated list names m */
int vb_pick_named(const char *methods, const char *m);
/* How many of the methods listed a table's integrator column holds; the
 * first it does not into missing (len bytes, "" when it holds them all) */
size_t vb_pick_found(const vb_csv *t, const char *methods, char *missing, size_t len);
/* The list is names separated by single commas, none empty: 0, or -1 with
 * a message */
int vb_pick_list_ok(const char *methods, char *err, size_t errlen);

/* The rows of t a chart draws, as a table of their own that shares t's
 * text (vb_csv_filter): the exact ones, and those of the methods picked
 * (every one without a list; a table without an integrator column is kept
 * whole); with one_step, of the fixed plan alone at the step picked (the
 * coarsest for 0), whose value goes to *dt.  0, or -1 with a message
 * naming the table (no such step, or out of memory). */
int vb_pick_rows(const vb_csv *t, const vb_pick *pick, int one_step, vb_csv *out, double *dt,
                 char *err, size_t errlen);

#endif
