/* contact_table.c — the columns of contact.csv: a contact handler's run's
 * measures and their exact values (docs/contact.md, "Metrics").  A cell
 * that does not apply (the slide's stop on a bounce) is blank; inf is a
 * measure that never came (no rest by the run's end, no passing speed up
 * to 1000 times the bound) or an exact answer that is infinite;
 * pass_at_most 1 says the passing speed beside it is only an upper bound
 * (an engine's ball passed at the lowest speed its search tried). */
#include "contact_table.h"
#include "rigid.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "cells.h"
#include "results.h"
#include "walls.h"

#define ROW(p) ((const vb_runs_row *)(p))
#define CONTACT(f) offsetof(vb_contact_result, f)

/* a measure of vb_contact_result at col->at: NaN is blank */
static vb_cell measure(const vb_column *c, const void *t, const void *row)
{
    (void)t;
    double x = *(const double *)(const void *)((const char *)&ROW(row)->res->contact + c->at);
    return vb_cell_x_or_blank(x);
}

#define M(name, field) {name, VB_FMT_REAL, measure, CONTACT(field), 0, NULL, VB_CONTACT_VIEW_WALL, VB_READ, 0, 0, 0, 0}
#define B(name, field) {name, VB_FMT_REAL, measure, CONTACT(field), 0, NULL, VB_CONTACT_VIEW_BODY, VB_READ, 0, 0, 0, 0}

static const vb_column columns[] = {
    [VB_COL_CONTACT_MODEL] = {"model", VB_FMT_TEXT, vb_get_row_model, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_CONTACT_INTEGRATOR] = {"integrator", VB_FMT_TEXT, vb_get_row_integ, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_CONTACT_PLAN] = {"plan", VB_FMT_TEXT, vb_get_row_plan, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_CONTACT_DT] = {"dt", VB_FMT_REAL, vb_get_row_dt, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_CONTACT_STATUS] = {"status", VB_FMT_TEXT, vb_get_row_status, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_CONTACT_E_BOUNCE1] = M("e_bounce1", e_bounce[0]),
    [VB_COL_CONTACT_E_BOUNCE2] = M("e_bounce2", e_bounce[1]),
    [VB_COL_CONTACT_E_BOUNCE3] = M("e_bounce3", e_bounce[2]),
    [VB_COL_CONTACT_HEIGHT1] = M("height1", height[0]),
    [VB_COL_CONTACT_HEIGHT2] = M("height2", height[1]),
    [VB_COL_CONTACT_HEIGHT3] = M("height3", height[2]),
    [VB_COL_CONTACT_BOUNCES] = M("bounces", bounces),
    [VB_COL_CONTACT_BOUNCES_EXACT] = M("bounces_exact", bounces_exact),
    [VB_COL_CONTACT_T_REST] = M("t_rest", t_rest),
    [VB_COL_CONTACT_T_REST_EXACT] = M("t_rest_exact", t_rest_exact),
    [VB_COL_CONTACT_ENERGY_GAIN_10] = M("energy_gain_10", gain10),
    [VB_COL_CONTACT_DEPTH_MAX] = {"depth_max", VB_FMT_REAL, measure, CONTACT(depth_max), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_CONTACT_STOP_X] = M("stop_x", stop_x),
    [VB_COL_CONTACT_STOP_X_EXACT] = M("stop_x_exact", stop_x_exact),
    [VB_COL_CONTACT_STOP_T] = M("stop_t", stop_t),
    [VB_COL_CONTACT_STOP_T_EXACT] = M("stop_t_exact", stop_t_exact),
    [VB_COL_CONTACT_PASS_SPEED] = M("pass_speed", pass_speed),
    [VB_COL_CONTACT_PASS_BOUND] = M("pass_bound", pass_bound),
    [VB_COL_CONTACT_PASS_AT_MOST] = M("pass_at_most", pass_at_most),
    [VB_COL_CONTACT_T_ROLL] = B("t_roll", t_roll),
    [VB_COL_CONTACT_T_ROLL_EXACT] = B("t_roll_exact", t_roll_exact),
    [VB_COL_CONTACT_S_ROLL] = B("s_roll", s_roll),
    [VB_COL_CONTACT_S_ROLL_EXACT] = B("s_roll_exact", s_roll_exact),
    [VB_COL_CONTACT_V_ROLL] = B("v_roll", v_roll),
    [VB_COL_CONTACT_V_ROLL_EXACT] = B("v_roll_exact", v_roll_exact),
    [VB_COL_CONTACT_SLIP_MAX] = B("slip_max", slip_max),
    [VB_COL_CONTACT_A_ERR] = B("a_err", a_err),
    [VB_COL_CONTACT_CREEP] = B("creep", creep),
    [VB_COL_CONTACT_CREEP_EXACT] = B("creep_exact", creep_exact),
    [VB_COL_CONTACT_CREEP_SPEED] = B("creep_speed", creep_speed),
    [VB_COL_CONTACT_ENERGY_ERR] = B("energy_err", energy_err),
};

