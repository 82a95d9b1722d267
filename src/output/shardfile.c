/* shardfile.c — shard.csv (run --shard K/N): every run of one shard,
 * every field exact, and reading one back into a sweep for merge, held to
 * what run could have written for this build, case and shard. */
#define _POSIX_C_SOURCE 200809L /* open_memstream, getline */
#include "shardfile.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "integrator.h"
#include "plugin.h"
#include "provenance.h"
#include "shards.h"
#include "schema.h"
#include "walls.h"

/* The columns of a shard's row: the job's key (job, integrator, plan,
 * level, seed, status), every field of its run's result whatever the case
 * measures (a rigid body's attitude, a frame loop's drawn state, contact
 * events: every kind of case shards), and the failure text.  A field: its
 * column, where the result holds it, how it is written, and how a value
 * read back is held to what run writes (shard_check). */
typedef enum { SF_COUNT, SF_FLAG, SF_INT, SF_REAL, SF_REALS } sf_type;
typedef enum {
    SF_STEPS,     /* the plan's count: an ok run took every step, another 1 to all */
    SF_ANY,       /* any value of its type */
    SF_FAIL_STEP, /* 0 for an ok run, else its steps */
    SF_WANT,      /* a flag: what run writes for this case and run (shard_want) */
    SF_PLAN,      /* the plan's */
    SF_SCALE,     /* finite and >= 0 */
    SF_REF,       /* finite and >= 0; 0 against an exact solution */
    SF_TIME,      /* a time >= 0, or NaN */
    SF_SIGNED,    /* finite for an ok run */
    SF_ERROR,     /* an ok run's: finite >= 0, 0 where its flag says unmeasured; else inf */
    SF_KIND       /* a wall's kind (walls.h): 0 to VB_WALL_TUNNEL */
} sf_rule;

#define SF_NONE ((size_t)-1)
typedef struct {
    size_t at; /* offsetof(vb_run_result, ...) */
    sf_type type;
    size_t n; /* SF_REALS: how many, blank-separated in one cell */
    sf_rule rule;
    size_t flag; /* SF_ERROR: the flag that says it is measured, or SF_NONE */
} shard_field;

/* Every field, once: its column's name, the result's member, its type and
 * its reading rule.  Expanded twice: into the reading rules (fields[]) and
 * into the columns of vb_shard_schema, so the header, list --columns and
 * the reader name the same columns in the same order. */
