/* free_body_solution.c — Euler's equations I w' = (I w) x w without torque,
 * solved exactly (docs/rigid.md §2 derives every line).
 *
 * The canonical frame.  Relabel the body axes by a proper rotation so that
 * axis 2 has the intermediate moment and axis 3 is the one L circles (the
 * largest moment when D = L^2 - 2 T I2 > 0, the smallest when D < 0).
 * With sigma = sign(I3 - I2), the quantities
 *     P = 2 T I3 - L^2 = I1 (I3 - I1) w1^2 + I2 (I3 - I2) w2^2
 *     Q = L^2 - 2 T I1 = I2 (I2 - I1) w2^2 + I3 (I3 - I1) w3^2
 *     D = L^2 - 2 T I2 = I1 (I1 - I2) w1^2 + I3 (I3 - I2) w3^2
 * all have the sign sigma.  P and Q are sums of two terms of one sign;
 * D's two terms have opposite signs and cancel near the separatrix, so D
 * is summed exactly from the given doubles (exact_sum) and is right to its
 * last bit however small.  Then
 *     w1 = eps1 a1 cn u,  w2 = eps2 a2 sn u,  w3 = eps3 a3 dn u,
 *     a1^2 = P / (I1 (I3 - I1)),  a2^2 = P / (I2 (I3 - I2)),
 *     a3^2 = Q / (I3 (I3 - I1)),  lambda^2 = (I3 - I2) Q / (I1 I2 I3),
 *     m = (I2 - I1) P / ((I3 - I2) Q),  1 - m = (I3 - I1) D / ((I3 - I2) Q),
 * u = lambda t + u0, and Euler's equations ask eps1 = sigma eps2 eps3
 * (Landau & Lifshitz §37 for I1 < I2 < I3, where sigma = 1).  k' =
 * sqrt(1 - m) comes from D to full relative precision, as a fraction and
 * a power of 2 (it may be below the doubles' range).
 *
 * Near the separatrix.  As k' -> 0 the period 4K grows as 4 ln(4/k'), and
 * cn u and dn u are pulses of height 1 spaced 2K apart, tiny between them:
 * cn ~ sech u and dn ~ k' near u = K.  There the precession angle's
 * integrals, functions of cn^2 and dn^2 through Carlson's R_J, need cn and
 * dn to full RELATIVE precision; the arithmetic-geometric mean gives cn as
 * cos(am u), to 1e-16 absolute, and the attitude was 5e-7 rad off at
 * w = (1e-10, 1, 1e-10), 0.05 at (0, 1, 1e-15).  So every function and
 * integral is evaluated at |x| <= K/2 only, where its arguments are
 * >= sqrt(k'), and the half period beyond by the quarter-period shift
 * (DLMF Table 22.4.3), exactly:
 *     sn(K - v) = cd v,   cn(K - v) = k' sd v,   dn(K - v) = k' nd v,
 *     F(K - v) = F(K) - Ft(v),  Ft(v) = int_0^v f(cd^2) (reflected_integral).
 * On [0, K/2], sn = sin(am x) is the AGM's to full relative precision;
 * cn and dn are, for m >= 1/2, the sums of their pulses (Jacobi's
 * imaginary transformation of their Fourier series, summed by Poisson's
 * formula; DLMF §22.12 in hyperbolic form):
 *     dn x = c sum_n sech(c (x - 2nK)),  k cn x = c sum_n (-1)^n sech(c (x - 2nK)),
 * c = pi / (2K(1 - m)), whose terms are positive (dn) or fall by
 * e^(-cK) <= e^(-pi/2) from the first (cn at |x| <= K/2); for
 * k' < 2^-60, the limit m = 1 (sn = tanh, cn = dn = sech, and the
 * integrals' closed forms) is exact to a relative k'/4 on [0, K/2], and
 * K = ln(4/k') to round-off.  Nothing is then lost however close to the
 * separatrix: the separatrix itself is D = 0 exactly.
 *
 * The attitude.  With Euler angles (phi, theta, psi) about z, x, z of the
 * invariable frame (z along L), L's body components are
 * L (sin theta sin psi, sin theta cos psi, cos theta), so theta and psi
 * follow from w(t), and
 *     phi' = L (I1 w1^2 + I2 w2^2) / (I1^2 w1^2 + I2^2 w2^2)
 *          = L / I3 + L (I3 - I1) / (I1 I3) / (1 + nu sn^2 u)          (a)
 *          = L / I1 + L (I3 - I1) (I1 - I2) / (I1^2 (I3 - I2)) sn^2 u / (1 + nu sn^2 u),  (b)
 *     nu = I3 (I2 - I1) / (I1 (I3 - I2)) >= 0.
 * phi' lies between L/I1 and L/I2.  When L circles the largest moment
 * (D >= 0) both terms of (a) are positive; when it circles the smallest,
 * I3 - I1 < 0 and (a)'s terms cancel by up to I1/I3 (1e8 for a needle,
 * I3 = 1e-8 I1), while both of (b)'s are positive.  So phi is integrated
 * from (a) on the first branch and from (b) on the second:
 *     phi = phi_rate t + phi_coef (F(u) - F(u0)),
 * F = G = int_0^u du / (1 + nu sn^2) or H = int_0^u sn^2 du / (1 + nu sn^2)
 * = (u - G)/nu.  For |x| <= K/2, by Carlson's forms (DLMF 19.25.14),
 *     H(x) = (1/3) sn^3 R_J(cn^2, dn^2, 1, 1 + nu sn^2),   G(x) = x - nu H(x),
 * and G's two terms cancel once nu > 1 (G << x: a needle circling its
 * largest moment has nu ~ 1e16); there G comes from the integral of
 * parameter m/nu it pairs with (DLMF 19.7.9), two positive terms:
 *     G(x) = sn R_C(cn^2 dn^2, (1 + nu sn^2)(1 + (m/nu) sn^2)) + m/nu H_{m/nu}(x).
 * F(r + 2K j) = F(r) + 2 j F(K): the amplitude is unwrapped over any
 * number of periods by the whole number j, never by an arcsine.
 *
 * Only the ratios of the moments matter to w(t) and phi, and w only sets
 * the time scale: the moments are scaled by the power of 2 that brings the
 * largest to [1, 2), w likewise and time by its inverse, exactly, so that
 * no product overflows or underflows for any moments and w a double
 * holds. */
