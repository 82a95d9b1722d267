/* commands/bench.c — `verletbench bench`: what a step costs, as ratios against a
 * fused hand-written loop timed in the same process. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "integrator.h"
#include "model.h"
#include "outfile.h"
#include "plugin.h"
#include "protocol.h"
#include "provenance.h"
#include "rows.h"

#define CMD "bench"

#define MAX_SETS 32
#define VB_STR_(x) #x
#define VB_STR(x) VB_STR_(x)

/* the options, as the table below leaves them */
typedef struct {
    const char *model, *integs, *out, *engine;
    vb_opt_list sets;
    unsigned long steps, repeat; /* steps 0: not given */
    double dt;
    unsigned modes;
    vb_shared_opts so; /* only --plugin applies */
} bench_opts;

/* --modes single,sim: a bit 1u << mode each (the reference brings the grid) */
static int parse_modes(const char *cmd, const vb_option *row, const char *text)
{
    unsigned *modes = &((bench_opts *)row->store)->modes;
    (void)cmd;
    static const vb_bench_mode can[] = {VB_BENCH_SINGLE, VB_BENCH_SIM, VB_BENCH_GSL,
                                        VB_BENCH_REFERENCE};
    char copy[256], *item[16];
    int n = vb_opt_split(CMD, "--modes", text, copy, sizeof copy, item, 16);
    if (n < 0)
        return VB_EXIT_USAGE;
    *modes = 1u << VB_BENCH_FUSED;
    for (int i = 0; i < n; i++) {
        const char *tok = item[i];
        size_t k = 0;
        while (k < sizeof can / sizeof can[0] && strcmp(vb_bench_mode_name[can[k]], tok) != 0)
            k++;
        if (k == sizeof can / sizeof can[0]) {
            return vb_usage_error(CMD, "--modes: unknown mode '%s' (valid: single, sim, gsl, "
                                       "reference)",
                                  tok);
        }
        *modes |= 1u << can[k];
    }
    return 0;
}

/* --engine CMD: a command, checked at once */
static int engine_command(const char *cmd, const vb_option *row, const char *arg)
{
    if (!arg[0])
        return vb_usage_error(cmd, "--engine: an empty command");
    ((bench_opts *)row->store)->engine = arg;
    return 0;
}
/* bench --engine: the protocol's cost beside a built-in and the engine */
static int bench_protocol(const char *command, const char *model_name, const char *const *sets,
                          size_t n_sets, unsigned long steps, unsigned long repeat,
                          const char *out)
{
    char err[1024], names[512];
    const vb_model_type *mt = vb_model_find(model_name ? model_name : "spring");
    if (!mt) {
        vb_model_names_text(names, sizeof names);
        return vb_usage_error(CMD, "--model: unknown model '%s' (valid: %s)", model_name, names);
    }
    vb_model m;
    vb_model_defaults(&m, mt);
    if (vb_opt_set_params(CMD, &m, sets, n_sets) != 0)
        return VB_EXIT_USAGE;
    if (vb_model_setup(&m, err, sizeof err) != 0)
        return vb_usage_error(CMD, "%s", err);
    vb_outfile o;
    if (out && vb_outfile_open(&o, out, err, sizeof err) != 0) {
        vb_model_free(&m);
        vb_error(CMD, "--out: %s", err);
        return VB_EXIT_USAGE;
    }
    double ns[VB_BENCH_ENGINE_MODES];
    if (vb_bench_engine(command, &m, steps, (int)repeat, ns, err, sizeof err) != 0) {
        vb_error(CMD, "%s", err);
        if (out)
            vb_outfile_abort(&o);
        vb_model_free(&m);
        return VB_EXIT_FAIL;
    }
    /* the built-in's sim, an engine that echoes, the engine: each against
     * the first */
    static const char *const who[] = {"velocity-verlet", "echo", "engine"};
    static const char *const mode_of[] = {"sim", "engine-echo", "engine"};
    static vb_bench_rows table;
    table.n = 0;
    for (int k = 0; k < VB_BENCH_ENGINE_MODES; k++)
        table.row[table.n++] = (vb_bench_row){.model = mt->name,
                                              .integrator = who[k],
                                              .mode = mode_of[k],
                                              .fused_on = mode_of[0],
                                              .steps = steps,
                                              .particles = m.particles,
                                              .ns = ns[k],
                                              .ratio = ns[k] / ns[0]};
    for (int pass = 0; pass < (out ? 2 : 1); pass++) {
        FILE *f = pass ? o.f : stdout;
        if (pass)
            fprintf(f, "# verletbench %s: bench --engine '%s', dt = 1e-3, %lu steps a run, "
                       "median of %lu interleaved repeats; ratio_to_fused is against the "
                       "built-in's sim here (fused_on = sim)\n",
                    vb_version_text(), command, steps, repeat);
        vb_bench_write(f, &table);
    }
    vb_model_free(&m);
    if (out && vb_outfile_commit(&o, err, sizeof err) != 0) {
        vb_error(CMD, "%s", err);
        return VB_EXIT_FAIL;
    }
    return VB_EXIT_OK;
}

