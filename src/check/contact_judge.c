/* contact_judge.c — contact.csv against the baseline's.  A measure whose
 * exact value the row or the model carries is judged by its distance from
 * that value, |measure - exact|, as check judges an error: worse when the
 * distance grows by more than a factor 1 + rtol and lies above the
 * round-off floor of the run (floor_ulps · eps · N^1.5 · scale, N = t_end /
 * dt its steps, scale the size of the measure and its exact value).  The
 * passing speed has no exact value (a handler that never lets the ball
 * through is the best, inf): it is worse when it falls by more than that
 * factor.  docs/check.md, "Contact handlers", says why. */
#include "contact_judge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casetables.h"
#include "contact_table.h"
#include "names.h"
#include "precision.h"

/* How a measure is judged: its distance from an exact value (a column of
 * the row, a parameter of the model line, or 0), or a speed that is
 * better the higher it is. */
typedef enum { EXACT_COLUMN, EXACT_PARAM, EXACT_HEIGHT, EXACT_ZERO, HIGHER_BETTER } rule_kind;

#define C(name) VB_COL_CONTACT_##name
static const struct {
    int measure; /* its column */
    rule_kind kind;
    int exact;         /* EXACT_COLUMN: the exact value's column */
    const char *param; /* EXACT_PARAM, EXACT_HEIGHT: what the '# model=' line gives */
    int n;             /* EXACT_HEIGHT: the bounce, whose exact height is e^2n h0 */
} rules[] = {
    {C(E_BOUNCE1), EXACT_PARAM, -1, "e", 0}, /* restitution: the model's e */
    {C(E_BOUNCE2), EXACT_PARAM, -1, "e", 0},
    {C(E_BOUNCE3), EXACT_PARAM, -1, "e", 0},
    {C(HEIGHT1), EXACT_HEIGHT, -1, "e^2n h0", 1}, /* the exact apex after bounce n */
    {C(HEIGHT2), EXACT_HEIGHT, -1, "e^2n h0", 2},
    {C(HEIGHT3), EXACT_HEIGHT, -1, "e^2n h0", 3},
    {C(BOUNCES), EXACT_COLUMN, C(BOUNCES_EXACT), NULL, 0},
    {C(T_REST), EXACT_COLUMN, C(T_REST_EXACT), NULL, 0},
    {C(ENERGY_GAIN_10), EXACT_ZERO, -1, NULL, 0}, /* the energy after 10 bounces is e^20 that before */
    {C(DEPTH_MAX), EXACT_ZERO, -1, NULL, 0},      /* a rigid floor: no penetration */
    {C(STOP_X), EXACT_COLUMN, C(STOP_X_EXACT), NULL, 0},
    {C(STOP_T), EXACT_COLUMN, C(STOP_T_EXACT), NULL, 0},
    {C(PASS_SPEED), HIGHER_BETTER, -1, NULL, 0},
    /* a rigid body on the ground */
    {C(T_ROLL), EXACT_COLUMN, C(T_ROLL_EXACT), NULL, 0},
    {C(S_ROLL), EXACT_COLUMN, C(S_ROLL_EXACT), NULL, 0},
    {C(V_ROLL), EXACT_COLUMN, C(V_ROLL_EXACT), NULL, 0},
    {C(SLIP_MAX), EXACT_ZERO, -1, NULL, 0},   /* rolling: the contact point at rest */
    {C(A_ERR), EXACT_ZERO, -1, NULL, 0},      /* already the error */
    {C(CREEP), EXACT_COLUMN, C(CREEP_EXACT), NULL, 0},
    {C(CREEP_SPEED), EXACT_ZERO, -1, NULL, 0}, /* Coulomb's: a body that sticks stays */
    {C(ENERGY_ERR), EXACT_ZERO, -1, NULL, 0},
};
#define N_RULES (sizeof rules / sizeof rules[0])

/* the exact columns, fixed by the model: the same on both sides */
static const int exact_columns[] = {C(BOUNCES_EXACT), C(T_REST_EXACT), C(STOP_X_EXACT),
                                    C(STOP_T_EXACT), C(PASS_BOUND), C(T_ROLL_EXACT),
                                    C(S_ROLL_EXACT), C(V_ROLL_EXACT), C(CREEP_EXACT)};
