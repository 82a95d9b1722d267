/* body_table.c — body.csv on its schema (body_table.h). */
#include "body_table.h"

#include <stddef.h>

#include "results.h"

/* what a row holds: the body's numbers */
typedef struct {
    double I1, I2, I3, two_T, L2, w_period;
} body_row;

#define AT(f) offsetof(body_row, f)
#define COL(e, name, f)                                                                            \
    [VB_COL_BODY_##e] = {name, VB_FMT_REAL, vb_get_real, AT(f), 0, NULL, 0, VB_READ, 0, 0, 0, 0}
/* a CSV header's names are lower case (tests/test_schema.c): the moments
 * I1..I3 are inertia1..3, 2T and L^2 two_t and l_squared */
static const vb_column columns[] = {
    COL(INERTIA1, "inertia1", I1), COL(INERTIA2, "inertia2", I2), COL(INERTIA3, "inertia3", I3),
    COL(TWO_T, "two_t", two_T),    COL(L_SQUARED, "l_squared", L2),
    COL(W_PERIOD, "w_period", w_period),
};
#undef COL
#undef AT

const vb_schema vb_body_schema = VB_SCHEMA("body.csv", columns);
_Static_assert(sizeof columns / sizeof columns[0] == VB_BODY_COLUMNS,
               "a column of body.csv without its line");

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
