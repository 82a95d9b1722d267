/* rollcharts.c — the charts of a rigid body at a contact (docs/contact.md,
 * "3D: rolling and resting bodies"), each written as gnuplot commands by C
 * that reads its table (gpcharts.h), each beside its entry in the table of
 * chart kinds (chartkinds.c):
 *  - roll-time (motion.csv): v and w R against time, a panel a solver,
 *    each method's at one fixed step beside the exact ones: the moment the
 *    slide turns into a roll;
 *  - creep (contact.csv of a body that must stick): |creep| against dt,
 *    log-log, a panel a rotation method, a curve a solver;
 *  - roll-map (grid.csv of a roll grid over alpha and mu, with each
 *    point's contact.csv beside it): where each solver's ball rolled,
 *    against the exact boundary tan(alpha) = mu (1 + k)/k.
 * Each returns 0, or -1 with a message naming the file.
 *
 * A row's integrator is METHOD+SOLVER (docs/contact.md, "Rows
 * METHOD+SOLVER"): each solver keeps one colour on every chart, the
 * engines' solvers in the order the cases list them. */
#include "gpcharts.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casecharts.h"
#include "charts.h"
#include "contact_table.h"
#include "grid.h"
#include "palette.h"
#include "pick.h"

/* the step roll-time draws: 1/60 s (a game's frame) where the table has
 * it, else its coarsest fixed step */
#define VB_ROLL_TIME_DT (1.0 / 60.0)

static const struct {
    const char *name, *colour;
    int point;
} solvers[] = {{"toi", "#000000", 6},        {"pgs", "#1f77b4", 4},
               {"soft", "#ff7f0e", 8},       {"xpbd", "#2ca02c", 12},
               {"speculative", "#9467bd", 2}, {"regularized", "#d62728", 10}};
#define N_SOLVERS (sizeof solvers / sizeof solvers[0])

/* the solver of METHOD+SOLVER (the whole name without a '+') */
static const char *solver_of(const char *integ)
{
    const char *p = strrchr(integ, '+');
    return p ? p + 1 : integ;
}

static const char *solver_colour(const char *integ)
{
    for (size_t k = 0; k < N_SOLVERS; k++)
        if (!strcmp(solvers[k].name, solver_of(integ)))
            return solvers[k].colour;
    return VB_EXACT_COLOUR;
}

static int solver_point(const char *integ)
{
    for (size_t k = 0; k < N_SOLVERS; k++)
        if (!strcmp(solvers[k].name, solver_of(integ)))
            return solvers[k].point;
    return 1;
}

/* the most methods or solvers a chart draws */
#define MAX_PARTS 64

/* A roll-time panel's name: a row METHOD+SOLVER's solver; an engine's
 * setting's engine, its name up to the first '-' ("jolt-box": "jolt"),
 * so that each engine's settings share its panel. */
static void panel_of(const char *name, char *buf, size_t len)
{
    const char *plus = strrchr(name, '+'), *dash = strchr(name, '-');
    if (plus)
        snprintf(buf, len, "%s", plus + 1);
    else
        snprintf(buf, len, "%.*s", dash ? (int)(dash - name) : (int)strlen(name), name);
}

/* the distinct values of part (0: METHOD, 1: the panel, panel_of) of the
 * series, in order of first appearance, into out and buf (room for
 * MAX_PARTS, the rest left out); their number */
static size_t parts(const vb_groups *gs, int part, const char **out, char (*buf)[128])
{
    size_t n = 0;
    for (size_t s = 0; s < gs->n_series && n < MAX_PARTS; s++) {
        const char *name = gs->series[s], *plus = strrchr(name, '+');
        char p[128];
        if (part)
            panel_of(name, p, sizeof p);
        else
            snprintf(p, sizeof p, "%.*s", plus ? (int)(plus - name) : (int)strlen(name), name);
        size_t k = 0;
        while (k < n && strcmp(out[k], p) != 0)
            k++;
        if (k == n) {
            snprintf(buf[n], sizeof buf[n], "%s", p);
            out[n] = buf[n];
            n++;
        }
    }
    return n;
}

/* the panels' layout under the chart's title */
static void layout(FILE *f, size_t rows, size_t cols, const char *head, int pt)
{
    fprintf(f, "set multiplot layout %zu, %zu title ", rows, cols);
    vb_gp_str(f, head);
    fprintf(f, " noenhanced font \",%d\"\n", pt);
}

