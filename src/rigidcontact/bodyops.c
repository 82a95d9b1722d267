/* rigidcontact/bodyops.c — a body's points near the ground, its
 * velocities under impulses, and the method's step as the engines' stages
 * (bodyops.h). */
#include "bodyops.h"

#include <math.h>
#include <string.h>

#include "quaternion.h"

double vb_dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

void vb_cross3(const double a[3], const double b[3], double out[3])
{
    double o0 = a[1] * b[2] - a[2] * b[1], o1 = a[2] * b[0] - a[0] * b[2],
           o2 = a[0] * b[1] - a[1] * b[0];
    out[0] = o0, out[1] = o1, out[2] = o2;
}

void vb_mat3_vec(const double m[9], const double v[3], double out[3])
{
    double o0 = m[0] * v[0] + m[1] * v[1] + m[2] * v[2];
    double o1 = m[3] * v[0] + m[4] * v[1] + m[5] * v[2];
    double o2 = m[6] * v[0] + m[7] * v[1] + m[8] * v[2];
    out[0] = o0, out[1] = o1, out[2] = o2;
}

int vb_body_points(const vb_contact_body *b, const vb_plane *g, double margin,
                   vb_body_point pts[VB_BODY_FEATURES])
{
    const vb_rigid_state *s = &b->s;
    int n = 0;
    if (b->shape.kind == VB_SHAPE_SPHERE) {
        vb_body_point *pt = &pts[0];
        pt->feature = 0;
        for (int i = 0; i < 3; i++) {
            pt->r[i] = -b->shape.radius * g->normal[i];
            pt->p[i] = s->x[i] + pt->r[i];
        }
        vb_quat_rotate_inv(s->q, pt->r, pt->r_body);
        pt->separation = vb_plane_separation(g, s->x) - b->shape.radius;
        return pt->separation <= margin ? 1 : 0;
    }
    for (int c = 0; c < VB_BODY_FEATURES; c++) {
        vb_body_point *pt = &pts[n];
        for (int i = 0; i < 3; i++)
            pt->r_body[i] = (c >> i & 1) ? b->shape.half[i] : -b->shape.half[i];
        vb_quat_rotate(s->q, pt->r_body, pt->r);
        for (int i = 0; i < 3; i++)
            pt->p[i] = s->x[i] + pt->r[i];
        /* the corner's height over the plane, from the centre's and the
         * corner's offset along n, so that the four corners of a face
         * parallel to the plane agree to the last bit of their offset */
        pt->separation = vb_plane_separation(g, s->x) + vb_dot3(g->normal, pt->r);
        pt->feature = c;
        if (pt->separation <= margin)
            n++;
    }
    return n;
}

void vb_ground_tangents(const double n[3], double t1[3], double t2[3])
{
    int k = 0;
    for (int i = 1; i < 3; i++)
        if (fabs(n[i]) < fabs(n[k]))
            k = i;
    double e[3] = {0.0, 0.0, 0.0};
    e[k] = 1.0;
    double en = vb_dot3(e, n);
    for (int i = 0; i < 3; i++)
        t1[i] = e[i] - en * n[i];
    double l = sqrt(vb_dot3(t1, t1));
    for (int i = 0; i < 3; i++)
        t1[i] /= l;
    vb_cross3(n, t1, t2);
}

static void inv_inertia_world(const vb_rigid_state *s, const vb_rigid_props *p, double out[9])
{
    double R[9];
    vb_quat_to_matrix(s->q, R);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double sum = 0.0;
            for (int k = 0; k < 3; k++)
                sum += R[3 * i + k] * R[3 * j + k] / p->inertia[k];
            out[3 * i + j] = sum;
        }
}

void vb_body_vel_now(const vb_contact_body *b, vb_body_vel *out)
{
    memcpy(out->v, b->s.v, sizeof out->v);
    vb_quat_rotate(b->s.q, b->s.w, out->om);
    out->inv_m = 1.0 / b->p.mass;
    inv_inertia_world(&b->s, &b->p, out->inv_I);
}

int vb_body_vel_free(const vb_contact_body *b, vb_body_step_fn *method, double h,
                     vb_body_vel *out)
{
    vb_contact_body t = *b;
    method(&t.s, &t.p, h);
    if (!vb_body_finite(&t))
        return VB_BODY_DIVERGED;
    memcpy(out->v, t.s.v, sizeof out->v);
    /* the world w after the step: the body w turned by the step's end
     * attitude (for a turn about w itself, the start's would give the
     * same vector) */
    vb_quat_rotate(t.s.q, t.s.w, out->om);
    out->inv_m = 1.0 / b->p.mass;
    inv_inertia_world(&b->s, &b->p, out->inv_I);
    return VB_BODY_OK;
}

