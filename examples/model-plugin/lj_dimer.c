/* lj_dimer.c — an example verletbench model plugin: your own force law.
 * Two atoms bound by the Lennard-Jones potential, the pair interaction of
 * molecular dynamics,
 *
 *     V(r) = 4 eps ((sigma/r)^12 - (sigma/r)^6),
 *
 * in three dimensions: released stretched (at r0) and spinning (each atom
 * moving sideways at `spin`, in opposite directions), the dimer vibrates
 * along its bond while it turns.  No closed form: verletbench integrates a
 * reference solution and says how accurate it is.  Energy, the total linear
 * momentum (zero) and the angular momentum are conserved; the harness
 * measures the error of each.
 *
 * Build:   make     (in a checkout: its src/verletbench.h; elsewhere the
 *                   installed one, from make install)
 * Use:     verletbench list --plugin ./lj-dimer.so
 *          verletbench sim --plugin ./lj-dimer.so --model lj-dimer --integrator velocity-verlet
 *          verletbench run --plugin ./lj-dimer.so lj-dimer.case --out my-results
 *
 * A model is a vb_model_type (verletbench.h): its parameters with defaults
 * and ranges, create/destroy for what it derives from them, the number of
 * particles, the initial state, the acceleration of every component, and
 * what it can say beyond that (energy, masses, a natural time; an exact
 * solution when there is one).  The state is flat: particle i's coordinate
 * c is x[i * dim + c]. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <verletbench.h>

typedef struct {
    double eps, sigma, m, r0, spin;
} dimer;

static const vb_param_spec params[] = {
    /* name, default, min, max, min open, max open, help, flags */
    {"eps", 1.0, 0.0, INFINITY, 1, 0, "depth of the potential well", 0},
    {"sigma", 1.0, 0.0, INFINITY, 1, 0, "distance at which V = 0 (the atoms' size)", 0},
    {"m", 1.0, 0.0, INFINITY, 1, 0, "mass of each atom", 0},
    {"r0", 1.3, 0.0, INFINITY, 1, 0, "initial separation (the well's bottom is 1.1225 sigma)", 0},
    {"spin", 0.3, -INFINITY, INFINITY, 0, 0, "initial sideways speed of each atom", 0},
};

static double potential(const dimer *s, double r)
{
    double q = s->sigma / r, s6 = q * q * q * q * q * q;
    return 4.0 * s->eps * (s6 * s6 - s6);
}

static void *create(const double *p, char *err, size_t errlen)
{
    dimer *s = malloc(sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    *s = (dimer){.eps = p[0], .sigma = p[1], .m = p[2], .r0 = p[3], .spin = p[4]};
    /* parameters each in range can still make an unbound pair: say so
     * rather than measure two atoms flying apart */
    double energy = potential(s, s->r0) + s->m * s->spin * s->spin;
    if (!(energy < 0.0)) {
        snprintf(err, errlen,
                 "r0 = %g, spin = %g: the dimer is not bound (its energy %g is not below 0); "
                 "start nearer 1.1225 sigma or spin slower",
                 s->r0, s->spin, energy);
        free(s);
        return NULL;
    }
    return s;
}

static void destroy(void *self) { free(self); }

static size_t particles(const void *self)
{
    (void)self;
    return 2;
}

/* on the x axis, centre of mass at rest at the origin, turning about z */
static void initial(const void *self, double *x, double *v)
{
    const dimer *s = self;
    double half = 0.5 * s->r0;
    const double x0[6] = {-half, 0, 0, half, 0, 0}, v0[6] = {0, -s->spin, 0, 0, s->spin, 0};
    for (int i = 0; i < 6; i++) {
        x[i] = x0[i];
        v[i] = v0[i];
    }
}

/* F on atom 1 = -V'(r) (x1 - x2)/r = 24 eps (s6 - 2 s12)/r^2 (x2 - x1);
 * atom 2 feels the opposite, so momentum is conserved to round-off */
static void accel(const void *self, double t, const double *x, const double *v, double *a)
{
    (void)t;
    (void)v;
    const dimer *s = self;
    double d[3], r2 = 0.0;
    for (int c = 0; c < 3; c++) {
        d[c] = x[3 + c] - x[c];
        r2 += d[c] * d[c];
    }
    double q2 = s->sigma * s->sigma / r2, s6 = q2 * q2 * q2;
    double k = 24.0 * s->eps * (s6 - 2.0 * s6 * s6) / r2 / s->m;
    for (int c = 0; c < 3; c++) {
        a[c] = k * d[c];
        a[3 + c] = -k * d[c];
    }
}

static double energy(const void *self, const double *x, const double *v)
{
    const dimer *s = self;
    double kinetic = 0.0, r2 = 0.0;
    for (int i = 0; i < 6; i++)
        kinetic += 0.5 * s->m * v[i] * v[i];
    for (int c = 0; c < 3; c++)
        r2 += (x[3 + c] - x[c]) * (x[3 + c] - x[c]);
    return kinetic + potential(s, sqrt(r2));
}

static void masses(const void *self, double *m)
{
    const dimer *s = self;
    m[0] = m[1] = s->m;
}

/* the period of a small vibration about the well's bottom r_min = 2^(1/6)
 * sigma: V''(r_min) = 72 eps / r_min^2, reduced mass m/2 */
static double natural_time(const void *self)
{
    const dimer *s = self;
    double rmin = pow(2.0, 1.0 / 6.0) * s->sigma;
    const double two_pi = 6.283185307179586; /* strict C11 has no M_PI */
    return two_pi / sqrt(72.0 * s->eps / (rmin * rmin) / (0.5 * s->m));
}

static const vb_model_type lj_dimer = {
    .name = "lj-dimer",
    .summary = "two Lennard-Jones atoms in 3-D, vibrating and turning (plugin example); energy "
               "kinetic + 4 eps ((sigma/r)^12 - (sigma/r)^6), its potential zero at infinite r",
    .dim = 3,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .flags = VB_CONSERVES_MOMENTUM | VB_CONSERVES_ANGMOM,
    .create = create,
    .destroy = destroy,
    .particles = particles,
    .initial = initial,
    .accel = accel,
    .exact = NULL, /* none: the harness integrates a reference */
    .work_alloc = NULL,
    .work_free = NULL,
    .energy = energy,
    .masses = masses,
    .natural_time = natural_time,
};

static const vb_model_type *const models[] = {&lj_dimer};

/* what verletbench looks up */
const vb_plugin verletbench_plugin = {
    .abi_version = VB_ABI_VERSION,
    .n_integrators = 0,
    .integrators = NULL,
    .n_models = sizeof models / sizeof models[0],
    .models = models,
};
