/* report.c — what a sweep says besides its tables: every run an engine or
 * a plugin's worker failed, and, for run --strict, every verdict below the
 * label.  Said as verletbench's messages are, "verletbench CMD: ...". */
#include "report.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "integrator.h"

static void say(FILE *f, const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* "verletbench CMD: message", a line */
static void say(FILE *f, const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(f, "verletbench %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
}

/* How the runs behind a verdict's infinite points ended: diverged when
 * any did (the method blew up), else the status of the first of them that
 * did not finish (an engine or a plugin that failed them, an exact
 * solution that could not be computed); ok when none is infinite. */
static vb_status unfinished_as(const vb_sweep *s, const vb_order_row *r)
{
    vb_status seen = VB_STATUS_OK;
    for (size_t k = 0; k < s->n_jobs; k++) {
        const vb_sweep_job *j = &s->jobs[k];
        if (j->integ != r->integ || j->kind != r->kind || j->level < 0 ||
            j->level >= r->fit.n || !isinf(r->err[j->level]) || j->res.status == VB_STATUS_OK)
            continue;
        if (j->res.status == VB_STATUS_DIVERGED)
            return VB_STATUS_DIVERGED;
        if (seen == VB_STATUS_OK)
            seen = j->res.status;
    }
    return seen;
}

/* Does a verdict fail --strict?  below-label and not-converging always.
 * Against a label, also a trend below it (no-asymptotic-range whose
 * order, over every point, is more than VB_VERDICT_TOL under the label:
 * the error falls, but slower than the label says at every step size
 * measured; a method made first order on an orbit whose errors never
 * settle into one power law is that, not "no verdict"), and undetermined
 * where a run did not finish (its error is infinite: nothing could be
 * fitted because the method blew up, not because it was exact), its
 * status said.  Never uncertain (the points cannot tell), nor a trend at
 * or above the label (a pre-asymptotic fall, Euler's 7.6 on the 64-mass
 * chain).  *counted 0 for runs an engine or a plugin's worker failed: no
 * verdict on the method at all, said as such, and not one below its label
 * (vb_report_run_failures says each of them, and they fail the run). */
static const char *strict_fails(const vb_sweep *s, const vb_order_row *r, int label,
                                int *counted)
{
    *counted = 1;
    switch (r->verdict) {
    case VB_VERDICT_BELOW:
    case VB_VERDICT_NOT_CONVERGING:
        return "";
    case VB_VERDICT_NO_ASYMPTOTIC:
        return label > 0 && r->fit.order < label - VB_VERDICT_TOL ? " (a trend below the label)"
                                                                  : NULL;
    case VB_VERDICT_UNDETERMINED:
        if (label <= 0)
            return NULL;
        switch (unfinished_as(s, r)) {
        case VB_STATUS_OK:
            return NULL;
        case VB_STATUS_DIVERGED:
            return " (its runs diverged)";
        case VB_STATUS_EXACT_FAILED:
            return " (its runs exact-failed: the exact solution could not be computed)";
        case VB_STATUS_ENGINE_FAILED:
            *counted = 0;
            return " (its runs engine-failed: no verdict on the method, the engine's "
                   "failures said above)";
        case VB_STATUS_PLUGIN_FAILED:
            *counted = 0;
            return " (its runs plugin-failed: no verdict on the method, the worker's "
                   "failures said above)";
        }
        return NULL;
    default:
        return NULL;
    }
}

size_t vb_report_strict(FILE *f, const char *cmd, const vb_sweep *sweeps, size_t n, int mine)
{
    size_t below = 0, unjudged = 0;
    for (size_t i = 0; i < n; i++) {
        const vb_sweep *s = &sweeps[i];
        /* what the summary's table judges for every plan: a rigid body's
         * attitude, not its packed (x, q) (docs/rigid.md §7) */
        vb_norm judged = vb_norm_pose(s->c);
        for (size_t k = 0; k < s->n_orders; k++) {
            const vb_order_row *r = &s->orders[k];
            int shown = r->norm == judged ||
                        (r->norm == VB_NORM_ENERGY_MAX && r->kind == VB_PLAN_FIXED);
            vb_runner_caps cap = vb_sweep_caps(s->c, r->integ);
            const vb_integrator *g = cap.method;
            /* the label the verdict was judged against (analysis.c: none for
             * a velocity an engine derives from its positions) */
            int label = cap.velocity == VB_VELOCITY_DERIVED &&
                                vb_norm_needs_velocity(r->norm)
                            ? 0
                            : s->c->integ[r->integ]->order;
            int counted = 1;
            const char *why = shown ? strict_fails(s, r, label, &counted) : NULL;
            if (!why)
                continue;
            if (mine && cap.builtin)
                continue;
            char order[80] = "no order";
            if (isfinite(r->fit.order))
                snprintf(order, sizeof order, "order %.2f%s", r->fit.order,
                         r->fit.range == VB_RANGE_ALL ? "*" : "");
            if (r->fit.range == VB_RANGE_ALL && r->fit.saturation_hid_range)
                snprintf(order + strlen(order), sizeof order - strlen(order),
                         " (saturated at %d of %d steps)", r->fit.saturated, r->fit.n);
            char text[4096], expected[32] = "no label"; /* an engine measured without one */
            if (g->order > 0)
                snprintf(expected, sizeof expected, "label %d", g->order);
            say(f, cmd, "strict: %s: %s, %s steps, %s: %s, %s: %s%s",
                vb_case_label(s->c, text, sizeof text),
                s->c->integ[r->integ]->name, /* the row's: "tcv@variable" in a loop */
                vb_plan_name(r->kind),
                vb_norm_name(r->norm), order, expected, vb_verdict_name(r->verdict), why);
            *(counted ? &below : &unjudged) += 1;
        }
    }
    if (below)
        say(f, cmd,
            "strict: %zu verdict%s fail%s the label (below it, not converging, or undetermined "
            "where runs diverged or exact-failed); the results were written",
            below, below == 1 ? "" : "s", below == 1 ? "s" : "");
    if (unjudged)
        say(f, cmd,
            "strict: %zu verdict%s not made: the runs %s on were failed by an engine or a "
            "plugin, not judged against the label (those failures fail the run)",
            unjudged, unjudged == 1 ? "" : "s", unjudged == 1 ? "it rests" : "they rest");
    return below;
}

/* One failed engine or plugin run, said (the first 20 of them): the case,
 * the engine and its command or directory (cut at 200 characters), or the
 * plugin, the run and why. */
static void say_failure(FILE *f, const char *cmd, const vb_case *c, size_t integ, size_t *failed,
                        const char *id, const char *plan_text, const char *why)
{
    if ((*failed)++ >= 20)
        return;
    char label[4096], who[512];
    vb_runner_who(c->integ[integ], &c->model, who, sizeof who);
    say(f, cmd, "%s: %s: %s%s%s: %s", vb_case_label(c, label, sizeof label), who, id ? "run " : "",
        id ? id : "", plan_text, why);
}

size_t vb_report_run_failures(FILE *f, const char *cmd, const vb_sweep *sweeps, size_t n)
{
    size_t failed[2] = {0, 0}; /* engines', plugins' */
    char plan[128];
    for (size_t i = 0; i < n; i++) {
        const vb_sweep *s = &sweeps[i];
        for (size_t k = 0; k < s->n_jobs; k++) {
            const vb_sweep_job *j = &s->jobs[k];
            int plug = j->res.status == VB_STATUS_PLUGIN_FAILED;
            if (j->res.status != VB_STATUS_ENGINE_FAILED && !plug)
                continue;
            if (j->kind == VB_PLAN_RANDOM)
                snprintf(plan, sizeof plan, " (plan %s, level %d, seed %lu)",
                         vb_plan_name(j->kind), j->level, j->seed);
            else
                snprintf(plan, sizeof plan, " (plan %s, level %d)", vb_plan_name(j->kind),
                         j->level);
            say_failure(f, cmd, s->c, j->integ, &failed[plug], j->plan.id, plan,
                        vb_run_failure(&j->res));
        }
        /* the charts' long runs, when they are runs of their own, and paths */
        for (size_t k = 0; k < s->series.n_series; k++) {
            const vb_series_row *row = &s->series.series[k];
            int plug = row->status == VB_STATUS_PLUGIN_FAILED;
            if ((row->status != VB_STATUS_ENGINE_FAILED && !plug) ||
                strncmp(row->id, "long-", 5) != 0)
                continue;
            snprintf(plan, sizeof plan, " (the charts' long run, plan %s)",
                     vb_plan_name(row->kind));
            say_failure(f, cmd, s->c, row->integ, &failed[plug], row->id, plan, row->failure);
        }
        for (size_t k = 0; k < s->series.n_paths; k++) {
            const vb_path_row *row = &s->series.paths[k];
            if (!row->failure[0])
                continue;
            if (row->level)
                snprintf(plan, sizeof plan, "its path for the charts, plan %s, level %d (left out)",
                         vb_plan_name(row->kind), row->level);
            else
                snprintf(plan, sizeof plan, "its path for the charts, plan %s (left out)",
                         vb_plan_name(row->kind));
            say_failure(f, cmd, s->c, row->integ, &failed[1], NULL, plan, row->failure);
        }
        /* the frame-rate table's rows, each a run of its own (rates.h) */
        for (size_t k = 0; k < s->n_rates; k++) {
            const vb_rate_row *row = &s->rates[k];
            if (row->status != VB_STATUS_PLUGIN_FAILED)
                continue;
            char id[64];
            snprintf(id, sizeof id, "rates-%g-%s", row->rate, vb_plan_name(row->kind));
            snprintf(plan, sizeof plan, " (the frame-rate table, %g Hz, %s frames)", row->rate,
                     vb_plan_name(row->kind));
            say_failure(f, cmd, s->c, row->integ, &failed[1], id, plan, row->failure);
        }
        for (size_t k = 0; k < s->n_plugin_failed; k++) {
            const vb_plugin_failure *pf = &s->plugin_failed[k];
            snprintf(plan, sizeof plan, "%s (left out)", pf->what);
            say_failure(f, cmd, s->c, pf->integ, &failed[1], NULL, plan, pf->why);
        }
    }
    const char *rest = strcmp(cmd, "check") ? "result was written" : "run was compared";
    for (int p = 0; p < 2; p++) {
        if (failed[p] > 20)
            say(f, cmd, "... and %zu more %s failures", failed[p] - 20,
                p ? "plugin" : "engine run");
        if (failed[p])
            say(f, cmd, "%zu %s failed: %s; every other %s", failed[p],
                p ? (failed[p] == 1 ? "plugin run or part of a sweep"
                                    : "plugin runs or parts of a sweep")
                  : (failed[p] == 1 ? "engine run" : "engine runs"),
                p ? "a run's row says plugin-failed, and a part's rows are left out"
                  : "their rows say engine-failed",
                rest);
    }
    return failed[0] + failed[1];
}
