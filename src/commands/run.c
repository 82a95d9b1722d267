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
            "  contact_orders.csv  a rigid body at a contact: each solver's contact\n"
            "                      measures' orders in dt, fitted as orders.csv's\n"
            "  stacks.csv          a stack of boxes (model stack): each solver's run's\n"
            "                      drift, jitter, depth and collapse time (docs/contact.md)\n"
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

/* the options a run refuses together: 0, or the exit status after the
 * message */
static int check_options(int n_files, const char *out, run_how how)
{
    if (n_files <= 0)
        return vb_usage_error(CMD, "no case files given (e.g. verletbench run cases/*.case)");
    if (!out[0])
        return vb_usage_error(CMD, "--out: empty directory name");
    if (how.draw && !how.chart_data)
        return vb_usage_error(CMD, "--draw needs the chart data that --no-chart-data leaves out");
    if (how.full && !how.chart_data)
        return vb_usage_error(CMD, "--full-chart-data and --no-chart-data: one or the other");
    if (how.shard_n && (how.draw || how.strict || how.timing))
        return vb_usage_error(CMD, "--shard computes a share of the runs: --%s needs them all "
                                   "(use it with verletbench merge)",
                              how.draw ? "draw" : how.strict ? "strict" : "timing");
    return 0;
}

/* one run's cases and what it makes of them, freed together (run_free) */
typedef struct {
    vb_case_set set;
    vb_sweep *sweeps; /* a sweep a case, set.n */
    size_t swept;     /* the sweeps begun: each is freed */
    vb_grid *grids;
    long n_grids;
    vb_outdir od;
} run_work;

/* check every case (every point of a grid) before running any, so bad
 * input writes nothing: 0, or the exit status after the message */
static int load_cases(run_work *w, char **files, size_t n_files, const char *out,
                      const vb_shared_opts *so, run_how how)
{
    char err[1024];
    if (vb_case_set_load(&w->set, files, n_files, err, sizeof err) != 0) {
        vb_error(CMD, "%s", err);
        return VB_EXIT_USAGE;
    }
    /* every kind of case shards: a shard carries every field of its
     * runs' results (output/shardfile.c, driver/profile.h) */
    for (size_t i = 0; i < w->set.n; i++)
        if (vb_case_add_cli_engines(CMD, w->set.all[i], so) != 0)
            return VB_EXIT_USAGE;
    if (how.strict == 2 && !vb_case_set_runs_own(&w->set)) {
        /* a judgement of nothing would pass whatever happened */
        vb_error(CMD, "--strict=mine: none of these cases runs a method of yours (from "
                      "--plugin, --engine, --trajectories or a case's [engines]): it would "
                      "judge nothing");
        return VB_EXIT_USAGE;
    }
    if (vb_case_set_distinct(&w->set, out, 1, err, sizeof err) != 0) {
        vb_error(CMD, "%s", err);
        return VB_EXIT_USAGE;
    }
    for (size_t i = 0; i < w->set.n; i++)
        if (vb_sweep_check(w->set.all[i], so->max_steps, err, sizeof err) != 0) {
            vb_error(CMD, "%s", err);
            return VB_EXIT_USAGE;
        }
    return 0;
}

/* The output directory: locked for this run (a second run into it is
 * refused), and every case directory and the summary checked for being
 * replaceable before anything is computed, so bad input writes nothing.
 * 0, or the exit status after the message. */
static int open_out(run_work *w, const char *out)
{
    char err[1024];
    int rc = vb_outdir_open(&w->od, out, err, sizeof err);
    if (rc == 0)
        rc = vb_rundir_check(&w->od, &w->set, err, sizeof err);
    if (rc != 0) {
        vb_error(CMD, "--out: %s", err);
        return rc == VB_OUTDIR_USAGE ? VB_EXIT_USAGE : VB_EXIT_FAIL;
    }
    char summary[4096 + 16];
    snprintf(summary, sizeof summary, "%s/summary.md", out);
    if (vb_is_read_only(summary)) {
        vb_error(CMD, "--out: %s is read-only: not replacing it (chmod u+w it to allow)", summary);
        return VB_EXIT_USAGE;
    }
    return 0;
}

/* every case's runs planned (and their memory taken) before any is
 * computed: a sweep too large for this machine is said before any work; a
 * shard's share is taken over each file's points together.  0, or the exit
 * status after the message. */
static int plan_sweeps(run_work *w, const vb_shared_opts *so, run_how how)
{
    char err[1024];
    size_t n = w->set.n;
    w->sweeps = calloc(n ? n : 1, sizeof *w->sweeps);
    w->n_grids = vb_grids_begin(&w->set, &w->grids);
    if (!w->sweeps || w->n_grids < 0) {
        w->n_grids = 0;
        vb_error(CMD, "out of memory");
        return VB_EXIT_FAIL;
    }
    for (size_t i = 0; i < n; i++, w->swept++) {
        int rc = vb_sweep_begin(w->set.all[i], &w->sweeps[i], so->max_steps, err, sizeof err);
        if (rc != 0) {
            vb_error(CMD, "%s", err);
            w->swept++;
            return rc == VB_SWEEP_USAGE ? VB_EXIT_USAGE : VB_EXIT_FAIL;
        }
    }
    if (how.shard_n) {
        for (size_t f = 0, i = 0; f < w->set.n_files; i += w->set.file[f++].n)
            if (vb_sweep_shard(&w->sweeps[i], w->set.file[f].n, how.shard_k, how.shard_n) != 0) {
                vb_error(CMD, "out of memory");
                return VB_EXIT_FAIL;
            }
    }
    return 0;
}

