/* runner.c — what each kind of runner can do, asked in one place: the
 * only file above the kinds' own folders that tells an engine from a frame
 * loop from an integrator of the table (runner.h). */
#include "runner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bodyrun.h"
#include "stackrun.h"
#include "composed.h"
#include "contactrun.h"
#include "engine_contact.h"
#include "frameloop.h"
#include "integrator.h"
#include "loop.h"
#include "plugin.h"
#include "rigid.h"
#include "rigid_method.h"
#include "rigid_metrics.h"
#include "truth.h"

vb_state_shape vb_state_of_model(const vb_model *m)
{
    return vb_rigid_body_of(m) ? (vb_state_shape){VB_STATE_RIGID_BODY, VB_RIGID_COMPONENTS}
                               : (vb_state_shape){VB_STATE_PARTICLES, 2 * m->n};
}

const char *vb_state_kind_name(vb_state_kind k)
{
    return k == VB_STATE_RIGID_BODY ? "rigid body" : "particles";
}

vb_runner_caps vb_runner_caps_of(const vb_integrator *r, const vb_model *m)
{
    const vb_engine *e = vb_engine_of(r);
    const vb_loop *l = vb_loop_of(r);
    /* a frame loop's entry runs the method inside it: its code, its
     * plugin, its parameters */
    const vb_composed *cm = vb_composed_of(r);
    const vb_integrator *method = cm ? cm->inner : vb_loop_inner(r);
    int adaptive = (r->flags & VB_ADAPTIVE) != 0;
    /* a rigid model's face (rigid.h) carries a rigid body */
    vb_runner_caps c = {.state = vb_state_of_model(m),
                        .refines = adaptive                   ? VB_REFINES_TOL
                                   : vb_loop_holds_frames(r) ? VB_REFINES_PHYSICS_DT
                                                             : VB_REFINES_DT,
                        /* a method of the table on its own: an engine's steps
                         * and a loop's frames cannot be turned round or started
                         * from history, and an adaptive method chooses steps
                         * that are not the plan's */
                        .reverses = !e && !l && !cm && !adaptive,
                        .one_step = !e && !l && !cm && !adaptive,
                        .external = e != NULL,
                        .draws = l != NULL,
                        .builtin = !e && vb_integrator_builtin(method),
                        .precision = VB_FLOAT64,
                        .velocity = VB_VELOCITY_STATE,
                        .method = method};
    c.isolated = !e && vb_plugin_code(method, m);
    /* a handler's time is its root finding's as much as its method's */
    c.timed = !e && !l && !cm;
    /* an engine on a model with a wall: a body at a contact (protocol 4) */
    /* (a stack's runs are measured as a stack: stacks.csv, not contact.csv) */
    c.contact = (cm != NULL && !vb_stack_of(m)) ||
                (e && (vb_model_type_has_wall(m->type) || vb_bodyrun_applies(m)));
    /* a solver's or an engine's (protocol 5) stack: stacks.csv */
    c.stack = (cm != NULL || e != NULL) && vb_stack_of(m) != NULL;
    vb_runner_declared(r, &c);
    return c;
}

void vb_runner_declared(const vb_integrator *r, vb_runner_caps *c)
{
    const vb_engine *e = vb_engine_of(r);
    vb_engine_caps ec;
    if (!e)
        return;
    if (vb_engine_caps_of(e, &ec)) {
        c->precision = ec.precision;
        c->substeps = ec.substeps;
    }
    c->velocity = vb_engine_velocity_of(r);
}

vb_plan_spec vb_runner_level_plan(const vb_runner_caps *c, const vb_plan_spec *at_level,
                                  const vb_plan_spec *frames0, double tol)
{
    if (c->refines == VB_REFINES_DT)
        return *at_level;
    /* the frames of level 0, and what this level refines inside them */
    vb_plan_spec p = *frames0;
    p.level = at_level->level;
    if (c->refines == VB_REFINES_TOL)
        p.tol = tol;
    /* (a level is below VB_MAX_LEVELS: two digits) */
    snprintf(p.id, sizeof p.id, "%.32s-%c%u", at_level->id,
             c->refines == VB_REFINES_TOL ? 'T' : 'P', (unsigned)at_level->level % 100u);
    return p;
}

