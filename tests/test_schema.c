/* test_schema.c — the tables on a schema (output/schema.h): their headers
 * as the docs list them, and every error of runs.csv among the metrics the
 * regression check compares. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orders_table.h"
#include "runs_table.h"
#include "unit.h"

/* the header line a schema prints for a view, without its newline */
static char *header_of(const vb_schema *s, unsigned view)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    vb_schema_header(f, s, view);
    fclose(f);
    if (len && buf[len - 1] == '\n')
        buf[len - 1] = '\0';
    return buf;
}

/* The columns of `sim` and of runs.csv in docs/method.md §8's table, in
 * its order; then runs.csv's level and resolved (the paragraph under it),
 * and a case with a frame loop's err_draw_max, err_draw_rms and lag_max
 * (`run --help`, docs/frame-loops.md). */
#define SIM_COLUMNS                                                                            \
    "model,integrator,plan,dt,jitter,seed,steps,t_end,force_evals,err_pos_final,err_pos_max,"  \
    "err_pos_rms,err_vel_final,err_vel_max,err_energy_max,status,err_angmom_max,fail_step,"    \
    "pos_scale,vel_scale,err_momentum_max,err_return,ref_err_pos,ref_err_vel,tol,"             \
    "err_constraint_max"
#define LOOP_COLUMNS "err_draw_max,err_draw_rms,lag_max"

static void test_runs_header_as_documented(void)
{
    static const struct {
        unsigned view;
        const char *want;
    } views[] = {
        {0, SIM_COLUMNS},
        {VB_RUNS_LOOP, SIM_COLUMNS "," LOOP_COLUMNS},
        {VB_RUNS_SWEEP, SIM_COLUMNS ",level,resolved"},
        {VB_RUNS_SWEEP | VB_RUNS_LOOP, SIM_COLUMNS ",level,resolved," LOOP_COLUMNS},
    };
    for (size_t k = 0; k < sizeof views / sizeof views[0]; k++) {
        char *got = header_of(&vb_runs_schema, views[k].view);
        CHECK(got && !strcmp(got, views[k].want), "view %u: header\n      %s\n    want\n      %s",
              views[k].view, got ? got : "(none)", views[k].want);
        free(got);
    }
}

/* run --help and docs/method.md §5: orders.csv's columns */
static void test_orders_header_as_documented(void)
{
    const char *want = "integrator,plan,norm,order,points,expected,verdict,range,dt_first,"
                       "dt_last,local_orders,order_se,order_ci95";
    char *got = header_of(&vb_orders_schema, 0);
    CHECK(got && !strcmp(got, want), "header %s", got ? got : "(none)");
    free(got);
}

/* Every error runs.csv prints (a column err_*) is one check compares: a
 * column check did not know would be one nobody checks ("Hardening,
 * round 4": lag_max).  Final-time errors are exactly those at t_end
 * (err_*_final) and the return error |x(t_end) - x(0)| (docs/method.md
 * §8), which oscillate with the phase and are listed, never judged; the
 * relative errors (energy, angular and linear momentum: §8's "/|E_0|")
 * have no scale. */
static void test_every_error_is_compared(void)
{
    const vb_schema *s = &vb_runs_schema;
    size_t errors = 0;
    for (size_t k = 0; k < s->n; k++) {
        const vb_column *c = &s->col[k];
        size_t len = strlen(c->name);
        int error = !strncmp(c->name, "err_", 4);
        errors += (size_t)error;
        CHECK(error == (c->role == VB_METRIC), "%s: role %d", c->name, (int)c->role);
        if (!error)
            continue;
        int final = (len > 6 && !strcmp(c->name + len - 6, "_final")) ||
                    !strcmp(c->name, "err_return");
        CHECK(c->final == final, "%s: final %d, want %d", c->name, c->final, final);
        int relative = !strcmp(c->name, "err_energy_max") || !strcmp(c->name, "err_angmom_max") ||
                       !strcmp(c->name, "err_momentum_max");
        CHECK((c->scale == VB_SCALE_NONE) == relative, "%s: scale %d", c->name, (int)c->scale);
    }
    /* 14: the err_ columns of SIM_COLUMNS and LOOP_COLUMNS, and the rigid
     * view's err_att_max and err_angvel_max, counted by hand */
    CHECK(errors == 14 && vb_runs_metrics() == 14, "%zu errors, %zu metrics", errors,
          vb_runs_metrics());
}

/* A cell as its format prints it: the strings are C's printf conversions
 * worked by hand (%g: six significant digits, trailing zeros dropped; %.6e:
 * one digit, six decimals, a two-digit exponent; %.4g: four significant
 * digits), the layout the tables printed before they were on schemas
 * (onestep.csv's h_ratio, timing.csv's seconds and ns_per_step); a word in
 * a column of numbers (onestep_orders.csv's "exact") as it is, and a blank
 * as nothing. */
static void test_cells_print_as_their_format(void)
{
    static const struct {
        vb_format fmt;
        vb_cell cell;
        const char *want;
    } cells[] = {
        {VB_FMT_SHORT, {.x = 1.5}, "1.5"},
        {VB_FMT_SHORT, {.x = 1.0}, "1"},
        {VB_FMT_SCI6, {.x = 2.20793e-4}, "2.207930e-04"},
        {VB_FMT_SCI6, {.x = 12.5}, "1.250000e+01"},
        {VB_FMT_G4, {.x = 39.1649}, "39.16"},
        {VB_FMT_G4, {.x = 0.0}, "0"},
        {VB_FMT_G4, {.x = 123456.0}, "1.235e+05"},
        {VB_FMT_FIX6, {.s = "exact"}, "exact"},
        {VB_FMT_FIX6, {.x = 2.0}, "2.000000"},
        {VB_FMT_REAL, {.x = 0.1}, "0.10000000000000001"},
        {VB_FMT_REAL, {.blank = 1, .x = 3.0}, ""},
        {VB_FMT_TEXT, {.s = "tcv"}, "tcv"},
    };
    for (size_t k = 0; k < sizeof cells / sizeof cells[0]; k++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        CHECK(f != NULL, "open_memstream");
        if (!f)
            return;
        vb_cell_print(f, cells[k].fmt, cells[k].cell);
        fclose(f);
        CHECK(!strcmp(buf, cells[k].want), "cell %zu: '%s', want '%s'", k, buf, cells[k].want);
        free(buf);
    }
}

void suite_schema(void)
{
    RUN(test_runs_header_as_documented);
    RUN(test_orders_header_as_documented);
    RUN(test_every_error_is_compared);
    RUN(test_cells_print_as_their_format);
}
