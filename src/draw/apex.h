/* apex.h — the exact apex of the run a rates table was made from: the
 * highest point of the exact solution's height over [0, t_end], found from
 * the model line of the table's provenance ("# model=projectile g=9.81
 * speed=5 angle=90 t_end=...").  Inside draw/ only. */
#ifndef VB_APEX_H
#define VB_APEX_H

#include <stddef.h>

/* 0 with the apex and what the height is ("y"), or -1 (a model without
 * an exact solution, one not built in, no model line) */
int vb_exact_apex(char *const *comments, size_t n, double *apex);

#endif
