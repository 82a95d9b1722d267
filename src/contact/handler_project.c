/* contact/handler_project.c — project: step, then resolve the overlap at
 * the step's end, as most hand-written game code does.
 *
 *   (x, v) <- step(x, v, t, h)
 *   s, n   <- the nearest face at x (geometry.h)
 *   if s < 0:  x <- x - s n                     (moved out along the normal)
 *              u = -n.v;  if u > 0:
 *                  J = (1 + e) u   if u >= vth   (bounce: leaves at e u)
 *                    =       u     otherwise     (rests: normal velocity 0)
 *                  v <- v + J n, and the tangential velocity cut by at
 *                  most mu J (Coulomb over the impact's impulse)
 *
 * What it costs in energy (docs/contact.md): the step that crosses the
 * face at time delta before its end leaves the ball at depth
 * p = u delta + g delta^2 / 2 (velocity Verlet, constant gravity g), moving
 * at u + g delta; moved out and reflected at e = 1 it leaves at u + g delta
 * from the face, so each bounce raises the apex by exactly p. */
#include "handler.h"

#include <string.h>

static int step(const vb_contact_geometry *g, vb_contact_step_fn *stepfn, void *ctx, double *x,
                double *v, double t, double h)
{
    unsigned d = g->dim;
    if (stepfn(ctx, x, v, t, h) != 0 || !vb_contact_finite(d, x, v))
        return VB_CONTACT_STEP_FAILED;
    vb_contact_face f;
    vb_contact_nearest_face(g, x, &f);
    if (!(f.separation < 0.0))
        return VB_CONTACT_OK;
    for (unsigned i = 0; i < d; i++)
        x[i] -= f.separation * f.normal[i];
    double u = -vb_contact_dot(d, f.normal, v);
    if (u > 0.0) {
        double J = u >= g->threshold ? (1.0 + g->restitution) * u : u;
        double dv[VB_CONTACT_MAX_DIM] = {0.0, 0.0, 0.0};
        vb_contact_friction(d, f.normal, g->friction, J, v, dv);
        for (unsigned i = 0; i < d; i++)
            v[i] += J * f.normal[i] + dv[i];
    }
    return VB_CONTACT_OK;
}

static double blind(const vb_contact_geometry *g)
{
    (void)g;
    return 0.0;
}

const vb_contact_handler vb_contact_project = {
    .name = "project",
    .summary = "step, then move out of an overlap along the normal; reflect the normal velocity "
               "times e (0 below vth)",
    .step = step,
    .blind = blind,
};