#define N_EXACT (sizeof exact_columns / sizeof exact_columns[0])

/* what a measure is off: the exact value's column, the model's, or 0 */
static const char *exact_text(size_t rule)
{
    return rules[rule].exact >= 0 ? vb_schema_name(&vb_contact_schema, (size_t)rules[rule].exact)
           : rules[rule].param    ? rules[rule].param
                                  : "0";
}

typedef struct {
    const vb_table *t;
    const vb_table *runs;           /* the runs.csv written with it: row r is run r */
    int runs_seed;                  /* runs.csv's seed column: a random run's seed */
    int runs_steps;                 /* runs.csv's steps column: the run's steps */
    int col[VB_SCHEMA_MAX_COLUMNS]; /* the schema's column k in the table */
    double *v;                      /* nrow × schema columns: NAN for blank / a text cell */
    double t_end, e, h0;            /* of the '# model=' line (NAN when it has none) */
} contact_side;

#define V(s, r, k) ((s)->v[(size_t)(r) * vb_contact_schema.n + (size_t)(k)])

/* contact.csv holds a row a run of its runs.csv, in the same order (both
 * written a row a job of the sweep, output/tables.c and contact_table.c):
 * the same '#' lines, as many rows, each of the same integrator, plan and
 * dt.  So a row deleted from either, or a contact.csv cut to its header,
 * is damage, and a contact row's seed is its run's. */
static int same_runs(const contact_side *s, char *err, size_t errlen)
{
    const vb_table *t = s->t, *runs = s->runs;
    int rc = vb_same_header(runs, t, vb_case_files[VB_FILE_CONTACT].what, err, errlen);
    if (rc != 0)
        return rc;
    /* contact.csv's columns and runs.csv's of the same name (the status
     * too: a run that diverged has diverged in both) */
    static const int key[] = {C(INTEGRATOR), C(PLAN), C(DT), C(STATUS)},
                     run_key[] = {VB_COL_RUNS_INTEGRATOR, VB_COL_RUNS_PLAN, VB_COL_RUNS_DT,
                                  VB_COL_RUNS_STATUS};
    int rcol[4];
    for (int k = 0; k < 4; k++)
        if (vb_need_column(runs, vb_schema_name(&vb_runs_schema, (size_t)run_key[k]), &rcol[k],
                           err, errlen) != 0)
            return VB_COMPARE_BAD;
    for (size_t r = 0; r < t->nrow && r < runs->nrow; r++)
        for (int k = 0; k < 4; k++)
            if (strcmp(t->rows[r][s->col[key[k]]], runs->rows[r][rcol[k]]) != 0)
                return vb_compare_bad(
                    err, errlen,
                    "%s:%lu: %s '%.60s' where the run of %s:%lu has '%.60s': contact.csv "
                    "holds a row a run of runs.csv, in its order%s, and the table is damaged "
                    "(make baseline)",
                    t->path, t->line[r], vb_schema_name(&vb_contact_schema, (size_t)key[k]),
                    t->rows[r][s->col[key[k]]], runs->path, runs->line[r],
                    runs->rows[r][rcol[k]],
                    key[k] == C(STATUS) ? ", with its run's status"
                                        : "; a row is missing or moved");
    if (t->nrow != runs->nrow)
        return vb_compare_bad(
            err, errlen,
            "%s: %zu rows where %s has %zu runs%s: contact.csv holds a row a run; the "
            "table is damaged (make baseline)",
            t->path, t->nrow, runs->path, runs->nrow,
            t->nrow < runs->nrow ? ", the last ones missing" : "");
    return 0;
}

/* What a cell of row r, column k (of the schema) is not, or NULL: *x its
 * value (NAN for blank or text).  Each cell is held to what the writer
 * prints there: text its column's, a number as its format prints it
 * (%.17g: "1e30" and "3.50" it never prints), and a count of bounces a
 * whole number no larger than its run's steps (a bounce is an episode of
 * contact followed by flight among the run's samples, contact_metrics.c). */
