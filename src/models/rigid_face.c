/* rigid_face.c — each rigid model (rigid.h) as an entry of the particle
 * models' table, so that a case file, a sweep and every table hold a rigid
 * body as they hold any model (docs/rigid.md §7); and the body itself
 * (vb_rigid_body), made once when the model is set up.
 *
 * The face is a vb_model_type of the rigid model's name and parameters
 * whose state is the rigid state packed as x[7] = (x, q) and
 * v[7] = (v, w, 0): thirteen numbers in the order of vb_rigid_pack, and a
 * zero that pads the velocities to the positions' count.  Its exact
 * solution, energy and natural time are the rigid model's.  Its accel,
 * vb_rigid_face_accel, is zero and never evaluated by a rigid method: it
 * is how a method of rigid_methods' entries knows from its vb_force that
 * the model is a rigid body, and reads its props.  The faces are found by
 * name (vb_model_find) but are not in vb_model_at's list, so that what
 * walks every particle model (list, the model tests) sees none of them. */
#include "model.h"
#include "rigid.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quaternion.h"

/* a face's instance is the body */
typedef vb_rigid_body face;

void vb_rigid_face_accel(const void *model, double t, const double *x, const double *v,
                         double *a)
{
    (void)model, (void)t, (void)x, (void)v;
    memset(a, 0, VB_RIGID_FACE_N * sizeof *a);
}

void vb_rigid_face_pack(const vb_rigid_state *s, double *x, double *v)
{
    double c[VB_RIGID_COMPONENTS];
    vb_rigid_pack(s, c);
    memcpy(x, c, VB_RIGID_FACE_N * sizeof *x);
    memcpy(v, c + VB_RIGID_FACE_N, (VB_RIGID_COMPONENTS - VB_RIGID_FACE_N) * sizeof *v);
    v[VB_RIGID_FACE_N - 1] = 0.0;
}

void vb_rigid_face_unpack(const double *x, const double *v, vb_rigid_state *s)
{
    double c[VB_RIGID_COMPONENTS];
    memcpy(c, x, VB_RIGID_FACE_N * sizeof *x);
    memcpy(c + VB_RIGID_FACE_N, v, (VB_RIGID_COMPONENTS - VB_RIGID_FACE_N) * sizeof *v);
    vb_rigid_unpack(c, s);
}

static void *face_create(const vb_rigid_model_type *rt, const double *p, char *err,
                         size_t errlen)
{
    face *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    vb_rigid_model_defaults(&f->model, rt);
    memcpy(f->model.p, p, rt->n_params * sizeof *p);
    if (vb_rigid_model_setup(&f->model, err, errlen) != 0) {
        free(f);
        return NULL;
    }
    /* what a run, its measures and the charts need of the body, once */
    const vb_rigid_props *pr = &f->model.props;
    rt->initial(f->model.self, &f->start);
    vb_rigid_angmom(pr, &f->start, f->L0);
    f->L0_norm = vb_vec3_norm(f->L0);
    f->w_period = rt->w_period(f->model.self);
    vb_rigid_state e;
    void *work = rt->work_alloc ? rt->work_alloc(f->model.self) : NULL;
    if ((rt->work_alloc && !work) || rt->exact(f->model.self, work, 0.0, &e) != 0) {
        /* no exact start: no ellipsoid nor sphere (0, as the exact path
         * that stops at once has none) */
        e = f->start;
        e.w[0] = e.w[1] = e.w[2] = 0.0;
    }
    if (rt->work_free)
        rt->work_free(work);
    const double *w = e.w, *I = pr->inertia;
    f->two_T = I[0] * w[0] * w[0] + I[1] * w[1] * w[1] + I[2] * w[2] * w[2];
    f->L2 = I[0] * I[0] * w[0] * w[0] + I[1] * I[1] * w[1] * w[1] + I[2] * I[2] * w[2] * w[2];
    return f;
}

/* create is given no type: one a face */
static void *create_0(const double *p, char *err, size_t errlen)
{
    return face_create(vb_rigid_model_at(0), p, err, errlen);
}

static void *create_1(const double *p, char *err, size_t errlen)
{
    return face_create(vb_rigid_model_at(1), p, err, errlen);
}

static void *create_2(const double *p, char *err, size_t errlen)
{
    return face_create(vb_rigid_model_at(2), p, err, errlen);
}

