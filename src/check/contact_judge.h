/* contact_judge.h — a case's contact.csv (output/contact_table.c) against
 * the baseline's: each contact handler's measures judged by how far they
 * lie from their exact values (docs/check.md, "Contact handlers"). */
#ifndef VB_CONTACT_JUDGE_H
#define VB_CONTACT_JUDGE_H

#include <stddef.h>

#include "baseline.h"
#include "changes.h"

/* Compare the baseline's contact.csv with the one made now.  Every column
 * of the writer's schema must be there once and no other, every cell what
 * the writer prints (a number, inf, or blank), the '#' lines the same, the
 * exact values the same (they are fixed by the model, not the handler).
 * A baseline row not made now is missing; with VB_COMPARE_SHARED_LEVELS
 * (compare) rows only one side has are left alone.  0, or VB_COMPARE_BAD
 * (file, line and column said in err) or VB_COMPARE_OOM. */
int vb_compare_contact(const char *name, vb_text base, vb_text now, const vb_tolerance *tol,
                       unsigned flags, vb_changes *out, char *err, size_t errlen);

#endif
