/* fuzz_shard.c — libFuzzer target: merge's reader of shard.csv
 * (vb_sweep_read_shard, output/shardfile.c) on arbitrary bytes.  A shard is
 * read into a sweep of the case below, begun once and split in 2 shards;
 * its '#' lines must be the ones this build writes, so an input that does
 * not start with '#' is taken as the rows after the real header (made at
 * start-up by computing shard 1/2), and one that does is the whole file.
 * Every row must be taken or refused with a message (file:line: column),
 * never crash, leak or trip UBSan, and a row taken must be one run could
 * have written (its status, steps and errors).  The seeds in
 * tests/fuzz/shard/ are that shard's own rows:
 *   build/verletbench run --quiet --no-chart-data --shard 1/2 tests/fuzz/shard.case --out /tmp/s
 *   sed '1,/^job,/d' /tmp/s/shard/shard.csv > tests/fuzz/shard/rows
 *   make fuzz FUZZ_SECONDS=N */
#define _GNU_SOURCE
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "casefile.h"
#include "shardfile.h"
#include "sweep.h"

/* the same as tests/fuzz/shard.case: an exact solution, random plans and
 * an adaptive method (its jobs share their level 0's frames) */
static const char CASE[] = "[case]\nmodel = spring\nt_end = 1\n"
                           "[steps]\ndt = 0.1\nhalvings = 3\njitter = 0.5\nseeds = 2\n"
                           "tolerance = 1e-6\n"
                           "[integrators]\nuse = tcv, rkf45\n";

static vb_case c;
static vb_sweep s;
static char *head; /* the real shard's lines up to its column header */
static size_t head_len;
static int fd = -1;
static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    char err[1024], *text = NULL;
    size_t len = 0;
    if (vb_case_parse("tests/fuzz/shard.case", CASE, sizeof CASE - 1, &c, err, sizeof err) != 0 ||
        vb_sweep_begin(&c, &s, 1e9, err, sizeof err) != 0 || vb_sweep_shard(&s, 1, 1, 2) != 0 ||
        vb_sweep_compute(&c, &s, 1, NULL, NULL, err, sizeof err) != 0)
        abort();
    s.order_i = s.order_m = 1;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        abort();
    vb_sweep_write_shard(&s, mem);
    fclose(mem);
    char *cols = strstr(text, "\njob,");
    if (!cols)
        abort();
    head_len = (size_t)(strchr(cols + 1, '\n') - text) + 1;
    head = text;
    fd = memfd_create("shard.csv", 0);
    if (fd < 0)
        abort();
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int whole = size > 0 && data[0] == '#';
    if (ftruncate(fd, 0) != 0 || (!whole && pwrite(fd, head, head_len, 0) != (ssize_t)head_len) ||
        pwrite(fd, data, size, whole ? 0 : (off_t)head_len) != (ssize_t)size)
        abort();
    for (size_t k = 0; k < s.n_jobs; k++) {
        s.jobs[k].loaded = 0;
        vb_run_result_clear(&s.jobs[k].res); /* a plugin-failed row's text */
    }
    size_t filled = 0;
    int oi = 0, om = 0;
    char err[1024] = "";
    int rc = vb_sweep_read_shard(&s, 1, 2, path, &filled, &oi, &om, err, sizeof err);
    if (rc != 0 && (!memchr(err, '\0', sizeof err) || !err[0]))
        __builtin_trap(); /* a refusal must say why */
    /* what was taken is what run could have written */
    for (size_t k = 0; rc == 0 && k < s.n_jobs; k++) {
        const vb_run_result *r = &s.jobs[k].res;
        if (!s.jobs[k].loaded)
            continue;
        if (r->status == VB_STATUS_OK ? !(isfinite(r->err_pos_max) && r->err_pos_max >= 0.0) ||
                                            r->fail_step != 0
                                      : !(isinf(r->err_pos_max) && r->fail_step == r->steps))
            __builtin_trap();
    }
    return 0;
}