#define SHARD_FIELDS(F, E, EA, C, CS)                                        \
    F("steps", steps, SF_COUNT, SF_STEPS)                                    \
    F("force_evals", force_evals, SF_COUNT, SF_ANY)                          \
    F("fail_step", fail_step, SF_COUNT, SF_FAIL_STEP)                        \
    F("has_energy", has_energy, SF_FLAG, SF_WANT)                            \
    F("has_angmom", has_angmom, SF_FLAG, SF_WANT)                            \
    F("has_momentum", has_momentum, SF_FLAG, SF_WANT)                        \
    F("has_return", has_return, SF_FLAG, SF_WANT)                            \
    F("has_reference", has_reference, SF_FLAG, SF_WANT)                      \
    F("has_constraint", has_constraint, SF_FLAG, SF_WANT)                    \
    F("dt", dt, SF_REAL, SF_PLAN)                                            \
    F("t_end", t_end, SF_REAL, SF_PLAN)                                      \
    EA("err_pos_final", err_pos_final)                                       \
    EA("err_pos_max", err_pos_max)                                           \
    EA("err_pos_rms", err_pos_rms)                                           \
    EA("err_vel_final", err_vel_final)                                       \
    EA("err_vel_max", err_vel_max)                                           \
    E("err_energy_max", err_energy_max, has_energy)                          \
    E("err_angmom_max", err_angmom_max, has_angmom)                          \
    E("err_momentum_max", err_momentum_max, has_momentum)                    \
    E("err_return", err_return, has_return)                                  \
    F("pos_scale", pos_scale, SF_REAL, SF_SCALE)                             \
    F("vel_scale", vel_scale, SF_REAL, SF_SCALE)                             \
    F("ref_err_pos", ref_err_pos, SF_REAL, SF_REF)                           \
    F("ref_err_vel", ref_err_vel, SF_REAL, SF_REF)                           \
    F("ref_bad_force_t", ref_bad_force_t, SF_REAL, SF_TIME)                  \
    E("err_constraint_max", err_constraint_max, has_constraint)              \
    F("err_pos_signed", err_pos_signed, SF_REAL, SF_SIGNED)                  \
    /* a run that reports positions alone (an engine of velocity=none) */    \
    F("no_velocity", no_velocity, SF_FLAG, SF_ANY)                           \
    /* the drawn state's (a frame loop's; any other's are its position's) */ \
    EA("err_draw_max", err_draw_max)                                         \
    EA("err_draw_rms", err_draw_rms)                                         \
    F("lag_max", lag_max, SF_REAL, SF_SCALE)                                 \
    /* an attitude's (a rigid body's) */                                     \
    F("has_attitude", has_attitude, SF_FLAG, SF_WANT)                        \
    E("err_att_max", err_att_max, has_attitude)                              \
    E("err_angvel_max", err_angvel_max, has_attitude)                        \
    F("flips", flips, SF_COUNT, SF_ANY)                                      \
    F("flips_exact", flips_exact, SF_COUNT, SF_ANY)                          \
    F("flip_period", flip_period, SF_REAL, SF_TIME)                          \
    F("flip_period_exact", flip_period_exact, SF_REAL, SF_TIME)              \
    F("t_tumble", t_tumble, SF_REAL, SF_TIME)                                \
    /* contact events (a handler's or an engine's at a wall) */              \
    F("contact", contact.has, SF_FLAG, SF_ANY)                               \
    F("contact_kind", contact.kind, SF_INT, SF_KIND)                         \
    CS("e_bounce", e_bounce, VB_CONTACT_E_SHOWN)                             \
    C("bounces", bounces)                                                    \
    C("bounces_exact", bounces_exact)                                        \
    C("t_rest", t_rest)                                                      \
    C("t_rest_exact", t_rest_exact)                                          \
    C("gain10", gain10)                                                      \
    C("depth_max", depth_max)                                                \
    CS("heights", height, VB_CONTACT_APEXES)                                 \
    CS("energies", energy, VB_CONTACT_APEXES)                                \
    C("stop_x", stop_x)                                                      \
    C("stop_x_exact", stop_x_exact)                                          \
    C("stop_t", stop_t)                                                      \
    C("stop_t_exact", stop_t_exact)                                          \
    C("pass_speed", pass_speed)                                              \
    C("pass_bound", pass_bound)                                              \
    C("pass_at_most", pass_at_most)                                          \
    /* a rigid body's on the ground (a contact solver's) */                  \
    F("contact_body", contact.body, SF_FLAG, SF_ANY)                         \
    C("t_roll", t_roll)                                                      \
    C("t_roll_exact", t_roll_exact)                                          \
    C("s_roll", s_roll)                                                      \
    C("s_roll_exact", s_roll_exact)                                          \
    C("v_roll", v_roll)                                                      \
    C("v_roll_exact", v_roll_exact)                                          \
    C("slip_max", slip_max)                                                  \
    C("a_err", a_err)                                                        \
    C("creep", creep)                                                        \
    C("creep_exact", creep_exact)                                            \
    C("creep_speed", creep_speed)                                            \
    C("energy_err", energy_err)                                              \
    /* a stack's (a contact solver's on boxes on each other) */              \
    F("stack", stack.has, SF_FLAG, SF_ANY)                                   \
    F("stack_iterations", stack.iterations, SF_REAL, SF_ANY)                 \
    F("stack_substeps", stack.substeps, SF_REAL, SF_ANY)                     \
    F("stack_drift_max", stack.drift_max, SF_REAL, SF_ANY)                   \
    F("stack_speed_rms", stack.speed_rms, SF_REAL, SF_ANY)                   \
    F("stack_depth_max", stack.depth_max, SF_REAL, SF_ANY)                   \
    F("stack_t_collapse", stack.t_collapse, SF_REAL, SF_TIME)

#define R_OF(field) offsetof(vb_run_result, field)
#define F(name, field, type, rule) {R_OF(field), type, 1, rule, SF_NONE},
#define E(name, field, flag_) {R_OF(field), SF_REAL, 1, SF_ERROR, R_OF(flag_)},
#define EA(name, field) {R_OF(field), SF_REAL, 1, SF_ERROR, SF_NONE},
#define C(name, field) F(name, contact.field, SF_REAL, SF_ANY)
#define CS(name, field, n_) {R_OF(contact.field), SF_REALS, n_, SF_ANY, SF_NONE},
static const shard_field fields[] = {SHARD_FIELDS(F, E, EA, C, CS)};
#undef F
#undef E
#undef EA
#undef C
#undef CS
#define N_FIELDS (sizeof fields / sizeof fields[0])
/* the job's key before the fields, the failure text after them */
#define N_KEY 6
#define N_COLUMNS (N_KEY + N_FIELDS + 1)

/* The columns as the schema has them: a count as %llu, a flag or an
 * integer as %d, a double as C99 hex (%a), several blank-separated
 * (put_field); the rows are written field by field by put_field, not by
 * the schema's getters, so no column has one (test_schema.c) */
#define COL_OF(nm_, field, ty_)                                                               \
    {.name = (nm_), .fmt = (ty_) == SF_COUNT ? VB_FMT_COUNT : (ty_) == SF_REAL ? VB_FMT_HEX   \
                                                                                   : VB_FMT_INT, \
     .at = R_OF(field)},
#define F(nm_, field, ty_, rule) COL_OF(nm_, field, ty_)
#define E(nm_, field, flag_) COL_OF(nm_, field, SF_REAL)
#define EA(nm_, field) COL_OF(nm_, field, SF_REAL)
#define C(nm_, field) COL_OF(nm_, contact.field, SF_REAL)
#define CS(nm_, field, n_)                                                                    \
    {.name = (nm_), .fmt = VB_FMT_LIST, .at = R_OF(contact.field)},
