/* fuzz_baseline.c — libFuzzer target: the baseline reader of `check`
 * (compare.c) on arbitrary bytes.  The input is a baseline's runs.csv and
 * orders.csv, split at the first line "=====" (no such line: all runs.csv,
 * empty orders.csv), compared with the tables of a real sweep of the case
 * below, made once.  Any input must be compared or refused with a message,
 * never crash, leak or trip UBSan.  The seeds in tests/fuzz/baseline/ are
 * that case's own tables, so mutations start deep in the reader.
 *   make fuzz FUZZ_SECONDS=N */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "casefile.h"
#include "casetables.h"
#include "sweep.h"
#include "write.h"

/* the same as tests/fuzz/small.case, which made the seeds */
static const char CASE[] = "[case]\nmodel = spring\nt_end = 1\n"
                           "[steps]\ndt = 0.1\nhalvings = 3\njitter = 0.5\nseeds = 2\n"
                           "[integrators]\nuse = tcv, rk4\n";

static char *now_runs, *now_orders;
static size_t now_runs_len, now_orders_len;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    vb_case c;
    vb_sweep s;
    char err[1024];
    if (vb_case_parse("tests/fuzz/small.case", CASE, sizeof CASE - 1, &c, err, sizeof err) != 0 ||
        vb_sweep_run(&c, &s, 1e9, VB_SWEEP_TABLES_ONLY, 1, NULL, NULL, err, sizeof err) != 0 ||
        vb_sweep_table_text(&s, "runs.csv", &now_runs, &now_runs_len) != 0 ||
        vb_sweep_table_text(&s, "orders.csv", &now_orders, &now_orders_len) != 0)
        abort();
    vb_sweep_free(&s);
    vb_case_free(&c);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data, *split = NULL;
    for (size_t i = 0; i + 6 <= size; i++)
        if ((i == 0 || text[i - 1] == '\n') && memcmp(text + i, "=====\n", 6) == 0) {
            split = text + i;
            break;
        }
    size_t runs_len = split ? (size_t)(split - text) : size;
    vb_text br = {"base/runs.csv", text, runs_len};
    vb_text bo = {"base/orders.csv", split ? split + 6 : "", split ? size - runs_len - 6 : 0};
    vb_text nr = {"now/runs.csv", now_runs, now_runs_len};
    vb_text no = {"now/orders.csv", now_orders, now_orders_len};
    vb_tolerance tol = {VB_CHECK_RTOL, VB_CHECK_FLOOR_ULPS, VB_CHECK_ORDER_TOL};
    vb_changes changes = {0};
    char err[1024] = "";
    int rc = vb_compare_tables("spring", "tests/fuzz/small.case", br, bo, nr, no, &tol,
                               &changes, err, sizeof err);
    if (rc != 0 && (!memchr(err, '\0', sizeof err) || !err[0]))
        __builtin_trap(); /* a refusal must say why */
    vb_changes_free(&changes);
    return 0;
}
