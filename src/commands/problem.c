/* commands/problem.c — `verletbench problem`: what an engine needs to run
 * the cases itself, as JSON Lines (docs/engines.md). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "casefile.h"
#include "cli.h"
#include "engine.h"
#include "names.h"
#include "outfile.h"
#include "plugin.h"
#include "provenance.h"
#include "runner.h"
#include "series.h"
#include "signals.h"
#include "sweep.h"

#define CMD "problem"

/* DIR/NAME/requests.jsonl of one case, into a temporary (o): committed
 * with the others at the end, so an interrupt leaves none changed. */
static int write_case(const vb_case *c, const char *dir, double max_steps, vb_outfile *o,
                      size_t *runs, char *err, size_t errlen)
{
    char path[4096 + 64];
    if (snprintf(path, sizeof path, "%s/%s", dir, c->name) >= (int)sizeof path ||
        vb_make_dir(path, err, errlen) != 0) {
        if (!err[0])
            snprintf(err, errlen, "%s: path too long", dir);
        return VB_EXIT_USAGE;
    }
    strcat(path, "/requests.jsonl");
    if (vb_outfile_open(o, path, err, errlen) != 0)
        return VB_EXIT_USAGE;
    FILE *f = o->f;
    /* the runs `run` would make, in its order, without running them */
    size_t n = 0;
    vb_plan_spec *plans = vb_sweep_plans(c, &n);
    vb_plan_spec *more = plans ? realloc(plans, (n + 2) * sizeof *plans) : NULL;
    if (!more) {
        free(plans);
        vb_outfile_abort(o);
        snprintf(err, errlen, "out of memory");
        return VB_EXIT_FAIL;
    }
    plans = more;
    /* and the charts' long runs, over many periods */
    n += vb_series_plans(c, max_steps, plans + n);
    fprintf(f, "{\"kind\":\"case\",\"made_by\":\"verletbench %s\",\"case\":\"", vb_version_text());
    for (const char *p = c->path; *p; p++)
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if ((unsigned char)*p >= 0x20)
            fputc(*p, f);
    fputc('"', f);
    if (c->grid) /* names and values: a-z 0-9 - _ . + and digits, nothing to escape */
        fprintf(f, ",\"grid_point\":\"%s\"", c->grid->label);
    fprintf(f, ",\"model\":\"%s\",\"runs\":%zu}\n", c->model.type->name, n);
    int rc = 0;
    for (size_t k = 0; k < n && rc == 0; k++) {
        if (vb_engine_write_request(f, &c->model, &plans[k]) != 0 || fputc('\n', f) == EOF)
            rc = -1;
    }
    free(plans);
    if (rc != 0 || fflush(f) != 0) {
        snprintf(err, errlen, "%s: write failed: %s", path, strerror(errno));
        vb_outfile_abort(o);
        return VB_EXIT_FAIL;
    }
    *runs = n;
    return 0;
}

static int problem(char **files, int n, const char *out, double max_steps);

int vb_cmd_problem(int argc, char **argv)
{
    const char *out = "problems";
    vb_shared_opts so = vb_shared_opts_plain();
    const vb_option rows[] = {
        VB_OPT_STRING("out", "DIR", &out, "where to write (default: problems)"),
        VB_SHARED_MAX_STEPS(&so, "refuse a run of more than N steps (default 1e9)"),
        VB_SHARED_PLUGINS(&so),
        VB_OPT_HELP,
        VB_OPT_END,
    };
    const vb_command_spec spec = {
        .name = CMD,
        .options = rows,
        VB_SHARED_ENV(&so),
        .usage =
            "Usage: verletbench problem CASEFILE... [--out DIR] [--max-steps N]\n"
            "                           [--plugin FILE]... [--plugin-timeout S]\n\n"
            "Writes what an external engine needs to run each case's sweep itself:\n"
            "DIR/NAME/requests.jsonl (DIR defaults to problems), JSON Lines.  The first line\n"
            "({\"kind\":\"case\", ...}) says what made it; then one line a run\n"
            "({\"kind\":\"run\", ...}), in the order `run` takes them: every plan (fixed,\n"
            "random, trace), level and seed, each with the model and its parameters, the\n"
            "masses, the initial state x0 and v0, every step h, and the header line the\n"
            "trajectory must start with; last, for a periodic model, the long runs of the\n"
            "charts (\"long-fixed\", \"long-random-S1\": 50 x t_end, fewer if the step limit\n"
            "would be passed).  Each line is exactly what --engine hands an engine on its\n"
            "standard input.\n\n"
            "An engine writes each run's trajectory to a file named after the run\n"
            "(\"run\": \"fixed-L0\" -> fixed-L0.csv) in one directory; then\n"
            "  verletbench score TRAJDIR --case CASEFILE --name NAME --order P\n"
            "measures them as `run` measures a built-in integrator.  Formats, columns and\n"
            "the checks made: docs/engines.md.\n\n",
    };
    int first, rc = vb_options_parse(&spec, argc, argv, &first);
    if (rc != VB_OPTIONS_GO)
        return rc;
    return problem(argv + first, argc - first, out, so.max_steps);
}

