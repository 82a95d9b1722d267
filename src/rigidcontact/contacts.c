/* rigidcontact/contacts.c — a world's contact points, body-ground and
 * body-body, and the rows on them (contacts.h). */
#include "contacts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "quaternion.h"

size_t vb_world_points_cap(size_t n)
{
    /* a body's corners on the ground; a pair's two faces' corners */
    return VB_BODY_FEATURES * n + 2 * VB_BODY_FEATURES * (n * (n - (n > 0)) / 2) + 1;
}

/* the cache slot of pair i < j among n bodies: after the n ground slots */
static size_t pair_slot(size_t n, size_t i, size_t j)
{
    return n + i * n - i * (i + 1) / 2 + (j - i - 1);
}

/* body b's face f (2 k + 1: +axis k; 2 k: -axis k): its outward normal */
static void face_normal(const vb_contact_body *b, int f, double n[3])
{
    double e[3] = {0.0, 0.0, 0.0};
    e[f / 2] = (f & 1) ? 1.0 : -1.0;
    vb_quat_rotate(b->s.q, e, n);
}

static void corner_body(const vb_contact_body *b, int c, double rb[3])
{
    for (int i = 0; i < 3; i++)
        rb[i] = (c >> i & 1) ? b->shape.half[i] : -b->shape.half[i];
}

void vb_point_update(const vb_contact_world *w, vb_contact_point *pt)
{
    const vb_contact_body *A = &w->body[pt->a];
    vb_quat_rotate(A->s.q, pt->r_body, pt->ra);
    for (int i = 0; i < 3; i++)
        pt->p[i] = A->s.x[i] + pt->ra[i];
    if (pt->b < 0) {
        memcpy(pt->n, w->ground.normal, sizeof pt->n);
        memset(pt->rb, 0, sizeof pt->rb);
        /* as vb_body_points: the centre's height plus the point's offset */
        pt->separation = vb_plane_separation(&w->ground, A->s.x) + vb_dot3(pt->n, pt->ra);
        return;
    }
    const vb_contact_body *B = &w->body[pt->b];
    face_normal(B, pt->face, pt->n);
    for (int i = 0; i < 3; i++)
        pt->rb[i] = pt->p[i] - B->s.x[i];
    pt->separation = vb_dot3(pt->n, pt->rb) - B->shape.half[pt->face / 2];
}

/* the face of b whose outward normal points most nearly along d */
static int facing(const vb_contact_body *b, const double d[3])
{
    int best = 0;
    double top = -INFINITY;
    for (int f = 0; f < 6; f++) {
        double n[3];
        face_normal(b, f, n);
        double s = vb_dot3(n, d);
        if (s > top)
            top = s, best = f;
    }
    return best;
}

static double reach(const vb_contact_body *b, const double u[3])
{
    double r = 0.0;
    for (int m = 0; m < 3; m++) {
        double e[3] = {0.0, 0.0, 0.0}, v[3];
        e[m] = 1.0;
        vb_quat_rotate(b->s.q, e, v);
        r += fabs(vb_dot3(u, v)) * b->shape.half[m];
    }
    return r;
}

/* body b's axis m, world */
static void axis(const vb_contact_body *b, int m, double u[3])
{
    double e[3] = {0.0, 0.0, 0.0};
    e[m] = 1.0;
    vb_quat_rotate(b->s.q, e, u);
}

/* The reference face of a pair: its centre, normal, in-plane axes and
 * half-extents; a world point's coordinates in its plane. */
typedef struct ref_face {
    double c[3], u[3], e[2][3], half[2];
} ref_face;

static void in_plane(const ref_face *f, const double x[3], double out[2])
{
    double d[3];
    for (int i = 0; i < 3; i++)
        d[i] = x[i] - f->c[i];
    out[0] = vb_dot3(d, f->e[0]);
    out[1] = vb_dot3(d, f->e[1]);
}

/* the candidate point at world x on the incident box j, against the
 * reference box i's face fr; added unless it coincides (in the face's
 * plane, to tol) with one already there */
static void candidate(const vb_contact_world *w, size_t i, size_t j, int fr, const ref_face *f,
                      const double x[3], const double *r_body, double tol, vb_contact_point *cand,
                      double (*xy)[2], size_t *n)
{
    double here[2];
    in_plane(f, x, here);
    for (size_t q = 0; q < *n; q++)
        if (hypot(here[0] - xy[q][0], here[1] - xy[q][1]) <= tol)
            return;
    vb_contact_point *pt = &cand[*n];
    memset(pt, 0, sizeof *pt);
    pt->a = (int)j, pt->b = (int)i, pt->face = fr;
    if (r_body)
        memcpy(pt->r_body, r_body, sizeof pt->r_body);
    else {
        const vb_contact_body *I = &w->body[j];
        double d[3];
        for (int k = 0; k < 3; k++)
            d[k] = x[k] - I->s.x[k];
        vb_quat_rotate_inv(I->s.q, d, pt->r_body);
    }
    vb_point_update(w, pt);
    xy[*n][0] = here[0], xy[*n][1] = here[1];
    (*n)++;
}

