/* coincide.c — curves that lie on one another (coincide.h). */
#include "coincide.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int vb_curves_init(vb_curves *c, const vb_csv *t, const vb_groups *gs, const char **series,
                   size_t ns, const char *samecol)
{
    memset(c, 0, sizeof *c);
    c->gs = gs;
    c->series = series ? series : gs->series;
    c->ns = series ? ns : gs->n_series;
    c->np = gs->n_plans;
    for (size_t p = 0; p < c->np; p++)
        c->plans[p] = gs->plans[p];
    size_t n = (c->np ? c->np : 1) * (c->ns ? c->ns : 1);
    c->raw = malloc(n * sizeof *c->raw);
    c->near = malloc(n * sizeof *c->near);
    c->cost = malloc(n * sizeof *c->cost);
    if (!c->raw || !c->near || !c->cost) {
        vb_curves_free(c);
        return -1;
    }
    int col = samecol ? vb_csv_col(t, samecol) : -1;
    for (size_t p = 0; p < c->np; p++)
        for (size_t s = 0; s < c->ns; s++) {
            const vb_group *g = vb_curve(c, p, s);
            c->raw[p * c->ns + s] = g && col >= 0 ? vb_csv_str(t, g->first, col) : "";
            c->near[p * c->ns + s] = "";
            c->cost[p * c->ns + s] = (double)NAN;
        }
    return 0;
}

void vb_curves_free(vb_curves *c)
{
    free(c->raw);
    free(c->near);
    free(c->cost);
    c->raw = c->near = NULL;
    c->cost = NULL;
}

const vb_group *vb_curve(const vb_curves *c, size_t p, size_t s)
{
    return vb_group_find(c->gs, c->plans[p], c->series[s]);
}

static int index_of(const vb_curves *c, const char *name)
{
    for (size_t s = 0; s < c->ns; s++)
        if (strcmp(c->series[s], name) == 0)
            return (int)s;
    return -1;
}

static const char *near_of(const vb_curves *c, size_t p, const char *name)
{
    int s = index_of(c, name);
    return s < 0 ? "" : c->near[p * c->ns + (size_t)s];
}

/* the leader by the data alone: the same errors, or else the curve it
 * would hide under; a leader that is itself near another curve hands its
 * followers on to that one, so the three are striped as one group */
static const char *same_plain(const vb_curves *c, size_t p, size_t s)
{
    const char *raw = c->raw[p * c->ns + s];
    const char *l = raw[0] ? raw : c->near[p * c->ns + s];
    if (l[0] && near_of(c, p, l)[0])
        return near_of(c, p, l);
    return l;
}

static double cost_of(const vb_curves *c, size_t p, const char *name)
{
    int s = index_of(c, name);
    return s < 0 ? (double)NAN : c->cost[p * c->ns + (size_t)s];
}

/* equal errors lie on one curve of the work chart only at equal cost,
 * within 5 % (a method may spend one more evaluation to start): rk4 equal
 * to verlet (exact on a projectile) spends 4 force evaluations a step and
 * is drawn apart, solid, its key saying "errors = verlet" */
static int same_cost(const vb_curves *c, size_t p, const char *a, const char *b)
{
    return fabs(cost_of(c, p, a) / cost_of(c, p, b) - 1) < 0.05;
}

const char *vb_same_as(const vb_curves *c, size_t p, size_t s)
{
    if (!c->by_cost)
        return same_plain(c, p, s);
    const char *raw = c->raw[p * c->ns + s], *n = c->near[p * c->ns + s];
    if (raw[0] && same_cost(c, p, c->series[s], raw))
        return raw;
    if (n[0] && same_cost(c, p, c->series[s], n))
        return n;
    return "";
}

static int n_followers(const vb_curves *c, size_t p, const char *name)
{
    int n = 0;
    for (size_t i = 0; i < c->ns; i++)
        n += strcmp(vb_same_as(c, p, i), name) == 0;
    return n;
}

int vb_follower_rank(const vb_curves *c, size_t p, size_t s)
{
    const char *l = vb_same_as(c, p, s);
    if (!l[0])
        return 0;
    int r = 0;
    for (size_t i = 0; i <= s; i++)
        r += strcmp(vb_same_as(c, p, i), l) == 0;
    return r;
}

static int group_size(const vb_curves *c, size_t p, size_t s)
{
    const char *l = vb_same_as(c, p, s);
    return 1 + n_followers(c, p, l[0] ? l : c->series[s]);
}

