/* rigidcontact/solver_regularized.c — regularized: MuJoCo's soft convex
 * contact (mujoco 3.12.0, src/engine/), where every contact row is a
 * regularized constraint and friction holds by a force that grows with
 * the velocity: creep is its nature (its closed form below).
 *
 *   contacts (engine_collision_primitive.c): a sphere touches at distance
 *     dist = n.c - offset - R <= margin, its contact point the midpoint
 *     c - (R + dist/2) n (28-49); a box at each corner pointing down with
 *     dist <= margin, at most 4, the point corner - (dist/2) n (210-251);
 *     margin 0.
 *   rows (engine_core_constraint.c): pyramidal (the default cone,
 *     engine_init.c:92): 4 edges J_n +- mu J_tj, each force >= 0,
 *     all with pos = dist (1676-1693); elliptic: n, t1, t2 with
 *     |f_t| <= mu f_n (1696-1708).
 *   impedance (2099-2147): imp(dist) from solimp (dmin, dmax, width,
 *     mid, power): x = |dist|/width, y = a x^p below mid, 1 - b (1-x)^p
 *     above, imp = dmin + y (dmax - dmin), dmax past width.
 *   R, K, B (2151-2264): diagA = tran (elliptic) or tran (1 + mu^2)
 *     (pyramidal) with tran = 1/m (mj_diagApprox, 1940-1966; body_invweight0
 *     of a free body, engine_setconst.c:919-934); R = (1 - imp)/imp diagA;
 *     K = 1/(dmax^2 timeconst^2 dampratio^2), B = 2/(dmax timeconst)
 *     (direct solref <= 0: K = -solref0/dmax^2, B = -solref1/dmax); K = 0
 *     in elliptic friction rows; R_friction = R/impratio, mu_reg =
 *     mu sqrt(R_f/R) (2222-2226); pyramidal rows all R = 2 mu_reg^2 R
 *     (2239-2248).  refsafe: timeconst >= 2 h (getsolparam, 2026-2029).
 *   aref = -B J v - K imp (dist - margin)  (mj_referenceConstraint,
 *     3244-3267), with v the velocity at the step's start.
 *   The constraint forces minimize, over the acceleration a, the convex
 *     1/2 (a - a0)' M (a - a0) + sum s(J a - aref)
 *   (mj_constraintUpdate_impl, 3275-3466): a pyramidal row's s is
 *   1/2 D jar^2 where jar < 0, else 0 (D = 1/R); an elliptic contact's is
 *   0 in the cone's dual (top), 1/2 sum D jar^2 inside the cone
 *   (bottom), 1/2 Dm (N - mu T)^2 between, N = mu_reg jar_n,
 *   T = |mu jar_t|, Dm = D_n / (mu_reg^2 (1 + mu_reg^2)).  MuJoCo's
 *   default solver is Newton's (engine_init.c:94); so is this one, with an
 *   exact line search, to round-off: the minimum is unique.
 *   Then semi-implicit Euler, v += h a, x += h v (mjINT_EULER): composed
 *   with the method, the impulse h M (a - a0) applied before its step.
 *   Defaults: solref (0.02, 1), solimp (0.9, 0.95, 0.001, 0.5, 2)
 *   (engine_init.c:32-45), impratio 1 (:59), the pyramidal cone (:92),
 *   noslip_iterations 0 (:97, and not here). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bodyops.h"
#include "contacts.h"
#include "quaternion.h"

#define MJ_MINIMP 0.0001 /* mjmodel.h:27-28 */
#define MJ_MAXIMP 0.9999
#define MJ_MINVAL 1e-15  /* mjtnum.h */
#define MAX_ROWS (4 * 4)

static void defaults(vb_solver_params *p)
{
    p->solref[0] = 0.02;
    p->solref[1] = 1.0;
    p->solimp[0] = 0.9;
    p->solimp[1] = 0.95;
    p->solimp[2] = 0.001;
    p->solimp[3] = 0.5;
    p->solimp[4] = 2.0;
    p->impratio = 1.0;
    p->cone = VB_CONE_PYRAMIDAL;
    p->refsafe = 1;
    p->margin = 0.0;
}

/* getimpedance: the impedance at a distance pos (margin 0) */
static double impedance(const double *solimp, double pos)
{
    double dmin = fmin(MJ_MAXIMP, fmax(MJ_MINIMP, solimp[0]));
    double dmax = fmin(MJ_MAXIMP, fmax(MJ_MINIMP, solimp[1]));
    double width = fmax(0.0, solimp[2]), mid = fmin(MJ_MAXIMP, fmax(MJ_MINIMP, solimp[3]));
    double power = fmax(1.0, solimp[4]);
    if (dmin == dmax || width <= MJ_MINVAL)
        return 0.5 * (dmin + dmax);
    double x = fabs(pos) / width;
    if (x >= 1.0 || x <= 0.0)
        return x >= 1.0 ? dmax : dmin;
    double y;
    if (power == 1.0)
        y = x;
    else if (x <= mid)
        y = pow(x, power) / pow(mid, power - 1.0);
    else
        y = 1.0 - pow(1.0 - x, power) / pow(1.0 - mid, power - 1.0);
    return dmin + y * (dmax - dmin);
}