/* "dt = 1/60 s" where it is that step, else "dt = 0.0333 s" */
static void dt_text(double dt, char *buf, size_t len)
{
    if (fabs(dt * 60.0 - 1.0) <= VB_PICK_STEP_TOL)
        snprintf(buf, len, "dt = 1/60 s");
    else
        snprintf(buf, len, "dt = %.4g s", dt);
}

/* ---- roll-time: v and w R against t ---------------------------------------- */

/* a block of the rows of g at step dt (dt 0: every row): t, v, w_r; the
 * rows it holds into *n */
static int motion_block(vb_chart *ch, const vb_csv *t, const vb_group *g, double dt, size_t *n)
{
    int ct = vb_csv_col(t, VB_MOTION_COL(T)), cv = vb_csv_col(t, VB_MOTION_COL(V)),
        cw = vb_csv_col(t, VB_MOTION_COL(W_R)), cd = vb_csv_col(t, VB_CHART_DT);
    int id = vb_gp_block_begin(ch);
    *n = 0;
    for (size_t r = g->first; r <= g->last; r++) {
        /* a method's rows hold each of its steps in turn */
        if (dt > 0.0 && !(fabs(vb_csv_num(t, r, cd) - dt) <= VB_PICK_STEP_TOL * dt))
            continue;
        fprintf(ch->f, "%s,%s,%s\n", vb_csv_str(t, r, ct), vb_csv_str(t, r, cv),
                vb_csv_str(t, r, cw));
        (*n)++;
    }
    vb_gp_block_end(ch);
    return id;
}

/* a number of the table's '# model=' line (" key=VALUE"), or NAN */
static double model_value(const vb_csv *t, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, " %s=", key);
    for (size_t i = 0; i < t->n_comments; i++)
        if (strncmp(t->comments[i], "# model=", 8) == 0) {
            const char *at = strstr(t->comments[i], pat);
            return at ? strtod(at + strlen(pat), NULL) : (double)NAN;
        }
    return (double)NAN;
}

/* roll-time's title into head, and where its time axis starts: 0, or for
 * a ball dropped from `height` (roll's key; JoltPhysics#2121's set-up) a
 * tenth of a second before it lands, at t_l = sqrt(2 height/(g cos
 * alpha)).  A table of the lab's rows alone keeps the words it always
 * had; one with engines says how their panels go. */
static double roll_time_head(const vb_csv *t, const vb_groups *gs, const vb_group *ex,
                             double dt, const char *title, char *head, size_t len)
{
    char at_dt[64];
    dt_text(dt, at_dt, sizeof at_dt);
    int engines = 0;
    for (size_t s = 0; s < gs->n_series; s++)
        engines |= strcmp(gs->series[s], "exact") != 0 && !strchr(gs->series[s], '+');
    double height = model_value(t, "height"), alpha = model_value(t, "alpha");
    double g = model_value(t, "g"), tl = 0.0;
    if (height > 0.0 && g > 0.0 && alpha >= 0.0)
        tl = sqrt(2.0 * height / (g * cos(alpha * M_PI / 180.0)));
    if (!engines && !(tl > 0.0)) {
        snprintf(head, len,
                 "%s%sthe speed down the slope v (solid) and w R (dashed) against time, %s,\n"
                 "each method round each solver, a panel a solver; the exact ones grey (the "
                 "contact point slips at v - w R)",
                 title, title[0] ? ": " : "", at_dt);
        return 0.0;
    }
    char what[256] = "";
    if (tl > 0.0) {
        /* the exact speed at the end: where the exact ball rolls on */
        int cv = vb_csv_col(t, VB_MOTION_COL(V));
        snprintf(what, sizeof what, "\nafter the drop from %g m (its lowest point): the exact ball "
                 "lands at %.4g s and ends at %.4g m/s", height, tl, vb_csv_num(t, ex->last, cv));
    }
    snprintf(head, len,
             "%s%sv (solid) and w R (dashed) %s against time, %s%s,\n"
             "%s; the exact ones grey (the contact point slips at v - w R)",
             title, title[0] ? ": " : "", alpha == 0.0 ? "along the floor" : "down the slope",
             at_dt, what,
             engines ? "a panel an engine (its settings) or a lab solver (each method round it)"
                     : "each method round each solver, a panel a solver");
    return tl > 0.0 ? fmax(0.0, tl - 0.1) : 0.0;
}

