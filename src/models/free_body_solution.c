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
 * all have the sign sigma, and are formed from w directly as sums, never
 * as differences of 2 T I and L^2, which near the separatrix cancel.  Then
 *     w1 = eps1 a1 cn u,  w2 = eps2 a2 sn u,  w3 = eps3 a3 dn u,
 *     a1^2 = P / (I1 (I3 - I1)),  a2^2 = P / (I2 (I3 - I2)),
 *     a3^2 = Q / (I3 (I3 - I1)),  lambda^2 = (I3 - I2) Q / (I1 I2 I3),
 *     m = (I2 - I1) P / ((I3 - I2) Q),  1 - m = (I3 - I1) D / ((I3 - I2) Q),
 * u = lambda t + u0, and Euler's equations ask eps1 = sigma eps2 eps3
 * (Landau & Lifshitz §37 for I1 < I2 < I3, where sigma = 1).  1 - m comes
 * from D to full relative precision, and the elliptic functions take it
 * apart from m (elliptic.h): the separatrix m -> 1 loses nothing.
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
 * = (u - G)/nu.  For |r| <= K, by Carlson's forms (DLMF 19.25.14),
 *     H(r) = (1/3) sn^3 R_J(cn^2, dn^2, 1, 1 + nu sn^2),   G(r) = r - nu H(r),
 * and G's two terms cancel once nu > 1 (G << r: a needle circling its
 * largest moment has nu ~ 1e16); there G comes from the integral of
 * parameter m/nu it pairs with (DLMF 19.7.9), two positive terms:
 *     G(r) = sn R_C(cn^2 dn^2, (1 + nu sn^2)(1 + (m/nu) sn^2)) + m/nu H_{m/nu}(r).
 * F(r + 2K j) = F(r) + 2 j F(K): the amplitude is unwrapped over any
 * number of periods by the whole number j, never by an arcsine.
 *
 * Only the ratios of the moments matter to w(t) and phi; they are scaled
 * by the power of 2 that brings the largest to [1, 2), exactly, so that
 * products such as I1 I2 I3 neither overflow nor underflow for any moments
 * a double holds. */
#include "free_body_solution.h"
#include "elliptic.h"
#include "quaternion.h"

#include <float.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_ellint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The canonical frame: its axes 1, 2, 3 are the body axes other, mid and
 * circled (0-based), with signs that make the relabelling a rotation; its
 * moments, and its quaternion qS (canonical from body) */
/* The moments are scaled by 2^-e, e = this, so that the largest is in
 * [1, 2): exactly, so that I3 - I2 of two close moments stays exact */
static int moment_scale(const double I[3]) { return ilogb(fmax(I[0], fmax(I[1], I[2]))); }

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
        s->Ic[k] = ldexp(s->I[s->perm[k]], -moment_scale(s->I));
    }
    vb_quat_from_matrix(S, s->qS);
}

static int sign_of(double x) { return x < 0.0 ? -1 : 1; }

/* (1/3) sn^3 R_J(cn^2, dn^2, 1, 1 + n sn^2): int_0^r sn^2 du / (1 + n sn^2)
 * for |r| <= K, from sn, cn, dn of r */
static int integral_H(double n, double sn, double cn, double dn, double *H)
{
    if (sn == 0.0) {
        *H = 0.0;
        return 0;
    }
    gsl_sf_result rj;
    if (gsl_sf_ellint_RJ_e(cn * cn, dn * dn, 1.0, 1.0 + n * sn * sn, GSL_PREC_DOUBLE, &rj) !=
        GSL_SUCCESS)
        return -1;
    *H = sn * sn * sn * rj.val / 3.0;
    return 0;
}

/* F(r) for |r| <= K (the header's G or H), from r and sn, cn, dn of r */
static int integral_F(const vb_free_body_solution *s, double r, double sn, double cn, double dn,
                      double *F)
{
    double nu = s->nu, H;
    if (s->phi_h)
        return integral_H(nu, sn, cn, dn, F);
    if (nu <= 1.0) { /* G = r - nu H >= r/2 */
        if (integral_H(nu, sn, cn, dn, &H) != 0)
            return -1;
        *F = r - nu * H;
        return 0;
    }
    /* nu > 1: G paired with the integral of parameter m/nu < 1 */
    double nm = s->m / nu, s2 = sn * sn;
    gsl_sf_result rc;
    if (gsl_sf_ellint_RC_e(cn * cn * dn * dn, (1.0 + nu * s2) * (1.0 + nm * s2), GSL_PREC_DOUBLE,
                           &rc) != GSL_SUCCESS ||
        integral_H(nm, sn, cn, dn, &H) != 0)
        return -1;
    *F = sn * rc.val + nm * H;
    return 0;
}

/* sn, cn, dn of u and the unwrapped pieces: u = r + 2 K j, |r| <= K (to
 * round-off), sr etc. the functions of r, and F(u) */
