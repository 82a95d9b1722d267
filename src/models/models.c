/* models.c — the table of models (built-in, then any a plugin adds) and the
 * parameter handling and instance lifecycle they share. */
#include "model.h"
#include "numbers.h"
#include "rigid.h" /* the rigid models' faces */
#include "stack.h" /* the stack's face */
#include "vector.h" /* vb_magnitude */

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const vb_model_type vb_model_projectile;
extern const vb_model_type vb_model_spring;
extern const vb_model_type vb_model_damped_spring;
extern const vb_model_type vb_model_impulse;
extern const vb_model_type vb_model_orbit;
extern const vb_model_type vb_model_pendulum;
extern const vb_model_type vb_model_chain;
extern const vb_model_type vb_model_two_body;
extern const vb_model_type vb_model_figure_eight;
extern const vb_model_type vb_model_henon_heiles;
extern const vb_model_type vb_model_rod_pendulum;
extern const vb_model_type vb_model_double_pendulum;
extern const vb_model_type vb_model_hanging_chain;
extern const vb_model_type vb_model_bounce;
extern const vb_model_type vb_model_slide;
extern const vb_model_type vb_model_tunnel;

/* the built-in models */
static const vb_model_type *const builtin[] = {
    &vb_model_projectile,
    &vb_model_spring,
    &vb_model_damped_spring,
    &vb_model_impulse,
    &vb_model_orbit,
    &vb_model_pendulum,
    &vb_model_chain,
    &vb_model_two_body,
    &vb_model_figure_eight,
    &vb_model_henon_heiles,
    /* constrained: rods, enforced by the constrained integrators */
    &vb_model_rod_pendulum,
    &vb_model_double_pendulum,
    &vb_model_hanging_chain,
    /* a contact (walls.h): run with a handler round the method */
    &vb_model_bounce,
    &vb_model_slide,
    &vb_model_tunnel,
};
#define N_BUILTIN (sizeof builtin / sizeof builtin[0])
#define MAX_EXTRA 64

/* Registered before any run starts; read-only afterwards. */
static const vb_model_type *extra[MAX_EXTRA];
static size_t n_extra;

size_t vb_model_count(void) { return N_BUILTIN + n_extra; }

const vb_model_type *vb_model_at(size_t i)
{
    if (i < N_BUILTIN)
        return builtin[i];
    return i - N_BUILTIN < n_extra ? extra[i - N_BUILTIN] : NULL;
}

const vb_model_type *vb_model_find(const char *name)
{
    for (size_t i = 0; i < vb_model_count(); i++)
        if (strcmp(vb_model_at(i)->name, name) == 0)
            return vb_model_at(i);
    /* the stack's face (stack.h) */
    if (strcmp(name, vb_stack_face()->name) == 0)
        return vb_stack_face();
    /* a rigid model's face (rigid.h) */
    return vb_rigid_face_find(name);
}

void vb_model_names_text(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < vb_model_count() && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", vb_model_at(i)->name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

/* a name as typed on the command line and used in file names */
static int valid_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 40)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' || *s == '_'))
            return 0;
    return 1;
}

/* one line of text: it goes into tables, CSV and Markdown as it is */
static int one_line(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return 0;
    return 1;
}