#include "free_body_solution.h"
#include "elliptic.h"
#include "quaternion.h"

#include <float.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_ellint.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* How sn, cn, dn and the integrals are evaluated on [0, K/2] (the header) */
enum {
    FUNCTIONS_AGM,    /* m < 1/2: the AGM's cos(am x) has cn >= 0.64 there */
    FUNCTIONS_PULSES, /* 1/2 <= m, k' >= 2^-60: cn and dn as sums of pulses */
    FUNCTIONS_LIMIT   /* k' < 2^-60 or the separatrix: m = 1 and its closed forms */
};
/* below it m = 1 is exact on [0, K/2] to a relative k'/4 < eps/1000 */
#define KC_LIMIT 0x1p-60
/* enough pulses for m = 1/2, the fewest there are: each pair 1/e^pi of the last */
#define PULSES_MAX 24

/* ---- D, exactly ---- */

/* s + e = a + b exactly (Knuth's two-sum) */
static void two_sum(double a, double b, double *s, double *e)
{
    double x = a + b, bv = x - a;
    *s = x;
    *e = (a - (x - bv)) + (b - bv);
}

/* a (a - mid) w^2 = 2^*E sum p[0..16), exactly: each factor scaled into
 * [1, 2) by its power of 2, so that no part of the products underflows,
 * and every product split into its rounded value and its error (fma) */
static void term_parts(double a, double mid, double w, double p[16], int *E)
{
    double d, dl;
    two_sum(a, -mid, &d, &dl);
    if (w == 0.0 || d == 0.0) {
        memset(p, 0, 16 * sizeof *p);
        *E = INT_MIN;
        return;
    }
    int ea = ilogb(a), ed = ilogb(d), ew = ilogb(w);
    *E = ea + ed + 2 * ew;
    p[0] = ldexp(d, -ed);
    p[1] = ldexp(dl, -ed);
    const double f[3] = {ldexp(a, -ea), ldexp(w, -ew), ldexp(w, -ew)};
    int n = 2;
    for (int k = 0; k < 3; k++, n *= 2)
        for (int i = n - 1; i >= 0; i--) {
            double x = p[i] * f[k];
            p[2 * i + 1] = fma(p[i], f[k], -x);
            p[2 * i] = x;
        }
}