/* every case's requests written, each file whole or none changed */
static int problem(char **files_in, int n, const char *out, double max_steps)
{
    int rc;
    if (n <= 0)
        return vb_usage_error(CMD, "no case files given (e.g. verletbench problem cases/spring.case)");
    if (!out[0])
        return vb_usage_error(CMD, "--out: empty directory name");
    char err[1024] = "";
    int status = VB_EXIT_OK;
    vb_case_set set;
    vb_outfile *files = NULL;
    size_t *runs = NULL, opened = 0;
    /* every point of a grid is a case of its own: problems/NAME@e=0.3/ */
    if (vb_case_set_load(&set, files_in, (size_t)n, err, sizeof err) != 0) {
        vb_error(CMD, "%s", err);
        status = VB_EXIT_USAGE;
        goto done;
    }
    /* a grid has no directory of requests of its own, only its points */
    if (vb_case_set_distinct(&set, out, 0, err, sizeof err) != 0) {
        vb_error(CMD, "%s", err);
        status = VB_EXIT_USAGE;
        goto done;
    }
    for (size_t i = 0; i < set.n; i++)
        if (vb_sweep_check(set.all[i], max_steps, err, sizeof err) != 0) {
            vb_error(CMD, "%s", err);
            status = VB_EXIT_USAGE;
            goto done;
        }
    if (vb_make_dir(out, err, sizeof err) != 0) {
        vb_error(CMD, "--out: %s", err);
        status = VB_EXIT_USAGE;
        goto done;
    }
    files = calloc(set.n ? set.n : 1, sizeof *files);
    runs = calloc(set.n ? set.n : 1, sizeof *runs);
    if (!files || !runs) {
        vb_error(CMD, "out of memory");
        status = VB_EXIT_FAIL;
    }
    for (size_t i = 0; i < set.n && status == VB_EXIT_OK; i++) {
        err[0] = '\0';
        if ((rc = write_case(set.all[i], out, max_steps, &files[i], &runs[i], err,
                             sizeof err)) != 0 ||
            (rc = vb_outfile_finish(&files[i], err, sizeof err) != 0 ? VB_EXIT_FAIL : 0) != 0) {
            vb_error(CMD, "%s", err);
            status = rc;
            break;
        }
        opened++;
    }
    if (status != VB_EXIT_OK) {
        for (size_t i = 0; i < opened; i++)
            vb_outfile_abort(&files[i]);
    } else {
        /* every file written: renamed into place with SIGINT, SIGTERM and
         * SIGHUP held back (an interrupt changes none of them) */
        sigset_t old;
        vb_hold_stop_signals(&old);
        for (size_t i = 0; i < set.n; i++) {
            if (status != VB_EXIT_OK) {
                vb_outfile_abort(&files[i]);
                continue;
            }
            char path[4096];
            snprintf(path, sizeof path, "%s", files[i].path);
            if (vb_outfile_commit(&files[i], err, sizeof err) != 0) {
                vb_error(CMD, "%s", err);
                status = VB_EXIT_FAIL;
            } else {
                printf("%s: %zu runs\n", path, runs[i]);
            }
        }
        sigprocmask(SIG_SETMASK, &old, NULL);
    }
done:
    free(files);
    free(runs);
    vb_case_set_free(&set);
    return status;
}
