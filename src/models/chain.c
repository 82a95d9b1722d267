/* models/chain.c — a chain of N equal masses joined by N + 1 equal springs,
 * its ends fixed: a rope or a strand of cloth, moving along its length (or,
 * small displacements, across it).  Released from rest from a pluck, a
 * triangle of height `amp` at a third of its length.
 *
 *     m x_i'' = k (x_{i-1} - 2 x_i + x_{i+1}),   x_0 = x_{N+1} = 0
 *
 * Exact through its normal modes, known in closed form: mode j moves mass
 * i as sin(i j pi/(N+1)), at w_j = 2 sqrt(k/m) sin(j pi/(2(N+1))).  So
 *
 *     x_i(t) = sum_j a_j cos(w_j t) sin(i j pi/(N+1)),
 *     a_j = 2/(N+1) sum_i x_i(0) sin(i j pi/(N+1)),
 *
 * and every exact state is one sine transform of the N amplitudes (and one
 * of the velocities').  Set-up is O(N log N): no eigensolver.  (Before, GSL's
 * gsl_eigen_symmv took O(N^3): 1.7 s at N = 512, which capped N there.)
 *
 * Each call costs:
 *  - the phases cos w_j t, sin w_j t: by rotation from the last call's
 *    when the time moved by a step seen before (see advance()), else by
 *    libm (2N calls, about 5 us at N = 512);
 *  - the two sine transforms (x and v) as ONE complex FFT of the odd
 *    sequence of length M = 2(N+1), x in the real part, v in the imaginary,
 *    by FFTW (from N = 32; the plain sum below).  Measured on this machine,
 *    all in one process: at N = 512 (M = 2 3^3 19) GSL's two real FFTs 50
 *    us, FFTW's two RODFT00 (its DST-I) 9.5 us, GSL's complex FFT of M 10
 *    us and FFTW's 8.4; where M has a large prime factor GSL's mixed radix
 *    takes a generic O(M p) pass and FFTW stays O(M log M) (Rader): on a
 *    loaded machine, N = 256 (M = 2 257) 127 us against 20, N = 4092 (M =
 *    2 4093) 33 ms against 1.0 ms (and N = 512 there 21 us against 17).
 *    So FFTW's complex transform, the only one here that is
 *    O(N log N) for every N.  Its plans are deterministic: FFTW_ESTIMATE
 *    (no timing) and FFTW_NO_SIMD (the same codelets on every x86 CPU,
 *    whatever vector units it has).  A price paid for tables whose bytes
 *    do not depend on the processor: FFTW's SIMD codelets take 7.2 us
 *    here at N = 512 against 9.3, and 0.39 against 0.78 at N = 64.
 * The frequencies are not commensurate, so the motion is not periodic;
 * its natural time is the slowest mode's period. */
#include "model.h"

