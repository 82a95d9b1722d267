/* tests/plugins/abi2/verletbench.h — the plugin header of ABI version 2, frozen: a plugin
 * built against it must still load (tests/plugins.sh).  The original first line:
 * verletbench.h — the plugin interface of verletbench: integrators and models.
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
 * in plugins. */
#define VB_ABI_VERSION 2

/* Acceleration of a model: a = a(t, x, v), each array of N components. */
typedef void vb_accel_fn(const void *model, double t, const double *x, const double *v,
                         double *a);

/* The force law one run integrates, and its evaluation counter. */
typedef struct vb_force {
    vb_accel_fn *accel;
    const void *model;
    unsigned long long evals;
    size_t n; /* N: the components of x, v and a (particles times dimension) */
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
    VB_HISTORY = 2u     /* a multistep method: its state holds x_{n-1} (or x_n - x_{n-1}) */
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
} vb_integrator;

/* ---- models ------------------------------------------------------------------- */

/* One parameter: its name, default and allowed range.  A bound is open when
 * the value itself is not allowed (k > 0), closed otherwise; +-INFINITY for
 * none. */
typedef struct vb_param_spec {
    const char *name;
    double def;
    double min, max;
    int min_open, max_open;
    const char *help;
    unsigned flags; /* VB_PARAM_INTEGER: only whole numbers */
} vb_param_spec;

enum { VB_PARAM_INTEGER = 1u };

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
    const char *name;    /* a-z 0-9 - _, as typed on the command line */
    const char *summary; /* one line for `verletbench list` */
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
