/* metrics.c — streaming error norms. */
#include "metrics.h"

#include <float.h>
#include <math.h>

/* scale = max(scale, |a|), skipping the square root when the plain sum of
 * squares is at most one already seen (then |a| = sqrt(s) cannot be larger).
 * The sum is formed as vb_norm forms it, so the scale is the same bits. */
/* a sum of squares whose square root is the norm (vector.h's test) */
static inline int in_range(double s) { return s >= DBL_MIN / DBL_EPSILON && s <= DBL_MAX; }

/* the same with s, a's sum of squares, in hand */
static void raise_scale_by(double *scale, double *scale_sq, const double *a, size_t n, double s)
{
    if (s <= *scale_sq)
        return;
    double r = in_range(s) ? sqrt(s) : vb_magnitude(a, n); /* vb_magnitude's own test */
    if (r > *scale)
        *scale = r;
    if (in_range(s)) /* r = sqrt(s) <= *scale */
        *scale_sq = s;
}

static void raise_scale(double *scale, double *scale_sq, const double *a, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += a[i] * a[i];
    raise_scale_by(scale, scale_sq, a, n, s);
}

double vb_relative_change(double value, double ref)
{
    double d = fabs(value - ref);
    return ref != 0.0 ? d / fabs(ref) : d;
}

static inline void momentum(const vb_model *model, const double *v, double *p)
{
    unsigned dim = model->type->dim;
    for (unsigned c = 0; c < dim; c++)
        p[c] = 0.0;
    if (dim == 2) /* the plane's, unrolled: the same sums in the same order */
        for (size_t i = 0; i < model->particles; i++) {
            p[0] += model->mass[i] * v[2 * i];
            p[1] += model->mass[i] * v[2 * i + 1];
        }
    else
        for (size_t i = 0; i < model->particles; i++)
            for (unsigned c = 0; c < dim; c++)
                p[c] += model->mass[i] * v[i * dim + c];
}

void vb_momentum(const vb_model *model, const double *v, double *p) { momentum(model, v, p); }

/* inline in vb_metrics_add, which calls them every step */
static inline unsigned angmom(const vb_model *model, const double *x, const double *v, double *l)
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

unsigned vb_angmom(const vb_model *model, const double *x, const double *v, double *l)
{
    return angmom(model, x, v, l);
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
    m->has_velocity = 1;
    if (m->has_energy)
        m->E0 = type->energy(model->self, x0, v0);
    if (m->has_angmom) {
        m->n_ang = vb_angmom(model, x0, v0, m->L0);
        m->L0_norm = vb_magnitude(m->L0, m->n_ang);
    }
    if (m->has_momentum) {
        vb_momentum(model, v0, m->P0);
        m->P0_norm = vb_magnitude(m->P0, type->dim);
    }
    m->pos_scale_sq = m->vel_scale_sq = -1.0;
    raise_scale(&m->pos_scale, &m->pos_scale_sq, x0, m->n);
    raise_scale(&m->vel_scale, &m->vel_scale_sq, v0, m->n);
}

void vb_metrics_drop_velocity(vb_metrics *m)
{
    m->has_velocity = m->has_energy = m->has_angmom = m->has_momentum = 0;
}

/* the change of a conserved vector quantity whose sum of squares of change
 * is s: the largest kept as its sum (*sq) where its root is the norm, else
 * as the value (*other); the bad flag when that is not a finite number */
static inline const char *keep_change(double s, const double *q, const double *q0, size_t k,
                                      double r, double *sq, double *other, const char *what)
{
    if (in_range(s)) {
        if (!(s <= *sq)) {
            *sq = s;
            double c = r != 0.0 ? sqrt(s) / r : sqrt(s);
            return isfinite(c) ? NULL : what;
        }
        return NULL;
    }
    double d = vb_distance_scaled(q, q0, k), c = r != 0.0 ? d / r : d;
    if (!(c <= *other))
        *other = c;
    return isfinite(c) ? NULL : what;
}

void vb_exact_sums(vb_exact_size *e, const double *xe, const double *ve, size_t n)
{
    double sxe = 0.0, sve = 0.0;
    for (size_t i = 0; i < n; i++) {
        sxe += xe[i] * xe[i];
        sve += ve[i] * ve[i];
    }
    e->sxe = sxe;
    e->sve = sve;
}

const char *vb_metrics_add(vb_metrics *m, const double *x, const double *v, const double *xe,
                           const double *ve)
{
    vb_exact_size e;
    vb_exact_sums(&e, xe, ve, m->n);
    return vb_metrics_add_sized(m, x, v, xe, ve, &e);
}

/* w_i = 1 + (i mod 3)/4 of vb_metrics_pos_signed_mean, exact in binary */
static const double signed_weight[3] = {1.0, 1.25, 1.5};