/* The sum of x[0..n), n <= 32, to full relative precision however its
 * terms cancel: Shewchuk's growing expansion (Discrete Comput. Geom. 18,
 * 305, 1997) holds it exactly as nonoverlapping parts, which are then
 * added from the smallest */
static double exact_sum(const double *x, int n)
{
    double h[32];
    int m = 0;
    for (int i = 0; i < n; i++) {
        double q = x[i];
        int kept = 0;
        for (int j = 0; j < m; j++) {
            double e;
            two_sum(q, h[j], &q, &e);
            if (e != 0.0)
                h[kept++] = e;
        }
        if (q != 0.0)
            h[kept++] = q;
        m = kept;
    }
    double s = 0.0;
    for (int j = 0; j < m; j++)
        s += h[j];
    return s;
}

/* D = I_lo (I_lo - I_mid) w_lo^2 + I_hi (I_hi - I_mid) w_hi^2 = 2^*E
 * (return value), to its last bit */
static double separatrix_distance(const double I[3], const double w[3], int lo, int mid, int hi,
                                  int *E)
{
    double p[32];
    int e[2];
    term_parts(I[lo], I[mid], w[lo], p, &e[0]);
    term_parts(I[hi], I[mid], w[hi], p + 16, &e[1]);
    *E = e[0] > e[1] ? e[0] : e[1];
    if (*E == INT_MIN) {
        *E = 0;
        return 0.0;
    }
    /* the smaller term to the larger's power of 2: exact, or parts below
     * 2^-1000 of the larger term lost, where nothing cancels them */
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < 16; i++)
            p[16 * t + i] = e[t] == INT_MIN ? 0.0 : ldexp(p[16 * t + i], e[t] - *E);
    return exact_sum(p, 32);
}

/* ---- the canonical frame ---- */

/* its axes 1, 2, 3 are the body axes other, mid and circled (0-based),
 * with signs that make the relabelling a rotation; its moments (scaled)
 * and its quaternion qS (canonical from body) */
static void canonical_frame(vb_free_body_solution *s, int circled, int mid, int other)
{
    s->perm[0] = other;
    s->perm[1] = mid;
    s->perm[2] = circled;
    /* the parity of (other, mid, circled): an odd one is made proper by
     * reversing canonical axis 2 */
    int inversions = (other > mid) + (other > circled) + (mid > circled);
    s->sgn[0] = 1.0;
    s->sgn[1] = (inversions % 2) ? -1.0 : 1.0;
    s->sgn[2] = 1.0;
    double S[9] = {0};
    for (int k = 0; k < 3; k++) {
        S[3 * k + s->perm[k]] = s->sgn[k];
        s->Ic[k] = ldexp(s->I[s->perm[k]], -s->Iexp);
    }
    vb_quat_from_matrix(S, s->qS);
}

static int sign_of(double x) { return x < 0.0 ? -1 : 1; }

/* ---- sn, cn, dn on [0, K/2], each to full relative precision ---- */

/* cn and dn of x as sums of pulses (the header) */
static void pulse_cn_dn(const vb_free_body_solution *s, double x, double *cn, double *dn)
{
    double c = s->pulse, a = c * fabs(x), b = 2.0 * c * s->K;
    double sum_dn = 1.0 / cosh(a), sum_cn = sum_dn;
    for (int n = 1; n <= PULSES_MAX; n++) {
        double pair = 1.0 / cosh(n * b - a) + 1.0 / cosh(n * b + a);
        sum_dn += pair;
        sum_cn += (n % 2) ? -pair : pair;
        if (pair <= 0x1p-60 * sum_dn)
            break;
    }
    *dn = c * sum_dn;
    *cn = c * sum_cn / s->k;
}

