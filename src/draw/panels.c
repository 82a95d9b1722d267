/* panels.c — the preamble the chart builders share (panels.h). */
#include "panels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpcharts.h"

int vb_panels_open(vb_panels *P, vb_chart *ch, const vb_csv *t, const char *const *need,
                   vb_panels_curves which, const char *samecol, char *err, size_t errlen)
{
    memset(P, 0, sizeof *P);
    P->ch = ch;
    P->f = ch->f;
    P->t = t;
    if (vb_csv_require(t, need, err, errlen) != 0 || vb_groups_make(t, &P->gs, err, errlen) != 0)
        return -1;
    vb_trace_title(t->comments, t->n_comments, P->trace, sizeof P->trace);
    if (which == VB_PANELS_GROUPS)
        return 0;
    size_t ns = 0;
    if (which == VB_PANELS_STEPSIZED) {
        P->picked = malloc((P->gs.n_series + 1) * sizeof *P->picked);
        ns = P->picked ? vb_stepsized(t, &P->gs, P->picked) : 0;
    }
    P->ny = malloc((t->n_rows + 1) * sizeof *P->ny);
    if ((which == VB_PANELS_STEPSIZED && !P->picked) || !P->ny ||
        vb_curves_init(&P->C, t, &P->gs, P->picked, ns, samecol) != 0) {
        snprintf(err, errlen, "%s: out of memory", t->path);
        return -1;
    }
    P->series = P->C.series;
    P->ns = P->C.ns;
    return 0;
}

void vb_panels_close(vb_panels *P)
{
    free(P->picked);
    free(P->ny);
    vb_curves_free(&P->C);
    vb_groups_free(&P->gs);
    P->picked = NULL;
    P->ny = NULL;
}

void vb_panels_log_ny(vb_panels *P, int col)
{
    for (size_t r = 0; r < P->t->n_rows; r++) {
        double y = vb_csv_num(P->t, r, col);
        P->ny[r] = isfinite(y) && y > 0 ? log10(y) : (double)NAN;
    }
}

int vb_panels_ny_range(const vb_panels *P, const vb_curves *C, const double *ny, size_t p,
                       double *lo, double *hi)
{
    (void)P;
    *lo = 1e300;
    *hi = -1e300;
    for (size_t s = 0; s < C->ns; s++) {
        const vb_group *g = vb_curve(C, p, s);
        for (size_t r = g ? g->first : 1; g && r <= g->last; r++)
            if (!isnan(ny[r])) {
                *lo = fmin(*lo, ny[r]);
                *hi = fmax(*hi, ny[r]);
            }
    }
    return *lo <= *hi ? 0 : -1;
}

void vb_panels_key(const vb_panels *P, const vb_curves *C, size_t p, size_t s, char *buf,
                   size_t len)
{
    (void)P;
    char note[512];
    vb_same_note(C, p, s, note, sizeof note);
    snprintf(buf, len, "%s%s", C->series[s], note);
}

size_t vb_panels_keychars(const vb_panels *P, const vb_curves *C, size_t least)
{
    char key[1024];
    size_t keychars = least;
    for (size_t p = 0; p < C->np; p++)
        for (size_t s = 0; s < C->ns; s++) {
            vb_panels_key(P, C, p, s, key, sizeof key);
            size_t l = vb_utf8_len(key);
            keychars = l > keychars ? l : keychars;
        }
    return keychars;
}

void vb_panels_key_right(const vb_panels *P, int width, size_t keychars, double canvas)
{
    fprintf(P->f, "set key outside right top vertical noenhanced nobox width %d samplen 2.5 "
                  "font \",10\"\n",
            width);
    vb_gp_margins(P->f, keychars, canvas);
}

void vb_panels_layout(const vb_panels *P, size_t rows, const char *title, const char *what)
{
    size_t n = strlen(title) + (what ? strlen(what) : 0) + 3;
    char *head = malloc(n);
    if (head)
        snprintf(head, n, "%s%s%s", title, title[0] && what ? ": " : "", what ? what : "");
    fprintf(P->f, "set multiplot layout %zu, 1 title ", rows);
    vb_gp_str(P->f, head ? head : title);
    fputs(" noenhanced font \",13\"\n", P->f);
    free(head);
}

void vb_panels_title(const vb_panels *P, const char *text)
{
    fputs("set title ", P->f);
    vb_gp_str(P->f, text);
    fputs(" noenhanced\n", P->f);
}

void vb_panels_plan_title(const vb_panels *P, const vb_curves *C, size_t p,
                          const char *random_title)
{
    vb_panels_title(P, vb_plan_title(C->plans[p], random_title, P->trace));
}

int vb_panels_blocks(vb_panels *P, const vb_curves *C, size_t p, vb_panels_row *row,
                     const void *arg)
{
    int first = P->ch->blocks + 1;
    for (size_t s = 0; s < C->ns; s++) {
        const vb_group *g = vb_curve(C, p, s);
        if (!g)
            continue;
        vb_gp_block_begin(P->ch);
        for (size_t r = g->first; r <= g->last; r++)
            row(P->f, P->t, r, arg);
        vb_gp_block_end(P->ch);
    }
    return first;
}

void vb_panels_row_xy(FILE *f, const vb_csv *t, size_t r, const void *arg)
{
    const int *c = arg;
    fprintf(f, "%s,%s\n", vb_csv_str(t, r, c[0]), vb_csv_str(t, r, c[1]));
}