double vb_runner_level_x(const vb_plan_spec *plan, const vb_run_result *res)
{
    return plan->tol > 0.0 ? plan->tol : res->dt;
}

unsigned vb_runner_own(const vb_runner_caps *c)
{
    return (c->draws ? VB_OWN_STEPS : 0u) | (c->refines == VB_REFINES_PHYSICS_DT ? VB_OWN_DT : 0u);
}

double vb_runner_tolerance(const vb_integrator *r, const vb_plan_spec *plan)
{
    if (!(r->flags & VB_ADAPTIVE))
        return (double)NAN;
    return plan->tol > 0.0 ? plan->tol : VB_DEFAULT_TOL;
}

vb_step_bound vb_runner_bound(const vb_integrator *r, double n, double h_equal, double t_end,
                              int level)
{
    vb_step_bound b = {n, NULL, NULL, 0, 0.0};
    const vb_loop *l = vb_loop_of(r);
    if (l) {
        b.steps = vb_loop_max_steps(&l->spec, n, h_equal, t_end, level);
        if (l->spec.dt_line) {
            b.key = "physics_dt";
            b.value = l->spec.dt_text;
            b.line = l->spec.dt_line;
            b.step = vb_loop_physics_dt(&l->spec, level);
        }
    }
    return b;
}

void vb_runner_who(const vb_integrator *r, const vb_model *m, char *buf, size_t len)
{
    const vb_engine *e = vb_engine_of(r);
    unsigned long long h;
    /* a frame loop's row: the plugin is the method's inside it */
    const char *name = vb_integrator_type(vb_composed_inner(vb_loop_inner(r)))->name;
    const char *file = vb_plugin_of_integrator(name, &h);
    if (e) {
        const char *src = e->command ? e->command : e->dir;
        snprintf(buf, len, "engine %s (%.200s%s)", e->name, src, strlen(src) > 200 ? "..." : "");
    } else if (file) {
        snprintf(buf, len, "plugin integrator %s (%s)", r->name, file);
    } else {
        file = vb_plugin_of_model(m->type->name, &h);
        snprintf(buf, len, "%s on the plugin model %s (%s)", r->name, m->type->name,
                 file ? file : "?");
    }
}

int vb_runner_provenance(const vb_integrator *r, char *buf, size_t len)
{
    const vb_engine *e = vb_engine_of(r);
    if (!e)
        return 0;
    vb_engine_provenance(e, buf, len);
    return 1;
}

const char *vb_runner_recorded(const vb_integrator *r)
{
    const vb_engine *e = vb_engine_of(r);
    return e ? e->dir : NULL;
}

void vb_runner_release(const vb_integrator *r)
{
    const vb_engine *e = vb_engine_of(r);
    if (e)
        vb_engine_close_workers(e);
}

/* ---- runs of each kind ---- */

/* An integrator of the table, built in or a plugin's, fixed-step or
 * adaptive: its state, stepped in advance and read in observe. */
typedef struct {
    vb_run base; /* base.method_state: its state */
    const vb_plan_spec *plan;
    int started; /* start was called: its finish must be */
} method_run;

static int method_start(vb_run *run, const double *s0, double h, vb_run_result *res)
{
    (void)res;
    method_run *r = (method_run *)run;
    const vb_integrator *g = run->entry;
    size_t n = run->model->n;
    vb_integrator_set_params(g, run->method_state);
    if (g->set_tolerance)
        g->set_tolerance(run->method_state, r->plan->tol > 0.0 ? r->plan->tol : VB_DEFAULT_TOL);
    g->start(run->method_state, &run->force, 0.0, s0, s0 + n, h);
    r->started = 1;
    return 0;
}

static void method_advance(vb_run *run, double t, double h)
{
    run->entry->step(run->method_state, &run->force, t, h);
}

static int method_observe(vb_run *run, double t_next, double h, double *s, vb_run_result *res)
{
    (void)t_next, (void)h, (void)res;
    run->entry->observe(run->method_state, s, s + run->model->n);
    return 0;
}

