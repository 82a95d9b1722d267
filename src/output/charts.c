/* charts.c — the chart data of a sweep: tidy CSV, one row per point, for
 * the gnuplot scripts (plots/): convergence, the long runs' errors over
 * time, and the paths. */
#include "charts.h"

#include <math.h>
#include <stddef.h>

#include "bodyrun.h" /* VB_BODY_PATH_WIDTH */
#include "cells.h"
#include "engine.h"
#include "tables.h"

/* column e of a chart's table: its name, and the field f of record type R
 * it prints.  Chart data is printed with ten digits (VB_FMT_G10), far
 * finer than a pixel, and keeps the files small; convergence.csv's
 * numbers are the sweep's own, in full. */
#define COLUMN(R, e, name, f, fmt, get, in)                                                        \
    [e] = {name, fmt, get, offsetof(R, f), 0, NULL, in, VB_READ, 0, 0, 0, 0}
#define TEXT(R, e, name, f) COLUMN(R, e, name, f, VB_FMT_TEXT, vb_get_text, 0)
#define POINT(R, e, name, f) COLUMN(R, e, name, f, VB_FMT_G10, vb_get_real_always, 0)

/* a chart's row of a run over time: who, which plan, its step, a time, the
 * values there (each table names its own), a body */
typedef struct chart_point {
    const char *integrator, *plan, *same_as, *energy_same_as;
    double dt, t, v[3];
    int energy; /* err_energy is this row's: else a blank cell */
    unsigned long long body;
} chart_point;

#define AT_V(k) v[k]

static const vb_band_row *find_band(const vb_sweep *s, size_t integ, int level, vb_norm norm)
{
    for (size_t k = 0; k < s->n_bands; k++)
        if (s->bands[k].integ == integ && s->bands[k].level == level && s->bands[k].norm == norm)
            return &s->bands[k];
    return NULL;
}

/* The mean force evaluations of the runs of one integrator, plan and level. */
static double mean_evals(const vb_sweep *s, size_t integ, vb_plan_kind kind, int level)
{
    double sum = 0.0;
    int n = 0;
    for (size_t k = 0; k < s->n_jobs; k++) {
        const vb_sweep_job *j = &s->jobs[k];
        if (j->integ == integ && j->kind == kind && j->level == level) {
            sum += (double)j->res.force_evals;
            n++;
        }
    }
    return n ? sum / n : (double)NAN;
}

static void order_text(char *buf, size_t len, const vb_order_row *r)
{
    if (r->verdict == VB_VERDICT_EXACT)
        snprintf(buf, len, "exact");
    else if (r->verdict == VB_VERDICT_UNDETERMINED)
        snprintf(buf, len, "undetermined");
    else
        snprintf(buf, len, "%.2f%s", vb_order_shown(r->fit.order),
                 r->fit.range == VB_RANGE_ALL ? "*" : "");
}

/* the name of integrator i, or "" for VB_SAME_NONE */
static const char *same_name(const vb_sweep *s, size_t i)
{
    return i == VB_SAME_NONE ? "" : s->c->integ[i]->name;
}

/* convergence.csv: a row a point of a fit of err_pos_max */
typedef struct conv_row {
    const char *integrator, *plan, *verdict, *same_as;
    const char *order; /* as the summary prints it: "2.00", "0.07*", "exact" */
    int level;
    double dt, err, p10, p90, force_evals, tol;
} conv_row;

#define CONV(e) VB_COL_CONV_##e
#define FULL(e, name, f) COLUMN(conv_row, CONV(e), name, f, VB_FMT_REAL, vb_get_real_always, 0)
/* the band's p10 and p90 and the mean force evaluations: blank for NaN */
#define BLANKED(e, name, f) COLUMN(conv_row, CONV(e), name, f, VB_FMT_REAL, vb_get_real, 0)
static const vb_column conv_columns[] = {
    TEXT(conv_row, CONV(INTEGRATOR), "integrator", integrator),
    TEXT(conv_row, CONV(PLAN), "plan", plan),
    COLUMN(conv_row, CONV(LEVEL), "level", level, VB_FMT_INT, vb_get_int, 0),
    FULL(DT, "dt", dt),
    FULL(ERR_POS_MAX, "err_pos_max", err),
    BLANKED(P10, "p10", p10),
    BLANKED(P90, "p90", p90),
    BLANKED(FORCE_EVALS, "force_evals", force_evals),
    TEXT(conv_row, CONV(ORDER), "order", order),
    TEXT(conv_row, CONV(VERDICT), "verdict", verdict),
    TEXT(conv_row, CONV(SAME_AS), "same_as", same_as),
    /* 0 for a method of fixed steps: gnuplot misreads an empty last field */
    FULL(TOL, "tol", tol),
};
const vb_schema vb_conv_schema = VB_SCHEMA("convergence.csv", conv_columns);
_Static_assert(sizeof conv_columns / sizeof conv_columns[0] == VB_CONV_COLUMNS,
               "a column of convergence.csv without its line");

