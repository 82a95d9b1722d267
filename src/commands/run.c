/* commands/run.c — `verletbench run CASEFILE...`: each case's whole sweep, its
 * tables under DIR/NAME/, and DIR/summary.md over every case in DIR. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "casefile.h"
#include "cli.h"
#include "grid.h"
#include "outdir.h"
#include "plugin.h"
#include "report.h"
#include "runner.h"
#include "rundir.h"
#include "sweep.h"

#define CMD "run"

/* --shard K/N */
static int shard_row(const char *cmd, const vb_option *row, const char *arg)
{
    int *k_n = row->store;
    return vb_opt_shard(cmd, arg, &k_n[0], &k_n[1]) != 0 ? VB_EXIT_USAGE : 0;
}

/* --strict judges every method; --strict=mine only those not built in,
 * for a CI job guarding its own beside the built-ins */
static int strict_row(const char *cmd, const vb_option *row, const char *arg)
{
    int *strict = row->store;
    if (!arg || !strcmp(arg, "all"))
        *strict = 1;
    else if (!strcmp(arg, "mine"))
        *strict = 2;
    else
        return vb_usage_error(cmd, "--strict=%s: give --strict (every method) or "
                                   "--strict=mine (a plugin's and an engine's only)",
                              arg);
    return 0;
}

typedef struct {
    const char *name;
    size_t index, count;
    int shown;
} progress_state;

static void progress(void *ctx, size_t done, size_t total)
{
    progress_state *p = ctx;
    if (done == total || done % 16 == 0) {
        fprintf(stderr, "\r[%zu/%zu] %-24s %zu/%zu runs", p->index + 1, p->count, p->name, done,
                total);
        p->shown = 1;
    }
}

/* what the options ask of a run besides its files */
typedef struct {
    int quiet, chart_data, full, timing, draw, strict, shard_k, shard_n;
} run_how;

static int run_cases(int argc, char **argv, int first, const char *out, vb_shared_opts so,
                     run_how how);

