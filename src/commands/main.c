/* main.c — verletbench: how accurate is a time integrator, measured. */
#include <errno.h>
#include <fcntl.h>
#include <gsl/gsl_errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "children.h"
#include "libraries.h"
#include "outdir.h"
#include "outfile.h"
#include "provenance.h"
#include "verletbench.h" /* VB_ABI_VERSION */

/* With --plugin the command runs in a child of this process, which says
 * how it ended through this pipe ("done STATUS"); see supervise(). */
static int report_fd = -1;

/* "done STATUS\n" to the supervisor; async-signal-safe (for the handler) */
static void report(int status)
{
    if (report_fd < 0)
        return;
    char buf[16] = "done ";
    size_t n = 5;
    if (status >= 100)
        buf[n++] = (char)('0' + status / 100 % 10);
    if (status >= 10)
        buf[n++] = (char)('0' + status / 10 % 10);
    buf[n++] = (char)('0' + status % 10);
    buf[n++] = '\n';
    ssize_t w = write(report_fd, buf, n);
    (void)w;
}

/* SIGINT, SIGTERM, SIGHUP: remove the temporaries of files being written,
 * leave every finished file as it was, exit 128 + signal.  After a case
 * directory was swapped in (outdir.h), that is not what happened: the
 * message says which directory changed, and the exit status is 1, the
 * results written but the command not finished.  Only async-signal-safe
 * calls here. */
static void on_signal(int sig)
{
    static const char msg[] = "verletbench: interrupted; no output file was changed\n";
    vb_outfile_abort_all_signal_safe();
    vb_children_kill_all_signal_safe(); /* engines, plugin workers: process groups of their own */
    size_t len;
    const char *replaced = vb_outdir_replaced_signal_safe(&len);
    ssize_t w = replaced ? write(STDERR_FILENO, replaced, len)
                         : write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)w;
    report(replaced ? VB_EXIT_FAIL : 128 + sig);
    _exit(replaced ? VB_EXIT_FAIL : 128 + sig);
}

/* The supervisor's: pass a stop signal on to the command's process, which
 * cleans up and says how it ended. */
static volatile sig_atomic_t worker_pid;
static void forward_signal(int sig)
{
    if (worker_pid > 0)
        kill((pid_t)worker_pid, sig);
}

/* A plugin is code verletbench does not control, loaded into the process
 * that runs the command: it may end that process however it likes (an
 * exit(0) in a library's error path, _exit, a crash) before the command
 * is done, and then "a check that compared nothing never passes" would
 * rest on the plugin's good manners.  So with --plugin the command runs in
 * a child, which reports its exit status when it returns from the command
 * (or its interrupt handler ends it); this process loads nothing, waits,
 * passes stop signals on, and exits with the reported status.  A child
 * that ended without reporting was ended by foreign code: said, and exit
 * 1, never 0.  (The plugin's runs are isolated further, a worker process
 * each: isolate.h.) */
static int supervise(const char *cmd)
{
    int p[2];
    if (pipe(p) != 0) {
        fprintf(stderr, "verletbench %s: pipe: %s\n", cmd, strerror(errno));
        return VB_EXIT_FAIL;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "verletbench %s: fork: %s\n", cmd, strerror(errno));
        return VB_EXIT_FAIL;
    }
    if (pid == 0) {
        close(p[0]);
        fcntl(p[1], F_SETFD, FD_CLOEXEC); /* no program it starts holds it */
        report_fd = p[1];
        return -1; /* the command, here */
    }
    close(p[1]);
    worker_pid = pid;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = forward_signal;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    /* what it said, read after it ended: a process it left (a worker, a
     * chart's gnuplot) may hold the pipe open still */
    fcntl(p[0], F_SETFL, O_NONBLOCK);
    char buf[64] = "";
    ssize_t n = read(p[0], buf, sizeof buf - 1);
    close(p[0]);
    int said = -1;
    if (n > 5 && !strncmp(buf, "done ", 5))
        said = atoi(buf + 5);
    if (said >= 0)
        return said;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE) {
        /* the reader of its output went away (`| head -1`): no plugin's
         * doing; end as the command would have without --plugin, quietly
         * by the same signal */
        signal(SIGPIPE, SIG_DFL);
        raise(SIGPIPE);
    }
    char how[160];
    vb_child_describe_status(status, how, sizeof how);
    fprintf(stderr, "verletbench %s: the process that ran the command ended before it was done "
                    "(%s), ended by a plugin's code (an exit() or a crash in a --plugin "
                    "library); what it did not finish is no result\n",
            cmd, how);
    return VB_EXIT_FAIL;
}

/* a --plugin (or --plugin-timeout) among the options, in any spelling
 * getopt_long takes: "--plugin=F", or a prefix of it ("--plu F") */
static int loads_plugins(int argc, char **argv)
{
    for (int i = 2; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (!strncmp(argv[i], "--pl", 4))
            return 1;
    return 0;
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
    {"stability", vb_cmd_stability, "the largest stable step of each integrator, by bisection"},
    {"longrun", vb_cmd_longrun, "up to 1e9 periods: energy and phase growth exponents, drift"},
    {"draw", vb_cmd_draw, "every chart of a results directory (gnuplot) and its REPORT.md"},
};

static void usage(FILE *out)
{
    fprintf(out,
            "verletbench %s: how accurate is a time integrator, measured against exact "
            "solutions.\n\n"
            "Usage: verletbench COMMAND [OPTIONS]\n\nCommands:\n",
            vb_version());
    /* the names' column as wide as the longest ("stability") and a space */
    int width = 0;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if ((int)strlen(commands[i].name) > width)
            width = (int)strlen(commands[i].name);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-*s %s\n", width, commands[i].name, commands[i].summary);
    fprintf(out, "\nRun 'verletbench COMMAND --help' for the options of a command.\n"
                 "Exit status: 0 success, 1 a failed check or run, 2 bad usage or input.\n");
}

/* the command's status, or 1 where what it printed never reached its
 * reader (`> /dev/full`, a full disk): stdio keeps that in the stream's
 * error flag until the last flush, and a result the user never got is
 * no success */
static int flushed(const char *cmd, int status)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return status;
    fprintf(stderr, "verletbench %s: cannot write the standard output: %s\n", cmd,
            errno ? strerror(errno) : "a write failed");
    return status == VB_EXIT_OK ? VB_EXIT_FAIL : status;
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
        return flushed("--help", VB_EXIT_OK);
    }
    if (strcmp(argv[1], "--version") == 0) {
        /* the build: what a shard records, so merge can tell two builds of
         * one version apart; the plugin ABI this binary loads; and the GSL
         * and FFTW it runs against, which its numbers depend on */
        char libs[256];
        vb_library_versions(libs, sizeof libs);
        printf("verletbench %s\nbuild %s\nplugin ABI version %d (the oldest it loads: %d)\n"
               "libraries: %s\n",
               vb_version_text(), vb_build_id(), VB_ABI_VERSION, VB_ABI_VERSION_OLDEST, libs);
        return flushed("--version", VB_EXIT_OK);
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) {
            if (loads_plugins(argc, argv)) {
                int status = supervise(argv[1]);
                if (status >= 0)
                    return status;
            }
            int status = flushed(argv[1], commands[i].run(argc - 1, argv + 1));
            report(status);
            return status;
        }
    fprintf(stderr, "verletbench: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return VB_EXIT_USAGE;
}