/* K and B of a contact row at step h */
static void stiffness(const vb_solver_params *p, double h, double *K, double *B)
{
    double dmax = fmin(MJ_MAXIMP, fmax(MJ_MINIMP, p->solimp[1]));
    double tc = p->solref[0], dr = p->solref[1];
    if (tc > 0.0) {
        if (p->refsafe)
            tc = fmax(tc, 2.0 * h);
        *K = 1.0 / fmax(MJ_MINVAL, dmax * dmax * tc * tc * dr * dr);
        *B = 2.0 / fmax(MJ_MINVAL, dmax * tc);
    } else {
        *K = -tc / fmax(MJ_MINVAL, dmax * dmax);
        *B = -dr / fmax(MJ_MINVAL, dmax);
    }
}

/* A row on body a's acceleration and, for a contact of two bodies, on
 * b's (b < 0: the ground, static): J = (u, ra x u) on a, -(u, rb x u) on b. */
typedef struct reg_row {
    int a, b;
    double J[12];  /* on (a_a, alpha_a), then on (a_b, alpha_b) */
    double D, aref;
} reg_row;

/* The problem over the accelerations of nb bodies, 6 nb unknowns (a body's
 * linear, then angular): one body's is MuJoCo's of a free body on the
 * ground, several bodies' that of a world of free bodies, M block diagonal
 * (each body's own free joint) and the rows coupling a contact's two. */
typedef struct reg_problem {
    int nrows, elliptic, nb;
    reg_row *row;
    double mu_reg, mu; /* elliptic */
    double *m, *I, *a0; /* nb masses, 9 nb world inertias, 6 nb */
} reg_problem;

static double row_jar(const reg_row *r, const double *a)
{
    double s = -r->aref;
    for (int i = 0; i < 6; i++)
        s += r->J[i] * a[6 * r->a + i];
    if (r->b >= 0)
        for (int i = 0; i < 6; i++)
            s += r->J[6 + i] * a[6 * r->b + i];
    return s;
}

/* M x for x = (linear, angular) of each body: m x_l, I x_a */
static void mass_times(const reg_problem *P, const double *x, double *out)
{
    for (int k = 0; k < P->nb; k++) {
        for (int i = 0; i < 3; i++)
            out[6 * k + i] = P->m[k] * x[6 * k + i];
        vb_mat3_vec(P->I + 9 * k, x + 6 * k + 3, out + 6 * k + 3);
    }
}

/* g J_j added to G, over the bodies row j moves */
static void add_grad(const reg_row *rj, double g, double *G)
{
    for (int i = 0; i < 6; i++)
        G[6 * rj->a + i] += g * rj->J[i];
    if (rj->b >= 0)
        for (int i = 0; i < 6; i++)
            G[6 * rj->b + i] += g * rj->J[6 + i];
}

/* h J_j' J_k added to H (n x n), over the bodies rows j and k move */
static void add_hess(const reg_row *rj, const reg_row *rk, double hjk, double *H, int n)
{
    int bj[2] = {rj->a, rj->b}, bk[2] = {rk->a, rk->b};
    for (int x = 0; x < 2; x++)
        for (int y = 0; y < 2; y++) {
            if (bj[x] < 0 || bk[y] < 0)
                continue;
            const double *Jj = rj->J + 6 * x, *Jk = rk->J + 6 * y;
            for (int i = 0; i < 6; i++)
                for (int l = 0; l < 6; l++)
                    H[n * (6 * bj[x] + i) + 6 * bk[y] + l] += hjk * Jj[i] * Jk[l];
        }
}

/* a contact's rows' cost at jar, their gradient g and Hessian hh in jar */
static double rows_cost(const reg_problem *P, int base, const double jar[3], double g[3],
                        double hh[9])
{
    double c = 0.0;
    if (!P->elliptic) {
        if (jar[0] < 0.0) {
            c += 0.5 * P->row[base].D * jar[0] * jar[0];
            g[0] = P->row[base].D * jar[0];
            hh[0] = P->row[base].D;
        }
        return c;
    }
    double mu = P->mu_reg, fr = P->mu;
    double N = jar[0] * mu, U[2] = {jar[1] * fr, jar[2] * fr};
    double T = sqrt(U[0] * U[0] + U[1] * U[1]);
    if (N >= mu * T || (T <= 0.0 && N >= 0.0)) {
        /* top: no force */
    } else if (mu * N + T <= 0.0 || (T <= 0.0 && N < 0.0)) {
        for (int j = 0; j < 3; j++) {
            c += 0.5 * P->row[base + j].D * jar[j] * jar[j];
            g[j] = P->row[base + j].D * jar[j];
            hh[4 * j] = P->row[base + j].D;
        }
    } else {
        double Dm = P->row[base].D / (mu * mu * (1.0 + mu * mu)), NmT = N - mu * T;
        c += 0.5 * Dm * NmT * NmT;
        g[0] = Dm * NmT * mu;
        for (int j = 1; j < 3; j++)
            g[j] = -Dm * NmT * mu * U[j - 1] * fr / T;
        double scl[3] = {mu, fr, fr};
        hh[0] = 1.0;
        for (int j = 1; j < 3; j++)
            hh[j] = hh[3 * j] = -mu / T * U[j - 1];
        for (int k = 1; k < 3; k++)
            for (int j = 1; j < 3; j++)
                hh[3 * k + j] = mu * N / (T * T * T) * U[j - 1] * U[k - 1] +
                                (j == k ? mu * mu - mu * N / T : 0.0);
        for (int k = 0; k < 3; k++)
            for (int j = 0; j < 3; j++)
                hh[3 * k + j] *= Dm * scl[k] * scl[j];
    }
    return c;
}

