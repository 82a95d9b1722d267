/* stack.h — model `stack` (issue 55): n boxes of edge `size` standing on
 * the ground, each `ratio` times heavier than the one below it, each
 * offset from the one below by `shift` edges along the world x (a
 * staircase), gravity g along -z, one friction coefficient mu between
 * every two surfaces.  Exact: no box moves, ever.
 *
 * It is a world of several bodies, not one rigid body: the rigid table
 * (rigid.h) holds models of one body's state, so `stack` has a file and a
 * face of its own here, its parameters as a table of vb_param_spec, its
 * bodies made for a contact world (rigidcontact.h) by the run above it
 * (driver/stackrun.h).
 *
 * When it stands.  Box k (0 the bottom) has its centre at x_k = k s a
 * (s = shift, a = size) and mass m_k = m r^k.  The boxes k .. n-1 rest on
 * box k-1 over the overlap of the two faces, x in [x_k - a/2,
 * x_(k-1) + a/2]; they stand iff their combined centre of mass X_k lies
 * over it (the far edge binds, s >= 0):
 *     X_k - x_(k-1) = s a c(n - k) <= a/2,
 *     c(L) = sum_{i=1..L} i r^(i-1) / sum_{i=1..L} r^(i-1),
 * the mass-weighted mean of i = j - k + 1 over the L = n - k boxes above.
 * c(L) grows with L (each new term's i is above the mean so far), so the
 * contact above the bottom box (k = 1, L = n - 1) binds:
 *     s <= s_max = 1 / (2 c(n - 1));
 * equal boxes (r = 1): c = n/2, s_max = 1/n; heavy on light (r -> inf):
 * c -> n - 1, s_max -> 1/(2 (n - 1)).  A shift past s_max tips the stack
 * and is refused; at s_max the top's centre of mass is over the edge and
 * it still stands (exactly balanced).  One box alone stands at any shift
 * (the ground has no edge). */
#ifndef VB_STACK_H
#define VB_STACK_H

#include <stddef.h>

#include "body_contact.h"
#include "rigid.h"
#include "verletbench.h"

#define VB_STACK_MAX_BOXES 100

typedef struct vb_stack {
    int n;
    double size, ratio, shift, mu, m, g;
} vb_stack;

/* the parameters in order: n, size, ratio, shift, mu, m, g */
extern const vb_param_spec vb_stack_params[];
extern const size_t vb_stack_n_params;

/* Each parameter at its default. */
void vb_stack_defaults(double *p);
/* From values each in its range (vb_param_in_range): 0, or -1 with a
 * message (a shift past the bound, naming it). */
int vb_stack_init(vb_stack *s, const double *p, char *err, size_t errlen);

/* s_max above (1 for a single box: no bound below the faces' own). */
double vb_stack_shift_bound(int n, double ratio);

/* box k's mass, props, shape, and state at any t (the exact answer: its
 * start) */
double vb_stack_mass(const vb_stack *s, int k);
void vb_stack_props(const vb_stack *s, int k, vb_rigid_props *p);
void vb_stack_shape(const vb_stack *s, vb_body_shape *shape);
void vb_stack_exact(const vb_stack *s, int k, double t, vb_rigid_state *st);
/* the ground: z = 0, normal +z */
void vb_stack_ground(const vb_stack *s, vb_plane *ground);

/* ---- the stack as an entry of the model table (a case's model) ----
 * A case file, a sweep and every table hold a vb_model: the stack is there
 * as its face, a vb_model_type named "stack" of the parameters above,
 * found by vb_model_find (not listed by vb_model_at, as the rigid faces
 * are not), whose instance is the vb_stack, and whose state is the boxes'
 * centres, x[3 n] and v[3 n] (dim 3, n particles of the boxes' masses):
 * what the sweep's errors are of.  The boxes' attitudes and angular
 * velocities are the run's own (driver/stackrun.h), which steps them
 * inside a contact solver.  Its exact solution is its start; no energy is
 * conserved.  Its accel is vb_stack_face_accel (zero, never used to step:
 * the solver's step moves the boxes). */
struct vb_model;
const vb_model_type *vb_stack_face(void);
void vb_stack_face_accel(const void *model, double t, const double *x, const double *v,
                         double *a);
/* The stack a model's instance is, or NULL for any other model. */
const vb_stack *vb_stack_of(const struct vb_model *m);

#endif
