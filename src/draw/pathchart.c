/* pathchart.c — the computed paths over the exact one, every body
 * (gpcharts.h).  A file with a y column is drawn in the x-y plane
 * (projectile, orbit, the bodies of the two-body and three-body problems on
 * one plane); otherwise x is drawn against t (spring, pendulum), and a 1-D
 * system of several bodies (a chain) as a waterfall: body b's displacement
 * drawn about a baseline of its own, b - 1 steps up; of more than 8 bodies,
 * 6 spread along the chain (the first, the last, and four evenly between):
 * 64 stripes of a panel showed nothing but where Euler failed.  The axis
 * ranges come from the exact path, with a margin, so a method that flies
 * off leaves the frame instead of shrinking the exact one to a dot; an axis
 * along which the exact path does not move (a vertical jump's x, round-off
 * of cos 90°) is given a range around its value as wide as the other's.
 *
 * The rows of one integrator and plan hold each body's path in turn, time
 * running from the start again at each.  A path is drawn as the segments
 * between consecutive rows, and a segment whose time does not move forward
 * (the first row of the next body) is left out: no line joins two bodies,
 * and no point is dropped. */
#include "gpcharts.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "palette.h"
#include "panels.h"
#include "casecharts.h"
#include "charts.h"

#define MAX_SHOWN 8

static double span(double a, double b) { return b - a > 0 ? b - a : 1; }

/* An axis is degenerate when the exact path moves along it by no more than
 * round-off of the other axis's scale: its range is then centred on its
 * value, as wide as the other's (or 1 when both are). */
static int degenerate(double lo, double hi, double other)
{
    double scale = fmax(fmax(fabs(lo), fabs(hi)), other);
    return hi - lo <= 1e-9 * scale;
}

typedef struct {
    const vb_csv *t;
    int ct, cx, cy, cb; /* columns: t, x (or t), y (or x), body */
    int waterfall;
    int nb, nshow;
    double lift;
} path_geom;

static int shown_body(const path_geom *G, int k)
{
    return G->nshow == G->nb ? k + 1
                             : 1 + (int)floor((G->nb - 1) * k / (G->nshow - 1.0) + 0.5);
}

/* 1 + the stripe of body b, or 0 when it is not shown */
static int stripe_of(const path_geom *G, int b)
{
    for (int k = 0; k < G->nshow; k++)
        if (shown_body(G, k) == b)
            return k + 1;
    return 0;
}

/* a row's point as drawn: 0, or -1 when it is not (a body not shown, a
 * value not a number) */
static int point_of(const path_geom *G, size_t r, double *x, double *y)
{
    *x = vb_csv_num(G->t, r, G->cx);
    *y = vb_csv_num(G->t, r, G->cy);
    if (G->waterfall) {
        int s = stripe_of(G, (int)vb_csv_num(G->t, r, G->cb));
        if (!s)
            return -1;
        *y += G->lift * (s - 1);
    }
    return isnan(*x) || isnan(*y) ? -1 : 0;
}

/* one coordinate as gnuplot reads it: the table's own text where it is
 * drawn as it is (short: most of gnuplot's reading is strtod), a lifted
 * waterfall's exactly */
static void coord(FILE *f, const path_geom *G, size_t r, int col, double v)
{
    if (G->waterfall && col == G->cy)
        fprintf(f, "%.17g", v);
    else
        fputs(vb_csv_str(G->t, r, col), f);
}

/* the segments of rows g (x0, y0, x1, y1: drawn from one to the other),
 * none across a restart of time */
static size_t segments(vb_chart *ch, const path_geom *G, const vb_group *g)
{
    size_t n = 0;
    vb_gp_block_begin(ch);
    for (size_t r = g->first + 1; r <= g->last; r++) {
        double x0, y0, x1, y1;
        if (!(vb_csv_num(G->t, r, G->ct) > vb_csv_num(G->t, r - 1, G->ct)) ||
            point_of(G, r - 1, &x0, &y0) != 0 || point_of(G, r, &x1, &y1) != 0)
            continue;
        coord(ch->f, G, r - 1, G->cx, x0);
        fputc(',', ch->f);
        coord(ch->f, G, r - 1, G->cy, y0);
        fputc(',', ch->f);
        coord(ch->f, G, r, G->cx, x1);
        fputc(',', ch->f);
        coord(ch->f, G, r, G->cy, y1);
        fputc('\n', ch->f);
        n++;
    }
    vb_gp_block_end(ch);
    return n;
}

