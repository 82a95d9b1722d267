/* vbcontact.h — a body at a contact (protocol 4) as an engine's world, for the
 * C and C++ contact adapters (engines/box2d/contact.cpp,
 * engines/chipmunk/contact.c): the same placing as engines/lib/vbcontact.js,
 * which says it in full.  The model's axes are the world's x and y (a model of
 * 1 axis: y when it has gravity, x without); the wall is a box, 1 m thick
 * behind its face for a half-space (w for a slab), 10 m to either side or
 * the first power of ten beyond twice the body's reach; the body's centre
 * starts at x0 + centre; a row is the centre minus centre; the body does
 * not turn (but a ball on a frictionless wall). */
#ifndef VBCONTACT_H
#define VBCONTACT_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "vbengine.h"

/* the wall's lateral half-extent, m: this, or the first power of ten above
 * twice as far as the run could carry the body along it (vbcontact.js) */
#define VB_WALL_REACH 10.0

typedef struct {
    int d;       /* the model's axes */
    int axis[3]; /* the world axis of each */
    double gravity[2];
    double wall_c[2], wall_h[2]; /* the wall as a box: centre, half-extents */
    int ball;                    /* the body: a ball (radius) or a box (half) */
    double radius, half[2];
    double c0[2], u0[2]; /* its centre and velocity at the start */
    double mass, restitution, threshold, friction;
    int lock_rotation;
    double centre[3];
} vb_scene;

/* The scene of a request with has_contact in a 2-D world; -1 with err set for
 * one the helpers cannot build (a wall not along an axis). */
static inline int vb_scene_make(const vb_request *req, vb_scene *s, char *err, size_t errlen)
{
    const vb_contact *c = &req->contact;
    memset(s, 0, sizeof *s);
    int d = s->d = req->dim, k = -1;
    if (d > 2) {
        snprintf(err, errlen, "a model of %d axes in an engine of 2", d);
        return -1;
    }
    s->axis[0] = d == 1 ? (c->gravity[0] != 0.0 ? 1 : 0) : 0;
    s->axis[1] = 1;
    for (int i = 0; i < d; i++)
        if (c->normal[i] != 0.0) {
            if (k >= 0) {
                snprintf(err, errlen, "the request's contact wall 'normal' is not along an axis: "
                                      "the helpers build a wall of the engine's axes (tilt the "
                                      "gravity instead)");
                return -1;
            }
            k = i;
        }
    double half = isfinite(c->thickness) ? c->thickness / 2 : 0.5, T = 0.0;
    for (size_t j = 0; j < req->steps; j++)
        T += req->h[j];
    double need = 0.0, reach = VB_WALL_REACH;
    for (int i = 0; i < d; i++)
        if (i != k)
            need = fmax(need, 2 * (fabs(req->x0[i]) + fabs(req->v0[i]) * T +
                                   fabs(c->gravity[i]) * T * T));
    while (reach < need)
        reach *= 10.0;
    s->wall_h[0] = s->wall_h[1] = reach;
    s->wall_h[s->axis[k]] = half;
    for (int i = 0; i < d; i++) {
        int a = s->axis[i];
        s->gravity[a] = c->gravity[i];
        s->wall_c[a] = c->normal[i] * (c->offset - half);
        s->c0[a] = req->x0[i] + c->centre[i];
        s->u0[a] = req->v0[i];
        s->centre[i] = c->centre[i];
        if (c->box)
            s->half[a] = c->edges[i] / 2;
    }
    if (c->box && d == 1) /* a box of one axis: square in the world */
        s->half[1 - s->axis[0]] = s->half[s->axis[0]];
    s->ball = !c->box;
    s->radius = c->radius;
    s->mass = req->masses[0];
    s->restitution = c->restitution;
    s->threshold = c->threshold;
    s->friction = c->friction;
    s->lock_rotation = c->box || c->friction > 0.0;
    return 0;
}

/* the row of a body whose centre is at cw moving at uw (world) */
static inline void vb_scene_row(const vb_scene *s, const double cw[2], const double uw[2],
                                double *x, double *v)
{
    for (int i = 0; i < s->d; i++) {
        x[i] = cw[s->axis[i]] - s->centre[i];
        v[i] = uw[s->axis[i]];
    }
}

/* an engine that has no restitution threshold: a contact with one it cannot
 * build.  0, or -1 with err */
static inline int vb_scene_no_threshold(const vb_scene *s, const char *engine, char *err,
                                        size_t errlen)
{
    if (!(s->threshold > 0.0))
        return 0;
    char f[32];
    vb_format(s->threshold, f);
    snprintf(err, errlen, "the request's contact 'threshold' is %s m/s: %s has no restitution "
                          "threshold (want 0)",
             f, engine);
    return -1;
}

#endif
