/* metrics.c — streaming error norms. */
#include "metrics.h"

#include <float.h>
#include <math.h>

double vb_distance_scaled(const double *a, const double *b, unsigned dim)
{
    double d[VB_MAX_DIM], s = 0.0;
    for (unsigned i = 0; i < dim; i++) {
        d[i] = a[i] - b[i];
        s += d[i] * d[i];
    }
    if (s >= DBL_MIN / DBL_EPSILON && s <= DBL_MAX)
        return sqrt(s);
    double big = 0.0;
    for (unsigned i = 0; i < dim; i++)
        if (fabs(d[i]) > big || isnan(d[i]))
            big = fabs(d[i]);
    if (big == 0.0 || !isfinite(big))
        return big;
    s = 0.0;
    for (unsigned i = 0; i < dim; i++)
        s += (d[i] / big) * (d[i] / big);
    return big * sqrt(s);
}

static double magnitude(const double *a, unsigned dim)
{
    static const double zero[VB_MAX_DIM];
    return vb_distance(a, zero, dim);
}

/* scale = max(scale, |a|), skipping the square root when the plain sum of
 * squares is at most one already seen (then |a| = sqrt(s) cannot be larger).
 * The sum is formed as vb_distance forms it, so the scale is the same bits. */
static void raise_scale(double *scale, double *scale_sq, const double *a, unsigned dim)
{
    double s = 0.0;
    for (unsigned i = 0; i < dim; i++)
        s += a[i] * a[i];
    if (s <= *scale_sq)
        return;
    double r = magnitude(a, dim);
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

void vb_metrics_init(vb_metrics *m, const vb_model *model, const double *x0, const double *v0)
{
    const vb_model_type *type = model->type;
    *m = (vb_metrics){0};
    m->model = model;
    m->dim = type->dim;
    m->count = 1;
    m->has_energy = type->energy != NULL;
    m->has_angmom = type->angmom != NULL;
    if (m->has_energy)
        m->E0 = type->energy(model->self, x0, v0);
    if (m->has_angmom)
        m->L0 = type->angmom(model->self, x0, v0);
    m->pos_scale_sq = m->vel_scale_sq = -1.0;
    raise_scale(&m->pos_scale, &m->pos_scale_sq, x0, m->dim);
    raise_scale(&m->vel_scale, &m->vel_scale_sq, v0, m->dim);
}

void vb_metrics_add(vb_metrics *m, const double *x, const double *v, const double *xe,
                    const double *ve)
{
    const vb_model_type *type = m->model->type;
    double ep = vb_distance(x, xe, m->dim);
    double ev = vb_distance(v, ve, m->dim);
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
        if (!(de <= m->energy_max))
            m->energy_max = de;
    }
    if (m->has_angmom) {
        double dl = vb_relative_change(type->angmom(m->model->self, x, v), m->L0);
        if (!(dl <= m->angmom_max))
            m->angmom_max = dl;
    }
    raise_scale(&m->pos_scale, &m->pos_scale_sq, xe, m->dim);
    raise_scale(&m->vel_scale, &m->vel_scale_sq, ve, m->dim);
}

/* over all points t_0 .. t_N, t_0 (error zero) included */
double vb_metrics_pos_rms(const vb_metrics *m)
{
    return m->pos_rms_scale * sqrt(m->pos_rms_ss / (double)m->count);
}
