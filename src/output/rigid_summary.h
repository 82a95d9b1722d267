/* rigid_summary.h — a rigid body's case in its summary.md (docs/rigid.md
 * §7): the table of its attitude, angular velocity and energy orders, the
 * flip period, the world angular momentum's drift and the tumbles, and
 * its frame-rate table. */
#ifndef VB_RIGID_SUMMARY_H
#define VB_RIGID_SUMMARY_H

#include <stdio.h>

#include "results.h"

void vb_rigid_summary(const vb_sweep *s, FILE *f);

#endif
