/* elliptic.c — Jacobi's sn, cn, dn and K from k and k' by the AGM. */
#include "elliptic.h"

#include <float.h>
#include <math.h>

/* the AGM of 1 and k' halves the gap a - b at least quadratically; 12
 * steps take any k' >= 1e-300 to round-off */
#define AGM_STEPS 16

double vb_ellint_K(double kc)
{
    double a = 1.0, b = kc;
    for (int n = 0; n < AGM_STEPS && fabs(a - b) > DBL_EPSILON * a; n++) {
        double an = 0.5 * (a + b);
        b = sqrt(a * b);
        a = an;
    }
    return M_PI / (a + b); /* pi / (2 AGM) with AGM = (a + b)/2 to the last bit */
}

int vb_jacobi(double u, double k, double kc, double *sn, double *cn, double *dn)
{
    if (k == 0.0) { /* the circular functions, and the AGM has nothing to do */
        *sn = sin(u);
        *cn = cos(u);
        *dn = 1.0;
        return 0;
    }
    /* a_n, b_n, c_n with c_{n+1} = c_n^2 / (4 a_{n+1}), which is
     * (a_n - b_n)/2 without its cancellation once a and b agree */
    double a[AGM_STEPS + 1], b[AGM_STEPS + 1], c[AGM_STEPS + 1];
    int n = 0;
    a[0] = 1.0;
    b[0] = kc;
    c[0] = k;
    while (fabs(c[n]) > DBL_EPSILON * a[n]) {
        if (n == AGM_STEPS)
            return -1;
        a[n + 1] = 0.5 * (a[n] + b[n]);
        b[n + 1] = sqrt(a[n] * b[n]);
        c[n + 1] = 0.25 * c[n] * c[n] / a[n + 1];
        n++;
    }
    /* phi_N = 2^N a_N u, then down: phi_{n-1} = (phi_n + asin(c_n/a_n sin phi_n))/2.
     * Near k = 1, c_n/a_n -> 1 and asin is taken where its slope is
     * unbounded; since a_n^2 - c_n^2 = b_n^2, the same angle is
     * atan2(c sin phi, sqrt(a^2 cos^2 phi + b^2 sin^2 phi)), which has no
     * cancellation and loses nothing there. */
    double phi = ldexp(a[n] * u, n);
    for (int j = n; j > 0; j--) {
        /* both terms under the root are at most 1 and one is at least
         * b_j^2 >= k'^2: no overflow, no underflow, so no need for hypot */
        double s = sin(phi), co = cos(phi), x = a[j] * co, y = b[j] * s;
        phi = 0.5 * (phi + atan2(c[j] * s, sqrt(x * x + y * y)));
    }
    *sn = sin(phi);
    *cn = cos(phi);
    /* dn^2 = 1 - k^2 sn^2 = cn^2 + k'^2 sn^2: the second form has no
     * cancellation, so dn keeps its absolute accuracy where it is small (at
     * u = K, dn = k').  The textbook cos(phi_0)/cos(phi_1 - phi_0) is 0/0
     * there. */
    double y = kc * *sn; /* as above: |cn| <= 1, and no hypot needed */
    *dn = sqrt(*cn * *cn + y * y);
    return 0;
}
