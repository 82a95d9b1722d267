/* bodyrun.c — a rotation method inside a contact solver, and its contact
 * measures (bodyrun.h). */
#include "bodyrun.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "incline.h"
#include "quaternion.h" /* vb_vec3_dot */
#include "rigid.h"
#include "rigid_method.h"

int vb_bodyrun_applies(const vb_model *m)
{
    const vb_rigid_body *b = vb_rigid_body_of(m);
    vb_body_contact c;
    return b && vb_rigid_model_contact(&b->model, &c);
}

int vb_bodyrun_init(vb_bodyrun *br, const vb_composed *cm, const vb_model *m)
{
    memset(br, 0, sizeof *br);
    br->cm = cm;
    br->body = vb_rigid_body_of(m);
    if (!br->body || vb_composed_body_world(m, &br->contact, &br->b, &br->w) != 0 ||
        !vb_rigid_model_answer(&br->body->model, &br->answer))
        return -1;
    if (cm) {
        /* a solver round a rotation method; an engine's rows need neither */
        const vb_rigid_method *rm = vb_rigid_entry_method(cm->inner);
        if (!rm || !cm->solver)
            return -1;
        br->step = rm->step;
    }
    const vb_rigid_model_type *t = br->body->model.type;
    if (t->work_alloc && !(br->work = t->work_alloc(br->body->model.self)))
        return -1;
    return vb_contact_cache_init(&br->cache, 1);
}

void vb_bodyrun_free(vb_bodyrun *br)
{
    if (br->work && br->body->model.type->work_free)
        br->body->model.type->work_free(br->work);
    vb_contact_cache_free(&br->cache);
    free(br->t);
    free(br->x);
    free(br->v);
    free(br->u);
    free(br->gap);
    free(br->vn);
    memset(br, 0, sizeof *br);
}

static int grow(vb_bodyrun *br)
{
    size_t cap = br->cap ? 2 * br->cap : 1024;
    double **s[] = {&br->t, &br->x, &br->v, &br->u, &br->gap, &br->vn};
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
        double *p = realloc(*s[i], cap * sizeof *p);
        if (!p)
            return -1;
        *s[i] = p;
    }
    br->cap = cap;
    return 0;
}

/* the body's state at t, read in the incline's frame, and what it adds to
 * the running maxima (NaN kept: a state not finite is a diverged run) */
static void record(vb_bodyrun *br, double t)
{
    if (br->oom || (br->len == br->cap && (br->oom = grow(br) != 0)))
        return;
    const vb_rigid_state *s = &br->b.s;
    vb_incline_reading r;
    vb_incline_read(&br->contact, s, &r);
    br->t[br->len] = t;
    br->x[br->len] = r.along;
    br->v[br->len] = r.v_along;
    br->u[br->len] = r.slip;
    br->gap[br->len] = r.separation;
    br->vn[br->len] = r.v_normal;
    br->len++;
    double depth = -vb_body_separation(&br->contact, s);
    if (!(depth <= br->depth_max))
        br->depth_max = depth;
    vb_rigid_state e;
    const vb_rigid_model *m = &br->body->model;
    if (m->type->exact(m->self, br->work, t, &e) == 0) {
        double gap = fabs(vb_rigid_energy(&m->props, s) - vb_rigid_energy(&m->props, &e));
        if (!(gap <= br->energy_gap))
            br->energy_gap = gap;
        double ve = sqrt(e.v[0] * e.v[0] + e.v[1] * e.v[1] + e.v[2] * e.v[2]);
        if (ve > br->v_exact_max)
            br->v_exact_max = ve;
    } else {
        br->energy_gap = NAN;
    }
}

void vb_bodyrun_start(vb_bodyrun *br, const double *x0, const double *v0)
{
    vb_rigid_face_unpack(x0, v0, &br->b.s);
    for (size_t i = 0; i < br->cache.n; i++)
        memset(&br->cache.m[i], 0, sizeof br->cache.m[i]);
    br->len = 0;
    br->depth_max = 0.0;
    br->energy_gap = 0.0;
    br->v_exact_max = 0.0;
    record(br, 0.0);
}

int vb_bodyrun_step(vb_bodyrun *br, double t, double h, double *x, double *v)
{
    int st = vb_body_solver_step(br->cm->solver, &br->w, &br->cache, &br->cm->params, br->step, h);
    if (st == VB_BODY_OK && !vb_rigid_finite(&br->b.s))
        st = VB_BODY_DIVERGED;
    vb_rigid_face_pack(&br->b.s, x, v);
    if (st == VB_BODY_OK)
        record(br, t + h);
    return st;
}

void vb_bodyrun_observe(vb_bodyrun *br, double t, const double *x, const double *v)
{
    vb_rigid_face_unpack(x, v, &br->b.s);
    record(br, t);
}

