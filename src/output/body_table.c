/* body_table.c — body.csv on its schema (body_table.h). */
#include "body_table.h"

#include <stddef.h>

#include "results.h"

/* what a row holds: the body's numbers */
typedef struct {
    double I1, I2, I3, two_T, L2, w_period;
} body_row;

#define AT(f) offsetof(body_row, f)
#define COL(name, f) {name, VB_FMT_REAL, vb_get_real, AT(f), 0, NULL, 0, VB_READ, 0, 0, 0, 0}
static const vb_column columns[] = {
    COL("I1", I1),       COL("I2", I2), COL("I3", I3),
    COL("two_T", two_T), COL("L2", L2), COL("w_period", w_period),
};
#undef COL
#undef AT

const vb_schema vb_body_schema = VB_SCHEMA("body.csv", columns);

void vb_write_body(const vb_sweep *s, FILE *f)
{
    const vb_state_desc *st = &s->c->profile.state;
    const vb_rigid_body *b = st->body; /* a case that measures an attitude's */
    const double *I = b->model.props.inertia;
    /* w's period where w(t) returns, inf where it does not (the exact
     * path's span: series.h) */
    body_row row = {I[0], I[1], I[2], b->two_T, b->L2, st->path_period};
    vb_schema_header(f, &vb_body_schema, 0);
    vb_schema_row(f, &vb_body_schema, 0, NULL, &row);
}
