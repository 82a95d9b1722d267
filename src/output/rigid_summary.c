/* rigid_summary.c — a rigid body's case in its summary.md (rigid_summary.h,
 * docs/rigid.md §7): what it measures, in its own terms, the attitude and
 * the angular velocity (never the packed (x, q) as if it were positions),
 * and where a run failed, diverged or tumbled, that, in place of a figure
 * it did not measure or that round-off set (docs/rigid.md §4). */
#include "rigid_summary.h"

#include <math.h>
#include <string.h>

#include "jobs.h"
#include "quaternion.h"
#include "ratefiles.h"
#include "rigid.h"
#include "summary_cells.h"

/* integrator i's run with fixed steps at the coarsest (finest 0) or the
 * finest step, or NULL */
static const vb_sweep_job *end_job(const vb_sweep *s, size_t i, int finest)
{
    const vb_sweep_job *best = NULL;
    for (size_t k = 0; k < s->n_jobs; k++) {
        const vb_sweep_job *j = &s->jobs[k];
        if (j->integ != i || j->plan.kind != VB_PLAN_FIXED)
            continue;
        if (!best || (finest ? j->level > best->level : j->level < best->level))
            best = j;
    }
    return best;
}

/* What stopped a run that did not finish: "diverged at step 3 (t = 0.1
 * s)", runs.csv's status and fail_step; with fixed steps, its time */
static void stopped(FILE *f, const vb_run_result *r, vb_plan_kind kind)
{
    fputs(vb_status_name(r->status), f);
    if (r->fail_step == 0) {
        fputs(" before its first step", f);
        return;
    }
    fprintf(f, " at step %llu", r->fail_step);
    if (kind == VB_PLAN_FIXED && isfinite(r->dt))
        fprintf(f, " (t = %.4g s)", (double)r->fail_step * r->dt);
}

/* The flips the exact motion makes over the case's runs: the most its
 * runs that finished saw (they all sample the same motion to t_end), or
 * of every run where none finished */
static unsigned long long exact_flips(const vb_sweep *s)
{
    unsigned long long most = 0, most_ok = 0;
    int finished = 0;
    for (size_t k = 0; k < s->n_jobs; k++) {
        const vb_run_result *r = &s->jobs[k].res;
        if (!r->has_attitude)
            continue;
        most = r->flips_exact > most ? r->flips_exact : most;
        if (r->status == VB_STATUS_OK) {
            finished = 1;
            most_ok = r->flips_exact > most_ok ? r->flips_exact : most_ok;
        }
    }
    return finished ? most_ok : most;
}

static int any_tumbled(const vb_sweep *s)
{
    for (size_t k = 0; k < s->n_jobs; k++)
        if (s->jobs[k].res.has_attitude && isfinite(s->jobs[k].res.t_tumble))
            return 1;
    return 0;
}

static void flips_counted(FILE *f, unsigned long long n, unsigned long long exact)
{
    if (n == 0)
        fputs("no flip", f);
    else
        fprintf(f, "%llu flip%s", n, n == 1 ? "" : "s");
    fprintf(f, ", exact %llu", exact);
}

/* the flip period's relative error where the run's flips are regular
 * (docs/rigid.md §4); else how many it made, against the exact motion */
static void flip_cell(FILE *f, const vb_sweep_job *j)
{
    if (!j) {
        fputs("–", f);
        return;
    }
    const vb_run_result *r = &j->res;
    if (r->status != VB_STATUS_OK)
        stopped(f, r, j->plan.kind);
    else if (isfinite(r->t_tumble))
        fprintf(f, "tumbled at %.4g s, exact no flip", r->t_tumble);
    else if (isfinite(r->flip_period) && isfinite(r->flip_period_exact) && r->flips_exact >= 2)
        fprintf(f, "%+.2g", (r->flip_period - r->flip_period_exact) / r->flip_period_exact);
    else if (r->flips >= 2 && r->flips_exact >= 2) {
        fputs("irregular: ", f);
        flips_counted(f, r->flips, r->flips_exact);
    } else
        flips_counted(f, r->flips, r->flips_exact);
}

/* the world angular momentum's largest relative drift, but for a run that
 * tumbled: past its tumble the motion is set by round-off; "–" where the
 * run measures none (a body whose contact turns its L: runs.csv's cell is
 * blank, and its 0 is no drift measured) */
static void drift_cell(FILE *f, const vb_sweep_job *j)
{
    if (!j || !j->res.has_angmom) /* none, or a body whose contact turns its L */
        fputs("–", f);
    else if (j->res.status != VB_STATUS_OK)
        stopped(f, &j->res, j->plan.kind);
    else if (isfinite(j->res.t_tumble))
        fputs("round-off", f);
    else
        fprintf(f, "%.2g", j->res.err_angmom_max);
}

