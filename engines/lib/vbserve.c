/* vbserve.c — see vbengine.h: vb_main, the engine's side of the protocol
 * round an adapter: its KEY=VALUE options, the loop that reads each
 * request (vbengine.c), runs it through the adapter and writes its
 * trajectory a row a step, and the capability line before them.  Build
 * with -ffp-contract=off, as vbengine.c. */
#define _POSIX_C_SOURCE 200809L
#include "vbengine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the rows ------------------------------------------------------------------- */

static void write_row(FILE *out, double t, const double *x, const double *v, size_t n)
{
    char num[32];
    vb_format(t, num);
    fputs(num, out);
    for (size_t i = 0; i < n; i++) {
        vb_format(x[i], num);
        fputc(',', out);
        fputs(num, out);
    }
    for (size_t i = 0; v && i < n; i++) {
        vb_format(v[i], num);
        fputc(',', out);
        fputs(num, out);
    }
    fputc('\n', out);
}

/* q or -q, whichever is nearer prev: one attitude, written without jumps */
static void continue_sign(double q[4], const double prev[4])
{
    if (q[0] * prev[0] + q[1] * prev[1] + q[2] * prev[2] + q[3] * prev[3] < 0.0)
        for (int i = 0; i < 4; i++)
            q[i] = -q[i];
}

static void write_columns(FILE *out, const vb_request *r, int velocity)
{
    static const char axes[] = "xyz";
    if (r->dim == 1 && r->particles == 1) {
        fputs(velocity ? "t,x,v\n" : "t,x\n", out);
        return;
    }
    fputc('t', out);
    for (int pass = 0; pass < 1 + velocity; pass++)
        for (size_t i = 0; i < r->particles; i++)
            for (int c = 0; c < r->dim; c++) {
                if (r->particles == 1)
                    fprintf(out, ",%s%c", pass ? "v" : "", axes[c]);
                else
                    fprintf(out, ",%s%c%zu", pass ? "v" : "", axes[c], i + 1);
            }
    fputc('\n', out);
}

/* ---- options -------------------------------------------------------------------- */

const char *vb_opt(const vb_option *opts, const char *key)
{
    for (; opts->key; opts++)
        if (!strcmp(opts->key, key))
            return opts->value;
    return NULL;
}

double vb_opt_num(const vb_option *opts, const char *key)
{
    const char *v = vb_opt(opts, key);
    return v ? strtod(v, NULL) : NAN;
}

static void usage(FILE *f, const vb_option *opts)
{
    for (const vb_option *o = opts; o->key; o++)
        fprintf(f, "%s%s=%s", o == opts ? "" : " ", o->key, o->choices ? o->choices : o->value);
}

/* 0, or 2 after a message */
static int set_options(const char *name, vb_option *opts, int argc, char **argv)
{
    for (vb_option *o = opts; o->key; o++)
        if (o->choices) { /* the first choice is the default: its text, kept */
            static char first[16][64];
            size_t k = strcspn(o->choices, "|"), slot = (size_t)(o - opts) % 16;
            snprintf(first[slot], sizeof first[slot], "%.*s", (int)k, o->choices);
            o->value = first[slot];
        }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *eq = strchr(a, '=');
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("usage: %s [", name);
            usage(stdout, opts);
            printf("] < request(s)\n(defaults first; the requests are JSON lines, "
                   "docs/engines.md and docs/real-engines.md)\n");
            exit(0);
        }
        size_t klen = eq ? (size_t)(eq - a) : strlen(a);
        vb_option *o = opts;
        while (o->key && !(strlen(o->key) == klen && !strncmp(o->key, a, klen)))
            o++;
        if (!o->key || !eq) {
            fprintf(stderr, "%s: unknown option '%s'; the options are: ", name, a);
            usage(stderr, opts);
            fputc('\n', stderr);
            return 2;
        }
        const char *val = eq + 1;
        int ok;
        if (o->choices) {
            size_t vl = strlen(val);
            const char *c = o->choices;
            ok = 0;
            while (*c && !ok) {
                size_t k = strcspn(c, "|");
                ok = vl && k == vl && !strncmp(c, val, k);
                c += k + (c[k] == '|');
            }
        } else {
            char *end;
            double d = strtod(val, &end);
            ok = *val && !*end && isfinite(d);
        }
        if (!ok) {
            fprintf(stderr, "%s: option %s: want %s\n", name, a,
                    o->choices ? o->choices : "a number");
            return 2;
        }
        o->value = val;
    }
    return 0;
}

/* ---- the loop ------------------------------------------------------------------- */

