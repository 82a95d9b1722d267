/* commands/sim.c — `verletbench sim`: one run, its errors as one CSV row. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "integrator.h"
#include "engine.h"
#include "float32.h"
#include "composed.h"
#include "contact_table.h"
#include "loop.h"
#include "walls.h"
#include "model.h"
#include "numbers.h"
#include "outfile.h"
#include "plan.h"
#include "profile.h"
#include "provenance.h"
#include "runner.h"
#include "runs_table.h"
#include "simulate.h"
#include "stack_table.h"

#define CMD "sim"

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

/* --precision P */
static int precision_row(const char *cmd, const vb_option *row, const char *arg)
{
    if (vb_precision_parse(arg, row->store) != 0)
        return vb_usage_error(cmd, "--precision: '%s': give float64 or float32", arg);
    return 0;
}

/* the options, as the table below leaves them */
typedef struct {
    const char *model_name, *integ_name, *steps_path, *traj_path, *engine_spec;
    double engine_timeout;
    vb_opt_list sets;
    /* 0 and NAN: not given (a t_end and a dt given are > 0) */
    double t_end, dt, jitter, tol;
    unsigned long seed;
    vb_precision precision;
    double offset;
    loop_opts lo;
    const char *contact; /* --contact HANDLER, or NULL */
    vb_shared_opts so;
} sim_opts;

/* "toi, pgs, ...": the solvers that take the model m as it is set
 * (speculative refuses a stack), for an error's list */
static const char *solvers_taking(const vb_model *m, char *buf, size_t len)
{
    char why[512];
    buf[0] = '\0';
    for (size_t i = 0; i < vb_body_solver_count(); i++) {
        const vb_body_solver *s = vb_body_solver_at(i);
        if (vb_composed_solver_accepts(s, m, why, sizeof why) == 0)
            snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", *buf ? ", " : "", s->name);
    }
    return buf;
}

/* --contact SOLVER on a rigid body on the ground (roll, box-incline): the
 * rotation method inside the solver, with the solver's defaults (a case's
 * [contact] sets its keys) */
static int solver_from_opts(const char *name, const vb_integrator *integ, int engine, int loop,
                            const vb_model *m, vb_composed **out)
{
    char valid[128], why[512];
    if (engine && name)
        return vb_usage_error(CMD, "--contact: an engine solves its own contacts; --contact "
                                   "wraps a rotation method");
    if (engine) /* the engine builds the ground (protocol 4) */
        return 0;
    if (!name)
        return vb_usage_error(CMD, "the model %s stands on the ground: it runs inside a "
                                   "contact solver (--contact %s) round a rotation method, or "
                                   "an engine's (--engine)",
                              m->type->name, solvers_taking(m, valid, sizeof valid));
    const vb_body_solver *s = vb_body_solver_find(name);
    if (!s)
        return vb_usage_error(CMD, "--contact: unknown contact solver '%s' for the rigid body %s "
                                   "(valid: %s)",
                              name, m->type->name, solvers_taking(m, valid, sizeof valid));
    if (loop)
        return vb_usage_error(CMD, "--contact: give --contact or --loop, not both (a solver "
                                   "round a frame loop is not built)");
    if (vb_composed_allows_solver(integ, why, sizeof why) != 0 ||
        vb_composed_solver_accepts(s, m, why, sizeof why) != 0)
        return vb_usage_error(CMD, "--contact: %s", why);
    vb_solver_params p;
    vb_body_solver_defaults(s, &p);
    if (!(*out = vb_composed_new_solver(integ, s, &p))) {
        vb_error(CMD, "out of memory");
        return VB_EXIT_FAIL;
    }
    return 0;
}

/* --contact HANDLER: the method inside the handler (or, on a rigid body on
 * the ground, the solver), into *out (NULL without --contact), checked as
 * contactcheck.c checks a case's [contact]: 0, or the exit status of a
 * usage error */