const char *vb_bodyrun_why(int code)
{
    switch (code) {
    case VB_BODY_DIVERGED:
        return "the contact solver's step left a state that is not finite";
    case VB_BODY_UNSUPPORTED:
        return "the contact solver met an impact it cannot resolve exactly";
    case VB_BODY_NO_ROOT:
        return "the contact solver could not locate an event in the step";
    default:
        return "the contact solver's step failed";
    }
}

void vb_body_path(const vb_rigid_body *b, const double *x, const double *v, double *out)
{
    vb_body_contact c;
    if (!vb_rigid_model_contact(&b->model, &c)) {
        out[0] = out[1] = NAN;
        return;
    }
    vb_rigid_state s;
    vb_rigid_face_unpack(x, v, &s);
    vb_incline_reading r;
    vb_incline_read(&c, &s, &r);
    out[0] = r.v_along;
    out[1] = r.v_along - r.slip;
}

/* the first sample at or after t (len when none) */
static size_t sample_from(const vb_bodyrun *br, double t)
{
    size_t k = 0;
    while (k < br->len && br->t[k] < t)
        k++;
    return k;
}

/* the least-squares slope of v against t over samples from..len */
static double slope_from(const vb_bodyrun *br, size_t from)
{
    size_t n = br->len - from;
    if (from >= br->len || n < 3)
        return NAN;
    double mt = 0.0, mv = 0.0, stt = 0.0, stv = 0.0;
    for (size_t k = from; k < br->len; k++)
        mt += br->t[k], mv += br->v[k];
    mt /= (double)n, mv /= (double)n;
    for (size_t k = from; k < br->len; k++) {
        double dt = br->t[k] - mt;
        stt += dt * dt;
        stv += dt * (br->v[k] - mv);
    }
    return stv / stt;
}

/* the least-squares line of v against t over samples from..len, at time
 * at; NaN with fewer than 3 samples */
static double line_at(const vb_bodyrun *br, size_t from, double at)
{
    double a = slope_from(br, from);
    if (isnan(a))
        return NAN;
    double mt = 0.0, mv = 0.0;
    for (size_t k = from; k < br->len; k++)
        mt += br->t[k], mv += br->v[k];
    mt /= (double)(br->len - from), mv /= (double)(br->len - from);
    return mv + a * (at - mt);
}

/* A dropped ball whose slip ended at its impact: sample k-1 the last in
 * flight, k the first that rolls.  t_roll is placed at the landing, where
 * the lowest point's gap at k-1 falls to 0 under gravity's pull along n
 * (within the step: 0 for a ball already sunk), the distance there by the
 * flight's constant acceleration along the slope, and the speed just after
 * the impact: v at k, back by the rolling acceleration of samples k, k + 1
 * to t_roll.  A method exact on a parabola puts all three on the exact
 * impact's. */
static void landing(const vb_bodyrun *br, size_t k, vb_contact_result *c)
{
    const double *t = br->t, *g = br->body->model.props.gravity;
    double gn = vb_vec3_dot(g, br->contact.plane.normal), gd = vb_vec3_dot(g, br->contact.along);
    double span = t[k] - t[k - 1], gap = br->gap[k - 1], vn = br->vn[k - 1], tau = 0.0;
    if (gap > 0.0) /* gap + vn tau + gn tau^2/2 = 0, vn < 0 and gn <= 0: the root that is > 0 */
        tau = 2.0 * gap / (-vn + sqrt(vn * vn - 2.0 * gn * gap));
    if (!(tau <= span))
        tau = span;
    c->t_roll = t[k - 1] + tau;
    c->s_roll = br->x[k - 1] + br->v[k - 1] * tau + 0.5 * gd * tau * tau;
    double dv = k + 1 < br->len ? (br->v[k + 1] - br->v[k]) / (t[k + 1] - t[k]) : 0.0;
    c->v_roll = br->v[k] - dv * (t[k] - c->t_roll);
}

/* A round body's start of rolling from its states: the first sample k
 * whose slip has come within 1e-3 of the initial slip to 0 (a soft or
 * regularised contact never takes the last of it: slip_max says what
 * remains; a rigid solver's is round-off), and the crossing
 * placed on the line of the last two slipping samples (the slip falls
 * linearly while the body slips, so a step that lands on u = 0, as toi's
 * does, still gives t* to round-off), the distance and speed there by the
 * same constant acceleration.  One slipping sample: the line to sample k.
 * A dropped ball (the answer's t_land > 0) whose sample k-1 still falls
 * (its speed into the plane above the same 1e-3 of u0) stopped slipping at
 * its impact: landing() places it; one that slipped on after landing takes
 * the line of its last two slipping samples on the plane (the last one's
 * and k's where the one before it still fell). */
