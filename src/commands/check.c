/* commands/check.c — `verletbench check`: rerun the cases and compare them with a
 * committed baseline; exit 1 when any error or order got worse. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <signal.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "casedirs.h"
#include "casefile.h"
#include "cli.h"
#include "casetables.h"
#include "grid.h"
#include "outdir.h"
#include "plugin.h"
#include "report.h"
#include "rundir.h"
#include "signals.h"
#include "sweep.h"
#include "write.h"

#define CMD "check"

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Cut a path to its parent, in place ("a/b/" -> "a", "a" -> ".", "/a" ->
 * "/"); 0 when it has none left to cut ("." or "/").  p has room for ".". */
static int cut_to_parent(char *p)
{
    size_t n = strlen(p);
    while (n > 1 && p[n - 1] == '/')
        p[--n] = '\0';
    char *slash = strrchr(p, '/');
    if (!slash) {
        if (strcmp(p, ".") == 0)
            return 0;
        strcpy(p, ".");
        return 1;
    }
    if (slash == p) {
        if (!p[1])
            return 0;
        p[1] = '\0';
        return 1;
    }
    *slash = '\0';
    return 1;
}

/* Where --save would write, against the baseline: 2 the baseline itself,
 * 1 inside it, 0 elsewhere, -1 cannot tell (errno).  Asked of the nearest
 * part of the path that exists (--save creates the rest below it) and of
 * every directory above that, by device and inode, not by name: a symbolic
 * link, "..", another spelling or a bind mount of the baseline all end at
 * the baseline's own inode. */
static int save_in_baseline(const char *save, const char *base)
{
    struct stat sb, st;
    if (stat(base, &sb) != 0)
        return -1;
    size_t n = strlen(save);
    char *p = malloc(n + 2);
    if (!p)
        return -1;
    memcpy(p, save, n + 1);
    int exists = 1;
    while (stat(p, &st) != 0) {
        exists = 0;
        if (!cut_to_parent(p)) {
            free(p);
            return -1;
        }
    }
    if (exists && st.st_dev == sb.st_dev && st.st_ino == sb.st_ino) {
        free(p);
        return 2;
    }
    /* its ancestors: the resolved path's, cut a part at a time (no link
     * or ".." is left in it to lead elsewhere) */
    char *r = realpath(p, NULL);
    free(p);
    if (!r)
        return -1;
    int in = 0;
    do
        in = stat(r, &st) == 0 && st.st_dev == sb.st_dev && st.st_ino == sb.st_ino;
    while (!in && cut_to_parent(r));
    free(r);
    return in;
}

static int check(const char *base, const char *save, int quiet, const vb_tolerance *tol,
                 const vb_shared_opts *so, char **files, size_t n);

int vb_cmd_check(int argc, char **argv)
{
    const char *base = "results/baseline", *save = NULL;
    vb_tolerance tol = {VB_CHECK_RTOL, VB_CHECK_FLOOR_ULPS, VB_CHECK_ORDER_TOL};
    vb_shared_opts so = vb_shared_opts_plain();
    int quiet = 0;
    const vb_option rows[] = {
        VB_OPT_STRING("baseline", "DIR", &base, "the baseline (default results/baseline)"),
        VB_SHARED_TOLERANCES(&tol),
        VB_OPT_STRING("save", "DIR",  &save,
                      "also keep the recomputed tables in DIR (make baseline uses it;\n"
                      "never the baseline itself nor a directory inside it)"),
        VB_SHARED_MAX_STEPS(&so, "refuse a run of more than N steps (default 1e9)"),
        VB_OPT_FLAG("quiet", &quiet, "print only what changed and the verdict"),
        VB_SHARED_JOBS(&so, "threads (default: VERLETBENCH_THREADS, else every CPU)"),
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
            "Usage: verletbench check [--baseline DIR] [--save DIR] [--rtol R] [--floor-ulps U]\n"
            "                         [--order-tol A] [--max-steps N] [--quiet] [-j N]\n"
            "                         [--plugin FILE]... [--plugin-timeout S] [--engine NAME:ORDER=CMD]...\n"
            "                         [--trajectories NAME:ORDER=DIR]... [--engine-timeout S]\n"
            "                         [--engines-only] [CASEFILE...]\n\n"
            "Reruns the cases (default: every cases/*.case) and compares their tables with a\n"
            "baseline written earlier by `verletbench run` (default: results/baseline, which\n"
            "`make baseline` refreshes).  Judged: the max and RMS position and velocity\n"
            "errors, the energy, angular- and linear-momentum errors and the rods' drift\n"
            "(err_constraint_max) at every step size (for random plans the median over\n"
            "seeds), each run's status, every fitted order and verdict of those norms, and\n"
            "for a case with a [contact] each handler's measures in contact.csv, by their\n"
            "distance from the exact value (pass_speed: worse when it falls), and for a\n"
            "rigid body at a contact each measure's fitted order in contact_orders.csv.\n"
            "Final-time errors and err_return are listed, not judged: they oscillate.  A\n"
            "series worse only at coarse steps and better at every finer one is a crossing\n"
            "curve, listed as better.  It prints what got worse and what got better, naming\n"
            "case, integrator, plan, dt, seed and metric.  Nothing is written to disk unless\n"
            "--save is given.\n\n"
            "Exit status: 0 nothing worse, 1 something worse (or a baseline run no longer\n"
            "made: an integrator dropped, a grid point the case file no longer has), 2 bad\n"
            "usage, a missing or damaged baseline (cut short, a renamed column, cells that\n"
            "are not numbers, rows gone: named by file:line), one made from other\n"
            "parameters, or --save onto the baseline or into it.\n\n",
        .epilogue =
            "\nThe tolerances and why they are what they are: docs/check.md.  To compare two\n"
            "results directories without rerunning: verletbench compare OLD NEW.\n",
    };
    int first, rc = vb_options_parse(&spec, argc, argv, &first);
    if (rc != VB_OPTIONS_GO)
        return rc;

    /* the case files: those given, or every .case file in cases/ */
    glob_t g = {0};
    char **files = argv + first;
    size_t n = (size_t)(argc - first);
    if (n == 0) {
        if (glob("cases/*.case", 0, NULL, &g) != 0 || g.gl_pathc == 0) {
            globfree(&g);
            return vb_usage_error(CMD, "no case files given and none in cases/ (run it from the "
                                       "project directory, or name them)");
        }
        files = g.gl_pathv;
        n = g.gl_pathc;
    }
    rc = check(base, save, quiet, &tol, &so, files, n);
    globfree(&g);
    return rc;
}

