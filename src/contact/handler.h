/* contact/handler.h — the ways game code handles a contact, as pure step
 * functions composed with a one-step integrator.
 *
 * The interface.  A handler is given the integrator's step as a callback,
 *     step(ctx, x, v, t, h): advance (x, v) from time t by h > 0, in place,
 * which it may call as often as it likes, on copies of the state and with
 * steps of any length in (0, h]: so it can try a step, split it, or apply
 * an impulse before it.  The callback is a one-step method started afresh
 * at every call (stepper.h wraps an integrator of the table so): (x, v) is
 * the whole state.  A handler keeps no state either: one handler step maps
 * (x, v) at t to (x, v) at t + h, and the same inputs give the same bits.
 *
 * The three handlers (docs/contact.md has their updates and derivations):
 *   project  step; then a ball that overlaps the nearest face is moved out
 *            along its normal, and an approaching normal velocity u leaves
 *            as e u (as 0 when u < vth);
 *   impulse  Box2D's sequential impulse in v3's order: the approach speed
 *            u0 is read before the step (before gravity's kick); an
 *            impulse applied to the velocity before the step makes the
 *            step end on the face (non-penetration, speculative within
 *            the speculative distance); after the step the normal velocity
 *            is raised to e u0 when the contact pushed and u0 >= vth;
 *            friction cuts the tangential velocity by at most mu times the
 *            normal impulse;
 *   toi      event location: the step is tried, and when it crosses the
 *            face the time of impact inside it is found (the crossing of
 *            the face's plane, so no step jumps a wall), the step is split
 *            there, the normal velocity reflected (times e, or to rest
 *            below vth), and the rest of the step taken; a ball resting on
 *            the face slides under Coulomb friction with the moment it
 *            sticks located the same way.  With velocity Verlet under a
 *            constant force it is exact to round-off.
 * Where the ball rests, all three hold it on the face (toi and project
 * exactly; impulse to within the step's drift of the kick). */
#ifndef VB_CONTACT_HANDLER_H
#define VB_CONTACT_HANDLER_H

#include "geometry.h"

/* The integrator's step: 0, or nonzero when it cannot go on. */
typedef int vb_contact_step_fn(void *ctx, double *x, double *v, double t, double h);

/* What a handler step returns: 0, or one of these (the run is then
 * diverged: never a silent NaN). */
enum {
    VB_CONTACT_OK = 0,
    VB_CONTACT_STEP_FAILED = 1, /* the callback failed or gave a state not finite */
    VB_CONTACT_NO_ROOT = 2      /* toi: the time of impact could not be bracketed */
};

typedef struct vb_contact_handler {
    const char *name;    /* as typed: project, impulse, toi */
    const char *summary; /* one line */
    int (*step)(const vb_contact_geometry *g, vb_contact_step_fn *step, void *ctx, double *x,
                double *v, double t, double h);
    /* Where the tunnel's worst phase starts (contact_metrics.h): the
     * largest separation at a step's start from which the step moves the
     * ball a whole v dt before the wall acts on it.  0 for project (it
     * acts at the step's end, on an overlap), the speculative distance for
     * impulse (it sees the wall from there on), INFINITY for toi (it sees
     * every crossing: no phase passes). */
    double (*blind)(const vb_contact_geometry *g);
} vb_contact_handler;

extern const vb_contact_handler vb_contact_project, vb_contact_impulse, vb_contact_toi;

/* By name, or NULL. */
const vb_contact_handler *vb_contact_handler_find(const char *name);
/* The table, in the order above, and its size. */
const vb_contact_handler *const *vb_contact_handlers(size_t *n);

/* ---- shared by the handlers' files (inside contact/ only) ---- */

/* A Coulomb impulse: cut the tangential part (to normal n) of ref by at most
 * mu J, never reversing it, and add that change to dv. */
void vb_contact_friction(unsigned d, const double *n, double mu, double J, const double *ref,
                         double *dv);
/* 1 when every component of x and v is finite */
int vb_contact_finite(unsigned d, const double *x, const double *v);

#endif