static int vb_chart_roll_time(vb_chart *ch, const vb_chart_spec *spec, const vb_csv *t,
                              char *err, size_t errlen)
{
    const char *title = spec->title;
    const char *need[] = {VB_MOTION_COL(T), VB_MOTION_COL(V), VB_MOTION_COL(W_R), NULL};
    vb_groups gs = {0};
    if (vb_csv_require(t, need, err, errlen) != 0 || vb_groups_make(t, &gs, err, errlen) != 0)
        return -1;
    double steps[VB_PICK_MAX_STEPS];
    size_t ns = vb_pick_steps(t, steps);
    int at = vb_pick_step(steps, ns, VB_ROLL_TIME_DT);
    const vb_group *ex = vb_group_find(&gs, "exact", "exact");
    if (ns == 0 || !ex) {
        snprintf(err, errlen, "%s: no fixed step or no exact rows to draw", t->path);
        vb_groups_free(&gs);
        return -1;
    }
    double dt = steps[at < 0 ? 0 : at];
    const char *sv[MAX_PARTS];
    char buf[MAX_PARTS][128];
    size_t np = parts(&gs, 1, sv, buf);
    FILE *f = ch->f;
    size_t cols = np > 1 ? 2 : 1, rows = (np + cols - 1) / cols;
    vb_gp_begin(ch, 1300, (double)rows * 330 + 70, 10, 1.5, 0);
    char head[1024];
    double from = roll_time_head(t, &gs, ex, dt, title, head, sizeof head);
    layout(f, rows, cols, head, 11);
    /* the key above the curves, in head room of its own: a curve runs
     * through every corner of a panel (v from the top left on the flat, to
     * the top right down a slope) */
    if (from > 0.0) /* a drop: from just before its landing */
        fprintf(f, "set xrange [%.17g:*]\n", from);
    fputs("set xlabel \"time t (s)\"\nset ylabel \"m/s\"\nset offsets 0, 0, graph 0.6, 0\n", f);
    /* a drop's panels hold an engine's settings: more, longer keys */
    fprintf(f, "set key inside top center vertical maxrows %d noenhanced font \",%d\" samplen 2.5 "
               "opaque box\n",
            from > 0.0 ? 4 : 3, from > 0.0 ? 7 : 8);
    size_t exact_rows;
    int ce = motion_block(ch, t, ex, 0.0, &exact_rows);
    for (size_t p = 0; p < np; p++) {
        fputs("set title ", f);
        vb_gp_str(f, sv[p]);
        fputs(" noenhanced\n", f);
        int ids[64], nid = 0;
        const char *names[64];
        for (size_t k = 0; k < gs.n && nid < 64; k++) {
            const vb_group *g = &gs.g[k];
            size_t held;
            char panel[128];
            panel_of(g->integ, panel, sizeof panel);
            if (strcmp(g->plan, "fixed") || strcmp(panel, sv[p]))
                continue;
            names[nid] = g->integ;
            ids[nid] = motion_block(ch, t, g, dt, &held);
            nid += held > 0;
        }
        fprintf(f, "plot $c%d using 1:2 with lines lc rgb \"%s\" lw 5 title \"exact v\", \\\n"
                   "     $c%d using 1:3 with lines lc rgb \"%s\" lw 5 dt (8,5) title \"exact w R\"",
                ce, VB_EXACT_COLOUR, ce, "#bbbbbb");
        for (int k = 0; k < nid; k++) {
            static const char *const method_colours[] = {"#d62728", "#1f77b4", "#2ca02c",
                                                         "#9467bd"};
            const char *colour = method_colours[k % 4];
            fprintf(f, ", \\\n     $c%d using 1:2 with linespoints lc rgb \"%s\" lw 1.5 pt 7 ps "
                       "0.5 title ",
                    ids[k], colour);
            char key[256];
            const char *plus = strrchr(names[k], '+');
            int ml = plus ? (int)(plus - names[k]) : (int)strlen(names[k]);
            snprintf(key, sizeof key, "v, %.*s", ml, names[k]);
            vb_gp_str(f, key);
            fprintf(f, ", \\\n     $c%d using 1:3 with linespoints lc rgb \"%s\" lw 1.5 dt (4,3) "
                       "pt 6 ps 0.6 title ",
                    ids[k], colour);
            snprintf(key, sizeof key, "w R, %.*s", ml, names[k]);
            vb_gp_str(f, key);
        }
        fputc('\n', f);
    }
    fputs("unset multiplot\n", f);
    vb_gp_end(ch);
    vb_groups_free(&gs);
    return 0;
}