#include <fftw3.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* The largest N.  Set-up and every exact state are O(N log N), memory
 * O(N); what limits N is only how long a run takes: at N = 65536 (M = 2
 * 65537, a prime: Rader's algorithm) an exact state takes 9 ms, at N =
 * 65530 (M = 2 19 3449) 13 ms, so a `sim` of its default 1000 steps
 * takes 10 to 15 s. */
#define CHAIN_N_MAX 65536
/* The plain sum below this N: measured against FFTW's transform with its
 * packing, the plain sum is faster up to N = 24 or so (0.3 us against
 * 0.9), the FFT from N = 32 on (0.4 us against 1.3). */
#define CHAIN_FFT_FROM 32

typedef struct {
    size_t n;
    double k, m, amp, w2;
    double *x0;  /* the pluck */
    double *w;   /* w[j - 1] = w_j */
    double *a;   /* a[j - 1] = a_j */
    double w_max;
    /* velocities are packed with x in one FFT scaled by v_scale, a power
     * of two near 1/w_max, so both halves have the same size and neither
     * drowns the other's digits (exact: a power of two) */
    double v_scale;
    int fft;       /* the sine transform by the FFT (N >= CHAIN_FFT_FROM), else the plain sum */
    double *phi;   /* the plain sum: phi[(j - 1) n + i - 1] = sin(i j pi/(N+1)) */
    fftw_plan plan; /* the FFT of length M, out of place; run on each work's arrays */
} chain;

/* FFTW's planner is not thread-safe (its fftw_execute_dft is): the runs
 * of a sweep set models up on several threads */
static pthread_mutex_t planner = PTHREAD_MUTEX_INITIALIZER;

/* Rotations by steps seen before: a few, as the differences of the times
 * a fixed plan asks for, t_n = n h rounded to the grid of t's binade, take
 * a few values in each binade (14 in all over the 5200 steps of
 * chain-64 at its finest, 13 of them more than once). */
#define CHAIN_STEPS 4

/* a rotation by d: cos(w_j d) - 1 (as -2 sin^2(w_j d/2), to keep its
 * digits) and sin(w_j d) */
typedef struct {
    double d;
    double *cm1, *sn;
} chain_step;

/* one run's scratch: the phases and the rotations, and the FFT's */
typedef struct {
    double *z;   /* the FFT's input, M complex; the plain sum's coefficients */
    double *out; /* the FFT's output, M complex (fftw_malloc, as z) */
    /* cos w_j t = ch + cl, sin w_j t = sh + sl: each a double-double, so
     * that a rotation's rounding is relative to its increment */
    double *ch, *cl, *sh, *sl;
    int have;        /* the phases hold t_prev */
    double t_prev;   /* the last time asked for */
    double t_anchor; /* the last time the phases were computed by libm */
    double path;     /* the sum of |d| rotated since t_anchor */
    double miss;     /* the last step not in steps[]: a second sight adds it */
    chain_step steps[CHAIN_STEPS];
    unsigned next; /* the slot the next new step takes */
} chain_work;

static const vb_param_spec params[] = {
    {"N", 8, 1, CHAIN_N_MAX, 0, 0, "number of masses, a whole number 1..65536", VB_PARAM_INTEGER},
    {"k", 1.0, 0.0, INFINITY, 1, 0, "spring constant of each link, N/m", 0},
    {"m", 1.0, 0.0, INFINITY, 1, 0, "mass of each bead, kg", 0},
    {"amp", 0.1, -INFINITY, INFINITY, 0, 0, "height of the pluck at a third of the length, m",
     0},
};

static void destroy(void *self)
{
    chain *s = self;
    if (!s)
        return;
    if (s->plan) {
        pthread_mutex_lock(&planner);
        fftw_destroy_plan(s->plan);
        pthread_mutex_unlock(&planner);
    }
    free(s->x0);
    free(s->w);
    free(s->a);
    free(s->phi);
    free(s);
}

static void work_free(void *work)
{
    chain_work *w = work;
    if (!w)
        return;
    fftw_free(w->z);
    fftw_free(w->out);
    free(w->ch);
    for (int k = 0; k < CHAIN_STEPS; k++)
        free(w->steps[k].cm1);
    free(w);
}

static void *work_alloc(const void *self)
{
    const chain *s = self;
    size_t n = s->n, len = 2 * (n + 1);
    chain_work *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    /* fftw_malloc: aligned as FFTW wants its arrays */
    w->z = fftw_malloc(2 * len * sizeof *w->z);
    w->out = s->fft ? fftw_malloc(2 * len * sizeof *w->out) : NULL;
    w->ch = malloc(4 * n * sizeof *w->ch);
    int ok = w->z && w->ch && (!s->fft || w->out);
    for (int k = 0; k < CHAIN_STEPS && ok; k++) {
        ok = (w->steps[k].cm1 = malloc(2 * n * sizeof *w->steps[k].cm1)) != NULL;
        if (ok)
            w->steps[k].sn = w->steps[k].cm1 + n;
        w->steps[k].d = NAN;
    }
    if (!ok) {
        work_free(w);
        return NULL;
    }
    w->cl = w->ch + n;
    w->sh = w->ch + 2 * n;
    w->sl = w->ch + 3 * n;
    w->miss = NAN;
    return w;
}

/* sx_i = sum_j yx_j sin(i j pi/(N+1)), and the same for yv, i, j = 1 .. N;
 * yx_j, yv_j are read from z[2j], z[2j + 1].  By the FFT: the complex
 * sequence yx + i yv made odd (z_{M-j} = -z_j) has the DFT (FFTW_FORWARD,
 * exp(-2 pi i j k/M)) -2i (sx + i sv)_i = 2 sv_i - 2i sx_i at frequency i. */
static void sine_sums(const chain *s, chain_work *w, double *sx, double *sv)
{
    size_t n = s->n, len = 2 * (n + 1);
    double *z = w->z;
    if (!s->fft) {
        for (size_t i = 0; i < n; i++)
            sx[i] = sv[i] = 0.0;
        for (size_t j = 1; j <= n; j++) {
            const double *phi = s->phi + (j - 1) * n;
            double yx = z[2 * j], yv = z[2 * j + 1];
            for (size_t i = 0; i < n; i++) {
                sx[i] += phi[i] * yx;
                sv[i] += phi[i] * yv;
            }
        }
        return;
    }
    z[0] = z[1] = z[2 * (n + 1)] = z[2 * (n + 1) + 1] = 0.0;
    for (size_t j = 1; j <= n; j++) {
        z[2 * (len - j)] = -z[2 * j];
        z[2 * (len - j) + 1] = -z[2 * j + 1];
    }
    fftw_execute_dft(s->plan, (fftw_complex *)z, (fftw_complex *)w->out);
    const double *out = w->out;
    for (size_t i = 1; i <= n; i++) {
        sx[i - 1] = -0.5 * out[2 * i + 1];
        sv[i - 1] = 0.5 * out[2 * i];
    }
}

/* sin(r pi/(N+1)) for a whole r, from the smallest argument with the same
 * sine, so that the table is symmetric and exactly 0 at the nodes */
static double node_sine(size_t r, size_t n)
{
    size_t len = 2 * (n + 1), half = n + 1;
    r %= len;
    double sign = 1.0;
    if (r >= half) {
        r -= half;
        sign = -1.0;
    }
    if (2 * r > half)
        r = half - r;
    return sign * sin((double)r * M_PI / (double)half);
}

static void *create(const double *p, char *err, size_t errlen)
{
    chain *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    size_t n = (size_t)p[0];
    s->n = n;
    s->k = p[1];
    s->m = p[2];
    s->amp = p[3];
    s->w2 = s->k / s->m;
    s->fft = n >= CHAIN_FFT_FROM;
    s->x0 = malloc(n * sizeof *s->x0);
    s->w = malloc(n * sizeof *s->w);
    s->a = malloc(n * sizeof *s->a);
    int ok = s->x0 && s->w && s->a;
    if (ok && !s->fft && (ok = (s->phi = malloc(n * n * sizeof *s->phi)) != NULL))
        for (size_t j = 1; j <= n; j++)
            for (size_t i = 1; i <= n; i++)
                s->phi[(j - 1) * n + i - 1] = node_sine(i * j, n);
    chain_work *w = ok ? work_alloc(s) : NULL;
    if (w && s->fft) {
        /* planned on this work's arrays; FFTW_ESTIMATE does not touch them */
        pthread_mutex_lock(&planner);
        s->plan = fftw_plan_dft_1d((int)(2 * (n + 1)), (fftw_complex *)w->z,
                                   (fftw_complex *)w->out, FFTW_FORWARD,
                                   FFTW_ESTIMATE | FFTW_NO_SIMD);
        pthread_mutex_unlock(&planner);
        if (!s->plan) {
            work_free(w);
            w = NULL;
        }
    }
    if (!w) {
        snprintf(err, errlen, "out of memory (or no FFT plan) for a chain of %zu", n);
        destroy(s);
        return NULL;
    }
    /* the pluck: a triangle, zero at the walls, amp at mass p */
    size_t peak = (n + 1) / 3 > 0 ? (n + 1) / 3 : 1;
    for (size_t i = 1; i <= n; i++)
        s->x0[i - 1] = i <= peak ? s->amp * (double)i / (double)peak
                                 : s->amp * (double)(n + 1 - i) / (double)(n + 1 - peak);
    double w1 = sqrt(s->w2);
    for (size_t j = 1; j <= n; j++) {
        s->w[j - 1] = 2.0 * w1 * sin((double)j * M_PI / (2.0 * (double)(n + 1)));
        w->z[2 * j] = s->x0[j - 1];
        w->z[2 * j + 1] = 0.0;
    }
    s->w_max = s->w[n - 1];
    if (!(s->w[0] > 0.0 && isfinite(s->w_max))) {
        snprintf(err, errlen, "k/m = %g: the chain's frequencies are not finite positive numbers",
                 s->w2);
        work_free(w);
        destroy(s);
        return NULL;
    }
    s->v_scale = ldexp(1.0, -ilogb(s->w_max));
    /* the amplitudes: the sine transform is its own inverse up to
     * 2/(N+1) */
    sine_sums(s, w, s->a, w->ch);
    work_free(w);
    for (size_t j = 0; j < n; j++)
        s->a[j] *= 2.0 / (double)(n + 1);
    return s;
}

static size_t particles(const void *self) { return ((const chain *)self)->n; }

static void initial(const void *self, double *x, double *v)
{
    const chain *s = self;
    for (size_t i = 0; i < s->n; i++) {
        x[i] = s->x0[i];
        v[i] = 0.0;
    }
}

static void accel(const void *self, double t, const double *x, const double *v, double *a)
{
    (void)t;
    (void)v;
    const chain *s = self;
    size_t n = s->n;
    double w2 = s->w2;
    /* the walls (x = 0) outside the loop, so the loop has no branch and
     * vectorises: the same sums, in the same order, as with the walls in */
    if (n == 1) {
        a[0] = w2 * ((0.0 - x[0]) + (0.0 - x[0]));
        return;
    }
    /* each x read once, carried along in registers */
    double left = 0.0, mid = x[0];
    for (size_t i = 0; i + 1 < n; i++) {
        double right = x[i + 1];
        a[i] = w2 * ((left - mid) + (right - mid));
        left = mid;
        mid = right;
    }
    a[n - 1] = w2 * ((left - mid) + (0.0 - mid));
}

/* ---- the phases cos w_j t, sin w_j t ---------------------------------------
 *
 * By libm, each carries the rounding of the product w_j t, u w_j |t| (u =
 * 2^-53), and of cos and sin themselves, u: about u (w_j |t| + 1).
 *
 * By rotation from the last call's, when t - t_prev = d is exact and a
 * step seen before: (c, s) += (c, s) (cos w_j d - 1, sin w_j d), the
 * rotation matrix written as the identity plus a small part.  The sum is
 * error-free (TwoSum into the double-double), so a rotation's rounding is
 * relative to its increment phi = w_j |d|: the product w_j d (u phi),
 * sin (u phi), the increment's two products and sum (2 u phi (1 + phi)),
 * 4 u phi (1 + phi) <= 5 u phi for phi <= 1/4, and the same rounding of
 * w_j d as libm's of w_j t, step by step.  After rotations along a path of
 * length L = sum |d| from the anchor t_a, where libm set them, and the one
 * rounding of hi + lo:
 *
 *     rotated:  u (w_j |t_a| + 1) + 5 u w_j L + u
 *     by libm:  u (w_j |t| + 1),   |t| >= |t_a| - L
 *
 * The rotated bound is at most 3 times libm's when 8 w_j L <= 2 w_j |t_a|
 * + 1, i.e. L <= |t_a|/4 + 1/(8 w_j); for every mode when w_max stands
 * for w_j.  Past that the phases are anchored again by libm.  So steady
 * steps from t = 0 are anchored once in the first 1/(8 w_max) (0.06 s for
 * k = m = 1), then each time t has grown by a quarter: about
 * log(8 w_max T)/log(1.25) anchors up to T, a few dozen (34 for the
 * 64-mass chain over T/2 in steps of T/20800, against 10366 rotations).
 *
 * The result is a function of the sequence of times asked for, not of t
 * alone: the same sequence gives the same bits (each run has its own work;
 * the exact solution is never shared between runs, driver/truth.c).  A
 * step is added to steps[] only on its second sight, so that a random
 * plan, whose steps never repeat, costs no more than libm alone. */

/* a + b = s + e exactly (Knuth's TwoSum; round to nearest, no FMA
 * contraction: -ffp-contract=off) */
static inline double two_sum(double a, double b, double *e)
{
    double s = a + b, bb = s - a;
    *e = (a - (s - bb)) + (b - bb);
    return s;
}

static void anchor(const chain *s, chain_work *w, double t)
{
    for (size_t j = 0; j < s->n; j++) {
        w->ch[j] = cos(s->w[j] * t);
        w->sh[j] = sin(s->w[j] * t);
        w->cl[j] = w->sl[j] = 0.0;
    }
    w->t_anchor = t;
    w->path = 0.0;
}

static chain_step *step_for(const chain *s, chain_work *w, double d)
{
    for (int k = 0; k < CHAIN_STEPS; k++)
        if (w->steps[k].d == d)
            return &w->steps[k];
    if (!(d == w->miss)) {
        w->miss = d;
        return NULL;
    }
    chain_step *st = &w->steps[w->next];
    w->next = (w->next + 1) % CHAIN_STEPS;
    for (size_t j = 0; j < s->n; j++) {
        double phi = s->w[j] * d, h = sin(0.5 * phi);
        st->cm1[j] = -2.0 * h * h;
        st->sn[j] = sin(phi);
    }
    st->d = d;
    return st;
}

static void rotate(const chain *s, chain_work *w, const chain_step *st)
{
    const double *cm1 = st->cm1, *sn = st->sn;
    double *ch = w->ch, *cl = w->cl, *sh = w->sh, *sl = w->sl;
    for (size_t j = 0; j < s->n; j++) {
        double c = ch[j], sv = sh[j], e;
        double dc = (c * cm1[j] - sv * sn[j]) + (cl[j] * cm1[j] - sl[j] * sn[j]);
        double ds = (sv * cm1[j] + c * sn[j]) + (sl[j] * cm1[j] + cl[j] * sn[j]);
        ch[j] = two_sum(c, dc, &e);
        cl[j] += e;
        sh[j] = two_sum(sv, ds, &e);
        sl[j] += e;
    }
}

/* the phases at t: rotated (see above) or by libm */
static void advance(const chain *s, chain_work *w, double t)
{
    if (w->have && t == w->t_prev)
        return;
    double e = (double)NAN, d = w->have ? two_sum(t, -w->t_prev, &e) : (double)NAN;
    double reach = fabs(w->t_anchor) / 4.0 + 1.0 / (8.0 * s->w_max);
    chain_step *st = NULL;
    if (e == 0.0 && s->w_max * fabs(d) <= 0.25 && w->path + fabs(d) <= reach)
        st = step_for(s, w, d);
    if (st) {
        rotate(s, w, st);
        w->path += fabs(d);
    } else {
        anchor(s, w, t);
    }
    w->t_prev = t;
    w->have = 1;
}

static int exact(const void *self, void *work, double t, double *x, double *v)
{
    const chain *s = self;
    chain_work *w = work;
    size_t n = s->n;
    advance(s, w, t);
    /* x = sum_j a_j cos(w_j t) mode_j, v = -sum_j a_j w_j sin(w_j t) mode_j */
    double *z = w->z, vs = s->fft ? s->v_scale : 1.0;
    for (size_t j = 1; j <= n; j++) {
        double a = s->a[j - 1];
        z[2 * j] = a * (w->ch[j - 1] + w->cl[j - 1]);
        z[2 * j + 1] = -(a * s->w[j - 1]) * (w->sh[j - 1] + w->sl[j - 1]) * vs;
    }
    sine_sums(s, w, x, v);
    if (vs != 1.0)
        for (size_t i = 0; i < n; i++)
            v[i] /= vs; /* a power of two: exact */
    return 0;
}

/* kinetic plus the energy in every spring, the two to the walls included */
static double energy(const void *self, const double *x, const double *v)
{
    const chain *s = self;
    size_t n = s->n;
    double kin = 0.0, pot = 0.0;
    for (size_t i = 0; i < n; i++)
        kin += v[i] * v[i];
    for (size_t i = 0; i <= n; i++) {
        double left = i > 0 ? x[i - 1] : 0.0, right = i < n ? x[i] : 0.0;
        pot += (right - left) * (right - left);
    }
    return 0.5 * s->m * kin + 0.5 * s->k * pot;
}

static void masses(const void *self, double *m)
{
    const chain *s = self;
    for (size_t i = 0; i < s->n; i++)
        m[i] = s->m;
}

/* the period of the slowest mode */
static double natural_time(const void *self)
{
    const chain *s = self;
    return 2.0 * M_PI / s->w[0];
}

const vb_model_type vb_model_chain = {
    .name = "chain",
    .summary = "N masses joined by springs between fixed walls, plucked: a rope (exact by normal "
               "modes); energy kinetic + the springs', its potential zero with every mass at 0",
    .dim = 1,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .flags = 0,
    .create = create,
    .destroy = destroy,
    .particles = particles,
    .initial = initial,
    .accel = accel,
    .work_alloc = work_alloc,
    .work_free = work_free,
    .exact = exact,
    .energy = energy,
    .masses = masses,
    .natural_time = natural_time,
};