void vb_write_convergence(const vb_sweep *s, FILE *f)
{
    vb_schema_header(f, &vb_conv_schema, 0);
    for (size_t k = 0; k < s->n_orders; k++) {
        const vb_order_row *r = &s->orders[k];
        if (r->norm != VB_NORM_POS_MAX)
            continue;
        for (int l = 0; l < r->fit.n; l++) {
            const vb_band_row *b =
                r->kind == VB_PLAN_RANDOM ? find_band(s, r->integ, l, VB_NORM_POS_MAX) : NULL;
            /* an adaptive method's points are tolerances on frames of dt */
            int adaptive = r->x_tol;
            char order[32];
            order_text(order, sizeof order, r);
            conv_row row = {
                .integrator = s->c->integ[r->integ]->name,
                .plan = vb_plan_name(r->kind),
                .verdict = vb_verdict_name(r->verdict),
                .order = order,
                .same_as = same_name(s, s->same_as[r->integ * VB_N_PLANS + r->kind]),
                .level = l,
                .dt = adaptive ? s->c->dt : r->dt[l],
                .err = r->err[l],
                .p10 = b ? b->p10 : r->err[l],
                .p90 = b ? b->p90 : r->err[l],
                .force_evals = mean_evals(s, r->integ, r->kind, l),
                .tol = adaptive ? r->dt[l] : 0.0,
            };
            vb_schema_row(f, &vb_conv_schema, 0, NULL, &row);
        }
    }
}

/* timeseries.csv: its views, a model with energy and one with rods */
enum { SERIES_ENERGY = 1u, SERIES_CONSTRAINT = 2u };

/* err_energy: blank on a row without energy (an engine without velocity) */
static vb_cell energy_or_blank(const vb_column *c, const void *t, const void *row)
{
    return ((const chart_point *)row)->energy ? vb_get_real_always(c, t, row) : vb_cell_blank();
}

#define SERIES(e) VB_COL_SERIES_##e
static const vb_column series_columns[] = {
    TEXT(chart_point, SERIES(INTEGRATOR), "integrator", integrator),
    TEXT(chart_point, SERIES(PLAN), "plan", plan),
    POINT(chart_point, SERIES(DT), "dt", dt),
    POINT(chart_point, SERIES(T), "t", t),
    POINT(chart_point, SERIES(ERR_POS), "err_pos", AT_V(0)),
    COLUMN(chart_point, SERIES(ERR_ENERGY), "err_energy", AT_V(1), VB_FMT_G10, energy_or_blank,
           SERIES_ENERGY),
    TEXT(chart_point, SERIES(SAME_AS), "same_as", same_as),
    COLUMN(chart_point, SERIES(ENERGY_SAME_AS), "energy_same_as", energy_same_as, VB_FMT_TEXT,
           vb_get_text, SERIES_ENERGY),
    COLUMN(chart_point, SERIES(ERR_CONSTRAINT), "err_constraint", AT_V(2), VB_FMT_G10,
           vb_get_real_always, SERIES_CONSTRAINT),
};
const vb_schema vb_series_schema = VB_SCHEMA("timeseries.csv", series_columns);
_Static_assert(sizeof series_columns / sizeof series_columns[0] == VB_SERIES_COLUMNS,
               "a column of timeseries.csv without its line");

