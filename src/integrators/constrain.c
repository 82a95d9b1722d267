/* constrain.c — relaxation, SHAKE and RATTLE's velocity stage (constrain.h). */
#include "constrain.h"

#include <float.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* What "as close as the doubles allow" is: a length or speed computed from
 * coordinates of size X is uncertain by a few ulps of X (differences, a
 * sum of d squares); 8 is generous, and still 1e-14 of X. */
#define ROUNDOFF_ULPS 8.0

/* the larger of two finite numbers, inline (fmax is a libm call here, for
 * NaN rules a NaN state does not need: it fails the tests that follow) */
static inline double larger(double a, double b) { return a > b ? a : b; }

/* Scratch of `need` doubles: the caller's stack array of `cap` when it is
 * large enough (a step of a small system then calls no allocator), else
 * the heap; NULL when out of memory.  Given back by scratch_free. */
static double *scratch(double *stack, size_t cap, size_t need)
{
    return need <= cap ? stack : malloc(need * sizeof *stack);
}

static void scratch_free(double *stack, double *p)
{
    if (p != stack)
        free(p);
}

/* what a step's scratch holds on the stack: a chain of CHAIN_MAX rods' */
#define SCRATCH_DOUBLES 1024

/* the ends of rod r: particle i's coordinates, and j's or the pivot's;
 * their inverse masses (a pivot's 0) */
typedef struct {
    double *xi, *xj;
    const double *pj;
    double wi, wj;
} ends;

static ends ends_of(const vb_constraints *c, const vb_constraint *r, double *x)
{
    unsigned d = c->dim;
    int pivot = r->j == VB_PIVOT;
    return (ends){x + r->i * d, pivot ? NULL : x + r->j * d, pivot ? r->pivot : x + r->j * d,
                  c->inv_mass[r->i], pivot ? 0.0 : c->inv_mass[r->j]};
}

/* the gradient of rod k at x: delta = x_i - x_j (or x_i - pivot); its
 * entry for particle p is +delta at i, -delta at j */
static void rod_delta(const vb_constraints *c, size_t k, const double *x, double *delta)
{
    const vb_constraint *r = &c->rod[k];
    unsigned d = c->dim;
    const double *xj = r->j == VB_PIVOT ? r->pivot : x + r->j * d;
    for (unsigned a = 0; a < d; a++)
        delta[a] = x[r->i * d + a] - xj[a];
}

/* The rods of a chain hung from a pivot at most: rod k from bead k to
 * bead k - 1, rod 0 to the pivot (a linkage's, models/linkage.c). */
#define CHAIN_MAX 64

static int is_chain(const vb_constraints *c)
{
    if (c->n > CHAIN_MAX || c->dim < 1 || c->dim > 3)
        return 0;
    for (size_t k = 0; k < c->n; k++)
        if (c->rod[k].i != k || c->rod[k].j != (k ? k - 1 : VB_PIVOT))
            return 0;
    return 1;
}

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

/* The beads the rods reach: one past the highest index of a rod's end. */
static size_t beads_of(const vb_constraints *c)
{
    size_t n = 0;
    for (size_t k = 0; k < c->n; k++) {
        const vb_constraint *r = &c->rod[k];
        if (r->i + 1 > n)
            n = r->i + 1;
        if (r->j != VB_PIVOT && r->j + 1 > n)
            n = r->j + 1;
    }
    return n;
}

/* The half-bandwidth of the rods' coupling: the widest gap between two
 * rods of one bead (a chain's, 1); NULL work when out of memory. */
static int rod_bandwidth(const vb_constraints *c, size_t particles, size_t *b)
{
    if (is_chain(c)) { /* bead k in rods k and k + 1 only */
        *b = c->n > 1;
        return 0;
    }
    size_t *lo = malloc(2 * particles * sizeof *lo + 1), *hi = lo ? lo + particles : NULL;
    if (!lo)
        return -1;
    for (size_t p = 0; p < particles; p++) {
        lo[p] = (size_t)-1;
        hi[p] = 0;
    }
    for (size_t k = 0; k < c->n; k++) {
        size_t bead[2] = {c->rod[k].i, c->rod[k].j};
        for (int e = 0; e < 2; e++)
            if (bead[e] != VB_PIVOT) {
                if (k < lo[bead[e]])
                    lo[bead[e]] = k;
                if (k > hi[bead[e]])
                    hi[bead[e]] = k;
            }
    }
    *b = 0;
    for (size_t p = 0; p < particles; p++)
        if (lo[p] != (size_t)-1 && hi[p] - lo[p] > *b)
            *b = hi[p] - lo[p];
    free(lo);
    return 0;
}

