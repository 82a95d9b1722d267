/* vbengine.c — see vbengine.h: the force laws, a request read and checked
 * (particles, rods, a rigid body), and a number as the rows print it; the
 * loop that serves the requests is vbserve.c.  Build with
 * -ffp-contract=off, so that the force laws round as verletbench's models
 * do. */
#define _POSIX_C_SOURCE 200809L /* getline */
#include "vbengine.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum {
    LAW_NONE,
    LAW_SPRING,
    LAW_DAMPED,
    LAW_PENDULUM,
    LAW_PROJECTILE,
    LAW_ORBIT,
    LAW_CHAIN,
    LAW_TWO_BODY,
    LAW_FIGURE_EIGHT,
    LAW_HENON,
    LAW_GRAVITY, /* the models with rods: gravity alone */
};

static const char *const MODELS =
    "spring, damped-spring, pendulum, projectile, orbit, chain, two-body, figure-eight, "
    "henon-heiles, rod-pendulum, double-pendulum, hanging-chain";

/* ---- the force laws ------------------------------------------------------------- */

double vb_param(const vb_request *req, const char *key)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive((const cJSON *)req->json, "params");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(p, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* the law of the request's model and its constants, computed with the
 * operations of the model's create(); -1 for a model without a law here */
static int set_law(vb_request *r, char *err, size_t errlen)
{
    const char *m = r->model;
    double *c = r->coef;
    if (!strcmp(m, "spring")) { /* spring.c create: w2 = k / m */
        r->law = LAW_SPRING;
        c[0] = vb_param(r, "k") / vb_param(r, "m");
    } else if (!strcmp(m, "damped-spring")) {
        r->law = LAW_DAMPED;
        c[0] = vb_param(r, "k"), c[1] = vb_param(r, "c"), c[2] = vb_param(r, "m");
    } else if (!strcmp(m, "pendulum")) { /* pendulum_solution.c: w2 = g / L */
        r->law = LAW_PENDULUM;
        c[0] = vb_param(r, "g") / vb_param(r, "L");
    } else if (!strcmp(m, "projectile")) {
        r->law = LAW_PROJECTILE;
        c[0] = vb_param(r, "g");
    } else if (!strcmp(m, "orbit")) {
        r->law = LAW_ORBIT;
        c[0] = vb_param(r, "mu");
    } else if (!strcmp(m, "chain")) { /* chain.c create: w2 = k / m */
        r->law = LAW_CHAIN;
        c[0] = vb_param(r, "k") / vb_param(r, "m");
    } else if (!strcmp(m, "two-body")) {
        r->law = LAW_TWO_BODY;
        c[0] = vb_param(r, "G"), c[1] = vb_param(r, "m1"), c[2] = vb_param(r, "m2");
    } else if (!strcmp(m, "figure-eight")) {
        r->law = LAW_FIGURE_EIGHT;
    } else if (!strcmp(m, "henon-heiles")) {
        r->law = LAW_HENON;
    } else if (!strcmp(m, "rod-pendulum") || !strcmp(m, "double-pendulum") ||
               !strcmp(m, "hanging-chain")) {
        r->law = LAW_GRAVITY;
        c[0] = vb_param(r, "g");
    } else if (r->has_contact) {
        /* a body at a contact (protocol 4): gravity and the wall are the
         * engine's to build from the contact; no force law */
        r->law = LAW_NONE;
        return 0;
    } else {
        snprintf(err, errlen, "model '%s' has no force law here (%s)", m, MODELS);
        return -1;
    }
    for (int i = 0; i < 3; i++)
        if (isnan(c[i]) && r->law != LAW_FIGURE_EIGHT && r->law != LAW_HENON &&
            (i == 0 || r->law == LAW_DAMPED || r->law == LAW_TWO_BODY)) {
            snprintf(err, errlen, "the request's params lack one of model %s's parameters", m);
            return -1;
        }
    return 0;
}

void vb_accel(const vb_request *req, const double *x, const double *v, double *a)
{
    const double *c = req->coef;
    size_t n = req->n;
    switch (req->law) {
    case LAW_SPRING: /* spring.c accel */
        a[0] = -c[0] * x[0];
        break;
    case LAW_DAMPED: /* damped_spring.c accel */
        a[0] = -(c[0] * x[0] + c[1] * v[0]) / c[2];
        break;
    case LAW_PENDULUM: /* pendulum.c accel */
        a[0] = -c[0] * sin(x[0]);
        break;
    case LAW_PROJECTILE: /* projectile.c accel */
        a[0] = 0.0;
        a[1] = -c[0];
        break;
    case LAW_ORBIT: { /* orbit.c accel */
        double r2 = x[0] * x[0] + x[1] * x[1];
        double k = -c[0] / (r2 * sqrt(r2));
        a[0] = k * x[0];
        a[1] = k * x[1];
        break;
    }
    case LAW_CHAIN: { /* chain.c accel */
        double w2 = c[0];
        if (n == 1) {
            a[0] = w2 * ((0.0 - x[0]) + (0.0 - x[0]));
            break;
        }
        double left = 0.0, mid = x[0];
        for (size_t i = 0; i + 1 < n; i++) {
            double right = x[i + 1];
            a[i] = w2 * ((left - mid) + (right - mid));
            left = mid;
            mid = right;
        }
        a[n - 1] = w2 * ((left - mid) + (0.0 - mid));
        break;
    }
    case LAW_TWO_BODY: { /* two_body.c accel */
        double dx = x[2] - x[0], dy = x[3] - x[1];
        double r2 = dx * dx + dy * dy, k = c[0] / (r2 * sqrt(r2));
        a[0] = k * c[2] * dx;
        a[1] = k * c[2] * dy;
        a[2] = -k * c[1] * dx;
        a[3] = -k * c[1] * dy;
        break;
    }
    case LAW_FIGURE_EIGHT: /* figure_eight.c accel */
        for (int i = 0; i < 6; i++)
            a[i] = 0.0;
        for (int i = 0; i < 3; i++)
            for (int j = i + 1; j < 3; j++) {
                double dx = x[2 * j] - x[2 * i], dy = x[2 * j + 1] - x[2 * i + 1];
                double r2 = dx * dx + dy * dy, k = 1.0 / (r2 * sqrt(r2));
                a[2 * i] += k * dx;
                a[2 * i + 1] += k * dy;
                a[2 * j] -= k * dx;
                a[2 * j + 1] -= k * dy;
            }
        break;
    case LAW_HENON: /* henon_heiles.c accel */
        a[0] = -x[0] - 2.0 * x[0] * x[1];
        a[1] = -x[1] - x[0] * x[0] + x[1] * x[1];
        break;
    case LAW_GRAVITY: /* rod_pendulum.c accel, linkage.c vb_linkage_gravity */
        for (size_t i = 0; i + 1 < n; i += 2) {
            a[i] = 0.0;
            a[i + 1] = -c[0];
        }
        break;
    default:
        for (size_t i = 0; i < n; i++)
            a[i] = NAN;
    }
}

double vb_gravity(const vb_request *req)
{
    return req->law == LAW_PROJECTILE || req->law == LAW_GRAVITY ? -req->coef[0] : NAN;
}

int vb_has_rods(const vb_request *req) { return req->law == LAW_GRAVITY; }

/* ---- the request ---------------------------------------------------------------- */

void vb_request_free(vb_request *req)
{
    free(req->masses);
    free(req->x0);
    free(req->v0);
    free(req->h);
    free(req->rods);
    free(req->bodies);
    cJSON_Delete((cJSON *)req->json);
    memset(req, 0, sizeof *req);
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* the request's array `key` of exactly `want` numbers (any length when want
 * is 0), as doubles: cJSON reads every number with strtod, exactly */
static double *numbers(const cJSON *root, const char *key, size_t want, size_t *got, int positive,
                       char *err, size_t errlen)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, key), *e;
    size_t n = (size_t)cJSON_GetArraySize(a);
    if (!cJSON_IsArray(a) || (want && n != want)) {
        fail(err, errlen, "the request's '%s' is not %zu numbers", key, want);
        return NULL;
    }
    double *d = malloc((n ? n : 1) * sizeof *d);
    if (!d) {
        fail(err, errlen, "out of memory");
        return NULL;
    }
    size_t k = 0;
    cJSON_ArrayForEach(e, a)
    {
        if (!cJSON_IsNumber(e) || (positive && !(e->valuedouble > 0.0))) {
            fail(err, errlen, "the request's '%s' has %s at [%zu]", key,
                 positive ? "a step that is not a positive number" : "a non-number", k);
            free(d);
            return NULL;
        }
        d[k++] = e->valuedouble;
    }
    if (got)
        *got = n;
    return d;
}

