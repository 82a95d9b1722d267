/* commands/score.c — `verletbench score`: measure trajectories another
 * program wrote.  One file gives the runs row of `sim`; a directory of them
 * gives everything `run` writes (it is `run --trajectories --engines-only`). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "engine.h"
#include "infile.h"
#include "model.h"
#include "plan.h"
#include "runs_table.h"
#include "simulate.h"

#define CMD "score"

static void help(void)
{
    puts("Usage: verletbench score TRAJECTORY.csv [--name NAME]\n"
         "       verletbench score DIR --case CASEFILE --order P [--name NAME] [--out OUT]\n"
         "                         [-j N] [--quiet] [--draw] [--strict] [--no-chart-data]\n"
         "                         [--max-steps N] [--engine-timeout S] [--plugin FILE]...\n\n"
         "Measures trajectories that another program computed (docs/engines.md).\n\n"
         "One file: its first line is the '# verletbench run=...' header of its request\n"
         "(from `verletbench problem`, or any request), or the line after a capability\n"
         "line ('# verletbench-engine ...', docs/real-engines.md): the model, its\n"
         "parameters and the plan are read from it, the rows are checked against the\n"
         "plan's step sequence, and the errors are printed as the CSV header and row of\n"
         "`sim`.\n\n"
         "A directory: the trajectories of a case's runs, one file a run, named after the\n"
         "run (DIR/fixed-L0.csv, DIR/random-L2-S5.csv, ...; `verletbench problem` lists\n"
         "them).  Writes OUT/CASE/ as `run` does (CASE: the case file's name; it replaces\n"
         "what a run wrote there), with the engine as the only integrator:\n"
         "runs.csv, orders.csv, bands.csv, summary.md, the chart data; then\n"
         "`verletbench draw OUT` draws the charts and `verletbench check` compares (give\n"
         "it --trajectories NAME:P=DIR --engines-only).  A missing or bad file fails its run\n"
         "alone (engine-failed, with the file, its line and what was wrong), and the exit\n"
         "status is 1.  For a case file with a grid (docs/cases.md), DIR holds a directory\n"
         "a point, named as `problem` names them (DIR/NAME@e=0.3/fixed-L0.csv, ...): give\n"
         "DIR, the directory that holds them all.\n\n"
         "Options:\n"
         "  --case CASEFILE  the case the trajectories were computed for (a directory)\n"
         "  --order P        the order the method should have: the verdicts' label\n"
         "  --name NAME      the method's name in the tables (default: the directory's or\n"
         "                   file's name)\n"
         "  --out OUT        where to write (default: results)\n"
         "  --draw           then draw the charts (verletbench draw OUT: into plots/ for\n"
         "                   results, else OUT/plots/)\n"
         "  --strict         exit 1 when a verdict is below the label, not converging, a\n"
         "                   trend below the label or undetermined by diverged runs\n"
         "                   (run --strict)\n"
         "  --engine-timeout S  seconds to wait for more of a file that is not a regular\n"
         "                   one (a FIFO); default 600\n"
         "  -j, --jobs N, --quiet, --no-chart-data, --max-steps N, --plugin FILE: as for run\n"
         "  --help           this text\n\n"
         "Exit status: 0 measured (for a directory, also when a run diverged: its row\n"
         "says diverged), 1 a run failed (engine-failed) or, for one file, diverged,\n"
         "2 bad usage or input.");
}

/* NAME from a path's last component, without ".csv", in the characters an
 * engine's name may have (a-z, 0-9, '-', '_') */
