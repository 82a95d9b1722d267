/* contact/tunnel.c — the tunnel, exact: the wall is solid. */
#include "tunnel.h"

#include <math.h>
#include <stdio.h>

int vb_tunnel_init(vb_tunnel *s, double v, double r, double w, double d, double e, char *err,
                   size_t errlen)
{
    if (!(v > 0.0) || !isfinite(v)) {
        snprintf(err, errlen, "v: %g is not a finite number > 0", v);
        return -1;
    }
    if (!(r > 0.0) || !isfinite(r)) {
        snprintf(err, errlen, "r: %g is not a finite number > 0", r);
        return -1;
    }
    if (!(w > 0.0) || !isfinite(w)) {
        snprintf(err, errlen, "w: %g is not a finite number > 0", w);
        return -1;
    }
    if (!(d > r) || !isfinite(d)) {
        snprintf(err, errlen, "d: %g is not a finite number > r = %g (the ball starts clear)", d,
                 r);
        return -1;
    }
    if (!(e >= 0.0 && e <= 1.0)) {
        snprintf(err, errlen, "e: %g is not in [0, 1]", e);
        return -1;
    }
    *s = (vb_tunnel){.v = v, .r = r, .w = w, .d = d, .e = e};
    s->t_hit = (d - r) / v;
    return 0;
}

void vb_tunnel_state(const vb_tunnel *s, double t, double *x, double *vel)
{
    if (t < s->t_hit) {
        *x = s->d - s->v * t;
        *vel = -s->v;
    } else {
        *x = s->r + s->e * s->v * (t - s->t_hit);
        *vel = s->e * s->v;
    }
}
