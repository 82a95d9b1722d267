/* contact/handler_toi.c — toi: event location.  The step is tried; when its
 * end lies past the plane of the face the ball starts in front of, the time
 * of impact tau in the step is found, the step is split there, the impact
 * resolved, and the rest of the step taken the same way:
 *
 *   f(tau) = the separation from the face's plane after step(x, v, t, tau)
 *   f(0) >= 0 > f(h): the first tau in (0, h] with f(tau) = 0
 *
 * f is found from three steps, tau = 0 (the start), h/2 and h: a quadratic
 * through them, its root, and the step to it.  Under a constant force every
 * method of the table that is exact on a parabola (velocity Verlet, and RK4
 * and the others of order >= 2) makes f exactly quadratic in tau, so the
 * root is the time of impact to round-off; symplectic Euler's
 * x + tau v + tau^2 a is quadratic too.  Where the quadratic's root misses
 * (|f| past round-off: a force that varies), Brent's method (GSL) finds the
 * root between the samples that bracket it.
 *
 * The impact, at the face with normal n, approach speed u = -n.v > 0:
 *   u >= vth and e > 0: the normal velocity leaves at e u  (J = (1 + e) u)
 *   otherwise:          the normal velocity is 0: the ball rests (J = u)
 * and the tangential velocity is cut by at most mu J (Coulomb).
 *
 * A ball resting on the face (touching, normal velocity 0) takes the step
 * as a constrained one: the trial step's end is put back on the face with
 * its normal velocity removed, J = -n.v1 the normal impulse the face gave
 * over the step (for a constant force, N tau: its rate is constant).  With
 * friction, the sliding ball is decelerated by mu J / tau along its sliding
 * direction, split around the step (half the friction's kick before it,
 * half after: with velocity Verlet under a constant force this is velocity
 * Verlet on gravity plus friction, exact), and the moment the sliding
 * speed reaches 0 is located in the step (the speed is linear in tau) and
 * the step split there; a ball at rest stays unless the trial's tangential
 * velocity, what the force would give it, exceeds mu J (static friction).
 * The sliding direction is the velocity's at the step's start (exact when
 * the tangential force is along it, as on an incline; a curving slide in
 * 3D is followed step by step).
 *
 * A ball that bounces ever lower in one step (e < 1, vth = 0: infinitely
 * many bounces before t_inf) is put to rest after VB_TOI_MAX_EVENTS
 * events in one step, which is the exact answer after t_inf. */
#include "handler.h"

#include <float.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_poly.h>
#include <gsl/gsl_roots.h>
#include <math.h>
#include <string.h>

#define VB_TOI_MAX_EVENTS 64

/* a separation this close to 0 is touching: round-off of the coordinates
 * (8 ulps of the largest term of n.x - plane - r) */
static double touch_tol(const vb_contact_geometry *g, const vb_contact_face *f, const double *x)
{
    return 8.0 * DBL_EPSILON *
           (fabs(vb_contact_dot(g->dim, f->normal, x)) + fabs(f->plane) + g->radius);
}

typedef struct {
    const vb_contact_geometry *g;
    const vb_contact_face *f;
    vb_contact_step_fn *stepfn;
    void *ctx;
    const double *x, *v;
    double t;
    int failed;
    double xs[VB_CONTACT_MAX_DIM], vs[VB_CONTACT_MAX_DIM]; /* the last call's state */
} sweep;

/* f(tau): the separation from the face's plane after a step of tau */
static double sweep_at(sweep *s, double tau)
{
    unsigned d = s->g->dim;
    memcpy(s->xs, s->x, d * sizeof *s->xs);
    memcpy(s->vs, s->v, d * sizeof *s->vs);
    if (tau > 0.0 &&
        (s->stepfn(s->ctx, s->xs, s->vs, s->t, tau) != 0 || !vb_contact_finite(d, s->xs, s->vs))) {
        s->failed = 1;
        return NAN;
    }
    return vb_contact_face_separation(s->g, s->f, s->xs);
}

static double sweep_gsl(double tau, void *p) { return sweep_at(p, tau); }

/* The first tau in (lo, hi] with f = 0, f(lo) >= 0 > f(hi); the state
 * there is left in s->xs, s->vs.  0, or an error of handler.h. */
