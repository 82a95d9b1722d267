/* result.h — what a run's row says: its status, errors and counts
 * (vb_run_result), made once the run stopped (vb_run_finish), for a run
 * that failed, and as bytes for a result made in another process.  Every
 * kind of runner (runner.h) finishes its runs through it. */
#ifndef VB_RESULT_H
#define VB_RESULT_H

#include <stddef.h>

#include "model.h"
#include "plan.h"

typedef enum {
    VB_STATUS_OK,
    VB_STATUS_DIVERGED,    /* the state became non-finite */
    VB_STATUS_EXACT_FAILED, /* the exact or reference solution could not be computed */
    VB_STATUS_ENGINE_FAILED, /* an external engine failed (engine.h): vb_run_result.failure */
    /* the plugin's code ended, crashed or hung the process the run was in
     * (isolate.h): vb_run_result.failure says how */
    VB_STATUS_PLUGIN_FAILED
} vb_status;

const char *vb_status_name(vb_status s);

/* What a contact handler's run found (docs/contact.md, "Metrics"), beside
 * the exact answer: the bounce's, the slide's or the tunnel's measures
 * (kind, walls.h), NaN where a measure does not apply or was not made. */
#define VB_CONTACT_E_SHOWN 3
/* the bounces a run's chart data keep: 1 .. 16 */
#define VB_CONTACT_APEXES 16
typedef struct vb_contact_result {
    int has;  /* 1: a handler's run on a model with a contact */
    int kind; /* vb_wall_kind */
    /* the bounce */
    /* the first bounces' restitution at the contact, sqrt(E after / E
     * before) of the flight energy either side of it (contact_metrics.h) */
    double e_bounce[VB_CONTACT_E_SHOWN];
    double bounces, bounces_exact;       /* counted; exact (INFINITY: infinitely many) */
    double t_rest, t_rest_exact;         /* INFINITY: no rest by the run's end / ever */
    /* the energy after 10 bounces over its exact value, E_after(10) /
     * (e^20 E_before(1)) - 1: gained (> 0) or lost beyond what restitution
     * takes; NaN where the run or the exact ball bounces fewer times */
    double gain10;
    double depth_max;                    /* the largest penetration, >= 0 */
    /* after bounce n + 1 (NaN past the bounces the run made): the height
     * the ball then reaches, as stepped (its highest sample; exact
     * e^(2(n+1)) h0), and the energy E_after(n+1) / E_before(1) (exact
     * e^(2(n+1))); contact.csv holds the first VB_CONTACT_E_SHOWN heights,
     * the bounce chart's data every one */
    double height[VB_CONTACT_APEXES];
    double energy[VB_CONTACT_APEXES];
    /* the slide */
    double stop_x, stop_x_exact, stop_t, stop_t_exact;
    /* the tunnel: the smallest speed that passes at the run's dt, by
     * bisection from the handler's worst phase (INFINITY: none up to 1000
     * times the bound), and the bound (w + 2r) / dt */
    double pass_speed, pass_bound;
    /* 1 when pass_speed is only an upper bound: an engine's ball passed at
     * the lowest speed its search tried (contact_metrics.h); 0 when it is
     * measured (a slower ball did not pass) or infinite; NaN with it */
    double pass_at_most;
    /* a rigid body on the ground inside a contact solver (bodyrun.h; body
     * = 1, kind VB_WALL_NONE): a round body's start of rolling, where the
     * slip u = v - w R first reaches 0 (t_roll INFINITY: never), the
     * distance and speed there, beside the exact ones; the largest |u|
     * after it; the acceleration of the last phase (rolling, sliding or
     * stuck) off the exact one, over g; a body that must stick: its
     * displacement (creep, exact 0) and its speed over the second half of
     * its stuck time; the largest |E - E_exact| over the energy's scale */
    int body;
    double t_roll, t_roll_exact, s_roll, s_roll_exact, v_roll, v_roll_exact;
    double slip_max, a_err, creep, creep_exact, creep_speed, energy_err;
} vb_contact_result;

/* every measure NaN: none applies yet */
void vb_contact_result_blank(vb_contact_result *c);

/* What a stack's run found (stackrun.h, docs/contact.md "Stacks"), against
 * the exact answer that no box moves: the largest displacement of any
 * box's centre, the boxes' speeds' root mean square over every box and
 * step, the deepest penetration of any contact, and the first time a box
 * had moved by half its edge (NaN: it stood); with the solver's
 * iterations and substeps the run was made with (NaN: the solver has no
 * such key, as toi has none). */
typedef struct vb_stack_measures {
    int has; /* 1: a solver's run on a stack */
    double drift_max, speed_rms, depth_max, t_collapse;
    /* whole numbers, as doubles: a shard writes them as every measure */
    double iterations, substeps;
} vb_stack_measures;

