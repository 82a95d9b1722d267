/* cli.c — messages and option values for the subcommands. */
#include "cli.h"
#include "casefile.h"
#include "engine.h"
#include "integrator.h"

#include <getopt.h>
#include "integrator.h"
#include "plugin.h"
#include "sweep.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "plan.h"
#include <unistd.h>
void vb_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "verletbench %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int vb_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "verletbench %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'verletbench %s --help'.\n", cmd);
    return VB_EXIT_USAGE;
}

int vb_opt_double(const char *cmd, const char *opt, const char *arg, double *out)
{
    if (vb_parse_double(arg, out) != 0) {
        vb_usage_error(cmd, "%s: '%s' is not a finite number", opt, arg);
        return -1;
    }
    return 0;
}

int vb_opt_ulong(const char *cmd, const char *opt, const char *arg, unsigned long *out)
{
    char *end;
    errno = 0;
    const char *p = arg;
    while (*p == ' ')
        p++;
    unsigned long long x = strtoull(p, &end, 10);
    if (*p == '-' || *p == '\0' || *end != '\0' || errno == ERANGE || x > 0xffffffffULL) {
        vb_usage_error(cmd, "%s: '%s' is not a whole number in 0..4294967295", opt, arg);
        return -1;
    }
    *out = (unsigned long)x;
    return 0;
}

int vb_opt_plugin(const char *cmd, const char *path)
{
    char err[1024];
    if (vb_plugin_load(path, err, sizeof err) != 0) {
        vb_error(cmd, "%s", err);
        return -1;
    }
    return 0;
}

int vb_opt_threads(const char *cmd, const char *arg, unsigned *out)
{
    unsigned long n;
    char *end;
    errno = 0;
    n = strtoul(arg, &end, 10);
    /* one message for every wrong value, "-1" and "lots" as "5000" */
    if (arg[0] < '0' || arg[0] > '9' || *end != '\0' || errno == ERANGE || n < 1 || n > 1024) {
        vb_usage_error(cmd, "--jobs: '%s': give a whole number of threads from 1 to 1024", arg);
        return -1;
    }
    *out = (unsigned)n;
    return 0;
}

int vb_opt_max_steps(const char *cmd, const char *arg, double *out)
{
    if (vb_opt_double(cmd, "--max-steps", arg, out) != 0)
        return -1;
    if (!(*out >= 1) || *out > VB_PLAN_MAX_STEPS) {
        vb_usage_error(cmd, "--max-steps: %s must be from 1 to 2^50 = %.4g (the most steps a run "
                            "can count exactly)",
                       arg, VB_PLAN_MAX_STEPS);
        return -1;
    }
    return 0;
}

int vb_opt_set_param(const char *cmd, vb_model *m, const char *kv)
{
    char key[64];
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof key) {
        vb_usage_error(cmd, "--set: expected KEY=VALUE, got '%s'", kv);
        return -1;
    }
    memcpy(key, kv, (size_t)(eq - kv));
    key[eq - kv] = '\0';
    char err[512];
    if (vb_model_set(m, key, eq + 1, err, sizeof err) != 0) {
        vb_usage_error(cmd, "--set: %s", err);
        return -1;
    }
    return 0;
}

int vb_opt_bad(const char *cmd, int c, char **argv)
{
    if (c == ':')
        return vb_usage_error(cmd, "%s needs a value", argv[optind - 1]);
    return vb_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
}

static unsigned online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n >= 1 ? (unsigned)n : 1u;
}

vb_shared_opts vb_shared_opts_plain(void)
{
    vb_shared_opts o = {.max_steps = VB_DEFAULT_MAX_STEPS, .threads = online_cpus(),
                        .engine_timeout = VB_ENGINE_TIMEOUT};
    return o;
}

int vb_shared_opts_env(const char *cmd, vb_shared_opts *o)
{
    const char *ms = getenv("VERLETBENCH_MAX_STEPS"), *th = getenv("VERLETBENCH_THREADS");
    if (ms && ms[0] && !o->max_steps_given) {
        double x;
        if (vb_parse_double(ms, &x) != 0 || !(x >= 1) || x > VB_PLAN_MAX_STEPS) {
            vb_error(cmd, "VERLETBENCH_MAX_STEPS='%.40s': want a number from 1 to 2^50 = %.4g "
                          "(or unset it for the default, 1e9)",
                     ms, VB_PLAN_MAX_STEPS);
            return VB_EXIT_USAGE;
        }
        o->max_steps = x;
    }
    if (th && th[0] && !o->threads_given) {
        char *end;
        errno = 0;
        unsigned long n = strtoul(th, &end, 10);
        if (*end || errno || th[0] == '-' || n < 1 || n > 1024) {
            vb_error(cmd, "VERLETBENCH_THREADS='%.40s': want a whole number from 1 to 1024 (or "
                          "unset it for every CPU)",
                     th);
            return VB_EXIT_USAGE;
        }
        o->threads = (unsigned)n;
    }
    return 0;
}