/* How a correction along rod l moves rod k's separation: the shared
 * beads' inverse masses, + where the bead is the same end of both rods
 * (x_i - x_j moves with x_i, against x_j), - where it is opposite ends. */
static double coupling(const vb_constraints *c, const vb_constraint *r, const vb_constraint *q)
{
    double s = 0.0;
    if (q->i == r->i)
        s += c->inv_mass[r->i];
    if (q->j != VB_PIVOT && q->j == r->j)
        s += c->inv_mass[r->j];
    if (r->j != VB_PIVOT && q->i == r->j)
        s -= c->inv_mass[r->j];
    if (q->j != VB_PIVOT && q->j == r->i)
        s -= c->inv_mass[r->i];
    return s;
}

/* Newton's iterations before the system is taken for one it cannot solve
 * (it converges quadratically: a step within SHAKE's reach needs 2 to 4) */
#define NEWTON_MAX_ITERATIONS 50

/* One Newton solve of the rods' equations: J dl = sigma, J_kl = 2 s_kl
 * delta_k . old_l (a rod's correction along its old direction, as in the
 * sweeps), in GSL's band LU with partial pivoting (a chain's: tridiagonal,
 * GSL's tridiagonal solve), dl into sigma.  -1 when it is singular: a
 * pivot of U lost to cancellation, or not finite. */
static int newton_solve(const vb_constraints *c, size_t b, const double *dl, const double *ol,
                        double *sigma, double *work, unsigned *piv)
{
    size_t m = c->n;
    if (b == 0) { /* rods that share no bead: each alone */
        for (size_t k = 0; k < m; k++) {
            double jkk = 2.0 * coupling(c, &c->rod[k], &c->rod[k]), dot = 0.0;
            for (unsigned a = 0; a < c->dim; a++)
                dot += dl[3 * k + a] * ol[3 * k + a];
            if (!(fabs(jkk * dot) > 0.0))
                return -1;
            sigma[k] /= jkk * dot;
        }
        return 0;
    }
    size_t width = 3 * b + 1, ub = b + b; /* GSL's band form: A(i,j) at AB(j, ub + i - j) */
    double *ab = work, *rhs = ab + m * width;
    for (size_t i = 0; i < m * width; i++)
        ab[i] = 0.0;
    double largest = 0.0;
    for (size_t k = 0; k < m; k++) {
        size_t l0 = k > b ? k - b : 0, l1 = k + b < m ? k + b : m - 1;
        for (size_t l = l0; l <= l1; l++) {
            double s = coupling(c, &c->rod[k], &c->rod[l]);
            if (s == 0.0)
                continue;
            double dot = 0.0;
            for (unsigned a = 0; a < c->dim; a++)
                dot += dl[3 * k + a] * ol[3 * l + a];
            ab[l * width + ub + k - l] = 2.0 * s * dot;
        }
        largest = larger(largest, fabs(ab[k * width + ub]));
        rhs[k] = sigma[k];
    }
    gsl_matrix_view AB = gsl_matrix_view_array(ab, m, width);
    gsl_vector_view s = gsl_vector_view_array(sigma, m), r = gsl_vector_view_array(rhs, m);
    gsl_vector_uint_view pv = gsl_vector_uint_view_array(piv, m);
    if (gsl_linalg_LU_band_decomp(m, b, b, &AB.matrix, &pv.vector) != 0)
        return -1;
    int ok = 1;
    for (size_t k = 0; k < m && ok; k++) {
        double u = ab[k * width + ub];
        ok = isfinite(u) && fabs(u) > 64.0 * DBL_EPSILON * largest;
    }
    ok = ok && gsl_linalg_LU_band_solve(b, b, &AB.matrix, &pv.vector, &r.vector, &s.vector) == 0;
    return ok ? 0 : -1;
}