/* the cost at a; its gradient and Hessian when asked (da, Mda: scratch of
 * 6 nb) */
static double cost(const reg_problem *P, const double *a, double *G, double *H, double *da,
                   double *Mda)
{
    int n = 6 * P->nb;
    for (int i = 0; i < n; i++)
        da[i] = a[i] - P->a0[i];
    mass_times(P, da, Mda);
    double c = 0.0;
    for (int i = 0; i < n; i++)
        c += 0.5 * da[i] * Mda[i];
    if (G)
        memcpy(G, Mda, (size_t)n * sizeof *G);
    if (H) {
        memset(H, 0, (size_t)n * (size_t)n * sizeof *H);
        for (int k = 0; k < P->nb; k++)
            for (int i = 0; i < 3; i++) {
                H[(n + 1) * (6 * k + i)] = P->m[k];
                for (int j = 0; j < 3; j++)
                    H[n * (6 * k + 3 + i) + 6 * k + 3 + j] = P->I[9 * k + 3 * i + j];
            }
    }
    /* rows' contributions: g (d cost / d jar) and h (its Hessian in jar) */
    for (int base = 0; base < P->nrows; base += P->elliptic ? 3 : 1) {
        int dim = P->elliptic ? 3 : 1;
        double jar[3], g[3] = {0, 0, 0}, hh[9] = {0};
        for (int j = 0; j < dim; j++)
            jar[j] = row_jar(&P->row[base + j], a);
        c += rows_cost(P, base, jar, g, hh);
        for (int j = 0; j < dim; j++) {
            if (G)
                add_grad(&P->row[base + j], g[j], G);
            if (H)
                for (int k = 0; k < dim; k++) {
                    double hjk = hh[3 * j + k];
                    if (hjk != 0.0)
                        add_hess(&P->row[base + j], &P->row[base + k], hjk, H, n);
                }
        }
    }
    return c;
}

/* The half-bandwidth of H: a body's own 6 x 6 block, and a row of two
 * bodies a, b couples their blocks, 6 |a - b| apart; entries farther from
 * the diagonal are exact zeros (cost() writes nothing there).  A standing
 * stack's rows join neighbours only: 11, where H is 6 nb wide. */
static int half_band(const reg_problem *P)
{
    int gap = 0;
    for (int j = 0; j < P->nrows; j++)
        if (P->row[j].b >= 0 && abs(P->row[j].a - P->row[j].b) > gap)
            gap = abs(P->row[j].a - P->row[j].b);
    return 6 * (gap + 1) - 1;
}

/* H x = b (n x n) by Gaussian elimination with partial pivoting (H is
 * symmetric positive definite: M is); A scratch of n (n + 1).  H is
 * banded (half-bandwidth kb: half_band), and the elimination skips what
 * is zero by the band alone: below it no row has a non-zero in the
 * pivot's column, so none can be the pivot (|0| > |pivot| never holds)
 * and each would be changed by 0 * (the pivot row); a swap within the
 * band moves non-zeros at most 2 kb right of the diagonal (banded LU with
 * partial pivoting); beyond that the pivot row holds zeros, so the
 * updates there and the back substitution's terms there subtract 0.  The
 * operations skipped change no value (a zero's sign at most), and the
 * ones done are the dense elimination's in its order: the same bits, in
 * O(n kb^2) where the dense one is O(n^3) (5.0 CPU-s for stack-tall's
 * twenty boxes, 120 unknowns: issue 55). */