static void method_finish(vb_run *run, const vb_plan_spec *spec, const vb_plan *plan,
                          const vb_truth *truth, const double *last, vb_run_result *res)
{
    vb_run_finish(run->model, spec, plan, &run->m, last, run->force.evals, truth, res);
}

static void method_close(vb_run *run)
{
    method_run *r = (method_run *)run;
    if (r->started && run->entry->finish)
        run->entry->finish(run->method_state);
    free(run->method_state);
    free(r);
}

static const vb_run_ops method_ops = {method_start, method_advance, method_observe, NULL,
                                      NULL,         method_finish,  method_close};

/* A rotation method on a rigid body (rigid_method.h, on a model's face):
 * a method's run, measured besides by what a rigid body has
 * (rigid_metrics.h): its attitude, angular velocity and world angular
 * momentum, its flips and its tumble. */
typedef struct {
    method_run method; /* first: its steps are a method's */
    vb_rigid_metrics rm;
    double t; /* the time of the state observe reported */
} rigid_run;

static int rigid_start(vb_run *run, const double *s0, double h, vb_run_result *res)
{
    rigid_run *r = (rigid_run *)run;
    vb_rigid_metrics_init(&r->rm, vb_rigid_body_of(run->model));
    return method_start(run, s0, h, res);
}

static int rigid_observe(vb_run *run, double t_next, double h, double *s, vb_run_result *res)
{
    ((rigid_run *)run)->t = t_next;
    return method_observe(run, t_next, h, s, res);
}

/* a rigid body's state s at t: the errors every run has, then a body's */
static const char *measure_body(vb_run *run, vb_rigid_metrics *rm, double t, const double *s,
                                const double *xe, const double *ve, const vb_exact_size *size)
{
    size_t n = run->model->n;
    const char *bad = vb_metrics_add_sized(&run->m, s, s + n, xe, ve, size);
    return bad ? bad : vb_rigid_metrics_add(rm, t, s, s + n, xe, ve);
}

static const char *rigid_measure(vb_run *run, const double *s, const double *xe,
                                 const double *ve, const vb_exact_size *size)
{
    rigid_run *r = (rigid_run *)run;
    return measure_body(run, &r->rm, r->t, s, xe, ve, size);
}

static void rigid_finish(vb_run *run, const vb_plan_spec *spec, const vb_plan *plan,
                         const vb_truth *truth, const double *last, vb_run_result *res)
{
    method_finish(run, spec, plan, truth, last, res);
    vb_rigid_metrics_finish(&((rigid_run *)run)->rm, res);
}

static const vb_run_ops rigid_ops = {rigid_start, method_advance, rigid_observe, rigid_measure,
                                     NULL,        rigid_finish,   method_close};

/* An external engine: its process's rows in place of steps.  On a rigid
 * body (protocol 3: engine/ turns its rows into the model's state, w in
 * the body frame) it is measured besides as a rotation method's run is;
 * at a contact (protocol 4) its rows as a handler's states are
 * (contactrun.h), and the tunnel's passing speed is asked of it run by
 * run (engine_contact.h); on a stack (protocol 5) its bodies' states are
 * measured as a solver's world is (stackrun.h: stacks.csv). */
typedef struct {
    vb_run base;
    const vb_engine *engine;
    const vb_plan_spec *plan;
    vb_engine_run *er;
    unsigned long long evals; /* the engine's count */
    vb_rigid_metrics *rm;     /* a rigid body's measures, or NULL */
    vb_contactrun *cr;        /* a contact's series and measures, or NULL */
    vb_bodyrun *br;           /* a rigid body's on the ground (protocol 4), or NULL */
    vb_stack_world *sw;       /* a stack's world and measures (protocol 5), or NULL */
    double t;                 /* the time of the row observe read */
} engine_run;

/* an engine's run that cannot go on: status engine-failed, and why */
static void engine_failed(engine_run *r, vb_run_result *res, const char *why)
{
    vb_run_failed(res, VB_STATUS_ENGINE_FAILED, why);
    vb_engine_stop(r->er);
    r->er = NULL;
}