static const char *string(const cJSON *root, const char *key)
{
    return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(root, key));
}

static int whole(const cJSON *root, const char *key, double lo, double hi, double *out)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!cJSON_IsNumber(it) || it->valuedouble != floor(it->valuedouble) ||
        it->valuedouble < lo || it->valuedouble > hi)
        return -1;
    *out = it->valuedouble;
    return 0;
}

/* ---- a rigid body (protocol 3) -------------------------------------------------- */

/* How far a request's numbers may be from what they claim, and why (the same
 * as vbengine.js): q0 unit to 1e-12 (normalised in double it is unit to a few
 * 1e-16); w0_world = R(q0) w0_body to 1e-12 (1 + |w|) (one is the other
 * rotated, a few ulps); a box gives the moments m (b^2 + c^2)/12, ... to 1e-10
 * relative (its edges are square roots of the moments). */
#define VB_UNIT_TOL 1e-12
#define VB_FRAME_TOL 1e-12
#define VB_BOX_TOL 1e-10

/* the body's array `key` of exactly n finite numbers into out (`where`
 * names the body: "body" or "bodies[2]"): 0, or -1 */
static int body_vec(const cJSON *b, const char *where, const char *key, size_t n, double *out,
                    char *err, size_t errlen)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(b, key), *e;
    size_t k = 0;
    if (!cJSON_IsArray(a) || (size_t)cJSON_GetArraySize(a) != n)
        return fail(err, errlen, "the request's %s '%s' is not %zu numbers", where, key, n);
    cJSON_ArrayForEach(e, a)
    {
        if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble))
            return fail(err, errlen, "the request's %s '%s' is not %zu numbers", where, key, n);
        out[k++] = e->valuedouble;
    }
    return 0;
}

