/* rigid_models.c — the table of rigid-body models, their instances, and
 * what every rigid body has: energy, angular momentum, time reversal and
 * the projectile its centre of mass is (rigid.h). */
#include "model.h" /* vb_param_in_range, vb_param_range_text */
#include "numbers.h"
#include "quaternion.h"
#include "rigid.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const vb_rigid_model_type vb_rigid_model_free_body;
extern const vb_rigid_model_type vb_rigid_model_symmetric_top;
extern const vb_rigid_model_type vb_rigid_model_roll;
extern const vb_rigid_model_type vb_rigid_model_box_incline;

/* the bodies with a contact last: each is a model a case names (its face,
 * rigid_face.c), run only inside a contact solver (METHOD+SOLVER) */
static const vb_rigid_model_type *const table[] = {
    &vb_rigid_model_free_body,
    &vb_rigid_model_symmetric_top,
    &vb_rigid_model_roll,
    &vb_rigid_model_box_incline,
};
#define N_MODELS (sizeof table / sizeof table[0])

size_t vb_rigid_model_count(void) { return N_MODELS; }

const vb_rigid_model_type *vb_rigid_model_at(size_t i) { return i < N_MODELS ? table[i] : NULL; }

const vb_rigid_model_type *vb_rigid_model_find(const char *name)
{
    for (size_t i = 0; i < N_MODELS; i++)
        if (strcmp(table[i]->name, name) == 0)
            return table[i];
    return NULL;
}

void vb_rigid_model_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < N_MODELS && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", table[i]->name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

int vb_rigid_model_validate(const vb_rigid_model_type *t, char *err, size_t errlen)
{
    if (!t || !t->name || !t->summary || !t->create || !t->destroy || !t->props ||
        !t->initial || !t->natural_time || !t->w_period) {
        snprintf(err, errlen, "rigid model %s: name, summary, create, destroy, props, initial, "
                              "natural_time and w_period are required",
                 t && t->name ? t->name : "?");
        return -1;
    }
    if (t->n_params > VB_MAX_MODEL_PARAMS || (t->n_params && !t->params)) {
        snprintf(err, errlen, "rigid model %s: %u parameters (at most %d, with a table)", t->name,
                 t->n_params, VB_MAX_MODEL_PARAMS);
        return -1;
    }
    for (unsigned i = 0; i < t->n_params; i++)
        if (!vb_param_in_range(&t->params[i], t->params[i].def)) {
            snprintf(err, errlen, "rigid model %s: parameter %s: its default is out of its range",
                     t->name, t->params[i].name);
            return -1;
        }
    if ((t->work_alloc == NULL) != (t->work_free == NULL) || (t->work_alloc && !t->exact)) {
        snprintf(err, errlen, "rigid model %s: work_alloc and work_free come together, with "
                              "exact",
                 t->name);
        return -1;
    }
    return 0;
}

void vb_rigid_model_defaults(vb_rigid_model *m, const vb_rigid_model_type *type)
{
    memset(m, 0, sizeof *m);
    m->type = type;
    for (unsigned i = 0; i < type->n_params; i++)
        m->p[i] = type->params[i].def;
}

