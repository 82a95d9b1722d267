/* cli.h — what the subcommands share: their entry points, messages and the
 * parsing of option values.  Exit status (docs/method.md §8): 0 success, 1 a failed
 * check or run, 2 bad usage or bad input. */
#ifndef VB_CLI_H
#define VB_CLI_H

#include <stddef.h>

#define VB_EXIT_OK 0
#define VB_EXIT_FAIL 1
#define VB_EXIT_USAGE 2

int vb_cmd_list(int argc, char **argv);
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

/* "verletbench CMD: message" on stderr, then a pointer to --help; returns 2. */
int vb_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

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

/* "verletbench CMD: message" on stderr. */
void vb_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parse an option's value; on failure print which option and why, return -1. */
int vb_opt_double(const char *cmd, const char *opt, const char *arg, double *out);
int vb_opt_ulong(const char *cmd, const char *opt, const char *arg, unsigned long *out);
/* --set KEY=VALUE into a model: 0, or -1 with the usage error printed */
struct vb_model;
int vb_opt_set_param(const char *cmd, struct vb_model *m, const char *kv);

/* --max-steps N: a number >= 1.  0, or -1 after the message. */
int vb_opt_max_steps(const char *cmd, const char *arg, double *out);

/* getopt returned ':' (a missing value) or '?' (an unknown option): say
 * which, and return VB_EXIT_USAGE. */
int vb_opt_bad(const char *cmd, int c, char **argv);

/* -j N / --jobs N: 1..1024 threads.  0, or -1 after the message. */
int vb_opt_threads(const char *cmd, const char *arg, unsigned *out);

/* --plugin FILE: load it, or print why not and return -1 (exit 2). */
int vb_opt_plugin(const char *cmd, const char *path);

/* Options several commands take, handled in one place: a command puts the
 * entries it accepts in its getopt table and passes every value its own
 * switch does not know to vb_opt_shared (which also reports ':' and '?'). */
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
#define VB_OPTION_MAX_STEPS {"max-steps", required_argument, NULL, VB_OPT_MAX_STEPS}
#define VB_OPTION_PLUGIN                                                                          \
    {"plugin", required_argument, NULL, VB_OPT_PLUGIN},                                            \
        {"plugin-timeout", required_argument, NULL, VB_OPT_PLUGIN_TIMEOUT}
#define VB_OPTION_JOBS {"jobs", required_argument, NULL, VB_OPT_JOBS}
/* external engines (engine.h), added to every case */
#define VB_OPTION_ENGINES                                                                         \
    {"engine", required_argument, NULL, VB_OPT_ENGINE},                                            \
        {"trajectories", required_argument, NULL, VB_OPT_TRAJECTORIES},                            \
        {"engine-timeout", required_argument, NULL, VB_OPT_ENGINE_TIMEOUT},                      \
        {"engines-only", no_argument, NULL, VB_OPT_ENGINES_ONLY}
#define VB_ENGINES_HELP                                                                           \
    "  --engine NAME:ORDER=CMD  also measure an external engine: CMD (run by /bin/sh) gets\n"     \
    "                   each run as JSON on stdin and writes its trajectory as CSV on\n"        \
    "                   stdout (docs/engines.md); ORDER is its method's order (repeatable)\n"  \
    "  --trajectories NAME:ORDER=DIR  the same, from trajectories already written: DIR/RUN.csv\n" \
    "  --engine-timeout S  seconds one engine run may take (default 600)\n"                     \
    "  --engines-only   measure the engines alone, not the case's integrators\n"

#define VB_MAX_CLI_ENGINES 16

/* check's and compare's tolerances (casetables.h, docs/check.md): the getopt
 * entries; their help, a printf format to be given VB_CHECK_RTOL,
 * VB_CHECK_FLOOR_ULPS and VB_CHECK_ORDER_TOL; and their values: 0 taken,
 * VB_EXIT_USAGE after the message, -1 when c is none of them. */
enum { VB_OPT_RTOL = 1100, VB_OPT_FLOOR_ULPS, VB_OPT_ORDER_TOL };
#define VB_OPTION_TOLERANCES                                                                      \
    {"rtol", required_argument, NULL, VB_OPT_RTOL},                                               \
        {"floor-ulps", required_argument, NULL, VB_OPT_FLOOR_ULPS},                               \
        {"order-tol", required_argument, NULL, VB_OPT_ORDER_TOL}
#define VB_TOLERANCE_HELP                                                                         \
    "  --rtol R         an error is worse when it grows by more than the factor 1 + R\n"          \
    "                   (default %g)\n"                                                           \
    "  --floor-ulps U   errors under U * eps * steps^1.5 * scale are round-off and\n"            \
    "                   not compared (default %g); a run the tables record as\n"                \
    "                   float32: U * eps32 * steps * scale, and a change must also\n"             \
    "                   clear that floor\n"                                                       \
    "  --order-tol A    a fitted order is worse when it drops by more than A (default\n"         \
    "                   %g); any verdict that gets worse fails\n"
int vb_opt_tolerance(const char *cmd, int c, double *rtol, double *floor_ulps, double *order_tol);

typedef struct vb_shared_opts {
    double max_steps; /* --max-steps, else VERLETBENCH_MAX_STEPS, else 1e9 */
    unsigned threads; /* -j/--jobs, else VERLETBENCH_THREADS, else every CPU */
    int max_steps_given, threads_given;
    /* --engine and --trajectories, in order, and --engine-timeout */
    const char *engine[VB_MAX_CLI_ENGINES];
    int engine_is_dir[VB_MAX_CLI_ENGINES];
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

/* 0 when c was a shared option and its value is good; else the message and
 * VB_EXIT_USAGE. */
int vb_opt_shared(const char *cmd, int c, vb_shared_opts *o, char **argv);

#endif