const vb_schema vb_contact_schema = VB_SCHEMA("contact.csv", columns);
_Static_assert(sizeof columns / sizeof columns[0] == VB_CONTACT_COLUMNS,
               "a column of contact.csv without its line");

unsigned vb_contact_view(const vb_contact_result *c)
{
    return c->body ? VB_CONTACT_VIEW_BODY : VB_CONTACT_VIEW_WALL;
}

void vb_write_contact(const vb_sweep *s, FILE *f)
{
    /* a case's contact is one kind: its first run's view is every one's */
    unsigned view = VB_CONTACT_VIEW_WALL;
    for (size_t k = 0; k < s->n_jobs; k++)
        if (s->jobs[k].res.contact.has) {
            view = vb_contact_view(&s->jobs[k].res.contact);
            break;
        }
    vb_schema_header(f, &vb_contact_schema, view);
    for (size_t k = 0; k < s->n_jobs; k++) {
        const vb_sweep_job *j = &s->jobs[k];
        if (!j->res.contact.has)
            continue;
        vb_runs_row row = {&s->c->model, s->c->integ[j->integ], &j->plan, &j->res, j->level};
        vb_schema_row(f, &vb_contact_schema, view, NULL, &row);
    }
}

/* bounces.csv: a row a bounce of a fixed-step run on the bounce */
typedef struct bounces_line {
    const char *model, *integrator, *plan;
    double dt;
    int bounce;
    /* height blank where the run ended before its top; the exact ones
     * where the model gives none */
    double height, height_exact, energy, energy_exact;
} bounces_line;

