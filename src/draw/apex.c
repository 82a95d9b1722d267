/* apex.c — the exact apex of a rates table's run (apex.h). */
#include "apex.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

/* samples a pass: two passes find the apex's time to (1/SAMPLES)^2 of the
 * run, its height to round-off (a smooth maximum is flat to first order) */
#define SAMPLES 20000

/* the highest height on [a, b] at SAMPLES + 1 times, in increasing t (the
 * exact solution may warm-start): its time in *at; NaN if a call failed */
static double scan(const vb_model *m, double a, double b, double *at)
{
    const vb_model_type *T = m->type;
    void *work = T->work_alloc ? T->work_alloc(m->self) : NULL;
    double *x = malloc(2 * m->n * sizeof *x), best = -INFINITY;
    /* the height is the first particle's last coordinate, as the rates
     * table records it (sweep/rates.c) */
    size_t h = T->dim - 1;
    for (int k = 0; x && k <= SAMPLES; k++) {
        double t = a + (b - a) * k / SAMPLES;
        if (T->exact(m->self, work, t, x, x + m->n) != 0 || !isfinite(x[h])) {
            best = (double)NAN;
            break;
        }
        if (x[h] > best) {
            best = x[h];
            *at = t;
        }
    }
    if (!x)
        best = (double)NAN;
    free(x);
    if (work && T->work_free)
        T->work_free(work);
    return best;
}

int vb_exact_apex(char *const *comments, size_t n, double *apex)
{
    const char *line = NULL;
    for (size_t i = 0; i < n && !line; i++)
        if (strncmp(comments[i], "# model=", 8) == 0)
            line = comments[i] + 2;
    if (!line)
        return -1;
    char *copy = strdup(line), *save = NULL;
    if (!copy)
        return -1;
    vb_model m = {0};
    double t_end = (double)NAN;
    int ok = 1, have = 0;
    char err[256];
    for (char *tok = strtok_r(copy, " ", &save); tok && ok; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq)
            continue;
        *eq = '\0';
        const char *key = tok, *value = eq + 1;
        if (!strcmp(key, "model")) {
            const vb_model_type *T = vb_model_find(value);
            ok = T && T->exact;
            if (ok) {
                vb_model_defaults(&m, T);
                have = 1;
            }
        } else if (!strcmp(key, "t_end")) {
            t_end = strtod(value, NULL);
        } else if (have) {
            ok = vb_model_set(&m, key, value, err, sizeof err) == 0;
        }
    }
    free(copy);
    if (!ok || !have || !(t_end > 0) || vb_model_setup(&m, err, sizeof err) != 0)
        return -1;
    double at = 0, step = t_end / SAMPLES;
    double top = scan(&m, 0, t_end, &at);
    if (!isnan(top))
        top = fmax(top, scan(&m, fmax(0, at - step), fmin(t_end, at + step), &at));
    vb_model_free(&m);
    if (isnan(top))
        return -1;
    *apex = top;
    return 0;
}
