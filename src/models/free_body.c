/* models/free_body.c — the torque-free asymmetric top, thrown: its
 * rotation exact through Jacobi's elliptic functions and an elliptic
 * integral of the third kind (free_body_solution.h), its centre of mass a
 * projectile (docs/rigid.md §2).
 *
 * The default, I = (1, 2, 3) and w = (0.01, 1, 0.01), is a spin about the
 * intermediate axis: the Dzhanibekov flip, the tennis racket.  Its
 * intermediate axis turns over against L twice a period of w(t); the
 * period 4K/lambda = 39.1 is the flip period (docs/rigid.md §4).  The body
 * starts with its axes along the world's (q = 1) and its centre of mass at
 * the origin. */
#include "free_body_solution.h"
#include "model.h" /* vb_model_self_alloc */
#include "quaternion.h"
#include "rigid.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

typedef struct free_body {
    vb_free_body_solution sol;
    vb_rigid_common common;
} free_body;

static const vb_param_spec params[] = {
    {"I1", 1.0, 0.0, INFINITY, 1, 0, "principal moment of body axis 1", 0},
    {"I2", 2.0, 0.0, INFINITY, 1, 0, "principal moment of body axis 2", 0},
    {"I3", 3.0, 0.0, INFINITY, 1, 0, "principal moment of body axis 3", 0},
    {"w1", 0.01, -INFINITY, INFINITY, 0, 0, "initial angular velocity about body axis 1", 0},
    {"w2", 1.0, -INFINITY, INFINITY, 0, 0, "initial angular velocity about body axis 2", 0},
    {"w3", 0.01, -INFINITY, INFINITY, 0, 0, "initial angular velocity about body axis 3", 0},
    VB_RIGID_COMMON_PARAMS,
};
#define FIRST_COMMON 6

/* The rotational energy 2T = I w.w, |L| = |I w| and |w|^2 (the scale of
 * w' = I^-1 (I w) x w, which a method computes at every step), each as
 * v 2^e with v a double of ordinary size, so that none of them over- or
 * underflows here.  The exact solution holds at any scale
 * (free_body_solution.c), but a run measures its energy and angular
 * momentum errors relative to 2T and |L| and steps with products of the
 * size of |w|^2: where one of those is not a normal double it has lost
 * digits (a subnormal has an absolute error of 2^-1075, a relative one up
 * to 1) or is infinite, and the run's figures would not be the method's;
 * where each is at least DBL_MIN = 2^-1022, a subnormal part of it rounds
 * by at most 2^-53 of it, round-off.  So such a body is refused, the
 * message saying which; a body at rest (w = 0) has nothing to lose.
 * Returns NULL, or what is out of range and its value (*value). */
static const char *out_of_range(const double I[3], const double w[3], double *value)
{
    double Imax = fmax(I[0], fmax(I[1], I[2]));
    double wmax = fmax(fabs(w[0]), fmax(fabs(w[1]), fabs(w[2])));
    if (wmax == 0.0)
        return NULL;
    int ei = ilogb(Imax), ew = ilogb(wmax);
    double T2 = 0.0, L[3], w2 = 0.0;
    for (int i = 0; i < 3; i++) {
        double Is = ldexp(I[i], -ei), ws = ldexp(w[i], -ew);
        T2 += Is * ws * ws;
        L[i] = Is * ws;
        w2 += ws * ws;
    }
    const struct {
        const char *what;
        double v;
    } q[3] = {
        {"its energy I w.w/2", ldexp(0.5 * T2, ei + 2 * ew)},
        {"its angular momentum |I w|", ldexp(vb_vec3_norm(L), ei + ew)},
        {"|w|^2, the size of the rate of change of w", ldexp(w2, 2 * ew)},
    };
    for (int k = 0; k < 3; k++)
        if (!(isfinite(q[k].v) && q[k].v >= DBL_MIN)) {
            *value = q[k].v;
            return q[k].what;
        }
    return NULL;
}

static void *create(const double *p, char *err, size_t errlen)
{
    if (vb_rigid_check_moments(p, err, errlen) != 0)
        return NULL;
    double value;
    const char *what = out_of_range(p, p + 3, &value);
    if (what) {
        snprintf(err, errlen, "I1 I2 I3 = %g %g %g, w1 w2 w3 = %g %g %g: %s is %g, not a normal "
                              "double (%g to %g), and a run's figures would lose their digits to "
                              "under- or overflow.  The motion is the same with the moments "
                              "times any s, or w times s and time over s: scale them into range",
                 p[0], p[1], p[2], p[3], p[4], p[5], what, value, DBL_MIN, DBL_MAX);
        return NULL;
    }
    free_body *s = vb_model_self_alloc(sizeof *s, err, errlen);
    if (!s)
        return NULL;
    static const double identity[4] = {1.0, 0.0, 0.0, 0.0};
    if (vb_free_body_init(&s->sol, p, p + 3, identity, err, errlen) != 0) {
        vb_model_self_free(s);
        return NULL;
    }
    vb_rigid_common_read(p + FIRST_COMMON, &s->common);
    return s;
}

static void props(const void *self, vb_rigid_props *p)
{
    const free_body *s = self;
    for (int i = 0; i < 3; i++) {
        p->inertia[i] = s->sol.I[i];
        p->gravity[i] = s->common.gravity[i];
    }
    p->mass = s->common.mass;
}

static void initial(const void *self, vb_rigid_state *st)
{
    const free_body *s = self;
    for (int i = 0; i < 3; i++) {
        st->x[i] = 0.0;
        st->v[i] = s->common.v0[i];
        st->w[i] = s->sol.w0[i];
    }
    for (int i = 0; i < 4; i++)
        st->q[i] = s->sol.q0[i];
}

static int exact(const void *self, void *work, double t, vb_rigid_state *st)
{
    (void)work;
    const free_body *s = self;
    static const double origin[3] = {0.0, 0.0, 0.0};
    vb_rigid_projectile(origin, s->common.v0, s->common.gravity, t, st->x, st->v);
    return vb_free_body_at(&s->sol, t, st->q, st->w);
}

/* the flip period when there is one; else the time of one turn at |w| */
static double natural_time(const void *self)
{
    const free_body *s = self;
    double T = vb_free_body_period(&s->sol);
    if (isfinite(T) && T > 0.0)
        return T;
    double w = vb_vec3_norm(s->sol.w0);
    return w > 0.0 ? 2.0 * M_PI / w : 1.0;
}

static double w_period(const void *self)
{
    const free_body *s = self;
    return vb_free_body_period(&s->sol);
}

const vb_rigid_model_type vb_rigid_model_free_body = {
    .name = "free-body",
    .summary = "torque-free asymmetric top (Dzhanibekov flip by default), thrown: exact via "
               "Jacobi sn, cn, dn and Pi",
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .flags = VB_RIGID_TORQUE_FREE,
    .create = create,
    .destroy = vb_model_self_free,
    .props = props,
    .initial = initial,
    .exact = exact,
    .work_alloc = NULL,
    .work_free = NULL,
    .natural_time = natural_time,
    .w_period = w_period,
};
