/* integrators/rattle.c — RATTLE (H. C. Andersen, 1983): velocity Verlet
 * with the rods' forces solved for in position and in velocity.
 *     v~ = v_n + a_n h/2;  x~ = x_n + v~ h;
 *     each rod corrected along its direction at x_n until its length is
 *     within tol of L, the same correction / h applied to v~ (SHAKE);
 *     a_{n+1} = a(x_{n+1});  v~ += a_{n+1} h/2;
 *     the velocity along every rod removed (RATTLE's second stage).
 * Both stages are solved directly by default: Newton on the rods' banded
 * equations, then the exact projection of the velocity (its banded
 * Cholesky); rattle:solver=sweeps solves them by the classic sweeps, the
 * velocity's until it is within tol of the rods' relative speeds.
 * a is the applied force alone (constrain.h).  The velocity it reports is
 * its own, tangent to the rods.  A stage that does not converge in 100000
 * sweeps makes the run diverged. */
#include "constrain.h"
#include "verletbench.h"

#include <math.h>
#include <string.h>

typedef struct {
    size_t n;
    const vb_constraints *c;
    double tol;
    double solver; /* VB_SOLVER_DIRECT or VB_SOLVER_SWEEPS */
    double data[]; /* x, v, a, the positions before the step: N each */
} rattle_state;

enum { X, V, A, OLD, VECTORS };

static double *vec(rattle_state *s, int k) { return s->data + (size_t)k * s->n; }

static size_t state_size(size_t n) { return sizeof(rattle_state) + VECTORS * n * sizeof(double); }

static void start(void *st, vb_force *f, double t, const double *x, const double *v, double h)
{
    (void)h;
    rattle_state *s = st;
    s->n = f->n;
    s->c = f->constraints;
    memcpy(vec(s, X), x, s->n * sizeof *x);
    memcpy(vec(s, V), v, s->n * sizeof *v);
    vb_force_eval(f, t, vec(s, X), vec(s, V), vec(s, A));
}

static void poison(rattle_state *s)
{
    double *x = vec(s, X), *v = vec(s, V);
    for (size_t i = 0; i < s->n; i++)
        x[i] = v[i] = NAN;
}

static void step(void *st, vb_force *f, double t, double h)
{
    rattle_state *s = st;
    double *x = vec(s, X), *v = vec(s, V), *a = vec(s, A), *old = vec(s, OLD);
    double half = 0.5 * h;
    memcpy(old, x, s->n * sizeof *x);
    for (size_t i = 0; i < s->n; i++) {
        v[i] += a[i] * half;
        x[i] += v[i] * h;
    }
    int sweeps = s->solver == VB_SOLVER_SWEEPS;
    if (s->c && (sweeps ? vb_shake(s->c, x, old, s->tol, VB_CONSTRAIN_MAX_SWEEPS, v, h)
                        : vb_shake_newton(s->c, x, old, s->tol, v, h)) < 0) {
        poison(s);
        f->stopped = VB_SHAKE_FAILED;
        return;
    }
    vb_force_eval(f, t + h, x, v, a);
    for (size_t i = 0; i < s->n; i++)
        v[i] += a[i] * half;
    if (s->c && (sweeps ? vb_rattle_velocity(s->c, x, v, s->tol, 0.0, VB_CONSTRAIN_MAX_SWEEPS)
                        : vb_project_velocity(s->c, s->n / s->c->dim, x, v)) < 0) {
        poison(s);
        f->stopped = VB_RATTLE_VELOCITY_FAILED;
    }
}

static void observe(const void *st, double *x, double *v)
{
    const rattle_state *s = st;
    memcpy(x, s->data, s->n * sizeof *x);
    memcpy(v, s->data + s->n, s->n * sizeof *v);
}

/* v <- -v: the state is where it is and how it moves (the tangent
 * velocity stays tangent) */
static void reverse(void *st)
{
    rattle_state *s = st;
    double *v = vec(s, V);
    for (size_t i = 0; i < s->n; i++)
        v[i] = -v[i];
}

static void set_params(void *st, const double *p)
{
    rattle_state *s = st;
    s->tol = p[0];
    s->solver = p[1];
}

static const vb_param_spec params[] = {
    {"tol", 1e-10, 0.0, 1e-2, 1, 0,
     "relative tolerance of every rod's length and velocity along it, 0 < tol <= "
     "0.01; one finer than round-off stops at that", 0},
    VB_CONSTRAIN_SOLVER_PARAM,
};

const vb_integrator vb_integrator_rattle = {
    .name = "rattle",
    .summary = "RATTLE: velocity Verlet with the rods solved for in position and velocity "
               "to tol (rattle:tol=t, default 1e-10), directly or by sweeps "
               "(rattle:solver=sweeps); constrained",
    .order = 2,
    .flags = VB_SYMPLECTIC | VB_CONSTRAINED,
    .state_size = state_size,
    .start = start,
    .step = step,
    .observe = observe,
    .reverse = reverse,
    .params = params,
    .n_params = 2,
    .set_params = set_params,
};
