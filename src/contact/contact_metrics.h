/* contact/contact_metrics.h — what a run of a contact model measures,
 * computed from its states alone (so an engine's trajectory, which has
 * nothing else, is measured the same way), and the fixed-step run that
 * makes such states from a handler (docs/contact.md, "Metrics").
 *
 * The bounce.  From the separation s_k of the ball from the floor and its
 * normal velocity u_k at t_k (k = 0 .. n-1), gravity g > 0 towards the
 * floor:
 *   - the flight energy E_k = u_k^2 / 2 + g s_k (per unit mass; its
 *     apex E / g);
 *   - step k (t_(k-1) -> t_k) is free when u fell by gravity's kick,
 *     u_k - u_(k-1) <= -(1 - VB_KICK_TOL) g (t_k - t_(k-1)); otherwise
 *     something pushed the ball up: a contact step.  (A run with drag must
 *     have it turned off: drag is not a kick.)
 *   - an episode is a maximal run of contact steps k = a .. b; it is a
 *     bounce when the ball then leaves (u_b > 0) and flies (step b + 1 is
 *     free); its measured restitution is e_n = sqrt(E_b / E_(a-1)), the
 *     flight energy after it over the flight energy before it;
 *   - the height it then reaches is the largest s_k of the flight after
 *     it, from its last contact step b to the step before the next
 *     episode (or the run's end, if the ball turned there: some u_k <= 0;
 *     NAN if it was still rising): the height as stepped, which a method
 *     whose flight loses or gains energy misses however well the contact
 *     keeps E (e_n is the contact's doing alone);
 *   - the run has come to rest when its last episode lasts to its end and
 *     spans at least VB_REST_STEPS steps; t_rest is then t_a, the end of
 *     its first contact step (the first state the resting contact made);
 *   - the largest penetration depth is max(-s_k, 0).
 * The energy after m bounces is E_after(m) / E_before(1), exact e^(2m);
 * gained at e = 1, E_after(m) / E_before(1) - 1: both at the floor, so
 * that a method whose flight energy swings along the flight (symplectic
 * Euler's E differs between apex and floor by O(dt)) is compared at one
 * phase.
 *
 * The slide.  From the position x_k and velocity v_k along the slope: it
 * stops at the first sample k whose velocity is 0, reversed, or below
 * VB_SLIDE_REST of the first (v_k v_0 <= VB_SLIDE_REST v_0^2: sample 0
 * itself when v_0 = 0, at t = 0 as the exact block); x_stop =
 * x_k; t_stop is where the velocity line through the last two moving
 * samples reaches 0 (exact for a constant deceleration; t_k itself when
 * fewer than two samples moved).
 *
 * The tunnel.  The smallest speed that passes a wall at step dt, found by
 * bisection, the ball started at each handler's worst phase: at the
 * largest separation its step leaves unchecked (handler.h's blind; a step
 * from there travels v dt before the wall acts), so that no other phase
 * passes at a lower speed.  An engine's step is a black box, its worst
 * phase unknown: vb_tunnel_pass_speed_scan tries six phases on a grid of
 * speeds, each speed a run of its own. */
#ifndef VB_CONTACT_METRICS_H
#define VB_CONTACT_METRICS_H

#include <stddef.h>

#include "handler.h"

/* A step is free when u fell by at least (1 - 1e-3) of gravity's kick: far
 * above round-off (float32 engines round u to 1e-7 of it, a kick is g dt),
 * far below any contact's impulse (a resting contact gives a whole kick). */
#define VB_KICK_TOL 1e-3
/* A bounce's contact lasts a step or two; a rest, every step after it. */
#define VB_REST_STEPS 3
/* A block slower than a millionth of its start has stopped: a friction that
 * is a soft constraint (cannon-es's SPOOK equations) shrinks the velocity
 * geometrically and never makes it 0; a handler's and Coulomb's exact
 * friction make it exactly 0, or reverse it, in the step it stops. */
#define VB_SLIDE_REST 1e-6

/* One bounce as the states show it. */
typedef struct vb_bounce_event {
    double t;      /* the end of its first contact step */
    double before; /* E_(a-1): the flight energy before it */
    double after;  /* E_b: after it */
    double e;      /* sqrt(after / before), NAN when before <= 0 */
    double height; /* the largest s of the flight after it; NAN if still rising at the end */
} vb_bounce_event;

typedef struct vb_bounce_measures {
    size_t bounces;    /* episodes after which the ball flew */
    double t_rest;     /* INFINITY when it does not rest by the run's end */
    double max_depth;  /* the largest penetration, >= 0 */
    double energy0;    /* E_0, the flight energy at the start */
} vb_bounce_measures;

/* The normal series of a run for the wall's front face: s_k = n.x_k -
 * offset - r and u_k = n.v_k, from n states of d components each. */
