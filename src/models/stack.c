/* stack.c — model `stack`: boxes standing on each other (stack.h). */
#include "stack.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h" /* vb_param_in_range */

const vb_param_spec vb_stack_params[] = {
    {"n", 5.0, 1.0, VB_STACK_MAX_BOXES, 0, 0, "the number of boxes", VB_PARAM_INTEGER},
    {"size", 0.1, 0.0, INFINITY, 1, 0, "each box's edge, m", 0},
    {"ratio", 1.0, 0.0, INFINITY, 1, 0, "each box's mass over the one's below it", 0},
    {"shift", 0.0, 0.0, 1.0, 0, 1,
     "each box's offset along x from the one below it, in edges (at most 1/(2 c(n-1)): "
     "docs/contact.md, \"Stacks\")",
     0},
    {"mu", 0.5, 0.0, INFINITY, 0, 0, "friction coefficient between any two surfaces", 0},
    {"m", 1.0, 0.0, INFINITY, 1, 0, "the bottom box's mass, kg", 0},
    {"g", 9.81, 0.0, INFINITY, 1, 0, "gravity, m/s^2, along -z", 0},
};
const size_t vb_stack_n_params = sizeof vb_stack_params / sizeof vb_stack_params[0];

void vb_stack_defaults(double *p)
{
    for (size_t i = 0; i < vb_stack_n_params; i++)
        p[i] = vb_stack_params[i].def;
}

double vb_stack_shift_bound(int n, double ratio)
{
    if (n < 2)
        return 1.0;
    /* c(L), L = n - 1: sum i r^(i-1) / sum r^(i-1), each term scaled by
     * the largest weight so that r^99 cannot overflow */
    int L = n - 1;
    double top = ratio >= 1.0 ? pow(ratio, L - 1) : 1.0, num = 0.0, den = 0.0;
    for (int i = 1; i <= L; i++) {
        double wgt = pow(ratio, i - 1) / top;
        num += i * wgt;
        den += wgt;
    }
    return 0.5 * den / num;
}

int vb_stack_init(vb_stack *s, const double *p, char *err, size_t errlen)
{
    for (size_t i = 0; i < vb_stack_n_params; i++)
        if (!vb_param_in_range(&vb_stack_params[i], p[i])) {
            char range[96];
            vb_param_range_text(&vb_stack_params[i], range, sizeof range);
            snprintf(err, errlen, "%s = %g: must be %s", vb_stack_params[i].name, p[i], range);
            return -1;
        }
    *s = (vb_stack){.n = (int)p[0], .size = p[1], .ratio = p[2], .shift = p[3], .mu = p[4],
                    .m = p[5], .g = p[6]};
    double bound = vb_stack_shift_bound(s->n, s->ratio);
    /* the bound as the case may write it (0.2 for five equal boxes) is
     * allowed its round-off */
    if (!(s->shift <= bound * (1.0 + 4.0 * DBL_EPSILON))) {
        snprintf(err, errlen, "shift = %g: %d boxes at ratio %g tip over the edge of the bottom "
                              "box beyond shift = %.6g (the boxes above it have their centre "
                              "of mass past its edge)",
                 s->shift, s->n, s->ratio, bound);
        return -1;
    }
    double top = vb_stack_mass(s, s->n - 1);
    if (!(isfinite(top) && top > 0.0)) {
        snprintf(err, errlen, "ratio = %g: the top box's mass m ratio^%d = %g is no finite "
                              "mass > 0",
                 s->ratio, s->n - 1, top);
        return -1;
    }
    return 0;
}

double vb_stack_mass(const vb_stack *s, int k)
{
    return s->m * pow(s->ratio, k);
}

void vb_stack_props(const vb_stack *s, int k, vb_rigid_props *p)
{
    double m = vb_stack_mass(s, k), I = m * s->size * s->size / 6.0;
    *p = (vb_rigid_props){.inertia = {I, I, I}, .mass = m, .gravity = {0.0, 0.0, -s->g}};
}

void vb_stack_shape(const vb_stack *s, vb_body_shape *shape)
{
    double h = 0.5 * s->size;
    *shape = (vb_body_shape){.kind = VB_SHAPE_BOX, .half = {h, h, h}};
}

void vb_stack_exact(const vb_stack *s, int k, double t, vb_rigid_state *st)
{
    (void)t; /* at rest for ever */
    memset(st, 0, sizeof *st);
    st->x[0] = k * s->shift * s->size;
    st->x[2] = (k + 0.5) * s->size;
    st->q[0] = 1.0;
}

void vb_stack_ground(const vb_stack *s, vb_plane *ground)
{
    (void)s;
    *ground = (vb_plane){.normal = {0.0, 0.0, 1.0}, .offset = 0.0};
}

/* ---- the stack as an entry of the model table ---- */

void vb_stack_face_accel(const void *model, double t, const double *x, const double *v,
                         double *a)
{
    (void)t, (void)x, (void)v;
    const vb_stack *s = model;
    memset(a, 0, 3 * (size_t)s->n * sizeof *a);
}

static void *face_create(const double *p, char *err, size_t errlen)
{
    vb_stack *s = malloc(sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (vb_stack_init(s, p, err, errlen) != 0) {
        free(s);
        return NULL;
    }
    return s;
}

static void face_destroy(void *self)
{
    free(self);
}

static size_t face_particles(const void *self)
{
    return (size_t)((const vb_stack *)self)->n;
}

/* the boxes' centres and their velocities at t (the exact answer: the
 * start, at rest) */
static void face_state(const vb_stack *s, double t, double *x, double *v)
{
    for (int k = 0; k < s->n; k++) {
        vb_rigid_state st;
        vb_stack_exact(s, k, t, &st);
        memcpy(x + 3 * k, st.x, sizeof st.x);
        memcpy(v + 3 * k, st.v, sizeof st.v);
    }
}

static void face_initial(const void *self, double *x, double *v)
{
    face_state(self, 0.0, x, v);
}

static int face_exact(const void *self, void *work, double t, double *x, double *v)
{
    (void)work;
    face_state(self, t, x, v);
    return 0;
}

static void face_masses(const void *self, double *m)
{
    const vb_stack *s = self;
    for (int k = 0; k < s->n; k++)
        m[k] = vb_stack_mass(s, k);
}

/* the time a box falls half its edge from rest, sqrt(size / g): the time
 * scale of a collapse */
static double face_natural_time(const void *self)
{
    const vb_stack *s = self;
    return sqrt(s->size / s->g);
}

static const vb_model_type stack_face = {
    .name = "stack",
    .summary = "n boxes standing on each other on the ground (3n numbers: the boxes' centres), "
               "run inside a contact solver: no box moves; exact (docs/contact.md)",
    .dim = 3,
    .params = vb_stack_params,
    .n_params = sizeof vb_stack_params / sizeof vb_stack_params[0],
    .create = face_create,
    .destroy = face_destroy,
    .particles = face_particles,
    .initial = face_initial,
    .accel = vb_stack_face_accel,
    .exact = face_exact,
    /* a stack's contacts take energy out of any motion: none conserved */
    .energy = NULL,
    .masses = face_masses,
    .natural_time = face_natural_time};

const vb_model_type *vb_stack_face(void)
{
    return &stack_face;
}

const vb_stack *vb_stack_of(const struct vb_model *m)
{
    return m && m->self && m->type == &stack_face ? (const vb_stack *)m->self : NULL;
}
