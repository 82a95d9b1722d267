/* test_can_fail.c — that the tests themselves can fail:
 *
 * - max_or_nan (unit.h), the maximum every error accumulator of the suites
 *   takes, keeps a NaN, so that a run gone NaN fails its bound (fmax, which
 *   it replaced, drops it);
 * - every rigid method of the table (integrators/rigid_methods.c) and every
 *   rigid model of the table (models/rigid_models.c) is exposed as what a
 *   case file names: the rigid entries (integrators/rigid_entries.c) and the
 *   rigid faces (models/rigid_face.c) are made from the tables up to a fixed
 *   number of slots each, and a method or model past them would be dropped
 *   without a word (from `use = all`, from the names a bad name is told, from
 *   list); and every method has its colour among the palette's built-ins
 *   (draw/palette.c), or its curves would take a user's colour. */
#include <string.h>

#include "palette.h"
#include "rigid.h"
#include "rigid_method.h"
#include "unit.h"

/* ---- max_or_nan ---- */

static void test_max_or_nan_keeps_a_nan(void)
{
    /* a run's errors, one step of them NaN (the run diverged there), the
     * others well under the bound */
    static const double errs[] = {1e-9, 3e-9, NAN, 2e-9};
    const double bound = 1e-6;
    double worst = 0.0, dropped = 0.0;
    for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++) {
        worst = max_or_nan(worst, errs[i]);
        dropped = fmax(dropped, errs[i]);
    }
    CHECK(isnan(worst), "max_or_nan over errors with a NaN: %g, want NaN", worst);
    /* the bound a test then asserts, as every test writes it */
    CHECK(!(worst <= bound), "worst <= bound passes on a run gone NaN");
    /* what fmax made of the same run: the NaN dropped, and the test passed */
    CHECK(dropped == 3e-9 && dropped <= bound, "fmax kept the NaN (%g): the reason for "
                                               "max_or_nan is gone",
          dropped);
    /* a NaN in either place; otherwise the larger, as fmax */
    CHECK(isnan(max_or_nan(NAN, 1.0)) && isnan(max_or_nan(1.0, NAN)) &&
              isnan(max_or_nan(NAN, NAN)),
          "a NaN in either argument");
    CHECK(max_or_nan(1.0, 2.0) == 2.0 && max_or_nan(2.0, 1.0) == 2.0 &&
              max_or_nan(-1.0, -2.0) == -1.0 && max_or_nan(HUGE_VAL, 1.0) == HUGE_VAL &&
              max_or_nan(0.0, 5e-324) == 5e-324,
          "the larger of two numbers");
}

/* ---- the rigid tables, exposed whole ---- */

static void test_every_rigid_method_is_an_entry(void)
{
    size_t n = vb_rigid_method_count();
    CHECK(n > 0, "the rigid method table is empty");
    CHECK(vb_rigid_entry_count() == n,
          "%zu rigid methods in the table, %zu of them an integrator a case names "
          "(integrators/rigid_entries.c's slots)",
          n, vb_rigid_entry_count());
    for (size_t i = 0; i < n; i++) {
        const vb_rigid_method *m = vb_rigid_method_at(i);
        const vb_integrator *g = vb_integrator_find(m->name);
        CHECK(g != NULL, "rigid method %s: no integrator of its name", m->name);
        if (!g)
            continue;
        CHECK(vb_rigid_entry_method(g) == m, "%s: the integrator of its name steps another method",
              m->name);
        CHECK(g == vb_rigid_entry_at(i), "%s: not the entry in its table place %zu", m->name, i);
        CHECK(g->order == m->order, "%s: order %d as an integrator, %d in the table", m->name,
              g->order, m->order);
    }
    /* and no entry more than the table has */
    CHECK(vb_rigid_entry_at(n) == NULL, "an entry past the table's %zu methods", n);
    /* the names a bad name is told (integrators.c) end with all of them */
    char names[4096], *rigid;
    vb_integrator_names(names, sizeof names);
    rigid = strstr(names, "; for a rigid body: ");
    CHECK(rigid != NULL, "the integrator names lack the rigid methods: %s", names);
    for (size_t i = 0; rigid && i < n; i++) {
        const char *name = vb_rigid_method_at(i)->name, *at = strstr(rigid, name);
        size_t len = strlen(name);
        CHECK(at && (at[len] == ',' || at[len] == '\0'), "the integrator names lack %s: %s",
              name, rigid);
    }
}

static void test_every_rigid_model_is_a_model(void)
{
    size_t n = vb_rigid_model_count();
    CHECK(n > 0, "the rigid model table is empty");
    CHECK(vb_rigid_face_count() == n,
          "%zu rigid models in the table, %zu of them a model a case names "
          "(models/rigid_face.c's slots)",
          n, vb_rigid_face_count());
    for (size_t i = 0; i < n; i++) {
        const vb_rigid_model_type *r = vb_rigid_model_at(i);
        const vb_model_type *t = vb_model_find(r->name);
        CHECK(t != NULL, "rigid model %s: no model of its name", r->name);
        CHECK(t == vb_rigid_face_at(i), "%s: not the face in its table place %zu", r->name, i);
        if (!t)
            continue;
        CHECK(t->params == r->params && t->n_params == r->n_params,
              "%s: the face's parameters are not the table's", r->name);
        CHECK(t->summary && strstr(t->summary, "rigid body"),
              "%s: the face's summary does not say it is a rigid body (%s)", r->name,
              t->summary ? t->summary : "none");
    }
    CHECK(vb_rigid_face_at(n) == NULL, "a face past the table's %zu models", n);
}

static void test_every_rigid_method_has_its_colour(void)
{
    const char *const *names, *const *colours;
    const int *points;
    size_t nb = vb_palette_builtins(&names, &colours, &points);
    for (size_t i = 0; i < vb_rigid_method_count(); i++) {
        const char *m = vb_rigid_method_at(i)->name;
        size_t k = 0;
        while (k < nb && strcmp(names[k], m) != 0)
            k++;
        CHECK(k < nb, "rigid method %s: not among the palette's built-ins (draw/palette.c): "
                      "its curves would take a user's colour",
              m);
    }
}

void suite_can_fail(void)
{
    RUN(test_max_or_nan_keeps_a_nan);
    RUN(test_every_rigid_method_is_an_entry);
    RUN(test_every_rigid_model_is_a_model);
    RUN(test_every_rigid_method_has_its_colour);
}
