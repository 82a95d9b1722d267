/* verletbench.h — the integrator interface of verletbench.
 *
 * This is the one public header: the built-in integrators are written against
 * it, and so is a plugin (`--plugin path.so`) that adds integrators of its own.
 * It is installed by `make install`.
 *
 * An integrator advances x'' = a(t, x, v) one step at a time.  Its constant
 * *type* (struct vb_integrator: name, order, flags and functions) is kept
 * apart from its *state* (an opaque block of `state_size` bytes the harness
 * allocates), so that many independent runs can share one type, as GSL's
 * ode-initval2 steppers do.  The integrator never evaluates the force law
 * itself: it calls vb_force_eval(), which also counts evaluations.
 */
#ifndef VERLETBENCH_H
#define VERLETBENCH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever struct vb_integrator or struct vb_force changes layout. */
#define VB_ABI_VERSION 1

/* Models have 1, 2 or 3 degrees of freedom. */
#define VB_MAX_DIM 3

/* Acceleration of a model: a = a(t, x, v), all arrays of length `dim`. */
typedef void vb_accel_fn(const void *model, double t, const double *x,
                         const double *v, double *a);

/* The force law one run integrates, and its evaluation counter. */
typedef struct vb_force {
    vb_accel_fn *accel;
    const void *model;
    unsigned long long evals;
    unsigned dim;
} vb_force;

static inline void vb_force_eval(vb_force *f, double t, const double *x,
                                 const double *v, double *a)
{
    f->evals++;
    f->accel(f->model, t, x, v, a);
}

/* Flags of an integrator type. */
enum {
    VB_SYMPLECTIC = 1u, /* symplectic for fixed steps on conservative forces */
    VB_HISTORY = 2u     /* a multistep method: its state holds x_{n-1} (or x_n - x_{n-1}) */
};

typedef struct vb_integrator {
    const char *name;    /* lower case, as typed on the command line */
    const char *summary; /* one line for `verletbench list` */
    int order;           /* expected global order with fixed steps */
    unsigned flags;
    size_t state_size;   /* bytes of state the harness allocates per run */

    /* Start at time t from (x, v); h is the first step that will be taken. */
    void (*start)(void *state, vb_force *f, double t, const double *x,
                  const double *v, double h);

    /* Start at time t from exact history: x = x(t), v = v(t) and
     * x_prev = x(t - h_prev).  Only multistep methods (VB_HISTORY) need it;
     * the harness uses it to measure one-step (local) errors.  May be NULL. */
    void (*start_history)(void *state, vb_force *f, double t, const double *x,
                          const double *v, const double *x_prev,
                          double h_prev, double h);

    /* Advance from time t by h > 0. */
    void (*step)(void *state, vb_force *f, double t, double h);

    /* The position and the velocity this method reports at its current time. */
    void (*observe)(const void *state, double *x, double *v);

    /* Reverse the direction of time: afterwards the state reports the same
     * position and the negated velocity, and stepping with the steps of the
     * run in reverse order retraces it (exactly, for a symmetric method). */
    void (*reverse)(void *state);
} vb_integrator;

/* What a plugin exports under the symbol name "verletbench_plugin". */
typedef struct vb_plugin {
    unsigned abi_version;                  /* VB_ABI_VERSION it was built with */
    size_t count;                          /* number of entries in `integrators` */
    const vb_integrator *const *integrators;
} vb_plugin;

#define VB_PLUGIN_SYMBOL "verletbench_plugin"

#ifdef __cplusplus
}
#endif

#endif /* VERLETBENCH_H */