void vb_write_timeseries(const vb_sweep *s, FILE *f)
{
    const vb_series_set *set = &s->series;
    if (set->full)
        fprintf(f, "# long run: %g x t_end; each row is one step (--full-chart-data)\n",
                set->periods);
    else
        fprintf(f, "# long run: %g x t_end; each row is the maximum over one of %d equal windows\n",
                set->periods, VB_SERIES_WINDOWS);
    unsigned view = (set->has_energy ? SERIES_ENERGY : 0) |
                    (set->has_constraint ? SERIES_CONSTRAINT : 0);
    vb_schema_header(f, &vb_series_schema, view);
    for (size_t k = 0; k < set->n_series; k++) {
        const vb_series_row *r = &set->series[k];
        /* an engine without velocity has no energy: empty cells, which the
         * energy chart keys "(no velocity)" (draw/overtime.c) */
        chart_point p = {
            .integrator = s->c->integ[r->integ]->name,
            .plan = vb_plan_name(r->kind),
            .same_as = same_name(s, r->same_pos_as),
            .energy_same_as = same_name(s, r->same_energy_as),
            .dt = r->dt,
            .energy = set->has_energy &&
                      vb_sweep_caps(s->c, r->integ).velocity != VB_VELOCITY_NONE,
        };
        for (size_t i = 0; i < r->n; i++) {
            p.t = r->t[i];
            p.v[0] = r->err_pos[i];
            p.v[1] = p.energy ? r->err_energy[i] : 0.0;
            p.v[2] = set->has_constraint ? r->err_constraint[i] : 0.0;
            vb_schema_row(f, &vb_series_schema, view, NULL, &p);
        }
    }
}

/* paths.csv: its views, a model of two dimensions and one of three */
enum { PATHS_Y = 1u, PATHS_Z = 2u };

#define PATHS(e) VB_COL_PATHS_##e
static const vb_column paths_columns[] = {
    TEXT(chart_point, PATHS(INTEGRATOR), "integrator", integrator),
    TEXT(chart_point, PATHS(PLAN), "plan", plan),
    POINT(chart_point, PATHS(DT), "dt", dt),
    POINT(chart_point, PATHS(T), "t", t),
    POINT(chart_point, PATHS(X), "x", AT_V(0)),
    COLUMN(chart_point, PATHS(Y), "y", AT_V(1), VB_FMT_G10, vb_get_real_always, PATHS_Y),
    COLUMN(chart_point, PATHS(Z), "z", AT_V(2), VB_FMT_G10, vb_get_real_always,
           PATHS_Y | PATHS_Z),
    COLUMN(chart_point, PATHS(BODY), "body", body, VB_FMT_COUNT, vb_get_count, 0),
};
const vb_schema vb_paths_schema = VB_SCHEMA("paths.csv", paths_columns);
_Static_assert(sizeof paths_columns / sizeof paths_columns[0] == VB_PATHS_COLUMNS,
               "a column of paths.csv without its line");

/* one row per point and body, the bodies of one integrator and plan one
 * after another (each body's path contiguous, for the charts); of more
 * than VB_PATH_SHOWN_MAX bodies, those a chart shows (series.h) */
void vb_write_paths(const vb_sweep *s, FILE *f)
{
    const vb_model *m = &s->c->model;
    const vb_series_set *set = &s->series;
    unsigned dim = m->type->dim;
    size_t shown[VB_PATH_SHOWN_MAX];
    size_t nb = vb_path_bodies(m->particles, set->full, shown);
    if (set->full)
        fputs("# every step of every body (--full-chart-data)\n", f);
    else
        fprintf(f, "# every step while there are at most %d; past that, in each of %d windows of "
                   "time, the first, last, lowest and highest points%s\n",
                VB_PATH_POINTS, VB_PATH_COLUMNS,
                nb < m->particles ? "; the bodies a chart shows" : "");
    unsigned view = (dim >= 2 ? PATHS_Y : 0) | (dim >= 3 ? PATHS_Z : 0);
    vb_schema_header(f, &vb_paths_schema, view);
    for (size_t k = 0; k < set->n_paths; k++) {
        const vb_path_row *r = &set->paths[k];
        chart_point p = {
            .integrator = r->integ == VB_PATH_EXACT ? "exact" : s->c->integ[r->integ]->name,
            .plan = r->integ == VB_PATH_EXACT ? "exact" : vb_plan_name(r->kind),
            .dt = r->dt,
        };
        for (size_t j = 0; j < nb; j++) {
            size_t b = nb < m->particles ? shown[j] : j;
            p.body = b + 1;
            for (size_t i = 0; i < r->n; i++) {
                p.t = r->t[i];
                for (unsigned d = 0; d < dim && d < 3; d++)
                    p.v[d] = r->x[i * m->n + b * dim + d];
                vb_schema_row(f, &vb_paths_schema, view, NULL, &p);
            }
        }
    }
}

