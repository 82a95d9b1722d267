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

#include <math.h>

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

static void *create(const double *p, char *err, size_t errlen)
{
    if (vb_rigid_check_moments(p, err, errlen) != 0)
        return NULL;
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
