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

/* the doubles of a result, in the schema's order from dt on */
#define N_SHARD_DOUBLES (VB_COL_SHARD_FAILURE - VB_COL_SHARD_DT)
static double *shard_double(vb_run_result *r, int i)
{
    return (double *)(void *)((char *)r + vb_shard_schema.col[VB_COL_SHARD_DT + i].at);
}
/* the double of column VB_COL_SHARD_e among the doubles */
#define D(e) (VB_COL_SHARD_##e - VB_COL_SHARD_DT)
/* the flags and counts before the doubles */
#define N_SHARD_COUNTS (VB_COL_SHARD_DT - VB_COL_SHARD_STEPS)
/* the fields of a row: job, integrator, plan, level, seed, status, the
 * counts, the doubles, and the failure text of a run a plugin's worker
 * failed (percent-encoded: it may hold a comma), empty for any other */
#define N_SHARD_FIELDS VB_SHARD_COLUMNS

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

/* ---- shard.csv on its schema ---- */

/* a row is a job of the sweep (the table), its result's fields at col->at */
#define JOB(p) ((const vb_sweep_job *)(p))
#define SWEEP(t) ((const vb_sweep *)(t))

static vb_cell job(const vb_column *c, const void *t, const void *row)
{
    (void)c;
    return vb_cell_u((unsigned long long)(JOB(row) - SWEEP(t)->jobs));
}

static vb_cell integ(const vb_column *c, const void *t, const void *row)
{
    (void)c;
    return vb_cell_s(SWEEP(t)->c->integ[JOB(row)->integ]->name);
}

static vb_cell plan(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(vb_plan_name(JOB(row)->kind));
}

static vb_cell level(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_i(JOB(row)->level);
}

static vb_cell seed(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_u(JOB(row)->seed);
}

static vb_cell status(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(vb_status_name(JOB(row)->res.status));
}

/* a field of the result: a count, a flag, a double exactly (%a) */
static vb_cell count(const vb_column *c, const void *t, const void *row)
{
    return vb_get_count(c, t, &JOB(row)->res);
}

static vb_cell flag(const vb_column *c, const void *t, const void *row)
{
    return vb_get_int(c, t, &JOB(row)->res);
}

static vb_cell exact(const vb_column *c, const void *t, const void *row)
{
    return vb_get_real_always(c, t, &JOB(row)->res);
}

static void failure(FILE *f, const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    if (JOB(row)->res.status == VB_STATUS_PLUGIN_FAILED)
        put_failure(f, vb_run_failure(&JOB(row)->res));
}