/* Compute every case first, write nothing: an interrupt (SIGINT, SIGTERM)
 * or a failure during the sweeps leaves DIR exactly as it was.  0, or the
 * exit status after the message. */
static int compute_sweeps(run_work *w, const vb_shared_opts *so, run_how how)
{
    char err[1024];
    size_t n = w->set.n;
    int tty = !how.quiet && isatty(STDERR_FILENO);
    for (size_t i = 0; i < n; i++) {
        const vb_case *ci = w->set.all[i];
        progress_state ps = {ci->name, i, n, 0};
        unsigned flags = (how.chart_data ? 0u : VB_SWEEP_TABLES_ONLY) |
                         (how.timing ? VB_SWEEP_TIMING : 0u) |
                         (how.full ? VB_SWEEP_FULL_CHART_DATA : 0u);
        int rc = vb_sweep_compute(ci, &w->sweeps[i], so->threads, tty ? progress : NULL, &ps,
                                  err, sizeof err);
        if (rc == 0 && !how.shard_n)
            rc = vb_sweep_finish(ci, &w->sweeps[i], so->max_steps, flags, so->threads, err,
                                 sizeof err);
        w->sweeps[i].order_i = (int)i + 1;
        w->sweeps[i].order_m = (int)n;
        if (ps.shown)
            fputs(rc != 0 ? "\n" : "\r\033[K", stderr);
        vb_grid *g =
            rc == 0 && !how.shard_n ? vb_grid_of(w->grids, (size_t)w->n_grids, ci) : NULL;
        if (g && vb_grid_add(g, &w->sweeps[i]) != 0) {
            snprintf(err, sizeof err, "out of memory");
            rc = -1;
        }
        if (rc != 0) {
            vb_error(CMD, "%s", err);
            return rc == VB_SWEEP_USAGE ? VB_EXIT_USAGE : VB_EXIT_FAIL;
        }
    }
    return 0;
}

/* then write them all (a shard has no summary and no grid: it holds a
 * share), *written set once they are; the tables on the terminal, and the
 * exit status: the failures of engines and plugins (each run said, exit 1,
 * the results kept) and --strict's judgement */
static int write_sweeps(run_work *w, const char *out, run_how how, int *written)
{
    char err[1024];
    int status = VB_EXIT_OK;
    size_t n = w->set.n;
    int rc = vb_rundir_write(&w->od, out, w->sweeps, n, w->grids,
                             how.shard_n ? 0 : (size_t)w->n_grids, !how.shard_n, err, sizeof err);
    if (rc != 0) {
        vb_error(CMD, "%s", err);
        status = rc == VB_OUTDIR_USAGE ? VB_EXIT_USAGE : VB_EXIT_FAIL;
    } else {
        *written = 1;
    }
    if (status == VB_EXIT_OK && !how.quiet && !how.shard_n)
        vb_rundir_print(stdout, w->sweeps, n, w->grids, (size_t)w->n_grids);
    if (status == VB_EXIT_OK && vb_report_run_failures(stderr, CMD, w->sweeps, n) > 0)
        status = VB_EXIT_FAIL;
    /* --strict: a method below the order its label promises fails the run */
    if (how.strict && *written &&
        vb_report_strict(stderr, CMD, w->sweeps, n, how.strict == 2) > 0)
        status = VB_EXIT_FAIL;
    return status;
}

static void run_free(run_work *w)
{
    vb_outdir_close(&w->od);
    for (size_t i = 0; i < w->swept; i++)
        vb_sweep_free(&w->sweeps[i]);
    free(w->sweeps);
    vb_grids_free(w->grids, (size_t)w->n_grids);
    vb_case_set_free(&w->set);
}

/* the charts of what was just written: `verletbench draw OUT`, in a child
 * (draw execs its script); its exit status */
static int draw_written(const char *out)
{
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
    return drawn;
}

/* the case files argv[first..argc): checked, swept, written (and drawn) */
static int run_cases(int argc, char **argv, int first, const char *out, vb_shared_opts so,
                     run_how how)
{
    int status = check_options(argc - first, out, how), written = 0;
    if (status != 0)
        return status;
    run_work w = {.od = {NULL, -1}};
    if ((status = load_cases(&w, argv + first, (size_t)(argc - first), out, &so, how)) == 0 &&
        (status = open_out(&w, out)) == 0 && (status = plan_sweeps(&w, &so, how)) == 0 &&
        (status = compute_sweeps(&w, &so, how)) == 0)
        status = write_sweeps(&w, out, how, &written);
    run_free(&w);
    if (written && how.draw) {
        int drawn = draw_written(out);
        if (drawn != VB_EXIT_OK && status == VB_EXIT_OK)
            status = drawn;
    }
    return status;
}