static int locate(sweep *s, double f0, double h, double f_end, int leaving, double *tau)
{
    double f_mid = sweep_at(s, 0.5 * h);
    if (s->failed)
        return VB_CONTACT_STEP_FAILED;
    /* f = A tau^2 + B tau + C through (0, f0), (h/2, f_mid), (h, f_end) */
    double A = 2.0 * (f_end - 2.0 * f_mid + f0) / (h * h);
    double B = (4.0 * f_mid - 3.0 * f0 - f_end) / h;
    double r0 = NAN, r1 = NAN, cand = NAN;
    int nr = A != 0.0 ? gsl_poly_solve_quadratic(A, B, f0, &r0, &r1)
                      : (B != 0.0 ? (r0 = -f0 / B, 1) : 0);
    /* roots in order; a ball leaving the face (f0 ~ 0, rising) wants the
     * later one, the root at its start being where it already is */
    double roots[2] = {r0, r1};
    for (int i = 0; i < nr; i++) {
        double r = roots[leaving ? nr - 1 - i : i];
        if (r > 0.0 && r <= h && (!leaving || r > 0.5 * (nr == 2 ? r0 + r1 : 0.0))) {
            cand = r;
            break;
        }
    }
    double tol = 64.0 * DBL_EPSILON *
                 (fabs(f0) + fabs(f_mid) + fabs(f_end) + fabs(s->f->plane) + s->g->radius +
                  fabs(vb_contact_dot(s->g->dim, s->f->normal, s->x)));
    if (cand == cand) {
        double fc = sweep_at(s, cand);
        if (s->failed)
            return VB_CONTACT_STEP_FAILED;
        if (fabs(fc) <= tol) {
            *tau = cand;
            return VB_CONTACT_OK;
        }
    }
    /* the bracket: eight samples across the step, the first that is < 0
     * after one >= 0 (for a ball leaving the face, after one > 0: the
     * root at its start is where it already is) */
    double lo = 0.0, flo = f0, hi = NAN;
    int seen = !leaving;
    for (int i = 1; i <= 8; i++) {
        double tau_i = h * (double)i / 8.0;
        double fi = i == 8 ? f_end : sweep_at(s, tau_i);
        if (s->failed)
            return VB_CONTACT_STEP_FAILED;
        if (fi > 0.0)
            seen = 1;
        if (seen && fi < 0.0) {
            hi = tau_i;
            break;
        }
        if (fi >= 0.0)
            lo = tau_i, flo = fi;
    }
    if (!(hi == hi) || !(flo >= 0.0))
        return VB_CONTACT_NO_ROOT;
    gsl_function F = {sweep_gsl, s};
    gsl_root_fsolver *solver = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    if (!solver || gsl_root_fsolver_set(solver, &F, lo, hi) != GSL_SUCCESS) {
        if (solver)
            gsl_root_fsolver_free(solver);
        return VB_CONTACT_NO_ROOT;
    }
    int status = GSL_CONTINUE;
    for (int it = 0; it < 200 && status == GSL_CONTINUE && !s->failed; it++) {
        gsl_root_fsolver_iterate(solver);
        lo = gsl_root_fsolver_x_lower(solver);
        hi = gsl_root_fsolver_x_upper(solver);
        status = gsl_root_test_interval(lo, hi, 0.0, 4.0 * DBL_EPSILON);
    }
    gsl_root_fsolver_free(solver);
    if (s->failed)
        return VB_CONTACT_STEP_FAILED;
    if (status != GSL_SUCCESS)
        return VB_CONTACT_NO_ROOT;
    *tau = hi;
    sweep_at(s, hi);
    return s->failed ? VB_CONTACT_STEP_FAILED : VB_CONTACT_OK;
}

/* The impact at face f: 1 if the ball now rests (normal velocity 0). */
static int impact(const vb_contact_geometry *g, const vb_contact_face *f, double *v, int give_up)
{
    unsigned d = g->dim;
    double u = -vb_contact_dot(d, f->normal, v);
    int rests = give_up || !(u >= g->threshold) || !(g->restitution * u > 0.0);
    double J = rests ? u : (1.0 + g->restitution) * u;
    double dv[VB_CONTACT_MAX_DIM] = {0.0, 0.0, 0.0};
    vb_contact_friction(d, f->normal, g->friction, J, v, dv);
    for (unsigned i = 0; i < d; i++)
        v[i] += J * f->normal[i] + dv[i];
    if (rests) { /* the normal velocity exactly 0, whatever the normal's round-off */
        double vn = vb_contact_dot(d, f->normal, v);
        for (unsigned i = 0; i < d; i++)
            v[i] -= vn * f->normal[i];
    }
    return rests;
}

