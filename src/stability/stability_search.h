/* stability_search.h — the largest stable step of an integrator on a model, found
 * by a scan and a bisection under a stated criterion (docs/stability.md).
 *
 * Steps are given as z = omega h, omega a frequency of the model's own
 * (stability_problem.c): the spring's sqrt(k/m), the damped spring's
 * undamped sqrt(k/m), the chain's highest mode, the orbit's angular rate at
 * pericentre.  A run at z is *unstable* when, within `periods` periods
 * (N = ceil(periods * T / h) steps), its state stops being finite or its
 * measure grows past `factor` times its start (oscillators), or the body
 * escapes, E >= 0 (the orbit).
 *
 * The search: from z_start, halve down to the first stable z (or report
 * "unstable" below z_min); then scan up by the factor scan_ratio to the first
 * unstable z (or report "stable" past z_max); then bisect that bracket to a
 * relative width rtol.  The scan finds the *first* loss of stability, which a
 * bisection alone would miss where stability comes back (PEFRL's islands). */
#ifndef VB_STABILITY_SEARCH_H
#define VB_STABILITY_SEARCH_H

#include <stddef.h>

#include "model.h"
#include "verletbench.h"

typedef enum { VB_STAB_GROWTH, VB_STAB_ESCAPE } vb_stab_criterion;

/* A model as the search sees it; made by vb_stab_problem_setup. */
typedef struct vb_stab_problem {
    const vb_model *model;
    double omega;           /* z = omega h */
    const char *omega_name; /* how the output names it: "omega", "omega_max", ... */
    double period;          /* the time one of `periods` stands for */
    double zeta;            /* the damped spring's c / (2 sqrt(k m)); 0 otherwise */
    vb_stab_criterion criterion;
} vb_stab_problem;

/* The models the search knows: spring, damped-spring, chain, orbit.  0, or
 * -1 with a message naming the ones it knows. */
int vb_stab_problem_setup(const vb_model *m, vb_stab_problem *p, char *err, size_t errlen);
/* 0 if the criterion can judge the model's start: a growth criterion is
 * relative to the start's energy, so that must be finite and > 0; -1 with
 * a message otherwise. */
int vb_stab_problem_start(const vb_stab_problem *p, char *err, size_t errlen);
/* "spring, damped-spring, chain, orbit" */
const char *vb_stab_models(void);

/* What the criterion watches: the model's energy, or the damped spring's
 * mechanical energy (per unit mass). */
double vb_stab_measure(const vb_stab_problem *p, const double *x, const double *v);

/* 0 if the steps the search can try, h = z / omega for z from o->z_min/2
 * (the floor's check) to o->z_max, lie within 2^-500 to 2^500, where h^2,
 * which the integrators form, is a normal double with room to spare; -1
 * with a message otherwise (k = 1e-300, m = 1e10: omega = 1e-155, h = 2e156
 * at z = 2, h^2 = inf).  The limit in z does not depend on that scale. */
int vb_stab_problem_scale(const vb_stab_problem *p, double z_min, double z_max, char *err,
                          size_t errlen);

/* The closed-form z* of an integrator on the problem with fixed steps, or
 * NAN where there is none (stability_theory.c; the derivations are in
 * docs/stability.md).  0 for a method unstable at every step. */
double vb_stab_theory(const vb_stab_problem *p, const vb_integrator *g);

/* An interval of z below a measured limit where the method's step matrix
 * is unstable (stepmatrix.h), so the limit is none: the criterion's run
 * was too short to see it grow.  lo, hi its ends; periods the least P at
 * which the energy there, growing as rho(z)^(2N) (rho the spectral
 * radius, N = 2 pi P / z steps), passes F. */
typedef struct vb_stab_gap {
    double lo, hi, periods;
} vb_stab_gap;

struct vb_stab_opts;
/* The first unstable interval of z in [z_from, z_below) that closes below
 * z_below, as the step matrix says: 1 and *gap if there is one, 0 if
 * there is none or the theory cannot say (a method without a step matrix,
 * a model other than the (damped) spring, zeta = 0: there the closed forms
 * are first losses, §3), NANs in *gap then.  The scan is made at relative
 * steps of 1e-3, and its edges bisected to 1e-12: narrower gaps are not
 * looked for. */
int vb_stab_gap_below(const vb_stab_problem *p, const vb_integrator *g,
                      const struct vb_stab_opts *o, double z_from, double z_below,
                      vb_stab_gap *gap);

typedef struct vb_stab_opts {
    double factor;     /* F: growth past F times the start is unstable */
    double periods;    /* P */
    double rtol;       /* the bracket's final relative width */
    double z_start, z_min, z_max, scan_ratio;
    double jitter;     /* steps dt (1 + jitter u), u uniform in [-1, 1) */
    unsigned long seed;
    double max_steps;  /* refuse a verdict longer than this */
} vb_stab_opts;

/* The defaults of docs/stability.md: F = 1e6, P = 1e4 (1e2 for the orbit),
 * rtol 1e-10, from z = 0.05 by 1.05 up to 20, down to 1e-3. */
vb_stab_opts vb_stab_opts_default(const vb_stab_problem *p);

typedef enum { VB_STAB_LIMIT, VB_STAB_UNSTABLE, VB_STAB_STABLE } vb_stab_status;
const char *vb_stab_status_name(vb_stab_status s);

typedef struct vb_stab_result {
    vb_stab_status status;
    /* LIMIT: z_lo stable, z_hi unstable, (z_hi - z_lo) <= rtol z_lo.
     * UNSTABLE: z_hi = the smallest z tried, z_lo = 0.  STABLE: z_lo = the
     * largest z tried, z_hi = inf. */
    double z_lo, z_hi;
    double z_scan;         /* the stable z the upward scan started from */
    double evals_per_step; /* force evaluations a step, counted */
    unsigned verdicts;     /* runs made */
    double steps;          /* steps taken in all of them */
} vb_stab_result;

/* 0, or -1 with a message (out of memory), or -2 with one (a verdict over
 * max_steps: the options' fault, so a usage error). */
int vb_stab_search(const vb_stab_problem *p, const vb_integrator *g, const vb_stab_opts *o,
                   vb_stab_result *r, char *err, size_t errlen);

/* One verdict: 1 stable, 0 unstable, -1 error, -2 over max_steps.  For the tests and the
 * search; evals_per_step may be NULL. */
int vb_stab_verdict(const vb_stab_problem *p, const vb_integrator *g, const vb_stab_opts *o,
                    double z, double *evals_per_step, double *steps, char *err, size_t errlen);

#endif
