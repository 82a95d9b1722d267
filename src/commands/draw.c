/* commands/draw.c — `verletbench draw`: every chart of a results directory
 * and its REPORT.md; the article's figures; or one chart of one table.
 *
 * The C code decides what each chart draws (draw/charts.h) and writes its
 * gnuplot program; gnuplot, one process for many charts, only draws.  No
 * script is looked for: the binary holds everything, so a chart command
 * works from any directory, installed or not. */
#include <dirent.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "casecharts.h"
#include "chartkinds.h"
#include "cli.h"
#include "numbers.h"
#include "csvread.h"
#include "drawing.h"
#include "names.h"
#include "palette.h"
#include "pick.h"
#include "plotter.h"
#include "rundir.h"

#define CMD "draw"

/* the charts are UTF-8: without any locale (a bare system, cron) gnuplot
 * warns on every chart that it cannot convert */
static void chart_locale(void)
{
    if (!getenv("LC_ALL") && !getenv("LC_CTYPE") && !getenv("LANG"))
        setenv("LC_ALL", "C.UTF-8", 1);
}

static int dir_of(const char *path, char *buf, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return snprintf(buf, len, ".") >= (int)len ? -1 : 0;
    if (slash == path)
        return snprintf(buf, len, "/") >= (int)len ? -1 : 0;
    return snprintf(buf, len, "%.*s", (int)(slash - path), path) >= (int)len ? -1 : 0;
}

/* --dt's value as typed, in asked (32 bytes): the digits that read back to
 * it (0.05000001, where %g would say 0.05, a step it is not) */
static const char *dt_text(double dt, char asked[32])
{
    vb_format_shortest(dt, asked, 32);
    return asked;
}

/* What draw --dt and --methods ask of one table: 0, or 2 after a message
 * (a step the table has not, a method it has not) */
static int pick_table(const char *path, const vb_chart_kind *kind, const vb_pick *pick)
{
    if (!(pick->dt > 0.0) && !pick->methods)
        return VB_EXIT_OK;
    if (pick->dt > 0.0 && !kind->one_step)
        return vb_usage_error(CMD, "--dt: the chart %s holds one step, the coarsest; --dt picks the "
                                   "step of a rigid body's polhode and angvel-time charts",
                              kind->name);
    vb_csv t;
    char err[2048];
    if (vb_csv_read(path, &t, err, sizeof err) != 0) {
        vb_error(CMD, "%s", err);
        return VB_EXIT_USAGE;
    }
    int rc = VB_EXIT_OK;
    vb_csv picked;
    char asked[32];
    if (pick->dt > 0.0) {
        if (vb_pick_rows(&t, pick, 1, &picked, NULL, err, sizeof err) != 0) {
            vb_error(CMD, "--dt %s: %s", dt_text(pick->dt, asked), err);
            rc = VB_EXIT_USAGE;
        } else {
            vb_csv_free(&picked);
        }
    }
    char missing[256];
    if (rc == VB_EXIT_OK && pick->methods) {
        vb_pick_found(&t, pick->methods, missing, sizeof missing);
        if (missing[0]) {
            vb_error(CMD, "--methods: %s has no method '%s'", path, missing);
            rc = VB_EXIT_USAGE;
        }
    }
    vb_csv_free(&t);
    return rc;
}

