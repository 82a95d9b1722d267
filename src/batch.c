/* batch.c — lockstep lanes (see batch.h). */
#include "batch.h"

#include <math.h>

void vb_kepler_accel_lanes(double mu, vb_kepler_lanes *l)
{
    for (size_t i = 0; i < l->n; i++) {
        double r2 = l->x[i] * l->x[i] + l->y[i] * l->y[i];
        double k = -mu / (r2 * sqrt(r2));
        l->ax[i] = k * l->x[i];
        l->ay[i] = k * l->y[i];
    }
}

void vb_vv_kepler_lanes(double mu, vb_kepler_lanes *l, unsigned long steps)
{
    const size_t n = l->n;
    double *restrict x = l->x, *restrict y = l->y, *restrict vx = l->vx, *restrict vy = l->vy;
    double *restrict ax = l->ax, *restrict ay = l->ay;
    const double *restrict h = l->h;
    for (unsigned long s = 0; s < steps; s++)
        /* one step of every lane: the inner loop has no dependence between
         * lanes, so its sqrt and division overlap instead of waiting on the
         * previous step's */
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