/* rigid_timeseries.csv: a rigid body's errors over time, window maxima */
#define RIGID_SERIES(e) VB_COL_RIGID_SERIES_##e
static const vb_column rigid_series_columns[] = {
    TEXT(chart_point, RIGID_SERIES(INTEGRATOR), "integrator", integrator),
    TEXT(chart_point, RIGID_SERIES(PLAN), "plan", plan),
    POINT(chart_point, RIGID_SERIES(DT), "dt", dt),
    POINT(chart_point, RIGID_SERIES(T), "t", t),
    POINT(chart_point, RIGID_SERIES(ERR_ATT), "err_att", AT_V(0)),
    POINT(chart_point, RIGID_SERIES(ERR_ENERGY), "err_energy", AT_V(1)),
    POINT(chart_point, RIGID_SERIES(ERR_ANGMOM), "err_angmom", AT_V(2)),
};
const vb_schema vb_rigid_series_schema = VB_SCHEMA("rigid_timeseries.csv", rigid_series_columns);
_Static_assert(sizeof rigid_series_columns / sizeof rigid_series_columns[0] ==
                   VB_RIGID_SERIES_COLUMNS,
               "a column of rigid_timeseries.csv without its line");

/* polhode.csv: w in the body frame, each run's and the exact one */
#define POLHODE(e) VB_COL_POLHODE_##e
static const vb_column polhode_columns[] = {
    TEXT(chart_point, POLHODE(INTEGRATOR), "integrator", integrator),
    TEXT(chart_point, POLHODE(PLAN), "plan", plan),
    POINT(chart_point, POLHODE(DT), "dt", dt),
    POINT(chart_point, POLHODE(T), "t", t),
    POINT(chart_point, POLHODE(W1), "w1", AT_V(0)),
    POINT(chart_point, POLHODE(W2), "w2", AT_V(1)),
    POINT(chart_point, POLHODE(W3), "w3", AT_V(2)),
};
const vb_schema vb_polhode_schema = VB_SCHEMA("polhode.csv", polhode_columns);
_Static_assert(sizeof polhode_columns / sizeof polhode_columns[0] == VB_POLHODE_COLUMNS,
               "a column of polhode.csv without its line");

void vb_write_rigid_timeseries(const vb_sweep *s, FILE *f)
{
    const vb_series_set *set = &s->series;
    if (set->full)
        fputs("# each row is one step (--full-chart-data)\n", f);
    else
        fprintf(f, "# each row is the maximum over one of %d equal windows of t_end\n",
                VB_SERIES_WINDOWS);
    fputs("# err_att: the angle of q_exact* q (rad); err_energy: |E - E0| / |E0|; err_angmom: "
          "|L - L0| / |L0|, the world angular momentum about the centre of mass\n",
          f);
    vb_schema_header(f, &vb_rigid_series_schema, 0);
    for (size_t k = 0; k < set->n_series; k++) {
        const vb_series_row *r = &set->series[k];
        chart_point p = {.integrator = s->c->integ[r->integ]->name,
                         .plan = vb_plan_name(r->kind),
                         .dt = r->dt};
        for (size_t i = 0; i < r->n; i++) {
            p.t = r->t[i];
            p.v[0] = r->err_att[i];
            p.v[1] = r->err_energy[i];
            p.v[2] = r->err_angmom[i];
            vb_schema_row(f, &vb_rigid_series_schema, 0, NULL, &p);
        }
    }
}

/* a one-body path table's header and rows (polhode.csv, motion.csv): each
 * path of the set, the exact one last, `width` numbers a point (the
 * set's path_width) in the columns after t */