/* ---- creep: |creep| against dt, log-log -------------------------------------- */

/* a row of a body that must stick (creep_exact 0), fixed steps */
static int sticks(const vb_csv *t, size_t r, int cx, int cp)
{
    return vb_csv_num(t, r, cx) == 0.0 && !strcmp(vb_csv_str(t, r, cp), "fixed");
}

/* a row of the case's contact.csv that `holds` says applies: which of
 * these charts a body at a contact gets is what its runs measured, not its
 * model's name */
static int any_row(const vb_chart_case *cc, int (*holds)(const vb_csv *t, size_t r))
{
    char path[PATH_MAX * 2];
    vb_chart_case_path(cc, &vb_contact_schema, path, sizeof path);
    vb_csv t;
    char err[512];
    int any = 0;
    if (vb_csv_read(path, &t, err, sizeof err) == 0)
        for (size_t r = 0; r < t.n_rows && !any; r++)
            any = holds(&t, r);
    vb_csv_free(&t);
    return any;
}

static int round_row(const vb_csv *t, size_t r)
{
    int cx = vb_csv_col(t, VB_CONTACT_COL(T_ROLL_EXACT));
    return cx >= 0 && !isnan(vb_csv_num(t, r, cx));
}

/* a lab solver's row (METHOD+SOLVER) of a body that must stick: an
 * engine's rows are make engines' own creep chart's
 * (engines/check/creep_chart.py, every engine and setting together) */
static int sticking_row(const vb_csv *t, size_t r)
{
    int cx = vb_csv_col(t, VB_CONTACT_COL(CREEP_EXACT)), cp = vb_csv_col(t, VB_CHART_PLAN),
        ci = vb_csv_col(t, VB_CHART_INTEGRATOR);
    return cx >= 0 && cp >= 0 && ci >= 0 && sticks(t, r, cx, cp) && strchr(vb_csv_str(t, r, ci), '+');
}

/* contact.csv of a round body (t_roll_exact a number, inf where it never
 * rolls; a box's is blank) */
static int is_round(const vb_chart_case *cc, const vb_chart_kind *kind)
{
    (void)kind; /* its table is motion.csv; what it measured is contact.csv's */
    return any_row(cc, round_row);
}

/* contact.csv of a body that must stick: a row with creep_exact 0 */
static int must_stick(const vb_chart_case *cc, const vb_chart_kind *kind)
{
    (void)kind;
    return any_row(cc, sticking_row);
}

/* the key of a curve: the solver, and what of it a log axis cannot show */
static void creep_key(const char *integ, size_t drawn, size_t zero, size_t neg, size_t blank,
                      char *buf, size_t len)
{
    int n = snprintf(buf, len, "%s", solver_of(integ));
    if (zero && !drawn)
        n += snprintf(buf + n, len - (size_t)n, ": 0 at every dt (exact; not on a log axis)");
    else if (zero)
        n += snprintf(buf + n, len - (size_t)n, " (0 at %zu dt, not drawn)", zero);
    if (neg && n < (int)len)
        n += snprintf(buf + n, len - (size_t)n, " (%zu up the slope)", neg);
    if (blank && n < (int)len)
        snprintf(buf + n, len - (size_t)n, " (%zu unmeasured)", blank);
}

/* one panel: the curves of METHOD, a solver each: their data blocks, then
 * the plot (a block may not start inside a command) */