long vb_shake_newton(const vb_constraints *c, double *x, const double *x_old, double tol,
                     double *v, double h)
{
    size_t m = c->n;
    unsigned d = c->dim;
    size_t beads = beads_of(c), b = 0;
    if (m == 0)
        return 0;
    if (rod_bandwidth(c, beads, &b) != 0)
        return -1;
    size_t width = 3 * b + 1, n = beads * d;
    /* the rods' separations now and before the step (3 a rod), sigma,
     * the band and its right-hand side, and x~ and v~ kept for the
     * fallback */
    double stack[SCRATCH_DOUBLES];
    unsigned stack_piv[CHAIN_MAX];
    double *dl = scratch(stack, SCRATCH_DOUBLES, 6 * m + m + m * width + m + 2 * n);
    unsigned *piv = m <= CHAIN_MAX ? stack_piv : malloc(m * sizeof *piv);
    if (!dl || !piv) {
        scratch_free(stack, dl);
        if (piv != stack_piv)
            free(piv);
        return -1;
    }
    double *ol = dl + 3 * m, *sigma = ol + 3 * m, *work = sigma + m, *x0 = work + m * width + m,
           *v0 = x0 + n;
    memcpy(x0, x, n * sizeof *x);
    if (v)
        memcpy(v0, v, n * sizeof *v);
    double far = 0.0, ulp = ROUNDOFF_ULPS * DBL_EPSILON;
    for (size_t k = 0; k < m; k++) {
        ends e = ends_of(c, &c->rod[k], x);
        for (unsigned a = 0; a < d; a++)
            far = larger(far, larger(fabs(e.xi[a]), fabs(e.pj[a])));
        rod_delta(c, k, x_old, ol + 3 * k);
    }
    long result = -1;
    for (long it = 1; it <= NEWTON_MAX_ITERATIONS; it++) {
        /* sigma_k = |x_i - x_j|^2 - L^2, and the test of the sweeps */
        int done = 1;
        for (size_t k = 0; k < m; k++) {
            const vb_constraint *r = &c->rod[k];
            double len2 = 0.0, L2 = r->length * r->length;
            rod_delta(c, k, x, dl + 3 * k);
            for (unsigned a = 0; a < d; a++)
                len2 += dl[3 * k + a] * dl[3 * k + a];
            sigma[k] = len2 - L2;
            if (!(fabs(sigma[k]) <= 2.0 * tol * L2 ||
                  fabs(sigma[k]) <= ulp * r->length * (far + r->length)))
                done = 0;
        }
        if (done) {
            result = it;
            break;
        }
        if (newton_solve(c, b, dl, ol, sigma, work, piv) != 0)
            break;
        /* x -= M^-1 G(x_old)^T dl, and the same / h to v */
        for (size_t k = 0; k < m; k++) {
            const vb_constraint *r = &c->rod[k];
            double gi = sigma[k] * c->inv_mass[r->i],
                   gj = r->j == VB_PIVOT ? 0.0 : sigma[k] * c->inv_mass[r->j];
            for (unsigned a = 0; a < d; a++) {
                x[r->i * d + a] -= gi * ol[3 * k + a];
                if (r->j != VB_PIVOT)
                    x[r->j * d + a] += gj * ol[3 * k + a];
                if (v) {
                    v[r->i * d + a] -= gi * ol[3 * k + a] / h;
                    if (r->j != VB_PIVOT)
                        v[r->j * d + a] += gj * ol[3 * k + a] / h;
                }
            }
        }
    }
    if (result < 0) {
        /* a singular system (redundant rods), or one Newton could not
         * solve: SHAKE's sweeps from x~, which need no factor */
        memcpy(x, x0, n * sizeof *x);
        if (v)
            memcpy(v, v0, n * sizeof *v);
        result = vb_shake(c, x, x_old, tol, VB_CONSTRAIN_MAX_SWEEPS, v, h);
    }
    scratch_free(stack, dl);
    if (piv != stack_piv)
        free(piv);
    return result;
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

int vb_project_velocity(const vb_constraints *c, size_t particles, const double *x, double *v)
{
    size_t m = c->n;
    unsigned d = c->dim;
    /* the half-bandwidth: the widest gap between two rods of one bead */
    size_t b = 0;
    if (rod_bandwidth(c, particles, &b) != 0)
        goto fail;
    /* A in band form: A[k][l], l in k-b .. k, at band[k (b+1) + l - k + b] */
    size_t w = b + 1;
    double stack[SCRATCH_DOUBLES];
    size_t need = m * w + m + (size_t)m * 3;
    double *band = scratch(stack, SCRATCH_DOUBLES, need);
    if (!band)
        goto fail;
    memset(band, 0, need * sizeof *band);
    double *mu = band + m * w, *dl = mu + m; /* the rods' deltas, 3 a rod */
    for (size_t k = 0; k < m; k++)
        rod_delta(c, k, x, dl + 3 * k);
#define A(k, l) band[(k) * w + (l) + b - (k)]
    for (size_t k = 0; k < m; k++) {
        const vb_constraint *r = &c->rod[k];
        const double *dk = dl + 3 * k;
        const double *vj = r->j == VB_PIVOT ? NULL : v + r->j * d;
        double wi = c->inv_mass[r->i], wj = r->j == VB_PIVOT ? 0.0 : c->inv_mass[r->j];
        double gv = 0.0, dd = 0.0;
        for (unsigned a = 0; a < d; a++) {
            gv += dk[a] * (v[r->i * d + a] - (vj ? vj[a] : 0.0));
            dd += dk[a] * dk[a];
        }
        mu[k] = gv;
        A(k, k) = dd * (wi + wj);
        /* the rods before k in the band that share a bead with it */
        for (size_t l = k > b ? k - b : 0; l < k; l++) {
            const vb_constraint *q = &c->rod[l];
            const double *dq = dl + 3 * l;
            double dot = 0.0;
            for (unsigned a = 0; a < d; a++)
                dot += dk[a] * dq[a];
            A(k, l) = coupling(c, r, q) * dot;
        }
    }
    /* banded Cholesky A = L L^T in place, then L y = G v, L^T mu = y */
    int ok = 1;
    for (size_t j = 0; j < m && ok; j++) {
        size_t j0 = j > b ? j - b : 0;
        double s = A(j, j), diag = s;
        for (size_t p = j0; p < j; p++)
            s -= A(j, p) * A(j, p);
        /* a pivot lost to cancellation is a singular system that round-off
         * disguised: its factor would be noise, so it is refused like one */
        ok = s > 64.0 * DBL_EPSILON * diag && isfinite(s);
        double dj = sqrt(s);
        A(j, j) = dj;
        for (size_t i = j + 1; ok && i < m && i <= j + b; i++) {
            size_t i0 = i > b ? i - b : 0;
            double t = A(i, j);
            for (size_t p = (i0 > j0 ? i0 : j0); p < j; p++)
                t -= A(i, p) * A(j, p);
            A(i, j) = t / dj;
        }
    }
    if (ok) {
        for (size_t i = 0; i < m; i++) {
            size_t i0 = i > b ? i - b : 0;
            double s = mu[i];
            for (size_t p = i0; p < i; p++)
                s -= A(i, p) * mu[p];
            mu[i] = s / A(i, i);
        }
        for (size_t i = m; i-- > 0;) {
            double s = mu[i];
            for (size_t p = i + 1; p < m && p <= i + b; p++)
                s -= A(p, i) * mu[p];
            mu[i] = s / A(i, i);
        }
        /* v -= M^-1 G^T mu */
        for (size_t k = 0; k < m; k++) {
            const vb_constraint *r = &c->rod[k];
            const double *dk = dl + 3 * k;
            double wi = c->inv_mass[r->i];
            for (unsigned a = 0; a < d; a++) {
                v[r->i * d + a] -= wi * dk[a] * mu[k];
                if (r->j != VB_PIVOT)
                    v[r->j * d + a] += c->inv_mass[r->j] * dk[a] * mu[k];
            }
        }
    }
#undef A
    scratch_free(stack, band);
    /* A singular (redundant rods: a closed loop of them, say, whose
     * constraints are dependent) has no Cholesky factor, but G v = 0 is
     * still consistent: RATTLE's sweeps, which are Gauss-Seidel on the same
     * system, reach it, to a tolerance near round-off.  v is untouched
     * when the factorisation failed. */
    if (ok || vb_rattle_velocity(c, x, v, 1e-14, 0.0, VB_CONSTRAIN_MAX_SWEEPS) >= 0)
        return 0;
fail:
    for (size_t i = 0; i < particles * d; i++)
        v[i] = NAN;
    return -1;
}
