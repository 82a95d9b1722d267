/* main.c — verletbench: how accurate is a time integrator, measured. */
#include <gsl/gsl_errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "engine.h"
#include "outfile.h"
#include "verletbench.h" /* VB_ABI_VERSION */

/* SIGINT, SIGTERM, SIGHUP: remove the temporaries of files being written,
 * leave every finished file as it was, exit 128 + signal.  Only
 * async-signal-safe calls here. */
static void on_signal(int sig)
{
    static const char msg[] = "verletbench: interrupted; no output file was changed\n";
    vb_outfile_abort_all_signal_safe();
    vb_engine_kill_all_signal_safe(); /* engines run in process groups of their own */
    ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)w;
    _exit(128 + sig);
}

static void install_signal_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigfillset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    /* a file-size limit (ulimit -f) then fails the write with EFBIG, which
     * is reported and cleaned up, instead of killing the process halfway */
    signal(SIGXFSZ, SIG_IGN);
}

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"list", vb_cmd_list, "the integrators and models, with their orders and parameters"},
    {"sim", vb_cmd_sim, "one run: its errors against the exact (or a reference) solution, as CSV"},
    {"run", vb_cmd_run, "the whole plan of case files: sweeps, fitted orders, summary"},
    {"merge", vb_cmd_merge, "the shards of run --shard K/N into the files of one whole run"},
    {"check", vb_cmd_check, "rerun the cases and compare with a baseline: exit 1 if worse"},
    {"compare", vb_cmd_compare, "two results directories by check's rules, nothing rerun"},
    {"problem", vb_cmd_problem, "what an external engine needs to run cases itself (JSON Lines)"},
    {"score", vb_cmd_score, "measure trajectories another program wrote, as sim or run would"},
    {"bench", vb_cmd_bench, "what a step costs, against a fused hand-written loop"},
    {"draw", vb_cmd_draw, "every chart of a results directory (gnuplot) and its REPORT.md"},
};

static void usage(FILE *out)
{
    fprintf(out,
            "verletbench %s: how accurate is a time integrator, measured against exact "
            "solutions.\n\n"
            "Usage: verletbench COMMAND [OPTIONS]\n\nCommands:\n",
            vb_version());
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nRun 'verletbench COMMAND --help' for the options of a command.\n"
                 "Exit status: 0 success, 1 a failed check or run, 2 bad usage or input.\n");
}

int main(int argc, char **argv)
{
    /* GSL's default handler aborts; every GSL call here checks its status */
    gsl_set_error_handler_off();
    install_signal_handlers();
    if (argc < 2) {
        usage(stderr);
        return VB_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return VB_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("verletbench %s\nplugin ABI version %d (the oldest it loads: %d)\n",
               vb_version_text(), VB_ABI_VERSION, VB_ABI_VERSION_OLDEST);
        return VB_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "verletbench: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return VB_EXIT_USAGE;
}