static int bench(const bench_opts *opt);

int vb_cmd_bench(int argc, char **argv)
{
    bench_opts o = {.integs = "velocity-verlet,rk4", .repeat = 5, .dt = VB_BENCH_DT,
                    .modes = ~0u, .so = vb_shared_opts_plain()};
    const vb_option rows[] = {
        VB_OPT_STRING("model", "M", &o.model,
                      "one system, built-in or plugin; default: the orbit (e = 0.5),\n"
                      "the chain of 64 masses and the figure-eight three-body problem"),
        VB_OPT_LIST("set", "KEY=VALUE", &o.sets, MAX_SETS, "at most " VB_STR(MAX_SETS),
                    "a parameter of --model (repeat); 'verletbench list' shows them"),
        VB_OPT_STRING("integrator", "I", &o.integs,
                      "default velocity-verlet,rk4; a method with parameters as\n"
                      "NAME:KEY=VALUE (jakobsen:sweeps=10)"),
        VB_OPT_ULONG("steps", "N", &o.steps, 1000, 1e9, "%s must be in 1000..1e9",
                     "particle-steps per timed run (default 2000000): a system of\n"
                     "n particles takes N/n steps (at least 1000)"),
        VB_OPT_DOUBLE_ABOVE("dt", "H", &o.dt, 0.0, 1.0, "%s must be in (0, 1]",
                            "the step of the timed runs (default 1e-5); rods need the\n"
                            "steps a run takes (SHAKE's work grows with the step)"),
        VB_OPT_CALL("modes", "M,...", parse_modes, &o,
                    "only these of single, sim, gsl, reference (which\n"
                    "brings grid); default all"),
        VB_OPT_ULONG("repeat", "R", &o.repeat, 1, 64, "%s must be in 1..64",
                     "timed repeats, median reported (default 5)"),
        VB_OPT_STRING("out", "FILE", &o.out,
                      "also write the CSV to FILE (temporary file, renamed)"),
        VB_OPT_CALL("engine", "CMD", engine_command, &o,
                    "instead: what the external-engine protocol costs\n"
                    "(docs/engines.md).  On --model (default: the spring), 100000\n"
                    "fixed steps of 1e-3 (--steps), three runs through sim: the\n"
                    "built-in velocity-verlet (mode sim), an engine that only echoes\n"
                    "a finished trajectory (engine-echo: the protocol's cost is its\n"
                    "time minus sim's), and CMD itself (engine);\n"
                    "ratio_to_fused is then against sim, and every time\n"
                    "is wall-clock time (the engines are other processes)"),
        VB_SHARED_PLUGINS(&o.so),
        VB_OPT_HELP,
        VB_OPT_END,
    };
    const vb_command_spec spec = {
        .name = CMD,
        .options = rows,
        .operands = VB_OPERANDS_NONE,
        .column = 21,
        .usage =
            "Usage: verletbench bench [--model M [--set KEY=VALUE]...] [--integrator I[,I...]]\n"
            "                         [--steps N] [--repeat R] [--dt H] [--modes M[,M...]]\n"
            "                         [--out FILE]\n"
            "                         [--plugin FILE]... [--plugin-timeout S]\n"
            "       verletbench bench --engine CMD [--model M [--set KEY=VALUE]...] [--steps N]\n"
            "                         [--out FILE]\n\n"
            "Times the integrators on a system and prints CSV:\n"
            "  model,integrator,mode,steps,ns_per_step,ratio_to_fused,particles,\n"
            "  ns_per_particle_step,fused_on\n"
            "Modes (ns per step of one run, in this process's CPU time; the median of R\n"
            "repeats):\n"
            "  fused      a hand-written velocity Verlet loop for the system, every\n"
            "             function inlined: the reference the ratios are taken against\n"
            "             (for the orbit at e = 0.5, the 64-mass chain and the three-body\n"
            "             problem; a system without one is compared with the orbit's)\n"
            "  single     the integrator from the table, stepping the model's force through\n"
            "             function pointers: what the method itself costs here\n"
            "  sim        a whole `sim` run: the step plus the exact solution (for the orbit,\n"
            "             a Kepler solve; for a model without one, its own reference) and\n"
            "             every metric, at every step\n"
            "  gsl        GSL's gsl_odeiv2_driver_apply_fixed_step with its rk4 (rk4 only)\n"
            "  reference  (models without an exact solution) the reference solution alone,\n"
            "             GSL's rk8pd with the second run that measures its error, landing\n"
            "             at every step of a fixed grid of 20000 steps over the model's\n"
            "             natural time: ns per grid point (integrator column: rk8pd)\n"
            "  grid       the same grid run by every integrator in the table, as `run`\n"
            "             does,\n"
            "             sharing that reference: ns per grid point for all of them together\n"
            "             (integrator column: the number of integrators)\n"
            "ratio_to_fused is ns_per_step / the fused loop's, both per particle-step: the\n"
            "median over R of each timing against one of the fused loop taken just before\n"
            "it; fused_on names the system of that loop.\n\n",
        .epilogue = "\nA benchmark, not a test: the ratios depend on the machine (make bench).\n",
    };
    int first, rc = vb_options_parse(&spec, argc, argv, &first);
    if (rc != VB_OPTIONS_GO)
        return rc;
    return bench(&o);
}

