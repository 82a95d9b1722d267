/* names.c — the files verletbench writes into a case's directory and a
 * grid's, by name: what each holds and when it is written, so that a
 * results directory can be told from any other. */
#include "names.h"

#include "profile.h" /* VB_MEASURE_* */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

const vb_table_file vb_case_files[VB_N_CASE_FILES] = {
    [VB_FILE_RUNS] = {"runs.csv", "runs", VB_WRITTEN_ALWAYS},
    [VB_FILE_ORDERS] = {"orders.csv", "fitted orders", VB_WRITTEN_ALWAYS},
    [VB_FILE_BANDS] = {"bands.csv", "random-plan medians and p10-p90 bands", VB_WRITTEN_ALWAYS},
    [VB_FILE_ONESTEP] = {"onestep.csv", "one-step errors", VB_WRITTEN_ALWAYS},
    [VB_FILE_ONESTEP_ORDERS] = {"onestep_orders.csv", "one-step error exponents",
                                VB_WRITTEN_ALWAYS},
    [VB_FILE_REVERSE] = {"reverse.csv", "time-reversal errors", VB_WRITTEN_ALWAYS},
    [VB_FILE_RATES] = {"rates.csv", "the frame-rate table: each loop x integrator at each display rate",
                       VB_WRITTEN_WITH_RATES},
    [VB_FILE_FLIPS] = {"flips.csv",
                       "a rigid body's flips of its intermediate axis, their period and the "
                       "time a stable spin first tumbles, a row a run",
                       VB_WRITTEN_ALWAYS, VB_MEASURE_ATTITUDE, 0},
    [VB_FILE_CONTACT] = {"contact.csv",
                         "the contact measures of the handlers' and engines' runs against the "
                         "exact answer (docs/contact.md)",
                         VB_WRITTEN_ALWAYS, VB_MEASURE_CONTACT, 0},
    /* a rigid body at a contact only (its attitude and a contact): a
     * wall's case keeps its files */
    [VB_FILE_CONTACT_ORDERS] = {"contact_orders.csv",
                                "the orders in dt of a rigid body's contact measures "
                                "(docs/contact.md)",
                                VB_WRITTEN_ALWAYS, VB_MEASURE_CONTACT | VB_MEASURE_ATTITUDE, 0},
    [VB_FILE_STACKS] = {"stacks.csv",
                        "the measures of the contact solvers' runs on a stack of boxes against "
                        "the exact answer, no box moves (docs/contact.md)",
                        VB_WRITTEN_ALWAYS, VB_MEASURE_STACK, 0},
    [VB_FILE_SUMMARY] = {"summary.md", NULL, VB_WRITTEN_ALWAYS},
    [VB_FILE_CONVERGENCE] = {"convergence.csv", "chart data: max position error against dt",
                             VB_WRITTEN_AS_CHART_DATA, 0, VB_MEASURE_ATTITUDE},
    [VB_FILE_TIMESERIES] = {"timeseries.csv",
                            "chart data: position and energy errors over time (window maxima), "
                            "coarsest dt",
                            VB_WRITTEN_AS_CHART_DATA, 0, VB_MEASURE_ATTITUDE},
    [VB_FILE_PATHS] = {"paths.csv", "chart data: paths over t_end at the coarsest dt",
                       VB_WRITTEN_AS_CHART_DATA, 0, VB_MEASURE_ATTITUDE},
    [VB_FILE_BOUNCES] = {"bounces.csv",
                         "chart data: after each bounce the height reached, as stepped, against "
                         "e^2n h0, and the energy against e^2n, fixed steps",
                         VB_WRITTEN_AS_CHART_DATA, VB_MEASURE_BOUNCES, 0},
    [VB_FILE_RIGID_SERIES] = {"rigid_timeseries.csv",
                              "chart data: a rigid body's attitude, energy and world angular "
                              "momentum errors over time (window maxima), coarsest dt (none "
                              "for a body at a contact, which keeps neither)",
                              VB_WRITTEN_AS_CHART_DATA, VB_MEASURE_ATTITUDE, VB_MEASURE_CONTACT},
    [VB_FILE_POLHODE] = {"polhode.csv",
                         "chart data: the body-frame angular velocity w over t_end (the polhode, "
                         "and w against time) at every fixed dt and the coarsest random one, and "
                         "the exact one (a torque-free body's: none for a body at a contact)",
                         VB_WRITTEN_AS_CHART_DATA, VB_MEASURE_ATTITUDE, VB_MEASURE_CONTACT},
    [VB_FILE_BODY] = {"body.csv",
                      "chart data: the rigid body its w is drawn on, its principal moments, "
                      "the energy ellipsoid 2T and L sphere L^2 of its exact start, and w's "
                      "period (none for a body at a contact, whose w no ellipsoid holds)",
                      VB_WRITTEN_AS_CHART_DATA, VB_MEASURE_ATTITUDE, VB_MEASURE_CONTACT},
    [VB_FILE_MOTION] = {"motion.csv",
                        "chart data: a body at a contact's speed along the slope v and w R over "
                        "t_end at every fixed dt and the coarsest random one, and the exact ones",
                        VB_WRITTEN_AS_CHART_DATA, VB_MEASURE_ATTITUDE | VB_MEASURE_CONTACT, 0},
    [VB_FILE_TIMING] = {"timing.csv", "wall time of runs (this machine)",
                        VB_WRITTEN_WITH_TIMING},
    [VB_FILE_SHARD] = {"shard.csv", NULL, VB_WRITTEN_BY_A_SHARD},
};

int vb_sweep_file_name(const char *name)
{
    for (size_t i = 0; i < VB_N_CASE_FILES; i++)
        if (strcmp(name, vb_case_files[i].file) == 0)
            return 1;
    return 0;
}

int vb_grid_file_name(const char *name)
{
    return !strcmp(name, "grid.csv") || !strcmp(name, "summary.md");
}

int vb_make_dir(const char *path, char *err, size_t errlen)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        snprintf(err, errlen, "%.80s...: path too long", path);
        return -1;
    }
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            struct stat st;
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
                snprintf(err, errlen, "%s: cannot create directory: %s", buf, strerror(errno));
                return -1;
            }
            if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) {
                snprintf(err, errlen, "%s: not a directory", buf);
                return -1;
            }
            *p = c;
            if (c == '\0')
                break;
        }
    }
    return 0;
}
