/* isolate.c — groups of units of work in worker processes, driven from
 * one thread, results through a socket each. */
#define _GNU_SOURCE /* close_range */
#include "isolate.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "children.h"

/* A record from a worker: the unit, the length, then the bytes.  A
 * request's last record says the worker did it (END) or failed for want
 * of memory (ERR, its message as the bytes).  A request to a worker: the
 * number of units, then the units, each a uint64_t. */
typedef struct {
    uint64_t unit, len;
} record;
#define UNIT_END UINT64_MAX
#define UNIT_ERR (UINT64_MAX - 1)

struct vb_isolate_out {
    int fd;
};

/* What a worker serves: fn on ctx. */
typedef struct {
    vb_units_fn *fn;
    void *ctx;
} served;

/* ---- both sides ---- */

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        /* MSG_NOSIGNAL: a worker that died is an error here, not SIGPIPE */
        ssize_t w = send(fd, c, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

static int read_all(int fd, void *p, size_t n)
{
    char *c = p;
    while (n > 0) {
        ssize_t r = read(fd, c, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        c += r;
        n -= (size_t)r;
    }
    return 0;
}

int vb_isolate_put(vb_isolate_out *out, size_t unit, const void *bytes, size_t len)
{
    record r = {unit, len};
    return write_all(out->fd, &r, sizeof r) == 0 && write_all(out->fd, bytes, len) == 0 ? 0 : -1;
}

/* ---- the worker ---- */

/* every descriptor but 0, 1, 2 and fd closed: a worker holds no end of
 * another's socket (which would keep it from seeing its end), nor the
 * results directory's lock */
static void keep_only(int fd)
{
    if (close_range(3, (unsigned)fd - 1, 0) != 0 || close_range((unsigned)fd + 1, ~0U, 0) != 0)
        for (int k = 3; k < 4096; k++)
            if (k != fd)
                close(k);
}

static void serve(const served *sv, int fd)
{
    /* an interrupt is the parent's to handle: it kills this process group;
     * and a crash kills this process by its signal, which is what the
     * parent says (a sanitizer's handler would turn it into an exit) */
    static const int sig[] = {SIGINT, SIGTERM, SIGHUP, SIGSEGV, SIGBUS, SIGFPE, SIGILL};
    for (size_t k = 0; k < sizeof sig / sizeof sig[0]; k++)
        signal(sig[k], SIG_DFL);
    keep_only(fd);
    vb_isolate_out out = {fd};
    size_t *units = NULL, cap = 0;
    for (;;) {
        uint64_t n;
        if (read_all(fd, &n, sizeof n) != 0)
            _exit(0); /* no more requests */
        if (n > cap) {
            free(units);
            units = malloc((size_t)n * sizeof *units);
            cap = units ? (size_t)n : 0;
        }
        for (uint64_t k = 0; k < n; k++) {
            uint64_t u;
            if (read_all(fd, &u, sizeof u) != 0)
                _exit(1);
            if (units)
                units[k] = (size_t)u;
        }
        char err[512] = "out of memory";
        int rc = units ? sv->fn(sv->ctx, units, (size_t)n, &out, err, sizeof err) : -1;
        record r = {rc == 0 ? UNIT_END : UNIT_ERR, rc == 0 ? 0 : strlen(err)};
        if (write_all(fd, &r, sizeof r) != 0 || write_all(fd, err, (size_t)r.len) != 0 || rc != 0)
            _exit(1);
    }
}

/* ---- this process: the dispatcher ---- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct {
    pid_t pid; /* 0: none yet, or ended */
    int fd;    /* this process's end of its socket */
    /* the request it is doing */
    int busy, retry; /* retry: one unit again, after its group's worker failed */
    size_t group;
    const size_t *units;
    size_t n, one;
    unsigned char *sent;
    double deadline;
    char *buf;
    size_t len, cap, pos;
    int end;
} worker;

typedef struct {
    served sv;
    vb_unit_done_fn *done;
    vb_unit_foreign_fn *foreign;
    vb_group_done_fn *group_done;
    double seconds;
    worker *w;
    unsigned nw;
    size_t *retry; /* units to do alone, each in a worker */
    size_t n_retry, cap_retry, next_retry;
    char *err;
    size_t errlen;
} pool;

static int spawn(pool *p, worker *w)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        snprintf(p->err, p->errlen, "socketpair: %s", strerror(errno));
        return -1;
    }
    /* what this process has buffered must not be written again by a
     * worker that calls exit() */
    fflush(stdout);
    fflush(stderr);
    pid_t pid = vb_child_fork(p->err, p->errlen);
    if (pid == 0) {
        close(sv[0]);
        serve(&p->sv, sv[1]);
    }
    close(sv[1]);
    if (pid < 0) {
        close(sv[0]);
        return -1;
    }
    w->pid = pid;
    w->fd = sv[0];
    return 0;
}

