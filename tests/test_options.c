/* test_options.c — the option table and its parser (src/commands/options.h):
 * each value lands where its row says, each limit holds at its edge, bad
 * usage is exit 2, and --help is printed from the rows.  The truths are the
 * command lines written here and the layout options.h promises. */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numbers.h"
#include "options.h"
#include "unit.h"

typedef struct {
    int quiet;
    const char *out;
    double periods, factor, jitter;
    unsigned long seeds;
    vb_opt_list sets;
    int calls;
    const char *last;
    int stop;
} opts;

static int count_call(const char *cmd, const vb_option *row, const char *arg)
{
    opts *o = row->store;
    (void)cmd;
    o->calls++;
    o->last = arg;
    return 0;
}

/* a table as a command writes one; operands as asked */
static int parse(opts *o, int operands, int argc, char **argv, int *first)
{
    const vb_option rows[] = {
        VB_OPT_FLAG("quiet", &o->quiet, "print less"),
        VB_OPT_STRING("out", "DIR", &o->out, "where to write"),
        VB_OPT_DOUBLE("periods", "P", &o->periods, 1.0, 1e9, "%s must be in [1, 1e9]",
                      "periods"),
        VB_OPT_DOUBLE_ABOVE("factor", "F", &o->factor, 1.0, 1e100, "%s must be > 1", "factor"),
        VB_OPT_DOUBLE_BELOW("jitter", "J", &o->jitter, 0.0, 1.0, "%s must be in [0, 1)",
                            "jitter"),
        VB_OPT_ULONG("seeds", "N", &o->seeds, 1, 1000, "%s: give 1 to 1000", "seeds"),
        VB_OPT_LIST("set", "KEY=VALUE", &o->sets, 2, "at most 2", "a parameter"),
        {.kind = VB_OPTION_CALL, .name = "count", .short_name = 'c', .arg = "X",
         .call = count_call, .store = o, .flags = VB_OPTION_REPEATS, .help = "counted"},
        VB_OPT_CALL("once", "X", count_call, o, "counted, given once"),
        VB_OPT_STOP("stop", "WORDS...", &o->stop, "the rest is its own"),
        VB_OPT_HELP,
        VB_OPT_END,
    };
    vb_command_spec spec = {.name = "test", .options = rows, .operands = operands};
    return vb_options_parse(&spec, argc, argv, first);
}

static char *argv_of_line[32]; /* the words of parse_line's last line */

static int parse_line(opts *o, int operands, const char *line, int *first)
{
    static char buf[1024];
    char **argv = argv_of_line;
    int argc = 0;
    snprintf(buf, sizeof buf, "test %s", line);
    for (char *tok = strtok(buf, " "); tok && argc < 31; tok = strtok(NULL, " "))
        argv[argc++] = tok;
    argv[argc] = NULL;
    memset(o, 0, sizeof *o);
    return parse(o, operands, argc, argv, first);
}

static void test_options_values_land_in_their_rows(void)
{
    opts o;
    int first = -1;
    int rc = parse_line(&o, VB_OPERANDS_ANY,
                        "a.case --quiet --out=dir --periods 1e3 --seeds 7 --set k=1 b.case "
                        "--set m=2 -c x --count y --fac 2.5",
                        &first);
    CHECK(rc == VB_OPTIONS_GO, "a good line goes on (got %d)", rc);
    CHECK(o.quiet == 1, "--quiet set its flag");
    CHECK(o.out && !strcmp(o.out, "dir"), "--out=dir stored dir");
    CHECK(o.periods == 1e3, "--periods 1e3 stored 1000 (got %g)", o.periods);
    CHECK(o.factor == 2.5, "--fac, a prefix of --factor, stored 2.5 (got %g)", o.factor);
    CHECK(o.seeds == 7, "--seeds 7 stored 7 (got %lu)", o.seeds);
    CHECK(o.sets.n == 2 && !strcmp(o.sets.v[0], "k=1") && !strcmp(o.sets.v[1], "m=2"),
          "--set twice kept both, in order");
    CHECK(o.calls == 2 && o.last && !strcmp(o.last, "y"), "-c and --count: one row, called twice");
    /* getopt moves the operands behind the options: of the 19 words (the
     * command and 18), the two operands last */
    CHECK(first == 19 - 2, "the operands start at argv[%d] (got %d)", 19 - 2, first);
}

