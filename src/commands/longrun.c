/* commands/longrun.c — `verletbench longrun`: runs of up to 1e9 periods
 * (1e5 by default), their energy and phase errors' growth exponents and
 * drift (longrun/longrun_run.h), written by longrun/longrun_files.h. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compensated.h"
#include "integrator.h"
#include "longrun_files.h"
#include "longrun_study.h"
#include "model.h"

#define CMD "longrun"
#define MAX_INTEG 32

static void help(void)
{
    puts("Usage: verletbench longrun --model M [--set KEY=VALUE]... --integrator I[,I...]...\n"
         "                           [--periods P] [--steps-per-period S] [--kahan]\n"
         "                           [--per-decade K] [--fit-from F] [--out DIR] [-j N]\n"
         "                           [--max-steps N]\n\n"
         "Runs each integrator with fixed steps h = T/S for P periods T of the model (its\n"
         "natural time), in memory that does not grow with P, and samples on a logarithmic\n"
         "grid, K times a decade from t = T: the relative energy error (E - E0)/|E0| and\n"
         "its running maximum, and the phase error, the angle between the state and the\n"
         "exact one (one particle: in the (x, v/w) plane in one dimension, between the\n"
         "positions in two or three).  It fits the exponent p of max error ~ t^p from\n"
         "t = F T on and names it: p < 1/4 bounded, < 3/4 random walk (t^1/2, Brouwer's\n"
         "law for round-off), < 3/2 secular (t^1), else faster.  The drift is the\n"
         "least-squares slope of E - E0 against t (energy per time; per particle too), as\n"
         "molecular dynamics codes report it.  See docs/longrun.md.\n\n"
         "Options:\n"
         "  --model M        a model with an energy and an exact solution: spring, pendulum,\n"
         "                   orbit, ...; T is its period (the chain's: its slowest mode's;\n"
         "                   the projectile's: its time of flight, an unbounded motion)\n"
         "  --set KEY=VALUE  a model parameter (repeatable)\n"
         "  --integrator I   methods, comma-separated or repeated\n"
         "  --periods P      the run's length in periods, 100 F to 1e9 (default 1e5; with\n"
         "                   the default --fit-from 10, at least 1000: two decades to fit)\n"
         "  --steps-per-period S  fixed steps a period (default 100)\n"
         "  --kahan          also run each method that has one in its Kahan-compensated form\n"
         "                   (euler-semi, velocity-verlet, yoshida4, pefrl)\n"
         "  --per-decade K   samples a decade, 1 to 50 (default 10)\n"
         "  --fit-from F     fit from t = F periods on (default 10)\n"
         "  --out DIR        write longrun.csv, longrun-summary.csv and longrun.md into DIR\n"
         "                   (default results/longrun-MODEL); the table is printed anyway\n"
         "  -j, --jobs N     threads: a run each (default every CPU)\n"
         "  --max-steps N    refuse a run longer than N steps (default 1e9)\n"
         "  --help           this text\n\n"
         "Chart: gnuplot -c plots/longrun.gp DIR/longrun.csv out.png [TITLE]\n\n"
         "Example:\n"
         "  verletbench longrun --model orbit --set e=0.5 --integrator "
         "velocity-verlet,rk4,yoshida4 --periods 1e5\n\n"
         "Exit status: 0 done (a run that diverged is a result), 1 a run failed, 2 bad usage.");
}

static int add_list(const char *text, const vb_integrator **list, size_t *n)
{
    char *copy = strdup(text), *save = NULL;
    if (!copy)
        return -1;
    int rc = 0, any = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok && rc == 0;
         tok = strtok_r(NULL, ",", &save)) {
        char names[1024];
        const vb_integrator *g = strchr(tok, ':') ? vb_integrator_lookup(tok, names, sizeof names)
                                                  : vb_integrator_find(tok);
        any = 1;
        if (!g) {
            if (!strchr(tok, ':'))
                vb_integrator_names(names, sizeof names);
            vb_usage_error(CMD, strchr(tok, ':') ? "--integrator: %s%s"
                                                 : "--integrator: unknown integrator '%s' "
                                                   "(valid: %s)",
                           strchr(tok, ':') ? "" : tok, names);
            rc = -1;
        } else if (g->flags & VB_ADAPTIVE) {
            vb_usage_error(CMD, "--integrator: %s chooses its own steps; a long run here is "
                                "of fixed steps", tok);
            rc = -1;
        } else if (*n == MAX_INTEG / 2) {
            vb_usage_error(CMD, "--integrator: at most %d", MAX_INTEG / 2);
            rc = -1;
        } else {
            list[(*n)++] = g;
        }
    }
    if (!any && rc == 0) {
        vb_usage_error(CMD, "--integrator: empty");
        rc = -1;
    }
    free(copy);
    return rc;
}

int vb_cmd_longrun(int argc, char **argv)
{
    enum { O_MODEL = 256, O_SET, O_INTEG, O_PERIODS, O_SPP, O_KAHAN, O_PER_DECADE, O_FIT, O_OUT,
           O_HELP };
    static const struct option opts[] = {
        {"model", required_argument, NULL, O_MODEL},
        {"set", required_argument, NULL, O_SET},
        {"integrator", required_argument, NULL, O_INTEG},
        {"periods", required_argument, NULL, O_PERIODS},
        {"steps-per-period", required_argument, NULL, O_SPP},
        {"kahan", no_argument, NULL, O_KAHAN},
        {"per-decade", required_argument, NULL, O_PER_DECADE},
        {"fit-from", required_argument, NULL, O_FIT},
        {"out", required_argument, NULL, O_OUT},
        VB_OPTION_JOBS,
        VB_OPTION_MAX_STEPS,
        {"help", no_argument, NULL, O_HELP},
        {NULL, 0, NULL, 0},
    };
    const char *model_name = NULL, *out_dir = NULL;
    const char *sets[64];
    int n_sets = 0, kahan = 0;
    const vb_integrator *integ[MAX_INTEG], *base[MAX_INTEG];
    int is_kahan[MAX_INTEG];
    size_t n_integ = 0;
    vb_long_opts lo = {.periods = 1e5, .steps_per_period = 100, .per_decade = 10, .fit_from = 10};
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
        case O_INTEG:
            if (add_list(optarg, integ, &n_integ) != 0)
                return VB_EXIT_USAGE;
            break;
        case O_PERIODS:
            if (vb_opt_double(CMD, "--periods", optarg, &lo.periods) != 0)
                return VB_EXIT_USAGE;
            /* the least two decades from the least --fit-from, 1 */
            if (!(lo.periods >= 100.0 && lo.periods <= 1e9))
                return vb_usage_error(CMD, "--periods: %s must be in [100, 1e9] (and at least "
                                      "100 times --fit-from)", optarg);
            break;
        case O_SPP:
            if (vb_opt_double(CMD, "--steps-per-period", optarg, &lo.steps_per_period) != 0)
                return VB_EXIT_USAGE;
            if (!(lo.steps_per_period >= 1.0 && lo.steps_per_period <= 1e9))
                return vb_usage_error(CMD, "--steps-per-period: %s must be in [1, 1e9]", optarg);
            break;
        case O_KAHAN:
            kahan = 1;
            break;
        case O_PER_DECADE:
            if (vb_opt_double(CMD, "--per-decade", optarg, &lo.per_decade) != 0)
                return VB_EXIT_USAGE;
            if (!(lo.per_decade >= 1.0 && lo.per_decade <= 50.0))
                return vb_usage_error(CMD, "--per-decade: %s must be in [1, 50]", optarg);
            break;
        case O_FIT:
            if (vb_opt_double(CMD, "--fit-from", optarg, &lo.fit_from) != 0)
                return VB_EXIT_USAGE;
            if (!(lo.fit_from >= 1.0))
                return vb_usage_error(CMD, "--fit-from: %s must be >= 1 (periods)", optarg);
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
    const vb_model_type *mtype;
    if ((rc = vb_opt_model(CMD, model_name, &mtype)) != 0)
        return rc;
    if (!mtype->energy || !mtype->exact)
        return vb_usage_error(CMD, "--model: %s %s; a long run measures a conserved energy's "
                                   "drift and the phase against the exact solution",
                              model_name,
                              !mtype->energy ? "conserves no energy" : "has no exact solution");
    if (n_integ == 0)
        return vb_usage_error(CMD, "--integrator is required");
    if (lo.fit_from * 100.0 > lo.periods)
        return vb_usage_error(CMD, "--periods: %g periods leave under two decades to fit from "
                                   "t = %g periods; give at least %g",
                              lo.periods, lo.fit_from, lo.fit_from * 100.0);
    if (lo.periods * lo.steps_per_period > so.max_steps)
        return vb_usage_error(CMD, "a run of %.3g steps is over the limit of %.3g (raise it with "
                                   "--max-steps)",
                              lo.periods * lo.steps_per_period, so.max_steps);
    size_t n_plain = n_integ;
    for (size_t i = 0; i < n_plain; i++) {
        base[i] = integ[i];
        is_kahan[i] = 0;
    }
    if (kahan) {
        if (mtype->flags & VB_VELOCITY_DEPENDENT)
            return vb_usage_error(CMD, "--kahan: %s's force reads the velocity; the compensated "
                                       "methods kick with a force of the position alone",
                                  model_name);
        for (size_t i = 0; i < n_plain; i++) {
            const vb_integrator *k = vb_integrator_compensated(integ[i]);
            if (k) {
                base[n_integ] = integ[i];
                is_kahan[n_integ] = 1;
                integ[n_integ++] = k;
            }
        }
        if (n_integ == n_plain)
            return vb_usage_error(CMD, "--kahan: none of the integrators has a compensated form "
                                       "(those that do: %s)",
                                  vb_integrator_compensated_names());
    }

    vb_model model;
    vb_model_defaults(&model, mtype);
    char err[1024];
    for (int i = 0; i < n_sets; i++)
        if (vb_opt_set_param(CMD, &model, sets[i]) != 0)
            return VB_EXIT_USAGE;
    if (vb_model_setup(&model, err, sizeof err) != 0)
        return vb_usage_error(CMD, "--set: %s", err);
    int status = VB_EXIT_USAGE;
    if (vb_long_model_check(&model, err, sizeof err) != 0) {
        vb_usage_error(CMD, "%s: %s", n_sets ? "--set" : "--model", err);
        goto out;
    }
    if (vb_long_step_check(&model, &lo, err, sizeof err) != 0) {
        vb_usage_error(CMD, "%s: %s", n_sets ? "--set" : "--steps-per-period", err);
        goto out;
    }
    for (size_t i = 0; i < n_plain; i++)
        if (vb_integrator_suits(integ[i], &model, err, sizeof err) != 0) {
            vb_usage_error(CMD, "--integrator: %s", err);
            goto out;
        }
    vb_long_study study = {
        .model = &model,
        .integ = integ,
        .base = base,
        .kahan = is_kahan,
        .n_integ = n_integ,
        .opts = lo,
    };
    char dir[4096];
    out_dir = vb_opt_study_dir(CMD, out_dir, "longrun", mtype->name, dir, sizeof dir);
    if (!out_dir)
        goto out;
    if (vb_long_study_run(&study, so.threads, err, sizeof err) != 0) {
        vb_error(CMD, "%s", err);
        status = VB_EXIT_FAIL;
        vb_long_study_free(&study);
        goto out;
    }
    vb_long_print_table(stdout, &study);
    status = VB_EXIT_OK;
    if (vb_long_write(out_dir, &study, err, sizeof err) != 0) {
        vb_error(CMD, "%s", err);
        status = VB_EXIT_FAIL;
    }
    vb_long_study_free(&study);
out:
    vb_model_free(&model);
    return status;
}
