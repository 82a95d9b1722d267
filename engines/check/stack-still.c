/* The C helper's test engine for protocol 5 (a stack of bodies on the
 * ground): every body stays at its start, its quaternion returned negated
 * with sign=flip (q and -q are one attitude: the helper must write the sign
 * that continues the previous row's) and its angular velocity in the frame
 * of angvel=.  The twin of the throw-away adapter tests/vbengine_stack.py
 * writes for the JavaScript helper; not an engine to measure. */
#include <stdio.h>
#include <string.h>

#include "../lib/vbengine.h"

static vb_option options[] = {
    {"angvel", "world|body", NULL},
    {"sign", "keep|flip", NULL},
    {NULL, NULL, NULL}};

static void *make(const vb_request *req, void *ctx, char *err, size_t errlen)
{
    (void)ctx, (void)err, (void)errlen;
    return (void *)req;
}

static int step_stack(void *world, double h, double *s, char *err, size_t errlen)
{
    (void)h, (void)err, (void)errlen;
    const vb_request *req = world;
    const int flip = !strcmp(vb_opt(options, "sign"), "flip");
    const int body = !strcmp(vb_opt(options, "angvel"), "body");
    for (size_t k = 0; k < req->nbodies; k++) {
        const vb_body *b = &req->bodies[k];
        double *o = s + 13 * k;
        memcpy(o, b->x0, sizeof b->x0);
        for (int i = 0; i < 4; i++)
            o[3 + i] = flip ? -b->q0[i] : b->q0[i];
        memcpy(o + 7, b->v0, sizeof b->v0);
        memcpy(o + 10, body ? b->w0_body : b->w0_world, 3 * sizeof *o);
    }
    return VB_STEP_OK;
}

static void destroy(void *world) { (void)world; }

int main(int argc, char **argv)
{
    /* the frame is an option here, read before the capability line */
    const char *angvel = "world";
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "angvel=body"))
            angvel = "body";
    vb_adapter a = {.name = "vb-stack-still-c", .engine = "t@1", .make = make,
                    .destroy = destroy, .angvel = angvel, .stack = 1, .step_stack = step_stack};
    return vb_main(&a, argc, argv, options);
}
