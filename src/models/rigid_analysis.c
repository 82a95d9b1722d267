/* rigid_analysis.c — flips and their period, from a sequence of states,
 * and the polhode's D (rigid_analysis.h). */
#include "rigid_analysis.h"
#include "quaternion.h"

#include <math.h>

void vb_flip_tracker_start(vb_flip_tracker *tr, int axis, double threshold)
{
    tr->axis = axis;
    tr->threshold = threshold;
    tr->side = 0;
    tr->have_prev = 0;
    tr->prev_t = tr->prev_c = 0.0;
    tr->last_zero = NAN;
    tr->flips = 0;
    tr->first_flip = tr->last_flip = NAN;
    tr->first_t = tr->gap_min = tr->gap_max = NAN;
}

int vb_flip_tracker_add(vb_flip_tracker *tr, const vb_rigid_props *p, double t,
                        const vb_rigid_state *s)
{
    double L[3];
    vb_rigid_angmom_body(p, s->w, L);
    double n = vb_vec3_norm(L);
    if (!(n > 0.0) || !isfinite(n))
        return 0; /* at rest (nothing turns over) or diverged */
    if (isnan(tr->first_t))
        tr->first_t = t;
    double c = L[tr->axis] / n;
    int flipped = 0;
    if (tr->have_prev && ((tr->prev_c > 0.0 && c <= 0.0) || (tr->prev_c < 0.0 && c >= 0.0)))
        tr->last_zero = tr->prev_t + (t - tr->prev_t) * tr->prev_c / (tr->prev_c - c);
    else if (c == 0.0)
        tr->last_zero = t;
    int beyond = c >= tr->threshold ? 1 : c <= -tr->threshold ? -1 : 0;
    if (beyond != 0 && beyond != tr->side) {
        if (tr->side != 0) {
            tr->flips++;
            if (tr->flips == 1)
                tr->first_flip = tr->last_zero;
            else {
                double gap = tr->last_zero - tr->last_flip;
                tr->gap_min = tr->flips == 2 ? gap : fmin(tr->gap_min, gap);
                tr->gap_max = tr->flips == 2 ? gap : fmax(tr->gap_max, gap);
            }
            tr->last_flip = tr->last_zero;
            flipped = 1;
        }
        tr->side = beyond;
    }
    tr->have_prev = 1;
    tr->prev_t = t;
    tr->prev_c = c;
    return flipped;
}

int vb_flip_tracker_regular(const vb_flip_tracker *tr)
{
    if (tr->flips < 2)
        return 0;
    double g = (tr->last_flip - tr->first_flip) / (double)(tr->flips - 1);
    return g > 0.0 && tr->gap_max <= (1.0 + VB_FLIP_GAP_TOL) * g &&
           tr->gap_min >= (1.0 - VB_FLIP_GAP_TOL) * g && tr->first_flip - tr->first_t <= 2.0 * g &&
           tr->prev_t - tr->last_flip <= 2.0 * g;
}

double vb_flip_tracker_period(const vb_flip_tracker *tr)
{
    if (!vb_flip_tracker_regular(tr))
        return NAN;
    return 2.0 * (tr->last_flip - tr->first_flip) / (double)(tr->flips - 1);
}

int vb_rigid_intermediate_axis(const double I[3])
{
    for (int i = 0; i < 3; i++) {
        int below = 0, above = 0;
        for (int j = 0; j < 3; j++) {
            if (j == i)
                continue;
            below += I[j] < I[i] || (I[j] == I[i] && j < i);
            above += I[j] > I[i] || (I[j] == I[i] && j > i);
        }
        if (below == 1 && above == 1)
            return i;
    }
    return 1; /* not reached: one of three is the median */
}

double vb_rigid_polhode_D(const vb_rigid_props *p, const double w[3])
{
    const double *I = p->inertia;
    double Im = I[vb_rigid_intermediate_axis(I)], D = 0.0;
    for (int i = 0; i < 3; i++)
        D += I[i] * (I[i] - Im) * w[i] * w[i];
    return D;
}

size_t vb_rigid_count_flips(const vb_rigid_props *p, const double *t, const vb_rigid_state *s,
                            size_t n, int axis, double threshold, double *period)
{
    vb_flip_tracker tr;
    vb_flip_tracker_start(&tr, axis, threshold);
    for (size_t i = 0; i < n; i++)
        vb_flip_tracker_add(&tr, p, t[i], &s[i]);
    if (period)
        *period = vb_flip_tracker_period(&tr);
    return tr.flips;
}

double vb_rigid_angmom_drift(const vb_rigid_props *p, const vb_rigid_state *s,
                             const double L0[3], double L0_norm)
{
    double L[3];
    vb_rigid_angmom(p, s, L);
    double dL[3] = {L[0] - L0[0], L[1] - L0[1], L[2] - L0[2]};
    return L0_norm > 0.0 ? vb_vec3_norm(dL) / L0_norm : vb_vec3_norm(dL);
}
