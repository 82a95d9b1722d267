/* columns.h — what the components of a model's state are called in the
 * CSV files: the trajectories of `sim --trajectory`, the output an
 * external engine writes (docs/engines.md), the paths of the charts. */
#ifndef VB_COLUMNS_H
#define VB_COLUMNS_H

#include <stddef.h>

#include "model.h"

/* The column name of component c of the position (or velocity) in a
 * trajectory: x, v for one particle in 1-D; x, y, vx, vy for one in 2-D;
 * x1, y1, x2, ..., vx1, ... for several. */
void vb_state_column(char *buf, size_t len, const vb_model *m, int velocity, size_t c);

/* Component c with a prefix ("v" for a velocity, "" for a position),
 * always with its axis: x, y, z for one particle; x1, y1, ... for several;
 * x1, x2, ... for several in 1-D. */
void vb_state_component(char *buf, size_t len, const vb_model *m, const char *prefix, size_t c);

#endif
