/* stack.c — model `stack`: boxes standing on each other (stack.h). */
#include "stack.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
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