static int contact_from_opts(const char *name, const vb_integrator *integ, int engine, int loop,
                             const vb_model *m, vb_composed **out)
{
    *out = NULL;
    if (vb_composed_contact_of(m) == VB_CONTACT_BODY)
        return solver_from_opts(name, integ, engine, loop, m, out);
    if (!name)
        return 0;
    const vb_model_type *mtype = m->type;
    const vb_contact_handler *h = vb_contact_handler_find(name);
    if (!h) {
        size_t n;
        const vb_contact_handler *const *t = vb_contact_handlers(&n);
        char valid[128] = "";
        for (size_t i = 0; i < n; i++)
            snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%s", i ? ", " : "",
                     t[i]->name);
        return vb_usage_error(CMD, "--contact: unknown handler '%s' (valid: %s)", name, valid);
    }
    if (engine)
        return vb_usage_error(CMD, "--contact: an engine handles its own contacts; --contact "
                                   "wraps an integrator");
    if (loop)
        return vb_usage_error(CMD, "--contact: give --contact or --loop, not both (a handler "
                                   "round a frame loop is not built)");
    if (!vb_model_type_has_wall(mtype))
        return vb_usage_error(CMD, "--contact: the model %s has no contact: a handler resolves "
                                   "the wall of bounce, slide or tunnel, a solver the ground of "
                                   "roll or box-incline",
                              mtype->name);
    char why[256];
    if (vb_composed_allows(integ, why, sizeof why) != 0)
        return vb_usage_error(CMD, "--contact: %s", why);
    if (!(*out = vb_composed_new(integ, h))) {
        vb_error(CMD, "out of memory");
        return VB_EXIT_FAIL;
    }
    return 0;
}

static int sim(const sim_opts *o);

/* what sim --help says after the options: the row's columns, its status and
 * examples */
static const char sim_epilogue[] =
    "\nErrors are Euclidean norms over the whole system; err_energy_max is\n"
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
    "      --draw interpolate\n"
    "  # a ball dropped onto the floor, toi round velocity Verlet: every apex e^2n h0\n"
    "  verletbench sim --model bounce --set e=0.8 --integrator velocity-verlet \\\n"
    "      --dt 0.01 --contact toi\n";

