/* kepler.c — Kepler's equation with GSL's Newton solver.
 *
 * By the symmetry E(-M) = -E(M) we solve for M in [0, pi] only.  There
 * f(E) = E - e sin E - M is increasing (f' = 1 - e cos E >= 1 - e > 0) and
 * convex (f'' = e sin E >= 0), so Newton's method converges monotonically
 * from any start right of the root, and a step from the left lands right of
 * it.  The cold start min(M + e, pi) is right of the root (f >= 0 there), so
 * no start can make the iteration wander; an iterate that overshoots pi is
 * clamped back to pi, still right of the root.
 *
 * Once right of the root the error after a step of size d is at most
 * C d^2 with C = max |f''/2f'| = e / (2 sqrt(1 - e^2)) < 3.6 for e <= 0.99,
 * so stopping when |d| < 1e-9 leaves an error below 4e-18: round-off, not
 * the iteration, sets the accuracy.
 */
#include "kepler.h"
#include "reduce.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>
#include <math.h>
#include <stdlib.h>

#define KEPLER_STEP_TOL 1e-9
#define KEPLER_MAX_ITER 100

struct vb_kepler {
    gsl_root_fdfsolver *solver;
    gsl_function_fdf fdf;
    double e, M;
    /* the last point evaluated, so the caller gets sin and cos for free */
    double last_E, last_sin, last_cos;
    int iterations;
};

static void eval(vb_kepler *k, double E)
{
    if (E != k->last_E) {
        k->last_E = E;
        k->last_sin = sin(E);
        k->last_cos = cos(E);
    }
}

static double kf(double E, void *p)
{
    vb_kepler *k = p;
    eval(k, E);
    return E - k->e * k->last_sin - k->M;
}

static double kdf(double E, void *p)
{
    vb_kepler *k = p;
    eval(k, E);
    return 1.0 - k->e * k->last_cos;
}

static void kfdf(double E, void *p, double *f, double *df)
{
    vb_kepler *k = p;
    eval(k, E);
    *f = E - k->e * k->last_sin - k->M;
    *df = 1.0 - k->e * k->last_cos;
}

vb_kepler *vb_kepler_alloc(void)
{
    vb_kepler *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->solver = gsl_root_fdfsolver_alloc(gsl_root_fdfsolver_newton);
    if (!k->solver) {
        free(k);
        return NULL;
    }
    k->fdf.f = kf;
    k->fdf.df = kdf;
    k->fdf.fdf = kfdf;
    k->fdf.params = k;
    k->last_E = NAN;
    return k;
}

void vb_kepler_free(vb_kepler *k)
{
    if (!k)
        return;
    gsl_root_fdfsolver_free(k->solver);
    free(k);
}

double vb_kepler_reduce(double M)
{
    return vb_remainder(M, 2.0 * M_PI);
}

int vb_kepler_iterations(const vb_kepler *k)
{
    return k->iterations;
}

/* sin and cos at E = E0 + d from those at E0, for |d| < KEPLER_STEP_TOL:
 * the terms left out are below d^3/6 < 2e-28, so the result is as accurate
 * as sin(E0) and cos(E0) themselves, without a third libm call per solve. */
static void rotate(double s0, double c0, double d, double *s, double *c)
{
    double h = 0.5 * d * d;
    *s = s0 + (c0 * d - s0 * h);
    *c = c0 - (s0 * d + c0 * h);
}

