/* batch.c — lockstep lanes (see batch.h). */
#include "batch.h"

#include <math.h>

#include "plan.h"

void vb_kepler_lanes_start(double mu, vb_kepler_lanes *l, const double *x0, const double *v0)
{
    for (size_t i = 0; i < l->n; i++) {
        l->x[i] = x0[0];
        l->y[i] = x0[1];
        l->vx[i] = v0[0];
        l->vy[i] = v0[1];
    }
    vb_kepler_accel_lanes(mu, l);
}

void vb_kepler_accel_lanes(double mu, vb_kepler_lanes *l)
{
    for (size_t i = 0; i < l->n; i++) {
        double r2 = l->x[i] * l->x[i] + l->y[i] * l->y[i];
        double k = -mu / (r2 * sqrt(r2));
        l->ax[i] = k * l->x[i];
        l->ay[i] = k * l->y[i];
    }
}

/* One velocity Verlet step of every lane, lane i with step h[i].  A lane with
 * h[i] = 0 stays exactly where it is (v + a*0 = v, x + v*0 = x, the same a
 * again), so finished lanes need no mask; a lane that has gone non-finite
 * only ever touches its own slots. */
static inline void step_lanes(double mu, size_t n, double *restrict x, double *restrict y,
                              double *restrict vx, double *restrict vy, double *restrict ax,
                              double *restrict ay, const double *restrict h)
{
    for (size_t i = 0; i < n; i++) {
        double half = 0.5 * h[i];
        vx[i] += ax[i] * half;
        vy[i] += ay[i] * half;
        x[i] += vx[i] * h[i];
        y[i] += vy[i] * h[i];
        double r2 = x[i] * x[i] + y[i] * y[i];
        double k = -mu / (r2 * sqrt(r2));
        ax[i] = k * x[i];
        ay[i] = k * y[i];
        vx[i] += ax[i] * half;
        vy[i] += ay[i] * half;
    }
}

void vb_vv_kepler_lanes(double mu, vb_kepler_lanes *l, unsigned long steps)
{
    /* the inner loop has no dependence between lanes, so their sqrt and
     * division overlap instead of waiting on the previous step's */
    for (unsigned long s = 0; s < steps; s++)
        step_lanes(mu, l->n, l->x, l->y, l->vx, l->vy, l->ax, l->ay, l->h);
}

unsigned long long vb_vv_kepler_lanes_plans(double mu, vb_kepler_lanes *l, vb_plan *plans)
{
    double h[VB_MAX_LANES];
    unsigned long long steps = 0;
    for (;;) {
        size_t live = 0;
        for (size_t i = 0; i < l->n; i++) {
            double t_next;
            if (!vb_plan_next(&plans[i], &h[i], &t_next))
                h[i] = 0.0; /* this lane has reached its t_end */
            else
                live++;
        }
        if (!live)
            return steps;
        step_lanes(mu, l->n, l->x, l->y, l->vx, l->vy, l->ax, l->ay, h);
        steps++;
    }
}