/* 2-D: (b - a) x (p - a) */
static double turn(const double a[2], const double b[2], const double p[2])
{
    return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
}

/* The overlap of the incident face (corners P, in order round it, and
 * their plane coordinates q) with the reference face, as points of the
 * incident box: its corners over the reference face, the points of it
 * over the reference face's corners, and where its edges cross the
 * reference face's edges (contacts.h). */
static size_t overlap(const vb_contact_world *w, size_t i, size_t j, int fr, const ref_face *f,
                      const double P[4][3], const int corner[4], double tol,
                      vb_contact_point *cand, double (*xy)[2])
{
    const vb_contact_body *I = &w->body[j];
    double q[4][2];
    size_t n = 0;
    for (int k = 0; k < 4; k++) {
        in_plane(f, P[k], q[k]);
        if (fabs(q[k][0]) <= f->half[0] + tol && fabs(q[k][1]) <= f->half[1] + tol) {
            double r[3];
            corner_body(I, corner[k], r);
            candidate(w, i, j, fr, f, P[k], r, tol, cand, xy, &n);
        }
    }
    /* the incident face's plane: the reference corner lifted along u */
    double ni[3], ci[3];
    for (int k = 0; k < 3; k++)
        ci[k] = (P[0][k] + P[2][k]) / 2.0, ni[k] = 0.0;
    double s1[3], s2[3];
    for (int k = 0; k < 3; k++)
        s1[k] = P[1][k] - P[0][k], s2[k] = P[3][k] - P[0][k];
    vb_cross3(s1, s2, ni);
    double area = turn(q[0], q[1], q[2]) + turn(q[0], q[2], q[3]);
    for (int c = 0; c < 4 && fabs(vb_dot3(ni, f->u)) > 0.0; c++) {
        double r[2] = {(c & 1) ? f->half[0] : -f->half[0], (c & 2) ? f->half[1] : -f->half[1]};
        int inside = 1;
        for (int k = 0; k < 4 && inside; k++) {
            double len = hypot(q[(k + 1) % 4][0] - q[k][0], q[(k + 1) % 4][1] - q[k][1]);
            inside = turn(q[k], q[(k + 1) % 4], r) * (area > 0.0 ? 1.0 : -1.0) >= -tol * len;
        }
        if (!inside)
            continue;
        double x[3], d[3];
        for (int k = 0; k < 3; k++)
            x[k] = f->c[k] + r[0] * f->e[0][k] + r[1] * f->e[1][k];
        for (int k = 0; k < 3; k++)
            d[k] = ci[k] - x[k];
        double t = vb_dot3(ni, d) / vb_dot3(ni, f->u);
        for (int k = 0; k < 3; k++)
            x[k] += t * f->u[k];
        candidate(w, i, j, fr, f, x, NULL, tol, cand, xy, &n);
    }
    for (int k = 0; k < 4; k++) {
        const double *a = q[k], *b = q[(k + 1) % 4];
        for (int m = 0; m < 2; m++)
            for (int side = -1; side <= 1; side += 2) {
                double edge = side * f->half[m], da = a[m] - edge, db = b[m] - edge;
                if (!((da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0)))
                    continue;
                double t = da / (da - db), other = a[1 - m] + t * (b[1 - m] - a[1 - m]);
                if (!(fabs(other) <= f->half[1 - m] + tol))
                    continue;
                double x[3];
                for (int e = 0; e < 3; e++)
                    x[e] = P[k][e] + t * (P[(k + 1) % 4][e] - P[k][e]);
                candidate(w, i, j, fr, f, x, NULL, tol, cand, xy, &n);
            }
    }
    return n;
}

/* Jolt's PruneContactPoints (ManifoldBetweenTwoFaces.cpp, jrouwe/JoltPhysics
 * 5f032e2): of n > 4 points, the one farthest from the incident box's
 * centre (weighted by the squared depth, both clamped to 1 mm^2), the one
 * farthest from it (as weighted), and the farthest on either side of the
 * line through the two; kept in that order round the polygon.  Returns
 * how many (<= 4), their indices in keep. */
