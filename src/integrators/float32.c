/* float32.c — the splitting methods in float or double about a shifted
 * origin (float32.h).  One template, instantiated twice: the methods are
 * data (splitting.h), so nothing of any method's file is copied here. */
#include "float32.h"
#include "numbers.h"
#include "splitting.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The block: this header, then xd, vd, ad (doubles: what the force law is
 * given and gives back), then x, v, a in the run's type T. */
typedef struct {
    size_t n;
    double offset; /* set_params: the origin's shift, before start */
    double data[];
} shifted;

static const vb_param_spec offset_param[] = {
    {"offset", 0.0, -1e30, 1e30, 0, 0, "the origin's shift in every coordinate", 0},
};

static void set_offset(void *st, const double *p) { ((shifted *)st)->offset = p[0]; }

#define TEMPLATE(T, SUF)                                                                           \
    static size_t size_##SUF(size_t n)                                                             \
    {                                                                                              \
        return sizeof(shifted) + 3 * n * sizeof(double) + 3 * n * sizeof(T);                       \
    }                                                                                              \
    static T *vec_##SUF(shifted *s, size_t k) { return (T *)(s->data + 3 * s->n) + k * s->n; }        \
    /* the force at the state's scene-frame position, rounded to T */                             \
    static void force_##SUF(shifted *s, vb_force *f, double t)                                     \
    {                                                                                              \
        size_t n = s->n;                                                                           \
        double *xd = s->data, *vd = s->data + n, *ad = s->data + 2 * n;                            \
        const T *x = vec_##SUF(s, 0), *v = vec_##SUF(s, 1);                                        \
        T *a = vec_##SUF(s, 2), off = (T)s->offset;                                                \
        for (size_t i = 0; i < n; i++) {                                                           \
            xd[i] = (double)(T)(x[i] - off);                                                       \
            vd[i] = (double)v[i];                                                                  \
        }                                                                                          \
        vb_force_eval(f, t, xd, vd, ad);                                                           \
        for (size_t i = 0; i < n; i++)                                                             \
            a[i] = (T)ad[i];                                                                       \
    }                                                                                              \
    static void begin_##SUF(const vb_split *sc, void *st, vb_force *f, double t, const double *x, \
                            const double *v)                                                       \
    {                                                                                              \
        shifted *s = st;                                                                           \
        s->n = f->n;                                                                               \
        T *xs = vec_##SUF(s, 0), *vs = vec_##SUF(s, 1), off = (T)s->offset;                        \
        for (size_t i = 0; i < s->n; i++) {                                                        \
            xs[i] = (T)(x[i] + (double)off); /* the world position, rounded once */              \
            vs[i] = (T)v[i];                                                                       \
        }                                                                                          \
        if (sc->carry)                                                                             \
            force_##SUF(s, f, t);                                                                  \
    }                                                                                              \
    static void run_##SUF(const vb_split *sc, void *st, vb_force *f, double t, double h)          \
    {                                                                                              \
        shifted *s = st;                                                                           \
        T *x = vec_##SUF(s, 0), *v = vec_##SUF(s, 1), *a = vec_##SUF(s, 2);                        \
        double tau = 0.0;                                                                          \
        for (unsigned k = 0; k < sc->n; k++) {                                                     \
            T ch = (T)(sc->coef[k] * h);                                                           \
            if (sc->kind[k] == 'f') {                                                              \
                force_##SUF(s, f, t + tau * h);                                                    \
            } else if (sc->kind[k] == 'k') {                                                       \
                for (size_t i = 0; i < s->n; i++)                                                  \
                    v[i] += a[i] * ch;                                                             \
            } else {                                                                               \
                for (size_t i = 0; i < s->n; i++)                                                  \
                    x[i] += v[i] * ch;                                                             \
                tau += sc->coef[k];                                                                \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static void observe_##SUF(const void *st, double *x, double *v)                                \
    {                                                                                              \
        shifted *s = (shifted *)st;                                                                \
        const T *xs = vec_##SUF(s, 0), *vs = vec_##SUF(s, 1);                                      \
        double off = (double)(T)s->offset;                                                         \
        for (size_t i = 0; i < s->n; i++) {                                                        \
            x[i] = (double)xs[i] - off; /* back in the scene's frame */                            \
            v[i] = (double)vs[i];                                                                  \
        }                                                                                          \
    }                                                                                              \
    static void reverse_##SUF(void *st)                                                            \
    {                                                                                              \
        shifted *s = st;                                                                           \
        T *v = vec_##SUF(s, 1);                                                                    \
        for (size_t i = 0; i < s->n; i++)                                                          \
            v[i] = -v[i];                                                                          \
    }

TEMPLATE(float, f32)
TEMPLATE(double, f64)

extern const vb_integrator vb_integrator_euler;
extern const vb_integrator vb_integrator_euler_semi;
extern const vb_integrator vb_integrator_velocity_verlet;
extern const vb_integrator vb_integrator_yoshida4;
extern const vb_integrator vb_integrator_pefrl;

/* a start and a step a method and type */
#define METHOD(ID, BASE, SUF)                                                                      \
    static void start_##ID##_##SUF(void *st, vb_force *f, double t, const double *x,              \
                                   const double *v, double h)                                      \
    {                                                                                              \
        (void)h;                                                                                   \
        begin_##SUF(vb_split_of(&BASE), st, f, t, x, v);                                           \
    }                                                                                              \
    static void step_##ID##_##SUF(void *st, vb_force *f, double t, double h)                      \
    {                                                                                              \
        run_##SUF(vb_split_of(&BASE), st, f, t, h);                                                \
    }
#define METHODS(SUF)                                                                               \
    METHOD(euler, vb_integrator_euler, SUF)                                                        \
    METHOD(euler_semi, vb_integrator_euler_semi, SUF)                                              \
    METHOD(vv, vb_integrator_velocity_verlet, SUF)                                                 \
    METHOD(yoshida4, vb_integrator_yoshida4, SUF)                                                  \
    METHOD(pefrl, vb_integrator_pefrl, SUF)
METHODS(f32)
METHODS(f64)

typedef struct {
    const vb_integrator *base;
    void (*start[2])(void *, vb_force *, double, const double *, const double *, double);
    void (*step[2])(void *, vb_force *, double, double);
} entry;

#define ENTRY(ID, BASE) {&BASE, {start_##ID##_f64, start_##ID##_f32}, {step_##ID##_f64, step_##ID##_f32}}
static const entry entries[] = {
    ENTRY(euler, vb_integrator_euler),
    ENTRY(euler_semi, vb_integrator_euler_semi),
    ENTRY(vv, vb_integrator_velocity_verlet),
    ENTRY(yoshida4, vb_integrator_yoshida4),
    ENTRY(pefrl, vb_integrator_pefrl),
};

/* made while options are read, before any run; kept until exit */
typedef struct {
    vb_integrator integ;
    const vb_integrator *base; /* the float64 method it was made from */
    vb_param_spec param;
    char name[160];
} made;
#define MAX_MADE 64
static made *kept[MAX_MADE];
static size_t n_kept;

const vb_integrator *vb_integrator_in_precision(const vb_integrator *g, vb_precision p,
                                                double offset, char *err, size_t errlen)
{
    if (p == VB_FLOAT64 && offset == 0.0)
        return g;
    const entry *e = NULL;
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++)
        if (entries[i].base == g)
            e = &entries[i];
    if (!e) {
        snprintf(err, errlen, "%s has no %s form about a shifted origin here: only the methods "
                 "that are a sequence of kicks and drifts do (%s)", g->name,
                 vb_precision_name(p), vb_split_names());
        return NULL;
    }
    if (!isfinite(offset) || fabs(offset) > 1e30) {
        snprintf(err, errlen, "offset %g: give a finite number up to 1e30", offset);
        return NULL;
    }
    char text[40], name[160];
    vb_format_shortest(offset, text, sizeof text);
    snprintf(name, sizeof name, "%s:precision=%s:offset=%s", g->name, vb_precision_name(p), text);
    for (size_t i = 0; i < n_kept; i++)
        if (!strcmp(kept[i]->name, name))
            return &kept[i]->integ;
    made *m = n_kept < MAX_MADE ? calloc(1, sizeof *m) : NULL;
    if (!m) {
        snprintf(err, errlen, n_kept < MAX_MADE ? "out of memory" : "too many precisions");
        return NULL;
    }
    int f32 = p == VB_FLOAT32;
    snprintf(m->name, sizeof m->name, "%s", name);
    m->base = g;
    m->param = offset_param[0];
    m->param.def = offset;
    m->integ = (vb_integrator){
        .name = m->name,
        .summary = g->summary,
        .order = g->order,
        .flags = g->flags,
        .state_size = f32 ? size_f32 : size_f64,
        .start = e->start[f32],
        .step = e->step[f32],
        .observe = f32 ? observe_f32 : observe_f64,
        .reverse = f32 ? reverse_f32 : reverse_f64,
        .params = &m->param,
        .n_params = 1,
        .set_params = set_offset,
    };
    kept[n_kept++] = m;
    return &m->integ;
}

const vb_integrator *vb_integrator_base(const vb_integrator *g)
{
    for (size_t i = 0; i < n_kept; i++)
        if (g == &kept[i]->integ)
            return kept[i]->base;
    return g;
}
