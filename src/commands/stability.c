/* commands/stability.c — `verletbench stability`: the largest stable step of
 * each integrator on a model (stability/stability_search.h), its files
 * written by stability/stability_files.h. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "integrator.h"
#include "model.h"
#include "stability_search.h"
#include "stability_files.h"
#include "stability_study.h"

#define CMD "stability"
#define MAX_LIST 64

static void help(void)
{
    puts("Usage: verletbench stability --model M [--set KEY=VALUE]... [--vary KEY=V1,V2,...]\n"
         "                             [--integrator I[,I...]]... [--jitter J1,J2,...]\n"
         "                             [--seeds N] [--seed S] [--periods P] [--factor F]\n"
         "                             [--rtol R] [--scan-from Z] [--out DIR] [-j N]\n"
         "                             [--max-steps N]\n\n"
         "Finds the largest stable step of each integrator on a model, as z = omega h:\n"
         "  spring         omega0 = sqrt(k/m)\n"
         "  damped-spring  omega0 = sqrt(k/m) (vary c: the limit against damping)\n"
         "  chain          omega_max = 2 sqrt(k/m) cos(pi/(2(N+1))), its highest mode\n"
         "  orbit          omega_p = sqrt(mu(1+e)/r_p^3), the turning rate at pericentre\n\n"
         "A run at z is unstable when within P periods of omega (N = ceil(2 pi P / z) steps;\n"
         "for the orbit, P orbits) its energy exceeds F times its start (the damped\n"
         "spring: its mechanical energy) or its state is not finite; the orbit is unstable\n"
         "when the body escapes (E >= 0).  From z = 0.05 (halved while unstable, down to\n"
         "1e-3) the search scans up by factors of 1.05 to the first unstable z, so it finds\n"
         "the first loss of stability (PEFRL is stable again above it), then bisects that\n"
         "bracket to a relative width R.  It reports the last stable z, the bracket, z per\n"
         "force evaluation, and the closed-form limit where there is one\n"
         "(docs/stability.md).  On the damped spring, a limit above an interval where the\n"
         "method's step matrix is unstable is said to be none, and the interval named: its\n"
         "growth was too slow for P periods to show.  With jitter the steps are\n"
         "dt (1 + J u), u uniform in [-1, 1) from GSL's mt19937 with seeds S..S+N-1; each\n"
         "seed is its own search and the summary gives their median and range.\n\n"
         "Options:\n"
         "  --model M        spring, damped-spring, chain or orbit\n"
         "  --set KEY=VALUE  a model parameter (repeatable); 'verletbench list' shows them\n"
         "  --vary KEY=LIST  a parameter taking each value of a comma list: the chart's x\n"
         "  --integrator I   methods, comma-separated or repeated (default: every built-in\n"
         "                   of fixed steps without rods: euler ... pefrl)\n"
         "  --jitter LIST    step jitters in [0, 1), comma-separated (default 0: fixed steps)\n"
         "  --seeds N        searches a jitter, seeds S..S+N-1 (default 8)\n"
         "  --seed S         the first seed (default 1)\n"
         "  --periods P      the run length of a verdict (default 1e4; orbit 100)\n"
         "  --factor F       the energy growth called unstable (default 1e6)\n"
         "  --rtol R         the final bracket's relative width (default 1e-10)\n"
         "  --scan-from Z    where the scan starts (default 0.05)\n"
         "  --out DIR        write stability.csv, stability-summary.csv, stability.md into DIR\n"
         "                   (default results/stability-MODEL); the table is printed anyway\n"
         "  -j, --jobs N     threads (default every CPU)\n"
         "  --max-steps N    refuse a verdict of more steps (default 1e9)\n"
         "  --help           this text\n\n"
         "Chart: gnuplot -c plots/stability.gp DIR/stability-summary.csv out.png [TITLE]\n\n"
         "Examples:\n"
         "  verletbench stability --model spring\n"
         "  verletbench stability --model damped-spring --vary c=0,0.2,0.5,1,1.5,1.9\n"
         "  verletbench stability --model spring --integrator velocity-verlet "
         "--jitter 0.1,0.5,0.9 --periods 1000\n\n"
         "Exit status: 0 done, 1 a search failed, 2 bad usage or input (an --out that is\n"
         "not a directory, a verdict over --max-steps).");
}

/* "a,b,c" into numbers: count, or -1 after the message */
static int number_list(const char *opt, const char *text, double *out, size_t max)
{
    size_t n = 0;
    const char *s = text;
    for (;;) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        char buf[64];
        if (len == 0 || len >= sizeof buf || n == max) {
            vb_usage_error(CMD, "%s: '%s': give a comma-separated list of at most %zu numbers",
                           opt, text, max);
            return -1;
        }
        memcpy(buf, s, len);
        buf[len] = '\0';
        if (vb_opt_double(CMD, opt, buf, &out[n]) != 0)
            return -1;
        n++;
        if (!comma)
            return (int)n;
        s = comma + 1;
    }
}

