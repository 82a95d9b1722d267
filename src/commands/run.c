/* commands/run.c — `verletbench run CASEFILE...`: each case's whole sweep, its
 * tables under DIR/NAME/, and DIR/summary.md over every case in DIR. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "casefile.h"
#include "cli.h"
#include "grid.h"
#include "integrator.h"
#include "outdir.h"
#include "outfile.h"
#include "plugin.h"
#include "provenance.h"
#include "shardfile.h"
#include "signals.h"
#include "summary.h"
#include "sweep.h"
#include "write.h"

#define CMD "run"

static void help(void)
{
    puts("Usage: verletbench run CASEFILE... [--out DIR] [--max-steps N] [--quiet] [-j N]\n"
         "                       [--no-chart-data] [--timing] [--draw] [--strict[=mine]]\n"
         "                       [--shard K/N] [--plugin FILE]... [--plugin-timeout S]\n"
         "                       [--engine NAME:ORDER=CMD]... [--trajectories NAME:ORDER=DIR]...\n"
         "                       [--engine-timeout S] [--engines-only]\n\n"
         "Runs the whole plan of each case file: every integrator it names at dt, dt/2, ...\n"
         "(halvings step sizes) with fixed steps, `seeds` random plans per step size when\n"
         "jitter > 0, and the trace it names; fits convergence orders (docs/method.md §5);\n"
         "measures one-step errors from exact data and whether each run retraces itself\n"
         "backwards.\n\n"
         "For NAME.case it writes DIR/NAME/:\n"
         "  runs.csv            one row per run (the columns of `sim`, then level)\n"
         "  orders.csv          integrator,plan,norm,order,points,expected,verdict,...\n"
         "  bands.csv           random plans: median and p10-p90 over seeds per dt\n"
         "  onestep.csv         one-step errors; onestep_orders.csv their exponents\n"
         "  reverse.csv         return errors of the forward-and-back runs\n"
         "  summary.md          the case's table\n"
         "and DIR/summary.md, the tables of the cases of this run.  A case file whose\n"
         "numbers hold lists or ranges (e = 0.1, 0.5, 0.9; k = 1 .. 1000 times 10) is a\n"
         "grid: one case a point, DIR/NAME@e=0.5/, and DIR/NAME/grid.csv and summary.md\n"
         "with every point's orders and errors (docs/cases.md \"Grids\").  All case files are\n"
         "checked before anything runs; a bad one exits 2 and writes nothing.  Every case\n"
         "is computed before any is written, and each case directory is replaced whole\n"
         "(an interrupted, killed or failed run leaves the old one); one run at a time may\n"
         "write into DIR (a second gets exit 2).  Charts: verletbench draw DIR.\n\n"
         "Options:\n"
         "  --out DIR        where to write (default: results)\n"
         "  --max-steps N    refuse a run of more than N steps (default 1e9, or\n"
         "                   VERLETBENCH_MAX_STEPS)\n"
         "  --quiet          no progress line and no tables on the terminal\n"
         "  -j, --jobs N     run on N threads (default: VERLETBENCH_THREADS, else every\n"
         "                   CPU); the output is the same bytes for any N\n"
         "  --no-chart-data  only the tables: skip convergence, timeseries and paths.csv\n"
         "                   (and the long runs behind them)\n"
         "  --timing         also time each run alone (seed 1 of the random plans), on\n"
         "                   one thread after the sweep, into timing.csv: error against\n"
         "                   seconds beside error against force evaluations; the only\n"
         "                   file that differs between machines (docs/method.md §8)\n"
         "  --shard K/N      compute only shard K of N (1 <= K <= N): a fixed share of\n"
         "                   the runs, balanced by their steps (a grid's over all its\n"
         "                   points), into DIR/NAME/shard.csv;\n"
         "                   `verletbench merge` turns the N shards into the files of a\n"
         "                   whole run, the same bytes (docs/method.md §8: GNU parallel,\n"
         "                   Slurm)\n"
         "  --draw           then draw the charts and REPORT.md: verletbench draw DIR\n"
         "                   (into plots/ for results, else DIR/plots/)\n"
         "  --strict         exit 1 when a verdict of the summary tables (the position\n"
         "                   error's, each plan; the energy error's, fixed steps) is\n"
         "                   below-label or not-converging, and say which: for a CI job\n"
         "                   guarding an integrator (everything is still written)\n"
         "  --strict=mine    the same for your methods only (a --plugin's, an --engine's,\n"
         "                   a case's [engines]), not the built-ins beside them\n"
         VB_PLUGIN_HELP
         VB_ENGINES_HELP
         "  --help           this text\n\n"
         "Case files are INI: see cases/*.case and docs/cases.md; external engines (a case\n"
         "file's [engines], or --engine): docs/engines.md.");
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

/* Each case's table in the order given; a grid's own tables before its
 * first point's. */