static int engine_start(vb_run *run, const double *s0, double h, vb_run_result *res)
{
    (void)s0, (void)h;
    engine_run *r = (engine_run *)run;
    char why[512];
    if (r->rm)
        vb_rigid_metrics_init(r->rm, vb_rigid_body_of(run->model));
    if (r->cr)
        vb_contactrun_start(r->cr, s0, s0 + run->model->n);
    if (r->br)
        vb_bodyrun_start(r->br, s0, s0 + run->model->n);
    if (r->sw)
        vb_stack_world_start(r->sw);
    r->er = vb_engine_start(r->engine, run->model, r->plan, why, sizeof why);
    /* velocity=none: measured by its positions (its cells of a run that
     * failed to start too, once the engine said so) */
    run->no_velocity = r->er ? !vb_engine_run_has_velocity(r->er)
                             : vb_engine_without_velocity(run->entry);
    if (!r->er) {
        engine_failed(r, res, why);
        return -1;
    }
    return 0;
}

static int engine_observe(vb_run *run, double t_next, double h, double *s, vb_run_result *res)
{
    engine_run *r = (engine_run *)run;
    r->t = t_next;
    /* the engine's row of this step, in place of a step */
    if (vb_engine_next(r->er, t_next, h, s, s + run->model->n, &r->evals) != 0) {
        engine_failed(r, res, vb_engine_why(r->er));
        return -1;
    }
    if (r->cr)
        vb_contactrun_observe(r->cr, t_next, s, s + run->model->n);
    if (r->br)
        vb_bodyrun_observe(r->br, t_next, s, s + run->model->n);
    /* a row with a number that is not finite is not measured: its centre
     * is NaN in s, and the driver stops the run as diverged */
    if (r->sw)
        vb_stack_world_observe(r->sw, vb_engine_stack_states(r->er), t_next);
    return 0;
}

static const char *engine_measure(vb_run *run, const double *s, const double *xe,
                                  const double *ve, const vb_exact_size *size)
{
    engine_run *r = (engine_run *)run;
    return measure_body(run, r->rm, r->t, s, xe, ve, size);
}

static void engine_halt(vb_run *run)
{
    engine_run *r = (engine_run *)run;
    vb_engine_stop(r->er); /* a NaN it wrote: diverged, as for a built-in */
    r->er = NULL;
}

/* an engine's stack: the lab's measures of its rows (stacks.csv), up to
 * the row before one that failed; none of a run that gave no row; its
 * iterations and substeps are its adapter's options, not the lab's keys
 * (blank) */
static void engine_stack_finish(vb_stack_world *sw, vb_run_result *res)
{
    vb_stack_result sr;
    vb_stack_world_finish(sw, &sr);
    int none = sr.steps == 0;
    res->stack = (vb_stack_measures){.has = 1,
                                     .drift_max = none ? (double)NAN : sr.drift_max,
                                     .speed_rms = sr.speed_rms,
                                     .depth_max = none ? (double)NAN : sr.depth_max,
                                     .t_collapse = sr.t_collapse,
                                     .iterations = (double)NAN,
                                     .substeps = (double)NAN};
}

static void engine_finish(vb_run *run, const vb_plan_spec *spec, const vb_plan *plan,
                          const vb_truth *truth, const double *last, vb_run_result *res)
{
    engine_run *r = (engine_run *)run;
    if (r->er) {
        /* an engine that gave every row must end there, and exit 0 */
        if (res->status == VB_STATUS_OK && vb_engine_finish(r->er) != 0)
            engine_failed(r, res, vb_engine_why(r->er));
        vb_engine_stop(r->er);
        r->er = NULL;
    }
    /* the tunnel's passing speed at this run's fixed step, asked of the
     * engine (not of recorded trajectories: no one to ask); a run of it
     * that fails fails this run, engine-failed, or diverged for rows that
     * are not finite */
    double pass = NAN;
    int lowest = 0;
    if (r->cr && r->cr->wall.kind == VB_WALL_TUNNEL && res->status == VB_STATUS_OK &&
        spec->kind == VB_PLAN_FIXED && r->engine->command) {
        char why[VB_ENGINE_FAILURE_MAX + 256];
        vb_status failed;
        pass = vb_engine_pass_speed(r->engine, run->model, plan->h_fixed, spec->level, &lowest,
                                    &failed, why, sizeof why);
        if (pass != pass)
            vb_run_failed(res, failed, why);
    }
    vb_run_finish(run->model, spec, plan, &run->m, last, r->evals, truth, res);
    if (r->rm)
        vb_rigid_metrics_finish(r->rm, res);
    if (r->cr) {
        vb_contactrun_finish(r->cr, res);
        if (res->contact.kind == VB_WALL_TUNNEL) {
            res->contact.pass_speed = pass;
            res->contact.pass_at_most = pass == pass ? (double)lowest : (double)NAN;
        }
    }
    if (r->br) /* the lab's body measures, the same as a solver's run */
        vb_bodyrun_finish(r->br, res);
    if (r->sw)
        engine_stack_finish(r->sw, res);
}

