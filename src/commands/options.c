/* options.c — the one parser of the commands' option tables (options.h),
 * their --help, and the messages of bad usage. */
#include "options.h"
#include "numbers.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void vb_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "verletbench %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void vb_help_columns(char *buf, size_t len, const vb_schema *s, unsigned view)
{
    char all[4096];
    vb_schema_header_text(all, sizeof all, s, view);
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    /* a line holds the rest, or as many names and their commas as fit in 77
     * (two of indent), or one name, however long */
    for (const char *p = all; *p && used < len;) {
        size_t n = strlen(p), fit = n;
        if (n > 77) {
            fit = strcspn(p, ",");
            fit += p[fit] == ','; /* with its comma, unless the last */
            for (size_t k = fit; k < 77; k++)
                if (p[k] == ',')
                    fit = k + 1;
        }
        int w = snprintf(buf + used, len - used, "  %.*s\n", (int)fit, p);
        used += w > 0 ? (size_t)w : 0;
        p += fit;
    }
}

int vb_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "verletbench %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'verletbench %s --help'.\n", cmd);
    return VB_EXIT_USAGE;
}

int vb_opt_double(const char *cmd, const char *opt, const char *arg, double *out)
{
    if (vb_parse_double(arg, out) != 0) {
        vb_usage_error(cmd, "%s: '%s' %s", opt, arg, vb_number_refusal(arg));
        return -1;
    }
    return 0;
}

int vb_opt_ulong(const char *cmd, const char *opt, const char *arg, unsigned long *out)
{
    unsigned long long x;
    if (vb_parse_whole(arg, 0xffffffffULL, &x) != 0) {
        vb_usage_error(cmd, "%s: '%s' is not a whole number in 0..4294967295", opt, arg);
        return -1;
    }
    *out = (unsigned long)x;
    return 0;
}

int vb_opt_split(const char *cmd, const char *opt, const char *text, char *buf, size_t len,
                 char **items, size_t cap)
{
    if (snprintf(buf, len, "%s", text) >= (int)len) {
        vb_usage_error(cmd, "%s: '%.40s...' is longer than %zu characters", opt, text, len - 1);
        return -1;
    }
    size_t n = 0;
    for (char *s = buf;;) {
        char *comma = strchr(s, ',');
        if (comma)
            *comma = '\0';
        while (*s == ' ' || *s == '\t')
            s++;
        char *end = s + strlen(s);
        while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
            *--end = '\0';
        if (!*s) {
            vb_usage_error(cmd, "%s: an empty entry in the list '%s' (%s)", opt, text,
                           !comma ? (n ? "after its last comma" : "no entry at all")
                           : n    ? "between two commas"
                                  : "before its first comma");
            return -1;
        }
        if (n == cap) {
            vb_usage_error(cmd, "%s: '%s': at most %zu in the list", opt, text, cap);
            return -1;
        }
        items[n++] = s;
        if (!comma)
            return (int)n;
        s = comma + 1;
    }
}

/* text with its first %s as s (or %g as x): the limits' message and the
 * help's default, without a format string taken from a table */
static void put_with(FILE *out, const char *text, const char *s, double x)
{
    const char *mark = s ? strstr(text, "%s") : strstr(text, "%g");
    if (!mark) {
        fputs(text, out);
        return;
    }
    fwrite(text, 1, (size_t)(mark - text), out);
    if (s)
        fputs(s, out);
    else
        fprintf(out, "%g", x);
    fputs(mark + 2, out);
}

/* "verletbench CMD: --NAME: " and the row's limits message for arg */
static int out_of_limits(const char *cmd, const vb_option *o, const char *arg)
{
    fprintf(stderr, "verletbench %s: --%s: ", cmd, o->name);
    put_with(stderr, o->limits, arg, 0.0);
    fprintf(stderr, "\nTry 'verletbench %s --help'.\n", cmd);
    return VB_EXIT_USAGE;
}

/* One option's value into its row's store: 0, or the exit status after
 * the message. */
