/* request.c — what an engine gets on its standard input: the run as one
 * line of JSON (the model with its parameters and masses, the initial
 * state, the rods, a contact's scene, the plan and every step h_n), and
 * what `verletbench problem` writes. */
#include "engine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bodies.h"
#include "body.h"
#include "header.h"
#include "scene.h"

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void json_array(FILE *f, const double *a, size_t n)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%.17g", i ? "," : "", a[i]);
    fputc(']', f);
}

int vb_engine_write_request(FILE *f, const vb_model *m, const vb_plan_spec *plan)
{
    const vb_model_type *t = m->type;
    size_t n = m->n;
    double *xv = malloc(2 * n * sizeof *xv);
    vb_plan p;
    if (!xv || vb_plan_begin(&p, plan) != 0) {
        free(xv);
        return -1;
    }
    char header[2048];
    vb_engine_header(header, sizeof header, m, plan);
    t->initial(m->self, xv, xv + n);
    fputs("{\"kind\":\"run\",\"run\":", f);
    json_string(f, vb_engine_run_id(plan));
    fputs(",\"model\":", f);
    json_string(f, t->name);
    fputs(",\"params\":{", f);
    for (unsigned i = 0; i < t->n_params; i++) {
        fprintf(f, "%s", i ? "," : "");
        json_string(f, t->params[i].name);
        fprintf(f, ":%.17g", m->p[i]);
    }
    fputc('}', f);
    /* a rigid body (docs/real-engines.md §4.2): "protocol": 3 and a body
     * object in place of the particles; a body at a contact, a model with
     * a wall (§6.2): "protocol": 4 and the scene the engine builds, its
     * state the particles' (or the body's) */
    const vb_rigid_body *body = vb_engine_body_of(m);
    int stack = vb_engine_is_stack(m);
    int scene = vb_engine_at_contact(m);
    int protocol = scene  ? VB_ENGINE_PROTOCOL_CONTACT
                   : body ? VB_ENGINE_PROTOCOL_BODY
                          : VB_ENGINE_PROTOCOL;
    if (stack) {
        /* a stack of bodies on the ground (§7): "protocol": 5, its bodies
         * from the bottom up and the ground's contact, in place of the
         * particles (the boxes' centres, the model's face) */
        fprintf(f, ",\"protocol\":%d,", VB_ENGINE_PROTOCOL_STACK);
        vb_engine_write_stack(f, m);
    } else if (body) {
        fprintf(f, ",\"protocol\":%d,", protocol);
        vb_engine_write_body(f, body);
    } else {
        fprintf(f, ",\"dim\":%u,\"particles\":%zu,\"masses\":", t->dim, m->particles);
        json_array(f, m->mass, m->particles);
        fputs(",\"x0\":", f);
        json_array(f, xv, n);
        fputs(",\"v0\":", f);
        json_array(f, xv + n, n);
    }
    if (scene) {
        fputc(',', f);
        vb_engine_write_contact(f, m);
    }
    if (!body && !stack && vb_model_constrained(m)) {
        /* the rods an engine must keep: [i, j, L] with particles from 0,
         * j = -1 and the pivot's coordinates for a rod to a fixed point;
         * the force law is then gravity alone (docs/engines.md) */
        fputs(",\"rods\":[", f);
        for (size_t k = 0; k < m->cons.n; k++) {
            const vb_constraint *r = &m->cons.rod[k];
            fprintf(f, "%s{\"i\":%zu,\"j\":", k ? "," : "", r->i);
            if (r->j == VB_PIVOT) {
                fputs("-1,\"pivot\":", f);
                json_array(f, r->pivot, t->dim);
            } else {
                fprintf(f, "%zu", r->j);
            }
            fprintf(f, ",\"length\":%.17g}", r->length);
        }
        fputc(']', f);
    }
    fputs(",\"plan\":", f);
    json_string(f, vb_plan_name(plan->kind));
    fprintf(f, ",\"level\":%d,\"t_end\":%.17g", plan->level, vb_plan_t_end(plan));
    if (plan->kind == VB_PLAN_RANDOM)
        fprintf(f, ",\"seed\":%lu", plan->seed);
    /* protocol 2: the plan as fields, for an engine that must configure
     * itself (a fixed step, an accumulator) and for the record; the steps
     * in "h" stay the truth (docs/real-engines.md §1.3).  A version-1
     * engine's JSON reader ignores them. */
    if (!body && !stack) /* theirs is said above */
        fprintf(f, ",\"protocol\":%d", protocol);
    if (plan->kind != VB_PLAN_TRACE)
        fprintf(f, ",\"dt\":%.17g", plan->dt);
    if (plan->kind == VB_PLAN_RANDOM)
        fprintf(f, ",\"jitter\":%.17g", plan->jitter);
    if (plan->kind == VB_PLAN_TRACE) {
        fputs(",\"trace\":", f);
        json_string(f, plan->trace && plan->trace->path ? plan->trace->path : "?");
        fprintf(f, ",\"trace_scale\":%.17g", plan->trace_scale);
    }
    fputs(",\"header\":", f);
    json_string(f, header);
    /* the steps, as the built-in integrators take them */
    fputs(",\"h\":[", f);
    double h, tn, last = NAN;
    unsigned long long k = 0;
    char text[40] = "";
    while (vb_plan_next(&p, &h, &tn)) {
        /* formatting a double is most of a request's cost, and a fixed
         * plan repeats one step: its text is kept */
        if (!(h == last))
            snprintf(text, sizeof text, "%.17g", h);
        last = h;
        if (k++)
            fputc(',', f);
        fputs(text, f);
    }
    fprintf(f, "],\"steps\":%llu}", k);
    vb_plan_end(&p);
    free(xv);
    return ferror(f) ? -1 : 0;
}
