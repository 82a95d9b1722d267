/* options.h — a command's options as a table, and the one parser every
 * command reads its options with (git's parse-options is the model).
 *
 * A row says all there is to say about an option: its long name, its short
 * name if any, its kind, where its value goes, its limits and the message
 * when a value is outside them, and its help.  The parser (getopt_long
 * underneath: abbreviations, --name=VALUE, "--" and operands among the
 * options as before) checks each value against its row and says what is
 * wrong in the command's words, "verletbench CMD: --name: ...", exit 2
 * (an option of one value given twice too: a row says whether it repeats);
 * --help prints the command's text round the rows' help, so an option and
 * its help are one row.  Exit status (docs/method.md §8): 0 success, 1 a
 * failed check or run, 2 bad usage or bad input. */
#ifndef VB_OPTIONS_H
#define VB_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "schema.h"

#define VB_EXIT_OK 0
#define VB_EXIT_FAIL 1
#define VB_EXIT_USAGE 2

/* "verletbench CMD: message" on stderr, then a pointer to --help; returns 2. */
int vb_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "verletbench CMD: message" on stderr. */
void vb_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A table's columns for a --help (a view of its schema), broken after a
 * comma into lines of at most 79 characters, each indented two and ending
 * in a newline, into buf (truncated to len): the help cannot list columns
 * the table does not have. */
void vb_help_columns(char *buf, size_t len, const vb_schema *s, unsigned view);

/* An option's comma list ("A,B,C"; blanks round a comma allowed, as in a
 * case file's lists), cut in buf (len bytes) into items (at most cap).
 * The count, or -1 after the message: an entry left empty ('a,,b', 'a,',
 * ',a'), more than cap, or a value longer than buf. */
int vb_opt_split(const char *cmd, const char *opt, const char *text, char *buf, size_t len,
                 char **items, size_t cap);

/* Parse an option's value; on failure print which option and why, return -1. */
int vb_opt_double(const char *cmd, const char *opt, const char *arg, double *out);
int vb_opt_ulong(const char *cmd, const char *opt, const char *arg, unsigned long *out);

typedef enum {
    VB_OPTION_END,    /* the table's last row */
    VB_OPTION_FLAG,   /* no value: *(int *)store = 1 */
    VB_OPTION_STRING, /* *(const char **)store = the value */
    VB_OPTION_DOUBLE, /* *(double *)store: a finite number within [min, max] */
    VB_OPTION_ULONG,  /* *(unsigned long *)store: a whole number within [min, max] */
    VB_OPTION_LIST,   /* repeatable: appended to *(vb_opt_list *)store, at most max */
    VB_OPTION_CALL,   /* call(cmd, row, value): 0, or VB_EXIT_USAGE after its message */
    VB_OPTION_HELP,   /* print the help and end the command, exit 0 */
    VB_OPTION_TEXT    /* no option: help text, printed as it is where the row stands */
} vb_option_kind;

enum {
    VB_OPTION_ABOVE_MIN = 1, /* DOUBLE: min itself is out of limits */
    VB_OPTION_OPTIONAL = 2,  /* the value is optional (--name=VALUE only); call gets NULL */
    VB_OPTION_HIDDEN = 4,    /* parsed, not listed on its own (a TEXT row says it) */
    VB_OPTION_BELOW_MAX = 8, /* DOUBLE: max itself is out of limits */
    /* FLAG: the options end here; every word after it is an operand, even
     * one that starts with '-' (draw --chart KIND TABLE OUT ...), and an
     * operand before it is bad usage, since it would be no one's */
    VB_OPTION_STOP = 16,
    /* CALL: the option may be given again, each value called in turn (a
     * list: --plugin, --engine).  Without it an option that takes a value
     * is refused the second time, whatever the first was (the last one
     * silently winning is a typo unseen); a LIST row repeats by its kind,
     * and a flag given twice is given */
    VB_OPTION_REPEATS = 32
};

typedef struct vb_option vb_option;
struct vb_option {
    vb_option_kind kind;
    const char *name;  /* the long name, without "--" */
    char short_name;   /* 'j' for -j, or 0 */
    const char *arg;   /* the value's name in the help ("N"); NULL: a flag */
    void *store;       /* where the value goes (the kind says as what) */
    int (*call)(const char *cmd, const vb_option *row, const char *arg);
    int code;          /* CALL: which option, for a function that serves several */
    double min, max;   /* DOUBLE, ULONG: the limits; LIST: the most values */
    unsigned flags;
    /* the message after "--name: " for a value outside the limits, its %s
     * the value as given ("%s must be in [1, 1e9]"); LIST: too many */
    const char *limits;
    /* its help, after the name column; a '\n' starts a line indented to
     * the column; a %g, the default def (so the text cannot lie about it) */
    const char *help;
    double def;
    int column; /* where its help starts, when not the command's (a text wrapped for it) */
};

