/* commands/merge.c — `verletbench merge SHARDDIR...`: the shards of
 * run --shard K/N into the files of one whole run: found and read by
 * output/shardfile.c, made whole by sweep/shardmerge.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "grid.h"
#include "outdir.h"
#include "plugin.h"
#include "report.h"
#include "rundir.h"
#include "shardfile.h"
#include "shardmerge.h"
#include "sweep.h"

#define CMD "merge"

static int merge(char **shards, size_t n, const char *out, int quiet, int chart_data,
                 const vb_shared_opts *so);

int vb_cmd_merge(int argc, char **argv)
{
    const char *out = "results";
    vb_shared_opts so = vb_shared_opts_plain();
    int quiet = 0, no_chart_data = 0;
    const vb_option rows[] = {
        VB_OPT_STRING("out", "DIR", &out, "where to write (default: results)"),
        VB_OPT_FLAG("no-chart-data", &no_chart_data, "only the tables, as run --no-chart-data"),
        VB_OPT_FLAG("quiet", &quiet, "no tables on the terminal"),
        VB_SHARED_JOBS(&so, "threads for the runs merge makes itself"),
        VB_SHARED_MAX_STEPS(&so, "as for run"),
        VB_SHARED_ENGINES(&so),
        VB_SHARED_PLUGINS(&so),
        VB_OPT_HELP,
        VB_OPT_END,
    };
    const vb_command_spec spec = {
        .name = CMD,
        .options = rows,
        VB_SHARED_ENV(&so),
        .usage =
            "Usage: verletbench merge SHARDDIR... [--out DIR] [--no-chart-data] [--quiet] [-j N]\n"
            "                         [--max-steps N] [--engine NAME:ORDER=CMD]...\n"
            "                         [--trajectories NAME:ORDER=DIR]... [--engine-timeout S]\n"
            "                         [--engines-only] [--plugin FILE]... [--plugin-timeout S]\n\n"
            "Reads the shards that `verletbench run --shard K/N CASEFILE... --out SHARDDIR`\n"
            "wrote (SHARDDIR/NAME/shard.csv, every K of 1..N once for each case), checks that\n"
            "they were made by this version from the case files as they are now, and writes\n"
            "DIR/NAME/ and DIR/summary.md: the same bytes as one `verletbench run` of those\n"
            "case files with the same options.  The one-step, reversal and chart runs, which\n"
            "need no sweep, are computed here.  Run it where the shards ran: each shard names\n"
            "its case file by the path it was given.\n\n",
        .epilogue =
            "\nA grid's tables (DIR/NAME/grid.csv) are made when the shards of every point of\n"
            "its grid are given.\n\n"
            "Exit status: 0 merged; 2 a shard missing, given twice, cut, holding a row run\n"
            "could not have written, from another version or build (verletbench --version)\n"
            "or another build of a plugin, or from other parameters, or a grid point without\n"
            "shards (each named), or bad usage; 1 a failure of the machine (memory, a write\n"
            "error), or an engine or plugin run that failed, in a shard or here (every file\n"
            "is still written, and each failed run is named).\n\n"
            "Every kind of case shards: a rigid body's, a frame loop's, a contact's, an\n"
            "engine's (give merge the --engine, --trajectories and --engines-only the shards\n"
            "were run with; an engine's command must run on every machine, and the merge\n"
            "runs it for the charts' long runs).\n\n"
            "Example (GNU parallel, 4 shards):\n"
            "  parallel verletbench run --quiet --shard {}/4 cases/*.case --out shards/{} ::: 1 2 3 4\n"
            "  verletbench merge shards/* --out results\n",
    };
    int first, rc = vb_options_parse(&spec, argc, argv, &first);
    if (rc != VB_OPTIONS_GO)
        return rc;
    return merge(argv + first, (size_t)(argc - first), out, quiet, !no_chart_data, &so);
}

/* a case the merge loaded: the command line's engines added, as run adds
 * them */
static int add_engines(vb_case *c, const void *ctx, char *err, size_t errlen)
{
    const vb_shared_opts *so = ctx;
    if (vb_case_add_engine_specs(c, so->engine, so->n_engines, so->engine_timeout,
                                 so->engine_timeout_given, so->engines_only, err, errlen) != 0)
        return VB_SWEEP_USAGE;
    return 0;
}

/* the shards read, checked, finished and written as one run */
static int merge(char **shards, size_t n, const char *out, int quiet, int chart_data,
                 const vb_shared_opts *so)
{
    int rc;
    if (n == 0)
        return vb_usage_error(CMD, "no shard directories given (e.g. verletbench merge shards/*)");
    if (!out[0])
        return vb_usage_error(CMD, "--out: empty directory name");
    /* --out must not be a shard directory, nor hold one, nor lie in one:
     * the merge would replace the shards it read */
    long clash = vb_outdir_clash(out, shards, n);
    if (clash >= 0)
        return vb_usage_error(CMD, "--out %s: it is, holds or lies in the shard directory %s: the "
                                   "merge would replace what it reads",
                              out, shards[clash]);

    int status = VB_EXIT_OK;
    char err[32768];
    vb_merge m;
    vb_outdir od = {NULL, -1};
    vb_grid *grids = NULL;
    long n_grids = 0;
    vb_shard_ref *found;
    size_t n_found;
    memset(&m, 0, sizeof m);
    rc = vb_shards_find(shards, n, &found, &n_found, err, sizeof err);
    if (rc == 0)
        rc = vb_merge_read(&m, found, n_found, add_engines, so, vb_sweep_read_shard,
                           so->max_steps, err, sizeof err);
    if (rc != 0) {
        if (err[0])
            vb_error(CMD, "%s", err);
        status = rc == VB_SWEEP_USAGE ? VB_EXIT_USAGE : VB_EXIT_FAIL;
        goto done;
    }
    rc = vb_outdir_open(&od, out, err, sizeof err);
    if (rc == 0)
        rc = vb_rundir_check(&od, &m.set, err, sizeof err);
    if (rc != 0) {
        vb_error(CMD, "--out: %s", err);
        status = rc == VB_OUTDIR_USAGE ? VB_EXIT_USAGE : VB_EXIT_FAIL;
        goto done;
    }
    if (vb_merge_finish(&m, so->max_steps, chart_data ? 0u : VB_SWEEP_TABLES_ONLY, so->threads, err,
                        sizeof err) != 0) {
        vb_error(CMD, "%s", err);
        status = VB_EXIT_FAIL;
        goto done;
    }
    if ((n_grids = vb_grids_of_sweeps(&m.set, m.sweeps, &grids)) < 0) {
        n_grids = 0;
        vb_error(CMD, "out of memory");
        status = VB_EXIT_FAIL;
        goto done;
    }
    rc = vb_rundir_write(&od, out, m.ordered, m.n, grids, (size_t)n_grids, 1, err, sizeof err);
    if (rc != 0) {
        vb_error(CMD, "%s", err);
        status = rc == VB_OUTDIR_USAGE ? VB_EXIT_USAGE : VB_EXIT_FAIL;
    } else if (!quiet) {
        vb_rundir_print(stdout, m.ordered, m.n, grids, (size_t)n_grids);
    }
    /* runs a plugin's worker failed, in a shard or here: said, and exit 1,
     * as run does */
    if (status == VB_EXIT_OK && vb_report_run_failures(stderr, CMD, m.ordered, m.n) > 0)
        status = VB_EXIT_FAIL;
done:
    vb_outdir_close(&od);
    vb_grids_free(grids, (size_t)n_grids);
    vb_merge_free(&m);
    return status;
}