/* --baseline and --save, before anything is read: 0, or the exit status
 * after the message */
static int check_dirs(const char *base, const char *save)
{
    if (!base[0]) /* "--baseline=": no name to say, nothing to point --out at */
        return vb_usage_error(CMD, "--baseline: empty directory name (the default is "
                                   "results/baseline, which 'make baseline' writes)");
    if (save && !save[0])
        return vb_usage_error(CMD, "--save: empty directory name");
    if (!is_dir(base)) {
        vb_error(CMD, "--baseline %s: no such directory (make one with 'make baseline', or "
                      "'verletbench run CASEFILE... --out %s')", base, base);
        return VB_EXIT_USAGE;
    }
    if (save) {
        /* --save onto the baseline, or into it, would replace what is being
         * compared against (or put new case directories among it), and a
         * regression would pass and become the baseline */
        int where = save_in_baseline(save, base), saved = errno;
        if (where != 0) {
            if (where < 0)
                return vb_usage_error(CMD, "--save %s: cannot tell whether it lies inside the "
                                           "baseline (--baseline %s): %s",
                                      save, base, strerror(saved));
            return vb_usage_error(CMD, "--save %s %s (--baseline %s): save elsewhere, then "
                                       "replace the baseline on purpose",
                                  save,
                                  where == 2 ? "is the baseline itself" : "lies inside the baseline",
                                  base);
        }
    }
    return 0;
}

/* the case files loaded into *set, each case (each point of a grid) with
 * its baseline, checked before any runs: 0, or VB_EXIT_USAGE after the
 * message */
static int load_cases(vb_case_set *set, char **files, size_t n, const char *base,
                      const vb_shared_opts *so)
{
    char err[4096];
    if (vb_case_set_load(set, files, n, err, sizeof err) != 0) {
        vb_error(CMD, "%s", err);
        return VB_EXIT_USAGE;
    }
    for (size_t i = 0; i < set->n; i++)
        if (vb_case_add_cli_engines(CMD, set->all[i], so) != 0)
            return VB_EXIT_USAGE;
    /* every case (every point of a grid) needs its baseline: say which are
     * missing before running any */
    for (size_t i = 0; i < set->n; i++)
        for (int k = 0; k < 2; k++) {
            const vb_case *ci = set->all[i];
            char p[4096 + 80];
            snprintf(p, sizeof p, "%s/%s/%s", base, ci->name, k ? "orders.csv" : "runs.csv");
            if (access(p, R_OK) != 0) {
                vb_error(CMD, "%s: no baseline for case '%s' (%s missing): make one with "
                              "'verletbench run %s --out %s'",
                         ci->path, ci->name, p, ci->path, base);
                return VB_EXIT_USAGE;
            }
        }
    for (size_t i = 0; i < set->n; i++)
        if (vb_sweep_check(set->all[i], so->max_steps, err, sizeof err) != 0) {
            vb_error(CMD, "%s", err);
            return VB_EXIT_USAGE;
        }
    return 0;
}

