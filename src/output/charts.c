/* charts.c — the chart data of a sweep: tidy CSV, one row per point, for
 * the gnuplot scripts (plots/): convergence, the long runs' errors over
 * time, and the paths. */
#include "charts.h"

#include <math.h>

#include "engine.h"
#include "tables.h"

static const vb_band_row *find_band(const vb_sweep *s, size_t integ, int level, vb_norm norm)
{
    for (size_t k = 0; k < s->n_bands; k++)
        if (s->bands[k].integ == integ && s->bands[k].level == level && s->bands[k].norm == norm)
            return &s->bands[k];
    return NULL;
}

/* The mean force evaluations of the runs of one integrator, plan and level. */
static double mean_evals(const vb_sweep *s, size_t integ, vb_plan_kind kind, int level)
{
    double sum = 0.0;
    int n = 0;
    for (size_t k = 0; k < s->n_jobs; k++) {
        const vb_sweep_job *j = &s->jobs[k];
        if (j->integ == integ && j->kind == kind && j->level == level) {
            sum += (double)j->res.force_evals;
            n++;
        }
    }
    return n ? sum / n : (double)NAN;
}

static void order_text(FILE *f, const vb_order_row *r)
{
    if (r->verdict == VB_VERDICT_EXACT)
        fputs("exact", f);
    else if (r->verdict == VB_VERDICT_UNDETERMINED)
        fputs("undetermined", f);
    else
        fprintf(f, "%.2f%s", vb_order_shown(r->fit.order), r->fit.range == VB_RANGE_ALL ? "*" : "");
}

/* the name of integrator i, or "" for VB_SAME_NONE */
static const char *same_name(const vb_sweep *s, size_t i)
{
    return i == VB_SAME_NONE ? "" : s->c->integ[i]->name;
}

void vb_write_convergence(const vb_sweep *s, FILE *f)
{
    fputs("integrator,plan,level,dt,err_pos_max,p10,p90,force_evals,order,verdict,same_as,tol\n",
          f);
    for (size_t k = 0; k < s->n_orders; k++) {
        const vb_order_row *r = &s->orders[k];
        if (r->norm != VB_NORM_POS_MAX)
            continue;
        for (int l = 0; l < r->fit.n; l++) {
            const vb_band_row *b =
                r->kind == VB_PLAN_RANDOM ? find_band(s, r->integ, l, VB_NORM_POS_MAX) : NULL;
            /* an adaptive method's points are tolerances on frames of dt */
            int adaptive = r->x_tol;
            fprintf(f, "%s,%s,%d,%.17g,%.17g", s->c->integ[r->integ]->name, vb_plan_name(r->kind),
                    l, adaptive ? s->c->dt : r->dt[l], r->err[l]);
            vb_csv_number(f, b ? b->p10 : r->err[l]);
            vb_csv_number(f, b ? b->p90 : r->err[l]);
            vb_csv_number(f, mean_evals(s, r->integ, r->kind, l));
            fputc(',', f);
            order_text(f, r);
            fprintf(f, ",%s,%s,", vb_verdict_name(r->verdict),
                    same_name(s, s->same_as[r->integ * VB_N_PLANS + r->kind]));
            /* 0 for a method of fixed steps: gnuplot misreads an empty last field */
            fprintf(f, "%.17g\n", adaptive ? r->dt[l] : 0.0);
        }
    }
}

void vb_write_timeseries(const vb_sweep *s, FILE *f)
{
    const vb_series_set *set = &s->series;
    if (set->full)
        fprintf(f, "# long run: %g x t_end; each row is one step (--full-chart-data)\n",
                set->periods);
    else
        fprintf(f, "# long run: %g x t_end; each row is the maximum over one of %d equal windows\n",
                set->periods, VB_SERIES_WINDOWS);
    fprintf(f, "integrator,plan,dt,t,err_pos%s,same_as%s%s\n",
            set->has_energy ? ",err_energy" : "", set->has_energy ? ",energy_same_as" : "",
            set->has_constraint ? ",err_constraint" : "");
    for (size_t k = 0; k < set->n_series; k++) {
        const vb_series_row *r = &set->series[k];
        /* an engine without velocity has no energy: empty cells, which the
         * energy chart keys "(no velocity)" (draw/overtime.c) */
        int energy = set->has_energy &&
                     vb_sweep_caps(s->c, r->integ).velocity != VB_VELOCITY_NONE;
        for (size_t i = 0; i < r->n; i++) {
            /* ten digits: chart data, far finer than a pixel; keeps the files small */
            fprintf(f, "%s,%s,%.10g,%.10g,%.10g", s->c->integ[r->integ]->name,
                    vb_plan_name(r->kind), r->dt, r->t[i], r->err_pos[i]);
            if (energy)
                fprintf(f, ",%.10g", r->err_energy[i]);
            else if (set->has_energy)
                fputc(',', f);
            fprintf(f, ",%s", same_name(s, r->same_pos_as));
            if (set->has_energy)
                fprintf(f, ",%s", same_name(s, r->same_energy_as));
            if (set->has_constraint)
                fprintf(f, ",%.10g", r->err_constraint[i]);
            fputc('\n', f);
        }
    }
}

/* one row per point and body, the bodies of one integrator and plan one
 * after another (each body's path contiguous, for the charts); of more
 * than VB_PATH_SHOWN_MAX bodies, those a chart shows (series.h) */
