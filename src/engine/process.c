/* process.c — an engine's run as a process: started by /bin/sh with the
 * request on its standard input, its output read a line at a time under
 * the run's time limit, the tail of its standard error kept for the
 * message, and its exit awaited and said.  A run read from a file goes
 * through the same reading of lines. */
#define _GNU_SOURCE /* pipe2 */
#include "process.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "children.h"

extern char **environ;

double vb_engine_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

const char *vb_engine_why(const vb_engine_run *r) { return r->why; }

int vb_engine_row0_near(double a, double b, double size)
{
    /* row 0 is the initial state the request gave: to the digits it was
     * given with (17), an engine that prints fewer reads back otherwise */
    return fabs(a - b) <= 1e-14 * size;
}

const char *vb_engine_source(const vb_engine_run *r)
{
    return r->path[0] ? r->path : "its output";
}

void vb_engine_set_why(vb_engine_run *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why, sizeof r->why, fmt, ap);
    va_end(ap);
}

/* what the engine said on stderr, its last line or two */
void vb_engine_add_err_tail(vb_engine_run *r)
{
    if (!r->err_len)
        return;
    char tail[ERR_TAIL + 1];
    size_t n = 0;
    for (size_t i = 0; i < r->err_len && n < ERR_TAIL; i++) {
        char c = r->err_tail[i];
        tail[n++] =
            (c == '\n' || c == '\r' || c == '\t') ? ' ' : ((unsigned char)c < 0x20 ? '?' : c);
    }
    while (n && tail[n - 1] == ' ')
        n--;
    tail[n] = '\0';
    /* the message ends up in a run's failure text: keep the end of what
     * the engine said (a traceback's last line), cut at the front */
    size_t used = strlen(r->why);
    size_t room = VB_ENGINE_FAILURE_MAX - 1;
    size_t fit = room > used + 14 ? room - used - 14 : 0;
    const char *said = tail, *cut = "";
    if (n > fit) {
        said = tail + (n - fit);
        cut = "...";
    }
    snprintf(r->why + used, sizeof r->why - used, "; it said: %s%s", cut,
             tail[0] ? said : "(nothing)");
}

/* keep the last ERR_TAIL bytes of its standard error */
void vb_engine_drain_stderr(vb_engine_run *r)
{
    char chunk[4096];
    ssize_t got = -1; /* stays -1 where the pipe was closed before */
    while (r->err_fd >= 0 && (got = read(r->err_fd, chunk, sizeof chunk)) != 0) {
        if (got < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN)
                r->err_fd = (close(r->err_fd), -1);
            return;
        }
        size_t g = (size_t)got;
        if (g >= ERR_TAIL) {
            memcpy(r->err_tail, chunk + g - ERR_TAIL, ERR_TAIL);
            r->err_len = ERR_TAIL;
        } else {
            size_t keep = r->err_len + g > ERR_TAIL ? ERR_TAIL - g : r->err_len;
            memmove(r->err_tail, r->err_tail + r->err_len - keep, keep);
            memcpy(r->err_tail + keep, chunk, g);
            r->err_len = keep + g;
        }
    }
    if (r->err_fd >= 0 && got == 0) {
        close(r->err_fd);
        r->err_fd = -1;
    }
}

/* Has the engine's process ended?  Then it is reaped (its status kept) and
 * whatever it left in its process group is killed: a child it started in
 * the background that still holds the output pipe would otherwise keep the
 * end of the output from ever coming. */
int vb_engine_leader_exited(vb_engine_run *r)
{
    if (r->exited)
        return 1;
    if (r->pid <= 0 || waitpid(r->pid, &r->status, WNOHANG) != r->pid)
        return 0;
    r->exited = 1;
    kill(-r->pid, SIGKILL);
    return 1;
}

/* The next line, NUL-terminated without its line end (CRLF too): 1, or 0
 * at the end of the output, or -1 (why set: a timeout, a line too long, a
 * read error). */