int vb_cmd_run(int argc, char **argv)
{
    const char *out = "results";
    vb_shared_opts so = vb_shared_opts_plain();
    int quiet = 0, no_chart_data = 0, full = 0, timing = 0, draw = 0, strict = 0, rc;
    int shard[2] = {0, 0};
    const vb_option rows[] = {
        VB_OPT_STRING("out", "DIR", &out, "where to write (default: results)"),
        VB_SHARED_MAX_STEPS(&so, "refuse a run of more than N steps (default 1e9, or\n"
                                 "VERLETBENCH_MAX_STEPS)"),
        VB_OPT_FLAG("quiet", &quiet, "no progress line and no tables on the terminal"),
        VB_SHARED_JOBS(&so, "run on N threads (default: VERLETBENCH_THREADS, else every\n"
                            "CPU); the output is the same bytes for any N"),
        VB_OPT_FLAG("no-chart-data", &no_chart_data,
                    "only the tables: skip convergence, timeseries and paths.csv\n"
                    "(a rigid body's: polhode and rigid_timeseries.csv) and the\n"
                    "long runs behind them"),
        VB_OPT_FLAG("full-chart-data", &full,
                    "the chart data at every step: timeseries.csv a row a step\n"
                    "of the long runs, paths.csv every step (by default they are\n"
                    "what a chart can show: the maximum of each of 1000 windows of\n"
                    "time, and a path's first, last, lowest and highest points in\n"
                    "each of 1000, every step while there are few)"),
        VB_OPT_FLAG("timing", &timing,
                    "also time each run alone (seed 1 of the random plans), on\n"
                    "one thread after the sweep, into timing.csv: error against\n"
                    "seconds beside error against force evaluations; the only\n"
                    "file that differs between machines (docs/method.md §8)"),
        VB_OPT_CALL("shard", "K/N", shard_row, shard,
                    "compute only shard K of N (1 <= K <= N): a fixed share of\n"
                    "the runs, balanced by their steps (a grid's over all its\n"
                    "points), into DIR/NAME/shard.csv;\n"
                    "`verletbench merge` turns the N shards into the files of a\n"
                    "whole run, the same bytes (docs/method.md §8: GNU parallel,\n"
                    "Slurm); every kind of case shards (an engine's command\n"
                    "must run on every machine: give merge the same --engine)"),
        VB_OPT_FLAG("draw", &draw,
                    "then draw the charts and REPORT.md: verletbench draw DIR\n"
                    "(into plots/ for results, else DIR/plots/)"),
        {.kind = VB_OPTION_CALL, .name = "strict", .call = strict_row, .store = &strict,
         .flags = VB_OPTION_OPTIONAL,
         .help = "exit 1 when a verdict of the summary tables (the position\n"
                 "error's, each plan; the energy error's, fixed steps) is\n"
                 "below-label or not-converging, a trend more than 0.25 below\n"
                 "the label (no-asymptotic-range), or undetermined because the\n"
                 "runs diverged, and say which: for a CI job guarding an\n"
                 "integrator (everything is still written; docs/check.md says\n"
                 "what check catches besides)"},
        VB_OPT_TEXT("  --strict=mine    the same for your methods only (a --plugin's, an "
                    "--engine's,\n"
                    "                   a case's [engines]), not the built-ins beside them\n"),
        VB_SHARED_PLUGINS(&so),
        VB_SHARED_ENGINES(&so),
        VB_OPT_HELP,
        VB_OPT_END,
    };
    const vb_command_spec spec = {
        .name = CMD,
        .options = rows,
        VB_SHARED_ENV(&so),
        .usage =
            "Usage: verletbench run CASEFILE... [--out DIR] [--max-steps N] [--quiet] [-j N]\n"
            "                       [--no-chart-data | --full-chart-data] [--timing] [--draw]\n"
            "                       [--strict[=mine]]\n"
            "                       [--shard K/N] [--plugin FILE]... [--plugin-timeout S]\n"
            "                       [--engine NAME:ORDER=CMD]... [--trajectories NAME:ORDER=DIR]...\n"
            "                       [--engine-timeout S] [--engines-only]\n\n"
            "Runs the whole plan of each case file: every integrator it names at dt, dt/2, ...\n"
            "(halvings step sizes) with fixed steps, `seeds` random plans per step size when\n"
            "jitter > 0, and the trace it names; fits convergence orders (docs/method.md §5);\n"
            "measures one-step errors from exact data and whether each run retraces itself\n"
            "backwards.\n\n"
            "For NAME.case it writes DIR/NAME/:\n"
            "  runs.csv            one row per run: the columns of `sim`, then level and\n"
            "                      resolved (and err_draw_max, err_draw_rms, lag_max in a\n"
            "                      case with a [loop]; err_att_max, err_angvel_max in a\n"
            "                      rigid body's, docs/rigid.md)\n"
            "  orders.csv          integrator,plan,norm,order,points,expected,verdict,...\n"
            "  bands.csv           random plans: median and p10-p90 over seeds per dt\n"
            "  onestep.csv         one-step errors; onestep_orders.csv their exponents\n"
            "  reverse.csv         return errors of the forward-and-back runs\n"
            "  flips.csv           a rigid body's case: each run's flips, flip period and\n"
            "                      the time a stable spin first tumbles\n"
            "  contact.csv         a case with [contact]: each handler's measures beside\n"
            "                      the exact answer (docs/contact.md); bounces.csv the\n"
            "                      height and energy after each bounce (chart data)\n"
            "  summary.md          the case's table\n"
            "and DIR/summary.md, the tables of the cases of this run.  A case file whose\n"
            "numbers hold lists or ranges (e = 0.1, 0.5, 0.9; k = 1 .. 1000 times 10) is a\n"
            "grid: one case a point, DIR/NAME@e=0.5/, and DIR/NAME/grid.csv and summary.md\n"
            "with every point's orders and errors (docs/cases.md \"Grids\").  All case files are\n"
            "checked before anything runs; a bad one exits 2 and writes nothing.  Every case\n"
            "is computed before any is written, and each case directory is replaced whole\n"
            "(an interrupted, killed or failed run leaves the old one); one run at a time may\n"
            "write into DIR (a second gets exit 2).  Charts: verletbench draw DIR; what an\n"
            "earlier draw made of the cases written (DIR/REPORT.md, their charts) is removed,\n"
            "and --draw makes it again.\n\n",
        .epilogue =
            "\nCase files are INI: see cases/*.case and docs/cases.md; external engines (a case\n"
            "file's [engines], or --engine): docs/engines.md.\n",
    };
    int first;
    if ((rc = vb_options_parse(&spec, argc, argv, &first)) != VB_OPTIONS_GO)
        return rc;
    run_how how = {quiet, !no_chart_data, full, timing, draw, strict, shard[0], shard[1]};
    return run_cases(argc, argv, first, out, so, how);
}