int vb_cmd_sim(int argc, char **argv)
{
    sim_opts o = {.engine_timeout = VB_ENGINE_TIMEOUT, .jitter = NAN, .seed = 1,
                  .precision = VB_FLOAT64, .so = vb_shared_opts_plain()};
    int rc;
    const vb_option rows[] = {
        VB_OPT_STRING("model", "M", &o.model_name,
                      "a built-in or plugin model; 'verletbench list' shows them"),
        VB_OPT_LIST("set", "KEY=VALUE", &o.sets, 64, "too many parameters",
                    "a model parameter (repeat); 'verletbench list' shows them"),
        VB_OPT_STRING("integrator", "I", &o.integ_name, "the method; 'verletbench list' shows them"),
        VB_OPT_STRING("engine", "NAME:ORDER=CMD", &o.engine_spec,
                      "or an external engine: CMD (run by /bin/sh) gets the run\n"
                      "as JSON on stdin and writes its trajectory on stdout\n"
                      "(docs/engines.md; on a rigid body, protocol 3:\n"
                      "docs/real-engines.md)"),
        VB_OPT_DOUBLE_ABOVE("engine-timeout", "S", &o.engine_timeout, 0.0, 1e6,
                            "%s: give seconds, 0 < S <= 1e6",
                            "seconds the engine may take (default 600)"),
        VB_OPT_DOUBLE_ABOVE("t-end", "T", &o.t_end, 0.0, DBL_MAX, "%s must be > 0",
                            "end time (default: the model's natural time, docs/method.md §3:\n"
                            "a period (the slowest mode's for chain, double-pendulum and\n"
                            "hanging-chain), the projectile's time of flight, impulse's\n"
                            "m/c, henon-heiles' 2 pi, a stack's sqrt(size/g): 0.101 s for\n"
                            "0.1 m boxes; give --t-end 2 to see one stand)"),
        VB_OPT_DOUBLE_ABOVE("dt", "H", &o.dt, 0.0, DBL_MAX, "%s must be > 0",
                            "step (default: t_end/1000); fixed plan: N = ceil(t_end/H - 1e-9)\n"
                            "steps of t_end/N"),
        VB_OPT_DOUBLE_BELOW("jitter", "J", &o.jitter, 0.0, 1.0, "%s must be in [0, 1)",
                            "random plan: steps H (1 + J u), u uniform in [-1, 1), 0 <= J < 1"),
        VB_OPT_ULONG("seed", "S", &o.seed, 0, 4294967295.0, "",
                     "seed of the random plan's mt19937 generator (default 1)"),
        VB_OPT_STRING("steps", "FILE", &o.steps_path,
                      "trace plan: the steps from FILE, one positive number a line,\n"
                      "'#' comments; t_end defaults to their sum"),
        VB_OPT_DOUBLE("tol", "TOL", &o.tol, 1e-14, 1.0, "%s must be in [1e-14, 1]",
                      "an adaptive integrator's tolerance (absolute and relative,\n"
                      "default 1e-6); its steps (--dt, --jitter, --steps) are then\n"
                      "frames it must land on, crossed in steps of its own"),
        VB_OPT_CALL("precision", "P", precision_row, &o.precision,
                    "float64 (default) or float32: the integrator's state and updates\n"
                    "in that precision (euler, euler-semi, velocity-verlet, yoshida4,\n"
                    "pefrl; docs/float32.md)"),
        /* float32.h's range, the case file's too */
        VB_OPT_DOUBLE("offset", "X", &o.offset, -1e30, 1e30,
                      "%s: give a shift of the origin up to 1e30",
                      "shift the origin by X in every coordinate (the world a game puts\n"
                      "the scene in); errors are measured back in the scene's frame"),
        VB_OPT_STRING("trajectory", "FILE", &o.traj_path,
                      "also write every step: t, x, v, exact (or reference) x and v,\n"
                      "err_pos, energy; a column per component (x1, y1, x2, ...);\n"
                      "with --loop, every frame and the state it draws; a rigid\n"
                      "body: x,y,z, qw,qx,qy,qz, vx,vy,vz, wx,wy,wz (w in the body\n"
                      "frame), each with its _exact twin, err_att, energy"),
        VB_OPT_STRING("loop", "KIND", &o.lo.kind,
                      "run the integrator in a game's frame loop, the steps above\n"
                      "(--dt, --jitter, --steps) its frames, as a case's [loop]\n"
                      "does (docs/method.md §9): variable (one step a frame),\n"
                      "accumulator (fixed steps of --physics-dt while the frames'\n"
                      "time covers one), semi-fixed (a frame split into the fewest\n"
                      "equal steps no larger than --physics-dt), substeps (a frame\n"
                      "split into --substeps equal steps).  The row's integrator is\n"
                      "METHOD@LOOP, and it ends with err_draw_max, err_draw_rms (the\n"
                      "drawn position against the exact at every frame) and lag_max\n"
                      "(the time the clamp dropped); its errors are the physics\n"
                      "state's, at the physics steps' own times, steps counts them,\n"
                      "and an accumulator's dt is its physics_dt.  With --steps, a\n"
                      "recorded trace of frame times with its spikes"),
        VB_OPT_STRING("physics-dt", "T", &o.lo.physics_dt,
                      "accumulator, semi-fixed: the physics step, a number or A/B\n"
                      "(1/120); an accumulator's at most t_end"),
        VB_OPT_STRING("draw", "D", &o.lo.draw,
                      "accumulator: the state a frame draws, last (default),\n"
                      "interpolate or extrapolate"),
        VB_OPT_STRING("max-substeps", "M", &o.lo.max_substeps,
                      "accumulator: at most M steps a frame (1..1000), the time beyond\n"
                      "dropped; default: no clamp"),
        VB_OPT_STRING("substeps", "K", &o.lo.substeps, "substeps: equal steps a frame, 1..1000"),
        VB_OPT_STRING("contact", "HANDLER", &o.contact,
                      "run the integrator inside a contact handler on a model with a\n"
                      "contact (bounce, slide, tunnel), as a case's [contact] does\n"
                      "(docs/contact.md): project (step, then move out of an overlap\n"
                      "and reflect the normal velocity times e), impulse (Box2D's:\n"
                      "an impulse before gravity's kick lands the step on the face,\n"
                      "then it leaves at e times the speed before the kick), toi\n"
                      "(find the time of impact inside the step and split the step\n"
                      "there).  The row's integrator is METHOD+HANDLER, and a second\n"
                      "header and row follow: contact.csv's, the handler's measures\n"
                      "beside the exact answer.  On a rigid body on the ground (roll,\n"
                      "box-incline) it names a contact solver round a rotation method,\n"
                      "METHOD+SOLVER, with the solver's defaults: toi, pgs, soft, xpbd,\n"
                      "speculative, regularized (a case's [contact] sets their keys).\n"
                      "On a stack of boxes (model stack) stacks.csv's header and row\n"
                      "follow: drift_max, speed_rms, depth_max (0 in the exact answer;\n"
                      "toi's depth at round-off), t_collapse (blank: no box moved half\n"
                      "its edge; a run not ok measures up to the step before)"),
        VB_SHARED_MAX_STEPS(&o.so, "refuse a run longer than N steps (default 1e9, or\n"
                                 "$VERLETBENCH_MAX_STEPS); a typo in --dt should not run for days"),
        VB_SHARED_PLUGIN(&o.so, "load integrators and models from a shared object (repeatable)",
                         0),
        {.kind = VB_OPTION_CALL, .name = "plugin-timeout", .arg = "S", .call = vb_opt_shared_row,
         .code = VB_OPT_PLUGIN_TIMEOUT, .store = &o.so, .flags = VB_OPTION_HIDDEN},
        VB_OPT_HELP,
        VB_OPT_END,
    };
    /* the usage, then runs.csv's columns as sim prints them (its schema,
     * without a sweep's, a loop's or a rigid body's own) */
    static const char usage_head[] =
            "Usage: verletbench sim --model M [--set KEY=VALUE]...\n"
            "                       (--integrator I | --engine NAME:ORDER=CMD [--engine-timeout S])\n"
            "                       [--t-end T] [--dt H] [--jitter J --seed S]\n"
            "                       [--steps FILE] [--tol TOL] [--trajectory FILE]\n"
            "                       [--precision P] [--offset X]\n"
            "                       [--loop KIND [--physics-dt T] [--draw D] [--max-substeps M]\n"
            "                        [--substeps K]]\n"
            "                       [--contact HANDLER]\n"
            "                       [--max-steps N] [--plugin FILE]...\n\n"
            "Runs one integrator on one model from t = 0 to t_end, measures its error at every\n"
            "step against the exact solution (or, for a model without one, a reference\n"
            "solution by GSL's rk8pd at tolerance 1e-14), and prints a CSV header and one row:\n";
    char usage[4096], columns[2048];
    vb_help_columns(columns, sizeof columns, &vb_runs_schema, 0);
    snprintf(usage, sizeof usage, "%s%s\n", usage_head, columns);
    const vb_command_spec parser = {
        .name = CMD,
        .options = rows,
        .operands = VB_OPERANDS_NONE,
        .column = 21,
        VB_SHARED_ENV(&o.so),
        .usage = usage,
        .epilogue = sim_epilogue,
    };
    int first;
    if ((rc = vb_options_parse(&parser, argc, argv, &first)) != VB_OPTIONS_GO)
        return rc;
    return sim(&o);
}

