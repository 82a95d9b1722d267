/* stackrun.c — a stack inside a contact solver, and its measures
 * (stackrun.h). */
#include "stackrun.h"

#include "composed.h" /* vb_composed_stack_world */
#include "vector.h"   /* vb_distance */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a box's squared speed |v|^2 into the run's sum: the plain sum (its
 * bits) until it would overflow, then, from that box on, the sum in units
 * of 2^1200, each component scaled by 2^-600 (a power of two: exact)
 * before it is squared, so that a finite state has a finite speed_rms.
 * What the plain sum loses to underflow as it goes over is below 2^178
 * m^2/s^2, nothing beside the 2^1023 it had to reach. */
static void add_speed2(vb_stack_world *sw, const double v[3])
{
    if (!sw->speed2_scaled) {
        double sum = sw->speed2 + (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        if (!isinf(sum)) {
            sw->speed2 = sum;
            return;
        }
        sw->speed2 = ldexp(sw->speed2, -1200);
        sw->speed2_scaled = 1;
    }
    for (int i = 0; i < 3; i++)
        sw->speed2 += (v[i] * 0x1p-600) * (v[i] * 0x1p-600);
}

/* what step i's states add to the measures; 1 once a box has moved by
 * half its edge (the NaN of a state that is not finite kept in the
 * maxima).  The displacement is vb_distance's: the plain sum's bits, and
 * finite where its square overflows. */
static void measure(vb_stack_world *sw, double t)
{
    const vb_stack *s = sw->stack;
    const vb_contact_world *w = &sw->w;
    vb_stack_result *r = &sw->res;
    for (int k = 0; k < s->n; k++) {
        vb_rigid_state e;
        vb_stack_exact(s, k, t, &e);
        const vb_rigid_state *st = &w->body[k].s;
        double d = vb_distance(st->x, e.x, 3);
        if (!(d <= r->drift_max))
            r->drift_max = d;
        add_speed2(sw, st->v);
        if (!(d < 0.5 * s->size) && isnan(r->t_collapse))
            r->t_collapse = t;
    }
    double depth = vb_world_depth(w);
    if (!(depth <= r->depth_max))
        r->depth_max = depth;
}

int vb_stack_world_init(vb_stack_world *sw, const vb_stack *s, const vb_body_solver *solver,
                        char *err, size_t errlen)
{
    memset(sw, 0, sizeof *sw);
    sw->stack = s;
    if (vb_composed_stack_world(s, &sw->w) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (solver && vb_body_solver_accepts(solver, &sw->w, err, errlen) != 0) {
        free(sw->w.body);
        sw->w.body = NULL;
        return -1;
    }
    if (vb_contact_cache_init(&sw->cache, sw->w.n) != 0) {
        free(sw->w.body);
        sw->w.body = NULL;
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    vb_stack_world_start(sw);
    return 0;
}

void vb_stack_world_start(vb_stack_world *sw)
{
    const vb_stack *s = sw->stack;
    for (int k = 0; k < s->n; k++)
        vb_stack_exact(s, k, 0.0, &sw->w.body[k].s);
    for (size_t i = 0; i < sw->cache.n; i++)
        memset(&sw->cache.m[i], 0, sizeof sw->cache.m[i]);
    sw->res = (vb_stack_result){.t_collapse = (double)NAN};
    sw->speed2 = 0.0;
    sw->speed2_scaled = 0;
}

int vb_stack_world_step(vb_stack_world *sw, const vb_body_solver *solver,
                        const vb_solver_params *params, vb_body_step_fn *method,
                        double t_next, double h)
{
    int rc = vb_body_solver_step(solver, &sw->w, &sw->cache, params, method, h);
    for (size_t k = 0; rc == VB_BODY_OK && k < sw->w.n; k++)
        if (!vb_rigid_finite(&sw->w.body[k].s))
            rc = VB_BODY_DIVERGED;
    sw->res.t_stop = t_next;
    if (rc != VB_BODY_OK) {
        sw->res.code = rc;
        return rc;
    }
    sw->res.steps++;
    measure(sw, t_next);
    return VB_BODY_OK;
}

int vb_stack_world_observe(vb_stack_world *sw, const vb_rigid_state *states, double t)
{
    sw->res.t_stop = t;
    for (size_t k = 0; k < sw->w.n; k++)
        if (!vb_rigid_finite(&states[k])) {
            sw->res.code = VB_BODY_DIVERGED;
            return VB_BODY_DIVERGED;
        }
    for (size_t k = 0; k < sw->w.n; k++)
        sw->w.body[k].s = states[k];
    sw->res.steps++;
    measure(sw, t);
    return VB_BODY_OK;
}

void vb_stack_world_centres(const vb_stack_world *sw, double *x, double *v)
{
    for (size_t k = 0; k < sw->w.n; k++) {
        memcpy(x + 3 * k, sw->w.body[k].s.x, sizeof sw->w.body[k].s.x);
        memcpy(v + 3 * k, sw->w.body[k].s.v, sizeof sw->w.body[k].s.v);
    }
}

void vb_stack_world_finish(vb_stack_world *sw, vb_stack_result *res)
{
    double rms = sqrt(sw->speed2 / ((double)sw->res.steps * sw->stack->n));
    sw->res.speed_rms = !sw->res.steps ? (double)NAN : sw->speed2_scaled ? 0x1p600 * rms : rms;
    *res = sw->res;
}

void vb_stack_world_free(vb_stack_world *sw)
{
    if (sw->w.body)
        vb_contact_cache_free(&sw->cache);
    free(sw->w.body);
    memset(sw, 0, sizeof *sw);
}

int vb_stack_run(const vb_stack_spec *sp, vb_stack_result *res, vb_rigid_state *final,
                 char *err, size_t errlen)
{
    const vb_stack *s = sp->stack;
    double steps = sp->t_end / sp->dt;
    if (!(sp->dt > 0.0) || !(steps >= 1.0) || fabs(steps - nearbyint(steps)) > 1e-9 * steps) {
        snprintf(err, errlen, "t_end = %g is no whole number of steps of dt = %g", sp->t_end,
                 sp->dt);
        return -1;
    }
    size_t n_steps = (size_t)nearbyint(steps);
    vb_stack_world sw;
    if (vb_stack_world_init(&sw, s, sp->solver, err, errlen) != 0)
        return -1;
    for (size_t i = 0; i < n_steps; i++)
        if (vb_stack_world_step(&sw, sp->solver, &sp->params, sp->method,
                                (double)(i + 1) * sp->dt, sp->dt) != VB_BODY_OK)
            break;
    vb_stack_world_finish(&sw, res);
    if (final)
        for (int k = 0; k < s->n; k++)
            final[k] = sw.w.body[k].s;
    vb_stack_world_free(&sw);
    return 0;
}