/* onto the face's plane, and the normal velocity removed */
static void hold(const vb_contact_geometry *g, const vb_contact_face *f, double *x, double *v)
{
    unsigned d = g->dim;
    double s = vb_contact_face_separation(g, f, x), vn = vb_contact_dot(d, f->normal, v);
    for (unsigned i = 0; i < d; i++) {
        x[i] -= s * f->normal[i];
        v[i] -= vn * f->normal[i];
    }
}

/* The tangential part of v (to n) into vt; its length. */
static double tangential(unsigned d, const double *n, const double *v, double *vt)
{
    double vn = vb_contact_dot(d, n, v), s2 = 0.0;
    for (unsigned i = 0; i < d; i++) {
        vt[i] = v[i] - vn * n[i];
        s2 += vt[i] * vt[i];
    }
    return sqrt(s2);
}

/* A ball resting on face f for up to `rem`: how long it went (*went), its
 * state advanced.  It stops short of rem only where a sliding ball sticks. */
static int rest_step(const vb_contact_geometry *g, const vb_contact_face *f,
                     vb_contact_step_fn *stepfn, void *ctx, double *x, double *v, double t,
                     double rem, double *went, int *left)
{
    unsigned d = g->dim;
    double x1[VB_CONTACT_MAX_DIM], v1[VB_CONTACT_MAX_DIM];
    memcpy(x1, x, d * sizeof *x);
    memcpy(v1, v, d * sizeof *v);
    if (stepfn(ctx, x1, v1, t, rem) != 0 || !vb_contact_finite(d, x1, v1))
        return VB_CONTACT_STEP_FAILED;
    double J = -vb_contact_dot(d, f->normal, v1);
    *went = rem;
    *left = 0;
    if (!(vb_contact_face_separation(g, f, x1) < 0.0) || !(J > 0.0)) {
        /* pulled off the face (or not pressed onto it): free flight */
        memcpy(x, x1, d * sizeof *x);
        memcpy(v, v1, d * sizeof *v);
        *left = 1;
        return VB_CONTACT_OK;
    }
    double vt0[VB_CONTACT_MAX_DIM], vt1[VB_CONTACT_MAX_DIM];
    double speed0 = tangential(d, f->normal, v, vt0);
    double speed1 = tangential(d, f->normal, v1, vt1);
    double cut = g->friction * J; /* the largest friction impulse over rem */
    if (!(g->friction > 0.0) || (speed0 == 0.0 && speed1 == 0.0)) {
        hold(g, f, x1, v1);
        memcpy(x, x1, d * sizeof *x);
        memcpy(v, v1, d * sizeof *v);
        return VB_CONTACT_OK;
    }
    double dir[VB_CONTACT_MAX_DIM];
    if (speed0 == 0.0) {
        if (speed1 <= cut) { /* static friction holds: it stays where it is */
            for (unsigned i = 0; i < d; i++)
                v[i] = 0.0;
            return VB_CONTACT_OK;
        }
        for (unsigned i = 0; i < d; i++)
            dir[i] = vt1[i] / speed1;
    } else {
        for (unsigned i = 0; i < d; i++)
            dir[i] = vt0[i] / speed0;
    }
    /* the sliding speed along dir, w(tau) = w0 + (w1 - w0) tau / rem, is
     * linear for a constant force: it reaches 0 at tau_s */
    double w0 = vb_contact_dot(d, dir, vt0), w1 = vb_contact_dot(d, dir, vt1) - cut;
    double tau = rem;
    int sticks = 0;
    if (w1 <= 0.0) {
        tau = w0 > 0.0 ? rem * (w0 / (w0 - w1)) : 0.0;
        sticks = 1;
    }
    if (tau > 0.0) {
        double kick = 0.5 * (cut / rem) * tau;
        for (unsigned i = 0; i < d; i++)
            v[i] -= kick * dir[i];
        if (stepfn(ctx, x, v, t, tau) != 0 || !vb_contact_finite(d, x, v))
            return VB_CONTACT_STEP_FAILED;
        for (unsigned i = 0; i < d; i++)
            v[i] -= kick * dir[i];
        hold(g, f, x, v);
    }
    if (sticks) /* stuck: the sliding speed is 0 there */
        for (unsigned i = 0; i < d; i++)
            v[i] = 0.0;
    *went = tau;
    return VB_CONTACT_OK;
}