static const vb_column shard_columns[] = {
    {.name = "job", .fmt = VB_FMT_COUNT},
    {.name = "integrator", .fmt = VB_FMT_TEXT},
    {.name = "plan", .fmt = VB_FMT_TEXT},
    {.name = "level", .fmt = VB_FMT_INT},
    {.name = "seed", .fmt = VB_FMT_COUNT},
    {.name = "status", .fmt = VB_FMT_TEXT},
    SHARD_FIELDS(F, E, EA, C, CS)
    /* why a plugin's worker failed the run, percent-encoded (put_failure) */
    {.name = "failure", .fmt = VB_FMT_TEXT},
};
#undef F
#undef E
#undef EA
#undef C
#undef CS
#undef COL_OF
const vb_schema vb_shard_schema = VB_SCHEMA("shard.csv", shard_columns);

static void put_field(FILE *f, const vb_run_result *r, const shard_field *d);

/* a field's column name: the schema's */
static const char *field_name(const shard_field *d)
{
    return shard_columns[N_KEY + (size_t)(d - fields)].name;
}

/* the header line, with its end */
static void shard_header(FILE *f) { vb_schema_header(f, &vb_shard_schema, 0); }

/* line is the header shard_header writes */
static int is_header(const char *line)
{
    char want[4096];
    vb_schema_header_text(want, sizeof want, &vb_shard_schema, 0);
    return strcmp(line, want) == 0;
}

static void *field_at(vb_run_result *r, const shard_field *d) { return (char *)r + d->at; }

static double get_real(const vb_run_result *r, const shard_field *d, size_t k)
{
    double x;
    memcpy(&x, (const char *)r + d->at + k * sizeof x, sizeof x);
    return x;
}

static int get_int(const vb_run_result *r, size_t at)
{
    int x;
    memcpy(&x, (const char *)r + at, sizeof x);
    return x;
}

static unsigned long long get_count(const vb_run_result *r, const shard_field *d)
{
    unsigned long long x;
    memcpy(&x, (const char *)r + d->at, sizeof x);
    return x;
}

/* field d of r as its cell: doubles as C99 hex floats, which strtod reads
 * back to the bit */
static void put_field(FILE *f, const vb_run_result *r, const shard_field *d)
{
    switch (d->type) {
    case SF_COUNT:
        fprintf(f, "%llu", get_count(r, d));
        break;
    case SF_FLAG:
    case SF_INT:
        fprintf(f, "%d", get_int(r, d->at));
        break;
    case SF_REAL:
    case SF_REALS:
        for (size_t k = 0; k < d->n; k++)
            fprintf(f, "%s%a", k ? " " : "", get_real(r, d, k));
        break;
    }
}

static void put_failure(FILE *f, const char *text)
{
    for (const unsigned char *c = (const unsigned char *)text; *c; c++)
        if (*c < 0x20 || *c == 0x7f || *c == ',' || *c == '%')
            fprintf(f, "%%%02X", *c);
        else
            fputc(*c, f);
}

/* decode put_failure's text in place: 0, or -1 (not such text) */
static int get_failure(char *text)
{
    char *out = text;
    for (const char *c = text; *c; c++) {
        if (*c != '%') {
            *out++ = *c;
            continue;
        }
        unsigned v;
        if (!isxdigit((unsigned char)c[1]) || !isxdigit((unsigned char)c[2]) ||
            sscanf(c + 1, "%2x", &v) != 1 || v == 0)
            return -1;
        *out++ = (char)v;
        c += 2;
    }
    *out = '\0';
    return 0;
}

/* What the results depend on beyond the version and the case's
 * parameters (the provenance), by content: this build (vb_build_id: two
 * -dirty builds of one commit share a version), the trace's steps (FNV-1a
 * over their bytes: the provenance names the trace by path and length
 * only), and every plugin the case's integrators and model come from
 * (its file's name and content hash: two builds of a plugin share their
 * names).  A shard must not be merged with shards or a merge that differ
 * in any of them. */
#define SHARD_INPUTS_MAX 2048
static void shard_inputs(const vb_case *c, char *buf, size_t len)
{
    unsigned long long h = 1469598103934665603ULL;
    for (size_t i = 0; c->trace_path && i < c->trace.n; i++) {
        unsigned char b[sizeof(double)];
        memcpy(b, &c->trace.h[i], sizeof b);
        for (size_t j = 0; j < sizeof b; j++)
            h = (h ^ b[j]) * 1099511628211ULL;
    }
    int w = snprintf(buf, len, "# inputs: build %s trace fnv1a=%016llx", vb_build_id(),
                     c->trace_path ? h : 0ULL);
    size_t used = w > 0 ? (size_t)w : 0;
    /* each plugin once, in the order the case first names it */
    const char *seen[64];
    size_t n_seen = 0;
    for (size_t i = 0; i <= c->n_integ && used < len; i++) {
        unsigned long long ph = 0;
        const char *file = i < c->n_integ
                               ? vb_plugin_of_integrator(vb_integrator_type(c->integ[i])->name, &ph)
                               : vb_plugin_of_model(c->model.type->name, &ph);
        size_t k = 0;
        while (file && k < n_seen && strcmp(seen[k], file) != 0)
            k++;
        if (!file || k < n_seen || n_seen == sizeof seen / sizeof seen[0])
            continue;
        seen[n_seen++] = file;
        w = snprintf(buf + used, len - used, " plugin %s fnv1a=%016llx", file, ph);
        used += w > 0 ? (size_t)w : 0;
    }
}

