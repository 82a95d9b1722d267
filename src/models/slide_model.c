/* models/slide_model.c — the slide as a model: a block (a point) on a plane
 * inclined at alpha, in the plane's frame (x down the slope, y along its
 * normal; the plane is y = 0), Coulomb friction mu, gravity g, initial
 * speed v0 along the slope.  The force is gravity alone,
 * (g sin alpha, -g cos alpha); the plane is a contact (walls.h) a handler
 * resolves, with its friction, or an engine (protocol 4: a square block of
 * edge size, its bottom the model's point); the exact solution is
 * contact/slide.h's. */
#include <math.h>

#include "walls.h"

static const vb_param_spec params[] = {
    {"v0", 3.0, -INFINITY, INFINITY, 1, 1, "initial speed along the slope (> 0: down), m/s", 0},
    {"mu", 0.5, 0.0, INFINITY, 0, 0, "Coulomb friction coefficient", 0},
    {"g", 9.81, 0.0, INFINITY, 1, 0, "gravitational acceleration, m/s^2", 0},
    {"alpha", 0.0, 0.0, 90.0, 0, 1, "the plane's inclination, degrees", 0},
    {"size", 0.2, 0.0, INFINITY, 1, 0,
     "the edge of an engine's square block, m; its bottom is the model's point, so the exact "
     "answer does not depend on it",
     0},
};

/* the exact slide first: it is what the model's functions read */
typedef struct {
    vb_slide s;
    double size;
} slide_model;

static void *create(const double *p, char *err, size_t errlen)
{
    slide_model *m = vb_model_self_alloc(sizeof *m, err, errlen);
    if (m && vb_slide_init(&m->s, p[0], p[1], p[2], p[3] * (M_PI / 180.0), err, errlen) != 0) {
        vb_model_self_free(m);
        return NULL;
    }
    if (m)
        m->size = p[4];
    return m;
}

static void initial(const void *self, double *x, double *v)
{
    x[0] = x[1] = 0.0;
    v[0] = ((const vb_slide *)self)->v0;
    v[1] = 0.0;
}

static void accel(const void *self, double t, const double *x, const double *v, double *a)
{
    (void)t, (void)x, (void)v;
    vb_slide_gravity(self, a);
}

static int exact(const void *self, void *work, double t, double *x, double *v)
{
    (void)work;
    vb_slide_state(self, t, &x[0], &v[0]);
    x[1] = v[1] = 0.0;
    return 0;
}

/* half as long again as it slides; 1 s when it never stops */
static double natural_time(const void *self)
{
    const vb_slide *s = self;
    return isfinite(s->t_stop) && s->t_stop > 0.0 ? 1.5 * s->t_stop : 1.0;
}

void vb_slide_model_wall(const void *self, vb_model_wall *w)
{
    const slide_model *m = self;
    const vb_slide *s = &m->s;
    w->kind = VB_WALL_SLIDE;
    w->geom.dim = 2;
    w->geom.normal[0] = 0.0;
    w->geom.normal[1] = 1.0;
    w->geom.restitution = 0.0;
    w->geom.friction = s->mu;
    w->g_normal = s->g * cos(s->alpha);
    vb_slide_gravity(s, w->gravity);
    /* a square block, rotation locked (the model is a point), its bottom
     * the model's point: its centre half an edge above it */
    w->body.kind = VB_ENGINE_BOX;
    w->body.edges[0] = w->body.edges[1] = m->size;
    w->body.centre[1] = 0.5 * m->size;
    w->slide = s;
}

const vb_model_type vb_model_slide = {
    .name = "slide",
    .summary = "2-D block at v0 on a plane at alpha, friction mu: stops at v0^2/(2 mu g) on the "
               "flat; friction dissipates energy: no energy error; run it with [contact], or an "
               "engine's block of edge size",
    .dim = 2,
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
