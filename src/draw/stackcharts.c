/* stackcharts.c — a stack of boxes' charts (issue 55, docs/contact.md
 * "Stacks"), each drawn in a grid's own directory from the stacks.csv of
 * its points and of the stacks beside it in the results directory:
 *
 *   stack-stand  how long a stack stands against the mass ratio (log x),
 *                a line a solver or engine at the step nearest 1/60 s; a
 *                run that stood is drawn at t_end with a mark of its own;
 *   stack-cost   drift_max against a budget of N solver passes a frame
 *                (log-log): N substeps of 1 iteration against 1 step of N
 *                iterations, a line each a mass ratio (the two grids of
 *                cases/stack-cost-*.case, "the equal-cost comparison").
 *
 * The exact stack never moves (drift 0, it stands for ever): a title says
 * what a chart draws against that, nothing more. */
#include "gpcharts.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casecharts.h"
#include "grid.h"
#include "palette.h"
#include "stack_table.h"

#define MAX_SERIES 64
#define MAX_POINTS 64

/* the '#' line of t that begins with prefix, or "" */
static const char *comment(const vb_csv *t, const char *prefix)
{
    for (size_t i = 0; i < t->n_comments; i++)
        if (!strncmp(t->comments[i], prefix, strlen(prefix)))
            return t->comments[i];
    return "";
}

/* KEY=VALUE of the '# model=' line, or NAN */
static double model_param(const vb_csv *t, const char *key)
{
    char pat[40];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *p = strstr(comment(t, "# model="), pat);
    return p ? strtod(p + strlen(pat), NULL) : (double)NAN;
}

/* the '# model=stack' line without its ratio=: what a stack of the same
 * boxes shares, whatever its mass ratio ("" when not a stack's) */
static void boxes_of(const vb_csv *t, char *buf, size_t len)
{
    const char *m = comment(t, "# model=");
    buf[0] = '\0';
    if (strncmp(m, "# model=stack ", 14) != 0)
        return;
    const char *r = strstr(m, " ratio=");
    size_t head = r ? (size_t)(r - m) : strlen(m);
    snprintf(buf, len, "%.*s%s", (int)head, m, r ? r + 7 + strcspn(r + 7, " ") : "");
}

/* the grid's keys: 1 when they are exactly the names asked (NULL-ended),
 * their columns into col */
static int keys_are(const vb_csv *t, const char *const *names, int *col)
{
    int first, nk, n = 0;
    if (vb_grid_keys(t, &first, &nk) != 0)
        return 0;
    while (names[n])
        n++;
    if (nk != n)
        return 0;
    for (int i = 0; i < n; i++)
        if ((col[i] = vb_csv_col(t, names[i])) < first || col[i] >= first + nk)
            return 0;
    return 1;
}