static void default_name(char *buf, size_t len, const char *path)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    size_t b = n;
    while (b > 0 && path[b - 1] != '/')
        b--;
    size_t k = 0;
    for (size_t i = b; i < n && k + 1 < len; i++) {
        if (n - i == 4 && !strncmp(path + i, ".csv", 4))
            break;
        char ch = path[i];
        if (ch >= 'A' && ch <= 'Z')
            ch = (char)(ch - 'A' + 'a');
        buf[k++] = (ch == '-' || ch == '_' || (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z'))
                       ? ch
                       : '_';
    }
    buf[k] = '\0';
    if (!k || !strcmp(buf, "exact"))
        snprintf(buf, len, "engine");
}

/* One trajectory file: the run rebuilt from its header, then one sim row. */
static int score_file(const char *path, const char *name, int order)
{
    char err[1024];
    FILE *f = vb_open_input(path, "a trajectory", err, sizeof err);
    if (!f) {
        vb_error(CMD, "%s", err);
        return VB_EXIT_USAGE;
    }
    /* read twice (the header, then the run): a pipe is copied first into
     * an unnamed file, so `... | verletbench score /dev/stdin` works */
    struct stat st;
    FILE *copy = NULL;
    char copy_path[64];
    if (fstat(fileno(f), &st) == 0 && !S_ISREG(st.st_mode)) {
        copy = tmpfile();
        char buf[65536];
        size_t n;
        while (copy && (n = fread(buf, 1, sizeof buf, f)) > 0)
            if (fwrite(buf, 1, n, copy) != n) {
                fclose(copy);
                copy = NULL;
            }
        if (!copy || ferror(f) || fflush(copy) != 0) {
            vb_error(CMD, "%s: cannot keep a copy of it: %s", path, strerror(errno));
            if (copy)
                fclose(copy);
            fclose(f);
            return VB_EXIT_FAIL;
        }
        fclose(f);
        snprintf(copy_path, sizeof copy_path, "/proc/self/fd/%d", fileno(copy));
        if (!(f = fopen(copy_path, "r"))) {
            vb_error(CMD, "%s: %s", copy_path, strerror(errno));
            fclose(copy);
            return VB_EXIT_FAIL;
        }
    }
    const char *read_path = copy ? copy_path : path;
    char line[4096];
    int got = fgets(line, sizeof line, f) != NULL, header_line = 1;
    /* a capability line first (docs/real-engines.md §1.2): the header is
     * the next; what it declares is read with the rows */
    if (got && !strncmp(line, "# verletbench-engine", 20)) {
        got = fgets(line, sizeof line, f) != NULL;
        header_line = 2;
    }
    fclose(f);
    if (!got) {
        if (header_line == 2)
            vb_error(CMD, "%s:2: missing: the '# verletbench run=...' line follows the capability "
                          "line",
                     path);
        else
            vb_error(CMD, "%s: empty; a trajectory starts with its '# verletbench run=...' line",
                     path);
        if (copy)
            fclose(copy);
        return VB_EXIT_USAGE;
    }
    size_t len = strcspn(line, "\r\n");
    while (len && (line[len - 1] == ' ' || line[len - 1] == '\t'))
        len--;
    line[len] = '\0';
    vb_model model;
    memset(&model, 0, sizeof model);
    vb_plan_spec plan;
    vb_trace trace;
    if (vb_engine_parse_header(line, &model, &plan, &trace, err, sizeof err) != 0) {
        vb_error(CMD, "%s:%d: %s%s", path, header_line,
                 strncmp(line, "# verletbench run=", 18) == 0 ? ""
                 : header_line == 1                         ? "the first line is "
                                                            : "the line after the capability line is ",
                 err);
        vb_model_free(&model);
        if (copy)
            fclose(copy);
        return VB_EXIT_USAGE;
    }
    if (plan.kind == VB_PLAN_TRACE)
        plan.trace = &trace;
    int status = VB_EXIT_FAIL;
    /* a directory engine whose every run reads this one file */
    vb_engine *e = vb_engine_new(name, order, NULL, path, NULL, VB_ENGINE_TIMEOUT, err,
                                 sizeof err);
    if (!e || !(e->file = strdup(read_path))) {
        vb_error(CMD, "%s", e ? "out of memory" : err);
        goto out;
    }
    vb_run_spec spec = {.integ = &e->integ, .model = &model, .plan = plan};
    vb_run_result res;
    if (vb_simulate(&spec, &res, err, sizeof err) != 0) {
        vb_error(CMD, "%s", err);
        goto out;
    }
    vb_runs_row row = {&model, &e->integ, &spec.plan, &res, 0};
    vb_schema_header(stdout, &vb_runs_schema, 0);
    vb_schema_row(stdout, &vb_runs_schema, 0, NULL, &row);
    status = res.status == VB_STATUS_OK ? VB_EXIT_OK : VB_EXIT_FAIL;
    if (res.status == VB_STATUS_ENGINE_FAILED)
        vb_error(CMD, "%s: %s", path, vb_run_failure(&res));
    else if (res.status != VB_STATUS_OK)
        vb_error(CMD, "%s: the run %s at step %llu", path, vb_status_name(res.status),
                 res.fail_step);
    vb_run_result_clear(&res);
out:
    vb_engine_free(e);
    vb_trace_free(&trace);
    vb_model_free(&model);
    if (copy)
        fclose(copy);
    return status;
}

int vb_cmd_score(int argc, char **argv)
{
    enum { O_CASE = 256, O_ORDER, O_NAME, O_OUT, O_QUIET, O_NOCHARTS, O_DRAW, O_STRICT, O_HELP };
    static const struct option opts[] = {
        {"case", required_argument, NULL, O_CASE},
        {"order", required_argument, NULL, O_ORDER},
        {"name", required_argument, NULL, O_NAME},
        {"out", required_argument, NULL, O_OUT},
        {"quiet", no_argument, NULL, O_QUIET},
        {"no-chart-data", no_argument, NULL, O_NOCHARTS},
        {"draw", no_argument, NULL, O_DRAW},
        {"strict", no_argument, NULL, O_STRICT},
        VB_OPTION_MAX_STEPS,
        VB_OPTION_PLUGIN,
        VB_OPTION_JOBS,
        {"engine-timeout", required_argument, NULL, VB_OPT_ENGINE_TIMEOUT},
        {"help", no_argument, NULL, O_HELP},
        {NULL, 0, NULL, 0},
    };
    const char *case_path = NULL, *name = NULL, *out = NULL, *order_text = NULL;
    int quiet = 0, charts = 1, draw = 0, strict = 0, c, rc;
    /* what is handed on to run as it was given */
    char *pass[16];
    int n_pass = 0;
    vb_shared_opts so = vb_shared_opts_plain();
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":j:", opts, NULL)) != -1) {
        switch (c) {
        case O_CASE:
            if (case_path)
                return vb_usage_error(CMD, "--case: one case a directory of trajectories");
            case_path = optarg;
            break;
        case O_ORDER:
            order_text = optarg;
            break;
        case O_NAME:
            name = optarg;
            break;
        case O_OUT:
            out = optarg;
            break;
        case O_QUIET:
            quiet = 1;
            break;
        case O_NOCHARTS:
            charts = 0;
            break;
        case O_DRAW:
            draw = 1;
            break;
        case O_STRICT:
            strict = 1;
            break;
        case O_HELP:
            help();
            return VB_EXIT_OK;
        default:
            if ((rc = vb_opt_shared(CMD, c, &so, argv)) != 0)
                return rc;
            /* plugins are loaded now, in this process, for run too */
            if (c == VB_OPT_MAX_STEPS || c == VB_OPT_JOBS || c == VB_OPT_ENGINE_TIMEOUT) {
                if (n_pass + 2 > (int)(sizeof pass / sizeof pass[0]))
                    return vb_usage_error(CMD, "too many options");
                pass[n_pass++] = c == VB_OPT_MAX_STEPS ? "--max-steps"
                                 : c == VB_OPT_JOBS    ? "--jobs"
                                                       : "--engine-timeout";
                pass[n_pass++] = optarg;
            }
            break;
        }
    }
    if (argc - optind != 1)
        return vb_usage_error(CMD, argc == optind ? "give a trajectory file or a directory of them"
                                                  : "one trajectory file or directory, not '%s' too",
                              argc == optind ? "" : argv[optind + 1]);
    const char *path = argv[optind];
    struct stat st;
    if (stat(path, &st) != 0)
        return vb_usage_error(CMD, "%s: no such file or directory", path);
    int order = 0;
    if (order_text) {
        long v;
        char *end;
        v = strtol(order_text, &end, 10);
        if (end == order_text || *end || v < 1 || v > 16)
            return vb_usage_error(CMD, "--order: '%s': want a whole number in 1..16", order_text);
        order = (int)v;
    }
    char name_buf[64];
    if (name) {
        snprintf(name_buf, sizeof name_buf, "%s", name);
    } else {
        default_name(name_buf, sizeof name_buf, path);
    }
    char why[256];
    /* the name, checked now: a bad one is bad usage, said before anything runs */
    if (vb_engine_check_name(name_buf, why, sizeof why) != 0)
        return vb_usage_error(CMD, "--name: %s", why);
    if (!S_ISDIR(st.st_mode)) {
        if (case_path || out || quiet || !charts || draw || strict)
            return vb_usage_error(CMD, "%s is a file: one run, printed as a row; --case, --out, "
                                       "--quiet, --draw and --no-chart-data are for a directory",
                                  path);
        int rc_plugins = vb_shared_opts_env(CMD, &so);
        if (rc_plugins != 0)
            return VB_EXIT_USAGE;
        return score_file(path, name_buf, order ? order : 1);
    }
    if (!case_path)
        return vb_usage_error(CMD, "%s is a directory: give the case its trajectories were "
                                   "computed for (--case CASEFILE)",
                              path);
    if (!order)
        return vb_usage_error(CMD, "--order P is required for a directory: the order the method "
                                   "should have, for the verdicts");
    char spec[4096 + 128];
    if (snprintf(spec, sizeof spec, "%s:%d=%s", name_buf, order, path) >= (int)sizeof spec)
        return vb_usage_error(CMD, "%s: path too long", path);
    char *args[32];
    int k = 0;
    args[k++] = "run";
    args[k++] = "--trajectories";
    args[k++] = spec;
    args[k++] = "--engines-only";
    if (out) {
        args[k++] = "--out";
        args[k++] = (char *)out;
    }
    if (quiet)
        args[k++] = "--quiet";
    if (!charts)
        args[k++] = "--no-chart-data";
    if (draw)
        args[k++] = "--draw";
    if (strict)
        args[k++] = "--strict";
    for (int i = 0; i < n_pass; i++)
        args[k++] = pass[i];
    args[k++] = "--"; /* a case file whose name starts with '-' */
    args[k++] = (char *)case_path;
    args[k] = NULL;
    return vb_cmd_run(k, args);
}
