/* stackrun.c — a stack inside a contact solver, and its measures
 * (stackrun.h). */
#include "stackrun.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the world of the stack's boxes at their start */
static int make_world(const vb_stack *s, vb_contact_world *w)
{
    vb_contact_body *b = calloc((size_t)s->n, sizeof *b);
    if (!b)
        return -1;
    for (int k = 0; k < s->n; k++) {
        vb_stack_exact(s, k, 0.0, &b[k].s);
        vb_stack_props(s, k, &b[k].p);
        vb_stack_shape(s, &b[k].shape);
    }
    *w = (vb_contact_world){.n = (size_t)s->n, .body = b, .mu_s = s->mu, .mu_k = s->mu,
                            .restitution = 0.0};
    vb_stack_ground(s, &w->ground);
    return 0;
}

/* what step i's states add to the measures; 1 once a box has moved by
 * half its edge (the NaN of a state that is not finite kept in the maxima) */
static void measure(const vb_stack *s, const vb_contact_world *w, double t, vb_stack_result *r,
                    double *speed2)
{
    for (int k = 0; k < s->n; k++) {
        vb_rigid_state e;
        vb_stack_exact(s, k, t, &e);
        const vb_rigid_state *st = &w->body[k].s;
        double d2 = 0.0, v2 = 0.0;
        for (int i = 0; i < 3; i++) {
            d2 += (st->x[i] - e.x[i]) * (st->x[i] - e.x[i]);
            v2 += st->v[i] * st->v[i];
        }
        double d = sqrt(d2);
        if (!(d <= r->drift_max))
            r->drift_max = d;
        *speed2 += v2;
        if (!(d < 0.5 * s->size) && isnan(r->t_collapse))
            r->t_collapse = t;
    }
    double depth = vb_world_depth(w);
    if (!(depth <= r->depth_max))
        r->depth_max = depth;
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
    vb_contact_world w;
    vb_contact_cache cache;
    if (make_world(s, &w) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (vb_body_solver_accepts(sp->solver, &w, err, errlen) != 0) {
        free(w.body);
        return -1;
    }
    if (vb_contact_cache_init(&cache, w.n) != 0) {
        free(w.body);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    *res = (vb_stack_result){.t_collapse = (double)NAN};
    double speed2 = 0.0;
    for (size_t i = 0; i < n_steps; i++) {
        int rc = vb_body_solver_step(sp->solver, &w, &cache, &sp->params, sp->method, sp->dt);
        double t = (double)(i + 1) * sp->dt;
        res->t_stop = t;
        if (rc != VB_BODY_OK) {
            res->code = rc;
            break;
        }
        res->steps++;
        measure(s, &w, t, res, &speed2);
    }
    res->speed_rms = res->steps ? sqrt(speed2 / ((double)res->steps * s->n)) : (double)NAN;
    if (final)
        for (int k = 0; k < s->n; k++)
            final[k] = w.body[k].s;
    vb_contact_cache_free(&cache);
    free(w.body);
    return 0;
}