/* R(q) v for a unit quaternion q = (w, x, y, z), as vbengine.js rotate() */
static void rotate(const double q[4], const double v[3], double out[3])
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    double tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]),
           tz = 2 * (x * v[1] - y * v[0]);
    out[0] = v[0] + w * tx + (y * tz - z * ty);
    out[1] = v[1] + w * ty + (z * tx - x * tz);
    out[2] = v[2] + w * tz + (x * ty - y * tx);
}

/* one body object, version 3's (the request's "body", or an element of a
 * stack's "bodies": `where` names it, "body" or "bodies[2]"), checked into
 * B as vbengine.js checkBodyObject does: a bad one is one message naming
 * the key */
static int parse_body_object(vb_body *B, const cJSON *b, const char *where, char *err,
                             size_t errlen)
{
    if (!cJSON_IsObject(b))
        return fail(err, errlen, "the request's '%s' is not an object", where);
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(b, "mass");
    if (!cJSON_IsNumber(m) || !isfinite(m->valuedouble) || !(m->valuedouble > 0.0))
        return fail(err, errlen, "the request's %s 'mass' is not a positive number", where);
    B->mass = m->valuedouble;
    if (body_vec(b, where, "inertia", 3, B->inertia, err, errlen) != 0)
        return -1;
    for (int i = 0; i < 3; i++)
        if (!(B->inertia[i] > 0.0))
            return fail(err, errlen, "the request's %s 'inertia' is not 3 positive numbers "
                                     "(principal moments)", where);
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        double *I = B->inertia;
        if (I[i] > (I[j] + I[k]) * (1 + 1e-12)) {
            char f[4][32];
            vb_format(I[0], f[0]), vb_format(I[1], f[1]), vb_format(I[2], f[2]);
            vb_format(I[j] + I[k], f[3]);
            return fail(err, errlen,
                        "the request's %s 'inertia' [%s, %s, %s] is no rigid body's: "
                        "I%d = %s > I%d + I%d = %s",
                        where, f[0], f[1], f[2], i + 1, f[i], j + 1, k + 1, f[3]);
        }
    }
    if (body_vec(b, where, "x0", 3, B->x0, err, errlen) != 0 ||
        body_vec(b, where, "v0", 3, B->v0, err, errlen) != 0 ||
        body_vec(b, where, "w0_body", 3, B->w0_body, err, errlen) != 0 ||
        body_vec(b, where, "w0_world", 3, B->w0_world, err, errlen) != 0 ||
        body_vec(b, where, "gravity", 3, B->gravity, err, errlen) != 0 ||
        body_vec(b, where, "q0", 4, B->q0, err, errlen) != 0)
        return -1;
    const double *q = B->q0;
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(fabs(n - 1.0) <= VB_UNIT_TOL)) {
        char f[32];
        vb_format(n, f);
        return fail(err, errlen, "the request's %s 'q0' is not a unit quaternion (|q0| = %s; want 1 to 1e-12)",
                    where, f);
    }
    double rw[3], *ww = B->w0_world;
    rotate(q, B->w0_body, rw);
    double gap = sqrt((rw[0] - ww[0]) * (rw[0] - ww[0]) + (rw[1] - ww[1]) * (rw[1] - ww[1]) +
                      (rw[2] - ww[2]) * (rw[2] - ww[2]));
    double size = sqrt(ww[0] * ww[0] + ww[1] * ww[1] + ww[2] * ww[2]);
    if (!(gap <= VB_FRAME_TOL * (1.0 + size)))
    {
        char f[32];
        vb_format(gap, f);
        return fail(err, errlen, "the request's %s 'w0_world' is not R(q0) w0_body (they differ by %s)",
                    where, f);
    }
    if (cJSON_GetObjectItemCaseSensitive(b, "box")) {
        double *e = B->box;
        if (body_vec(b, where, "box", 3, e, err, errlen) != 0)
            return -1;
        if (!(e[0] > 0.0 && e[1] > 0.0 && e[2] > 0.0))
            return fail(err, errlen, "the request's %s 'box' is not 3 positive edge lengths", where);
        for (int i = 0; i < 3; i++) {
            int j = (i + 1) % 3, k = (i + 2) % 3;
            double want = B->mass * (e[j] * e[j] + e[k] * e[k]) / 12;
            if (!(fabs(want - B->inertia[i]) <= VB_BOX_TOL * B->inertia[i])) {
                char f[5][32];
                vb_format(e[0], f[0]), vb_format(e[1], f[1]), vb_format(e[2], f[2]);
                vb_format(want, f[3]), vb_format(B->inertia[i], f[4]);
                return fail(err, errlen,
                            "the request's %s 'box' [%s, %s, %s] does not give the moments: "
                            "m (b^2 + c^2)/12 = %s for I%d = %s",
                            where, f[0], f[1], f[2], f[3], i + 1, f[4]);
            }
        }
        B->has_box = 1;
    }
    return 0;
}