static void solve_n(const double *H, const double *b, double *x, int n, int kb, double *A)
{
    int w = n + 1;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            A[w * i + j] = H[n * i + j];
        A[w * i + n] = b[i];
    }
    for (int c = 0; c < n; c++) {
        int piv = c, rows = c + kb < n - 1 ? c + kb : n - 1;
        int cols = c + 2 * kb < n - 1 ? c + 2 * kb : n - 1;
        for (int r = c + 1; r <= rows; r++)
            if (fabs(A[w * r + c]) > fabs(A[w * piv + c]))
                piv = r;
        for (int j = 0; j < w; j++) {
            double t = A[w * c + j];
            A[w * c + j] = A[w * piv + j];
            A[w * piv + j] = t;
        }
        for (int r = c + 1; r <= rows; r++) {
            double f = A[w * r + c] / A[w * c + c];
            for (int j = c; j <= cols; j++)
                A[w * r + j] -= f * A[w * c + j];
            A[w * r + n] -= f * A[w * c + n];
        }
    }
    for (int i = n - 1; i >= 0; i--) {
        double s = A[w * i + n];
        int cols = i + 2 * kb < n - 1 ? i + 2 * kb : n - 1;
        for (int j = i + 1; j <= cols; j++)
            s -= A[w * i + j] * x[j];
        x[i] = s / A[w * i + i];
    }
}

/* scratch of a minimisation over n = 6 nb unknowns */
typedef struct reg_scratch {
    double *G, *H, *d, *mG, *Ma0, *at, *da, *Mda, *A;
} reg_scratch;

/* the slope of the cost along d at a + t d */
static double slope(const reg_problem *P, const double *a, const double *d, double t,
                    reg_scratch *w)
{
    int n = 6 * P->nb;
    double *G = w->mG + n; /* mG's second half: not in use during the search */
    for (int i = 0; i < n; i++)
        w->at[i] = a[i] + t * d[i];
    cost(P, w->at, G, NULL, w->da, w->Mda);
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += G[i] * d[i];
    return s;
}

/* Newton's method with an exact line search (bisection on the slope,
 * which is continuous and increasing: the cost is convex and C1).
 * -1: out of memory. */
static int minimise(const reg_problem *P, double *a)
{
    int n = 6 * P->nb;
    size_t un = (size_t)n;
    double *mem = malloc((9 * un + un * un + un * (un + 1)) * sizeof *mem);
    if (!mem)
        return -1;
    reg_scratch w = {.G = mem, .d = mem + un, .mG = mem + 2 * un, .Ma0 = mem + 4 * un,
                     .at = mem + 5 * un, .da = mem + 6 * un, .Mda = mem + 7 * un,
                     .H = mem + 9 * un, .A = mem + 9 * un + un * un};
    memcpy(a, P->a0, un * sizeof *a);
    int kb = half_band(P);
    for (int it = 0; it < 100; it++) {
        cost(P, a, w.G, w.H, w.da, w.Mda);
        double gn = 0.0, scale = 0.0;
        mass_times(P, P->a0, w.Ma0);
        for (int i = 0; i < n; i++) {
            gn += w.G[i] * w.G[i];
            scale += w.Ma0[i] * w.Ma0[i];
            w.mG[i] = -w.G[i];
        }
        /* the gradient at round-off of the forces in play */
        if (sqrt(gn) <= 1e-14 * (sqrt(scale) + 1e-300) || gn == 0.0)
            break;
        solve_n(w.H, w.mG, w.d, n, kb, w.A);
        double lo = 0.0, hi = 1.0, s_hi;
        while ((s_hi = slope(P, a, w.d, hi, &w)) < 0.0 && hi < 1e6)
            hi *= 2.0;
        /* what the 80 bisections' test said at lo and at hi, where known:
         * once lo and hi are neighbouring doubles, mid is one of them and
         * the test there is the one already made (the slope is a function
         * of t alone here), so every later step leaves them as they are:
         * ending then gives the same t (~53 steps where 80 are allowed) */
        int lo_neg = 0, hi_not_neg = !(s_hi < 0.0);
        for (int k = 0; k < 80; k++) {
            double mid = 0.5 * (lo + hi);
            if ((mid == lo && lo_neg) || (mid == hi && hi_not_neg))
                break;
            if (slope(P, a, w.d, mid, &w) < 0.0)
                lo = mid, lo_neg = 1;
            else
                hi = mid, hi_not_neg = 1;
        }
        double t = 0.5 * (lo + hi);
        for (int i = 0; i < n; i++)
            a[i] += t * w.d[i];
    }
    free(mem);
    return 0;
}

/* a body's contacts as MuJoCo's collision functions make them, less those
 * it excludes: a contact at dist >= includemargin (= margin, gap 0) gets
 * no rows (engine_collision_driver.c:1855), so a body that only touches
 * (dist = 0) is not yet held */
static int mj_contacts(const vb_contact_world *w, const vb_contact_body *b, double margin,
                       double pos[4][3], double dist[4])
{
    const double *n = w->ground.normal;
    double centre = vb_plane_separation(&w->ground, b->s.x);
    if (b->shape.kind == VB_SHAPE_SPHERE) {
        if (!(centre - b->shape.radius < margin))
            return 0;
        dist[0] = centre - b->shape.radius;
        for (int i = 0; i < 3; i++)
            pos[0][i] = b->s.x[i] - (dist[0] / 2 + b->shape.radius) * n[i];
        return 1;
    }
    int cnt = 0;
    for (int c = 0; c < 8 && cnt < 4; c++) {
        double rb[3], r[3];
        for (int i = 0; i < 3; i++)
            rb[i] = (c >> i & 1) ? b->shape.half[i] : -b->shape.half[i];
        vb_quat_rotate(b->s.q, rb, r);
        double ldist = vb_dot3(n, r);
        if (!(centre + ldist < margin) || ldist > 0.0)
            continue;
        dist[cnt] = centre + ldist;
        for (int i = 0; i < 3; i++)
            pos[cnt][i] = b->s.x[i] + r[i] - dist[cnt] / 2 * n[i];
        cnt++;
    }
    return cnt;
}