static size_t points(vb_chart *ch, const path_geom *G, const vb_group *g)
{
    size_t n = 0;
    vb_gp_block_begin(ch);
    for (size_t r = g->first; r <= g->last; r++) {
        double x, y;
        if (point_of(G, r, &x, &y) == 0) {
            coord(ch->f, G, r, G->cx, x);
            fputc(',', ch->f);
            coord(ch->f, G, r, G->cy, y);
            fputc('\n', ch->f);
            n++;
        }
    }
    vb_gp_block_end(ch);
    return n;
}

/* what a path chart's frame is: the axes' ranges and labels, whether both
 * have one scale, the size of the step marks */
typedef struct {
    double xlo, xhi, ylo, yhi, mx, my;
    const char *xlab;
    char ylab[128];
    int square;
    double ps;
} path_frame;

/* the bodies of the exact path (numbered up to nb; a path of many keeps
 * only those a chart shows, the same rule as here, each body's rows in a
 * run): the points of one body's path */
static size_t path_bodies(path_geom *G, const vb_group *ex)
{
    const vb_csv *t = G->t;
    G->nb = 1;
    size_t runs = 1;
    for (size_t r = ex->first; G->cb >= 0 && r <= ex->last; r++) {
        double b = vb_csv_num(t, r, G->cb);
        if (b > G->nb)
            G->nb = (int)b;
        runs += r > ex->first && b != vb_csv_num(t, r - 1, G->cb);
    }
    return (ex->last - ex->first + 1) / runs;
}

/* the frame from the exact path, with a margin; -1 when it holds no numbers */
static int path_frame_make(path_geom *G, const vb_group *ex, int plane, size_t npts, path_frame *F)
{
    const vb_csv *t = G->t;
    F->xlo = INFINITY, F->xhi = -INFINITY, F->ylo = INFINITY, F->yhi = -INFINITY;
    for (size_t r = ex->first; r <= ex->last; r++) {
        double x = vb_csv_num(t, r, G->cx), y = vb_csv_num(t, r, G->cy);
        if (isnan(x) || isnan(y))
            continue;
        F->xlo = fmin(F->xlo, x);
        F->xhi = fmax(F->xhi, x);
        F->ylo = fmin(F->ylo, y);
        F->yhi = fmax(F->yhi, y);
    }
    if (F->xlo > F->xhi)
        return -1;
    F->xlab = plane ? "x (length units)" : "time t (time units)";
    snprintf(F->ylab, sizeof F->ylab, "%s", plane ? "y (length units)" : "position x (length units)");
    /* the waterfall's baselines: 2.2 times the largest exact swing apart;
     * the bodies drawn: every one of up to 8, else 6 spread along the chain */
    G->nshow = G->nb <= MAX_SHOWN ? G->nb : 6;
    double amp = fmax(fabs(F->ylo), fabs(F->yhi));
    G->lift = G->waterfall ? 2.2 * (amp > 0 ? amp : 1) : 0;
    int xdeg = degenerate(F->xlo, F->xhi, span(F->ylo, F->yhi)),
        ydeg = degenerate(F->ylo, F->yhi, span(F->xlo, F->xhi));
    if (G->waterfall) {
        F->ylo = -0.5 * G->lift;
        F->yhi = G->lift * (G->nshow - 0.5);
        ydeg = 0;
        if (G->nshow < G->nb)
            snprintf(F->ylab, sizeof F->ylab, "body (%d of %d): its x about its baseline", G->nshow,
                     G->nb);
        else
            snprintf(F->ylab, sizeof F->ylab, "body (its x drawn about a baseline of its own)");
    }
    if (plane && xdeg && !ydeg) {
        double c = 0.5 * (F->xlo + F->xhi), h = 0.5 * span(F->ylo, F->yhi);
        F->xlo = c - h;
        F->xhi = c + h;
    } else if (ydeg && (!plane || !xdeg)) {
        /* against time, whose units are not x's: half its size, or 1/2 */
        double c = 0.5 * (F->ylo + F->yhi),
               h = plane ? 0.5 * span(F->xlo, F->xhi) : 0.5 * fmax(fabs(c), 1);
        F->ylo = c - h;
        F->yhi = c + h;
    }
    F->mx = plane ? 0.15 * span(F->xlo, F->xhi) : 0;
    F->my = G->waterfall ? 0 : 0.25 * span(F->ylo, F->yhi);
    /* equal scales on both axes, so an ellipse is not drawn as a circle; not
     * for a flat path (a long throw), which would be squeezed into a strip */
    double aspect = span(F->ylo, F->yhi) / span(F->xlo, F->xhi);
    F->square = plane && aspect > 0.4 && aspect < 2.5;
    /* mark the steps themselves only when they are few enough to see */
    F->ps = npts < 120 ? 1.0 : 0.0;
    return 0;
}