const char *vb_metrics_add_sized(vb_metrics *m, const double *x, const double *v,
                                 const double *xe, const double *ve, const vb_exact_size *e)
{
    const char *bad = NULL;
    const vb_model_type *type = m->model->type;
    /* the sums of squares of the step's two errors in one pass: two chains
     * of additions side by side, each summed in the order vb_distance sums
     * it, so every result is the same bits (the exact state's, which every
     * run of a grid step shares, come in e) */
    double sp = 0.0, sv = 0.0, signed_sum = 0.0, sxe = e->sxe, sve = e->sve;
    const double *vv = m->has_velocity ? v : ve; /* none: a zero error, never kept */
    for (size_t i = 0, w = 0; i < m->n; i++, w = w == 2 ? 0 : w + 1) {
        double dp = x[i] - xe[i], dv = vv[i] - ve[i];
        signed_sum += signed_weight[w] * dp;
        sp += dp * dp;
        sv += dv * dv;
    }
    double ep = in_range(sp) ? sqrt(sp) : vb_distance_scaled(x, xe, m->n);
    if (!isfinite(ep))
        bad = "position error";
    m->count++;
    m->pos_signed_sum += signed_sum;
    m->pos_final = ep;
    if (ep > m->pos_max)
        m->pos_max = ep;
    if (ep > m->pos_rms_scale) {
        double r = m->pos_rms_scale / ep;
        m->pos_rms_ss = 1.0 + m->pos_rms_ss * r * r;
        m->pos_rms_scale = ep;
    } else if (ep > 0.0) {
        double r = ep / m->pos_rms_scale;
        m->pos_rms_ss += r * r;
    }
    if (!m->has_velocity) {
        /* nothing to measure: its errors stay 0, and are never written */
    } else if (in_range(sv)) {
        m->vel_last_sq = sv;
        if (sv > m->vel_sq)
            m->vel_sq = sv;
    } else {
        double ev = vb_distance_scaled(v, ve, m->n);
        if (!isfinite(ev) && !bad)
            bad = "velocity error";
        m->vel_last_sq = -1.0;
        m->vel_last = ev;
        if (ev > m->vel_other)
            m->vel_other = ev;
    }
    if (m->has_energy) {
        double d = fabs(type->energy(m->model->self, x, v) - m->E0);
        if (!(d <= m->energy_d)) { /* a new largest: is it a number? */
            m->energy_d = d;
            if (!isfinite(m->E0 != 0.0 ? d / fabs(m->E0) : d) && !bad)
                bad = "energy error";
        }
    }
    if (m->has_angmom) {
        double l[3], s = 0.0;
        angmom(m->model, x, v, l);
        for (unsigned c = 0; c < m->n_ang; c++)
            s += (l[c] - m->L0[c]) * (l[c] - m->L0[c]);
        const char *b = keep_change(s, l, m->L0, m->n_ang, m->L0_norm, &m->angmom_sq,
                                    &m->angmom_other, "angular momentum error");
        if (b && !bad)
            bad = b;
    }
    if (m->has_momentum) {
        double p[3], s = 0.0;
        momentum(m->model, v, p);
        for (unsigned c = 0; c < type->dim; c++)
            s += (p[c] - m->P0[c]) * (p[c] - m->P0[c]);
        const char *b = keep_change(s, p, m->P0, type->dim, m->P0_norm, &m->momentum_sq,
                                    &m->momentum_other, "momentum error");
        if (b && !bad)
            bad = b;
    }
    if (m->has_constraint) {
        double dc = vb_constraint_drift(&m->model->cons, x);
        if (!isfinite(dc) && !bad)
            bad = "drift off the rods";
        if (!(dc <= m->constraint_max))
            m->constraint_max = dc;
    }
    raise_scale_by(&m->pos_scale, &m->pos_scale_sq, xe, m->n, sxe);
    raise_scale_by(&m->vel_scale, &m->vel_scale_sq, ve, m->n, sve);
    return bad;
}

static double larger(double a, double b) { return a > b ? a : b; }

double vb_metrics_vel_final(const vb_metrics *m)
{
    return m->vel_last_sq >= 0.0 ? sqrt(m->vel_last_sq) : m->vel_last;
}

double vb_metrics_vel_max(const vb_metrics *m) { return larger(sqrt(m->vel_sq), m->vel_other); }

double vb_metrics_energy_max(const vb_metrics *m)
{
    return m->E0 != 0.0 ? m->energy_d / fabs(m->E0) : m->energy_d;
}

static double change_max(double sq, double other, double r)
{
    return larger(r != 0.0 ? sqrt(sq) / r : sqrt(sq), other);
}

double vb_metrics_angmom_max(const vb_metrics *m)
{
    return change_max(m->angmom_sq, m->angmom_other, m->L0_norm);
}

double vb_metrics_momentum_max(const vb_metrics *m)
{
    return change_max(m->momentum_sq, m->momentum_other, m->P0_norm);
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

double vb_metrics_pos_signed_mean(const vb_metrics *m)
{
    return m->pos_signed_sum / (double)m->count;
}

/* over all points t_0 .. t_N, t_0 (error zero) included */
double vb_metrics_pos_rms(const vb_metrics *m)
{
    return m->pos_rms_scale * sqrt(m->pos_rms_ss / (double)m->count);
}
