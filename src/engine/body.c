/* body.c — a rigid body in the engine protocol, version 3
 * (docs/real-engines.md §4; body.h): its request, its column line, row 0
 * held to the request, and each row turned into the state the rigid-body
 * models keep. */
#include "body.h"

#include <math.h>
#include <string.h>

#include "capability.h"
#include "engine.h"
#include "process.h"
#include "quaternion.h"

static const char *const columns[] = {"x",  "y",  "z",  "qw", "qx", "qy", "qz",
                                      "vx", "vy", "vz", "wx", "wy", "wz"};

const vb_rigid_body *vb_engine_body_of(const vb_model *m) { return vb_rigid_body_of(m); }

const char *vb_engine_body_column(size_t col)
{
    return col >= 1 && col <= 13 ? columns[col - 1] : "";
}

/* A start's angular velocity in the world: R(q0) w0_body, the one product
 * the request and row 0 share, so a world-frame engine's row 0 is the
 * request's w0_world to the bit. */
static void start_w_world(const vb_rigid_state *s, double w_world[3])
{
    vb_quat_rotate(s->q, s->w, w_world);
}

static void json_vec(FILE *f, const char *key, const double *a, size_t n)
{
    fprintf(f, "\"%s\":[", key);
    for (size_t i = 0; i < n; i++) /* + 0.0: no "-0" (a gravity of 0 pulling along -z) */
        fprintf(f, "%s%.17g", i ? "," : "", a[i] + 0.0);
    fputc(']', f);
}

void vb_engine_write_body_object(FILE *f, const vb_rigid_props *props,
                                 const vb_rigid_state *start, const double *edges)
{
    const vb_rigid_props p = *props;
    const vb_rigid_state *s = start;
    double w_world[3];
    start_w_world(s, w_world);
    fprintf(f, "{\"mass\":%.17g,", p.mass);
    json_vec(f, "inertia", p.inertia, 3);
    /* the uniform box of these moments, for an engine that wants a shape:
     * I1 = m (b^2 + c^2)/12, ..., so a^2 = 6 (I2 + I3 - I1)/m; none when a
     * moment is the sum of the others (a flat plate); a stack's box its
     * shape's edges, given (the same numbers as the contact's shape) */
    double box[3];
    int fits = 1;
    for (int i = 0; i < 3 && !edges; i++) {
        double sq = 6.0 * (p.inertia[(i + 1) % 3] + p.inertia[(i + 2) % 3] - p.inertia[i]) / p.mass;
        fits = fits && sq > 0.0;
        box[i] = sq > 0.0 ? sqrt(sq) : 0.0;
    }
    if (fits) {
        fputc(',', f);
        json_vec(f, "box", edges ? edges : box, 3);
    }
    fputc(',', f);
    json_vec(f, "x0", s->x, 3);
    fputc(',', f);
    json_vec(f, "v0", s->v, 3);
    fputc(',', f);
    json_vec(f, "q0", s->q, 4);
    fputc(',', f);
    json_vec(f, "w0_body", s->w, 3);
    fputc(',', f);
    json_vec(f, "w0_world", w_world, 3);
    fputc(',', f);
    json_vec(f, "gravity", p.gravity, 3);
    fputc('}', f);
}

void vb_engine_write_body(FILE *f, const vb_rigid_body *b)
{
    fputs("\"body\":", f);
    vb_engine_write_body_object(f, &b->model.props, &b->start, NULL);
}

int vb_engine_rigid_caps(vb_engine_run *r, const vb_engine_caps *c, int need,
                         const char *refused, const char *what, const char *rows,
                         const char *section)
{
    if (!c || c->protocol < need) {
        char says[64];
        vb_engine_caps_says(c, says, sizeof says);
        vb_engine_set_why(r, "%s (%s; %s needs protocol=%d: docs/real-engines.md §%.1s)", refused,
                          says, what, need, section);
        return -1;
    }
    if (c->velocity != VB_VELOCITY_STATE) {
        vb_engine_set_why(r,
                          "line 1 of %s: its capability line says velocity=%s, but %s: "
                          "velocity=state (docs/real-engines.md §%s)",
                          vb_engine_source(r), vb_velocity_kind_name(c->velocity), rows, section);
        return -1;
    }
    r->angvel = c->angvel;
    return 0;
}

/* column i (0..12) of body k's 13 (k 0: the run's one body, unnumbered) */
static void column_name(char *buf, size_t len, int k, int i)
{
    if (k)
        snprintf(buf, len, "%s%d", columns[i], k);
    else
        snprintf(buf, len, "%s", columns[i]);
}