static void creep_panel(vb_chart *ch, const vb_csv *t, const vb_groups *gs, const char *method)
{
    int cd = vb_csv_col(t, VB_CHART_DT), cc = vb_csv_col(t, VB_CONTACT_COL(CREEP)),
        cx = vb_csv_col(t, VB_CONTACT_COL(CREEP_EXACT)), cp = vb_csv_col(t, VB_CHART_PLAN);
    FILE *f = ch->f;
    size_t ml = strlen(method), nc = 0, any_drawn = 0;
    double dt_lo = INFINITY, dt_hi = 0.0;
    struct {
        const vb_group *g;
        int id;
        char key[512];
    } cv[64];
    for (size_t k = 0; k < gs->n && nc < 64; k++) {
        const vb_group *g = &gs->g[k];
        if (strcmp(g->plan, "fixed") || strncmp(g->integ, method, ml) || g->integ[ml] != '+')
            continue;
        size_t drawn = 0, zero = 0, neg = 0, blank = 0;
        for (size_t r = g->first; r <= g->last; r++) {
            double c;
            if (!sticks(t, r, cx, cp))
                continue;
            double dt = vb_csv_num(t, r, cd);
            dt_lo = fmin(dt_lo, dt), dt_hi = fmax(dt_hi, dt);
            if (!vb_csv_finite(t, r, cc, &c))
                blank++;
            else if (c == 0.0)
                zero++;
            else
                drawn++, neg += c < 0.0;
        }
        if (!drawn && !zero && !blank)
            continue;
        cv[nc].g = g;
        cv[nc].id = 0;
        creep_key(g->integ, drawn, zero, neg, blank, cv[nc].key, sizeof cv[nc].key);
        if (drawn) {
            any_drawn++;
            cv[nc].id = vb_gp_block_begin(ch);
            for (size_t r = g->first; r <= g->last; r++) {
                double c;
                if (sticks(t, r, cx, cp) && vb_csv_finite(t, r, cc, &c) && c != 0.0)
                    fprintf(f, "%s,%.10g\n", vb_csv_str(t, r, cd), fabs(c));
            }
            vb_gp_block_end(ch);
        }
        nc++;
    }
    const char *sep = "plot ";
    /* keys alone (every solver exact, or none here): gnuplot 5.4 stops at
     * a plot of key entries only, and a log axis needs a range with no
     * points: the steps' range, and a y decade band that says nothing */
    if (!any_drawn) {
        if (dt_hi > 0.0)
            fprintf(f, "set xrange [%.10g:%.10g]\n", dt_lo / 1.5, dt_hi * 1.5);
        else
            fputs("set xrange [0.001:0.1]\n", f);
        fputs("set yrange [1e-9:1]\n", f);
        fputs("plot NaN notitle", f);
        sep = ", \\\n     ";
    }
    for (size_t k = 0; k < nc; k++) {
        const char *colour = solver_colour(cv[k].g->integ);
        int pt = solver_point(cv[k].g->integ);
        /* a curve with nothing a log axis can show is a key alone */
        if (cv[k].id)
            fprintf(f, "%s$c%d using 1:2 with linespoints lc rgb \"%s\" lw 1.6 pt %d ps 1.3 title ",
                    sep, cv[k].id, colour, pt);
        else
            fprintf(f, "%skeyentry with points lc rgb \"%s\" pt %d ps 1.3 title ", sep, colour, pt);
        vb_gp_str(f, cv[k].key);
        sep = ", \\\n     ";
    }
    if (!nc)
        fprintf(f, "%skeyentry title \"no body that must stick\"", sep);
    fputc('\n', f);
    if (!any_drawn)
        fputs("set autoscale xy\n", f);
}

static int vb_chart_creep(vb_chart *ch, const vb_chart_spec *spec, const vb_csv *t, char *err,
                          size_t errlen)
{
    const char *title = spec->title;
    const char *need[] = {VB_CHART_DT, NULL};
    vb_groups gs = {0};
    if (vb_csv_require(t, need, err, errlen) != 0 ||
        vb_csv_has(t, VB_CONTACT_COL(CREEP), err, errlen) != 0 ||
        vb_csv_has(t, VB_CONTACT_COL(CREEP_EXACT), err, errlen) != 0 ||
        vb_groups_make(t, &gs, err, errlen) != 0)
        return -1;
    const char *mv[MAX_PARTS];
    char buf[MAX_PARTS][128];
    size_t nm = 0, all = parts(&gs, 0, mv, buf);
    /* a panel a method round the lab's solvers: an engine's row (no
     * METHOD+SOLVER) is engines/check/creep_chart.py's to draw */
    for (size_t m = 0; m < all; m++) {
        size_t ml = strlen(mv[m]);
        int solved = 0;
        for (size_t s = 0; s < gs.n_series && !solved; s++)
            solved = !strncmp(gs.series[s], mv[m], ml) && gs.series[s][ml] == '+';
        if (solved)
            mv[nm++] = mv[m];
    }
    FILE *f = ch->f;
    vb_gp_begin(ch, 1100, (double)nm * 380 + 80, 11, 1.5, 0);
    char head[1024];
    snprintf(head, sizeof head,
             "%s%sthe creep of a body that must stick (exact: 0) against dt,\n|creep| on log "
             "axes, a curve a solver; an exact 0 cannot be drawn on a log axis: its key says so",
             title, title[0] ? ": " : "");
    layout(f, nm, 1, head, 11);
    fputs("set logscale xy\nset format y \"%.0e\"\nset xlabel \"dt (s)\"\n"
          "set ylabel \"|creep| (m): moved since it must stick\"\n"
          "set key outside right top vertical noenhanced font \",9\" samplen 2.5\n"
          "set rmargin at screen 0.62\n",
          f);
    for (size_t m = 0; m < nm; m++) {
        fputs("set title ", f);
        char pt[256];
        snprintf(pt, sizeof pt, "%s round each solver, fixed steps", mv[m]);
        vb_gp_str(f, pt);
        fputs(" noenhanced\n", f);
        creep_panel(ch, t, &gs, mv[m]);
    }
    fputs("unset multiplot\n", f);
    vb_gp_end(ch);
    vb_groups_free(&gs);
    return 0;
}

