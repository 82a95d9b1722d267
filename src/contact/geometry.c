/* contact/geometry.c — the wall, the ball and their nearest face. */
#include "geometry.h"

#include <math.h>
#include <stdio.h>

void vb_contact_geometry_defaults(vb_contact_geometry *g)
{
    *g = (vb_contact_geometry){.dim = 1,
                               .normal = {1.0, 0.0, 0.0},
                               .offset = 0.0,
                               .thickness = INFINITY,
                               .radius = 0.0,
                               .restitution = 1.0,
                               .threshold = 0.0,
                               .friction = 0.0,
                               .speculative = 0.0};
}

int vb_contact_geometry_check(const vb_contact_geometry *g, char *err, size_t errlen)
{
    if (g->dim < 1 || g->dim > VB_CONTACT_MAX_DIM) {
        snprintf(err, errlen, "dim: %u is not 1, 2 or 3", g->dim);
        return -1;
    }
    double n2 = 0.0;
    for (unsigned i = 0; i < g->dim; i++) {
        if (!isfinite(g->normal[i])) {
            snprintf(err, errlen, "normal: component %u is %g", i, g->normal[i]);
            return -1;
        }
        n2 += g->normal[i] * g->normal[i];
    }
    /* a normal typed with 17 digits is unit to a few ulps; 1e-12 also
     * refuses one typed with 6 digits (cos 30 deg = 0.866025: 1e-7 off) */
    if (!(fabs(sqrt(n2) - 1.0) <= 1e-12)) {
        snprintf(err, errlen, "normal: its length is %.17g, not 1", sqrt(n2));
        return -1;
    }
    if (!isfinite(g->offset)) {
        snprintf(err, errlen, "offset: %g is not finite", g->offset);
        return -1;
    }
    if (!(g->thickness > 0.0)) {
        snprintf(err, errlen, "thickness: %g is not > 0 (INFINITY for a half-space)",
                 g->thickness);
        return -1;
    }
    if (!(g->radius >= 0.0) || !isfinite(g->radius)) {
        snprintf(err, errlen, "radius: %g is not a finite number >= 0", g->radius);
        return -1;
    }
    if (!(g->restitution >= 0.0 && g->restitution <= 1.0)) {
        snprintf(err, errlen, "restitution: %g is not in [0, 1]", g->restitution);
        return -1;
    }
    if (!(g->threshold >= 0.0) || !isfinite(g->threshold)) {
        snprintf(err, errlen, "threshold: %g is not a finite number >= 0", g->threshold);
        return -1;
    }
    if (!(g->friction >= 0.0) || !isfinite(g->friction)) {
        snprintf(err, errlen, "friction: %g is not a finite number >= 0", g->friction);
        return -1;
    }
    if (!(g->speculative >= 0.0) || !isfinite(g->speculative)) {
        snprintf(err, errlen, "speculative: %g is not a finite number >= 0", g->speculative);
        return -1;
    }
    return 0;
}

void vb_contact_nearest_face(const vb_contact_geometry *g, const double *x, vb_contact_face *f)
{
    unsigned d = g->dim;
    double p = vb_contact_dot(d, g->normal, x) - g->offset;
    /* a tie (the centre on the mid-plane) goes to the front */
    if (p >= -0.5 * g->thickness) {
        f->separation = p - g->radius;
        f->plane = g->offset;
        for (unsigned i = 0; i < d; i++)
            f->normal[i] = g->normal[i];
    } else {
        f->separation = -g->thickness - p - g->radius;
        f->plane = -(g->offset - g->thickness);
        for (unsigned i = 0; i < d; i++)
            f->normal[i] = -g->normal[i];
    }
}

double vb_contact_face_separation(const vb_contact_geometry *g, const vb_contact_face *f,
                                  const double *x)
{
    return vb_contact_dot(g->dim, f->normal, x) - f->plane - g->radius;
}
