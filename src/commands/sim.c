/* commands/sim.c — `verletbench sim`: one run, its errors as one CSV row. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "integrator.h"
#include "engine.h"
#include "float32.h"
#include "loop.h"
#include "model.h"
#include "numbers.h"
#include "outfile.h"
#include "plan.h"
#include "provenance.h"
#include "runs_table.h"
#include "simulate.h"

#define CMD "sim"

static void help(void)
{
    puts("Usage: verletbench sim --model M [--set KEY=VALUE]...\n"
         "                       (--integrator I | --engine NAME:ORDER=CMD [--engine-timeout S])\n"
         "                       [--t-end T] [--dt H] [--jitter J --seed S]\n"
         "                       [--steps FILE] [--tol TOL] [--trajectory FILE]\n"
         "                       [--precision P] [--offset X]\n"
         "                       [--loop KIND [--physics-dt T] [--draw D] [--max-substeps M]\n"
         "                        [--substeps K]]\n"
         "                       [--max-steps N] [--plugin FILE]...\n\n"
         "Runs one integrator on one model from t = 0 to t_end, measures its error at every\n"
         "step against the exact solution (or, for a model without one, a reference\n"
         "solution by GSL's rk8pd at tolerance 1e-14), and prints a CSV header and one row:\n"
         "  model,integrator,plan,dt,jitter,seed,steps,t_end,force_evals,err_pos_final,\n"
         "  err_pos_max,err_pos_rms,err_vel_final,err_vel_max,err_energy_max,status,\n"
         "  err_angmom_max,fail_step,pos_scale,vel_scale,err_momentum_max,err_return,\n"
         "  ref_err_pos,ref_err_vel,tol,err_constraint_max\n\n"
         "Options:\n"
         "  --model M          a built-in or plugin model; 'verletbench list' shows them\n"
         "  --set KEY=VALUE    a model parameter (repeat); 'verletbench list' shows them\n"
         "  --integrator I     the method; 'verletbench list' shows them\n"
         "  --engine NAME:ORDER=CMD  or an external engine: CMD (run by /bin/sh) gets the run\n"
         "                     as JSON on stdin and writes its trajectory on stdout\n"
         "                     (docs/engines.md)\n"
         "  --engine-timeout S seconds the engine may take (default 600)\n"
         "  --t-end T          end time (default: the model's natural time, docs/method.md §3:\n"
         "                     a period (the slowest mode's for chain, double-pendulum and\n"
         "                     hanging-chain), the projectile's time of flight, impulse's\n"
         "                     m/c, henon-heiles' 2 pi)\n"
         "  --dt H             step (default: t_end/1000); fixed plan: N = ceil(t_end/H - 1e-9)\n"
         "                     steps of t_end/N\n"
         "  --jitter J         random plan: steps H (1 + J u), u uniform in [-1, 1), 0 <= J < 1\n"
         "  --seed S           seed of the random plan's mt19937 generator (default 1)\n"
         "  --steps FILE       trace plan: the steps from FILE, one positive number a line,\n"
         "                     '#' comments; t_end defaults to their sum\n"
         "  --tol TOL          an adaptive integrator's tolerance (absolute and relative,\n"
         "                     default 1e-6); its steps (--dt, --jitter, --steps) are then\n"
         "                     frames it must land on, crossed in steps of its own\n"
         "  --precision P      float64 (default) or float32: the integrator's state and updates\n"
         "                     in that precision (euler, euler-semi, velocity-verlet, yoshida4,\n"
         "                     pefrl; docs/float32.md)\n"
         "  --offset X         shift the origin by X in every coordinate (the world a game puts\n"
         "                     the scene in); errors are measured back in the scene's frame\n"
         "  --trajectory FILE  also write every step: t, x, v, exact (or reference) x and v,\n"
         "                     err_pos, energy; a column per component (x1, y1, x2, ...);\n"
         "                     with --loop, every frame and the state it draws\n"
         "  --loop KIND        run the integrator in a game's frame loop, the steps above\n"
         "                     (--dt, --jitter, --steps) its frames, as a case's [loop]\n"
         "                     does (docs/method.md §9): variable (one step a frame),\n"
         "                     accumulator (fixed steps of --physics-dt while the frames'\n"
         "                     time covers one), semi-fixed (a frame split into the fewest\n"
         "                     equal steps no larger than --physics-dt), substeps (a frame\n"
         "                     split into --substeps equal steps).  The row's integrator is\n"
         "                     METHOD@LOOP, and it ends with err_draw_max, err_draw_rms (the\n"
         "                     drawn position against the exact at every frame) and lag_max\n"
         "                     (the time the clamp dropped); its errors are the physics\n"
         "                     state's, at the physics steps' own times, steps counts them,\n"
         "                     and an accumulator's dt is its physics_dt.  With --steps, a\n"
         "                     recorded trace of frame times with its spikes\n"
         "  --physics-dt T     accumulator, semi-fixed: the physics step, a number or A/B\n"
         "                     (1/120); an accumulator's at most t_end\n"
         "  --draw D           accumulator: the state a frame draws, last (default),\n"
         "                     interpolate or extrapolate\n"
         "  --max-substeps M   accumulator: at most M steps a frame (1..1000), the time beyond\n"
         "                     dropped; default: no clamp\n"
         "  --substeps K       substeps: equal steps a frame, 1..1000\n"
         "  --max-steps N      refuse a run longer than N steps (default 1e9, or\n"
         "                     $VERLETBENCH_MAX_STEPS); a typo in --dt should not run for days\n"
         "  --plugin FILE      load integrators and models from a shared object (repeatable)\n"
         "  --help             this text\n\n"
         "Errors are Euclidean norms over the whole system; err_energy_max is\n"
         "max |E_n - E_0|/|E_0| (empty where energy is not conserved), err_angmom_max and\n"
         "err_momentum_max the largest change of the total angular and linear momentum\n"
         "(where they are conserved), err_return the distance from the start at t_end\n"
         "(periodic models, t_end a whole number of periods), ref_err_pos and ref_err_vel\n"
         "the reference solution's own error (empty with an exact solution),\n"
         "err_constraint_max the largest | |x_i - x_j| - L | of any rod, in length units\n"
         "(models with rods).  An engine that declares velocity=none leaves its velocity,\n"
         "energy and momentum errors empty (docs/real-engines.md).  status is ok;\n"
         "diverged when the state, or one of its errors, became non-finite;\n"
         "exact-failed when the exact (or reference) solution could not be computed;\n"
         "engine-failed when the engine's trajectory could not be read.  Any but ok\n"
         "prints the row with its errors inf and fail_step the step it stopped at, and\n"
         "exits 1.\n\n"
         "Examples:\n"
         "  verletbench sim --model orbit --set e=0.9 --integrator tcv --dt 0.001 --jitter 0.5\n"
         "  # a recorded 60 Hz trace, spikes and all (in a checkout), in an accumulator:\n"
         "  verletbench sim --model projectile --integrator euler-semi --t-end 1 \\\n"
         "      --steps cases/traces/frames-60hz.trace --loop accumulator --physics-dt 1/120 \\\n"
         "      --draw interpolate");
}

/* --loop and its options: a case's [loop] keys for one run (docs/cases.md) */
typedef struct {
    const char *kind, *physics_dt, *draw, *max_substeps, *substeps;
} loop_opts;