typedef struct vb_run_result {
    double dt;    /* the effective dt (fixed), nominal dt (random), mean step (trace) */
    double t_end;
    unsigned long long steps, force_evals;
    double err_pos_final, err_pos_max, err_pos_rms;
    /* vb_metrics_pos_signed_mean: the signed witness "= name" compares
     * beside the norms; in shard files, never in the tables */
    double err_pos_signed;
    double err_vel_final, err_vel_max;
    double err_energy_max, err_angmom_max, err_momentum_max;
    double err_return; /* |x(t_end) - x(0)| when t_end is a whole number of periods */
    double err_constraint_max; /* the largest drift off the model's rods (metrics.h) */
    int has_energy, has_angmom, has_momentum, has_return, has_constraint;
    /* the run reported positions alone (an engine of velocity=none,
     * docs/real-engines.md §1.7): its velocity errors are not measured, and
     * has_energy, has_angmom, has_momentum are 0 */
    int no_velocity;
    vb_status status;
    unsigned long long fail_step; /* the step at which the run stopped, if not ok */
    double pos_scale, vel_scale;  /* largest |x|, |v| of the exact solution */
    /* a reference solution's own error over the run's times (truth.h), in
     * position and velocity; has_reference 0 for an exact solution */
    int has_reference;
    double ref_err_pos, ref_err_vel;
    /* a reference that stopped on a force that was not finite: where (NaN
     * otherwise); for the message of a run that ended exact-failed */
    double ref_bad_force_t;
    /* an engine's run that failed: what went wrong (engine.h, malloc'd:
     * vb_run_result_clear frees it), else NULL.  A pointer, not an array:
     * a sweep holds every run's result, and only a failed engine run has
     * anything to say (runs of a sweep were 976 bytes each, now 472) */
    char *failure;
    /* the drawn position's error at the frames' times (a frame loop's run:
     * loop.h, frameloop.h; any other draws what it reports, and these are
     * its position's errors), and the time a loop's clamp dropped (0
     * without one) */
    double err_draw_max, err_draw_rms, lag_max;
    /* the measures of an attitude, which a rigid body's state has
     * (rigid_metrics.h, docs/rigid.md §7): has_attitude 1 where the run
     * made them (every run of a rigid body's but one a plugin's worker
     * failed), 0 for any other.  Its attitude and angular velocity errors; the flips
     * of the intermediate axis the run made and the exact solution made at
     * the same times; the run's flip period (NaN unless its flips are
     * regular, and after a tumble: rigid_analysis.h, docs/rigid.md §4)
     * and the exact one (4K/lambda; NaN where w(t) has none); the time the
     * run first tumbled where the exact motion is a stable spin (NaN: it
     * did not, or the motion flips).  err_angmom_max is then the world
     * angular momentum's. */
    int has_attitude;
    double err_att_max, err_angvel_max;
    unsigned long long flips, flips_exact;
    double flip_period, flip_period_exact, t_tumble;
    /* a contact handler's run (composed.h): its contact measures */
    vb_contact_result contact;
    /* a solver's run on a stack of boxes: its measures */
    vb_stack_measures stack;
} vb_run_result;

/* Free what a result holds (its failure text); the numbers stay. */
void vb_run_result_clear(vb_run_result *r);

/* What a run of the plan writes whatever its method does (the frame of
 * its row): status ok, the plan's dt, t_end and steps, which errors apply
 * (has_*), every error 0; from the code a run itself uses (the plan
 * drawn, vb_metrics_init, vb_run_finish).  0, or -1 out of memory. */
int vb_run_frame(const vb_model *model, const vb_plan_spec *plan, vb_run_result *out);
/* A run whose plugin failed it (isolate.h): the plan's frame, no step
 * taken, every error inf, status plugin-failed and why.  0, or -1 out of
 * memory. */
int vb_run_plugin_failed(const vb_model *model, const vb_plan_spec *plan, const char *why,
                         vb_run_result *out);
/* A result as bytes (its failure text after it), and back: for a result
 * made in another process.  pack: the bytes used, at most cap (else 0);
 * unpack: 0, or -1 (not such bytes, or out of memory). */
size_t vb_run_result_pack(const vb_run_result *r, void *buf, size_t cap);
int vb_run_result_unpack(vb_run_result *r, const void *bytes, size_t len);
#define VB_RUN_PACKED_MAX (sizeof(vb_run_result) + 1024)
/* its failure text, or "" */
static inline const char *vb_run_failure(const vb_run_result *r)
{
    return r->failure ? r->failure : "";
}

/* The pieces a run is made of. */
struct vb_metrics;
struct vb_truth;
/* every x[i] and v[i], i < n, finite.  Inline: the grid asks it of every
 * run at every step, and a call there cost 5 % of a sweep's instructions
 * (callgrind, spring and orbit). */
static inline int vb_all_finite(const double *x, const double *v, size_t n)
{
    /* x * 0 is 0 for a finite x and NaN for an infinite or NaN one: one sum
     * of them says it for the whole state, with no branch a component */
    double z = 0.0;
    for (size_t i = 0; i < n; i++)
        z += x[i] * 0.0 + v[i] * 0.0;
    return z == 0.0;
}
/* The result fields once a run has stopped (res->status and res->steps
 * set); x_last is its last position, for the return error. */
void vb_run_finish(const vb_model *model, const vb_plan_spec *spec, const vb_plan *plan,
                   const struct vb_metrics *m, const double *x_last,
                   unsigned long long force_evals, const struct vb_truth *truth,
                   vb_run_result *res);

/* A finite state whose error `what` (vb_metrics_add) is not a finite
 * number: the run diverged there, and its failure text says so. */
void vb_run_unmeasurable(vb_run_result *res, const char *what);

/* t_end is a whole number of the model's periods (to 1e-9 of it), so a run
 * reports its return error */
int vb_whole_periods(const vb_model *model, double t_end);

/* A run that cannot go on: its status, and why (copied; NULL: none). */
void vb_run_failed(vb_run_result *res, vb_status status, const char *why);

#endif
