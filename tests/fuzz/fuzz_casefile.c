/* fuzz_casefile.c — libFuzzer target: the case-file parser and checker on
 * arbitrary bytes.  Any input must give a case or a message, never a crash,
 * a leak or undefined behaviour (built with ASan and UBSan), and a grid
 * never more points than the limit.
 *   make fuzz FUZZ_SECONDS=N */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "casefile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vb_case *c;
    size_t n;
    char err[1024];
    /* a trace named in the input resolves against an empty directory; a
     * grid (a list or a range in a value) expands to every point */
    if (vb_case_parse_points("/nonexistent/fuzz.case", (const char *)data, size, &c, &n, err,
                             sizeof err) == 0) {
        if (n == 0 || n > VB_MAX_GRID_POINTS)
            __builtin_trap();
        vb_case_free_points(c, n);
    } else if (!memchr(err, '\0', sizeof err) || !err[0]) {
        __builtin_trap(); /* a failure must say why */
    }
    return 0;
}
