/* polhode.c — a rigid body's polhode (gpcharts.h, docs/rigid.md §7): the
 * body-frame angular velocity w of each method at the coarsest fixed step
 * (or the one draw --dt picks: pick.h), a panel a method, over the exact polhode and the energy ellipsoid
 * I1 w1² + I2 w2² + I3 w3² = 2T of the start, drawn as a faint wireframe,
 * so that a method that leaves the energy surface is seen to.  The exact
 * polhode is the ellipsoid's intersection with the sphere of |L|; a
 * method that keeps both stays on it.
 *
 * The axes are the ellipsoid's box with a margin; a method that flies off
 * (rigid-euler tumbling and diverging) is drawn up to where it leaves the
 * box, and its panel says when; a dot marks where each path ends.  Methods
 * whose paths are the same to the file's digits at every point share a
 * panel, titled "A = B", the later drawn dashed over the first so both
 * colours show (wpaths.h: what this chart and w against time share). */
#include "gpcharts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "casecharts.h"
#include "charts.h"
#include "palette.h"
#include "wpaths.h"

static int vb_chart_polhode(vb_chart *ch, const vb_chart_spec *spec, const vb_csv *t, char *err,
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
    const vb_groups *gs = &w.gs;
    size_t shown = 0;
    for (size_t k = 0; k < np; k++)
        shown += pn[k].same_as < 0;
    size_t cols = shown <= 2 ? shown : shown <= 4 ? 2 : 3, rows = (shown + cols - 1) / cols;
    FILE *f = ch->f;
    vb_gp_begin(ch, 460.0 * (double)cols, 360.0 * (double)rows + 70, 10, 1.2, 0);
    fputs("set parametric\nset urange [0 : 2*pi]\nset vrange [-pi/2 : pi/2]\n"
          "set isosamples 24, 13\nset view 62, 28, 1.9\nset view equal xyz\nset xyplane 0\n"
          "unset grid\nset border 0\nunset xtics\nunset ytics\nunset ztics\n"
          "set key top left nobox noenhanced font \",9\" samplen 2\n",
          f);
    fprintf(f, "set xrange [%.17g : %.17g]\nset yrange [%.17g : %.17g]\nset zrange [%.17g : %.17g]\n",
            -VB_W_BOX * a[0], VB_W_BOX * a[0], -VB_W_BOX * a[1], VB_W_BOX * a[1],
            -VB_W_BOX * a[2], VB_W_BOX * a[2]);
    {
        char head[1024];
        snprintf(head, sizeof head,
                 "%s%sthe polhode: w (body frame), fixed steps dt = %g,\nover the "
                 "exact one (grey) on the energy ellipsoid I1 w1² + I2 w2² + I3 w3² = 2T of the "
                 "start",
                 title, title[0] ? ": " : "", w.dt);
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
            VB_W_BOX * a[0], VB_W_BOX * a[1], VB_W_BOX * a[2], VB_W_BOX * a[0], VB_W_BOX * a[1],
            VB_W_BOX * a[2]);
    int ce = w.exact ? vb_w_block(ch, t, w.exact->first, w.exact->last + 1) : 0;
    for (size_t k = 0; k < np; k++) {
        if (pn[k].same_as >= 0)
            continue;
        char key[1200];
        vb_w_key(pn, np, k, key, sizeof key);
        int id = vb_w_block(ch, t, pn[k].g->first, pn[k].end);
        /* where it ends, a dot: a path that stays put (rigid-no-gyro on a
         * spin about a principal axis keeps w as it started) is a point */
        int last = 0;
        if (pn[k].end > pn[k].g->first)
            last = vb_w_block(ch, t, pn[k].end - 1, pn[k].end);
        fputs("set title ", f);
        vb_gp_str(f, key);
        fputs(" noenhanced\n", f);
        fprintf(f,
                "splot %.17g*cos(u)*cos(v), %.17g*sin(u)*cos(v), %.17g*sin(v) with lines lc rgb "
                "\"#d8d8d8\" lw 0.5 notitle",
                a[0], a[1], a[2]);
        if (ce)
            fprintf(f, ", \\\n      $c%d using 2:3:4 with lines lc rgb \"%s\" lw 2.5 title \"exact\"", ce,
                    VB_EXACT_COLOUR);
        fprintf(f, ", \\\n      $c%d using 2:3:4 with lines lc rgb \"%s\" lw 1.6 notitle", id,
                vb_palette_colour(gs->series, gs->n_series, pn[k].g->integ));
        if (last)
            fprintf(f, ", \\\n      $c%d using 2:3:4 with points pt 7 ps 0.9 lc rgb \"%s\" notitle",
                    last, vb_palette_colour(gs->series, gs->n_series, pn[k].g->integ));
        /* the methods of the same path, dashed over it */
        for (size_t j = k + 1; j < np; j++)
            if (pn[j].same_as == (int)k)
                fprintf(f, ", \\\n      $c%d using 2:3:4 with lines lc rgb \"%s\" lw 1.6 dt (6,6) notitle",
                        id, vb_palette_colour(gs->series, gs->n_series, pn[j].g->integ));
        fputc('\n', f);
    }
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
    return vb_w_chart_add(cc, kind, b, "the polhode: each method's w (body frame)",
                          " over the exact one, on the energy ellipsoid of the start");
}

const vb_chart_kind vb_kind_polhode = {
    .name = "polhode",
    .table = &vb_polhode_schema,
    .one_step = 1,
    .build = vb_chart_polhode,
    .group = VB_CHARTS_BODY,
    .add = add,
};
