/* commands/longrun.c — `verletbench longrun`: runs of up to 1e9 periods
 * (1e5 by default), their energy and phase errors' growth exponents and
 * drift (longrun/longrun_run.h), written by longrun/longrun_files.h. */
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
#include "numbers.h"

#define CMD "longrun"
#define MAX_INTEG 32

/* the options, as the table below leaves them */
typedef struct {
    const char *model, *out;
    vb_opt_list sets;
    int kahan;
    const vb_integrator *integ[MAX_INTEG];
    size_t n_integ;
    vb_long_opts lo;
    vb_shared_opts so;
} long_opts;

/* --integrator I[,I...] */
static int add_list(const char *cmd, const vb_option *row, const char *text)
{
    long_opts *o = row->store;
    const vb_integrator **list = o->integ;
    size_t *n = &o->n_integ;
    (void)cmd;
    char buf[1024], *item[MAX_INTEG / 2];
    int n_items = vb_opt_split(CMD, "--integrator", text, buf, sizeof buf, item, MAX_INTEG / 2);
    for (int i = 0; i < n_items; i++) {
        const char *tok = item[i];
        char names[1024];
        const vb_integrator *g = strchr(tok, ':') ? vb_integrator_lookup(tok, names, sizeof names)
                                                  : vb_integrator_find(tok);
        if (!g) {
            if (!strchr(tok, ':'))
                vb_integrator_names(names, sizeof names);
            return vb_usage_error(CMD, strchr(tok, ':') ? "--integrator: %s%s"
                                                        : "--integrator: unknown integrator '%s' "
                                                          "(valid: %s)",
                                  strchr(tok, ':') ? "" : tok, names);
        }
        if (g->flags & VB_ADAPTIVE)
            return vb_usage_error(CMD, "--integrator: %s chooses its own steps; a long run here "
                                       "is of fixed steps",
                                  tok);
        if (*n == MAX_INTEG / 2)
            return vb_usage_error(CMD, "--integrator: at most %d", MAX_INTEG / 2);
        list[(*n)++] = g;
    }
    return n_items < 0 ? VB_EXIT_USAGE : 0;
}

static int longrun(long_opts *opt);

int vb_cmd_longrun(int argc, char **argv)
{
    long_opts o = {.lo = {.periods = 1e5, .steps_per_period = 100, .per_decade = 10,
                          .fit_from = 10},
                   .so = vb_shared_opts_plain()};
    const vb_option rows[] = {
        VB_OPT_STRING("model", "M", &o.model,
                      "a model with an energy and an exact solution: spring, pendulum,\n"
                      "orbit, ...; T is its period (the chain's: its slowest mode's;\n"
                      "the projectile's: its time of flight, an unbounded motion)"),
        VB_OPT_LIST("set", "KEY=VALUE", &o.sets, 64, "too many parameters",
                    "a model parameter (repeatable)"),
        VB_OPT_CALL_REPEATS("integrator", "I", add_list, &o, "methods, comma-separated or repeated"),
        /* the least two decades from the least --fit-from, 1 */
        VB_OPT_DOUBLE("periods", "P", &o.lo.periods, 100.0, 1e9,
                      "%s must be in [100, 1e9] (and at least 100 times --fit-from)",
                      "the run's length in periods, 100 F to 1e9 (default 1e5; with\n"
                      "the default --fit-from 10, at least 1000: two decades to fit)"),
        VB_OPT_DOUBLE("steps-per-period", "S", &o.lo.steps_per_period, 1.0, 1e9,
                      "%s must be in [1, 1e9]", "fixed steps a period (default 100)"),
        VB_OPT_FLAG("kahan", &o.kahan,
                    "also run each method that has one in its Kahan-compensated form\n"
                    "(euler-semi, velocity-verlet, yoshida4, pefrl)"),
        VB_OPT_DOUBLE("per-decade", "K", &o.lo.per_decade, 1.0, 50.0, "%s must be in [1, 50]",
                      "samples a decade, 1 to 50 (default 10)"),
        VB_OPT_DOUBLE("fit-from", "F", &o.lo.fit_from, 1.0, DBL_MAX,
                      "%s must be >= 1 (periods)", "fit from t = F periods on (default 10)"),
        VB_OPT_STRING("out", "DIR", &o.out,
                      "write longrun.csv, longrun-summary.csv and longrun.md into DIR\n"
                      "(default results/longrun-MODEL); the table is printed anyway"),
        VB_SHARED_JOBS(&o.so, "threads: a run each (default every CPU)"),
        VB_SHARED_MAX_STEPS(&o.so, "refuse a run longer than N steps (default 1e9)"),
        VB_OPT_HELP,
        VB_OPT_END,
    };
    const vb_command_spec spec = {
        .name = CMD,
        .options = rows,
        .operands = VB_OPERANDS_NONE,
        VB_SHARED_ENV(&o.so),
        .usage =
            "Usage: verletbench longrun --model M [--set KEY=VALUE]... --integrator I[,I...]...\n"
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
            "molecular dynamics codes report it.  See docs/longrun.md.\n\n",
        .epilogue =
            "\nChart, from any directory:\n"
            "  verletbench draw --chart longrun DIR/longrun.csv out.png [TITLE]\n\n"
            "Example:\n"
            "  verletbench longrun --model orbit --set e=0.5 --integrator "
            "velocity-verlet,rk4,yoshida4 --periods 1e5\n\n"
            "Exit status: 0 done (a run that diverged is a result), 1 a run failed, 2 bad usage.\n",
    };
    int first, rc = vb_options_parse(&spec, argc, argv, &first);
    if (rc != VB_OPTIONS_GO)
        return rc;
    return longrun(&o);
}

/* the runs the options ask for: checked, run, printed and written */
static int longrun(long_opts *opt)
{
    const char *model_name = opt->model, *out_dir = opt->out;
    const char *const *sets = opt->sets.v;
    int n_sets = (int)opt->sets.n, kahan = opt->kahan, rc;
    const vb_integrator **integ = opt->integ, *base[MAX_INTEG];
    int is_kahan[MAX_INTEG];
    size_t n_integ = opt->n_integ;
    vb_long_opts lo = opt->lo;
    vb_shared_opts so = opt->so;
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
    if (lo.fit_from * 100.0 > lo.periods) {
        /* as typed: --periods 999.9999 is not %g's 1000, the least it asks */
        char periods[32], from[32], least[32];
        vb_format_shortest(lo.periods, periods, sizeof periods);
        vb_format_shortest(lo.fit_from, from, sizeof from);
        vb_format_shortest(lo.fit_from * 100.0, least, sizeof least);
        return vb_usage_error(CMD, "--periods: %s periods leave under two decades to fit from "
                                   "t = %s periods; give at least %s",
                              periods, from, least);
    }
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
    if (vb_opt_set_params(CMD, &model, sets, (size_t)n_sets) != 0)
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
