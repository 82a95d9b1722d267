/* isolate.c — units of work in child processes, results through a pipe. */
#include "isolate.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "children.h"

/* A record on the pipe: the unit, the length, then the bytes.  The child's
 * last record says it finished (END) or failed for want of memory (ERR,
 * its message as the bytes). */
typedef struct {
    uint64_t unit, len;
} record;
#define UNIT_END UINT64_MAX
#define UNIT_ERR (UINT64_MAX - 1)

struct vb_isolate_out {
    int fd;
};

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

int vb_isolate_put(vb_isolate_out *out, size_t unit, const void *bytes, size_t len)
{
    record r = {unit, len};
    return write_all(out->fd, &r, sizeof r) == 0 && write_all(out->fd, bytes, len) == 0 ? 0 : -1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The child: run fn on the units, then END (or ERR), and leave without
 * running anything of the parent's (atexit handlers, stdio buffers). */
static void child(int fd, const size_t *units, size_t n, vb_units_fn *fn, void *ctx)
{
    /* an interrupt is the parent's to handle: it kills this process group */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    vb_isolate_out out = {fd};
    char err[512] = "";
    int rc = fn(ctx, units, n, &out, err, sizeof err);
    record r = {rc == 0 ? UNIT_END : UNIT_ERR, rc == 0 ? 0 : strlen(err)};
    int ok = write_all(fd, &r, sizeof r) == 0 && write_all(fd, err, (size_t)r.len) == 0;
    _exit(ok ? 0 : 1);
}

/* One child for the units: each unit it sent is handed to done and marked
 * in sent[]; *finished when the child sent END and exited 0, else why says
 * how it ended.  0, or -1 (machine failure: err). */
static int one_child(const size_t *units, size_t n, double seconds, vb_units_fn *fn,
                     vb_unit_done_fn *done, void *ctx, unsigned char *sent, int *finished,
                     char *why, size_t whylen, char *err, size_t errlen)
{
    int p[2];
    *finished = 0;
    if (pipe(p) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    /* what this process has buffered must not be written again by a child
     * that calls exit() */
    fflush(stdout);
    fflush(stderr);
    pid_t pid = vb_child_fork(err, errlen);
    if (pid < 0) {
        close(p[0]), close(p[1]);
        return -1;
    }
    if (pid == 0) {
        close(p[0]);
        child(p[1], units, n, fn, ctx);
    }
    close(p[1]);
    double limit = seconds * (double)n, deadline = now_s() + limit;
    char *buf = NULL;
    size_t len = 0, cap = 0, pos = 0;
    int rc = 0, end = 0, timed_out = 0, eof = 0;
    while (!eof && rc == 0) {
        double left = deadline - now_s();
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        struct pollfd pf = {p[0], POLLIN, 0};
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
        ssize_t r = read(p[0], buf + len, cap - len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            eof = 1;
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
                    if (done(ctx, units[k], body, (size_t)h.len, NULL) != 0) {
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
    close(p[0]);
    free(buf);
    if (timed_out || rc != 0)
        kill(-pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    /* whatever it left running in its process group ends with it */
    kill(-pid, SIGKILL);
    vb_child_untrack(pid);
    if (rc != 0)
        return -1;
    if (end && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        *finished = 1;
        return 0;
    }
    char how[160];
    vb_child_describe_status(status, how, sizeof how);
    if (timed_out)
        snprintf(why, whylen, "no result within %g s, the time limit of a plugin run "
                              "(--plugin-timeout): killed",
                 seconds);
    else if (WIFEXITED(status))
        snprintf(why, whylen, "the plugin's code ended the process it ran in (%s) before "
                              "the run was done: an exit() in it?",
                 how);
    else
        snprintf(why, whylen, "the plugin's code crashed the process it ran in: %s", how);
    return 0;
}

int vb_isolate_units(const size_t *units, size_t n, double seconds, vb_units_fn *fn,
                     vb_unit_done_fn *done, void *ctx, char *err, size_t errlen)
{
    if (n == 0)
        return 0;
    unsigned char *sent = calloc(n, 1);
    if (!sent) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    char why[VB_ISOLATE_WHY];
    int finished, rc = one_child(units, n, seconds, fn, done, ctx, sent, &finished, why,
                                 sizeof why, err, errlen);
    /* the units the child did not send: alone, so that only those whose
     * own code fails are lost (one left: that one failed) */
    for (size_t k = 0; rc == 0 && k < n; k++) {
        if (sent[k])
            continue;
        if (finished) {
            snprintf(why, sizeof why, "its worker process finished without its result");
        } else if (n > 1) {
            unsigned char one = 0;
            char why1[VB_ISOLATE_WHY];
            int fin1;
            rc = one_child(&units[k], 1, seconds, fn, done, ctx, &one, &fin1, why1,
                           sizeof why1, err, errlen);
            if (rc != 0 || one)
                continue;
            snprintf(why, sizeof why, "%s",
                     fin1 ? "its worker process finished without its result" : why1);
        }
        if (done(ctx, units[k], NULL, 0, why) != 0) {
            snprintf(err, errlen, "out of memory");
            rc = -1;
        }
    }
    free(sent);
    return rc;
}