static void roll_start(const vb_bodyrun *br, vb_contact_result *c)
{
    const double *t = br->t, *x = br->x, *v = br->v, *u = br->u;
    double sign = u[0] > 0.0 ? 1.0 : -1.0, eps = 1e-3 * fabs(u[0]);
    int dropped = br->answer.t_land > 0.0;
    size_t k = 0;
    while (k < br->len && sign * u[k] > eps)
        k++;
    if (k == br->len) {
        c->t_roll = INFINITY;
        return;
    }
    if (k == 0) {
        c->t_roll = 0.0, c->s_roll = x[0], c->v_roll = v[0];
    } else if (dropped && br->vn[k - 1] < -eps) {
        landing(br, k, c);
    } else {
        size_t a = k >= 2 ? k - 2 : 0, b = k >= 2 ? k - 1 : k;
        if (dropped && br->vn[a] < -eps)
            a = k - 1, b = k;
        double du = (u[b] - u[a]) / (t[b] - t[a]), dv = (v[b] - v[a]) / (t[b] - t[a]);
        double span = t[k] - t[k - 1];
        double tau = sign * du < 0.0 ? -u[k - 1] / du : span;
        if (!(tau >= 0.0))
            tau = 0.0;
        if (tau > span)
            tau = span;
        c->t_roll = t[k - 1] + tau;
        c->s_roll = x[k - 1] + v[k - 1] * tau + 0.5 * dv * tau * tau;
        c->v_roll = v[k - 1] + dv * tau;
    }
    double worst = 0.0;
    size_t settled = k; /* the sample from which the slip changes by at most eps a step */
    for (size_t j = k; j < br->len; j++) {
        if (!(fabs(u[j]) <= worst))
            worst = fabs(u[j]);
        if (j > k && !(fabs(u[j] - u[j - 1]) <= eps))
            settled = j;
    }
    c->slip_max = worst;
    /* A slip that overshot (a soft or regularised contact, an impact)
     * slips on the other way before it rolls: the speed where the slip
     * first ended is not the speed it rolls at.  v_roll is then the rolling
     * motion's: from the sample after which the slip changes by at most
     * eps a step (a ball sunk in the plane rolls with a steady slip v - w R:
     * it settles at once), the least-squares line of v against t over the
     * second half of what follows (past the last of the slip's decay),
     * taken back to t_roll (on the flat, the speed it keeps); blank where it
     * never settles. */
    if (settled > k)
        c->v_roll = line_at(br, settled + (br->len - settled) / 2, c->t_roll);
}

/* A body that must stick from t_stop on: its displacement since, and its
 * speed over the second half of that time (past the first steps' settling). */
static void creep(const vb_bodyrun *br, vb_contact_result *c)
{
    size_t k0 = sample_from(br, br->answer.t_stop), last = br->len - 1;
    if (k0 >= last)
        return;
    c->creep = br->x[last] - br->x[k0];
    c->creep_exact = 0.0;
    size_t mid = sample_from(br, 0.5 * (br->t[k0] + br->t[last]));
    if (mid < last)
        c->creep_speed = (br->x[last] - br->x[mid]) / (br->t[last] - br->t[mid]);
}

void vb_bodyrun_finish(vb_bodyrun *br, vb_run_result *res)
{
    vb_contact_result *c = &res->contact;
    *c = (vb_contact_result){.has = 1, .kind = 0, .body = 1};
    vb_contact_result_blank(c);
    const vb_contact_answer *a = &br->answer;
    if (a->round) {
        c->t_roll_exact = a->t_roll;
        c->s_roll_exact = a->s_roll;
        c->v_roll_exact = a->v_roll;
    }
    if (a->sticks)
        c->creep_exact = 0.0;
    if (res->status != VB_STATUS_OK || br->oom || br->len < 2)
        return;
    c->depth_max = br->depth_max;
    if (a->round)
        roll_start(br, c);
    if (a->sticks)
        creep(br, c);
    /* the last phase: from its exact start, and a round body's measured
     * one, whichever is later */
    const double *g = br->body->model.props.gravity;
    double gn = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    double from = a->t_last;
    if (a->round && isfinite(c->t_roll) && c->t_roll > from)
        from = c->t_roll;
    if (gn > 0.0)
        c->a_err = (slope_from(br, sample_from(br, from)) - a->accel) / gn;
    /* the energy's scale: the largest exact kinetic energy of the centre,
     * and m g times the centre's height over the ground (a body at rest
     * has no other) */
    double m = br->body->model.props.mass;
    double height = vb_plane_separation(&br->contact.plane, br->body->start.x);
    double scale = 0.5 * m * br->v_exact_max * br->v_exact_max + m * gn * height;
    /* not for a dropped ball: its energy falls by the landing's normal
     * kinetic energy at once, and a run that lands a step from the exact
     * impact is that far off at a sample, whatever its contact does after */
    if (scale > 0.0 && !(a->t_land > 0.0))
        c->energy_err = br->energy_gap / scale;
}