static int near_functions(const vb_free_body_solution *s, double x, double *sn, double *cn,
                          double *dn)
{
    if (s->functions == FUNCTIONS_LIMIT) {
        *sn = tanh(x);
        *cn = *dn = 1.0 / cosh(x);
        return 0;
    }
    if (vb_jacobi(x, s->k, s->kc, sn, cn, dn) != 0)
        return -1;
    if (s->functions == FUNCTIONS_PULSES)
        pulse_cn_dn(s, x, cn, dn);
    return 0;
}

/* ---- the integrals of the precession angle on [0, K/2] ---- */

/* (1/3) sn^3 R_J(cn^2, dn^2, 1, p): int_0^x sn^2 du / (1 + n sn^2) for
 * p = 1 + n sn^2 */
static int carlson_J(double sn, double cn, double dn, double p, double *J)
{
    if (sn == 0.0) {
        *J = 0.0;
        return 0;
    }
    gsl_sf_result rj;
    if (gsl_sf_ellint_RJ_e(cn * cn, dn * dn, 1.0, p, GSL_PREC_DOUBLE, &rj) != GSL_SUCCESS)
        return -1;
    *J = sn * sn * sn * rj.val / 3.0;
    return 0;
}

/* F(x) (the header's G or H) for |x| <= K/2, from x and sn, cn, dn of x */
static int near_integral(const vb_free_body_solution *s, double x, double sn, double cn,
                         double dn, double *F)
{
    double nu = s->nu, H;
    if (s->functions == FUNCTIONS_LIMIT) {
        /* m = 1: partial fractions in tanh x, the two terms of G of one sign */
        double rn = sqrt(nu), at = atan(rn * sn);
        *F = s->phi_h ? (x - at / rn) / (1.0 + nu) : (x + rn * at) / (1.0 + nu);
        return 0;
    }
    if (s->phi_h)
        return carlson_J(sn, cn, dn, 1.0 + nu * sn * sn, F);
    if (nu <= 1.0) { /* G = x - nu H >= x/2 */
        if (carlson_J(sn, cn, dn, 1.0 + nu * sn * sn, &H) != 0)
            return -1;
        *F = x - nu * H;
        return 0;
    }
    /* nu > 1: G paired with the integral of parameter m/nu < 1 */
    double nm = s->m / nu, s2 = sn * sn;
    gsl_sf_result rc;
    if (gsl_sf_ellint_RC_e(cn * cn * dn * dn, (1.0 + nu * s2) * (1.0 + nm * s2), GSL_PREC_DOUBLE,
                           &rc) != GSL_SUCCESS ||
        carlson_J(sn, cn, dn, 1.0 + nm * s2, &H) != 0)
        return -1;
    *F = sn * rc.val + nm * H;
    return 0;
}

/* Ft(v) = F(K) - F(K - v) = int_0^v f(cd^2 u) du for |v| <= K/2, from v and
 * sn, cn, dn of v.  1 + nu cd^2 = (1 + nu)(1 - n' sn^2)/dn^2 with
 * n' = (m + nu)/(1 + nu) and 1 - n' sn^2 = (dn^2 + nu cn^2)/(1 + nu), so
 * with J = int_0^v sn^2 du / (1 - n' sn^2) (carlson_J) and m' = 1 - m,
 *     G~ = (v + nu m' J / (1 + nu)) / (1 + nu),
 *     H~ = (v - m' J / (1 + nu)) / (1 + nu) >= v / (2 (1 + nu)),
 * the first a sum, the second a difference that loses at most a bit
 * (its integrand cd^2 / (1 + nu cd^2) falls by at most half on
 * [0, K/2]).  At m = 1, cd = 1: both are v / (1 + nu). */
static int reflected_integral(const vb_free_body_solution *s, double v, double sn, double cn,
                              double dn, double *F)
{
    double nu = s->nu, J;
    if (s->functions == FUNCTIONS_LIMIT) {
        *F = v / (1.0 + nu);
        return 0;
    }
    if (carlson_J(sn, cn, dn, (dn * dn + nu * cn * cn) / (1.0 + nu), &J) != 0)
        return -1;
    double c = s->mc * J / (1.0 + nu);
    *F = (s->phi_h ? v - c : v + nu * c) / (1.0 + nu);
    return 0;
}

/* ---- the phase ---- */

/* sn, cn, dn of u and the unwrapped pieces: u = r + 2 K j, |r| <= K (to
 * round-off), sr etc. the functions of r, and F(u) */
