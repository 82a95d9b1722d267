/* vbengine.h — the shared half of a verletbench engine adapter in C or C++:
 * the request reader (Debian's cJSON, libcjson-dev), the built-in models'
 * force laws (vbengine.c), the row writer and the loop of protocol
 * versions 2 and 3 (vbserve.c; docs/real-engines.md).  An adapter is then
 * the part that knows its engine:
 *
 *     static void *make(const vb_request *req, void *ctx, char *err, size_t errlen);
 *     static int step(void *world, double h, double *x, double *v, char *err, size_t errlen);
 *     static void destroy(void *world);
 *     int main(int argc, char **argv)
 *     {
 *         vb_adapter a = {.name = "box2d", .engine = "box2d@" VB_ENGINE_VERSION,
 *                         .precision = "float32", .make = make, .step = step,
 *                         .destroy = destroy};
 *         return vb_main(&a, argc, argv, options);
 *     }
 *
 * vb_main reads requests from standard input, one JSON line each, until the
 * end of the input: one request is protocol 1 (one process a run), many are
 * protocol 2's persistent mode.  For each it writes the header, the column
 * line and row 0 (from the request's x0 and v0: a float32 engine cannot hold
 * them), then calls step() for every h of the request and writes a row after
 * each, then the end line.  Every line beyond protocol 1 starts with '#'.
 *
 * An engine of rigid bodies (protocol 3) sets .step_body (and .angvel, the
 * frame of its angular velocity columns): make() then gets requests whose
 * has_body is set, and step_body() returns the state after each step as
 * x, y, z, qw, qx, qy, qz, vx, vy, vz, wx, wy, wz.  The capability line says
 * protocol=3; row 0 comes from the request's body; the quaternion is written
 * with the sign that continues the previous row's (q and -q are one attitude).
 *
 * An engine of a body at a contact (protocol 4) sets .contact: make() then
 * gets requests whose has_contact is set, their checked vb_contact the
 * scene (vbcontact.h places it in the engine's world), and step() returns
 * the state in the model's coordinates, as for particles.  The capability
 * line says protocol=4; a request without a contact is refused.
 *
 * An engine of a rigid body on the ground (roll, box-incline: protocol 4
 * with a body) sets .step_body and .body_contact: make() gets requests with
 * has_body and has_contact set (the contact's vectors of 3 numbers, its
 * friction_static and friction_kinetic), step_body() steps it.
 *
 * An engine of a stack of rigid bodies on the ground (model stack, protocol
 * 5: docs/real-engines.md §7) sets .stack and .step_stack: make() then also
 * gets requests with has_stack set, their bodies (nbodies of them, body 1
 * the bottom, each checked as a body is) and has_contact set (the ground;
 * its friction every touching pair's, its box every body's), and
 * step_stack() returns the 13 numbers of every body after each step, body 1
 * first.  The rows are t and each body's 13 columns numbered from 1 (x1,
 * ..., wz1, x2, ...), each quaternion's sign continued; the capability line
 * says protocol=5.
 *
 * Numbers are written in the fewest digits that read back as the same double
 * (15, 16 or 17).  The force laws use the same operations in the same order as
 * verletbench's models (src/models/NAME.c); compile with -ffp-contract=off, as
 * verletbench is, or a fused multiply-add changes the last bit. */
#ifndef VBENGINE_H
#define VBENGINE_H

#include <stddef.h>
#include <stdio.h>

/* the most bodies a stack's request may have: the model's VB_STACK_MAX_BOXES
 * (src/models/stack.h), which the harness writes at most */
#define VB_STACK_MAX_BODIES 100