int vb_engine_state_row0(vb_engine_run *r, const vb_rigid_state *start, const double *x,
                         const double *v, double q_prev[4], int k)
{
    const vb_rigid_state *s = start;
    double w_world[3];
    start_w_world(s, w_world);
    const double *w0 = r->angvel == VB_ANGVEL_BODY ? s->w : w_world;
    double want[13], got[13];
    memcpy(want, s->x, sizeof s->x);
    memcpy(want + 3, s->q, sizeof s->q);
    memcpy(want + 7, s->v, sizeof s->v);
    memcpy(want + 10, w0, 3 * sizeof *w0);
    memcpy(got, x, 7 * sizeof *x);
    memcpy(got + 7, v, 6 * sizeof *v);
    /* each part against its own size: a position, a unit quaternion, a
     * velocity, an angular velocity */
    static const int first[] = {0, 3, 7, 10, 13};
    for (int part = 0; part < 4; part++) {
        double size = 1e-300;
        for (int i = first[part]; i < first[part + 1]; i++)
            size = fmax(size, fabs(want[i]));
        for (int i = first[part]; i < first[part + 1]; i++)
            if (!vb_engine_row0_near(got[i], want[i], size)) {
                char col[24];
                column_name(col, sizeof col, k, i);
                vb_engine_set_why(r,
                                  "line %lu of %s: row 0 is not the initial state of the "
                                  "request (%s = %.17g, want %.17g): start from %sx0, q0, v0 and "
                                  "%s (angvel=%s), and print 17 significant digits",
                                  r->line, vb_engine_source(r), col, got[i], want[i],
                                  k ? "each body's " : "",
                                  r->angvel == VB_ANGVEL_BODY ? "w0_body" : "w0_world",
                                  vb_angvel_frame_name(r->angvel));
                return -1;
            }
    }
    memcpy(q_prev, s->q, sizeof s->q);
    return 0;
}

int vb_engine_body_row0(vb_engine_run *r, const double *x, const double *v)
{
    return vb_engine_state_row0(r, &r->body->start, x, v, r->q_prev, 0);
}

/* How far from 1 a row's |q| may be.  A float32 engine normalises q in
 * float32 every step: unit to a few eps32 (eps32 = 1.2e-7; every float32
 * adapter here, 2100 steps of the 5 rad/s spin, at most 2.4e-7 = 2 eps32);
 * an engine that prints only 6 significant digits (C's %g) moves |q| by at
 * most sum |q_i| 5e-7 <= 1e-6 more.  1e-5 admits both with a margin of 8,
 * and refuses a q not normalised at all: the first-order update
 * q += h/2 (0, w) q alone grows |q| by (h|w|/2)^2/2 a step, 8.7e-4 at
 * h|w| = 1/12 (5 rad/s at 60 Hz); and 2 q_exact or 0, the attitude of no
 * rotation. */
#define UNIT_Q_TOLERANCE 1e-5

int vb_engine_state_row(vb_engine_run *r, double t, double *x, double *v, double q_prev[4],
                        int k)
{
    double *q = x + 3;
    /* a row with a NaN or an infinity in q is a run that diverged, which
     * the driver says; any finite q is held to be a rotation's */
    if (isfinite(q[0]) && isfinite(q[1]) && isfinite(q[2]) && isfinite(q[3])) {
        char body[16] = ""; /* a stack's body k */
        if (k)
            snprintf(body, sizeof body, "%d", k);
        double norm = vb_quat_norm(q);
        if (!(fabs(norm - 1.0) <= UNIT_Q_TOLERANCE)) {
            vb_engine_set_why(r,
                              "line %lu of %s: row %llu (t = %.17g) has a quaternion that is no "
                              "rotation's: |q%s| = %.17g (qw, qx, qy, qz%s = %.17g, %.17g, "
                              "%.17g, %.17g), want 1 to %g (docs/real-engines.md §4.3)",
                              r->line, vb_engine_source(r), r->rows - 1, t, body, norm, body,
                              q[0], q[1], q[2], q[3], UNIT_Q_TOLERANCE);
            return -1;
        }
    }
    /* q and -q are one attitude: the sign that continues the previous
     * row's, so the packed state never jumps (§4.3; the helpers write it
     * so already, an engine of its own may not) */
    if (q[0] * q_prev[0] + q[1] * q_prev[1] + q[2] * q_prev[2] + q[3] * q_prev[3] <
        0.0)
        for (int i = 0; i < 4; i++)
            q[i] = -q[i];
    memcpy(q_prev, q, 4 * sizeof *q);
    /* the models keep w in the body frame: a world one turned by the row's
     * own attitude, q* w q (vb_quat_rotate_inv divides by |q|^2: a float32
     * engine's q, unit to its round-off, turns w without scaling it) */
    if (r->angvel == VB_ANGVEL_WORLD) {
        double w[3] = {v[3], v[4], v[5]};
        vb_quat_rotate_inv(q, w, v + 3);
    }
    return 0;
}

int vb_engine_body_row(vb_engine_run *r, double t, double *x, double *v)
{
    if (vb_engine_state_row(r, t, x, v, r->q_prev, 0) != 0)
        return -1;
    v[6] = 0.0; /* the face's seventh velocity, of no column */
    return 0;
}
