/* malformed.c — plugins verletbench must refuse (exit 2), one per -DBAD_...:
 * ABI another ABI version, COUNT an empty table, NOSTEP an entry without a
 * step function, TAKEN a built-in's name, RESERVED the name "exact",
 * NEWLINE a summary with a line break in it (it would break every table).
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
static const vb_integrator *const table[] = {&entry};

const vb_plugin verletbench_plugin = {
#ifdef BAD_ABI
    99,
#else
    VB_ABI_VERSION,
#endif
#ifdef BAD_COUNT
    0,
#else
    1,
#endif
    table,
    0,
    NULL,
};
