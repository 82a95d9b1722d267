/* test_schema.c — the tables on a schema (numerics/schema.h): their headers
 * as the docs list them, every error of runs.csv among the metrics the
 * regression check compares and the sweep's norms, every table described
 * whole, the columns draw/ reads from any table under one name, the
 * formats' cells, and a --help's column list. */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "charts.h"
#include "cli.h"
#include "contact_table.h"
#include "grid.h"
#include "norms.h"
#include "orders_table.h"
#include "ratefiles.h"
#include "runs_table.h"
#include "study_tables.h"
#include "tables.h"
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
        /* the chart data's ten digits: 1/3 = 0.33333333333333331 rounds at
         * the tenth; 2^-30 = 9.31322574615478515625e-10 too */
        {VB_FMT_G10, {.x = 1.0 / 3.0}, "0.3333333333"},
        {VB_FMT_G10, {.x = 0x1p-30}, "9.313225746e-10"},
        /* the studies' shortest round trip: 0.1 is "0.1" (it reads back to
         * the same double); 1/3 = 0.333333333333333314829616256247...: 16
         * threes are nearer it than to either neighbour (2^-54 apart), 15
         * are not; 1e22 is exact */
        {VB_FMT_SHORTEST, {.x = 0.1}, "0.1"},
        {VB_FMT_SHORTEST, {.x = 1.0 / 3.0}, "0.3333333333333333"},
        {VB_FMT_SHORTEST, {.x = 1e22}, "1e+22"},
        /* the benchmark's three places, and a count kept in a double */
        {VB_FMT_FIX3, {.x = 69.7890625}, "69.789"}, /* 69 + 101/128, exact */
        {VB_FMT_FIX3, {.x = 1.0}, "1.000"},
        {VB_FMT_FIX0, {.x = 123456789.0}, "123456789"},
        /* a shard's doubles exactly, C99 hex: 1 = 0x1p+0; 0.1 = 0x1.999999999999ap-4
         * (its 52-bit significand 0x999999999999a, rounded up at the last) */
        {VB_FMT_HEX, {.x = 1.0}, "0x1p+0"},
        {VB_FMT_HEX, {.x = 0.1}, "0x1.999999999999ap-4"},
        /* RFC 4180: as it is, unless it holds a comma, a quote or a line
         * break; then in quotes, its quotes doubled */
        {VB_FMT_QUOTED, {.s = "k=1 m=1"}, "k=1 m=1"},
        {VB_FMT_QUOTED, {.s = "a, b"}, "\"a, b\""},
        {VB_FMT_QUOTED, {.s = "the \"exact\" one"}, "\"the \"\"exact\"\" one\""},
        {VB_FMT_QUOTED, {.s = "two\nlines"}, "\"two\nlines\""},
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

/* Every table of vb_tables (what list --columns prints) described whole:
 * every column named (a designated initializer that skipped a column
 * leaves a hole of NULL, which the count alone does not see), in lower
 * case with digits and '_' (a CSV header's name), once in its table, and
 * printed by something: a getter, or for a list or a group its printer;
 * a table another program writes (the float32 sweep's script) has neither
 * in any column. */