/* the integrator (or engine, *engine) the options name, in the precision
 * they ask, and its tolerance (*tol: VB_DEFAULT_TOL for an adaptive one
 * not given one): 0, or the exit status after the message, nothing left to
 * free */
static int method_of(const sim_opts *o, vb_engine **engine, const vb_integrator **integ,
                     double *tol)
{
    const char *integ_name = o->integ_name, *engine_spec = o->engine_spec;
    char names[512];
    vb_engine *e = NULL;
    const vb_integrator *g;
    *engine = NULL;
    if (!integ_name && !engine_spec) {
        vb_integrator_names(names, sizeof names);
        return vb_usage_error(CMD, "--integrator is required (one of: %s), or --engine", names);
    }
    if (integ_name && engine_spec)
        return vb_usage_error(CMD, "--integrator or --engine: one run, one method");
    if (engine_spec) {
        char why[256];
        if (!(e = vb_engine_parse(engine_spec, 0, why, sizeof why)))
            return vb_usage_error(CMD, "--engine: %s", why);
        e->timeout = o->engine_timeout;
        g = &e->integ;
    } else if (!(g = strchr(integ_name, ':') ? vb_integrator_lookup(integ_name, names,
                                                                      sizeof names)
                                              : vb_integrator_find(integ_name))) {
        if (strchr(integ_name, ':'))
            return vb_usage_error(CMD, "--integrator: %s", names);
        vb_integrator_names(names, sizeof names);
        return vb_usage_error(CMD, "--integrator: unknown integrator '%s' (valid: %s)",
                              integ_name, names);
    }
    if (o->precision != VB_FLOAT64 || o->offset != 0.0) {
        if (e) {
            vb_engine_free(e);
            return vb_usage_error(CMD, "--precision and --offset are for the built-in integrators; "
                                       "an engine declares its own precision");
        }
        if (!(g = vb_integrator_in_precision(g, o->precision, o->offset, names, sizeof names)))
            return vb_usage_error(CMD, "%s: %s",
                                  o->precision != VB_FLOAT64 ? "--precision" : "--offset", names);
    }
    if (*tol > 0.0 && !(g->flags & VB_ADAPTIVE)) {
        vb_engine_free(e);
        return vb_usage_error(CMD, "--tol: %s takes steps of the size it is given; only an "
                                   "adaptive integrator (rkf45, rk8pd) has a tolerance",
                              g->name);
    }
    if (g->flags & VB_ADAPTIVE && *tol == 0.0)
        *tol = VB_DEFAULT_TOL;
    *engine = e;
    *integ = g;
    return 0;
}