int vb_model_validate(const vb_model_type *t, char *err, size_t errlen)
{
    if (!t || !t->name || !valid_name(t->name)) {
        snprintf(err, errlen, "a model's name '%.40s' may use only a-z, 0-9, '-' and '_' "
                              "(at most 40)", t && t->name ? t->name : "");
        return -1;
    }
    if (!t->summary || !one_line(t->summary) || strlen(t->summary) > 200) {
        snprintf(err, errlen, "model %s: its summary must be one line of at most 200 characters",
                 t->name);
        return -1;
    }
    if (t->dim < 1 || t->dim > 3) {
        snprintf(err, errlen, "model %s: dim %u is not 1, 2 or 3", t->name, t->dim);
        return -1;
    }
    if (t->n_params > VB_MAX_MODEL_PARAMS || (t->n_params && !t->params)) {
        snprintf(err, errlen, "model %s: %u parameters (at most %d, with a table)", t->name,
                 t->n_params, VB_MAX_MODEL_PARAMS);
        return -1;
    }
    for (unsigned i = 0; i < t->n_params; i++) {
        const vb_param_spec *ps = &t->params[i];
        static const char *const reserved[] = {"model", "t_end", "description"};
        int taken = 0;
        for (size_t k = 0; ps->name && k < 3; k++)
            taken |= strcmp(ps->name, reserved[k]) == 0;
        for (unsigned k = 0; ps->name && k < i; k++)
            taken |= strcmp(ps->name, t->params[k].name) == 0;
        if (!ps->name || !ps->name[0] || strlen(ps->name) > 30 || strpbrk(ps->name, "= \t#;[]") ||
            taken || !ps->help || !one_line(ps->help) || !isfinite(ps->def) ||
            ps->flags & ~(unsigned)(VB_PARAM_INTEGER | VB_PARAM_QUIET_DEFAULT)) {
            snprintf(err, errlen, "model %s: parameter %u ('%.30s') is malformed: a name of at "
                                  "most 30 characters, unique, not model/t_end/description; a "
                                  "one-line help; a finite default",
                     t->name, i, ps->name ? ps->name : "");
            return -1;
        }
        if (!vb_param_in_range(ps, ps->def)) {
            char range[96], def[32];
            vb_param_range_text(ps, range, sizeof range);
            vb_format_shortest(ps->def, def, sizeof def);
            snprintf(err, errlen,
                     "model %s: parameter %s: its default %s is not in its own range %s", t->name,
                     ps->name, def, range);
            return -1;
        }
    }
    if (!t->create || !t->destroy || !t->particles || !t->initial || !t->accel ||
        !t->natural_time) {
        snprintf(err, errlen, "model %s: create, destroy, particles, initial, accel and "
                              "natural_time are required",
                 t->name);
        return -1;
    }
    if ((t->work_alloc == NULL) != (t->work_free == NULL) || (t->work_alloc && !t->exact)) {
        snprintf(err, errlen, "model %s: work_alloc and work_free come together, with exact",
                 t->name);
        return -1;
    }
    unsigned known = VB_VELOCITY_DEPENDENT | VB_PERIODIC | VB_CONSERVES_MOMENTUM |
                     VB_CONSERVES_ANGMOM;
    if (t->flags & ~known) {
        snprintf(err, errlen, "model %s: unknown flags 0x%x", t->name, t->flags);
        return -1;
    }
    if ((t->flags & VB_CONSERVES_ANGMOM) && t->dim == 1) {
        snprintf(err, errlen, "model %s: angular momentum needs 2 or 3 dimensions", t->name);
        return -1;
    }
    if (!t->n_constraints != !t->constraint) {
        snprintf(err, errlen, "model %s: n_constraints and constraint come together", t->name);
        return -1;
    }
    int refs = !!t->ref_dof + !!t->ref_initial + !!t->ref_accel + !!t->ref_state;
    if (refs != 0 && refs != 4) {
        snprintf(err, errlen, "model %s: ref_dof, ref_initial, ref_accel and ref_state come "
                              "together (a reference in the model's own coordinates)",
                 t->name);
        return -1;
    }
    /* a reference of Cartesian x and accel would let the bodies fall off
     * their rods: a constrained model brings its own truth */
    if (t->n_constraints && !t->exact && !refs) {
        snprintf(err, errlen, "model %s: a constrained model needs an exact solution or a "
                              "reference in its own coordinates (ref_dof, ...)",
                 t->name);
        return -1;
    }
    return 0;
}

/* An entry as this version reads it: one built for ABI 2 or 3 ends before
 * n_constraints, so only that much of it is read and the rest is NULL. */
static void widen(const vb_model_type *t, unsigned abi, vb_model_type *out)
{
    memset(out, 0, sizeof *out);
    memcpy(out, t, abi >= 4 ? sizeof *out : offsetof(vb_model_type, n_constraints));
}

int vb_model_validate_abi(const vb_model_type *t, unsigned abi, char *err, size_t errlen)
{
    if (!t)
        return vb_model_validate(t, err, errlen);
    vb_model_type w;
    widen(t, abi, &w);
    return vb_model_validate(&w, err, errlen);
}

int vb_model_register_abi(const vb_model_type *t, unsigned abi, char *err, size_t errlen)
{
    if (abi >= 4 || !t)
        return vb_model_register(t, err, errlen);
    /* kept until exit, like the plugin it came from */
    vb_model_type *w = malloc(sizeof *w);
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    widen(t, abi, w);
    if (vb_model_register(w, err, errlen) != 0) {
        free(w);
        return -1;
    }
    return 0;
}

int vb_model_register(const vb_model_type *t, char *err, size_t errlen)
{
    if (vb_model_validate(t, err, errlen) != 0)
        return -1;
    if (vb_model_find(t->name)) {
        snprintf(err, errlen, "model name '%s' is already taken", t->name);
        return -1;
    }
    if (n_extra == MAX_EXTRA) {
        snprintf(err, errlen, "more than %d plugin models", MAX_EXTRA);
        return -1;
    }
    extra[n_extra++] = t;
    return 0;
}

void vb_model_defaults(vb_model *m, const vb_model_type *type)
{
    memset(m, 0, sizeof *m);
    m->type = type;
    for (unsigned i = 0; i < type->n_params; i++)
        m->p[i] = type->params[i].def;
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
    vb_model_param_names(type, names, sizeof names);
    snprintf(err, errlen, "unknown parameter '%s' for model %s (valid: %s)", key, type->name, names);
    return -1;
}

