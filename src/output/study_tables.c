/* study_tables.c — the columns of the studies' tables (study_tables.h):
 * each a field of the table's record; a number in its shortest round-trip
 * form (numbers.h), NaN as a blank cell. */
#include "study_tables.h"

#include <stddef.h>

/* column e: its name, and the field f of record type R it prints (text, a
 * count, an integer, a number) */
#define COLUMN(R, e, name, f, fmt, get)                                                            \
    [e] = {name, fmt, get, offsetof(R, f), 0, NULL, 0, VB_READ, 0, 0, 0, 0}
#define TEXT(R, e, name, f) COLUMN(R, e, name, f, VB_FMT_TEXT, vb_get_text)
#define COUNT(R, e, name, f) COLUMN(R, e, name, f, VB_FMT_COUNT, vb_get_count)
#define INT(R, e, name, f) COLUMN(R, e, name, f, VB_FMT_INT, vb_get_int)
#define NUM(R, e, name, f) COLUMN(R, e, name, f, VB_FMT_SHORTEST, vb_get_real)

/* ---- stability.csv ---- */

#define S(kind, e, name, f) kind(vb_stab_record, VB_COL_STAB_##e, name, f)
static const vb_column stab_columns[] = {
    S(TEXT, MODEL, "model", model),
    S(TEXT, INTEGRATOR, "integrator", integrator),
    S(TEXT, PARAM, "param", param),
    S(NUM, VALUE, "value", value),
    S(NUM, JITTER, "jitter", jitter),
    S(COUNT, SEED, "seed", seed),
    S(NUM, OMEGA, "omega", omega),
    S(TEXT, STATUS, "status", status),
    S(NUM, Z_LO, "z_lo", z_lo),
    S(NUM, Z_HI, "z_hi", z_hi),
    S(NUM, H_LO, "h_lo", h_lo),
    S(NUM, H_HI, "h_hi", h_hi),
    S(NUM, EVALS_PER_STEP, "evals_per_step", evals_per_step),
    S(NUM, Z_PER_EVAL, "z_per_eval", z_per_eval),
    S(NUM, THEORY, "theory", theory),
    S(NUM, REL_TO_THEORY, "rel_to_theory", rel_to_theory),
    S(COUNT, VERDICTS, "verdicts", verdicts),
    /* the steps of all the search's runs, counted in a double */
    COLUMN(vb_stab_record, VB_COL_STAB_STEPS, "steps", steps, VB_FMT_FIX0, vb_get_real),
    S(NUM, GAP_LO, "gap_lo", gap_lo),
    S(NUM, GAP_HI, "gap_hi", gap_hi),
    S(NUM, GAP_PERIODS, "gap_periods", gap_periods),
};
const vb_schema vb_stab_schema = VB_SCHEMA("stability.csv", stab_columns);
_Static_assert(sizeof stab_columns / sizeof stab_columns[0] == VB_STAB_COLUMNS,
               "a column of stability.csv without its line");

/* ---- stability-summary.csv ---- */

#define SS(kind, e, name, f) kind(vb_stab_summary_record, VB_COL_STAB_SUMMARY_##e, name, f)
static const vb_column stab_summary_columns[] = {
    SS(TEXT, MODEL, "model", model),
    SS(TEXT, INTEGRATOR, "integrator", integrator),
    SS(TEXT, PARAM, "param", param),
    SS(NUM, VALUE, "value", value),
    SS(NUM, JITTER, "jitter", jitter),
    SS(COUNT, SEEDS, "seeds", seeds),
    SS(COUNT, FOUND, "found", found),
    SS(NUM, Z_MEDIAN, "z_median", z_median),
    SS(NUM, Z_MIN, "z_min", z_min),
    SS(NUM, Z_MAX, "z_max", z_max),
    SS(NUM, EVALS_PER_STEP, "evals_per_step", evals_per_step),
    SS(NUM, Z_PER_EVAL, "z_per_eval", z_per_eval),
    SS(NUM, THEORY, "theory", theory),
    SS(NUM, REL_TO_THEORY, "rel_to_theory", rel_to_theory),
    SS(NUM, GAP_LO, "gap_lo", gap_lo),
    SS(NUM, GAP_HI, "gap_hi", gap_hi),
    SS(NUM, GAP_PERIODS, "gap_periods", gap_periods),
};
const vb_schema vb_stab_summary_schema =
    VB_SCHEMA("stability-summary.csv", stab_summary_columns);