static void test_every_table_described(void)
{
    CHECK(vb_n_tables >= 26, "%zu tables", vb_n_tables);
    for (size_t k = 0; k < vb_n_tables; k++) {
        const vb_schema *s = vb_tables[k];
        CHECK(s->n > 0 && s->n <= VB_SCHEMA_MAX_COLUMNS, "%s: %zu columns", s->file, s->n);
        size_t printed = 0;
        for (size_t i = 0; i < s->n; i++) {
            const vb_column *c = &s->col[i];
            CHECK(c->name != NULL, "%s: column %zu has no name", s->file, i);
            if (!c->name)
                continue;
            int word = islower((unsigned char)c->name[0]) != 0;
            for (const char *p = c->name; *p; p++)
                word = word && (islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_');
            CHECK(word, "%s: column '%s'", s->file, c->name);
            CHECK(vb_schema_find(s, c->name) == (long)i, "%s: '%s' twice", s->file, c->name);
            int own = c->fmt == VB_FMT_LIST || c->fmt == VB_FMT_GROUP;
            printed += own ? c->print != NULL : c->get != NULL;
        }
        CHECK(printed == s->n || printed == 0, "%s: %zu of %zu columns printed", s->file, printed,
              s->n);
    }
}

/* draw/ reads the integrator and plan of any table it draws curves from
 * (csvread.c's vb_groups_make), and a step from those pick.c picks by, by
 * one name each (VB_CHART_*): every such table has them under it; and
 * overtime.c reads rigid_timeseries.csv's t and dt by timeseries.csv's
 * names */
static void test_drawn_tables_share_their_keys(void)
{
    const vb_schema *drawn[] = {&vb_conv_schema,  &vb_series_schema, &vb_paths_schema,
                                &vb_rigid_series_schema, &vb_polhode_schema, &vb_rates_schema,
                                &vb_bounces_schema, &vb_contact_schema, &vb_grid_schema,
                                &vb_timing_schema};
    for (size_t k = 0; k < sizeof drawn / sizeof drawn[0]; k++) {
        const vb_schema *s = drawn[k];
        CHECK(vb_schema_find(s, VB_CHART_INTEGRATOR) >= 0 && vb_schema_find(s, VB_CHART_PLAN) >= 0,
              "%s: no %s or %s", s->file, VB_CHART_INTEGRATOR, VB_CHART_PLAN);
        if (s != &vb_grid_schema) /* a grid's rows are fits, with no one step */
            CHECK(vb_schema_find(s, VB_CHART_DT) >= 0, "%s: no %s", s->file, VB_CHART_DT);
    }
    CHECK(vb_schema_find(&vb_rigid_series_schema, VB_SERIES_COL(T)) >= 0 &&
              vb_schema_find(&vb_rigid_series_schema, VB_SERIES_COL(DT)) >= 0,
          "rigid_timeseries.csv: no t or dt");
}

/* The sweep's norms (norms.h) are runs.csv's errors, in one order: check
 * maps a norm of orders.csv to its metric by name (judge.c), and a norm's
 * value is the result's field of its name.  The fields by hand, from
 * docs/method.md §4 and simulate.h's vb_run_result. */
static void test_norms_are_runs_errors(void)
{
    static const struct {
        vb_norm n;
        size_t field;
        const char *name;
    } norms[] = {
        {VB_NORM_POS_FINAL, offsetof(vb_run_result, err_pos_final), "err_pos_final"},
        {VB_NORM_POS_MAX, offsetof(vb_run_result, err_pos_max), "err_pos_max"},
        {VB_NORM_POS_RMS, offsetof(vb_run_result, err_pos_rms), "err_pos_rms"},
        {VB_NORM_VEL_FINAL, offsetof(vb_run_result, err_vel_final), "err_vel_final"},
        {VB_NORM_VEL_MAX, offsetof(vb_run_result, err_vel_max), "err_vel_max"},
        {VB_NORM_ENERGY_MAX, offsetof(vb_run_result, err_energy_max), "err_energy_max"},
        {VB_NORM_ANGMOM_MAX, offsetof(vb_run_result, err_angmom_max), "err_angmom_max"},
        {VB_NORM_MOMENTUM_MAX, offsetof(vb_run_result, err_momentum_max), "err_momentum_max"},
        {VB_NORM_RETURN, offsetof(vb_run_result, err_return), "err_return"},
        {VB_NORM_CONSTRAINT_MAX, offsetof(vb_run_result, err_constraint_max), "err_constraint_max"},
        {VB_NORM_DRAW_MAX, offsetof(vb_run_result, err_draw_max), "err_draw_max"},
        {VB_NORM_DRAW_RMS, offsetof(vb_run_result, err_draw_rms), "err_draw_rms"},
        {VB_NORM_ATT_MAX, offsetof(vb_run_result, err_att_max), "err_att_max"},
        {VB_NORM_ANGVEL_MAX, offsetof(vb_run_result, err_angvel_max), "err_angvel_max"},
    };
    CHECK(sizeof norms / sizeof norms[0] == VB_N_NORMS && vb_runs_metrics() == VB_N_NORMS,
          "%d norms, %zu metrics", (int)VB_N_NORMS, vb_runs_metrics());
    /* each field a value of its own: 1, 2, ... at the norm's place */
    vb_run_result r;
    memset(&r, 0, sizeof r);
    for (size_t k = 0; k < sizeof norms / sizeof norms[0]; k++) {
        double v = (double)(k + 1);
        memcpy((char *)&r + norms[k].field, &v, sizeof v);
    }
    for (size_t k = 0; k < sizeof norms / sizeof norms[0]; k++) {
        vb_norm n = norms[k].n;
        const vb_column *m = vb_runs_metric((size_t)n);
        CHECK(!strcmp(vb_norm_name(n), norms[k].name) && m && !strcmp(m->name, norms[k].name),
              "norm %d: '%s', metric '%s', want '%s'", (int)n, vb_norm_name(n),
              m ? m->name : "(none)", norms[k].name);
        CHECK(vb_norm_value(&r, n) == (double)(k + 1), "%s: %g, want %zu", norms[k].name,
              vb_norm_value(&r, n), k + 1);
    }
}

/* A --help's column list: broken after a comma into lines of at most 79
 * characters, each indented two; joined again, the header.  A name longer
 * than a line is a line of its own. */
static vb_cell no_cell(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t, (void)row;
    return vb_cell_blank();
}

static void test_help_columns(void)
{
    char long_name[100];
    memset(long_name, 'a', 90);
    long_name[90] = '\0';
    const vb_column cols[] = {
        {"first", VB_FMT_TEXT, no_cell, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
        {long_name, VB_FMT_TEXT, no_cell, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
        {"last", VB_FMT_TEXT, no_cell, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    };
    const vb_schema odd = VB_SCHEMA("odd.csv", cols);
    const vb_schema *const tables[] = {&vb_runs_schema, &vb_contact_schema, &odd};
    for (size_t k = 0; k < 3; k++) {
        char help[4096], joined[4096] = "", header[4096];
        vb_help_columns(help, sizeof help, tables[k], 0);
        vb_schema_header_text(header, sizeof header, tables[k], 0);
        size_t lines = 0;
        for (char *line = help, *end; *line; line = end + 1) {
            end = strchr(line, '\n');
            CHECK(end != NULL, "%s: a line without its newline", tables[k]->file);
            if (!end)
                break;
            size_t len = (size_t)(end - line);
            CHECK(len >= 3 && line[0] == ' ' && line[1] == ' ' && line[2] != ' ',
                  "%s: line %zu not indented two", tables[k]->file, lines);
            CHECK(len <= 79 || !memchr(line + 2, ',', len - 3), "%s: line %zu of %zu characters",
                  tables[k]->file, lines, len);
            strncat(joined, line + 2, len - 2);
            lines++;
        }
        CHECK(!strcmp(joined, header), "%s: joined\n      %s\n    want\n      %s",
              tables[k]->file, joined, header);
        /* runs.csv's 26 columns of sim: four lines, as sim --help had them */
        if (k == 0)
            CHECK(lines == 4, "runs.csv: %zu lines", lines);
        if (k == 2)
            CHECK(lines == 3, "a name longer than a line: %zu lines", lines);
    }
}

void suite_schema(void)
{
    RUN(test_every_table_described);
    RUN(test_drawn_tables_share_their_keys);
    RUN(test_norms_are_runs_errors);
    RUN(test_help_columns);
    RUN(test_runs_header_as_documented);
    RUN(test_orders_header_as_documented);
    RUN(test_every_error_is_compared);
    RUN(test_cells_print_as_their_format);
}
