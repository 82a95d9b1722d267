/* verletbench.h — the plugin interface of verletbench: integrators and models.
 *
 * This is the one public header: the built-in integrators and models are
 * written against it, and so is a plugin (`--plugin path.so`) that adds
 * integrators or models of its own.  It is installed by `make install`.
 *
 * A system is n particles in d = 1, 2 or 3 dimensions, stored flat: the
 * state is x[N], v[N] with N = n d components, particle i's coordinates at
 * x[i d .. i d + d - 1].  Integrators see only the N components; models
 * know the particles.
 *
 * An integrator advances x'' = a(t, x, v) one step at a time.  Its constant
 * *type* (struct vb_integrator: name, order, flags and functions) is kept
 * apart from its *state* (a block of state_size(N) bytes the harness
 * allocates), so that many independent runs can share one type, as GSL's
 * ode-initval2 steppers do.  The integrator never evaluates the force law
 * itself: it calls vb_force_eval(), which also counts evaluations.
 *
 * A model (struct vb_model_type) is a force law with its parameters, its
 * initial state and, when it has one, its exact solution; without one, the
 * harness integrates a reference solution itself (docs/method.md §3).
 */
#ifndef VERLETBENCH_H
#define VERLETBENCH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever a struct below changes layout or meaning.  Version 2:
 * systems of any size (no VB_MAX_DIM), state_size a function of N, models
 * in plugins.  Version 3: adaptive integrators (set_tolerance, finish at
 * the end of struct vb_integrator).  Version 4: constraints (rods between
 * particles, rods to a pivot: constrained models and integrators, and
 * vb_force.constraints), integrator parameters ("jakobsen:sweeps=10"), and
 * reference solutions in a model's own coordinates (the angles of a
 * linkage); each added at the end of its struct.  A version-2 or -3
 * plugin still loads, its entries read as if what came later were NULL. */
#define VB_ABI_VERSION 4
#define VB_ABI_VERSION_OLDEST 2

/* Acceleration of a model: a = a(t, x, v), each array of N components. */
typedef void vb_accel_fn(const void *model, double t, const double *x, const double *v,
                         double *a);

/* A holonomic distance constraint (ABI 4): a rigid rod of length L between
 * particles i and j, |x_i - x_j| = L, or, with j = VB_PIVOT, from particle
 * i to a fixed point, |x_i - pivot| = L. */
#define VB_PIVOT ((size_t)-1)
typedef struct vb_constraint {
    size_t i, j;
    double length;
    double pivot[3]; /* j = VB_PIVOT: the fixed point (d of its coordinates) */
} vb_constraint;

/* A model's constraints as a constrained integrator sees them: the rods,
 * the dimension d (particle i's coordinates are x[i d .. i d + d - 1]) and
 * each particle's inverse mass, by which a correction is shared out (a
 * heavy bead moves less).  Made by the harness from the model; read-only. */
typedef struct vb_constraints {
    size_t n;                 /* rods */
    const vb_constraint *rod;
    unsigned dim;
    const double *inv_mass;   /* one a particle */
} vb_constraints;

/* The force law one run integrates, and its evaluation counter. */
typedef struct vb_force {
    vb_accel_fn *accel;
    const void *model;
    unsigned long long evals;
    size_t n; /* N: the components of x, v and a (particles times dimension) */
    /* ABI 4.  The model's constraints, or NULL for none.  accel is then
     * the applied force alone (gravity): the rods' forces are what a
     * VB_CONSTRAINED integrator supplies, by projecting onto them. */
    const vb_constraints *constraints;
    /* ABI 4.  A method that cannot go on (its iteration onto the rods did
     * not converge) sets its state to NaN, which ends the run as diverged,
     * and may say why here: a string that lives as long as the program. */
    const char *stopped;
} vb_force;

static inline void vb_force_eval(vb_force *f, double t, const double *x, const double *v,
                                 double *a)
{
    f->evals++;
    f->accel(f->model, t, x, v, a);
}

/* ---- integrators ------------------------------------------------------------ */

