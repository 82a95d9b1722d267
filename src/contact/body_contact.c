/* contact/body_contact.c — a rigid body's contact with the ground: checks
 * and the plane's few numbers (body_contact.h). */
#include "body_contact.h"

#include <math.h>
#include <stdio.h>

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static int finite3(const double a[3])
{
    return isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2]);
}

int vb_body_contact_check(const vb_body_contact *c, char *err, size_t errlen)
{
    /* unit to 1e-12: a vector typed with 17 digits is unit to a few ulps
     * (the same rule as geometry.c's normal) */
    if (!finite3(c->plane.normal) || !(fabs(sqrt(dot3(c->plane.normal, c->plane.normal)) - 1.0) <= 1e-12)) {
        snprintf(err, errlen, "normal: not a finite vector of length 1");
        return -1;
    }
    if (!isfinite(c->plane.offset)) {
        snprintf(err, errlen, "offset: %g is not finite", c->plane.offset);
        return -1;
    }
    if (!finite3(c->along) || !(fabs(sqrt(dot3(c->along, c->along)) - 1.0) <= 1e-12) ||
        !(fabs(dot3(c->along, c->plane.normal)) <= 1e-12)) {
        snprintf(err, errlen, "along: not a unit vector in the plane (orthogonal to the normal)");
        return -1;
    }
    if (c->shape.kind == VB_SHAPE_SPHERE) {
        if (!(c->shape.radius > 0.0) || !isfinite(c->shape.radius)) {
            snprintf(err, errlen, "radius: %g is not a finite number > 0", c->shape.radius);
            return -1;
        }
    } else if (c->shape.kind == VB_SHAPE_BOX) {
        for (int i = 0; i < 3; i++)
            if (!(c->shape.half[i] > 0.0) || !isfinite(c->shape.half[i])) {
                snprintf(err, errlen, "half-extent %d: %g is not a finite number > 0", i + 1,
                         c->shape.half[i]);
                return -1;
            }
    } else {
        snprintf(err, errlen, "shape: neither a sphere nor a box");
        return -1;
    }
    if (!(c->mu_s >= 0.0) || !isfinite(c->mu_s)) {
        snprintf(err, errlen, "mu_s: %g is not a finite number >= 0", c->mu_s);
        return -1;
    }
    if (!(c->mu_k >= 0.0) || !(c->mu_k <= c->mu_s)) {
        snprintf(err, errlen, "mu_k: %g is not in [0, mu_s = %g]", c->mu_k, c->mu_s);
        return -1;
    }
    if (!(c->restitution >= 0.0 && c->restitution <= 1.0)) {
        snprintf(err, errlen, "restitution: %g is not in [0, 1]", c->restitution);
        return -1;
    }
    return 0;
}

void vb_body_contact_axis(const vb_body_contact *c, double axis[3])
{
    const double *n = c->plane.normal, *d = c->along;
    axis[0] = n[1] * d[2] - n[2] * d[1];
    axis[1] = n[2] * d[0] - n[0] * d[2];
    axis[2] = n[0] * d[1] - n[1] * d[0];
}

double vb_plane_separation(const vb_plane *pl, const double p[3])
{
    return dot3(pl->normal, p) - pl->offset;
}

int vb_check_at_least(const char *name, double x, double lo, int strict, char *err,
                      size_t errlen)
{
    if (isfinite(x) && (strict ? x > lo : x >= lo))
        return 0;
    snprintf(err, errlen, "%s: %g is not a finite number %s %g", name, x, strict ? ">" : ">=",
             lo);
    return -1;
}

int vb_check_incline(double g, double alpha, char *err, size_t errlen)
{
    if (vb_check_at_least("g", g, 0.0, 1, err, errlen) != 0)
        return -1;
    if (!(alpha >= 0.0 && alpha < 0.5 * M_PI)) {
        snprintf(err, errlen, "alpha: %g is not in [0, pi/2)", alpha);
        return -1;
    }
    return 0;
}
