/* children.c — child processes in process groups of their own, tracked so
 * that a signal handler can kill them all. */
#include "children.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t live_pid[VB_MAX_CHILDREN];
/* the handler's "stop" and the forks under way: a thread that forks while
 * the handler kills would otherwise leave its child behind (Dekker: each
 * side writes its own flag, then reads the other's) */
static volatile int stopping, spawning;

static int track_pid(pid_t pid)
{
    for (int i = 0; i < VB_MAX_CHILDREN; i++)
        if (__sync_bool_compare_and_swap(&live_pid[i], 0, (sig_atomic_t)pid))
            return 0;
    return -1;
}

void vb_child_untrack(pid_t pid)
{
    for (int i = 0; i < VB_MAX_CHILDREN; i++)
        if (__sync_bool_compare_and_swap(&live_pid[i], (sig_atomic_t)pid, 0))
            return;
}

void vb_children_kill_all_signal_safe(void)
{
    __atomic_store_n(&stopping, 1, __ATOMIC_SEQ_CST);
    /* let forks under way be tracked (new ones see stopping and do not
     * start); bounded, a fork takes well under a millisecond */
    for (int k = 0; k < 1000 && __atomic_load_n(&spawning, __ATOMIC_SEQ_CST) > 0; k++) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    for (int i = 0; i < VB_MAX_CHILDREN; i++)
        if (live_pid[i] > 0)
            kill(-(pid_t)live_pid[i], SIGKILL);
}

pid_t vb_child_fork(char *why, size_t whylen)
{
    /* no SIGINT between the fork and track_pid: the handler must know of
     * every child to kill it */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    __atomic_add_fetch(&spawning, 1, __ATOMIC_SEQ_CST);
    pid_t pid = __atomic_load_n(&stopping, __ATOMIC_SEQ_CST) ? -2 : fork();
    if (pid < 0) {
        int saved = errno;
        __atomic_sub_fetch(&spawning, 1, __ATOMIC_SEQ_CST);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        if (pid == -2)
            snprintf(why, whylen, "not started: verletbench is stopping");
        else
            snprintf(why, whylen, "fork: %s", strerror(saved));
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        sigprocmask(SIG_SETMASK, &old, NULL);
        return 0;
    }
    setpgid(pid, pid); /* also here: no race with a kill before the child ran */
    int tracked = track_pid(pid);
    __atomic_sub_fetch(&spawning, 1, __ATOMIC_SEQ_CST);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (tracked != 0) {
        /* untracked, an interrupt could not kill it: not run at all */
        kill(-pid, SIGKILL);
        waitpid(pid, NULL, 0);
        snprintf(why, whylen, "not started: %d child processes are running at once, the most "
                              "verletbench can stop on an interrupt",
                 VB_MAX_CHILDREN);
        return -1;
    }
    return pid;
}

void vb_child_describe_status(int status, char *what, size_t len)
{
    if (WIFEXITED(status)) {
        int code = WEXITSTATUS(status);
        if (code > 128 && code < 128 + 65 && strsignal(code - 128))
            snprintf(what, len, "exit status %d, the shell's report of signal %d (%s)", code,
                     code - 128, strsignal(code - 128));
        else
            snprintf(what, len, "exit status %d", code);
    } else if (WIFSIGNALED(status)) {
        snprintf(what, len, "killed by signal %d (%s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    } else {
        snprintf(what, len, "ended with status %d", status);
    }
}
