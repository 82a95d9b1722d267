/* simulate.c — the driver of runs: integrators under one plan, the truth
 * computed once per step. */
#include "simulate.h"

#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "quaternion.h"
#include "rigid.h"
#include "integrator.h"
#include "runner.h"
#include "metrics.h"
#include "truth.h"

/* ---- trajectory files ---- */

/* A row: the time, the state reported (v NULL: a run without velocity,
 * whose velocity and energy cells are empty) and the truth's */
typedef struct traj_point {
    double t;
    const double *x, *v, *xe, *ve;
} traj_point;

#define POINT(p) ((const traj_point *)(p))
#define MODEL(t) ((const vb_model *)(t))

static vb_cell traj_t(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_x(POINT(row)->t);
}

/* a state, its velocity, the truth's (col->at 0 to 3): its names
 * (x, v for one particle in 1-D; x, y, vx, vy or x1, y1, ..., vx1, ...),
 * each _exact for the truth's; or its cells (blank for no velocity) */
static void traj_state(FILE *f, const vb_column *c, const void *t, const void *row)
{
    const vb_model *m = MODEL(t);
    int velocity = c->at % 2, exact = c->at >= 2;
    const double *q = !row       ? NULL
                      : exact    ? (velocity ? POINT(row)->ve : POINT(row)->xe)
                      : velocity ? POINT(row)->v
                                 : POINT(row)->x;
    for (size_t i = 0; i < m->n; i++) {
        if (i)
            fputc(',', f);
        if (!row) {
            char name[64];
            vb_state_column(name, sizeof name, m, velocity, i);
            fprintf(f, "%s%s", name, exact ? "_exact" : "");
        } else if (q) {
            fprintf(f, "%.17g", q[i]);
        }
    }
}

static vb_cell traj_err_pos(const vb_column *c, const void *t, const void *row)
{
    (void)c;
    return vb_cell_x(vb_distance(POINT(row)->x, POINT(row)->xe, MODEL(t)->n));
}

/* the energy of the state reported (not its error); blank where the model
 * has none or the run no velocity */
static vb_cell traj_energy(const vb_column *c, const void *t, const void *row)
{
    (void)c;
    const vb_model *m = MODEL(t);
    const traj_point *p = POINT(row);
    return m->type->energy && p->v ? vb_cell_x(m->type->energy(m->self, p->x, p->v))
                                   : vb_cell_blank();
}

