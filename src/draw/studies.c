/* studies.c — the charts of the studies besides a sweep (gpcharts.h): the
 * long runs' energy drift, the largest stable step, and float32 against
 * float64.  A key entry stands only for a curve that is there. */
#include "gpcharts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "drawing.h"
#include "palette.h"
#include "study_tables.h"

/* a run of rows with the same text in column a (and b, when b >= 0) */
typedef struct {
    size_t first, last;
} span_rows;

static size_t runs_of(const vb_csv *t, int a, int b, span_rows *out)
{
    size_t n = 0;
    for (size_t r = 0; r < t->n_rows; r++) {
        if (n && !strcmp(vb_csv_str(t, r, a), vb_csv_str(t, out[n - 1].first, a)) &&
            (b < 0 || !strcmp(vb_csv_str(t, r, b), vb_csv_str(t, out[n - 1].first, b)))) {
            out[n - 1].last = r;
            continue;
        }
        out[n++] = (span_rows){r, r};
    }
    return n;
}

static void titled(FILE *f, const char *title, const char *what)
{
    size_t n = strlen(title) + strlen(what) + 3;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s%s", title, title[0] ? ": " : "", what);
    vb_gp_str(f, s ? s : what);
    free(s);
}

/* the integrators of a table in order of first appearance: their count */
static size_t names_of(const vb_csv *t, int col, const char **out)
{
    size_t n = 0;
    for (size_t r = 0; r < t->n_rows; r++) {
        const char *s = vb_csv_str(t, r, col);
        size_t i = 0;
        while (i < n && strcmp(out[i], s) != 0)
            i++;
        if (i == n)
            out[n++] = s;
    }
    return n;
}

/* ---- long runs ----------------------------------------------------------------- */

/* The running maximum of the relative energy error |E - E0|/|E0| against
 * time, on log scales, a curve a method (dashed: with Kahan compensation,
 * only where the run had it: rk4 has no Kahan form), with guides of slope
 * 1/2 and 1. */
static int vb_chart_longrun(vb_chart *ch, const vb_chart_spec *spec, const vb_csv *t, char *err,
                            size_t errlen)
{
    const char *title = spec->title;
    const char *const need[] = {VB_LONGRUN_COL(KAHAN), VB_LONGRUN_COL(PERIODS),
                                VB_LONGRUN_COL(ENERGY_MAX), NULL};
    if (t->n_rows == 0) {
        snprintf(err, errlen, "%s: no rows to draw", t->path);
        return -1;
    }
    if (vb_csv_require(t, need, err, errlen) != 0 ||
        vb_csv_has(t, VB_LONGRUN_COL(INTEGRATOR), err, errlen) != 0)
        return -1;
    int ci = vb_csv_col(t, VB_LONGRUN_COL(INTEGRATOR)), ck = vb_csv_col(t, need[0]),
        cp = vb_csv_col(t, need[1]), ce = vb_csv_col(t, need[2]);
    span_rows *runs = malloc(t->n_rows * sizeof *runs);
    const char **names = malloc(t->n_rows * sizeof *names);
    if (!runs || !names) {
        free(runs);
        free(names);
        snprintf(err, errlen, "%s: out of memory", t->path);
        return -1;
    }
    size_t nr = runs_of(t, ci, ck, runs), nn = names_of(t, ci, names);
    double pmax = -INFINITY, emin = INFINITY, emax = -INFINITY;
    int kahan = 0;
    for (size_t r = 0; r < t->n_rows; r++) {
        double p = vb_csv_num(t, r, cp), e = vb_csv_num(t, r, ce);
        if (!isnan(p))
            pmax = fmax(pmax, p);
        if (isfinite(e) && e > 0) {
            emin = fmin(emin, e);
            emax = fmax(emax, e);
        }
        kahan |= vb_csv_num(t, r, ck) == 1;
    }
    if (!(emin <= emax))
        emin = emax = 1e-16; /* nothing drifted: an empty chart on a sensible axis */
    FILE *f = ch->f;
    vb_gp_begin(ch, 1000, 640, 11, 1.5, 0);
    fputs("set title ", f);
    titled(f, title, kahan ? "max |E - E_0|/|E_0| up to t; dashed: Kahan-compensated"
                           : "max |E - E_0|/|E_0| up to t");
    fprintf(f, " noenhanced\nset logscale xy\nset format x \"10^{%%L}\"\nset format y \"10^{%%L}\"\n"
               "set xlabel \"t (periods)\"\nset ylabel \"max relative energy error so far\"\n"
               "set xrange [1 : %.17g]\nset yrange [%.17g : %.17g]\n"
               "set key outside right top vertical noenhanced nobox samplen 3 font \",10\"\n",
            pmax * 1.5, emin / 3, emax * 3);
    const char *sep = "plot ";
    for (size_t k = 0; k < nr; k++) {
        vb_gp_block_begin(ch);
        for (size_t r = runs[k].first; r <= runs[k].last; r++)
            fprintf(f, "%s,%s\n", vb_csv_str(t, r, cp), vb_csv_str(t, r, ce));
        vb_gp_block_end(ch);
    }
    /* plain runs first, then the compensated ones, each a key entry of its own */
    for (int pass = 0; pass < 2; pass++)
        for (size_t k = 0; k < nr; k++) {
            const char *s = vb_csv_str(t, runs[k].first, ci);
            int kh = vb_csv_num(t, runs[k].first, ck) == 1;
            if (kh != pass)
                continue;
            char key[512];
            snprintf(key, sizeof key, "%s%s", s, kh ? " (Kahan)" : "");
            fprintf(f, "%s$c%zu using 1:2 with linespoints%s lc rgb \"%s\" pt %d ps 0.8 title ", sep,
                    k + 1, kh ? " dt 2" : "", vb_palette_colour(names, nn, s),
                    vb_palette_point(names, nn, s));
            vb_gp_str(f, key);
            sep = ", \\\n     ";
        }
    fprintf(f, "%s%.17g * sqrt(x) dt 3 lc rgb \"#888888\" title \"t^{1/2}\" enhanced, \\\n"
               "     %.17g * x dt 4 lc rgb \"#bbbbbb\" title \"t^1\" enhanced\n",
            sep, emin, emin);
    vb_gp_end(ch);
    free(runs);
    free(names);
    return 0;
}

