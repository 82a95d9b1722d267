/* compare.c — one case's tables against a baseline. */
#include "compare.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- a CSV file as `run` writes it: '#' lines, a header, plain fields ---- */

typedef struct {
    char *buf;
    char **comments;
    size_t n_comments;
    char **head;
    size_t ncol;
    char ***rows;
    size_t nrow;
} table;

static void table_free(table *t)
{
    for (size_t i = 0; i < t->nrow; i++)
        free(t->rows[i]);
    free(t->rows);
    free(t->head);
    free(t->comments);
    free(t->buf);
    memset(t, 0, sizeof *t);
}

/* split one line in place at commas; returns the number of fields */
static size_t split(char *line, char **field, size_t max)
{
    size_t n = 0;
    field[n++] = line;
    for (char *p = line; *p; p++)
        if (*p == ',') {
            *p = '\0';
            if (n < max)
                field[n++] = p + 1;
        }
    return n;
}

static int table_read(const char *path, table *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open", path);
        return -1;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    t->buf = malloc((size_t)len + 1);
    if (!t->buf || fread(t->buf, 1, (size_t)len, f) != (size_t)len) {
        fclose(f);
        snprintf(err, errlen, "%s: cannot read", path);
        table_free(t);
        return -1;
    }
    fclose(f);
    t->buf[len] = '\0';
    size_t lines = 1;
    for (long i = 0; i < len; i++)
        lines += t->buf[i] == '\n';
    t->comments = calloc(lines, sizeof *t->comments);
    t->rows = calloc(lines, sizeof *t->rows);
    if (!t->comments || !t->rows) {
        snprintf(err, errlen, "out of memory");
        table_free(t);
        return -1;
    }
    char *line = t->buf;
    size_t lineno = 0;
    while (line && *line) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        lineno++;
        if (line[0] == '#') {
            t->comments[t->n_comments++] = line;
        } else if (line[0]) {
            char *fields[64];
            size_t n = split(line, fields, 64);
            char **copy = malloc(n * sizeof *copy);
            if (!copy) {
                snprintf(err, errlen, "out of memory");
                table_free(t);
                return -1;
            }
            memcpy(copy, fields, n * sizeof *copy);
            if (!t->head) {
                t->head = copy;
                t->ncol = n;
            } else if (n != t->ncol) {
                snprintf(err, errlen, "%s:%zu: %zu fields, the header has %zu", path, lineno, n,
                         t->ncol);
                free(copy);
                table_free(t);
                return -1;
            } else {
                t->rows[t->nrow++] = copy;
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    if (!t->head) {
        snprintf(err, errlen, "%s: no header line", path);
        table_free(t);
        return -1;
    }
    return 0;
}

static int column(const table *t, const char *name)
{
    for (size_t i = 0; i < t->ncol; i++)
        if (strcmp(t->head[i], name) == 0)
            return (int)i;
    return -1;
}

static const char *cell(const table *t, size_t row, int col)
{
    return col >= 0 ? t->rows[row][col] : "";
}

/* ---- row keys ---- */

typedef struct {
    char key[160];
    size_t row;
    int matched;
} keyed;

static int by_key(const void *a, const void *b)
{
    return strcmp(((const keyed *)a)->key, ((const keyed *)b)->key);
}

static keyed *index_rows(const table *t, const int *cols, size_t ncols)
{
    keyed *k = calloc(t->nrow ? t->nrow : 1, sizeof *k);
    if (!k)
        return NULL;
    for (size_t r = 0; r < t->nrow; r++) {
        size_t used = 0;
        for (size_t c = 0; c < ncols; c++)
            used += (size_t)snprintf(k[r].key + used, sizeof k[r].key - used, "%s|",
                                     cell(t, r, cols[c]));
        k[r].row = r;
    }
    qsort(k, t->nrow, sizeof *k, by_key);
    return k;
}

/* ---- recording changes ---- */

static int record(vb_changes *out, const vb_change *c)
{
    /* fold rows of one case, integrator, plan and metric into the one that
     * changed most, so a broken method gives one line per metric, not 300 */
    for (size_t i = 0; i < out->n; i++) {
        vb_change *o = &out->v[i];
        if (o->kind == c->kind && !strcmp(o->case_name, c->case_name) &&
            !strcmp(o->integ, c->integ) && !strcmp(o->plan, c->plan) &&
            !strcmp(o->metric, c->metric)) {
            size_t rows = o->rows + c->rows;
            if (fabs(log(c->factor > 0 ? c->factor : 1)) > fabs(log(o->factor > 0 ? o->factor : 1)))
                *o = *c;
            o->rows = rows;
            return 0;
        }
    }
    if (out->n == out->cap) {
        size_t cap = out->cap ? 2 * out->cap : 64;
        vb_change *more = realloc(out->v, cap * sizeof *more);
        if (!more)
            return -1;
        out->v = more;
        out->cap = cap;
    }
    out->v[out->n++] = *c;
    return 0;
}

static void fill(vb_change *c, vb_change_kind kind, const char *name, const char *integ,
                 const char *plan, const char *metric)
{
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->rows = 1;
    snprintf(c->case_name, sizeof c->case_name, "%s", name);
    snprintf(c->integ, sizeof c->integ, "%s", integ);
    snprintf(c->plan, sizeof c->plan, "%s", plan);
    snprintf(c->metric, sizeof c->metric, "%s", metric);
}

static double number(const char *s)
{
    if (!s[0])
        return NAN;
    return strtod(s, NULL);
}

/* ---- the parameters the two were made with ---- */

/* The comment lines that fix what was run: "# model=..." and "# dt=...",
 * with a trace named by its file name only (the case may be given by
 * another path). */
static void provenance(const table *t, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < t->n_comments && used < len; i++) {
        const char *c = t->comments[i];
        if (strncmp(c, "# model=", 8) != 0 && strncmp(c, "# dt=", 5) != 0)
            continue;
        char line[1024];
        snprintf(line, sizeof line, "%s", c);
        char *tr = strstr(line, "trace=");
        if (tr) {
            char *end = strchr(tr, ' ');
            char *slash = NULL;
            for (char *p = tr + 6; *p && (!end || p < end); p++)
                if (*p == '/')
                    slash = p;
            if (slash)
                memmove(tr + 6, slash + 1, strlen(slash + 1) + 1);
        }
        used += (size_t)snprintf(out + used, len - used, "%s\n", line);
    }
}

/* ---- which errors carry a signal ---- */

/* The (integrator, plan, metric) triples with at least one error above the
 * round-off floor.  An order fitted to round-off alone (a conserved angular
 * momentum, an exact method's energy) is noise, and is not compared. */
typedef struct {
    char (*key)[160];
    size_t n, cap;
} keyset;

static int keyset_has(const keyset *k, const char *key)
{
    for (size_t i = 0; i < k->n; i++)
        if (!strcmp(k->key[i], key))
            return 1;
    return 0;
}

static int keyset_add(keyset *k, const char *integ, const char *plan, const char *metric)
{
    char key[160];
    snprintf(key, sizeof key, "%s|%s|%s|", integ, plan, metric);
    if (keyset_has(k, key))
        return 0;
    if (k->n == k->cap) {
        size_t cap = k->cap ? 2 * k->cap : 64;
        char(*more)[160] = realloc(k->key, cap * sizeof *more);
        if (!more)
            return -1;
        k->key = more;
        k->cap = cap;
    }
    memcpy(k->key[k->n++], key, sizeof key);
    return 0;
}

/* ---- runs.csv: every error of every run ---- */

static const char *const METRICS[] = {"err_pos_final", "err_pos_max",  "err_pos_rms",
                                      "err_vel_final", "err_vel_max",  "err_energy_max",
                                      "err_angmom_max"};
#define N_METRICS (sizeof METRICS / sizeof METRICS[0])

static int compare_runs(const table *b, const table *n, const char *name, const vb_tolerance *tol,
                        vb_changes *out, keyset *signal)
{
    int kb[4] = {column(b, "integrator"), column(b, "plan"), column(b, "level"), column(b, "seed")};
    int kn[4] = {column(n, "integrator"), column(n, "plan"), column(n, "level"), column(n, "seed")};
    keyed *ib = index_rows(b, kb, 4), *in = index_rows(n, kn, 4);
    if (!ib || !in) {
        free(ib);
        free(in);
        return -1;
    }
    int n_steps = column(n, "steps"), n_pscale = column(n, "pos_scale"),
        n_vscale = column(n, "vel_scale"), n_dt = column(n, "dt"), n_status = column(n, "status");
    int b_status = column(b, "status");
    for (size_t r = 0; r < n->nrow; r++) {
        keyed probe;
        snprintf(probe.key, sizeof probe.key, "%s", in[r].key);
        keyed *hit = bsearch(&probe, ib, b->nrow, sizeof *ib, by_key);
        size_t nr = in[r].row;
        const char *integ = cell(n, nr, kn[0]), *plan = cell(n, nr, kn[1]);
        vb_change c;
        if (!hit) {
            fill(&c, VB_NEW, name, integ, plan, "run");
            snprintf(c.dt, sizeof c.dt, "%s", cell(n, nr, n_dt));
            out->added++;
            if (record(out, &c) != 0)
                goto oom;
            continue;
        }
        hit->matched = 1;
        size_t br = hit->row;
        double steps = number(cell(n, nr, n_steps));
        double pscale = number(cell(n, nr, n_pscale)), vscale = number(cell(n, nr, n_vscale));
        const char *sb = cell(b, br, b_status), *sn = cell(n, nr, n_status);
        if (strcmp(sb, sn) != 0) {
            int worse = strcmp(sn, "ok") != 0;
            fill(&c, worse ? VB_WORSE : VB_BETTER, name, integ, plan, "status");
            snprintf(c.dt, sizeof c.dt, "%s", cell(n, nr, n_dt));
            snprintf(c.seed, sizeof c.seed, "%s", cell(n, nr, kn[3]));
            snprintf(c.before, sizeof c.before, "%s", sb);
            snprintf(c.after, sizeof c.after, "%s", sn);
            *(worse ? &out->worse : &out->better) += 1;
            if (record(out, &c) != 0)
                goto oom;
        }
        for (size_t m = 0; m < N_METRICS; m++) {
            int cb = column(b, METRICS[m]), cn = column(n, METRICS[m]);
            if (cb < 0 || cn < 0)
                continue;
            double eb = number(cell(b, br, cb)), en = number(cell(n, nr, cn));
            if (isnan(eb) && isnan(en))
                continue; /* the metric does not apply (no energy) */
            out->compared++;
            /* errors round-off alone can make over this many steps: it
             * grows like N^1.5 in a second-order ODE (Brouwer's law) */
            double scale = m < 3 ? pscale : m < 5 ? vscale : 1.0;
            if (!(scale > 0))
                scale = 1.0;
            double floor = tol->floor_ulps * DBL_EPSILON * pow(steps > 1 ? steps : 1, 1.5) * scale;
            if ((eb > floor || en > floor) && keyset_add(signal, integ, plan, METRICS[m]) != 0)
                goto oom;
            int worse, better;
            if (isnan(eb) || isnan(en)) {
                worse = isnan(en);
                better = !worse;
            } else {
                worse = en > eb * (1 + tol->rtol) && en > floor;
                better = eb > en * (1 + tol->rtol) && eb > floor;
            }
            if (!worse && !better)
                continue;
            fill(&c, worse ? VB_WORSE : VB_BETTER, name, integ, plan, METRICS[m]);
            snprintf(c.dt, sizeof c.dt, "%.6g", number(cell(n, nr, n_dt)));
            snprintf(c.seed, sizeof c.seed, "%s", cell(n, nr, kn[3]));
            snprintf(c.before, sizeof c.before, "%.4g", eb);
            snprintf(c.after, sizeof c.after, "%.4g", en);
            c.factor = (eb > 0 && isfinite(eb) && isfinite(en)) ? en / eb : 0.0;
            *(worse ? &out->worse : &out->better) += 1;
            if (record(out, &c) != 0)
                goto oom;
        }
    }
    for (size_t r = 0; r < b->nrow; r++)
        if (!ib[r].matched) {
            vb_change c;
            size_t br = ib[r].row;
            fill(&c, VB_MISSING, name, cell(b, br, kb[0]), cell(b, br, kb[1]), "run");
            snprintf(c.dt, sizeof c.dt, "%.6g", number(cell(b, br, column(b, "dt"))));
            out->missing++;
            if (record(out, &c) != 0)
                goto oom;
        }
    free(ib);
    free(in);
    return 0;
oom:
    free(ib);
    free(in);
    return -1;
}

/* ---- orders.csv: fitted orders and verdicts ---- */

/* how good a verdict is, to tell a better one from a worse one */
static int verdict_rank(const char *v)
{
    if (!strcmp(v, "exact"))
        return 4;
    if (!strcmp(v, "above-label"))
        return 3;
    if (!strcmp(v, "as-expected"))
        return 2;
    if (!strcmp(v, "below-label"))
        return 1;
    return 0; /* undetermined */
}

static int compare_orders(const table *b, const table *n, const char *name,
                          const vb_tolerance *tol, vb_changes *out, const keyset *signal)
{
    int kb[3] = {column(b, "integrator"), column(b, "plan"), column(b, "norm")};
    int kn[3] = {column(n, "integrator"), column(n, "plan"), column(n, "norm")};
    keyed *ib = index_rows(b, kb, 3), *in = index_rows(n, kn, 3);
    if (!ib || !in) {
        free(ib);
        free(in);
        return -1;
    }
    int ob = column(b, "order"), on = column(n, "order"), vb = column(b, "verdict"),
        vn = column(n, "verdict");
    for (size_t r = 0; r < n->nrow; r++) {
        keyed *hit = bsearch(&in[r], ib, b->nrow, sizeof *ib, by_key);
        if (!hit)
            continue; /* a new integrator: counted with its runs */
        hit->matched = 1;
        if (!keyset_has(signal, in[r].key))
            continue; /* fitted to round-off alone */
        size_t nr = in[r].row, br = hit->row;
        const char *verb = cell(b, br, vb), *vern = cell(n, nr, vn);
        double pb = number(cell(b, br, ob)), pn = number(cell(n, nr, on));
        out->compared++;
        int rank_b = verdict_rank(verb), rank_n = verdict_rank(vern);
        int worse, better;
        if (rank_b != rank_n) {
            worse = rank_n < rank_b;
            better = !worse;
        } else if (isfinite(pb) && isfinite(pn)) {
            worse = pn < pb - tol->order_tol;
            better = pn > pb + tol->order_tol;
        } else {
            worse = better = 0;
        }
        if (!worse && !better)
            continue;
        vb_change c;
        char metric[40];
        snprintf(metric, sizeof metric, "order %s", cell(n, nr, kn[2]));
        fill(&c, worse ? VB_WORSE : VB_BETTER, name, cell(n, nr, kn[0]), cell(n, nr, kn[1]),
             metric);
        snprintf(c.dt, sizeof c.dt, "all");
        snprintf(c.before, sizeof c.before, "%.2f %s", isfinite(pb) ? pb : 0.0, verb);
        snprintf(c.after, sizeof c.after, "%.2f %s", isfinite(pn) ? pn : 0.0, vern);
        if (!strcmp(verb, "exact"))
            snprintf(c.before, sizeof c.before, "exact");
        if (!strcmp(vern, "exact"))
            snprintf(c.after, sizeof c.after, "exact");
        *(worse ? &out->worse : &out->better) += 1;
        if (record(out, &c) != 0) {
            free(ib);
            free(in);
            return -1;
        }
    }
    free(ib);
    free(in);
    return 0;
}

int vb_compare_case(const char *base, const char *now, const char *name, const vb_tolerance *tol,
                    vb_changes *out, char *err, size_t errlen)
{
    char pb[4096], pn[4096];
    table rb, rn, ob, on;
    snprintf(pb, sizeof pb, "%s/%s/runs.csv", base, name);
    snprintf(pn, sizeof pn, "%s/%s/runs.csv", now, name);
    if (table_read(pb, &rb, err, errlen) != 0)
        return -1;
    if (table_read(pn, &rn, err, errlen) != 0) {
        table_free(&rb);
        return -1;
    }
    char provb[2048], provn[2048];
    provenance(&rb, provb, sizeof provb);
    provenance(&rn, provn, sizeof provn);
    if (strcmp(provb, provn) != 0) {
        snprintf(err, errlen,
                 "%s: the baseline was made with other parameters than cases/%s.case has now:\n"
                 "  baseline: %.400s  now:      %.400s"
                 "(a changed case needs a new baseline: make baseline)",
                 pb, name, provb, provn);
        table_free(&rb);
        table_free(&rn);
        return -1;
    }
    keyset signal = {0};
    int rc = compare_runs(&rb, &rn, name, tol, out, &signal);
    table_free(&rb);
    table_free(&rn);
    if (rc != 0) {
        free(signal.key);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    snprintf(pb, sizeof pb, "%s/%s/orders.csv", base, name);
    snprintf(pn, sizeof pn, "%s/%s/orders.csv", now, name);
    if (table_read(pb, &ob, err, errlen) != 0) {
        free(signal.key);
        return -1;
    }
    if (table_read(pn, &on, err, errlen) != 0) {
        free(signal.key);
        table_free(&ob);
        return -1;
    }
    rc = compare_orders(&ob, &on, name, tol, out, &signal);
    free(signal.key);
    table_free(&ob);
    table_free(&on);
    if (rc != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

static void print_kind(const vb_changes *c, vb_change_kind kind, const char *title, FILE *f)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n; i++)
        n += c->v[i].kind == kind;
    if (!n)
        return;
    fprintf(f, "\n%s:\n", title);
    if (kind == VB_MISSING || kind == VB_NEW) {
        fprintf(f, "  %-18s %-18s %-7s %s\n", "case", "integrator", "plan", "runs");
        for (size_t i = 0; i < c->n; i++)
            if (c->v[i].kind == kind)
                fprintf(f, "  %-18s %-18s %-7s %zu\n", c->v[i].case_name, c->v[i].integ,
                        c->v[i].plan, c->v[i].rows);
        return;
    }
    fprintf(f, "  %-18s %-18s %-7s %-10s %-5s %-26s %-24s %-24s %s\n", "case", "integrator",
            "plan", "dt", "seed", "metric", "baseline", "now", "change");
    for (size_t i = 0; i < c->n; i++) {
        const vb_change *v = &c->v[i];
        if (v->kind != kind)
            continue;
        char change[48] = "";
        if (v->factor > 0)
            snprintf(change, sizeof change, v->factor >= 1 ? "x%.3g" : "/%.3g",
                     v->factor >= 1 ? v->factor : 1 / v->factor);
        char more[48] = "";
        if (v->rows > 1)
            snprintf(more, sizeof more, " (worst of %zu)", v->rows);
        fprintf(f, "  %-18s %-18s %-7s %-10s %-5s %-26s %-24s %-24s %s%s\n", v->case_name,
                v->integ, v->plan, v->dt, v->seed[0] ? v->seed : "-", v->metric, v->before,
                v->after, change, more);
    }
}

void vb_changes_print(const vb_changes *c, FILE *f)
{
    print_kind(c, VB_WORSE, "WORSE than the baseline", f);
    print_kind(c, VB_MISSING, "MISSING: in the baseline, not run now", f);
    print_kind(c, VB_BETTER, "better than the baseline (not a failure; make baseline to keep it)",
               f);
    print_kind(c, VB_NEW, "new: no baseline to compare with", f);
}

void vb_changes_free(vb_changes *c)
{
    free(c->v);
    memset(c, 0, sizeof *c);
}
