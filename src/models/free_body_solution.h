/* free_body_solution.h — the torque-free asymmetric top, exact
 * (docs/rigid.md §2): the body-frame angular velocity in Jacobi's elliptic
 * functions on both branches of the polhode and on the separatrix between
 * them, and the attitude through an elliptic integral of the third kind
 * (Landau & Lifshitz, Mechanics, §37), for principal moments in any order.
 *
 * Shared by the free-body model (free_body.c) and the tests, so both have
 * the same bits.  An evaluation costs one arithmetic-geometric mean, one
 * Carlson R_J, a few sines and, near the separatrix, a few exponentials:
 * no iteration that grows with t, so it runs at every step of a sweep and
 * needs no warm start. */
#ifndef VB_FREE_BODY_SOLUTION_H
#define VB_FREE_BODY_SOLUTION_H

#include <stddef.h>

typedef enum {
    /* w along a principal axis (its nonzero components share one moment,
     * a sphere's always), or so close to one that the squares of the
     * others underflow: w constant, q(t) = q0 exp(t w) */
    VB_FREE_BODY_STEADY,
    /* L^2 != 2 T I_mid: the polhode circles the axis of the largest
     * (L^2 > 2 T I_mid) or the smallest moment, with period 4K/lambda */
    VB_FREE_BODY_ELLIPTIC,
    /* L^2 = 2 T I_mid exactly (D, computed exactly from the given doubles,
     * is 0): the limit m = 1, sn = tanh and cn = dn = sech, which
     * approaches the intermediate axis as t grows and never flips */
    VB_FREE_BODY_SEPARATRIX
} vb_free_body_kind;

typedef struct vb_free_body_solution {
    double I[3], w0[3], q0[4]; /* as given: body frame */
    vb_free_body_kind kind;
    /* L^2 - 2 T I_mid = sum I_i (I_i - I_mid) w_i^2, in the given units
     * (where that is a double): > 0 on the branch that circles the axis of
     * the largest moment, < 0 on the other */
    double D;
    double L; /* |L|, given units (where that is a double) */
    /* The canonical frame: axis 3 the one L circles, axis 2 the
     * intermediate moment; c_k = sgn[k] b_perm[k] for a vector's body
     * components b, a proper rotation whose quaternion is qS. */
    int perm[3];
    double sgn[3], qS[4];
    /* Scaled units, exact powers of 2: the moments over 2^Iexp (the
     * largest in [1, 2)), w over 2^wexp (its largest component in [1, 2))
     * and so time times 2^wexp; every number below is in them but lambda */
    int Iexp, wexp;
    double Ic[3];           /* the moments in that frame, scaled */
    double amp[3], eps[3];  /* w_c = (eps0 amp0 cn, eps1 amp1 sn, eps2 amp2 dn) */
    double lambda;          /* the rate of u, 1/s in the given units */
    double lambda_c;        /* the same in scaled time: u = lambda_c t 2^wexp + u0 */
    double m, mc;           /* parameter m and 1 - m (mc where it is a double) */
    double k, kc;           /* sqrt(m), sqrt(1 - m) (kc where it is a double) */
    double kc_frac;         /* kc = kc_frac 2^kc_exp, kc_frac in [1/2, 2): */
    int kc_exp;             /* k' however close to 0 (free_body_solution.c) */
    double K;               /* K(m); INFINITY on the separatrix */
    int functions;          /* how sn, cn, dn are evaluated (free_body_solution.c) */
    double pulse;           /* pi / (2 K(1 - m)), for the pulse series */
    double u0;
    double nu;              /* I3 (I2 - I1) / (I1 (I3 - I2)) >= 0, GSL's sign */
    /* phi = phi_rate t 2^wexp + phi_coef (F(u) - F(u0)), F = G or, when
     * phi_h, H (free_body_solution.c: the form whose terms do not cancel) */
    int phi_h;
    double FK, F0;          /* F(K) and F(u0) */
    double phi_rate, phi_coef;
    double alpha, beta;     /* L_c1 = alpha cos am(u), L_c2 = beta sin am(u) */
    double qA[4];           /* world from the invariable frame (z along L) */
} vb_free_body_solution;

/* From the principal moments I (> 0, any order, ties allowed), the
 * body-frame w0 and the attitude q0 (unit), any finite doubles: the
 * solution is computed in scaled units, so no product of them overflows or
 * underflows.  0, or -1 with a message (a number not finite; an elliptic
 * integral GSL refused, a guard).  Whether the body's energy and angular
 * momentum are numbers a run can measure is the model's question
 * (free_body.c). */
int vb_free_body_init(vb_free_body_solution *s, const double I[3], const double w0[3],
                      const double q0[4], char *err, size_t errlen);

/* q(t) (world from body, continuous in t) and the body-frame w(t).  0, or
 * -1 if an elliptic function failed (a guard: it does not for any state
 * init accepts). */
int vb_free_body_at(const vb_free_body_solution *s, double t, double q[4], double w[3]);

/* The period of w(t): 4K/lambda on the elliptic branches, INFINITY on the
 * separatrix, 0 for a steady spin (w constant). */
double vb_free_body_period(const vb_free_body_solution *s);

#endif
