/* quaternion.c — Hamilton products, rotations, the exponential map and the
 * attitude error (quaternion.h). */
#include "quaternion.h"
#include "vector.h" /* vb_magnitude */

#include <math.h>

double vb_vec3_dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

void vb_vec3_cross(const double a[3], const double b[3], double out[3])
{
    double x = a[1] * b[2] - a[2] * b[1];
    double y = a[2] * b[0] - a[0] * b[2];
    double z = a[0] * b[1] - a[1] * b[0];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

double vb_vec3_norm(const double a[3]) { return vb_magnitude(a, 3); }

void vb_quat_mul(const double a[4], const double b[4], double out[4])
{
    double w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    double x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    double y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    double z = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
    out[0] = w;
    out[1] = x;
    out[2] = y;
    out[3] = z;
}

void vb_quat_conj(const double q[4], double out[4])
{
    out[0] = q[0];
    out[1] = -q[1];
    out[2] = -q[2];
    out[3] = -q[3];
}

double vb_quat_norm(const double q[4]) { return vb_magnitude(q, 4); }

void vb_quat_normalise(double q[4])
{
    double n = vb_quat_norm(q);
    if (!(n > 0.0) || !isfinite(n))
        return;
    for (int i = 0; i < 4; i++)
        q[i] /= n;
}

/* q v q* as a product of quaternions: t = 2 vec(q) x v, out = v + w t +
 * vec(q) x t is the same for unit q, but this one also divides by |q|^2,
 * which the state of a method that does not normalise (NO_SQUISH) needs. */
void vb_quat_rotate(const double q[4], const double v[3], double out[3])
{
    double p[4] = {0.0, v[0], v[1], v[2]}, qc[4], r[4];
    double n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    vb_quat_conj(q, qc);
    vb_quat_mul(q, p, r);
    vb_quat_mul(r, qc, r);
    out[0] = r[1] / n2;
    out[1] = r[2] / n2;
    out[2] = r[3] / n2;
}

void vb_quat_rotate_inv(const double q[4], const double v[3], double out[3])
{
    double qc[4];
    vb_quat_conj(q, qc);
    vb_quat_rotate(qc, v, out);
}

/* sin(x)/x: its series below 1e-4, where x^4/120 < 1e-18 is below half an
 * ulp of 1 and the quotient would lose nothing anyway but 0/0 at 0 */
static double sinc(double x)
{
    if (fabs(x) < 1e-4)
        return 1.0 - x * x / 6.0;
    return sin(x) / x;
}

void vb_quat_exp(const double r[3], double out[4])
{
    double angle = vb_vec3_norm(r), half = 0.5 * angle;
    double s = 0.5 * sinc(half); /* sin(angle/2)/angle */
    out[0] = cos(half);
    out[1] = s * r[0];
    out[2] = s * r[1];
    out[3] = s * r[2];
}

void vb_quat_axis(int k, double angle, double out[4])
{
    out[0] = cos(0.5 * angle);
    out[1] = out[2] = out[3] = 0.0;
    out[1 + k] = sin(0.5 * angle);
}

double vb_quat_angle_between(const double qe[4], const double q[4])
{
    double qc[4], d[4];
    vb_quat_conj(qe, qc);
    vb_quat_mul(qc, q, d);
    return 2.0 * atan2(vb_magnitude(d + 1, 3), fabs(d[0]));
}

void vb_quat_to_matrix(const double q[4], double m[9])
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    m[0] = 1.0 - 2.0 * (y * y + z * z);
    m[1] = 2.0 * (x * y - w * z);
    m[2] = 2.0 * (x * z + w * y);
    m[3] = 2.0 * (x * y + w * z);
    m[4] = 1.0 - 2.0 * (x * x + z * z);
    m[5] = 2.0 * (y * z - w * x);
    m[6] = 2.0 * (x * z - w * y);
    m[7] = 2.0 * (y * z + w * x);
    m[8] = 1.0 - 2.0 * (x * x + y * y);
}

void vb_quat_from_matrix(const double m[9], double out[4])
{
    /* 4 w^2 = 1 + tr, 4 x^2 = 1 + m00 - m11 - m22, ...: take the largest */
    double sq[4] = {1.0 + m[0] + m[4] + m[8], 1.0 + m[0] - m[4] - m[8],
                    1.0 - m[0] + m[4] - m[8], 1.0 - m[0] - m[4] + m[8]};
    int k = 0;
    for (int i = 1; i < 4; i++)
        if (sq[i] > sq[k])
            k = i;
    double r = 0.5 * sqrt(sq[k]), f = 0.25 / r;
    switch (k) {
    case 0:
        out[0] = r;
        out[1] = (m[7] - m[5]) * f;
        out[2] = (m[2] - m[6]) * f;
        out[3] = (m[3] - m[1]) * f;
        break;
    case 1:
        out[0] = (m[7] - m[5]) * f;
        out[1] = r;
        out[2] = (m[1] + m[3]) * f;
        out[3] = (m[2] + m[6]) * f;
        break;
    case 2:
        out[0] = (m[2] - m[6]) * f;
        out[1] = (m[1] + m[3]) * f;
        out[2] = r;
        out[3] = (m[5] + m[7]) * f;
        break;
    default:
        out[0] = (m[3] - m[1]) * f;
        out[1] = (m[2] + m[6]) * f;
        out[2] = (m[5] + m[7]) * f;
        out[3] = r;
        break;
    }
}