static int one_chart(int argc, char **argv, unsigned jobs, const vb_pick *pick)
{
    (void)jobs;
    if (argc < 3)
        return vb_usage_error(CMD, "--chart needs KIND TABLE OUT");
    const vb_chart_kind *kind = vb_chart_kind_named(argv[0]);
    if (!kind)
        return vb_usage_error(CMD, "--chart %s: no such chart (see --help)", argv[0]);
    const char *table = argv[1], *out = argv[2];
    const char *title = "", *arg = NULL, *integ = NULL, *layout = NULL;
    int rest = argc - 3;
    char **a = argv + 3;
    switch (kind->args) {
    case VB_CHART_ARGS_INTEGRATOR:
        if (rest < 1)
            return vb_usage_error(CMD, "--chart %s needs the INTEGRATOR after OUT", kind->name);
        arg = a[0];
        title = rest > 1 ? a[1] : "";
        if (rest > 2)
            return vb_usage_error(CMD, "unexpected argument '%s'", a[2]);
        break;
    case VB_CHART_ARGS_PATH:
        title = rest > 0 ? a[0] : "";
        arg = rest > 1 && a[1][0] ? a[1] : "fixed";
        integ = rest > 2 && a[2][0] ? a[2] : NULL;
        layout = rest > 3 && a[3][0] ? a[3] : NULL;
        if (layout && strcmp(layout, "grid") && strcmp(layout, "single"))
            return vb_usage_error(CMD, "--chart %s: layout '%s': single or grid", kind->name, layout);
        if (rest > 4)
            return vb_usage_error(CMD, "unexpected argument '%s'", a[4]);
        break;
    case VB_CHART_ARGS_GRID:
        title = rest > 0 ? a[0] : "";
        arg = rest > 1 ? a[1] : NULL;
        if (rest > 2)
            return vb_usage_error(CMD, "unexpected argument '%s'", a[2]);
        break;
    case VB_CHART_ARGS_TITLE:
        title = rest > 0 ? a[0] : "";
        if (rest > 1)
            return vb_usage_error(CMD, "unexpected argument '%s'", a[1]);
        break;
    }
    if (!vb_gnuplot_found()) {
        vb_error(CMD, "gnuplot not found (install it with: apt-get install gnuplot-nox, or set "
                      "GNUPLOT)");
        return VB_EXIT_FAIL;
    }
    int picked = pick_table(table, kind, pick);
    if (picked != VB_EXIT_OK)
        return picked;
    char dir[PATH_MAX];
    if (dir_of(out, dir, sizeof dir) != 0)
        return vb_usage_error(CMD, "%.80s...: path too long", out);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        vb_error(CMD, "%s: no such directory for the chart", dir);
        return VB_EXIT_USAGE;
    }
    vb_batch b = {0};
    if (vb_batch_add(&b, kind, table, out, title, arg, NULL, NULL) != 0 ||
        vb_batch_pick(&b, pick->dt, pick->methods) != 0 ||
        (integ && !(b.charts[0].integrators = strdup(integ))) ||
        (layout && !(b.charts[0].layout = strdup(layout)))) {
        vb_batch_free(&b);
        vb_error(CMD, "out of memory");
        return VB_EXIT_FAIL;
    }
    b.name = strdup(out);
    chart_locale();
    size_t failed = vb_draw_batches(&b, 1, 1, dir);
    vb_batch_free(&b);
    return failed ? VB_EXIT_FAIL : VB_EXIT_OK;
}

static int palette(int argc, char **argv)
{
    if (argc < 1)
        return vb_usage_error(CMD, "--palette needs the names of the curves");
    for (int i = 0; i < argc; i++)
        printf("%s %s %d\n", argv[i], vb_palette_colour((const char *const *)argv, (size_t)argc, argv[i]),
               vb_palette_point((const char *const *)argv, (size_t)argc, argv[i]));
    return VB_EXIT_OK;
}

static int article(const char *results, const char *out)
{
    char err[2048];
    vb_batch b = {0};
    if (vb_article_charts(results, out, &b, err, sizeof err) != 0) {
        vb_batch_free(&b);
        vb_error(CMD, "--article: %s", err);
        return VB_EXIT_USAGE;
    }
    if (!vb_gnuplot_found()) {
        vb_batch_free(&b);
        fprintf(stderr, "verletbench draw: article: figures skipped: gnuplot not found (install it "
                        "with: apt-get install gnuplot-nox)\n");
        return VB_EXIT_OK;
    }
    if (vb_make_dir(out, err, sizeof err) != 0) {
        vb_batch_free(&b);
        vb_error(CMD, "%s", err);
        return VB_EXIT_FAIL;
    }
    chart_locale();
    size_t failed = vb_draw_batches(&b, 1, 1, out);
    printf("draw: %zu article figures in %s/\n", b.drawn, out);
    vb_batch_free(&b);
    if (failed) {
        vb_error(CMD, "article: %zu figure(s) failed", failed);
        return VB_EXIT_FAIL;
    }
    return VB_EXIT_OK;
}

