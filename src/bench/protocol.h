/* protocol.h — what the external-engine protocol costs (protocol.c). */
#ifndef VB_PROTOCOL_H
#define VB_PROTOCOL_H

#include <stddef.h>

#include "model.h"

/* ns[0] the built-in velocity-verlet through sim, ns[1] an engine that only
 * echoes the engine's trajectory, ns[2] the engine: ns per step, medians of
 * `repeat` interleaved runs of `steps` fixed steps of 1e-3 on the model. */
#define VB_BENCH_ENGINE_MODES 3
int vb_bench_engine(const char *command, const vb_model *m, unsigned long steps, int repeat,
                    double ns[VB_BENCH_ENGINE_MODES], char *err, size_t errlen);

#endif