/* the model of type mtype with the options' --set parameters, set up, and
 * integ checked to suit it: 0, or the exit status after the message */
static int model_of(const sim_opts *o, const vb_model_type *mtype, const vb_integrator *integ,
                    vb_model *model)
{
    char err[1024];
    vb_model_defaults(model, mtype);
    if (vb_opt_set_params(CMD, model, o->sets.v, o->sets.n) != 0)
        return VB_EXIT_USAGE;
    if (vb_model_setup(model, err, sizeof err) != 0)
        return vb_usage_error(CMD, "--set: %s", err);
    if (vb_integrator_suits(integ, model, err, sizeof err) != 0) {
        vb_model_free(model);
        return vb_usage_error(CMD, "--integrator: %s", err);
    }
    return 0;
}

/* the plan the options ask for, into *plan (a trace's steps read into
 * *trace), checked: 0, or VB_EXIT_USAGE after the message */
static int plan_of(const sim_opts *o, const vb_model_type *mtype, const vb_model *model, double tol,
                   vb_trace *trace, vb_plan_spec *plan)
{
    char err[1024];
    double t_end = o->t_end;
    snprintf(plan->id, sizeof plan->id, "sim");
    plan->tol = tol; /* 0 unless adaptive */
    if (o->steps_path) {
        if (vb_trace_load(o->steps_path, trace, err, sizeof err) != 0) {
            vb_error(CMD, "%s", err);
            return VB_EXIT_USAGE;
        }
        plan->kind = VB_PLAN_TRACE;
        plan->trace = trace;
        plan->t_end = t_end > 0.0 ? t_end : 0.0;
    } else {
        double jitter = isnan(o->jitter) ? 0.0 : o->jitter;
        if (!(t_end > 0.0))
            t_end = mtype->natural_time(model->self);
        plan->kind = jitter > 0.0 ? VB_PLAN_RANDOM : VB_PLAN_FIXED;
        plan->t_end = t_end;
        plan->dt = o->dt > 0.0 ? o->dt : t_end / 1000.0;
        plan->jitter = jitter;
        plan->seed = o->seed;
    }
    if (vb_plan_check(plan, err, sizeof err) != 0) {
        if (o->steps_path)
            vb_usage_error(CMD, "--steps: %s: %s", o->steps_path, err);
        else
            vb_usage_error(CMD, "%s", err);
        return VB_EXIT_USAGE;
    }
    return 0;
}