int vb_engine_read_line(vb_engine_run *r, char **line)
{
    for (;;) {
        char *nl = r->pos < r->len ? memchr(r->buf + r->pos, '\n', r->len - r->pos) : NULL;
        if (nl || (r->eof && r->pos < r->len)) {
            char *start = r->buf + r->pos;
            char *end = nl ? nl : r->buf + r->len;
            r->pos = nl ? (size_t)(nl - r->buf) + 1 : r->len;
            if (end > start && end[-1] == '\r')
                end--;
            *end = '\0';
            r->line++;
            *line = start;
            return 1;
        }
        if (r->eof)
            return 0;
        /* room: drop what was read, grow if a line fills the buffer */
        if (r->pos > 0) {
            memmove(r->buf, r->buf + r->pos, r->len - r->pos);
            r->len -= r->pos;
            r->pos = 0;
        }
        if (r->len + 1 >= r->cap) {
            if (r->cap >= MAX_LINE) {
                vb_engine_set_why(r, "line %lu of its output is longer than %u bytes", r->line + 1,
                                  MAX_LINE);
                return -1;
            }
            size_t cap = r->cap * 2;
            char *b = realloc(r->buf, cap + 1);
            if (!b) {
                vb_engine_set_why(r, "out of memory reading its output");
                return -1;
            }
            r->buf = b;
            r->cap = cap;
        }
        if (r->pid > 0 || r->poll_file) {
            double left = r->deadline - vb_engine_now();
            if (left <= 0) {
                if (r->pid > 0)
                    vb_engine_set_why(r,
                                      "timed out: no answer within %g s, the time limit of a run; "
                                      "killed (raise it with --engine-timeout, or timeout = in "
                                      "[engines])",
                                      r->e->timeout);
                else
                    vb_engine_set_why(
                        r,
                        "%s: timed out: no more of it within %g s, the time limit of a "
                        "run (raise it with --engine-timeout)",
                        r->path, r->e->timeout);
                return -1;
            }
            struct pollfd pf[2] = {{r->fd, POLLIN, 0}, {r->err_fd, POLLIN, 0}};
            /* an engine is looked at every 0.2 s: has it ended? */
            double wait = r->pid > 0 ? fmin(left, 0.2) : left;
            int ms = wait > 1e6 ? 1000000000 : (int)(wait * 1000.0) + 1;
            int got = poll(pf, r->err_fd >= 0 ? 2 : 1, ms);
            if (got < 0 && errno != EINTR) {
                vb_engine_set_why(r, "poll: %s", strerror(errno));
                return -1;
            }
            if (r->err_fd >= 0 && (pf[1].revents & (POLLIN | POLLHUP | POLLERR)))
                vb_engine_drain_stderr(r);
            if (got == 0 && r->pid > 0)
                vb_engine_leader_exited(r);
            if (got <= 0 || !(pf[0].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
        }
        ssize_t got = read(r->fd, r->buf + r->len, r->cap - r->len);
        if (got < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            vb_engine_set_why(r, "reading its output: %s", strerror(errno));
            return -1;
        }
        if (got == 0)
            r->eof = 1;
        r->len += (size_t)got;
    }
}

void vb_engine_close_fds(vb_engine_run *r)
{
    if (r->fd >= 0)
        close(r->fd);
    if (r->err_fd >= 0)
        close(r->err_fd);
    if (r->in_fd >= 0)
        close(r->in_fd);
    r->fd = r->err_fd = r->in_fd = -1;
}

/* the engine's exit, once its output has ended: 0, or -1 with why set
 * (appended to what was already wrong, if anything) */
int vb_engine_reap(vb_engine_run *r, int kill_it)
{
    if (r->pid <= 0)
        return 0;
    if (kill_it)
        kill(-r->pid, SIGKILL);
    int status = r->status;
    pid_t got = r->pid;
    if (!r->exited) {
        /* it closed its output; give it the rest of its time to exit */
        while ((got = waitpid(r->pid, &status, WNOHANG)) == 0) {
            if (vb_engine_now() > r->deadline) {
                kill(-r->pid, SIGKILL);
                got = waitpid(r->pid, &status, 0);
                r->outlived = 1;
                break;
            }
            vb_engine_drain_stderr(r);
            struct timespec ts = {0, 2000000};
            nanosleep(&ts, NULL);
        }
        if (got < 0 && errno == EINTR)
            got = waitpid(r->pid, &status, 0);
    }
    /* whatever the engine left running in its process group (a child it
     * started in the background) ends with it: no orphans */
    kill(-r->pid, SIGKILL);
    vb_child_untrack(r->pid);
    r->pid = -1;
    vb_engine_drain_stderr(r);
    if (kill_it)
        return 0;
    if (got < 0)
        return 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    char what[160];
    vb_child_describe_status(status, what, sizeof what);
    if (r->why[0]) {
        size_t used = strlen(r->why);
        snprintf(r->why + used, sizeof r->why - used, " (the engine: %s)", what);
    } else {
        vb_engine_set_why(r, "the engine ended with %s", what);
    }
    return -1;
}

/* spawn /bin/sh -c COMMAND in cwd, in its stdin */
static int spawn_with_input(vb_engine_run *r, int in)
{
    int out[2], err[2];
    if (pipe2(out, O_CLOEXEC) != 0) {
        vb_engine_set_why(r, "pipe: %s", strerror(errno));
        return -1;
    }
    if (pipe2(err, O_CLOEXEC) != 0) {
        vb_engine_set_why(r, "pipe: %s", strerror(errno));
        close(out[0]), close(out[1]);
        return -1;
    }
    const char *cwd = r->e->cwd;
    char *argv[] = {"sh", "-c", r->e->command, NULL};
    char why[200];
    pid_t pid = vb_child_fork(why, sizeof why);
    if (pid < 0) {
        vb_engine_set_why(r, "%s", why);
        close(out[0]), close(out[1]), close(err[0]), close(err[1]);
        return -1;
    }
    if (pid == 0) {
        /* only async-signal-safe calls from here to exec */
        signal(SIGPIPE, SIG_DFL);
        signal(SIGXFSZ, SIG_DFL);
        if (dup2(in, 0) < 0 || dup2(out[1], 1) < 0 || dup2(err[1], 2) < 0)
            _exit(126);
        if (cwd && chdir(cwd) != 0)
            _exit(126);
        execve("/bin/sh", argv, environ);
        _exit(127);
    }
    close(out[1]);
    close(err[1]);
    r->pid = pid;
    r->fd = out[0];
    r->err_fd = err[0];
    fcntl(r->fd, F_SETFL, fcntl(r->fd, F_GETFL) | O_NONBLOCK);
    fcntl(r->err_fd, F_SETFL, fcntl(r->err_fd, F_GETFL) | O_NONBLOCK);
    return 0;
}

int vb_engine_spawn(vb_engine_run *r, FILE *request)
{
    return spawn_with_input(r, fileno(request));
}

/* ---- what the threads running an engine share ---- */

struct vb_engine_shared *vb_engine_shared_new(void)
{
    struct vb_engine_shared *sh = calloc(1, sizeof *sh);
    if (sh && pthread_mutex_init(&sh->lock, NULL) != 0) {
        free(sh);
        sh = NULL;
    }
    return sh;
}

void vb_engine_shared_free(struct vb_engine_shared *sh)
{
    pthread_mutex_destroy(&sh->lock);
    free(sh);
}

int vb_engine_caps_of(const vb_engine *e, vb_engine_caps *caps)
{
    int known = 0;
    *caps = (vb_engine_caps){0};
    if (e->shared) {
        pthread_mutex_lock(&e->shared->lock);
        if ((known = e->shared->caps_known))
            *caps = e->shared->caps;
        pthread_mutex_unlock(&e->shared->lock);
    }
    return known;
}

/* ---- persistent workers (docs/real-engines.md §1.4) ---- */

/* Write all of buf to the worker's stdin under the run's time limit,
 * reading its stderr meanwhile (a worker that fills that pipe before it
 * reads its request would otherwise wait for us as we wait for it).
 * SIGPIPE is held in this thread: a worker that died is this run's
 * failure, not verletbench's end. */
static int write_request(vb_engine_run *r, const char *buf, size_t len)
{
    sigset_t pipe_set, old;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    int rc = 0;
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(r->in_fd, buf + done, len - done);
        if (w > 0) {
            done += (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && errno != EAGAIN) {
            vb_engine_set_why(r, "writing the request to the engine: %s%s", strerror(errno),
                              errno == EPIPE ? " (it closed its input: it ended?)" : "");
            rc = -1;
            break;
        }
        double left = r->deadline - vb_engine_now();
        if (left <= 0) {
            vb_engine_set_why(r,
                              "timed out: the engine did not read its request within %g s, the "
                              "time limit of a run; killed",
                              r->e->timeout);
            rc = -1;
            break;
        }
        struct pollfd pf[2] = {{r->in_fd, POLLOUT, 0}, {r->err_fd, POLLIN, 0}};
        int ms = left > 0.2 ? 200 : (int)(left * 1000.0) + 1;
        if (poll(pf, r->err_fd >= 0 ? 2 : 1, ms) > 0 && r->err_fd >= 0 &&
            (pf[1].revents & (POLLIN | POLLHUP | POLLERR)))
            vb_engine_drain_stderr(r);
    }
    /* a SIGPIPE raised while held is taken here, never delivered */
    struct timespec zero = {0, 0};
    while (sigtimedwait(&pipe_set, NULL, &zero) == SIGPIPE)
        ;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}

static int start_worker(vb_engine_run *r)
{
    int in[2];
    if (pipe2(in, O_CLOEXEC) != 0) {
        vb_engine_set_why(r, "pipe: %s", strerror(errno));
        return -1;
    }
    int rc = spawn_with_input(r, in[0]);
    close(in[0]);
    if (rc != 0) {
        close(in[1]);
        return -1;
    }
    r->in_fd = in[1];
    fcntl(r->in_fd, F_SETFL, fcntl(r->in_fd, F_GETFL) | O_NONBLOCK);
    r->line = 0;
    return 0;
}

int vb_engine_worker_send(vb_engine_run *r, const char *request, size_t len)
{
    struct vb_engine_shared *sh = r->e->shared;
    pthread_mutex_lock(&sh->lock);
    vb_engine_worker *w = sh->idle;
    if (w)
        sh->idle = w->next;
    pthread_mutex_unlock(&sh->lock);
    r->persistent = 1;
    if (w) {
        free(r->buf);
        r->pid = w->pid;
        r->in_fd = w->in_fd;
        r->fd = w->fd;
        r->err_fd = w->err_fd;
        r->buf = w->buf;
        r->cap = w->cap;
        r->len = w->len;
        r->pos = w->pos;
        r->line = w->line;
        free(w);
        /* what it said between runs is no part of this run's message */
        vb_engine_drain_stderr(r);
        r->err_len = 0;
    } else if (start_worker(r) != 0) {
        return -1;
    }
    if (write_request(r, request, len) == 0)
        return 0;
    if (!w)
        return -1;
    /* an idle worker that ended while it waited (its output closed, its
     * input refused): no run of its own failed; a new one serves this run */
    vb_engine_reap(r, 1);
    vb_engine_close_fds(r);
    r->err_len = 0;
    r->why[0] = '\0';
    r->cap = 1 << 16;
    r->len = r->pos = 0;
    r->eof = 0;
    r->exited = 0;
    free(r->buf);
    if (!(r->buf = malloc(r->cap + 1))) {
        vb_engine_set_why(r, "out of memory");
        return -1;
    }
    if (start_worker(r) != 0)
        return -1;
    return write_request(r, request, len);
}

/* the worker's end: its stdin closed, the time limit to exit, then its
 * group killed; its status fails nothing */
static void end_worker(pid_t pid, int in_fd, int fd, int err_fd, double timeout)
{
    if (in_fd >= 0)
        close(in_fd);
    double deadline = vb_engine_now() + timeout;
    char sink[4096];
    int status;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (vb_engine_now() > deadline) {
            kill(-pid, SIGKILL);
            waitpid(pid, &status, 0);
            break;
        }
        /* keep its pipes from filling while it finishes */
        while (fd >= 0 && read(fd, sink, sizeof sink) > 0)
            ;
        while (err_fd >= 0 && read(err_fd, sink, sizeof sink) > 0)
            ;
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    kill(-pid, SIGKILL);
    vb_child_untrack(pid);
    if (fd >= 0)
        close(fd);
    if (err_fd >= 0)
        close(err_fd);
}

void vb_engine_worker_release(vb_engine_run *r)
{
    if (!r->persistent || r->pid <= 0)
        return;
    vb_engine_worker *w = r->retire ? NULL : malloc(sizeof *w);
    if (!w) {
        /* it retired (retire=1): a new worker serves the next run */
        end_worker(r->pid, r->in_fd, r->fd, r->err_fd, r->e->timeout);
    } else {
        *w = (vb_engine_worker){r->pid, r->in_fd, r->fd, r->err_fd, r->buf, r->cap,
                                r->len, r->pos, r->line, NULL};
        r->buf = NULL;
        struct vb_engine_shared *sh = r->e->shared;
        pthread_mutex_lock(&sh->lock);
        w->next = sh->idle;
        sh->idle = w;
        pthread_mutex_unlock(&sh->lock);
    }
    r->pid = -1;
    r->in_fd = r->fd = r->err_fd = -1;
}

void vb_engine_close_workers(const vb_engine *e)
{
    if (!e->shared)
        return;
    pthread_mutex_lock(&e->shared->lock);
    vb_engine_worker *w = e->shared->idle;
    e->shared->idle = NULL;
    pthread_mutex_unlock(&e->shared->lock);
    while (w) {
        vb_engine_worker *next = w->next;
        end_worker(w->pid, w->in_fd, w->fd, w->err_fd, e->timeout);
        free(w->buf);
        free(w);
        w = next;
    }
}