/* what every case of a check is compared and saved with */
typedef struct {
    const char *base, *save; /* save: NULL without --save */
    int quiet;
    const vb_tolerance *tol;
    const vb_shared_opts *so;
    vb_outdir od; /* --save's */
    vb_grid *grids;
    long n_grids;
    vb_changes changes; /* what got worse and better, every case's */
} check_work;

/* one case rerun, compared with its baseline, and --save'd (with its grid
 * once its last point is in): 0, or the exit status after the message */
static int check_case(check_work *w, const vb_case *ci)
{
    char err[4096];
    vb_sweep s;
    int rc = vb_sweep_run(ci, &s, w->so->max_steps, VB_SWEEP_TABLES_ONLY, w->so->threads, NULL,
                          NULL, err, sizeof err);
    if (rc != 0) {
        vb_error(CMD, "%s", err);
        vb_sweep_free(&s);
        return rc == VB_SWEEP_USAGE ? VB_EXIT_USAGE : VB_EXIT_FAIL;
    }
    vb_report_run_failures(stderr, CMD, &s, 1); /* said; the comparison judges them */
    size_t worse0 = w->changes.worse + w->changes.missing;
    rc = vb_check_case(w->base, ci, &s, w->tol, &w->changes, err, sizeof err);
    vb_grid *gr = vb_grid_of(w->grids, (size_t)w->n_grids, ci);
    if (rc == 0 && gr && vb_grid_add(gr, &s) != 0) {
        snprintf(err, sizeof err, "out of memory");
        rc = VB_COMPARE_OOM;
    }
    if (rc == 0 && w->save) {
        /* the point, and its grid once its last point is in */
        size_t whole = gr && gr->added == gr->points;
        sigset_t old;
        vb_hold_stop_signals(&old);
        int wrc = vb_sweep_write_all(&w->od, &s, 1, gr, whole, err, sizeof err);
        sigprocmask(SIG_SETMASK, &old, NULL);
        if (wrc != 0) {
            vb_error(CMD, "--save: %s", err);
            vb_sweep_free(&s);
            return wrc == VB_OUTDIR_USAGE ? VB_EXIT_USAGE : VB_EXIT_FAIL;
        }
    }
    vb_sweep_free(&s);
    if (rc != 0) {
        vb_error(CMD, "%s", err);
        return rc == VB_COMPARE_OOM ? VB_EXIT_FAIL : VB_EXIT_USAGE;
    }
    if (!w->quiet)
        vb_changes_case_line(stdout, ci->name, w->changes.worse + w->changes.missing > worse0);
    return 0;
}

/* the cases rerun and compared with the baseline, --save'd when asked */
static int check(const char *base, const char *save, int quiet, const vb_tolerance *tol,
                 const vb_shared_opts *so, char **files, size_t n)
{
    int rc = check_dirs(base, save);
    if (rc != 0)
        return rc;
    char err[4096];
    check_work w = {base, save, quiet, tol, so, {NULL, -1}, NULL, 0, {0}};
    vb_case_set set;
    int status = load_cases(&set, files, n, base, so);
    if (status != 0)
        goto done;
    w.n_grids = vb_grids_begin(&set, &w.grids);
    if (w.n_grids < 0) {
        w.n_grids = 0;
        vb_error(CMD, "out of memory");
        status = VB_EXIT_FAIL;
        goto done;
    }
    if (save) {
        rc = vb_outdir_open(&w.od, save, err, sizeof err);
        if (rc == 0)
            rc = vb_rundir_check(&w.od, &set, err, sizeof err);
        if (rc != 0) {
            vb_error(CMD, "--save: %s", err);
            status = rc == VB_OUTDIR_USAGE ? VB_EXIT_USAGE : VB_EXIT_FAIL;
            goto done;
        }
    }

    if (!quiet) {
        char what[4096 + 16];
        snprintf(what, sizeof what, "against %s", base);
        vb_changes_header(stdout, CMD, set.n, what, tol);
    }
    for (size_t i = 0; i < set.n; i++)
        if ((status = check_case(&w, set.all[i])) != 0)
            goto done;
    rc = vb_check_gone_points(base, &set, quiet ? NULL : stdout, &w.changes, err, sizeof err);
    if (rc != 0) {
        vb_error(CMD, "%s", err);
        status = rc == VB_COMPARE_OOM ? VB_EXIT_FAIL : VB_EXIT_USAGE;
        goto done;
    }
    status = vb_changes_report(&w.changes, stdout) ? VB_EXIT_FAIL : VB_EXIT_OK;

done:
    vb_outdir_close(&w.od);
    vb_changes_free(&w.changes);
    vb_grids_free(w.grids, (size_t)w.n_grids);
    vb_case_set_free(&set);
    return status;
}