/* ---- stability ------------------------------------------------------------------ */

/* The largest stable step against the varied parameter (the damped
 * spring's c, the orbit's e) or against the step jitter: a point per
 * integrator and value, the median over seeds with the range of the seeds
 * as a bar, and the closed-form limit, where there is one, as a dashed line
 * of the same colour. */
static int vb_chart_stability(vb_chart *ch, const vb_chart_spec *spec, const vb_csv *t, char *err,
                              size_t errlen)
{
    const char *title = spec->title;
    if (t->n_rows == 0) {
        snprintf(err, errlen, "%s: no rows to draw", t->path);
        return -1;
    }
    const char *const need[] = {VB_STAB_SUMMARY_COL(Z_MEDIAN), NULL};
    if (vb_csv_require(t, need, err, errlen) != 0 ||
        vb_csv_has(t, VB_STAB_SUMMARY_COL(INTEGRATOR), err, errlen) != 0)
        return -1;
    int ci = vb_csv_col(t, VB_STAB_SUMMARY_COL(INTEGRATOR)),
        cparam = vb_csv_col(t, VB_STAB_SUMMARY_COL(PARAM)),
        cmodel = vb_csv_col(t, VB_STAB_SUMMARY_COL(MODEL)),
        cth = vb_csv_col(t, VB_STAB_SUMMARY_COL(THEORY)),
        cj = vb_csv_col(t, VB_STAB_SUMMARY_COL(JITTER));
    const char *param = vb_csv_str(t, t->n_rows - 1, cparam), *model = vb_csv_str(t, t->n_rows - 1, cmodel);
    const char *xcol = param[0] ? VB_STAB_SUMMARY_COL(VALUE) : VB_STAB_SUMMARY_COL(JITTER);
    int cx = vb_csv_col(t, xcol);
    if (cx < 0) {
        snprintf(err, errlen, "%s: no column \"%s\" in the header: the chart needs it", t->path, xcol);
        return -1;
    }
    span_rows *runs = malloc(t->n_rows * sizeof *runs);
    const char **names = malloc(t->n_rows * sizeof *names);
    if (!runs || !names) {
        free(runs);
        free(names);
        snprintf(err, errlen, "%s: out of memory", t->path);
        return -1;
    }
    size_t nr = runs_of(t, ci, -1, runs), nn = names_of(t, ci, names);
    int theory = 0, jittered = 0;
    for (size_t r = 0; r < t->n_rows; r++) {
        theory |= vb_csv_finite(t, r, cth, NULL);
        jittered |= vb_csv_num(t, r, cj) > 0;
    }
    char what[256];
    snprintf(what, sizeof what, "largest stable step%s%s",
             jittered ? " (jittered: median, bars the range over seeds)" : "",
             theory ? "; dashed: theory" : "");
    FILE *f = ch->f;
    vb_gp_begin(ch, 1000, 640, 11, 1.5, 0);
    fputs("set title ", f);
    titled(f, title, what);
    fputs(" noenhanced\nset xlabel ", f);
    vb_gp_str(f, param[0] ? param : "step jitter j (steps dt (1 + j u), u uniform in [-1, 1))");
    fprintf(f, " noenhanced\nset ylabel \"largest stable %s\"\n",
            !strcmp(model, "orbit") ? "ω_p h" : !strcmp(model, "chain") ? "ω_max h" : "ω_0 h");
    fputs("set key outside right top vertical noenhanced nobox samplen 2.5 font \",10\"\n"
          "set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05\n",
          f);
    /* one value of x (a study of one jitter): a range about it, not
     * gnuplot's warning that it had to make one */
    double xlo = INFINITY, xhi = -INFINITY;
    for (size_t r = 0; r < t->n_rows; r++) {
        double x = vb_csv_num(t, r, cx);
        if (isfinite(x)) {
            xlo = fmin(xlo, x);
            xhi = fmax(xhi, x);
        }
    }
    if (xlo == xhi)
        fprintf(f, "set xrange [%.17g : %.17g]\n", xlo - fmax(0.5, 0.1 * fabs(xlo)),
                xhi + fmax(0.5, 0.1 * fabs(xhi)));
    int cm = vb_csv_col(t, VB_STAB_SUMMARY_COL(Z_MEDIAN)), clo = vb_csv_col(t, VB_STAB_SUMMARY_COL(Z_MIN)),
        chi = vb_csv_col(t, VB_STAB_SUMMARY_COL(Z_MAX));
    for (size_t k = 0; k < nr; k++) {
        vb_gp_block_begin(ch);
        for (size_t r = runs[k].first; r <= runs[k].last; r++)
            fprintf(f, "%s,%s,%s,%s,%s\n", vb_csv_str(t, r, cx), vb_csv_str(t, r, cm),
                    vb_csv_str(t, r, clo), vb_csv_str(t, r, chi), vb_csv_str(t, r, cth));
        vb_gp_block_end(ch);
    }
    const char *sep = "plot ";
    for (size_t k = 0; k < nr; k++) {
        const char *s = vb_csv_str(t, runs[k].first, ci);
        size_t j = 0;
        while (j < k && strcmp(vb_csv_str(t, runs[j].first, ci), s) != 0)
            j++;
        fprintf(f, "%s$c%zu using 1:2:3:4 with yerrorlines lc rgb \"%s\" pt %d ps 1.1 ", sep, k + 1,
                vb_palette_colour(names, nn, s), vb_palette_point(names, nn, s));
        if (j < k)
            fputs("notitle", f);
        else {
            fputs("title ", f);
            vb_gp_str(f, s);
        }
        sep = ", \\\n     ";
    }
    for (size_t k = 0; k < nr && theory; k++) {
        const char *s = vb_csv_str(t, runs[k].first, ci);
        fprintf(f, "%s$c%zu using 1:5 with lines dt 2 lw 1.2 lc rgb \"%s\" notitle", sep, k + 1,
                vb_palette_colour(names, nn, s));
    }
    fputc('\n', f);
    vb_gp_end(ch);
    free(runs);
    free(names);
    return 0;
}