/* the systems to time, into systems[] (*n_sys of them, not yet set up):
 * --model with its --set parameters, or the default three; 0, or the exit
 * status after the message */
static int systems_of(const char *model_name, const char *const *sets, size_t n_sets,
                      vb_model systems[3], size_t *n_sys)
{
    char err[1024], names[512];
    *n_sys = 0;
    if (model_name) {
        const vb_model_type *mt = vb_model_find(model_name);
        if (!mt) {
            vb_model_names_text(names, sizeof names);
            return vb_usage_error(CMD, "--model: unknown model '%s' (valid: %s)", model_name,
                                  names);
        }
        vb_model_defaults(&systems[*n_sys], mt);
        if (vb_opt_set_params(CMD, &systems[*n_sys], sets, n_sets) != 0)
            return VB_EXIT_USAGE;
        (*n_sys)++;
    } else {
        vb_model_defaults(&systems[(*n_sys)++], vb_model_find("orbit"));
        vb_model_defaults(&systems[*n_sys], vb_model_find("chain"));
        if (vb_model_set(&systems[(*n_sys)++], "N", "64", err, sizeof err) != 0)
            return vb_usage_error(CMD, "%s", err);
        vb_model_defaults(&systems[(*n_sys)++], vb_model_find("figure-eight"));
    }
    return 0;
}

/* the orbit (whose fused loop is every ratio's fallback) and the systems
 * set up: 0, or the exit status after the message, none left to free */
static int setup_systems(vb_model *orbit, vb_model *systems, size_t n_sys)
{
    char err[1024];
    vb_model_defaults(orbit, vb_model_find("orbit"));
    if (vb_model_setup(orbit, err, sizeof err) != 0)
        return vb_usage_error(CMD, "%s", err);
    for (size_t k = 0; k < n_sys; k++)
        if (vb_model_setup(&systems[k], err, sizeof err) != 0) {
            for (size_t j = 0; j < k; j++)
                vb_model_free(&systems[j]);
            vb_model_free(orbit);
            return vb_usage_error(CMD, "%s", err);
        }
    return 0;
}

/* --integrator's list, each suiting every system, into list[] (at most
 * 32, *n of them): 0, or the exit status after the message */