/* A repeatable option's values, in the order given */
#define VB_OPT_LIST_MAX 64
typedef struct {
    const char *v[VB_OPT_LIST_MAX];
    size_t n;
} vb_opt_list;

/* The rows, as git's OPT_ macros */
#define VB_OPT_FLAG(NAME, STORE, HELP)                                                             \
    {.kind = VB_OPTION_FLAG, .name = NAME, .store = STORE, .help = HELP}
/* a flag whose operands follow it (VB_OPTION_STOP); ARG: their names in the help */
#define VB_OPT_STOP(NAME, ARG, STORE, HELP)                                                        \
    {.kind = VB_OPTION_FLAG, .name = NAME, .arg = ARG, .store = STORE, .flags = VB_OPTION_STOP,    \
     .help = HELP}
#define VB_OPT_STRING(NAME, ARG, STORE, HELP)                                                      \
    {.kind = VB_OPTION_STRING, .name = NAME, .arg = ARG, .store = STORE, .help = HELP}
#define VB_OPT_DOUBLE(NAME, ARG, STORE, MIN, MAX, LIMITS, HELP)                                    \
    {.kind = VB_OPTION_DOUBLE, .name = NAME, .arg = ARG, .store = STORE, .min = MIN,               \
     .max = MAX, .limits = LIMITS, .help = HELP}
/* the same, min itself excluded: (MIN, MAX]; or max: [MIN, MAX) */
#define VB_OPT_DOUBLE_ABOVE(NAME, ARG, STORE, MIN, MAX, LIMITS, HELP)                              \
    {.kind = VB_OPTION_DOUBLE, .name = NAME, .arg = ARG, .store = STORE, .min = MIN,               \
     .max = MAX, .flags = VB_OPTION_ABOVE_MIN, .limits = LIMITS, .help = HELP}
#define VB_OPT_DOUBLE_BELOW(NAME, ARG, STORE, MIN, MAX, LIMITS, HELP)                              \
    {.kind = VB_OPTION_DOUBLE, .name = NAME, .arg = ARG, .store = STORE, .min = MIN,               \
     .max = MAX, .flags = VB_OPTION_BELOW_MAX, .limits = LIMITS, .help = HELP}
#define VB_OPT_ULONG(NAME, ARG, STORE, MIN, MAX, LIMITS, HELP)                                     \
    {.kind = VB_OPTION_ULONG, .name = NAME, .arg = ARG, .store = STORE, .min = MIN, .max = MAX,    \
     .limits = LIMITS, .help = HELP}
#define VB_OPT_LIST(NAME, ARG, STORE, MAX, LIMITS, HELP)                                           \
    {.kind = VB_OPTION_LIST, .name = NAME, .arg = ARG, .store = STORE, .max = MAX,                 \
     .limits = LIMITS, .help = HELP}
#define VB_OPT_CALL(NAME, ARG, CALL, STORE, HELP)                                                  \
    {.kind = VB_OPTION_CALL, .name = NAME, .arg = ARG, .call = CALL, .store = STORE, .help = HELP}
/* the same, given as often as wanted (VB_OPTION_REPEATS) */
#define VB_OPT_CALL_REPEATS(NAME, ARG, CALL, STORE, HELP)                                          \
    {.kind = VB_OPTION_CALL, .name = NAME, .arg = ARG, .call = CALL, .store = STORE,              \
     .flags = VB_OPTION_REPEATS, .help = HELP}
#define VB_OPT_HELP {.kind = VB_OPTION_HELP, .name = "help", .help = "this text"}
#define VB_OPT_TEXT(TEXT) {.kind = VB_OPTION_TEXT, .help = TEXT}
#define VB_OPT_END {.kind = VB_OPTION_END}

/* operands: any, or none (one is "unexpected argument") */
enum { VB_OPERANDS_ANY, VB_OPERANDS_NONE };

typedef struct {
    const char *name;        /* the command's, as in its messages */
    const vb_option *options;
    /* --help: usage, "Options:", the rows (their help from `column` on, 19
     * when 0), then epilogue */
    const char *usage, *epilogue;
    int column;
    int operands;
    /* after the options, before the operands are judged: 0, or the exit
     * status after its message (the environment's VERLETBENCH_*, cli.h) */
    int (*then)(const char *cmd, void *ctx);
    void *then_ctx;
} vb_command_spec;

/* vb_options_parse's "go on" */
#define VB_OPTIONS_GO (-1)

/* Reads argv's options by the table: VB_OPTIONS_GO with *first the index
 * of the first operand; else the command ends with the status returned,
 * VB_EXIT_OK after --help, VB_EXIT_USAGE after the message. */
int vb_options_parse(const vb_command_spec *spec, int argc, char **argv, int *first);

/* The command's --help, from its text and its rows. */
void vb_options_help(const vb_command_spec *spec, FILE *out);

#endif
