/* metrics.c — streaming error norms. */
#include "metrics.h"

#include <float.h>
#include <math.h>

/* scale = max(scale, |a|), skipping the square root when the plain sum of
 * squares is at most one already seen (then |a| = sqrt(s) cannot be larger).
 * The sum is formed as vb_norm forms it, so the scale is the same bits. */
static void raise_scale(double *scale, double *scale_sq, const double *a, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += a[i] * a[i];
    if (s <= *scale_sq)
        return;
    double r = vb_magnitude(a, n);
    if (r > *scale)
        *scale = r;
    if (s >= DBL_MIN / DBL_EPSILON && s <= DBL_MAX) /* r = sqrt(s) <= *scale */
        *scale_sq = s;
}

double vb_relative_change(double value, double ref)
{
    double d = fabs(value - ref);
    return ref != 0.0 ? d / fabs(ref) : d;
}

/* the relative change of a vector quantity: |q - q0| / |q0|, or |q - q0|
 * when q0 = 0 (for one component, exactly vb_relative_change: sqrt(d*d)
 * is |d| in IEEE arithmetic) */
static double vector_change(const double *q, const double *q0, size_t k)
{
    double d = vb_distance(q, q0, k), r = vb_magnitude(q0, k);
    return r != 0.0 ? d / r : d;
}

void vb_momentum(const vb_model *model, const double *v, double *p)
{
    unsigned dim = model->type->dim;
    for (unsigned c = 0; c < dim; c++)
        p[c] = 0.0;
    for (size_t i = 0; i < model->particles; i++)
        for (unsigned c = 0; c < dim; c++)
            p[c] += model->mass[i] * v[i * dim + c];
}

unsigned vb_angmom(const vb_model *model, const double *x, const double *v, double *l)
{
    unsigned dim = model->type->dim;
    if (dim == 2) {
        l[0] = 0.0;
        for (size_t i = 0; i < model->particles; i++) {
            const double *r = x + 2 * i, *u = v + 2 * i;
            l[0] += model->mass[i] * (r[0] * u[1] - r[1] * u[0]);
        }
        return 1;
    }
    l[0] = l[1] = l[2] = 0.0;
    for (size_t i = 0; i < model->particles; i++) {
        const double *r = x + 3 * i, *u = v + 3 * i;
        l[0] += model->mass[i] * (r[1] * u[2] - r[2] * u[1]);
        l[1] += model->mass[i] * (r[2] * u[0] - r[0] * u[2]);
        l[2] += model->mass[i] * (r[0] * u[1] - r[1] * u[0]);
    }
    return 3;
}

void vb_metrics_init(vb_metrics *m, const vb_model *model, const double *x0, const double *v0)
{
    const vb_model_type *type = model->type;
    *m = (vb_metrics){0};
    m->model = model;
    m->n = model->n;
    m->count = 1;
    m->has_energy = type->energy != NULL;
    m->has_angmom = (type->flags & VB_CONSERVES_ANGMOM) && type->dim >= 2;
    m->has_momentum = (type->flags & VB_CONSERVES_MOMENTUM) != 0;
    m->has_constraint = vb_model_constrained(model);
    if (m->has_energy)
        m->E0 = type->energy(model->self, x0, v0);
    if (m->has_angmom)
        m->n_ang = vb_angmom(model, x0, v0, m->L0);
    if (m->has_momentum)
        vb_momentum(model, v0, m->P0);
    m->pos_scale_sq = m->vel_scale_sq = -1.0;
    raise_scale(&m->pos_scale, &m->pos_scale_sq, x0, m->n);
    raise_scale(&m->vel_scale, &m->vel_scale_sq, v0, m->n);
}

const char *vb_metrics_add(vb_metrics *m, const double *x, const double *v, const double *xe,
                           const double *ve)
{
    const char *bad = NULL;
    const vb_model_type *type = m->model->type;
    double ep = vb_distance(x, xe, m->n);
    double ev = vb_distance(v, ve, m->n);
    if (!isfinite(ep) || !isfinite(ev))
        bad = !isfinite(ep) ? "position error" : "velocity error";
    m->count++;
    m->pos_final = ep;
    m->vel_final = ev;
    if (ep > m->pos_max)
        m->pos_max = ep;
    if (ev > m->vel_max)
        m->vel_max = ev;
    if (ep > m->pos_rms_scale) {
        double r = m->pos_rms_scale / ep;
        m->pos_rms_ss = 1.0 + m->pos_rms_ss * r * r;
        m->pos_rms_scale = ep;
    } else if (ep > 0.0) {
        double r = ep / m->pos_rms_scale;
        m->pos_rms_ss += r * r;
    }
    if (m->has_energy) {
        double de = vb_relative_change(type->energy(m->model->self, x, v), m->E0);
        if (!isfinite(de) && !bad)
            bad = "energy error";
        if (!(de <= m->energy_max))
            m->energy_max = de;
    }
    if (m->has_angmom) {
        double l[3];
        vb_angmom(m->model, x, v, l);
        double dl = vector_change(l, m->L0, m->n_ang);
        if (!isfinite(dl) && !bad)
            bad = "angular momentum error";
        if (!(dl <= m->angmom_max))
            m->angmom_max = dl;
    }
    if (m->has_momentum) {
        double p[3];
        vb_momentum(m->model, v, p);
        double dp = vector_change(p, m->P0, type->dim);
        if (!isfinite(dp) && !bad)
            bad = "momentum error";
        if (!(dp <= m->momentum_max))
            m->momentum_max = dp;
    }
    if (m->has_constraint) {
        double dc = vb_constraint_drift(&m->model->cons, x);
        if (!isfinite(dc) && !bad)
            bad = "drift off the rods";
        if (!(dc <= m->constraint_max))
            m->constraint_max = dc;
    }
    raise_scale(&m->pos_scale, &m->pos_scale_sq, xe, m->n);
    raise_scale(&m->vel_scale, &m->vel_scale_sq, ve, m->n);
    return bad;
}

double vb_constraint_drift(const vb_constraints *c, const double *x)
{
    double worst = 0.0;
    unsigned d = c->dim;
    for (size_t k = 0; k < c->n; k++) {
        const vb_constraint *r = &c->rod[k];
        const double *xi = x + r->i * d, *xj = r->j == VB_PIVOT ? r->pivot : x + r->j * d;
        double off = fabs(vb_distance(xi, xj, d) - r->length);
        if (!(off <= worst)) /* NaN wins: a drift that is not a number is said */
            worst = off;
    }
    return worst;
}

/* over all points t_0 .. t_N, t_0 (error zero) included */
double vb_metrics_pos_rms(const vb_metrics *m)
{
    return m->pos_rms_scale * sqrt(m->pos_rms_ss / (double)m->count);
}