static void *create_3(const double *p, char *err, size_t errlen)
{
    return face_create(vb_rigid_model_at(3), p, err, errlen);
}

static void *(*const creates[])(const double *, char *, size_t) = {create_0, create_1, create_2,
                                                                   create_3};
#define N_FACES (sizeof creates / sizeof creates[0])

static void face_destroy(void *self)
{
    face *f = self;
    vb_rigid_model_free(&f->model);
    free(f);
}

static size_t face_particles(const void *self)
{
    (void)self;
    return VB_RIGID_FACE_N;
}

static void face_initial(const void *self, double *x, double *v)
{
    const face *f = self;
    vb_rigid_state s;
    f->model.type->initial(f->model.self, &s);
    vb_rigid_face_pack(&s, x, v);
}

static int face_exact(const void *self, void *work, double t, double *x, double *v)
{
    const face *f = self;
    vb_rigid_state s;
    if (f->model.type->exact(f->model.self, work, t, &s) != 0)
        return -1;
    vb_rigid_face_pack(&s, x, v);
    return 0;
}

static double face_energy(const void *self, const double *x, const double *v)
{
    const face *f = self;
    vb_rigid_state s;
    vb_rigid_face_unpack(x, v, &s);
    return vb_rigid_energy(&f->model.props, &s);
}

static double face_natural_time(const void *self)
{
    const face *f = self;
    return f->model.type->natural_time(f->model.self);
}

static const char *const summaries[N_FACES] = {
    "a rigid body (13 numbers: x, q, v, w), torque-free asymmetric top: exact in Jacobi "
    "elliptic functions, its centre of mass a projectile (docs/rigid.md)",
    "a rigid body (13 numbers: x, q, v, w), torque-free symmetric top (I1 = I2): regular "
    "precession, exact (docs/rigid.md)",
    "a rigid body (13 numbers: x, q, v, w) on an incline, run inside a contact solver: a "
    "ball that slips, then rolls; exact (docs/contact.md)",
    "a rigid body (13 numbers: x, q, v, w) on an incline, run inside a contact solver: a "
    "cube that sticks (tan alpha <= mu_s) or slides; exact (docs/contact.md)"};

/* the faces, made from the rigid table when first asked for (a case file's
 * model is looked up before any thread starts); read-only afterwards */
static vb_model_type faces[N_FACES];
static size_t n_faces;

static void build(void)
{
    if (n_faces)
        return;
    size_t n = vb_rigid_model_count() < N_FACES ? vb_rigid_model_count() : N_FACES;
    for (size_t i = 0; i < n; i++) {
        const vb_rigid_model_type *rt = vb_rigid_model_at(i);
        faces[i] = (vb_model_type){.name = rt->name,
                                   .summary = summaries[i],
                                   .dim = 1,
                                   .params = rt->params,
                                   .n_params = rt->n_params,
                                   .create = creates[i],
                                   .destroy = face_destroy,
                                   .particles = face_particles,
                                   .initial = face_initial,
                                   .accel = vb_rigid_face_accel,
                                   .exact = face_exact,
                                   /* a body at a contact loses energy to
                                    * friction: no energy error (contact.csv's
                                    * energy_err holds it to the exact balance) */
                                   .energy = rt->contact ? NULL : face_energy,
                                   .natural_time = face_natural_time};
    }
    n_faces = n;
}

size_t vb_rigid_face_count(void)
{
    build();
    return n_faces;
}

const vb_model_type *vb_rigid_face_at(size_t i)
{
    build();
    return i < n_faces ? &faces[i] : NULL;
}

const vb_model_type *vb_rigid_face_find(const char *name)
{
    build();
    for (size_t i = 0; i < n_faces; i++)
        if (strcmp(faces[i].name, name) == 0)
            return &faces[i];
    return NULL;
}

const vb_rigid_body *vb_rigid_body_of(const vb_model *m)
{
    return m && m->self && m->type && m->type->accel == vb_rigid_face_accel
               ? (const face *)m->self
               : NULL;
}

int vb_rigid_face_props(const vb_force *f, vb_rigid_props *p)
{
    if (!f || f->accel != vb_rigid_face_accel || !f->model)
        return -1;
    *p = ((const face *)f->model)->model.props;
    return 0;
}
