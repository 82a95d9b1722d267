/* isolate.c — units of work in worker processes, results through a socket. */
#define _GNU_SOURCE /* close_range */
#include "isolate.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
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

typedef struct {
    pid_t pid;
    int fd;   /* this process's end of the socket */
    int busy; /* serving a thread */
} worker;

#define MAX_WORKERS 1024

struct vb_isolate {
    vb_units_fn *fn;
    vb_unit_done_fn *done;
    vb_unit_foreign_fn *foreign;
    void *ctx;
    double seconds;
    pthread_mutex_t lock;
    worker w[MAX_WORKERS];
    size_t n;
};

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

static void serve(const vb_isolate *iso, int fd)
{
    /* an interrupt is the parent's to handle: it kills this process group */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
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
        int rc = units ? iso->fn(iso->ctx, units, (size_t)n, &out, err, sizeof err) : -1;
        record r = {rc == 0 ? UNIT_END : UNIT_ERR, rc == 0 ? 0 : strlen(err)};
        if (write_all(fd, &r, sizeof r) != 0 || write_all(fd, err, (size_t)r.len) != 0 || rc != 0)
            _exit(1);
    }
}

/* ---- this process ---- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

vb_isolate *vb_isolate_new(vb_units_fn *fn, vb_unit_done_fn *done, vb_unit_foreign_fn *foreign,
                           void *ctx, double seconds)
{
    vb_isolate *iso = calloc(1, sizeof *iso);
    if (!iso)
        return NULL;
    iso->fn = fn;
    iso->done = done;
    iso->foreign = foreign;
    iso->ctx = ctx;
    iso->seconds = seconds;
    pthread_mutex_init(&iso->lock, NULL);
    return iso;
}

/* A worker of the pool that no thread is using (one = a new one, never
 * to be reused); NULL with err when none can be started. */
static worker *acquire(vb_isolate *iso, int one, char *err, size_t errlen)
{
    pthread_mutex_lock(&iso->lock);
    for (size_t k = 0; !one && k < iso->n; k++)
        if (!iso->w[k].busy && iso->w[k].pid > 0) {
            iso->w[k].busy = 1;
            pthread_mutex_unlock(&iso->lock);
            return &iso->w[k];
        }
    worker *w = NULL;
    for (size_t k = 0; k < iso->n && !w; k++)
        if (iso->w[k].pid <= 0 && !iso->w[k].busy)
            w = &iso->w[k];
    if (!w && iso->n < MAX_WORKERS)
        w = &iso->w[iso->n++];
    if (!w) {
        pthread_mutex_unlock(&iso->lock);
        snprintf(err, errlen, "more than %d plugin workers", MAX_WORKERS);
        return NULL;
    }
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        pthread_mutex_unlock(&iso->lock);
        snprintf(err, errlen, "socketpair: %s", strerror(errno));
        return NULL;
    }
    /* what this process has buffered must not be written again by a
     * worker that calls exit() */
    fflush(stdout);
    fflush(stderr);
    /* forked under the lock: the worker's copy of the pool is whole */
    pid_t pid = vb_child_fork(err, errlen);
    if (pid == 0) {
        close(sv[0]);
        serve(iso, sv[1]);
    }
    close(sv[1]);
    if (pid < 0) {
        close(sv[0]);
        pthread_mutex_unlock(&iso->lock);
        return NULL;
    }
    *w = (worker){pid, sv[0], 1};
    pthread_mutex_unlock(&iso->lock);
    return w;
}

/* the worker is gone (or must go): killed, reaped, its slot free */
static void drop(vb_isolate *iso, worker *w, int *status)
{
    kill(-w->pid, SIGKILL);
    while (waitpid(w->pid, status, 0) < 0 && errno == EINTR)
        ;
    vb_child_untrack(w->pid);
    close(w->fd);
    pthread_mutex_lock(&iso->lock);
    w->pid = -1;
    w->busy = 0;
    pthread_mutex_unlock(&iso->lock);
}

/* One request to a worker (one: a worker of its own): each unit it sent is
 * handed to done and marked in sent[]; *finished when it did them all,
 * else why says how it ended.  0, or -1 (machine failure: err). */