/* ---- roll-map: alpha against mu, where each solver's ball rolled ------------ */

/* the model's k from a table's provenance line "# model=roll ... k=K ...";
 * NaN when it is not there */
static double model_k(const vb_csv *t, int *roll)
{
    *roll = 0;
    for (size_t i = 0; i < t->n_comments; i++) {
        const char *c = t->comments[i];
        if (strncmp(c, "# model=", 8) != 0)
            continue;
        *roll = !strncmp(c + 8, "roll ", 5);
        const char *k = strstr(c, " k=");
        return k ? strtod(k + 3, NULL) : (double)NAN;
    }
    return NAN;
}

/* grid.csv's keys are exactly the roll model's parameters alpha and mu
 * (columns no schema names: a grid's keys are its case file's): their
 * columns */
static int map_keys(const vb_csv *t, int *ca, int *cm)
{
    int first, nk;
    if (vb_grid_keys(t, &first, &nk) != 0 || nk != 2)
        return -1;
    *ca = *cm = -1;
    for (int c = first; c < first + nk; c++) {
        if (!strcmp(t->head[c], "alpha"))
            *ca = c;
        if (!strcmp(t->head[c], "mu"))
            *cm = c;
    }
    return *ca >= 0 && *cm >= 0 ? 0 : -1;
}

/* grid.csv of model roll whose keys are alpha and mu */
static int is_roll_map(const vb_chart_case *cc, const vb_chart_kind *kind)
{
    char path[PATH_MAX * 2];
    vb_chart_case_path(cc, kind->table, path, sizeof path);
    vb_csv t;
    char err[512];
    int ca, cm, roll = 0, ok = vb_csv_read(path, &t, err, sizeof err) == 0 &&
                               map_keys(&t, &ca, &cm) == 0 && isfinite(model_k(&t, &roll)) && roll;
    vb_csv_free(&t);
    return ok;
}

/* a grid point's verdicts, read from its own contact.csv: the coarsest
 * fixed step's rows */
typedef struct {
    double alpha, mu, dt;
    char integ[64][128];
    int verdict[64]; /* 1 rolled (t_roll finite), 0 never rolled (inf), -1 unmeasured */
    size_t n;
} map_point;