static void print_summaries(FILE *f, const vb_sweep *sweeps, size_t n, const vb_grid *grids,
                            size_t n_grids)
{
    for (size_t i = 0; i < n; i++) {
        const vb_case *c = sweeps[i].c;
        for (size_t g = 0; c->grid && c->grid->point == 0 && g < n_grids; g++)
            if (grids[g].first == c)
                vb_grid_summary(&grids[g], f);
        vb_sweep_summary(&sweeps[i], f);
    }
}

/* DIR/summary.md: the tables of the cases of this run, in the order given. */
static int write_overall_summary(const char *dir, const vb_sweep *sweeps, size_t n,
                                 const vb_grid *grids, size_t n_grids, char *err, size_t errlen)
{
    char path[4096 + 16];
    if (snprintf(path, sizeof path, "%s/summary.md", dir) >= (int)sizeof path) {
        snprintf(err, errlen, "%.80s...: path too long", dir);
        return -1;
    }
    vb_outfile o;
    if (vb_outfile_open(&o, path, err, errlen) != 0)
        return -1;
    fprintf(o.f, "# verletbench results\n\n"
                 "Generated by `verletbench run` (verletbench %s); each case's tables are in its "
                 "directory.\n"
                 "Orders are the least-squares slope of log error against log dt over the "
                 "asymptotic range (docs/method.md §5).\n\n",
            vb_version_text());
    print_summaries(o.f, sweeps, n, grids, n_grids);
    return vb_outfile_commit(&o, err, errlen);
}

/* Every case directory and grid directory, and DIR/summary.md when summary
 * is set, written with SIGINT, SIGTERM and SIGHUP held back (well under a
 * second): each directory is swapped in whole, and a failure before the
 * swaps (a full disk) changes nothing.  0, or VB_OUTDIR_USAGE /
 * VB_OUTDIR_FAIL. */
static int write_held(const vb_outdir *od, const char *dir, const vb_sweep *sweeps, size_t n,
                      const vb_grid *grids, size_t n_grids, int summary, char *err,
                      size_t errlen)
{
    sigset_t old;
    vb_hold_stop_signals(&old);
    int rc = vb_sweep_write_all(od, sweeps, n, grids, n_grids, err, errlen);
    if (rc == 0 && summary &&
        write_overall_summary(dir, sweeps, n, grids, n_grids, err, errlen) != 0)
        rc = VB_OUTDIR_FAIL;
    sigprocmask(SIG_SETMASK, &old, NULL);
    return rc;
}