/* A case's table, read: the one that names its methods (runs.csv; a grid's
 * own directory, grid.csv), or its w (polhode.csv).  0, or -1 when it has
 * none. */
static int case_table(const char *results, const char *name, const char *file, vb_csv *t)
{
    char path[PATH_MAX * 2], err[2048];
    snprintf(path, sizeof path, "%s/%s/%s", results, name, file);
    if (vb_csv_read(path, t, err, sizeof err) == 0)
        return 0;
    vb_csv_free(t);
    return -1;
}

/* The cases draw --methods and --dt leave: those with any of the methods
 * (said on stderr when one is left out), each rigid body's with the step
 * asked.  0 (cases[0..*n) the cases drawn, the others freed), or 2 after a
 * message: a method no case has, a step a rigid case has not, --dt with no
 * rigid case. */
static int pick_cases(const char *results, char **cases, size_t *n, const vb_pick *pick)
{
    /* the names listed, each once */
    char names[VB_OPT_LIST_MAX][256], missing[256];
    unsigned char met[VB_OPT_LIST_MAX] = {0};
    size_t nn = 0, kept = 0, rigid = 0;
    for (const char *s = pick->methods; s && *s && nn < VB_OPT_LIST_MAX;) {
        const char *end = strchr(s, ',');
        snprintf(names[nn++], sizeof names[0], "%.*s", (int)(end ? end - s : (long)strlen(s)), s);
        s = end ? end + 1 : NULL;
    }
    int rc = VB_EXIT_OK;
    for (size_t i = 0; i < *n; i++) {
        vb_csv t;
        int keep = 1;
        if (nn) {
            keep = 0;
            if (case_table(results, cases[i], "runs.csv", &t) == 0 ||
                case_table(results, cases[i], "grid.csv", &t) == 0) {
                for (size_t k = 0; k < nn; k++)
                    if (vb_pick_found(&t, names[k], missing, sizeof missing))
                        keep = met[k] = 1;
                vb_csv_free(&t);
            }
            if (!keep)
                fprintf(stderr, "verletbench draw: --methods: %s has none of %s: not drawn\n",
                        cases[i], pick->methods);
        }
        if (keep && pick->dt > 0.0 && case_table(results, cases[i], "polhode.csv", &t) == 0) {
            double steps[VB_PICK_MAX_STEPS];
            size_t ns = vb_pick_steps(&t, steps);
            rigid++;
            if (vb_pick_step(steps, ns, pick->dt) < 0 && rc == VB_EXIT_OK) {
                char list[1024];
                vb_pick_steps_text(steps, ns, list, sizeof list);
                char asked[32];
                vb_error(CMD, "--dt %s: %s/%s/polhode.csv has the fixed steps %s (to 0.1 %%)",
                         dt_text(pick->dt, asked), results, cases[i], list);
                rc = VB_EXIT_USAGE;
            }
            vb_csv_free(&t);
        }
        if (keep)
            cases[kept++] = cases[i];
        else
            free(cases[i]);
    }
    *n = kept;
    for (size_t k = 0; k < nn && rc == VB_EXIT_OK; k++)
        if (!met[k]) {
            vb_error(CMD, "--methods: no case in %s has a method '%s'", results, names[k]);
            rc = VB_EXIT_USAGE;
        }
    if (rc == VB_EXIT_OK && pick->dt > 0.0 && !rigid) {
        vb_error(CMD, "--dt: no case drawn from %s is a rigid body's: --dt picks the step of a "
                      "rigid body's polhode and angvel-time charts, which run records at every "
                      "fixed step; every other chart is of the coarsest step",
                 results);
        rc = VB_EXIT_USAGE;
    }
    return rc;
}

/* No case of RESULTS has chart data: say what it has.  A run with
 * --no-chart-data writes a case's tables (runs.csv, summary.md) and none
 * of the files draw reads (convergence.csv, grid.csv, polhode.csv). */
