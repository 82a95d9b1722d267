/* quaternion.h — unit quaternions and 3-vectors for rigid bodies
 * (docs/rigid.md §1).
 *
 * A quaternion is double q[4] = (w, x, y, z), scalar first.  An attitude q
 * maps the body frame to the world frame: a vector with body components b
 * has world components q b q* (vb_quat_rotate), and q1 q2 is "q2 first,
 * then q1" in the world.  q and -q are the same attitude: every function
 * here that compares attitudes is blind to that sign.
 *
 * Plain functions on arrays, no types: the rigid state (models/rigid.h)
 * stores its quaternion and vectors as arrays, and the methods of
 * integrators/ and the engines' transcriptions in the tests call these on
 * them. */
#ifndef VB_QUATERNION_H
#define VB_QUATERNION_H

/* ---- 3-vectors ---- */

double vb_vec3_dot(const double a[3], const double b[3]);
/* out = a x b (out may be a or b) */
void vb_vec3_cross(const double a[3], const double b[3], double out[3]);
/* |a| without overflow or underflow (vb_magnitude) */
double vb_vec3_norm(const double a[3]);

/* ---- quaternions ---- */

/* out = a b, the Hamilton product (out may be a or b) */
void vb_quat_mul(const double a[4], const double b[4], double out[4]);
/* out = q* = (w, -x, -y, -z) */
void vb_quat_conj(const double q[4], double out[4]);
/* |q| */
double vb_quat_norm(const double q[4]);
/* q / |q|, in place; a zero or non-finite q is left as it is (and the
 * caller's run is then diverged, not silently repaired) */
void vb_quat_normalise(double q[4]);

/* out = q v q*: body components v to world components, for any q (not
 * only unit ones: divided by |q|^2).  out may be v. */
void vb_quat_rotate(const double q[4], const double v[3], double out[3]);
/* out = q* v q: world components to body components.  out may be v. */
void vb_quat_rotate_inv(const double q[4], const double v[3], double out[3]);

/* The exponential map: the unit quaternion of the rotation by the angle
 * |r| about the axis r/|r|, (cos(|r|/2), sin(|r|/2) r/|r|), to full
 * precision at small |r| (a series for sin(x)/x) and exactly the identity
 * at r = 0. */
void vb_quat_exp(const double r[3], double out[4]);
/* The rotation by `angle` about the unit axis e_k of the frame
 * (k = 0, 1, 2): (cos(angle/2), sin(angle/2) e_k). */
void vb_quat_axis(int k, double angle, double out[4]);

/* The angle in [0, pi] of the rotation that takes qe to q: the attitude
 * error when qe is exact.  2 atan2(|vec(qe* q)|, |scalar(qe* q)|): the
 * textbook 2 acos(|qe . q|) flattens below ~3e-8 rad, where acos near 1
 * has lost half the digits, and every order fitted below it.  Blind to the
 * sign of either quaternion and to their norms. */
double vb_quat_angle_between(const double qe[4], const double q[4]);

/* The rotation matrix of a unit quaternion, row-major: m[3 i + j], world
 * components = m body components. */
void vb_quat_to_matrix(const double q[4], double m[9]);
/* The unit quaternion of a rotation matrix (orthogonal, det +1) by
 * Shepperd's method: the largest of the four squares first, so there is no
 * cancellation.  Its sign is that with the largest component positive. */
void vb_quat_from_matrix(const double m[9], double out[4]);

#endif