static const char *cell_problem(const contact_side *s, size_t r, size_t k, double *x)
{
    const char *cell = s->t->rows[r][s->col[k]];
    const vb_column *c = &vb_contact_schema.col[k];
    /* the measures that may be < 0 */
    int gain = k == C(ENERGY_GAIN_10) || k == C(A_ERR) || k == C(CREEP) || k == C(CREEP_SPEED);
    double y;
    const char *want;
    if (vb_run_key_cell(s->t, c->name, cell, &want))
        return want;
    if (c->fmt == VB_FMT_TEXT)
        return cell[0] ? NULL : "a name";
    if (k == C(DT))
        return vb_cell_number(cell, 0, x) == 0 && *x > 0 && vb_cell_printed(c->fmt, cell, &y)
                   ? NULL
                   : "a step size (a finite number > 0)";
    if (!cell[0])
        return NULL; /* a measure that does not apply */
    if (k == C(PASS_AT_MOST)) {
        /* whether pass_speed is an upper bound: what it is judged as needs
         * no more (an upper bound at the search's floor is below every
         * speed it measures) */
        *x = cell[0] == '1';
        return !strcmp(cell, "0") || !strcmp(cell, "1") ? NULL : "0, 1 or blank";
    }
    /* a measure: inf, or a number (>= 0 but the gain) as %.17g prints it */
    if ((vb_cell_number(cell, 1, x) != 0 && (!gain || vb_cell_signed(cell, x) != 0)) ||
        !vb_cell_printed(c->fmt, cell, &y))
        return !gain ? "a number >= 0 as %.17g prints it, inf or blank"
                     : "a number as %.17g prints it, inf or blank";
    if ((k == C(BOUNCES) || k == C(BOUNCES_EXACT)) && isfinite(*x) && *x != floor(*x))
        return "a count of bounces (a whole number)";
    double steps = NAN;
    vb_cell_number(s->runs->rows[r][s->runs_steps], 0, &steps);
    if (k == C(BOUNCES) && !(*x <= steps))
        return "a count of bounces no larger than its run's steps (runs.csv)";
    return NULL;
}

static int read_side(const vb_table *t, const vb_table *runs, contact_side *s, char *err,
                     size_t errlen)
{
    const vb_schema *sc = &vb_contact_schema;
    s->t = t;
    s->runs = runs;
    s->v = NULL;
    /* its view: a rigid body's when it has the body's first column */
    unsigned view = VB_CONTACT_VIEW_WALL;
    for (size_t j = 0; j < t->ncol; j++)
        if (strcmp(t->head[j], VB_CONTACT_COL(T_ROLL)) == 0)
            view = VB_CONTACT_VIEW_BODY;
    int rc = vb_schema_columns(t, sc, view, s->col, err, errlen);
    if (rc != 0)
        return rc;
    if (t->nrow == 0)
        return vb_compare_bad(err, errlen,
                              "%s: no rows, only a header: nothing to compare (run writes a "
                              "row a handler's run); the table is damaged (make baseline)",
                              t->path);
    if (vb_need_column(runs, VB_RUNS_COL(SEED), &s->runs_seed, err, errlen) != 0 ||
        vb_need_column(runs, VB_RUNS_COL(STEPS), &s->runs_steps, err, errlen) != 0 ||
        same_runs(s, err, errlen) != 0)
        return VB_COMPARE_BAD;
    s->t_end = vb_table_model_param(t, "t_end");
    s->e = vb_table_model_param(t, "e");
    s->h0 = vb_table_model_param(t, "h0");
    if (!(s->t_end > 0))
        return vb_compare_bad(err, errlen,
                              "%s: no '# model=... t_end=...' line: not a table verletbench "
                              "wrote",
                              t->path);
    if (!(s->v = malloc((t->nrow ? t->nrow : 1) * sc->n * sizeof *s->v)))
        return vb_compare_oom(err, errlen);
    for (size_t r = 0; r < t->nrow; r++)
        for (size_t k = 0; k < sc->n; k++) {
            if (s->col[k] < 0) { /* a column of the other view */
                V(s, r, k) = NAN;
                continue;
            }
            double x = NAN;
            const char *want = cell_problem(s, r, k, &x);
            if (want) {
                free(s->v);
                s->v = NULL;
                return vb_table_bad_cell(t, r, s->col[k], want, err, errlen);
            }
            V(s, r, k) = x;
        }
    return 0;
}

