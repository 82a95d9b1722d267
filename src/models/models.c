/* models.c — the table of models and the parameter handling they share. */
#include "model.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const vb_model_type vb_model_projectile;
extern const vb_model_type vb_model_spring;
extern const vb_model_type vb_model_damped_spring;
extern const vb_model_type vb_model_orbit;
extern const vb_model_type vb_model_pendulum;

const vb_model_type *const vb_models[] = {
    &vb_model_projectile, &vb_model_spring, &vb_model_damped_spring,
    &vb_model_orbit,      &vb_model_pendulum,
};
const size_t vb_n_models = sizeof vb_models / sizeof vb_models[0];

const vb_model_type *vb_model_find(const char *name)
{
    for (size_t i = 0; i < vb_n_models; i++)
        if (strcmp(vb_models[i]->name, name) == 0)
            return vb_models[i];
    return NULL;
}

void vb_model_names_text(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < vb_n_models && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", vb_models[i]->name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

void vb_model_defaults(vb_model *m, const vb_model_type *type)
{
    memset(m, 0, sizeof *m);
    m->type = type;
    for (unsigned i = 0; i < type->n_params; i++)
        m->p[i] = type->params[i].def;
}

int vb_parse_double(const char *text, double *out)
{
    char *end;
    while (*text == ' ' || *text == '\t')
        text++;
    if (*text == '\0')
        return -1;
    errno = 0;
    double x = strtod(text, &end);
    while (*end == ' ' || *end == '\t')
        end++;
    /* strtod accepts "nan" and "inf", and turns 1e999 into HUGE_VAL with
     * ERANGE; it also sets ERANGE for a value below DBL_MIN, which is still
     * a number (1e-320 is a subnormal double; 1e-400 rounds to 0), so only
     * overflow is refused */
    if (*end != '\0' || !isfinite(x) || (errno == ERANGE && fabs(x) >= 1.0))
        return -1;
    *out = x;
    return 0;
}

void vb_param_range_text(const vb_param_spec *ps, char *buf, size_t len)
{
    int lo = isfinite(ps->min), hi = isfinite(ps->max);
    if (lo && hi)
        snprintf(buf, len, "%c%g, %g%c", ps->min_open ? '(' : '[', ps->min, ps->max,
                 ps->max_open ? ')' : ']');
    else if (lo)
        snprintf(buf, len, "%s %g", ps->min_open ? ">" : ">=", ps->min);
    else if (hi)
        snprintf(buf, len, "%s %g", ps->max_open ? "<" : "<=", ps->max);
    else
        snprintf(buf, len, "any finite number");
}

static int in_range(const vb_param_spec *ps, double x)
{
    if (ps->min_open ? !(x > ps->min) : !(x >= ps->min))
        return 0;
    if (ps->max_open ? !(x < ps->max) : !(x <= ps->max))
        return 0;
    return 1;
}

void vb_model_param_names(const vb_model_type *type, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < type->n_params && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", type->params[i].name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

int vb_model_set(vb_model *m, const char *key, const char *value, char *err, size_t errlen)
{
    const vb_model_type *type = m->type;
    for (unsigned i = 0; i < type->n_params; i++) {
        const vb_param_spec *ps = &type->params[i];
        if (strcmp(ps->name, key) != 0)
            continue;
        double x;
        char range[64];
        vb_param_range_text(ps, range, sizeof range);
        if (vb_parse_double(value, &x) != 0) {
            snprintf(err, errlen, "%s: '%s' is not a finite number (%s must be %s)", key, value,
                     key, range);
            return -2;
        }
        if (!in_range(ps, x)) {
            snprintf(err, errlen, "%s = %s is out of range: %s must be %s (%s)", key, value, key,
                     range, ps->help);
            return -2;
        }
        m->p[i] = x;
        return 0;
    }
    char names[256];
    vb_model_param_names(type, names, sizeof names);
    snprintf(err, errlen, "unknown parameter '%s' for model %s (valid: %s)", key, type->name, names);
    return -1;
}

int vb_model_setup(vb_model *m, char *err, size_t errlen)
{
    return m->type->setup(m->self, m->p, err, errlen);
}

vb_force vb_model_force(const vb_model *m)
{
    vb_force f = {m->type->accel, m->self, 0, m->type->dim};
    return f;
}
