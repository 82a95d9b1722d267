/* angvelchart.c — a rigid body's angular velocity against time
 * (gpcharts.h, docs/rigid.md §7): w1, w2 and w3 in the body frame, a panel
 * each, every method at one fixed step (the coarsest, or the one draw --dt
 * picks: pick.h) over the exact w(t), wide and grey.  This is the flip as
 * people picture it: the Dzhanibekov body's w2 swings from +1 to -1 and
 * back while w1 and w3 pulse, a method without the gyroscopic term keeps
 * w2 flat, a method that gains energy drifts off.
 *
 * The exact curve of polhode.csv spans one period of w(t) when that is
 * shorter than t_end (w_period on its '#' line): w(t) repeats with it, so
 * the chart lays the period end to end over t_end, every k-th point when
 * there are many periods (at most EXACT_POINTS points in all: a pixel
 * column then holds several periods, and the curve is the band they fill).
 * The y axes are the energy ellipsoid's box (wpaths.h); a method that
 * leaves it is drawn up to there, its key saying when.  Methods whose paths
 * are the same to the file's digits share a key, "A = B", the later drawn
 * dashed over the first. */
#include "gpcharts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "casecharts.h"
#include "palette.h"
#include "wpaths.h"
#include "charts.h"

/* the most points of the exact curve laid end to end */
#define EXACT_POINTS 24000

/* the exact w over [0, t_end]: the rows of one period repeated (or the
 * rows as they are, when they span t_end); its block's id */
static int exact_block(vb_chart *ch, const vb_csv *t, const vb_group *ex, double period,
                       double t_end)
{
    int ct = vb_csv_col(t, VB_POLHODE_COL(T)), cw[3] = {vb_csv_col(t, VB_POLHODE_COL(W1)), vb_csv_col(t, VB_POLHODE_COL(W2)),
                  vb_csv_col(t, VB_POLHODE_COL(W3))};
    size_t rows = ex->last - ex->first + 1;
    double span = vb_csv_num(t, ex->last, ct);
    /* the rows span a period shorter than t_end: laid end to end */
    double tiles = isfinite(period) && span < t_end ? ceil(t_end / period) : 1.0;
    size_t stride = (size_t)ceil((double)rows * tiles / EXACT_POINTS);
    if (stride < 1)
        stride = 1;
    int id = vb_gp_block_begin(ch);
    for (double k = 0.0; k < tiles; k++)
        for (size_t r = ex->first; r <= ex->last; r += stride) {
            double tt = vb_csv_num(t, r, ct) + k * period;
            if (k > 0.0 && tt > t_end + 0.5 * period / (double)rows)
                break;
            fprintf(ch->f, "%.10g,%s,%s,%s\n", k > 0.0 ? tt : vb_csv_num(t, r, ct),
                    vb_csv_str(t, r, cw[0]), vb_csv_str(t, r, cw[1]), vb_csv_str(t, r, cw[2]));
        }
    vb_gp_block_end(ch);
    return id;
}

static int vb_chart_angvel_time(vb_chart *ch, const vb_chart_spec *spec, const vb_csv *t, char *err,
                                size_t errlen)
{
    const char *title = spec->title;
    vb_w_chart w;
    int rc = -1;
    if (vb_w_chart_make(t, &w, err, errlen) != 0)
        goto done;
    const double *a = w.a;
    const vb_w_panel *pn = w.pn;
    size_t np = w.np;
    /* the time axis: the methods' whole run, t_end */
    int ct = vb_csv_col(t, VB_POLHODE_COL(T));
    double t_end = 0.0;
    for (size_t k = 0; k < np; k++)
        t_end = fmax(t_end, vb_csv_num(t, pn[k].g->last, ct));
    if (!(t_end > 0.0)) {
        snprintf(err, errlen, "%s: no time to draw w over", t->path);
        goto done;
    }
    size_t keychars = 10;
    char key[1200];
    for (size_t k = 0; k < np; k++)
        if (pn[k].same_as < 0) {
            vb_w_key(pn, np, k, key, sizeof key);
            size_t l = vb_utf8_len(key);
            keychars = l > keychars ? l : keychars;
        }
    FILE *f = ch->f;
    /* wide enough for a key of "A = B" beside a plot area of 700 px */
    vb_gp_begin(ch, 1250, 3 * 290 + 60, 11, 1.5, 0);
    /* noopaque: an opaque key wider than its margin blanks the plot's edge */
    fputs("set xlabel \"time t\" noenhanced\nset key outside right top vertical noenhanced nobox "
          "noopaque samplen 2.5 font \",10\"\n",
          f);
    fprintf(f, "set xrange [0 : %.17g]\n", t_end);
    vb_gp_margins(f, keychars, 1250.0);
    {
        char head[1024];
        snprintf(head, sizeof head,
                 "%s%sthe angular velocity w in the body frame against time, fixed steps dt = %g, "
                 "over the exact w (grey)",
                 title, title[0] ? ": " : "", w.dt);
        fputs("set multiplot layout 3, 1 title ", f);
        vb_gp_str(f, head);
        fputs(" noenhanced font \",12\"\n", f);
    }
    int ce = w.exact ? exact_block(ch, t, w.exact, w.period, t_end) : 0;
    int *ids = calloc(np + 1, sizeof *ids);
    if (!ids) {
        snprintf(err, errlen, "%s: out of memory", t->path);
        goto done;
    }
    for (size_t k = 0; k < np; k++)
        if (pn[k].same_as < 0)
            ids[k] = vb_w_block(ch, t, pn[k].g->first, pn[k].end);
    for (int i = 0; i < 3; i++) {
        fprintf(f, "set ylabel \"w%d (rad/s)\" noenhanced\n", i + 1);
        fprintf(f, "set yrange [%.17g : %.17g]\n", -VB_W_BOX * a[i], VB_W_BOX * a[i]);
        const char *sep = "plot ";
        if (ce) {
            fprintf(f, "%s$c%d using 1:%d with lines lc rgb \"%s\" lw 4 %s", sep, ce, i + 2,
                    VB_EXACT_COLOUR, i == 0 ? "title \"exact\"" : "notitle");
            sep = ", \\\n     ";
        }
        for (size_t k = 0; k < np; k++) {
            int same = pn[k].same_as, id = ids[same < 0 ? k : (size_t)same];
            if (!id)
                continue;
            const char *colour = vb_palette_colour(w.gs.series, w.gs.n_series, pn[k].g->integ);
            fprintf(f, "%s$c%d using 1:%d with lines lc rgb \"%s\" lw 1.4%s ", sep, id, i + 2,
                    colour, same < 0 ? "" : " dt (6,6)");
            if (i == 0 && same < 0) {
                vb_w_key(pn, np, k, key, sizeof key);
                fputs("title ", f);
                vb_gp_str(f, key);
            } else {
                fputs("notitle", f);
            }
            sep = ", \\\n     ";
        }
        fputc('\n', f);
    }
    free(ids);
    fputs("unset multiplot\n", f);
    vb_gp_end(ch);
    rc = 0;
done:
    vb_w_chart_free(&w);
    return rc;
}

/* a rigid body's, its caption naming the step */
static int add(const vb_chart_case *cc, const vb_chart_kind *kind, vb_batch *b)
{
    return vb_w_chart_add(cc, kind, b, "the flip: each method's w1, w2, w3 (body frame) against time",
                          ", over the exact w(t)");
}

const vb_chart_kind vb_kind_angvel_time = {
    .name = "angvel-time",
    .table = &vb_polhode_schema,
    .one_step = 1,
    .build = vb_chart_angvel_time,
    .group = VB_CHARTS_BODY,
    .add = add,
};
