/* overtime.c — one error against time, one panel per plan (gpcharts.h): the
 * position error, the relative energy error (conservative cases: the file
 * has an err_energy column only for them), the drift off the rods (a model
 * with rods); a rigid body's attitude error, and its energy and world
 * angular momentum drift in one chart, a panel of each a plan
 * (rigid_timeseries.csv).  Each point is the largest error in one time window, so
 * spikes between samples are not lost; zero errors (t = 0, exact methods)
 * are not drawn on the log axis.  Each panel's y axis fits its own curves.
 * A curve equal to an earlier one (same_as, energy_same_as) says "= NAME"
 * in the key and is drawn striped over it (coincide.h). */
#include "gpcharts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "casecharts.h"
#include "charts.h"
#include "coincide.h"
#include "panels.h"
#include "palette.h"

/* a quantity's column and the column naming the curve it equals (-1:
 * none), of its table's schema */
typedef struct {
    const vb_schema *table;
    int col, samecol;
    const char *ylabel, *what;
    const char *panel; /* a chart of several: the panel's name, before its plan's */
} over_kind;

#define SERIES(c) &vb_series_schema, VB_COL_SERIES_##c
#define RIGID(c) &vb_rigid_series_schema, VB_COL_RIGID_SERIES_##c
/* which error a chart draws: the rigid body's energy chart draws its world
 * angular momentum's drift too */
typedef enum {
    VB_OVER_POS,
    VB_OVER_ENERGY,
    VB_OVER_CONSTRAINT,
    VB_OVER_ATTITUDE,
    VB_OVER_RIGID_ENERGY,
    VB_OVER_ANGMOM
} vb_over_what;

static const over_kind kinds[] = {
    [VB_OVER_POS] = {SERIES(ERR_POS), VB_COL_SERIES_SAME_AS,
                     "position error |x - x_exact| (length units)", "position error over time",
                     NULL},
    [VB_OVER_ENERGY] = {SERIES(ERR_ENERGY), VB_COL_SERIES_ENERGY_SAME_AS,
                        "relative energy error |E - E_0| / |E_0| (dimensionless)",
                        "energy error over time", NULL},
    /* drift off the rods is not compared; a rod is L/N of a chain of
     * length L, so the label names the rod's own length */
    [VB_OVER_CONSTRAINT] = {SERIES(ERR_CONSTRAINT), -1,
                            "rods off their length, largest | |x_i - x_j| - ℓ_ij | (length units)",
                            "drift off the rods over time", NULL},
    /* a rigid body's (rigid_timeseries.csv, docs/rigid.md §7): no same_as
     * column; curves within a line's width of another are keyed "≈" */
    [VB_OVER_ATTITUDE] = {RIGID(ERR_ATT), -1, "attitude error, the angle of q_exact* q (rad)",
                          "attitude error over time", NULL},
    [VB_OVER_RIGID_ENERGY] = {RIGID(ERR_ENERGY), -1, "relative energy error |E - E_0| / |E_0|",
                              "energy and angular momentum errors over time", "energy"},
    [VB_OVER_ANGMOM] = {RIGID(ERR_ANGMOM), -1, "world angular momentum drift |L - L_0| / |L_0|",
                        "energy and angular momentum errors over time", "world angular momentum"},
};

static const char *col_name(const over_kind *k) { return vb_schema_name(k->table, (size_t)k->col); }

static const char *same_name(const over_kind *k)
{
    return k->samecol < 0 ? NULL : vb_schema_name(k->table, (size_t)k->samecol);
}

/* one quantity's curves: the first's are the preamble's (V->C, V->ny) */
typedef struct {
    const over_kind *k;
    int cy;
    double *ny;
    vb_curves *C;
    vb_curves own; /* the second quantity's */
    double *own_ny;
    char *novel;
} over_part;

/* "SERIES" and its note, or "  (no velocity)" */
static void over_key(const over_part *P, size_t p, size_t s, char *key, size_t len)
{
    char note[512];
    vb_same_note(P->C, p, s, note, sizeof note);
    snprintf(key, len, "%s%s", P->C->series[s], P->novel[p * P->C->ns + s] ? "  (no velocity)" : note);
}