/* which of the inputs differ, for the message */
static const char *inputs_differ(const char *got, const char *want)
{
    const char *tg = strstr(got, " trace "), *tw = strstr(want, " trace ");
    if (!tg || !tw || (size_t)(tg - got) != (size_t)(tw - want) ||
        strncmp(got, want, (size_t)(tg - got)) != 0)
        return "made by another build of verletbench (another source or compile command, "
               "however alike their versions)";
    const char *pg = strstr(tg, " plugin "), *pw = strstr(tw, " plugin ");
    size_t lg = pg ? (size_t)(pg - tg) : strlen(tg), lw = pw ? (size_t)(pw - tw) : strlen(tw);
    if (lg != lw || strncmp(tg, tw, lg) != 0)
        return "the trace changed since the shard was made";
    return "made with another build of a plugin, or other plugins (give merge the --plugin "
           "files the shards were run with)";
}

static void shard_what(char *buf, size_t len, int k, int n)
{
    snprintf(buf, len, "shard %d/%d of the runs", k, n);
}

/* Every run of this shard, every field exact. */
void vb_sweep_write_shard(const vb_sweep *s, FILE *f)
{
    char what[64];
    shard_what(what, sizeof what, s->shard_k, s->shard_n);
    vb_sweep_provenance(f, s, what);
    /* where the case came in the run's command line: the merge writes
     * DIR/summary.md in that order, as the run would */
    fprintf(f, "# order=%d/%d\n", s->order_i, s->order_m);
    char inputs[SHARD_INPUTS_MAX];
    shard_inputs(s->c, inputs, sizeof inputs);
    fprintf(f, "%s\n", inputs);
    shard_header(f);
    for (size_t k = 0; k < s->n_jobs; k++) {
        if (vb_sweep_job_shard(s, k) != s->shard_k)
            continue;
        const vb_sweep_job *j = &s->jobs[k];
        fprintf(f, "%zu,%s,%s,%d,%lu,%s", k, s->c->integ[j->integ]->name, vb_plan_name(j->kind),
                j->level, j->seed, vb_status_name(j->res.status));
        for (size_t i = 0; i < N_FIELDS; i++) {
            fputc(',', f);
            put_field(f, &j->res, &fields[i]);
        }
        fputc(',', f);
        put_failure(f, vb_run_failure(&j->res));
        fputc('\n', f);
    }
}

static int parse_ull(const char *t, unsigned long long *v)
{
    char *end;
    errno = 0;
    *v = strtoull(t, &end, 10);
    return errno || end == t || *end || *t == '-' ? -1 : 0;
}

/* a cell into field d of r: 0, or -1 with why */
static int get_field(vb_run_result *r, const shard_field *d, char *cell, char *why, size_t whylen)
{
    unsigned long long u;
    char *end = cell;
    switch (d->type) {
    case SF_COUNT:
        if (parse_ull(cell, &u) == 0) {
            memcpy(field_at(r, d), &u, sizeof u);
            return 0;
        }
        snprintf(why, whylen, "column %s: '%.40s' is not a count", field_name(d), cell);
        return -1;
    case SF_FLAG:
    case SF_INT:
        if (parse_ull(cell, &u) == 0 && u <= (d->type == SF_FLAG ? 1u : 1000u)) {
            int x = (int)u;
            memcpy(field_at(r, d), &x, sizeof x);
            return 0;
        }
        snprintf(why, whylen, "column %s: '%.40s' is not a %s", field_name(d), cell,
                 d->type == SF_FLAG ? "flag (0 or 1)" : "small whole number");
        return -1;
    case SF_REAL:
    case SF_REALS:
        for (size_t k = 0; k < d->n; k++) {
            const char *at = end;
            double x = strtod(at, &end);
            if (end == at || (k + 1 < d->n ? *end != ' ' : *end != '\0') || isspace((unsigned char)*at))
                break;
            memcpy((char *)field_at(r, d) + k * sizeof x, &x, sizeof x);
            if (k + 1 == d->n)
                return 0;
            end++;
        }
        snprintf(why, whylen, "column %s: '%.40s' is not %s", field_name(d), cell,
                 d->n > 1 ? "its numbers, blank-separated" : "a number");
        return -1;
    }
    return -1;
}

/* what run writes of each job whatever its method did (vb_run_frame),
 * found as it is needed: a task's jobs share the task's plan, but for the
 * runners that hold the frames of level 0 and refine a tolerance or a
 * physics step of their own in them (runner.h's vb_runner_level_plan),
 * each plan with an id of its own; SHARD_PLANS_A_TASK at most */
#define SHARD_PLANS_A_TASK 3
typedef struct {
    int known;
    char id[sizeof((vb_plan_spec *)0)->id]; /* its plan's */
    vb_run_result r; /* status ok, every error 0 */
} shard_frame;