/* a row along u at the contact point: on a, (u, ra x u); on b (b >= 0),
 * -(u, rb x u) */
static void set_row(reg_row *row, const double u[3], const double ra[3], const double rb[3],
                    int a, int b, double D)
{
    double ru[3];
    memset(row, 0, sizeof *row);
    row->a = a, row->b = b;
    vb_cross3(ra, u, ru);
    for (int i = 0; i < 3; i++) {
        row->J[i] = u[i];
        row->J[3 + i] = ru[i];
    }
    if (b >= 0) {
        vb_cross3(rb, u, ru);
        for (int i = 0; i < 3; i++) {
            row->J[6 + i] = -u[i];
            row->J[9 + i] = -ru[i];
        }
    }
    row->D = D;
}

/* J v at the bodies' velocities v (indexed as the rows' bodies) */
static double row_vel(const reg_row *row, const vb_body_vel *v)
{
    double s = 0.0;
    for (int i = 0; i < 3; i++)
        s += row->J[i] * v[row->a].v[i] + row->J[3 + i] * v[row->a].om[i];
    if (row->b >= 0)
        for (int i = 0; i < 3; i++)
            s += row->J[6 + i] * v[row->b].v[i] + row->J[9 + i] * v[row->b].om[i];
    return s;
}

/* One contact of bodies a and b (b < 0: the ground) at pos, normal n from
 * b to a, at distance dist: its rows appended to P (3 elliptic, 4
 * pyramidal).  tran is mj_diagApprox's translational weight of the pair,
 * body_invweight0[a] + body_invweight0[b] (engine_core_constraint.c:
 * 1940-1966), 1/m of a free body (the ground's 0). */
typedef struct reg_contact {
    int a, b;
    double pos[3], n[3], ra[3], rb[3], dist, tran;
} reg_contact;

static void contact_rows(reg_problem *P, const vb_solver_params *p, double K, double B,
                         double mu, const reg_contact *ct, const vb_body_vel *pre)
{
    double imp = impedance(p->solimp, ct->dist), t[2][3], tran = ct->tran;
    vb_ground_tangents(ct->n, t[0], t[1]);
    if (P->elliptic) {
        double R0 = fmax(MJ_MINVAL, (1.0 - imp) * tran / imp);
        double Rf = R0 / fmax(MJ_MINVAL, p->impratio);
        P->mu = mu;
        P->mu_reg = mu * sqrt(Rf / R0);
        reg_row *rw = &P->row[P->nrows];
        set_row(&rw[0], ct->n, ct->ra, ct->rb, ct->a, ct->b, 1.0 / R0);
        rw[0].aref = -B * row_vel(&rw[0], pre) - K * imp * ct->dist;
        for (int j = 0; j < 2; j++) {
            set_row(&rw[1 + j], t[j], ct->ra, ct->rb, ct->a, ct->b, 1.0 / Rf);
            rw[1 + j].aref = -B * row_vel(&rw[1 + j], pre); /* K = 0 (2180-2183) */
        }
        P->nrows += 3;
        return;
    }
    double R0 = fmax(MJ_MINVAL, (1.0 - imp) * (tran + mu * mu * tran) / imp);
    double mu_reg = mu * sqrt(1.0 / fmax(MJ_MINVAL, p->impratio));
    double Rpy = 2.0 * mu_reg * mu_reg * R0;
    for (int j = 0; j < 2; j++)
        for (int sgn = 1; sgn >= -1; sgn -= 2) {
            double u[3];
            for (int i = 0; i < 3; i++)
                u[i] = ct->n[i] + sgn * mu * t[j][i];
            reg_row *rw = &P->row[P->nrows++];
            set_row(rw, u, ct->ra, ct->rb, ct->a, ct->b, 1.0 / Rpy);
            rw->aref = -B * row_vel(rw, pre) - K * imp * ct->dist;
        }
}

/* body k's mass and world inertia into P, its a0 from its velocities
 * before (pre) and after the unconstrained step (free_vel) */
static void body_into(reg_problem *P, int k, const vb_contact_body *b, const vb_body_vel *pre,
                      const vb_body_vel *free_vel, double h)
{
    P->m[k] = b->p.mass;
    /* M's angular block: the inverse of the world inverse inertia */
    double R9[9];
    vb_quat_to_matrix(b->s.q, R9);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0.0;
            for (int c = 0; c < 3; c++)
                s += R9[3 * i + c] * R9[3 * j + c] * b->p.inertia[c];
            P->I[9 * k + 3 * i + j] = s;
        }
    for (int i = 0; i < 3; i++) {
        P->a0[6 * k + i] = (free_vel->v[i] - pre->v[i]) / h;
        P->a0[6 * k + 3 + i] = (free_vel->om[i] - pre->om[i]) / h;
    }
}

