/* casetables.c — one case's tables against a baseline: the two runs.csv made
 * with the same parameters, the baseline's orders.csv written with its
 * runs.csv, then each judged (judge.c); at least one run matched. */
#include "casetables.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"
#include "names.h"
#include "runs_table.h"

/* One '#' line of runs.csv against the same line of another table of the
 * same run: equal, but that the first says what the file holds ("runs of"
 * there, "WHAT of" here; output/provenance.c's lines, the same version,
 * commit and case). */
static int same_comment(const char *runs, const char *other, const char *what)
{
    const char *at = strstr(runs, ": runs of ");
    if (strncmp(runs, "# verletbench ", 14) != 0 || !at)
        return strcmp(runs, other) == 0;
    size_t n = (size_t)(at - runs), w = strlen(what);
    return strncmp(runs, other, n) == 0 && strncmp(other + n, ": ", 2) == 0 &&
           strncmp(other + n + 2, what, w) == 0 && strncmp(other + n + 2 + w, " of ", 4) == 0 &&
           strcmp(at + 10, other + n + 6 + w) == 0;
}

int vb_same_header(const vb_table *runs, const vb_table *other, const char *what, char *err,
                   size_t errlen)
{
    size_t n = runs->n_comments < other->n_comments ? runs->n_comments : other->n_comments;
    for (size_t i = 0; i < n; i++)
        if (!same_comment(runs->comments[i], other->comments[i], what))
            return vb_compare_bad(
                err, errlen,
                "%s:%lu: '%.200s' where %s:%lu has '%.200s': not written with that "
                "runs.csv; the baseline is damaged (make a new one with make baseline)",
                other->path, other->comment_line[i], other->comments[i], runs->path,
                runs->comment_line[i], runs->comments[i]);
    if (runs->n_comments > n)
        return vb_compare_bad(
            err, errlen,
            "%s: lacks the line '%.200s' of %s:%lu: not written with that runs.csv; the "
            "baseline is damaged (make a new one with make baseline)",
            other->path, runs->comments[n], runs->path, runs->comment_line[n]);
    if (other->n_comments > n)
        return vb_compare_bad(
            err, errlen,
            "%s:%lu: '%.200s', which %s lacks: not written with that runs.csv; the "
            "baseline is damaged (make a new one with make baseline)",
            other->path, other->comment_line[n], other->comments[n], runs->path);
    return 0;
}

int vb_rows_are_runs(const vb_table *t, const vb_schema *sc, const int *col,
                     const vb_table *runs, const char *what, char *err, size_t errlen)
{
    vb_table head = *t; /* the '#' lines that runs.csv has too */
    if (head.n_comments > runs->n_comments)
        head.n_comments = runs->n_comments;
    int rc = vb_same_header(runs, &head, what, err, errlen);
    int rcol[VB_SCHEMA_MAX_COLUMNS]; /* runs.csv's column of the same name, or -1 */
    for (size_t k = 0; k < sc->n && rc == 0; k++) {
        const char *name = vb_schema_name(sc, k);
        rcol[k] = -1;
        if (col[k] >= 0 && vb_schema_find(&vb_runs_schema, name) >= 0 &&
            vb_need_column(runs, name, &rcol[k], err, errlen) != 0)
            return VB_COMPARE_BAD;
    }
    for (size_t r = 0; r < t->nrow && r < runs->nrow && rc == 0; r++)
        for (size_t k = 0; k < sc->n && rc == 0; k++)
            if (rcol[k] >= 0 && strcmp(t->rows[r][col[k]], runs->rows[r][rcol[k]]) != 0)
                rc = vb_compare_bad(
                    err, errlen,
                    "%s:%lu: %s '%.60s' where the run of %s:%lu has '%.60s': %s holds "
                    "a row a run of runs.csv, in its order; the table is damaged (make "
                    "baseline)",
                    t->path, t->line[r], vb_schema_name(sc, k), t->rows[r][col[k]],
                    runs->path, runs->line[r], runs->rows[r][rcol[k]], sc->file);
    if (rc == 0 && t->nrow != runs->nrow)
        rc = vb_compare_bad(err, errlen,
                            "%s: %zu rows where %s has %zu runs%s: %s holds a row a "
                            "run; the table is damaged (make baseline)",
                            t->path, t->nrow, runs->path, runs->nrow,
                            t->nrow < runs->nrow ? ", the last ones missing" : "", sc->file);
    return rc;
}

int vb_parse_beside_runs(vb_text base, vb_text base_runs, vb_text now, vb_text now_runs,
                         vb_table t[4], char *err, size_t errlen)
{
    const vb_text text[4] = {base, base_runs, now, now_runs};
    for (int k = 0; k < 4; k++) {
        int rc = vb_table_parse(text[k], &t[k], err, errlen);
        if (rc != 0) {
            while (k-- > 0)
                vb_table_free(&t[k]);
            return rc;
        }
    }
    return 0;
}

void vb_free_beside_runs(vb_table t[4])
{
    for (int k = 0; k < 4; k++)
        vb_table_free(&t[k]);
}

