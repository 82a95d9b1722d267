/* rows.c — the rows of the benchmark's table for one system: its fused
 * loop, then each integrator's modes, each against the system's own fused
 * loop (or the orbit's), and for a model without an exact solution its
 * reference and the grid of runs it serves. */
#include "rows.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "integrator.h"

#define ROW(p) ((const vb_bench_row *)(p))

/* the integrator, or the grid's count of the runs it serves */
static vb_cell integrator(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return ROW(row)->integrator ? vb_cell_s(ROW(row)->integrator) : vb_cell_u(ROW(row)->runs);
}

static vb_cell ns_per_particle_step(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_x(ROW(row)->ns / (double)ROW(row)->particles);
}

#define COLUMN(e, name, fmt, get, f)                                                               \
    [VB_COL_BENCH_##e] = {name, fmt, get, f, 0, NULL, 0, VB_READ, 0, 0, 0, 0}
#define AT(f) offsetof(vb_bench_row, f)
static const vb_column bench_columns[] = {
    COLUMN(MODEL, "model", VB_FMT_TEXT, vb_get_text, AT(model)),
    COLUMN(INTEGRATOR, "integrator", VB_FMT_COUNT, integrator, 0),
    COLUMN(MODE, "mode", VB_FMT_TEXT, vb_get_text, AT(mode)),
    COLUMN(STEPS, "steps", VB_FMT_COUNT, vb_get_count, AT(steps)),
    /* the median of the repeats, ns a step of the whole system */
    COLUMN(NS_PER_STEP, "ns_per_step", VB_FMT_FIX3, vb_get_real, AT(ns)),
    COLUMN(RATIO_TO_FUSED, "ratio_to_fused", VB_FMT_FIX3, vb_get_real, AT(ratio)),
    COLUMN(PARTICLES, "particles", VB_FMT_COUNT, vb_get_count, AT(particles)),
    COLUMN(NS_PER_PARTICLE_STEP, "ns_per_particle_step", VB_FMT_FIX3, ns_per_particle_step, 0),
    COLUMN(FUSED_ON, "fused_on", VB_FMT_TEXT, vb_get_text, AT(fused_on)),
};
const vb_schema vb_bench_schema = VB_SCHEMA("bench.csv", bench_columns);
_Static_assert(sizeof bench_columns / sizeof bench_columns[0] == VB_BENCH_COLUMNS,
               "a column of bench.csv without its line");

void vb_bench_write(FILE *f, const vb_bench_rows *rows)
{
    vb_schema_header(f, &vb_bench_schema, 0);
    for (size_t r = 0; r < rows->n; r++)
        vb_schema_row(f, &vb_bench_schema, 0, NULL, &rows->row[r]);
}

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
        out->row[out->n++] = (vb_bench_row){.model = m->type->name,
                                            .integrator = "velocity-verlet",
                                            .mode = vb_bench_mode_name[VB_BENCH_FUSED],
                                            .fused_on = fused_on,
                                            .steps = steps,
                                            .particles = np,
                                            .ns = ns,
                                            .ratio = 1.0};
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
            out->row[out->n++] = (vb_bench_row){.model = m->type->name,
                                                .integrator = g->name,
                                                .mode = vb_bench_mode_name[modes[k]],
                                                .fused_on = fused_on,
                                                .steps = steps,
                                                .particles = np,
                                                .ns = ns,
                                                .ratio = ratio};
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
        vb_bench_row row = {.model = m->type->name,
                            .mode = vb_bench_mode_name[VB_BENCH_REFERENCE],
                            .fused_on = fused_on,
                            .steps = VB_REF_GRID,
                            .particles = np};
        row.integrator = "rk8pd", row.ns = ns_ref, row.ratio = r_ref;
        out->row[out->n++] = row;
        /* the grid's integrator is the count of the runs it serves */
        row.integrator = NULL, row.runs = n_integ, row.mode = vb_bench_mode_name[VB_BENCH_GRID];
        row.ns = ns_grid, row.ratio = r_grid;
        out->row[out->n++] = row;
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
    out->row[out->n++] = (vb_bench_row){.model = orbit->type->name,
                                        .integrator = "velocity-verlet",
                                        .mode = vb_bench_mode_name[VB_BENCH_FUSED],
                                        .fused_on = orbit->type->name,
                                        .steps = steps,
                                        .particles = 1,
                                        .ns = fused,
                                        .ratio = 1.0};
    return 0;
}