typedef struct {
    double sn, cn, dn;
    double sr, cr;
    double j;
    double F;
} phase;

static int eval_phase(const vb_free_body_solution *s, double u, phase *ph)
{
    if (s->kind == VB_FREE_BODY_SEPARATRIX) {
        /* m = 1: sn = tanh, cn = dn = sech; F = G has a closed form
         * (partial fractions in tanh u), two terms of one sign */
        double th = tanh(u), sech = 1.0 / cosh(u), rn = sqrt(s->nu);
        ph->sn = ph->sr = th;
        ph->cn = ph->cr = ph->dn = sech;
        ph->j = 0.0;
        ph->F = (u + rn * atan(rn * th)) / (1.0 + s->nu);
        return 0;
    }
    double twoK = 2.0 * s->K;
    double j = nearbyint(u / twoK);
    double r = fma(-j, twoK, u); /* u - 2K j with one rounding */
    double sr, cr, dr, F;
    if (vb_jacobi(r, s->k, s->kc, &sr, &cr, &dr) != 0)
        return -1;
    double flip = fmod(j, 2.0) != 0.0 ? -1.0 : 1.0; /* sn, cn change sign every 2K */
    ph->sn = flip * sr;
    ph->cn = flip * cr;
    ph->dn = dr;
    ph->sr = sr;
    ph->cr = cr;
    ph->j = j;
    if (integral_F(s, r, sr, cr, dr, &F) != 0)
        return -1;
    ph->F = 2.0 * j * s->FK + F;
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

/* The canonical angular velocity and the Euler angles theta, psi at phase ph */
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

/* F(phi | m) for |phi| <= pi/2 from sin phi and cos phi >= 0:
 * sin phi R_F(cos^2, cos^2 + m' sin^2, 1), with 1 - m sin^2 formed from
 * m' so that nothing cancels near m = 1 */
static int incomplete_F(double sn, double cn, double mc, double *F)
{
    gsl_sf_result rf;
    if (sn == 0.0) {
        *F = 0.0;
        return 0;
    }
    int status = gsl_sf_ellint_RF_e(cn * cn, cn * cn + mc * sn * sn, 1.0, GSL_PREC_DOUBLE, &rf);
    if (status != GSL_SUCCESS)
        return -1;
    *F = sn * rf.val;
    return 0;
}

/* phi = phi_rate t + phi_coef (F(u) - F(u0)), each term >= 0: (a) with
 * F = G when L circles the largest moment, (b) with F = H when it circles
 * the smallest (the header).  The separatrix (D = 0) takes (a), whose G
 * has a closed form there.  Lc is |L| in the scaled moments. */
static void set_precession(vb_free_body_solution *s, double Lc, int use_h)
{
    double I1 = s->Ic[0], I2 = s->Ic[1], I3 = s->Ic[2];
    s->phi_h = use_h;
    if (use_h) {
        s->phi_rate = Lc / I1;
        s->phi_coef = Lc * (I3 - I1) * (I1 - I2) / (I1 * I1 * (I3 - I2) * s->lambda);
    } else {
        s->phi_rate = Lc / I3;
        s->phi_coef = Lc * (I3 - I1) / (I1 * I3 * s->lambda);
    }
}

/* w constant: q(t) = q0 exp(t w) needs nothing more */
static int init_steady(vb_free_body_solution *s)
{
    s->kind = VB_FREE_BODY_STEADY;
    return 0;
}

int vb_free_body_init(vb_free_body_solution *s, const double I[3], const double w0[3],
                      const double q0[4], char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    memcpy(s->I, I, sizeof s->I);
    memcpy(s->w0, w0, sizeof s->w0);
    memcpy(s->q0, q0, sizeof s->q0);
    double Lb[3] = {I[0] * w0[0], I[1] * w0[1], I[2] * w0[2]};
    s->L = vb_vec3_norm(Lb);
    if (!isfinite(s->L) || !isfinite(I[0] * w0[0] * w0[0] + I[1] * w0[1] * w0[1] +
                                     I[2] * w0[2] * w0[2])) {
        snprintf(err, errlen, "the angular velocity (%g, %g, %g) is too large: its energy "
                              "overflows",
                 w0[0], w0[1], w0[2]);
        return -1;
    }

    /* steady: every nonzero component on axes of one moment */
    double moment = NAN;
    int steady = 1;
    for (int i = 0; i < 3; i++) {
        if (w0[i] == 0.0)
            continue;
        if (isnan(moment))
            moment = I[i];
        else if (I[i] != moment)
            steady = 0;
    }
    if (steady)
        return init_steady(s);

    /* lo <= mid <= hi by moment (stable: ties keep their order) */
    int idx[3] = {0, 1, 2};
    for (int a = 0; a < 3; a++)
        for (int b = a + 1; b < 3; b++)
            if (I[idx[b]] < I[idx[a]]) {
                int t = idx[a];
                idx[a] = idx[b];
                idx[b] = t;
            }
    int lo = idx[0], mid = idx[1], hi = idx[2];
    double Im = I[mid];
    s->D = I[hi] * (I[hi] - Im) * w0[hi] * w0[hi] - I[lo] * (Im - I[lo]) * w0[lo] * w0[lo];
    if (s->D >= 0.0)
        canonical_frame(s, hi, mid, lo);
    else
        canonical_frame(s, lo, mid, hi);

    const double *Ic = s->Ic;
    double wc[3];
    for (int k = 0; k < 3; k++)
        wc[k] = s->sgn[k] * w0[s->perm[k]];
    double I1 = Ic[0], I2 = Ic[1], I3 = Ic[2];
    double sigma = I3 > I2 ? 1.0 : -1.0;
    double Lc = ldexp(s->L, -moment_scale(I)); /* |L| in the scaled moments */
    double P = I1 * (I3 - I1) * wc[0] * wc[0] + I2 * (I3 - I2) * wc[1] * wc[1];
    double Q = I2 * (I2 - I1) * wc[1] * wc[1] + I3 * (I3 - I1) * wc[2] * wc[2];
    double D = I1 * (I1 - I2) * wc[0] * wc[0] + I3 * (I3 - I2) * wc[2] * wc[2];
    /* w so close to a principal axis that the squares of the others
     * underflow: steady to the last bit of everything representable */
    if (P == 0.0 || Q == 0.0)
        return init_steady(s);

    s->amp[0] = sqrt(P / (I1 * (I3 - I1)));
    s->amp[1] = sqrt(P / (I2 * (I3 - I2)));
    s->amp[2] = sqrt(Q / (I3 * (I3 - I1)));
    s->lambda = sqrt((I3 - I2) * Q / (I1 * I2 * I3));
    s->m = (I2 - I1) * P / ((I3 - I2) * Q);
    s->mc = (I3 - I1) * D / ((I3 - I2) * Q);
    s->nu = I3 * (I2 - I1) / (I1 * (I3 - I2));
    s->eps[0] = sign_of(wc[0]);
    s->eps[2] = sign_of(wc[2]);
    s->eps[1] = sigma * s->eps[0] * s->eps[2];
    s->alpha = I1 * s->eps[0] * s->amp[0];
    s->beta = I2 * s->eps[1] * s->amp[1];

    /* u0 from cn u0 = eps1 w1 / a1 >= 0 and sn u0 = eps2 w2 / a2: the
     * amplitude in [-pi/2, pi/2], so u0 in [-K, K] */
    double c0 = s->eps[0] * wc[0] / s->amp[0], s0 = s->eps[1] * wc[1] / s->amp[1];
    double h = hypot(c0, s0);
    c0 /= h;
    s0 /= h;
    if (!(s->mc >= DBL_MIN)) {
        s->kind = VB_FREE_BODY_SEPARATRIX;
        s->m = 1.0;
        s->mc = 0.0;
        s->k = 1.0;
        s->kc = 0.0;
        s->K = INFINITY;
        s->u0 = asinh(s0 / c0); /* c0 > 0: w1 != 0 on the separatrix */
        set_precession(s, Lc, 0);
        s->FK = INFINITY;
    } else {
        s->kind = VB_FREE_BODY_ELLIPTIC;
        s->k = sqrt(s->m);
        s->kc = sqrt(s->mc);
        s->K = vb_ellint_K(s->kc);
        if (incomplete_F(s0, c0, s->mc, &s->u0) != 0)
            goto failed;
        set_precession(s, Lc, s->D < 0.0);
        /* at r = K: sn = 1, cn = 0, dn = k' */
        if (integral_F(s, s->K, 1.0, 0.0, s->kc, &s->FK) != 0)
            goto failed;
    }

    phase ph;
    if (eval_phase(s, s->u0, &ph) != 0)
        goto failed;
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

failed:
    snprintf(err, errlen, "the elliptic integrals of the free body (I = %g %g %g, w = %g %g "
                          "%g) could not be computed",
             I[0], I[1], I[2], w0[0], w0[1], w0[2]);
    return -1;
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
    phase ph;
    if (eval_phase(s, s->lambda * t + s->u0, &ph) != 0)
        return -1;
    double wc[3], theta, psi, qc[4];
    body_angles(s, &ph, wc, &theta, &psi);
    double phi = s->phi_rate * t + s->phi_coef * (ph.F - s->F0);
    euler_zxz(phi, theta, psi, qc);
    vb_quat_mul(s->qA, qc, q);
    vb_quat_mul(q, s->qS, q);
    for (int k = 0; k < 3; k++)
        w[s->perm[k]] = s->sgn[k] * wc[k];
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
        return 4.0 * s->K / s->lambda;
    }
}
