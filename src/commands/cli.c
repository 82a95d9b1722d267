/* cli.c — messages and option values for the subcommands. */
#include "cli.h"
#include "casefile.h"
#include "engine.h"
#include "integrator.h"
#include "numbers.h"
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
#include <sys/stat.h>
#include <unistd.h>
const char *vb_opt_study_dir(const char *cmd, const char *out, const char *prefix,
                             const char *model, char *buf, size_t len)
{
    if (!out) {
        snprintf(buf, len, "results/%s-%s", prefix, model);
        out = buf;
    }
    struct stat st;
    const char *why = stat(out, &st) != 0 ? (errno == ENOENT ? NULL : strerror(errno))
                      : S_ISDIR(st.st_mode) ? NULL
                                            : "exists and is not a directory";
    if (why) {
        vb_usage_error(cmd, "--out: %s: %s", out, why);
        return NULL;
    }
    return out;
}

int vb_opt_model(const char *cmd, const char *name, const vb_model_type **out)
{
    char names[512];
    *out = name ? vb_model_find(name) : NULL;
    if (*out)
        return 0;
    vb_model_names_text(names, sizeof names);
    if (!name)
        return vb_usage_error(cmd, "--model is required (one of: %s)", names);
    return vb_usage_error(cmd, "--model: unknown model '%s' (valid: %s)", name, names);
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
    unsigned long long n;
    /* one message for every wrong value, "-1" and "lots" as "5000" */
    if (vb_parse_whole(arg, 1024, &n) != 0 || n < 1) {
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

int vb_opt_set_params(const char *cmd, vb_model *m, const char *const *kv, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t len = strcspn(kv[i], "=");
        for (size_t j = 0; j < i; j++)
            if (kv[i][len] == '=' && !strncmp(kv[j], kv[i], len) && kv[j][len] == '=') {
                vb_usage_error(cmd, "--set: %.*s is set twice (%s, then %s)", (int)len, kv[i],
                               kv[j], kv[i]);
                return -1;
            }
        if (vb_opt_set_param(cmd, m, kv[i]) != 0)
            return -1;
    }
    return 0;
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
        unsigned long long n;
        if (vb_parse_whole(th, 1024, &n) != 0 || n < 1) {
            vb_error(cmd, "VERLETBENCH_THREADS='%.40s': want a whole number from 1 to 1024 (or "
                          "unset it for every CPU)",
                     th);
            return VB_EXIT_USAGE;
        }
        o->threads = (unsigned)n;
    }
    return 0;
}

/* one shared option's value (arg) by its code: 0, or the exit status
 * after the message; -1 when c is none of them */
static int shared_value(const char *cmd, int c, vb_shared_opts *o, const char *arg)
{
    switch (c) {
    case VB_OPT_MAX_STEPS:
        o->max_steps_given = 1;
        return vb_opt_max_steps(cmd, arg, &o->max_steps) == 0 ? 0 : VB_EXIT_USAGE;
    case VB_OPT_PLUGIN:
        return vb_opt_plugin(cmd, arg) == 0 ? 0 : VB_EXIT_USAGE;
    case VB_OPT_JOBS:
        o->threads_given = 1;
        return vb_opt_threads(cmd, arg, &o->threads) == 0 ? 0 : VB_EXIT_USAGE;
    case VB_OPT_ENGINE:
    case VB_OPT_TRAJECTORIES: {
        if (o->n_engines == VB_MAX_CLI_ENGINES)
            return vb_usage_error(cmd, "at most %d engines", VB_MAX_CLI_ENGINES);
        /* parsed now, once, so a mistake is said before anything runs */
        char err[256];
        if (vb_engine_spec_parse(arg, c == VB_OPT_TRAJECTORIES, &o->engine[o->n_engines], err,
                                 sizeof err) != 0)
            return vb_usage_error(cmd, "--%s: %s",
                                  c == VB_OPT_ENGINE ? "engine" : "trajectories", err);
        o->n_engines++;
        return 0;
    }
    case VB_OPT_ENGINES_ONLY:
        o->engines_only = 1;
        return 0;
    case VB_OPT_PLUGIN_TIMEOUT: {
        double t;
        if (vb_parse_double(arg, &t) != 0 || !(t > 0.0) || t > 1e6)
            return vb_usage_error(cmd, "--plugin-timeout: '%s': give seconds, 0 < S <= 1e6",
                                  arg);
        vb_plugin_set_timeout(t);
        return 0;
    }
    case VB_OPT_ENGINE_TIMEOUT:
        o->engine_timeout_given = 1;
        if (vb_parse_double(arg, &o->engine_timeout) != 0 || !(o->engine_timeout > 0.0) ||
            o->engine_timeout > 1e6)
            return vb_usage_error(cmd, "--engine-timeout: '%s': give seconds, 0 < S <= 1e6",
                                  arg);
        return 0;
    default:
        return -1;
    }
}

int vb_opt_shared_row(const char *cmd, const vb_option *row, const char *arg)
{
    return shared_value(cmd, row->code, row->store, arg);
}

int vb_shared_opts_then(const char *cmd, void *so)
{
    return vb_shared_opts_env(cmd, so) != 0 ? VB_EXIT_USAGE : 0;
}


int vb_case_add_cli_engines(const char *cmd, struct vb_case *c, const vb_shared_opts *o)
{
    char err[8192];
    if (vb_case_add_engine_specs(c, o->engine, o->n_engines, o->engine_timeout,
                                 o->engine_timeout_given, o->engines_only, err, sizeof err) != 0) {
        vb_error(cmd, "%s", err);
        return VB_EXIT_USAGE;
    }
    return 0;
}

int vb_opt_shard(const char *cmd, const char *text, int *k, int *n)
{
    /* K and N each a whole number as any other (numbers.h), round the '/' */
    char kt[24];
    const char *slash = strchr(text, '/');
    unsigned long long a = 0, b = 0;
    int ok = slash && (size_t)(slash - text) < sizeof kt;
    if (ok) {
        memcpy(kt, text, (size_t)(slash - text));
        kt[slash - text] = '\0';
        ok = vb_parse_whole(kt, VB_MAX_SHARDS, &a) == 0 &&
             vb_parse_whole(slash + 1, VB_MAX_SHARDS, &b) == 0;
    }
    if (!ok || a < 1 || b < 1 || a > b) {
        vb_usage_error(cmd, "--shard: '%s' is not K/N with 1 <= K <= N <= %d", text,
                       VB_MAX_SHARDS);
        return -1;
    }
    *k = (int)a;
    *n = (int)b;
    return 0;
}
