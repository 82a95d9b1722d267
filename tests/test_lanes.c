/* test_lanes.c — runs in lockstep lanes are the runs alone, bit for bit.
 *
 * The truth here is vb_simulate, the scalar driver every other suite checks
 * against exact solutions: a lane must do the same operations in the same
 * order, so any difference at all (one ulp in one error norm, one force
 * evaluation) is a bug in a batched entry point — a step taken with the
 * wrong lane's h, a coefficient formed in another order, a finished or
 * diverged lane leaking into a live one. */
#include <stdio.h>
#include <string.h>

#include "lanes.h"
#include "simulate.h"
#include "unit.h"

/* Every field of two results, bits compared (NaN == NaN, 0 != -0). */
static int same_result(const vb_run_result *a, const vb_run_result *b, char *what, size_t len)
{
#define SAME(f)                                                                                  \
    if (memcmp(&a->f, &b->f, sizeof a->f) != 0) {                                                \
        snprintf(what, len, #f);                                                                 \
        return 0;                                                                                \
    }
    SAME(dt) SAME(t_end) SAME(steps) SAME(force_evals) SAME(err_pos_final) SAME(err_pos_max)
    SAME(err_pos_rms) SAME(err_vel_final) SAME(err_vel_max) SAME(err_energy_max)
    SAME(err_angmom_max) SAME(has_energy) SAME(has_angmom) SAME(status) SAME(fail_step)
    SAME(pos_scale) SAME(vel_scale) SAME(err_momentum_max) SAME(has_momentum) SAME(err_return)
    SAME(has_return) SAME(has_reference) SAME(ref_err_pos) SAME(ref_err_vel)
#undef SAME
    return 1;
}

/* n lanes of integ on m with the given plans, each against vb_simulate.
 * Returns the number of lanes that differ. */
static int lanes_vs_alone(const vb_integrator *integ, const vb_model *m, const vb_plan_spec *plans,
                          size_t n, const char *label)
{
    vb_run_spec specs[VB_LANES];
    vb_run_result lanes[VB_LANES], alone;
    char err[256], what[64];
    for (size_t i = 0; i < n; i++)
        specs[i] = (vb_run_spec){.integ = integ, .model = m, .plan = plans[i]};
    if (vb_simulate_lanes(specs, n, lanes, err, sizeof err) != 0) {
        CHECK(0, "%s %s on %s: %s", label, integ->name, m->type->name, err);
        return (int)n;
    }
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        CHECK(vb_simulate(&specs[i], &alone, err, sizeof err) == 0, "alone: %s", err);
        if (!same_result(&lanes[i], &alone, what, sizeof what)) {
            CHECK(0, "%s %s on %s, lane %zu: %s differs (steps %llu vs %llu, err_pos_max %.17g vs %.17g)",
                  label, integ->name, m->type->name, i, what, lanes[i].steps, alone.steps,
                  lanes[i].err_pos_max, alone.err_pos_max);
            bad++;
        }
        vb_run_result_clear(&lanes[i]); /* why a run diverged, when it says */
        vb_run_result_clear(&alone);
    }
    return bad;
}

static const char *const model_names[] = {"projectile", "spring", "damped-spring", "pendulum",
                                          "orbit"};
#define N_MODELS (sizeof model_names / sizeof model_names[0])

/* Eight random plans of one dt (a sweep's seeds), and a mix: other dts, a
 * fixed plan, ends at other times — lanes that finish first keep stepping. */
static void random_and_mixed_plans(double T, vb_plan_spec *seeds, vb_plan_spec *mixed)
{
    for (int i = 0; i < VB_LANES; i++) {
        seeds[i] = (vb_plan_spec){.kind = VB_PLAN_RANDOM, .t_end = T, .dt = T / 200.0,
                                  .jitter = 0.5, .seed = (unsigned long)(i + 1)};
        mixed[i] = (vb_plan_spec){.kind = i % 3 ? VB_PLAN_RANDOM : VB_PLAN_FIXED,
                                  .t_end = T * (0.5 + 0.1 * i), .dt = T / (100.0 + 37.0 * i),
                                  .jitter = 0.5, .seed = (unsigned long)(100 + i)};
    }
}

static void test_lanes_equal_runs_alone(void)
{
    int bad = 0, runs = 0;
    for (size_t k = 0; k < N_MODELS; k++) {
        vb_model m = test_model(model_names[k], NULL);
        double T = m.type->natural_time(m.self);
        vb_plan_spec seeds[VB_LANES], mixed[VB_LANES];
        random_and_mixed_plans(T, seeds, mixed);
        for (size_t g = 0; g < vb_integrator_count(); g++) {
            const vb_integrator *integ = vb_integrator_at(g);
            /* the nine methods of the article and SPEC have lanes; the
             * ones added after rk4 run one at a time */
            CHECK(g > 8 || vb_simulate_lanes_supports(integ), "%s has no lanes", integ->name);
            if (!vb_simulate_lanes_supports(integ))
                continue;
            bad += lanes_vs_alone(integ, &m, seeds, VB_LANES, "seeds");
            bad += lanes_vs_alone(integ, &m, mixed, VB_LANES, "mixed");
            bad += lanes_vs_alone(integ, &m, mixed + 2, 3, "three lanes");
            runs += 2 * VB_LANES + 3;
        }
    }
    unit_note("%d runs in lanes, every integrator on every model: %d differ from alone", runs, bad);
}

/* A model without a batched force law: the lanes call its scalar one. */
static void test_lanes_without_model_lanes(void)
{
    vb_model m = test_model("orbit", NULL);
    m.accel_lanes = NULL;
    vb_plan_spec seeds[VB_LANES], mixed[VB_LANES];
    random_and_mixed_plans(m.type->natural_time(m.self), seeds, mixed);
    for (size_t g = 0; g < vb_integrator_count(); g++)
        if (vb_simulate_lanes_supports(vb_integrator_at(g)))
            lanes_vs_alone(vb_integrator_at(g), &m, mixed, VB_LANES, "scalar force");
}

/* Euler on a stiff spring: the lanes with the long step overflow and are
 * reported diverged at the step the scalar run reports; the others finish
 * untouched. */
static void test_lanes_diverged_lane_leaves_others(void)
{
    const char *const sets[] = {"k=100", NULL};
    vb_model m = test_model("spring", sets);
    double T = m.type->natural_time(m.self);
    vb_plan_spec p[VB_LANES];
    for (int i = 0; i < VB_LANES; i++)
        p[i] = (vb_plan_spec){.kind = VB_PLAN_FIXED, .t_end = 400.0 * T,
                              .dt = i % 2 ? T : T / 2000.0};
    vb_run_spec specs[VB_LANES];
    vb_run_result res[VB_LANES];
    char err[256];
    const vb_integrator *euler = test_integrator("euler");
    for (int i = 0; i < VB_LANES; i++)
        specs[i] = (vb_run_spec){.integ = euler, .model = &m, .plan = p[i]};
    CHECK(vb_simulate_lanes(specs, VB_LANES, res, err, sizeof err) == 0, "%s", err);
    for (int i = 0; i < VB_LANES; i++) {
        CHECK((res[i].status == VB_STATUS_DIVERGED) == (i % 2 == 1),
              "lane %d: status %s", i, vb_status_name(res[i].status));
        vb_run_result_clear(&res[i]);
    }
    lanes_vs_alone(euler, &m, p, VB_LANES, "diverging");
}

void suite_lanes(void)
{
    RUN(test_lanes_equal_runs_alone);
    RUN(test_lanes_without_model_lanes);
    RUN(test_lanes_diverged_lane_leaves_others);
}