int vb_opt_tolerance(const char *cmd, int c, double *rtol, double *floor_ulps, double *order_tol)
{
    const char *name = c == VB_OPT_RTOL ? "--rtol" : c == VB_OPT_FLOOR_ULPS ? "--floor-ulps"
                       : c == VB_OPT_ORDER_TOL ? "--order-tol" : NULL;
    double *v = c == VB_OPT_RTOL ? rtol : c == VB_OPT_FLOOR_ULPS ? floor_ulps : order_tol;
    if (!name)
        return -1;
    if (vb_opt_double(cmd, name, optarg, v) != 0)
        return VB_EXIT_USAGE;
    if (!(*v >= 0))
        return vb_usage_error(cmd, "%s: %s must be >= 0", name, optarg);
    return 0;
}

int vb_opt_shared(const char *cmd, int c, vb_shared_opts *o, char **argv)
{
    switch (c) {
    case VB_OPT_MAX_STEPS:
        o->max_steps_given = 1;
        return vb_opt_max_steps(cmd, optarg, &o->max_steps) == 0 ? 0 : VB_EXIT_USAGE;
    case VB_OPT_PLUGIN:
        return vb_opt_plugin(cmd, optarg) == 0 ? 0 : VB_EXIT_USAGE;
    case VB_OPT_JOBS:
        o->threads_given = 1;
        return vb_opt_threads(cmd, optarg, &o->threads) == 0 ? 0 : VB_EXIT_USAGE;
    case VB_OPT_ENGINE:
    case VB_OPT_TRAJECTORIES: {
        if (o->n_engines == VB_MAX_CLI_ENGINES)
            return vb_usage_error(cmd, "at most %d engines", VB_MAX_CLI_ENGINES);
        /* checked now, so a mistake is said before anything runs */
        char err[256];
        vb_engine *e = vb_engine_parse(optarg, c == VB_OPT_TRAJECTORIES, err, sizeof err);
        if (!e)
            return vb_usage_error(cmd, "--%s: %s",
                                  c == VB_OPT_ENGINE ? "engine" : "trajectories", err);
        vb_engine_free(e);
        o->engine_is_dir[o->n_engines] = c == VB_OPT_TRAJECTORIES;
        o->engine[o->n_engines++] = optarg;
        return 0;
    }
    case VB_OPT_ENGINES_ONLY:
        o->engines_only = 1;
        return 0;
    case VB_OPT_PLUGIN_TIMEOUT: {
        double t;
        if (vb_parse_double(optarg, &t) != 0 || !(t > 0.0) || t > 1e6)
            return vb_usage_error(cmd, "--plugin-timeout: '%s': give seconds, 0 < S <= 1e6",
                                  optarg);
        vb_plugin_set_timeout(t);
        return 0;
    }
    case VB_OPT_ENGINE_TIMEOUT:
        o->engine_timeout_given = 1;
        if (vb_parse_double(optarg, &o->engine_timeout) != 0 || !(o->engine_timeout > 0.0) ||
            o->engine_timeout > 1e6)
            return vb_usage_error(cmd, "--engine-timeout: '%s': give seconds, 0 < S <= 1e6",
                                  optarg);
        return 0;
    default:
        return vb_opt_bad(cmd, c, argv);
    }
}

int vb_case_add_cli_engines(const char *cmd, struct vb_case *c, const vb_shared_opts *o)
{
    char err[8192];
    if (vb_case_add_engine_specs(c, o->engine, o->engine_is_dir, o->n_engines, o->engine_timeout,
                                 o->engine_timeout_given, o->engines_only, err, sizeof err) != 0) {
        vb_error(cmd, "%s", err);
        return VB_EXIT_USAGE;
    }
    return 0;
}

size_t vb_report_strict(const char *cmd, const struct vb_sweep *sweeps, size_t n, int mine)
{
    size_t below = 0;
    for (size_t i = 0; i < n; i++) {
        const vb_sweep *s = &sweeps[i];
        for (size_t k = 0; k < s->n_orders; k++) {
            const vb_order_row *r = &s->orders[k];
            int shown = r->norm == VB_NORM_POS_MAX ||
                        (r->norm == VB_NORM_ENERGY_MAX && r->kind == VB_PLAN_FIXED);
            if (!shown ||
                (r->verdict != VB_VERDICT_BELOW && r->verdict != VB_VERDICT_NOT_CONVERGING))
                continue;
            const vb_integrator *g = s->c->integ[r->integ];
            if (mine && vb_integrator_builtin(g))
                continue;
            char order[32] = "no order";
            if (isfinite(r->fit.order))
                snprintf(order, sizeof order, "order %.2f%s", r->fit.order,
                         r->fit.range == VB_RANGE_ALL ? "*" : "");
            char label[4096];
            vb_error(cmd, "strict: %s: %s, %s steps, %s: %s, label %d: %s",
                     vb_case_label(s->c, label, sizeof label), g->name,
                     vb_plan_name(r->kind), vb_norm_name(r->norm), order, g->order,
                     vb_verdict_name(r->verdict));
            below++;
        }
    }
    if (below)
        vb_error(cmd, "strict: %zu verdict%s below the label%s; the results were written", below,
                 below == 1 ? "" : "s", below == 1 ? "" : "s");
    return below;
}

