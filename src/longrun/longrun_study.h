/* longrun_study.h — the long runs of several integrators on one model,
 * one a thread, read back in the order given. */
#ifndef VB_LONGRUN_STUDY_H
#define VB_LONGRUN_STUDY_H

#include "longrun_run.h"

typedef struct vb_long_study {
    const vb_model *model;
    const vb_integrator *const *integ; /* a compensated one is its own entry */
    const vb_integrator *const *base;  /* the method integ[i] compensates, or integ[i] */
    const int *kahan;                  /* 1 where integ[i] is compensated */
    size_t n_integ;
    vb_long_opts opts;
    vb_long_result *results;           /* made: one an integrator */
} vb_long_study;

/* 0, or -1 with the first failure's message; vb_long_study_free after. */
int vb_long_study_run(vb_long_study *s, unsigned threads, char *err, size_t errlen);
void vb_long_study_free(vb_long_study *s);

#endif