static int prune(const vb_contact_point *cand, size_t n, const double u[3], int keep[4])
{
    const double min2 = 1e-6;
    double proj[24][3], depth2[24];
    for (size_t k = 0; k < n; k++) {
        double rn = vb_dot3(cand[k].ra, u);
        for (int e = 0; e < 3; e++)
            proj[k][e] = cand[k].ra[e] - rn * u[e];
        depth2[k] = fmax(min2, cand[k].separation * cand[k].separation);
    }
    size_t p1 = 0, p2 = 0;
    double best = -INFINITY;
    for (size_t k = 0; k < n; k++) {
        double v = fmax(min2, vb_dot3(proj[k], proj[k])) * depth2[k];
        if (v > best)
            best = v, p1 = k;
    }
    best = -INFINITY;
    for (size_t k = 0; k < n; k++) {
        double d[3];
        for (int e = 0; e < 3; e++)
            d[e] = proj[k][e] - proj[p1][e];
        double v = fmax(min2, vb_dot3(d, d)) * depth2[k];
        if (k != p1 && v > best)
            best = v, p2 = k;
    }
    double line[3], perp[3];
    for (int e = 0; e < 3; e++)
        line[e] = proj[p2][e] - proj[p1][e];
    vb_cross3(line, u, perp);
    int p3 = -1, p4 = -1;
    double lo = 0.0, hi = 0.0;
    for (size_t k = 0; k < n; k++) {
        if (k == p1 || k == p2)
            continue;
        double d[3];
        for (int e = 0; e < 3; e++)
            d[e] = proj[k][e] - proj[p1][e];
        double v = vb_dot3(perp, d);
        if (v < lo)
            lo = v, p3 = (int)k;
        else if (v > hi)
            hi = v, p4 = (int)k;
    }
    int m = 0;
    keep[m++] = (int)p1;
    if (p3 >= 0)
        keep[m++] = p3;
    keep[m++] = (int)p2;
    if (p4 >= 0)
        keep[m++] = p4;
    return m;
}