/* Flags of an integrator type. */
enum {
    VB_SYMPLECTIC = 1u, /* symplectic for fixed steps on conservative forces */
    VB_HISTORY = 2u,    /* a multistep method: its state holds x_{n-1} (or x_n - x_{n-1}) */
    /* An adaptive method: step(t, h) reaches t + h in as many steps of its
     * own as its error control wants, at the tolerance set_tolerance gave
     * it.  A sweep holds the frames h at the case's dt and sweeps the
     * tolerance instead (docs/method.md §5); `order` is then the expected
     * exponent of the error against the tolerance. */
    VB_ADAPTIVE = 4u,
    /* ABI 4.  Enforces a model's constraints (vb_force.constraints): the
     * only methods that run on a constrained model, where the others would
     * let the bodies fall off their rods.  On a model without constraints
     * it is its unconstrained method. */
    VB_CONSTRAINED = 8u
};

typedef struct vb_integrator {
    const char *name;    /* lower case, as typed on the command line: a-z 0-9 - _ */
    const char *summary; /* one line for `verletbench list` */
    int order;           /* expected global order with fixed steps */
    unsigned flags;

    /* Bytes of state the harness allocates for a run of N components
     * (aligned for doubles, zeroed).  The state must not point into
     * itself: the harness may copy it. */
    size_t (*state_size)(size_t n);

    /* Start at time t from (x, v); h is the first step that will be taken. */
    void (*start)(void *state, vb_force *f, double t, const double *x, const double *v, double h);

    /* Start at time t from exact history: x = x(t), v = v(t) and
     * x_prev = x(t - h_prev).  Only multistep methods (VB_HISTORY) need it;
     * the harness uses it to measure one-step (local) errors.  May be NULL. */
    void (*start_history)(void *state, vb_force *f, double t, const double *x, const double *v,
                          const double *x_prev, double h_prev, double h);

    /* Advance from time t by h > 0. */
    void (*step)(void *state, vb_force *f, double t, double h);

    /* The position and the velocity this method reports at its current time. */
    void (*observe)(const void *state, double *x, double *v);

    /* Reverse the direction of time: afterwards the state reports the same
     * position and the negated velocity, and stepping with the steps of the
     * run in reverse order retraces it (exactly, for a symmetric method). */
    void (*reverse)(void *state);

    /* ABI 3.  VB_ADAPTIVE methods only (NULL otherwise): the tolerance of
     * the error control, set before start. */
    void (*set_tolerance)(void *state, double tol);
    /* Free what start allocated (an adaptive method's GSL objects); called
     * once at the end of every run that started.  May be NULL.  A state
     * that owns memory is never copied by the harness. */
    void (*finish)(void *state);

    /* ABI 4.  Parameters of the method a user sets where it is named,
     * "NAME:KEY=VALUE[:KEY=VALUE]" ("jakobsen:sweeps=10"), as a model's
     * parameters (vb_param_spec, below: defaults, ranges); set_params is
     * given all of them (the defaults where none was set) before every
     * start.  NULL and 0 for a method without any. */
    const struct vb_param_spec *params;
    unsigned n_params;
    void (*set_params)(void *state, const double *p);
} vb_integrator;

/* ---- models ------------------------------------------------------------------- */

/* One parameter: its name, default and allowed range.  A bound is open when
 * the value itself is not allowed (k > 0), closed otherwise; +-INFINITY for
 * none. */
#define VB_MAX_INTEGRATOR_PARAMS 4

typedef struct vb_param_spec {
    const char *name;
    double def;
    double min, max;
    int min_open, max_open;
    const char *help;
    unsigned flags; /* VB_PARAM_INTEGER, VB_PARAM_QUIET_DEFAULT */
} vb_param_spec;

enum {
    VB_PARAM_INTEGER = 1u, /* only whole numbers */
    /* written into a table's provenance, a summary and a trajectory's
     * header only where it is set away from its default: a parameter added
     * to a model after tables were made of it leaves those tables' bytes as
     * they were (roll's height) */
    VB_PARAM_QUIET_DEFAULT = 2u
};

