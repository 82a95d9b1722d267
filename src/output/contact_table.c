/* contact_table.c — the columns of contact.csv: a contact handler's run's
 * measures and their exact values (docs/contact.md, "Metrics").  A cell
 * that does not apply (the slide's stop on a bounce) is blank; inf is a
 * measure that never came (no rest by the run's end, no passing speed up
 * to 1000 times the bound) or an exact answer that is infinite. */
#include "contact_table.h"

#include <stddef.h>

#include "results.h"

#define ROW(p) ((const vb_runs_row *)(p))
#define CONTACT(f) offsetof(vb_contact_result, f)

static vb_cell model_name(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(ROW(row)->model->type->name);
}

static vb_cell integ_name(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(ROW(row)->integ->name);
}

static vb_cell plan_name(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(vb_plan_name(ROW(row)->plan->kind));
}

static vb_cell dt(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_x(ROW(row)->res->dt);
}

static vb_cell status(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(vb_status_name(ROW(row)->res->status));
}

/* a measure of vb_contact_result at col->at: NaN is blank */
static vb_cell measure(const vb_column *c, const void *t, const void *row)
{
    (void)t;
    double x = *(const double *)(const void *)((const char *)&ROW(row)->res->contact + c->at);
    return vb_cell_x_or_blank(x);
}

#define M(name, field) {name, VB_FMT_REAL, measure, CONTACT(field), 0, NULL, 0, VB_READ, 0, 0, 0, 0}

static const vb_column columns[] = {
    {"model", VB_FMT_TEXT, model_name, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    {"integrator", VB_FMT_TEXT, integ_name, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    {"plan", VB_FMT_TEXT, plan_name, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    {"dt", VB_FMT_REAL, dt, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    {"status", VB_FMT_TEXT, status, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    M("e_bounce1", e_bounce[0]),
    M("e_bounce2", e_bounce[1]),
    M("e_bounce3", e_bounce[2]),
    M("bounces", bounces),
    M("bounces_exact", bounces_exact),
    M("t_rest", t_rest),
    M("t_rest_exact", t_rest_exact),
    M("energy_gain_10", gain10),
    M("depth_max", depth_max),
    M("stop_x", stop_x),
    M("stop_x_exact", stop_x_exact),
    M("stop_t", stop_t),
    M("stop_t_exact", stop_t_exact),
    M("pass_speed", pass_speed),
    M("pass_bound", pass_bound),
};

const vb_schema vb_contact_schema = VB_SCHEMA("contact.csv", columns);

int vb_sweep_has_contact(const vb_sweep *s)
{
    for (size_t k = 0; k < s->n_jobs; k++)
        if (s->jobs[k].res.contact.has)
            return 1;
    return 0;
}

void vb_write_contact(const vb_sweep *s, FILE *f)
{
    vb_schema_header(f, &vb_contact_schema, 0);
    for (size_t k = 0; k < s->n_jobs; k++) {
        const vb_sweep_job *j = &s->jobs[k];
        if (!j->res.contact.has)
            continue;
        vb_runs_row row = {&s->c->model, s->c->integ[j->integ], &j->plan, &j->res, j->level};
        vb_schema_row(f, &vb_contact_schema, 0, NULL, &row);
    }
}
