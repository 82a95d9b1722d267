/* lanes.c — a force law on every lane: the model's batched law, or its
 * scalar law lane by lane (a plugin's model). */
#include "lanes.h"

void vb_force_lanes_eval(vb_force_lanes *f, const double *t, const vb_lane_row *x,
                         const vb_lane_row *v, vb_lane_row *a)
{
    f->evals++;
    if (f->accel_lanes) {
        f->accel_lanes(f->model, t, x, v, a);
        return;
    }
    double *xi = f->scratch, *vi = xi + f->n, *ai = vi + f->n;
    for (size_t i = 0; i < f->used; i++) {
        for (size_t c = 0; c < f->n; c++) {
            xi[c] = x[c][i];
            vi[c] = v[c][i];
        }
        f->accel(f->model, t[i], xi, vi, ai);
        for (size_t c = 0; c < f->n; c++)
            a[c][i] = ai[c];
    }
    /* lanes not in use still get a value: the batched steps read every lane */
    for (size_t i = f->used; i < VB_LANES; i++)
        for (size_t c = 0; c < f->n; c++)
            a[c][i] = 0.0;
}
