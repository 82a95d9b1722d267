/* splitting.h — the built-in methods that are a sequence of force
 * evaluations, kicks and drifts (euler, euler-semi, velocity-verlet,
 * yoshida4, pefrl), written once as data, so that a form of them in other
 * arithmetic (compensated.c: Kahan sums; float32.c: single precision and a
 * shifted origin) is not a hand-made copy of each method's file.  Inside
 * integrators/ only. */
#ifndef VB_SPLITTING_H
#define VB_SPLITTING_H

#include "verletbench.h"

#define VB_SPLIT_MAX_STAGES 24

/* 'f': the force at the current (t, x, v) into a; 'k': v += a (c h);
 * 'd': x += v (c h), and the stage time advances by c.  The first 'f' of a
 * step is skipped when `carry` says the a of the last step's end is still
 * the force at x (velocity Verlet's first-same-as-last). */
typedef struct vb_split {
    const vb_integrator *base;
    unsigned n;
    char kind[VB_SPLIT_MAX_STAGES];
    double coef[VB_SPLIT_MAX_STAGES];
    int carry; /* 1: start evaluates a, and every step ends with an 'f' */
} vb_split;

/* The scheme of a built-in method, or NULL. */
const vb_split *vb_split_of(const vb_integrator *g);
/* "euler, euler-semi, velocity-verlet, yoshida4, pefrl" */
const char *vb_split_names(void);

#endif
