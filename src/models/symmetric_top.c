/* models/symmetric_top.c — a torque-free symmetric top, I1 = I2: regular
 * precession, in closed form without elliptic functions (docs/rigid.md §3).
 *
 * With Omega = (I3 - I1) w3 / I1, the body-frame w turns about the
 * symmetry axis at the rate Omega (Euler's equations: w1' = -Omega w2,
 * w2' = Omega w1):
 *     (w1, w2)(t) = rotation by Omega t of (w1, w2)(0),   w3 constant,
 * and the attitude is a precession about the fixed L at the rate |L|/I1
 * composed with a spin about the symmetry axis at the rate -Omega:
 *     q(t) = exp(t L_world / I1) q0 exp(-Omega t e3),
 * since then the body-frame angular velocity is L_body/I1 - Omega e3 =
 * (w1, w2, w3).  The body starts with its axes along the world's and its
 * centre of mass at the origin, a projectile. */
#include "model.h" /* vb_model_self_alloc */
#include "quaternion.h"
#include "rigid.h"

#include <math.h>

typedef struct symmetric_top {
    double I[3], w0[3], q0[4];
    double Omega;      /* the body-frame precession rate of w */
    double Lw[3];      /* L in the world */
    vb_rigid_common common;
} symmetric_top;

static const vb_param_spec params[] = {
    {"I1", 2.0, 0.0, INFINITY, 1, 0, "principal moment of body axes 1 and 2", 0},
    {"I3", 1.0, 0.0, INFINITY, 1, 0, "principal moment of the symmetry axis, body axis 3", 0},
    {"w1", 0.3, -INFINITY, INFINITY, 0, 0, "initial angular velocity about body axis 1", 0},
    {"w2", 0.0, -INFINITY, INFINITY, 0, 0, "initial angular velocity about body axis 2", 0},
    {"w3", 2.0, -INFINITY, INFINITY, 0, 0, "initial angular velocity about body axis 3", 0},
    VB_RIGID_COMMON_PARAMS,
};
#define FIRST_COMMON 5

static void *create(const double *p, char *err, size_t errlen)
{
    double I[3] = {p[0], p[0], p[1]};
    if (vb_rigid_check_moments(I, err, errlen) != 0)
        return NULL;
    symmetric_top *s = vb_model_self_alloc(sizeof *s, err, errlen);
    if (!s)
        return NULL;
    for (int i = 0; i < 3; i++) {
        s->I[i] = I[i];
        s->w0[i] = p[2 + i];
        s->Lw[i] = I[i] * s->w0[i]; /* q0 = 1: world = body at t = 0 */
    }
    s->q0[0] = 1.0;
    s->Omega = (I[2] - I[0]) * s->w0[2] / I[0];
    vb_rigid_common_read(p + FIRST_COMMON, &s->common);
    return s;
}

static void props(const void *self, vb_rigid_props *p)
{
    const symmetric_top *s = self;
    for (int i = 0; i < 3; i++) {
        p->inertia[i] = s->I[i];
        p->gravity[i] = s->common.gravity[i];
    }
    p->mass = s->common.mass;
}

static void initial(const void *self, vb_rigid_state *st)
{
    const symmetric_top *s = self;
    for (int i = 0; i < 3; i++) {
        st->x[i] = 0.0;
        st->v[i] = s->common.v0[i];
        st->w[i] = s->w0[i];
    }
    for (int i = 0; i < 4; i++)
        st->q[i] = s->q0[i];
}

static int exact(const void *self, void *work, double t, vb_rigid_state *st)
{
    (void)work;
    const symmetric_top *s = self;
    static const double origin[3] = {0.0, 0.0, 0.0};
    vb_rigid_projectile(origin, s->common.v0, s->common.gravity, t, st->x, st->v);
    double c = cos(s->Omega * t), sn = sin(s->Omega * t);
    st->w[0] = c * s->w0[0] - sn * s->w0[1];
    st->w[1] = sn * s->w0[0] + c * s->w0[1];
    st->w[2] = s->w0[2];
    double prec[3], a[4], b[4];
    for (int i = 0; i < 3; i++)
        prec[i] = t * s->Lw[i] / s->I[0];
    vb_quat_exp(prec, a);
    vb_quat_axis(2, -s->Omega * t, b);
    vb_quat_mul(a, s->q0, st->q);
    vb_quat_mul(st->q, b, st->q);
    return 0;
}

/* one turn of the precession about L, 2 pi I1 / |L|; one turn at |w| for
 * a body at rest in its precession (L = 0 cannot be: then w = 0, and the
 * time is 1) */
static double natural_time(const void *self)
{
    const symmetric_top *s = self;
    double L = vb_vec3_norm(s->Lw);
    return L > 0.0 ? 2.0 * M_PI * s->I[0] / L : 1.0;
}

static double w_period(const void *self)
{
    const symmetric_top *s = self;
    if (s->Omega == 0.0 || (s->w0[0] == 0.0 && s->w0[1] == 0.0))
        return 0.0;
    return 2.0 * M_PI / fabs(s->Omega);
}

const vb_rigid_model_type vb_rigid_model_symmetric_top = {
    .name = "symmetric-top",
    .summary = "torque-free symmetric top (I1 = I2), thrown: regular precession in closed form",
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
