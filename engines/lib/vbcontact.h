/* vbcontact.h — the contact poses of issue 44 as a protocol-2 request, for the
 * C and C++ contact adapters (engines/box2d/contact.cpp, engines/chipmunk/contact.c).
 * The same fields and geometry as engines/lib/vbcontact.js, which says them in
 * full: bounce (h0, e, g, r), slide (v0, mu, g, size), tunnel (v, r, w, d, e);
 * one particle in 2-D; rows in the model's coordinates (the ball's lowest
 * point, the block's bottom, the ball's centre). */
#ifndef VBCONTACT_H
#define VBCONTACT_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "vbengine.h"

enum { VB_BOUNCE, VB_SLIDE, VB_TUNNEL };

typedef struct {
    int model;
    double h0, e, g, r, v0, mu, size, v, w, d;
    double gravity;       /* the world's gravity along y: -g, or 0 for the tunnel */
    double lift;          /* row point = centre - (0, lift) */
    double c0[2], u0[2];  /* the moving body's centre and velocity at the start */
    double mass;
    double gcx, gcy, ghx, ghy; /* the static box: centre and half-extents */
} vb_pose;

/* the pose of a request; -1 with err set for a bad one */
static inline int vb_pose_read(const vb_request *req, vb_pose *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    const char *m = req->model;
    static const char *const keys[3][6] = {
        {"h0", "e", "g", "r", NULL}, {"v0", "mu", "g", "size", NULL}, {"v", "r", "w", "d", "e", NULL}};
    if (!strcmp(m, "bounce"))
        p->model = VB_BOUNCE;
    else if (!strcmp(m, "slide"))
        p->model = VB_SLIDE;
    else if (!strcmp(m, "tunnel"))
        p->model = VB_TUNNEL;
    else {
        snprintf(err, errlen, "model '%s' is not a contact pose here (bounce, slide, tunnel)", m);
        return -1;
    }
    if (req->particles != 1 || req->dim != 2) {
        snprintf(err, errlen, "a contact pose is one particle in 2-D");
        return -1;
    }
    for (int i = 0; keys[p->model][i]; i++)
        if (!isfinite(vb_param(req, keys[p->model][i]))) {
            snprintf(err, errlen, "the request's params lack '%s' (a number)", keys[p->model][i]);
            return -1;
        }
#define P(k) (p->k = vb_param(req, #k))
    if (p->model == VB_BOUNCE)
        P(h0), P(e), P(g), P(r);
    else if (p->model == VB_SLIDE)
        P(v0), P(mu), P(g), P(size);
    else
        P(v), P(r), P(w), P(d), P(e);
#undef P
    const char *bad = NULL;
    if (p->model != VB_SLIDE && !(p->r > 0))
        bad = "r";
    else if (p->model == VB_BOUNCE && !(p->h0 > 0 && p->g > 0))
        bad = "h0 or g";
    else if (p->model == VB_SLIDE && !(p->size > 0 && p->g > 0 && p->mu >= 0))
        bad = "size, g or mu";
    else if (p->model == VB_TUNNEL && !(p->w > 0 && p->v > 0 && p->d > p->r))
        bad = "w, v or d (> r)";
    else if (p->model != VB_SLIDE && !(p->e >= 0 && p->e <= 1))
        bad = "e (in [0, 1])";
    if (bad) {
        snprintf(err, errlen, "param %s is out of range", bad);
        return -1;
    }
    p->gravity = p->model == VB_TUNNEL ? 0.0 : -p->g;
    p->lift = p->model == VB_BOUNCE ? p->r : p->model == VB_SLIDE ? p->size / 2 : 0.0;
    p->c0[0] = req->x0[0], p->c0[1] = req->x0[1] + p->lift;
    p->u0[0] = req->v0[0], p->u0[1] = req->v0[1];
    p->mass = req->masses[0];
    if (p->model == VB_TUNNEL)
        p->gcx = -p->w / 2, p->gcy = 0.0, p->ghx = p->w / 2, p->ghy = 10.0;
    else
        p->gcx = 0.0, p->gcy = -0.5, p->ghx = p->model == VB_SLIDE ? 100.0 : 10.0, p->ghy = 0.5;
    return 0;
}

#endif
