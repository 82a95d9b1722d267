/* rigid_entries.c — each rotation method of the rigid table
 * (rigid_method.h) as an entry of the integrator table's kind (a
 * vb_integrator), so that a case file names it in its list, a sweep runs
 * it and a frame loop wraps it as any method (docs/rigid.md §7).
 *
 * It runs on a rigid model's face (rigid.h) only: the state x[7], v[7] it
 * starts from and reports is the rigid state packed by
 * vb_rigid_face_pack, and its props are read from the force, which is the
 * face's (vb_rigid_face_props).  On any other model it sets its state to
 * NaN, so that the run ends as diverged with the reason in
 * vb_force.stopped; vb_integrator_suits refuses the pair before a run. The
 * entries are found by name (vb_integrator_find) but are not in
 * vb_integrator_at's list: what walks every particle method ("all", list,
 * stability, bench) sees none of them. */
#include "integrator.h"
#include "rigid.h"
#include "rigid_method.h"

#include <math.h>
#include <string.h>

typedef struct {
    vb_rigid_state s;
    vb_rigid_props p;
} entry_state;

static size_t entry_size(size_t n)
{
    (void)n;
    return sizeof(entry_state);
}

static void entry_start(void *state, vb_force *f, double t, const double *x, const double *v,
                        double h)
{
    (void)t, (void)h;
    entry_state *e = state;
    if (vb_rigid_face_props(f, &e->p) != 0) {
        /* not a rigid body: the run ends as diverged, and says why */
        memset(&e->s, 0, sizeof e->s);
        e->s.x[0] = NAN;
        f->stopped = "a rigid-body method runs on a rigid model only (docs/rigid.md)";
        return;
    }
    vb_rigid_face_unpack(x, v, &e->s);
}

static void entry_observe(const void *state, double *x, double *v)
{
    vb_rigid_face_pack(&((const entry_state *)state)->s, x, v);
}

static void entry_reverse(void *state) { vb_rigid_reverse(&((entry_state *)state)->s); }

static void entry_step(size_t k, void *state, double h)
{
    entry_state *e = state;
    if (isnan(e->s.x[0]) && !vb_rigid_finite(&e->s))
        return;
    vb_rigid_method_at(k)->step(&e->s, &e->p, h);
}

/* step is given no entry: one a method */
#define STEP(k)                                                                                  \
    static void step_##k(void *state, vb_force *f, double t, double h)                           \
    {                                                                                            \
        (void)f, (void)t;                                                                        \
        entry_step(k, state, h);                                                                 \
    }
STEP(0)
STEP(1)
STEP(2)
STEP(3)
STEP(4)
STEP(5)
STEP(6)
STEP(7)
STEP(8)
STEP(9)
STEP(10)
STEP(11)
static void (*const steps[])(void *, vb_force *, double, double) = {
    step_0, step_1, step_2, step_3, step_4, step_5, step_6, step_7, step_8, step_9, step_10,
    step_11};
#define MAX_ENTRIES (sizeof steps / sizeof steps[0])

/* made from the rigid table when first asked for (while case files and
 * options are read, before any thread); read-only afterwards */
static vb_integrator entries[MAX_ENTRIES];
static size_t n_entries;

static void build(void)
{
    if (n_entries)
        return;
    size_t n = vb_rigid_method_count();
    n = n < MAX_ENTRIES ? n : MAX_ENTRIES;
    for (size_t k = 0; k < n; k++) {
        const vb_rigid_method *m = vb_rigid_method_at(k);
        entries[k] = (vb_integrator){.name = m->name,
                                     .summary = m->summary,
                                     .order = m->order,
                                     .flags = (m->flags & VB_RIGID_SYMPLECTIC) ? VB_SYMPLECTIC : 0,
                                     .state_size = entry_size,
                                     .start = entry_start,
                                     .step = steps[k],
                                     .observe = entry_observe,
                                     .reverse = entry_reverse};
    }
    n_entries = n;
}

size_t vb_rigid_entry_count(void)
{
    build();
    return n_entries;
}

const vb_integrator *vb_rigid_entry_at(size_t i)
{
    build();
    return i < n_entries ? &entries[i] : NULL;
}

const vb_integrator *vb_rigid_entry_find(const char *name)
{
    build();
    for (size_t i = 0; i < n_entries; i++)
        if (strcmp(entries[i].name, name) == 0)
            return &entries[i];
    return NULL;
}

const vb_rigid_method *vb_rigid_entry_method(const vb_integrator *type)
{
    build();
    for (size_t i = 0; i < n_entries; i++)
        if (type == &entries[i])
            return vb_rigid_method_at(i);
    return NULL;
}