double vb_curve_lw(const vb_curves *c, size_t p, size_t s, double w)
{
    return vb_follower_rank(c, p, s) == 0 && n_followers(c, p, c->series[s]) ? 2.0 * w : w;
}

double vb_curve_ps(const vb_curves *c, size_t p, size_t s, double z)
{
    int r = vb_follower_rank(c, p, s), k = group_size(c, p, s);
    return k > 1 ? z * (1 + fmin(0.6 * (k - 1), 1.5) * (k - 1 - r) / (k - 1)) : z;
}

int vb_curve_dt(const vb_curves *c, size_t p, size_t s)
{
    return vb_follower_rank(c, p, s) ? 41 + (int)s : 1;
}

void vb_same_note(const vb_curves *c, size_t p, size_t s, char *buf, size_t len)
{
    const char *raw = c->raw[p * c->ns + s];
    if (!vb_same_as(c, p, s)[0])
        snprintf(buf, len, "%s", "");
    else if (raw[0])
        snprintf(buf, len, "  = %s", raw);
    else
        snprintf(buf, len, "  ≈ %s", c->near[p * c->ns + s]);
}

/* the key's one word on "≈": every chart with striped curves says the same */
void vb_near_label(const vb_curves *c, size_t p, const char *what, double y, FILE *f)
{
    fputs("unset label 22\n", f);
    if (vb_panel_has_near(c, p))
        fprintf(f, "set label 22 \"≈ NAME: within a line width of\\nthe curve of NAME over 3/4 of "
                   "it,\\ndrawn striped over it; not the\\nsame %s\" at graph 1.04, graph %g left "
                   "font \",9\" tc rgb \"#333333\" noenhanced\n",
                what, y);
}

int vb_panel_has_near(const vb_curves *c, size_t p)
{
    char note[512];
    for (size_t s = 0; s < c->ns; s++) {
        if (!vb_curve(c, p, s))
            continue;
        vb_same_note(c, p, s, note, sizeof note);
        if (strstr(note, "≈"))
            return 1;
    }
    return 0;
}

void vb_curves_stripes(const vb_curves *c, size_t p, FILE *f)
{
    for (size_t s = 0; s < c->ns; s++) {
        int r = vb_follower_rank(c, p, s);
        if (!r)
            continue;
        int k = group_size(c, p, s);
        /* a leading dash of length 0.01 (invisible with butt line ends)
         * lets a pattern start with a gap */
        fprintf(f, "set dashtype %d (0.01, %g, %g, %g)\n", vb_curve_dt(c, p, s),
                r * VB_STRIPE - 0.01, VB_STRIPE, (k - 1 - r) * VB_STRIPE + 0.001);
    }
}

void vb_curves_near(vb_curves *c, const double *y)
{
    for (size_t p = 0; p < c->np; p++) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t s = 0; s < c->ns; s++) {
            const vb_group *g = vb_curve(c, p, s);
            for (size_t r = g ? g->first : 1; g && r <= g->last; r++)
                if (!isnan(y[r])) {
                    lo = fmin(lo, y[r]);
                    hi = fmax(hi, y[r]);
                }
        }
        double span = hi - lo; /* -inf with nothing drawn */
        double dec = VB_NEAR_FRAC * fmax(1.0, fmin(span, VB_MAX_DECADES));
        for (size_t b = 1; b < c->ns; b++) {
            const vb_group *gb = vb_curve(c, p, b);
            if (!gb || c->raw[p * c->ns + b][0])
                continue;
            for (size_t a = 0; a < b && !c->near[p * c->ns + b][0]; a++) {
                const vb_group *ga = vb_curve(c, p, a);
                if (!ga || ga->last - ga->first != gb->last - gb->first)
                    continue;
                size_t nn = ga->last - ga->first + 1, drawn = 0, hits = 0;
                for (size_t k = 0; k < nn; k++) {
                    double ya = y[ga->first + k], yb = y[gb->first + k];
                    drawn += !isnan(ya) || !isnan(yb);
                    hits += !isnan(ya) && !isnan(yb) && fabs(ya - yb) <= dec;
                }
                if (drawn > 0 && (double)hits >= VB_NEAR_SHARE * (double)drawn) {
                    const char *l = same_plain(c, p, a);
                    c->near[p * c->ns + b] = l[0] ? l : c->series[a];
                }
            }
        }
    }
}