void vb_contact_normal_series(const vb_contact_geometry *g, const double *x, const double *v,
                              size_t n, double *s, double *u);

/* The bounce's measures; the first cap bounces into ev (NULL: none).  0,
 * or -1 for fewer than 2 samples or g <= 0. */
int vb_bounce_measure(const double *t, const double *s, const double *u, size_t n, double g,
                      vb_bounce_event *ev, size_t cap, vb_bounce_measures *m);

/* E_after(m) / E_before(1) - 1 from the first m bounces; NAN with fewer
 * (bounces: how many the run had, ev: at least min(bounces, m) of them). */
double vb_bounce_energy_gain(const vb_bounce_event *ev, size_t bounces, size_t m);
/* E_after(m) / E_before(1), the energy after m bounces (exact e^(2m));
 * NAN with fewer. */
double vb_bounce_energy_ratio(const vb_bounce_event *ev, size_t bounces, size_t m);

typedef struct vb_slide_measures {
    int stopped;          /* 1 when some sample's velocity is 0 or reversed */
    size_t k_stop;        /* that sample */
    double t_stop;        /* the velocity's zero, extrapolated (above) */
    double x_stop;        /* x at k_stop */
    int stays;            /* 1 when every later sample is at x_stop with v = 0 */
} vb_slide_measures;

/* 0, or -1 for fewer than 2 samples. */
int vb_slide_measure(const double *t, const double *x, const double *v, size_t n,
                     vb_slide_measures *m);

/* n_steps steps of dt from (x0, v0) at t = 0 under handler hd; the states
 * at t_k = k dt into t[k], x[k d .. k d + d - 1], v[...] for k = 0 ..
 * n_steps.  0, or the handler's error (handler.h) with *done the steps
 * made (the states after it are not written). */
int vb_contact_run(const vb_contact_handler *hd, const vb_contact_geometry *g,
                   vb_contact_step_fn *step, void *ctx, const double *x0, const double *v0,
                   double dt, size_t n_steps, double *t, double *x, double *v, size_t *done);

/* Whether a ball at speed v towards the wall g (d = 1: the normal (1),
 * no force in step) passes it at step dt under hd, from the worst phase:
 * 1 it passes, 0 it does not (bounces back, or stays), -1 the handler
 * failed. */
int vb_tunnel_passes(const vb_contact_handler *hd, const vb_contact_geometry *g,
                     vb_contact_step_fn *step, void *ctx, double v, double dt);

/* The smallest speed in (0, v_max] that passes, by bisection to 1e-12 of
 * it; INFINITY when v_max does not pass; NAN when a run failed.  The
 * bisection takes the speeds that pass to be an interval [v_pass, v_max]:
 * true from the worst phase for project and impulse (docs/contact.md). */
double vb_tunnel_pass_speed(const vb_contact_handler *hd, const vb_contact_geometry *g,
                            vb_contact_step_fn *step, void *ctx, double dt, double v_max);

/* A run of a step that is a black box (an engine's, asked run by run): a
 * ball of radius r fired at speed v from d (its centre's distance in
 * front of the wall's face) for `steps` fixed steps of dt.  1: it passed
 * (its centre ends behind the wall's back face), 0: it did not, -1: the
 * run failed. */
typedef int vb_tunnel_try_fn(void *ctx, double v, double d, unsigned long steps);

/* The phases and the grid of vb_tunnel_pass_speed_scan. */
#define VB_PASS_PHASES 6
#define VB_PASS_GRID 48
#define VB_PASS_ROUNDS 3

/* The smallest speed that passes a wall of thickness w at step dt, for a
 * step whose worst phase is not known (an engine's): from each of six
 * start phases (the ball's surface phi v dt in front of the face, phi =
 * 0.02, 0.1, 0.25, 0.5, 0.75, 1), the first passing speed of a geometric
 * grid of 48 from 0.01 to 100 times the bound (w + 2r)/dt, then twice of a
 * linear grid of 48 between the last speed that did not pass and the
 * first that did (to about 1e-4 of it); each run lasts until the ball,
 * going on at v, would have cleared the wall, and 5 steps more.  Where a
 * grid's first speed passes, the next grid lies below it, from half of
 * it.  The smallest over the phases; INFINITY when none passes; NAN when
 * a run failed (the callback says why).  *lowest 1 when that smallest is
 * from a phase where every speed tried passed (the ball ignores the wall,
 * or it passes below the grids): the lowest speed tried, 0.0025 times the
 * bound, an upper bound of the passing speed and no measure of it; 0
 * when a slower speed than it did not pass, or none passed. */
double vb_tunnel_pass_speed_scan(vb_tunnel_try_fn *try_run, void *ctx, double r, double w,
                                 double dt, int *lowest);

#endif