static void nothing_to_draw(const char *results)
{
    size_t tables = 0;
    struct dirent **ents = NULL;
    int ne = scandir(results, &ents, NULL, alphasort);
    for (int i = 0; i < ne; i++) {
        char p[PATH_MAX * 2];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s/runs.csv", results, ents[i]->d_name);
        tables += ents[i]->d_name[0] != '.' && stat(p, &st) == 0 && S_ISREG(st.st_mode);
        free(ents[i]);
    }
    free(ents);
    if (tables)
        vb_error(CMD,
                 "%s/: %zu case%s with %s tables (runs.csv) but no chart data (convergence.csv, "
                 "grid.csv or polhode.csv): run without --no-chart-data to draw %s",
                 results, tables, tables == 1 ? "" : "s", tables == 1 ? "its" : "their",
                 tables == 1 ? "it" : "them");
    else
        vb_error(CMD, "no case results in %s/: no case directory with a runs.csv (run "
                      "'make results' or verletbench run first)",
                 results);
}

static int results_dir(const char *results, const char *out, unsigned jobs, const vb_pick *pick)
{
    struct stat st;
    if (stat(results, &st) != 0 || !S_ISDIR(st.st_mode)) {
        vb_error(CMD, "%s: no such directory (run 'make results' first)", results);
        return VB_EXIT_USAGE;
    }
    char **cases;
    size_t n = vb_drawn_cases(results, &cases);
    char err[2048];
    int status = VB_EXIT_OK;
    vb_batch *batches = NULL;
    if (n == 0) {
        nothing_to_draw(results);
        status = VB_EXIT_USAGE;
        goto done;
    }
    size_t every = n;
    if ((status = pick_cases(results, cases, &n, pick)) != VB_EXIT_OK)
        goto done;
    /* REPORT.md is every case's: a draw that --methods narrowed to some of
     * them leaves it as it is, rather than write one of the cases drawn in
     * place of every case's (a draw of all, with --methods or --dt, writes
     * it, and it says which methods and step its charts show) */
    int whole = n == every;
    if (whole && vb_report_writable(results, err, sizeof err) != 0) {
        vb_error(CMD, "%s", err);
        status = VB_EXIT_USAGE;
        goto done;
    }
    int draw = vb_gnuplot_found();
    if (!draw)
        fprintf(stderr, "verletbench draw: charts skipped: gnuplot not found (install it with: "
                        "apt-get install gnuplot-nox); the tables in %s/ are complete\n",
                results);
    size_t failed = 0, drawn = 0;
    if (draw) {
        batches = calloc(n, sizeof *batches);
        if (!batches) {
            vb_error(CMD, "out of memory");
            status = VB_EXIT_FAIL;
            goto done;
        }
        for (size_t i = 0; i < n; i++) {
            char dir[PATH_MAX * 2];
            snprintf(dir, sizeof dir, "%s/%s", out, cases[i]);
            if (vb_make_dir(dir, err, sizeof err) != 0) {
                vb_error(CMD, "%s", err);
                status = VB_EXIT_FAIL;
                goto done;
            }
            if (vb_case_charts(results, out, cases[i], pick, &batches[i]) != 0) {
                vb_error(CMD, "out of memory");
                status = VB_EXIT_FAIL;
                goto done;
            }
        }
        chart_locale();
        failed = vb_draw_batches(batches, n, jobs, out);
        for (size_t i = 0; i < n; i++)
            drawn += batches[i].drawn;
    }
    if (whole && vb_write_report(results, out, cases, n, draw ? batches : NULL, err, sizeof err) != 0) {
        vb_error(CMD, "could not write %s/REPORT.md: %s", results, err);
        status = VB_EXIT_FAIL;
        goto done;
    }
    char report[PATH_MAX + 128];
    snprintf(report, sizeof report,
             whole ? "report in %s/REPORT.md"
                   : "%s/REPORT.md left as it was (--methods drew some of its cases; a "
                     "draw of all writes it)",
             results);
    if (failed) {
        vb_error(CMD, "%zu chart(s) failed (see above); %s", failed, report);
        status = VB_EXIT_FAIL;
    } else if (draw) {
        printf("draw: %zu charts of %zu case%s in %s/; %s\n", drawn, n, n == 1 ? "" : "s", out,
               report);
    }
done:
    for (size_t i = 0; batches && i < n; i++)
        vb_batch_free(&batches[i]);
    free(batches);
    for (size_t i = 0; i < n; i++)
        free(cases[i]);
    free(cases);
    return status;
}