void vb_vel_at(const vb_body_vel *b, const double r[3], double out[3])
{
    double wr[3];
    vb_cross3(b->om, r, wr);
    for (int i = 0; i < 3; i++)
        out[i] = b->v[i] + wr[i];
}

void vb_vel_apply(vb_body_vel *b, const double r[3], const double P[3])
{
    double rP[3], dw[3];
    vb_cross3(r, P, rP);
    vb_mat3_vec(b->inv_I, rP, dw);
    for (int i = 0; i < 3; i++) {
        b->v[i] += b->inv_m * P[i];
        b->om[i] += dw[i];
    }
}

void vb_vel_apply_along(vb_body_vel *b, const double r[3], const double u[3], double lambda)
{
    double P[3] = {lambda * u[0], lambda * u[1], lambda * u[2]};
    vb_vel_apply(b, r, P);
}

void vb_vel_apply_angular(vb_body_vel *b, const double L[3])
{
    double dw[3];
    vb_mat3_vec(b->inv_I, L, dw);
    for (int i = 0; i < 3; i++)
        b->om[i] += dw[i];
}

double vb_vel_inv_mass(const vb_body_vel *b, const double r[3], const double u[3])
{
    double ru[3], Iru[3];
    vb_cross3(r, u, ru);
    vb_mat3_vec(b->inv_I, ru, Iru);
    return b->inv_m + vb_dot3(ru, Iru);
}

void vb_body_vel_store(vb_contact_body *b, const vb_body_vel *v)
{
    memcpy(b->s.v, v->v, sizeof v->v);
    vb_quat_rotate_inv(b->s.q, v->om, b->s.w);
}

double vb_body_kick_share(const vb_contact_body *b, vb_body_step_fn *method, double h)
{
    vb_contact_body t = *b;
    memset(t.s.v, 0, sizeof t.s.v);
    memset(t.s.w, 0, sizeof t.s.w);
    double g2 = vb_dot3(b->p.gravity, b->p.gravity);
    if (!(g2 > 0.0) || !(h > 0.0))
        return 1.0;
    method(&t.s, &t.p, h);
    double dx[3];
    for (int i = 0; i < 3; i++)
        dx[i] = t.s.x[i] - b->s.x[i];
    double share = vb_dot3(dx, b->p.gravity) / (h * h * g2);
    /* the schemes there are give 0, 1/2 or 1 up to round-off: those
     * exactly, so that an engine's scheme is the engine's bits */
    const double shares[3] = {0.0, 0.5, 1.0};
    for (int i = 0; i < 3; i++)
        if (fabs(share - shares[i]) <= 1e-9)
            return shares[i];
    return isfinite(share) ? share : 1.0;
}

/* add a share of the impulse (dv, dom world) to the state's velocities */
static void add_share(vb_contact_body *b, const double dv[3], const double dom[3], double share)
{
    double d[3], dw[3];
    for (int i = 0; i < 3; i++) {
        b->s.v[i] += share * dv[i];
        d[i] = share * dom[i];
    }
    vb_quat_rotate_inv(b->s.q, d, dw);
    for (int i = 0; i < 3; i++)
        b->s.w[i] += dw[i];
}

int vb_body_commit(vb_contact_body *b, vb_body_step_fn *method, double h, double share,
                   const vb_body_vel *free_vel, const vb_body_vel *solved)
{
    double dv[3], dom[3];
    for (int i = 0; i < 3; i++) {
        dv[i] = solved->v[i] - free_vel->v[i];
        dom[i] = solved->om[i] - free_vel->om[i];
    }
    if (share != 0.0)
        add_share(b, dv, dom, share);
    method(&b->s, &b->p, h);
    if (share != 1.0)
        add_share(b, dv, dom, 1.0 - share);
    return vb_body_finite(b) ? VB_BODY_OK : VB_BODY_DIVERGED;
}

int vb_body_each(vb_contact_world *w, vb_contact_cache *c, const vb_solver_params *p,
                 vb_body_step_fn *method, double h, vb_body_step_one *step_body)
{
    for (size_t i = 0; i < w->n; i++) {
        int rc = step_body(w, &w->body[i], c ? &c->m[i] : NULL, p, method, h);
        if (rc != VB_BODY_OK)
            return rc;
    }
    return VB_BODY_OK;
}

int vb_body_finite(const vb_contact_body *b)
{
    return vb_rigid_finite(&b->s);
}