/* The most particles a model may have: a chain of a million masses is
 * already more than a sweep should attempt. */
#define MAX_PARTICLES 1000000

/* What a run starts from must be numbers: the masses, the initial state,
 * its acceleration and energy, the natural time.  Parameters each in range
 * can still overflow together (a spring of k = 1e300 and m = 1e-300, a
 * start at 1e300), and a run from them would report NaN as a measurement.
 * What is wrong with the first that is not, or NULL. */
static const char *numbers_not_finite(const vb_model *m)
{
    const vb_model_type *t = m->type;
    size_t n = m->n;
    for (size_t i = 0; i < m->particles; i++)
        if (!(isfinite(m->mass[i]) && m->mass[i] > 0.0))
            return "a mass is not a positive finite number";
    double *x = malloc(3 * n * sizeof *x);
    if (!x)
        return "out of memory";
    double *v = x + n, *a = v + n;
    const char *what = NULL;
    t->initial(m->self, x, v);
    for (size_t i = 0; i < 2 * n && !what; i++)
        if (!isfinite(x[i]))
            what = i < n ? "the initial position is not a finite number"
                         : "the initial velocity is not a finite number";
    if (!what) {
        t->accel(m->self, 0.0, x, v, a);
        for (size_t i = 0; i < n && !what; i++)
            if (!isfinite(a[i]))
                what = "the initial acceleration is not a finite number";
    }
    if (!what && t->energy && !isfinite(t->energy(m->self, x, v)))
        what = "the initial energy is not a finite number";
    if (!what) {
        double T = t->natural_time(m->self);
        if (!(isfinite(T) && T > 0.0))
            what = "the natural time (period or time scale) is not a positive finite number";
    }
    free(x);
    return what;
}

/* The rods of an instance, checked: each joins two particles of the model
 * (or one to a pivot) with a length from 1e-150 to 1e150, and the initial
 * state obeys it, in length (to 1e-12 of it, plus its ends' round-off) and
 * in velocity (no motion along the rod: to 1e-12 of the
 * speeds, or of L/T from rest).  A start off its rods
 * would measure the model, not the method.  Messages number the rods from
 * 1, as the models name their lengths (L1, L2).  0, or -1 with err. */
#define ROD_TOL 1e-12
#define ROD_LENGTH_MIN 1e-150
#define ROD_LENGTH_MAX 1e150
static int setup_constraints(vb_model *m, char *err, size_t errlen)
{
    const vb_model_type *t = m->type;
    size_t k_n = t->n_constraints(m->self), n = m->n, d = t->dim;
    if (k_n > 4 * MAX_PARTICLES) {
        snprintf(err, errlen, "model %s: %zu rods", t->name, k_n);
        return -1;
    }
    m->rods = calloc(k_n ? k_n : 1, sizeof *m->rods);
    m->inv_mass = malloc(m->particles * sizeof *m->inv_mass);
    double *x = malloc(2 * n * sizeof *x);
    if (!m->rods || !m->inv_mass || !x) {
        free(x);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < m->particles; i++)
        m->inv_mass[i] = 1.0 / m->mass[i];
    double *v = x + n;
    t->initial(m->self, x, v);
    double speed = vb_magnitude(v, n), T = t->natural_time(m->self);
    int rc = 0;
    for (size_t k = 0; k < k_n && rc == 0; k++) {
        vb_constraint *c = &m->rods[k];
        memset(c, 0, sizeof *c);
        t->constraint(m->self, k, c);
        int pivot = c->j == VB_PIVOT;
        if (c->i >= m->particles || (!pivot && (c->j >= m->particles || c->j == c->i)) ||
            !(c->length > 0.0 && isfinite(c->length))) {
            char other[48];
            if (pivot)
                snprintf(other, sizeof other, "a pivot");
            else
                snprintf(other, sizeof other, "particle %zu", c->j);
            snprintf(err, errlen, "model %s: rod %zu joins particle %zu to %s with length %g: "
                                  "want two of its %zu particles (or one and a pivot) and a "
                                  "length > 0",
                     t->name, k + 1, c->i, other, c->length, m->particles);
            rc = -1;
            break;
        }
        /* a rod's squared length must be a normal double with room to
         * spare, or SHAKE's and the drift's arithmetic lose it */
        if (c->length < ROD_LENGTH_MIN || c->length > ROD_LENGTH_MAX) {
            snprintf(err, errlen, "model %s: rod %zu has length %g: lengths from %g to %g can "
                                  "be held (choose units that bring it into range)",
                     t->name, k + 1, c->length, ROD_LENGTH_MIN, ROD_LENGTH_MAX);
            rc = -1;
            break;
        }
        double r[3] = {0, 0, 0}, w[3] = {0, 0, 0}, len = 0.0, along = 0.0, ends = 0.0;
        for (size_t a = 0; a < d; a++) {
            double xj = pivot ? c->pivot[a] : x[c->j * d + a];
            ends = fmax(ends, fmax(fabs(x[c->i * d + a]), fabs(xj)));
            r[a] = x[c->i * d + a] - xj;
            w[a] = v[c->i * d + a] - (pivot ? 0.0 : v[c->j * d + a]);
            len += r[a] * r[a];
        }
        len = sqrt(len);
        for (size_t a = 0; a < d; a++)
            along += r[a] * w[a] / len;
        /* a rod far from the origin is as long as its ends' round-off
         * allows (a few ulps of their coordinates), and that must leave the
         * rod resolved, to 1e-9 of it, or no method could hold it */
        double roundoff = 4.0 * DBL_EPSILON * ends;
        if (!(roundoff <= 1e-9 * c->length)) {
            snprintf(err, errlen, "model %s: rod %zu has length %g with an end %g from the "
                                  "origin, where a double resolves only %g: a rod must be at "
                                  "least %g of its ends' distance from the origin (move the "
                                  "origin nearer, or scale the lengths)",
                     t->name, k + 1, c->length, ends, roundoff, 4.0 * DBL_EPSILON / 1e-9);
            rc = -1;
            break;
        }
        if (!(fabs(len - c->length) <= ROD_TOL * c->length + roundoff) ||
            !(fabs(along) <= ROD_TOL * fmax(speed, c->length / T))) {
            snprintf(err, errlen, "model %s: the initial state is off rod %zu: length %.17g "
                                  "where it should be %.17g, velocity along it %g",
                     t->name, k + 1, len, c->length, along);
            rc = -1;
        }
    }
    free(x);
    m->cons = (vb_constraints){k_n, m->rods, t->dim, m->inv_mass};
    return rc;
}