/* a quantity's curves, those that coincide, and which have no velocity;
 * the longest key into *keychars: 0, or -1 (out of memory) */
static int over_part_make(vb_panels *V, over_part *P, const over_kind *k, int first,
                          vb_over_what what, size_t *keychars)
{
    const vb_csv *t = V->t;
    P->k = k;
    P->cy = vb_csv_col(t, col_name(k));
    if (first) {
        P->C = &V->C;
        P->ny = V->ny;
    } else {
        P->C = &P->own;
        P->ny = P->own_ny = malloc((t->n_rows + 1) * sizeof *P->ny);
        if (!P->ny || vb_curves_init(&P->own, t, &V->gs, NULL, 0, same_name(k)) != 0)
            return -1;
    }
    size_t ns = P->C->ns;
    for (size_t r = 0; r < t->n_rows; r++) {
        double y = vb_csv_num(t, r, P->cy);
        P->ny[r] = isfinite(y) && y > 0 ? log10(y) : (double)NAN;
    }
    vb_curves_near(P->C, P->ny);
    /* the energy of an engine without velocity (docs/real-engines.md
     * §1.7): its cells are empty, nothing is drawn, and its key says why */
    P->novel = calloc(P->C->np * ns + 1, 1);
    if (!P->novel)
        return -1;
    for (size_t p = 0; p < P->C->np && what == VB_OVER_ENERGY; p++)
        for (size_t s = 0; s < ns; s++) {
            const vb_group *g = vb_curve(P->C, p, s);
            if (!g)
                continue;
            size_t r = g->first;
            while (r <= g->last && !vb_csv_str(t, r, P->cy)[0])
                r++;
            P->novel[p * ns + s] = r > g->last;
        }
    char key[1024];
    for (size_t p = 0; p < P->C->np; p++)
        for (size_t s = 0; s < ns; s++) {
            over_key(P, p, s, key, sizeof key);
            size_t l = vb_utf8_len(key);
            *keychars = l > *keychars ? l : *keychars;
        }
    return 0;
}

/* the step of each panel: 1 when they agree (one in the figure's title),
 * else 0 and each panel's in its own (a fixed plan's step lands on t_end:
 * 0.1922 where the case asks 0.2, and its random plan's mean is 0.2) */
static int panel_steps(const vb_panels *V, int cdt, double *pdt)
{
    const vb_curves *C0 = &V->C;
    int same = 1;
    for (size_t p = 0; p < C0->np; p++) {
        pdt[p] = (double)NAN;
        for (size_t s = 0; s < C0->ns && isnan(pdt[p]); s++) {
            const vb_group *g = vb_curve(C0, p, s);
            if (g)
                pdt[p] = vb_csv_num(V->t, g->first, cdt);
        }
        same &= p == 0 || pdt[p] == pdt[0];
    }
    return same;
}

/* a row: t and the quantity, a zero (not drawn on the log axis) as NaN, an
 * empty cell left missing */
typedef struct {
    int ct, cy;
} over_rows;

static void over_row(FILE *f, const vb_csv *t, size_t r, const void *arg)
{
    const over_rows *O = arg;
    const char *y = vb_csv_str(t, r, O->cy);
    fprintf(f, "%s,%s\n", vb_csv_str(t, r, O->ct), !y[0] || vb_csv_num(t, r, O->cy) > 0 ? y : "NaN");
}

/* panel p of quantity P: its y range, its title (with its step when the
 * panels' differ), its data and curves */
