/* constrain.c — relaxation, SHAKE and RATTLE's velocity stage by sweeps,
 * rod by rod (constrain.h); solved directly: constrain_direct.c. */
#include "constrain.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "constrain_rods.h"

/* What a sweep over a chain's rods needs of each, once a call: its
 * length, Jakobsen's shares of a correction w_i / (w_i + w_j) and
 * w_j / (w_i + w_j), SHAKE's 2 (w_i + w_j) and tests; each computed as the
 * plain sweeps compute it, so the same bits */
typedef struct {
    size_t m;
    unsigned d;
    const double *pivot, *x_old;
    double L[CHAIN_MAX], share_i[CHAIN_MAX], share_j[CHAIN_MAX];
    double wi[CHAIN_MAX], wj[CHAIN_MAX], L2[CHAIN_MAX], twice_w[CHAIN_MAX];
    double near[CHAIN_MAX], flat[CHAIN_MAX]; /* |sigma| small enough, |dot| too small */
} chain;

static void chain_init(chain *ch, const vb_constraints *c, const double *x_old, double tol,
                       double ulp, double far)
{
    ch->m = c->n;
    ch->d = c->dim;
    ch->pivot = c->n ? c->rod[0].pivot : NULL;
    ch->x_old = x_old;
    for (size_t k = 0; k < c->n; k++) {
        double wi = c->inv_mass[k], wj = k ? c->inv_mass[k - 1] : 0.0, w = wi + wj;
        double L = c->rod[k].length, L2 = L * L;
        ch->L[k] = L;
        ch->wi[k] = wi;
        ch->wj[k] = wj;
        if (x_old) { /* SHAKE's sweeps */
            ch->L2[k] = L2;
            ch->twice_w[k] = 2.0 * w;
            ch->near[k] = fmax(2.0 * tol * L2, ulp * L * (far + L));
            ch->flat[k] = 1e-12 * L2;
        } else {
            ch->share_i[k] = wi / w;
            ch->share_j[k] = wj / w;
        }
    }
}

/* Jakobsen's relaxation of rod k of a chain (vb_relax's operations) */
static inline void relax_chain_rod(const chain *ch, double *x, unsigned d, size_t k)
{
    double *xi = x + k * d, *xj = k ? xi - d : NULL;
    const double *pj = k ? xj : ch->pivot;
    double delta[3] = {0.0, 0.0, 0.0};
    for (unsigned a = 0; a < d; a++)
        delta[a] = xi[a] - pj[a];
    /* vb_relax's sum starts from 0.0: 0.0 + y is y, bit for bit, for a
     * square (+0, positive, +inf or NaN), so the sum starts from the first */
    double len2 = delta[0] * delta[0];
    for (unsigned a = 1; a < d; a++)
        len2 += delta[a] * delta[a];
    double len = sqrt(len2);
    if (!(len > 0.0))
        return;
    double diff = (len - ch->L[k]) / len, fi = ch->share_i[k] * diff, fj = ch->share_j[k] * diff;
    for (unsigned a = 0; a < d; a++) {
        xi[a] -= fi * delta[a];
        if (xj)
            xj[a] += fj * delta[a];
    }
}

#ifdef __SSE2__
/* Two rods of one wavefront at once, rod k in the low lane of SSE2's packed
 * doubles and rod k + 2 in the high one: where a wide wavefront's rods wait
 * on the divider (a square root and a division each), a packed sqrt or
 * division does two of them for about the price of one.  The same bits as
 * relax_chain_rod on each: every lane does that function's operations on
 * the same numbers in the same order, and each packed operation is the
 * IEEE operation rounded correctly in each lane, as the scalar instruction
 * is; separate instructions, never fused (no FMA intrinsics, and
 * -ffp-contract=off).  The two rods share no bead, so the lanes' reads and
 * writes never meet.  A rod relax_chain_rod would skip (len not > 0: no
 * length, or NaN) sends the pair the scalar way, before anything is
 * written.  (SHAKE's sweeps, a division a rod behind tests whose outcome
 * differs rod to rod, took 1.3 times as long in pairs on 16 rods: they
 * stay one rod at a time.) */
static inline __m128d lanes(const double *lo, const double *hi)
{
    return _mm_set_pd(*hi, *lo);
}

