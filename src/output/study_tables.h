/* study_tables.h — the tables of the studies beside a sweep on their
 * schemas (schema.h): stability.csv and stability-summary.csv
 * (stability/), longrun.csv and longrun-summary.csv (longrun/).  Each
 * table's row is a record of its cells, which the study fills and the
 * schema prints; they lie here, under the studies and draw/ (floor 9,
 * beside each other), so that draw/ reads the files by the same columns
 * the studies write (vb_schema_name, the enums below). */
#ifndef VB_STUDY_TABLES_H
#define VB_STUDY_TABLES_H

#include "schema.h"

/* stability.csv: a row a search (docs/stability.md §6); NaN a blank cell */
typedef struct vb_stab_record {
    const char *model, *integrator, *param, *status;
    double value, jitter, omega, z_lo, z_hi, h_lo, h_hi, evals_per_step, z_per_eval, theory,
        rel_to_theory, steps, gap_lo, gap_hi, gap_periods;
    unsigned long long seed, verdicts;
} vb_stab_record;

enum {
    VB_COL_STAB_MODEL,
    VB_COL_STAB_INTEGRATOR,
    VB_COL_STAB_PARAM,
    VB_COL_STAB_VALUE,
    VB_COL_STAB_JITTER,
    VB_COL_STAB_SEED,
    VB_COL_STAB_OMEGA,
    VB_COL_STAB_STATUS,
    VB_COL_STAB_Z_LO,
    VB_COL_STAB_Z_HI,
    VB_COL_STAB_H_LO,
    VB_COL_STAB_H_HI,
    VB_COL_STAB_EVALS_PER_STEP,
    VB_COL_STAB_Z_PER_EVAL,
    VB_COL_STAB_THEORY,
    VB_COL_STAB_REL_TO_THEORY,
    VB_COL_STAB_VERDICTS,
    VB_COL_STAB_STEPS,
    VB_COL_STAB_GAP_LO,
    VB_COL_STAB_GAP_HI,
    VB_COL_STAB_GAP_PERIODS,
    VB_STAB_COLUMNS
};
extern const vb_schema vb_stab_schema;

/* stability-summary.csv: a row an integrator, point and jitter, over its
 * seeds */
typedef struct vb_stab_summary_record {
    const char *model, *integrator, *param;
    double value, jitter, z_median, z_min, z_max, evals_per_step, z_per_eval, theory,
        rel_to_theory, gap_lo, gap_hi, gap_periods;
    unsigned long long seeds, found;
} vb_stab_summary_record;

enum {
    VB_COL_STAB_SUMMARY_MODEL,
    VB_COL_STAB_SUMMARY_INTEGRATOR,
    VB_COL_STAB_SUMMARY_PARAM,
    VB_COL_STAB_SUMMARY_VALUE,
    VB_COL_STAB_SUMMARY_JITTER,
    VB_COL_STAB_SUMMARY_SEEDS,
    VB_COL_STAB_SUMMARY_FOUND,
    VB_COL_STAB_SUMMARY_Z_MEDIAN,
    VB_COL_STAB_SUMMARY_Z_MIN,
    VB_COL_STAB_SUMMARY_Z_MAX,
    VB_COL_STAB_SUMMARY_EVALS_PER_STEP,
    VB_COL_STAB_SUMMARY_Z_PER_EVAL,
    VB_COL_STAB_SUMMARY_THEORY,
    VB_COL_STAB_SUMMARY_REL_TO_THEORY,
    VB_COL_STAB_SUMMARY_GAP_LO,
    VB_COL_STAB_SUMMARY_GAP_HI,
    VB_COL_STAB_SUMMARY_GAP_PERIODS,
    VB_STAB_SUMMARY_COLUMNS
};
extern const vb_schema vb_stab_summary_schema;
/* a column's name: VB_STAB_SUMMARY_COL(Z_MEDIAN) is "z_median" */
#define VB_STAB_SUMMARY_COL(c) vb_schema_name(&vb_stab_summary_schema, VB_COL_STAB_SUMMARY_##c)