typedef struct {
    double sn, cn, dn;
    double sr, cr;
    double j;
    double F;
} phase;

/* sn, cn, dn and F of x in [0, K] (to round-off): at x itself up to K/2,
 * beyond it by the quarter-period shift from v = K - x (the header) */
static int half_period(const vb_free_body_solution *s, double x, double *sn, double *cn,
                       double *dn, double *F)
{
    if (x <= 0.5 * s->K)
        return near_functions(s, x, sn, cn, dn) != 0 || near_integral(s, x, *sn, *cn, *dn, F);
    double v = s->K - x, sv, cv, dv, Fv;
    if (near_functions(s, v, &sv, &cv, &dv) != 0 || reflected_integral(s, v, sv, cv, dv, &Fv))
        return -1;
    *sn = cv / dv;
    *cn = ldexp(s->kc_frac * sv / dv, s->kc_exp);
    *dn = ldexp(s->kc_frac / dv, s->kc_exp);
    *F = s->FK - Fv;
    return 0;
}

static int eval_phase(const vb_free_body_solution *s, double u, phase *ph)
{
    double j = 0.0, r = u;
    if (isfinite(s->K)) { /* the separatrix never wraps */
        double twoK = 2.0 * s->K;
        j = nearbyint(u / twoK);
        r = fma(-j, twoK, u); /* u - 2K j with one rounding */
    }
    double sign = r < 0.0 ? -1.0 : 1.0, sx, cx, dx, Fx;
    if (half_period(s, fabs(r), &sx, &cx, &dx, &Fx) != 0)
        return -1;
    double flip = fmod(j, 2.0) != 0.0 ? -1.0 : 1.0; /* sn, cn change sign every 2K */
    ph->sr = sign * sx;
    ph->cr = cx;
    ph->sn = flip * ph->sr;
    ph->cn = flip * cx;
    ph->dn = dx;
    ph->j = j;
    ph->F = (j != 0.0 ? 2.0 * j * s->FK : 0.0) + sign * Fx;
    return 0;
}

/* psi = atan2(L_c1, L_c2) = atan2(alpha cos a, beta sin a), a = am(u) =
 * pi j + am(r), lifted so that it is continuous in u: over each half
 * period it moves by -pi sign(alpha beta) */
static double psi_of(const vb_free_body_solution *s, const phase *ph)
{
    double cr = ph->cr > 0.0 ? ph->cr : 0.0; /* |r| <= K, to round-off */
    double f = atan2(s->alpha * cr, s->beta * ph->sr);
    double step = (s->alpha * s->beta > 0.0) ? -M_PI : M_PI;
    return f + ph->j * step;
}

/* The canonical angular velocity (scaled) and the Euler angles theta, psi
 * at phase ph */
static void body_angles(const vb_free_body_solution *s, const phase *ph, double wc[3],
                        double *theta, double *psi)
{
    wc[0] = s->eps[0] * s->amp[0] * ph->cn;
    wc[1] = s->eps[1] * s->amp[1] * ph->sn;
    wc[2] = s->eps[2] * s->amp[2] * ph->dn;
    double L1 = s->Ic[0] * wc[0], L2 = s->Ic[1] * wc[1], L3 = s->Ic[2] * wc[2];
    *theta = atan2(hypot(L1, L2), L3);
    *psi = psi_of(s, ph);
}

/* q_c = qz(phi) qx(theta) qz(psi): the invariable frame from canonical */
static void euler_zxz(double phi, double theta, double psi, double out[4])
{
    double a[4], b[4], c[4];
    vb_quat_axis(2, phi, a);
    vb_quat_axis(0, theta, b);
    vb_quat_axis(2, psi, c);
    vb_quat_mul(a, b, a);
    vb_quat_mul(a, c, out);
}

/* ---- init ---- */

/* phi = phi_rate t + phi_coef (F(u) - F(u0)), each term >= 0: (a) with
 * F = G when L circles the largest moment, (b) with F = H when it circles
 * the smallest (the header).  The separatrix (D = 0) takes (a).  Lc is
 * |L| in the scaled units. */