/* the points of boxes i < j (contacts.h: i the reference) */
static size_t pair_points(const vb_contact_world *w, size_t i, size_t j, double margin,
                          vb_contact_point *pts)
{
    const vb_contact_body *R = &w->body[i], *I = &w->body[j];
    if (R->shape.kind != VB_SHAPE_BOX || I->shape.kind != VB_SHAPE_BOX)
        return 0;
    double d[3], mu[3];
    for (int k = 0; k < 3; k++)
        d[k] = I->s.x[k] - R->s.x[k];
    int fr = facing(R, d), kr = fr / 2;
    ref_face f;
    face_normal(R, fr, f.u);
    if (vb_dot3(f.u, d) > R->shape.half[kr] + reach(I, f.u) + margin)
        return 0; /* apart */
    for (int k = 0, m = 0; k < 3; k++) {
        f.c[k] = R->s.x[k] + R->shape.half[kr] * f.u[k];
        mu[k] = -f.u[k];
        if (k == kr)
            continue;
        axis(R, k, f.e[m]);
        f.half[m++] = R->shape.half[k];
    }
    double size = 0.0;
    for (int k = 0; k < 3; k++)
        size = fmax(size, fmax(R->shape.half[k], I->shape.half[k]));
    double tol = 1e-9 * size;
    /* the incident face: the one of j turned most against u, its corners
     * in order round it */
    int fi = facing(I, mu), ki = fi / 2, m1 = (ki + 1) % 3, m2 = (ki + 2) % 3;
    const int round[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    int corner[4];
    double P[4][3];
    for (int k = 0; k < 4; k++) {
        corner[k] = (fi & 1) << ki | round[k][0] << m1 | round[k][1] << m2;
        double r[3];
        corner_body(I, corner[k], r);
        vb_quat_rotate(I->s.q, r, P[k]);
        for (int e = 0; e < 3; e++)
            P[k][e] += I->s.x[e];
    }
    vb_contact_point cand[24];
    double xy[24][2];
    size_t nc = overlap(w, i, j, fr, &f, P, corner, tol, cand, xy), n = 0;
    for (size_t k = 0; k < nc; k++) /* near, and not through the reference box */
        if (cand[k].separation <= margin && cand[k].separation > -R->shape.half[kr])
            cand[n++] = cand[k];
    int keep[4] = {0, 1, 2, 3}, m = n > 4 ? prune(cand, n, f.u, keep) : (int)n;
    size_t slot = pair_slot(w->n, i, j);
    for (int k = 0; k < m; k++) {
        pts[k] = cand[keep[k]];
        pts[k].slot = slot, pts[k].feature = k;
    }
    return (size_t)m;
}

size_t vb_world_points(const vb_contact_world *w, double margin, vb_contact_point *pts)
{
    size_t n = 0;
    for (size_t i = 0; i < w->n; i++) {
        vb_body_point bp[VB_BODY_FEATURES];
        int k = vb_body_points(&w->body[i], &w->ground, margin, bp);
        for (int q = 0; q < k; q++) {
            vb_contact_point *pt = &pts[n++];
            memset(pt, 0, sizeof *pt);
            pt->a = (int)i;
            pt->b = -1;
            pt->face = -1;
            pt->slot = i;
            pt->feature = bp[q].feature;
            memcpy(pt->r_body, bp[q].r_body, sizeof pt->r_body);
            memcpy(pt->n, w->ground.normal, sizeof pt->n);
            memcpy(pt->p, bp[q].p, sizeof pt->p);
            memcpy(pt->ra, bp[q].r, sizeof pt->ra);
            pt->separation = bp[q].separation;
        }
    }
    for (size_t i = 0; i < w->n; i++)
        for (size_t j = i + 1; j < w->n; j++)
            n += pair_points(w, i, j, margin, &pts[n]);
    return n;
}

void vb_point_vel(const vb_body_vel *vel, const vb_contact_point *pt, double out[3])
{
    vb_vel_at(&vel[pt->a], pt->ra, out);
    if (pt->b < 0)
        return;
    double vb[3];
    vb_vel_at(&vel[pt->b], pt->rb, vb);
    for (int i = 0; i < 3; i++)
        out[i] -= vb[i];
}

void vb_point_apply(vb_body_vel *vel, const vb_contact_point *pt, const double u[3],
                    double lambda)
{
    vb_vel_apply_along(&vel[pt->a], pt->ra, u, lambda);
    if (pt->b >= 0)
        vb_vel_apply_along(&vel[pt->b], pt->rb, u, -lambda);
}

double vb_point_inv_mass(const vb_body_vel *vel, const vb_contact_point *pt, const double u[3])
{
    double k = vb_vel_inv_mass(&vel[pt->a], pt->ra, u);
    if (pt->b >= 0)
        k += vb_vel_inv_mass(&vel[pt->b], pt->rb, u);
    return k;
}

vb_manifold_memory *vb_point_memory(vb_contact_cache *c, const vb_contact_point *pt)
{
    return c && pt->slot < c->n ? &c->m[pt->slot] : NULL;
}

void vb_points_recall(vb_contact_cache *c, const vb_contact_point *pts, size_t n, double reach,
                      vb_point_impulse *out)
{
    unsigned taken = 0; /* of the current pair's memory */
    for (size_t k = 0; k < n; k++) {
        const vb_contact_point *pt = &pts[k];
        const vb_manifold_memory *mem = vb_point_memory(c, pt);
        vb_point_impulse *o = &out[k];
        *o = (vb_point_impulse){0.0, {0.0, 0.0}};
        if (!mem)
            continue;
        int f = pt->feature;
        if (pt->b >= 0) { /* nearest of last step's, each once */
            if (k == 0 || pts[k - 1].slot != pt->slot)
                taken = 0;
            double best = reach * reach;
            f = -1;
            for (int q = 0; q < mem->kept; q++) {
                double d[3];
                for (int e = 0; e < 3; e++)
                    d[e] = mem->anchor[q][e] - pt->r_body[e];
                double d2 = vb_dot3(d, d);
                if (!(taken >> q & 1u) && d2 < best)
                    best = d2, f = q;
            }
            if (f < 0)
                continue;
            taken |= 1u << f;
        }
        o->n = mem->normal[f];
        o->t[0] = mem->tangent[f][0];
        o->t[1] = mem->tangent[f][1];
    }
}

void vb_points_remember(vb_contact_cache *c, const vb_contact_point *pts, size_t n,
                        const vb_point_impulse *imp)
{
    if (!c)
        return;
    memset(c->m, 0, c->n * sizeof *c->m);
    for (size_t k = 0; k < n; k++) {
        vb_manifold_memory *mem = vb_point_memory(c, &pts[k]);
        int f = pts[k].feature;
        if (!mem)
            continue;
        mem->normal[f] = imp[k].n;
        mem->tangent[f][0] = imp[k].t[0];
        mem->tangent[f][1] = imp[k].t[1];
        if (pts[k].b >= 0) {
            memcpy(mem->anchor[f], pts[k].r_body, sizeof mem->anchor[f]);
            if (f >= mem->kept)
                mem->kept = f + 1;
        }
    }
}

int vb_points_between_bodies(const vb_contact_point *pts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (pts[i].b >= 0)
            return 1;
    return 0;
}

double vb_world_depth(const vb_contact_world *w)
{
    vb_contact_point *pts = malloc(vb_world_points_cap(w->n) * sizeof *pts);
    if (!pts)
        return (double)NAN;
    size_t n = vb_world_points(w, 0.0, pts);
    double depth = 0.0;
    for (size_t k = 0; k < n; k++) /* a NaN separation kept */
        if (!(-pts[k].separation <= depth))
            depth = -pts[k].separation;
    free(pts);
    return depth;
}