/* the figure's title: the plan and its step */
static void path_head(const char *title, const char *plan, double dt, char *head, size_t len)
{
    char stepnote[128];
    if (!strcmp(plan, "fixed"))
        snprintf(stepnote, sizeof stepnote, "fixed steps, dt = %g", dt);
    else if (!strcmp(plan, "random"))
        snprintf(stepnote, sizeof stepnote, "random steps (seed 1), mean dt = %g", dt);
    else
        snprintf(stepnote, sizeof stepnote, "%s",
                 vb_plan_title(plan, "random steps (seed 1)", "recorded frame trace"));
    snprintf(head, len, "%s%s%s", title, title[0] ? ": " : "", stepnote);
}

/* A panel a curve, no key (which covered the end of an oscillation): each
 * panel is titled with its integrator, in its colour, and the figure's
 * title says grey is the exact path; about four x tics a panel, at 1, 2 or
 * 5 times a power of 10 (the default ran the labels of a narrow panel into
 * each other) */
static void path_grid(FILE *f, const path_geom *G, const path_frame *F, const char *const *series,
                      size_t ns, const size_t *nseg, const size_t *npt, int rows, int cols,
                      const char *head, const char *truth)
{
    double xspan = span(F->xlo, F->xhi) + 2 * F->mx, tic = pow(10, floor(log10(xspan / 4.0)));
    tic = xspan / tic > 20 ? 5 * tic : xspan / tic > 8 ? 2 * tic : tic;
    /* more than 7 labels ran into each other in a 220 px panel (a
     * vertical jump's x axis, as wide as its height): the next step */
    if (xspan / tic > 7)
        tic *= fabs(tic / pow(10, floor(log10(tic) + 1e-9)) - 2) < 1e-9 ? 2.5 : 2;
    fprintf(f, "unset key\nset xtics %.17g\nset xlabel ", tic);
    vb_gp_str(f, F->xlab);
    fputs(" noenhanced font \",9\"\nset ylabel ", f);
    vb_gp_str(f, F->ylab);
    fprintf(f, " noenhanced font \",9\"\nset multiplot layout %d, %d title ", rows, cols);
    char full[1200];
    snprintf(full, sizeof full, "%s   (grey: %s)", head,
             strcmp(truth, "exact") ? "the reference solution" : "the exact path");
    vb_gp_str(f, full);
    fputs(" noenhanced font \",13\"\n", f);
    for (size_t s = 0; s < ns; s++) {
        const char *col = vb_palette_colour(series, ns, series[s]);
        fputs("set title ", f);
        vb_gp_str(f, series[s]);
        fprintf(f, " noenhanced font \",10\" tc rgb \"%s\" offset 0, -0.4\n", col);
        fprintf(f, "plot $c1 using 1:2:($3-$1):($4-$2) with vectors nohead lw %g lc rgb \"#c8c8c8\" title \"%s\"",
                G->waterfall ? 2.0 : 3.0, truth);
        if (nseg[s])
            fprintf(f, ", $c%zu using 1:2:($3-$1):($4-$2) with vectors nohead lw 1.4 lc rgb \"%s\" notitle",
                    2 + 2 * s, col);
        if (F->ps > 0 && npt[s])
            fprintf(f, ", $c%zu using 1:2 with points pt %d ps %g lc rgb \"%s\" notitle",
                    3 + 2 * s, vb_palette_point(series, ns, series[s]), 0.8 * F->ps, col);
        fputc('\n', f);
    }
    fputs("unset multiplot\n", f);
}