static int read_point(const vb_csv *grid, size_t r, int ca, int cm, map_point *pt, char *err,
                      size_t errlen)
{
    /* RESULTS/NAME/grid.csv -> RESULTS/NAME@KEY=VALUE,.../contact.csv (the
     * point's name as run writes it: the keys in grid.csv's order, their
     * values as grid.csv gives them) */
    char dir[PATH_MAX], path[PATH_MAX * 2];
    snprintf(dir, sizeof dir, "%s", grid->path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    int first = ca < cm ? ca : cm, second = ca < cm ? cm : ca;
    snprintf(path, sizeof path, "%s@%s=%s,%s=%s/%s", dir, grid->head[first],
             vb_csv_str(grid, r, first), grid->head[second], vb_csv_str(grid, r, second),
             vb_contact_schema.file);
    pt->alpha = vb_csv_num(grid, r, ca);
    pt->mu = vb_csv_num(grid, r, cm);
    vb_csv t;
    if (vb_csv_read(path, &t, err, errlen) != 0) {
        vb_csv_free(&t);
        return -1;
    }
    int ci = vb_csv_col(&t, VB_CHART_INTEGRATOR), cp = vb_csv_col(&t, VB_CHART_PLAN),
        cd = vb_csv_col(&t, VB_CHART_DT), cr = vb_csv_col(&t, VB_CONTACT_COL(T_ROLL));
    if (ci < 0 || cp < 0 || cd < 0 || cr < 0) {
        snprintf(err, errlen, "%s: not a contact.csv of a rolling body (no t_roll)", path);
        vb_csv_free(&t);
        return -1;
    }
    pt->dt = 0.0;
    for (size_t k = 0; k < t.n_rows; k++)
        if (!strcmp(vb_csv_str(&t, k, cp), "fixed"))
            pt->dt = fmax(pt->dt, vb_csv_num(&t, k, cd));
    pt->n = 0;
    for (size_t k = 0; k < t.n_rows && pt->n < 64; k++) {
        if (strcmp(vb_csv_str(&t, k, cp), "fixed") || vb_csv_num(&t, k, cd) != pt->dt)
            continue;
        double tr = vb_csv_num(&t, k, cr);
        snprintf(pt->integ[pt->n], sizeof pt->integ[0], "%s", vb_csv_str(&t, k, ci));
        pt->verdict[pt->n++] = isfinite(tr) ? 1 : isinf(tr) ? 0 : -1;
    }
    vb_csv_free(&t);
    return 0;
}

/* the points of one verdict of one integrator: mu, alpha */
static int verdict_block(vb_chart *ch, const map_point *pts, size_t n, const char *integ, int v,
                         size_t *count)
{
    int id = vb_gp_block_begin(ch);
    *count = 0;
    for (size_t p = 0; p < n; p++)
        for (size_t k = 0; k < pts[p].n; k++)
            if (!strcmp(pts[p].integ[k], integ) && pts[p].verdict[k] == v) {
                fprintf(ch->f, "%.10g,%.10g\n", pts[p].mu, pts[p].alpha);
                (*count)++;
            }
    vb_gp_block_end(ch);
    return id;
}

/* the panels: one an integrator, its points over the exact boundary (the
 * blocks of a panel before its plot) */
static void map_panels(vb_chart *ch, const map_point *pts, size_t n, int cb)
{
    FILE *f = ch->f;
    static const char *const shown[] = {"rolled", "never rolled within t_end", "unmeasured"};
    static const int verdicts[] = {1, 0, -1}, shapes[] = {7, 2, 1};
    static const char *const colours[] = {"#2ca02c", "#d62728", "#888888"};
    for (size_t k = 0; n && k < pts[0].n; k++) {
        const char *integ = pts[0].integ[k];
        size_t count[3];
        int id[3];
        for (int v = 0; v < 3; v++)
            id[v] = verdict_block(ch, pts, n, integ, verdicts[v], &count[v]);
        fputs("set title ", f);
        vb_gp_str(f, integ);
        fputs(" noenhanced\n", f);
        fprintf(f, "plot $c%d using 1:2 with lines lc rgb \"#000000\" lw 2 title "
                   "\"exact: tan(alpha) = mu (1 + k)/k\"",
                cb);
        for (int v = 0; v < 3; v++) {
            if (!count[v] && v == 2)
                continue;
            char key[128];
            snprintf(key, sizeof key, "%s (%zu)", shown[v], count[v]);
            if (count[v])
                fprintf(f, ", \\\n     $c%d using 1:2 with points lc rgb \"%s\" pt %d ps 1.6 title ",
                        id[v], colours[v], shapes[v]);
            else
                fprintf(f, ", \\\n     keyentry with points lc rgb \"%s\" pt %d ps 1.6 title ",
                        colours[v], shapes[v]);
            vb_gp_str(f, key);
        }
        fputc('\n', f);
    }
}

static int vb_chart_roll_map(vb_chart *ch, const vb_chart_spec *spec, const vb_csv *t,
                             char *err, size_t errlen)
{
    const char *title = spec->title;
    int ca, cm, roll, cpt = vb_csv_col(t, VB_GRID_COL(POINT));
    double k = model_k(t, &roll);
    if (map_keys(t, &ca, &cm) != 0 || !roll || !(k > 0.0) || cpt < 0) {
        snprintf(err, errlen, "%s: not a grid of model roll over alpha and mu (with its k)",
                 t->path);
        return -1;
    }
    map_point *pts = NULL;
    size_t n = 0, cap = 0;
    double mu_max = 0.0, dt = 0.0;
    for (size_t r = 0; r < t->n_rows; r++) {
        if (r > 0 && !strcmp(vb_csv_str(t, r, cpt), vb_csv_str(t, r - 1, cpt)))
            continue;
        int seen = 0; /* grid.csv repeats a point a row an integrator, plan and norm */
        for (size_t p = 0; p < n && !seen; p++)
            seen = pts[p].alpha == vb_csv_num(t, r, ca) && pts[p].mu == vb_csv_num(t, r, cm);
        if (seen)
            continue;
        if (n == cap) {
            map_point *more = realloc(pts, (cap = cap ? 2 * cap : 16) * sizeof *more);
            if (!more) {
                snprintf(err, errlen, "%s: out of memory", t->path);
                free(pts);
                return -1;
            }
            pts = more;
        }
        if (read_point(t, r, ca, cm, &pts[n], err, errlen) != 0) {
            free(pts);
            return -1;
        }
        mu_max = fmax(mu_max, pts[n].mu);
        dt = fmax(dt, pts[n].dt);
        n++;
    }
    FILE *f = ch->f;
    size_t panels = n ? pts[0].n : 0, cols = panels > 1 ? 2 : 1, rows = (panels + cols - 1) / cols;
    vb_gp_begin(ch, 1300, (double)(rows ? rows : 1) * 360 + 90, 10, 1.5, 0);
    char head[1400], at_dt[64];
    dt_text(dt, at_dt, sizeof at_dt);
    snprintf(head, sizeof head,
             "%s%swhere each solver's ball rolled, %s, against the exact boundary: it rolls iff "
             "tan(alpha) <= mu (1 + k)/k, k = %g\nrolled: contact.csv's t_roll finite, the "
             "slip u = v - w R came within 0.1 %% of its start to 0 within t_end "
             "(driver/bodyrun.c)",
             title, title[0] ? ": " : "", at_dt, k);
    layout(f, rows ? rows : 1, cols, head, 10);
    fprintf(f, "set xlabel \"mu\"\nset ylabel \"alpha (degrees)\"\nset xrange [0 : %.10g]\n"
               "set yrange [0 : 100]\nset ytics 0, 10, 90\nset key inside left top noenhanced "
               "font \",8\" opaque box\n",
            mu_max * 1.1);
    /* the boundary alpha(mu) = atan(mu (1 + k)/k), 200 points */
    int cb = vb_gp_block_begin(ch);
    for (int i = 0; i <= 200; i++) {
        double mu = mu_max * 1.1 * i / 200.0;
        fprintf(f, "%.10g,%.10g\n", mu, atan(mu * (1.0 + k) / k) * 180.0 / M_PI);
    }
    vb_gp_block_end(ch);
    map_panels(ch, pts, n, cb);
    fputs("unset multiplot\n", f);
    vb_gp_end(ch);
    free(pts);
    return 0;
}

/* ---- the entries ---------------------------------------------------------- */

const vb_chart_kind vb_kind_roll_time = {
    .name = "roll-time",
    .table = &vb_motion_schema,
    .build = vb_chart_roll_time,
    .group = VB_CHARTS_BODY_CONTACT,
    .applies = is_round,
    .caption = "v and w R against time at dt = 1/60 s (else the coarsest step), each solver's "
               "beside the exact ones: the slide turning into a roll",
};

const vb_chart_kind vb_kind_creep = {
    .name = "creep",
    .table = &vb_contact_schema,
    .build = vb_chart_creep,
    .group = VB_CHARTS_BODY_CONTACT,
    .applies = must_stick,
    .caption = "the creep of a body that must stick against dt, log-log, a curve a solver",
};

const vb_chart_kind vb_kind_roll_map = {
    .name = "roll-map",
    .table = &vb_grid_schema,
    .build = vb_chart_roll_map,
    .group = VB_CHARTS_GRID,
    .applies = is_roll_map,
    .caption = "alpha against mu: where each solver's ball rolled (t_roll finite) at each "
               "point, against the exact boundary tan(alpha) = mu (1 + k)/k",
};
