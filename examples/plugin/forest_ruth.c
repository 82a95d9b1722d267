/* forest_ruth.c — an example verletbench plugin: the Forest–Ruth method,
 * a fourth-order symplectic integrator built from three velocity-Verlet-like
 * stages (Forest & Ruth 1990; position form, as in Omelyan, Mryglod & Folk
 * 2002, eq. 20).  Three force evaluations a step.
 *
 * Build:   make     (in a checkout: its src/verletbench.h; elsewhere the
 *                   installed one, from make install)
 * Use:     verletbench list --plugin ./forest-ruth.so
 *          verletbench sim --plugin ./forest-ruth.so --integrator forest-ruth --model orbit
 *          verletbench run --plugin ./forest-ruth.so cases/spring.case --out my-results
 *
 * A plugin is one file that includes verletbench.h and exports a vb_plugin
 * table named verletbench_plugin.  It never calls the force law directly:
 * vb_force_eval() counts evaluations, so the work-precision chart is fair.
 *
 * The state is one block the harness allocates, state_size(N) bytes for a
 * system of N components (particles times dimension): here N, then x[N],
 * v[N] and a[N].  It holds no pointer into itself. */
#include <math.h>
#include <string.h>

#include <verletbench.h>

typedef struct {
    size_t n;
    double data[]; /* x[n], v[n], a[n] */
} fr_state;

static size_t state_size(size_t n) { return sizeof(fr_state) + 3 * n * sizeof(double); }

static double *xs(fr_state *s) { return s->data; }
static double *vs(fr_state *s) { return s->data + s->n; }
static double *as(fr_state *s) { return s->data + 2 * s->n; }

static void start(void *st, vb_force *f, double t, const double *x, const double *v, double h)
{
    fr_state *s = st;
    (void)t;
    (void)h;
    s->n = f->n;
    memcpy(xs(s), x, f->n * sizeof *x);
    memcpy(vs(s), v, f->n * sizeof *v);
}

static void drift(fr_state *s, double h)
{
    double *x = xs(s), *v = vs(s);
    for (size_t i = 0; i < s->n; i++)
        x[i] += v[i] * h;
}

static void kick(fr_state *s, vb_force *f, double t, double h)
{
    double *v = vs(s), *a = as(s);
    vb_force_eval(f, t, xs(s), v, a);
    for (size_t i = 0; i < s->n; i++)
        v[i] += a[i] * h;
}

static void step(void *st, vb_force *f, double t, double h)
{
    /* theta = 1 / (2 - 2^(1/3)): the stage weights theta, 1 - 2 theta, theta
     * sum to one and cancel the third-order error of the symmetric product */
    const double theta = 1.0 / (2.0 - cbrt(2.0));
    fr_state *s = st;
    drift(s, 0.5 * theta * h);
    kick(s, f, t + 0.5 * theta * h, theta * h);
    drift(s, 0.5 * (1.0 - theta) * h);
    kick(s, f, t + 0.5 * h, (1.0 - 2.0 * theta) * h);
    drift(s, 0.5 * (1.0 - theta) * h);
    kick(s, f, t + (1.0 - 0.5 * theta) * h, theta * h);
    drift(s, 0.5 * theta * h);
}

static void observe(const void *st, double *x, double *v)
{
    const fr_state *s = st;
    memcpy(x, s->data, s->n * sizeof *x);
    memcpy(v, s->data + s->n, s->n * sizeof *v);
}

/* symmetric in time: negating v and stepping back retraces the run */
static void reverse(void *st)
{
    fr_state *s = st;
    double *v = vs(s);
    for (size_t i = 0; i < s->n; i++)
        v[i] = -v[i];
}

static const vb_integrator forest_ruth = {
    .name = "forest-ruth",
    .summary = "Forest-Ruth: 4th-order symplectic, three drift-kick stages (plugin example)",
    .order = 4,
    .flags = VB_SYMPLECTIC,
    .state_size = state_size,
    .start = start,
    .start_history = NULL,
    .step = step,
    .observe = observe,
    .reverse = reverse,
};

static const vb_integrator *const integrators[] = {&forest_ruth};

/* what verletbench looks up */
const vb_plugin verletbench_plugin = {
    .abi_version = VB_ABI_VERSION,
    .n_integrators = sizeof integrators / sizeof integrators[0],
    .integrators = integrators,
    .n_models = 0,
    .models = NULL,
};