#ifdef __cplusplus
extern "C" {
#endif

/* a rigid rod between particles i and j (from 0), or from i to the fixed
 * pivot when j is -1 */
typedef struct {
    int i, j;
    double pivot[3];
    double length;
} vb_rod;

/* a rigid body (protocol 3): the request's "body", checked (docs/real-engines.md) */
typedef struct {
    double mass;
    double inertia[3]; /* principal moments; the body's axes are its principal axes */
    double x0[3], v0[3];
    double q0[4];      /* w, x, y, z: world from body, unit */
    double w0_body[3], w0_world[3];
    double gravity[3];
    double box[3]; /* full edges of a box with these moments and this mass, when has_box */
    int has_box;
} vb_body;

/* a body at a contact (protocol 4): the request's "contact", checked
 * (docs/real-engines.md §6.2); its vectors have the request's dim numbers,
 * in the model's coordinates */
typedef struct {
    double normal[3], offset; /* the wall's front face n.x = offset, n out of the wall */
    double thickness;         /* a slab's; INFINITY: a half-space */
    double gravity[3];
    double restitution, threshold, friction;
    /* a rigid body's static and kinetic coefficients (both friction when
     * the request does not tell them apart) */
    double friction_static, friction_kinetic;
    int box;                  /* the body: 0 a ball of radius, 1 a box of edges */
    double radius, edges[3];
    double centre[3]; /* the shape's centre minus the model's point */
} vb_contact;

typedef struct {
    const char *kind;   /* "run" */
    const char *run;    /* the run's name: "fixed-L0" */
    const char *model;  /* "spring" */
    const char *header; /* the line the trajectory starts with */
    int dim;
    size_t particles, n; /* n = dim * particles */
    double *masses;      /* particles */
    double *x0, *v0;     /* n each, particle i coordinate c at i * dim + c */
    double *h;           /* every step, in order */
    size_t steps;
    vb_rod *rods;
    size_t nrods;
    int law;         /* the force law (vbengine.c) */
    double coef[4];  /* its constants, computed as the C model computes them */
    void *json;      /* the parsed request (a cJSON *), for anything else */
    int has_body;    /* a rigid body's request (protocol 3): body is set, and of the
                      * fields above only kind, run, model, header, h and steps */
    vb_body body;
    int has_contact; /* a body at a contact (protocol 4): contact is set; the
                      * particles' fields above are its state, law LAW_NONE */
    vb_contact contact;
    int has_stack;   /* a stack of bodies on the ground (protocol 5): bodies and
                      * contact are set, and of the fields above only kind, run,
                      * model, header, h and steps */
    vb_body *bodies; /* nbodies, body 1 (the bottom) first */
    size_t nbodies;
} vb_request;

/* A model parameter of the request ("k"); NAN when it has none. */
double vb_param(const vb_request *req, const char *key);
/* The model's acceleration a (n) at x, v, as verletbench's model computes it. */
void vb_accel(const vb_request *req, const double *x, const double *v, double *a);
/* -g for the projectile and the models with rods (gravity (0, -g)); NAN for
 * the others */
double vb_gravity(const vb_request *req);
/* the model's force is gravity alone and its rods are the engine's to keep */
int vb_has_rods(const vb_request *req);

/* what step() returns */
enum {
    VB_STEP_OK = 0,
    VB_STEP_FAILED = -1, /* err says why: the run fails, the next one is served */
    VB_STEP_ABORTED = 1, /* the engine cannot go on (it aborted inside its step):
                          * the run has diverged; NaN rows from here, and the
                          * process serves no more runs (it retires) */
};

typedef struct {
    const char *name;      /* for messages: "box2d" */
    const char *engine;    /* the provenance: "box2d@2.4.1-3" */
    const char *precision; /* "float64" (NULL) or "float32" */
    const char *velocity;  /* "state" (NULL), "derived" or "none" */
    int substeps;          /* the engine's substeps a step, 0: not said */
    /* the engine's world for a request; NULL with err set when it cannot be */
    void *(*make)(const vb_request *req, void *ctx, char *err, size_t errlen);
    /* advance the world by exactly h; the state after it in x, v (n each) */
    int (*step)(void *world, double h, double *x, double *v, char *err, size_t errlen);
    void (*destroy)(void *world);
    void *ctx; /* handed to make: the adapter's options */
    /* protocol 3, an engine of rigid bodies: advance the world (made by make()
     * from a request with has_body) by exactly h; the state after it in s:
     * x, y, z, qw, qx, qy, qz (world from body), vx, vy, vz, wx, wy, wz */
    int (*step_body)(void *world, double h, double s[13], char *err, size_t errlen);
    const char *angvel; /* the frame of wx, wy, wz: "world" (NULL) or "body" */
    /* protocol 4: the adapter takes a body at a contact (requests with a
     * "contact", vbcontact.h), and nothing else */
    int contact;
    /* protocol 4 with a body (docs/real-engines.md §6.5): the adapter takes a
     * rigid body on the ground (roll, box-incline: requests with "body" and
     * "contact", has_body and has_contact set, the contact's vectors of 3
     * numbers), made by make() and stepped by step_body(); and nothing else */
    int body_contact;
    /* protocol 5 (docs/real-engines.md §7): the adapter takes a stack of
     * bodies on the ground too (requests with has_stack and has_contact set),
     * made by make() and stepped by step_stack(): advance by exactly h; the
     * state after it in s, 13 numbers a body as step_body's, body 1 first */
    int stack;
    int (*step_stack)(void *world, double h, double *s, char *err, size_t errlen);
} vb_adapter;

/* An adapter's KEY=VALUE options: `choices` is "before|callback" (the first
 * is the default) or NULL for a number whose default is `value`.  vb_main
 * sets `value` from the command line, and exits with status 2 and a message
 * for an unknown key or a bad value. */
typedef struct {
    const char *key;
    const char *choices;
    const char *value;
} vb_option;

/* the option's value: its text, or as a number */
const char *vb_opt(const vb_option *opts, const char *key);
double vb_opt_num(const vb_option *opts, const char *key);

/* Parse the options (opts ends with a {NULL}), then serve every request of
 * standard input.  Returns the exit status: 0, 1 when a request failed, 2
 * for bad options. */
int vb_main(const vb_adapter *a, int argc, char **argv, vb_option *opts);

/* Parts of vb_main, for an adapter that drives its own loop:
 * read one request line (1; 0 at the end of the input; -1 with err set) */
int vb_read_request(FILE *in, vb_request *req, char *err, size_t errlen);
void vb_request_free(vb_request *req);
/* x in the fewest digits that read back to the same double; buf >= 32 */
void vb_format(double x, char *buf);

#ifdef __cplusplus
}
#endif
#endif