int vb_cmd_draw(int argc, char **argv)
{
    vb_shared_opts so = vb_shared_opts_plain();
    int article_flag = 0, chart_flag = 0, palette_flag = 0;
    vb_pick pick = {0};
    const vb_option rows[] = {
        VB_OPT_DOUBLE_ABOVE("dt", "X", &pick.dt, 0.0, DBL_MAX, "%s must be a step > 0",
                            "a rigid body's polhode and angvel-time at the\n"
                            "fixed step X (one of the case's dt, dt/2, ..., to\n"
                            "0.1 %; run records them all), not the coarsest;\n"
                            "a step a case has not is refused, naming its steps.\n"
                            "Every other chart is of the coarsest step"),
        VB_OPT_STRING("methods", "A,B,...", &pick.methods,
                      "only these methods' curves (and the exact one) in\n"
                      "every chart; a case with none of them is not drawn,\n"
                      "a name no case has is refused"),
        VB_OPT_FLAG("article", &article_flag,
                    "the figures of docs/article.md from RESULTS/article-*\n"
                    "(default OUT: plots/article)"),
        /* what follows --chart and --palette is theirs, even a '-' */
        VB_OPT_STOP("chart", "KIND TABLE OUT [TITLE] [ARGS]", &chart_flag,
                    "one chart of one table, into OUT (.png,\n"
                    "or .svg); KIND is one of convergence, band, work (TABLE:\n"
                    "NAME/convergence.csv), work-time (timing.csv), error-time,\n"
                    "energy-time, constraint-time (timeseries.csv), path\n"
                    "(paths.csv; ARGS: PLAN 'INTEGRATOR ...' single|grid), rates,\n"
                    "apex (rates.csv), grid-order, grid-error (grid.csv; ARGS:\n"
                    "K2=V2,... of a grid of several keys), longrun (longrun.csv of\n"
                    "`verletbench longrun`), stability (stability-summary.csv),\n"
                    "float32 (a float32 sweep, docs/float32.md; ARGS:\n"
                    "INTEGRATOR), polhode, angvel-time (polhode.csv),\n"
                    "attitude-time, invariants-time (rigid_timeseries.csv:\n"
                    "a rigid body's), bounces (bounces.csv), tunnel (contact.csv\n"
                    "of a tunnel case), roll-time (motion.csv: a body on the\n"
                    "ground), creep (contact.csv of a body that must stick),\n"
                    "roll-map (grid.csv of a roll grid over alpha and mu),\n"
                    "stack-stand (grid.csv of a stack grid over its ratio, and\n"
                    "the stacks of the same boxes beside it), stack-cost\n"
                    "(grid.csv of a stack grid over ratio and substeps, with\n"
                    "its grid over ratio and iterations beside it)"),
        VB_OPT_STOP("palette", "NAME...", &palette_flag,
                    "the colour and gnuplot point type a chart gives each curve\n"
                    "named (a built-in's, or yours among these names)"),
        VB_SHARED_JOBS(&so, "gnuplots at once (default: every CPU)"),
        VB_OPT_HELP,
        VB_OPT_END,
    };
    const vb_command_spec spec = {
        .name = CMD,
        .options = rows,
        .operands = VB_OPERANDS_ANY,
        .usage =
            "Usage: verletbench draw [RESULTS [OUT]] [--dt X] [--methods A,B] [-j N]\n"
            "       verletbench draw --article [RESULTS [OUT]]\n"
            "       verletbench draw [--dt X] [--methods A,B] --chart KIND TABLE OUT.png [TITLE]\n"
            "                        [ARGS]\n"
            "       verletbench draw --palette NAME...\n\n"
            "Draws every chart of the case directories in RESULTS (default: results), as\n"
            "written by `verletbench run`, into OUT/NAME/*.png, and writes RESULTS/REPORT.md\n"
            "with each case's table beside its charts.  OUT defaults to plots for results\n"
            "(make's layout) and to RESULTS/plots for any other RESULTS, so the charts of\n"
            "another run never replace make's.  A case's charts:\n"
            "convergence, band, error-time, energy-time, constraint-time (a model with rods),\n"
            "path, path-random, work, rates and apex (a case with [loop] rates: the drawn\n"
            "error, and the highest drawn point against the exact apex, against display\n"
            "rate), work-time (with run --timing); a grid's own directory (docs/cases.md):\n"
            "grid-order and grid-error against its parameter; a rigid body's case\n"
            "(docs/rigid.md): polhode, angvel-time (w1, w2, w3 against time: the flip),\n"
            "attitude-time and invariants-time (energy and world angular momentum); a case\n"
            "with a [contact] (docs/contact.md): bounces (the height reached after each\n"
            "bounce, against the exact e^2n h0) or tunnel (each handler's passing speed\n"
            "against dt, with the bound (w + 2r)/dt); a rigid body on the ground: roll-time\n"
            "(v and w R against time at 1/60 s), creep (a body that must stick: its creep\n"
            "against dt), and a roll grid over alpha and mu's own directory: roll-map; a\n"
            "stack grid over its mass ratio's: stack-stand (how long the stack stands\n"
            "against the ratio at 1/60 s, with the stacks of the same boxes beside it), and\n"
            "over ratio and substeps': stack-cost (drift against N substeps of 1 iteration\n"
            "and 1 step of N iterations, the grid over iterations beside it).\n"
            "--dt and --methods pick the step and\n"
            "the curves: draw --dt 0.025 --methods rigid-rk4,rigid-euler RESULTS (a draw\n"
            "that --methods narrows to some of the cases leaves REPORT.md, every case's,\n"
            "as it was).  Needs\n"
            "gnuplot (Debian: gnuplot-nox; GNUPLOT=path to choose one); without it the\n"
            "report is written with the tables only.\n\n"
            "verletbench decides what each chart shows and writes its gnuplot program;\n"
            "one gnuplot a CPU draws them (-j N: N at once).  --article, --chart and\n"
            "--palette are one at a time; the words after --chart or --palette are its\n"
            "own, even one that starts with '-'.\n\n",
        .epilogue = "\nExit status: 0 drawn (or skipped without gnuplot), 1 a chart failed, 2 bad "
                    "usage\nor no results.\n",
    };
    int first, rc = vb_options_parse(&spec, argc, argv, &first);
    if (rc != VB_OPTIONS_GO)
        return rc;
    if (article_flag + chart_flag + palette_flag > 1)
        return vb_usage_error(CMD, "--article, --chart and --palette are one at a time");
    char err[512];
    if (pick.methods && vb_pick_list_ok(pick.methods, err, sizeof err) != 0)
        return vb_usage_error(CMD, "--methods %s", err);
    size_t commas = 0;
    for (const char *s = pick.methods; s && *s; s++)
        commas += *s == ',';
    if (commas >= VB_OPT_LIST_MAX)
        return vb_usage_error(CMD, "--methods: %zu names, at most %d", commas + 1, VB_OPT_LIST_MAX);
    if ((pick.dt > 0.0 || pick.methods) && (article_flag || palette_flag))
        return vb_usage_error(CMD, "--dt and --methods pick what the charts of a results directory "
                                   "or of --chart draw, not --article's or --palette's");
    int rest = argc - first;
    char **a = argv + first;
    if (chart_flag)
        return one_chart(rest, a, so.threads, &pick);
    if (palette_flag)
        return palette(rest, a);
    if (rest > 2)
        return vb_usage_error(CMD, "unexpected argument '%s'", a[2]);
    const char *results = rest > 0 ? a[0] : "results";
    if (article_flag)
        return article(results, rest > 1 ? a[1] : "plots/article");
    /* make's results/ is drawn into plots/; any other directory into its
     * own plots/, beside its tables */
    char own[PATH_MAX + 16];
    if (vb_charts_dir(results, own, sizeof own) != 0)
        return vb_usage_error(CMD, "%.80s...: path too long", results);
    return results_dir(results, rest > 1 ? a[1] : own, so.threads, &pick);
}
