/* commands/draw.c — `verletbench draw [RESULTS [OUT]]`: every chart of a results
 * directory, with the gnuplot scripts that come with verletbench.
 *
 * The C code never draws (the charts are gnuplot scripts over the CSV
 * files); this command only finds the scripts and runs plots/draw.  They
 * are looked for, in order, in $VERLETBENCH_DATADIR, next to an installed
 * binary (BINDIR/../share/verletbench: `make install` puts them there for
 * any PREFIX) and in the source tree the binary was built in
 * (build/../plots). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "rundir.h"

#define CMD "draw"

static void help(void)
{
    puts("Usage: verletbench draw [RESULTS [OUT]]\n\n"
         "Draws every chart of the case directories in RESULTS (default: results), as\n"
         "written by `verletbench run`, into OUT/NAME/*.png, and writes RESULTS/REPORT.md\n"
         "with each case's table beside its charts.  OUT defaults to plots for results\n"
         "(make's layout) and to RESULTS/plots for any other RESULTS, so the charts of\n"
         "another run never replace make's.  A case's charts:\n"
         "convergence, band, error-time, energy-time, constraint-time (a model with rods),\n"
         "path, path-random, work, rates (a case with [loop] rates: error against display\n"
         "rate), work-time (with run --timing); a grid's own directory\n"
         "(docs/cases.md): grid-order and grid-error against its parameter.  Needs gnuplot\n"
         "(Debian: gnuplot-nox); without it the report is written with the tables only.\n\n"
         "The scripts are found in $VERLETBENCH_DATADIR/plots, next to the installed\n"
         "binary (PREFIX/share/verletbench/plots), or in the source tree it was built in.\n"
         "Each can also be run alone, e.g.\n"
         "  gnuplot -c plots/convergence.gp RESULTS/NAME/convergence.csv out.png NAME\n"
         "from the directory that holds plots/.\n\n"
         "Exit status: 0 drawn (or skipped without gnuplot), 1 a chart failed, 2 bad usage\n"
         "or no results.");
}

/* DIR/plots/draw exists: DIR is a data directory */
static int has_scripts(const char *dir)
{
    char path[PATH_MAX + 32];
    if (snprintf(path, sizeof path, "%s/plots/draw", dir) >= (int)sizeof path)
        return 0;
    return access(path, R_OK) == 0;
}

/* The directory holding plots/, or NULL. */
static char *find_datadir(void)
{
    const char *env = getenv("VERLETBENCH_DATADIR");
    if (env && env[0])
        return has_scripts(env) ? strdup(env) : NULL;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return NULL;
    *slash = '\0'; /* the binary's directory */
    static const char *const rel[] = {"/../share/verletbench", "/.."};
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        char dir[PATH_MAX + 32];
        snprintf(dir, sizeof dir, "%s%s", exe, rel[i]);
        char *real = realpath(dir, NULL);
        if (real && has_scripts(real))
            return real;
        free(real);
    }
    return NULL;
}

int vb_cmd_draw(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            help();
            return VB_EXIT_OK;
        }
        if (argv[i][0] == '-')
            return vb_usage_error(CMD, "unknown option '%s'", argv[i]);
    }
    if (argc > 3)
        return vb_usage_error(CMD, "unexpected argument '%s'", argv[3]);
    char *data = find_datadir();
    if (!data) {
        vb_error(CMD, "cannot find the chart scripts (plots/draw): set VERLETBENCH_DATADIR to "
                      "the directory that holds plots/, or install with make install");
        return VB_EXIT_USAGE;
    }
    /* plots/draw is a POSIX sh script; its exit status is ours */
    char script[PATH_MAX + 32];
    snprintf(script, sizeof script, "%s/plots/draw", data);
    /* make's results/ is drawn into plots/; any other directory into its
     * own plots/, beside its tables */
    const char *results = argc > 1 ? argv[1] : "results";
    char own[PATH_MAX + 16];
    if (vb_charts_dir(results, own, sizeof own) != 0) {
        free(data);
        return vb_usage_error(CMD, "%.80s...: path too long", results);
    }
    char *args[] = {"sh", script, (char *)results, argc > 2 ? argv[2] : own, NULL};
    execv("/bin/sh", args);
    vb_error(CMD, "cannot run /bin/sh %s: %s", script, strerror(errno));
    free(data);
    return VB_EXIT_FAIL;
}