void vb_write_paths(const vb_sweep *s, FILE *f)
{
    static const char *const axis[] = {"x", "y", "z"};
    const vb_model *m = &s->c->model;
    const vb_series_set *set = &s->series;
    unsigned dim = m->type->dim;
    size_t shown[VB_PATH_SHOWN_MAX];
    size_t nb = vb_path_bodies(m->particles, set->full, shown);
    if (set->full)
        fputs("# every step of every body (--full-chart-data)\n", f);
    else
        fprintf(f, "# every step while there are at most %d; past that, in each of %d windows of "
                   "time, the first, last, lowest and highest points%s\n",
                VB_PATH_POINTS, VB_PATH_COLUMNS,
                nb < m->particles ? "; the bodies a chart shows" : "");
    fputs("integrator,plan,dt,t", f);
    for (unsigned d = 0; d < dim; d++)
        fprintf(f, ",%s", axis[d]);
    fputs(",body\n", f);
    for (size_t k = 0; k < set->n_paths; k++) {
        const vb_path_row *r = &set->paths[k];
        const char *name = r->integ == VB_PATH_EXACT ? "exact" : s->c->integ[r->integ]->name;
        const char *plan = r->integ == VB_PATH_EXACT ? "exact" : vb_plan_name(r->kind);
        for (size_t j = 0; j < nb; j++) {
            size_t b = nb < m->particles ? shown[j] : j;
            for (size_t i = 0; i < r->n; i++) {
                fprintf(f, "%s,%s,%.10g,%.10g", name, plan, r->dt, r->t[i]);
                for (unsigned d = 0; d < dim; d++)
                    fprintf(f, ",%.10g", r->x[i * m->n + b * dim + d]);
                fprintf(f, ",%zu\n", b + 1);
            }
        }
    }
}

void vb_write_rigid_timeseries(const vb_sweep *s, FILE *f)
{
    const vb_series_set *set = &s->series;
    if (set->full)
        fputs("# each row is one step (--full-chart-data)\n", f);
    else
        fprintf(f, "# each row is the maximum over one of %d equal windows of t_end\n",
                VB_SERIES_WINDOWS);
    fputs("# err_att: the angle of q_exact* q (rad); err_energy: |E - E0| / |E0|; err_angmom: "
          "|L - L0| / |L0|, the world angular momentum about the centre of mass\n",
          f);
    fputs("integrator,plan,dt,t,err_att,err_energy,err_angmom\n", f);
    for (size_t k = 0; k < set->n_series; k++) {
        const vb_series_row *r = &set->series[k];
        for (size_t i = 0; i < r->n; i++)
            /* ten digits: chart data, far finer than a pixel */
            fprintf(f, "%s,%s,%.10g,%.10g,%.10g,%.10g,%.10g\n", s->c->integ[r->integ]->name,
                    vb_plan_name(r->kind), r->dt, r->t[i], r->err_att[i], r->err_energy[i],
                    r->err_angmom[i]);
    }
}

void vb_write_polhode(const vb_sweep *s, FILE *f)
{
    const vb_series_set *set = &s->series;
    const vb_rigid_body *b = s->c->profile.state.body; /* a case that measures an attitude's */
    const double *I = b->model.props.inertia;
    fprintf(f,
            "# energy ellipsoid I1 w1^2 + I2 w2^2 + I3 w3^2 = 2T and L sphere I1^2 w1^2 + I2^2 "
            "w2^2 + I3^2 w3^2 = L^2 of the exact start: I1=%.17g I2=%.17g I3=%.17g "
            "two_T=%.17g L2=%.17g w_period=%.17g\n",
            I[0], I[1], I[2], b->two_T, b->L2, set->w_period);
    fprintf(f, "# each method's w at %d fixed step%s of the sweep, the coarsest first (a finer "
               "one while its run takes at most %d steps; draw --dt picks one), and at the "
               "coarsest random step\n",
            set->path_levels, set->path_levels == 1 ? "" : "s", VB_PATH_LEVEL_STEPS);
    if (set->full)
        fputs("# w (body frame) at every step (--full-chart-data)\n", f);
    else
        fprintf(f,
                "# w (body frame) at every step while there are at most %d; past that, in each of "
                "%d windows of time, the first, last, lowest and highest points; the exact one "
                "over one period of w(t) (w_period) where that is shorter than t_end, at %d + 1 "
                "times\n",
                VB_PATH_POINTS, VB_PATH_COLUMNS, VB_PATH_POINTS);
    fputs("integrator,plan,dt,t,w1,w2,w3\n", f);
    for (size_t k = 0; k < set->n_paths; k++) {
        const vb_path_row *r = &set->paths[k];
        const char *name = r->integ == VB_PATH_EXACT ? "exact" : s->c->integ[r->integ]->name;
        const char *plan = r->integ == VB_PATH_EXACT ? "exact" : vb_plan_name(r->kind);
        for (size_t i = 0; i < r->n; i++)
            fprintf(f, "%s,%s,%.10g,%.10g,%.10g,%.10g,%.10g\n", name, plan, r->dt, r->t[i],
                    r->x[3 * i], r->x[3 * i + 1], r->x[3 * i + 2]);
    }
}