static int request(vb_isolate *iso, const size_t *units, size_t n, int one, unsigned char *sent,
                   int *finished, char *why, size_t whylen, char *err, size_t errlen)
{
    *finished = 0;
    worker *w = acquire(iso, one, err, errlen);
    if (!w)
        return -1;
    uint64_t *req = malloc((n + 1) * sizeof *req);
    if (!req) {
        snprintf(err, errlen, "out of memory");
        drop(iso, w, &(int){0});
        return -1;
    }
    req[0] = n;
    for (size_t k = 0; k < n; k++)
        req[k + 1] = units[k];
    int alive = write_all(w->fd, req, (n + 1) * sizeof *req) == 0;
    free(req);
    double deadline = now_s() + iso->seconds * (double)n;
    char *buf = NULL;
    size_t len = 0, cap = 0, pos = 0;
    int rc = 0, end = 0, timed_out = 0;
    while (alive && !end && rc == 0) {
        double left = deadline - now_s();
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        struct pollfd pf = {w->fd, POLLIN, 0};
        int ms = left > 3600.0 ? 3600000 : (int)(left * 1000.0) + 1;
        int got = poll(&pf, 1, ms);
        if (got < 0 && errno != EINTR) {
            snprintf(err, errlen, "poll: %s", strerror(errno));
            rc = -1;
            break;
        }
        if (got <= 0)
            continue;
        if (len + 65536 > cap) {
            size_t ncap = cap ? 2 * cap : 1 << 17;
            char *nb = realloc(buf, ncap);
            if (!nb) {
                snprintf(err, errlen, "out of memory for a plugin worker's results");
                rc = -1;
                break;
            }
            buf = nb;
            cap = ncap;
        }
        ssize_t r = read(w->fd, buf + len, cap - len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            alive = 0; /* it ended */
            break;
        }
        len += (size_t)r;
        /* every whole record: a unit's result goes to done at once */
        while (rc == 0 && !end && len - pos >= sizeof(record)) {
            record h;
            memcpy(&h, buf + pos, sizeof h);
            if (h.len > len - pos - sizeof h)
                break;
            const char *body = buf + pos + sizeof h;
            if (h.unit == UNIT_END) {
                end = 1;
            } else if (h.unit == UNIT_ERR) {
                snprintf(err, errlen, "%.*s", (int)(h.len > 400 ? 400 : h.len), body);
                rc = -1;
            } else {
                size_t k = 0;
                while (k < n && (units[k] != h.unit || sent[k]))
                    k++;
                if (k < n) {
                    sent[k] = 1;
                    if (iso->done(iso->ctx, units[k], body, (size_t)h.len, NULL) != 0) {
                        snprintf(err, errlen, "out of memory");
                        rc = -1;
                    }
                }
            }
            pos += sizeof h + (size_t)h.len;
        }
        if (pos == len)
            pos = len = 0;
    }
    free(buf);
    if (end && rc == 0 && !one) {
        /* done, and ready for this thread's next units */
        pthread_mutex_lock(&iso->lock);
        w->busy = 0;
        pthread_mutex_unlock(&iso->lock);
        *finished = 1;
        return 0;
    }
    int status = 0;
    drop(iso, w, &status);
    if (rc != 0)
        return -1;
    if (end) {
        *finished = 1;
        return 0;
    }
    char how[160];
    vb_child_describe_status(status, how, sizeof how);
    if (timed_out)
        snprintf(why, whylen, "no result within %g s, the time limit of a plugin run "
                              "(--plugin-timeout): killed",
                 iso->seconds);
    else if (WIFEXITED(status))
        snprintf(why, whylen, "the plugin's code ended the process it ran in (%s) before "
                              "the run was done: an exit() in it?",
                 how);
    else
        snprintf(why, whylen, "the plugin's code crashed the process it ran in: %s", how);
    return 0;
}

int vb_isolate_run(vb_isolate *iso, const size_t *units, size_t n, char *err, size_t errlen)
{
    if (n == 0)
        return 0;
    unsigned char *sent = calloc(n, 1);
    if (!sent) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    char why[VB_ISOLATE_WHY];
    int finished, rc = request(iso, units, n, 0, sent, &finished, why, sizeof why, err, errlen);
    /* the units the worker did not send: a plugin's each in a worker of
     * its own, so only those whose own code fails are lost; the others
     * handed back, to be done here */
    for (size_t k = 0; rc == 0 && k < n; k++) {
        if (sent[k])
            continue;
        const char *fail = NULL;
        char why1[VB_ISOLATE_WHY];
        if (finished) {
            fail = "its worker process finished without its result";
        } else if (iso->foreign(iso->ctx, units[k])) {
            fail = why;
            if (n > 1) {
                unsigned char one = 0;
                int fin1;
                rc = request(iso, &units[k], 1, 1, &one, &fin1, why1, sizeof why1, err, errlen);
                if (rc != 0 || one)
                    continue;
                fail = fin1 ? "its worker process finished without its result" : why1;
            }
        }
        if (iso->done(iso->ctx, units[k], NULL, 0, fail) != 0) {
            snprintf(err, errlen, "out of memory");
            rc = -1;
        }
    }
    free(sent);
    return rc;
}

static int every_unit(void *ctx, size_t unit)
{
    (void)ctx, (void)unit;
    return 1;
}

int vb_isolate_units(const size_t *units, size_t n, double seconds, vb_units_fn *fn,
                     vb_unit_done_fn *done, vb_unit_foreign_fn *foreign, void *ctx, char *err,
                     size_t errlen)
{
    if (n == 0)
        return 0;
    vb_isolate *iso = vb_isolate_new(fn, done, foreign ? foreign : every_unit, ctx, seconds);
    if (!iso) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = vb_isolate_run(iso, units, n, err, errlen);
    vb_isolate_free(iso);
    return rc;
}

void vb_isolate_free(vb_isolate *iso)
{
    if (!iso)
        return;
    for (size_t k = 0; k < iso->n; k++)
        if (iso->w[k].pid > 0) {
            /* the end of its requests: it exits; then reaped */
            close(iso->w[k].fd);
            int status;
            while (waitpid(iso->w[k].pid, &status, 0) < 0 && errno == EINTR)
                ;
            kill(-iso->w[k].pid, SIGKILL);
            vb_child_untrack(iso->w[k].pid);
        }
    pthread_mutex_destroy(&iso->lock);
    free(iso);
}