static void engine_close(vb_run *run)
{
    engine_run *r = (engine_run *)run;
    vb_engine_stop(r->er);
    free(r->rm);
    if (r->cr)
        vb_contactrun_free(r->cr);
    free(r->cr);
    if (r->br)
        vb_bodyrun_free(r->br);
    free(r->br);
    if (r->sw)
        vb_stack_world_free(r->sw);
    free(r->sw);
    free(r);
}

static const vb_run_ops engine_ops = {engine_start, NULL,          engine_observe, NULL,
                                      engine_halt,  engine_finish, engine_close};
/* on a rigid body: its measures too */
static const vb_run_ops rigid_engine_ops = {engine_start, NULL,          engine_observe,
                                            engine_measure, engine_halt, engine_finish,
                                            engine_close};

/* A frame loop round a method (frameloop.h): a frame at a time, its
 * physics steps measured inside, its drawn state by the driver. */
typedef struct {
    vb_run base;
    vb_frameloop fl;
    int ready; /* fl was set up: vb_frameloop_free */
} loop_run;

static int loop_start(vb_run *run, const double *s0, double h, vb_run_result *res)
{
    (void)res;
    vb_frameloop_start(&((loop_run *)run)->fl, &run->force, s0, s0 + run->model->n, h);
    return 0;
}

/* a frame loop's frame: its physics steps, then the state it draws into
 * s; 0, or -1 when the run stopped (status set) */
static int loop_observe(vb_run *run, double t_next, double h, double *s, vb_run_result *res)
{
    const char *bad = NULL;
    switch (vb_frameloop_frame(&((loop_run *)run)->fl, &run->force, t_next, h, s,
                               s + run->model->n, &bad)) {
    case VB_FRAME_OK:
        return 0;
    case VB_FRAME_DIVERGED:
        res->status = VB_STATUS_DIVERGED;
        if (run->force.stopped)
            res->failure = strdup(run->force.stopped);
        break;
    case VB_FRAME_NO_TRUTH:
        res->status = VB_STATUS_EXACT_FAILED;
        break;
    case VB_FRAME_UNMEASURABLE:
        vb_run_unmeasurable(res, bad);
        break;
    }
    return -1;
}

static const char *loop_measure(vb_run *run, const double *s, const double *xe, const double *ve,
                                const vb_exact_size *size)
{
    (void)ve, (void)size;
    return vb_frameloop_draw_add(&((loop_run *)run)->fl, s, xe);
}

/* a frame loop's result: its physics steps and their errors (the run's
 * own metrics), its drawn state's, the time it dropped; an accumulator's
 * dt is its physics_dt, the step its sweep refines (docs/method.md §9) */
static void loop_finish(vb_run *run, const vb_plan_spec *spec, const vb_plan *plan,
                        const vb_truth *truth, const double *last, vb_run_result *res)
{
    (void)truth, (void)last;
    const vb_frameloop *fl = &((loop_run *)run)->fl;
    res->steps = fl->steps;
    vb_run_finish(run->model, spec, plan, &fl->m, fl->run.cur, run->force.evals, fl->truth, res);
    if (vb_loop_holds_frames(&fl->run.loop->integ))
        res->dt = fl->run.dt;
    if (fl->rigid) /* a rigid body's measures, at its physics steps */
        vb_rigid_metrics_finish(fl->rigid, res);
    res->lag_max = fl->run.lag;
    if (res->status == VB_STATUS_OK) {
        res->err_draw_max = fl->draw_max;
        res->err_draw_rms = vb_frameloop_draw_rms(fl);
    } else {
        res->err_draw_max = res->err_draw_rms = INFINITY;
    }
}