static int integrators_of(const char *integs, const vb_model *systems, size_t n_sys,
                          const vb_integrator *list[32], size_t *n)
{
    char err[1024], names[512], copy[512], *item[32];
    int n_items = vb_opt_split(CMD, "--integrator", integs, copy, sizeof copy, item, 32);
    if (n_items < 0)
        return VB_EXIT_USAGE;
    *n = 0;
    for (int i = 0; i < n_items; i++) {
        const char *tok = item[i];
        const vb_integrator *g = strchr(tok, ':') ? vb_integrator_lookup(tok, err, sizeof err)
                                                  : vb_integrator_find(tok);
        if (!g) {
            if (strchr(tok, ':'))
                return vb_usage_error(CMD, "--integrator: %s", err);
            vb_integrator_names(names, sizeof names);
            return vb_usage_error(CMD, "--integrator: unknown integrator '%s' (valid: %s)", tok,
                                  names);
        }
        for (size_t k = 0; k < n_sys; k++)
            if (vb_integrator_suits(g, &systems[k], err, sizeof err) != 0)
                return vb_usage_error(CMD, "--integrator: %s", err);
        for (size_t k = 0; k < *n; k++)
            if (list[k] == g)
                return vb_usage_error(CMD, "--integrator: '%s' named twice", tok);
        list[(*n)++] = g;
    }
    return 0;
}

/* the timings the options ask for, printed (and written to --out) */
static int bench(const bench_opts *opt)
{
    const char *model_name = opt->model, *integs = opt->integs, *out = opt->out;
    const char *const *sets = opt->sets.v;
    size_t n_sets = opt->sets.n;
    unsigned long steps = opt->steps ? opt->steps : 2000000, repeat = opt->repeat;
    double dt = opt->dt;
    unsigned modes = opt->modes;
    if (n_sets && !model_name)
        return vb_usage_error(CMD, "--set needs --model: which system's parameter?");

    char err[1024];
    if (opt->engine)
        return bench_protocol(opt->engine, model_name, sets, n_sets,
                              opt->steps ? opt->steps : 100000, repeat, out);
    vb_model systems[3], orbit;
    size_t n_sys;
    int status;
    if ((status = systems_of(model_name, sets, n_sets, systems, &n_sys)) != 0 ||
        (status = setup_systems(&orbit, systems, n_sys)) != 0)
        return status;
    double mu = orbit.p[0]; /* orbit parameters: mu, a, e */

    const vb_integrator *list[32];
    size_t n = 0;
    int have_out = 0;
    vb_outfile o;
    if ((status = integrators_of(integs, systems, n_sys, list, &n)) != 0)
        goto done;

    /* --out opened before the timing (a wrong path is said at once, not
     * after a minute); the rows are kept until the end, so it gets the whole
     * table or nothing */
    if (out) {
        if (vb_outfile_open(&o, out, err, sizeof err) != 0) {
            vb_error(CMD, "--out: %s", err);
            status = VB_EXIT_USAGE;
            goto done;
        }
        have_out = 1;
    }
    static vb_bench_rows table;
    table.n = 0;
    vb_timer orbit_fused;
    vb_bench_how how = {.pp_steps = steps, .repeat = (int)repeat, .h = dt, .modes = modes};
    if (vb_bench_orbit(&orbit_fused, &orbit, mu, steps, (int)repeat, &table) != 0) {
        status = VB_EXIT_FAIL;
        goto done;
    }
    err[0] = '\0';
    for (size_t k = 0; k < n_sys; k++)
        if (vb_bench_system(&systems[k], &orbit_fused, list, n, &how, &table, err, sizeof err) !=
            0) {
            if (err[0]) /* a timing that failed says which */
                vb_error(CMD, "%s", err);
            status = VB_EXIT_FAIL;
            goto done;
        }

    FILE *f = stdout;
    for (int pass = 0; pass < (out ? 2 : 1); pass++) {
        if (pass == 1) {
            f = o.f;
            char h[32];
            vb_format_shortest(dt, h, sizeof h);
            fprintf(f, "# verletbench %s: bench, dt = %s, %lu particle-steps a run, median of "
                       "%lu repeats, reference grid %d steps\n",
                    vb_version_text(), h, steps, repeat, VB_REF_GRID);
        }
        vb_bench_write(f, &table);
    }
    if (have_out) {
        have_out = 0;
        if (vb_outfile_commit(&o, err, sizeof err) != 0) {
            vb_error(CMD, "%s", err);
            status = VB_EXIT_FAIL;
        }
    }
done:
    if (have_out)
        vb_outfile_abort(&o); /* a timing failed: the old file stays */
    for (size_t k = 0; k < n_sys; k++)
        vb_model_free(&systems[k]);
    vb_model_free(&orbit);
    return status;
}