/* the request's "body", checked: a bad one is one message naming the key */
static int parse_body(vb_request *r, const cJSON *root, char *err, size_t errlen)
{
    const cJSON *proto = cJSON_GetObjectItemCaseSensitive(root, "protocol");
    /* a body at a contact (protocol 4) is a body too */
    int at_contact = cJSON_GetObjectItemCaseSensitive(root, "contact") != NULL;
    if (!cJSON_IsNumber(proto) ||
        !(proto->valuedouble == 3.0 || (at_contact && proto->valuedouble == 4.0)))
        return fail(err, errlen, "the request's 'body' needs \"protocol\": 3");
    if (parse_body_object(&r->body, cJSON_GetObjectItemCaseSensitive(root, "body"), "body", err,
                          errlen) != 0)
        return -1;
    if (!(r->h = numbers(root, "h", 0, &r->steps, 1, err, errlen)))
        return -1;
    r->has_body = 1;
    return 0;
}

/* ---- a body at a contact (protocol 4) ------------------------------------------- */

/* the contact's array `key` of n finite numbers (under `where`, "" or
 * "wall " or "shape ") into out: 0, or -1 */
static int contact_vec(const cJSON *o, const char *where, const char *key, int n, double *out,
                       char *err, size_t errlen)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key), *e;
    int k = 0;
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != n)
        return fail(err, errlen, "the request's contact %s'%s' is not %d numbers", where, key, n);
    cJSON_ArrayForEach(e, a)
    {
        if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble))
            return fail(err, errlen, "the request's contact %s'%s' is not %d numbers", where, key,
                        n);
        out[k++] = e->valuedouble;
    }
    return 0;
}