/* The same messages as vb_model_set gives a particle model's parameters */
int vb_rigid_model_set(vb_rigid_model *m, const char *key, const char *value, char *err,
                       size_t errlen)
{
    const vb_rigid_model_type *type = m->type;
    for (unsigned i = 0; i < type->n_params; i++) {
        const vb_param_spec *ps = &type->params[i];
        if (strcmp(ps->name, key) != 0)
            continue;
        double x;
        char range[96];
        vb_param_range_text(ps, range, sizeof range);
        if (vb_parse_double(value, &x) != 0) {
            snprintf(err, errlen, "%s: '%s' %s (%s must be %s)", key, value,
                     vb_number_refusal(value), key, range);
            return -2;
        }
        if (!vb_param_in_range(ps, x)) {
            snprintf(err, errlen, "%s = %s is out of range: %s must be %s (%s)", key, value, key,
                     range, ps->help);
            return -2;
        }
        m->p[i] = x;
        return 0;
    }
    char names[512];
    size_t used = 0;
    names[0] = '\0';
    for (unsigned i = 0; i < type->n_params && used < sizeof names; i++) {
        int n = snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                         type->params[i].name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    snprintf(err, errlen, "unknown parameter '%s' for model %s (valid: %s)", key, type->name,
             names);
    return -1;
}

double vb_rigid_model_energy(const vb_rigid_model *m, const vb_rigid_state *s)
{
    return vb_rigid_energy(&m->props, s);
}

void vb_rigid_model_angmom(const vb_rigid_model *m, const vb_rigid_state *s, double L[3])
{
    vb_rigid_angmom(&m->props, s, L);
}

int vb_rigid_model_contact(const vb_rigid_model *m, vb_body_contact *c)
{
    return m->self && m->type->contact && m->type->contact(m->self, c) == 0;
}

int vb_rigid_model_answer(const vb_rigid_model *m, vb_contact_answer *a)
{
    if (!m->self || !m->type->contact || !m->type->answer)
        return 0;
    m->type->answer(m->self, a);
    return 1;
}

int vb_rigid_model_setup(vb_rigid_model *m, char *err, size_t errlen)
{
    vb_rigid_model_free(m);
    m->self = m->type->create(m->p, err, errlen);
    if (!m->self)
        return -1;
    m->type->props(m->self, &m->props);
    /* parameters each in range can still overflow together */
    vb_rigid_state s;
    m->type->initial(m->self, &s);
    double T = m->type->natural_time(m->self);
    if (!vb_rigid_finite(&s) || !isfinite(vb_rigid_model_energy(m, &s)) ||
        !(isfinite(T) && T > 0.0)) {
        snprintf(err, errlen, "model %s: the initial state, its energy or the natural time is "
                              "not a finite number",
                 m->type->name);
        vb_rigid_model_free(m);
        return -1;
    }
    return 0;
}

void vb_rigid_model_free(vb_rigid_model *m)
{
    if (m->self)
        m->type->destroy(m->self);
    m->self = NULL;
}

void vb_rigid_common_read(const double *p, vb_rigid_common *c)
{
    c->mass = p[0];
    c->gravity[0] = 0.0;
    c->gravity[1] = 0.0;
    c->gravity[2] = -p[1];
    c->v0[0] = p[2];
    c->v0[1] = p[3];
    c->v0[2] = p[4];
}

int vb_rigid_check_moments(const double I[3], char *err, size_t errlen)
{
    /* a few ulps of slack: moments computed elsewhere for a flat body
     * (I3 = I1 + I2 exactly in theory) may land an ulp over */
    for (int i = 0; i < 3; i++) {
        double others = I[(i + 1) % 3] + I[(i + 2) % 3];
        if (I[i] > others * (1.0 + 4.0 * DBL_EPSILON)) {
            snprintf(err, errlen, "I%d = %g is more than I%d + I%d = %g: no rigid body has "
                                  "these principal moments (each is at most the sum of the "
                                  "other two, equal for a flat body)",
                     i + 1, I[i], (i + 1) % 3 + 1, (i + 2) % 3 + 1, others);
            return -1;
        }
    }
    return 0;
}

/* ---- what every rigid body has ---- */

void vb_rigid_angmom_body(const vb_rigid_props *p, const double w[3], double L[3])
{
    for (int i = 0; i < 3; i++)
        L[i] = p->inertia[i] * w[i];
}

void vb_rigid_angmom(const vb_rigid_props *p, const vb_rigid_state *s, double L[3])
{
    double Lb[3];
    vb_rigid_angmom_body(p, s->w, Lb);
    vb_quat_rotate(s->q, Lb, L);
}

double vb_rigid_energy(const vb_rigid_props *p, const vb_rigid_state *s)
{
    double rot = 0.0;
    for (int i = 0; i < 3; i++)
        rot += p->inertia[i] * s->w[i] * s->w[i];
    double trans = vb_vec3_dot(s->v, s->v);
    return 0.5 * rot + 0.5 * p->mass * trans - p->mass * vb_vec3_dot(p->gravity, s->x);
}

void vb_rigid_reverse(vb_rigid_state *s)
{
    for (int i = 0; i < 3; i++) {
        s->v[i] = -s->v[i];
        s->w[i] = -s->w[i];
    }
}

void vb_rigid_projectile(const double x0[3], const double v0[3], const double g[3], double t,
                         double x[3], double v[3])
{
    for (int i = 0; i < 3; i++) {
        x[i] = x0[i] + t * (v0[i] + 0.5 * g[i] * t);
        v[i] = v0[i] + g[i] * t;
    }
}

void vb_rigid_pack(const vb_rigid_state *s, double out[VB_RIGID_COMPONENTS])
{
    memcpy(out, s->x, 3 * sizeof *out);
    memcpy(out + 3, s->q, 4 * sizeof *out);
    memcpy(out + 7, s->v, 3 * sizeof *out);
    memcpy(out + 10, s->w, 3 * sizeof *out);
}

void vb_rigid_unpack(const double in[VB_RIGID_COMPONENTS], vb_rigid_state *s)
{
    memcpy(s->x, in, 3 * sizeof *in);
    memcpy(s->q, in + 3, 4 * sizeof *in);
    memcpy(s->v, in + 7, 3 * sizeof *in);
    memcpy(s->w, in + 10, 3 * sizeof *in);
}

int vb_rigid_finite(const vb_rigid_state *s)
{
    double c[VB_RIGID_COMPONENTS];
    vb_rigid_pack(s, c);
    for (int i = 0; i < VB_RIGID_COMPONENTS; i++)
        if (!isfinite(c[i]))
            return 0;
    return 1;
}