/* The flag of field d that run writes for the row r read (its status, its
 * no_velocity, its attitude) of a job whose plan's frame is frame, in a
 * case that measures `measures` (profile.h) */
static int shard_want(const shard_field *d, const vb_run_result *r, const vb_run_result *frame,
                      unsigned measures)
{
    int plugin_failed = r->status == VB_STATUS_PLUGIN_FAILED;
    /* a run a plugin's worker failed is its plan's frame (vb_run_plugin_failed) */
    int attitude = !plugin_failed && (measures & VB_MEASURE_ATTITUDE);
    int velocity = !r->no_velocity; /* else no energy nor momenta (metrics.h) */
    if (d->at == offsetof(vb_run_result, has_attitude))
        return attitude;
    if (d->at == offsetof(vb_run_result, has_angmom)) /* an attitude's L, world, but */
        return (attitude && (measures & VB_MEASURE_ANGMOM)) || /* not at a contact */
               (frame->has_angmom && velocity);
    if (d->at == offsetof(vb_run_result, has_energy) ||
        d->at == offsetof(vb_run_result, has_momentum))
        return get_int(frame, d->at) && velocity;
    return get_int(frame, d->at);
}

/* A number of field d (its k-th) against its rule: NULL, or what run
 * writes in its place.  own: the runner's own fields (vb_runner_own). */
static const char *real_check(const shard_field *d, const vb_run_result *r,
                              const vb_run_result *frame, size_t k, unsigned own, char *buf,
                              size_t len)
{
    double x = get_real(r, d, k), w = get_real(frame, d, k);
    int ok = r->status == VB_STATUS_OK;
    switch (d->rule) {
    case SF_PLAN: /* dt, t_end: the plan's (an accumulator's dt its own step) */
        if (d->at == offsetof(vb_run_result, dt) && (own & VB_OWN_DT))
            return isfinite(x) && x > 0.0 ? NULL : "a step, finite and > 0";
        if (x == w)
            return NULL;
        snprintf(buf, len, "%a, the plan's", w);
        return buf;
    case SF_SCALE:
        return isfinite(x) && x >= 0.0 ? NULL : "a finite number >= 0";
    case SF_REF:
        if (isfinite(x) && x >= 0.0 && (r->has_reference || x == 0.0))
            return NULL;
        return r->has_reference ? "a finite number >= 0 (the reference's error)"
                                : "0 (the case has an exact solution)";
    case SF_TIME:
        return isnan(x) || (isfinite(x) && x >= 0.0) ? NULL : "a time >= 0, or NaN";
    case SF_SIGNED:
        return !ok || isfinite(x) ? NULL : "a finite number (an ok run's signed error)";
    case SF_ERROR:
        if (!ok)
            return isinf(x) && x > 0.0 ? NULL : "inf (the errors of a run that did not finish)";
        if (!(isfinite(x) && x >= 0.0))
            return "a finite number >= 0 (an ok run's error)";
        if (x != 0.0 && d->flag != SF_NONE && !get_int(r, d->flag))
            return "0 (the case does not measure it)";
        return NULL;
    default:
        return NULL;
    }
}

/* A count or flag of field d against its rule: NULL, or what run writes */
static const char *whole_check(const shard_field *d, const vb_run_result *r,
                               const vb_run_result *frame, unsigned own, unsigned measures,
                               char *buf, size_t len)
{
    unsigned long long steps = frame->steps;
    switch (d->rule) {
    case SF_STEPS: {
        if (own & VB_OWN_STEPS) /* a frame loop's physics steps, its own count */
            return NULL;
        /* an ok run took every step; one that stopped, at a step of its
         * plan (an engine's may fail before its first row), and a plugin's
         * worker's took none this process saw */
        int ok = r->status == VB_STATUS_OK, plug = r->status == VB_STATUS_PLUGIN_FAILED;
        unsigned long long least = ok ? steps : plug || r->status == VB_STATUS_ENGINE_FAILED ? 0 : 1;
        if (r->steps >= least && r->steps <= (plug ? 0 : steps))
            return NULL;
        if (plug)
            return "0 (a plugin-failed run took no step)";
        if (ok)
            snprintf(buf, len, "%llu (the plan's steps, every one)", steps);
        else
            snprintf(buf, len, "%llu to %llu (a step of its plan)", least, steps);
        return buf;
    }
    case SF_FAIL_STEP:
        if (r->fail_step == (r->status == VB_STATUS_OK ? 0 : r->steps))
            return NULL;
        snprintf(buf, len, "%llu, where run writes that for this %s run",
                 r->status == VB_STATUS_OK ? 0 : r->steps, vb_status_name(r->status));
        return buf;
    case SF_WANT:
        if (get_int(r, d->at) == shard_want(d, r, frame, measures))
            return NULL;
        snprintf(buf, len, "%d, where run writes that for this %s run of this case",
                 shard_want(d, r, frame, measures), vb_status_name(r->status));
        return buf;
    case SF_KIND:
        return get_int(r, d->at) <= VB_WALL_TUNNEL ? NULL : "a wall's kind, 0 to 3";
    default:
        return NULL;
    }
}