static int take(const char *cmd, const vb_option *o, const char *arg)
{
    char opt[80];
    snprintf(opt, sizeof opt, "--%s", o->name);
    switch (o->kind) {
    case VB_OPTION_FLAG:
        *(int *)o->store = 1;
        return 0;
    case VB_OPTION_STRING:
        *(const char **)o->store = arg;
        return 0;
    case VB_OPTION_DOUBLE: {
        double *x = o->store;
        if (vb_opt_double(cmd, opt, arg, x) != 0)
            return VB_EXIT_USAGE;
        int above = (o->flags & VB_OPTION_ABOVE_MIN) ? *x > o->min : *x >= o->min;
        int below = (o->flags & VB_OPTION_BELOW_MAX) ? *x < o->max : *x <= o->max;
        return above && below ? 0 : out_of_limits(cmd, o, arg);
    }
    case VB_OPTION_ULONG: {
        unsigned long *x = o->store;
        if (vb_opt_ulong(cmd, opt, arg, x) != 0)
            return VB_EXIT_USAGE;
        return (double)*x >= o->min && (double)*x <= o->max ? 0 : out_of_limits(cmd, o, arg);
    }
    case VB_OPTION_LIST: {
        vb_opt_list *l = o->store;
        if ((double)l->n >= o->max || l->n == VB_OPT_LIST_MAX)
            return vb_usage_error(cmd, "%s: %s", opt, o->limits);
        l->v[l->n++] = arg;
        return 0;
    }
    case VB_OPTION_CALL:
        return o->call(cmd, o, arg);
    default:
        return 0;
    }
}

#define MAX_ROWS 64

/* a row's value follows it (a flag's arg names only the operands a
 * VB_OPTION_STOP row takes after it, in the help) */
static int takes_value(const vb_option *o)
{
    return o->arg && o->kind != VB_OPTION_FLAG;
}

/* The first operand among argv[1..n), read again in order (getopt's '-':
 * a word that is no option comes back as 1, and nothing is moved), or
 * NULL: what getopt passed over on its way to a VB_OPTION_STOP row at
 * argv[n].  Its permutation so far kept each option beside its value, so
 * the words read as they did. */
static const char *operand_before(int n, char **argv, const char *shorts,
                                  const struct option *longs)
{
    char in_order[2 * MAX_ROWS + 3] = "-";
    snprintf(in_order + 1, sizeof in_order - 1, "%s", shorts);
    optind = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(n, argv, in_order, longs, NULL)) != -1)
        if (c == 1)
            return optarg;
    return NULL;
}

/* may the row be given again?  A list, a CALL row that says so, and a
 * flag (given twice is given); never an option of one value */
static int repeats(const vb_option *o)
{
    if (o->kind == VB_OPTION_LIST || (o->flags & VB_OPTION_REPEATS))
        return 1;
    return !takes_value(o) && !(o->flags & VB_OPTION_OPTIONAL);
}

/* "--name 'value'" as given (an optional value: "--name=value", or "--name") */
static void as_given(char *buf, size_t len, const vb_option *o, const char *value)
{
    if (!value)
        snprintf(buf, len, "--%s", o->name);
    else
        snprintf(buf, len, "--%s%s'%.200s'", o->name, (o->flags & VB_OPTION_OPTIONAL) ? "=" : " ",
                 value);
}

/* an option of one value given a second time: the message, exit 2 */
static int given_twice(const char *cmd, const vb_option *o, const char *was, const char *now)
{
    char a[256], b[256];
    as_given(a, sizeof a, o, was);
    as_given(b, sizeof b, o, now);
    return vb_usage_error(cmd, "--%s is given twice (%s, then %s): it takes one value", o->name,
                          a, b);
}

