/* commands/score.c — `verletbench score`: measure trajectories another
 * program wrote.  One file gives the runs row of `sim`; a directory of them
 * gives everything `run` writes (it is `run --trajectories --engines-only`). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "engine.h"
#include "infile.h"
#include "model.h"
#include "numbers.h"
#include "plan.h"
#include "runs_table.h"
#include "simulate.h"

#define CMD "score"

/* the options, as the table below leaves them */
typedef struct {
    vb_shared_opts so; /* first: the shared rows store here */
    const char *case_path, *name, *out, *order_text;
    int quiet, no_chart_data, draw, strict;
    /* what is handed on to run as it was given */
    char *pass[16];
    int n_pass;
} score_opts;

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
    /* a rigid body's (protocol 3) adds its view, as sim's row does */
    unsigned view = res.has_attitude ? VB_RUNS_RIGID : 0;
    vb_runs_row row = {&model, &e->integ, &spec.plan, &res, 0};
    vb_schema_header(stdout, &vb_runs_schema, view);
    vb_schema_row(stdout, &vb_runs_schema, view, NULL, &row);
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

/* --max-steps, --jobs, --engine-timeout: checked as run checks them, and
 * handed on to run as given (plugins are loaded now, in this process, for
 * run too) */
static int pass_on(const char *cmd, const vb_option *row, const char *arg)
{
    score_opts *o = row->store;
    int rc = vb_opt_shared_row(cmd, row, arg);
    if (rc != 0)
        return rc;
    if (o->n_pass + 2 > (int)(sizeof o->pass / sizeof o->pass[0]))
        return vb_usage_error(cmd, "too many options");
    o->pass[o->n_pass++] = row->code == VB_OPT_MAX_STEPS ? "--max-steps"
                           : row->code == VB_OPT_JOBS    ? "--jobs"
                                                         : "--engine-timeout";
    o->pass[o->n_pass++] = (char *)arg;
    return 0;
}
#define PASS_ON(NAME, SHORT, ARG, CODE, HELP, FLAGS)                                              \
    {.kind = VB_OPTION_CALL, .name = NAME, .short_name = SHORT, .arg = ARG, .call = pass_on,      \
     .code = CODE, .store = &o, .help = HELP, .flags = FLAGS}

static int score(score_opts *o, const char *path);

int vb_cmd_score(int argc, char **argv)
{
    score_opts o = {.so = vb_shared_opts_plain()};
    const vb_option rows[] = {
        VB_OPT_STRING("case", "CASEFILE", &o.case_path,
                      "the case the trajectories were computed for (a directory)"),
        VB_OPT_STRING("order", "P", &o.order_text,
                      "the order the method should have: the verdicts' label"),
        VB_OPT_STRING("name", "NAME", &o.name,
                      "the method's name in the tables (default: the directory's or\n"
                      "file's name)"),
        VB_OPT_STRING("out", "OUT", &o.out, "where to write (default: results)"),
        VB_OPT_FLAG("draw", &o.draw,
                    "then draw the charts (verletbench draw OUT: into plots/ for\n"
                    "results, else OUT/plots/)"),
        VB_OPT_FLAG("strict", &o.strict,
                    "exit 1 when a verdict is below the label, not converging, a\n"
                    "trend below the label or undetermined by diverged runs\n"
                    "(run --strict)"),
        PASS_ON("engine-timeout", 0, "S", VB_OPT_ENGINE_TIMEOUT,
                "seconds to wait for more of a file that is not a regular\n"
                "one (a FIFO); default 600", 0),
        /* as for run: one line says so */
        VB_OPT_TEXT("  -j, --jobs N, --quiet, --no-chart-data, --max-steps N, --plugin FILE: as "
                    "for run\n"),
        PASS_ON("jobs", 'j', "N", VB_OPT_JOBS, NULL, VB_OPTION_HIDDEN),
        {.kind = VB_OPTION_FLAG, .name = "quiet", .store = &o.quiet, .flags = VB_OPTION_HIDDEN},
        {.kind = VB_OPTION_FLAG, .name = "no-chart-data", .store = &o.no_chart_data,
         .flags = VB_OPTION_HIDDEN},
        PASS_ON("max-steps", 0, "N", VB_OPT_MAX_STEPS, NULL, VB_OPTION_HIDDEN),
        {.kind = VB_OPTION_CALL, .name = "plugin", .arg = "FILE", .call = vb_opt_shared_row,
         .code = VB_OPT_PLUGIN, .store = &o.so, .flags = VB_OPTION_HIDDEN | VB_OPTION_REPEATS},
        {.kind = VB_OPTION_CALL, .name = "plugin-timeout", .arg = "S",
         .call = vb_opt_shared_row, .code = VB_OPT_PLUGIN_TIMEOUT, .store = &o.so,
         .flags = VB_OPTION_HIDDEN},
        VB_OPT_HELP,
        VB_OPT_END,
    };
    const vb_command_spec spec = {
        .name = CMD,
        .options = rows,
        .usage =
            "Usage: verletbench score TRAJECTORY.csv [--name NAME]\n"
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
            "DIR, the directory that holds them all.\n\n",
        .epilogue = "\nExit status: 0 measured (for a directory, also when a run diverged: its row\n"
                    "says diverged), 1 a run failed (engine-failed) or, for one file, diverged,\n"
                    "2 bad usage or input.\n",
    };
    int first, rc = vb_options_parse(&spec, argc, argv, &first);
    if (rc != VB_OPTIONS_GO)
        return rc;
    if (argc - first != 1)
        return vb_usage_error(CMD, argc == first ? "give a trajectory file or a directory of them"
                                                  : "one trajectory file or directory, not '%s' too",
                              argc == first ? "" : argv[first + 1]);
    return score(&o, argv[first]);
}

/* one file scored as sim would, or a directory handed to run */
static int score(score_opts *o, const char *path)
{
    const char *case_path = o->case_path, *name = o->name, *out = o->out;
    const char *order_text = o->order_text;
    int quiet = o->quiet, charts = !o->no_chart_data, draw = o->draw, strict = o->strict;
    struct stat st;
    if (stat(path, &st) != 0)
        return vb_usage_error(CMD, "%s: no such file or directory", path);
    int order = 0;
    if (order_text) {
        unsigned long long v;
        if (vb_parse_whole(order_text, 16, &v) != 0 || v < 1)
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
        int rc_plugins = vb_shared_opts_env(CMD, &o->so);
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
    for (int i = 0; i < o->n_pass; i++)
        args[k++] = o->pass[i];
    args[k++] = "--"; /* a case file whose name starts with '-' */
    args[k++] = (char *)case_path;
    args[k] = NULL;
    return vb_cmd_run(k, args);
}
