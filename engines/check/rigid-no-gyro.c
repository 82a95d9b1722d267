/* The C helper's test engine for protocol 3 (a rigid body): the twin of
 * rigid-no-gyro.js, the same operations in the same order.  No gyroscopic
 * term: the world angular velocity holds; q <- exp(h w / 2) q; then v += g h,
 * x += v h.  angvel=body reports w in the body frame.  Not an engine to
 * measure: a test of the helper (tests/real_engines_3d.py). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/vbengine.h"

static vb_option options[] = {
    {"fail", "none|make|step", NULL},
    {"angvel", "world|body", NULL},
    /* flip: -q on every other step, as an engine that keeps a matrix may return
     * either sign (Bullet); the helper must write it continued */
    {"sign", "keep|flip", NULL},
    {NULL, NULL, NULL}};

typedef struct {
    const vb_request *req;
    double x[3], v[3], w[3], q[4];
    int k;
} state;

static int asked(const vb_request *req, const char *what)
{
    char run[16];
    snprintf(run, sizeof run, "fail-%s", what);
    return !strcmp(vb_opt(options, "fail"), what) || !strcmp(req->run, run);
}

static void *make(const vb_request *req, void *ctx, char *err, size_t errlen)
{
    (void)ctx;
    if (asked(req, "make")) {
        snprintf(err, errlen, "asked to fail (make)");
        return NULL;
    }
    state *s = calloc(1, sizeof *s);
    s->req = req;
    memcpy(s->x, req->body.x0, sizeof s->x);
    memcpy(s->v, req->body.v0, sizeof s->v);
    memcpy(s->w, req->body.w0_world, sizeof s->w);
    memcpy(s->q, req->body.q0, sizeof s->q);
    return s;
}

static int step(void *st, double h, double out[13], char *err, size_t errlen)
{
    state *s = st;
    if (++s->k == 3 && asked(s->req, "step")) {
        snprintf(err, errlen, "asked to fail (step 3)");
        return VB_STEP_FAILED;
    }
    const double *g = s->req->body.gravity, *w = s->w;
    for (int i = 0; i < 3; i++) {
        s->v[i] += g[i] * h;
        s->x[i] += s->v[i] * h;
    }
    double n = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    double a = 0.5 * n * h, sn = n > 0 ? sin(a) / n : 0.5 * h;
    double d[4] = {cos(a), w[0] * sn, w[1] * sn, w[2] * sn}, *q = s->q, r[4];
    r[0] = d[0] * q[0] - d[1] * q[1] - d[2] * q[2] - d[3] * q[3];
    r[1] = d[0] * q[1] + d[1] * q[0] + d[2] * q[3] - d[3] * q[2];
    r[2] = d[0] * q[2] - d[1] * q[3] + d[2] * q[0] + d[3] * q[1];
    r[3] = d[0] * q[3] + d[1] * q[2] - d[2] * q[1] + d[3] * q[0];
    memcpy(q, r, sizeof r);
    memcpy(out, s->x, 3 * sizeof *out);
    for (int i = 0; i < 4; i++)
        out[3 + i] = !strcmp(vb_opt(options, "sign"), "flip") && s->k % 2 == 1 ? -q[i] : q[i];
    memcpy(out + 7, s->v, 3 * sizeof *out);
    if (!strcmp(vb_opt(options, "angvel"), "body")) {
        /* R(q)^T w: t = 2 (p x w) with p = -q_vec; w' = w + q0 t + p x t */
        double px = -q[1], py = -q[2], pz = -q[3];
        double tx = 2 * (py * w[2] - pz * w[1]), ty = 2 * (pz * w[0] - px * w[2]),
               tz = 2 * (px * w[1] - py * w[0]);
        out[10] = w[0] + q[0] * tx + (py * tz - pz * ty);
        out[11] = w[1] + q[0] * ty + (pz * tx - px * tz);
        out[12] = w[2] + q[0] * tz + (px * ty - py * tx);
    } else
        memcpy(out + 10, w, 3 * sizeof *out);
    return VB_STEP_OK;
}

static void destroy(void *st) { free(st); }

int main(int argc, char **argv)
{
    /* the frame of the w columns is an option: read it before vb_main parses
     * the rest, since the capability line comes first */
    const char *frame = "world";
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "angvel=body"))
            frame = "body";
    vb_adapter a = {.name = "vb-rigid-no-gyro-c", .make = make, .step_body = step,
                    .destroy = destroy, .angvel = frame};
    return vb_main(&a, argc, argv, options);
}
