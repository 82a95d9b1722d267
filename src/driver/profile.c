/* profile.c — what a case is, described once from its model and its
 * entries (profile.h). */
#include "profile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bodyrun.h" /* vb_body_path */
#include "result.h" /* vb_whole_periods */
#include "rigid_metrics.h"
#include "walls.h"

vb_state_desc vb_state_desc_of(const vb_model *m)
{
    const vb_rigid_body *b = vb_rigid_body_of(m);
    vb_body_contact contact;
    if (b && vb_rigid_model_contact(&b->model, &contact))
        /* a body at a contact: its speed along the slope and w R, which
         * the charts draw beside the exact ones (no polhode: the contact
         * turns w); at every fixed step, as w */
        return (vb_state_desc){
            .shape = vb_state_of_model(m), .body = b, .path_width = VB_BODY_PATH_WIDTH,
            .bodies = 1, .path_dim = VB_BODY_PATH_WIDTH, .path_read = vb_body_path,
            .path_period = (double)INFINITY, .path_every_step = 1, .errors = VB_STATE_ERRORS,
            .pose = "attitude"};
    if (b) /* the path of w, body frame: the face's v is (v, w, 0) */
        return (vb_state_desc){
            .shape = vb_state_of_model(m), .body = b, .path_at = m->n + 3, .path_width = 3,
            .bodies = 1, .path_dim = 3,
            .path_period = isfinite(b->w_period) && b->w_period > 0.0 ? b->w_period : (double)INFINITY,
            .path_every_step = 1, .errors = VB_STATE_ERRORS, .pose = "attitude"};
    return (vb_state_desc){.shape = vb_state_of_model(m), .path_at = 0, .path_width = m->n,
                           .bodies = m->particles, .path_dim = m->type->dim,
                           .path_period = (double)INFINITY, .errors = 0, .pose = "position"};
}

size_t vb_state_errors(const vb_state_desc *d, const double *x, const double *v,
                       const double *xe, const double *ve, double *out)
{
    if (!d->body)
        return 0;
    vb_rigid_errors e = vb_rigid_errors_of(d->body, x, v, xe, ve);
    out[0] = e.att;
    out[1] = e.angmom;
    return VB_STATE_ERRORS;
}

/* the measures of the runs of entries with caps c[0..n) on m up to t_end */
static unsigned measures_of(const vb_model *m, const vb_state_desc *st, const vb_runner_caps *c,
                            size_t n, double t_end)
{
    const vb_model_type *t = m->type;
    unsigned bits = 0;
    if (t->energy)
        bits |= VB_MEASURE_ENERGY;
    /* a rigid body's world L (not one at a contact: its torque turns L);
     * particles', where the force conserves it in a plane or space */
    vb_body_contact contact;
    int touches = st->body && vb_rigid_model_contact(&st->body->model, &contact);
    if ((st->body && !touches) || ((t->flags & VB_CONSERVES_ANGMOM) && t->dim >= 2))
        bits |= VB_MEASURE_ANGMOM;
    if (t->flags & VB_CONSERVES_MOMENTUM)
        bits |= VB_MEASURE_MOMENTUM;
    if ((t->flags & VB_PERIODIC) && vb_whole_periods(m, t_end))
        bits |= VB_MEASURE_RETURN;
    if (vb_model_constrained(m))
        bits |= VB_MEASURE_CONSTRAINT;
    if (st->body)
        bits |= VB_MEASURE_ATTITUDE;
    vb_model_wall w;
    int bounce = vb_model_wall_of(m, &w) && w.kind == VB_WALL_BOUNCE;
    for (size_t i = 0; i < n; i++) {
        if (c[i].draws)
            bits |= VB_MEASURE_DRAWN;
        if (c[i].contact)
            bits |= VB_MEASURE_CONTACT | (bounce ? VB_MEASURE_BOUNCES : 0u);
        if (c[i].refines == VB_REFINES_TOL)
            bits |= VB_MEASURE_TOLERANCE;
        if (c[i].stack)
            bits |= VB_MEASURE_STACK;
    }
    return bits;
}

int vb_profile_make(vb_profile *p, const vb_model *m, const vb_integrator *const *integ,
                    size_t n, double t_end)
{
    memset(p, 0, sizeof *p);
    size_t room = n ? n : 1;
    p->caps = malloc(room * sizeof *p->caps);
    p->in_workers = malloc(room * sizeof *p->in_workers);
    p->rated = malloc(room * sizeof *p->rated);
    p->own_step = malloc(room * sizeof *p->own_step);
    p->declaring = malloc(room * sizeof *p->declaring);
    p->plugin = calloc(room, 1);
    p->halves = calloc(room, 1);
    if (!p->caps || !p->in_workers || !p->rated || !p->own_step || !p->plugin || !p->halves ||
        !p->declaring) {
        vb_profile_free(p);
        return -1;
    }
    p->n = n;
    p->state = vb_state_desc_of(m);
    int plugin = 0;
    for (size_t i = 0; i < n; i++) {
        p->caps[i] = vb_runner_caps_of(integ[i], m);
        p->plugin[i] = p->caps[i].isolated != 0;
        plugin |= p->plugin[i];
    }
    for (size_t i = 0; i < n; i++) {
        const vb_runner_caps *c = &p->caps[i];
        /* an engine's runs are a process of their own already */
        if (plugin && !c->external)
            p->in_workers[p->n_in_workers++] = i;
        if (!c->external)
            p->rated[p->n_rated++] = i;
        else
            p->declaring[p->n_declaring++] = i;
        if (c->refines == VB_REFINES_PHYSICS_DT)
            p->own_step[p->n_own_step++] = i;
        p->halves[i] = c->refines == VB_REFINES_DT;
    }
    p->measures = measures_of(m, &p->state, p->caps, n, t_end);
    return 0;
}

void vb_profile_free(vb_profile *p)
{
    free(p->caps);
    free(p->in_workers);
    free(p->rated);
    free(p->own_step);
    free(p->plugin);
    free(p->halves);
    free(p->declaring);
    memset(p, 0, sizeof *p);
}

size_t vb_profile_split(const vb_profile *p, const size_t *units, const size_t *entry, size_t n,
                        size_t *here, size_t *n_here, size_t *there)
{
    size_t nt = 0, nh = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = entry ? entry[k] : units[k];
        if (p->plugin[i])
            there[nt++] = units[k];
        else
            here[nh++] = units[k];
    }
    *n_here = nh;
    return nt;
}