/* the worker is gone, or must go: killed, its group and all, and reaped */
static void end_worker(worker *w, int *status)
{
    if (w->pid <= 0)
        return;
    kill(-w->pid, SIGKILL);
    while (waitpid(w->pid, status, 0) < 0 && errno == EINTR)
        ;
    vb_child_untrack(w->pid);
    close(w->fd);
    w->pid = 0;
}

/* Give the worker units[0..n) (a fresh one if it has none, or if the one
 * it had is gone).  0, or -1 (no worker: err). */
static int start(pool *p, worker *w, const size_t *units, size_t n)
{
    uint64_t *req = malloc((n + 1) * sizeof *req);
    w->sent = calloc(n ? n : 1, 1);
    if (!req || !w->sent) {
        free(req);
        snprintf(p->err, p->errlen, "out of memory");
        return -1;
    }
    req[0] = n;
    for (size_t k = 0; k < n; k++)
        req[k + 1] = units[k];
    int ok = 0;
    for (int attempt = 0; attempt < 2 && !ok; attempt++) {
        if (!w->pid && spawn(p, w) != 0) {
            free(req);
            return -1;
        }
        ok = write_all(w->fd, req, (n + 1) * sizeof *req) == 0;
        if (!ok) { /* it ended while idle: another */
            int status;
            end_worker(w, &status);
        }
    }
    free(req);
    if (!ok) {
        snprintf(p->err, p->errlen, "cannot give a plugin worker its work");
        return -1;
    }
    w->busy = 1;
    w->units = units;
    w->n = n;
    w->deadline = now_s() + p->seconds * (double)n;
    w->len = w->pos = 0;
    w->end = 0;
    return 0;
}

/* every whole record the worker sent: a unit's result to done at once */
static int take_records(pool *p, worker *w)
{
    while (!w->end && w->len - w->pos >= sizeof(record)) {
        record h;
        memcpy(&h, w->buf + w->pos, sizeof h);
        if (h.len > w->len - w->pos - sizeof h)
            break;
        const char *body = w->buf + w->pos + sizeof h;
        w->pos += sizeof h + (size_t)h.len;
        if (h.unit == UNIT_END) {
            w->end = 1;
        } else if (h.unit == UNIT_ERR) {
            snprintf(p->err, p->errlen, "%.*s", (int)(h.len > 400 ? 400 : h.len), body);
            return -1;
        } else {
            size_t k = 0;
            while (k < w->n && (w->units[k] != h.unit || w->sent[k]))
                k++;
            if (k < w->n) {
                w->sent[k] = 1;
                if (p->done(p->sv.ctx, w->units[k], body, (size_t)h.len, NULL) != 0) {
                    snprintf(p->err, p->errlen, "out of memory");
                    return -1;
                }
            }
        }
    }
    if (w->pos == w->len)
        w->pos = w->len = 0;
    return 0;
}

static int is_foreign(const pool *p, size_t unit)
{
    return !p->foreign || p->foreign(p->sv.ctx, unit);
}

/* The worker's request is over: done (*finished), or it ended, crashed
 * or timed out.  Each unit it did not send: a plugin's again alone (or,
 * alone already, failed), any other handed back.  0, or -1 (err). */
static int finish(pool *p, worker *w, int timed_out)
{
    char why[VB_ISOLATE_WHY] = "its worker process finished without its result";
    int status = 0, rc = 0;
    if (!w->end) {
        end_worker(w, &status);
        char how[160];
        vb_child_describe_status(status, how, sizeof how);
        if (timed_out)
            snprintf(why, sizeof why, "no result within %g s, the time limit of a plugin run "
                                      "(--plugin-timeout): killed",
                     p->seconds);
        else if (WIFEXITED(status))
            snprintf(why, sizeof why, "its worker process ended (%s) before the run was done: "
                                      "an exit() in the plugin's code?",
                     how);
        else
            snprintf(why, sizeof why, "its worker process crashed: %s", how);
    }
    for (size_t k = 0; rc == 0 && k < w->n; k++) {
        if (w->sent[k])
            continue;
        size_t u = w->units[k];
        if (!w->end && is_foreign(p, u) && !w->retry && w->n > 1) {
            if (p->n_retry == p->cap_retry) {
                size_t cap = p->cap_retry ? 2 * p->cap_retry : 16;
                size_t *more = realloc(p->retry, cap * sizeof *more);
                if (!more) {
                    snprintf(p->err, p->errlen, "out of memory");
                    return -1;
                }
                p->retry = more;
                p->cap_retry = cap;
            }
            p->retry[p->n_retry++] = u;
            continue;
        }
        const char *fail = w->end || is_foreign(p, u) ? why : NULL;
        if (p->done(p->sv.ctx, u, NULL, 0, fail) != 0) {
            snprintf(p->err, p->errlen, "out of memory");
            rc = -1;
        }
    }
    free(w->sent);
    w->sent = NULL;
    w->busy = 0;
    if (!w->retry && p->group_done)
        p->group_done(p->sv.ctx, w->group);
    return rc;
}

