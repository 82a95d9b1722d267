/* fuzz_trace.c — libFuzzer target: the trace reader (one step a line) on
 * arbitrary bytes, through a real file as `--steps FILE` reads it. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/vb-fuzz-trace.%ld", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
    vb_trace tr;
    char err[1024];
    if (vb_trace_load(path, &tr, err, sizeof err) == 0) {
        /* a loaded trace holds only finite, positive steps */
        for (size_t i = 0; i < tr.n; i++)
            if (!(tr.h[i] > 0 && tr.h[i] < INFINITY))
                __builtin_trap();
        vb_trace_free(&tr);
    } else if (!err[0]) {
        __builtin_trap();
    }
    return 0;
}