/* ---- float32 --------------------------------------------------------------------- */

/* One method's error against its steps a period in float64 and in float32
 * about origins shifted by 0, 1e3 and 1e4: where it stops converging. */
static int vb_chart_float32(vb_chart *ch, const vb_csv *t, const char *integ, const char *title,
                            char *err, size_t errlen)
{
    const char *const need[] = {VB_FLOAT32_COL(STEPS_PER_PERIOD), VB_FLOAT32_COL(ERR_POS_MAX), NULL};
    if (vb_csv_require(t, need, err, errlen) != 0 ||
        vb_csv_has(t, VB_FLOAT32_COL(INTEGRATOR), err, errlen) != 0 ||
        vb_csv_has(t, VB_FLOAT32_COL(PRECISION), err, errlen) != 0 ||
        vb_csv_has(t, VB_FLOAT32_COL(OFFSET), err, errlen) != 0)
        return -1;
    int ci = vb_csv_col(t, VB_FLOAT32_COL(INTEGRATOR)), cp = vb_csv_col(t, VB_FLOAT32_COL(PRECISION)),
        co = vb_csv_col(t, VB_FLOAT32_COL(OFFSET)), cs = vb_csv_col(t, need[0]),
        ce = vb_csv_col(t, need[1]);
    static const struct {
        const char *precision, *offset, *colour, *title;
        int pt, enhanced;
    } curves[] = {{"float64", "0", "#000000", "float64", 6, 0},
                  {"float32", "0", "#1f77b4", "float32, offset 0", 4, 0},
                  {"float32", "1e3", "#ff7f0e", "float32, offset 10^3", 8, 1},
                  {"float32", "1e4", "#d62728", "float32, offset 10^4", 12, 1}};
    size_t rows = 0;
    for (size_t r = 0; r < t->n_rows; r++)
        rows += !strcmp(vb_csv_str(t, r, ci), integ) && !isnan(vb_csv_num(t, r, ce));
    if (rows == 0) {
        snprintf(err, errlen, "%s: no rows of %s", t->path, integ);
        return -1;
    }
    FILE *f = ch->f;
    vb_gp_begin(ch, 1000, 640, 11, 1.5, 0);
    char what[512];
    snprintf(what, sizeof what, "%s, largest position error over one period", integ);
    fputs("set title ", f);
    titled(f, title, what);
    fputs(" noenhanced\nset logscale xy\nset format x \"2^{%L}\"\nset logscale x 2\n"
          "set format y \"10^{%L}\"\nset xlabel \"steps a period\"\n"
          "set ylabel \"max position error (scene units)\"\n"
          "set key outside right top vertical noenhanced nobox samplen 3 font \",10\"\n",
          f);
    size_t n[4] = {0};
    for (int k = 0; k < 4; k++) {
        vb_gp_block_begin(ch);
        for (size_t r = 0; r < t->n_rows; r++)
            if (!strcmp(vb_csv_str(t, r, ci), integ) && !strcmp(vb_csv_str(t, r, cp), curves[k].precision) &&
                !strcmp(vb_csv_str(t, r, co), curves[k].offset)) {
                fprintf(f, "%s,%s\n", vb_csv_str(t, r, cs), vb_csv_str(t, r, ce));
                n[k]++;
            }
        vb_gp_block_end(ch);
    }
    const char *sep = "plot ";
    for (int k = 0; k < 4; k++)
        if (n[k]) {
            fprintf(f, "%s$c%d using 1:2 with linespoints lc rgb \"%s\" pt %d title \"%s\"%s", sep,
                    k + 1, curves[k].colour, curves[k].pt, curves[k].title,
                    curves[k].enhanced ? " enhanced" : "");
            sep = ", \\\n     ";
        }
    fputc('\n', f);
    vb_gp_end(ch);
    return 0;
}

/* ---- the entries: drawn by name alone, of the tables the studies write --------- */

const vb_chart_kind vb_kind_longrun = {
    .name = "longrun",
    .table = &vb_longrun_schema,
    .build = vb_chart_longrun,
};

const vb_chart_kind vb_kind_stability = {
    .name = "stability",
    .table = &vb_stab_summary_schema,
    .build = vb_chart_stability,
};

static int build_float32(vb_chart *ch, const vb_chart_spec *spec, const vb_csv *t, char *err,
                         size_t errlen)
{
    return vb_chart_float32(ch, t, spec->arg ? spec->arg : "", spec->title, err, errlen);
}

const vb_chart_kind vb_kind_float32 = {
    .name = "float32",
    .table = &vb_float32_schema,
    .args = VB_CHART_ARGS_INTEGRATOR,
    .build = build_float32,
};
