/* commands/stability.c — `verletbench stability`: the largest stable step of
 * each integrator on a model (stability/stability_search.h), its files
 * written by stability/stability_files.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "integrator.h"
#include "model.h"
#include "numbers.h"
#include "stability_search.h"
#include "stability_files.h"
#include "stability_study.h"

#define CMD "stability"
#define MAX_LIST 64

/* the options, as the table below leaves them */
typedef struct {
    const char *model, *vary, *out;
    vb_opt_list sets;
    const vb_integrator *integ[MAX_LIST];
    size_t n_integ;
    double values[MAX_LIST], jitters[MAX_LIST];
    int n_values, n_jitters;
    unsigned long seeds, seed;
    double periods, factor, rtol, from; /* NAN: the problem's default */
    vb_shared_opts so;
} stab_opts;

/* "a,b,c" into numbers: count, or -1 after the message */
static int number_list(const char *opt, const char *text, double *out, size_t max)
{
    char buf[1024], *item[MAX_LIST];
    int n = vb_opt_split(CMD, opt, text, buf, sizeof buf, item, max < MAX_LIST ? max : MAX_LIST);
    for (int i = 0; i < n; i++)
        if (vb_opt_double(CMD, opt, item[i], &out[i]) != 0)
            return -1;
    return n;
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

/* --integrator I[,I...] */
static int integrator_list(const char *cmd, const vb_option *row, const char *text)
{
    stab_opts *o = row->store;
    (void)cmd;
    char buf[1024], *item[MAX_LIST];
    int n = vb_opt_split(CMD, "--integrator", text, buf, sizeof buf, item, MAX_LIST);
    for (int i = 0; i < n; i++)
        if (add_integrator(item[i], o->integ, &o->n_integ) != 0)
            return VB_EXIT_USAGE;
    return n < 0 ? VB_EXIT_USAGE : 0;
}

/* --vary KEY=V1,V2,... */
static int vary_list(const char *cmd, const vb_option *row, const char *arg)
{
    stab_opts *o = row->store;
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return vb_usage_error(cmd, "--vary: expected KEY=V1,V2,..., got '%s'", arg);
    if ((o->n_values = number_list("--vary", eq + 1, o->values, MAX_LIST)) < 0)
        return VB_EXIT_USAGE;
    o->vary = arg;
    return 0;
}

/* --jitter J1,J2,... */
static int jitter_list(const char *cmd, const vb_option *row, const char *arg)
{
    stab_opts *o = row->store;
    if ((o->n_jitters = number_list("--jitter", arg, o->jitters, MAX_LIST)) < 0)
        return VB_EXIT_USAGE;
    for (int i = 0; i < o->n_jitters; i++)
        if (!(o->jitters[i] >= 0.0 && o->jitters[i] < 1.0)) {
            char typed[32]; /* 1.0000001, where %g says 1 */
            vb_format_shortest(o->jitters[i], typed, sizeof typed);
            return vb_usage_error(cmd, "--jitter: %s must be in [0, 1)", typed);
        }
    return 0;
}

static int stability(stab_opts *opt);

int vb_cmd_stability(int argc, char **argv)
{
    stab_opts o = {.jitters = {0.0}, .n_jitters = 1, .seeds = 8, .seed = 1, .periods = NAN,
                   .factor = NAN, .rtol = NAN, .from = NAN, .so = vb_shared_opts_plain()};
    const vb_option rows[] = {
        VB_OPT_STRING("model", "M", &o.model, "spring, damped-spring, chain or orbit"),
        VB_OPT_LIST("set", "KEY=VALUE", &o.sets, 64, "too many parameters",
                    "a model parameter (repeatable); 'verletbench list' shows them"),
        VB_OPT_CALL("vary", "KEY=LIST", vary_list, &o,
                    "a parameter taking each value of a comma list: the chart's x"),
        VB_OPT_CALL_REPEATS("integrator", "I", integrator_list, &o,
                    "methods, comma-separated or repeated (default: every built-in\n"
                    "of fixed steps without rods: euler ... pefrl)"),
        VB_OPT_CALL("jitter", "LIST", jitter_list, &o,
                    "step jitters in [0, 1), comma-separated (default 0: fixed steps)"),
        VB_OPT_ULONG("seeds", "N", &o.seeds, 1, 1000, "%s: give 1 to 1000",
                     "searches a jitter, seeds S..S+N-1 (default 8)"),
        VB_OPT_ULONG("seed", "S", &o.seed, 0, 4294967295.0, "", "the first seed (default 1)"),
        VB_OPT_DOUBLE("periods", "P", &o.periods, 1.0, 1e9, "%s must be in [1, 1e9]",
                      "the run length of a verdict (default 1e4; orbit 100)"),
        VB_OPT_DOUBLE_ABOVE("factor", "F", &o.factor, 1.0, 1e100, "%s must be > 1 (and <= 1e100)",
                            "the energy growth called unstable (default 1e6)"),
        VB_OPT_DOUBLE("rtol", "R", &o.rtol, 1e-14, 0.1, "%s must be in [1e-14, 0.1]",
                      "the final bracket's relative width (default 1e-10)"),
        VB_OPT_DOUBLE("scan-from", "Z", &o.from, 1e-3, 20.0, "%s must be in [1e-3, 20]",
                      "where the scan starts (default 0.05)"),
        VB_OPT_STRING("out", "DIR", &o.out,
                      "write stability.csv, stability-summary.csv, stability.md into DIR\n"
                      "(default results/stability-MODEL); the table is printed anyway"),
        VB_SHARED_JOBS(&o.so, "threads (default every CPU)"),
        VB_SHARED_MAX_STEPS(&o.so, "refuse a verdict of more steps (default 1e9)"),
        VB_OPT_HELP,
        VB_OPT_END,
    };
    const vb_command_spec spec = {
        .name = CMD,
        .options = rows,
        .operands = VB_OPERANDS_NONE,
        VB_SHARED_ENV(&o.so),
        .usage =
            "Usage: verletbench stability --model M [--set KEY=VALUE]... [--vary KEY=V1,V2,...]\n"
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
            "seed is its own search and the summary gives their median and range.\n\n",
        .epilogue =
            "\nChart, from any directory:\n"
            "  verletbench draw --chart stability DIR/stability-summary.csv out.png [TITLE]\n\n"
            "Examples:\n"
            "  verletbench stability --model spring\n"
            "  verletbench stability --model damped-spring --vary c=0,0.2,0.5,1,1.5,1.9\n"
            "  verletbench stability --model spring --integrator velocity-verlet "
            "--jitter 0.1,0.5,0.9 --periods 1000\n\n"
            "Exit status: 0 done, 1 a search failed, 2 bad usage or input (an --out that is\n"
            "not a directory, a verdict over --max-steps).\n",
    };
    int first, rc = vb_options_parse(&spec, argc, argv, &first);
    if (rc != VB_OPTIONS_GO)
        return rc;
    return stability(&o);
}

/* the study the options ask for: checked, run, printed and written */
static int stability(stab_opts *opt)
{
    const char *model_name = opt->model, *vary = opt->vary, *out_dir = opt->out;
    const char *const *sets = opt->sets.v;
    int n_sets = (int)opt->sets.n;
    const vb_integrator **integ = opt->integ;
    size_t n_integ = opt->n_integ;
    double *values = opt->values, *jitters = opt->jitters;
    int n_values = opt->n_values, n_jitters = opt->n_jitters;
    int rc;
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
                if (values[a] == values[b]) {
                    char typed[32];
                    vb_format_shortest(values[a], typed, sizeof typed);
                    return vb_usage_error(CMD, "--vary: %s=%s is given twice", key, typed);
                }
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
        if (vb_opt_set_params(CMD, &models[p], sets, (size_t)n_sets) != 0)
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
        .seeds = (unsigned)opt->seeds,
        .seed0 = opt->seed,
        .opts = vb_stab_opts_default(&problems[0]),
    };
    if (!isnan(opt->periods))
        study.opts.periods = opt->periods;
    if (!isnan(opt->factor))
        study.opts.factor = opt->factor;
    if (!isnan(opt->rtol))
        study.opts.rtol = opt->rtol;
    if (!isnan(opt->from))
        study.opts.z_start = opt->from;
    study.opts.max_steps = opt->so.max_steps;
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
    rc = vb_stab_study_run(&study, opt->so.threads, err, sizeof err);
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
