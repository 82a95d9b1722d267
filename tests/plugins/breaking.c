/* breaking.c — a model plugin whose force stops being a number: a spring
 * (x'' = -x, no exact solution given, so the harness integrates a
 * reference) whose acceleration is NaN after t = `breaks`.  What it tests:
 * a run whose truth cannot be computed ends exact-failed, says where the
 * force failed, and does not take the other cases of a `run` down with it;
 * the charts of a case where nothing is finite are drawn empty, not failed.
 * With -DBAD_DEFAULT its parameter's default lies outside its own range,
 * which the loader must refuse. */
#include <math.h>
#include <stdlib.h>

#include <verletbench.h>

typedef struct {
    double breaks;
} breaking;

static const vb_param_spec params[] = {
#ifdef BAD_DEFAULT
    {"breaks", 0.5, 1.0, INFINITY, 0, 0, "the force is NaN after this time", 0},
#else
    {"breaks", 3.0, 0.0, INFINITY, 0, 0, "the force is NaN after this time", 0},
#endif
};

static void *create(const double *p, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    breaking *s = malloc(sizeof *s);
    if (s)
        s->breaks = p[0];
    return s;
}
static void destroy(void *self) { free(self); }
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
    (void)v;
    const breaking *s = self;
    a[0] = t > s->breaks ? NAN : -x[0];
}
static double energy(const void *self, const double *x, const double *v)
{
    (void)self;
    return 0.5 * (v[0] * v[0] + x[0] * x[0]);
}
static double natural_time(const void *self)
{
    (void)self;
    return 6.283185307179586;
}

static const vb_model_type model = {
    .name = "breaking", .summary = "a spring whose force is NaN after t = breaks", .dim = 1,
    .params = params, .n_params = 1, .flags = 0, .create = create, .destroy = destroy,
    .particles = particles, .initial = initial, .accel = accel, .exact = NULL,
    .energy = energy, .natural_time = natural_time,
};
static const vb_model_type *const models[] = {&model};

const vb_plugin verletbench_plugin = {VB_ABI_VERSION, 0, NULL, 1, models};
