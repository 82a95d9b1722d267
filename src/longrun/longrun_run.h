/* longrun_run.h — a run of up to 1e9 periods in flat memory: its energy and
 * phase errors sampled on a logarithmic time grid, their growth exponents
 * fitted and named (bounded, random walk, secular), and the energy's drift
 * per unit time and per particle (docs/longrun.md). */
#ifndef VB_LONGRUN_RUN_H
#define VB_LONGRUN_RUN_H

#include <stddef.h>

#include "model.h"
#include "verletbench.h"

/* samples a decade at most, and decades at most: the memory is fixed */
#define VB_LONG_MAX_SAMPLES 400

typedef struct vb_long_opts {
    double periods;          /* the run: periods * T, T the model's natural time */
    double steps_per_period; /* h = T / steps_per_period */
    double per_decade;       /* samples a decade of time, from t = T */
    double fit_from;         /* the fits use t >= fit_from * T */
} vb_long_opts;

typedef struct vb_long_sample {
    double t;
    double energy;     /* (E - E0)/|E0| now, signed */
    double energy_max; /* max |E - E0|/|E0| up to t */
    double phase;      /* |phase error| now, radians (NAN: none) */
    double phase_max;  /* its max up to t */
} vb_long_sample;

/* A growth exponent: err ~ t^p by least squares in log-log over the
 * samples' running maxima. */
typedef struct vb_long_fit {
    double p, se;        /* the slope and its standard error (of the fit) */
    size_t used;         /* samples fitted */
    /* "bounded", "random walk", "secular", "faster" by the exponent alone;
     * "saturated" when the error reached its limit (lost_at) and its fit
     * says nothing grew (or there was nothing to fit); "" */
    const char *verdict;
    /* when the error first reached its limit, in periods (NAN: never): the
     * energy |E - E0| >= |E0| (an orbit escapes, a swing goes over the
     * top), the phase 1 radian (it wraps round and no longer measures the
     * growth).  The fit ends there. */
    double lost_at;
} vb_long_fit;

typedef struct vb_long_result {
    vb_long_sample s[VB_LONG_MAX_SAMPLES];
    size_t n;
    /* samples past the limit: each replaced the last one kept, so the
     * last sample is always the run's end and these many before it are
     * not kept (per_decade x decades over VB_LONG_MAX_SAMPLES) */
    size_t dropped;
    double steps, t_end, h, period;
    int diverged;              /* the state or the energy stopped being finite */
    vb_long_fit energy, phase;
    double drift;              /* dE/dt by least squares on (t, E - E0): energy per time */
    double drift_per_particle; /* drift / n */
} vb_long_result;

/* The verdict of an exponent: < 1/4 bounded, < 3/4 random walk (t^1/2),
 * < 3/2 secular (t^1), else faster. */
const char *vb_long_verdict(double p);

/* The model must have an energy (conservative) and an exact solution.
 * 0, or -1 with a message. */
/* 0 if the model can be run long: it has an energy and an exact solution,
 * and its start's energy is finite and nonzero (the energy error is
 * relative to it); -1 with a message otherwise. */
int vb_long_model_check(const vb_model *m, char *err, size_t errlen);

/* 0 if the step h = T / steps_per_period lies within 2^-500 to 2^500, where
 * h^2, which the integrators form, is a normal double with room to spare;
 * -1 with a message otherwise. */
int vb_long_step_check(const vb_model *m, const vb_long_opts *o, char *err, size_t errlen);

int vb_long_run(const vb_model *m, const vb_integrator *g, const vb_long_opts *o,
                vb_long_result *r, char *err, size_t errlen);

/* The least-squares slope of y on x over n points, and its standard error */
void vb_long_slope(const double *x, const double *y, size_t n, double *slope, double *se);

#endif
