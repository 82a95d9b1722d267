/* cli.h — what the subcommands share: their entry points, messages and the
 * parsing of option values.  Exit status (docs/method.md §8): 0 success, 1 a failed
 * check or run, 2 bad usage or bad input. */
#ifndef VB_CLI_H
#define VB_CLI_H

#include <float.h>
#include <stddef.h>

#include "engine.h"  /* vb_engine_spec */
#include "options.h" /* the option tables, their parser, VB_EXIT_*, the messages */

int vb_cmd_list(int argc, char **argv);
/* Every table verletbench writes on a schema (schema.h), in the order
 * `list --columns` prints them (list.c): a new table is a line there. */
extern const vb_schema *const vb_tables[];
extern const size_t vb_n_tables;
int vb_cmd_sim(int argc, char **argv);
int vb_cmd_run(int argc, char **argv);
int vb_cmd_merge(int argc, char **argv);

/* --shard K/N (K/N at most VB_MAX_SHARDS, shards.h): 0, or -1 with the
 * usage message said */
int vb_opt_shard(const char *cmd, const char *text, int *k, int *n);
int vb_cmd_check(int argc, char **argv);
int vb_cmd_compare(int argc, char **argv);
int vb_cmd_bench(int argc, char **argv);
int vb_cmd_draw(int argc, char **argv);
int vb_cmd_problem(int argc, char **argv);
int vb_cmd_score(int argc, char **argv);
int vb_cmd_stability(int argc, char **argv);
int vb_cmd_longrun(int argc, char **argv);

/* No run may take more steps than this unless asked (--max-steps,
 * VERLETBENCH_MAX_STEPS): a typo in dt should not tie up a machine for a day.
 * 1e9 steps is about two minutes. */
#define VB_DEFAULT_MAX_STEPS 1e9


/* --model NAME of a command: *out its built-in (or plugin) type, and 0; or
 * the usage message naming the valid models (NULL: --model was not given)
 * and VB_EXIT_USAGE. */
struct vb_model_type;
int vb_opt_model(const char *cmd, const char *name, const struct vb_model_type **out);

/* --out DIR of a study (longrun, stability): out, or results/PREFIX-MODEL
 * in buf when NULL; a path that exists and is not a directory, or cannot be
 * read, is bad usage found before any run (as `run` does): the message and
 * NULL.  Nothing is made here: the study makes it when it is done. */
const char *vb_opt_study_dir(const char *cmd, const char *out, const char *prefix,
                             const char *model, char *buf, size_t len);

/* --set KEY=VALUE into a model: 0, or -1 with the usage error printed */
struct vb_model;
int vb_opt_set_param(const char *cmd, struct vb_model *m, const char *kv);
/* every --set given, in order, into a model; a key set twice is refused
 * (as a case file's key given twice is): 0, or -1 after the message */
int vb_opt_set_params(const char *cmd, struct vb_model *m, const char *const *kv, size_t n);

/* --max-steps N: a number >= 1.  0, or -1 after the message. */
int vb_opt_max_steps(const char *cmd, const char *arg, double *out);

/* -j N / --jobs N: 1..1024 threads.  0, or -1 after the message. */
int vb_opt_threads(const char *cmd, const char *arg, unsigned *out);

/* --plugin FILE: load it, or print why not and return -1 (exit 2). */
int vb_opt_plugin(const char *cmd, const char *path);

/* Options several commands take, handled in one place: each a row of its
 * own (VB_SHARED_* below), told apart by its code. */
enum {
    VB_OPT_JOBS = 'j',
    VB_OPT_MAX_STEPS = 1000,
    VB_OPT_PLUGIN,
    VB_OPT_ENGINE,
    VB_OPT_TRAJECTORIES,
    VB_OPT_ENGINE_TIMEOUT,
    VB_OPT_ENGINES_ONLY,
    VB_OPT_PLUGIN_TIMEOUT
};
#define VB_MAX_CLI_ENGINES 16

typedef struct vb_shared_opts {
    double max_steps; /* --max-steps, else VERLETBENCH_MAX_STEPS, else 1e9 */
    unsigned threads; /* -j/--jobs, else VERLETBENCH_THREADS, else every CPU */
    int max_steps_given, threads_given;
    /* --engine and --trajectories, in order, parsed as they are read, and
     * --engine-timeout */
    vb_engine_spec engine[VB_MAX_CLI_ENGINES];
    size_t n_engines;
    double engine_timeout;
    int engine_timeout_given; /* then it holds for a case file's [engines] too */
    int engines_only;
} vb_shared_opts;

struct vb_case;
/* Add the --engine and --trajectories engines to a case (its own copies).
 * 0, or VB_EXIT_USAGE after a message. */
int vb_case_add_cli_engines(const char *cmd, struct vb_case *c, const vb_shared_opts *o);

/* The defaults: 1e9 steps, every CPU. */
vb_shared_opts vb_shared_opts_plain(void);
/* After the options: what they did not set comes from VERLETBENCH_MAX_STEPS
 * and VERLETBENCH_THREADS when those are set, which must then hold what
 * --max-steps and --jobs accept.  0, or VB_EXIT_USAGE after a message
 * naming the variable. */
int vb_shared_opts_env(const char *cmd, vb_shared_opts *o);

