/* fused.h — the hand-written loops the benchmark's ratios are taken
 * against (fused.c): velocity Verlet on the orbit, on a chain of masses
 * between walls, and on the three-body figure eight. */
#ifndef VB_FUSED_H
#define VB_FUSED_H

#include "model.h"

/* The systems with a fused loop, by model name. */
typedef enum { VB_FUSED_NONE, VB_FUSED_ORBIT, VB_FUSED_CHAIN, VB_FUSED_THREE_BODY } vb_fused_kind;

/* The fused loop of a model (the built-in chain and figure eight), or
 * VB_FUSED_NONE; the orbit's is asked for by name. */
vb_fused_kind vb_fused_of(const vb_model *m);

/* One timed fused run of `steps` steps of h on m (VB_FUSED_ORBIT: always
 * e = 0.5 from periapsis, the central mass mu).  0, or -1 out of memory. */
int vb_fused_run(vb_fused_kind k, const vb_model *m, double mu, double h, unsigned long steps);

#endif
