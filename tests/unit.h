/* unit.h — a small test runner: each test is a function, a test fails if any
 * of its checks fails, the runner keeps going and ends with "N passed, N failed".
 *
 * Every check compares against an independent truth (a closed form, a hand
 * computation, a fact of SPEC.md), never against a number this code printed
 * before.  Tolerances are named constants with the reason for their size. */
#ifndef VB_UNIT_H
#define VB_UNIT_H

#include <float.h>
#include <math.h>
#include <stddef.h>

#include "integrator.h"
#include "model.h"
#include "plan.h"

void unit_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void unit_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void unit_run(const char *name, void (*fn)(void));

#define CHECK(cond, ...)                                                                         \
    do {                                                                                         \
        if (!(cond))                                                                             \
            unit_fail(__FILE__, __LINE__, __VA_ARGS__);                                          \
    } while (0)

/* |got - want| <= tol, NaN never passes */
#define CHECK_ABS(got, want, tol, what)                                                          \
    do {                                                                                         \
        double g_ = (got), w_ = (want), t_ = (tol);                                              \
        if (!(fabs(g_ - w_) <= t_))                                                              \
            unit_fail(__FILE__, __LINE__, "%s: got %.17g, want %.17g (|diff| %.3g > %.3g)",     \
                      what, g_, w_, fabs(g_ - w_), t_);                                          \
    } while (0)

/* |got - want| <= tol |want| */
#define CHECK_REL(got, want, tol, what)                                                          \
    do {                                                                                         \
        double g_ = (got), w_ = (want), t_ = (tol);                                              \
        if (!(fabs(g_ - w_) <= t_ * fabs(w_)))                                                   \
            unit_fail(__FILE__, __LINE__, "%s: got %.17g, want %.17g (rel diff %.3g > %.3g)",   \
                      what, g_, w_, fabs(g_ - w_) / fabs(w_), t_);                               \
    } while (0)

#define RUN(fn) unit_run(#fn, fn)

/* The larger of a and b, or NaN when either is NaN: what every maximum a
 * test accumulates (an error, or a scale a bound is made of) is taken
 * with.  Never fmax: fmax(worst, NaN) is worst, so a run gone NaN would
 * leave the worst error where it was and its `worst <= tol` would pass.
 * a + b is that NaN (NAN itself is a float: -Wdouble-promotion). */
static inline double max_or_nan(double a, double b)
{
    return isnan(a) || isnan(b) ? a + b : (a > b ? a : b);
}

/* room for an integrator's state on a system of a few components, on the
 * stack (rk4 on one component needs 104 bytes) */
#define TEST_STATE_BYTES 4096

/* ---- helpers shared by the suites ---- */

/* A model with defaults, then "key=value" pairs, set up; aborts the test
 * program on a bad key (a bug in the test). */
/* A model set up with its defaults and "key=value" sets; freed by the
 * runner after the test (do not vb_model_free it). */
vb_model test_model(const char *name, const char *const *sets);

/* Run `integ` on `model` under `plan` and store the reported positions and
 * velocities at t_0..t_N (dim values each) into xs, vs (may be NULL) and the
 * times into ts.  Returns N, the number of steps; capacity is max points. */
size_t test_trajectory(const vb_integrator *integ, const vb_model *model,
                       const vb_plan_spec *plan, double *ts, double *xs, double *vs,
                       size_t capacity);

const vb_integrator *test_integrator(const char *name);

void suite_integrators(void);
void suite_models(void);
void suite_plans(void);
void suite_simulate(void);
void suite_sweep(void);
void suite_constrain(void);
void suite_contact(void);
void suite_contact_handlers(void);
void suite_rigid(void);
void suite_rigid_methods(void);
void suite_schema(void);
void suite_rolling(void);
void suite_body_solvers(void);
void suite_bodyrun(void);
void suite_rigid_engines(void);
void suite_options(void);
void suite_can_fail(void);

#endif