/* longrun.csv: every sample of every run (docs/longrun.md §4) */
typedef struct vb_long_record {
    const char *integrator;
    int kahan;
    double t, periods, energy, energy_max, phase, phase_max;
} vb_long_record;

enum {
    VB_COL_LONGRUN_INTEGRATOR,
    VB_COL_LONGRUN_KAHAN,
    VB_COL_LONGRUN_T,
    VB_COL_LONGRUN_PERIODS,
    VB_COL_LONGRUN_ENERGY,
    VB_COL_LONGRUN_ENERGY_MAX,
    VB_COL_LONGRUN_PHASE,
    VB_COL_LONGRUN_PHASE_MAX,
    VB_LONGRUN_COLUMNS
};
extern const vb_schema vb_longrun_schema;
#define VB_LONGRUN_COL(c) vb_schema_name(&vb_longrun_schema, VB_COL_LONGRUN_##c)

/* longrun-summary.csv: a row a run, its exponents, verdicts and drift */
typedef struct vb_long_summary_record {
    const char *integrator, *status, *energy_verdict, *phase_verdict;
    int kahan;
    double steps_per_period, h, periods, energy_exponent, energy_se, energy_lost_at,
        phase_exponent, phase_se, phase_lost_at, drift, drift_per_particle, energy_max, phase_max;
} vb_long_summary_record;

enum {
    VB_COL_LONGRUN_SUMMARY_INTEGRATOR,
    VB_COL_LONGRUN_SUMMARY_KAHAN,
    VB_COL_LONGRUN_SUMMARY_STEPS_PER_PERIOD,
    VB_COL_LONGRUN_SUMMARY_H,
    VB_COL_LONGRUN_SUMMARY_PERIODS,
    VB_COL_LONGRUN_SUMMARY_STATUS,
    VB_COL_LONGRUN_SUMMARY_ENERGY_EXPONENT,
    VB_COL_LONGRUN_SUMMARY_ENERGY_SE,
    VB_COL_LONGRUN_SUMMARY_ENERGY_VERDICT,
    VB_COL_LONGRUN_SUMMARY_ENERGY_LOST_AT,
    VB_COL_LONGRUN_SUMMARY_PHASE_EXPONENT,
    VB_COL_LONGRUN_SUMMARY_PHASE_SE,
    VB_COL_LONGRUN_SUMMARY_PHASE_VERDICT,
    VB_COL_LONGRUN_SUMMARY_PHASE_LOST_AT,
    VB_COL_LONGRUN_SUMMARY_DRIFT,
    VB_COL_LONGRUN_SUMMARY_DRIFT_PER_PARTICLE,
    VB_COL_LONGRUN_SUMMARY_ENERGY_MAX,
    VB_COL_LONGRUN_SUMMARY_PHASE_MAX,
    VB_LONGRUN_SUMMARY_COLUMNS
};
extern const vb_schema vb_longrun_summary_schema;

/* The float32 sweep's table, written by plots/float32-sweep.sh (sim at 2^3
 * to 2^20 steps a period, float64 and float32 at offsets 0, 1e3, 1e4:
 * docs/float32.md §2) into a file its caller names; the columns only
 * (the script prints them: tests/schemas.py holds its header to them),
 * which draw --chart float32 reads it by. */
enum {
    VB_COL_FLOAT32_INTEGRATOR,
    VB_COL_FLOAT32_PRECISION,
    VB_COL_FLOAT32_OFFSET,
    VB_COL_FLOAT32_STEPS_PER_PERIOD,
    VB_COL_FLOAT32_DT,
    VB_COL_FLOAT32_ERR_POS_MAX,
    VB_FLOAT32_COLUMNS
};
extern const vb_schema vb_float32_schema;
#define VB_FLOAT32_COL(c) vb_schema_name(&vb_float32_schema, VB_COL_FLOAT32_##c)

#endif