/* the contact's number `key` within [lo, hi] (want: the words for it) */
static int contact_num(const cJSON *o, const char *where, const char *key, double lo, double hi,
                       int lo_open, const char *want, double *out, char *err, size_t errlen)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble) || x->valuedouble < lo ||
        x->valuedouble > hi || (lo_open && x->valuedouble == lo))
        return fail(err, errlen, "the request's contact %s'%s' is not %s", where, key, want);
    *out = x->valuedouble;
    return 0;
}

/* the request's "contact", checked as vbengine.js checkContact does, with its
 * messages: a bad one is one message naming the key */
static int parse_contact(vb_request *r, const cJSON *root, char *err, size_t errlen)
{
    const cJSON *proto = cJSON_GetObjectItemCaseSensitive(root, "protocol");
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(root, "contact");
    vb_contact *C = &r->contact;
    int d = r->dim;
    /* a stack's (protocol 5) is the ground under its bodies: parse_stack
     * checked its protocol */
    if (!r->has_stack && (!cJSON_IsNumber(proto) || proto->valuedouble != 4.0))
        return fail(err, errlen, "the request's 'contact' needs \"protocol\": 4");
    if (!cJSON_IsObject(c))
        return fail(err, errlen, "the request's 'contact' is not an object");
    if (!r->has_body && !r->has_stack && r->particles != 1)
        return fail(err, errlen,
                    "the request's 'particles' is not 1: a body at a contact is one body");
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(c, "wall");
    if (!cJSON_IsObject(w))
        return fail(err, errlen, "the request's contact 'wall' is not an object");
    if (contact_vec(w, "wall ", "normal", d, C->normal, err, errlen) != 0)
        return -1;
    double len = 0.0;
    for (int i = 0; i < d; i++)
        len += C->normal[i] * C->normal[i];
    if (!(fabs(sqrt(len) - 1.0) <= 1e-12))
        return fail(err, errlen, "the request's contact wall 'normal' is not a unit vector");
    if (contact_num(w, "wall ", "offset", -INFINITY, INFINITY, 0, "a number", &C->offset, err,
                    errlen) != 0)
        return -1;
    C->thickness = INFINITY;
    if (cJSON_GetObjectItemCaseSensitive(w, "thickness") &&
        contact_num(w, "wall ", "thickness", 0.0, INFINITY, 1,
                    "a positive number (or absent: a half-space)", &C->thickness, err, errlen) != 0)
        return -1;
    if (contact_vec(c, "", "gravity", d, C->gravity, err, errlen) != 0 ||
        contact_num(c, "", "restitution", 0.0, 1.0, 0, "in [0, 1]", &C->restitution, err,
                    errlen) != 0 ||
        contact_num(c, "", "threshold", 0.0, INFINITY, 0, "a number >= 0 (m/s)", &C->threshold,
                    err, errlen) != 0 ||
        contact_num(c, "", "friction", 0.0, INFINITY, 0, "a number >= 0", &C->friction, err,
                    errlen) != 0)
        return -1;
    /* a rigid body's contact may tell the static and the kinetic coefficient
     * apart; friction is then the static one */
    C->friction_static = C->friction_kinetic = C->friction;
    if (cJSON_GetObjectItemCaseSensitive(c, "friction_static") ||
        cJSON_GetObjectItemCaseSensitive(c, "friction_kinetic")) {
        if (contact_num(c, "", "friction_static", C->friction, C->friction, 0,
                        "the number 'friction' is", &C->friction_static, err, errlen) != 0 ||
            contact_num(c, "", "friction_kinetic", 0.0, C->friction_static, 0,
                        "a number in [0, friction_static]", &C->friction_kinetic, err, errlen) != 0)
            return -1;
    }
    const cJSON *sh = cJSON_GetObjectItemCaseSensitive(c, "shape");
    if (!cJSON_IsObject(sh))
        return fail(err, errlen, "the request's contact 'shape' is not an object");
    const char *kind = string(sh, "kind");
    if (kind && !strcmp(kind, "ball")) {
        if (contact_num(sh, "shape ", "radius", 0.0, INFINITY, 1, "a positive number",
                        &C->radius, err, errlen) != 0)
            return -1;
    } else if (kind && !strcmp(kind, "box")) {
        C->box = 1;
        if (contact_vec(sh, "shape ", "edges", d, C->edges, err, errlen) != 0)
            return -1;
        for (int i = 0; i < d; i++)
            if (!(C->edges[i] > 0.0))
                return fail(err, errlen, "the request's contact shape 'edges' is not %d positive "
                                         "numbers",
                            d);
    } else {
        return fail(err, errlen, "the request's contact shape 'kind' is not \"ball\" or \"box\"");
    }
    if (contact_vec(c, "", "centre", d, C->centre, err, errlen) != 0)
        return -1;
    r->has_contact = 1;
    return 0;
}

