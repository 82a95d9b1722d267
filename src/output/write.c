/* write.c — a sweep's files.  Each file starts with '#' lines saying how
 * it was made (version, commit, case, parameters) and carries no
 * timestamp, so the same inputs give the same bytes.  They are written
 * into a fresh directory that replaces the case's old one whole
 * (outdir.h). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "body_table.h"
#include "charts.h"
#include "contact_orders_table.h"
#include "contact_table.h"
#include "names.h"
#include "norms.h"
#include "provenance.h"
#include "shardfile.h"
#include "stack_table.h"
#include "ratefiles.h"
#include "summary.h"
#include "tables.h"

typedef void writer_fn(const vb_sweep *s, FILE *f);

/* Every file of a case, in the order of names.c's table: its writer. */
static writer_fn *const body[VB_N_CASE_FILES] = {
    [VB_FILE_RUNS] = vb_write_runs,
    [VB_FILE_ORDERS] = vb_write_orders,
    [VB_FILE_BANDS] = vb_write_bands,
    [VB_FILE_ONESTEP] = vb_write_onestep,
    [VB_FILE_ONESTEP_ORDERS] = vb_write_onestep_orders,
    [VB_FILE_REVERSE] = vb_write_reverse,
    [VB_FILE_RATES] = vb_write_rates,
    [VB_FILE_FLIPS] = vb_write_flips,
    [VB_FILE_CONTACT] = vb_write_contact,
    [VB_FILE_CONTACT_ORDERS] = vb_write_contact_orders,
    [VB_FILE_STACKS] = vb_write_stacks,
    [VB_FILE_SUMMARY] = vb_sweep_summary,
    [VB_FILE_CONVERGENCE] = vb_write_convergence,
    [VB_FILE_TIMESERIES] = vb_write_timeseries,
    [VB_FILE_PATHS] = vb_write_paths,
    [VB_FILE_BOUNCES] = vb_write_bounces,
    [VB_FILE_RIGID_SERIES] = vb_write_rigid_timeseries,
    [VB_FILE_POLHODE] = vb_write_polhode,
    [VB_FILE_BODY] = vb_write_body,
    [VB_FILE_MOTION] = vb_write_motion,
    [VB_FILE_TIMING] = vb_write_timing,
    [VB_FILE_SHARD] = vb_sweep_write_shard,
};

/* does this sweep write file k?  What the case measures picks the files of
 * its measures (a rigid body's flips and its own chart data, the contact
 * table); then when: with chart data, timing, rates, or as a shard */
static int writes(const vb_sweep *s, size_t k)
{
    const vb_table_file *tf = &vb_case_files[k];
    unsigned measures = s->c->profile.measures;
    if ((measures & tf->needs) != tf->needs || (measures & tf->unless))
        return 0;
    /* a shard writes its runs and nothing that needs them all */
    if (tf->when == VB_WRITTEN_BY_A_SHARD || s->shard_n)
        return tf->when == VB_WRITTEN_BY_A_SHARD && s->shard_n;
    if (tf->when == VB_WRITTEN_WITH_TIMING)
        return s->timed;
    if (tf->when == VB_WRITTEN_WITH_RATES)
        return s->n_rates > 0;
    return !(tf->when == VB_WRITTEN_AS_CHART_DATA && s->tables_only);
}

/* file k of sweep s, for vb_casedir_write_file */
struct one {
    const vb_sweep *s;
    size_t k;
};

static void write_one(const void *ctx, FILE *f)
{
    const struct one *o = ctx;
    if (vb_case_files[o->k].what)
        vb_sweep_provenance(f, o->s, vb_case_files[o->k].what);
    body[o->k](o->s, f);
}

int vb_sweep_write(const vb_sweep *s, const char *dir, char *err, size_t errlen)
{
    for (size_t k = 0; k < VB_N_CASE_FILES; k++) {
        if (!writes(s, k))
            continue;
        struct one ctx = {s, k};
        if (vb_casedir_write_file(dir, vb_case_files[k].file, write_one, &ctx, err, errlen) != 0)
            return -1;
    }
    return 0;
}

int vb_sweep_write_all(const vb_outdir *o, const vb_sweep *sweeps, size_t n,
                       const vb_grid *grids, size_t n_grids, char *err, size_t errlen)
{
    size_t all = n + n_grids;
    vb_casedir *cd = calloc(all ? all : 1, sizeof *cd);
    if (!cd) {
        snprintf(err, errlen, "out of memory");
        return VB_OUTDIR_FAIL;
    }
    int rc = 0;
    size_t begun = 0;
    for (; begun < all && rc == 0; begun++) {
        const char *name = begun < n ? sweeps[begun].c->name : grids[begun - n].first->grid->name;
        rc = vb_casedir_begin(o, name, &cd[begun], err, errlen);
        if (rc == 0 && (begun < n ? vb_sweep_write(&sweeps[begun], cd[begun].tmp, err, errlen)
                                  : vb_grid_write(&grids[begun - n], cd[begun].tmp, err,
                                                  errlen)) != 0)
            rc = VB_OUTDIR_FAIL;
        if (rc != 0)
            break;
    }
    if (rc != 0) {
        for (size_t i = 0; i <= begun && i < all; i++)
            vb_casedir_abort(&cd[i]);
        free(cd);
        return rc;
    }
    for (size_t i = 0; i < all; i++)
        if (rc == 0)
            rc = vb_casedir_commit(&cd[i], err, errlen);
        else
            vb_casedir_abort(&cd[i]);
    free(cd);
    return rc;
}

int vb_sweep_table_text(const vb_sweep *s, const char *file, char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    for (size_t k = 0; k < VB_N_CASE_FILES; k++) {
        if (strcmp(vb_case_files[k].file, file) != 0 || !writes(s, k))
            continue;
        FILE *f = open_memstream(text, len);
        if (!f)
            return -1;
        struct one ctx = {s, k};
        write_one(&ctx, f);
        int failed = ferror(f);
        if (fclose(f) != 0 || failed) {
            free(*text);
            *text = NULL;
            return -1;
        }
        return 0;
    }
    return -1;
}