int vb_kepler_solve(vb_kepler *k, double e, double M, double guess, double *E_out,
                    double *sin_E, double *cos_E)
{
    double sign = 1.0;
    if (M < 0.0) {
        sign = -1.0;
        M = -M;
        guess = -guess;
    }
    k->e = e;
    k->M = M;
    k->last_E = NAN;
    k->iterations = 0;

    double E = M + e; /* f(M + e) = e (1 - sin(M + e)) >= 0: right of the root */
    if (E > M_PI)
        E = M_PI;
    if (isfinite(guess) && guess >= M - e && guess <= E)
        E = guess; /* inside the bracket [M - e, min(M + e, pi)] */

    double s, c;
    if (e == 0.0) {
        E = M;
        eval(k, E);
        s = k->last_sin;
        c = k->last_cos;
    } else {
        /* GSL's Newton solver evaluates f and f' at every iterate, the start
         * included; the correction f/f' it would take next is known from the
         * cached sin and cos there.  When that correction is below the
         * tolerance, take it here and turn sin and cos through it instead of
         * evaluating them at the new point: one libm sincos per iterate and
         * none for the last step (with a warm start, usually one in all). */
        if (gsl_root_fdfsolver_set(k->solver, &k->fdf, E) != GSL_SUCCESS)
            return -1;
        for (;;) {
            double d = (E - e * k->last_sin - M) / (1.0 - e * k->last_cos);
            double next = E - d;
            if (!isfinite(next))
                return -1;
            if (fabs(next - E) < KEPLER_STEP_TOL && next <= M_PI) {
                rotate(k->last_sin, k->last_cos, next - E, &s, &c);
                E = next;
                k->iterations++;
                break;
            }
            if (k->iterations >= KEPLER_MAX_ITER)
                return -1;
            k->iterations++;
            if (gsl_root_fdfsolver_iterate(k->solver) != GSL_SUCCESS)
                return -1;
            E = gsl_root_fdfsolver_root(k->solver);
            if (E > M_PI) {
                E = M_PI;
                if (gsl_root_fdfsolver_set(k->solver, &k->fdf, E) != GSL_SUCCESS)
                    return -1;
            }
        }
    }
    *E_out = sign * E;
    if (sin_E)
        *sin_E = sign * s;
    if (cos_E)
        *cos_E = c;
    return 0;
}

/* ---- an orbit along increasing times, warm-started -------------------------- */

struct vb_kepler_track {
    vb_kepler *kepler;
    double a, e, b, n;
    double M_prev, E_prev, sinE_prev, cosE_prev;
    int warm;
};

/* x folded towards [-pi, pi] by one turn: for a starting guess only, where
 * x is a difference of two reduced anomalies or one plus a small step.  No
 * libm call: the exact remainder() costs a quarter of an orbit run, and a
 * guess needs no exactness (the solver checks its bracket and decides the
 * result). */
static double wrap_guess(double x)
{
    if (x > M_PI)
        return x - 2.0 * M_PI;
    if (x < -M_PI)
        return x + 2.0 * M_PI;
    return x;
}

vb_kepler_track *vb_kepler_track_alloc(double a, double e, double n)
{
    vb_kepler_track *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->kepler = vb_kepler_alloc();
    if (!w->kepler) {
        free(w);
        return NULL;
    }
    w->a = a;
    w->e = e;
    w->b = a * sqrt((1.0 - e) * (1.0 + e));
    w->n = n;
    return w;
}

void vb_kepler_track_free(vb_kepler_track *w)
{
    if (!w)
        return;
    vb_kepler_free(w->kepler);
    free(w);
}

int vb_kepler_track_at(vb_kepler_track *w, double t, double *x, double *v)
{
    double M = vb_kepler_reduce(w->n * t);
    double guess = NAN;
    if (w->warm) {
        /* E(M) by Taylor's series from the last solution, to third order:
         * with D = 1 - e cos E, E' = 1/D, E'' = -e sin E/D^3 and
         * E''' = (3 e^2 sin^2 E - e cos E D)/D^5.  At the steps of the cases
         * the guess is then within 1e-9 and Newton's first correction is
         * already its last: one sincos per exact solution.  Only a guess:
         * the solver decides the result. */
        double dM = wrap_guess(M - w->M_prev);
        double es = w->e * w->sinE_prev, ec = w->e * w->cosE_prev;
        double D = 1.0 - ec, q = 1.0 / D;
        double d1 = q, d2 = -es * q * q * q, d3 = (3.0 * es * es - ec * D) * (q * q) * (q * q * q);
        guess = wrap_guess(w->E_prev + dM * (d1 + dM * (0.5 * d2 + dM * (d3 / 6.0))));
    }
    double E, sE, cE;
    if (vb_kepler_solve(w->kepler, w->e, M, guess, &E, &sE, &cE) != 0)
        return -1;
    w->M_prev = M;
    w->E_prev = E;
    w->sinE_prev = sE;
    w->cosE_prev = cE;
    w->warm = 1;
    /* Near periapsis cos E - e and 1 - e cos E cancel (to 1 - e = 0.01 at
     * e = 0.99): write both through 1 - cos E, itself computed without
     * cancellation, so x and r keep full relative precision. */
    double omc = cE > 0.0 ? sE * sE / (1.0 + cE) : 1.0 - cE;
    double Edot = w->n / ((1.0 - w->e) + w->e * omc);
    x[0] = w->a * ((1.0 - w->e) - omc);
    x[1] = w->b * sE;
    v[0] = -w->a * sE * Edot;
    v[1] = w->b * cE * Edot;
    return 0;
}
