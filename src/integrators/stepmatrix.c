/* stepmatrix.c — the one-step matrix on the linear oscillator
 * (stepmatrix.h).  On a linear force every stage is a linear map of
 * (x, u, b) = (x, v/omega, a/omega^2):
 *   'f' the force at (x, v):  b = -x - 2 zeta u
 *   'k' v += a (c h):          u += c z b
 *   'd' x += v (c h):          x += c z u
 * and the step is their product in the order the method takes them. */
#include "stepmatrix.h"
#include "splitting.h"

#include <string.h>

extern const vb_integrator vb_integrator_rk4;

static void times(double m[3][3], const double s[3][3])
{
    double r[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r[i][j] = s[i][0] * m[0][j] + s[i][1] * m[1][j] + s[i][2] * m[2][j];
    memcpy(m, r, sizeof r);
}

static void identity(double m[3][3])
{
    memset(m, 0, 9 * sizeof m[0][0]);
    m[0][0] = m[1][1] = m[2][2] = 1.0;
}

/* rk4.c's four stages on y' = A y, A = [[0, 1], [-1, -2 zeta]] (units of
 * omega): R(zA) = I + zA + (zA)^2/2 + (zA)^3/6 + (zA)^4/24, the stage
 * accelerations recomputed each step (no b carried) */
static void rk4_matrix(double z, double zeta, double m[3][3])
{
    double a[3][3] = {{0.0, z, 0.0}, {-z, -2.0 * zeta * z, 0.0}, {0.0, 0.0, 0.0}};
    double term[3][3], sum[3][3];
    identity(term);
    identity(sum);
    sum[2][2] = 0.0;
    for (int k = 1; k <= 4; k++) {
        times(term, a);
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++)
                term[i][j] /= (double)k;
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++)
                sum[i][j] += term[i][j];
    }
    memcpy(m, sum, 9 * sizeof m[0][0]);
    /* the acceleration at the end (x, v): what observing it would give */
    m[2][0] = -sum[0][0] - 2.0 * zeta * sum[1][0];
    m[2][1] = -sum[0][1] - 2.0 * zeta * sum[1][1];
}

int vb_step_matrix(const vb_integrator *g, double z, double zeta, double m[3][3])
{
    if (g == &vb_integrator_rk4) {
        rk4_matrix(z, zeta, m);
        return 0;
    }
    const vb_split *sp = vb_split_of(g);
    if (!sp)
        return -1;
    identity(m);
    for (unsigned k = 0; k < sp->n; k++) {
        double s[3][3];
        identity(s);
        double cz = sp->coef[k] * z;
        switch (sp->kind[k]) {
        case 'f':
            s[2][0] = -1.0;
            s[2][1] = -2.0 * zeta;
            s[2][2] = 0.0;
            break;
        case 'k':
            s[1][2] = cz;
            break;
        case 'd':
            s[0][1] = cz;
            break;
        default:
            return -1;
        }
        times(m, s);
    }
    return 0;
}
