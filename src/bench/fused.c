/* fused.c — the references of the benchmark: velocity Verlet written by
 * hand for one system at a time, every function inlined and the force
 * folded into the loop, as a game or cloth engine's inner loop is.  What a
 * step through the tables costs is a ratio against these. */
#include "fused.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the sink every timed loop writes its result to, so none is optimised away */
static volatile double sink;

/* the Kepler orbit (mu) from the given state */
__attribute__((noinline)) static void fused_vv_orbit(double mu, double x, double y, double vx,
                                                     double vy, double h, unsigned long steps)
{
    double r2 = x * x + y * y, k = -mu / (r2 * sqrt(r2));
    double ax = k * x, ay = k * y, half = 0.5 * h;
    for (unsigned long s = 0; s < steps; s++) {
        vx += ax * half;
        vy += ay * half;
        x += vx * h;
        y += vy * h;
        r2 = x * x + y * y;
        k = -mu / (r2 * sqrt(r2));
        ax = k * x;
        ay = k * y;
        vx += ax * half;
        vy += ay * half;
    }
    sink = x + y + vx + vy;
}

/* a chain of n masses between fixed walls, w2 = k/m: what a rope or cloth
 * engine's inner loop looks like, the force folded into the drift */
__attribute__((noinline)) static int fused_vv_chain(size_t n, double w2, const double *x0,
                                                    const double *v0, double h,
                                                    unsigned long steps)
{
    double *x = n ? malloc(3 * n * sizeof *x) : NULL;
    if (!x)
        return -1;
    double *v = x + n, *a = v + n, half = 0.5 * h;
    memcpy(x, x0, n * sizeof *x);
    memcpy(v, v0, n * sizeof *v);
    /* the walls (x = 0) outside the loops, which then vectorise */
#define CHAIN_ACCEL(i, left, right) (w2 * (((left) - x[i]) + ((right) - x[i])))
    a[0] = CHAIN_ACCEL(0, 0.0, n > 1 ? x[1] : 0.0);
    for (size_t i = 1; i + 1 < n; i++)
        a[i] = CHAIN_ACCEL(i, x[i - 1], x[i + 1]);
    if (n > 1)
        a[n - 1] = CHAIN_ACCEL(n - 1, x[n - 2], 0.0);
    for (unsigned long s = 0; s < steps; s++) {
        for (size_t i = 0; i < n; i++) {
            v[i] += a[i] * half;
            x[i] += v[i] * h;
        }
        /* the force and the second kick in one pass */
        a[0] = CHAIN_ACCEL(0, 0.0, n > 1 ? x[1] : 0.0);
        v[0] += a[0] * half;
        for (size_t i = 1; i + 1 < n; i++) {
            a[i] = CHAIN_ACCEL(i, x[i - 1], x[i + 1]);
            v[i] += a[i] * half;
        }
        if (n > 1) {
            a[n - 1] = CHAIN_ACCEL(n - 1, x[n - 2], 0.0);
            v[n - 1] += a[n - 1] * half;
        }
    }
#undef CHAIN_ACCEL
    sink = x[0] + v[n - 1];
    free(x);
    return 0;
}

/* three equal masses in the plane, G = m = 1: each pair once, written out */
static inline void three_body_pair(const double *x, double *a, int i, int j)
{
    double dx = x[2 * j] - x[2 * i], dy = x[2 * j + 1] - x[2 * i + 1];
    double r2 = dx * dx + dy * dy, k = 1.0 / (r2 * sqrt(r2));
    a[2 * i] += k * dx;
    a[2 * i + 1] += k * dy;
    a[2 * j] -= k * dx;
    a[2 * j + 1] -= k * dy;
}

static inline void three_body_accel(const double *x, double *a)
{
    a[0] = a[1] = a[2] = a[3] = a[4] = a[5] = 0.0;
    three_body_pair(x, a, 0, 1);
    three_body_pair(x, a, 0, 2);
    three_body_pair(x, a, 1, 2);
}

__attribute__((noinline)) static void fused_vv_three_body(const double *x0, const double *v0,
                                                          double h, unsigned long steps)
{
    double x[6], v[6], a[6], half = 0.5 * h;
    memcpy(x, x0, sizeof x);
    memcpy(v, v0, sizeof v);
    three_body_accel(x, a);
    for (unsigned long s = 0; s < steps; s++) {
        for (int i = 0; i < 6; i++) {
            v[i] += a[i] * half;
            x[i] += v[i] * h;
        }
        three_body_accel(x, a);
        for (int i = 0; i < 6; i++)
            v[i] += a[i] * half;
    }
    sink = x[0] + v[5];
}

vb_fused_kind vb_fused_of(const vb_model *m)
{
    const char *name = m->type->name;
    if (!strcmp(name, "chain") && vb_model_find("chain") == m->type)
        return VB_FUSED_CHAIN;
    if (!strcmp(name, "figure-eight") && vb_model_find("figure-eight") == m->type)
        return VB_FUSED_THREE_BODY;
    return VB_FUSED_NONE;
}

/* one timed fused run on m (VB_FUSED_ORBIT: always e = 0.5 from periapsis) */
int vb_fused_run(vb_fused_kind k, const vb_model *m, double mu, double h, unsigned long steps)
{
    switch (k) {
    case VB_FUSED_ORBIT: {
        double e = 0.5, vy = sqrt(mu * (1.0 + e) / (1.0 - e));
        fused_vv_orbit(mu, 1.0 - e, 0.0, 0.0, vy, h, steps);
        return 0;
    }
    case VB_FUSED_CHAIN:
    case VB_FUSED_THREE_BODY: {
        double *x = malloc(2 * m->n * sizeof *x);
        if (!x)
            return -1;
        m->type->initial(m->self, x, x + m->n);
        int rc = 0;
        if (k == VB_FUSED_CHAIN) {
            /* k/m from the model's own force law: a lone unit displacement
             * of the first mass is pulled back at 2 k/m */
            double *probe = calloc(3 * m->n, sizeof *probe);
            if (!probe) {
                free(x);
                return -1;
            }
            probe[0] = 1.0;
            m->type->accel(m->self, 0.0, probe, probe + m->n, probe + 2 * m->n);
            double w2 = -probe[2 * m->n] / 2.0;
            free(probe);
            rc = fused_vv_chain(m->n, w2, x, x + m->n, h, steps);
        } else {
            fused_vv_three_body(x, x + m->n, h, steps);
        }
        free(x);
        return rc;
    }
    case VB_FUSED_NONE:
        break;
    }
    return -1;
}