#define COL(e, name, fmt, get) [VB_COL_SHARD_##e] = {name, fmt, get, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0}
#define RES(e, name, fmt, get, f)                                                                  \
    [VB_COL_SHARD_##e] = {name, fmt, get, offsetof(vb_run_result, f), 0, NULL, 0, VB_READ, 0, 0, 0, 0}
#define FLAG(e, name, f) RES(e, name, VB_FMT_INT, flag, f)
#define HEX(e, name, f) RES(e, name, VB_FMT_HEX, exact, f)
/* (no column says a run had no velocity, vb_run_result.no_velocity: only
 * an engine's run may lack one, and external engines are not sharded) */
static const vb_column shard_columns[] = {
    COL(JOB, "job", VB_FMT_COUNT, job),
    COL(INTEGRATOR, "integrator", VB_FMT_TEXT, integ),
    COL(PLAN, "plan", VB_FMT_TEXT, plan),
    COL(LEVEL, "level", VB_FMT_INT, level),
    COL(SEED, "seed", VB_FMT_COUNT, seed),
    COL(STATUS, "status", VB_FMT_TEXT, status),
    RES(STEPS, "steps", VB_FMT_COUNT, count, steps),
    RES(FORCE_EVALS, "force_evals", VB_FMT_COUNT, count, force_evals),
    RES(FAIL_STEP, "fail_step", VB_FMT_COUNT, count, fail_step),
    FLAG(HAS_ENERGY, "has_energy", has_energy),
    FLAG(HAS_ANGMOM, "has_angmom", has_angmom),
    FLAG(HAS_MOMENTUM, "has_momentum", has_momentum),
    FLAG(HAS_RETURN, "has_return", has_return),
    FLAG(HAS_REFERENCE, "has_reference", has_reference),
    FLAG(HAS_CONSTRAINT, "has_constraint", has_constraint),
    HEX(DT, "dt", dt),
    HEX(T_END, "t_end", t_end),
    HEX(ERR_POS_FINAL, "err_pos_final", err_pos_final),
    HEX(ERR_POS_MAX, "err_pos_max", err_pos_max),
    HEX(ERR_POS_RMS, "err_pos_rms", err_pos_rms),
    HEX(ERR_VEL_FINAL, "err_vel_final", err_vel_final),
    HEX(ERR_VEL_MAX, "err_vel_max", err_vel_max),
    HEX(ERR_ENERGY_MAX, "err_energy_max", err_energy_max),
    HEX(ERR_ANGMOM_MAX, "err_angmom_max", err_angmom_max),
    HEX(ERR_MOMENTUM_MAX, "err_momentum_max", err_momentum_max),
    HEX(ERR_RETURN, "err_return", err_return),
    HEX(POS_SCALE, "pos_scale", pos_scale),
    HEX(VEL_SCALE, "vel_scale", vel_scale),
    HEX(REF_ERR_POS, "ref_err_pos", ref_err_pos),
    HEX(REF_ERR_VEL, "ref_err_vel", ref_err_vel),
    HEX(REF_BAD_FORCE_T, "ref_bad_force_t", ref_bad_force_t),
    HEX(ERR_CONSTRAINT_MAX, "err_constraint_max", err_constraint_max),
    HEX(ERR_POS_SIGNED, "err_pos_signed", err_pos_signed),
    [VB_COL_SHARD_FAILURE] = {"failure", VB_FMT_LIST, NULL, 0, 0, failure, 0, VB_READ, 0, 0, 0, 0},
};
const vb_schema vb_shard_schema = VB_SCHEMA("shard.csv", shard_columns);
_Static_assert(sizeof shard_columns / sizeof shard_columns[0] == VB_SHARD_COLUMNS,
               "a column of shard.csv without its line");

/* Every run of this shard, every field exact: doubles as C99 hex floats,
 * which strtod reads back to the bit. */
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
    vb_schema_header(f, &vb_shard_schema, 0);
    for (size_t k = 0; k < s->n_jobs; k++)
        if (vb_sweep_job_shard(s, k) == s->shard_k)
            vb_schema_row(f, &vb_shard_schema, 0, s, &s->jobs[k]);
}

static int parse_ull(const char *t, unsigned long long *v)
{
    char *end;
    errno = 0;
    *v = strtoull(t, &end, 10);
    return errno || end == t || *end || *t == '-' ? -1 : 0;
}

/* what run writes of each job whatever its method did (vb_run_frame),
 * found as it is needed */
typedef struct {
    int known;
    vb_run_result r; /* status ok, every error 0 */
} shard_frame;

/* the name of column i of shard.csv */
static void shard_column(int i, char *buf, size_t len)
{
    snprintf(buf, len, "%s", vb_schema_name(&vb_shard_schema, (size_t)i));
}

/* Hold a row's result to what `run` could have written for its job (want:
 * vb_run_frame's): the plan's dt, t_end and step count, the case's has_*;
 * an ok run finished every step with errors that are finite numbers >= 0
 * (0 where they do not apply) and no fail_step; a run that did not finish
 * stopped at a step of the plan (fail_step) with every error inf
 * (docs/method.md §4).  0, or -1 with "column NAME: ..." in why. */
