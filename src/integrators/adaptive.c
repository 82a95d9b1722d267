/* adaptive.c — GSL's embedded Runge-Kutta pairs, frame by frame.
 *
 * A frame of h is crossed with gsl_odeiv2_evolve_apply, which takes the
 * largest step its control accepts (retrying rejected ones at a smaller
 * step) without passing the frame's end, and lands on it exactly.  Every
 * force evaluation GSL asks for, of rejected steps too, is counted: that is
 * the method's work.  The step a frame's end cut short is not what the
 * control wanted, so the next frame starts from the step it last chose
 * rather than from the cut one. */
#include "adaptive.h"

#include <math.h>
#include <string.h>

size_t vb_adaptive_state_size(size_t n)
{
    return sizeof(vb_adaptive_state) + 2 * n * sizeof(double);
}

void vb_adaptive_set_tolerance(void *st, double tol) { ((vb_adaptive_state *)st)->tol = tol; }

/* y' = (v, a(t, x, v)) for GSL */
static int deriv(double t, const double y[], double dydt[], void *params)
{
    vb_force *f = params;
    size_t n = f->n;
    memcpy(dydt, y + n, n * sizeof *dydt);
    vb_force_eval(f, t, y, y + n, dydt + n);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(dydt[n + i]))
            return GSL_EBADFUNC; /* GSL stops; the run is reported diverged */
    return GSL_SUCCESS;
}

static void poison(vb_adaptive_state *s)
{
    for (size_t i = 0; i < 2 * s->n; i++)
        s->y[i] = NAN;
}

void vb_adaptive_start(void *st, vb_force *f, double t, const double *x, const double *v,
                       double h, const gsl_odeiv2_step_type *type)
{
    (void)t;
    vb_adaptive_state *s = st;
    s->n = f->n;
    memcpy(s->y, x, s->n * sizeof *x);
    memcpy(s->y + s->n, v, s->n * sizeof *v);
    if (!s->step) {
        s->step = gsl_odeiv2_step_alloc(type, 2 * s->n);
        /* error per step within tol + tol |y|, component by component */
        s->control = gsl_odeiv2_control_y_new(s->tol, s->tol);
        s->evolve = gsl_odeiv2_evolve_alloc(2 * s->n);
    } else {
        gsl_odeiv2_step_reset(s->step);
        gsl_odeiv2_evolve_reset(s->evolve);
    }
    if (!s->step || !s->control || !s->evolve)
        poison(s);
    /* the first frame as a first guess: the control shrinks it if it must */
    s->h_want = h;
    s->taken = 0;
}

void vb_adaptive_step(void *st, vb_force *f, double t, double h)
{
    vb_adaptive_state *s = st;
    if (!s->evolve || !isfinite(s->y[0]))
        return;
    gsl_odeiv2_system sys = {deriv, NULL, 2 * s->n, f};
    double t1 = t + h;
    while (t < t1) {
        double hh = s->h_want, rest = t1 - t;
        int cut = !(hh < rest);
        int rc = gsl_odeiv2_evolve_apply(s->evolve, s->control, s->step, &sys, &t, t1, &hh, s->y);
        /* a force that is not finite (GSL_EBADFUNC) is a run that
         * diverged, which needs no words; GSL_FAILURE is GSL's "cannot
         * meet the tolerance with a step that still moves t" */
        const char *why = rc == GSL_EBADFUNC                   ? NULL
                          : rc == GSL_FAILURE || !(hh > 0.0)   ? VB_ADAPTIVE_STEP_ZERO
                          : rc != GSL_SUCCESS                  ? VB_ADAPTIVE_GSL_FAILED
                          : ++s->taken > VB_ADAPTIVE_MAX_STEPS ? VB_ADAPTIVE_CAPPED
                                                               : "";
        if (!why || why[0]) {
            f->stopped = why;
            poison(s);
            return;
        }
        /* A step cut to land on t1 and accepted at once (GSL took the
         * whole rest) says nothing against the step the control wanted:
         * keep the larger of the two.  If it was rejected and retried
         * smaller, the control has spoken: take what it suggests now. */
        s->h_want = cut && s->evolve->last_step == rest ? fmax(s->h_want, hh) : hh;
    }
}

void vb_adaptive_observe(const void *st, double *x, double *v)
{
    const vb_adaptive_state *s = st;
    memcpy(x, s->y, s->n * sizeof *x);
    memcpy(v, s->y + s->n, s->n * sizeof *v);
}

/* v <- -v; GSL's step and evolve hold nothing of the direction but their
 * last derivative, which the reset drops */
void vb_adaptive_reverse(void *st)
{
    vb_adaptive_state *s = st;
    for (size_t i = 0; i < s->n; i++)
        s->y[s->n + i] = -s->y[s->n + i];
    if (s->step)
        gsl_odeiv2_step_reset(s->step);
    if (s->evolve)
        gsl_odeiv2_evolve_reset(s->evolve);
}

void vb_adaptive_finish(void *st)
{
    vb_adaptive_state *s = st;
    if (s->evolve)
        gsl_odeiv2_evolve_free(s->evolve);
    if (s->control)
        gsl_odeiv2_control_free(s->control);
    if (s->step)
        gsl_odeiv2_step_free(s->step);
    s->evolve = NULL;
    s->control = NULL;
    s->step = NULL;
}