/* when a stable spin first tumbled, or what ended the run before it did */
static void tumble_cell(FILE *f, const vb_sweep_job *j)
{
    const vb_run_result *r = &j->res;
    if (isfinite(r->t_tumble))
        fprintf(f, "%.4g s", r->t_tumble);
    else if (r->status != VB_STATUS_OK)
        stopped(f, r, j->plan.kind);
    else if (r->flips_exact > 0)
        fputs("–", f); /* the exact motion flips: no stable spin */
    else
        fputs("never", f);
}

static void caption(const vb_sweep *s, FILE *f, int flips, int tumbled)
{
    const vb_case *c = s->c;
    fputs("A rigid body (docs/rigid.md): the fitted order of the attitude error "
          "(`err_att_max`, the angle of q_exact* q, radians) and its verdict against the "
          "label, with fixed steps",
          f);
    if (c->jitter > 0.0)
        fputs(" and with random steps (the median over seeds)", f);
    fputs("; the fitted orders of the body angular velocity's error (`err_angvel_max`) and "
          "of the energy's, with fixed steps; ",
          f);
    if (flips)
        fputs("the flip period's relative error at the coarsest and at the finest dt "
              "(flips.csv: twice the mean time between the run's flips of the intermediate "
              "axis, against 4K(m)/λ, where its flips are regular, docs/rigid.md §4; else how "
              "many flips it made, and the exact motion's); ",
              f);
    fputs("the world angular momentum's largest relative drift (`err_angmom_max`) at the "
          "coarsest and at the finest dt",
          f);
    if (!(c->profile.measures & VB_MEASURE_ANGMOM))
        fputs(" (–: the body is at a contact, whose torque turns its L, which is then no "
              "conserved quantity to drift)",
              f);
    if (!flips)
        fprintf(f, "; and when the stable spin first tumbled, its first flip, at each dt from "
                   "the coarsest (flips.csv's t_tumble; never: not within t_end = %g)",
                c->t_end);
    fputs(". A run that diverged or failed says so, and at which step (runs.csv's "
          "fail_step). ",
          f);
    if (tumbled)
        fputs("A run that tumbled passed close to the unstable intermediate axis, where one "
              "rounding more or less changes all that follows: its L drift and its flips after "
              "the tumble are set by round-off, and not given (\"round-off\", docs/rigid.md "
              "§4). ",
              f);
    vb_summary_orders_legend(f, c,
                             "errors of the packed state (x, q), the attitude's and the centre "
                             "of mass's,",
                             "(x, q)", "states");
    fputs("\n\n", f);
}

/* the attitude's orders, with "= name" where a run equals another's */
static void attitude_cells(FILE *f, const vb_sweep *s, size_t i, int random)
{
    int label = s->c->integ[i]->order;
    vb_summary_order_cell(f, vb_summary_find_order(s, i, VB_PLAN_FIXED, VB_NORM_ATT_MAX), label,
                          vb_summary_same_as(s, i, VB_PLAN_FIXED));
    if (random)
        vb_summary_order_cell(f, vb_summary_find_order(s, i, VB_PLAN_RANDOM, VB_NORM_ATT_MAX),
                              label, vb_summary_same_as(s, i, VB_PLAN_RANDOM));
    vb_summary_order_cell(f, vb_summary_find_order(s, i, VB_PLAN_FIXED, VB_NORM_ANGVEL_MAX),
                          label, NULL);
    vb_summary_energy_cell(f, s, i);
}

static void rigid_table(const vb_sweep *s, FILE *f)
{
    const vb_case *c = s->c;
    int random = c->jitter > 0.0, flips = exact_flips(s) > 0;
    caption(s, f, flips, any_tumbled(s));
    fputs("| integrator | label | attitude, fixed |", f);
    if (random)
        fputs(" attitude, random (median) |", f);
    fputs(" angular velocity, fixed | energy, fixed |", f);
    fputs(flips ? " flip period: coarsest / finest dt |" : "", f);
    fputs(" L drift: coarsest / finest dt |", f);
    fputs(flips ? "" : " tumbles at, each dt |", f);
    fputs("\n|---|---|", f);
    for (int k = 0; k < random + 5; k++)
        fputs("---|", f);
    fputc('\n', f);
    for (size_t i = 0; i < c->n_integ; i++) {
        vb_summary_name_cells(f, s, i);
        attitude_cells(f, s, i, random);
        const vb_sweep_job *lo = end_job(s, i, 0), *hi = end_job(s, i, 1);
        if (flips) {
            fputc(' ', f);
            flip_cell(f, lo);
            fputs(" / ", f);
            flip_cell(f, hi);
            fputs(" |", f);
        }
        fputc(' ', f);
        drift_cell(f, lo);
        fputs(" / ", f);
        drift_cell(f, hi);
        fputs(" |", f);
        /* each fixed step's, coarsest first */
        for (int level = 0, first = 1; !flips && level < VB_MAX_LEVELS; level++)
            for (size_t k = 0; k < s->n_jobs; k++) {
                const vb_sweep_job *j = &s->jobs[k];
                if (j->integ != i || j->plan.kind != VB_PLAN_FIXED || j->level != level)
                    continue;
                fputs(first ? " " : " / ", f);
                first = 0;
                tumble_cell(f, j);
            }
        fputs(flips ? "\n" : " |\n", f);
    }
    fputc('\n', f);
}