static void over_panel(vb_panels *V, const over_part *P, size_t p, int same, const double *pdt,
                       int ct)
{
    FILE *f = V->f;
    const vb_curves *Cp = P->C;
    const char **series = Cp->series;
    size_t ns = Cp->ns;
    double ylo, yhi;
    fputs("set autoscale y\n", f);
    if (vb_panels_ny_range(V, Cp, P->ny, p, &ylo, &yhi) == 0) {
        yhi = fmin(yhi, ylo + VB_MAX_DECADES);
        fprintf(f, "set yrange [%.17g : %.17g]\n", pow(10, floor(ylo - 0.05)),
                pow(10, ceil(yhi + 0.05)));
    }
    char ptitle[600], named[300];
    const char *plain = vb_plan_title(Cp->plans[p], "random steps (seed 1)", "recorded frame trace");
    if (P->k->panel) {
        snprintf(named, sizeof named, "%s, %s", P->k->panel, plain);
        plain = named;
    }
    if (same || isnan(pdt[p]) || !strcmp(Cp->plans[p], "trace"))
        snprintf(ptitle, sizeof ptitle, "%s", plain);
    else
        snprintf(ptitle, sizeof ptitle, "%s, %sdt = %g", plain,
                 strcmp(Cp->plans[p], "random") ? "" : "mean ", pdt[p]);
    vb_panels_title(V, ptitle);
    vb_near_label(Cp, p, "errors", 0.14, f);
    vb_curves_stripes(Cp, p, f);
    const over_rows O = {ct, P->cy};
    int first = vb_panels_blocks(V, Cp, p, over_row, &O);
    const char *sep = "plot ";
    for (size_t s = 0, b = (size_t)first; s < ns; s++)
        if (vb_curve(Cp, p, s)) {
            fprintf(f, "%s$c%zu using 1:2 with lines lw %g dt %d lc rgb \"%s\" notitle", sep, b++,
                    vb_curve_lw(Cp, p, s, 1.4), vb_curve_dt(Cp, p, s),
                    vb_palette_colour(series, ns, series[s]));
            sep = ", \\\n     ";
        }
    char key[1024];
    for (size_t s = 0; s < ns; s++)
        if (vb_curve(Cp, p, s)) {
            over_key(P, p, s, key, sizeof key);
            fprintf(f, "%skeyentry with lines lw 1.6 lc rgb \"%s\" title ", sep,
                    vb_palette_colour(series, ns, series[s]));
            vb_gp_str(f, key);
            sep = ", \\\n     ";
        }
    fputc('\n', f);
}

static int vb_chart_over_time(vb_chart *ch, const vb_csv *t, vb_over_what what,
                              const char *title, char *err, size_t errlen)
{
    /* the energy and angular momentum of a rigid body: one chart, a panel
     * of each a plan */
    size_t nk = what == VB_OVER_RIGID_ENERGY ? 2 : 1;
    const over_kind *ks[2] = {&kinds[what], &kinds[VB_OVER_ANGMOM]};
    /* NULL-ended: a rigid body's two columns fill the fourth slot */
    /* t and dt: the same names in both tables (test_schema.c) */
    const char *need[5] = {VB_SERIES_COL(T), VB_SERIES_COL(DT), col_name(ks[0]),
                           nk > 1 ? col_name(ks[1]) : NULL, NULL};
    vb_panels V;
    over_part parts[2] = {{0}};
    int rc = -1;
    if (vb_panels_open(&V, ch, t, need, VB_PANELS_EVERY, same_name(ks[0]), err, errlen) != 0)
        goto done;
    int ct = vb_csv_col(t, need[0]), cdt = vb_csv_col(t, need[1]);
    double tmax = -INFINITY, dt = -INFINITY;
    for (size_t r = 0; r < t->n_rows; r++) {
        double tt = vb_csv_num(t, r, ct), d = vb_csv_num(t, r, cdt);
        if (!isnan(tt) && !isnan(d)) {
            tmax = fmax(tmax, tt);
            dt = fmax(dt, d);
        }
    }
    size_t keychars = 10, panels = 0;
    for (size_t q = 0; q < nk; q++) {
        if (over_part_make(&V, &parts[q], ks[q], q == 0, what, &keychars) != 0) {
            snprintf(err, errlen, "%s: out of memory", t->path);
            goto done;
        }
        panels += parts[q].C->np;
    }
    FILE *f = ch->f;
    vb_gp_begin(ch, 1000, 430.0 * (double)panels + 50, 11, 1.5, 1);
    fputs("set logscale y\nset format y \"10^{%L}\"\nset xlabel \"time t (time units)\" noenhanced\n", f);
    fprintf(f, "set xrange [0 : %.17g]\n", tmax);
    vb_panels_key_right(&V, -5, keychars, 1000.0);
    double pdt[VB_MAX_PANELS];
    int same = panel_steps(&V, cdt, pdt);
    {
        char what_text[600];
        if (same)
            snprintf(what_text, sizeof what_text, "%s, dt = %g", ks[0]->what, dt);
        else
            snprintf(what_text, sizeof what_text, "%s", ks[0]->what);
        vb_panels_layout(&V, panels, title, what_text);
    }
    for (size_t q = 0; q < nk; q++) {
        fputs("set ylabel ", f);
        vb_gp_str(f, parts[q].k->ylabel);
        fputs(" noenhanced\n", f);
        for (size_t p = 0; p < parts[q].C->np; p++)
            over_panel(&V, &parts[q], p, same, pdt, ct);
    }
    fputs("unset multiplot\n", f);
    vb_gp_end(ch);
    rc = 0;
done:
    for (size_t q = 0; q < nk; q++) {
        free(parts[q].own_ny);
        free(parts[q].novel);
        vb_curves_free(&parts[q].own);
    }
    vb_panels_close(&V);
    return rc;
}