int vb_cmd_run(int argc, char **argv)
{
    enum { O_OUT = 256, O_QUIET, O_NOCHARTS, O_TIMING, O_DRAW, O_STRICT, O_SHARD, O_HELP };
    static const struct option opts[] = {
        {"out", required_argument, NULL, O_OUT},
        VB_OPTION_MAX_STEPS,
        {"quiet", no_argument, NULL, O_QUIET},
        VB_OPTION_PLUGIN,
        {"no-chart-data", no_argument, NULL, O_NOCHARTS},
        {"timing", no_argument, NULL, O_TIMING},
        {"shard", required_argument, NULL, O_SHARD},
        {"draw", no_argument, NULL, O_DRAW},
        {"strict", optional_argument, NULL, O_STRICT},
        VB_OPTION_JOBS,
        VB_OPTION_ENGINES,
        {"help", no_argument, NULL, O_HELP},
        {NULL, 0, NULL, 0},
    };
    const char *out = "results";
    vb_shared_opts so = vb_shared_opts_plain();
    int quiet = 0, chart_data = 1, timing = 0, draw = 0, strict = 0, written = 0, c, rc;
    int shard_k = 0, shard_n = 0;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":j:", opts, NULL)) != -1) {
        switch (c) {
        case O_OUT:
            out = optarg;
            break;
        case O_QUIET:
            quiet = 1;
            break;
        case O_NOCHARTS:
            chart_data = 0;
            break;
        case O_TIMING:
            timing = 1;
            break;
        case O_SHARD:
            if (vb_opt_shard(CMD, optarg, &shard_k, &shard_n) != 0)
                return VB_EXIT_USAGE;
            break;
        case O_DRAW:
            draw = 1;
            break;
        case O_STRICT:
            /* --strict judges every method; --strict=mine only those not
             * built in, for a CI job guarding its own beside the built-ins */
            if (!optarg || !strcmp(optarg, "all"))
                strict = 1;
            else if (!strcmp(optarg, "mine"))
                strict = 2;
            else
                return vb_usage_error(CMD, "--strict=%s: give --strict (every method) or "
                                           "--strict=mine (a plugin's and an engine's only)",
                                      optarg);
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
    if (argc - optind <= 0)
        return vb_usage_error(CMD, "no case files given (e.g. verletbench run cases/*.case)");
    if (!out[0])
        return vb_usage_error(CMD, "--out: empty directory name");
    if (draw && !chart_data)
        return vb_usage_error(CMD, "--draw needs the chart data that --no-chart-data leaves out");
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
    if (vb_case_set_load(&set, argv + optind, (size_t)(argc - optind), err, sizeof err) != 0) {
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
        if (shard_n && ci->n_engines) {
            /* an engine's failure is text a shard does not carry */
            vb_error(CMD, "%s: --shard: external engines are not sharded; run them whole",
                     ci->path);
            status = VB_EXIT_USAGE;
            goto done;
        }
    }
    if (strict == 2) {
        /* a judgement of nothing would pass whatever happened */
        int any = 0;
        for (size_t i = 0; i < n && !any; i++)
            for (size_t k = 0; k < set.all[i]->n_integ && !any; k++)
                any = !vb_integrator_builtin(set.all[i]->integ[k]);
        if (!any) {
            vb_error(CMD, "--strict=mine: none of these cases runs a method of yours (from "
                          "--plugin, --engine, --trajectories or a case's [engines]): it would "
                          "judge nothing");
            status = VB_EXIT_USAGE;
            goto done;
        }
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
    if (rc != 0) {
        vb_error(CMD, "--out: %s", err);
        status = rc == VB_OUTDIR_USAGE ? VB_EXIT_USAGE : VB_EXIT_FAIL;
        goto done;
    }
    for (size_t i = 0; i < n + set.n_files && rc == 0; i++) {
        /* every case's directory, then every grid's */
        const vb_case *f0 = i >= n && set.file[i - n].n ? &set.file[i - n].points[0] : NULL;
        if (i >= n && !(f0 && f0->grid))
            continue;
        rc = vb_casedir_check(&od, i < n ? set.all[i]->name : f0->grid->name, err, sizeof err);
    }
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
        unsigned flags = (chart_data ? 0u : VB_SWEEP_TABLES_ONLY) | (timing ? VB_SWEEP_TIMING : 0u);
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
    rc = write_held(&od, out, sweeps, n, grids, shard_n ? 0 : (size_t)n_grids, !shard_n, err,
                    sizeof err);
    if (rc != 0) {
        vb_error(CMD, "%s", err);
        status = rc == VB_OUTDIR_USAGE ? VB_EXIT_USAGE : VB_EXIT_FAIL;
    } else {
        written = 1;
    }
    if (status == VB_EXIT_OK && !quiet && !shard_n)
        print_summaries(stdout, sweeps, n, grids, (size_t)n_grids);
    /* engines and plugins that failed: each run said, and exit 1, the
     * results kept */
    if (status == VB_EXIT_OK && vb_report_run_failures(CMD, sweeps, n) > 0)
        status = VB_EXIT_FAIL;
    /* --strict: a method below the order its label promises fails the run */
    if (strict && written && vb_report_strict(CMD, sweeps, n, strict == 2) > 0)
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

/* ---- merge: the shards of run --shard K/N into the files of a whole run ---- */

#undef CMD
#define CMD "merge"

static void merge_help(void)
{
    puts("Usage: verletbench merge SHARDDIR... [--out DIR] [--no-chart-data] [--quiet] [-j N]\n"
         "                         [--max-steps N] [--plugin FILE]... [--plugin-timeout S]\n\n"
         "Reads the shards that `verletbench run --shard K/N CASEFILE... --out SHARDDIR`\n"
         "wrote (SHARDDIR/NAME/shard.csv, every K of 1..N once for each case), checks that\n"
         "they were made by this version from the case files as they are now, and writes\n"
         "DIR/NAME/ and DIR/summary.md: the same bytes as one `verletbench run` of those\n"
         "case files with the same options.  The one-step, reversal and chart runs, which\n"
         "need no sweep, are computed here.  Run it where the shards ran: each shard names\n"
         "its case file by the path it was given.\n\n"
         "Options:\n"
         "  --out DIR        where to write (default: results)\n"
         "  --no-chart-data  only the tables, as run --no-chart-data\n"
         "  --quiet          no tables on the terminal\n"
         "  -j, --jobs N     threads for the runs merge makes itself\n"
         "  --max-steps N    as for run\n"
         VB_PLUGIN_HELP
         "  --help           this text\n\n"
         "A grid's tables (DIR/NAME/grid.csv) are made when the shards of every point of\n"
         "its grid are given.\n\n"
         "Exit status: 0 merged; 2 a shard missing, given twice, cut, holding a row run\n"
         "could not have written, from another version or build (verletbench --version)\n"
         "or another build of a plugin, or from other parameters, or a grid point without\n"
         "shards (each named), or bad usage; 1 a failure of the machine.\n"
         "Example (GNU parallel, 4 shards):\n"
         "  parallel verletbench run --quiet --shard {}/4 cases/*.case --out shards/{} ::: 1 2 3 4\n"
         "  verletbench merge shards/* --out results");
}

/* one shard.csv found: its case (the path it names), K and N */
typedef struct {
    char *file, *case_path, *name;
    int k, n;
} shard_file;

/* "# verletbench V: shard K/N of the runs of PATH": K, N, PATH.  -1 if not */
static int shard_head(const char *file, int *k, int *n, char **case_path)
{
    /* a regular file only: a FIFO would block, a device never end */
    struct stat st;
    if (stat(file, &st) != 0 || !S_ISREG(st.st_mode))
        return -1;
    FILE *f = fopen(file, "r");
    if (!f)
        return -1;
    char line[4096 + 128];
    int rc = -1;
    if (fgets(line, sizeof line, f) && strchr(line, '\n')) {
        line[strcspn(line, "\r\n")] = '\0';
        const char *p = strstr(line, ": shard ");
        char *end;
        if (p && !strncmp(line, "# verletbench ", 14)) {
            errno = 0;
            long a = strtol(p + 8, &end, 10), b = *end == '/' ? strtol(end + 1, &end, 10) : 0;
            const char *rest = " of the runs of ";
            if (!errno && a >= 1 && b >= a && b <= VB_MAX_SHARDS &&
                !strncmp(end, rest, strlen(rest)) && end[strlen(rest)]) {
                *k = (int)a;
                *n = (int)b;
                *case_path = strdup(end + strlen(rest));
                rc = *case_path ? 0 : -1;
            }
        }
    }
    fclose(f);
    return rc;
}

int vb_cmd_merge(int argc, char **argv)
{
    enum { O_OUT = 256, O_QUIET, O_NOCHARTS, O_HELP };
    static const struct option opts[] = {
        {"out", required_argument, NULL, O_OUT},
        VB_OPTION_MAX_STEPS,
        {"quiet", no_argument, NULL, O_QUIET},
        VB_OPTION_PLUGIN,
        {"no-chart-data", no_argument, NULL, O_NOCHARTS},
        VB_OPTION_JOBS,
        {"help", no_argument, NULL, O_HELP},
        {NULL, 0, NULL, 0},
    };
    const char *out = "results";
    vb_shared_opts so = vb_shared_opts_plain();
    int quiet = 0, chart_data = 1, c, rc;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":j:", opts, NULL)) != -1) {
        switch (c) {
        case O_OUT:
            out = optarg;
            break;
        case O_QUIET:
            quiet = 1;
            break;
        case O_NOCHARTS:
            chart_data = 0;
            break;
        case O_HELP:
            merge_help();
            return VB_EXIT_OK;
        default:
            if ((rc = vb_opt_shared(CMD, c, &so, argv)) != 0)
                return rc;
            break;
        }
    }
    if (vb_shared_opts_env(CMD, &so) != 0)
        return VB_EXIT_USAGE;
    if (optind >= argc)
        return vb_usage_error(CMD, "no shard directories given (e.g. verletbench merge shards/*)");
    if (!out[0])
        return vb_usage_error(CMD, "--out: empty directory name");
    /* --out must not be a shard directory, nor hold one, nor lie in one:
     * the merge would replace the shards it read */
    char *out_real = realpath(out, NULL);
    if (!out_real) {
        /* not there yet: where it would be, by its parent's real path */
        char *copy = strdup(out), *slash = copy ? strrchr(copy, '/') : NULL;
        const char *base = slash ? slash + 1 : out;
        if (slash)
            *slash = '\0';
        char *parent = copy ? realpath(slash ? (copy[0] ? copy : "/") : ".", NULL) : NULL;
        if (parent && (out_real = malloc(strlen(parent) + strlen(base) + 2)))
            sprintf(out_real, "%s/%s", parent, base);
        free(parent);
        free(copy);
    }
    for (int a = optind; out_real && a < argc; a++) {
        char *in_real = realpath(argv[a], NULL);
        size_t lo = strlen(out_real), li = in_real ? strlen(in_real) : 0;
        int clash = in_real && (!strncmp(out_real, in_real, lo < li ? lo : li) &&
                                (lo == li || (lo < li ? in_real[lo] : out_real[li]) == '/'));
        free(in_real);
        if (clash) {
            free(out_real);
            return vb_usage_error(CMD, "--out %s: it is, holds or lies in the shard directory "
                                       "%s: the merge would replace what it reads",
                                  out, argv[a]);
        }
    }
    free(out_real);

    int status = VB_EXIT_OK;
    char err[1024];
    shard_file *sf = NULL;
    size_t n_sf = 0, cap_sf = 0, swept = 0, n = 0;
    long n_grids = 0;
    vb_case_set set;
    memset(&set, 0, sizeof set);
    vb_sweep *sweeps = NULL, *ordered = NULL;
    vb_grid *grids = NULL;
    size_t *point_of = NULL, *rank = NULL;
    int *shard_n_of = NULL;
    vb_outdir od = {NULL, -1};

    /* every DIR/NAME/shard.csv */
    for (int a = optind; a < argc && status == VB_EXIT_OK; a++) {
        /* in name order, so that what is said first does not depend on
         * the file system */
        struct dirent **ents = NULL;
        int n_ents = scandir(argv[a], &ents, NULL, alphasort);
        if (n_ents < 0) {
            vb_error(CMD, "%s: %s", argv[a], strerror(errno));
            status = VB_EXIT_USAGE;
            break;
        }
        size_t before = n_sf;
        for (int ei = 0; ei < n_ents && status == VB_EXIT_OK; ei++) {
            const struct dirent *e = ents[ei];
            if (e->d_name[0] == '.')
                continue;
            char path[8192];
            snprintf(path, sizeof path, "%s/%s/shard.csv", argv[a], e->d_name);
            if (access(path, F_OK) != 0)
                continue;
            if (n_sf == cap_sf) {
                cap_sf = cap_sf ? 2 * cap_sf : 16;
                shard_file *more = realloc(sf, cap_sf * sizeof *sf);
                if (!more) {
                    status = VB_EXIT_FAIL;
                    break;
                }
                sf = more;
            }
            shard_file *s = &sf[n_sf];
            memset(s, 0, sizeof *s);
            s->file = strdup(path);
            s->name = strdup(e->d_name);
            if (!s->file || !s->name || shard_head(path, &s->k, &s->n, &s->case_path) != 0) {
                vb_error(CMD, "%s: not a shard of verletbench run --shard: a regular file whose "
                              "first line says shard K/N (1 <= K <= N <= %d) of the runs of a "
                              "case file",
                         path, VB_MAX_SHARDS);
                free(s->file), free(s->name);
                status = VB_EXIT_USAGE;
                break;
            }
            n_sf++;
        }
        for (int ei = 0; ei < n_ents; ei++)
            free(ents[ei]);
        free(ents);
        if (status == VB_EXIT_OK && n_sf == before) {
            vb_error(CMD, "%s: no NAME/shard.csv in it: not a directory of run --shard", argv[a]);
            status = VB_EXIT_USAGE;
        }
    }
    if (status != VB_EXIT_OK)
        goto done;

    /* their case files, each loaded once (a grid's every point), in order of
     * first appearance; point_of[i]: shard i's case, an index into set.all */
    point_of = calloc(n_sf ? n_sf : 1, sizeof *point_of);
    if (!point_of) {
        vb_error(CMD, "out of memory");
        status = VB_EXIT_FAIL;
        goto done;
    }
    for (size_t i = 0; i < n_sf && status == VB_EXIT_OK; i++) {
        size_t f = 0, first = 0;
        for (; f < set.n_files; first += set.file[f++].n)
            if (!strcmp(set.file[f].points[0].path, sf[i].case_path))
                break;
        if (f == set.n_files && vb_case_set_add(&set, sf[i].case_path, err, sizeof err) != 0) {
            vb_error(CMD, "%s: its case file: %s (merge where the shards ran)", sf[i].file, err);
            status = VB_EXIT_USAGE;
            break;
        }
        const vb_case_file *cf = &set.file[f];
        size_t k = 0;
        while (k < cf->n && strcmp(cf->points[k].name, sf[i].name) != 0)
            k++;
        if (k == cf->n) {
            if (cf->points[0].grid)
                vb_error(CMD, "%s: in a directory named %s, but its case file %s is a grid whose "
                              "points are %s, %s, ...",
                         sf[i].file, sf[i].name, cf->points[0].path, cf->points[0].name,
                         cf->n > 1 ? cf->points[1].name : "");
            else
                vb_error(CMD, "%s: in a directory named %s, but its case %s is %s", sf[i].file,
                         sf[i].name, cf->points[0].path, cf->points[0].name);
            status = VB_EXIT_USAGE;
            break;
        }
        point_of[i] = first + k;
    }
    if (status != VB_EXIT_OK)
        goto done;
    n = set.n;

    /* every point of a grid is needed for the grid's tables; every shard of
     * a case file is of one N */
    shard_n_of = calloc(n ? n : 1, sizeof *shard_n_of);
    if (!shard_n_of) {
        vb_error(CMD, "out of memory");
        status = VB_EXIT_FAIL;
        goto done;
    }
    for (size_t f = 0, first = 0; f < set.n_files && status == VB_EXIT_OK;
         first += set.file[f++].n) {
        int file_n = 0;
        const char *file_n_shard = NULL;
        for (size_t k = 0; k < set.file[f].n && status == VB_EXIT_OK; k++) {
            const vb_case *pc = &set.file[f].points[k];
            int found = 0;
            for (size_t i = 0; i < n_sf; i++) {
                if (point_of[i] != first + k)
                    continue;
                found = 1;
                if (file_n && sf[i].n != file_n) {
                    vb_error(CMD, "%s is shard %d/%d of %s, but %s is of %s in %d shards",
                             sf[i].file, sf[i].k, sf[i].n, sf[i].case_path, file_n_shard,
                             pc->path, file_n);
                    status = VB_EXIT_USAGE;
                    break;
                }
                file_n = sf[i].n;
                file_n_shard = sf[i].file;
            }
            if (status == VB_EXIT_OK && !found) {
                vb_error(CMD, "%s: grid point %s has no shards in the directories given; a "
                              "grid's tables need every point (run --shard K/N %s)",
                         pc->path, pc->name, pc->path);
                status = VB_EXIT_USAGE;
            }
        }
        for (size_t k = 0; k < set.file[f].n; k++)
            shard_n_of[first + k] = file_n;
    }
    if (status != VB_EXIT_OK)
        goto done;

    /* the sweeps, each file's points split as run --shard split them */
    sweeps = calloc(n ? n : 1, sizeof *sweeps);
    if (!sweeps) {
        vb_error(CMD, "out of memory");
        status = VB_EXIT_FAIL;
        goto done;
    }
    for (; swept < n; swept++) {
        rc = vb_sweep_begin(set.all[swept], &sweeps[swept], so.max_steps, err, sizeof err);
        if (rc != 0) {
            swept++;
            vb_error(CMD, "%s", err);
            status = rc == VB_SWEEP_USAGE ? VB_EXIT_USAGE : VB_EXIT_FAIL;
            goto done;
        }
    }
    for (size_t f = 0, first = 0; f < set.n_files; first += set.file[f++].n)
        if (vb_sweep_shard(&sweeps[first], set.file[f].n, 1, shard_n_of[first]) != 0) {
            vb_error(CMD, "out of memory");
            status = VB_EXIT_FAIL;
            goto done;
        }
    for (size_t ci = 0; ci < n && status == VB_EXIT_OK; ci++) {
        int nk = shard_n_of[ci];
        for (int k = 1; k <= nk && status == VB_EXIT_OK; k++) {
            const char *first = NULL;
            for (size_t i = 0; i < n_sf; i++)
                if (point_of[i] == ci && sf[i].k == k) {
                    if (first) {
                        vb_error(CMD, "%s: shard %d/%d given twice: %s and %s", set.all[ci]->name,
                                 k, nk, first, sf[i].file);
                        status = VB_EXIT_USAGE;
                        break;
                    }
                    first = sf[i].file;
                }
            if (!first && status == VB_EXIT_OK) {
                vb_error(CMD, "%s: shard %d/%d is missing (run --shard %d/%d %s)",
                         set.all[ci]->name, k, nk, k, nk, set.all[ci]->path);
                status = VB_EXIT_USAGE;
            }
        }
    }
    /* read them: each checked against this build and the case as it is */
    for (size_t i = 0; i < n_sf && status == VB_EXIT_OK; i++) {
        vb_sweep *s = &sweeps[point_of[i]];
        size_t filled = 0, want = 0;
        int oi = 0, om = 0;
        rc = vb_sweep_read_shard(s, sf[i].k, sf[i].n, sf[i].file, &filled, &oi, &om, err,
                                 sizeof err);
        if (rc == 0 && (oi < 1 || oi > om)) {
            vb_error(CMD, "%s: no '# order=I/M' line with 1 <= I <= M: not a whole shard",
                     sf[i].file);
            status = VB_EXIT_USAGE;
            break;
        }
        if (rc == 0 && s->order_m && (s->order_i != oi || s->order_m != om)) {
            vb_error(CMD, "%s: case %d of %d in the run that made it, where its case's other "
                          "shards say %d of %d: shards of different command lines",
                     sf[i].file, oi, om, s->order_i, s->order_m);
            status = VB_EXIT_USAGE;
            break;
        }
        s->order_i = oi;
        s->order_m = om;
        if (rc != 0) {
            vb_error(CMD, "%s", err);
            status = rc == VB_SWEEP_USAGE ? VB_EXIT_USAGE : VB_EXIT_FAIL;
            break;
        }
        for (size_t k = 0; k < s->n_jobs; k++)
            want += vb_sweep_job_shard(s, k) == sf[i].k;
        if (filled != want) {
            vb_error(CMD, "%s: %zu of its %zu runs: a cut shard", sf[i].file, filled, want);
            status = VB_EXIT_USAGE;
        }
    }
    if (status != VB_EXIT_OK)
        goto done;

    /* written in the order of the run that made them (its command line,
     * every point of a grid in turn): rank[a] is the case that came a-th
     * (the sweeps and cases themselves stay put: plans point into them) */
    rank = malloc((n ? n : 1) * sizeof *rank);
    if (!rank) {
        vb_error(CMD, "out of memory");
        status = VB_EXIT_FAIL;
        goto done;
    }
    for (size_t a = 0; a < n; a++) {
        size_t b = a;
        for (; b > 0 && sweeps[rank[b - 1]].order_i > sweeps[a].order_i; b--)
            rank[b] = rank[b - 1];
        rank[b] = a;
    }
    for (size_t a = 1; a < n; a++) {
        const vb_sweep *p = &sweeps[rank[a - 1]], *q = &sweeps[rank[a]];
        if (q->order_i == p->order_i || q->order_m != sweeps[rank[0]].order_m) {
            char la[4096], lb[4096];
            vb_error(CMD, "%s and %s come from different runs (their '# order=' lines): merge "
                          "the shards of one command line",
                     vb_case_label(p->c, la, sizeof la), vb_case_label(q->c, lb, sizeof lb));
            status = VB_EXIT_USAGE;
            goto done;
        }
    }
    n_grids = vb_grids_begin(&set, &grids);
    if (n_grids < 0) {
        n_grids = 0;
        vb_error(CMD, "out of memory");
        status = VB_EXIT_FAIL;
        goto done;
    }
    rc = vb_outdir_open(&od, out, err, sizeof err);
    for (size_t ci = 0; rc == 0 && ci < n; ci++)
        rc = vb_casedir_check(&od, set.all[ci]->name, err, sizeof err);
    for (long g = 0; rc == 0 && g < n_grids; g++)
        rc = vb_casedir_check(&od, grids[g].first->grid->name, err, sizeof err);
    if (rc != 0) {
        vb_error(CMD, "--out: %s", err);
        status = rc == VB_OUTDIR_USAGE ? VB_EXIT_USAGE : VB_EXIT_FAIL;
        goto done;
    }
    for (size_t ci = 0; ci < n; ci++) {
        rc = vb_sweep_finish(set.all[ci], &sweeps[ci], so.max_steps,
                             chart_data ? 0u : VB_SWEEP_TABLES_ONLY, so.threads, err, sizeof err);
        vb_grid *g = rc == 0 ? vb_grid_of(grids, (size_t)n_grids, set.all[ci]) : NULL;
        if (g && vb_grid_add(g, &sweeps[ci]) != 0) {
            snprintf(err, sizeof err, "out of memory");
            rc = -1;
        }
        if (rc != 0) {
            vb_error(CMD, "%s", err);
            status = VB_EXIT_FAIL;
            goto done;
        }
    }
    /* a shallow copy of each finished sweep, in the run's order */
    ordered = malloc((n ? n : 1) * sizeof *ordered);
    if (!ordered) {
        vb_error(CMD, "out of memory");
        status = VB_EXIT_FAIL;
        goto done;
    }
    for (size_t a = 0; a < n; a++)
        ordered[a] = sweeps[rank[a]];
    rc = write_held(&od, out, ordered, n, grids, (size_t)n_grids, 1, err, sizeof err);
    if (rc != 0) {
        vb_error(CMD, "%s", err);
        status = rc == VB_OUTDIR_USAGE ? VB_EXIT_USAGE : VB_EXIT_FAIL;
    } else if (!quiet) {
        print_summaries(stdout, ordered, n, grids, (size_t)n_grids);
    }
    /* runs a plugin's worker failed, in a shard or here: said, and exit 1,
     * as run does */
    if (status == VB_EXIT_OK && vb_report_run_failures(CMD, ordered, n) > 0)
        status = VB_EXIT_FAIL;
done:
    free(ordered);
    free(rank);
    vb_outdir_close(&od);
    for (size_t i = 0; i < swept; i++)
        vb_sweep_free(&sweeps[i]);
    free(sweeps);
    vb_grids_free(grids, (size_t)n_grids);
    free(point_of);
    free(shard_n_of);
    vb_case_set_free(&set);
    for (size_t i = 0; i < n_sf; i++) {
        free(sf[i].file);
        free(sf[i].name);
        free(sf[i].case_path);
    }
    free(sf);
    return status;
}