/* body k's velocities after the solve: free_vel + h (a - a0), committed */
static int body_commit(const reg_problem *P, int k, const double *a, vb_contact_body *b,
                       vb_body_step_fn *method, double h, const vb_body_vel *free_vel)
{
    vb_body_vel solved = *free_vel;
    for (int i = 0; i < 3; i++) {
        solved.v[i] += h * (a[6 * k + i] - P->a0[6 * k + i]);
        solved.om[i] += h * (a[6 * k + 3 + i] - P->a0[6 * k + 3 + i]);
    }
    return vb_body_commit(b, method, h, vb_body_kick_share(b, method, h), free_vel, &solved);
}

static int step_body(vb_contact_world *w, vb_contact_body *b, vb_manifold_memory *mem,
                     const vb_solver_params *p, vb_body_step_fn *method, double h)
{
    (void)mem; /* MuJoCo's Newton solver starts from the unconstrained a0 */
    double pos[4][3], dist[4];
    int nc = mj_contacts(w, b, p->margin, pos, dist);
    if (nc == 0) {
        method(&b->s, &b->p, h);
        return vb_body_finite(b) ? VB_BODY_OK : VB_BODY_DIVERGED;
    }
    vb_body_vel pre, free_vel;
    vb_body_vel_now(b, &pre);
    if (vb_body_vel_free(b, method, h, &free_vel) != VB_BODY_OK)
        return VB_BODY_DIVERGED;
    reg_row rows[MAX_ROWS];
    double m, I[9], a0[6], a[6];
    reg_problem P = {.elliptic = p->cone == VB_CONE_ELLIPTIC, .nb = 1, .row = rows, .m = &m,
                     .I = I, .a0 = a0};
    body_into(&P, 0, b, &pre, &free_vel, h);
    double K, B;
    stiffness(p, h, &K, &B);
    for (int c = 0; c < nc; c++) {
        reg_contact ct = {.a = 0, .b = -1, .dist = dist[c], .tran = 1.0 / b->p.mass};
        for (int i = 0; i < 3; i++) {
            ct.pos[i] = pos[c][i];
            ct.n[i] = w->ground.normal[i];
            ct.ra[i] = pos[c][i] - b->s.x[i];
        }
        contact_rows(&P, p, K, B, w->mu_s, &ct, &pre);
    }
    if (minimise(&P, a) != 0)
        return VB_BODY_DIVERGED;
    return body_commit(&P, 0, a, b, method, h, &free_vel);
}

/* A world of several bodies (a stack): one problem over all of them, as
 * MuJoCo's is over every dof, its contacts the world's points (box on
 * ground, box on box) at separation < margin (MuJoCo's exclusion, as
 * mj_contacts), each at the midpoint of its point and the face,
 * p - (dist/2) n, as mjc_BoxBox's. */
static int step_world(vb_contact_world *w, const vb_solver_params *p, vb_body_step_fn *method,
                      double h)
{
    int nb = (int)w->n, rc = VB_BODY_OK;
    size_t cap = vb_world_points_cap(w->n);
    vb_contact_point *pts = malloc(cap * sizeof *pts);
    reg_row *rows = malloc(4 * cap * sizeof *rows);
    vb_body_vel *vel = malloc(2 * w->n * sizeof *vel); /* pre, then free */
    double *num = malloc(w->n * (1 + 9 + 6 + 6) * sizeof *num);
    if (!pts || !rows || !vel || !num) {
        rc = VB_BODY_DIVERGED;
        goto done;
    }
    vb_body_vel *pre = vel, *free_vel = vel + w->n;
    reg_problem P = {.elliptic = p->cone == VB_CONE_ELLIPTIC, .nb = nb, .row = rows, .m = num,
                     .I = num + w->n, .a0 = num + 10 * w->n};
    double *a = num + 16 * w->n;
    for (int k = 0; k < nb && rc == VB_BODY_OK; k++) {
        vb_body_vel_now(&w->body[k], &pre[k]);
        if (vb_body_vel_free(&w->body[k], method, h, &free_vel[k]) != VB_BODY_OK)
            rc = VB_BODY_DIVERGED;
        else
            body_into(&P, k, &w->body[k], &pre[k], &free_vel[k], h);
    }
    double K, B;
    stiffness(p, h, &K, &B);
    size_t np = rc == VB_BODY_OK ? vb_world_points(w, p->margin, pts) : 0;
    for (size_t i = 0; i < np; i++) {
        const vb_contact_point *pt = &pts[i];
        if (!(pt->separation < p->margin))
            continue;
        reg_contact ct = {.a = pt->a, .b = pt->b, .dist = pt->separation,
                          .tran = 1.0 / w->body[pt->a].p.mass +
                                  (pt->b >= 0 ? 1.0 / w->body[pt->b].p.mass : 0.0)};
        for (int j = 0; j < 3; j++) {
            ct.n[j] = pt->n[j];
            ct.pos[j] = pt->p[j] - 0.5 * pt->separation * pt->n[j];
            ct.ra[j] = ct.pos[j] - w->body[pt->a].s.x[j];
            ct.rb[j] = pt->b >= 0 ? ct.pos[j] - w->body[pt->b].s.x[j] : 0.0;
        }
        contact_rows(&P, p, K, B, w->mu_s, &ct, pre);
    }
    if (rc == VB_BODY_OK && minimise(&P, a) != 0)
        rc = VB_BODY_DIVERGED;
    for (int k = 0; k < nb && rc == VB_BODY_OK; k++)
        rc = body_commit(&P, k, a, &w->body[k], method, h, &free_vel[k]);
done:
    free(pts);
    free(rows);
    free(vel);
    free(num);
    return rc;
}

