/* contactrun.c — a method inside a contact handler, and its contact
 * measures (contactrun.h). */
#include "contactrun.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact_metrics.h"

/* the handler's step callback (handler.h): the method started afresh at
 * (x, v), one step of h, read back (as contact/stepper.c does, with the
 * parameters of the case's instance of the method) */
static int method_step(void *ctx, double *x, double *v, double t, double h)
{
    vb_contactrun *cr = ctx;
    const vb_integrator *g = cr->cm->inner;
    vb_integrator_set_params(g, cr->state);
    cr->force->stopped = NULL;
    g->start(cr->state, cr->force, t, x, v, h);
    g->step(cr->state, cr->force, t, h);
    g->observe(cr->state, x, v);
    if (g->finish)
        g->finish(cr->state);
    for (size_t i = 0; i < cr->n; i++)
        if (!isfinite(x[i]) || !isfinite(v[i]))
            return 1;
    return 0;
}

int vb_contactrun_init(vb_contactrun *cr, const vb_composed *cm, const vb_model *m,
                       vb_force *force)
{
    memset(cr, 0, sizeof *cr);
    cr->cm = cm;
    cr->force = force;
    cr->n = m->n;
    if (!vb_model_wall_of(m, &cr->wall) || cr->wall.geom.dim != m->n)
        return -1;
    if (!cm)
        return 0;
    /* calloc: zeroed, and malloc's alignment is good for doubles */
    cr->state = calloc(1, cm->inner->state_size(m->n) ? cm->inner->state_size(m->n) : 1);
    return cr->state ? 0 : -1;
}

void vb_contactrun_free(vb_contactrun *cr)
{
    free(cr->state);
    free(cr->t);
    free(cr->a);
    free(cr->b);
    memset(cr, 0, sizeof *cr);
}

static void record(vb_contactrun *cr, double t)
{
    if (cr->oom)
        return;
    if (cr->len == cr->cap) {
        size_t cap = cr->cap ? 2 * cr->cap : 1024;
        double *nt = realloc(cr->t, cap * sizeof *nt);
        if (nt)
            cr->t = nt;
        double *na = nt ? realloc(cr->a, cap * sizeof *na) : NULL;
        if (na)
            cr->a = na;
        double *nb = na ? realloc(cr->b, cap * sizeof *nb) : NULL;
        if (!nb) {
            cr->oom = 1;
            return;
        }
        cr->b = nb;
        cr->cap = cap;
    }
    cr->t[cr->len] = t;
    if (cr->wall.kind == VB_WALL_SLIDE) {
        cr->a[cr->len] = cr->x[0];
        cr->b[cr->len] = cr->v[0];
    } else {
        vb_contact_normal_series(&cr->wall.geom, cr->x, cr->v, 1, &cr->a[cr->len],
                                 &cr->b[cr->len]);
    }
    cr->len++;
}

void vb_contactrun_start(vb_contactrun *cr, const double *x0, const double *v0)
{
    memcpy(cr->x, x0, cr->n * sizeof *x0);
    memcpy(cr->v, v0, cr->n * sizeof *v0);
    cr->len = 0;
    record(cr, 0.0);
}

int vb_contactrun_step(vb_contactrun *cr, double t, double h, double *x, double *v)
{
    int st = cr->cm->handler->step(&cr->wall.geom, method_step, cr, cr->x, cr->v, t, h);
    memcpy(x, cr->x, cr->n * sizeof *x);
    memcpy(v, cr->v, cr->n * sizeof *v);
    if (st == VB_CONTACT_OK)
        record(cr, t + h);
    return st;
}

void vb_contactrun_observe(vb_contactrun *cr, double t, const double *x, const double *v)
{
    memcpy(cr->x, x, cr->n * sizeof *x);
    memcpy(cr->v, v, cr->n * sizeof *v);
    record(cr, t);
}

/* the bounces the measures keep: the energy after 10 wants 10, the
 * bounce chart VB_CONTACT_APEXES */
#define EVENTS VB_CONTACT_APEXES

