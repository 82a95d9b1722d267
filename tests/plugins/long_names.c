/* long_names.c — an integrator plugin whose names are as long as the
 * plugin ABI allows: a name of 40 characters and four parameters of 30,
 * so that a method with its parameters set is named in about 180
 * characters and its frame loops' rows in over 200.  What it tests: names
 * are whole, never cut (issue 38, items 10 and 11): two values of the last
 * parameter are two methods, and three draws of one accumulator three rows.
 *
 * The method is velocity Verlet (exact for a constant force) whose
 * reported position is moved by `offset_added_to_the_position_x` along
 * the first coordinate: on the projectile its position error is that
 * offset, to round-off, whatever the steps.  The other three parameters
 * do nothing; they make the name long. */
#include <string.h>

#include <verletbench.h>

typedef struct {
    size_t n;
    double offset;
    double data[]; /* x[n], v[n], a[n] */
} vv_state;

static size_t state_size(size_t n) { return sizeof(vv_state) + 3 * n * sizeof(double); }

static double *xs(vv_state *s) { return s->data; }
static double *vs(vv_state *s) { return s->data + s->n; }
static double *as(vv_state *s) { return s->data + 2 * s->n; }

static void set_params(void *st, const double *p)
{
    ((vv_state *)st)->offset = p[3];
}

static void start(void *st, vb_force *f, double t, const double *x, const double *v, double h)
{
    vv_state *s = st;
    (void)h;
    s->n = f->n;
    memcpy(xs(s), x, f->n * sizeof *x);
    memcpy(vs(s), v, f->n * sizeof *v);
    vb_force_eval(f, t, xs(s), vs(s), as(s));
}

static void step(void *st, vb_force *f, double t, double h)
{
    vv_state *s = st;
    double *x = xs(s), *v = vs(s), *a = as(s);
    for (size_t i = 0; i < s->n; i++) {
        v[i] += 0.5 * h * a[i];
        x[i] += h * v[i];
    }
    vb_force_eval(f, t + h, x, v, a);
    for (size_t i = 0; i < s->n; i++)
        v[i] += 0.5 * h * a[i];
}

static void observe(const void *st, double *x, double *v)
{
    const vv_state *s = st;
    memcpy(x, s->data, s->n * sizeof *x);
    memcpy(v, s->data + s->n, s->n * sizeof *v);
    x[0] += s->offset;
}

static void reverse(void *st)
{
    vv_state *s = st;
    for (size_t i = 0; i < s->n; i++)
        vs(s)[i] = -vs(s)[i];
}

static const vb_param_spec params[] = {
    {"first_parameter_that_does_none", 0.0, 0.0, 10.0, 0, 0, "does nothing: a long name", 0},
    {"second_parameter_that_does_non", 0.0, 0.0, 10.0, 0, 0, "does nothing: a long name", 0},
    {"third_parameter_that_does_none", 0.0, 0.0, 10.0, 0, 0, "does nothing: a long name", 0},
    {"offset_added_to_the_position_x", 0.0, -100.0, 100.0, 0, 0,
     "added to the reported first coordinate", 0},
};

static const vb_integrator method = {
    .name = "velocity-verlet-shifted-by-a-long-offset",
    .summary = "velocity Verlet, its reported x moved by an offset (names as long as allowed)",
    .order = 2,
    .flags = VB_SYMPLECTIC,
    .state_size = state_size,
    .start = start,
    .step = step,
    .observe = observe,
    .reverse = reverse,
    .params = params,
    .n_params = 4,
    .set_params = set_params,
};
static const vb_integrator *const integrators[] = {&method};

const vb_plugin verletbench_plugin = {VB_ABI_VERSION, 1, integrators, 0, NULL};