int vb_isolate_groups(const size_t *units, const size_t *at, size_t n_groups, unsigned workers,
                      double seconds, vb_units_fn *fn, vb_unit_done_fn *done,
                      vb_unit_foreign_fn *foreign, vb_group_done_fn *group_done, void *ctx,
                      char *err, size_t errlen)
{
    pool p = {{fn, ctx}, done, foreign, group_done, seconds, NULL, workers ? workers : 1,
              NULL, 0, 0, 0, err, errlen};
    p.w = calloc(p.nw, sizeof *p.w);
    struct pollfd *pf = calloc(p.nw, sizeof *pf);
    unsigned *who = calloc(p.nw, sizeof *who);
    int rc = p.w && pf && who ? 0 : -1;
    if (rc != 0)
        snprintf(err, errlen, "out of memory");
    size_t next = 0;
    for (;;) {
        /* work for every idle worker: a unit to do again alone first */
        for (unsigned k = 0; rc == 0 && k < p.nw; k++) {
            worker *w = &p.w[k];
            if (w->busy)
                continue;
            if (p.next_retry < p.n_retry) {
                w->retry = 1;
                w->one = p.retry[p.next_retry++];
                rc = start(&p, w, &w->one, 1);
            } else {
                while (next < n_groups && at[next] == at[next + 1]) {
                    if (group_done)
                        group_done(ctx, next);
                    next++;
                }
                if (next == n_groups)
                    break;
                w->retry = 0;
                w->group = next++;
                rc = start(&p, w, units + at[w->group], at[w->group + 1] - at[w->group]);
            }
        }
        unsigned n_busy = 0;
        double soonest = 0.0;
        for (unsigned k = 0; rc == 0 && k < p.nw; k++)
            if (p.w[k].busy) {
                if (!n_busy || p.w[k].deadline < soonest)
                    soonest = p.w[k].deadline;
                pf[n_busy] = (struct pollfd){p.w[k].fd, POLLIN, 0};
                who[n_busy++] = k;
            }
        if (rc != 0 || n_busy == 0)
            break;
        double left = soonest - now_s();
        int ms = left <= 0 ? 0 : left > 3600.0 ? 3600000 : (int)(left * 1000.0) + 1;
        int got = poll(pf, n_busy, ms);
        if (got < 0 && errno != EINTR) {
            snprintf(err, errlen, "poll: %s", strerror(errno));
            rc = -1;
            break;
        }
        for (unsigned q = 0; rc == 0 && q < n_busy; q++) {
            worker *w = &p.w[who[q]];
            int gone = 0;
            if (got > 0 && (pf[q].revents & (POLLIN | POLLHUP | POLLERR))) {
                if (w->len + 65536 > w->cap) {
                    size_t cap = w->cap ? 2 * w->cap : 1 << 17;
                    char *nb = realloc(w->buf, cap);
                    if (!nb) {
                        snprintf(err, errlen, "out of memory for a plugin worker's results");
                        rc = -1;
                        break;
                    }
                    w->buf = nb;
                    w->cap = cap;
                }
                ssize_t r = read(w->fd, w->buf + w->len, w->cap - w->len);
                if (r > 0) {
                    w->len += (size_t)r;
                    rc = take_records(&p, w);
                } else if (r == 0 || errno != EINTR) {
                    gone = 1;
                }
            }
            if (rc == 0 && (w->end || gone))
                rc = finish(&p, w, 0);
            else if (rc == 0 && now_s() >= w->deadline)
                rc = finish(&p, w, 1);
        }
    }
    /* every worker ends: at the end of its socket, or killed */
    for (unsigned k = 0; p.w && k < p.nw; k++) {
        worker *w = &p.w[k];
        int status;
        if (w->pid > 0 && rc == 0) {
            shutdown(w->fd, SHUT_WR);
            /* it ends at the end of its requests; what it leaves in its
             * process group (a child a plugin forked, which holds our
             * stdout: `run | cat` would wait for it) is killed, before the
             * worker is reaped, while its number still names the group */
            siginfo_t si;
            while (waitid(P_PID, (id_t)w->pid, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
                ;
            kill(-w->pid, SIGKILL);
            while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
                ;
            vb_child_untrack(w->pid);
            close(w->fd);
            w->pid = 0; /* reaped: its number may be another's now */
        }
        end_worker(w, &status);
        free(p.w[k].sent);
        free(p.w[k].buf);
    }
    free(p.w);
    free(pf);
    free(who);
    free(p.retry);
    return rc;
}

int vb_isolate_units(const size_t *units, size_t n, double seconds, vb_units_fn *fn,
                     vb_unit_done_fn *done, vb_unit_foreign_fn *foreign, void *ctx, char *err,
                     size_t errlen)
{
    size_t at[2] = {0, n};
    return vb_isolate_groups(units, at, 1, 1, seconds, fn, done, foreign, NULL, ctx, err,
                             errlen);
}
