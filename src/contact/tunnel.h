/* contact/tunnel.h — the tunnel's exact solution: a ball of radius r at
 * speed v towards a wall of thickness w, no gravity.
 *
 * One coordinate, along the wall's normal: x is the ball centre's distance
 * in front of the wall's front face (the wall is -w <= x <= 0); d = x(0),
 * the distance from the centre to the front face, d > r (it starts clear).
 * The ball moves at -v until its surface touches the face, at
 *     t_hit = (d - r) / v,
 * and leaves at +e v, e the wall's restitution (1: elastic, the default):
 *     x = d - v t            t < t_hit
 *     x = r + e v (t - t_hit)  t >= t_hit.
 * Whatever w and v, it never passes: a wall is solid.  A handler without
 * continuous collision detection lets it pass once v dt is large enough
 * (docs/contact.md): w only matters to it. */
#ifndef VB_CONTACT_TUNNEL_H
#define VB_CONTACT_TUNNEL_H

#include <stddef.h>

typedef struct vb_tunnel {
    double v, r, w, d, e;
    double t_hit;
} vb_tunnel;

/* 0, or -1 with a message naming the parameter: v > 0, r > 0, w > 0,
 * d > r, e in [0, 1], all finite. */
int vb_tunnel_init(vb_tunnel *s, double v, double r, double w, double d, double e, char *err,
                   size_t errlen);

void vb_tunnel_state(const vb_tunnel *s, double t, double *x, double *vel);

#endif
