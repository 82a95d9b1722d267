/* rows.c — the rows of the benchmark's table for one system: its fused
 * loop, then each integrator's modes, each against the system's own fused
 * loop (or the orbit's), and for a model without an exact solution its
 * reference and the grid of runs it serves. */
#include "rows.h"

#include <stdio.h>
#include <string.h>

#include "integrator.h"

/* the rows of one system: its fused loop, then each integrator's modes,
 * each against the system's own fused loop (or the orbit's) */
int vb_bench_system(vb_model *m, vb_timer *orbit_fused, const vb_integrator *const *list,
                    size_t n, const vb_bench_how *how, vb_bench_rows *out, char *err,
                    size_t errlen)
{
    vb_fused_kind fk = vb_fused_of(m);
    size_t np = m->particles;
    int repeat = how->repeat;
    unsigned long steps = how->pp_steps / np < 1000 ? 1000 : how->pp_steps / np;
    vb_timer own = {.md = VB_BENCH_FUSED, .fk = fk, .m = m, .h = how->h, .steps = steps};
    vb_timer *fused = orbit_fused;
    double nf = 1.0;
    const char *fused_on = "orbit";
    if (fk != VB_FUSED_NONE) {
        double ns, unused;
        if (vb_timer_init(&own) != 0 || vb_time_paired(&own, NULL, 1, 1, repeat, &ns, &unused) != 0)
            return -1;
        fused = &own;
        nf = (double)np;
        fused_on = m->type->name;
        snprintf(out->text[out->n++], sizeof out->text[0],
                 "%s,velocity-verlet,fused,%lu,%.3f,1.000,%zu,%.3f,%s", m->type->name, steps, ns,
                 np, ns / (double)np, fused_on);
    }
    for (size_t i = 0; i < n; i++) {
        const vb_integrator *g = list[i];
        vb_bench_mode modes[4];
        size_t nm = 0;
        if (how->modes & 1u << VB_BENCH_SINGLE)
            modes[nm++] = VB_BENCH_SINGLE;
        if (how->modes & 1u << VB_BENCH_SIM)
            modes[nm++] = VB_BENCH_SIM;
        if ((how->modes & 1u << VB_BENCH_GSL) && !strcmp(g->name, "rk4"))
            modes[nm++] = VB_BENCH_GSL;
        for (size_t k = 0; k < nm && out->n < VB_BENCH_MAX_ROWS; k++) {
            vb_timer t = {.md = modes[k], .fk = fk, .g = g, .m = m, .h = how->h, .steps = steps};
            double ns, ratio;
            if (vb_timer_init(&t) != 0 ||
                vb_time_paired(&t, fused, (double)np, nf, repeat, &ns, &ratio) != 0) {
                snprintf(err, errlen, "%s %s on %s failed", vb_bench_mode_name[modes[k]], g->name,
                         m->type->name);
                return -1;
            }
            snprintf(out->text[out->n++], sizeof out->text[0], "%s,%s,%s,%lu,%.3f,%.3f,%zu,%.3f,%s",
                     m->type->name, g->name, vb_bench_mode_name[modes[k]],
                     steps, ns, ratio, np,
                     ns / (double)np, fused_on);
        }
    }
    if (!m->type->exact && (how->modes & 1u << VB_BENCH_REFERENCE) &&
        out->n + 2 <= VB_BENCH_MAX_ROWS) {
        size_t n_integ = 0;
        vb_timer ref = {.md = VB_BENCH_REFERENCE, .fk = fk, .m = m};
        vb_timer grid = {.md = VB_BENCH_GRID, .fk = fk, .m = m, .n_integ = &n_integ};
        double ns_ref, ns_grid, r_ref, r_grid;
        if (vb_timer_init(&ref) != 0 || vb_timer_init(&grid) != 0 ||
            vb_time_paired(&ref, fused, (double)np, nf, repeat, &ns_ref, &r_ref) != 0 ||
            vb_time_paired(&grid, fused, (double)np, nf, repeat, &ns_grid, &r_grid) != 0) {
            snprintf(err, errlen, "the reference solution of %s failed", m->type->name);
            return -1;
        }
        snprintf(out->text[out->n++], sizeof out->text[0],
                 "%s,rk8pd,reference,%d,%.3f,%.3f,%zu,%.3f,%s", m->type->name, VB_REF_GRID, ns_ref,
                 r_ref, np, ns_ref / (double)np, fused_on);
        snprintf(out->text[out->n++], sizeof out->text[0], "%s,%zu,grid,%d,%.3f,%.3f,%zu,%.3f,%s",
                 m->type->name, n_integ, VB_REF_GRID, ns_grid, r_grid, np, ns_grid / (double)np,
                 fused_on);
    }
    return 0;
}

int vb_bench_orbit(vb_timer *orbit_fused, const vb_model *orbit, double mu, unsigned long steps,
                   int repeat, vb_bench_rows *out)
{
    *orbit_fused = (vb_timer){.md = VB_BENCH_FUSED, .fk = VB_FUSED_ORBIT, .m = orbit, .mu = mu,
                              .steps = steps};
    double fused, unused;
    if (vb_timer_init(orbit_fused) != 0 ||
        vb_time_paired(orbit_fused, NULL, 1, 1, repeat, &fused, &unused) != 0)
        return -1;
    snprintf(out->text[out->n++], sizeof out->text[0],
             "orbit,velocity-verlet,fused,%lu,%.3f,1.000,1,%.3f,orbit", steps, fused, fused);
    return 0;
}
