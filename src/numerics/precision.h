/* precision.h — the arithmetic a run is made in, and what its round-off
 * allows: one place for the floor under the order fits and check, and for
 * the "= name" rule, so a float32 engine (docs/real-engines.md §1.6) and a
 * built-in run in float32 (`precision = float32`) are judged alike. */
#ifndef VB_PRECISION_H
#define VB_PRECISION_H

#include <stddef.h>

typedef enum { VB_FLOAT64 = 0, VB_FLOAT32 = 1 } vb_precision;

/* "float64" or "float32"; the names the case files, the engine protocol
 * and the tables use. */
const char *vb_precision_name(vb_precision p);

/* 0 and *out set for "float64" or "float32"; -1 for anything else. */
int vb_precision_parse(const char *text, vb_precision *out);

/* The unit round-off's gap at 1: DBL_EPSILON or FLT_EPSILON. */
double vb_precision_eps(vb_precision p);

/* Of two runs compared, the one of fewer digits decides what is round-off. */
vb_precision vb_precision_coarser(vb_precision a, vb_precision b);

/* An error at or below this is round-off, not truncation error:
 * VB_FLOOR_ULPS eps scale (docs/method.md §5), with the eps of p. */
double vb_roundoff_floor(vb_precision p, double scale);

/* Two errors of runs of `steps` steps the same but for round-off in p.
 * float64: vb_same_to_roundoff (16 eps N^1.5 scale and 1e-3 of the larger).
 * float32: |a - b| <= 2 eps32 N scale and <= 0.1 of the larger; the
 * double rule with eps32 would admit anything at N = 40 000 (15 times the
 * positions' size), and float32's round-off is a few per cent of the
 * error at the finest steps, so 1e-3 cannot hold.  The measurements behind
 * 2 and 0.1 are in docs/real-engines.md §1.6. */
#define VB_SAME32_ULPS 2.0
#define VB_SAME32_RTOL 0.1
int vb_same_to_roundoff_in(vb_precision p, double a, double b, double steps, double scale);

/* The two parts of that rule: the absolute round-off of an error after
 * `steps` steps (16 eps N^1.5 scale; float32: 2 eps32 N scale), and the
 * share of the larger error two runs may differ by (1e-3; float32: 0.1). */
double vb_same_floor(vb_precision p, double steps, double scale);
double vb_same_rtol(vb_precision p);

/* Two runs' signed witnesses (metrics.h: the mean of sum_i w_i e_i, w_i <=
 * 1.5, over n components) the same to round-off: within the floor above,
 * or the share of the larger RMS error, times the most the weights make
 * of one error's norm (1.5 sqrt(n)).  The norms of two errors of equal
 * size and opposite sign agree; their witnesses differ by about twice
 * the error. */
int vb_same_signed_in(vb_precision p, double a, double b, double rms_a, double rms_b,
                      double steps, double scale, size_t n);

/* The floor under `check`'s comparisons of errors of runs of `steps` steps
 * in p (docs/check.md, "The tolerances, and why"):
 *  - float64: ulps eps N^1.5 scale: a double's round-off in a second-order
 *    ODE is summed twice, and grows as N^1.5 (Brouwer's law);
 *  - float32: ulps eps32 N scale: float32's round-off is rounding of
 *    x + h v with h v far below x's last place, the same sign step after
 *    step, and was measured at 0.055 to 0.30 N eps32 of the positions'
 *    size (docs/real-engines.md §1.6); N^1.5 with eps32 would be 15 times
 *    the positions' size at N = 40 000 and admit anything. */
double vb_check_roundoff_floor(vb_precision p, double ulps, double steps, double scale);

#endif