/* every curve in one panel, over the exact path, with a key */
static void path_single(FILE *f, const vb_groups *gs, const char *plan, const path_geom *G,
                        const path_frame *F, const char *const *series, size_t ns,
                        const size_t *nseg, const size_t *npt, const char *head, const char *truth)
{
    double ps = F->ps;
    fputs("set title ", f);
    vb_gp_str(f, head);
    fputs(" noenhanced font \",13\"\n"
          "set key outside right top vertical noenhanced nobox samplen 2 font \",10\"\nset xlabel ",
          f);
    vb_gp_str(f, F->xlab);
    fputs(" noenhanced\nset ylabel ", f);
    vb_gp_str(f, F->ylab);
    fprintf(f, " noenhanced\nplot $c1 using 1:2:($3-$1):($4-$2) with vectors nohead lw %g lc rgb \"#c8c8c8\" "
               "title \"%s\"",
            G->waterfall ? 2.5 : 3.5, truth);
    for (size_t s = 0; s < ns; s++)
        if (nseg[s])
            fprintf(f, ", \\\n     $c%zu using 1:2:($3-$1):($4-$2) with vectors nohead lw 1.5 lc rgb \"%s\" notitle",
                2 + 2 * s, vb_palette_colour(series, ns, series[s]));
    for (size_t s = 0; s < ns && ps > 0; s++)
        if (npt[s])
            fprintf(f, ", \\\n     $c%zu using 1:2 with points pt %d ps %g lc rgb \"%s\" notitle",
                3 + 2 * s, vb_palette_point(series, ns, series[s]), ps,
                vb_palette_colour(series, ns, series[s]));
    for (size_t s = 0; s < ns; s++) {
        if (!vb_group_find(gs, plan, series[s]))
            continue;
        fprintf(f, ", \\\n     keyentry with linespoints lw 1.5 pt %d ps %g lc rgb \"%s\" title ",
                vb_palette_point(series, ns, series[s]), ps,
                vb_palette_colour(series, ns, series[s]));
        vb_gp_str(f, series[s]);
    }
    fputc('\n', f);
}

/* the step: the smallest dt of the first curve's rows */
static double path_step(const vb_csv *t, const vb_group *g1)
{
    double dt = (double)NAN;
    for (size_t r = g1 ? g1->first : 1; g1 && r <= g1->last; r++)
        dt = isnan(dt) ? vb_csv_num(t, r, vb_csv_col(t, VB_PATHS_COL(DT)))
                       : fmin(dt, vb_csv_num(t, r, vb_csv_col(t, VB_PATHS_COL(DT))));
    return dt;
}

