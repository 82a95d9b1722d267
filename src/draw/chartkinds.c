/* chartkinds.c — the table of chart kinds (chartkinds.h).  A new chart is
 * its builder's file, holding its entry (its name, table, builder and
 * which cases get it), and a line here: its extern and its place in the
 * table, which is the order of a case's charts in its report.  The cases
 * of a grid, of a rigid body, of a rigid body at a contact and of a sweep
 * of particles each get charts of their own (casecharts.h), so each
 * group's order is its own. */
#include "chartkinds.h"

#include <string.h>

/* a grid's own directory */
extern const vb_chart_kind vb_kind_grid_order, vb_kind_grid_error;
extern const vb_chart_kind vb_kind_roll_map, vb_kind_stack_stand, vb_kind_stack_cost;
/* a rigid body's */
extern const vb_chart_kind vb_kind_polhode, vb_kind_angvel_time, vb_kind_attitude_time,
    vb_kind_invariants_time;
/* a rigid body's at a contact */
extern const vb_chart_kind vb_kind_roll_time, vb_kind_creep;
/* a sweep of particles' */
extern const vb_chart_kind vb_kind_convergence, vb_kind_band, vb_kind_error_time,
    vb_kind_energy_time, vb_kind_constraint_time, vb_kind_path, vb_kind_work, vb_kind_rates,
    vb_kind_apex, vb_kind_bounces, vb_kind_tunnel, vb_kind_work_time;
/* the studies' tables, drawn by name alone */
extern const vb_chart_kind vb_kind_longrun, vb_kind_stability, vb_kind_float32;

static const vb_chart_kind *const table[] = {
    &vb_kind_grid_order,      &vb_kind_grid_error,
    &vb_kind_roll_map,        &vb_kind_stack_stand,   &vb_kind_stack_cost,

    &vb_kind_polhode,         &vb_kind_angvel_time,   &vb_kind_attitude_time,
    &vb_kind_invariants_time,

    &vb_kind_roll_time,       &vb_kind_creep,

    &vb_kind_convergence,     &vb_kind_band,          &vb_kind_error_time,
    &vb_kind_energy_time,     &vb_kind_constraint_time, &vb_kind_path,
    &vb_kind_work,            &vb_kind_rates,         &vb_kind_apex,
    &vb_kind_bounces,         &vb_kind_tunnel,        &vb_kind_work_time,

    &vb_kind_longrun,         &vb_kind_stability,     &vb_kind_float32,
};
#define N_KINDS (sizeof table / sizeof table[0])

size_t vb_chart_kind_count(void) { return N_KINDS; }

const vb_chart_kind *vb_chart_kind_at(size_t i) { return i < N_KINDS ? table[i] : NULL; }

const vb_chart_kind *vb_chart_kind_named(const char *name)
{
    for (size_t i = 0; i < N_KINDS; i++)
        if (!strcmp(table[i]->name, name))
            return table[i];
    return NULL;
}
