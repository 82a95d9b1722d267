/* models/chain.c — a chain of N equal masses joined by N + 1 equal springs,
 * its ends fixed: a rope or a strand of cloth, moving along its length (or,
 * small displacements, across it).  Released from rest from a pluck, a
 * triangle of height `amp` at a third of its length.
 *
 *     m x_i'' = k (x_{i-1} - 2 x_i + x_{i+1}),   x_0 = x_{N+1} = 0
 *
 * Exact through its normal modes: the matrix (k/m) tridiag(-1, 2, -1) is
 * diagonalised with GSL (gsl_eigen_symmv) once, at set-up; each mode j swings
 * at its own frequency w_j with amplitude and phase from the start, and
 * x(t) is their sum.  (The modes are also known in closed form,
 * sin(i j pi/(N+1)) at w_j = 2 sqrt(k/m) sin(j pi/(2(N+1))): the tests hold
 * GSL's to them.)  That sum over N modes for each of N masses is a sine
 * transform: where it pays it is taken as GSL's real FFT of the odd
 * sequence of length 2(N+1), O(N log N) a time, not O(N^2) (each GSL mode
 * is sqrt(2/(N+1)) times the closed form, up to a sign read once at
 * set-up); elsewhere, as the plain sum.  The
 * frequencies are not commensurate, so the motion is not periodic; its
 * natural time is the slowest mode's period. */
#include "model.h"

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fft_real.h>
#include <gsl/gsl_matrix.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    size_t n;
    double k, m, amp, w2;
    double *x0;    /* the pluck */
    double *phi;   /* phi[j * n + i]: mode j at mass i (orthonormal) */
    double *w;     /* w[j] */
    double *a, *b; /* x(t) = sum_j phi_j (a_j cos w_j t + b_j sin w_j t) */
    double *c;     /* phi_j = c_j sin(i j pi/(N+1)): sqrt(2/(N+1)) and GSL's sign */
    int fft;       /* the exact solution by the FFT (fft_pays) */
} chain;

/* Whether the FFT pays: GSL's mixed-radix FFT of length M costs about M
 * times the sum of M's prime factors (a large prime is a slow generic
 * pass), the plain sum N^2 mult-adds, and twice that is where the two
 * meet as `bench --model chain --modes sim` measured them (N = 64, M = 130
 * = 2 5 13: the plain sum is cheaper; N = 256, M = 2 257: ten times
 * cheaper; N = 512, M = 1026 = 2 3^3 19: the FFT, several times). */
static int fft_pays(size_t n)
{
    size_t m = 2 * (n + 1), rest = m, sum = 0;
    for (size_t p = 2; p * p <= rest; p++)
        while (rest % p == 0) {
            sum += p;
            rest /= p;
        }
    if (rest > 1)
        sum += rest;
    return 2 * m * sum < n * n;
}

/* an exact solution's scratch: the odd sequences of x and v, and GSL's
 * tables for their length 2(N+1) */
typedef struct {
    double *z;
    gsl_fft_real_wavetable *table;
    gsl_fft_real_workspace *space;
} chain_work;

