/* polhode.c — a rigid body's polhode (gpcharts.h, docs/rigid.md §7): the
 * body-frame angular velocity w of each method at the coarsest fixed step,
 * a panel a method, over the exact polhode and the energy ellipsoid
 * I1 w1² + I2 w2² + I3 w3² = 2T of the start, drawn as a faint wireframe,
 * so that a method that leaves the energy surface is seen to.  The exact
 * polhode is the ellipsoid's intersection with the sphere of |L|; a
 * method that keeps both stays on it.
 *
 * The axes are the ellipsoid's box with a margin; a method that flies off
 * (rigid-euler tumbling and diverging) is drawn up to where it leaves the
 * box, and its panel says when; a dot marks where each path ends.  Methods whose paths are the same to the
 * file's digits at every point share a panel, titled "A = B", the later
 * drawn dashed over the first so both colours show. */
#include "gpcharts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "palette.h"

/* the box drawn: this many times the ellipsoid's semi-axes */
#define BOX 1.4

/* a panel: a method's rows first..last of the plan drawn, up to end */
typedef struct {
    const vb_group *g;
    size_t end;      /* one past the last row drawn */
    double left_at;  /* the time it left the box, or NaN */
    int same_as;     /* the earlier panel it equals, or -1 */
} panel;

/* the same w at every row of two curves (the file's ten digits) */
static int same_path(const vb_csv *t, const int *cw, const vb_group *a, const vb_group *b)
{
    if (a->last - a->first != b->last - b->first)
        return 0;
    for (size_t k = 0; k <= a->last - a->first; k++)
        for (int i = 0; i < 3; i++)
            if (strcmp(vb_csv_str(t, a->first + k, cw[i]), vb_csv_str(t, b->first + k, cw[i])))
                return 0;
    return 1;
}

/* "I1=... I2=... I3=... two_T=..." from the file's '#' lines */
static int ellipsoid_of(const vb_csv *t, double I[3], double *two_T)
{
    for (size_t k = 0; k < t->n_comments; k++) {
        const char *s = strstr(t->comments[k], "I1=");
        if (s && sscanf(s, "I1=%lf I2=%lf I3=%lf two_T=%lf", &I[0], &I[1], &I[2], two_T) == 4)
            return I[0] > 0 && I[1] > 0 && I[2] > 0 && *two_T > 0 && isfinite(*two_T);
    }
    return 0;
}

static void block(vb_chart *ch, const vb_csv *t, const int *cw, size_t first, size_t end)
{
    vb_gp_block_begin(ch);
    for (size_t r = first; r < end; r++)
        fprintf(ch->f, "%s,%s,%s\n", vb_csv_str(t, r, cw[0]), vb_csv_str(t, r, cw[1]),
                vb_csv_str(t, r, cw[2]));
    vb_gp_block_end(ch);
}