static void path_rows(const vb_sweep *s, FILE *f, const vb_schema *schema, size_t width)
{
    const vb_series_set *set = &s->series;
    vb_schema_header(f, schema, 0);
    for (size_t k = 0; k < set->n_paths; k++) {
        const vb_path_row *r = &set->paths[k];
        chart_point p = {
            .integrator = r->integ == VB_PATH_EXACT ? "exact" : s->c->integ[r->integ]->name,
            .plan = r->integ == VB_PATH_EXACT ? "exact" : vb_plan_name(r->kind),
            .dt = r->dt,
        };
        for (size_t i = 0; i < r->n; i++) {
            p.t = r->t[i];
            for (size_t d = 0; d < width && d < 3; d++)
                p.v[d] = r->x[width * i + d];
            vb_schema_row(f, schema, 0, NULL, &p);
        }
    }
}

void vb_write_polhode(const vb_sweep *s, FILE *f)
{
    const vb_series_set *set = &s->series;
    const vb_rigid_body *b = s->c->profile.state.body; /* a case that measures an attitude's */
    const double *I = b->model.props.inertia;
    fprintf(f,
            "# energy ellipsoid I1 w1^2 + I2 w2^2 + I3 w3^2 = 2T and L sphere I1^2 w1^2 + I2^2 "
            "w2^2 + I3^2 w3^2 = L^2 of the exact start: I1=%.17g I2=%.17g I3=%.17g "
            "two_T=%.17g L2=%.17g w_period=%.17g\n",
            I[0], I[1], I[2], b->two_T, b->L2, set->w_period);
    fprintf(f, "# each method's w at %d fixed step%s of the sweep, the coarsest first (a finer "
               "one while its run takes at most %d steps; draw --dt picks one), and at the "
               "coarsest random step\n",
            set->path_levels, set->path_levels == 1 ? "" : "s", VB_PATH_LEVEL_STEPS);
    if (set->full)
        fputs("# w (body frame) at every step (--full-chart-data)\n", f);
    else
        fprintf(f,
                "# w (body frame) at every step while there are at most %d; past that, in each of "
                "%d windows of time, the first, last, lowest and highest points; the exact one "
                "over one period of w(t) (w_period) where that is shorter than t_end, at %d + 1 "
                "times\n",
                VB_PATH_POINTS, VB_PATH_COLUMNS, VB_PATH_POINTS);
    path_rows(s, f, &vb_polhode_schema, 3);
}

/* motion.csv: a body at a contact's v and w R, each run's and the exact */
#define MOTION(e) VB_COL_MOTION_##e
static const vb_column motion_columns[] = {
    TEXT(chart_point, MOTION(INTEGRATOR), "integrator", integrator),
    TEXT(chart_point, MOTION(PLAN), "plan", plan),
    POINT(chart_point, MOTION(DT), "dt", dt),
    POINT(chart_point, MOTION(T), "t", t),
    POINT(chart_point, MOTION(V), "v", AT_V(0)),
    POINT(chart_point, MOTION(W_R), "w_r", AT_V(1)),
};
const vb_schema vb_motion_schema = VB_SCHEMA("motion.csv", motion_columns);
_Static_assert(sizeof motion_columns / sizeof motion_columns[0] == VB_MOTION_COLUMNS,
               "a column of motion.csv without its line");

void vb_write_motion(const vb_sweep *s, FILE *f)
{
    const vb_series_set *set = &s->series;
    fputs("# v: the centre's speed down the slope; w_r: the spin about the rolling axis times "
          "the depth of the lowest point under the centre (a ball's R), so that the contact "
          "point slips at v - w_r (docs/contact.md, \"3D: rolling and resting bodies\")\n",
          f);
    fprintf(f, "# each method at %d fixed step%s of the sweep, the coarsest first, and at the "
               "coarsest random step; the exact one at %d + 1 times\n",
            set->path_levels, set->path_levels == 1 ? "" : "s", VB_PATH_POINTS);
    if (set->full)
        fputs("# every step (--full-chart-data)\n", f);
    else
        fprintf(f,
                "# every step while there are at most %d; past that, in each of %d windows of "
                "time, the first, last, lowest and highest points\n",
                VB_PATH_POINTS, VB_PATH_COLUMNS);
    path_rows(s, f, &vb_motion_schema, VB_BODY_PATH_WIDTH);
}