static const vb_param_spec params[] = {
    /* at most 512: GSL's eigensolver takes O(N^3) at set-up (1.7 s for
     * 512, 20 s for 1024, minutes beyond) and the exact solution O(N^2) a
     * step */
    {"N", 8, 1, 512, 0, 0, "number of masses, a whole number 1..512", VB_PARAM_INTEGER},
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
    free(s->x0);
    free(s->phi);
    free(s->w);
    free(s->a);
    free(s->b);
    free(s->c);
    free(s);
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
    s->fft = fft_pays(n);
    s->x0 = malloc(n * sizeof *s->x0);
    s->phi = malloc(n * n * sizeof *s->phi);
    s->w = malloc(n * sizeof *s->w);
    s->a = malloc(n * sizeof *s->a);
    s->b = calloc(n, sizeof *s->b); /* from rest: no sine terms */
    s->c = malloc(n * sizeof *s->c);
    gsl_matrix *K = gsl_matrix_calloc(n, n), *V = gsl_matrix_alloc(n, n);
    gsl_vector *eval = gsl_vector_alloc(n);
    gsl_eigen_symmv_workspace *ws = gsl_eigen_symmv_alloc(n);
    int ok = s->x0 && s->phi && s->w && s->a && s->b && s->c && K && V && eval && ws;
    if (ok) {
        /* the pluck: a triangle, zero at the walls, amp at mass p */
        size_t peak = (n + 1) / 3 > 0 ? (n + 1) / 3 : 1;
        for (size_t i = 1; i <= n; i++)
            s->x0[i - 1] = i <= peak ? s->amp * (double)i / (double)peak
                                     : s->amp * (double)(n + 1 - i) / (double)(n + 1 - peak);
        for (size_t i = 0; i < n; i++) {
            gsl_matrix_set(K, i, i, 2.0 * s->w2);
            if (i + 1 < n) {
                gsl_matrix_set(K, i, i + 1, -s->w2);
                gsl_matrix_set(K, i + 1, i, -s->w2);
            }
        }
        ok = gsl_eigen_symmv(K, eval, V, ws) == GSL_SUCCESS &&
             gsl_eigen_symmv_sort(eval, V, GSL_EIGEN_SORT_VAL_ASC) == GSL_SUCCESS;
    }
    if (ok)
        for (size_t j = 0; j < n; j++) {
            double lam = gsl_vector_get(eval, j);
            if (!(lam > 0.0)) {
                ok = 0;
                break;
            }
            s->w[j] = sqrt(lam);
            double proj = 0.0;
            for (size_t i = 0; i < n; i++) {
                s->phi[j * n + i] = gsl_matrix_get(V, i, j);
                proj += s->phi[j * n + i] * s->x0[i];
            }
            s->a[j] = proj;
            /* the sign GSL gave mode j: read where the closed form is
             * largest, sin(i (j+1) pi/(N+1)) at i nearest (N+1)/(2(j+1)) */
            size_t i = (n + 1) / (2 * (j + 1));
            i = i < 1 ? 1 : i;
            double closed = sin((double)i * (double)(j + 1) * M_PI / (double)(n + 1));
            s->c[j] = (s->phi[j * n + i - 1] * closed >= 0.0 ? 1.0 : -1.0) *
                      sqrt(2.0 / (double)(n + 1));
        }
    if (ws)
        gsl_eigen_symmv_free(ws);
    if (eval)
        gsl_vector_free(eval);
    if (V)
        gsl_matrix_free(V);
    if (K)
        gsl_matrix_free(K);
    if (!ok) {
        snprintf(err, errlen, "N = %zu: the normal modes could not be computed", n);
        destroy(s);
        return NULL;
    }
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

static void work_free(void *work)
{
    chain_work *w = work;
    if (!w)
        return;
    if (w->table)
        gsl_fft_real_wavetable_free(w->table);
    if (w->space)
        gsl_fft_real_workspace_free(w->space);
    free(w->z);
    free(w);
}

static void *work_alloc(const void *self)
{
    const chain *s = self;
    size_t len = 2 * (s->n + 1);
    chain_work *w = calloc(1, sizeof *w);
    if (!w || !s->fft)
        return w; /* the plain sum needs no scratch */
    w->z = malloc(2 * len * sizeof *w->z);
    w->table = gsl_fft_real_wavetable_alloc(len);
    w->space = gsl_fft_real_workspace_alloc(len);
    if (!w->z || !w->table || !w->space) {
        work_free(w);
        return NULL;
    }
    return w;
}

/* out_i = sum_j y_j sin(i j pi/(N+1)), i, j = 1 .. N (y_j in z[j], its odd
 * extension made here): the real FFT of the odd sequence of length M =
 * 2(N+1) is -2i times that sum at frequency i, GSL's halfcomplex z[2i] */
static int sine_sum(const chain_work *w, size_t n, double *z, double *out)
{
    size_t len = 2 * (n + 1);
    z[0] = z[n + 1] = 0.0;
    for (size_t j = 1; j <= n; j++)
        z[len - j] = -z[j];
    if (gsl_fft_real_transform(z, 1, len, w->table, w->space) != GSL_SUCCESS)
        return -1;
    for (size_t i = 1; i <= n; i++)
        out[i - 1] = -0.5 * z[2 * i];
    return 0;
}

static int exact(const void *self, void *work, double t, double *x, double *v)
{
    const chain *s = self;
    chain_work *w = work;
    size_t n = s->n, len = 2 * (n + 1);
    if (!s->fft) {
        for (size_t i = 0; i < n; i++)
            x[i] = v[i] = 0.0;
        for (size_t j = 0; j < n; j++) {
            double c = cos(s->w[j] * t), sn = sin(s->w[j] * t);
            double q = s->a[j] * c + s->b[j] * sn, qd = s->w[j] * (s->b[j] * c - s->a[j] * sn);
            const double *phi = s->phi + j * n;
            for (size_t i = 0; i < n; i++) {
                x[i] += phi[i] * q;
                v[i] += phi[i] * qd;
            }
        }
        return 0;
    }
    double *zx = w->z, *zv = w->z + len;
    for (size_t j = 0; j < n; j++) {
        double c = cos(s->w[j] * t), sn = sin(s->w[j] * t);
        double q = s->a[j] * c + s->b[j] * sn, qd = s->w[j] * (s->b[j] * c - s->a[j] * sn);
        zx[j + 1] = s->c[j] * q;
        zv[j + 1] = s->c[j] * qd;
    }
    return sine_sum(w, n, zx, x) == 0 && sine_sum(w, n, zv, v) == 0 ? 0 : -1;
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
               "modes)",
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