/* one name of --integrator into the list: 0, or -1 after the message */
static int add_integrator(const char *name, const vb_integrator **list, size_t *n)
{
    char err[1024];
    const vb_integrator *g = strchr(name, ':') ? vb_integrator_lookup(name, err, sizeof err)
                                               : vb_integrator_find(name);
    if (!g) {
        if (!strchr(name, ':')) {
            vb_integrator_names(err, sizeof err);
            vb_usage_error(CMD, "--integrator: unknown integrator '%s' (valid: %s)", name, err);
        } else {
            vb_usage_error(CMD, "--integrator: %s", err);
        }
        return -1;
    }
    if (g->flags & VB_ADAPTIVE) {
        vb_usage_error(CMD, "--integrator: %s chooses its own steps; a stability limit is a "
                            "property of a fixed step",
                       name);
        return -1;
    }
    if (*n == MAX_LIST) {
        vb_usage_error(CMD, "--integrator: at most %d", MAX_LIST);
        return -1;
    }
    list[(*n)++] = g;
    return 0;
}

static int integrator_list(const char *text, const vb_integrator **list, size_t *n)
{
    char *copy = strdup(text);
    int rc = 0;
    if (!copy)
        return -1;
    char *save = NULL;
    int any = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok && rc == 0;
         tok = strtok_r(NULL, ",", &save)) {
        rc = add_integrator(tok, list, n);
        any = 1;
    }
    if (!any && rc == 0) {
        vb_usage_error(CMD, "--integrator: empty");
        rc = -1;
    }
    free(copy);
    return rc;
}