/* ---- the frame-rate table ---- */

/* The rows of integrator i, frames kind, at each display rate */
typedef struct {
    const vb_rate_row *row[VB_MAX_RATES];
    int n;
} rate_rows;

static rate_rows rows_of(const vb_sweep *s, size_t i, vb_plan_kind kind)
{
    rate_rows rr = {{NULL}, 0};
    for (size_t k = 0; k < s->n_rates && rr.n < VB_MAX_RATES; k++)
        if (s->rates[k].integ == i && s->rates[k].kind == kind)
            rr.row[rr.n++] = &s->rates[k];
    return rr;
}

/* the largest angle between the attitudes two rates draw at t_end, and
 * the spread of the largest energy error: what the particles' table
 * says of positions; a failed rate, or one that tumbled, said instead */
static void spread_cells(FILE *f, const rate_rows *rr)
{
    double angle = 0.0, elo = INFINITY, ehi = -INFINITY;
    for (int a = 0; a < rr->n; a++) {
        const vb_rate_row *r = rr->row[a];
        if (r->status != VB_STATUS_OK) {
            fprintf(f, " %s at %g Hz | %s at %g Hz |", vb_status_name(r->status), r->rate,
                    vb_status_name(r->status), r->rate);
            return;
        }
        elo = fmin(elo, r->err_energy_max);
        ehi = fmax(ehi, r->err_energy_max);
        for (int b = 0; b < a; b++)
            angle = fmax(angle, vb_quat_angle_between(rr->row[b]->x_final + 3, r->x_final + 3));
    }
    int tumbled = 0;
    for (int a = 0; a < rr->n; a++)
        tumbled |= isfinite(rr->row[a]->t_tumble);
    if (tumbled)
        fputs(" round-off |", f);
    else
        fprintf(f, " %.3g |", angle);
    if (rr->n && isfinite(ehi - elo))
        fprintf(f, " %.3g |", ehi - elo);
    else
        fputs(" – |", f);
}

static void rate_tumble_cell(FILE *f, const vb_rate_row *r)
{
    if (isfinite(r->t_tumble))
        fprintf(f, "%.4g s", r->t_tumble);
    else if (r->status != VB_STATUS_OK && r->fail_step > 0)
        fprintf(f, "%s at step %llu (t = %.4g s)", vb_status_name(r->status), r->fail_step,
                (double)r->fail_step * r->dt);
    else if (r->status != VB_STATUS_OK)
        fputs(vb_status_name(r->status), f);
    else
        fputs("never", f);
}

static void rigid_rates_table(const vb_sweep *s, FILE *f)
{
    const vb_case *c = s->c;
    if (!s->n_rates)
        return;
    int flips = exact_flips(s) > 0;
    vb_plan_kind kind_of[3];
    int kinds = vb_sweep_rate_kinds(c, kind_of);
    fputs("The same scenario at display rates of ", f);
    for (int i = 0; i < c->n_rates; i++)
        fprintf(f, "%s%g", i ? ", " : "", c->rates[i]);
    fputs(" Hz (`rates.csv`): how far the rates spread, ", f);
    vb_rates_list_kinds(kind_of, kinds, f);
    fputs(". Attitude at t_end: the largest angle between the attitudes two rates draw at "
          "t_end, radians (round-off: a rate tumbled, and past a tumble round-off sets the "
          "attitude); energy: the largest relative energy error, max − min over the rates",
          f);
    fputs(flips ? "." : "; and when the stable spin first tumbled at each rate.", f);
    vb_rates_accumulator_note(s, f);
    fputs("\n\n", f);
    fprintf(f, "| integrator | frames | attitude at t_end | energy |%s\n|---|---|---|---|%s\n",
            flips ? "" : " tumbles at, each rate |", flips ? "" : "---|");
    for (size_t i = 0; i < c->n_integ; i++)
        for (int kd = 0; kd < kinds; kd++) {
            rate_rows rr = rows_of(s, i, kind_of[kd]);
            if (!rr.n)
                continue; /* an engine: not in the table */
            fprintf(f, "| `%s` | %s |", c->integ[i]->name, vb_plan_name(kind_of[kd]));
            spread_cells(f, &rr);
            for (int a = 0; !flips && a < rr.n; a++) {
                fputs(a ? " / " : " ", f);
                rate_tumble_cell(f, rr.row[a]);
            }
            fputs(flips ? "\n" : " |\n", f);
        }
    fputc('\n', f);
}

void vb_rigid_summary(const vb_sweep *s, FILE *f)
{
    rigid_table(s, f);
    rigid_rates_table(s, f);
}