/* Hold a row's result r to what `run` could have written for its job
 * (frame: vb_run_frame's for its plan; own: its runner's own fields,
 * vb_runner_own; measures: the case's): the plan's dt, t_end and step
 * count, the case's has_*; an ok run finished every step with errors
 * that are finite numbers >= 0 (0 where they do not apply) and no
 * fail_step; a run that did not finish stopped at a step of the plan
 * (fail_step) with every error inf (docs/method.md §4).  0, or -1 with
 * "column NAME: ..." in why. */
static int shard_check(const vb_run_result *r, const vb_run_result *frame, unsigned own,
                       unsigned measures, char *why, size_t whylen)
{
    char buf[128];
    for (size_t i = 0; i < N_FIELDS; i++) {
        const shard_field *d = &fields[i];
        if (d->type == SF_REAL || d->type == SF_REALS) {
            for (size_t k = 0; k < d->n; k++) {
                const char *want = real_check(d, r, frame, k, own, buf, sizeof buf);
                if (want) {
                    snprintf(why, whylen, "column %s: %a is not what run writes for this %s run: %s",
                             field_name(d), get_real(r, d, k), vb_status_name(r->status), want);
                    return -1;
                }
            }
            continue;
        }
        const char *want = whole_check(d, r, frame, own, measures, buf, sizeof buf);
        if (want) {
            unsigned long long v =
                d->type == SF_COUNT ? get_count(r, d) : (unsigned long long)get_int(r, d->at);
            snprintf(why, whylen, "column %s: %llu: run writes %s", field_name(d), v, want);
            return -1;
        }
    }
    return 0;
}

/* the job a row's key names, held to the case: its index, or -1 with why */
static long shard_key(vb_sweep *s, int k, char **field, char *why, size_t whylen)
{
    unsigned long long job;
    if (parse_ull(field[0], &job) != 0 || job >= s->n_jobs) {
        snprintf(why, whylen, "job '%.40s' is not one of this case's %zu runs", field[0],
                 s->n_jobs);
        return -1;
    }
    vb_sweep_job *j = &s->jobs[job];
    if (vb_sweep_job_shard(s, (size_t)job) != k) {
        snprintf(why, whylen, "run %llu belongs to shard %d/%d, not %d", job,
                 vb_sweep_job_shard(s, (size_t)job), s->shard_n, k);
        return -1;
    }
    char seed[32], level[16];
    snprintf(seed, sizeof seed, "%lu", j->seed);
    snprintf(level, sizeof level, "%d", j->level);
    if (strcmp(field[1], s->c->integ[j->integ]->name) || strcmp(field[2], vb_plan_name(j->kind)) ||
        strcmp(field[3], level) || strcmp(field[4], seed)) {
        snprintf(why, whylen, "run %llu is %s %s level %s seed %s here, not %.40s %.20s %.10s %.20s",
                 job, s->c->integ[j->integ]->name, vb_plan_name(j->kind), level, seed, field[1],
                 field[2], field[3], field[4]);
        return -1;
    }
    if (j->loaded) {
        snprintf(why, whylen, "run %llu appears twice", job);
        return -1;
    }
    return (long)job;
}