int vb_cmd_stability(int argc, char **argv)
{
    enum {
        O_MODEL = 256, O_SET, O_VARY, O_INTEG, O_JITTER, O_SEEDS, O_SEED, O_PERIODS, O_FACTOR,
        O_RTOL, O_FROM, O_OUT, O_HELP
    };
    static const struct option opts[] = {
        {"model", required_argument, NULL, O_MODEL},
        {"set", required_argument, NULL, O_SET},
        {"vary", required_argument, NULL, O_VARY},
        {"integrator", required_argument, NULL, O_INTEG},
        {"jitter", required_argument, NULL, O_JITTER},
        {"seeds", required_argument, NULL, O_SEEDS},
        {"seed", required_argument, NULL, O_SEED},
        {"periods", required_argument, NULL, O_PERIODS},
        {"factor", required_argument, NULL, O_FACTOR},
        {"rtol", required_argument, NULL, O_RTOL},
        {"scan-from", required_argument, NULL, O_FROM},
        {"out", required_argument, NULL, O_OUT},
        VB_OPTION_JOBS,
        VB_OPTION_MAX_STEPS,
        {"help", no_argument, NULL, O_HELP},
        {NULL, 0, NULL, 0},
    };
    const char *model_name = NULL, *vary = NULL, *out_dir = NULL;
    const char *sets[64];
    int n_sets = 0;
    const vb_integrator *integ[MAX_LIST];
    size_t n_integ = 0;
    double values[MAX_LIST], jitters[MAX_LIST] = {0.0};
    int n_values = 0, n_jitters = 1;
    unsigned long seeds = 8, seed = 1;
    double periods = NAN, factor = NAN, rtol = NAN, from = NAN;
    vb_shared_opts so = vb_shared_opts_plain();
    int c, rc;

    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":j:", opts, NULL)) != -1) {
        switch (c) {
        case O_MODEL:
            model_name = optarg;
            break;
        case O_SET:
            if (n_sets == (int)(sizeof sets / sizeof sets[0]))
                return vb_usage_error(CMD, "--set: too many parameters");
            sets[n_sets++] = optarg;
            break;
        case O_VARY: {
            const char *eq = strchr(optarg, '=');
            if (!eq || eq == optarg)
                return vb_usage_error(CMD, "--vary: expected KEY=V1,V2,..., got '%s'", optarg);
            if ((n_values = number_list("--vary", eq + 1, values, MAX_LIST)) < 0)
                return VB_EXIT_USAGE;
            vary = optarg;
            break;
        }
        case O_INTEG:
            if (integrator_list(optarg, integ, &n_integ) != 0)
                return VB_EXIT_USAGE;
            break;
        case O_JITTER:
            if ((n_jitters = number_list("--jitter", optarg, jitters, MAX_LIST)) < 0)
                return VB_EXIT_USAGE;
            for (int i = 0; i < n_jitters; i++)
                if (!(jitters[i] >= 0.0 && jitters[i] < 1.0))
                    return vb_usage_error(CMD, "--jitter: %g must be in [0, 1)", jitters[i]);
            break;
        case O_SEEDS:
            if (vb_opt_ulong(CMD, "--seeds", optarg, &seeds) != 0)
                return VB_EXIT_USAGE;
            if (seeds < 1 || seeds > 1000)
                return vb_usage_error(CMD, "--seeds: %s: give 1 to 1000", optarg);
            break;
        case O_SEED:
            if (vb_opt_ulong(CMD, "--seed", optarg, &seed) != 0)
                return VB_EXIT_USAGE;
            break;
        case O_PERIODS:
            if (vb_opt_double(CMD, "--periods", optarg, &periods) != 0)
                return VB_EXIT_USAGE;
            if (!(periods >= 1.0 && periods <= 1e9))
                return vb_usage_error(CMD, "--periods: %s must be in [1, 1e9]", optarg);
            break;
        case O_FACTOR:
            if (vb_opt_double(CMD, "--factor", optarg, &factor) != 0)
                return VB_EXIT_USAGE;
            if (!(factor > 1.0 && factor <= 1e100))
                return vb_usage_error(CMD, "--factor: %s must be > 1 (and <= 1e100)", optarg);
            break;
        case O_RTOL:
            if (vb_opt_double(CMD, "--rtol", optarg, &rtol) != 0)
                return VB_EXIT_USAGE;
            if (!(rtol >= 1e-14 && rtol <= 0.1))
                return vb_usage_error(CMD, "--rtol: %s must be in [1e-14, 0.1]", optarg);
            break;
        case O_FROM:
            if (vb_opt_double(CMD, "--scan-from", optarg, &from) != 0)
                return VB_EXIT_USAGE;
            if (!(from >= 1e-3 && from <= 20.0))
                return vb_usage_error(CMD, "--scan-from: %s must be in [1e-3, 20]", optarg);
            break;
        case O_OUT:
            out_dir = optarg;
            break;
        case O_HELP:
            help();
            return VB_EXIT_OK;
        default:
            if ((rc = vb_opt_shared(CMD, c, &so, argv)) != 0)
                return rc;
            break;
        }
    }
    if (vb_shared_opts_env(CMD, &so) != 0)
        return VB_EXIT_USAGE;
    if (optind < argc)
        return vb_usage_error(CMD, "unexpected argument '%s'", argv[optind]);
    if (!model_name)
        return vb_usage_error(CMD, "--model is required (one of: %s)", vb_stab_models());
    const vb_model_type *mtype = vb_model_find(model_name);
    if (!mtype)
        return vb_usage_error(CMD, "--model: unknown model '%s' (one of: %s)", model_name,
                              vb_stab_models());
    if (n_integ == 0)
        for (size_t i = 0; i < vb_integrator_count() && vb_integrator_builtin(vb_integrator_at(i));
             i++) {
            const vb_integrator *g = vb_integrator_at(i);
            if (!(g->flags & (VB_ADAPTIVE | VB_CONSTRAINED)))
                integ[n_integ++] = g;
        }

    /* a model a point: the --set values, then the varied one */
    char key[64] = "";
    if (vary) {
        size_t len = (size_t)(strchr(vary, '=') - vary);
        if (len >= sizeof key)
            return vb_usage_error(CMD, "--vary: '%s': no such parameter", vary);
        memcpy(key, vary, len);
        key[len] = '\0';
        /* one point a value: a value twice would be two identical rows */
        for (int a = 0; a < n_values; a++)
            for (int b = a + 1; b < n_values; b++)
                if (values[a] == values[b])
                    return vb_usage_error(CMD, "--vary: %s=%g is given twice", key, values[a]);
        /* the varied parameter would silently override its --set */
        for (int i = 0; i < n_sets; i++)
            if (!strncmp(sets[i], key, len) && sets[i][len] == '=')
                return vb_usage_error(CMD, "--set %s and --vary %s=...: the parameter is either "
                                      "fixed or varied, not both", sets[i], key);
    } else {
        n_values = 1;
    }
    vb_model models[MAX_LIST];
    vb_stab_problem problems[MAX_LIST];
    int made = 0, status = VB_EXIT_USAGE;
    char err[1024];
    for (int p = 0; p < n_values; p++) {
        vb_model_defaults(&models[p], mtype);
        for (int i = 0; i < n_sets; i++)
            if (vb_opt_set_param(CMD, &models[p], sets[i]) != 0)
                goto out;
        if (vary) {
            char text[40];
            vb_format_shortest(values[p], text, sizeof text);
            if (vb_model_set(&models[p], key, text, err, sizeof err) != 0) {
                vb_usage_error(CMD, "--vary: %s", err);
                goto out;
            }
        }
        if (vb_model_setup(&models[p], err, sizeof err) != 0) {
            vb_usage_error(CMD, "%s: %s", vary ? "--vary" : "--set", err);
            goto out;
        }
        made++;
        if (vb_stab_problem_setup(&models[p], &problems[p], err, sizeof err) != 0) {
            vb_usage_error(CMD, "--model: %s", err);
            goto out;
        }
        if (vb_stab_problem_start(&problems[p], err, sizeof err) != 0) {
            vb_usage_error(CMD, "%s: %s", vary ? "--vary" : "--set", err);
            goto out;
        }
        for (size_t g = 0; g < n_integ; g++)
            if (vb_integrator_suits(integ[g], &models[p], err, sizeof err) != 0) {
                vb_usage_error(CMD, "--integrator: %s", err);
                goto out;
            }
    }

    vb_stab_study study = {
        .vary = vary ? key : NULL,
        .n_points = (size_t)n_values,
        .values = vary ? values : NULL,
        .problems = problems,
        .integ = integ,
        .n_integ = n_integ,
        .jitters = jitters,
        .n_jitters = (size_t)n_jitters,
        .seeds = (unsigned)seeds,
        .seed0 = seed,
        .opts = vb_stab_opts_default(&problems[0]),
    };
    if (!isnan(periods))
        study.opts.periods = periods;
    if (!isnan(factor))
        study.opts.factor = factor;
    if (!isnan(rtol))
        study.opts.rtol = rtol;
    if (!isnan(from))
        study.opts.z_start = from;
    study.opts.max_steps = so.max_steps;
    for (int p = 0; p < n_values; p++)
        if (vb_stab_problem_scale(&problems[p], study.opts.z_min, study.opts.z_max, err,
                                  sizeof err) != 0) {
            vb_usage_error(CMD, "%s: %s", vary ? "--vary" : "--set", err);
            goto out;
        }
    char dir[4096];
    out_dir = vb_opt_study_dir(CMD, out_dir, "stability", mtype->name, dir, sizeof dir);
    if (!out_dir)
        goto out;
    rc = vb_stab_study_run(&study, so.threads, err, sizeof err);
    if (rc != 0) {
        if (rc == -2)
            vb_usage_error(CMD, "--max-steps: %s", err);
        else
            vb_error(CMD, "%s", err);
        status = rc == -2 ? VB_EXIT_USAGE : VB_EXIT_FAIL;
        vb_stab_study_free(&study);
        goto out;
    }
    vb_stab_print_table(stdout, &study);
    status = VB_EXIT_OK;
    if (vb_stab_write(out_dir, &study, err, sizeof err) != 0) {
        vb_error(CMD, "%s", err);
        status = VB_EXIT_FAIL;
    }
    vb_stab_study_free(&study);
out:
    for (int p = 0; p < made; p++)
        vb_model_free(&models[p]);
    return status;
}
