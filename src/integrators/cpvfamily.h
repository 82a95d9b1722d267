/* cpvfamily.h — position Verlet on rods: what jakobsen, tcv-jakobsen and
 * shake share (docs/constraints.md).  A step is the family's update of
 * pvfamily.h on the applied force alone,
 *     x~ = x_n + (x_n - x_{n-1}) r + a_n c,
 * then a projection of x~ back onto the rods (relaxation or SHAKE,
 * constrain.h), whose correction is what the rods' forces did in the step.
 * As in pvfamily.h the state keeps x_n and d_n = x_n - x_{n-1}, and the
 * projection's correction is added to both.
 *
 * The velocity "implied by the positions" is the family's
 * (x_n - x_{n-1})/h' + a_n h'/2, with its component along the rods
 * removed (the exact projection of constrain.h): a_n is the applied force
 * only, and what the rods' own acceleration adds points along them.  What
 * is left, the motion along the constraint surface, is second order; the
 * raw difference quotient of an engine is first order in velocity. */
#ifndef VB_CPVFAMILY_H
#define VB_CPVFAMILY_H

#include "pvfamily.h"
#include "verletbench.h"

/* The rods and the parameters, then the family's own state (pvfamily.h),
 * whose start, velocity and force evaluation these methods share: x, d, a,
 * vb, then two more vectors of N, scratch and old. */
typedef struct vb_cpv_state {
    const vb_constraints *c; /* the model's rods (vb_force.constraints; NULL: none) */
    double tol;              /* SHAKE's tolerance */
    double solver;           /* SHAKE's: VB_SOLVER_DIRECT or VB_SOLVER_SWEEPS */
    double sweeps;           /* relaxation sweeps (a whole number) */
    double along_old;        /* 1: relax along the rods' directions before the step */
    _Alignas(double) unsigned char pv[]; /* a vb_pv_state */
} vb_cpv_state;

enum { VB_CPV_SCRATCH = VB_PV_VECTORS, VB_CPV_OLD, VB_CPV_VECTORS };

static inline vb_pv_state *vb_cpv_pv(vb_cpv_state *s) { return (vb_pv_state *)(void *)s->pv; }

size_t vb_cpv_state_size(size_t n);

/* Put x (just stepped from old) back on the rods.  0, or -1 when the
 * method could not (SHAKE not converging): the state is then NaN, which
 * the harness reports as diverged, and *why says why. */
typedef int vb_cpv_project_fn(vb_cpv_state *s, double *x, const double *old, const char **why);

/* a member's update coefficients (pvfamily.h), then its projection */
void vb_cpv_step_with(vb_cpv_state *s, vb_force *f, double t, double h, vb_pv_coeffs_fn *coeffs,
                      vb_cpv_project_fn *project);
/* The Taylor start x_1 = x_0 + v_0 h + a_0 h^2/2 (before its projection) */
void vb_cpv_start(void *st, vb_force *f, double t, const double *x, const double *v, double h);
void vb_cpv_start_history(void *st, vb_force *f, double t, const double *x, const double *v,
                          const double *x_prev, double h_prev, double h);
void vb_cpv_observe(const void *st, double *x, double *v);
/* The new "previous" position is the one a step of h' would reach,
 * projected: a symmetric projection (SHAKE's) then retraces the run. */
void vb_cpv_reverse_with(void *st, vb_cpv_project_fn *project);

/* The projections: k relaxation sweeps, and SHAKE to tol */
vb_cpv_project_fn vb_cpv_relax, vb_cpv_shake;

/* the parameters: sweeps and along_old (the relaxation's, VB_CPV_RELAX_PARAMS
 * of them), and SHAKE's tolerance and solver */
#define VB_CPV_RELAX_PARAMS 2
extern const vb_param_spec vb_cpv_relax_params[VB_CPV_RELAX_PARAMS];
void vb_cpv_set_relax(void *st, const double *p);
void vb_cpv_set_tol(void *st, const double *p);

#endif
