/* casedirs.c — results directories compared a case at a time: a case
 * rerun now against its directory in the baseline (check), and a case of
 * two directories that runs wrote (compare), by the rules of casetables.h. */
#include "casedirs.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "contact_table.h"
#include "contact_judge.h"
#include "contact_orders_judge.h"
#include "flips_judge.h"
#include "names.h"
#include "stack_judge.h"
#include "write.h"

/* The tables of a case beside runs.csv and orders.csv that check judges,
 * each written for a case that measures what it needs (names.c): a
 * handler's contact measures, a body's contact measures' orders, a rigid
 * body's flips, the runs on a stack of boxes. */
typedef int table_judge(const char *name, vb_text base, vb_text now, vb_text base_runs,
                        vb_text now_runs, const vb_tolerance *tol, unsigned flags,
                        vb_changes *out, char *err, size_t errlen);
static const struct {
    int file; /* names.h's */
    table_judge *judge;
} judged[] = {{VB_FILE_CONTACT, vb_compare_contact},
              {VB_FILE_CONTACT_ORDERS, vb_compare_contact_orders},
              {VB_FILE_FLIPS, vb_compare_flips},
              {VB_FILE_STACKS, vb_compare_stacks}};
#define N_JUDGED (sizeof judged / sizeof judged[0])

/* A case that writes table j: the table made now against the baseline's,
 * which it must have (a baseline without one was made before check read
 * it, or by hand: its measures would go unjudged), each beside its
 * runs.csv. */
static int check_table(size_t j, const char *base, const vb_case *c, const vb_sweep *s,
                       vb_text base_runs, vb_text now_runs, const vb_tolerance *tol,
                       vb_changes *changes, char *err, size_t errlen)
{
    const char *file = vb_case_files[judged[j].file].file;
    char p[4096 + 80], now_name[80];
    char *bt = NULL, *nt = NULL;
    size_t lb, ln;
    snprintf(p, sizeof p, "%s/%s/%s", base, c->name, file);
    snprintf(now_name, sizeof now_name, "(this run's %s)", file);
    if (vb_read_file(p, VB_TABLE_LIMIT, &bt, &lb, err, errlen) != 0)
        return VB_COMPARE_BAD;
    if (vb_sweep_table_text(s, file, &nt, &ln) != 0) {
        free(bt);
        return vb_compare_oom(err, errlen);
    }
    int rc = judged[j].judge(c->name, (vb_text){p, bt, lb}, (vb_text){now_name, nt, ln},
                             base_runs, now_runs, tol, 0, changes, err, errlen);
    free(bt);
    free(nt);
    return rc;
}

/* Compare one case's fresh sweep with BASE/NAME/{runs,orders}.csv (and
 * the tables of judged[] the case writes). */