static void loop_close(vb_run *run)
{
    loop_run *r = (loop_run *)run;
    if (r->ready)
        vb_frameloop_free(&r->fl);
    free(r);
}

static const vb_run_ops loop_ops = {loop_start, NULL,        loop_observe, loop_measure,
                                    NULL,       loop_finish, loop_close};

/* A method inside a contact handler (contactrun.h): the handler's step a
 * plan step, the states measured as a method's are, the contact's
 * measures at the end. */
typedef struct {
    vb_run base;
    vb_contactrun cr;
    int ready; /* cr was set up: vb_contactrun_free */
} contact_run;

static int contact_start(vb_run *run, const double *s0, double h, vb_run_result *res)
{
    (void)h, (void)res;
    vb_contactrun_start(&((contact_run *)run)->cr, s0, s0 + run->model->n);
    return 0;
}

static int contact_observe(vb_run *run, double t_next, double h, double *s, vb_run_result *res)
{
    int st = vb_contactrun_step(&((contact_run *)run)->cr, t_next - h, h, s, s + run->model->n);
    if (st == VB_CONTACT_OK)
        return 0;
    res->status = VB_STATUS_DIVERGED;
    if (!res->failure)
        res->failure = strdup(st == VB_CONTACT_NO_ROOT
                                  ? "the contact handler could not bracket the time of impact"
                                  : "the method's step inside the contact handler failed");
    return -1;
}

static void contact_finish(vb_run *run, const vb_plan_spec *spec, const vb_plan *plan,
                           const vb_truth *truth, const double *last, vb_run_result *res)
{
    vb_run_finish(run->model, spec, plan, &run->m, last, run->force.evals, truth, res);
    vb_contactrun_finish(&((contact_run *)run)->cr, res);
}

static void contact_close(vb_run *run)
{
    contact_run *r = (contact_run *)run;
    if (r->ready)
        vb_contactrun_free(&r->cr);
    free(r);
}

static const vb_run_ops contact_ops = {contact_start, NULL,           contact_observe, NULL,
                                       NULL,          contact_finish, contact_close};

/* A rotation method inside a contact solver on a rigid body with a contact
 * (bodyrun.h): the solver's step a plan step, the states measured as a
 * rotation method's are, the contact's measures at the end. */
typedef struct {
    vb_run base;
    vb_rigid_metrics rm;
    double t; /* the time of the state observe reported */
    vb_bodyrun br;
    int ready; /* br was set up: vb_bodyrun_free */
} body_run;

static int body_start(vb_run *run, const double *s0, double h, vb_run_result *res)
{
    (void)h, (void)res;
    body_run *r = (body_run *)run;
    vb_rigid_metrics_init(&r->rm, vb_rigid_body_of(run->model));
    vb_bodyrun_start(&r->br, s0, s0 + run->model->n);
    return 0;
}

static int body_observe(vb_run *run, double t_next, double h, double *s, vb_run_result *res)
{
    body_run *r = (body_run *)run;
    r->t = t_next;
    int st = vb_bodyrun_step(&r->br, t_next - h, h, s, s + run->model->n);
    if (st == VB_BODY_OK)
        return 0;
    res->status = VB_STATUS_DIVERGED;
    if (!res->failure) {
        char why[256];
        snprintf(why, sizeof why, "%s (%s, code %d)", vb_bodyrun_why(st),
                 vb_composed_of(run->entry)->solver->name, st);
        res->failure = strdup(why);
    }
    return -1;
}

static const char *body_measure(vb_run *run, const double *s, const double *xe,
                                const double *ve, const vb_exact_size *size)
{
    body_run *r = (body_run *)run;
    return measure_body(run, &r->rm, r->t, s, xe, ve, size);
}