/* Flags of a model type. */
enum {
    VB_VELOCITY_DEPENDENT = 1u, /* the force law reads v */
    /* natural_time is a period: after it the system is back where it
     * started, and a run whose t_end is a whole number of periods reports
     * the return error |x(t_end) - x(0)| (err_return) */
    VB_PERIODIC = 2u,
    /* the total linear momentum sum m v is conserved (forces between the
     * particles only); the harness measures its error */
    VB_CONSERVES_MOMENTUM = 4u,
    /* the total angular momentum about the origin sum m x cross v is
     * conserved (central or pairwise central forces; d = 2 or 3) */
    VB_CONSERVES_ANGMOM = 8u
};

#define VB_MAX_MODEL_PARAMS 16

typedef struct vb_model_type {
    const char *name; /* a-z 0-9 - _, as typed on the command line */
    /* one line for `verletbench list`, at most 200 characters; with an
     * energy, say where its potential is zero (err_energy_max is relative
     * to the energy at the start, so that zero sets its size) */
    const char *summary;
    unsigned dim;        /* d: 1, 2 or 3 */
    const vb_param_spec *params;
    unsigned n_params; /* at most VB_MAX_MODEL_PARAMS */
    unsigned flags;

    /* An instance from parameter values (each already checked against its
     * range): whatever the model derives from them, in memory it owns and
     * destroy frees.  NULL with a message in err for a combination that is
     * not allowed (an over-damped spring, say). */
    void *(*create)(const double *p, char *err, size_t errlen);
    void (*destroy)(void *self);
    /* n: how many particles (may depend on the parameters) */
    size_t (*particles)(const void *self);
    /* the state at t = 0 */
    void (*initial)(const void *self, double *x, double *v);
    vb_accel_fn *accel;

    /* The exact solution at t: 0, or -1 if it could not be computed.  NULL
     * when there is none: the harness then integrates a reference solution
     * (GSL's rk8pd at a tight tolerance) and measures its accuracy.  work is
     * per-run scratch from work_alloc (both NULL when exact needs none); the
     * calls of one run come in increasing t, so it may warm-start. */
    int (*exact)(const void *self, void *work, double t, double *x, double *v);
    void *(*work_alloc)(const void *self);
    void (*work_free)(void *work);

    /* The conserved energy, or NULL when the model dissipates it. */
    double (*energy)(const void *self, const double *x, const double *v);
    /* The mass of each particle (n values), for the momenta; NULL: all 1. */
    void (*masses)(const void *self, double *m);
    /* A natural length of run: a period (VB_PERIODIC), a time of flight, a
     * time scale.  `sim` runs it by default; the one-step test samples it. */
    double (*natural_time)(const void *self);

    /* ABI 4.  Constraints: how many rods, and rod k (vb_constraint).  NULL
     * for none.  accel is then the applied force only; the initial state
     * must satisfy every rod (its length to 1e-12, its velocity along the
     * rod to 1e-12 of the speed), and only VB_CONSTRAINED integrators run. */
    size_t (*n_constraints)(const void *self);
    void (*constraint)(const void *self, size_t k, vb_constraint *c);

    /* ABI 4.  Where there is no exact solution, the harness integrates a
     * reference (docs/method.md §3): by default in the Cartesian x, v of
     * accel, which a constrained model cannot use.  These give it K
     * coordinates of the model's own (a linkage's angles) instead: q'' =
     * ref_accel(t, q, q'), q(0) and q'(0), and the map from (q, q') to
     * (x, v).  All four or none. */
    size_t (*ref_dof)(const void *self);
    void (*ref_initial)(const void *self, double *q, double *qd);
    vb_accel_fn *ref_accel;
    void (*ref_state)(const void *self, const double *q, const double *qd, double *x,
                      double *v);
} vb_model_type;

/* ---- plugins ------------------------------------------------------------------ */

/* What a plugin exports under the symbol name "verletbench_plugin". */
typedef struct vb_plugin {
    unsigned abi_version; /* VB_ABI_VERSION it was built with */
    size_t n_integrators;
    const vb_integrator *const *integrators;
    size_t n_models;
    const vb_model_type *const *models;
} vb_plugin;

#define VB_PLUGIN_SYMBOL "verletbench_plugin"

#ifdef __cplusplus
}
#endif

#endif /* VERLETBENCH_H */
