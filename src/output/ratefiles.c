/* ratefiles.c — the frame-rate table written: a row a loop x integrator, frames
 * kind and display rate (rates.csv), and the spread across the rates
 * (summary.md). */
#include "ratefiles.h"

#include <math.h>

#include "columns.h"
#include "jobs.h"
#include "tables.h"

/* "y" for a 2-D model, "x" for a 1-D one: what the height is */
static void height_name(const vb_model *m, char *buf, size_t len)
{
    vb_state_component(buf, len, m, "", vb_rate_height_index(m));
}

static void list_rates(const vb_case *c, FILE *f)
{
    for (int i = 0; i < c->n_rates; i++)
        fprintf(f, "%s%g", i ? ", " : "", c->rates[i]);
}

void vb_write_rates(const vb_sweep *s, FILE *f)
{
    const vb_case *c = s->c;
    char y[64];
    height_name(&c->model, y, sizeof y);
    fputs("# display rates ", f);
    list_rates(c, f);
    fprintf(f, " Hz over t_end = %.17g; frames fixed (t_end/N, N = ceil(t_end rate))", c->t_end);
    if (c->jitter > 0.0)
        fprintf(f, " and random (dt (1 + %g u), seed 1)", c->jitter);
    fprintf(f, ";\n# the height is %s; err_final: the drawn position at t_end against the exact; "
               "y_max: the highest drawn %s, y_max_exact: the truth's at the same frames\n",
            y, y);
    fputs("integrator,plan,rate_hz,dt,frames,status,err_final,y_max,y_max_exact,err_y_max,"
          "err_energy_max,err_draw_max\n",
          f);
    for (size_t k = 0; k < s->n_rates; k++) {
        const vb_rate_row *r = &s->rates[k];
        fprintf(f, "%s,%s,%.17g,%.17g,%llu,%s", c->integ[r->integ]->name, vb_plan_name(r->kind),
                r->rate, r->dt, r->frames, vb_status_name(r->status));
        vb_csv_number(f, r->err_final);
        vb_csv_number(f, r->y_max);
        vb_csv_number(f, r->y_max_exact);
        vb_csv_number(f, r->status == VB_STATUS_OK ? r->y_max - r->y_max_exact : (double)INFINITY);
        vb_csv_number(f, r->err_energy_max);
        vb_csv_number(f, r->err_draw_max);
        fputc('\n', f);
    }
}

static void cell(FILE *f, double x)
{
    if (isnan(x))
        fputs(" – |", f);
    else
        fprintf(f, " %.3g |", x);
}

void vb_write_rates_summary(const vb_sweep *s, FILE *f)
{
    const vb_case *c = s->c;
    if (!s->n_rates)
        return;
    char y[64];
    height_name(&c->model, y, sizeof y);
    fputs("The same scenario at display rates of ", f);
    list_rates(c, f);
    fprintf(f, " Hz (`rates.csv`): how far the rates spread, %s. Final position: the largest "
               "distance between the positions two rates draw at t_end; highest %s: the "
               "highest drawn %s, max − min over the rates; energy: the largest relative "
               "energy error, max − min. A fixed-step accumulator's physics is the same at "
               "every rate: what spreads is what it draws.\n\n",
            c->jitter > 0.0 ? "fixed and random frames" : "fixed frames", y, y);
    vb_plan_kind kind_of[3];
    int kinds = vb_sweep_rate_kinds(c, kind_of);
    /* the column named as the caption names it: "highest y" */
    fprintf(f, "| integrator | frames | final position | highest %s | energy |\n"
               "|---|---|---|---|---|\n",
            y);
    for (size_t i = 0; i < c->n_integ; i++)
        for (int kd = 0; kd < kinds; kd++) {
            vb_plan_kind kind = kind_of[kd];
            vb_rate_spread sp = vb_rate_spread_of(s, i, kind);
            if (!sp.rates && !isinf(sp.final))
                continue; /* an engine: not in the table */
            fprintf(f, "| `%s` | %s |", c->integ[i]->name, vb_plan_name(kind));
            cell(f, sp.final);
            cell(f, sp.y_max);
            cell(f, sp.energy);
            fputc('\n', f);
        }
    fputc('\n', f);
}