static int shard_result_check(const vb_run_result *r, const vb_run_result *want, char *why,
                              size_t whylen)
{
    char col[32];
    /* the counts after status: steps, force_evals, fail_step, has_* */
    const unsigned long long got_u[] = {r->steps, r->fail_step, (unsigned long long)r->has_energy,
                                        (unsigned long long)r->has_angmom,
                                        (unsigned long long)r->has_momentum,
                                        (unsigned long long)r->has_return,
                                        (unsigned long long)r->has_reference,
                                        (unsigned long long)r->has_constraint};
    const unsigned long long want_u[] = {
        want->steps, r->status == VB_STATUS_OK ? 0 : r->steps,
        (unsigned long long)want->has_energy, (unsigned long long)want->has_angmom,
        (unsigned long long)want->has_momentum, (unsigned long long)want->has_return,
        (unsigned long long)want->has_reference, (unsigned long long)want->has_constraint};
    const int col_u[] = {VB_COL_SHARD_STEPS,         VB_COL_SHARD_FAIL_STEP,
                         VB_COL_SHARD_HAS_ENERGY,    VB_COL_SHARD_HAS_ANGMOM,
                         VB_COL_SHARD_HAS_MOMENTUM,  VB_COL_SHARD_HAS_RETURN,
                         VB_COL_SHARD_HAS_REFERENCE, VB_COL_SHARD_HAS_CONSTRAINT};
    for (int i = 0; i < 8; i++) {
        if (i == 0 && r->status != VB_STATUS_OK) {
            /* a run a plugin's worker failed took no step this process saw */
            if (r->status == VB_STATUS_PLUGIN_FAILED ? r->steps == 0
                                                     : r->steps >= 1 && r->steps <= want->steps)
                continue;
            shard_column(col_u[i], col, sizeof col);
            if (r->status == VB_STATUS_PLUGIN_FAILED)
                snprintf(why, whylen, "column %s: %llu: a plugin-failed run took no step", col,
                         r->steps);
            else
                snprintf(why, whylen, "column %s: %llu: a run that stopped (%s) stopped at a "
                                      "step of its plan, 1 to %llu",
                         col, r->steps, vb_status_name(r->status), want->steps);
            return -1;
        }
        if (got_u[i] != want_u[i]) {
            shard_column(col_u[i], col, sizeof col);
            snprintf(why, whylen, "column %s: %llu, where run writes %llu for this %s run of "
                                  "this case",
                     col, got_u[i], want_u[i], vb_status_name(r->status));
            return -1;
        }
    }
    /* the doubles, from dt on */
    for (int i = 0; i < N_SHARD_DOUBLES; i++) {
        double x = *shard_double((vb_run_result *)r, i);
        double w = *shard_double((vb_run_result *)want, i);
        const char *want_text = NULL;
        char buf[96];
        if (i <= D(T_END)) { /* dt, t_end: the plan's */
            if (!(x == w)) {
                snprintf(buf, sizeof buf, "%a, the plan's", w);
                want_text = buf;
            }
        } else if (i == D(POS_SCALE) || i == D(VEL_SCALE)) { /* of the exact solution */
            if (!(isfinite(x) && x >= 0.0))
                want_text = "a finite number >= 0 (the exact solution's largest size)";
        } else if (i == D(REF_ERR_POS) || i == D(REF_ERR_VEL)) {
            if (!(isfinite(x) && x >= 0.0 && (r->has_reference || x == 0.0)))
                want_text = r->has_reference ? "a finite number >= 0 (the reference's error)"
                                             : "0 (the case has an exact solution)";
        } else if (i == D(REF_BAD_FORCE_T)) { /* a time, or NaN */
            if (!(isnan(x) || (isfinite(x) && x >= 0.0)))
                want_text = "a time >= 0, or NaN";
        } else if (i == D(ERR_POS_SIGNED) && r->status == VB_STATUS_OK) { /* of any sign */
            if (!isfinite(x))
                want_text = "a finite number (an ok run's signed error)";
        } else if (r->status != VB_STATUS_OK) {
            if (!(isinf(x) && x > 0.0))
                want_text = "inf (the errors of a run that did not finish)";
        } else if (!(isfinite(x) && x >= 0.0)) {
            want_text = "a finite number >= 0 (an ok run's error)";
        } else if (x != 0.0 &&
                   ((i == D(ERR_ENERGY_MAX) && !r->has_energy) ||
                    (i == D(ERR_ANGMOM_MAX) && !r->has_angmom) ||
                    (i == D(ERR_MOMENTUM_MAX) && !r->has_momentum) ||
                    (i == D(ERR_RETURN) && !r->has_return) ||
                    (i == D(ERR_CONSTRAINT_MAX) && !r->has_constraint))) {
            want_text = "0 (the case does not measure it)";
        }
        if (want_text) {
            shard_column(6 + N_SHARD_COUNTS + i, col, sizeof col);
            snprintf(why, whylen, "column %s: %a is not what run writes for this %s run: %s",
                     col, x, vb_status_name(r->status), want_text);
            return -1;
        }
    }
    return 0;
}