static const char *cell(const contact_side *s, size_t r, int k)
{
    return s->t->rows[r][s->col[k]];
}

/* a row's seed: its run's (same_runs) */
static const char *seed_of(const contact_side *s, size_t r)
{
    return s->runs->rows[r][s->runs_seed];
}

/* the row of the other side with the same integrator, plan, dt and seed, or -1 */
static long partner(const contact_side *s, const contact_side *o, size_t r)
{
    for (size_t q = 0; q < o->t->nrow; q++)
        if (!strcmp(cell(s, r, C(INTEGRATOR)), cell(o, q, C(INTEGRATOR))) &&
            !strcmp(cell(s, r, C(PLAN)), cell(o, q, C(PLAN))) &&
            !strcmp(cell(s, r, C(DT)), cell(o, q, C(DT))) && !strcmp(seed_of(s, r), seed_of(o, q)))
            return (long)q;
    return -1;
}

/* |m - x|: 0 when equal (both inf), inf when one of them is, NAN for none */
static double distance(double m, double x)
{
    if (m != m || x != x)
        return NAN;
    if (m == x)
        return 0.0;
    if (isinf(m) || isinf(x))
        return INFINITY;
    return fabs(m - x);
}

static double exact_of(const contact_side *s, size_t r, size_t rule)
{
    switch (rules[rule].kind) {
    case EXACT_COLUMN:
        return V(s, r, (size_t)rules[rule].exact);
    case EXACT_PARAM:
        return s->e;
    case EXACT_HEIGHT:
        return s->h0 * pow(s->e, 2.0 * rules[rule].n);
    case EXACT_ZERO:
        return 0.0;
    default:
        return NAN;
    }
}

static double bigger(double a, double b) { return isfinite(b) && fabs(b) > a ? fabs(b) : a; }

/* One measure of one row: recorded when it changed. */
static int judge(const char *name, const contact_side *b, size_t rb, const contact_side *n,
                 size_t rn, size_t rule, const vb_tolerance *tol, vb_changes *out, char *err,
                 size_t errlen)
{
    size_t k = (size_t)rules[rule].measure;
    double mb = V(b, rb, k), mn = V(n, rn, k), xb = exact_of(b, rb, rule),
           xn = exact_of(n, rn, rule);
    if (mb != mb && mn != mn)
        return 0; /* applies to neither */
    double dt = V(n, rn, (size_t)C(DT));
    double scale = bigger(bigger(bigger(0.0, mb), mn), xn);
    const char *integ = cell(n, rn, C(INTEGRATOR));
    double floor = vb_check_roundoff_floor(vb_table_precision(n->t, integ), tol->floor_ulps,
                                           ceil(n->t_end / dt - 1e-9), scale > 0 ? scale : 1.0);
    int worse = 0, better = 0;
    double db = NAN, dn = NAN;
    out->compared++;
    if (mn != mn) {
        worse = 1; /* a measure that came in the baseline and no longer does */
    } else if (mb != mb) {
        return 0; /* one that came now: nothing to compare it with */
    } else if (rules[rule].kind == HIGHER_BETTER) {
        double gap = distance(mb, mn);
        worse = mn * (1.0 + tol->rtol) < mb && gap > floor;
        better = mb * (1.0 + tol->rtol) < mn && gap > floor;
    } else {
        db = distance(mb, xb);
        dn = distance(mn, xn);
        worse = dn > db * (1.0 + tol->rtol) && dn > floor;
        better = db > dn * (1.0 + tol->rtol) && db > floor;
    }
    if (!worse && !better)
        return 0;
    vb_change c;
    vb_change_fill(&c, worse ? VB_WORSE : VB_BETTER, name, integ, cell(n, rn, C(PLAN)),
                   vb_schema_name(&vb_contact_schema, k));
    snprintf(c.dt, sizeof c.dt, "%.6g", dt);
    snprintf(c.seed, sizeof c.seed, "%s", seed_of(n, rn));
    snprintf(c.before, sizeof c.before, "%.17g", mb);
    snprintf(c.after, sizeof c.after, mn == mn ? "%.17g" : "blank", mn);
    if (rules[rule].kind == HIGHER_BETTER) {
        c.factor = isfinite(mb) && isfinite(mn) && mb > 0 && mn > 0 ? mb / mn : 0.0;
        snprintf(c.note, sizeof c.note, "higher is better; baseline line %lu", b->t->line[rb]);
    } else if (db == db && dn == dn) {
        c.factor = isfinite(db) && isfinite(dn) && db > 0 && dn > 0 ? dn / db : 0.0;
        snprintf(c.note, sizeof c.note, "off %s by %.4g, now %.4g; baseline line %lu",
                 exact_text(rule), db, dn, b->t->line[rb]);
    } else {
        snprintf(c.note, sizeof c.note, "no longer measured; baseline line %lu", b->t->line[rb]);
    }
    *(worse ? &out->worse : &out->better) += 1;
    if (vb_changes_record(out, &c) != 0)
        return vb_compare_oom(err, errlen);
    return 0;
}