static void bounce_measures(const vb_contactrun *cr, vb_contact_result *c)
{
    const vb_bounce *b = cr->wall.bounce;
    vb_bounce_event ev[EVENTS];
    vb_bounce_measures m;
    /* the exact ball's bounces by the run's end: impacts k = 0, 1, ...
     * before it that bounce (k < b->bounces); infinitely many when the
     * run reaches t_inf without a threshold */
    double t_end = cr->t[cr->len - 1];
    if (b->bounces < 0 && b->e < 1.0 && t_end >= b->t_rest) {
        c->bounces_exact = INFINITY;
    } else {
        long k = 0;
        while ((b->bounces < 0 || k < b->bounces) && vb_bounce_impact_time(b, k) <= t_end)
            k++;
        c->bounces_exact = (double)k;
    }
    c->t_rest_exact = b->t_rest;
    if (vb_bounce_measure(cr->t, cr->a, cr->b, cr->len, cr->wall.g_normal, ev, EVENTS, &m) != 0)
        return;
    for (size_t i = 0; i < VB_CONTACT_E_SHOWN && i < m.bounces; i++)
        c->e_bounce[i] = ev[i].e;
    for (size_t i = 0; i < VB_CONTACT_APEXES && i < m.bounces; i++) {
        c->height[i] = ev[i].height;
        c->energy[i] = vb_bounce_energy_ratio(ev, m.bounces, i + 1);
    }
    c->bounces = (double)m.bounces;
    c->t_rest = m.t_rest;
    c->depth_max = m.max_depth;
    /* against e^20, where the exact ball bounces 10 times (at e = 1,
     * e^20 = 1: the energy gained) */
    if (b->e > 0.0 && (b->bounces < 0 || b->bounces >= 10))
        c->gain10 = vb_bounce_energy_ratio(ev, m.bounces, 10) / pow(b->e, 20.0) - 1.0;
}

static void slide_measures(const vb_contactrun *cr, vb_contact_result *c)
{
    const vb_slide *s = cr->wall.slide;
    vb_slide_measures m;
    c->stop_x_exact = isfinite(s->t_stop) ? s->x_stop : (double)INFINITY;
    c->stop_t_exact = s->t_stop;
    if (vb_slide_measure(cr->t, cr->a, cr->b, cr->len, &m) != 0)
        return;
    c->stop_x = m.stopped ? m.x_stop : (double)INFINITY;
    c->stop_t = m.stopped ? m.t_stop : (double)INFINITY;
}

/* The bisection steps the method on a force of its own: its evaluations
 * are not the run's. */
static void tunnel_measures(vb_contactrun *cr, double dt, vb_contact_result *c)
{
    const vb_contact_geometry *g = &cr->wall.geom;
    vb_force own = *cr->force, *run_force = cr->force;
    cr->force = &own;
    c->pass_speed =
        vb_tunnel_pass_speed(cr->cm->handler, g, method_step, cr, dt, 1000.0 * c->pass_bound);
    /* a bisection between a speed that did not pass and one that did (a
     * handler of the table sends a slow ball back): measured */
    c->pass_at_most = c->pass_speed == c->pass_speed ? 0.0 : (double)NAN;
    cr->force = run_force;
}

void vb_contactrun_finish(vb_contactrun *cr, vb_run_result *res)
{
    vb_contact_result *c = &res->contact;
    *c = (vb_contact_result){.has = 1, .kind = (int)cr->wall.kind};
    vb_contact_result_blank(c);
    if (cr->wall.kind == VB_WALL_TUNNEL && res->dt > 0.0) {
        const vb_contact_geometry *g = &cr->wall.geom;
        c->pass_bound = (g->thickness + 2.0 * g->radius) / res->dt;
        if (cr->cm) /* an engine's passing speed: its runner asks the engine */
            tunnel_measures(cr, res->dt, c);
        return;
    }
    if (res->status != VB_STATUS_OK || cr->oom || cr->len < 2) {
        if (cr->wall.kind == VB_WALL_SLIDE) {
            c->stop_x_exact = cr->wall.slide->x_stop;
            c->stop_t_exact = cr->wall.slide->t_stop;
        }
        return;
    }
    if (cr->wall.kind == VB_WALL_BOUNCE)
        bounce_measures(cr, c);
    else if (cr->wall.kind == VB_WALL_SLIDE)
        slide_measures(cr, c);
}