/* one row into its job; 0, or -1 with a message (frames: what run writes
 * of each job, filled as they are needed) */
static int shard_row(vb_sweep *s, int k, char *line, shard_frame *frames, char *why,
                     size_t whylen)
{
    char *field[64];
    int nf = 0;
    for (char *p = line; nf < 64;) {
        field[nf++] = p;
        char *comma = strchr(p, ',');
        if (!comma)
            break;
        *comma = '\0';
        p = comma + 1;
    }
    if (nf != N_SHARD_FIELDS) {
        snprintf(why, whylen, "%d fields, want %d", nf, N_SHARD_FIELDS);
        return -1;
    }
    unsigned long long job, u[N_SHARD_COUNTS];
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
    vb_run_result r;
    memset(&r, 0, sizeof r);
    int st = -1;
    for (int v = VB_STATUS_OK; v <= VB_STATUS_PLUGIN_FAILED; v++)
        if (!strcmp(field[5], vb_status_name((vb_status)v)))
            st = v;
    char col[32];
    for (int i = 0; i < N_SHARD_COUNTS; i++)
        if (parse_ull(field[6 + i], &u[i]) != 0 || (i >= 3 && u[i] > 1)) {
            shard_column(6 + i, col, sizeof col);
            snprintf(why, whylen, "column %s: '%.40s' is not a %s", col, field[6 + i],
                     i >= 3 ? "flag (0 or 1)" : "count");
            return -1;
        }
    if (st < 0 || st == VB_STATUS_ENGINE_FAILED) {
        snprintf(why, whylen, "column status: '%.40s' (want ok, diverged, exact-failed or "
                              "plugin-failed)",
                 field[5]);
        return -1;
    }
    r.status = (vb_status)st;
    r.steps = u[0];
    r.force_evals = u[1];
    r.fail_step = u[2];
    r.has_energy = (int)u[3];
    r.has_angmom = (int)u[4];
    r.has_momentum = (int)u[5];
    r.has_return = (int)u[6];
    r.has_reference = (int)u[7];
    r.has_constraint = (int)u[8];
    for (int i = 0; i < N_SHARD_DOUBLES; i++) {
        char *end, *fd = field[6 + N_SHARD_COUNTS + i];
        *shard_double(&r, i) = strtod(fd, &end);
        if (end == fd || *end) {
            shard_column(6 + N_SHARD_COUNTS + i, col, sizeof col);
            snprintf(why, whylen, "column %s: '%.40s' is not a number", col, fd);
            return -1;
        }
    }
    /* the jobs of one task share a plan: every integrator's but the
     * adaptive ones', which share the frames of its level 0 */
    size_t per = s->c->n_integ ? s->n_jobs / s->c->n_integ : 1;
    shard_frame *fr = &frames[((size_t)job % per) * 2 + (size_t)vb_sweep_refines_tol(s->c, j->integ)];
    if (!fr->known && vb_run_frame(&s->c->model, &j->plan, &fr->r) != 0) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    fr->known = 1;
    if (shard_result_check(&r, &fr->r, why, whylen) != 0)
        return -1;
    /* why a plugin's worker failed the run, and nothing for any other */
    char *text = field[N_SHARD_FIELDS - 1];
    int plug = r.status == VB_STATUS_PLUGIN_FAILED;
    if (plug != (text[0] != '\0') || get_failure(text) != 0) {
        snprintf(why, whylen, "column failure: '%.60s': %s", text,
                 !plug ? "empty unless the run is plugin-failed"
                       : !text[0] ? "a plugin-failed run says why"
                                  : "not percent-encoded text");
        return -1;
    }
    if (plug && !(r.failure = strdup(text))) {
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
    char *want = NULL, what[64], columns[2048];
    vb_schema_header_text(columns, sizeof columns, &vb_shard_schema, 0);
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
    shard_frame *frames = calloc(2 * per, sizeof *frames);
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
            } else if (strcmp(line, columns) != 0) {
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