static inline void store_lanes(double *lo, double *hi, __m128d v)
{
    if (lo) /* NULL: rod 0's pivot, which does not move */
        _mm_storel_pd(lo, v);
    _mm_storeh_pd(hi, v);
}

static inline void relax_chain_pair(const chain *ch, double *x, unsigned d, size_t k)
{
    double *xi = x + k * d, *xj = k ? xi - d : NULL, *yi = xi + 2 * d, *yj = yi - d;
    const double *pj = k ? xj : ch->pivot;
    __m128d delta[3], len2 = _mm_setzero_pd();
    for (unsigned a = 0; a < d; a++) {
        delta[a] = _mm_sub_pd(lanes(xi + a, yi + a), lanes(pj + a, yj + a));
        __m128d square = _mm_mul_pd(delta[a], delta[a]);
        len2 = a ? _mm_add_pd(len2, square) : square; /* from the first, as relax_chain_rod */
    }
    __m128d len = _mm_sqrt_pd(len2);
    if (_mm_movemask_pd(_mm_cmpgt_pd(len, _mm_setzero_pd())) != 3) {
        relax_chain_rod(ch, x, d, k);
        relax_chain_rod(ch, x, d, k + 2);
        return;
    }
    __m128d diff = _mm_div_pd(_mm_sub_pd(len, lanes(ch->L + k, ch->L + k + 2)), len);
    __m128d fi = _mm_mul_pd(lanes(ch->share_i + k, ch->share_i + k + 2), diff),
            fj = _mm_mul_pd(lanes(ch->share_j + k, ch->share_j + k + 2), diff);
    for (unsigned a = 0; a < d; a++) {
        __m128d ni = _mm_sub_pd(lanes(xi + a, yi + a), _mm_mul_pd(fi, delta[a])),
                nj = _mm_add_pd(lanes(pj + a, yj + a), _mm_mul_pd(fj, delta[a]));
        store_lanes(xi + a, yi + a, ni);
        store_lanes(xj ? xj + a : NULL, yj + a, nj);
    }
}
#else
/* without SSE2, the two rods one after the other */
static inline void relax_chain_pair(const chain *ch, double *x, unsigned d, size_t k)
{
    relax_chain_rod(ch, x, d, k);
    relax_chain_rod(ch, x, d, k + 2);
}
#endif

/* SHAKE's correction of rod k of a chain (shake_sweep's operations): 0
 * within its tolerance, 1 corrected, 2 skipped at right angles to its
 * old direction.  v, when not NULL, gets the correction / h. */
enum { ROD_KEPT, ROD_CORRECTED, ROD_DEGENERATE };

static inline int shake_chain_rod_v(const chain *ch, double *x, unsigned d, size_t k, double *v,
                                    double h)
{
    double *xi = x + k * d, *xj = k ? xi - d : NULL;
    const double *pj = k ? xj : ch->pivot, *oi = ch->x_old + k * d,
                 *oj = k ? oi - d : ch->pivot;
    double delta[3], old[3], len2 = 0.0, dot = 0.0;
    for (unsigned a = 0; a < d; a++) {
        delta[a] = xi[a] - pj[a];
        old[a] = oi[a] - oj[a];
        len2 += delta[a] * delta[a];
        dot += delta[a] * old[a];
    }
    double sigma = len2 - ch->L2[k];
    if (fabs(sigma) <= ch->near[k])
        return ROD_KEPT;
    if (!(fabs(dot) > ch->flat[k]))
        return ROD_DEGENERATE;
    double g = sigma / (ch->twice_w[k] * dot);
    for (unsigned a = 0; a < d; a++) {
        xi[a] -= g * ch->wi[k] * old[a];
        if (xj)
            xj[a] += g * ch->wj[k] * old[a];
    }
    if (v) {
        double *vi = v + k * d, *vj = k ? vi - d : NULL;
        for (unsigned a = 0; a < d; a++) {
            vi[a] -= g * ch->wi[k] * old[a] / h;
            if (vj)
                vj[a] += g * ch->wj[k] * old[a] / h;
        }
    }
    return ROD_CORRECTED;
}

static inline void shake_chain_rod(const chain *ch, double *x, unsigned d, size_t k)
{
    (void)shake_chain_rod_v(ch, x, d, k, NULL, 0.0);
}