static void test_options_limits_hold_at_their_edges(void)
{
    static const struct {
        const char *line;
        int rc;
    } cases[] = {
        {"--periods 1", VB_OPTIONS_GO},    {"--periods 1e9", VB_OPTIONS_GO},
        {"--periods 0.999", VB_EXIT_USAGE}, {"--periods 1.000001e9", VB_EXIT_USAGE},
        {"--periods nan", VB_EXIT_USAGE},  {"--periods x", VB_EXIT_USAGE},
        {"--factor 1", VB_EXIT_USAGE},     {"--factor 1.0000001", VB_OPTIONS_GO},
        {"--jitter 0", VB_OPTIONS_GO},     {"--jitter 1", VB_EXIT_USAGE},
        {"--jitter 0.999", VB_OPTIONS_GO}, {"--jitter -0.001", VB_EXIT_USAGE},
        {"--seeds 1000", VB_OPTIONS_GO},   {"--seeds 1001", VB_EXIT_USAGE},
        {"--seeds 0", VB_EXIT_USAGE},      {"--seeds -1", VB_EXIT_USAGE},
        {"--seeds 2.5", VB_EXIT_USAGE},    {"--set a=1 --set b=2", VB_OPTIONS_GO},
        {"--set a=1 --set b=2 --set c=3", VB_EXIT_USAGE},
        {"--nope", VB_EXIT_USAGE},         {"--out", VB_EXIT_USAGE},
        {"--quiet=1", VB_EXIT_USAGE},      {"-x", VB_EXIT_USAGE},
        /* numbers.h's one reader: no hexadecimal, a whole number's digits alone */
        {"--periods 0x10", VB_EXIT_USAGE}, {"--periods 1e1", VB_OPTIONS_GO},
        {"--seeds 0x10", VB_EXIT_USAGE},   {"--seeds +7", VB_EXIT_USAGE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        opts o;
        int first;
        int rc = parse_line(&o, VB_OPERANDS_ANY, cases[i].line, &first);
        CHECK(rc == cases[i].rc, "'%s': got %d, want %d", cases[i].line, rc, cases[i].rc);
    }
    opts o;
    int first;
    /* a blank before or after a value (a shell's quotes keep it) */
    static const char *const blank[][2] = {{"--seeds", " 7"}, {"--seeds", "7 "},
                                           {"--periods", " 2"}, {"--periods", "2 "}};
    for (size_t i = 0; i < sizeof blank / sizeof blank[0]; i++) {
        char *argv[] = {"test", (char *)blank[i][0], (char *)blank[i][1], NULL};
        memset(&o, 0, sizeof o);
        int rc = parse(&o, VB_OPERANDS_ANY, 3, argv, &first);
        CHECK(rc == VB_EXIT_USAGE, "%s '%s': refused (got %d)", blank[i][0], blank[i][1], rc);
    }
    CHECK(parse_line(&o, VB_OPERANDS_NONE, "--quiet stray", &first) == VB_EXIT_USAGE,
          "an operand where none is taken is bad usage");
    CHECK(parse_line(&o, VB_OPERANDS_NONE, "--quiet -- --out", &first) == VB_EXIT_USAGE,
          "after --, '--out' is an operand");
}

/* An option of one value given twice is refused, whatever its kind and
 * however it is spelt (the last one silently winning was the bug:
 * sim --model spring --model orbit ran the orbit); a list, a row that
 * says it repeats, and a flag may be given again. */
static void test_options_one_value_given_twice_is_refused(void)
{
    static const char *const twice[] = {
        "--out a --out b",        "--out=a --out=a",    "--periods 2 --periods 3",
        "--periods 2 --per 2",    "--seeds 1 --seeds 1", "--jitter 0.5 --jitter 0.25",
        "--once x --once y",      "--fac 2 --factor 3",
    };
    for (size_t i = 0; i < sizeof twice / sizeof twice[0]; i++) {
        opts o;
        int first;
        int rc = parse_line(&o, VB_OPERANDS_ANY, twice[i], &first);
        CHECK(rc == VB_EXIT_USAGE, "'%s': given twice, refused (got %d)", twice[i], rc);
        CHECK(o.calls <= 1, "'%s': the second value was never taken (%d calls)", twice[i],
              o.calls);
    }
    static const char *const again[] = {"--set a=1 --set b=2", "-c x --count y -c z",
                                        "--quiet --quiet", "--once x --set a=1 --quiet"};
    for (size_t i = 0; i < sizeof again / sizeof again[0]; i++) {
        opts o;
        int first;
        int rc = parse_line(&o, VB_OPERANDS_ANY, again[i], &first);
        CHECK(rc == VB_OPTIONS_GO, "'%s': a list, a repeating row or a flag (got %d)", again[i],
              rc);
    }
    /* each parse starts with no option seen */
    opts o;
    int first;
    CHECK(parse_line(&o, VB_OPERANDS_ANY, "--out a", &first) == VB_OPTIONS_GO &&
              parse_line(&o, VB_OPERANDS_ANY, "--out b", &first) == VB_OPTIONS_GO,
          "two parses of one --out each");
}

/* A VB_OPTION_STOP row (draw --chart KIND TABLE OUT): the options end at
 * it, every word after it is an operand in the order given, even one that
 * starts with '-' or names an option, and a word before it that is no
 * option's nor a value is bad usage (it would be no one's). */
static void test_options_stop_row_leaves_the_rest_as_operands(void)
{
    opts o;
    int first = -1;
    int rc = parse_line(&o, VB_OPERANDS_ANY, "--quiet --out dir --stop a -b --out x --help",
                        &first);
    CHECK(rc == VB_OPTIONS_GO, "options, then --stop and its words: goes on (got %d)", rc);
    CHECK(o.stop == 1 && o.quiet == 1, "--stop and --quiet set their flags");
    CHECK(o.out && !strcmp(o.out, "dir"), "--out before --stop kept its value dir (got %s)",
          o.out ? o.out : "(none)");
    /* the words: test --quiet --out dir --stop, then the 5 operands */
    static const char *const after[] = {"a", "-b", "--out", "x", "--help"};
    CHECK(first == 5, "the operands start at argv[5], after --stop (got %d)", first);
    for (int i = 0; first == 5 && i < 5; i++)
        CHECK(!strcmp(argv_of_line[5 + i], after[i]), "operand %d is '%s' (got '%s')", i,
              after[i], argv_of_line[5 + i]);

    rc = parse_line(&o, VB_OPERANDS_ANY, "-c v --stop", &first);
    CHECK(rc == VB_OPTIONS_GO && first == 4 && o.calls == 1 && o.stop == 1,
          "-c v --stop: its value is no operand, and none follows (got %d, first %d)", rc, first);
    rc = parse_line(&o, VB_OPERANDS_ANY, "--sto a", &first);
    CHECK(rc == VB_OPTIONS_GO && o.stop == 1 && first == 2,
          "--sto, a prefix, stops as --stop does (got %d, first %d)", rc, first);

    /* an operand before the stop, wherever it stands among the options */
    static const char *const early[] = {"x --stop a", "--quiet x --stop a",
                                        "--out dir x -c v --stop", "x y --quiet --stop"};
    for (size_t i = 0; i < sizeof early / sizeof early[0]; i++) {
        rc = parse_line(&o, VB_OPERANDS_ANY, early[i], &first);
        CHECK(rc == VB_EXIT_USAGE, "'%s': an operand before --stop is bad usage (got %d)",
              early[i], rc);
    }
    /* after "--", --stop is itself an operand and stops nothing */
    rc = parse_line(&o, VB_OPERANDS_ANY, "--quiet -- --stop a", &first);
    CHECK(rc == VB_OPTIONS_GO && o.stop == 0 && first == 3 &&
              !strcmp(argv_of_line[first], "--stop"),
          "after --, '--stop' is an operand (got %d, stop %d)", rc, o.stop);
    /* a parse after a stopped one starts clean (the parser resets getopt) */
    rc = parse_line(&o, VB_OPERANDS_ANY, "--periods 2 b.case", &first);
    CHECK(rc == VB_OPTIONS_GO && o.periods == 2.0 && o.stop == 0 && first == 3,
          "the next parse reads its own line whole (got %d, first %d)", rc, first);
}

/* --help: the rows' help from the column on, a name that reaches it (or
 * stops one short of it: "--chart KIND OUT" is 18 wide, column 19) two
 * spaces after, a '\n' a line at the column, %g the row's default */
static void test_options_help_is_printed_from_the_rows(void)
{
    double x = 0.0;
    int flag = 0;
    const vb_option rows[] = {
        VB_OPT_DOUBLE("rtol", "R", &x, 0.0, DBL_MAX, "", "first line\nsecond (default %g)"),
        {.kind = VB_OPTION_FLAG, .name = "jobs", .short_name = 'j', .arg = NULL, .store = &flag,
         .help = "short and long"},
        VB_OPT_STRING("a-name-wider-than-it", "VALUE", NULL, "after two spaces"),
        VB_OPT_STOP("chart", "KIND OUT", &flag, "its words after it"),
        {.kind = VB_OPTION_FLAG, .name = "hidden", .store = &flag, .flags = VB_OPTION_HIDDEN},
        VB_OPT_TEXT("  as it is\n"),
        VB_OPT_HELP,
        VB_OPT_END,
    };
    vb_option with_def[sizeof rows / sizeof rows[0]];
    memcpy(with_def, rows, sizeof rows);
    with_def[0].def = 0.001;
    vb_command_spec spec = {.name = "t", .options = with_def, .usage = "Usage: t\n\n",
                            .epilogue = "\nend\n"};
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(f != NULL, "open_memstream");
    if (!f)
        return;
    vb_options_help(&spec, f);
    fclose(f);
    const char *want = "Usage: t\n\n"
                       "Options:\n"
                       "  --rtol R         first line\n"
                       "                   second (default 0.001)\n"
                       "  -j, --jobs       short and long\n"
                       "  --a-name-wider-than-it VALUE  after two spaces\n"
                       "  --chart KIND OUT  its words after it\n"
                       "  as it is\n"
                       "  --help           this text\n"
                       "\nend\n";
    CHECK(!strcmp(text, want), "the help as laid out:\n%s\nwant:\n%s", text, want);
    free(text);
}


/* The one number reader every option, environment variable and case-file
 * value goes through (numbers.h): a decimal and nothing else.  The truths
 * are the texts' values written here (1e5 is 100000, .5 is a half); what
 * must be refused is strtod's other forms, which it would read: blanks
 * before a number (strtod skips them), hexadecimal (0x10 is 16 to strtod),
 * inf, infinity, nan and nan(...); and a value that overflows. */
static void test_numbers_one_reader(void)
{
    static const struct {
        const char *text;
        double want;
    } good[] = {
        {"1", 1.0},      {"-0.5", -0.5},  {"+2", 2.0},        {".5", 0.5},
        {"5.", 5.0},     {"1e5", 1e5},    {"2.5E-3", 2.5e-3}, {"1e+2", 100.0},
        {"-0", -0.0},    {"1e-320", 1e-320}, /* a subnormal is a number */
        {"0.05000001", 0.05000001},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        double x = NAN;
        int rc = vb_parse_double(good[i].text, &x);
        CHECK(rc == 0 && x == good[i].want, "'%s' reads as %.17g (got rc %d, %.17g)",
              good[i].text, good[i].want, rc, x);
    }
    static const char *const bad[] = {
        " 1",   "1 ",    "\t1",   "1\n",  "",     " ",     "0x10", "0X10", "-0x1p3", "0x1p-2",
        "inf",  "-inf",  "infinity", "nan", "nan(1)", "1e999", "-1e999", "1e",  "e5",   ".",
        "1.2.3", "1,5",  "--1",   "+-1",   "1e5x",  "1 e5",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        double x = 7.0;
        CHECK(vb_parse_double(bad[i], &x) == -1 && x == 7.0, "'%s' is refused, nothing stored",
              bad[i]);
    }
    CHECK(!strcmp(vb_number_refusal(" 1"), "has a blank before or after it") &&
              !strcmp(vb_number_refusal("1 "), "has a blank before or after it") &&
              !strcmp(vb_number_refusal("0x10"), "is hexadecimal: write a decimal") &&
              !strcmp(vb_number_refusal("-0X1p3"), "is hexadecimal: write a decimal") &&
              !strcmp(vb_number_refusal("nan"), "is not a finite number"),
          "each refusal says why");

    /* whole numbers: digits alone, up to the largest asked for */
    unsigned long long w = 9;
    CHECK(vb_parse_whole("4294967295", 4294967295ULL, &w) == 0 && w == 4294967295ULL,
          "the largest allowed is read (got %llu)", w);
    CHECK(vb_parse_whole("007", 10, &w) == 0 && w == 7, "leading zeros are digits (got %llu)", w);
    CHECK(vb_parse_whole("18446744073709551615", ~0ULL, &w) == 0 && w == ~0ULL,
          "2^64 - 1 with no wrap");
    static const char *const bad_whole[] = {" 1", "1 ", "+1", "-1", "0x10", "1e3", "1.0", "",
                                            "4294967296", "18446744073709551616"};
    for (size_t i = 0; i < sizeof bad_whole / sizeof bad_whole[0]; i++) {
        w = 9;
        CHECK(vb_parse_whole(bad_whole[i], 4294967295ULL, &w) == -1 && w == 9,
              "'%s' is not a whole number up to 2^32 - 1", bad_whole[i]);
    }
    CHECK(vb_parse_whole("18446744073709551616", ~0ULL, &w) == -1, "2^64 does not wrap to 0");
    CHECK(vb_parse_whole("5", 4, &w) == -1, "5 is over a largest of 4");
    CHECK(vb_parse_whole("0", 0, &w) == 0 && w == 0, "0 up to 0");
}

void suite_options(void)
{
    RUN(test_numbers_one_reader);
    RUN(test_options_values_land_in_their_rows);
    RUN(test_options_limits_hold_at_their_edges);
    RUN(test_options_one_value_given_twice_is_refused);
    RUN(test_options_stop_row_leaves_the_rest_as_operands);
    RUN(test_options_help_is_printed_from_the_rows);
}