static void set_precession(vb_free_body_solution *s, double Lc, int use_h)
{
    double I1 = s->Ic[0], I2 = s->Ic[1], I3 = s->Ic[2];
    s->phi_h = use_h;
    if (use_h) {
        s->phi_rate = Lc / I1;
        s->phi_coef = Lc * (I3 - I1) * (I1 - I2) / (I1 * I1 * (I3 - I2) * s->lambda_c);
    } else {
        s->phi_rate = Lc / I3;
        s->phi_coef = Lc * (I3 - I1) / (I1 * I3 * s->lambda_c);
    }
}

/* k' = kc_frac 2^kc_exp from D = Dm 2^E, the branch of the functions, K and
 * the pulses' scale.  -1 if k' is not a finite positive number (a guard) */
static int set_modulus(vb_free_body_solution *s, double Q, double Dm, int E)
{
    const double *Ic = s->Ic;
    if (Dm == 0.0) { /* the separatrix */
        s->kind = VB_FREE_BODY_SEPARATRIX;
        s->functions = FUNCTIONS_LIMIT;
        s->m = s->k = 1.0;
        s->K = INFINITY;
        return 0;
    }
    s->kind = VB_FREE_BODY_ELLIPTIC;
    double X = (Ic[2] - Ic[0]) / (Ic[2] - Ic[1]) * (Dm / Q); /* 1 - m = X 2^E */
    if (E % 2 != 0) {
        X *= 2.0;
        E -= 1;
    }
    int ex = ilogb(X) & ~1; /* even, so that sqrt halves it exactly */
    s->kc_frac = sqrt(ldexp(X, -ex));
    s->kc_exp = (E + ex) / 2;
    if (!(isfinite(s->kc_frac) && s->kc_frac > 0.0))
        return -1;
    s->kc = ldexp(s->kc_frac, s->kc_exp);
    s->mc = s->kc * s->kc;
    s->k = sqrt(s->m);
    if (s->kc < KC_LIMIT) {
        s->functions = FUNCTIONS_LIMIT;
        /* K = ln(4/k') (1 + O(k'^2)) */
        s->K = 2.0 * M_LN2 - (log(s->kc_frac) + s->kc_exp * M_LN2);
        return 0;
    }
    s->functions = s->mc >= 0.5 ? FUNCTIONS_AGM : FUNCTIONS_PULSES;
    s->K = vb_ellint_K(s->kc);
    s->pulse = M_PI / (2.0 * vb_ellint_K(s->k)); /* K(1 - m): k is its k' */
    return 0;
}

/* u0 in [-K, K] from sn, cn and dn of it, each from w (cn >= 0):
 * |u0| = s R_F(c^2, d^2, 1) up to K/2 (s d <= c, sn <= cd), else K - v0
 * with sn v0 = c/d, cn v0 = k' s/d, dn v0 = k'/d (the quarter-period
 * shift): v0 = c R_F(k'^2 s^2, k'^2, d^2); at m = 1 these are asinh(s/c)
 * and asinh(c/(k' s)) */
static int initial_phase(vb_free_body_solution *s, double s0, double c0, double d0)
{
    double as = fabs(s0), x = 0.0;
    int near = as * d0 <= c0 || !isfinite(s->K);
    gsl_sf_result rf = {0.0, 0.0};
    if (as == 0.0)
        x = 0.0;
    else if (s->functions == FUNCTIONS_LIMIT)
        x = near ? asinh(as / c0)
                 : s->K - asinh(ldexp(c0 / (s->kc_frac * as), -s->kc_exp));
    else if (near) {
        if (gsl_sf_ellint_RF_e(c0 * c0, d0 * d0, 1.0, GSL_PREC_DOUBLE, &rf) != GSL_SUCCESS)
            return -1;
        x = as * rf.val;
    } else {
        if (c0 > 0.0 && gsl_sf_ellint_RF_e(s->mc * as * as, s->mc, d0 * d0, GSL_PREC_DOUBLE,
                                           &rf) != GSL_SUCCESS)
            return -1;
        x = s->K - c0 * rf.val;
    }
    s->u0 = s0 < 0.0 ? -x : x;
    return 0;
}