/* The rows of the options several commands share (options.h), their
 * values in a vb_shared_opts (SO: its address), each checked as it comes;
 * and VB_SHARED_ENV(SO) in a vb_command_spec: after the options,
 * VERLETBENCH_MAX_STEPS and VERLETBENCH_THREADS (vb_shared_opts_env). */
int vb_opt_shared_row(const char *cmd, const vb_option *row, const char *arg);
int vb_shared_opts_then(const char *cmd, void *so);
#define VB_SHARED_ENV(SO) .then = vb_shared_opts_then, .then_ctx = (SO)
/* COLUMN: where the help starts when not the command's column (a text
 * wrapped for it, as the shared ones are for 19) */
#define VB_SHARED_ROW_FLAGS(NAME, SHORT, ARG, CODE, SO, HELP, COLUMN, FLAGS)                      \
    {.kind = VB_OPTION_CALL, .name = NAME, .short_name = SHORT, .arg = ARG,                        \
     .call = vb_opt_shared_row, .code = CODE, .store = SO, .help = HELP, .column = COLUMN,         \
     .flags = FLAGS}
#define VB_SHARED_ROW(NAME, SHORT, ARG, CODE, SO, HELP, COLUMN)                                    \
    VB_SHARED_ROW_FLAGS(NAME, SHORT, ARG, CODE, SO, HELP, COLUMN, 0)
#define VB_SHARED_JOBS(SO, HELP) VB_SHARED_ROW("jobs", 'j', "N", VB_OPT_JOBS, SO, HELP, 0)
#define VB_SHARED_MAX_STEPS(SO, HELP)                                                              \
    VB_SHARED_ROW("max-steps", 0, "N", VB_OPT_MAX_STEPS, SO, HELP, 0)
/* --plugin FILE, given once a plugin (repeats) */
#define VB_SHARED_PLUGIN(SO, HELP, COLUMN)                                                         \
    VB_SHARED_ROW_FLAGS("plugin", 0, "FILE", VB_OPT_PLUGIN, SO, HELP, COLUMN, VB_OPTION_REPEATS)
#define VB_SHARED_PLUGINS(SO)                                                                      \
    VB_SHARED_PLUGIN(SO,                                                                           \
                     "load integrators and models from a shared object (repeatable);\n"            \
                     "see examples/plugin/ and verletbench.h.  Its runs go to worker\n"            \
                     "processes: a plugin that exits, crashes or hangs fails those runs\n"         \
                     "(plugin-failed, with why), and the rest goes on",                            \
                     19),                                                                          \
        VB_SHARED_ROW("plugin-timeout", 0, "S", VB_OPT_PLUGIN_TIMEOUT, SO,                         \
                      "seconds one plugin run may take in its worker (default 600)", 19)
/* external engines (engine.h), added to every case */
#define VB_SHARED_ENGINES(SO)                                                                      \
    VB_SHARED_ROW_FLAGS("engine", 0, "NAME:ORDER=CMD", VB_OPT_ENGINE, SO,                          \
                        "also measure an external engine: CMD (run by /bin/sh) gets\n"             \
                        "each run as JSON on stdin and writes its trajectory as CSV on\n"          \
                        "stdout (docs/engines.md); ORDER is its method's order (repeatable)",      \
                        19, VB_OPTION_REPEATS),                                                    \
        VB_SHARED_ROW_FLAGS("trajectories", 0, "NAME:ORDER=DIR", VB_OPT_TRAJECTORIES, SO,          \
                            "the same, from trajectories already written: DIR/RUN.csv\n"           \
                            "(repeatable)",                                                        \
                            19, VB_OPTION_REPEATS),                                                \
        VB_SHARED_ROW("engine-timeout", 0, "S", VB_OPT_ENGINE_TIMEOUT, SO,                         \
                      "seconds one engine run may take (default 600)", 19),                        \
        VB_SHARED_ROW("engines-only", 0, NULL, VB_OPT_ENGINES_ONLY, SO,                            \
                      "measure the engines alone, not the case's integrators", 19)
/* check's and compare's tolerances (casetables.h, docs/check.md) into a
 * vb_tolerance (TOL: its address) */
#define VB_TOLERANCE_ROW(NAME, ARG, STORE, DEF, HELP)                                              \
    {.kind = VB_OPTION_DOUBLE, .name = NAME, .arg = ARG, .store = STORE, .min = 0.0,               \
     .max = DBL_MAX, .limits = "%s must be >= 0", .help = HELP, .def = DEF, .column = 19}
#define VB_SHARED_TOLERANCES(TOL)                                                                  \
    VB_TOLERANCE_ROW("rtol", "R", &(TOL)->rtol, VB_CHECK_RTOL,                                     \
                     "an error is worse when it grows by more than the factor 1 + R\n"             \
                     "(default %g)"),                                                              \
        VB_TOLERANCE_ROW("floor-ulps", "U", &(TOL)->floor_ulps, VB_CHECK_FLOOR_ULPS,               \
                         "errors under U * eps * steps^1.5 * scale are round-off and\n"            \
                         "not compared (default %g); a run the tables record as\n"                 \
                         "float32: U * eps32 * steps * scale, and a change must also\n"            \
                         "clear that floor"),                                                      \
        VB_TOLERANCE_ROW("order-tol", "A", &(TOL)->order_tol, VB_CHECK_ORDER_TOL,                  \
                         "a fitted order is worse when it drops by more than A (default\n"         \
                         "%g); any verdict that gets worse fails")

#endif