/* RESULTS/NAME of a table RESULTS/NAME/FILE: dir into buf */
static void dir_of(const char *path, char *buf, size_t len)
{
    snprintf(buf, len, "%s", path);
    char *slash = strrchr(buf, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(buf, len, ".");
}

/* the stacks.csv of grid point r: DIR@KEY=VALUE,... (the keys in grid.csv's
 * order, as run names a point) */
static int point_table(const vb_csv *grid, size_t r, vb_csv *out, char *err, size_t errlen)
{
    char dir[PATH_MAX], path[PATH_MAX * 2];
    int first, nk;
    dir_of(grid->path, dir, sizeof dir);
    vb_grid_keys(grid, &first, &nk);
    size_t used = (size_t)snprintf(path, sizeof path, "%s", dir);
    for (int k = 0; k < nk && used < sizeof path; k++)
        used += (size_t)snprintf(path + used, sizeof path - used, "%c%s=%s", k ? ',' : '@',
                                 grid->head[first + k], vb_csv_str(grid, r, first + k));
    if (used < sizeof path)
        snprintf(path + used, sizeof path - used, "/%s", vb_stack_schema.file);
    if (vb_csv_read(path, out, err, errlen) != 0)
        return -1;
    if (vb_csv_col(out, VB_STACK_COL(T_COLLAPSE)) < 0 || vb_csv_col(out, VB_STACK_COL(DRIFT_MAX)) < 0) {
        snprintf(err, errlen, "%s: not a stacks.csv (no t_collapse or drift_max)", path);
        return -1;
    }
    return 0;
}

/* the fixed-step row of integ whose dt is nearest 1/60 s (on a log scale),
 * or -1 */
static long row_near_60(const vb_csv *t, const char *integ)
{
    int ci = vb_csv_col(t, VB_STACK_COL(INTEGRATOR)), cp = vb_csv_col(t, VB_STACK_COL(PLAN)),
        cd = vb_csv_col(t, VB_STACK_COL(DT));
    long best = -1;
    double gap = INFINITY;
    for (size_t r = 0; r < t->n_rows; r++) {
        double dt = vb_csv_num(t, r, cd);
        if (strcmp(vb_csv_str(t, r, ci), integ) || strcmp(vb_csv_str(t, r, cp), "fixed") ||
            !(dt > 0))
            continue;
        if (fabs(log(dt * 60.0)) < gap - 1e-12) {
            gap = fabs(log(dt * 60.0));
            best = (long)r;
        }
    }
    return best;
}

/* grid.csv repeats a point a row an integrator, plan and norm, not always
 * together: 1 when row r's point came in an earlier row */
static int point_seen(const vb_csv *grid, size_t r)
{
    int cpt = vb_csv_col(grid, VB_GRID_COL(POINT));
    for (size_t q = 0; q < r; q++)
        if (!strcmp(vb_csv_str(grid, q, cpt), vb_csv_str(grid, r, cpt)))
            return 1;
    return 0;
}

/* the chart's title over its one plot, centred on the whole figure (a
 * plot's own title centres over the plot, and the key beside it would cut
 * a long one) */
static void title_over(FILE *f, const char *head)
{
    fputs("set multiplot layout 1, 1 title ", f);
    vb_gp_str(f, head);
    fputs(" noenhanced font \",11\"\n", f);
}

/* the integrators of a stacks.csv in order, added to series (no repeats) */
static void add_series(const vb_csv *t, char series[][128], size_t *n)
{
    int ci = vb_csv_col(t, VB_STACK_COL(INTEGRATOR));
    for (size_t r = 0; r < t->n_rows && *n < MAX_SERIES; r++) {
        size_t s = 0;
        while (s < *n && strcmp(series[s], vb_csv_str(t, r, ci)))
            s++;
        if (s == *n)
            snprintf(series[(*n)++], 128, "%s", vb_csv_str(t, r, ci));
    }
}

/* ---- stack-stand: how long a stack stands against the mass ratio --------- */

/* one stack of the chart: its ratio and its table, and whether it is a
 * stack beside the grid (whose extra rows are no lines of the chart) */
typedef struct {
    double ratio;
    vb_csv t;
    int beside;
} stand_point;

/* whether every name of the comma-separated list `some` is a name of the
 * list `all` (whole names: "jolt" is not found in "jolt-i40") */
static int names_within(const char *some, const char *all)
{
    size_t la = strlen(all);
    for (const char *p = some; *p;) {
        size_t n = strcspn(p, ",");
        int found = 0;
        for (const char *q = all; q < all + la && !found;) {
            size_t m = strcspn(q, ",");
            found = m == n && !strncmp(p, q, n);
            q += m + (q[m] == ',');
        }
        if (!found)
            return 0;
        p += n + (p[n] == ',');
    }
    return 1;
}

/* a stack of the same boxes as a grid point's (its stacks.csv: point):
 * RESULTS/D/stacks.csv of a case (no grid point: D has no '@') whose
 * '# model=' line is the point's but for the ratio, whose steps are the
 * point's, and whose integrators (solvers and engines) include every one
 * of the point's, so each line of the chart has its run on the same boxes
 * there (make engines' stack.case sweeps more of an engine's settings
 * than stack-heavy.case: those have no line here) */
static int same_stack(const vb_csv *point, const vb_csv *t)
{
    char a[1024], b[1024];
    boxes_of(point, a, sizeof a);
    boxes_of(t, b, sizeof b);
    return a[0] && !strcmp(a, b) && isfinite(model_param(t, "ratio")) &&
           names_within(comment(point, "# integrators="), comment(t, "# integrators=")) &&
           !strcmp(comment(point, "# dt="), comment(t, "# dt="));
}

static int by_ratio(const void *a, const void *b)
{
    double x = ((const stand_point *)a)->ratio, y = ((const stand_point *)b)->ratio;
    return (x > y) - (x < y);
}

/* the grid's points, then the stacks beside it, sorted by ratio: their
 * number, or -1 with a message */
static long stand_points(const vb_csv *grid, int cr, stand_point *pts, char *err, size_t errlen)
{
    size_t n = 0;
    for (size_t r = 0; r < grid->n_rows && n < MAX_POINTS; r++) {
        if (point_seen(grid, r))
            continue;
        if (point_table(grid, r, &pts[n].t, err, errlen) != 0) {
            vb_csv_free(&pts[n].t);
            return -(long)n - 1;
        }
        pts[n].beside = 0;
        pts[n++].ratio = vb_csv_num(grid, r, cr);
    }
    char dir[PATH_MAX], results[PATH_MAX], path[PATH_MAX * 2];
    dir_of(grid->path, dir, sizeof dir);
    dir_of(dir, results, sizeof results);
    struct dirent **ents = NULL;
    int ne = n ? scandir(results, &ents, NULL, alphasort) : 0;
    for (int i = 0; i < ne; i++) {
        const char *d = ents[i]->d_name;
        snprintf(path, sizeof path, "%s/%s/%s", results, d, vb_stack_schema.file);
        vb_csv t = {0};
        char why[256];
        if (d[0] != '.' && !strchr(d, '@') && n < MAX_POINTS &&
            vb_csv_read(path, &t, why, sizeof why) == 0 && same_stack(&pts[0].t, &t)) {
            pts[n].t = t;
            pts[n].beside = 1;
            pts[n++].ratio = model_param(&t, "ratio");
        } else {
            vb_csv_free(&t);
        }
        free(ents[i]);
    }
    free(ents);
    qsort(pts, n, sizeof *pts, by_ratio);
    return (long)n;
}

/* a series' points (those that stood alone: stood_only): ratio, and
 * t_collapse or t_end where it stood; their number into *count, and the
 * ratios where the run failed or is missing into missing ("" for none:
 * the key says where a line has no point) */
static int stand_block(vb_chart *ch, const stand_point *pts, size_t n, const char *integ,
                       int stood_only, size_t *count, char *missing, size_t len)
{
    int id = vb_gp_block_begin(ch);
    size_t used = 0;
    *count = 0;
    missing[0] = '\0';
    for (size_t p = 0; p < n; p++) {
        long r = row_near_60(&pts[p].t, integ);
        int cs = vb_csv_col(&pts[p].t, VB_STACK_COL(STATUS));
        if (r < 0 || strcmp(vb_csv_str(&pts[p].t, (size_t)r, cs), "ok")) {
            if (used < len)
                used += (size_t)snprintf(missing + used, len - used, "%s%g", used ? ", " : "",
                                         pts[p].ratio);
            continue;
        }
        double tc = vb_csv_num(&pts[p].t, (size_t)r, vb_csv_col(&pts[p].t, VB_STACK_COL(T_COLLAPSE)));
        int stood = tc != tc;
        if (stood_only && !stood)
            continue;
        fprintf(ch->f, "%.10g,%.10g\n", pts[p].ratio, stood ? model_param(&pts[p].t, "t_end") : tc);
        (*count)++;
    }
    vb_gp_block_end(ch);
    return id;
}

static int vb_chart_stack_stand(vb_chart *ch, const vb_chart_spec *spec, const vb_csv *t,
                                char *err, size_t errlen)
{
    static const char *const keys[] = {"ratio", NULL};
    int cr;
    if (!keys_are(t, keys, &cr) || !comment(t, "# model=stack ")[0]) {
        snprintf(err, errlen, "%s: not a grid of model stack over its ratio", t->path);
        return -1;
    }
    stand_point pts[MAX_POINTS];
    long n = stand_points(t, cr, pts, err, errlen);
    if (n < 0) {
        for (long p = 0; p < -n - 1; p++)
            vb_csv_free(&pts[p].t);
        return -1;
    }
    char series[MAX_SERIES][128];
    const char *names[MAX_SERIES];
    size_t ns = 0;
    /* a line a solver or engine of the grid's points */
    for (long p = 0; p < n; p++)
        if (!pts[p].beside)
            add_series(&pts[p].t, series, &ns);
    for (size_t s = 0; s < ns; s++)
        names[s] = series[s];
    double t_end = n ? model_param(&pts[0].t, "t_end") : (double)NAN, dt = 0.0;
    long r0 = n ? row_near_60(&pts[0].t, names[0]) : -1;
    if (r0 >= 0)
        dt = vb_csv_num(&pts[0].t, (size_t)r0, vb_csv_col(&pts[0].t, VB_STACK_COL(DT)));
    FILE *f = ch->f;
    vb_gp_begin(ch, 1100, 620, 11, 1.5, 0);
    char head[1024];
    snprintf(head, sizeof head,
             "%s%show long a stack of %g boxes stands against the mass ratio, at dt = %.4g s "
             "(the step nearest 1/60 s)\nt_collapse: when a box first moved by half its edge; "
             "exact: it stands for ever; a run that stood is drawn at t_end = %g s",
             spec->title, spec->title[0] ? ": " : "", n ? model_param(&pts[0].t, "n") : (double)NAN, dt,
             t_end);
    title_over(f, head);
    fprintf(f, "set logscale x\nset xrange [0.7 : %.10g]\nset yrange [0 : %.10g]\n"
               "set xlabel \"mass ratio (each box to the one below)\"\n"
               "set ylabel \"t_collapse (s)\" noenhanced\n"
               "set key outside right top vertical noenhanced font \",9\" samplen 2.5\n",
            n ? pts[n - 1].ratio * 1.4 : 1000.0, t_end * 1.08);
    int lines[MAX_SERIES], stood[MAX_SERIES];
    size_t nl[MAX_SERIES], nst[MAX_SERIES];
    char missing[MAX_SERIES][128], key[300];
    for (size_t s = 0; s < ns; s++) {
        lines[s] = stand_block(ch, pts, (size_t)n, names[s], 0, &nl[s], missing[s],
                               sizeof missing[s]);
        stood[s] = stand_block(ch, pts, (size_t)n, names[s], 1, &nst[s], key, sizeof key);
    }
    fputs("plot ", f);
    for (size_t s = 0; s < ns; s++) {
        const char *colour = vb_palette_colour(names, ns, names[s]);
        /* lines that lie on one another (two solvers that fall at the same
         * step) show: the first drawn widest, each its own point shape; the
         * widths spread over 1 to 7 and the sizes over 1 to 3.4 however many
         * lines (make engines' chart has sixteen) */
        double rank = ns > 1 ? (double)(ns - 1 - s) / (double)(ns - 1) : 0.0;
        fprintf(f, "%s$c%d using 1:2 with linespoints lc rgb \"%s\" lw %g pt %d ps %g title ",
                s ? ", \\\n     " : "", lines[s], colour, 1.0 + 6.0 * rank,
                vb_palette_point(names, ns, names[s]), 1.0 + 2.4 * rank);
        snprintf(key, sizeof key, "%.127s%s%.127s%s", names[s],
                 missing[s][0] ? " (failed or not run at ratio " : "", missing[s],
                 missing[s][0] ? ")" : "");
        vb_gp_str(f, key);
        if (nst[s])
            fprintf(f, ", \\\n     $c%d using 1:2 with points lc rgb \"%s\" pt 8 ps 3 notitle",
                    stood[s], colour);
    }
    fprintf(f, "%skeyentry with points lc rgb \"#000000\" pt 8 ps 3 title "
               "\"stood the whole run (drawn at t_end)\"\n",
            ns ? ", \\\n     " : "");
    fputs("unset multiplot\n", f);
    vb_gp_end(ch);
    for (long p = 0; p < n; p++)
        vb_csv_free(&pts[p].t);
    return 0;
}

/* grid.csv of model stack whose one key is ratio */
static int is_stack_ratio_grid(const vb_chart_case *cc, const vb_chart_kind *kind)
{
    static const char *const keys[] = {"ratio", NULL};
    char path[PATH_MAX * 2], err[256];
    int cr;
    vb_chart_case_path(cc, kind->table, path, sizeof path);
    vb_csv t;
    int ok = vb_csv_read(path, &t, err, sizeof err) == 0 && keys_are(&t, keys, &cr) &&
             !strncmp(comment(&t, "# model="), "# model=stack ", 14);
    vb_csv_free(&t);
    return ok;
}

const vb_chart_kind vb_kind_stack_stand = {
    .name = "stack-stand",
    .table = &vb_grid_schema,
    .build = vb_chart_stack_stand,
    .group = VB_CHARTS_GRID,
    .applies = is_stack_ratio_grid,
    .caption = "how long the stack stands against the mass ratio at the step nearest 1/60 s, a "
               "line a solver or engine (the grid's points and the stacks of the same boxes "
               "beside it); a run that stood is drawn at t_end",
};

/* ---- stack-cost: drift against a budget of solver passes, two ways ------- */

/* the grid beside this one of the same boxes over ratio and `other`
 * (iterations where this one's key is substeps): RESULTS/D/grid.csv with
 * the same '# model=' line, read into out; 0, or -1 when there is none */
static int partner_grid(const vb_csv *grid, const char *other, vb_csv *out)
{
    const char *const keys[] = {"ratio", other, NULL};
    char dir[PATH_MAX], results[PATH_MAX], path[PATH_MAX * 2], why[256];
    int col[2], found = 0;
    dir_of(grid->path, dir, sizeof dir);
    dir_of(dir, results, sizeof results);
    struct dirent **ents = NULL;
    int ne = scandir(results, &ents, NULL, alphasort);
    for (int i = 0; i < ne; i++) {
        snprintf(path, sizeof path, "%s/%s/%s", results, ents[i]->d_name, vb_grid_schema.file);
        vb_csv t = {0};
        if (!found && ents[i]->d_name[0] != '.' && vb_csv_read(path, &t, why, sizeof why) == 0 &&
            keys_are(&t, keys, col) && !strcmp(comment(&t, "# model="), comment(grid, "# model="))) {
            *out = t;
            found = 1;
        } else {
            vb_csv_free(&t);
        }
        free(ents[i]);
    }
    free(ents);
    return found ? 0 : -1;
}

/* one half's points, a line a ratio: (ratio, budget N = iterations x
 * substeps of the run's own row, drift_max) at the step nearest 1/60 s of
 * its one integrator, from each point's stacks.csv; a drift of 0 (a log
 * axis cannot draw it) or a run that failed counted in *undrawn */
typedef struct {
    double ratio[MAX_POINTS], budget[MAX_POINTS], drift[MAX_POINTS];
    size_t n, undrawn;
} cost_half;

static int cost_points(const vb_csv *grid, cost_half *h, char *err, size_t errlen)
{
    /* the grid's key ratio: a column between point and integrator (a
     * grid's keys are its case file's, named by no schema) */
    int first, nk, cr = -1, ci = vb_csv_col(grid, VB_GRID_COL(INTEGRATOR));
    vb_grid_keys(grid, &first, &nk);
    for (int c = first; c < first + nk; c++)
        if (!strcmp(grid->head[c], "ratio"))
            cr = c;
    h->n = h->undrawn = 0;
    for (size_t r = 0; r < grid->n_rows && h->n < MAX_POINTS; r++) {
        if (point_seen(grid, r))
            continue;
        vb_csv t = {0};
        if (point_table(grid, r, &t, err, errlen) != 0) {
            vb_csv_free(&t);
            return -1;
        }
        long k = row_near_60(&t, vb_csv_str(grid, r, ci));
        double it = k >= 0 ? vb_csv_num(&t, (size_t)k, vb_csv_col(&t, VB_STACK_COL(ITERATIONS))) : (double)NAN,
               sub = k >= 0 ? vb_csv_num(&t, (size_t)k, vb_csv_col(&t, VB_STACK_COL(SUBSTEPS))) : (double)NAN,
               d = k >= 0 ? vb_csv_num(&t, (size_t)k, vb_csv_col(&t, VB_STACK_COL(DRIFT_MAX))) : (double)NAN;
        int ok = k >= 0 && !strcmp(vb_csv_str(&t, (size_t)k, vb_csv_col(&t, VB_STACK_COL(STATUS))), "ok");
        if (ok && d > 0 && isfinite(d) && it >= 1 && sub >= 1) {
            h->ratio[h->n] = vb_csv_num(grid, r, cr);
            h->budget[h->n] = it * sub;
            h->drift[h->n++] = d;
        } else {
            h->undrawn++;
        }
        vb_csv_free(&t);
    }
    return 0;
}

/* the points of one ratio of a half, by budget (the grid's order) */
static int cost_block(vb_chart *ch, const cost_half *h, double ratio, size_t *count)
{
    int id = vb_gp_block_begin(ch);
    *count = 0;
    for (size_t p = 0; p < h->n; p++)
        if (h->ratio[p] == ratio) {
            fprintf(ch->f, "%.10g,%.10g\n", h->budget[p], h->drift[p]);
            (*count)++;
        }
    vb_gp_block_end(ch);
    return id;
}

static int vb_chart_stack_cost(vb_chart *ch, const vb_chart_spec *spec, const vb_csv *t,
                               char *err, size_t errlen)
{
    static const char *const keys[] = {"ratio", "substeps", NULL};
    int col[2];
    vb_csv other = {0};
    cost_half h[2]; /* N substeps x 1 iteration, 1 step x N iterations */
    if (!keys_are(t, keys, col) || !comment(t, "# model=stack ")[0] ||
        partner_grid(t, "iterations", &other) != 0) {
        snprintf(err, errlen,
                 "%s: not a grid of model stack over ratio and substeps with a grid of the same "
                 "boxes over ratio and iterations beside it",
                 t->path);
        vb_csv_free(&other);
        return -1;
    }
    if (cost_points(t, &h[0], err, errlen) != 0 || cost_points(&other, &h[1], err, errlen) != 0) {
        vb_csv_free(&other);
        return -1;
    }
    double ratios[MAX_POINTS];
    size_t nr = 0;
    for (int k = 0; k < 2; k++)
        for (size_t p = 0; p < h[k].n; p++) {
            size_t q = 0;
            while (q < nr && ratios[q] != h[k].ratio[p])
                q++;
            if (q == nr)
                ratios[nr++] = h[k].ratio[p];
        }
    FILE *f = ch->f;
    vb_gp_begin(ch, 1100, 640, 11, 1.5, 0);
    char head[1024];
    snprintf(head, sizeof head,
             "%s%sequal cost: the largest drift of any box against a budget of N solver passes "
             "a frame, at the step nearest 1/60 s\nsolid: N substeps of 1 iteration; dashed: 1 "
             "step of N iterations; exact: no box moves (drift 0, which a log axis cannot draw)",
             spec->title, spec->title[0] ? ": " : "");
    title_over(f, head);
    fputs("set logscale xy\nset format y \"%.0e\"\nset xlabel \"budget N (solver passes a frame)\"\n"
          "set ylabel \"drift_max (m)\" noenhanced\n"
          "set key outside right top vertical noenhanced font \",9\" samplen 3\n",
          f);
    static const char *const colours[] = {"#1f77b4", "#ff7f0e", "#d62728", "#2ca02c", "#9467bd"};
    static const char *const half[] = {"N substeps x 1 iteration", "1 step x N iterations"};
    int id[2][MAX_POINTS];
    size_t count[2][MAX_POINTS];
    for (size_t q = 0; q < nr; q++)
        for (int k = 0; k < 2; k++)
            id[k][q] = cost_block(ch, &h[k], ratios[q], &count[k][q]);
    fputs("plot ", f);
    int first = 1;
    for (size_t q = 0; q < nr; q++)
        for (int k = 0; k < 2; k++) {
            char key[160];
            snprintf(key, sizeof key, "ratio %g: %s", ratios[q], half[k]);
            if (count[k][q])
                fprintf(f, "%s$c%d using 1:2 with linespoints lc rgb \"%s\" dt %d pt %d ps 1.2 title ",
                        first ? "" : ", \\\n     ", id[k][q], colours[q % 5], k ? 2 : 1, k ? 6 : 7);
            else
                fprintf(f, "%skeyentry with linespoints lc rgb \"%s\" dt %d pt %d title ",
                        first ? "" : ", \\\n     ", colours[q % 5], k ? 2 : 1, k ? 6 : 7);
            vb_gp_str(f, count[k][q] ? key : strcat(key, " (nothing to draw)"));
            first = 0;
        }
    if (h[0].undrawn + h[1].undrawn) {
        char key[160];
        snprintf(key, sizeof key, "%zu runs not drawn: drift 0 or failed",
                 h[0].undrawn + h[1].undrawn);
        fprintf(f, "%skeyentry with points lc rgb \"#888888\" pt 1 title ", first ? "" : ", \\\n     ");
        vb_gp_str(f, key);
        first = 0;
    }
    if (first)
        fputs("keyentry title \"nothing to draw\"", f);
    fputs("\nunset multiplot\n", f);
    vb_gp_end(ch);
    vb_csv_free(&other);
    return 0;
}

/* grid.csv of model stack whose keys are ratio and substeps, with its
 * partner over ratio and iterations beside it */
static int is_stack_cost_grid(const vb_chart_case *cc, const vb_chart_kind *kind)
{
    static const char *const keys[] = {"ratio", "substeps", NULL};
    char path[PATH_MAX * 2], err[256];
    int col[2];
    vb_chart_case_path(cc, kind->table, path, sizeof path);
    vb_csv t = {0}, other = {0};
    int ok = vb_csv_read(path, &t, err, sizeof err) == 0 && keys_are(&t, keys, col) &&
             comment(&t, "# model=stack ")[0] && partner_grid(&t, "iterations", &other) == 0;
    vb_csv_free(&other);
    vb_csv_free(&t);
    return ok;
}

const vb_chart_kind vb_kind_stack_cost = {
    .name = "stack-cost",
    .table = &vb_grid_schema,
    .build = vb_chart_stack_cost,
    .group = VB_CHARTS_GRID,
    .applies = is_stack_cost_grid,
    .caption = "equal cost: drift_max against a budget of N solver passes a frame at the step "
               "nearest 1/60 s, N substeps of 1 iteration (solid) against 1 step of N "
               "iterations (dashed, the grid over iterations beside it), a line each a mass ratio",
};