int vb_chart_polhode(vb_chart *ch, const vb_csv *t, const char *title, char *err, size_t errlen)
{
    static const char *const need[] = {"t", "dt", "w1", "w2", "w3", NULL};
    if (vb_csv_require(t, need, err, errlen) != 0)
        return -1;
    double I[3], two_T;
    if (!ellipsoid_of(t, I, &two_T)) {
        snprintf(err, errlen,
                 "%s: no '# ... I1= I2= I3= two_T=' line giving the energy ellipsoid", t->path);
        return -1;
    }
    vb_groups gs;
    if (vb_groups_make(t, &gs, err, errlen) != 0)
        return -1;
    int rc = -1;
    int cw[3] = {vb_csv_col(t, "w1"), vb_csv_col(t, "w2"), vb_csv_col(t, "w3")};
    int ct = vb_csv_col(t, "t"), cdt = vb_csv_col(t, "dt");
    /* the fixed plan's: the coarsest step, where the methods differ most */
    const char *plan = gs.n_plans ? gs.plans[0] : "fixed";
    const vb_group *exact = vb_group_find(&gs, "exact", "exact");
    panel *pn = calloc(gs.n_series + 1, sizeof *pn);
    if (!pn) {
        snprintf(err, errlen, "%s: out of memory", t->path);
        goto done;
    }
    double a[3];
    for (int i = 0; i < 3; i++)
        a[i] = sqrt(two_T / I[i]);
    size_t np = 0;
    double dt = (double)NAN;
    for (size_t s = 0; s < gs.n_series; s++) {
        const vb_group *g = vb_group_find(&gs, plan, gs.series[s]);
        if (!g)
            continue;
        panel *p = &pn[np];
        *p = (panel){g, g->last + 1, (double)NAN, -1};
        if (isnan(dt))
            dt = vb_csv_num(t, g->first, cdt);
        for (size_t r = g->first; r <= g->last; r++) {
            int out = 0;
            for (int i = 0; i < 3; i++) {
                double w = vb_csv_num(t, r, cw[i]);
                out |= !(fabs(w) <= BOX * a[i]);
            }
            if (out) {
                p->end = r;
                p->left_at = vb_csv_num(t, r, ct);
                break;
            }
        }
        for (size_t o = 0; o < np && p->same_as < 0; o++)
            if (pn[o].same_as < 0 && same_path(t, cw, pn[o].g, g))
                p->same_as = (int)o;
        np++;
    }
    size_t shown = 0;
    for (size_t k = 0; k < np; k++)
        shown += pn[k].same_as < 0;
    if (!shown) {
        snprintf(err, errlen, "%s: no method's path to draw", t->path);
        goto done;
    }
    size_t cols = shown <= 2 ? shown : shown <= 4 ? 2 : 3, rows = (shown + cols - 1) / cols;
    FILE *f = ch->f;
    vb_gp_begin(ch, 460.0 * (double)cols, 360.0 * (double)rows + 70, 10, 1.2, 0);
    fputs("set parametric\nset urange [0 : 2*pi]\nset vrange [-pi/2 : pi/2]\n"
          "set isosamples 24, 13\nset view 62, 28, 1.9\nset view equal xyz\nset xyplane 0\n"
          "unset grid\nset border 0\nunset xtics\nunset ytics\nunset ztics\n"
          "set key top left nobox noenhanced font \",9\" samplen 2\n",
          f);
    fprintf(f, "set xrange [%.17g : %.17g]\nset yrange [%.17g : %.17g]\nset zrange [%.17g : %.17g]\n",
            -BOX * a[0], BOX * a[0], -BOX * a[1], BOX * a[1], -BOX * a[2], BOX * a[2]);
    {
        char head[1024];
        snprintf(head, sizeof head,
                 "%s%sthe polhode: w (body frame), fixed steps of the coarsest dt = %g,\nover the "
                 "exact one (grey) on the energy ellipsoid I1 w1² + I2 w2² + I3 w3² = 2T of the "
                 "start",
                 title, title[0] ? ": " : "", dt);
        fprintf(f, "set multiplot layout %zu, %zu title ", rows, cols);
        vb_gp_str(f, head);
        fputs(" noenhanced font \",11\"\n", f);
    }
    /* the axes, once: arrows along w1, w2, w3 from the centre to the box */
    fprintf(f,
            "set arrow 1 from 0,0,0 to %.17g,0,0 lc rgb \"#999999\" lw 0.6\n"
            "set arrow 2 from 0,0,0 to 0,%.17g,0 lc rgb \"#999999\" lw 0.6\n"
            "set arrow 3 from 0,0,0 to 0,0,%.17g lc rgb \"#999999\" lw 0.6\n"
            "set label 1 \"w1\" at %.17g,0,0 tc rgb \"#777777\"\n"
            "set label 2 \"w2\" at 0,%.17g,0 tc rgb \"#777777\"\n"
            "set label 3 \"w3\" at 0,0,%.17g tc rgb \"#777777\"\n",
            BOX * a[0], BOX * a[1], BOX * a[2], BOX * a[0], BOX * a[1], BOX * a[2]);
    int ce = 0;
    if (exact) {
        ce = ch->blocks + 1;
        block(ch, t, cw, exact->first, exact->last + 1);
    }
    for (size_t k = 0; k < np; k++) {
        if (pn[k].same_as >= 0)
            continue;
        char name[1024], key[1200];
        size_t used = (size_t)snprintf(name, sizeof name, "%s", pn[k].g->integ);
        for (size_t j = k + 1; j < np && used < sizeof name; j++)
            if (pn[j].same_as == (int)k)
                used += (size_t)snprintf(name + used, sizeof name - used, " = %s", pn[j].g->integ);
        if (isnan(pn[k].left_at))
            snprintf(key, sizeof key, "%s", name);
        else
            snprintf(key, sizeof key, "%s (leaves the box at t = %.4g)", name, pn[k].left_at);
        int id = ch->blocks + 1;
        block(ch, t, cw, pn[k].g->first, pn[k].end);
        /* where it ends, a dot: a path that stays put (rigid-no-gyro on a
         * spin about a principal axis keeps w as it started) is a point */
        int last = 0;
        if (pn[k].end > pn[k].g->first) {
            last = ch->blocks + 1;
            block(ch, t, cw, pn[k].end - 1, pn[k].end);
        }
        fputs("set title ", f);
        vb_gp_str(f, key);
        fputs(" noenhanced\n", f);
        fprintf(f,
                "splot %.17g*cos(u)*cos(v), %.17g*sin(u)*cos(v), %.17g*sin(v) with lines lc rgb "
                "\"#d8d8d8\" lw 0.5 notitle",
                a[0], a[1], a[2]);
        if (ce)
            fprintf(f, ", \\\n      $c%d using 1:2:3 with lines lc rgb \"%s\" lw 2.5 title \"exact\"", ce,
                    VB_EXACT_COLOUR);
        fprintf(f, ", \\\n      $c%d using 1:2:3 with lines lc rgb \"%s\" lw 1.6 notitle", id,
                vb_palette_colour(gs.series, gs.n_series, pn[k].g->integ));
        if (last)
            fprintf(f, ", \\\n      $c%d using 1:2:3 with points pt 7 ps 0.9 lc rgb \"%s\" notitle",
                    last, vb_palette_colour(gs.series, gs.n_series, pn[k].g->integ));
        /* the methods of the same path, dashed over it */
        for (size_t j = k + 1; j < np; j++)
            if (pn[j].same_as == (int)k)
                fprintf(f, ", \\\n      $c%d using 1:2:3 with lines lc rgb \"%s\" lw 1.6 dt (6,6) notitle",
                        id, vb_palette_colour(gs.series, gs.n_series, pn[j].g->integ));
        fputc('\n', f);
    }
    fputs("unset multiplot\n", f);
    vb_gp_end(ch);
    rc = 0;
done:
    free(pn);
    vb_groups_free(&gs);
    return rc;
}