/* w constant: q(t) = q0 exp(t w) needs nothing more */
static int init_steady(vb_free_body_solution *s)
{
    s->kind = VB_FREE_BODY_STEADY;
    return 0;
}

/* every nonzero component of w on axes of one moment */
static int steady_spin(const double I[3], const double w0[3])
{
    double moment = NAN;
    for (int i = 0; i < 3; i++) {
        if (w0[i] == 0.0)
            continue;
        if (isnan(moment))
            moment = I[i];
        else if (I[i] != moment)
            return 0;
    }
    return 1;
}

/* lo <= mid <= hi by moment (stable: ties keep their order) */
static void sort_axes(const double I[3], int idx[3])
{
    for (int a = 0; a < 3; a++)
        idx[a] = a;
    for (int a = 0; a < 3; a++)
        for (int b = a + 1; b < 3; b++)
            if (I[idx[b]] < I[idx[a]]) {
                int t = idx[a];
                idx[a] = idx[b];
                idx[b] = t;
            }
}

/* The elliptic branches and the separatrix: the frame, the amplitudes,
 * the modulus, the precession and the phase at t = 0.  1 for a steady
 * spin after all, 0, or -1 */
static int init_motion(vb_free_body_solution *s, const double ws[3])
{
    int idx[3], E;
    sort_axes(s->I, idx);
    double Is[3];
    for (int k = 0; k < 3; k++)
        Is[k] = ldexp(s->I[k], -s->Iexp);
    double Dm = separatrix_distance(Is, ws, idx[0], idx[1], idx[2], &E);
    s->D = ldexp(Dm, E + 2 * s->Iexp + 2 * s->wexp);
    if (Dm >= 0.0)
        canonical_frame(s, idx[2], idx[1], idx[0]);
    else
        canonical_frame(s, idx[0], idx[1], idx[2]);

    const double *Ic = s->Ic;
    double wc[3];
    for (int k = 0; k < 3; k++)
        wc[k] = s->sgn[k] * ws[s->perm[k]];
    double I1 = Ic[0], I2 = Ic[1], I3 = Ic[2];
    double sigma = I3 > I2 ? 1.0 : -1.0;
    double Lb[3] = {I1 * wc[0], I2 * wc[1], I3 * wc[2]}, Lc = vb_vec3_norm(Lb);
    s->L = ldexp(Lc, s->Iexp + s->wexp);
    double P = I1 * (I3 - I1) * wc[0] * wc[0] + I2 * (I3 - I2) * wc[1] * wc[1];
    double Q = I2 * (I2 - I1) * wc[1] * wc[1] + I3 * (I3 - I1) * wc[2] * wc[2];
    /* w so close to a principal axis that the squares of the others
     * underflow (below 1e-154 of the largest): steady to the last bit */
    if (P == 0.0 || Q == 0.0)
        return 1;

    s->amp[0] = sqrt(P / (I1 * (I3 - I1)));
    s->amp[1] = sqrt(P / (I2 * (I3 - I2)));
    s->amp[2] = sqrt(Q / (I3 * (I3 - I1)));
    s->lambda_c = sqrt((I3 - I2) * Q / (I1 * I2 * I3));
    s->lambda = ldexp(s->lambda_c, s->wexp);
    s->m = (I2 - I1) * P / ((I3 - I2) * Q);
    s->nu = I3 * (I2 - I1) / (I1 * (I3 - I2));
    s->eps[0] = sign_of(wc[0]);
    s->eps[2] = sign_of(wc[2]);
    s->eps[1] = sigma * s->eps[0] * s->eps[2];
    s->alpha = I1 * s->eps[0] * s->amp[0];
    s->beta = I2 * s->eps[1] * s->amp[1];
    if (set_modulus(s, Q, Dm, E) != 0)
        return -1;
    set_precession(s, Lc, Dm < 0.0);
    if (isfinite(s->K)) { /* FK = F(K/2) + Ft(K/2) */
        double h = 0.5 * s->K, sn, cn, dn, Fn, Fr;
        if (near_functions(s, h, &sn, &cn, &dn) != 0 || near_integral(s, h, sn, cn, dn, &Fn) ||
            reflected_integral(s, h, sn, cn, dn, &Fr))
            return -1;
        s->FK = Fn + Fr;
    } else {
        s->FK = INFINITY;
    }

    /* sn, cn, dn of u0: cn u0 = eps1 w1 / a1 >= 0, sn u0 = eps2 w2 / a2,
     * dn u0 = eps3 w3 / a3 > 0 */
    double c0 = s->eps[0] * wc[0] / s->amp[0], s0 = s->eps[1] * wc[1] / s->amp[1];
    double h = hypot(c0, s0);
    return initial_phase(s, s0 / h, c0 / h, s->eps[2] * wc[2] / s->amp[2]);
}