/* a whole number 1..VB_MAX_SUBSTEPS: 0, or -1 */
static int substeps_value(const char *text, int *out)
{
    double x;
    if (vb_parse_double(text, &x) != 0 || x != floor(x) || x < 1.0 || x > VB_MAX_SUBSTEPS)
        return -1;
    *out = (int)x;
    return 0;
}

/* The loop the options ask for, wrapped round integ, into *out (NULL
 * without --loop), checked as loopcheck.c checks a case's [loop]: 0, or
 * VB_EXIT_USAGE after the message.  t_end: the run's. */
static int loop_from_opts(const loop_opts *o, const vb_integrator *integ, int engine,
                          double t_end, vb_loop **out)
{
    vb_loop_spec spec = {.kind = VB_LOOP_VARIABLE, .draw = VB_DRAW_LAST};
    *out = NULL;
    if (o->kind && vb_loop_kind_find(o->kind, &spec.kind) != 0)
        return vb_usage_error(CMD, "--loop: unknown kind '%s' (valid: variable, accumulator, "
                                   "semi-fixed, substeps)",
                              o->kind);
    int acc = o->kind && spec.kind == VB_LOOP_ACCUMULATOR;
    int semi = o->kind && spec.kind == VB_LOOP_SEMI_FIXED;
    int sub = o->kind && spec.kind == VB_LOOP_SUBSTEPS;
    const char *given = o->kind ? o->kind : "not given";
    if (o->physics_dt && !acc && !semi)
        return vb_usage_error(CMD, "--physics-dt: only --loop accumulator or semi-fixed takes it "
                                   "(--loop is %s)",
                              given);
    if (o->draw && !acc)
        return vb_usage_error(CMD, "--draw: only --loop accumulator takes it (--loop is %s)",
                              given);
    if (o->max_substeps && !acc)
        return vb_usage_error(CMD, "--max-substeps: only --loop accumulator takes it (--loop is "
                                   "%s)",
                              given);
    if (o->substeps && !sub)
        return vb_usage_error(CMD, "--substeps: only --loop substeps takes it (--loop is %s)",
                              given);
    if (!o->kind)
        return 0;
    if (engine)
        return vb_usage_error(CMD, "--loop: an engine runs its own frame loop; --loop drives the "
                                   "built-in and plugin integrators");
    if (integ->flags & VB_ADAPTIVE)
        return vb_usage_error(CMD, "--loop: %s chooses its own steps: a frame loop cannot drive "
                                   "it",
                              integ->name);
    if (acc || semi) {
        if (!o->physics_dt)
            return vb_usage_error(CMD, "--loop %s needs --physics-dt, the physics step (1/120, "
                                       "or 0.008333)",
                                  o->kind);
        if (vb_loop_parse_time(o->physics_dt, &spec.physics_dt) != 0)
            return vb_usage_error(CMD, "--physics-dt: '%s' is not a finite number or a fraction "
                                       "A/B",
                                  o->physics_dt);
        if (!(spec.physics_dt > 0.0))
            return vb_usage_error(CMD, "--physics-dt: %s must be > 0", o->physics_dt);
        if (strlen(o->physics_dt) >= sizeof spec.dt_text || strpbrk(o->physics_dt, ",;() "))
            return vb_usage_error(CMD, "--physics-dt: %s: at most %zu characters, written as a "
                                       "number or A/B",
                                  o->physics_dt, sizeof spec.dt_text - 1);
        snprintf(spec.dt_text, sizeof spec.dt_text, "%s", o->physics_dt);
        /* as in a case: an accumulator steps once a whole physics_dt has
         * gone by, and one longer than the run would draw the start */
        if (acc && spec.physics_dt > t_end)
            return vb_usage_error(CMD, "--physics-dt: %s is longer than t_end = %g: an "
                                       "accumulator would take no physics step in the run",
                                  o->physics_dt, t_end);
    }
    if (o->draw && vb_draw_find(o->draw, &spec.draw) != 0)
        return vb_usage_error(CMD, "--draw: unknown draw '%s' (valid: last, interpolate, "
                                   "extrapolate)",
                              o->draw);
    if (o->max_substeps && substeps_value(o->max_substeps, &spec.max_substeps) != 0)
        return vb_usage_error(CMD, "--max-substeps: %s: give a whole number 1..%d (leave it out "
                                   "for no clamp)",
                              o->max_substeps, VB_MAX_SUBSTEPS);
    if (sub) {
        if (!o->substeps)
            return vb_usage_error(CMD, "--loop substeps needs --substeps, the steps a frame");
        if (substeps_value(o->substeps, &spec.substeps) != 0)
            return vb_usage_error(CMD, "--substeps: %s: give a whole number 1..%d", o->substeps,
                                  VB_MAX_SUBSTEPS);
    }
    if (!(*out = vb_loop_new(integ, &spec))) {
        vb_error(CMD, "out of memory");
        return VB_EXIT_USAGE;
    }
    return 0;
}

