/* rigid_methods.c — the table of rigid-body rotation methods, and the
 * pieces their files share (rigid_method.h). */
#include "quaternion.h"
#include "rigid_method.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

extern const vb_rigid_method vb_rigid_euler;
extern const vb_rigid_method vb_rigid_no_gyro;
extern const vb_rigid_method vb_rigid_explicit_gyro;
extern const vb_rigid_method vb_rigid_explicit_gyro_linear;
extern const vb_rigid_method vb_rigid_implicit_gyro;
extern const vb_rigid_method vb_rigid_rk4;
extern const vb_rigid_method vb_rigid_splitting;
extern const vb_rigid_method vb_rigid_no_squish;
extern const vb_rigid_method vb_rigid_splitting4;

/* engine-style first, then the reference methods */
static const vb_rigid_method *const table[] = {
    &vb_rigid_euler,         &vb_rigid_no_gyro,  &vb_rigid_explicit_gyro,
    &vb_rigid_explicit_gyro_linear, &vb_rigid_implicit_gyro, &vb_rigid_rk4,
    &vb_rigid_splitting,     &vb_rigid_no_squish, &vb_rigid_splitting4,
};
#define N_METHODS (sizeof table / sizeof table[0])

size_t vb_rigid_method_count(void) { return N_METHODS; }

const vb_rigid_method *vb_rigid_method_at(size_t i) { return i < N_METHODS ? table[i] : NULL; }

const vb_rigid_method *vb_rigid_method_find(const char *name)
{
    for (size_t i = 0; i < N_METHODS; i++)
        if (strcmp(table[i]->name, name) == 0)
            return table[i];
    return NULL;
}

void vb_rigid_method_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < N_METHODS && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", table[i]->name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

const char *vb_quat_update_text(vb_quat_update u)
{
    switch (u) {
    case VB_QUAT_EXPONENTIAL:
        return "exponential map q exp(h w), normalised";
    case VB_QUAT_FIRST_ORDER:
        return "first order q + (h/2) q w, normalised";
    case VB_QUAT_RK4:
        return "RK4 stages of q' = q w / 2, normalised";
    case VB_QUAT_PRINCIPAL_ROTATIONS:
        return "exact rotations about the principal axes";
    case VB_QUAT_NO_SQUISH:
        return "exact rotations about the principal axes on (q, p), not normalised";
    }
    return "?";
}

const char *vb_translate_text(vb_translate t)
{
    switch (t) {
    case VB_TRANSLATE_EULER:
        return "explicit Euler (x with the old v)";
    case VB_TRANSLATE_SYMPLECTIC_EULER:
        return "symplectic Euler (v, then x with the new v)";
    case VB_TRANSLATE_KICK_DRIFT_KICK:
        return "kick-drift-kick (exact for uniform gravity)";
    case VB_TRANSLATE_RK4:
        return "RK4 (exact for uniform gravity)";
    }
    return "?";
}

int vb_translate_order(vb_translate t)
{
    return (t == VB_TRANSLATE_EULER || t == VB_TRANSLATE_SYMPLECTIC_EULER) ? 1 : 0;
}

void vb_rigid_translate(vb_rigid_state *s, const vb_rigid_props *p, double h, vb_translate t)
{
    const double *g = p->gravity;
    switch (t) {
    case VB_TRANSLATE_EULER:
        for (int i = 0; i < 3; i++) {
            s->x[i] += h * s->v[i];
            s->v[i] += h * g[i];
        }
        break;
    case VB_TRANSLATE_SYMPLECTIC_EULER:
        for (int i = 0; i < 3; i++) {
            s->v[i] += h * g[i];
            s->x[i] += h * s->v[i];
        }
        break;
    case VB_TRANSLATE_KICK_DRIFT_KICK:
    case VB_TRANSLATE_RK4:
        /* RK4 on x'' = g (constant): x + h v + h^2 g / 2 and v + h g, the
         * same as the kick-drift-kick below */
        for (int i = 0; i < 3; i++) {
            s->v[i] += 0.5 * h * g[i];
            s->x[i] += h * s->v[i];
            s->v[i] += 0.5 * h * g[i];
        }
        break;
    }
}

void vb_rigid_euler_rhs(const vb_rigid_props *p, const double w[3], double dw[3])
{
    const double *I = p->inertia;
    double L[3] = {I[0] * w[0], I[1] * w[1], I[2] * w[2]}, c[3];
    vb_vec3_cross(L, w, c);
    for (int i = 0; i < 3; i++)
        dw[i] = c[i] / I[i];
}

void vb_rigid_rotate_exp(double q[4], const double w[3], double h)
{
    double r[3] = {h * w[0], h * w[1], h * w[2]}, e[4];
    vb_quat_exp(r, e);
    vb_quat_mul(q, e, q);
    vb_quat_normalise(q);
}

void vb_rigid_rotate_first_order(double q[4], const double w[3], double h)
{
    double p[4] = {0.0, w[0], w[1], w[2]}, d[4];
    vb_quat_mul(q, p, d);
    for (int i = 0; i < 4; i++)
        q[i] += 0.5 * h * d[i];
    vb_quat_normalise(q);
}

void vb_rigid_explicit_gyro_velocity(const vb_rigid_props *p, double w[3], double h)
{
    const double *I = p->inertia;
    double L[3] = {I[0] * w[0], I[1] * w[1], I[2] * w[2]}, c[3], Ln[3];
    vb_vec3_cross(w, L, c);
    for (int i = 0; i < 3; i++)
        Ln[i] = L[i] - h * c[i];
    /* the old length over the new, as sqrt(|L|^2 / |L'|^2) like the
     * engines, and 0 when L' = 0 (Jolt; Rapier keeps w then: L' = 0 needs
     * w = 0 to begin with, so the two agree) */
    double n2 = vb_vec3_dot(Ln, Ln), scale = n2 > 0.0 ? sqrt(vb_vec3_dot(L, L) / n2) : 0.0;
    for (int i = 0; i < 3; i++)
        w[i] = Ln[i] * scale / I[i];
}

void vb_rigid_principal_rotation(double q[4], double L[3], const double I[3], int k, double tau)
{
    double alpha = tau * L[k] / I[k];
    double ch = cos(0.5 * alpha), sh = sin(0.5 * alpha);
    double r[4] = {ch, 0.0, 0.0, 0.0};
    r[1 + k] = sh;
    vb_quat_mul(q, r, q);
    /* the body-frame L turns by -alpha about e_k; cos and sin of alpha
     * from the half angle, so that the rotation of L is exactly the one
     * the quaternion r makes, and q (L) q* stays put to round-off */
    double c = ch * ch - sh * sh, s = 2.0 * sh * ch;
    int i = (k + 1) % 3, j = (k + 2) % 3;
    double Li = L[i], Lj = L[j];
    L[i] = c * Li + s * Lj;
    L[j] = -s * Li + c * Lj;
}

void vb_rigid_strang(double q[4], double L[3], const double I[3], const int axes[3], double h)
{
    vb_rigid_principal_rotation(q, L, I, axes[0], 0.5 * h);
    vb_rigid_principal_rotation(q, L, I, axes[1], 0.5 * h);
    vb_rigid_principal_rotation(q, L, I, axes[2], h);
    vb_rigid_principal_rotation(q, L, I, axes[1], 0.5 * h);
    vb_rigid_principal_rotation(q, L, I, axes[0], 0.5 * h);
}
