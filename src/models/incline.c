/* models/incline.c — the incline's frame and a rigid state read in it
 * (incline.h). */
#include "incline.h"

#include <math.h>

#include "quaternion.h"

void vb_incline_frame(double alpha, double n[3], double d[3], double axis[3])
{
    double s = sin(alpha), c = cos(alpha);
    n[0] = s, n[1] = 0.0, n[2] = c;
    d[0] = c, d[1] = 0.0, d[2] = -s;
    axis[0] = 0.0, axis[1] = 1.0, axis[2] = 0.0;
}

void vb_incline_tilt(double alpha, double q[4])
{
    q[0] = cos(0.5 * alpha);
    q[1] = 0.0;
    q[2] = sin(0.5 * alpha);
    q[3] = 0.0;
}

void vb_incline_contact(double alpha, double depth, const vb_body_shape *shape, double mu_s,
                        double mu_k, double e, vb_body_contact *c)
{
    double axis[3];
    vb_incline_frame(alpha, c->plane.normal, c->along, axis);
    c->plane.offset = -depth;
    c->shape = *shape;
    c->mu_s = mu_s;
    c->mu_k = mu_k;
    c->restitution = e;
}

void vb_incline_props(double I, double m, double g, vb_rigid_props *p)
{
    for (int i = 0; i < 3; i++) {
        p->inertia[i] = I;
        p->gravity[i] = 0.0;
    }
    p->mass = m;
    p->gravity[2] = -g;
}

double vb_body_separation(const vb_body_contact *c, const vb_rigid_state *s)
{
    const double *n = c->plane.normal;
    double centre = vb_plane_separation(&c->plane, s->x);
    if (c->shape.kind == VB_SHAPE_SPHERE)
        return centre - c->shape.radius;
    /* a box's support along -n: the sum of |n_body_i| h_i */
    double nb[3];
    vb_quat_rotate_inv(s->q, n, nb);
    double reach = 0.0;
    for (int i = 0; i < 3; i++)
        reach += fabs(nb[i]) * c->shape.half[i];
    return centre - reach;
}

void vb_incline_read(const vb_body_contact *c, const vb_rigid_state *s, vb_incline_reading *r)
{
    double axis[3], ww[3];
    vb_body_contact_axis(c, axis);
    vb_quat_rotate(s->q, s->w, ww);
    r->along = vb_vec3_dot(c->along, s->x);
    r->separation = vb_body_separation(c, s);
    r->v_along = vb_vec3_dot(c->along, s->v);
    r->v_normal = vb_vec3_dot(c->plane.normal, s->v);
    r->spin = vb_vec3_dot(ww, axis);
    /* the depth of the lowest point below the centre along n */
    double depth = vb_plane_separation(&c->plane, s->x) - r->separation;
    r->slip = r->v_along - depth * r->spin;
}