int vb_free_body_init(vb_free_body_solution *s, const double I[3], const double w0[3],
                      const double q0[4], char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    memcpy(s->I, I, sizeof s->I);
    memcpy(s->w0, w0, sizeof s->w0);
    memcpy(s->q0, q0, sizeof s->q0);
    for (int i = 0; i < 3; i++)
        if (!isfinite(I[i]) || !(I[i] > 0.0) || !isfinite(w0[i])) {
            snprintf(err, errlen, "the free body needs moments > 0 and a finite w (I = %g %g "
                                  "%g, w = %g %g %g)",
                     I[0], I[1], I[2], w0[0], w0[1], w0[2]);
            return -1;
        }
    if (steady_spin(I, w0))
        return init_steady(s);
    /* both scales exact: the largest moment and the largest |w_i| to [1, 2) */
    s->Iexp = ilogb(fmax(I[0], fmax(I[1], I[2])));
    s->wexp = ilogb(fmax(fabs(w0[0]), fmax(fabs(w0[1]), fabs(w0[2]))));
    double ws[3];
    for (int i = 0; i < 3; i++)
        ws[i] = ldexp(w0[i], -s->wexp);
    int rc = init_motion(s, ws);
    if (rc == 1)
        return init_steady(s);
    phase ph;
    if (rc != 0 || eval_phase(s, s->u0, &ph) != 0) {
        snprintf(err, errlen, "the elliptic integrals of the free body (I = %g %g %g, w = %g "
                              "%g %g) could not be computed",
                 I[0], I[1], I[2], w0[0], w0[1], w0[2]);
        return -1;
    }
    s->F0 = ph.F;
    double theta0, psi0, wcheck[3], qc[4], qSc[4];
    body_angles(s, &ph, wcheck, &theta0, &psi0);
    /* qA = q0 qS* (qx(theta0) qz(psi0))*, so that q(0) = q0 */
    euler_zxz(0.0, theta0, psi0, qc);
    vb_quat_conj(qc, qc);
    vb_quat_conj(s->qS, qSc);
    vb_quat_mul(q0, qSc, s->qA);
    vb_quat_mul(s->qA, qc, s->qA);
    return 0;
}

int vb_free_body_at(const vb_free_body_solution *s, double t, double q[4], double w[3])
{
    if (s->kind == VB_FREE_BODY_STEADY) {
        double r[3] = {s->w0[0] * t, s->w0[1] * t, s->w0[2] * t}, e[4];
        vb_quat_exp(r, e);
        vb_quat_mul(s->q0, e, q);
        memcpy(w, s->w0, sizeof s->w0);
        return 0;
    }
    double tau = ldexp(t, s->wexp); /* t in the scaled time */
    phase ph;
    if (eval_phase(s, s->lambda_c * tau + s->u0, &ph) != 0)
        return -1;
    double wc[3], theta, psi, qc[4];
    body_angles(s, &ph, wc, &theta, &psi);
    double phi = s->phi_rate * tau + s->phi_coef * (ph.F - s->F0);
    euler_zxz(phi, theta, psi, qc);
    vb_quat_mul(s->qA, qc, q);
    vb_quat_mul(q, s->qS, q);
    for (int k = 0; k < 3; k++)
        w[s->perm[k]] = ldexp(s->sgn[k] * wc[k], s->wexp);
    return 0;
}

double vb_free_body_period(const vb_free_body_solution *s)
{
    switch (s->kind) {
    case VB_FREE_BODY_STEADY:
        return 0.0;
    case VB_FREE_BODY_SEPARATRIX:
        return INFINITY;
    default:
        return ldexp(4.0 * s->K / s->lambda_c, -s->wexp);
    }
}
