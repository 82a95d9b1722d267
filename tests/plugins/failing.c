/* failing.c — a plugin whose code ends the process it runs in, in the ways
 * library code does (-DFAIL=...), to test that verletbench keeps its runs
 * apart (isolate.h): the runs the failing code is part of fail, with the
 * reason, and every other result is what it would have been.
 *
 *   fragile  velocity Verlet that, on a step shorter than FAIL_BELOW
 *            (0.07: the finest of the test's step sizes 0.2, 0.1, 0.05),
 *            does FAIL:
 *              EXIT     exit(0), as some libraries' error paths do
 *              QUICK    _exit(0), which runs no atexit handler
 *              CRASH    raise(SIGSEGV), a wild pointer
 *              ABORT    abort(), a failed assertion
 *              HANG     loops for ever
 *              FORK     nothing but fork, once a process, a child that
 *                       outlives the step (as a library's helper may):
 *                       it holds the worker's stdout for 20 s, then
 *                       makes the file $VB_TEST_OUTLIVED (if set)
 *              GOOD     nothing: the same plugin, well behaved
 *   steady   the same velocity Verlet, never failing: its results must
 *            be the same bytes beside a failing fragile as beside a good one.
 *   brittle  a model, the spring x'' = -x, whose force does FAIL after
 *            t = 3: every run on it fails, and the other cases stand.
 * With -DLOAD_EXIT the plugin calls _exit(0) when it is loaded (a
 * constructor): no command may then exit 0 as if it had done its work. */
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <verletbench.h>

#define GOOD 0
#define EXIT 1
#define QUICK 2
#define CRASH 3
#define ABORT 4
#define HANG 5
#define FORK 6
#ifndef FAIL
#define FAIL GOOD
#endif
#define FAIL_BELOW 0.07
#define MAXN 8

#ifdef LOAD_EXIT
__attribute__((constructor)) static void die_on_load(void) { _exit(0); }
#endif

typedef struct {
    double x[MAXN], v[MAXN], a[MAXN];
    unsigned dim;
} vv_state;

static size_t size_of_state(size_t n)
{
    (void)n;
    return sizeof(vv_state);
}

static void start(void *st, vb_force *f, double t, const double *x, const double *v, double h)
{
    vv_state *s = st;
    (void)h;
    s->dim = (unsigned)f->n;
    memcpy(s->x, x, f->n * sizeof *x);
    memcpy(s->v, v, f->n * sizeof *v);
    vb_force_eval(f, t, s->x, s->v, s->a);
}

static void steady_step(void *st, vb_force *f, double t, double h)
{
    vv_state *s = st;
    double anew[MAXN];
    for (unsigned i = 0; i < s->dim; i++)
        s->x[i] = s->x[i] + h * s->v[i] + 0.5 * h * h * s->a[i];
    vb_force_eval(f, t + h, s->x, s->v, anew);
    for (unsigned i = 0; i < s->dim; i++) {
        s->v[i] = s->v[i] + 0.5 * h * (s->a[i] + anew[i]);
        s->a[i] = anew[i];
    }
}

static void fail(void)
{
#if FAIL == EXIT
    exit(0);
#elif FAIL == QUICK
    _exit(0);
#elif FAIL == CRASH
    raise(SIGSEGV);
#elif FAIL == ABORT
    abort();
#elif FAIL == HANG
    for (;;)
        pause();
#elif FAIL == FORK
    static int forked;
    if (!forked) {
        forked = 1;
        if (fork() == 0) {
            sleep(20);
            const char *mark = getenv("VB_TEST_OUTLIVED");
            if (mark)
                close(creat(mark, 0644));
            _exit(0);
        }
    }
#endif
}

static void fragile_step(void *st, vb_force *f, double t, double h)
{
    if (h < FAIL_BELOW)
        fail();
    steady_step(st, f, t, h);
}

static void observe(const void *st, double *x, double *v)
{
    const vv_state *s = st;
    memcpy(x, s->x, s->dim * sizeof *x);
    memcpy(v, s->v, s->dim * sizeof *v);
}

static void reverse(void *st)
{
    vv_state *s = st;
    for (unsigned i = 0; i < s->dim; i++)
        s->v[i] = -s->v[i];
}

static const vb_integrator fragile = {
    .name = "fragile", .summary = "velocity Verlet that fails on short steps", .order = 2,
    .flags = VB_SYMPLECTIC, .state_size = size_of_state, .start = start,
    .step = fragile_step, .observe = observe, .reverse = reverse,
};
static const vb_integrator steady = {
    .name = "steady", .summary = "velocity Verlet", .order = 2, .flags = VB_SYMPLECTIC,
    .state_size = size_of_state, .start = start, .step = steady_step, .observe = observe,
    .reverse = reverse,
};

static const vb_integrator *const all[] = {&fragile, &steady};

/* brittle: the spring x'' = -x, exact solution cos t, whose force does
 * FAIL after t = 3: every run of it reaches there (t_end 6) */
static void *create(const double *p, char *err, size_t errlen)
{
    (void)p, (void)err, (void)errlen;
    static int self;
    return &self;
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
    (void)self, (void)v;
    if (t > 3.0)
        fail();
    a[0] = -x[0];
}
static int exact(const void *self, void *work, double t, double *x, double *v)
{
    (void)self, (void)work;
    x[0] = cos(t);
    v[0] = -sin(t);
    return 0;
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
static const vb_model_type brittle = {
    .name = "brittle", .summary = "a spring whose force fails after t = 3", .dim = 1,
    .params = NULL, .n_params = 0, .flags = VB_PERIODIC, .create = create, .destroy = destroy,
    .particles = particles, .initial = initial, .accel = accel, .exact = exact,
    .energy = energy, .natural_time = natural_time,
};
static const vb_model_type *const models[] = {&brittle};

const vb_plugin verletbench_plugin = {VB_ABI_VERSION, 2, all, 1, models};
