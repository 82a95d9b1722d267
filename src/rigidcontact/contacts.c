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

/* a's corner c against b's face f: added when within margin, not through
 * the face's box beyond its centre, and over the face (its two other axes'
 * half-extents, with tol) */
static int corner_on_face(const vb_contact_world *w, int a, int c, int b, int f, double margin,
                          double tol, vb_contact_point *pt)
{
    const vb_contact_body *B = &w->body[b];
    memset(pt, 0, sizeof *pt);
    pt->a = a;
    pt->b = b;
    pt->face = f;
    corner_body(&w->body[a], c, pt->r_body);
    vb_point_update(w, pt);
    int k = f / 2;
    if (!(pt->separation <= margin) || !(pt->separation > -B->shape.half[k]))
        return 0;
    for (int m = 0; m < 3; m++) {
        if (m == k)
            continue;
        double e[3] = {0.0, 0.0, 0.0}, u[3];
        e[m] = 1.0;
        vb_quat_rotate(B->s.q, e, u);
        if (!(fabs(vb_dot3(u, pt->rb)) <= B->shape.half[m] + tol))
            return 0;
    }
    return 1;
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

/* the points of boxes i < j (contacts.h: i the reference) */
static size_t pair_points(const vb_contact_world *w, size_t i, size_t j, double margin,
                          vb_contact_point *pts)
{
    const vb_contact_body *R = &w->body[i], *I = &w->body[j];
    if (R->shape.kind != VB_SHAPE_BOX || I->shape.kind != VB_SHAPE_BOX)
        return 0;
    double d[3], u[3], md[3];
    for (int k = 0; k < 3; k++)
        d[k] = I->s.x[k] - R->s.x[k], md[k] = -d[k];
    int fr = facing(R, d);
    face_normal(R, fr, u);
    if (vb_dot3(u, d) > R->shape.half[fr / 2] + reach(I, u) + margin)
        return 0; /* apart */
    double size = 0.0;
    for (int k = 0; k < 3; k++)
        size = fmax(size, fmax(R->shape.half[k], I->shape.half[k]));
    double tol = 1e-9 * size;
    size_t slot = pair_slot(w->n, i, j), n = 0;
    for (int c = 0; c < VB_BODY_FEATURES; c++)
        if (corner_on_face(w, (int)j, c, (int)i, fr, margin, tol, &pts[n])) {
            pts[n].slot = slot, pts[n].feature = c;
            n++;
        }
    size_t from_incident = n;
    int fi = facing(I, md);
    for (int c = 0; c < VB_BODY_FEATURES; c++) {
        /* the reference face's corners: bit fr/2 of c is its side */
        if (((c >> (fr / 2)) & 1) != (fr & 1))
            continue;
        if (!corner_on_face(w, (int)i, c, (int)j, fi, margin, tol, &pts[n]))
            continue;
        int dup = 0;
        for (size_t q = 0; q < from_incident && !dup; q++) {
            double t[3];
            for (int k = 0; k < 3; k++)
                t[k] = pts[q].p[k] - pts[n].p[k];
            double tn = vb_dot3(t, u);
            for (int k = 0; k < 3; k++)
                t[k] -= tn * u[k];
            dup = sqrt(vb_dot3(t, t)) <= tol;
        }
        if (dup)
            continue;
        pts[n].slot = slot, pts[n].feature = VB_BODY_FEATURES + c;
        n++;
    }
    return n;
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
