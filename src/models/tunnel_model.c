/* models/tunnel_model.c — the tunnel as a model: a ball of radius r (its
 * centre, x) at speed v towards a wall of thickness w whose front face is
 * x = 0 (the wall is -w <= x <= 0), started at distance d, restitution e;
 * no force.  The wall is a contact (walls.h) a handler resolves, or an
 * engine (protocol 4: a ball of radius r); the exact solution
 * (contact/tunnel.h) bounces back: a wall is solid. */
#include <math.h>

#include "walls.h"

static const vb_param_spec params[] = {
    {"v", 10.0, 0.0, INFINITY, 1, 0, "speed towards the wall, m/s", 0},
    /* > 0 as the bounce's r: an engine builds a ball of it (vbengine.js
     * refuses a radius of 0), and a case's ball is the same for the
     * handlers and the engines */
    {"r", 0.1, 0.0, INFINITY, 1, 0, "the ball's radius, m", 0},
    {"w", 0.05, 0.0, INFINITY, 1, 0, "the wall's thickness, m", 0},
    {"d", 1.0, 0.0, INFINITY, 1, 0, "the centre's distance to the wall's front face, m (> r)", 0},
    {"e", 1.0, 0.0, 1.0, 0, 0, "restitution", 0},
};

static void *create(const double *p, char *err, size_t errlen)
{
    vb_tunnel *s = vb_model_self_alloc(sizeof *s, err, errlen);
    if (s && vb_tunnel_init(s, p[0], p[1], p[2], p[3], p[4], err, errlen) != 0) {
        vb_model_self_free(s);
        return NULL;
    }
    return s;
}

static void initial(const void *self, double *x, double *v)
{
    const vb_tunnel *s = self;
    x[0] = s->d;
    v[0] = -s->v;
}

static void accel(const void *self, double t, const double *x, const double *v, double *a)
{
    (void)self, (void)t, (void)x, (void)v;
    a[0] = 0.0;
}

static int exact(const void *self, void *work, double t, double *x, double *v)
{
    (void)work;
    vb_tunnel_state(self, t, x, v);
    return 0;
}

/* there and back: twice the time to the wall */
static double natural_time(const void *self) { return 2.0 * ((const vb_tunnel *)self)->t_hit; }

void vb_tunnel_model_wall(const void *self, vb_model_wall *w)
{
    const vb_tunnel *s = self;
    w->kind = VB_WALL_TUNNEL;
    w->geom.dim = 1;
    w->geom.normal[0] = 1.0;
    w->geom.thickness = s->w;
    w->geom.radius = s->r;
    w->geom.restitution = s->e;
    w->g_normal = 0.0;
    w->gravity[0] = 0.0;
    /* the ball itself: the model's point is its centre */
    w->body.kind = VB_ENGINE_BALL;
    w->body.radius = s->r;
    w->tunnel = s;
}

const vb_model_type vb_model_tunnel = {
    .name = "tunnel",
    .summary = "1-D ball of radius r at speed v towards a wall w thick: back at (d - r)/v; its "
               "contact dissipates energy unless e = 1: no energy error; run it with [contact]",
    .dim = 1,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .flags = 0,
    .create = create,
    .destroy = vb_model_self_free,
    .particles = vb_model_one_particle,
    .initial = initial,
    .accel = accel,
    .exact = exact,
    .energy = NULL,
    .natural_time = natural_time,
};