static int step(const vb_contact_geometry *g, vb_contact_step_fn *stepfn, void *ctx, double *x,
                double *v, double t, double h)
{
    unsigned d = g->dim;
    double rem = h;
    unsigned events = 0;
    int guard = 0;
    while (rem > 0.0) {
        if (++guard > 4 * VB_TOI_MAX_EVENTS + 8)
            return VB_CONTACT_NO_ROOT; /* cannot happen: every pass ends or is an event */
        vb_contact_face f;
        vb_contact_nearest_face(g, x, &f);
        double tol = touch_tol(g, &f, x);
        double vn = vb_contact_dot(d, f.normal, v);
        double vtol = 8.0 * DBL_EPSILON * sqrt(vb_contact_dot(d, v, v));
        int leaving = 0;
        if (f.separation <= tol) {
            if (f.separation < 0.0) /* an overlap: out along the normal first */
                for (unsigned i = 0; i < d; i++)
                    x[i] -= f.separation * f.normal[i];
            if (vn < -vtol) { /* an impact now */
                impact(g, &f, v, ++events > VB_TOI_MAX_EVENTS);
                continue;
            }
            if (vn <= vtol) { /* resting on the face */
                double went;
                int left;
                int st = rest_step(g, &f, stepfn, ctx, x, v, t, rem, &went, &left);
                if (st != VB_CONTACT_OK)
                    return st;
                if (went < rem)
                    events++;
                t += went;
                rem -= went;
                continue;
            }
            leaving = 1;
        }
        double x1[VB_CONTACT_MAX_DIM], v1[VB_CONTACT_MAX_DIM];
        memcpy(x1, x, d * sizeof *x);
        memcpy(v1, v, d * sizeof *v);
        if (stepfn(ctx, x1, v1, t, rem) != 0 || !vb_contact_finite(d, x1, v1))
            return VB_CONTACT_STEP_FAILED;
        double f_end = vb_contact_face_separation(g, &f, x1);
        if (!(f_end < 0.0)) {
            memcpy(x, x1, d * sizeof *x);
            memcpy(v, v1, d * sizeof *v);
            return VB_CONTACT_OK;
        }
        sweep s = {.g = g, .f = &f, .stepfn = stepfn, .ctx = ctx, .x = x, .v = v, .t = t};
        double tau;
        int st = locate(&s, leaving ? 0.0 : f.separation, rem, f_end, leaving, &tau);
        if (st == VB_CONTACT_NO_ROOT && leaving) {
            /* it leaves so slowly that no sample of the step sees it above
             * the face: a bounce below what the step resolves, so it rests */
            double vn_now = vb_contact_dot(d, f.normal, v);
            for (unsigned i = 0; i < d; i++)
                v[i] -= vn_now * f.normal[i];
            events++;
            continue;
        }
        if (st != VB_CONTACT_OK)
            return st;
        memcpy(x, s.xs, d * sizeof *x);
        memcpy(v, s.vs, d * sizeof *v);
        double off = vb_contact_face_separation(g, &f, x);
        for (unsigned i = 0; i < d; i++) /* onto the face: round-off only */
            x[i] -= off * f.normal[i];
        impact(g, &f, v, ++events > VB_TOI_MAX_EVENTS);
        t += tau;
        rem = tau >= rem ? 0.0 : rem - tau;
    }
    return VB_CONTACT_OK;
}

static double blind(const vb_contact_geometry *g)
{
    (void)g;
    return INFINITY;
}

const vb_contact_handler vb_contact_toi = {
    .name = "toi",
    .summary = "event location: find the time of impact in the step, split the step there",
    .step = step,
    .blind = blind,
};