/* the case files argv[first..argc): checked, swept, written (and drawn) */
static int run_cases(int argc, char **argv, int first, const char *out, vb_shared_opts so,
                     run_how how)
{
    int quiet = how.quiet, chart_data = how.chart_data, full = how.full, timing = how.timing;
    int draw = how.draw;
    int strict = how.strict, shard_k = how.shard_k, shard_n = how.shard_n, written = 0, rc;
    if (argc - first <= 0)
        return vb_usage_error(CMD, "no case files given (e.g. verletbench run cases/*.case)");
    if (!out[0])
        return vb_usage_error(CMD, "--out: empty directory name");
    if (draw && !chart_data)
        return vb_usage_error(CMD, "--draw needs the chart data that --no-chart-data leaves out");
    if (full && !chart_data)
        return vb_usage_error(CMD, "--full-chart-data and --no-chart-data: one or the other");
    if (shard_n && (draw || strict || timing))
        return vb_usage_error(CMD, "--shard computes a share of the runs: --%s needs them all "
                                   "(use it with verletbench merge)",
                              draw ? "draw" : strict ? "strict" : "timing");

    /* check every case (every point of a grid) before running any, so bad
     * input writes nothing */
    char err[1024];
    int status = VB_EXIT_OK;
    size_t swept = 0, n = 0;
    long n_grids = 0;
    vb_case_set set;
    vb_sweep *sweeps = NULL;
    vb_grid *grids = NULL;
    vb_outdir od = {NULL, -1};
    if (vb_case_set_load(&set, argv + first, (size_t)(argc - first), err, sizeof err) != 0) {
        vb_error(CMD, "%s", err);
        status = VB_EXIT_USAGE;
        goto done;
    }
    n = set.n;
    for (size_t i = 0; i < n; i++) {
        vb_case *ci = set.all[i];
        if (vb_case_add_cli_engines(CMD, ci, &so) != 0) {
            status = VB_EXIT_USAGE;
            goto done;
        }
        /* every kind of case shards: a shard carries every field of its
         * runs' results (output/shardfile.c, driver/profile.h) */
    }
    if (strict == 2 && !vb_case_set_runs_own(&set)) {
        /* a judgement of nothing would pass whatever happened */
        vb_error(CMD, "--strict=mine: none of these cases runs a method of yours (from "
                      "--plugin, --engine, --trajectories or a case's [engines]): it would "
                      "judge nothing");
        status = VB_EXIT_USAGE;
        goto done;
    }
    if (vb_case_set_distinct(&set, out, 1, err, sizeof err) != 0) {
        vb_error(CMD, "%s", err);
        status = VB_EXIT_USAGE;
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        if (vb_sweep_check(set.all[i], so.max_steps, err, sizeof err) != 0) {
            vb_error(CMD, "%s", err);
            status = VB_EXIT_USAGE;
            goto done;
        }

    /* The output directory: locked for this run (a second run into it is
     * refused), and every case directory and the summary checked for being
     * replaceable before anything is computed, so bad input writes nothing. */
    rc = vb_outdir_open(&od, out, err, sizeof err);
    if (rc == 0)
        rc = vb_rundir_check(&od, &set, err, sizeof err);
    if (rc != 0) {
        vb_error(CMD, "--out: %s", err);
        status = rc == VB_OUTDIR_USAGE ? VB_EXIT_USAGE : VB_EXIT_FAIL;
        goto done;
    }
    char summary[4096 + 16];
    snprintf(summary, sizeof summary, "%s/summary.md", out);
    if (vb_is_read_only(summary)) {
        vb_error(CMD, "--out: %s is read-only: not replacing it (chmod u+w it to allow)", summary);
        status = VB_EXIT_USAGE;
        goto done;
    }

    /* Compute every case first, write nothing: an interrupt (SIGINT, SIGTERM)
     * or a failure during the sweeps leaves DIR exactly as it was. */
    int tty = !quiet && isatty(STDERR_FILENO);
    sweeps = calloc(n ? n : 1, sizeof *sweeps);
    n_grids = vb_grids_begin(&set, &grids);
    if (!sweeps || n_grids < 0) {
        n_grids = 0;
        vb_error(CMD, "out of memory");
        status = VB_EXIT_FAIL;
        goto done;
    }
    /* every case's runs planned (and their memory taken) before any is
     * computed: a sweep too large for this machine is said before any
     * work; a shard's share is taken over each file's points together */
    for (size_t i = 0; i < n; i++, swept++) {
        rc = vb_sweep_begin(set.all[i], &sweeps[i], so.max_steps, err, sizeof err);
        if (rc != 0) {
            vb_error(CMD, "%s", err);
            swept++;
            status = rc == VB_SWEEP_USAGE ? VB_EXIT_USAGE : VB_EXIT_FAIL;
            goto done;
        }
    }
    if (shard_n) {
        for (size_t f = 0, i = 0; f < set.n_files; i += set.file[f++].n)
            if (vb_sweep_shard(&sweeps[i], set.file[f].n, shard_k, shard_n) != 0) {
                vb_error(CMD, "out of memory");
                status = VB_EXIT_FAIL;
                goto done;
            }
    }
    for (size_t i = 0; i < n; i++) {
        const vb_case *ci = set.all[i];
        progress_state ps = {ci->name, i, n, 0};
        unsigned flags = (chart_data ? 0u : VB_SWEEP_TABLES_ONLY) | (timing ? VB_SWEEP_TIMING : 0u) |
                         (full ? VB_SWEEP_FULL_CHART_DATA : 0u);
        rc = vb_sweep_compute(ci, &sweeps[i], so.threads, tty ? progress : NULL, &ps, err,
                              sizeof err);
        if (rc == 0 && !shard_n)
            rc = vb_sweep_finish(ci, &sweeps[i], so.max_steps, flags, so.threads, err,
                                 sizeof err);
        sweeps[i].order_i = (int)i + 1;
        sweeps[i].order_m = (int)n;
        if (ps.shown)
            fputs(rc != 0 ? "\n" : "\r\033[K", stderr);
        vb_grid *g = rc == 0 && !shard_n ? vb_grid_of(grids, (size_t)n_grids, ci) : NULL;
        if (g && vb_grid_add(g, &sweeps[i]) != 0) {
            snprintf(err, sizeof err, "out of memory");
            rc = -1;
        }
        if (rc != 0) {
            vb_error(CMD, "%s", err);
            status = rc == VB_SWEEP_USAGE ? VB_EXIT_USAGE : VB_EXIT_FAIL;
            goto done;
        }
    }
    /* then write them all (a shard has no summary and no grid: it holds a
     * share) */
    rc = vb_rundir_write(&od, out, sweeps, n, grids, shard_n ? 0 : (size_t)n_grids, !shard_n, err,
                         sizeof err);
    if (rc != 0) {
        vb_error(CMD, "%s", err);
        status = rc == VB_OUTDIR_USAGE ? VB_EXIT_USAGE : VB_EXIT_FAIL;
    } else {
        written = 1;
    }
    if (status == VB_EXIT_OK && !quiet && !shard_n)
        vb_rundir_print(stdout, sweeps, n, grids, (size_t)n_grids);
    /* engines and plugins that failed: each run said, and exit 1, the
     * results kept */
    if (status == VB_EXIT_OK && vb_report_run_failures(stderr, CMD, sweeps, n) > 0)
        status = VB_EXIT_FAIL;
    /* --strict: a method below the order its label promises fails the run */
    if (strict && written && vb_report_strict(stderr, CMD, sweeps, n, strict == 2) > 0)
        status = VB_EXIT_FAIL;
done:
    vb_outdir_close(&od);
    for (size_t i = 0; i < swept; i++)
        vb_sweep_free(&sweeps[i]);
    free(sweeps);
    vb_grids_free(grids, (size_t)n_grids);
    vb_case_set_free(&set);
    if (written && draw) {
        /* the charts of what was just written: `verletbench draw OUT`, in a
         * child (draw execs its script), the exit status combined */
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid == 0) {
            char *args[] = {"draw", (char *)out, NULL};
            _exit(vb_cmd_draw(2, args));
        }
        int st = 0;
        while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
            ;
        int drawn = pid < 0 ? VB_EXIT_FAIL
                    : WIFEXITED(st) ? WEXITSTATUS(st)
                                    : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
        if (pid < 0)
            vb_error(CMD, "--draw: fork: %s", strerror(errno));
        if (drawn != VB_EXIT_OK && status == VB_EXIT_OK)
            status = drawn;
    }
    return status;
}