#define BOUNCE(e, name, f, fmt, get)                                                               \
    [VB_COL_BOUNCES_##e] = {name, fmt, get, offsetof(bounces_line, f), 0, NULL, 0, VB_READ, 0, 0, 0, 0}
static const vb_column bounces_columns[] = {
    BOUNCE(MODEL, "model", model, VB_FMT_TEXT, vb_get_text),
    BOUNCE(INTEGRATOR, "integrator", integrator, VB_FMT_TEXT, vb_get_text),
    BOUNCE(PLAN, "plan", plan, VB_FMT_TEXT, vb_get_text),
    BOUNCE(DT, "dt", dt, VB_FMT_REAL, vb_get_real_always),
    BOUNCE(BOUNCE, "bounce", bounce, VB_FMT_INT, vb_get_int),
    BOUNCE(HEIGHT, "height", height, VB_FMT_REAL, vb_get_real),
    BOUNCE(HEIGHT_EXACT, "height_exact", height_exact, VB_FMT_REAL, vb_get_real),
    BOUNCE(ENERGY, "energy", energy, VB_FMT_REAL, vb_get_real_always),
    BOUNCE(ENERGY_EXACT, "energy_exact", energy_exact, VB_FMT_REAL, vb_get_real),
};
const vb_schema vb_bounces_schema = VB_SCHEMA("bounces.csv", bounces_columns);
_Static_assert(sizeof bounces_columns / sizeof bounces_columns[0] == VB_BOUNCES_COLUMNS,
               "a column of bounces.csv without its line");

void vb_write_bounces(const vb_sweep *s, FILE *f)
{
    vb_model_wall w;
    int exact = vb_model_wall_of(&s->c->model, &w) && w.bounce;
    vb_schema_header(f, &vb_bounces_schema, 0);
    for (size_t k = 0; k < s->n_jobs; k++) {
        const vb_sweep_job *j = &s->jobs[k];
        const vb_contact_result *c = &j->res.contact;
        if (!c->has || c->kind != VB_WALL_BOUNCE || j->kind != VB_PLAN_FIXED)
            continue;
        for (int n = 0; n < VB_CONTACT_APEXES && c->energy[n] == c->energy[n]; n++) {
            bounces_line row = {
                .model = s->c->model.type->name,
                .integrator = s->c->integ[j->integ]->name,
                .plan = vb_plan_name(VB_PLAN_FIXED),
                .dt = j->res.dt,
                .bounce = n + 1,
                .height = c->height[n],
                .height_exact = exact ? vb_bounce_apex(w.bounce, n + 1) : (double)NAN,
                .energy = c->energy[n],
                .energy_exact = exact ? pow(w.bounce->e, 2.0 * (double)(n + 1)) : (double)NAN,
            };
            vb_schema_row(f, &vb_bounces_schema, 0, NULL, &row);
        }
    }
}

/* a number as the summary shows it: "∞" for an infinite one, "–" for none */
static void num(FILE *f, double x, int digits, const char *unit)
{
    if (x != x)
        fputs("–", f);
    else if (isinf(x))
        fputs(x > 0 ? "∞" : "-∞", f);
    else if (digits < 0) /* significant digits */
        fprintf(f, "%.*g%s", -digits, x, unit);
    else
        fprintf(f, "%.*f%s", digits, x, unit);
}

/* a finite figure, a percentage ("+1.23 %") or a ratio ("0.500"), or
 * "–" for none */
static void figure(FILE *f, double x, int percent)
{
    if (!isfinite(x))
        fputs("–", f);
    else if (percent)
        fprintf(f, "%+.2f %%", 100.0 * x);
    else
        fprintf(f, "%.3f", x);
}

/* "x (exact)" */
static void with_exact(FILE *f, double x, double exact, int digits, const char *unit)
{
    num(f, x, digits, unit);
    fputs(" (", f);
    num(f, exact, digits, unit);
    fputc(')', f);
}

/* the first VB_CONTACT_E_SHOWN values, "a, b, c", up to the first
 * missing one after the first */
static void first_three(FILE *f, const double *x, int digits)
{
    for (int i = 0; i < VB_CONTACT_E_SHOWN; i++) {
        if (i && x[i] != x[i])
            break;
        fputs(i ? ", " : "", f);
        num(f, x[i], digits, "");
    }
}

/* The bounce's table: its heading (the exact heights e^2n h0 of the first
 * bounces in it), and a row a run */
static void bounce_heading(const vb_sweep *s, FILE *f)
{
    vb_model_wall w;
    double exact[VB_CONTACT_E_SHOWN] = {NAN, NAN, NAN};
    if (vb_model_wall_of(&s->c->model, &w) && w.bounce)
        for (int i = 0; i < VB_CONTACT_E_SHOWN; i++)
            exact[i] = vb_bounce_apex(w.bounce, i + 1);
    fputs("Each run with fixed steps (a method inside a handler, or an engine at the "
          "contact). *e at the contact*: sqrt(E after / E before) of "
          "the flight energy u²/2 + g y on either side of each of the first three contacts, "
          "what the contact step does to it, not the flight between (a method whose flights "
          "lose energy shows e here and still falls short); *height reached*: the highest "
          "sample of the flight after each of those bounces, as stepped, against the exact "
          "e^2n h0; *energy after 10*: the flight energy after the 10th bounce over that "
          "before the first, against its exact e^20 (– where the run or the exact ball "
          "bounces fewer times); the bounces counted by the run's end and the exact count; "
          "when it came to rest and the exact time; the deepest penetration "
          "(docs/contact.md).\n\n",
          f);
    fputs("| integrator | dt | e at the contact | height reached (exact ", f);
    first_three(f, exact, -4);
    fputs(" m) | energy after 10, against e^20 | bounces (exact) | rest at (exact) | deepest "
          "|\n|---|---|---|---|---|---|---|---|\n",
          f);
}

static void bounce_row(const vb_contact_result *c, FILE *f)
{
    fputc(' ', f);
    first_three(f, c->e_bounce, 4);
    fputs(" | ", f);
    first_three(f, c->height, -4);
    fputs(" | ", f);
    figure(f, c->gain10, 1);
    fputs(" | ", f);
    with_exact(f, c->bounces, c->bounces_exact, 0, "");
    fputs(" | ", f);
    with_exact(f, c->t_rest, c->t_rest_exact, 4, " s");
    fputs(" | ", f);
    num(f, c->depth_max, -3, " m");
    fputs(" |\n", f);
}

static void slide_row(const vb_contact_result *c, FILE *f)
{
    fputc(' ', f);
    with_exact(f, c->stop_x, c->stop_x_exact, 4, " m");
    fputs(" | ", f);
    figure(f,
           isfinite(c->stop_x) && isfinite(c->stop_x_exact) && c->stop_x_exact != 0.0
               ? c->stop_x / c->stop_x_exact - 1.0
               : (double)NAN,
           1);
    fputs(" | ", f);
    with_exact(f, c->stop_t, c->stop_t_exact, 4, " s");
    fputs(" |\n", f);
}

/* a run whose passing speed was not measured says why (a run of the
 * search that diverged or that the engine failed): never a bare "–"; one
 * that is only an upper bound (pass_at_most) says so: "≤" */
static void tunnel_row(const vb_contact_result *c, vb_status status, FILE *f)
{
    fputc(' ', f);
    int at_most = c->pass_at_most == 1.0; /* it passed at the lowest speed tried */
    if (c->pass_speed != c->pass_speed && status != VB_STATUS_OK) {
        fputs(vb_status_name(status), f);
    } else if (at_most) {
        fputs("≤ ", f);
        num(f, c->pass_speed, 4, " m/s, the lowest speed tried passed");
    } else {
        num(f, c->pass_speed, 4, " m/s");
    }
    fputs(" | ", f);
    num(f, c->pass_bound, 4, " m/s");
    fputs(" | ", f);
    fputs(at_most ? "≤ " : "", f);
    figure(f, c->pass_speed / c->pass_bound, 0);
    fputs(" |\n", f);
}

/* a rigid body on the ground inside a solver */
static void body_row(const vb_contact_result *c, FILE *f)
{
    fputc(' ', f);
    with_exact(f, c->t_roll, c->t_roll_exact, -6, " s");
    fputs(" | ", f);
    with_exact(f, c->s_roll, c->s_roll_exact, -6, " m");
    fputs(" | ", f);
    with_exact(f, c->v_roll, c->v_roll_exact, -6, " m/s");
    fputs(" | ", f);
    num(f, c->slip_max, -3, " m/s");
    fputs(" | ", f);
    num(f, c->a_err, -3, "");
    fputs(" | ", f);
    with_exact(f, c->creep, c->creep_exact, -3, " m");
    fputs(" | ", f);
    num(f, c->creep_speed, -3, " m/s");
    fputs(" | ", f);
    num(f, c->energy_err, -3, "");
    fputs(" | ", f);
    num(f, c->depth_max, -3, " m");
    fputs(" |\n", f);
}

static const char body_heading[] =
    "Each run with fixed steps (a rotation method inside a contact solver, METHOD+SOLVER): "
    "*rolls at*: when the slip u = v - w R of the contact point first comes within 0.1 % of its start to 0, placed on the "
    "line of the last two slipping states, with the distance and speed there (∞: it never "
    "rolled), beside the exact ones; *slip after*: the largest |u| from then on (exact 0); "
    "*a error*: the last phase's acceleration (rolling, sliding or stuck), a least-squares "
    "slope of the speed, off the exact one, over g; *creep*: how far a body that must stick "
    "moved (exact 0), and its speed over the second half of its stuck time; *energy*: the "
    "largest |E - E_exact| over the largest exact kinetic energy plus m g times the centre's "
    "height; the deepest penetration (docs/contact.md, \"3D: rolling and resting "
    "bodies\").\n\n"
    "| integrator | dt | rolls at (exact) | distance (exact) | speed (exact) | slip after | a "
    "error | creep (exact) | creep speed | energy | deepest |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|\n";

void vb_contact_summary(const vb_sweep *s, FILE *f)
{
    if (!(s->c->profile.measures & VB_MEASURE_CONTACT))
        return;
    int kind = VB_WALL_NONE, body = 0;
    for (size_t k = 0; k < s->n_jobs && kind == VB_WALL_NONE && !body; k++)
        if (s->jobs[k].res.contact.has) {
            kind = s->jobs[k].res.contact.kind;
            body = s->jobs[k].res.contact.body;
        }
    if (body) {
        fputs("### The contact solvers (contact.csv)\n\n", f);
        vb_contact_answer a = {0};
        if (s->c->profile.state.body)
            vb_rigid_model_answer(&s->c->profile.state.body->model, &a);
        if (a.t_land > 0.0) /* before the table's own heading, which ends with its header */
            fprintf(f, "The ball is dropped: it lands at %.6g s.  A slip that ends at its impact "
                       "(the state before still falling) is placed at the landing, where the "
                       "lowest point's gap falls to 0 under gravity, with the flight's distance "
                       "there and the speed just after the impact; *energy* is blank: its "
                       "landing's loss of the normal kinetic energy comes a step from the exact "
                       "one's, which is no energy error of the contact.\n\n",
                    a.t_land);
        fputs(body_heading, f);
    } else {
        fputs("### The contact handlers and engines (contact.csv)\n\n", f);
    }
    if (body)
        ;
    else if (kind == VB_WALL_BOUNCE)
        bounce_heading(s, f);
    else if (kind == VB_WALL_SLIDE)
        fputs("Each run with fixed steps (a method inside a handler, or an engine at the "
              "contact): where and when the block stopped, against the exact stop "
              "(docs/contact.md).\n\n"
              "| integrator | dt | stop x (exact) | error | stop t (exact) |\n"
              "|---|---|---|---|---|\n",
              f);
    else
        fputs("Each handler and engine at each fixed step: the smallest speed that passes the "
              "wall, a handler's by bisection from its worst phase (∞: none up to 1000 times "
              "the bound), an engine's from six start phases on a grid refined twice (∞: none "
              "up to 100 times the bound; ≤: it passed at the lowest speed tried, 1/400 of the "
              "bound, so the speed is at most that, not measured), against the bound "
              "(w + 2r)/dt above which one step jumps the wall without touching it "
              "(docs/contact.md).\n\n"
              "| integrator | dt | passing speed | (w + 2r)/dt | ratio |\n|---|---|---|---|---|\n",
              f);
    for (size_t k = 0; k < s->n_jobs; k++) {
        const vb_sweep_job *j = &s->jobs[k];
        const vb_contact_result *c = &j->res.contact;
        if (!c->has || j->kind != VB_PLAN_FIXED)
            continue;
        fprintf(f, "| `%s` | %.6g |", s->c->integ[j->integ]->name, j->res.dt);
        if (j->res.status != VB_STATUS_OK && (body || kind != VB_WALL_TUNNEL)) {
            fprintf(f, " %s |", vb_status_name(j->res.status));
            for (int i = 0; i < (body ? 8 : kind == VB_WALL_BOUNCE ? 5 : 2); i++)
                fputs(" |", f);
            fputc('\n', f);
            continue;
        }
        if (body)
            body_row(c, f);
        else if (kind == VB_WALL_BOUNCE)
            bounce_row(c, f);
        else if (kind == VB_WALL_SLIDE)
            slide_row(c, f);
        else
            tunnel_row(c, j->res.status, f);
    }
    fputc('\n', f);
}

/* ---- the overall summary's table of the contact solvers ---- */

/* the solver of a METHOD+SOLVER entry's name ("rigid-splitting+toi": "toi"),
 * or NULL; *method_len the length of its method's */
static const char *solver_of(const char *name, size_t *method_len)
{
    const char *plus = strchr(name, '+');
    if (plus)
        *method_len = (size_t)(plus - name);
    return plus ? plus + 1 : NULL;
}

/* a body's case of the run: its first run with a contact solver's
 * measures, or NULL */
static const vb_contact_result *body_case(const vb_sweep *s)
{
    if (!(s->c->profile.measures & VB_MEASURE_CONTACT))
        return NULL;
    for (size_t k = 0; k < s->n_jobs; k++)
        if (s->jobs[k].res.contact.has && s->jobs[k].res.contact.body)
            return &s->jobs[k].res.contact;
    return NULL;
}

/* the level of the case's fixed steps nearest 1/60 s, the engines' frame */
static int frame_level(const vb_sweep *s, double *dt)
{
    int best = -1;
    double far = INFINITY;
    for (size_t k = 0; k < s->n_jobs; k++) {
        const vb_sweep_job *j = &s->jobs[k];
        double d = fabs(log(j->res.dt * 60.0));
        if (j->kind == VB_PLAN_FIXED && j->res.contact.has && d < far)
            far = d, best = j->level, *dt = j->res.dt;
    }
    return best;
}

/* what a row of the table shows of a body's run */
enum overview_row { ROLLS_AT, ROLLS_SPEED, CREEP, A_ERR };

static void overview_cell(FILE *f, const vb_sweep_job *j, enum overview_row what)
{
    const vb_contact_result *c = &j->res.contact;
    fputc(' ', f);
    if (j->res.status != VB_STATUS_OK)
        fputs(vb_status_name(j->res.status), f);
    else if (what == ROLLS_AT || what == ROLLS_SPEED) {
        double x = what == ROLLS_AT ? c->t_roll : c->v_roll;
        double x0 = what == ROLLS_AT ? c->t_roll_exact : c->v_roll_exact;
        if (isinf(c->t_roll))
            fputs("never", f);
        else
            figure(f, x / x0 - 1.0, 1);
    } else if (what == CREEP) {
        num(f, c->creep, -3, " m");
    } else {
        num(f, c->a_err, -2, "");
    }
    fputs(" |", f);
}

/* one row: the case, what it shows and its exact value, then a cell for
 * each solver of methods[0..mlen) */
static void overview_row(FILE *f, const vb_sweep *s, int level, double dt, const char *method,
                         size_t mlen, const char *const *solvers, size_t n_solvers,
                         enum overview_row what)
{
    const vb_contact_result *c = body_case(s);
    fprintf(f, "| `%s`, dt %.4g: ", s->c->name, dt);
    if (what == ROLLS_AT)
        fprintf(f, "rolls at (exact %.4g s) |", c->t_roll_exact);
    else if (what == ROLLS_SPEED)
        fprintf(f, "rolling speed (exact %.4g m/s) |", c->v_roll_exact);
    else if (what == CREEP)
        fprintf(f, "creep in %.4g s (exact 0) |", s->c->t_end);
    else
        fputs("a error, over g (exact 0) |", f);
    for (size_t i = 0; i < n_solvers; i++) {
        const vb_sweep_job *hit = NULL;
        for (size_t k = 0; k < s->n_jobs && !hit; k++) {
            const vb_sweep_job *j = &s->jobs[k];
            size_t ml = 0;
            const char *sv = solver_of(s->c->integ[j->integ]->name, &ml);
            if (j->kind == VB_PLAN_FIXED && j->level == level && j->res.contact.has && sv &&
                ml == mlen && !strncmp(s->c->integ[j->integ]->name, method, mlen) &&
                !strcmp(sv, solvers[i]))
                hit = j;
        }
        if (hit)
            overview_cell(f, hit, what);
        else
            fputs(" |", f);
    }
    fputc('\n', f);
}

/* the distinct solvers (up to max) and methods of the body cases, in the
 * order they first appear */
static size_t overview_names(const vb_sweep *sweeps, size_t n, const char **names, size_t max,
                             int methods, size_t *lens)
{
    size_t got = 0;
    for (size_t i = 0; i < n; i++) {
        if (!body_case(&sweeps[i]))
            continue;
        for (size_t e = 0; e < sweeps[i].c->n_integ; e++) {
            const char *name = sweeps[i].c->integ[e]->name;
            size_t ml = 0;
            const char *sv = solver_of(name, &ml);
            if (!sv)
                continue;
            const char *key = methods ? name : sv;
            size_t len = methods ? ml : strlen(sv);
            size_t q = 0;
            while (q < got && !(lens[q] == len && !strncmp(names[q], key, len)))
                q++;
            if (q == got && got < max)
                names[got] = key, lens[got++] = len;
        }
    }
    return got;
}

void vb_contact_overview(const vb_sweep *sweeps, size_t n, FILE *f)
{
    enum { MAX_NAMES = 32 };
    const char *solvers[MAX_NAMES], *methods[MAX_NAMES];
    size_t slen[MAX_NAMES], mlen[MAX_NAMES];
    size_t n_solvers = overview_names(sweeps, n, solvers, MAX_NAMES, 0, slen);
    size_t n_methods = overview_names(sweeps, n, methods, MAX_NAMES, 1, mlen);
    if (!n_solvers)
        return;
    fputs("## The contact solvers on a rolling ball and a resting box\n\n"
          "Each case of this run with a rigid body inside a contact solver, at its fixed step "
          "nearest the engines' 1/60 s: a body that rolls, when it starts rolling and its "
          "speed then, off the exact ones (never: it did not roll); a body that must stick, "
          "how far it crept (exact 0); a body that slides, its acceleration's error over g. "
          "A table a rotation method (docs/contact.md, \"3D: rolling and resting bodies\").\n\n",
          f);
    for (size_t m = 0; m < n_methods; m++) {
        fprintf(f, "**`%.*s`**\n\n| case: measure |", (int)mlen[m], methods[m]);
        for (size_t i = 0; i < n_solvers; i++)
            fprintf(f, " `%s` |", solvers[i]);
        fputs("\n|---|", f);
        for (size_t i = 0; i < n_solvers; i++)
            fputs("---|", f);
        fputc('\n', f);
        for (size_t i = 0; i < n; i++) {
            const vb_contact_result *c = body_case(&sweeps[i]);
            double dt = NAN;
            int level = c ? frame_level(&sweeps[i], &dt) : -1;
            if (level < 0)
                continue;
#define OVERVIEW_ROW(what) overview_row(f, &sweeps[i], level, dt, methods[m], mlen[m], solvers, n_solvers, what)
            if (isfinite(c->t_roll_exact)) {
                OVERVIEW_ROW(ROLLS_AT);
                OVERVIEW_ROW(ROLLS_SPEED);
            } else if (c->creep_exact == 0.0) {
                OVERVIEW_ROW(CREEP);
            } else {
                OVERVIEW_ROW(A_ERR);
            }
#undef OVERVIEW_ROW
        }
        fputc('\n', f);
    }
}
