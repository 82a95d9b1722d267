/* runner.c — what each kind of runner can do, asked in one place: the
 * only file above the kinds' own folders that tells an engine from a frame
 * loop from an integrator of the table (runner.h). */
#include "runner.h"

#include <stdio.h>
#include <string.h>

#include "integrator.h"
#include "loop.h"
#include "plugin.h"
#include "rigid.h"

vb_state_shape vb_state_of_model(const vb_model *m)
{
    return (vb_state_shape){VB_STATE_PARTICLES, 2 * m->n};
}

vb_state_shape vb_state_of_rigid_body(void)
{
    return (vb_state_shape){VB_STATE_RIGID_BODY, VB_RIGID_COMPONENTS};
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
    const vb_integrator *method = vb_loop_inner(r);
    int adaptive = (r->flags & VB_ADAPTIVE) != 0;
    vb_runner_caps c = {.state = vb_state_of_model(m),
                        .refines = adaptive                   ? VB_REFINES_TOL
                                   : vb_loop_holds_frames(r) ? VB_REFINES_PHYSICS_DT
                                                             : VB_REFINES_DT,
                        /* a method of the table on its own: an engine's steps
                         * and a loop's frames cannot be turned round or started
                         * from history, and an adaptive method chooses steps
                         * that are not the plan's */
                        .reverses = !e && !l && !adaptive,
                        .one_step = !e && !l && !adaptive,
                        .external = e != NULL,
                        .draws = l != NULL,
                        .builtin = !e && vb_integrator_builtin(method),
                        .precision = VB_FLOAT64,
                        .velocity = VB_VELOCITY_STATE,
                        .method = method};
    c.isolated = !e && vb_plugin_code(method, m);
    c.timed = !e && !l;
    if (e) {
        vb_engine_caps ec;
        if (vb_engine_caps_of(e, &ec)) {
            c.precision = ec.precision;
            c.substeps = ec.substeps;
        }
        c.velocity = vb_engine_velocity_of(r);
    }
    return c;
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
    const char *name = vb_integrator_type(vb_loop_inner(r))->name;
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