/* ---- the entries: a sweep's three, a rigid body's two ---------------------- */

#define OVER_BUILD(fn, what)                                                                 \
    static int fn(vb_chart *ch, const vb_chart_spec *spec, const vb_csv *t, char *err,       \
                  size_t errlen)                                                             \
    {                                                                                        \
        return vb_chart_over_time(ch, t, what, spec->title, err, errlen);                    \
    }
OVER_BUILD(build_pos, VB_OVER_POS)
OVER_BUILD(build_energy, VB_OVER_ENERGY)
OVER_BUILD(build_constraint, VB_OVER_CONSTRAINT)
OVER_BUILD(build_attitude, VB_OVER_ATTITUDE)
OVER_BUILD(build_invariants, VB_OVER_RIGID_ENERGY)

const vb_chart_kind vb_kind_error_time = {
    .name = "error-time",
    .table = &vb_series_schema,
    .build = build_pos,
    .group = VB_CHARTS_PARTICLES,
    .caption = "position error over time at the coarsest step",
};

/* a sweep's timeseries.csv with the column: a conservative case's energy,
 * a model with rods' drift off them */
static int has_energy(const vb_chart_case *cc, const vb_chart_kind *kind)
{
    int rows;
    return vb_chart_case_header(cc, kind->table, VB_SERIES_COL(ERR_ENERGY), &rows);
}

const vb_chart_kind vb_kind_energy_time = {
    .name = "energy-time",
    .table = &vb_series_schema,
    .build = build_energy,
    .group = VB_CHARTS_PARTICLES,
    .applies = has_energy,
    .caption = "relative energy error over time, fixed and random steps",
};

static int has_rods(const vb_chart_case *cc, const vb_chart_kind *kind)
{
    int rows;
    return vb_chart_case_header(cc, kind->table, VB_SERIES_COL(ERR_CONSTRAINT), &rows);
}

const vb_chart_kind vb_kind_constraint_time = {
    .name = "constraint-time",
    .table = &vb_series_schema,
    .build = build_constraint,
    .group = VB_CHARTS_PARTICLES,
    .applies = has_rods,
    .caption = "how far the rods are off their lengths over time",
};

const vb_chart_kind vb_kind_attitude_time = {
    .name = "attitude-time",
    .table = &vb_rigid_series_schema,
    .build = build_attitude,
    .group = VB_CHARTS_BODY,
    .applies = vb_chart_case_has_its,
    .caption = "the attitude error (the angle of q_exact* q) over time at the coarsest step, "
               "window maxima",
};

const vb_chart_kind vb_kind_invariants_time = {
    .name = "invariants-time",
    .table = &vb_rigid_series_schema,
    .build = build_invariants,
    .group = VB_CHARTS_BODY,
    .applies = vb_chart_case_has_its,
    .caption = "the relative energy error and the world angular momentum's drift over time at "
               "the coarsest step, window maxima",
};