/* an exact value fixed by the model: the same on both sides (to 1e-6, as
 * check holds runs.csv's scales) */
static int same_exact(double a, double b)
{
    if (a != a || b != b)
        return a != a && b != b;
    if (a == b)
        return 1;
    return isfinite(a) && isfinite(b) && fabs(a - b) <= 1e-6 * fmax(fabs(a), fabs(b));
}

int vb_compare_contact(const char *name, vb_text base, vb_text now, vb_text base_runs,
                       vb_text now_runs, const vb_tolerance *tol, unsigned flags,
                       vb_changes *out, char *err, size_t errlen)
{
    vb_table t[4]; /* the baseline's contact.csv and runs.csv, then now's */
    contact_side b = {0}, n = {0};
    int rc = vb_parse_beside_runs(base, base_runs, now, now_runs, t, err, errlen);
    if (rc != 0)
        return rc;
    if ((rc = read_side(&t[0], &t[1], &b, err, errlen)) != 0 ||
        (rc = read_side(&t[2], &t[3], &n, err, errlen)) != 0)
        goto done;
    char pb[2048], pn[2048];
    vb_table_provenance(&t[0], flags, pb, sizeof pb);
    vb_table_provenance(&t[2], flags, pn, sizeof pn);
    if (strcmp(pb, pn) != 0) {
        rc = vb_compare_bad(err, errlen,
                            "%s: made with other parameters than %s:\n  baseline: %.400s  "
                            "now:      %.400s(make a new baseline: make baseline)",
                            base.path, now.path, pb[0] ? pb : "(no parameter lines)\n", pn);
        goto done;
    }
    /* A row only one side has is a run only one side's runs.csv has
     * (same_runs): missing or new, or at a step size only one side has,
     * named and counted there once (judge.c), not again here. */
    for (size_t r = 0; r < t[0].nrow && rc == 0; r++) {
        long q = partner(&b, &n, r);
        if (q < 0)
            continue;
        for (size_t x = 0; x < N_EXACT && rc == 0; x++) {
            size_t k = (size_t)exact_columns[x];
            if (!same_exact(V(&b, r, k), V(&n, (size_t)q, k)))
                rc = vb_compare_bad(err, errlen,
                                    "%s:%lu: column %s: '%s' where the run made now has '%s': "
                                    "an exact value is fixed by the model, not the handler; "
                                    "the baseline is damaged or stale (make baseline)",
                                    t[0].path, t[0].line[r], vb_schema_name(&vb_contact_schema, k),
                                    cell(&b, r, exact_columns[x]),
                                    cell(&n, (size_t)q, exact_columns[x]));
        }
        for (size_t k = 0; k < N_RULES && rc == 0; k++)
            rc = judge(name, &b, r, &n, (size_t)q, k, tol, out, err, errlen);
    }
done:
    free(b.v);
    free(n.v);
    vb_free_beside_runs(t);
    return rc;
}