/* the method wrapped in the frame loop (*loop) or contact handler
 * (*composed) the options ask for, spec->integ the whole, and its steps
 * held to --max-steps: 0, or the exit status after the message */
static int wrap_method(const sim_opts *o, int engine,
                       vb_run_spec *spec, vb_loop **loop, vb_composed **composed)
{
    int status;
    if ((status = loop_from_opts(&o->lo, spec->integ, engine, vb_plan_t_end(&spec->plan),
                                 loop)) != 0)
        return status;
    if ((status = contact_from_opts(o->contact, spec->integ, engine, *loop != NULL, spec->model,
                                    composed)) != 0)
        return status;
    if (*composed)
        spec->integ = &(*composed)->integ;
    double n_steps = vb_plan_max_steps(&spec->plan);
    if (*loop) {
        /* the loop's physics steps: a substeps loop of 1000 takes 1000 a frame */
        double h_equal = spec->plan.kind == VB_PLAN_FIXED ? spec->plan.t_end / n_steps : 0.0;
        n_steps = fmax(n_steps, vb_loop_max_steps(&(*loop)->spec, n_steps, h_equal,
                                                  vb_plan_t_end(&spec->plan), 0));
        spec->integ = &(*loop)->integ;
    }
    if (n_steps > o->so.max_steps) {
        vb_usage_error(CMD, "the run needs up to %.3g steps, over the limit of %.3g "
                            "(raise it with --max-steps or VERLETBENCH_MAX_STEPS)",
                       n_steps, o->so.max_steps);
        return VB_EXIT_USAGE;
    }
    return 0;
}

/* --trajectory FILE opened (written to a temporary file, renamed at the
 * end) with the lines that say what made it, and spec->trajectory pointed
 * at it: 0, or VB_EXIT_USAGE after the message */
static int open_trajectory(const sim_opts *o, vb_run_spec *spec, vb_outfile *traj)
{
    char err[1024];
    if (!o->traj_path)
        return 0;
    if (vb_outfile_open(traj, o->traj_path, err, sizeof err) != 0) {
        vb_error(CMD, "--trajectory: %s", err);
        return VB_EXIT_USAGE;
    }
    fprintf(traj->f, "# verletbench %s sim: ", vb_version_text());
    vb_run_describe(traj->f, spec);
    if (o->steps_path)
        fprintf(traj->f, " steps=%s", o->steps_path);
    fputc('\n', traj->f);
    vb_libraries_provenance(traj->f);
    spec->trajectory = traj->f;
    return 0;
}

/* runs.csv's row of the run, without a sweep's level and resolved (and a
 * handler's contact.csv row, or a stack's stacks.csv row, after it), and how a run that did not finish
 * ended: the exit status */