/* one request: 1 served, 0 served and the engine retires, -1 failed (err) */
static int serve(const vb_adapter *a, vb_request *r, FILE *out, char *err, size_t errlen)
{
    const int vel = !(a->velocity && !strcmp(a->velocity, "none"));
    void *world = a->make(r, a->ctx, err, errlen);
    if (!world)
        return -1;
    double *xv = malloc(2 * r->n * sizeof *xv);
    if (!xv) {
        a->destroy(world);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    fprintf(out, "%s\n", r->header);
    write_columns(out, r, vel);
    write_row(out, 0.0, r->x0, vel ? r->v0 : NULL, r->n);
    double t = 0.0;
    int aborted = 0, rc = 1;
    for (size_t k = 0; k < r->steps; k++) {
        double *x = xv, *v = xv + r->n;
        if (!aborted) {
            int s = a->step(world, r->h[k], x, v, err, errlen);
            if (s == VB_STEP_FAILED) {
                rc = -1;
                break;
            }
            if (s == VB_STEP_ABORTED) {
                aborted = 1;
                for (size_t i = 0; i < 2 * r->n; i++)
                    xv[i] = NAN;
            }
        }
        t += r->h[k];
        write_row(out, t, x, vel ? v : NULL, r->n);
    }
    if (rc > 0)
        fprintf(out, "# verletbench-end run=%s%s\n", r->run ? r->run : "?",
                aborted ? " retire=1" : "");
    /* an engine that aborted mid-step is in no state to be freed: the process
     * retires, and its end frees everything */
    if (!aborted)
        a->destroy(world);
    free(xv);
    return rc < 0 ? -1 : aborted ? 0 : 1;
}

/* the column line of a stack of n bodies: t, then body k's 13 columns with k
 * appended (x1, y1, z1, qw1, ..., wz1, x2, ...), body 1 the bottom; of one
 * rigid body (stack 0): t and its 13 columns */
static void write_rigid_columns(FILE *out, size_t n, int stack)
{
    static const char *const cols[13] = {"x",  "y",  "z",  "qw", "qx", "qy", "qz",
                                         "vx", "vy", "vz", "wx", "wy", "wz"};
    fputc('t', out);
    for (size_t k = 1; k <= n; k++)
        for (int c = 0; c < 13; c++) {
            if (stack)
                fprintf(out, ",%s%zu", cols[c], k);
            else
                fprintf(out, ",%s", cols[c]);
        }
    fputc('\n', out);
}

/* one request of a rigid body (protocol 3, 4) or of a stack of them
 * (protocol 5): 1 served, 0 served and the engine retires, -1 failed (err) */
static int serve_rigid(const vb_adapter *a, vb_request *r, FILE *out, char *err, size_t errlen)
{
    const int stack = r->has_stack;
    const vb_body *bs = stack ? r->bodies : &r->body;
    const size_t n = stack ? r->nbodies : 1;
    const int body_frame = a->angvel && !strcmp(a->angvel, "body");
    double *row = malloc(13 * n * sizeof *row), *prev = malloc(4 * n * sizeof *prev);
    void *world = row && prev ? a->make(r, a->ctx, err, errlen) : NULL;
    if (!world) {
        if (!row || !prev)
            snprintf(err, errlen, "out of memory");
        free(row);
        free(prev);
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        const vb_body *b = &bs[k];
        double *s = row + 13 * k;
        memcpy(s, b->x0, sizeof b->x0);
        memcpy(s + 3, b->q0, sizeof b->q0);
        memcpy(s + 7, b->v0, sizeof b->v0);
        memcpy(s + 10, body_frame ? b->w0_body : b->w0_world, 3 * sizeof *s);
        memcpy(prev + 4 * k, b->q0, sizeof b->q0);
    }
    fprintf(out, "%s\n", r->header);
    write_rigid_columns(out, n, stack);
    write_row(out, 0.0, row, NULL, 13 * n);
    double t = 0.0;
    int aborted = 0, rc = 1;
    for (size_t i = 0; i < r->steps; i++) {
        if (!aborted) {
            int s = stack ? a->step_stack(world, r->h[i], row, err, errlen)
                          : a->step_body(world, r->h[i], row, err, errlen);
            if (s == VB_STEP_FAILED) {
                rc = -1;
                break;
            }
            if (s == VB_STEP_ABORTED) {
                aborted = 1;
                for (size_t j = 0; j < 13 * n; j++)
                    row[j] = NAN;
            } else {
                for (size_t k = 0; k < n; k++) {
                    continue_sign(row + 13 * k + 3, prev + 4 * k);
                    memcpy(prev + 4 * k, row + 13 * k + 3, 4 * sizeof *prev);
                }
            }
        }
        t += r->h[i];
        write_row(out, t, row, NULL, 13 * n);
    }
    if (rc > 0)
        fprintf(out, "# verletbench-end run=%s%s\n", r->run ? r->run : "?", aborted ? " retire=1" : "");
    if (!aborted)
        a->destroy(world);
    free(row);
    free(prev);
    return rc < 0 ? -1 : aborted ? 0 : 1;
}

/* the protocol of the adapter's capability line */
static int protocol_of(const vb_adapter *a)
{
    return a->stack ? 5 : a->contact || a->body_contact ? 4 : a->step_body ? 3 : 2;
}

/* the request is for this engine: a rigid body to an engine of bodies, particles
 * to an engine of particles, a body at a contact to an engine of contacts; 0,
 * or -1 with err */
static int takes(const vb_adapter *a, const vb_request *r, char *err, size_t errlen)
{
    if (r->has_stack && !a->stack)
        snprintf(err, errlen, "the request is a stack of bodies ('bodies', model '%s'); this engine "
                              "takes none (protocol %d; a stack needs protocol 5)",
                 r->model ? r->model : "?", protocol_of(a));
    else if (r->has_stack)
        return 0;
    else if (a->stack && !a->body_contact && !a->contact && !a->step && !a->step_body)
        snprintf(err, errlen, "this engine takes a stack of bodies (protocol 5); the request "
                              "(model '%s') has no 'bodies'", r->model ? r->model : "?");
    else if (r->has_contact && r->has_body && !a->body_contact)
        snprintf(err, errlen, "the request is a rigid body at a contact ('contact' and 'body', "
                              "model '%s'); this engine takes %s (protocol %d)",
                 r->model ? r->model : "?",
                 a->contact ? (a->stack ? "particles at a contact and stacks only"
                                        : "particles at a contact only")
                            : a->stack ? "stacks only" : "none",
                 protocol_of(a));
    else if (r->has_contact && r->has_body)
        return 0;
    else if (r->has_contact && !a->contact)
        snprintf(err, errlen, "the request is a body at a contact ('contact'); this engine takes "
                              "none (protocol %d)", protocol_of(a));
    else if (!r->has_contact && a->body_contact)
        snprintf(err, errlen, "this engine takes a rigid body at a contact (protocol 4); the "
                              "request (model '%s') has no 'contact'", r->model ? r->model : "?");
    else if (!r->has_contact && a->contact)
        snprintf(err, errlen, "this engine takes a body at a contact (protocol 4); the request "
                              "(model '%s') has no 'contact'", r->model ? r->model : "?");
    else if (r->has_body && !a->step_body)
        snprintf(err, errlen, "the request has a rigid body ('body'); this engine takes particles "
                              "only (protocol 2)");
    else if (!r->has_body && !a->step)
        snprintf(err, errlen, "this engine takes a rigid body (protocol 3); the request (model '%s') "
                              "has no 'body'", r->model ? r->model : "?");
    else
        return 0;
    return -1;
}

int vb_main(const vb_adapter *a, int argc, char **argv, vb_option *opts)
{
    static vb_option none[] = {{NULL, NULL, NULL}};
    if (set_options(a->name, opts ? opts : none, argc, argv) != 0)
        return 2;
    FILE *out = stdout;
    static char buf[1 << 16];
    setvbuf(out, buf, _IOFBF, sizeof buf);
    fprintf(out, "# verletbench-engine protocol=%d persistent=1 precision=%s velocity=%s",
            protocol_of(a), a->precision ? a->precision : "float64",
            a->velocity ? a->velocity : "state");
    if (a->step_body || a->stack)
        fprintf(out, " angvel=%s", a->angvel ? a->angvel : "world");
    if (a->substeps > 0)
        fprintf(out, " substeps=%d", a->substeps);
    if (a->engine)
        fprintf(out, " engine=%s", a->engine);
    fputc('\n', out);
    fflush(out);
    int failed = 0;
    for (;;) {
        vb_request r;
        char err[512] = "";
        int got = vb_read_request(stdin, &r, err, sizeof err);
        if (got == 0)
            break;
        int rc = got < 0                                 ? -1
                 : (r.kind && strcmp(r.kind, "run") != 0) ? 1
                 : takes(a, &r, err, sizeof err) != 0     ? -1
                 : r.has_stack || r.has_body              ? serve_rigid(a, &r, out, err, sizeof err)
                                                          : serve(a, &r, out, err, sizeof err);
        if (rc < 0) {
            const char *id = r.run && r.run[0] && !strpbrk(r.run, " \t\r\n") ? r.run : "?";
            failed = 1;
            for (char *c = err; *c; c++) /* one line */
                if ((unsigned char)*c < 0x20)
                    *c = ' ';
            fprintf(out, "# verletbench-error run=%s %s\n", id, err);
            fprintf(stderr, "%s: run %s: %s\n", a->name, id, err);
        }
        vb_request_free(&r);
        if (fflush(out) != 0)
            return 1;
        if (rc == 0)
            break; /* retired */
    }
    /* exit status 1 after a failed request: a protocol-1 harness, which sends
     * one request, reads that as the run's failure */
    return failed;
}