/* ---- a stack of bodies on the ground (protocol 5) -------------------------------- */

/* the request's stack (docs/real-engines.md §7): "bodies", a list of version
 * 3's body objects from the bottom up, each checked as "body" is and named by
 * its place from 1, and the "contact" of a rigid body on the ground, whose
 * friction is every touching pair's and whose box is every body's; checked
 * as vbengine.js checkStack does, with its messages */
static int parse_stack(vb_request *r, const cJSON *root, char *err, size_t errlen)
{
    const cJSON *proto = cJSON_GetObjectItemCaseSensitive(root, "protocol");
    const cJSON *bs = cJSON_GetObjectItemCaseSensitive(root, "bodies"), *b;
    if (!cJSON_IsNumber(proto) || proto->valuedouble != 5.0)
        return fail(err, errlen, "the request's 'bodies' needs \"protocol\": 5");
    if (cJSON_GetObjectItemCaseSensitive(root, "body"))
        return fail(err, errlen, "the request has both 'body' and 'bodies'");
    int n = cJSON_GetArraySize(bs);
    if (!cJSON_IsArray(bs) || n < 1 || n > VB_STACK_MAX_BODIES)
        return fail(err, errlen, "the request's 'bodies' is not a list of 1 to %d bodies",
                    VB_STACK_MAX_BODIES);
    if (!(r->bodies = calloc((size_t)n, sizeof *r->bodies)))
        return fail(err, errlen, "out of memory");
    cJSON_ArrayForEach(b, bs)
    {
        char where[32];
        snprintf(where, sizeof where, "bodies[%zu]", r->nbodies + 1);
        if (parse_body_object(&r->bodies[r->nbodies], b, where, err, errlen) != 0)
            return -1;
        r->nbodies++;
    }
    if (!(r->h = numbers(root, "h", 0, &r->steps, 1, err, errlen)))
        return -1;
    if (!cJSON_GetObjectItemCaseSensitive(root, "contact"))
        return fail(err, errlen, "the request's 'contact' is missing (the ground under a stack)");
    r->has_stack = 1;
    r->dim = 3;
    if (parse_contact(r, root, err, errlen) != 0)
        return -1;
    if (!r->contact.box)
        return fail(err, errlen, "the request's contact shape 'kind' is not \"box\" (a stack is of "
                                 "boxes)");
    for (size_t k = 0; k < r->nbodies; k++) {
        const vb_body *B = &r->bodies[k];
        if (!B->has_box || B->box[0] != r->contact.edges[0] || B->box[1] != r->contact.edges[1] ||
            B->box[2] != r->contact.edges[2])
            return fail(err, errlen, "the request's bodies[%zu] 'box' is not the contact's shape "
                                     "edges", k + 1);
    }
    return 0;
}