#define GROUP(name, which) {name, VB_FMT_GROUP, NULL, which, 0, traj_state, 0, VB_READ, 0, 0, 0, 0}
static const vb_column trajectory_columns[] = {
    {"t", VB_FMT_REAL, traj_t, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    GROUP("x", 0),
    GROUP("v", 1),
    GROUP("x_exact", 2),
    GROUP("v_exact", 3),
    {"err_pos", VB_FMT_REAL, traj_err_pos, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    {"energy", VB_FMT_REAL, traj_energy, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
};
const vb_schema vb_trajectory_schema = VB_SCHEMA("sim --trajectory", trajectory_columns);

/* A rigid body's columns (rigid.h: its face's packed state), each with its
 * _exact twin, the frames said on a line before them */
static const char *const rigid_columns[VB_RIGID_COMPONENTS] = {
    "x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"};

/* a rigid body's row: its packed state and the truth's, the attitude's
 * angle from the truth's, its energy */
typedef struct rigid_point {
    double t, c[VB_RIGID_COMPONENTS], ce[VB_RIGID_COMPONENTS], att, energy;
} rigid_point;

/* the packed state (col->at 0) or the truth's (1): names or cells */
static void rigid_state(FILE *f, const vb_column *c, const void *t, const void *row)
{
    (void)t;
    const rigid_point *p = row;
    for (int i = 0; i < VB_RIGID_COMPONENTS; i++)
        if (!p)
            fprintf(f, "%s%s%s", i ? "," : "", rigid_columns[i], c->at ? "_exact" : "");
        else
            fprintf(f, "%s%.17g", i ? "," : "", c->at ? p->ce[i] : p->c[i]);
}

#define RIGID(f) offsetof(rigid_point, f)
static const vb_column rigid_trajectory_columns[] = {
    {"t", VB_FMT_REAL, vb_get_real_always, RIGID(t), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    {"state", VB_FMT_GROUP, NULL, 0, 0, rigid_state, 0, VB_READ, 0, 0, 0, 0},
    {"state_exact", VB_FMT_GROUP, NULL, 1, 0, rigid_state, 0, VB_READ, 0, 0, 0, 0},
    {"err_att", VB_FMT_REAL, vb_get_real_always, RIGID(att), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    {"energy", VB_FMT_REAL, vb_get_real_always, RIGID(energy), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
};
const vb_schema vb_rigid_trajectory_schema =
    VB_SCHEMA("sim --trajectory (a rigid body)", rigid_trajectory_columns);

static void rigid_trajectory_header(FILE *f)
{
    fputs("# frames: x,y,z and vx,vy,vz the centre of mass and its velocity, world; "
          "qw,qx,qy,qz the attitude, world from body; wx,wy,wz the angular velocity, BODY "
          "frame (principal axes); err_att the angle of q_exact* q (rad); energy rotational "
          "plus translational (docs/rigid.md)\n",
          f);
    vb_schema_header(f, &vb_rigid_trajectory_schema, 0);
}

static void rigid_trajectory_row(FILE *f, const vb_model *model, double t, const double *x,
                                 const double *v, const double *xe, const double *ve)
{
    vb_rigid_state s, e;
    vb_rigid_face_unpack(x, v, &s);
    vb_rigid_face_unpack(xe, ve, &e);
    rigid_point p = {.t = t};
    vb_rigid_pack(&s, p.c);
    vb_rigid_pack(&e, p.ce);
    p.att = vb_quat_angle_between(e.q, s.q);
    /* the body's own energy (a body at a contact has no energy error, its
     * face no energy: friction takes it; the state still has one) */
    p.energy = vb_rigid_energy(&vb_rigid_body_of(model)->model.props, &s);
    vb_schema_row(f, &vb_rigid_trajectory_schema, 0, NULL, &p);
}

static int rigid_model(const vb_model *m) { return vb_rigid_body_of(m) != NULL; }

void vb_trajectory_header(FILE *f, const vb_model *m)
{
    if (rigid_model(m)) {
        rigid_trajectory_header(f);
        return;
    }
    vb_schema_header_of(f, &vb_trajectory_schema, 0, m);
}

/* v NULL: a run without velocity, whose velocity and energy cells are empty */
static void trajectory_row(FILE *f, const vb_model *model, double t, const double *x,
                           const double *v, const double *xe, const double *ve)
{
    if (rigid_model(model)) {
        rigid_trajectory_row(f, model, t, x, v, xe, ve);
        return;
    }
    vb_schema_row(f, &vb_trajectory_schema, 0, model, &(traj_point){t, x, v, xe, ve});
}

/* ---- the grid ---- */

/* The runs of a grid: each runner's run (runner.h), its reported state
 * (caps.state.size doubles) and whether it goes on. */
typedef struct {
    vb_run *run;
    double *s;
    int live;
} run_slot;

/* a run the driver stops: its kind lets go of what it holds */
static void halt(run_slot *r)
{
    r->live = 0;
    if (r->run->ops->halt)
        r->run->ops->halt(r->run);
}

/* A grid's runs as they go: each integrator's slot and result, the model's
 * coordinates (n: x[n], v[n]) and how many runs go on (live). */
typedef struct {
    const vb_grid_spec *spec;
    vb_run_result *res;
    run_slot *run;
    size_t n, k_n, live;
} grid_runs;

/* Each integrator's run opened on the model, with room for the state it
 * reports, as its runner says: the model's x[N], v[N] for every runner of
 * a particle model, more for a state of its own. */
static int open_runs(grid_runs *g, char *err, size_t errlen)
{
    const vb_grid_spec *spec = g->spec;
    for (size_t k = 0; k < g->k_n; k++) {
        vb_state_shape shape = vb_state_of_model(spec->model);
        run_slot *s = &g->run[k];
        s->run = vb_run_open(spec->integ[k], spec->model, &spec->plan);
        s->s = calloc(shape.size > 2 * g->n ? shape.size : 2 * g->n, sizeof *s->s);
        if (!s->run || !s->s) {
            snprintf(err, errlen, "out of memory for the state of %s", spec->integ[k]->name);
            return -1;
        }
    }
    return 0;
}

/* t = 0: every run is where the model begins (x0, v0), its error 0, and
 * the trajectory and on_step see it there before any step. */
static void begin_at_initial(grid_runs *g, const double *x0, const double *v0)
{
    const vb_grid_spec *spec = g->spec;
    if (spec->trajectory) {
        vb_trajectory_header(spec->trajectory, spec->model);
        trajectory_row(spec->trajectory, spec->model, 0.0, x0, v0, x0, v0);
    }
    for (size_t k = 0; k < g->k_n; k++) {
        vb_metrics_init(&g->run[k].run->m, spec->model, x0, v0);
        memcpy(g->run[k].s, x0, g->n * sizeof *x0);
        g->res[k].status = VB_STATUS_OK;
        if (spec->on_step)
            spec->on_step(spec->on_step_ctx, k, 0.0, x0, v0, x0, v0);
    }
}

/* Every run started from S0 (x0, v0) with the plan's first step H; those
 * that start go on (live).  A run of positions alone has its velocity
 * unmeasured, and its reported velocity stays 0. */
static void start_runs(grid_runs *g, const double *s0, double h)
{
    for (size_t k = 0; k < g->k_n; k++) {
        vb_run *r = g->run[k].run;
        int started = r->ops->start(r, s0, h, &g->res[k]) == 0;
        if (r->no_velocity) {
            vb_metrics_drop_velocity(&r->m);
            memset(g->run[k].s + g->n, 0, g->n * sizeof *g->run[k].s);
        }
        if (started) {
            g->run[k].live = 1;
            g->live++;
        }
    }
}

/* Every live run takes its step from T by H.  All step before any reports
 * where it is (observe_live): the steps of different runs are independent,
 * and side by side the processor overlaps them (one run's step is a chain
 * of dependent operations that the next one's would wait on in a loop that
 * read each run's state back after its step). */
static void advance_live(grid_runs *g, double t, double h)
{
    for (size_t k = 0; k < g->k_n; k++) {
        vb_run *r = g->run[k].run;
        if (!g->run[k].live)
            continue;
        if (r->plain) /* its advance, without the call to it */
            r->entry->step(r->method_state, &r->force, t, h);
        else if (r->ops->advance)
            r->ops->advance(r, t, h);
    }
}

/* Every live run reports where it is at T_NEXT; one that cannot, or whose
 * state is not finite (diverged), stops.  Returns how many reported a
 * finite state. */
static size_t observe_live(grid_runs *g, double t_next, double h)
{
    const size_t n = g->n;
    size_t finite = 0;
    for (size_t k = 0; k < g->k_n; k++) {
        if (!g->run[k].live)
            continue;
        vb_run *r = g->run[k].run;
        vb_run_result *res = &g->res[k];
        if (r->plain) /* its observe, which cannot fail */
            r->entry->observe(r->method_state, g->run[k].s, g->run[k].s + n);
        else if (r->ops->observe(r, t_next, h, g->run[k].s, res) != 0) {
            /* the step it stopped at counts, as a NaN's does below:
             * step N is the row at t_N that the run could not use,
             * whether it is not finite, bad or never came
             * (docs/method.md §4, fail_step) */
            res->steps++;
            g->run[k].live = 0;
            g->live--;
            continue;
        }
        res->steps++;
        if (vb_all_finite(g->run[k].s, g->run[k].s + n, n)) {
            finite++;
        } else {
            res->status = VB_STATUS_DIVERGED;
            if (r->force.stopped) /* the method said why it stopped */
                res->failure = strdup(r->force.stopped);
            halt(&g->run[k]);
            g->live--;
        }
    }
    return finite;
}

/* The truth at T (into XE, VE) once for all the live runs, and each one
 * measured against it and recorded (the trajectory, on_step).  A NaN from
 * the truth must not pass for a zero error: every live run stops,
 * exact-failed; a run its measure refuses stops, unmeasurable. */
static void measure_live(grid_runs *g, vb_truth *truth, double t, double *xe, double *ve)
{
    const vb_grid_spec *spec = g->spec;
    const size_t n = g->n;
    int truth_ok = vb_truth_at(truth, t, xe, ve) == 0 && vb_all_finite(xe, ve, n);
    vb_exact_size size;
    if (truth_ok)
        vb_exact_sums(&size, xe, ve, n);
    for (size_t k = 0; k < g->k_n; k++) {
        if (!g->run[k].live)
            continue;
        if (!truth_ok) {
            g->res[k].status = VB_STATUS_EXACT_FAILED;
            g->run[k].live = 0;
            g->live--;
            continue;
        }
        vb_run *r = g->run[k].run;
        const double *x = g->run[k].s, *v = g->run[k].s + n;
        const char *bad = r->ops->measure ? r->ops->measure(r, g->run[k].s, xe, ve, &size)
                                          : vb_metrics_add_sized(&r->m, x, v, xe, ve, &size);
        if (bad) {
            vb_run_unmeasurable(&g->res[k], bad);
            halt(&g->run[k]);
            g->live--;
            continue;
        }
        if (r->no_velocity)
            v = NULL;
        if (spec->trajectory)
            trajectory_row(spec->trajectory, spec->model, t, x, v, xe, ve);
        if (spec->on_step)
            spec->on_step(spec->on_step_ctx, k, t, x, v, xe, ve);
    }
}

int vb_simulate_grid(const vb_grid_spec *spec, vb_run_result *res, char *err, size_t errlen)
{
    const vb_model *model = spec->model;
    size_t n = model->n, k_n = spec->n_integ;
    run_slot *run = calloc(k_n ? k_n : 1, sizeof *run);
    grid_runs g = {.spec = spec, .res = res, .run = run, .n = n, .k_n = k_n, .live = 0};
    double *buf = malloc(4 * n * sizeof *buf); /* x0, v0, xe, ve */
    vb_truth *truth = vb_truth_alloc_shared(model, spec->reference);
    vb_plan plan;
    int begun = 0, rc = -1;

    for (size_t k = 0; k < k_n; k++)
        memset(&res[k], 0, sizeof res[k]);
    if (!run || !buf || !truth) {
        snprintf(err, errlen, "out of memory for the runs of %s", model->type->name);
        goto done;
    }
    if (open_runs(&g, err, errlen) != 0)
        goto done;
    if (vb_plan_begin(&plan, &spec->plan) != 0) {
        snprintf(err, errlen, "out of memory for the random generator");
        goto done;
    }
    begun = 1;

    double *x0 = buf, *v0 = buf + n, *xe = buf + 2 * n, *ve = buf + 3 * n;
    model->type->initial(model->self, x0, v0);
    begin_at_initial(&g, x0, v0);
    double t = 0.0, h, t_next;
    if (vb_plan_next(&plan, &h, &t_next))
        start_runs(&g, buf, h);
    while (g.live) {
        advance_live(&g, t, h);
        size_t finite = observe_live(&g, t_next, h);
        t = t_next;
        if (!finite)
            break;
        measure_live(&g, truth, t, xe, ve);
        if (!vb_plan_next(&plan, &h, &t_next))
            break;
    }
    for (size_t k = 0; k < k_n; k++)
        run[k].run->ops->finish(run[k].run, &spec->plan, &plan, truth, run[k].s, &res[k]);
    if (spec->trajectory && ferror(spec->trajectory)) {
        snprintf(err, errlen, "writing the trajectory failed: %s", strerror(errno));
        goto done;
    }
    rc = 0;
done:
    if (begun)
        vb_plan_end(&plan);
    for (size_t k = 0; run && k < k_n; k++) {
        vb_run_close(run[k].run);
        free(run[k].s);
    }
    free(run);
    free(buf);
    vb_truth_free(truth);
    return rc;
}

int vb_simulate(const vb_run_spec *spec, vb_run_result *res, char *err, size_t errlen)
{
    const vb_integrator *integ[1] = {spec->integ};
    vb_grid_spec g = {spec->model, spec->plan,        integ, 1, spec->trajectory,
                      spec->on_step, spec->on_step_ctx, NULL};
    return vb_simulate_grid(&g, res, err, errlen);
}

void vb_run_describe(FILE *out, const vb_run_spec *spec)
{
    const vb_model_type *type = spec->model->type;
    const vb_plan_spec *p = &spec->plan;
    fprintf(out, "model=%s", type->name);
    for (unsigned i = 0; i < type->n_params; i++)
        fprintf(out, " %s=%.17g", type->params[i].name, spec->model->p[i]);
    fprintf(out, " integrator=%s plan=%s t_end=%.17g", spec->integ->name, vb_plan_name(p->kind),
            vb_plan_t_end(p));
    if (p->kind != VB_PLAN_TRACE)
        fprintf(out, " dt=%.17g", p->dt);
    if (p->kind == VB_PLAN_RANDOM)
        fprintf(out, " jitter=%.17g seed=%lu", p->jitter, p->seed);
}