static void body_finish(vb_run *run, const vb_plan_spec *spec, const vb_plan *plan,
                        const vb_truth *truth, const double *last, vb_run_result *res)
{
    body_run *r = (body_run *)run;
    vb_run_finish(run->model, spec, plan, &run->m, last, run->force.evals, truth, res);
    vb_rigid_metrics_finish(&r->rm, res);
    vb_bodyrun_finish(&r->br, res);
}

static void body_close(vb_run *run)
{
    body_run *r = (body_run *)run;
    if (r->ready)
        vb_bodyrun_free(&r->br);
    free(r);
}

static const vb_run_ops body_ops = {body_start, NULL,        body_observe, body_measure,
                                    NULL,       body_finish, body_close};

/* A rotation method inside a contact solver on a stack of boxes
 * (stackrun.h): the solver's step a plan step over the whole world, the
 * boxes' centres reported (the model's face: what the errors are of), the
 * stack's measures at the end. */
typedef struct {
    vb_run base;
    const vb_composed *cm;
    vb_body_step_fn *step; /* the rotation method's */
    vb_stack_world sw;
    int ready; /* sw was set up: vb_stack_world_free */
} world_run;

static int world_start(vb_run *run, const double *s0, double h, vb_run_result *res)
{
    (void)s0, (void)h, (void)res;
    vb_stack_world_start(&((world_run *)run)->sw);
    return 0;
}

static int world_observe(vb_run *run, double t_next, double h, double *s, vb_run_result *res)
{
    world_run *r = (world_run *)run;
    int st = vb_stack_world_step(&r->sw, r->cm->solver, &r->cm->params, r->step, t_next, h);
    vb_stack_world_centres(&r->sw, s, s + run->model->n);
    if (st == VB_BODY_OK)
        return 0;
    res->status = VB_STATUS_DIVERGED;
    if (!res->failure) {
        char why[256];
        snprintf(why, sizeof why, "%s (%s, code %d)", vb_bodyrun_why(st), r->cm->solver->name,
                 st);
        res->failure = strdup(why);
    }
    return -1;
}

static void world_finish(vb_run *run, const vb_plan_spec *spec, const vb_plan *plan,
                         const vb_truth *truth, const double *last, vb_run_result *res)
{
    world_run *r = (world_run *)run;
    vb_run_finish(run->model, spec, plan, &run->m, last, run->force.evals, truth, res);
    vb_stack_result sr;
    vb_stack_world_finish(&r->sw, &sr);
    unsigned keys = r->cm->solver->keys; /* a key the solver has not: NaN */
    res->stack = (vb_stack_measures){.has = 1,
                                     .drift_max = sr.drift_max,
                                     .speed_rms = sr.speed_rms,
                                     .depth_max = sr.depth_max,
                                     .t_collapse = sr.t_collapse,
                                     .iterations = keys & VB_KEY_ITERATIONS
                                                       ? (double)r->cm->params.iterations
                                                       : (double)NAN,
                                     .substeps = keys & VB_KEY_SUBSTEPS
                                                     ? (double)r->cm->params.substeps
                                                     : (double)NAN};
}

static void world_close(vb_run *run)
{
    world_run *r = (world_run *)run;
    if (r->ready)
        vb_stack_world_free(&r->sw);
    free(r);
}

static const vb_run_ops world_ops = {world_start, NULL,         world_observe, NULL,
                                     NULL,        world_finish, world_close};

/* the run of a METHOD+SOLVER entry on a stack */
static vb_run *world_open(const vb_integrator *r, const vb_composed *cm, const vb_model *m)
{
    const vb_rigid_method *rm = vb_rigid_entry_method(cm->inner);
    world_run *wr = calloc(1, sizeof *wr);
    char err[256];
    if (!wr || !rm || vb_stack_world_init(&wr->sw, vb_stack_of(m), cm->solver, err, sizeof err)) {
        free(wr);
        return NULL;
    }
    wr->ready = 1;
    wr->cm = cm;
    wr->step = rm->step;
    wr->base.ops = &world_ops;
    wr->base.entry = r;
    wr->base.model = m;
    wr->base.force = vb_model_force(m);
    return &wr->base;
}