static int vb_chart_path(vb_chart *ch, const vb_csv *t, const char *title, const char *plan,
                         const char *const *integrators, size_t n_integ, const char *layout,
                         char *err, size_t errlen)
{
    const char *const need[] = {VB_PATHS_COL(T), VB_PATHS_COL(X), NULL};
    vb_panels V;
    int rc = -1;
    size_t *nseg = NULL;
    if (vb_panels_open(&V, ch, t, need, VB_PANELS_GROUPS, NULL, err, errlen) != 0)
        goto done;
    plan = plan && plan[0] ? plan : "fixed";
    const char *const *series = integrators ? integrators : V.gs.series;
    size_t ns = integrators ? n_integ : V.gs.n_series;
    int grid = layout ? strcmp(layout, "grid") == 0 : ns > 4;
    const vb_group *ex = vb_group_find(&V.gs, "exact", "exact");
    if (!ex) {
        snprintf(err, errlen, "%s: no rows of the exact path (integrator \"exact\")", t->path);
        goto done;
    }
    int has_plan = 0;
    for (size_t p = 0; p < V.gs.n_plans; p++)
        has_plan |= strcmp(V.gs.plans[p], plan) == 0;
    if (!has_plan) {
        snprintf(err, errlen, "%s: no rows with plan \"%s\"", t->path, plan);
        goto done;
    }
    int cx = vb_csv_col(t, VB_PATHS_COL(X)), cy = vb_csv_col(t, VB_PATHS_COL(Y)), plane = cy >= 0;
    path_geom G = {.t = t, .ct = vb_csv_col(t, VB_PATHS_COL(T)), .cb = vb_csv_col(t, VB_PATHS_COL(BODY))};
    G.cx = plane ? cx : G.ct;
    G.cy = plane ? cy : cx;
    double dt = path_step(t, ns ? vb_group_find(&V.gs, plan, series[0]) : NULL);
    /* the rows named "exact" hold a reference solution where the model has
     * no exact one: the file's "# truth:" line says so */
    const char *truth = "exact";
    for (size_t i = 0; i < t->n_comments; i++)
        if (strncmp(t->comments[i], "# truth: no exact solution", 26) == 0)
            truth = "reference";
    size_t npts = path_bodies(&G, ex);
    G.waterfall = !plane && G.nb > 1;
    path_frame F;
    if (path_frame_make(&G, ex, plane, npts, &F) != 0) {
        snprintf(err, errlen, "%s: no numbers in the rows of the exact path", t->path);
        goto done;
    }
    FILE *f = ch->f;
    char head[1024];
    path_head(title, plan, dt, head, sizeof head);
    int cols = grid ? (ns > 4 ? 3 : (int)ns) : 1;
    int rows = grid ? (int)((ns + (size_t)cols - 1) / (size_t)cols) : 1;
    if (grid)
        vb_gp_begin(ch, 360.0 * cols + 40, 330.0 * rows + 60, 10, 1.3, 0);
    else
        vb_gp_begin(ch, F.square ? 860 : 1000, 640, 11, 1.5, 0);
    if (G.waterfall) {
        fputs("set ytics () font \",8\"\n", f);
        for (int k = 0; k < G.nshow; k++)
            fprintf(f, "set ytics add (\"%d\" %.17g)\n", shown_body(&G, k), G.lift * k);
        fputs("set grid noytics nomytics\n", f);
    }
    fprintf(f, "set xrange [%.17g : %.17g]\nset yrange [%.17g : %.17g]\n", F.xlo - F.mx,
            F.xhi + F.mx, F.ylo - F.my, F.yhi + F.my);
    if (F.square)
        fputs("set size ratio -1\n", f);
    /* the data: the exact path ($c1), then each curve's segments ($c2,
     * $c4, ...) and points ($c3, $c5, ...) */
    /* (an empty block is not plotted: gnuplot would warn of it) */
    nseg = calloc(2 * ns + 1, sizeof *nseg);
    size_t *npt = nseg ? nseg + ns : NULL;
    if (!nseg) {
        snprintf(err, errlen, "%s: out of memory", t->path);
        goto done;
    }
    segments(ch, &G, ex);
    for (size_t s = 0; s < ns; s++) {
        const vb_group *g = vb_group_find(&V.gs, plan, series[s]);
        static const vb_group none = {"", "", 1, 0};
        nseg[s] = segments(ch, &G, g ? g : &none);
        npt[s] = points(ch, &G, g ? g : &none);
    }
    if (grid)
        path_grid(f, &G, &F, series, ns, nseg, npt, rows, cols, head, truth);
    else
        path_single(f, &V.gs, plan, &G, &F, series, ns, nseg, npt, head, truth);
    vb_gp_end(ch);
    rc = 0;
done:
    free(nseg);
    vb_panels_close(&V);
    return rc;
}

/* the words of a space-separated list, in place */
static size_t words(char *s, const char **out, size_t max)
{
    size_t n = 0;
    for (char *save = NULL, *w = strtok_r(s, " ", &save); w && n < max; w = strtok_r(NULL, " ", &save))
        out[n++] = w;
    return n;
}

static int build(vb_chart *ch, const vb_chart_spec *spec, const vb_csv *t, char *err,
                 size_t errlen)
{
    char *list = spec->integrators ? strdup(spec->integrators) : NULL;
    const char *names[64];
    size_t n = list ? words(list, names, 64) : 0;
    int rc = vb_chart_path(ch, t, spec->title, spec->arg, list ? names : NULL, n, spec->layout, err,
                           errlen);
    free(list);
    return rc;
}

/* a data row with plan "random" (rows are integrator,plan,...) */
static int has_random_rows(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char *line = NULL;
    size_t cap = 0;
    int found = 0;
    while (!found && getline(&line, &cap, f) > 0) {
        char *c = line[0] == '#' ? NULL : strchr(line, ',');
        found = c && !strncmp(c + 1, "random,", 7);
    }
    free(line);
    fclose(f);
    return found;
}

/* a sweep's paths of fixed steps, and of random ones when it has them */
static int add(const vb_chart_case *cc, const vb_chart_kind *kind, vb_batch *b)
{
    int rc = vb_chart_case_add(cc, b, kind, "path", NULL, "fixed",
                               "paths over the exact one, fixed steps");
    char path[PATH_MAX * 2];
    vb_chart_case_path(cc, kind->table, path, sizeof path);
    if (has_random_rows(path))
        rc |= vb_chart_case_add(cc, b, kind, "path-random", NULL, "random",
                                "paths over the exact one, random steps (seed 1)");
    return rc;
}

const vb_chart_kind vb_kind_path = {
    .name = "path",
    .table = &vb_paths_schema,
    .args = VB_CHART_ARGS_PATH,
    .build = build,
    .group = VB_CHARTS_PARTICLES,
    .add = add,
};