int vb_model_setup(vb_model *m, char *err, size_t errlen)
{
    const vb_model_type *t = m->type;
    vb_model_free(m);
    err[0] = '\0';
    m->self = t->create(m->p, err, errlen);
    if (!m->self) {
        if (!err[0])
            snprintf(err, errlen, "model %s: could not be set up (out of memory?)", t->name);
        return -1;
    }
    m->particles = t->particles(m->self);
    if (m->particles < 1 || m->particles > MAX_PARTICLES) {
        snprintf(err, errlen, "model %s: %zu particles (1 to %d)", t->name, m->particles,
                 MAX_PARTICLES);
        vb_model_free(m);
        return -1;
    }
    m->n = m->particles * t->dim;
    m->mass = malloc(m->particles * sizeof *m->mass);
    if (!m->mass) {
        snprintf(err, errlen, "out of memory");
        vb_model_free(m);
        return -1;
    }
    for (size_t i = 0; i < m->particles; i++)
        m->mass[i] = 1.0;
    if (t->masses)
        t->masses(m->self, m->mass);
    const char *what = numbers_not_finite(m);
    if (!what && t->n_constraints && setup_constraints(m, err, errlen) != 0) {
        vb_model_free(m);
        return -1;
    }
    if (what) {
        char values[512];
        size_t used = 0;
        values[0] = '\0';
        for (unsigned k = 0; k < t->n_params && used < sizeof values; k++) {
            int w = snprintf(values + used, sizeof values - used, "%s%s=%g", k ? " " : "",
                             t->params[k].name, m->p[k]);
            used += w > 0 ? (size_t)w : 0;
        }
        snprintf(err, errlen,
                 "model %s: %s at %s (parameters that overflow double precision together, or "
                 "a model that computes no number there)",
                 t->name, what, t->n_params ? values : "its parameters");
        vb_model_free(m);
        return -1;
    }
    return 0;
}

void vb_model_free(vb_model *m)
{
    if (m->self)
        m->type->destroy(m->self);
    free(m->mass);
    free(m->rods);
    free(m->inv_mass);
    memset(&m->cons, 0, sizeof m->cons);
    m->rods = NULL;
    m->inv_mass = NULL;
    m->self = NULL;
    m->mass = NULL;
    m->particles = m->n = 0;
}

void *vb_model_self_alloc(size_t size, char *err, size_t errlen)
{
    void *s = calloc(1, size);
    if (!s)
        snprintf(err, errlen, "out of memory");
    return s;
}

void vb_model_self_free(void *self) { free(self); }

size_t vb_model_one_particle(const void *self)
{
    (void)self;
    return 1;
}

vb_force vb_model_force(const vb_model *m)
{
    vb_force f = {m->type->accel, m->self, 0, m->n, m->cons.n ? &m->cons : NULL, NULL};
    return f;
}