/* the run of a METHOD+SOLVER entry */
static vb_run *body_open(const vb_integrator *r, const vb_composed *cm, const vb_model *m)
{
    body_run *br = calloc(1, sizeof *br);
    if (!br)
        return NULL;
    br->base.ops = &body_ops;
    br->base.entry = r;
    br->base.model = m;
    br->base.force = vb_model_force(m);
    if (vb_bodyrun_init(&br->br, cm, m) != 0) {
        vb_bodyrun_free(&br->br);
        free(br);
        return NULL;
    }
    br->ready = 1;
    return &br->base;
}

vb_run *vb_run_open(const vb_integrator *r, const vb_model *m, const vb_plan_spec *plan)
{
    const vb_engine *e = vb_engine_of(r);
    const vb_loop *l = vb_loop_of(r);
    const vb_composed *cm = vb_composed_of(r);
    vb_run *run;
    if (cm && cm->solver) {
        return vb_stack_of(m) ? world_open(r, cm, m) : body_open(r, cm, m);
    } else if (cm) {
        contact_run *cr = calloc(1, sizeof *cr);
        if (!cr)
            return NULL;
        cr->base.ops = &contact_ops;
        run = &cr->base;
        run->entry = r;
        run->model = m;
        run->force = vb_model_force(m);
        if (vb_contactrun_init(&cr->cr, cm, m, &run->force) != 0) {
            contact_close(run);
            return NULL;
        }
        cr->ready = 1;
        return run;
    } else if (e) {
        engine_run *er = calloc(1, sizeof *er);
        if (!er)
            return NULL;
        er->base.ops = &engine_ops;
        if (vb_rigid_body_of(m)) {
            if (!(er->rm = calloc(1, sizeof *er->rm))) {
                free(er);
                return NULL;
            }
            er->base.ops = &rigid_engine_ops;
        }
        if (vb_model_type_has_wall(m->type)) {
            /* a body at a contact: its rows' series, measured at the end */
            if (!(er->cr = calloc(1, sizeof *er->cr)) ||
                vb_contactrun_init(er->cr, NULL, m, NULL) != 0) {
                free(er->cr);
                free(er->rm);
                free(er);
                return NULL;
            }
        }
        if (vb_bodyrun_applies(m)) {
            /* a rigid body on the ground: its rows measured as a solver's
             * states are (bodyrun.h) */
            if (!(er->br = calloc(1, sizeof *er->br)) || vb_bodyrun_init(er->br, NULL, m) != 0) {
                if (er->br)
                    vb_bodyrun_free(er->br);
                free(er->br);
                free(er->rm);
                free(er);
                return NULL;
            }
        }
        if (vb_stack_of(m)) {
            /* a stack of bodies: its rows' states measured as a solver's
             * world is (stackrun.h) */
            char err[256];
            if (!(er->sw = calloc(1, sizeof *er->sw)) ||
                vb_stack_world_init(er->sw, vb_stack_of(m), NULL, err, sizeof err) != 0) {
                free(er->sw);
                free(er->rm);
                free(er);
                return NULL;
            }
        }
        er->engine = e;
        er->plan = plan;
        run = &er->base;
    } else if (l) {
        loop_run *lr = calloc(1, sizeof *lr);
        if (!lr)
            return NULL;
        lr->base.ops = &loop_ops;
        /* vb_frameloop_init leaves it to be freed either way */
        lr->ready = 1;
        if (vb_frameloop_init(&lr->fl, l, m, plan->level) != 0) {
            loop_close(&lr->base);
            return NULL;
        }
        run = &lr->base;
    } else {
        /* a rotation method on a rigid body: a method's run and more */
        int rigid = vb_integrator_rigid_method(r) && vb_rigid_body_of(m);
        method_run *mr = calloc(1, rigid ? sizeof(rigid_run) : sizeof *mr);
        if (!mr)
            return NULL;
        mr->base.ops = rigid ? &rigid_ops : &method_ops;
        mr->base.plain = !rigid;
        mr->plan = plan;
        if (!(mr->base.method_state = calloc(1, r->state_size(m->n)))) {
            free(mr);
            return NULL;
        }
        run = &mr->base;
    }
    run->entry = r;
    run->model = m;
    run->force = vb_model_force(m);
    return run;
}

void vb_run_close(vb_run *run)
{
    if (run)
        run->ops->close(run);
}