typedef void chain_rod_fn(const chain *ch, double *x, unsigned d, size_t k);

/* `sweeps` sweeps over a chain's rods, each rod by `rod` (two of a
 * wavefront at once by `pair`, unless NULL), the same updates as sweep
 * after sweep in the rods' order, so the same bits.  Rod k of sweep s
 * touches beads k and k - 1 only: it must follow rod k - 1 of its sweep
 * and rod k + 1 of the sweep before, and no other rod near it (rods two
 * apart share no bead).
 * Done by wavefronts, every rod with k + 2 s = tau at once for
 * tau = 0, 1, ..., each tau's rods independent, so the processor overlaps
 * their square roots and divisions: the longest chain of dependent
 * updates is m + 2 sweeps rods long, where the plain order's is m sweeps
 * (docs/constraints.md, "Jakobsen's sweeps in wavefronts"). */
static inline void wavefront(const chain *ch, double *x, unsigned d, size_t k, size_t top,
                             chain_rod_fn *rod, chain_rod_fn *pair)
{
    for (; pair && k + 2 <= top; k += 4) /* rods k and k + 2 at once */
        pair(ch, x, d, k);
    for (; k <= top; k += 2)
        rod(ch, x, d, k);
}

static inline void chain_sweeps(const chain *ch, double *x, int sweeps, chain_rod_fn *rod,
                                chain_rod_fn *pair)
{
    size_t m = ch->m, last = 2 * (size_t)(sweeps - 1); /* 2 s of the last sweep */
    for (size_t tau = 0; m && sweeps > 0 && tau < m + last; tau++) {
        /* k = tau - 2 s, s from 0 to sweeps - 1, k from 0 to m - 1 */
        size_t k = tau > last ? tau - last : tau & 1, top = tau < m ? tau : m - 1;
        if (ch->d == 2) /* the plane's, with d known to the compiler */
            wavefront(ch, x, 2, k, top, rod, pair);
        else
            wavefront(ch, x, ch->d, k, top, rod, pair);
    }
}

void vb_relax(const vb_constraints *c, double *x, int sweeps)
{
    unsigned d = c->dim;
    if (sweeps <= 0)
        return;
    if (is_chain(c)) {
        chain ch;
        chain_init(&ch, c, NULL, 0.0, 0.0, 0.0);
        chain_sweeps(&ch, x, sweeps, relax_chain_rod, relax_chain_pair);
        return;
    }
    for (int s = 0; s < sweeps; s++)
        for (size_t k = 0; k < c->n; k++) {
            const vb_constraint *r = &c->rod[k];
            ends e = ends_of(c, r, x);
            double delta[3], len2 = 0.0;
            for (unsigned a = 0; a < d; a++) {
                delta[a] = e.xi[a] - e.pj[a];
                len2 += delta[a] * delta[a];
            }
            double len = sqrt(len2);
            if (!(len > 0.0))
                continue; /* both ends at one point: no direction to move along */
            /* Jakobsen's diff = (|delta| - L)/|delta|, each end moved by its
             * share of it along delta */
            double diff = (len - r->length) / len, w = e.wi + e.wj;
            double fi = e.wi / w * diff, fj = e.wj / w * diff;
            for (unsigned a = 0; a < d; a++) {
                e.xi[a] -= fi * delta[a];
                if (e.xj)
                    e.xj[a] += fj * delta[a];
            }
        }
}

/* One sweep of SHAKE over the rods: each rod outside tol corrected along
 * its direction at x_old (the correction / h to v as well, when v is
 * given).  The rods it corrected; -1 for a rod at right angles to its old
 * direction, where no correction along that can fix it (skipped). */
