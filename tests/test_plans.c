/* test_plans.c — step plans follow docs/method.md §1 to the bit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "precision.h"
#include "unit.h"

static size_t collect(const vb_plan_spec *spec, double *hs, double *ts, size_t cap)
{
    vb_plan p;
    size_t n = 0;
    double h, t;
    if (vb_plan_begin(&p, spec) != 0)
        exit(2);
    while (n < cap && vb_plan_next(&p, &h, &t)) {
        hs[n] = h;
        ts[n] = t;
        n++;
    }
    vb_plan_end(&p);
    return n;
}

static void test_fixed_plan_step_count(void)
{
    static const struct {
        double t_end, dt;
        size_t N;
    } cases[] = {
        {1.0, 0.1, 10},      /* 1/0.1 rounds to 10.000000000000002: the 1e-9 keeps it 10 */
        {1.0, 0.3, 4},       /* 3.33 -> 4 steps of 0.25 */
        {1.0, 1.0 / 3, 3},   /* 3.0000000000000004 -> 3 */
        {1.0, 5.0, 1},       /* a step longer than the run: one step */
        {6.283185307179586, 0.01, 629},
    };
    double hs[1000], ts[1000];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        vb_plan_spec s = {.kind = VB_PLAN_FIXED, .t_end = cases[i].t_end, .dt = cases[i].dt};
        size_t n = collect(&s, hs, ts, 1000);
        CHECK(n == cases[i].N, "t_end %g dt %g: %zu steps, want %zu", cases[i].t_end,
              cases[i].dt, n, cases[i].N);
        CHECK(ts[n - 1] == cases[i].t_end, "the last step lands on %.17g, not t_end", ts[n - 1]);
        for (size_t k = 0; k < n; k++)
            CHECK(hs[k] == cases[i].t_end / (double)cases[i].N, "step %zu is %.17g", k, hs[k]);
    }
}

/* MT19937 is pinned by its reference implementation (Matsumoto and
 * Nishimura, mt19937ar.c): seeded with init_genrand(5489) its first output
 * is 3499211612, its second 581869302.  GSL seeds the same way, and
 * gsl_rng_uniform is that output / 2^32; so the first two steps of a random
 * plan follow by hand, on every machine. */
static void test_random_plan_reference_steps(void)
{
    vb_plan_spec s = {.kind = VB_PLAN_RANDOM, .t_end = 10.0, .dt = 0.1, .jitter = 0.5,
                      .seed = 5489};
    double hs[200], ts[200];
    size_t n = collect(&s, hs, ts, 200);
    double u0 = 2.0 * (3499211612.0 / 4294967296.0) - 1.0;
    double u1 = 2.0 * (581869302.0 / 4294967296.0) - 1.0;
    CHECK(hs[0] == 0.1 * (1.0 + 0.5 * u0), "h0 = %.17g", hs[0]);
    CHECK(hs[1] == 0.1 * (1.0 + 0.5 * u1), "h1 = %.17g", hs[1]);
    CHECK(ts[n - 1] == 10.0, "the last step lands on %.17g", ts[n - 1]);
    double sum = 0.0;
    for (size_t k = 0; k < n; k++) {
        sum += hs[k];
        if (k + 1 < n)
            CHECK(hs[k] >= 0.05 && hs[k] < 0.15, "step %zu = %g outside dt(1 +- jitter)", k, hs[k]);
        else
            CHECK(hs[k] > 0.0 && hs[k] < 0.15, "the last step %g is not shortened", hs[k]);
    }
    CHECK_ABS(sum, 10.0, 1e-12, "the steps sum to t_end");
}

static void test_random_plan_is_reproducible(void)
{
    vb_plan_spec s = {.kind = VB_PLAN_RANDOM, .t_end = 5.0, .dt = 0.01, .jitter = 0.9, .seed = 42};
    static double h1[1000], h2[1000], t1[1000], t2[1000];
    size_t n1 = collect(&s, h1, t1, 1000), n2 = collect(&s, h2, t2, 1000);
    CHECK(n1 == n2 && memcmp(h1, h2, n1 * sizeof *h1) == 0, "same seed, different steps");
    s.seed = 43;
    n2 = collect(&s, h2, t2, 1000);
    CHECK(n1 != n2 || memcmp(h1, h2, n1 * sizeof *h1) != 0, "different seeds, same steps");
}

