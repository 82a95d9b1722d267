/* test_bodyrun.c — a METHOD+SOLVER run's contact measures (driver/
 * bodyrun.c) against closed forms: MuJoCo's regularised contact holds a
 * cube on 30 degrees at mu 0.7 (> tan 30) only by creeping, at the speed
 * vb_regularized_creep derives from its model (docs/contact.md, "MuJoCo's
 * creep in closed form"); the run's creep_speed, measured from its states
 * over the second half of 20 s, is that speed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bodyrun.h"
#include "composed.h"
#include "integrator.h"
#include "model.h"
#include "unit.h"

/* the cube at mu_s (box-incline's defaults otherwise: m 1, edge 0.1, 30
 * degrees) run t_end at hz inside solver with keys (NULL-ended pairs) */
static int run_cube(const char *mu, const char *solver, const char *const *keys, double hz,
                    double t_end, vb_solver_params *p, vb_run_result *res)
{
    char err[256];
    vb_model m;
    memset(&m, 0, sizeof m);
    vb_model_defaults(&m, vb_model_find("box-incline"));
    if (vb_model_set(&m, "mu_s", mu, err, sizeof err) != 0 ||
        vb_model_setup(&m, err, sizeof err) != 0) {
        CHECK(0, "box-incline mu_s %s: %s", mu, err);
        return -1;
    }
    const vb_body_solver *s = vb_body_solver_find(solver);
    vb_body_solver_defaults(s, p);
    for (int i = 0; keys && keys[i]; i += 2)
        CHECK(vb_body_solver_set(s, p, keys[i], keys[i + 1], err, sizeof err) == 0, "%s", err);
    vb_composed *cm = vb_composed_new_solver(vb_integrator_find("rigid-explicit-gyro"), s, p);
    vb_bodyrun br;
    int rc = vb_bodyrun_init(&br, cm, &m);
    CHECK(rc == 0, "bodyrun init");
    memset(res, 0, sizeof *res);
    res->status = VB_STATUS_OK;
    if (rc == 0) {
        double x[VB_RIGID_FACE_N], v[VB_RIGID_FACE_N], h = 1.0 / hz;
        m.type->initial(m.self, x, v);
        vb_bodyrun_start(&br, x, v);
        long n = lround(t_end * hz);
        for (long k = 0; k < n && rc == 0; k++)
            rc = vb_bodyrun_step(&br, (double)k * h, h, x, v);
        if (rc != 0)
            res->status = VB_STATUS_DIVERGED;
        vb_bodyrun_finish(&br, res);
    }
    vb_bodyrun_free(&br);
    vb_composed_free(cm);
    vb_model_free(&m);
    return rc;
}

static void test_regularized_creep_speed(void)
{
    const char *const keys[] = {"cone", "elliptic", NULL};
    for (int i = 0; i < 2; i++) {
        double hz = i ? 240.0 : 60.0;
        vb_solver_params p;
        vb_run_result res;
        if (run_cube("0.7", "regularized", keys, hz, 20.0, &p, &res) != 0)
            continue;
        double want = vb_regularized_creep(&p, 1.0, 0.1, 30.0 * M_PI / 180.0, 0.7, 9.81, 1.0 / hz);
        /* the closed form leaves out the cube's tilt and the contact
         * point's offset, which move the corners' arms by |dist|/a: 4
         * |dist|/a bounds their effect (test_body_solvers.c's bound), dist
         * at most depth_max */
        CHECK(isfinite(want) && want > 0.0, "the elliptic cone creeps at mu 0.7: %g", want);
        CHECK_REL(res.contact.creep_speed, want, 4.0 * res.contact.depth_max / 0.1,
                  "regularized creep_speed at 60/240 Hz");
        CHECK(res.contact.creep_exact == 0.0 && res.contact.creep > 0.0,
              "the creep is measured against 0: %g", res.contact.creep);
    }
}

/* toi holds the cube where rigid Coulomb friction does: not a bit of
 * creep, and the rolling measures blank on a block */
static void test_toi_holds(void)
{
    vb_solver_params p;
    vb_run_result res;
    if (run_cube("0.6", "toi", NULL, 60.0, 2.0, &p, &res) != 0)
        return;
    CHECK(res.contact.creep == 0.0 && res.contact.creep_speed == 0.0 && res.contact.a_err == 0.0,
          "toi at mu 0.6: creep %g, speed %g, a_err %g", res.contact.creep,
          res.contact.creep_speed, res.contact.a_err);
    CHECK(isnan(res.contact.t_roll) && isnan(res.contact.t_roll_exact),
          "a block's rolling measures are blank");
}

void suite_bodyrun(void)
{
    RUN(test_regularized_creep_speed);
    RUN(test_toi_holds);
}
