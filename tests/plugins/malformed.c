/* malformed.c — plugins verletbench must refuse (exit 2), one per -DBAD_...:
 * ABI another ABI version, COUNT an empty table, NOSTEP an entry without a
 * step function, TAKEN a built-in's name, RESERVED the name "exact",
 * NEWLINE a summary with a line break in it (it would break every table),
 * TWICE one name for two entries, MODEL_TAKEN a model named as a built-in
 * one, MODEL_DIM a model of 4 dimensions.
 * QUOTED is a good one whose summary holds a quote and a comma: `list --csv`
 * must quote it as RFC 4180 says. */
#include <stddef.h>

#include <verletbench.h>

static void start(void *s, vb_force *f, double t, const double *x, const double *v, double h)
{
    (void)s, (void)f, (void)t, (void)x, (void)v, (void)h;
}
static void step(void *s, vb_force *f, double t, double h) { (void)s, (void)f, (void)t, (void)h; }
static void observe(const void *s, double *x, double *v) { (void)s, (void)x, (void)v; }
static void reverse(void *s) { (void)s; }
static size_t state_size(size_t n)
{
    (void)n;
    return 8;
}

#if defined(BAD_TAKEN)
#define NAME "tcv"
#elif defined(BAD_RESERVED)
#define NAME "exact"
#else
#define NAME "malformed"
#endif

#if defined(BAD_NEWLINE)
#define SUMMARY "two\nlines, \"injected\""
#elif defined(QUOTED)
#define SUMMARY "says \"hello\", then more"
#else
#define SUMMARY "refused"
#endif

static const vb_integrator entry = {
    .name = NAME, .summary = SUMMARY, .order = 2, .flags = 0, .state_size = state_size,
    .start = start,
#ifndef BAD_NOSTEP
    .step = step,
#endif
    .observe = observe, .reverse = reverse,
};
#ifdef BAD_TWICE
static const vb_integrator *const table[] = {&entry, &entry};
#else
static const vb_integrator *const table[] = {&entry};
#endif

#if defined(BAD_MODEL_TAKEN) || defined(BAD_MODEL_DIM)
static void *create(const double *p, char *err, size_t errlen)
{
    (void)p, (void)err, (void)errlen;
    return (void *)1;
}
static void destroy(void *self) { (void)self; }
static size_t particles(const void *self)
{
    (void)self;
    return 1;
}
static void initial(const void *self, double *x, double *v)
{
    (void)self;
    x[0] = 1.0;
    v[0] = 0.0;
}
static void accel(const void *self, double t, const double *x, const double *v, double *a)
{
    (void)self, (void)t, (void)v;
    a[0] = -x[0];
}
static double natural_time(const void *self)
{
    (void)self;
    return 1.0;
}
static const vb_model_type model = {
#ifdef BAD_MODEL_TAKEN
    .name = "spring", .dim = 1,
#else
    .name = "hyper", .dim = 4,
#endif
    .summary = "refused", .create = create, .destroy = destroy, .particles = particles,
    .initial = initial, .accel = accel, .natural_time = natural_time,
};
static const vb_model_type *const models[] = {&model};
#define N_MODELS 1
#define MODELS models
#else
#define N_MODELS 0
#define MODELS NULL
#endif

const vb_plugin verletbench_plugin = {
#ifdef BAD_ABI
    99,
#else
    VB_ABI_VERSION,
#endif
#ifdef BAD_COUNT
    0,
#else
    sizeof table / sizeof table[0],
#endif
    table,
    N_MODELS,
    MODELS,
};