static long shake_sweep(const vb_constraints *c, double *x, const double *x_old, double tol,
                        double ulp, double far, double *v, double h, int *degenerate)
{
    unsigned d = c->dim;
    long corrected = 0;
    for (size_t k = 0; k < c->n; k++) {
        const vb_constraint *r = &c->rod[k];
        ends e = ends_of(c, r, x);
        int pivot = r->j == VB_PIVOT;
        const double *oi = x_old + r->i * d, *oj = pivot ? r->pivot : x_old + r->j * d;
        double delta[3], old[3], len2 = 0.0, dot = 0.0, L2 = r->length * r->length;
        for (unsigned a = 0; a < d; a++) {
            delta[a] = e.xi[a] - e.pj[a];
            old[a] = oi[a] - oj[a];
            len2 += delta[a] * delta[a];
            dot += delta[a] * old[a];
        }
        /* |x_i - x_j|^2 - L^2, within 2 tol L^2: the length within tol L;
         * or within its round-off, 2 L times a few ulps (ulp, a relative
         * size) of the largest coordinate (far), when a tight tol on beads
         * far from the origin asks for more than the doubles hold */
        double sigma = len2 - L2;
        if (fabs(sigma) <= 2.0 * tol * L2 || fabs(sigma) <= ulp * r->length * (far + r->length))
            continue;
        if (!(fabs(dot) > 1e-12 * L2)) {
            *degenerate = 1;
            continue;
        }
        corrected++;
        /* x_i -= g w_i old, x_j += g w_j old makes sigma zero to first order */
        double g = sigma / (2.0 * (e.wi + e.wj) * dot);
        for (unsigned a = 0; a < d; a++) {
            e.xi[a] -= g * e.wi * old[a];
            if (e.xj)
                e.xj[a] += g * e.wj * old[a];
        }
        if (v) {
            double *vi = v + r->i * d, *vj = pivot ? NULL : v + r->j * d;
            for (unsigned a = 0; a < d; a++) {
                vi[a] -= g * e.wi * old[a] / h;
                if (vj)
                    vj[a] += g * e.wj * old[a] / h;
            }
        }
    }
    return corrected;
}

/* vb_shake on a chain (m >= 1 rods, max_sweeps >= 1) in wavefronts, as
 * chain_sweeps takes them, each sweep's corrections and skips counted
 * until it is whole (at tau = m - 1 + 2 s).  A sweep that corrected no rod
 * changed nothing, so the rods of the sweeps after it already done (their
 * small k, ahead of the wave) saw the positions it saw and changed nothing
 * either: x and v are the plain order's, bit for bit, and so is the count
 * returned.  On -1 they are not (the caller poisons them). */
static long shake_chain(const vb_constraints *c, double *x, const double *x_old, double tol,
                        double ulp, double far, long max_sweeps, double *v, double h)
{
    chain ch;
    chain_init(&ch, c, x_old, tol, ulp, far);
    size_t m = ch.m;
    /* the sweeps in flight at once: (m - 1)/2 + 1 <= CHAIN_MAX */
    long corrected[CHAIN_MAX];
    int degenerate[CHAIN_MAX];
    for (size_t tau = 0;; tau++) {
        size_t s_hi = tau / 2, s_lo = tau >= m ? (tau - m + 2) / 2 : 0;
        if (s_hi > (size_t)max_sweeps - 1)
            s_hi = (size_t)max_sweeps - 1;
        if (tau % 2 == 0 && tau / 2 <= s_hi) { /* sweep tau/2 begins, with rod 0 */
            corrected[s_hi % CHAIN_MAX] = 0;
            degenerate[s_hi % CHAIN_MAX] = 0;
        }
        for (size_t s = s_hi + 1; s-- > s_lo;) { /* k = tau - 2 s, rising */
            int r = ch.d == 2 ? shake_chain_rod_v(&ch, x, 2, tau - 2 * s, v, h)
                              : shake_chain_rod_v(&ch, x, ch.d, tau - 2 * s, v, h);
            if (r == ROD_CORRECTED)
                corrected[s % CHAIN_MAX]++;
            else if (r == ROD_DEGENERATE)
                degenerate[s % CHAIN_MAX] = 1;
        }
        if (tau + 1 >= m && (tau + 1 - m) % 2 == 0) { /* sweep (tau + 1 - m)/2 is whole */
            size_t s = (tau + 1 - m) / 2;
            if (degenerate[s % CHAIN_MAX])
                return -1;
            if (corrected[s % CHAIN_MAX] == 0)
                return (long)s + 1;
            if ((long)s + 1 == max_sweeps)
                return -1;
        }
    }
}

