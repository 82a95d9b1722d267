/* commands/compare.c — `verletbench compare OLD NEW`: the tables two runs wrote,
 * compared by check's rules (casetables.h) and reported by check's report,
 * without rerunning anything: 6 halvings against 9, one machine's results
 * against another's, a method before and after a change. */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "casedirs.h"
#include "cli.h"
#include "casetables.h"

#define CMD "compare"

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int compare(const char *old, const char *new_dir, char **given, size_t n_given,
                   int quiet, const vb_tolerance *tol);

int vb_cmd_compare(int argc, char **argv)
{
    vb_tolerance tol = {VB_CHECK_RTOL, VB_CHECK_FLOOR_ULPS, VB_CHECK_ORDER_TOL};
    int quiet = 0;
    const vb_option rows[] = {
        VB_SHARED_TOLERANCES(&tol),
        VB_OPT_FLAG("quiet", &quiet, "print only what changed and the verdict"),
        VB_OPT_HELP,
        VB_OPT_END,
    };
    const vb_command_spec spec = {
        .name = CMD,
        .options = rows,
        .usage =
            "Usage: verletbench compare OLD NEW [NAME...] [--rtol R] [--floor-ulps U]\n"
            "                           [--order-tol A] [--quiet]\n\n"
            "Compares the tables that two `verletbench run`s wrote, OLD/NAME/ against\n"
            "NEW/NAME/ (runs.csv, orders.csv, contact.csv, contact_orders.csv), by the\n"
            "rules of `verletbench check` and with its report, without rerunning anything:\n"
            "OLD takes the baseline's part (its messages call it so).  Every case directory\n"
            "of either side, or the NAMEs given; a grid's points each.  A case only OLD has\n"
            "is missing (worse), one only NEW has is new.\n\n"
            "The two must come from the same case parameters, but for `halvings`: with\n"
            "6 halvings against 9 the step sizes both have are compared run by run, the\n"
            "others are counted, not compared, and each side's orders and verdicts are its\n"
            "own fit (an order that is uncertain over 6 and as-expected over 9 is better).\n\n"
            "Exit status: 0 nothing worse, 1 something worse or a case or run of OLD gone\n"
            "from NEW, 2 bad usage, a directory or table that cannot be read, or tables\n"
            "made from other parameters.\n\n",
        .epilogue = "\nThe rules and their tolerances: docs/check.md.\n",
    };
    int first, rc = vb_options_parse(&spec, argc, argv, &first);
    if (rc != VB_OPTIONS_GO)
        return rc;
    if (argc - first < 2)
        return vb_usage_error(CMD, "give two results directories: verletbench compare OLD NEW");
    const char *old = argv[first], *new_dir = argv[first + 1];
    if (!old[0] || !new_dir[0])
        return vb_usage_error(CMD, "%s: an empty directory name: give two results directories",
                              old[0] ? "NEW" : "OLD");
    for (int k = 0; k < 2; k++)
        if (!is_dir(k ? new_dir : old)) {
            const char *d = k ? new_dir : old;
            struct stat st;
            if (stat(d, &st) == 0)
                vb_error(CMD, "%s: not a directory: give a results directory (a --out of "
                              "verletbench run), not a file in it",
                         d);
            else
                vb_error(CMD, "%s: no such directory (a --out of verletbench run)", d);
            return VB_EXIT_USAGE;
        }

    return compare(old, new_dir, argv + first + 2, (size_t)(argc - first - 2), quiet, &tol);
}

/* the case directories of OLD and NEW (those given, or every one), compared */
static int compare(const char *old, const char *new_dir, char **given, size_t n_given,
                   int quiet, const vb_tolerance *tol)
{
    int rc;
    size_t n;
    char **names;
    if (n_given) {
        n = n_given;
        names = calloc(n, sizeof *names);
        for (size_t i = 0; names && i < n; i++)
            names[i] = strdup(given[i]);
    } else {
        names = vb_results_cases(old, new_dir, &n);
    }
    int status = VB_EXIT_OK;
    vb_changes changes = {0};
    char err[4096];
    for (size_t i = 0; i < n && status == VB_EXIT_OK; i++) {
        if (!names || !names[i]) {
            vb_error(CMD, "out of memory");
            status = VB_EXIT_FAIL;
        } else if (!vb_results_has_case(old, names[i]) &&
                   !vb_results_has_case(new_dir, names[i])) {
            vb_error(CMD, "%s: no case of that name in %s or %s (no %s/runs.csv)", names[i], old,
                     new_dir, names[i]);
            status = VB_EXIT_USAGE;
        }
    }
    if (status == VB_EXIT_OK && n == 0) {
        vb_error(CMD, "no case directory (NAME/runs.csv) in %s or %s: nothing to compare", old,
                 new_dir);
        status = VB_EXIT_USAGE;
    }
    if (status == VB_EXIT_OK && !quiet) {
        char what[8192 + 16];
        snprintf(what, sizeof what, "of %s against %s", new_dir, old);
        vb_changes_header(stdout, CMD, n, what, tol);
    }
    for (size_t i = 0; i < n && status == VB_EXIT_OK; i++) {
        size_t worse0 = changes.worse + changes.missing;
        rc = vb_compare_case(old, new_dir, names[i], tol, &changes, err, sizeof err);
        if (rc != 0) {
            vb_error(CMD, "%s", err);
            status = rc == VB_COMPARE_OOM ? VB_EXIT_FAIL : VB_EXIT_USAGE;
        } else if (!quiet) {
            vb_changes_case_line(stdout, names[i], changes.worse + changes.missing > worse0);
        }
    }
    if (status == VB_EXIT_OK)
        status = vb_changes_report(&changes, stdout) ? VB_EXIT_FAIL : VB_EXIT_OK;
    for (size_t i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
    vb_changes_free(&changes);
    return status;
}