int vb_check_case(const char *base, const vb_case *c, const vb_sweep *s,
                  const vb_tolerance *tol, vb_changes *changes, char *err, size_t errlen)
{
    char pr[4096 + 80], po[4096 + 80];
    char *br = NULL, *bo = NULL, *nr = NULL, *no = NULL;
    size_t lbr, lbo, lnr, lno;
    snprintf(pr, sizeof pr, "%s/%s/runs.csv", base, c->name);
    snprintf(po, sizeof po, "%s/%s/orders.csv", base, c->name);
    int rc = VB_COMPARE_BAD;
    if (vb_read_file(pr, VB_TABLE_LIMIT, &br, &lbr, err, errlen) != 0 ||
        vb_read_file(po, VB_TABLE_LIMIT, &bo, &lbo, err, errlen) != 0)
        goto done;
    if (vb_sweep_table_text(s, "runs.csv", &nr, &lnr) != 0 ||
        vb_sweep_table_text(s, "orders.csv", &no, &lno) != 0) {
        rc = VB_COMPARE_OOM;
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    rc = vb_compare_tables(c->name, c->path, (vb_text){pr, br, lbr}, (vb_text){po, bo, lbo},
                           (vb_text){"(this run's runs.csv)", nr, lnr},
                           (vb_text){"(this run's orders.csv)", no, lno}, tol, changes, err,
                           errlen);
    for (size_t j = 0; j < N_JUDGED && rc == 0; j++) {
        unsigned needs = vb_case_files[judged[j].file].needs;
        if ((c->profile.measures & needs) == needs)
            rc = check_table(j, base, c, s, (vb_text){pr, br, lbr},
                             (vb_text){"(this run's runs.csv)", nr, lnr}, tol, changes, err,
                             errlen);
    }
done:
    free(br);
    free(bo);
    free(nr);
    free(no);
    return rc;
}

/* The points the baseline holds of the case files given that they run no
 * more (the grid narrowed from k = 1, 2, 3 to k = 1, 2, or one key
 * swapped for another): BASE/NAME@... directories of a file NAME that are
 * none of its points now.  Each of their runs is missing, as a dropped
 * integrator's are.  0, or a VB_COMPARE_ code with the message. */
int vb_check_gone_points(const char *base, const vb_case_set *set, FILE *report,
                         vb_changes *changes, char *err, size_t errlen)
{
    struct dirent **ents = NULL;
    int n_ents = scandir(base, &ents, NULL, alphasort), rc = 0;
    if (n_ents < 0) {
        snprintf(err, errlen, "--baseline %s: %s", base, strerror(errno));
        return VB_COMPARE_BAD;
    }
    for (size_t f = 0; f < set->n_files && rc == 0; f++) {
        const vb_case_file *cf = &set->file[f];
        const char *name = cf->points[0].grid ? cf->points[0].grid->name : cf->points[0].name;
        size_t len = strlen(name);
        for (int e = 0; e < n_ents && rc == 0; e++) {
            const char *d = ents[e]->d_name;
            if (strncmp(d, name, len) != 0 || d[len] != '@')
                continue;
            size_t k = 0;
            while (k < cf->n && strcmp(cf->points[k].name, d) != 0)
                k++;
            char path[4096 + 300];
            snprintf(path, sizeof path, "%s/%s/runs.csv", base, d);
            if (k < cf->n || access(path, F_OK) != 0)
                continue; /* a point run now, or not a case directory */
            char *text = NULL;
            size_t n;
            rc = vb_read_file(path, VB_TABLE_LIMIT, &text, &n, err, errlen) != 0
                     ? VB_COMPARE_BAD
                     : vb_compare_gone(d, (vb_text){path, text, n}, changes, err, errlen);
            free(text);
            if (rc == 0 && report)
                fprintf(report,
                        "  %-22s MISSING (a point of %s's grid in the baseline, run no more)\n", d,
                        cf->points[0].path);
        }
    }
    for (int e = 0; e < n_ents; e++)
        free(ents[e]);
    free(ents);
    return rc;
}

/* DIR/NAME/runs.csv is a regular file: NAME is a case of DIR */
int vb_results_has_case(const char *dir, const char *name)
{
    char p[8192];
    struct stat st;
    if (snprintf(p, sizeof p, "%s/%s/runs.csv", dir, name) >= (int)sizeof p)
        return 0;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int by_string(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The case directories of OLD and NEW together, sorted, each once. */
char **vb_results_cases(const char *old, const char *new_dir, size_t *n)
{
    char **names = NULL;
    size_t cap = 0;
    *n = 0;
    const char *dirs[2] = {old, new_dir};
    for (int k = 0; k < 2; k++) {
        DIR *d = opendir(dirs[k]);
        if (!d)
            continue;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.' || !vb_results_has_case(dirs[k], e->d_name))
                continue;
            if (*n == cap) {
                cap = cap ? 2 * cap : 64;
                char **more = realloc(names, cap * sizeof *more);
                if (!more)
                    break;
                names = more;
            }
            if (!(names[*n] = strdup(e->d_name)))
                break;
            (*n)++;
        }
        closedir(d);
    }
    if (*n)
        qsort(names, *n, sizeof *names, by_string);
    size_t w = 0;
    for (size_t i = 0; i < *n; i++) {
        if (w && !strcmp(names[w - 1], names[i]))
            free(names[i]);
        else
            names[w++] = names[i];
    }
    *n = w;
    return names;
}

/* The runs a runs.csv holds: its lines that are neither '#' nor the header. */
static size_t count_runs(const char *text)
{
    size_t n = 0;
    int header = 1;
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        if (*p != '#' && *p != '\n') {
            if (header)
                header = 0;
            else
                n++;
        }
        if (!e)
            break;
        p = e + 1;
    }
    return n;
}

/* OLD/NAME/FILE against NEW/NAME/FILE for each table of judged[]: both
 * or neither (a case that measures what it needs writes one), each
 * beside its runs.csv. */
static int compare_tables(const char *old, const char *new_dir, const char *name,
                          vb_text old_runs, vb_text new_runs, const vb_tolerance *tol,
                          vb_changes *changes, char *err, size_t errlen)
{
    int rc = 0;
    for (size_t j = 0; j < N_JUDGED && rc == 0; j++) {
        char p[2][8192];
        char *t[2] = {NULL, NULL};
        size_t len[2];
        int has[2];
        for (int k = 0; k < 2; k++) {
            snprintf(p[k], sizeof p[k], "%s/%s/%s", k ? new_dir : old, name,
                     vb_case_files[judged[j].file].file);
            has[k] = access(p[k], F_OK) == 0;
        }
        if (!has[0] && !has[1])
            continue;
        if (has[0] != has[1])
            return vb_compare_bad(err, errlen,
                                  "%s: no such file, where %s has one: not the same case",
                                  p[has[0]], p[!has[0]]);
        for (int k = 0; k < 2 && rc == 0; k++)
            if (vb_read_file(p[k], VB_TABLE_LIMIT, &t[k], &len[k], err, errlen) != 0)
                rc = VB_COMPARE_BAD;
        if (rc == 0)
            rc = judged[j].judge(name, (vb_text){p[0], t[0], len[0]},
                                 (vb_text){p[1], t[1], len[1]}, old_runs, new_runs, tol,
                                 VB_COMPARE_SHARED_LEVELS, changes, err, errlen);
        free(t[0]);
        free(t[1]);
    }
    return rc;
}

/* One case on both sides, or on one: into *changes.  0, or VB_COMPARE_BAD
 * or VB_COMPARE_OOM with err said. */
int vb_compare_case(const char *old, const char *new_dir, const char *name,
                    const vb_tolerance *tol, vb_changes *changes, char *err, size_t errlen)
{
    char path[4][8192];
    char *text[4] = {NULL, NULL, NULL, NULL};
    size_t len[4];
    static const char *const file[2] = {"runs.csv", "orders.csv"};
    int in_old = vb_results_has_case(old, name), in_new = vb_results_has_case(new_dir, name),
        rc = 0;
    for (int k = 0; k < 4; k++) {
        snprintf(path[k], sizeof path[k], "%s/%s/%s", k < 2 ? old : new_dir, name, file[k % 2]);
        if ((k < 2 ? in_old : in_new) &&
            vb_read_file(path[k], VB_TABLE_LIMIT, &text[k], &len[k], err, errlen) != 0) {
            rc = VB_COMPARE_BAD;
            goto done;
        }
    }
    if (in_old && in_new) {
        rc = vb_compare_tables_ex(name, path[2], (vb_text){path[0], text[0], len[0]},
                                  (vb_text){path[1], text[1], len[1]},
                                  (vb_text){path[2], text[2], len[2]},
                                  (vb_text){path[3], text[3], len[3]}, tol,
                                  VB_COMPARE_SHARED_LEVELS, changes, err, errlen);
        if (rc == 0)
            rc = compare_tables(old, new_dir, name, (vb_text){path[0], text[0], len[0]},
                                 (vb_text){path[2], text[2], len[2]}, tol, changes, err,
                                 errlen);
    } else if (vb_changes_add_case(changes, in_old ? VB_MISSING : VB_NEW, name,
                                   count_runs(in_old ? text[0] : text[2])) != 0) {
        snprintf(err, errlen, "out of memory");
        rc = VB_COMPARE_OOM;
    }
done:
    for (int k = 0; k < 4; k++)
        free(text[k]);
    return rc;
}
