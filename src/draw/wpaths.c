/* wpaths.c — a rigid body's w curves, shared by its two charts (wpaths.h). */
#include "wpaths.h"
#include "body_table.h"
#include "charts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vb_w_ellipsoid(const vb_csv *t, double I[3], double *two_T, double *period, char *err,
                   size_t errlen)
{
    /* body.csv beside the table, read by its columns (output/body_table.h) */
    const char *slash = strrchr(t->path, '/');
    int dir = slash ? (int)(slash - t->path) + 1 : 0;
    char path[4096];
    snprintf(path, sizeof path, "%.*sbody.csv", dir, t->path);
    vb_csv b;
    if (vb_csv_read(path, &b, err, errlen) != 0)
        return -1;
    const char *const need[] = {VB_BODY_COL(INERTIA1), VB_BODY_COL(INERTIA2),
                                VB_BODY_COL(INERTIA3), VB_BODY_COL(TWO_T),
                                VB_BODY_COL(W_PERIOD), NULL};
    int rc = vb_csv_require(&b, need, err, errlen);
    if (rc == 0 && b.n_rows != 1) {
        snprintf(err, errlen, "%s: %zu rows, where a body is one", path, b.n_rows);
        rc = -1;
    }
    if (rc == 0) {
        for (int i = 0; i < 3; i++)
            I[i] = vb_csv_num(&b, 0, vb_csv_col(&b, need[i]));
        *two_T = vb_csv_num(&b, 0, vb_csv_col(&b, need[3]));
        /* inf where w(t) never returns; anything but a period > 0 is none */
        *period = vb_csv_num(&b, 0, vb_csv_col(&b, need[4]));
        if (!(*period > 0.0))
            *period = (double)INFINITY;
        if (!(I[0] > 0 && I[1] > 0 && I[2] > 0 && *two_T > 0 && isfinite(*two_T))) {
            snprintf(err, errlen, "%s: not a rigid body's moments and energy ellipsoid", path);
            rc = -1;
        }
    }
    vb_csv_free(&b);
    return rc;
}

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

size_t vb_w_panels(const vb_csv *t, const vb_groups *gs, const char *plan, const double a[3],
                   vb_w_panel *pn, double *dt)
{
    int cw[3] = {vb_csv_col(t, VB_POLHODE_COL(W1)), vb_csv_col(t, VB_POLHODE_COL(W2)),
                  vb_csv_col(t, VB_POLHODE_COL(W3))};
    int ct = vb_csv_col(t, VB_POLHODE_COL(T)), cdt = vb_csv_col(t, VB_POLHODE_COL(DT));
    size_t np = 0;
    *dt = (double)NAN;
    for (size_t s = 0; s < gs->n_series; s++) {
        const vb_group *g = vb_group_find(gs, plan, gs->series[s]);
        if (!g)
            continue;
        vb_w_panel *p = &pn[np];
        *p = (vb_w_panel){g, g->last + 1, (double)NAN, -1};
        if (isnan(*dt))
            *dt = vb_csv_num(t, g->first, cdt);
        for (size_t r = g->first; r <= g->last; r++) {
            int out = 0;
            for (int i = 0; i < 3; i++) {
                double w = vb_csv_num(t, r, cw[i]);
                out |= !(fabs(w) <= VB_W_BOX * a[i]);
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
    return np;
}

int vb_w_chart_make(const vb_csv *t, vb_w_chart *w, char *err, size_t errlen)
{
    const char *const need[] = {VB_POLHODE_COL(T),  VB_POLHODE_COL(DT), VB_POLHODE_COL(W1),
                                VB_POLHODE_COL(W2), VB_POLHODE_COL(W3), NULL};
    memset(w, 0, sizeof *w);
    if (vb_csv_require(t, need, err, errlen) != 0)
        return -1;
    if (vb_w_ellipsoid(t, w->I, &w->two_T, &w->period, err, errlen) != 0)
        return -1;
    if (vb_groups_make(t, &w->gs, err, errlen) != 0)
        return -1;
    /* the fixed plan's: the coarsest step (or the one draw --dt picked),
     * where the methods differ most */
    const char *plan = w->gs.n_plans ? w->gs.plans[0] : "fixed";
    w->exact = vb_group_find(&w->gs, "exact", "exact");
    w->pn = calloc(w->gs.n_series + 1, sizeof *w->pn);
    if (!w->pn) {
        snprintf(err, errlen, "%s: out of memory", t->path);
        return -1;
    }
    for (int i = 0; i < 3; i++)
        w->a[i] = sqrt(w->two_T / w->I[i]);
    w->np = vb_w_panels(t, &w->gs, plan, w->a, w->pn, &w->dt);
    if (!w->np) {
        snprintf(err, errlen, "%s: no method's path to draw", t->path);
        return -1;
    }
    return 0;
}

void vb_w_chart_free(vb_w_chart *w)
{
    free(w->pn);
    vb_groups_free(&w->gs);
    memset(w, 0, sizeof *w);
}

void vb_w_key(const vb_w_panel *pn, size_t np, size_t k, char *key, size_t len)
{
    char name[1024];
    size_t used = (size_t)snprintf(name, sizeof name, "%s", pn[k].g->integ);
    for (size_t j = k + 1; j < np && used < sizeof name; j++)
        if (pn[j].same_as == (int)k)
            used += (size_t)snprintf(name + used, sizeof name - used, " = %s", pn[j].g->integ);
    if (isnan(pn[k].left_at))
        snprintf(key, len, "%s", name);
    else
        snprintf(key, len, "%s (leaves the box at t = %.4g)", name, pn[k].left_at);
}

int vb_w_block(vb_chart *ch, const vb_csv *t, size_t first, size_t end)
{
    int ct = vb_csv_col(t, VB_POLHODE_COL(T)), cw[3] = {vb_csv_col(t, VB_POLHODE_COL(W1)), vb_csv_col(t, VB_POLHODE_COL(W2)),
                  vb_csv_col(t, VB_POLHODE_COL(W3))};
    int id = vb_gp_block_begin(ch);
    for (size_t r = first; r < end; r++)
        fprintf(ch->f, "%s,%s,%s,%s\n", vb_csv_str(t, r, ct), vb_csv_str(t, r, cw[0]),
                vb_csv_str(t, r, cw[1]), vb_csv_str(t, r, cw[2]));
    vb_gp_block_end(ch);
    return id;
}

int vb_w_chart_add(const vb_chart_case *cc, const vb_chart_kind *kind, vb_batch *b,
                   const char *before, const char *after)
{
    char cap[512];
    if (cc->pick && cc->pick->dt > 0.0)
        snprintf(cap, sizeof cap, "%s at the fixed step dt = %g (draw --dt)%s", before, cc->pick->dt,
                 after);
    else
        snprintf(cap, sizeof cap, "%s at the coarsest fixed step%s", before, after);
    return vb_chart_case_add(cc, b, kind, kind->name, NULL, NULL, cap);
}