/* One failed engine or plugin run, said (the first 20 of them): the case,
 * the engine and its command or directory (cut at 200 characters), or the
 * plugin, the run and why. */
static void say_failure(const char *cmd, const vb_case *c, size_t integ, size_t *failed,
                        const char *id, const char *plan_text, const char *why)
{
    if ((*failed)++ >= 20)
        return;
    char label[4096], who[512];
    const vb_engine *e = vb_engine_of(c->integ[integ]);
    unsigned long long h;
    const char *name = vb_integrator_type(c->integ[integ])->name;
    const char *file = vb_plugin_of_integrator(name, &h);
    if (e) {
        const char *src = e->command ? e->command : e->dir;
        snprintf(who, sizeof who, "engine %s (%.200s%s)", e->name, src,
                 strlen(src) > 200 ? "..." : "");
    } else if (file) {
        snprintf(who, sizeof who, "plugin integrator %s (%s)", c->integ[integ]->name, file);
    } else {
        file = vb_plugin_of_model(c->model.type->name, &h);
        snprintf(who, sizeof who, "%s on the plugin model %s (%s)", c->integ[integ]->name,
                 c->model.type->name, file ? file : "?");
    }
    vb_error(cmd, "%s: %s: %s%s%s: %s", vb_case_label(c, label, sizeof label), who,
             id ? "run " : "", id ? id : "", plan_text, why);
}

size_t vb_report_run_failures(const char *cmd, const struct vb_sweep *sweeps, size_t n)
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
            say_failure(cmd, s->c, j->integ, &failed[plug], j->plan.id, plan,
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
            say_failure(cmd, s->c, row->integ, &failed[plug], row->id, plan, row->failure);
        }
        for (size_t k = 0; k < s->series.n_paths; k++) {
            const vb_path_row *row = &s->series.paths[k];
            if (!row->failure[0])
                continue;
            snprintf(plan, sizeof plan, "its path for the charts, plan %s (left out)",
                     vb_plan_name(row->kind));
            say_failure(cmd, s->c, row->integ, &failed[1], NULL, plan, row->failure);
        }
        for (size_t k = 0; k < s->n_plugin_failed; k++) {
            const vb_plugin_failure *f = &s->plugin_failed[k];
            snprintf(plan, sizeof plan, "%s (left out)", f->what);
            say_failure(cmd, s->c, f->integ, &failed[1], NULL, plan, f->why);
        }
    }
    const char *rest = strcmp(cmd, "check") ? "result was written" : "run was compared";
    for (int p = 0; p < 2; p++) {
        if (failed[p] > 20)
            vb_error(cmd, "... and %zu more %s failures", failed[p] - 20,
                     p ? "plugin" : "engine run");
        if (failed[p])
            vb_error(cmd, "%zu %s failed: %s; every other %s", failed[p],
                     p ? (failed[p] == 1 ? "plugin run or part of a sweep"
                                         : "plugin runs or parts of a sweep")
                       : (failed[p] == 1 ? "engine run" : "engine runs"),
                     p ? "a run's row says plugin-failed, and a part's rows are left out"
                       : "their rows say engine-failed",
                     rest);
    }
    return failed[0] + failed[1];
}

int vb_opt_shard(const char *cmd, const char *text, int *k, int *n)
{
    char *end;
    errno = 0;
    long a = strtol(text, &end, 10);
    long b = 0;
    int ok = !errno && end != text && *end == '/' && isdigit((unsigned char)text[0]);
    if (ok) {
        const char *t = end + 1;
        b = strtol(t, &end, 10);
        ok = !errno && end != t && !*end && isdigit((unsigned char)t[0]);
    }
    if (!ok || a < 1 || b < 1 || a > b || b > VB_MAX_SHARDS) {
        vb_usage_error(cmd, "--shard: '%s' is not K/N with 1 <= K <= N <= %d", text,
                       VB_MAX_SHARDS);
        return -1;
    }
    *k = (int)a;
    *n = (int)b;
    return 0;
}
