/* pick.c — the rows a chart draws, picked by step and method (pick.h). */
#include "pick.h"
#include "numbers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "charts.h"

size_t vb_pick_steps(const vb_csv *t, double *out)
{
    int cp = vb_csv_col(t, VB_CHART_PLAN), cd = vb_csv_col(t, VB_CHART_DT);
    size_t n = 0;
    if (cp < 0 || cd < 0)
        return 0;
    for (size_t r = 0; r < t->n_rows; r++) {
        double dt = vb_csv_num(t, r, cd);
        if (strcmp(vb_csv_str(t, r, cp), "fixed") || !(dt > 0.0) || !isfinite(dt))
            continue;
        size_t k = 0;
        while (k < n && out[k] != dt)
            k++;
        if (k < n || n == VB_PICK_MAX_STEPS)
            continue;
        /* largest first */
        size_t at = n;
        while (at > 0 && out[at - 1] < dt) {
            out[at] = out[at - 1];
            at--;
        }
        out[at] = dt;
        n++;
    }
    return n;
}

void vb_pick_steps_text(const double *steps, size_t n, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < n && used < len; k++) {
        int w = snprintf(buf + used, len - used, "%s%.10g", k ? ", " : "", steps[k]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

int vb_pick_step(const double *steps, size_t n, double dt)
{
    if (dt == 0.0)
        return n ? 0 : -1;
    for (size_t k = 0; k < n; k++)
        if (fabs(steps[k] - dt) <= VB_PICK_STEP_TOL * steps[k])
            return (int)k;
    return -1;
}

int vb_pick_named(const char *methods, const char *m)
{
    size_t len = strlen(m);
    for (const char *s = methods; s && *s;) {
        const char *end = strchr(s, ',');
        size_t w = end ? (size_t)(end - s) : strlen(s);
        if (w == len && !strncmp(s, m, len))
            return 1;
        s = end ? end + 1 : NULL;
    }
    return 0;
}

size_t vb_pick_found(const vb_csv *t, const char *methods, char *missing, size_t len)
{
    int ci = vb_csv_col(t, VB_CHART_INTEGRATOR);
    size_t found = 0;
    missing[0] = '\0';
    for (const char *s = methods; s && *s;) {
        const char *end = strchr(s, ',');
        size_t w = end ? (size_t)(end - s) : strlen(s), r = 0;
        for (; ci >= 0 && r < t->n_rows; r++) {
            const char *m = vb_csv_str(t, r, ci);
            if (strlen(m) == w && !strncmp(m, s, w))
                break;
        }
        if (ci >= 0 && r < t->n_rows)
            found++;
        else if (!missing[0])
            snprintf(missing, len, "%.*s", (int)w, s);
        s = end ? end + 1 : NULL;
    }
    return found;
}

int vb_pick_list_ok(const char *methods, char *err, size_t errlen)
{
    const char *s = methods;
    for (;;) {
        const char *end = strchr(s, ',');
        size_t w = end ? (size_t)(end - s) : strlen(s);
        if (w == 0) {
            snprintf(err, errlen, "'%s': an empty name (the methods are separated by single "
                                  "commas, no spaces: --methods rigid-rk4,rigid-euler)",
                     methods);
            return -1;
        }
        for (size_t i = 0; i < w; i++)
            if (s[i] == ' ' || s[i] == '\t') {
                snprintf(err, errlen, "'%s': a space in a name (the methods are separated by "
                                      "single commas: --methods rigid-rk4,rigid-euler)",
                         methods);
                return -1;
            }
        if (!end)
            return 0;
        s = end + 1;
    }
}

int vb_pick_rows(const vb_csv *t, const vb_pick *pick, int one_step, vb_csv *out, double *dt,
                 char *err, size_t errlen)
{
    int ci = vb_csv_col(t, VB_CHART_INTEGRATOR), cp = vb_csv_col(t, VB_CHART_PLAN), cd = vb_csv_col(t, VB_CHART_DT);
    double want = 0.0;
    if (one_step) {
        double steps[VB_PICK_MAX_STEPS];
        size_t n = vb_pick_steps(t, steps);
        int k = vb_pick_step(steps, n, pick ? pick->dt : 0.0);
        if (k < 0) {
            char list[1024];
            vb_pick_steps_text(steps, n, list, sizeof list);
            /* the step asked as typed (0.05000001, not %g's 0.05) */
            char asked[32];
            vb_format_shortest(pick->dt, asked, sizeof asked);
            if (n)
                snprintf(err, errlen, "%s: no fixed step dt = %s: its steps are %s", t->path,
                         asked, list);
            else
                snprintf(err, errlen, "%s: no rows of the fixed plan with a step (dt)", t->path);
            return -1;
        }
        want = steps[k];
        if (dt)
            *dt = want;
    }
    unsigned char *keep = malloc(t->n_rows + 1);
    if (!keep) {
        snprintf(err, errlen, "%s: out of memory", t->path);
        return -1;
    }
    for (size_t r = 0; r < t->n_rows; r++) {
        const char *m = vb_csv_str(t, r, ci);
        int exact = ci >= 0 && !strcmp(m, "exact");
        int named = ci < 0 || !pick || !pick->methods || vb_pick_named(pick->methods, m);
        int step = !one_step || (!strcmp(vb_csv_str(t, r, cp), "fixed") &&
                                 vb_csv_num(t, r, cd) == want);
        keep[r] = exact || (named && step);
    }
    int rc = vb_csv_filter(t, keep, out);
    free(keep);
    if (rc != 0)
        snprintf(err, errlen, "%s: out of memory", t->path);
    return rc;
}