static int print_result(const vb_run_spec *spec, const vb_engine *engine,
                        const vb_run_result *res)
{
    const vb_integrator *integ = spec->integ;
    /* the columns of what this run measures (its description, as a
     * case's: profile.h) */
    vb_profile described;
    if (vb_profile_make(&described, spec->model, &integ, 1, vb_plan_t_end(&spec->plan)) != 0) {
        vb_error(CMD, "out of memory");
        return VB_EXIT_FAIL;
    }
    unsigned view = vb_runs_view(described.measures);
    vb_profile_free(&described);
    vb_runs_row row = {spec->model, integ, &spec->plan, res, 0};
    vb_schema_header(stdout, &vb_runs_schema, view);
    vb_schema_row(stdout, &vb_runs_schema, view, NULL, &row);
    if (res->contact.has) { /* the handler's measures: contact.csv's header and row */
        unsigned cview = vb_contact_view(&res->contact);
        vb_schema_header(stdout, &vb_contact_schema, cview);
        vb_schema_row(stdout, &vb_contact_schema, cview, NULL, &row);
    }
    if (res->stack.has) { /* a stack's measures: stacks.csv's header and row */
        vb_schema_header(stdout, &vb_stack_schema, 0);
        vb_schema_row(stdout, &vb_stack_schema, 0, NULL, &row);
    }
    if (res->status == VB_STATUS_EXACT_FAILED && isfinite(res->ref_bad_force_t))
        vb_error(CMD,
                 "the run %s at step %llu: the reference solution could not go on past "
                 "t = %.17g, where the model's force was not a finite number",
                 vb_status_name(res->status), res->fail_step, res->ref_bad_force_t);
    else if (res->status == VB_STATUS_ENGINE_FAILED)
        vb_error(CMD, "engine %s (%s): %s", engine->name, engine->command, vb_run_failure(res));
    else if (res->status != VB_STATUS_OK)
        vb_error(CMD, "the run %s at step %llu%s%s", vb_status_name(res->status), res->fail_step,
                 res->failure ? ": " : "", vb_run_failure(res));
    /* the row is the result either way; the status tells a script it failed */
    return res->status == VB_STATUS_OK ? VB_EXIT_OK : VB_EXIT_FAIL;
}

/* the run the options ask for: checked, run, its row printed */
static int sim(const sim_opts *o)
{
    const vb_model_type *mtype;
    vb_engine *engine = NULL;
    const vb_integrator *integ = NULL;
    double tol = o->tol;
    int rc;
    if ((rc = vb_opt_model(CMD, o->model_name, &mtype)) != 0)
        return rc;
    if ((rc = method_of(o, &engine, &integ, &tol)) != 0)
        return rc;
    if (o->steps_path && (o->dt > 0.0 || !isnan(o->jitter))) {
        vb_engine_free(engine);
        return vb_usage_error(CMD, "--steps reads the steps from a file; it takes no --dt or --jitter");
    }
    vb_model model;
    if ((rc = model_of(o, mtype, integ, &model)) != 0) {
        vb_engine_free(engine);
        return rc;
    }

    vb_trace trace = {0};
    vb_loop *loop = NULL;
    vb_composed *composed = NULL;
    vb_run_spec spec = {.integ = integ, .model = &model};
    vb_outfile traj = {0};
    vb_run_result res;
    char err[1024];
    int status;
    if ((status = plan_of(o, mtype, &model, tol, &trace, &spec.plan)) != 0 ||
        (status = wrap_method(o, engine != NULL, &spec, &loop, &composed)) != 0 ||
        (status = open_trajectory(o, &spec, &traj)) != 0)
        goto out;
    if (vb_simulate(&spec, &res, err, sizeof err) != 0) {
        vb_error(CMD, "%s", err);
        if (o->traj_path)
            vb_outfile_abort(&traj);
        status = VB_EXIT_FAIL;
        goto out;
    }
    if (o->traj_path && vb_outfile_commit(&traj, err, sizeof err) != 0) {
        vb_error(CMD, "--trajectory: %s", err);
        status = VB_EXIT_FAIL;
        goto out;
    }
    status = print_result(&spec, engine, &res);
    vb_run_result_clear(&res);
out:
    vb_composed_free(composed);
    vb_loop_free(loop);
    vb_trace_free(&trace);
    vb_model_free(&model);
    vb_engine_free(engine);
    return status;
}
