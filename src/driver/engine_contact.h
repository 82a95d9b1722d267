/* engine_contact.h — an engine at a contact (protocol 4,
 * docs/real-engines.md §6): what its run's rows cannot tell, asked of the
 * engine run by run.  The rows themselves are measured as a handler's
 * states are (contactrun.h); the tunnel's passing speed needs runs of
 * their own, a ball at each speed and phase of contact_metrics.h's scan,
 * each sent to the engine as a request of the case's tunnel with v and d
 * changed.  driver/runner.c calls it at the end of an engine's run. */
#ifndef VB_ENGINE_CONTACT_H
#define VB_ENGINE_CONTACT_H

#include <stddef.h>

#include "engine.h"
#include "model.h"
#include "result.h"

/* The smallest speed at which the case's tunnel ball (m) passes its wall
 * under engine e at fixed steps of dt (level: the sweep's, for the runs'
 * names): vb_tunnel_pass_speed_scan's, INFINITY when none up to 100 times
 * the bound, *lowest 1 when it passed at the lowest speed tried (an upper
 * bound, no measure), *failed VB_STATUS_OK.  NAN with why set when a run failed,
 * *failed how: VB_STATUS_DIVERGED for a row that is not finite (NaN or
 * either infinity: no pass, no ball held back), VB_STATUS_ENGINE_FAILED
 * for any other failure. */
double vb_engine_pass_speed(const vb_engine *e, const vb_model *m, double dt, int level,
                            int *lowest, vb_status *failed, char *why, size_t whylen);

#endif