int vb_options_parse(const vb_command_spec *spec, int argc, char **argv, int *first)
{
    struct option longs[MAX_ROWS + 1];
    char shorts[2 * MAX_ROWS + 2] = ":";
    size_t n = 0, ns = 1;
    const vb_option *rows = spec->options;
    for (size_t i = 0; rows[i].kind != VB_OPTION_END && n < MAX_ROWS; i++) {
        if (rows[i].kind == VB_OPTION_TEXT)
            continue;
        int has = (rows[i].flags & VB_OPTION_OPTIONAL) ? optional_argument
                  : takes_value(&rows[i])                ? required_argument
                                                         : no_argument;
        /* a long name's value: its row's index past every char, or its
         * short name, so -j and --jobs are one */
        longs[n++] = (struct option){rows[i].name, has, NULL,
                                     rows[i].short_name ? rows[i].short_name : 256 + (int)i};
        if (rows[i].short_name) {
            shorts[ns++] = rows[i].short_name;
            if (takes_value(&rows[i]))
                shorts[ns++] = ':';
        }
    }
    longs[n] = (struct option){NULL, 0, NULL, 0};
    shorts[ns] = '\0';

    /* each row's value the first time it was given (for the message of a
     * second), and whether it was */
    const char *first_value[2 * MAX_ROWS] = {NULL};
    unsigned char seen[2 * MAX_ROWS] = {0}; /* the rows, TEXT rows among them */
    int c;
    optind = 0; /* glibc's whole reset: a parse before (score's, then run's) left no state */
    opterr = 0;
    while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        const vb_option *o = NULL;
        if (c >= 256)
            o = &rows[c - 256];
        for (size_t i = 0; !o && c != ':' && c != '?' && rows[i].kind != VB_OPTION_END; i++)
            if (rows[i].short_name == c)
                o = &rows[i];
        if (!o) {
            if (c == ':')
                return vb_usage_error(spec->name, "%s needs a value", argv[optind - 1]);
            return vb_usage_error(spec->name, "unknown option '%s'", argv[optind - 1]);
        }
        if (o->kind == VB_OPTION_HELP) {
            vb_options_help(spec, stdout);
            return VB_EXIT_OK;
        }
        size_t at = (size_t)(o - rows);
        if (at < 2 * MAX_ROWS) {
            if (seen[at] && !repeats(o))
                return given_twice(spec->name, o, first_value[at], optarg);
            seen[at] = 1;
            first_value[at] = optarg;
        }
        int rc = take(spec->name, o, optarg);
        if (rc != 0)
            return rc;
        if (o->flags & VB_OPTION_STOP) {
            int stop = optind;
            const char *early = operand_before(stop - 1, argv, shorts, longs);
            if (early)
                return vb_usage_error(spec->name, "unexpected argument '%s' before --%s (what "
                                                  "--%s reads follows it)",
                                      early, o->name, o->name);
            optind = stop;
            break;
        }
    }
    if (spec->then) {
        int rc = spec->then(spec->name, spec->then_ctx);
        if (rc != 0)
            return rc;
    }
    if (spec->operands == VB_OPERANDS_NONE && optind < argc)
        return vb_usage_error(spec->name, "unexpected argument '%s'", argv[optind]);
    *first = optind;
    return VB_OPTIONS_GO;
}

void vb_options_help(const vb_command_spec *spec, FILE *out)
{
    int column = spec->column ? spec->column : 19;
    fputs(spec->usage, out);
    fputs("Options:\n", out);
    for (const vb_option *o = spec->options; o->kind != VB_OPTION_END; o++) {
        if (o->kind == VB_OPTION_TEXT) {
            fputs(o->help, out);
            continue;
        }
        if (o->flags & VB_OPTION_HIDDEN)
            continue;
        /* "  -j, --jobs N" and its help from the column on, or two spaces
         * after a name that reaches it or stops one short (a single space
         * would read as part of the name) */
        int col = o->column ? o->column : column;
        char head[128];
        const char *arg_gap = o->arg ? " " : "", *arg = o->arg ? o->arg : "";
        int w = o->short_name
                    ? snprintf(head, sizeof head, "  -%c, --%s%s%s", o->short_name, o->name,
                               arg_gap, arg)
                    : snprintf(head, sizeof head, "  --%s%s%s", o->name, arg_gap, arg);
        fprintf(out, "%-*s", w + 2 <= col ? col : w + 2, head);
        for (const char *line = o->help; *line;) {
            size_t len = strcspn(line, "\n");
            char text[512];
            snprintf(text, sizeof text, "%.*s", (int)len, line);
            put_with(out, text, NULL, o->def);
            fputc('\n', out);
            line += len;
            if (*line == '\n' && *++line)
                fprintf(out, "%*s", col, "");
        }
    }
    fputs(spec->epilogue ? spec->epilogue : "", out);
}
