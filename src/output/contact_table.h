/* contact_table.h — contact.csv on its schema (schema.h): what each
 * contact handler's run (composed.h, driver/contactrun.h) found, beside
 * the exact answer (docs/contact.md).  Written for a case that measures
 * contact events (VB_MEASURE_CONTACT, profile.h), and for no other: the
 * particle tables are as they were. */
#ifndef VB_CONTACT_TABLE_H
#define VB_CONTACT_TABLE_H

#include <stdio.h>

#include "runs_table.h"
#include "schema.h"

/* its columns in order (a column's name: VB_CONTACT_COL(PASS_SPEED)) */
enum {
    VB_COL_CONTACT_MODEL,
    VB_COL_CONTACT_INTEGRATOR,
    VB_COL_CONTACT_PLAN,
    VB_COL_CONTACT_DT,
    VB_COL_CONTACT_STATUS,
    VB_COL_CONTACT_E_BOUNCE1,
    VB_COL_CONTACT_E_BOUNCE2,
    VB_COL_CONTACT_E_BOUNCE3,
    VB_COL_CONTACT_HEIGHT1,
    VB_COL_CONTACT_HEIGHT2,
    VB_COL_CONTACT_HEIGHT3,
    VB_COL_CONTACT_BOUNCES,
    VB_COL_CONTACT_BOUNCES_EXACT,
    VB_COL_CONTACT_T_REST,
    VB_COL_CONTACT_T_REST_EXACT,
    VB_COL_CONTACT_ENERGY_GAIN_10,
    VB_COL_CONTACT_DEPTH_MAX,
    VB_COL_CONTACT_STOP_X,
    VB_COL_CONTACT_STOP_X_EXACT,
    VB_COL_CONTACT_STOP_T,
    VB_COL_CONTACT_STOP_T_EXACT,
    VB_COL_CONTACT_PASS_SPEED,
    VB_COL_CONTACT_PASS_BOUND,
    VB_COL_CONTACT_PASS_AT_MOST,
    VB_COL_CONTACT_T_ROLL,
    VB_COL_CONTACT_T_ROLL_EXACT,
    VB_COL_CONTACT_S_ROLL,
    VB_COL_CONTACT_S_ROLL_EXACT,
    VB_COL_CONTACT_V_ROLL,
    VB_COL_CONTACT_V_ROLL_EXACT,
    VB_COL_CONTACT_SLIP_MAX,
    VB_COL_CONTACT_A_ERR,
    VB_COL_CONTACT_CREEP,
    VB_COL_CONTACT_CREEP_EXACT,
    VB_COL_CONTACT_CREEP_SPEED,
    VB_COL_CONTACT_ENERGY_ERR,
    VB_CONTACT_COLUMNS
};

/* Its views: a wall's (a handler's or a 2-D engine's runs: the bounce,
 * the slide, the tunnel) and a rigid body's on the ground (a solver's
 * runs: roll, box-incline); model to status and depth_max are in both. */
enum { VB_CONTACT_VIEW_WALL = 1u, VB_CONTACT_VIEW_BODY = 2u };

extern const vb_schema vb_contact_schema;
#define VB_CONTACT_COL(c) vb_schema_name(&vb_contact_schema, VB_COL_CONTACT_##c)

struct vb_sweep;

/* The table: its header, then a row a run with contact measures. */
void vb_write_contact(const struct vb_sweep *s, FILE *f);
/* The view of a run's measures (result.h's vb_contact_result) */
struct vb_contact_result;
unsigned vb_contact_view(const struct vb_contact_result *c);

/* bounces.csv (chart data) of a case that measures bounces
 * (VB_MEASURE_BOUNCES): after each bounce of each fixed-step run, the
 * height the ball then reaches as stepped, against e^2n h0, and the energy
 * after it over that before the first bounce, against e^2n. */
void vb_write_bounces(const struct vb_sweep *s, FILE *f);
enum {
    VB_COL_BOUNCES_MODEL,
    VB_COL_BOUNCES_INTEGRATOR,
    VB_COL_BOUNCES_PLAN,
    VB_COL_BOUNCES_DT,
    VB_COL_BOUNCES_BOUNCE,
    VB_COL_BOUNCES_HEIGHT,
    VB_COL_BOUNCES_HEIGHT_EXACT,
    VB_COL_BOUNCES_ENERGY,
    VB_COL_BOUNCES_ENERGY_EXACT,
    VB_BOUNCES_COLUMNS
};
extern const vb_schema vb_bounces_schema;
#define VB_BOUNCES_COL(c) vb_schema_name(&vb_bounces_schema, VB_COL_BOUNCES_##c)

/* summary.md's section of the handlers' findings (nothing for a case
 * without): a row a handler's run with fixed steps. */
void vb_contact_summary(const struct vb_sweep *s, FILE *f);

/* The overall summary.md's table of the contact solvers (nothing for a run
 * without a rigid body inside one): a row a case of sweeps[0..n) and what it
 * shows (when it rolls and its speed then, its creep, or its acceleration),
 * a column a solver, a table a rotation method, at each case's fixed step
 * nearest 1/60 s. */
void vb_contact_overview(const struct vb_sweep *sweeps, size_t n, FILE *f);

#endif
