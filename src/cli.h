/* cli.h — what the subcommands share: their entry points, messages and the
 * parsing of option values.  Exit status (SPEC §6): 0 success, 1 a failed
 * check or run, 2 bad usage or bad input. */
#ifndef VB_CLI_H
#define VB_CLI_H

#include <stddef.h>

#define VB_EXIT_OK 0
#define VB_EXIT_FAIL 1
#define VB_EXIT_USAGE 2

#define VB_VERSION "0.1.0"

int vb_cmd_list(int argc, char **argv);
int vb_cmd_sim(int argc, char **argv);
int vb_cmd_run(int argc, char **argv);
int vb_cmd_check(int argc, char **argv);
int vb_cmd_bench(int argc, char **argv);

/* No run may take more steps than this unless asked (--max-steps,
 * VERLETBENCH_MAX_STEPS): a typo in dt should not tie up a machine for a day.
 * 1e9 steps is about two minutes. */
#define VB_DEFAULT_MAX_STEPS 1e9
double vb_default_max_steps(void);

/* "verletbench CMD: message" on stderr, then a pointer to --help; returns 2. */
int vb_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "verletbench CMD: message" on stderr. */
void vb_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parse an option's value; on failure print which option and why, return -1. */
int vb_opt_double(const char *cmd, const char *opt, const char *arg, double *out);
int vb_opt_ulong(const char *cmd, const char *opt, const char *arg, unsigned long *out);

/* --max-steps N: a number >= 1.  0, or -1 after the message. */
int vb_opt_max_steps(const char *cmd, const char *arg, double *out);

/* getopt returned ':' (a missing value) or '?' (an unknown option): say
 * which, and return VB_EXIT_USAGE. */
int vb_opt_bad(const char *cmd, int c, char **argv);

/* -j N / --jobs N: 1..1024 threads.  0, or -1 after the message. */
int vb_opt_threads(const char *cmd, const char *arg, unsigned *out);

/* --plugin FILE: load it, or print why not and return -1 (exit 2). */
int vb_opt_plugin(const char *cmd, const char *path);

/* The git commit the binary was built from ("unknown" outside a checkout). */
const char *vb_git_hash(void);

#endif