static int parse(vb_request *r, char *line, char *err, size_t errlen)
{
    cJSON *root = cJSON_Parse(line);
    if (!root) {
        const char *at = cJSON_GetErrorPtr();
        return fail(err, errlen, "the request is not JSON (at '%.20s')", at ? at : "");
    }
    r->json = root;
    r->kind = string(root, "kind");
    r->run = string(root, "run");
    if (!cJSON_IsObject(root))
        return fail(err, errlen, "the request's line is not a JSON object");
    if (r->kind && strcmp(r->kind, "run") != 0)
        return 0; /* requests.jsonl's "case" line: the caller skips it */
    if (!(r->model = string(root, "model")))
        return fail(err, errlen, "the request's 'model' is not a string");
    if (!(r->header = string(root, "header")) || strchr(r->header, '\n'))
        return fail(err, errlen, "the request's 'header' is not one line");
    int contact = cJSON_GetObjectItemCaseSensitive(root, "contact") != NULL;
    if (cJSON_GetObjectItemCaseSensitive(root, "bodies"))
        return parse_stack(r, root, err, errlen);
    if (cJSON_GetObjectItemCaseSensitive(root, "body")) {
        if (parse_body(r, root, err, errlen) != 0)
            return -1;
        /* a rigid body on the ground (roll, box-incline): its contact's
         * vectors have 3 numbers */
        r->dim = 3;
        return contact ? parse_contact(r, root, err, errlen) : 0;
    }
    double dim, parts;
    if (whole(root, "dim", 1, 3, &dim) != 0)
        return fail(err, errlen, "the request's 'dim' is not 1, 2 or 3");
    if (whole(root, "particles", 1, 1e7, &parts) != 0)
        return fail(err, errlen, "the request's 'particles' is not a whole number >= 1");
    r->dim = (int)dim;
    r->particles = (size_t)parts;
    r->n = r->particles * (size_t)r->dim;
    if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(root, "params")))
        return fail(err, errlen, "the request's 'params' is not an object");
    if (!(r->masses = numbers(root, "masses", r->particles, NULL, 1, err, errlen)) ||
        !(r->x0 = numbers(root, "x0", r->n, NULL, 0, err, errlen)) ||
        !(r->v0 = numbers(root, "v0", r->n, NULL, 0, err, errlen)) ||
        !(r->h = numbers(root, "h", 0, &r->steps, 1, err, errlen)))
        return -1;
    if (contact && parse_contact(r, root, err, errlen) != 0)
        return -1;
    if (set_law(r, err, errlen) != 0)
        return -1;
    const cJSON *rods = cJSON_GetObjectItemCaseSensitive(root, "rods"), *e;
    if (r->law == LAW_GRAVITY && !cJSON_IsArray(rods))
        return fail(err, errlen, "the request's 'rods' are missing (a model with rods)");
    if (cJSON_IsArray(rods)) {
        r->rods = calloc((size_t)cJSON_GetArraySize(rods) + 1, sizeof *r->rods);
        if (!r->rods)
            return fail(err, errlen, "out of memory");
        cJSON_ArrayForEach(e, rods)
        {
            vb_rod *rod = &r->rods[r->nrods];
            double i, j;
            const cJSON *len = cJSON_GetObjectItemCaseSensitive(e, "length");
            if (whole(e, "i", 0, (double)r->particles - 1, &i) != 0 ||
                whole(e, "j", -1, (double)r->particles - 1, &j) != 0 || !cJSON_IsNumber(len))
                return fail(err, errlen, "the request's rod %zu is not {i, j, length}", r->nrods);
            rod->i = (int)i;
            rod->j = (int)j;
            rod->length = len->valuedouble;
            if (rod->j < 0) {
                size_t np;
                double *p = numbers(e, "pivot", (size_t)r->dim, &np, 0, err, errlen);
                if (!p)
                    return fail(err, errlen, "the request's rod %zu has no pivot of %d numbers",
                                r->nrods, r->dim);
                memcpy(rod->pivot, p, (size_t)r->dim * sizeof *p);
                free(p);
            }
            r->nrods++;
        }
    }
    return 0;
}

int vb_read_request(FILE *in, vb_request *req, char *err, size_t errlen)
{
    static char *line;
    static size_t cap;
    memset(req, 0, sizeof *req);
    ssize_t len;
    do {
        errno = 0;
        if ((len = getline(&line, &cap, in)) < 0) {
            if (errno)
                return fail(err, errlen, "reading the request: %s", strerror(errno));
            return 0;
        }
    } while (strspn(line, " \t\r\n") == (size_t)len); /* blank lines */
    return parse(req, line, err, errlen) == 0 ? 1 : -1;
}

/* ---- a number as the rows print it ----------------------------------------------- */

void vb_format(double x, char *buf)
{
    if (isnan(x)) {
        strcpy(buf, "nan");
        return;
    }
    if (isinf(x)) {
        strcpy(buf, x > 0 ? "inf" : "-inf");
        return;
    }
    for (int digits = 15; digits < 17; digits++) {
        snprintf(buf, 32, "%.*g", digits, x);
        if (strtod(buf, NULL) == x)
            return;
    }
    snprintf(buf, 32, "%.17g", x);
}