static char *write_temp(const char *text, size_t len)
{
    static char path[64];
    strcpy(path, "/tmp/vbtest-trace-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, text, len) != (ssize_t)len)
        exit(2);
    close(fd);
    return path;
}

static void test_trace_plan(void)
{
    const char text[] = "# a recorded frame-time trace\n0.016\n\n  0.017  # a slow frame\r\n0.033\n0.016\n";
    char *path = write_temp(text, sizeof text - 1);
    vb_trace tr;
    char err[512];
    CHECK(vb_trace_load(path, &tr, err, sizeof err) == 0, "load: %s", err);
    CHECK(tr.n == 4, "%zu steps, want 4", tr.n);
    double hs[10], ts[10];
    vb_plan_spec s = {.kind = VB_PLAN_TRACE, .t_end = 0.0, .trace = &tr};
    size_t n = collect(&s, hs, ts, 10);
    CHECK(n == 4 && ts[3] == tr.sum, "the whole trace: %zu steps to %.17g", n, ts[n - 1]);
    /* a t_end inside the trace cuts it, shortening the last step */
    s.t_end = 0.04;
    n = collect(&s, hs, ts, 10);
    CHECK(n == 3 && ts[2] == 0.04, "cut: %zu steps to %.17g", n, ts[n - 1]);
    CHECK_ABS(hs[2], 0.04 - 0.033, 1e-15, "the cut step");
    /* a t_end past the end of the trace is an error */
    s.t_end = 1.0;
    CHECK(vb_plan_check(&s, err, sizeof err) != 0, "a t_end past the trace was accepted");
    vb_trace_free(&tr);
    unlink(path);
}

static void trace_rejects(const char *text, size_t len, const char *want_line, const char *why)
{
    char *path = write_temp(text, len);
    vb_trace tr;
    char err[512];
    CHECK(vb_trace_load(path, &tr, err, sizeof err) != 0, "%s was accepted", why);
    char where[128];
    snprintf(where, sizeof where, "%s%s", path, want_line);
    CHECK(strstr(err, where) != NULL, "%s: message '%s' does not name '%s'", why, err, where);
    unlink(path);
}

static void test_trace_rejects_bad_input(void)
{
    trace_rejects("0.1\n0.2\n-0.1\n", 13, ":3:", "a negative step");
    trace_rejects("0.1\n0\n", 6, ":2:", "a zero step");
    trace_rejects("0.1\nabc\n", 8, ":2:", "a word");
    trace_rejects("0.1\nnan\n", 8, ":2:", "nan");
    trace_rejects("0.1\n1e999\n", 10, ":2:", "1e999");
    trace_rejects("0.1\n0.2 0.3\n", 12, ":2:", "two numbers on a line");
    trace_rejects("# only a comment\n\n", 18, ":", "an empty trace");
    trace_rejects("0.1\n\x7f" "ELF\0\0\n", 10, ":2:", "binary data");
}

/* The step limit counts a replayed trace's steps instead of bounding them by
 * its smallest step: a trace with one tiny step among 60 Hz frames, scaled
 * by 2^-5 over 100 s, takes ~190 000 steps, which its smallest step would
 * put at 1e8 (the sweep of the issue was refused as 1.37e9 for 1.6e6).
 * The count may exceed the steps taken by at most 2 (the running sum's
 * rounding); it must never fall short. */
static void test_trace_step_count(void)
{
    static double h[60];
    for (int i = 0; i < 60; i++)
        h[i] = 1.0 / 60.0;
    h[17] = 1e-6;
    vb_trace tr = {.h = h, .n = 60, .sum = 0.0};
    for (int i = 0; i < 60; i++)
        tr.sum += h[i];
    static const double scales[] = {1.0 / 32.0, 0.5, 0.3, 1.0};
    static const double ends[] = {100.0, 7.77, 0.5, 0.9};
    for (size_t k = 0; k < 4; k++) {
        vb_plan_spec s = {.kind = VB_PLAN_TRACE, .t_end = ends[k], .trace = &tr,
                          .trace_scale = scales[k]};
        vb_plan p;
        double hh, t;
        unsigned long long n = 0;
        CHECK(vb_plan_begin(&p, &s) == 0, "plan");
        while (vb_plan_next(&p, &hh, &t))
            n++;
        vb_plan_end(&p);
        double bound = vb_plan_max_steps(&s);
        CHECK(bound >= (double)n && bound <= (double)n + 2,
              "scale %g, t_end %g: %llu steps taken, the limit counts %.17g", scales[k], ends[k],
              n, bound);
    }
}

/* The rule of precision.h, against its own closed form: float32's round-off
 * admits a difference of up to 2 eps32 N scale that is at most a tenth of
 * the larger error, and no more; float64 keeps 16 eps N^1.5 scale and 1e-3. */
static void test_precision_rules(void)
{
    vb_precision p;
    CHECK(vb_precision_parse("float32", &p) == 0 && p == VB_FLOAT32, "float32 parses");
    CHECK(vb_precision_parse("float64", &p) == 0 && p == VB_FLOAT64, "float64 parses");
    CHECK(vb_precision_parse("half", &p) != 0, "half is refused");
    CHECK(vb_precision_eps(VB_FLOAT32) == 0x1p-23, "eps32 is 2^-23");
    CHECK(vb_precision_eps(VB_FLOAT64) == 0x1p-52, "eps64 is 2^-52");
    CHECK(vb_precision_coarser(VB_FLOAT64, VB_FLOAT32) == VB_FLOAT32, "coarser of 64, 32");
    CHECK(vb_roundoff_floor(VB_FLOAT32, 2.0) == 1e3 * 0x1p-23 * 2.0, "float32 floor");
    double n = 1000.0, scale = 1.0, limit = 2.0 * 0x1p-23 * n * scale; /* 2.38e-4 */
    double a = 1e-2;
    CHECK(vb_same_to_roundoff_in(VB_FLOAT32, a, a + 0.99 * limit, n, scale), "inside 2 eps32 N");
    CHECK(!vb_same_to_roundoff_in(VB_FLOAT32, a, a + 1.01 * limit, n, scale), "past 2 eps32 N");
    /* both under the absolute limit, but 2x apart: never the same */
    CHECK(!vb_same_to_roundoff_in(VB_FLOAT32, 1e-5, 2e-5, n, scale), "2x apart in float32");
    CHECK(!vb_same_to_roundoff_in(VB_FLOAT64, 1e-15, 2e-15, n, scale), "2x apart in float64");
    /* a difference float32 admits is far beyond float64's rule */
    CHECK(!vb_same_to_roundoff_in(VB_FLOAT64, a, a + 0.5 * limit, n, scale), "float64 is stricter");
    CHECK(!vb_same_to_roundoff_in(VB_FLOAT32, NAN, NAN, n, scale), "NaN is never the same");
    /* the signed witness: equal and opposite errors of the same norm are
     * not the same; a difference within the floor times 1.5 sqrt(n) is */
    double rms = 1e-3, f64 = 16.0 * 0x1p-52 * pow(n, 1.5) * scale; /* 1.1e-10 */
    CHECK(!vb_same_signed_in(VB_FLOAT64, rms, -rms, rms, rms, n, scale, 2), "mirror errors");
    CHECK(vb_same_signed_in(VB_FLOAT64, 0.0, 0.99 * 1.5 * sqrt(2.0) * 1e-3 * rms, rms, rms, n,
                            scale, 2), "within 1e-3 of the RMS error");
    CHECK(!vb_same_signed_in(VB_FLOAT64, 0.0, 1.01 * 1.5 * sqrt(2.0) * 1e-3 * rms, rms, rms, n,
                             scale, 2), "past 1e-3 of the RMS error");
    CHECK(vb_same_signed_in(VB_FLOAT64, 0.0, 0.99 * 1.5 * f64, 0.0, 0.0, n, scale, 1),
          "within the round-off floor when the errors vanish");
    CHECK(!vb_same_signed_in(VB_FLOAT64, 0.0, 1.01 * 1.5 * f64, 0.0, 0.0, n, scale, 1),
          "past the round-off floor");
    CHECK(!vb_same_signed_in(VB_FLOAT64, INFINITY, INFINITY, rms, rms, n, scale, 1),
          "an unfinished run is never the same");
}

void suite_plans(void)
{
    RUN(test_precision_rules);
    RUN(test_trace_step_count);
    RUN(test_fixed_plan_step_count);
    RUN(test_random_plan_reference_steps);
    RUN(test_random_plan_is_reproducible);
    RUN(test_trace_plan);
    RUN(test_trace_rejects_bad_input);
}
