/* bodies.c — a stack of bodies on the ground in the engine protocol,
 * version 5 (docs/real-engines.md §7; bodies.h): its request, its column
 * line, row 0 held to the request, and each row turned into the bodies'
 * states and the model's face. */
#include "bodies.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "body.h"
#include "capability.h"
#include "engine.h"
#include "process.h"
#include "rigid.h"
#include "scene.h"
#include "stack.h"

int vb_engine_is_stack(const vb_model *m) { return vb_stack_of(m) != NULL; }

void vb_engine_write_stack(FILE *f, const vb_model *m)
{
    const vb_stack *s = vb_stack_of(m);
    vb_body_contact c = {.mu_s = s->mu, .mu_k = s->mu, .restitution = 0.0};
    vb_stack_ground(s, &c.plane);
    vb_stack_shape(s, &c.shape);
    /* every body's box is the contact's shape, to the bit (§7) */
    double edges[3];
    for (int i = 0; i < 3; i++)
        edges[i] = 2.0 * c.shape.half[i];
    vb_rigid_props p;
    fputs("\"bodies\":[", f);
    for (int k = 0; k < s->n; k++) {
        vb_rigid_state st;
        vb_stack_props(s, k, &p);
        vb_stack_exact(s, k, 0.0, &st);
        if (k)
            fputc(',', f);
        vb_engine_write_body_object(f, &p, &st, edges);
    }
    fputs("],", f);
    vb_engine_write_ground_contact(f, &c, p.gravity); /* every box's gravity */
}

void vb_engine_stack_column(char *buf, size_t len, size_t col)
{
    if (col < 1) {
        snprintf(buf, len, "t");
        return;
    }
    snprintf(buf, len, "%s%zu", vb_engine_body_column((col - 1) % 13 + 1), (col - 1) / 13 + 1);
}

int vb_engine_stack_protocol(vb_engine_run *r, const vb_engine_caps *c)
{
    if (!r->stack)
        return 0;
    char refused[160];
    snprintf(refused, sizeof refused,
             "the request is a stack of bodies (model '%s': %d boxes on the ground); this engine "
             "takes none",
             r->m->type->name, r->stack->n);
    return vb_engine_rigid_caps(r, c, VB_ENGINE_PROTOCOL_STACK, refused, "a stack",
                                "a stack's rows carry each body's velocities", "7");
}

int vb_engine_stack_alloc(vb_engine_run *r)
{
    size_t n = (size_t)r->stack->n;
    r->stack_row = calloc(13 * n, sizeof *r->stack_row);
    r->stack_states = calloc(n, sizeof *r->stack_states);
    r->stack_q_prev = calloc(4 * n, sizeof *r->stack_q_prev);
    if (!r->stack_row || !r->stack_states || !r->stack_q_prev) {
        vb_engine_set_why(r, "out of memory");
        return -1;
    }
    return 0;
}

void vb_engine_stack_free(vb_engine_run *r)
{
    free(r->stack_row);
    free(r->stack_states);
    free(r->stack_q_prev);
    r->stack_row = NULL;
    r->stack_states = NULL;
    r->stack_q_prev = NULL;
}

/* body k's state (from 0) from its 13 numbers, w as the row has it turned
 * already (vb_engine_state_row) */
static void state_of(vb_rigid_state *st, const double *b)
{
    memcpy(st->x, b, 3 * sizeof *b);
    memcpy(st->q, b + 3, 4 * sizeof *b);
    memcpy(st->v, b + 7, 3 * sizeof *b);
    memcpy(st->w, b + 10, 3 * sizeof *b);
}

int vb_engine_stack_row0(vb_engine_run *r)
{
    for (int k = 0; k < r->stack->n; k++) {
        vb_rigid_state start;
        vb_stack_exact(r->stack, k, 0.0, &start);
        double *b = r->stack_row + 13 * (size_t)k;
        if (vb_engine_state_row0(r, &start, b, b + 7, r->stack_q_prev + 4 * k, k + 1) != 0)
            return -1;
        r->stack_states[k] = start;
    }
    return 0;
}

int vb_engine_stack_row(vb_engine_run *r, double t, double *x, double *v)
{
    for (int k = 0; k < r->stack->n; k++) {
        double *b = r->stack_row + 13 * (size_t)k;
        if (vb_engine_state_row(r, t, b, b + 7, r->stack_q_prev + 4 * k, k + 1) != 0)
            return -1;
        state_of(&r->stack_states[k], b);
        int finite = 1;
        for (int i = 0; i < 13; i++)
            finite = finite && isfinite(b[i]);
        for (int i = 0; i < 3; i++) {
            /* a NaN or an infinity anywhere in the body's row: its centre
             * NaN, so the driver stops the run as diverged */
            x[3 * k + i] = finite ? b[i] : (double)NAN;
            v[3 * k + i] = b[7 + i];
        }
    }
    return 0;
}