static int step(vb_contact_world *w, vb_contact_cache *c, const vb_solver_params *p,
                vb_body_step_fn *method, double h)
{
    /* one body: MuJoCo's free body on the ground, as before (its bits) */
    if (w->n <= 1)
        return vb_body_each(w, c, p, method, h, step_body);
    return step_world(w, p, method, h);
}

/* ---- the creep, in closed form ----
 * In a steady creep at speed v down the slope the cube does not turn and
 * a = 0, so each active row's force is -D jar with jar = -aref =
 * B J v + K imp dist.  The normal forces balance gravity's push and the
 * friction's moment about the centre of mass: the two corners down the
 * slope carry N_dn = m g (cos + sin)/4 each, the two up it N_up =
 * m g (cos - sin)/4 (the friction m g sin(alpha) acts at the face, a/2
 * below the centre; the normal forces' arms are +- a/2).  A corner's
 * friction F(v) at that normal force:
 *   elliptic, inside the cone: F = B v impratio / R0, R0 = (1 - imp)/imp / m,
 *     imp from N = -K imp dist / R0 (solved for dist by bisection: N
 *     grows as dist falls); past the cone's edge (the middle zone) F = mu N;
 *   pyramidal, the four edges J_n +- mu J_tj active (B mu v < K imp |dist|):
 *     N = 4 K imp |dist| / Rpy, F = mu (f+ - f-) = 2 mu^2 B v / Rpy =
 *     B v impratio / R0 with Rpy = 2 (mu^2/impratio) R0,
 *     R0 = (1 - imp)/imp (1 + mu^2)/m; past that the edge along the motion
 *     goes slack: N = (B mu v + 3 K imp |dist|) / Rpy,
 *     F = mu (B mu v + K imp |dist|) / Rpy.
 * Each F grows with v, and v solves 2 F_dn(v) + 2 F_up(v) = m g sin(alpha)
 * (bisection); with every row inside its cone in closed form,
 *     v = m g sin(alpha) / (B impratio sum_i 1/R0_i).
 * NAN where the cone's edges cannot hold it (elliptic, tan alpha > mu):
 * then it slides; NAN too where a slack pyramidal corner cannot stay down:
 * at dist = 0 its one active edge still pushes B mu v / Rpy, and where that
 * exceeds its share of the load no creep on four corners exists (30
 * degrees, mu 0.7: the up-slope corners stay down only below 1.98e-3 m/s,
 * the pull needs more): the cube rocks, up-slope corners lifting, in a
 * cycle MuJoCo 3.12.0 itself steps to the same digits (7.12e-3 m/s at
 * 240 Hz; docs/contact.md).  The cube's tilt and the contact points at the
 * midpoints move the arms by |dist|/a, the order of this closed form's
 * error (1e-3 here), which the tests allow for. */

/* the normal force of an elliptic or all-active pyramidal corner at dist */
static double corner_force(const vb_solver_params *p, double K, double m, double mu,
                           double dist)
{
    double imp = impedance(p->solimp, dist);
    if (p->cone == VB_CONE_ELLIPTIC)
        return -K * imp * dist / ((1.0 - imp) / imp / m);
    double R0 = (1.0 - imp) / imp * (1.0 + mu * mu) / m;
    double Rpy = 2.0 * (mu * mu / p->impratio) * R0;
    return -4.0 * K * imp * dist / Rpy;
}

/* a pyramidal corner with one edge slack, at speed v: its normal force */
static double slack_force(const vb_solver_params *p, double K, double B, double m, double mu,
                          double v, double dist, double *friction)
{
    double imp = impedance(p->solimp, dist);
    double Rpy = 2.0 * (mu * mu / p->impratio) * (1.0 - imp) / imp * (1.0 + mu * mu) / m;
    if (friction)
        *friction = mu * (B * mu * v - K * imp * dist) / Rpy;
    return (B * mu * v - 3.0 * K * imp * dist) / Rpy;
}