/* the frame of job j's plan, among its task's: NULL with why */
static const vb_run_result *shard_frame_of(vb_sweep *s, const vb_sweep_job *j, size_t job,
                                           shard_frame *frames, char *why, size_t whylen)
{
    size_t per = s->c->n_integ ? s->n_jobs / s->c->n_integ : 1;
    shard_frame *fr = &frames[(job % per) * SHARD_PLANS_A_TASK];
    for (int q = 0; q + 1 < SHARD_PLANS_A_TASK && fr->known && strcmp(fr->id, j->plan.id); q++)
        fr++;
    if (fr->known && strcmp(fr->id, j->plan.id) != 0) {
        snprintf(why, whylen, "run %zu's plan %s is not one of its task's", job, j->plan.id);
        return NULL;
    }
    if (!fr->known && vb_run_frame(&s->c->model, &j->plan, &fr->r) != 0) {
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    fr->known = 1;
    memcpy(fr->id, j->plan.id, sizeof fr->id);
    return &fr->r;
}

/* one row into its job; 0, or -1 with a message (frames: what run writes
 * of each job, filled as they are needed) */
static int shard_row(vb_sweep *s, int k, char *line, shard_frame *frames, char *why,
                     size_t whylen)
{
    char *field[N_COLUMNS + 1];
    size_t nf = 0;
    for (char *p = line; nf <= N_COLUMNS;) {
        field[nf++] = p;
        char *comma = strchr(p, ',');
        if (!comma)
            break;
        *comma = '\0';
        p = comma + 1;
    }
    if (nf != N_COLUMNS) {
        snprintf(why, whylen, "%zu fields, want %zu", nf, (size_t)N_COLUMNS);
        return -1;
    }
    long job = shard_key(s, k, field, why, whylen);
    if (job < 0)
        return -1;
    vb_sweep_job *j = &s->jobs[job];
    vb_run_result r;
    memset(&r, 0, sizeof r);
    int st = -1;
    for (int v = VB_STATUS_OK; v <= VB_STATUS_PLUGIN_FAILED; v++)
        if (!strcmp(field[5], vb_status_name((vb_status)v)))
            st = v;
    if (st < 0) {
        snprintf(why, whylen, "column status: '%.40s' (want ok, diverged, exact-failed, "
                              "engine-failed or plugin-failed)",
                 field[5]);
        return -1;
    }
    r.status = (vb_status)st;
    for (size_t i = 0; i < N_FIELDS; i++)
        if (get_field(&r, &fields[i], field[N_KEY + i], why, whylen) != 0)
            return -1;
    const vb_run_result *frame = shard_frame_of(s, j, (size_t)job, frames, why, whylen);
    if (!frame)
        return -1;
    const vb_profile *p = &s->c->profile;
    if (shard_check(&r, frame, vb_runner_own(&p->caps[j->integ]), p->measures, why, whylen) != 0)
        return -1;
    /* why the run failed (a plugin's worker, an engine, a method that
     * said why it stopped), and nothing for a run that did not */
    char *text = field[N_COLUMNS - 1];
    int plug = r.status == VB_STATUS_PLUGIN_FAILED, ok = r.status == VB_STATUS_OK;
    if ((ok && text[0]) || (plug && !text[0]) || get_failure(text) != 0) {
        snprintf(why, whylen, "column failure: '%.60s': %s", text,
                 ok      ? "empty for a run that finished"
                 : plug ? "a plugin-failed run says why"
                         : "not percent-encoded text");
        return -1;
    }
    if (text[0] && !(r.failure = strdup(text))) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    j->res = r;
    j->loaded = 1;
    return 0;
}

int vb_sweep_read_shard(vb_sweep *s, int k, int n, const char *path, size_t *filled,
                        int *order_i, int *order_m, char *err, size_t errlen)
{
    /* what this build writes for this case and shard, '#' lines only */
    char *want = NULL, what[64];
    size_t want_len = 0;
    FILE *mem = open_memstream(&want, &want_len);
    if (!mem) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int keep_k = s->shard_k;
    s->shard_k = k;
    shard_what(what, sizeof what, k, n);
    vb_sweep_provenance(mem, s, what);
    s->shard_k = keep_k;
    fclose(mem);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        free(want);
        return VB_SWEEP_USAGE;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    unsigned long no = 0;
    const char *w = want;
    int rc = 0, header = 0, inputs_seen = 0;
    char why[256];
    size_t per = s->c->n_integ ? s->n_jobs / s->c->n_integ : 1;
    shard_frame *frames = calloc(SHARD_PLANS_A_TASK * per, sizeof *frames);
    if (!frames) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    while (rc == 0 && (got = getline(&line, &cap, f)) >= 0) {
        no++;
        if (got > 0 && line[got - 1] == '\n')
            line[--got] = '\0';
        if (!header && sscanf(line, "# order=%d/%d", order_i, order_m) == 2)
            continue;
        if (!header && !strncmp(line, "# inputs:", 9)) {
            char now[SHARD_INPUTS_MAX];
            shard_inputs(s->c, now, sizeof now);
            if (strcmp(line, now) != 0) {
                snprintf(err, errlen, "%s:%lu: '%.300s', where this verletbench, %s's trace "
                                      "%s and the plugins loaded give '%.300s': %s",
                         path, no, line, s->c->path,
                         s->c->trace_path ? s->c->trace_path : "(none)", now,
                         inputs_differ(line, now));
                rc = VB_SWEEP_USAGE;
            }
            inputs_seen = 1;
            continue;
        }
        if (line[0] == '#') {
            /* the truth line says the reference's error over the runs
             * of this shard: the merge states it over all of them */
            if (!strncmp(line, "# truth:", 8))
                continue;
            size_t wl = strcspn(w, "\n");
            while (!strncmp(w, "# truth:", 8)) {
                w += wl + (w[wl] == '\n');
                wl = strcspn(w, "\n");
            }
            if (header || strlen(line) != wl || strncmp(line, w, wl) != 0) {
                /* another GSL or FFTW may give other bits (the reference's
                 * rk8pd, the chain's transform): say so rather than "version" */
                static const char libs[] = "# libraries: ";
                size_t ll = strlen(libs);
                if (!header && !strncmp(line, libs, ll) && !strncmp(w, libs, ll))
                    snprintf(err, errlen,
                             "%s:%lu: made with other libraries: '%.200s', where this "
                             "verletbench runs against '%.*s': another GSL or FFTW may give "
                             "other bits",
                             path, no, line + ll, (int)(wl - ll > 200 ? 200 : wl - ll), w + ll);
                else
                    snprintf(err, errlen,
                             "%s:%lu: made by another version or from other parameters: "
                             "'%.200s', where this verletbench and %s give '%.*s'",
                             path, no, line, s->c->path, (int)(wl > 200 ? 200 : wl), w);
                rc = VB_SWEEP_USAGE;
            }
            w += wl + (w[wl] == '\n');
            continue;
        }
        if (!header) {
            header = 1;
            while (!strncmp(w, "# truth:", 8)) {
                size_t wl = strcspn(w, "\n");
                w += wl + (w[wl] == '\n');
            }
            if (*w) {
                snprintf(err, errlen, "%s:%lu: '#' lines missing before the header: want '%.200s'",
                         path, no, w);
                rc = VB_SWEEP_USAGE;
            } else if (!is_header(line)) {
                snprintf(err, errlen, "%s:%lu: not the columns of a shard", path, no);
                rc = VB_SWEEP_USAGE;
            }
            continue;
        }
        if (shard_row(s, k, line, frames, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s:%lu: %s", path, no, why);
            rc = VB_SWEEP_USAGE;
        } else {
            (*filled)++;
        }
    }
    if (rc == 0 && !header) {
        snprintf(err, errlen, "%s: no header: an empty or cut shard", path);
        rc = VB_SWEEP_USAGE;
    }
    if (rc == 0 && !inputs_seen) {
        snprintf(err, errlen, "%s: no '# inputs:' line: not a whole shard", path);
        rc = VB_SWEEP_USAGE;
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        rc = -1;
    }
    free(frames);
    free(line);
    free(want);
    fclose(f);
    return rc;
}

/* "# verletbench V: shard K/N of the runs of PATH": K, N, PATH.  -1 if not */
static int shard_head(const char *file, int *k, int *n, char **case_path)
{
    /* a regular file only: a FIFO would block, a device never end */
    struct stat st;
    if (stat(file, &st) != 0 || !S_ISREG(st.st_mode))
        return -1;
    FILE *f = fopen(file, "r");
    if (!f)
        return -1;
    char line[4096 + 128];
    int rc = -1;
    if (fgets(line, sizeof line, f) && strchr(line, '\n')) {
        line[strcspn(line, "\r\n")] = '\0';
        const char *p = strstr(line, ": shard ");
        char *end;
        if (p && !strncmp(line, "# verletbench ", 14)) {
            errno = 0;
            long a = strtol(p + 8, &end, 10), b = *end == '/' ? strtol(end + 1, &end, 10) : 0;
            const char *rest = " of the runs of ";
            if (!errno && a >= 1 && b >= a && b <= VB_MAX_SHARDS &&
                !strncmp(end, rest, strlen(rest)) && end[strlen(rest)]) {
                *k = (int)a;
                *n = (int)b;
                *case_path = strdup(end + strlen(rest));
                rc = *case_path ? 0 : -1;
            }
        }
    }
    fclose(f);
    return rc;
}

int vb_shards_find(char *const *dirs, size_t n_dirs, vb_shard_ref **out, size_t *n_out,
                   char *err, size_t errlen)
{
    int rc = 0;
    vb_shard_ref *sf = NULL;
    size_t n_sf = 0, cap_sf = 0;
    err[0] = '\0';
    for (size_t a = 0; a < n_dirs && rc == 0; a++) {
        /* in name order, so that what is said first does not depend on
         * the file system */
        struct dirent **ents = NULL;
        int n_ents = scandir(dirs[a], &ents, NULL, alphasort);
        if (n_ents < 0) {
            snprintf(err, errlen, "%s: %s", dirs[a], strerror(errno));
            rc = VB_SWEEP_USAGE;
            break;
        }
        size_t before = n_sf;
        for (int ei = 0; ei < n_ents && rc == 0; ei++) {
            const struct dirent *e = ents[ei];
            if (e->d_name[0] == '.')
                continue;
            char path[8192];
            snprintf(path, sizeof path, "%s/%s/shard.csv", dirs[a], e->d_name);
            if (access(path, F_OK) != 0)
                continue;
            if (n_sf == cap_sf) {
                cap_sf = cap_sf ? 2 * cap_sf : 16;
                vb_shard_ref *more = realloc(sf, cap_sf * sizeof *sf);
                if (!more) {
                    rc = -1;
                    break;
                }
                sf = more;
            }
            vb_shard_ref *s = &sf[n_sf];
            memset(s, 0, sizeof *s);
            s->file = strdup(path);
            s->name = strdup(e->d_name);
            if (!s->file || !s->name || shard_head(path, &s->k, &s->n, &s->case_path) != 0) {
                snprintf(err, errlen,
                         "%s: not a shard of verletbench run --shard: a regular file whose "
                         "first line says shard K/N (1 <= K <= N <= %d) of the runs of a "
                         "case file",
                         path, VB_MAX_SHARDS);
                free(s->file), free(s->name);
                rc = VB_SWEEP_USAGE;
                break;
            }
            n_sf++;
        }
        for (int ei = 0; ei < n_ents; ei++)
            free(ents[ei]);
        free(ents);
        if (rc == 0 && n_sf == before) {
            snprintf(err, errlen, "%s: no NAME/shard.csv in it: not a directory of run --shard",
                     dirs[a]);
            rc = VB_SWEEP_USAGE;
        }
    }
    if (rc != 0) {
        vb_shard_refs_free(sf, n_sf);
        sf = NULL;
        n_sf = 0;
    }
    *out = sf;
    *n_out = n_sf;
    return rc;
}
