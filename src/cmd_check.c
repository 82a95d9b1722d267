/* cmd_check.c — `verletbench check`: rerun the cases and compare them with a
 * committed baseline; exit 1 when any error or order got worse. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <ftw.h>
#include <getopt.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "casefile.h"
#include "cli.h"
#include "compare.h"
#include "outfile.h"
#include "plugin.h"
#include "sweep.h"

#define CMD "check"

static void help(void)
{
    printf("Usage: verletbench check [--baseline DIR] [--plugin FILE]... [CASEFILE...]\n\n"
           "Reruns the cases (default: every cases/*.case) and compares their tables with a\n"
           "baseline written earlier by `verletbench run` (default: results/baseline, which\n"
           "`make baseline` refreshes).  Every error of every run (runs.csv) and every fitted\n"
           "order and verdict (orders.csv) is compared; it prints what got worse and what got\n"
           "better, naming case, integrator, plan, dt, seed and metric.\n\n"
           "Exit status: 0 nothing worse, 1 something worse (or a baseline run no longer\n"
           "made), 2 bad usage, a missing baseline, or one made from other parameters.\n\n"
           "Options:\n"
           "  --baseline DIR   the baseline (default results/baseline)\n"
           "  --rtol R         an error is worse when it grows by more than the factor 1 + R\n"
           "                   (default %g)\n"
           "  --floor-ulps U   errors under U * eps * steps^1.5 * scale are round-off and\n"
           "                   not compared (default %g)\n"
           "  --order-tol A    a fitted order is worse when it drops by more than A (default\n"
           "                   %g); any verdict that gets worse fails\n"
           "  --save DIR       also keep the recomputed tables in DIR (make baseline uses it)\n"
           "  --max-steps N    refuse a run of more than N steps (default 1e9)\n"
           "  --quiet          print only what changed and the verdict\n"
           "  -j, --jobs N     threads (default: VERLETBENCH_THREADS, else every CPU)\n"
           VB_PLUGIN_HELP
           "  --help           this text\n\n"
           "The tolerances and why they are what they are: docs/check.md.\n",
           VB_CHECK_RTOL, VB_CHECK_FLOOR_ULPS, VB_CHECK_ORDER_TOL);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int vb_cmd_check(int argc, char **argv)
{
    enum { O_BASE = 256, O_RTOL, O_FLOOR, O_OTOL, O_SAVE, O_QUIET, O_HELP };
    static const struct option opts[] = {
        {"baseline", required_argument, NULL, O_BASE},
        {"rtol", required_argument, NULL, O_RTOL},
        {"floor-ulps", required_argument, NULL, O_FLOOR},
        {"order-tol", required_argument, NULL, O_OTOL},
        {"save", required_argument, NULL, O_SAVE},
        VB_OPTION_MAX_STEPS,
        {"quiet", no_argument, NULL, O_QUIET},
        VB_OPTION_PLUGIN,
        VB_OPTION_JOBS,
        {"help", no_argument, NULL, O_HELP},
        {NULL, 0, NULL, 0},
    };
    const char *base = "results/baseline", *save = NULL;
    vb_tolerance tol = {VB_CHECK_RTOL, VB_CHECK_FLOOR_ULPS, VB_CHECK_ORDER_TOL};
    vb_shared_opts so = vb_shared_opts_default();
    int quiet = 0, c, rc;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":j:", opts, NULL)) != -1) {
        switch (c) {
        case O_BASE:
            base = optarg;
            break;
        case O_RTOL:
            if (vb_opt_double(CMD, "--rtol", optarg, &tol.rtol) != 0)
                return VB_EXIT_USAGE;
            if (!(tol.rtol >= 0))
                return vb_usage_error(CMD, "--rtol: %s must be >= 0", optarg);
            break;
        case O_FLOOR:
            if (vb_opt_double(CMD, "--floor-ulps", optarg, &tol.floor_ulps) != 0)
                return VB_EXIT_USAGE;
            if (!(tol.floor_ulps >= 0))
                return vb_usage_error(CMD, "--floor-ulps: %s must be >= 0", optarg);
            break;
        case O_OTOL:
            if (vb_opt_double(CMD, "--order-tol", optarg, &tol.order_tol) != 0)
                return VB_EXIT_USAGE;
            if (!(tol.order_tol >= 0))
                return vb_usage_error(CMD, "--order-tol: %s must be >= 0", optarg);
            break;
        case O_SAVE:
            save = optarg;
            break;
        case O_QUIET:
            quiet = 1;
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

    /* the case files: those given, or every .case file in cases/ */
    glob_t g = {0};
    char **files = argv + optind;
    size_t n = (size_t)(argc - optind);
    if (n == 0) {
        if (glob("cases/*.case", 0, NULL, &g) != 0 || g.gl_pathc == 0) {
            globfree(&g);
            return vb_usage_error(CMD, "no case files given and none in cases/ (run it from the "
                                       "project directory, or name them)");
        }
        files = g.gl_pathv;
        n = g.gl_pathc;
    }
    if (!is_dir(base)) {
        vb_error(CMD, "--baseline %s: no such directory (make one with 'make baseline', or "
                      "'verletbench run CASEFILE... --out %s')", base, base);
        globfree(&g);
        return VB_EXIT_USAGE;
    }

    char err[4096];
    int status = VB_EXIT_OK;
    size_t loaded = 0;
    vb_changes changes = {0};
    vb_case *cases = calloc(n, sizeof *cases);
    char tmp[4096] = "";
    if (!cases) {
        vb_error(CMD, "out of memory");
        globfree(&g);
        return VB_EXIT_FAIL;
    }
    for (size_t i = 0; i < n; i++, loaded++)
        if (vb_case_load(files[i], &cases[i], err, sizeof err) != 0) {
            vb_error(CMD, "%s", err);
            status = VB_EXIT_USAGE;
            goto done;
        }
    /* every case needs its baseline: say which are missing before running any */
    for (size_t i = 0; i < n; i++) {
        char p[4096 + 80];
        snprintf(p, sizeof p, "%s/%s/runs.csv", base, cases[i].name);
        if (access(p, R_OK) != 0) {
            vb_error(CMD, "%s: no baseline for case '%s' (%s missing): make one with "
                          "'verletbench run %s --out %s'",
                     cases[i].path, cases[i].name, p, cases[i].path, base);
            status = VB_EXIT_USAGE;
            goto done;
        }
    }

    /* the recomputed tables go to --save DIR or a private temporary directory */
    if (save) {
        snprintf(tmp, sizeof tmp, "%s", save);
        if (vb_make_dir(tmp, err, sizeof err) != 0) {
            vb_error(CMD, "--save: %s", err);
            status = VB_EXIT_USAGE;
            goto done;
        }
    } else {
        const char *td = getenv("TMPDIR");
        snprintf(tmp, sizeof tmp, "%s/verletbench-check.XXXXXX", td && td[0] ? td : "/tmp");
        if (!mkdtemp(tmp)) {
            vb_error(CMD, "%s: cannot make a temporary directory", tmp);
            tmp[0] = '\0';
            status = VB_EXIT_FAIL;
            goto done;
        }
    }

    if (!quiet)
        printf("verletbench check: %zu case%s against %s (rtol %g, round-off floor %g ulps, "
               "order tolerance %g)\n",
               n, n == 1 ? "" : "s", base, tol.rtol, tol.floor_ulps, tol.order_tol);
    for (size_t i = 0; i < n; i++) {
        vb_sweep s;
        if (vb_sweep_run(&cases[i], &s, so.max_steps, VB_SWEEP_TABLES_ONLY, so.threads, NULL, NULL,
                         err, sizeof err) != 0 ||
            vb_sweep_write(&s, tmp, err, sizeof err) != 0) {
            vb_error(CMD, "%s", err);
            vb_sweep_free(&s);
            status = strstr(err, "over the limit") ? VB_EXIT_USAGE : VB_EXIT_FAIL;
            goto done;
        }
        vb_sweep_free(&s);
        size_t worse0 = changes.worse + changes.missing;
        if (vb_compare_case(base, tmp, cases[i].name, &tol, &changes, err, sizeof err) != 0) {
            vb_error(CMD, "%s", err);
            status = VB_EXIT_USAGE;
            goto done;
        }
        if (!quiet)
            printf("  %-22s %s\n", cases[i].name,
                   changes.worse + changes.missing > worse0 ? "WORSE" : "ok");
    }
    vb_changes_print(&changes, stdout);
    int failed = changes.worse > 0 || changes.missing > 0;
    printf("\n%s: %zu values compared; %zu worse, %zu better, %zu baseline runs missing, "
           "%zu new runs\n",
           failed ? "FAILED" : "passed", changes.compared, changes.worse, changes.better,
           changes.missing, changes.added);
    status = failed ? VB_EXIT_FAIL : VB_EXIT_OK;

done:
    if (tmp[0] && !save)
        nftw(tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    vb_changes_free(&changes);
    for (size_t i = 0; i < loaded; i++)
        vb_case_free(&cases[i]);
    free(cases);
    globfree(&g);
    return status;
}