_Static_assert(sizeof stab_summary_columns / sizeof stab_summary_columns[0] ==
                   VB_STAB_SUMMARY_COLUMNS,
               "a column of stability-summary.csv without its line");

/* ---- longrun.csv ---- */

#define L(kind, e, name, f) kind(vb_long_record, VB_COL_LONGRUN_##e, name, f)
static const vb_column long_columns[] = {
    L(TEXT, INTEGRATOR, "integrator", integrator),
    L(INT, KAHAN, "kahan", kahan),
    L(NUM, T, "t", t),
    L(NUM, PERIODS, "periods", periods),
    L(NUM, ENERGY, "energy", energy),
    L(NUM, ENERGY_MAX, "energy_max", energy_max),
    L(NUM, PHASE, "phase", phase),
    L(NUM, PHASE_MAX, "phase_max", phase_max),
};
const vb_schema vb_longrun_schema = VB_SCHEMA("longrun.csv", long_columns);
_Static_assert(sizeof long_columns / sizeof long_columns[0] == VB_LONGRUN_COLUMNS,
               "a column of longrun.csv without its line");

/* ---- longrun-summary.csv ---- */

#define LS(kind, e, name, f) kind(vb_long_summary_record, VB_COL_LONGRUN_SUMMARY_##e, name, f)
static const vb_column long_summary_columns[] = {
    LS(TEXT, INTEGRATOR, "integrator", integrator),
    LS(INT, KAHAN, "kahan", kahan),
    LS(NUM, STEPS_PER_PERIOD, "steps_per_period", steps_per_period),
    LS(NUM, H, "h", h),
    LS(NUM, PERIODS, "periods", periods),
    LS(TEXT, STATUS, "status", status),
    LS(NUM, ENERGY_EXPONENT, "energy_exponent", energy_exponent),
    LS(NUM, ENERGY_SE, "energy_se", energy_se),
    LS(TEXT, ENERGY_VERDICT, "energy_verdict", energy_verdict),
    LS(NUM, ENERGY_LOST_AT, "energy_lost_at", energy_lost_at),
    LS(NUM, PHASE_EXPONENT, "phase_exponent", phase_exponent),
    LS(NUM, PHASE_SE, "phase_se", phase_se),
    LS(TEXT, PHASE_VERDICT, "phase_verdict", phase_verdict),
    LS(NUM, PHASE_LOST_AT, "phase_lost_at", phase_lost_at),
    LS(NUM, DRIFT, "drift", drift),
    LS(NUM, DRIFT_PER_PARTICLE, "drift_per_particle", drift_per_particle),
    LS(NUM, ENERGY_MAX, "energy_max", energy_max),
    LS(NUM, PHASE_MAX, "phase_max", phase_max),
};
const vb_schema vb_longrun_summary_schema =
    VB_SCHEMA("longrun-summary.csv", long_summary_columns);
_Static_assert(sizeof long_summary_columns / sizeof long_summary_columns[0] ==
                   VB_LONGRUN_SUMMARY_COLUMNS,
               "a column of longrun-summary.csv without its line");

/* ---- the float32 sweep (plots/float32-sweep.sh writes it) ---- */

#define F32(e, name) [VB_COL_FLOAT32_##e] = {name, VB_FMT_TEXT, NULL, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0}
static const vb_column float32_columns[] = {
    F32(INTEGRATOR, "integrator"),
    F32(PRECISION, "precision"),
    F32(OFFSET, "offset"),
    F32(STEPS_PER_PERIOD, "steps_per_period"),
    F32(DT, "dt"),
    F32(ERR_POS_MAX, "err_pos_max"),
};
const vb_schema vb_float32_schema = VB_SCHEMA("plots/float32-sweep.sh", float32_columns);
_Static_assert(sizeof float32_columns / sizeof float32_columns[0] == VB_FLOAT32_COLUMNS,
               "a column of the float32 sweep without its line");