/* the dist < 0 at which force(dist) = N (force falls as dist rises) */
static double solve_dist(double (*force)(const void *, double), const void *ctx, double N)
{
    double lo = -1.0, hi = 0.0;
    while (force(ctx, lo) < N && lo > -1e6)
        lo *= 2.0;
    for (int k = 0; k < 200; k++) {
        double mid = 0.5 * (lo + hi);
        if (force(ctx, mid) < N)
            hi = mid;
        else
            lo = mid;
    }
    return 0.5 * (lo + hi);
}

typedef struct creep_ctx {
    const vb_solver_params *p;
    double K, B, m, mu, v;
} creep_ctx;

static double full_force(const void *c, double dist)
{
    const creep_ctx *x = c;
    return corner_force(x->p, x->K, x->m, x->mu, dist);
}

static double slack_force_at(const void *c, double dist)
{
    const creep_ctx *x = c;
    return slack_force(x->p, x->K, x->B, x->m, x->mu, x->v, dist, NULL);
}

/* a corner's friction at speed v under the normal force N */
static double corner_friction(creep_ctx *x, double N)
{
    const vb_solver_params *p = x->p;
    double dist = solve_dist(full_force, x, N), imp = impedance(p->solimp, dist);
    double cA = p->cone == VB_CONE_ELLIPTIC ? 1.0 : 1.0 + x->mu * x->mu;
    double R0 = (1.0 - imp) / imp * cA / x->m, F = x->B * x->v * p->impratio / R0;
    if (p->cone == VB_CONE_ELLIPTIC)
        return fmin(F, x->mu * N);
    if (x->B * x->mu * x->v <= x->K * imp * -dist)
        return F;
    dist = solve_dist(slack_force_at, x, N);
    slack_force(p, x->K, x->B, x->m, x->mu, x->v, dist, &F);
    return F;
}

/* the corner's normal force N is met with the corner in contact: always
 * with every edge active (the force grows from 0 as dist falls from 0);
 * with the edge along the motion slack only if N is at least the force at
 * dist = 0, B mu v / Rpy */
static int corner_in_contact(creep_ctx *x, double N)
{
    double dist = solve_dist(full_force, x, N), imp = impedance(x->p->solimp, dist);
    if (x->B * x->mu * x->v <= x->K * imp * -dist)
        return 1;
    return slack_force(x->p, x->K, x->B, x->m, x->mu, x->v, 0.0, NULL) <= N;
}

double vb_regularized_creep(const vb_solver_params *p, double m, double edge, double alpha,
                            double mu, double g, double h)
{
    (void)edge; /* the arms are a/2 on both sides: the edge cancels */
    creep_ctx x = {.p = p, .m = m, .mu = mu};
    stiffness(p, h, &x.K, &x.B);
    double N[2] = {m * g * (cos(alpha) + sin(alpha)) / 4.0,
                   m * g * (cos(alpha) - sin(alpha)) / 4.0};
    double pull = m * g * sin(alpha);
    if (!(N[1] > 0.0) || !(pull > 0.0))
        return NAN;
    if (p->cone == VB_CONE_ELLIPTIC && 2.0 * mu * (N[0] + N[1]) < pull)
        return NAN; /* the cones cannot hold it: it slides */
    double lo = 0.0, hi = 1e-6;
    for (;;) {
        x.v = hi;
        if (2.0 * (corner_friction(&x, N[0]) + corner_friction(&x, N[1])) >= pull)
            break;
        lo = hi;
        hi *= 2.0;
        if (hi > 1e6)
            return NAN;
    }
    for (int k = 0; k < 200 && hi - lo > 1e-15 * hi; k++) {
        x.v = 0.5 * (lo + hi);
        if (2.0 * (corner_friction(&x, N[0]) + corner_friction(&x, N[1])) < pull)
            lo = x.v;
        else
            hi = x.v;
    }
    x.v = 0.5 * (lo + hi);
    /* a pyramidal corner whose edge along the motion is slack carries
     * B mu v / Rpy through its damping alone, at dist = 0: where that is
     * more than its share of the load it cannot stay in contact (dist < 0),
     * and no creep with four corners down exists: the cube rocks */
    for (int c = 0; c < 2; c++)
        if (p->cone == VB_CONE_PYRAMIDAL && !corner_in_contact(&x, N[c]))
            return NAN;
    return x.v;
}

const vb_body_solver vb_solver_regularized = {
    .name = "regularized",
    .summary = "MuJoCo's soft convex contact: solref, solimp, impratio, pyramidal or elliptic "
               "cone, solved exactly; friction creeps",
    .source = "mujoco 3.12.0 src/engine/engine_core_constraint.c:1676-1708,1940-1966,2026-2029,"
              "2099-2264,3244-3466; engine_collision_primitive.c:28-49,210-251; "
              "engine_setconst.c:919-934; engine_init.c:32-45,59,92-97",
    .keys = VB_KEY_MUJOCO | VB_KEY_MARGIN,
    .flags = VB_SOLVER_BODIES,
    .defaults = defaults,
    .step = step,
};