int vb_schema_columns(const vb_table *t, const vb_schema *sc, unsigned view, int *col,
                      char *err, size_t errlen)
{
    size_t in_view = 0;
    for (size_t k = 0; k < sc->n; k++)
        in_view += vb_column_in(&sc->col[k], view) != 0;
    for (size_t j = 0; j < t->ncol && t->ncol != in_view; j++)
        if (vb_schema_find(sc, t->head[j]) < 0)
            return vb_compare_bad(err, errlen,
                                  "%s:%lu: column '%.60s' is not one of %s's: not a table "
                                  "verletbench wrote",
                                  t->path, t->head_line, t->head[j], sc->file);
    for (size_t k = 0; k < sc->n; k++) {
        col[k] = -1; /* a column of another view */
        if (vb_column_in(&sc->col[k], view) &&
            vb_need_column(t, sc->col[k].name, &col[k], err, errlen) != 0)
            return VB_COMPARE_BAD;
    }
    if (t->ncol != in_view) /* every one found and more: one named twice */
        return vb_compare_bad(err, errlen,
                              "%s:%lu: %zu columns where %s has %zu: one is named twice; not "
                              "a table verletbench wrote",
                              t->path, t->head_line, t->ncol, sc->file, in_view);
    return 0;
}

int vb_compare_tables(const char *name, const char *case_path, vb_text base_runs,
                      vb_text base_orders, vb_text now_runs, vb_text now_orders,
                      const vb_tolerance *tol, vb_changes *out, char *err, size_t errlen)
{
    return vb_compare_tables_ex(name, case_path, base_runs, base_orders, now_runs, now_orders,
                                tol, 0, out, err, errlen);
}

int vb_compare_tables_ex(const char *name, const char *case_path, vb_text base_runs,
                         vb_text base_orders, vb_text now_runs, vb_text now_orders,
                         const vb_tolerance *tol, unsigned flags, vb_changes *out, char *err,
                         size_t errlen)
{
    vb_table rb, rn, ob, on;
    int rc = vb_table_parse(base_runs, &rb, err, errlen);
    if (rc != 0)
        return rc;
    if ((rc = vb_table_parse(now_runs, &rn, err, errlen)) != 0) {
        vb_table_free(&rb);
        return rc;
    }
    char provb[2048], provn[2048];
    vb_table_provenance(&rb, flags, provb, sizeof provb);
    vb_table_provenance(&rn, flags, provn, sizeof provn);
    if (strcmp(provb, provn) != 0 && (flags & VB_COMPARE_SHARED_LEVELS)) {
        /* compare: two results directories, no baseline to remake */
        rc = vb_compare_bad(err, errlen,
                            "%s: made with other parameters than %s:\n"
                            "  old: %.400s  new: %.400s"
                            "(compare holds the same case run twice against each other: run "
                            "both from the same case file, or compare only the cases that "
                            "match by naming them)",
                            base_runs.path, now_runs.path,
                            provb[0] ? provb : "(no parameter lines)\n",
                            provn[0] ? provn : "(no parameter lines)\n");
        vb_table_free(&rb);
        vb_table_free(&rn);
        return rc;
    }
    if (strcmp(provb, provn) != 0) {
        rc = vb_compare_bad(err, errlen,
                            "%s: the baseline was made with other parameters than %s has now:\n"
                            "  baseline: %.400s  now:      %.400s"
                            "(a changed case needs a new baseline: make baseline)",
                            base_runs.path, case_path, provb[0] ? provb : "(no parameter lines)\n",
                            provn);
        vb_table_free(&rb);
        vb_table_free(&rn);
        return rc;
    }
    size_t compared0 = out->compared;
    vb_signal_set signal = {0};
    if ((rc = vb_table_parse(base_orders, &ob, err, errlen)) != 0) {
        vb_table_free(&rb);
        vb_table_free(&rn);
        return rc;
    }
    rc = vb_same_header(&rb, &ob, vb_case_files[VB_FILE_ORDERS].what, err, errlen);
    if (rc == 0)
        rc = vb_judge_runs(&rb, &rn, name, tol, flags, out, &signal, err, errlen);
    /* the signal records point into the runs tables: free them after */
    if (rc == 0 && (rc = vb_table_parse(now_orders, &on, err, errlen)) == 0) {
        rc = vb_judge_orders(&ob, &on, name, tol, out, &signal, err, errlen);
        vb_table_free(&on);
    }
    vb_table_free(&ob);
    free(signal.v);
    vb_table_free(&rb);
    vb_table_free(&rn);
    if (rc == 0 && out->compared == compared0)
        rc = vb_compare_bad(err, errlen,
                            "%s: no run of the baseline matches a run made now: nothing was "
                            "compared",
                            base_runs.path);
    return rc;
}

int vb_compare_gone(const char *name, vb_text base_runs, vb_changes *out, char *err,
                    size_t errlen)
{
    vb_table t;
    vb_run_set runs;
    int rc = vb_table_parse(base_runs, &t, err, errlen);
    if (rc != 0)
        return rc;
    if ((rc = vb_read_runs(&t, &runs, err, errlen)) == 0) {
        vb_change c;
        for (size_t i = 0; i < runs.n && rc == 0; i++) {
            vb_change_fill(&c, VB_MISSING, name, runs.r[i].integ, runs.r[i].plan, "run");
            out->missing++;
            if (vb_changes_record(out, &c) != 0)
                rc = vb_compare_oom(err, errlen);
        }
        free(runs.r);
    }
    vb_table_free(&t);
    return rc;
}