long vb_shake(const vb_constraints *c, double *x, const double *x_old, double tol,
              long max_sweeps, double *v, double h)
{
    /* the largest coordinate of any rod's end, once: the sweeps move the
     * beads by far less than the margin of the round-off floor */
    double far = 0.0;
    for (size_t k = 0; k < c->n; k++) {
        ends e = ends_of(c, &c->rod[k], x);
        for (unsigned a = 0; a < c->dim; a++)
            far = larger(far, larger(fabs(e.xi[a]), fabs(e.pj[a])));
    }
    if (c->n >= 1 && max_sweeps >= 1 && is_chain(c))
        return shake_chain(c, x, x_old, tol, ROUNDOFF_ULPS * DBL_EPSILON, far, max_sweeps, v, h);
    for (long s = 1; s <= max_sweeps; s++) {
        int degenerate = 0;
        long corrected = shake_sweep(c, x, x_old, tol, ROUNDOFF_ULPS * DBL_EPSILON, far, v, h,
                                     &degenerate);
        if (degenerate)
            return -1;
        if (corrected == 0)
            return s;
    }
    return -1;
}

void vb_shake_sweeps(const vb_constraints *c, double *x, const double *x_old, int sweeps)
{
    if (is_chain(c)) {
        /* Every sweep, where the loop below stops at one that corrects no
         * rod: it changed nothing, so every sweep after it sees the same
         * positions and corrects nothing either; the same bits */
        chain ch;
        chain_init(&ch, c, x_old, 0.0, 0.0, 0.0);
        chain_sweeps(&ch, x, sweeps, shake_chain_rod, NULL);
        return;
    }
    int degenerate = 0;
    for (int s = 0; s < sweeps; s++)
        if (shake_sweep(c, x, x_old, 0.0, 0.0, 0.0, NULL, 0.0, &degenerate) == 0)
            break; /* every rod exactly its length: more sweeps change nothing */
}

long vb_rattle_velocity(const vb_constraints *c, const double *x, double *v, double tol,
                        double scale, long max_sweeps)
{
    unsigned d = c->dim;
    /* the scale of the relative speeds the tolerance is measured against */
    double speed = scale;
    for (size_t k = 0; k < c->n; k++) {
        const vb_constraint *r = &c->rod[k];
        const double *vi = v + r->i * d, *vj = r->j == VB_PIVOT ? NULL : v + r->j * d;
        double s2 = 0.0;
        for (unsigned a = 0; a < d; a++) {
            double u = vi[a] - (vj ? vj[a] : 0.0);
            s2 += u * u;
        }
        speed = larger(speed, sqrt(s2));
    }
    if (!(speed > 0.0))
        return 0; /* nothing moves */
    /* tol of the relative speeds, or their round-off (a few ulps of the
     * fastest bead's speed) if that is larger */
    double fastest = 0.0;
    for (size_t i = 0; i < c->n; i++) {
        const vb_constraint *r = &c->rod[i];
        for (unsigned a = 0; a < d; a++) {
            fastest = larger(fastest, fabs(v[r->i * d + a]));
            if (r->j != VB_PIVOT)
                fastest = larger(fastest, fabs(v[r->j * d + a]));
        }
    }
    double bound = fmax(tol * speed, ROUNDOFF_ULPS * DBL_EPSILON * fastest);
    for (long s = 1; s <= max_sweeps; s++) {
        int done = 1;
        for (size_t k = 0; k < c->n; k++) {
            const vb_constraint *r = &c->rod[k];
            int pivot = r->j == VB_PIVOT;
            const double *xi = x + r->i * d, *xj = pivot ? r->pivot : x + r->j * d;
            double *vi = v + r->i * d, *vj = pivot ? NULL : v + r->j * d;
            double wi = c->inv_mass[r->i], wj = pivot ? 0.0 : c->inv_mass[r->j];
            double delta[3], len2 = 0.0, rv = 0.0;
            for (unsigned a = 0; a < d; a++) {
                delta[a] = xi[a] - xj[a];
                len2 += delta[a] * delta[a];
                rv += delta[a] * (vi[a] - (vj ? vj[a] : 0.0));
            }
            if (!(len2 > 0.0) || fabs(rv) <= bound * sqrt(len2))
                continue;
            done = 0;
            double kk = rv / (len2 * (wi + wj));
            for (unsigned a = 0; a < d; a++) {
                vi[a] -= kk * wi * delta[a];
                if (vj)
                    vj[a] += kk * wj * delta[a];
            }
        }
        if (done)
            return s;
    }
    return -1;
}