int vb_cmd_sim(int argc, char **argv)
{
    enum {
        O_MODEL = 256, O_SET, O_INTEG, O_ENGINE, O_TEND, O_DT, O_JITTER, O_SEED, O_STEPS, O_TRAJ,
        O_TIMEOUT, O_TOL, O_PRECISION, O_OFFSET, O_LOOP, O_PHYSICS_DT, O_DRAW, O_MAX_SUBSTEPS,
        O_SUBSTEPS, O_HELP
    };
    static const struct option opts[] = {
        {"model", required_argument, NULL, O_MODEL},
        {"set", required_argument, NULL, O_SET},
        {"integrator", required_argument, NULL, O_INTEG},
        {"engine", required_argument, NULL, O_ENGINE},
        {"engine-timeout", required_argument, NULL, O_TIMEOUT},
        {"t-end", required_argument, NULL, O_TEND},
        {"dt", required_argument, NULL, O_DT},
        {"jitter", required_argument, NULL, O_JITTER},
        {"seed", required_argument, NULL, O_SEED},
        {"steps", required_argument, NULL, O_STEPS},
        {"trajectory", required_argument, NULL, O_TRAJ},
        {"tol", required_argument, NULL, O_TOL},
        {"precision", required_argument, NULL, O_PRECISION},
        {"offset", required_argument, NULL, O_OFFSET},
        {"loop", required_argument, NULL, O_LOOP},
        {"physics-dt", required_argument, NULL, O_PHYSICS_DT},
        {"draw", required_argument, NULL, O_DRAW},
        {"max-substeps", required_argument, NULL, O_MAX_SUBSTEPS},
        {"substeps", required_argument, NULL, O_SUBSTEPS},
        VB_OPTION_MAX_STEPS,
        VB_OPTION_PLUGIN,
        {"help", no_argument, NULL, O_HELP},
        {NULL, 0, NULL, 0},
    };
    const char *model_name = NULL, *integ_name = NULL, *steps_path = NULL, *traj_path = NULL;
    const char *engine_spec = NULL;
    double engine_timeout = VB_ENGINE_TIMEOUT;
    const char *sets[64];
    int n_sets = 0;
    double t_end = 0.0, dt = 0.0, jitter = 0.0, tol = 0.0;
    int have_t_end = 0, have_dt = 0, have_jitter = 0;
    unsigned long seed = 1;
    vb_precision precision = VB_FLOAT64;
    double offset = 0.0;
    loop_opts lo = {0};
    vb_shared_opts so = vb_shared_opts_plain();
    int c, rc;

    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
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
            integ_name = optarg;
            break;
        case O_ENGINE:
            engine_spec = optarg;
            break;
        case O_TIMEOUT:
            if (vb_opt_double(CMD, "--engine-timeout", optarg, &engine_timeout) != 0)
                return VB_EXIT_USAGE;
            if (!(engine_timeout > 0.0 && engine_timeout <= 1e6))
                return vb_usage_error(CMD, "--engine-timeout: %s: give seconds, 0 < S <= 1e6",
                                      optarg);
            break;
        case O_TEND:
            if (vb_opt_double(CMD, "--t-end", optarg, &t_end) != 0)
                return VB_EXIT_USAGE;
            if (!(t_end > 0.0))
                return vb_usage_error(CMD, "--t-end: %s must be > 0", optarg);
            have_t_end = 1;
            break;
        case O_DT:
            if (vb_opt_double(CMD, "--dt", optarg, &dt) != 0)
                return VB_EXIT_USAGE;
            if (!(dt > 0.0))
                return vb_usage_error(CMD, "--dt: %s must be > 0", optarg);
            have_dt = 1;
            break;
        case O_JITTER:
            if (vb_opt_double(CMD, "--jitter", optarg, &jitter) != 0)
                return VB_EXIT_USAGE;
            if (!(jitter >= 0.0 && jitter < 1.0))
                return vb_usage_error(CMD, "--jitter: %s must be in [0, 1)", optarg);
            have_jitter = 1;
            break;
        case O_TOL:
            if (vb_opt_double(CMD, "--tol", optarg, &tol) != 0)
                return VB_EXIT_USAGE;
            if (!(tol >= 1e-14 && tol <= 1.0))
                return vb_usage_error(CMD, "--tol: %s must be in [1e-14, 1]", optarg);
            break;
        case O_PRECISION:
            if (vb_precision_parse(optarg, &precision) != 0)
                return vb_usage_error(CMD, "--precision: '%s': give float64 or float32", optarg);
            break;
        case O_OFFSET:
            if (vb_opt_double(CMD, "--offset", optarg, &offset) != 0)
                return VB_EXIT_USAGE;
            if (!(fabs(offset) <= 1e30)) /* float32.h's range, the case file's too */
                return vb_usage_error(CMD, "--offset: %s: give a shift of the origin up to 1e30",
                                      optarg);
            break;
        case O_SEED:
            if (vb_opt_ulong(CMD, "--seed", optarg, &seed) != 0)
                return VB_EXIT_USAGE;
            break;
        case O_STEPS:
            steps_path = optarg;
            break;
        case O_TRAJ:
            traj_path = optarg;
            break;
        case O_LOOP:
            lo.kind = optarg;
            break;
        case O_PHYSICS_DT:
            lo.physics_dt = optarg;
            break;
        case O_DRAW:
            lo.draw = optarg;
            break;
        case O_MAX_SUBSTEPS:
            lo.max_substeps = optarg;
            break;
        case O_SUBSTEPS:
            lo.substeps = optarg;
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
    char names[512];
    if (!integ_name && !engine_spec) {
        vb_integrator_names(names, sizeof names);
        return vb_usage_error(CMD, "--integrator is required (one of: %s), or --engine", names);
    }
    if (integ_name && engine_spec)
        return vb_usage_error(CMD, "--integrator or --engine: one run, one method");
    vb_engine *engine = NULL;
    const vb_integrator *integ;
    if (engine_spec) {
        char why[256];
        if (!(engine = vb_engine_parse(engine_spec, 0, why, sizeof why)))
            return vb_usage_error(CMD, "--engine: %s", why);
        engine->timeout = engine_timeout;
        integ = &engine->integ;
    } else if (!(integ = strchr(integ_name, ':') ? vb_integrator_lookup(integ_name, names,
                                                                          sizeof names)
                                                  : vb_integrator_find(integ_name))) {
        if (strchr(integ_name, ':'))
            return vb_usage_error(CMD, "--integrator: %s", names);
        vb_integrator_names(names, sizeof names);
        return vb_usage_error(CMD, "--integrator: unknown integrator '%s' (valid: %s)",
                              integ_name, names);
    }
    if (precision != VB_FLOAT64 || offset != 0.0) {
        if (engine) {
            vb_engine_free(engine);
            return vb_usage_error(CMD, "--precision and --offset are for the built-in integrators; "
                                       "an engine declares its own precision");
        }
        if (!(integ = vb_integrator_in_precision(integ, precision, offset, names, sizeof names)))
            return vb_usage_error(CMD, "%s: %s",
                                  precision != VB_FLOAT64 ? "--precision" : "--offset", names);
    }
    if (tol > 0.0 && !(integ->flags & VB_ADAPTIVE)) {
        vb_engine_free(engine);
        return vb_usage_error(CMD, "--tol: %s takes steps of the size it is given; only an "
                                   "adaptive integrator (rkf45, rk8pd) has a tolerance",
                              integ->name);
    }
    if (integ->flags & VB_ADAPTIVE && tol == 0.0)
        tol = VB_DEFAULT_TOL;
    vb_model model;
    vb_model_defaults(&model, mtype);
    char err[1024];
    if (steps_path && (have_dt || have_jitter)) {
        vb_engine_free(engine);
        return vb_usage_error(CMD, "--steps reads the steps from a file; it takes no --dt or --jitter");
    }
    for (int i = 0; i < n_sets; i++)
        if (vb_opt_set_param(CMD, &model, sets[i]) != 0) {
            vb_engine_free(engine);
            return VB_EXIT_USAGE;
        }
    if (vb_model_setup(&model, err, sizeof err) != 0) {
        vb_engine_free(engine);
        return vb_usage_error(CMD, "--set: %s", err);
    }
    if (vb_integrator_suits(integ, &model, err, sizeof err) != 0) {
        vb_engine_free(engine);
        vb_model_free(&model);
        return vb_usage_error(CMD, "--integrator: %s", err);
    }

    vb_trace trace = {0};
    vb_loop *loop = NULL;
    vb_run_spec spec = {.integ = integ, .model = &model};
    snprintf(spec.plan.id, sizeof spec.plan.id, "sim");
    spec.plan.tol = tol; /* 0 unless adaptive */
    int status = VB_EXIT_USAGE;
    if (steps_path) {
        if (vb_trace_load(steps_path, &trace, err, sizeof err) != 0) {
            vb_error(CMD, "%s", err);
            goto out;
        }
        spec.plan.kind = VB_PLAN_TRACE;
        spec.plan.trace = &trace;
        spec.plan.t_end = have_t_end ? t_end : 0.0;
    } else {
        if (!have_t_end)
            t_end = mtype->natural_time(model.self);
        spec.plan.kind = jitter > 0.0 ? VB_PLAN_RANDOM : VB_PLAN_FIXED;
        spec.plan.t_end = t_end;
        spec.plan.dt = have_dt ? dt : t_end / 1000.0;
        spec.plan.jitter = jitter;
        spec.plan.seed = seed;
    }
    if (vb_plan_check(&spec.plan, err, sizeof err) != 0) {
        if (steps_path)
            vb_usage_error(CMD, "--steps: %s: %s", steps_path, err);
        else
            vb_usage_error(CMD, "%s", err);
        goto out;
    }
    if ((status = loop_from_opts(&lo, integ, engine != NULL, vb_plan_t_end(&spec.plan), &loop)) !=
        0)
        goto out;
    status = VB_EXIT_USAGE;
    double n_steps = vb_plan_max_steps(&spec.plan);
    if (loop) {
        /* the loop's physics steps: a substeps loop of 1000 takes 1000 a frame */
        double h_equal = spec.plan.kind == VB_PLAN_FIXED ? spec.plan.t_end / n_steps : 0.0;
        n_steps = fmax(n_steps, vb_loop_max_steps(&loop->spec, n_steps, h_equal,
                                                  vb_plan_t_end(&spec.plan), 0));
        spec.integ = integ = &loop->integ;
    }
    if (n_steps > so.max_steps) {
        vb_usage_error(CMD, "the run needs up to %.3g steps, over the limit of %.3g "
                            "(raise it with --max-steps or VERLETBENCH_MAX_STEPS)",
                       n_steps, so.max_steps);
        goto out;
    }

    vb_outfile traj = {0};
    if (traj_path) {
        if (vb_outfile_open(&traj, traj_path, err, sizeof err) != 0) {
            vb_error(CMD, "--trajectory: %s", err);
            goto out;
        }
        fprintf(traj.f, "# verletbench %s sim: ", vb_version_text());
        vb_run_describe(traj.f, &spec);
        if (steps_path)
            fprintf(traj.f, " steps=%s", steps_path);
        fputc('\n', traj.f);
        vb_libraries_provenance(traj.f);
        spec.trajectory = traj.f;
    }
    vb_run_result res;
    if (vb_simulate(&spec, &res, err, sizeof err) != 0) {
        vb_error(CMD, "%s", err);
        if (traj_path)
            vb_outfile_abort(&traj);
        status = VB_EXIT_FAIL;
        goto out;
    }
    if (traj_path && vb_outfile_commit(&traj, err, sizeof err) != 0) {
        vb_error(CMD, "--trajectory: %s", err);
        status = VB_EXIT_FAIL;
        goto out;
    }
    /* runs.csv's row, without a sweep's level and resolved */
    unsigned view = loop ? VB_RUNS_LOOP : 0;
    vb_runs_row row = {&model, integ, &spec.plan, &res, 0};
    vb_schema_header(stdout, &vb_runs_schema, view);
    vb_schema_row(stdout, &vb_runs_schema, view, NULL, &row);
    /* the row is the result either way; the status tells a script it failed */
    status = res.status == VB_STATUS_OK ? VB_EXIT_OK : VB_EXIT_FAIL;
    if (res.status == VB_STATUS_EXACT_FAILED && isfinite(res.ref_bad_force_t))
        vb_error(CMD,
                 "the run %s at step %llu: the reference solution could not go on past "
                 "t = %.17g, where the model's force was not a finite number",
                 vb_status_name(res.status), res.fail_step, res.ref_bad_force_t);
    else if (res.status == VB_STATUS_ENGINE_FAILED)
        vb_error(CMD, "engine %s (%s): %s", engine->name, engine->command, vb_run_failure(&res));
    else if (res.status != VB_STATUS_OK)
        vb_error(CMD, "the run %s at step %llu%s%s", vb_status_name(res.status), res.fail_step,
                 res.failure ? ": " : "", vb_run_failure(&res));
    vb_run_result_clear(&res);
out:
    vb_loop_free(loop);
    vb_trace_free(&trace);
    vb_model_free(&model);
    vb_engine_free(engine);
    return status;
}
