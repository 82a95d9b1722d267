/* body_table.h — body.csv, chart data of a case that measures an attitude
 * (a rigid body's, profile.h's VB_MEASURE_ATTITUDE), on its schema
 * (schema.h): the body its w is drawn on, one row of its principal
 * moments I1, I2, I3, of its exact start's energy ellipsoid 2T = sum I_i
 * w_i^2 and L sphere L^2 = sum I_i^2 w_i^2, and of w's period (inf: none),
 * each as the description made it once (models/rigid.h's vb_rigid_body).
 * draw/ reads it by its columns: the charts of w need no '#' line read
 * back. */
#ifndef VB_BODY_TABLE_H
#define VB_BODY_TABLE_H

#include <stdio.h>

#include "schema.h"

enum {
    VB_COL_BODY_INERTIA1,
    VB_COL_BODY_INERTIA2,
    VB_COL_BODY_INERTIA3,
    VB_COL_BODY_TWO_T,
    VB_COL_BODY_L_SQUARED,
    VB_COL_BODY_W_PERIOD,
    VB_BODY_COLUMNS
};
extern const vb_schema vb_body_schema;
#define VB_BODY_COL(c) vb_schema_name(&vb_body_schema, VB_COL_BODY_##c)

struct vb_sweep;
void vb_write_body(const struct vb_sweep *s, FILE *f);

#endif
