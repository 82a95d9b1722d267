/* commands/draw.c — `verletbench draw`: every chart of a results directory
 * and its REPORT.md; the article's figures; or one chart of one table.
 *
 * The C code decides what each chart draws (draw/charts.h) and writes its
 * gnuplot program; gnuplot, one process for many charts, only draws.  No
 * script is looked for: the binary holds everything, so a chart command
 * works from any directory, installed or not. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "casecharts.h"
#include "cli.h"
#include "drawing.h"
#include "names.h"
#include "palette.h"
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

static int one_chart(int argc, char **argv, unsigned jobs)
{
    (void)jobs;
    if (argc < 3)
        return vb_usage_error(CMD, "--chart needs KIND TABLE OUT");
    int kind = vb_kind_of(argv[0]);
    if (kind < 0)
        return vb_usage_error(CMD, "--chart %s: no such chart (see --help)", argv[0]);
    const char *table = argv[1], *out = argv[2];
    const char *title = "", *arg = NULL, *integ = NULL, *layout = NULL;
    int rest = argc - 3;
    char **a = argv + 3;
    if (kind == VB_KIND_FLOAT32) {
        if (rest < 1)
            return vb_usage_error(CMD, "--chart float32 needs the INTEGRATOR after OUT");
        arg = a[0];
        title = rest > 1 ? a[1] : "";
        if (rest > 2)
            return vb_usage_error(CMD, "unexpected argument '%s'", a[2]);
    } else if (kind == VB_KIND_PATH) {
        title = rest > 0 ? a[0] : "";
        arg = rest > 1 && a[1][0] ? a[1] : "fixed";
        integ = rest > 2 && a[2][0] ? a[2] : NULL;
        layout = rest > 3 && a[3][0] ? a[3] : NULL;
        if (layout && strcmp(layout, "grid") && strcmp(layout, "single"))
            return vb_usage_error(CMD, "--chart path: layout '%s': single or grid", layout);
        if (rest > 4)
            return vb_usage_error(CMD, "unexpected argument '%s'", a[4]);
    } else if (kind == VB_KIND_GRID_ORDER || kind == VB_KIND_GRID_ERROR) {
        title = rest > 0 ? a[0] : "";
        arg = rest > 1 ? a[1] : NULL;
        if (rest > 2)
            return vb_usage_error(CMD, "unexpected argument '%s'", a[2]);
    } else {
        title = rest > 0 ? a[0] : "";
        if (rest > 1)
            return vb_usage_error(CMD, "unexpected argument '%s'", a[1]);
    }
    if (!vb_gnuplot_found()) {
        vb_error(CMD, "gnuplot not found (install it with: apt-get install gnuplot-nox, or set "
                      "GNUPLOT)");
        return VB_EXIT_FAIL;
    }
    char dir[PATH_MAX];
    if (dir_of(out, dir, sizeof dir) != 0)
        return vb_usage_error(CMD, "%.80s...: path too long", out);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        vb_error(CMD, "%s: no such directory for the chart", dir);
        return VB_EXIT_USAGE;
    }
    vb_batch b = {0};
    if (vb_batch_add(&b, (vb_chart_kind)kind, table, out, title, arg, NULL, NULL) != 0 ||
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

static int results_dir(const char *results, const char *out, unsigned jobs)
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
        vb_error(CMD, "no case results in %s/ (run 'make results' first)", results);
        status = VB_EXIT_USAGE;
        goto done;
    }
    if (vb_report_writable(results, err, sizeof err) != 0) {
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
            if (vb_case_charts(results, out, cases[i], &batches[i]) != 0) {
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
    if (vb_write_report(results, out, cases, n, draw ? batches : NULL, err, sizeof err) != 0) {
        vb_error(CMD, "could not write %s/REPORT.md: %s", results, err);
        status = VB_EXIT_FAIL;
        goto done;
    }
    if (failed) {
        vb_error(CMD, "%zu chart(s) failed (see above); report in %s/REPORT.md", failed, results);
        status = VB_EXIT_FAIL;
    } else if (draw) {
        printf("draw: %zu charts of %zu case%s in %s/; report in %s/REPORT.md\n", drawn, n,
               n == 1 ? "" : "s", out, results);
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
    const vb_option rows[] = {
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
                    "INTEGRATOR), polhode (polhode.csv), attitude-time,\n"
                    "invariants-time (rigid_timeseries.csv: a rigid body's),\n"
                    "bounces (bounces.csv), tunnel (contact.csv of a tunnel case)"),
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
            "Usage: verletbench draw [RESULTS [OUT]] [-j N]\n"
            "       verletbench draw --article [RESULTS [OUT]]\n"
            "       verletbench draw --chart KIND TABLE OUT.png [TITLE] [ARGS]\n"
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
            "(docs/rigid.md): polhode, attitude-time and invariants-time (energy and world\n"
            "angular momentum); a case with a [contact] (docs/contact.md): bounces (the\n"
            "height reached after each bounce, against the exact e^2n h0) or tunnel (each\n"
            "handler's passing speed against dt, with the bound (w + 2r)/dt).  Needs\n"
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
    int rest = argc - first;
    char **a = argv + first;
    if (chart_flag)
        return one_chart(rest, a, so.threads);
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
    return results_dir(results, rest > 1 ? a[1] : own, so.threads);
}
