/* rigid_metrics.c — a rigid body's run measured beside the errors every
 * run has (rigid_metrics.h). */
#include "rigid_metrics.h"

#include <math.h>

#include "metrics.h" /* vb_relative_change */
#include "quaternion.h"

/* the errors of s against e, both unpacked */
static vb_rigid_errors errors(const vb_rigid_body *b, const vb_rigid_state *s,
                              const vb_rigid_state *e)
{
    double dw[3] = {s->w[0] - e->w[0], s->w[1] - e->w[1], s->w[2] - e->w[2]};
    return (vb_rigid_errors){
        .att = vb_quat_angle_between(e->q, s->q),
        .angvel = vb_vec3_norm(dw),
        .angmom = vb_rigid_angmom_drift(&b->model.props, s, b->L0, b->L0_norm)};
}

vb_rigid_errors vb_rigid_errors_of(const vb_rigid_body *b, const double *x, const double *v,
                                   const double *xe, const double *ve)
{
    vb_rigid_state s, e;
    vb_rigid_face_unpack(x, v, &s);
    vb_rigid_face_unpack(xe, ve, &e);
    return errors(b, &s, &e);
}

void vb_rigid_metrics_init(vb_rigid_metrics *m, const vb_rigid_body *b)
{
    const vb_rigid_props *p = &b->model.props;
    m->body = b;
    m->att_max = m->angvel_max = m->angmom_max = 0.0;
    int axis = vb_rigid_intermediate_axis(p->inertia);
    vb_flip_tracker_start(&m->flips, axis, VB_FLIP_THRESHOLD);
    vb_flip_tracker_start(&m->flips_exact, axis, VB_FLIP_THRESHOLD);
    vb_flip_tracker_add(&m->flips, p, 0.0, &b->start);
    vb_flip_tracker_add(&m->flips_exact, p, 0.0, &b->start);
}

const char *vb_rigid_metrics_add(vb_rigid_metrics *m, double t, const double *x, const double *v,
                                 const double *xe, const double *ve)
{
    vb_rigid_state s, e;
    vb_rigid_face_unpack(x, v, &s);
    vb_rigid_face_unpack(xe, ve, &e);
    vb_rigid_errors d = errors(m->body, &s, &e);
    if (!isfinite(d.att))
        return "attitude error";
    if (!isfinite(d.angvel))
        return "angular velocity error";
    if (!isfinite(d.angmom))
        return "angular momentum error";
    if (d.att > m->att_max)
        m->att_max = d.att;
    if (d.angvel > m->angvel_max)
        m->angvel_max = d.angvel;
    if (d.angmom > m->angmom_max)
        m->angmom_max = d.angmom;
    const vb_rigid_props *p = &m->body->model.props;
    vb_flip_tracker_add(&m->flips, p, t, &s);
    vb_flip_tracker_add(&m->flips_exact, p, t, &e);
    return NULL;
}

void vb_rigid_metrics_finish(const vb_rigid_metrics *m, vb_run_result *res)
{
    res->has_attitude = 1;
    /* a body at a contact is turned by its contact's torque: its L is
     * not kept, so no drift of it is an error */
    vb_body_contact c;
    res->has_angmom = !vb_rigid_model_contact(&m->body->model, &c);
    res->flips = m->flips.flips;
    res->flips_exact = m->flips_exact.flips;
    /* where the flips are regular (rigid_analysis.h); never after a tumble,
     * where the motion that follows is set by round-off (docs/rigid.md §4) */
    int tumbled = m->flips_exact.flips == 0 && m->flips.flips > 0;
    res->flip_period = tumbled ? (double)NAN : vb_flip_tracker_period(&m->flips);
    /* the exact period of w(t), in which the body flips twice; none where
     * w is constant (0) or never returns (the separatrix) */
    double w_period = m->body->w_period;
    res->flip_period_exact = isfinite(w_period) && w_period > 0.0 ? w_period : (double)NAN;
    /* a stable spin's tumble is its first flip, where the exact motion
     * flips not at all (else a flip is the motion, and no tumble is asked
     * of it): the first time the body turns over (docs/rigid.md §4) */
    res->t_tumble = tumbled ? m->flips.first_flip : (double)NAN;
    if (res->status == VB_STATUS_OK) {
        res->err_att_max = m->att_max;
        res->err_angvel_max = m->angvel_max;
        res->err_angmom_max = m->angmom_max;
    } else {
        res->err_att_max = res->err_angvel_max = res->err_angmom_max = INFINITY;
    }
    if (!res->has_angmom) /* unmeasured is 0, as for every other run (shard files hold it) */
        res->err_angmom_max = 0.0;
}
