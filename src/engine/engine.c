/* engine.c — external engines: the request, the process, the trajectory. */
#define _GNU_SOURCE /* pipe2 */
#include "engine.h"
#include "children.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "infile.h"
#include "integrator.h"
#include "columns.h"

/* a trajectory line is at most this long: 2N numbers of 25 characters for
 * the largest built-in system (a chain of 512) is 26 kB */
#define MAX_LINE (8u << 20)

extern char **environ;
/* what is kept of an engine's standard error for the message */
#define ERR_TAIL 600

/* ---- the engine itself ---------------------------------------------------------- */

/* never called: an engine is not stepped (VB_ENGINE_FLAG) */
static size_t no_state(size_t n)
{
    (void)n;
    return 1;
}
static void no_start(void *s, vb_force *f, double t, const double *x, const double *v, double h)
{
    (void)s, (void)f, (void)t, (void)x, (void)v, (void)h;
}
static void no_step(void *s, vb_force *f, double t, double h) { (void)s, (void)f, (void)t, (void)h; }
static void no_observe(const void *s, double *x, double *v) { (void)s, (void)x, (void)v; }
static void no_reverse(void *s) { (void)s; }

static int name_ok(const char *s, size_t n)
{
    if (n == 0 || n >= 64)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-' ||
              s[i] == '_'))
            return 0;
    return 1;
}

int vb_engine_check_name(const char *name, char *err, size_t errlen)
{
    if (strlen(name) > 63) {
        snprintf(err, errlen, "engine name '%.40s...': at most 63 characters", name);
        return -1;
    }
    if (!name_ok(name, strlen(name))) {
        snprintf(err, errlen, "engine name '%.64s': use a-z, 0-9, '-' and '_' (at most 63)", name);
        return -1;
    }
    if (vb_integrator_find(name)) {
        /* tables and baselines would mistake one for the other */
        snprintf(err, errlen, "engine name '%s' is an integrator's: choose another", name);
        return -1;
    }
    if (!strcmp(name, "exact")) {
        snprintf(err, errlen, "engine name 'exact' is reserved (the charts' exact path)");
        return -1;
    }
    return 0;
}

vb_engine *vb_engine_new(const char *name, int order, const char *command, const char *dir,
                         const char *cwd, double timeout, char *err, size_t errlen)
{
    if (vb_engine_check_name(name, err, errlen) != 0)
        return NULL;
    if (order < 1 || order > 16) {
        snprintf(err, errlen, "engine %s: order %d: give the order its method has, 1 to 16",
                 name, order);
        return NULL;
    }
    if (!(timeout > 0.0) || !(timeout <= 1e6)) {
        snprintf(err, errlen, "engine %s: timeout %g s: give 0 < seconds <= 1e6", name, timeout);
        return NULL;
    }
    if ((command && !command[0]) || (dir && !dir[0]) || (!command == !dir)) {
        snprintf(err, errlen, "engine %s: %s", name, dir ? "no directory" : "no command");
        return NULL;
    }
    vb_engine *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(e->name, sizeof e->name, "%s", name);
    snprintf(e->summary, sizeof e->summary, "%s %.120s", dir ? "trajectories from" : "engine:",
             dir ? dir : command);
    /* one line: a command with a line break would break the tables */
    for (char *c = e->summary; *c; c++)
        if ((unsigned char)*c < 0x20)
            *c = ' ';
    e->command = command ? strdup(command) : NULL;
    e->dir = dir ? strdup(dir) : NULL;
    e->cwd = cwd ? strdup(cwd) : NULL;
    e->timeout = timeout;
    if ((command && !e->command) || (dir && !e->dir) || (cwd && !e->cwd)) {
        vb_engine_free(e);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    e->integ = (vb_integrator){
        .name = e->name, .summary = e->summary, .order = order, .flags = VB_ENGINE_FLAG,
        .state_size = no_state, .start = no_start, .step = no_step, .observe = no_observe,
        .reverse = no_reverse,
    };
    return e;
}

vb_engine *vb_engine_parse(const char *spec, int is_dir, char *err, size_t errlen)
{
    const char *colon = strchr(spec, ':'), *eq = strchr(spec, '=');
    if (!colon || !eq || eq < colon) {
        snprintf(err, errlen, "'%.80s': want NAME:ORDER=%s (for example my-vv:2=%s)", spec,
                 is_dir ? "DIR" : "COMMAND", is_dir ? "traj/" : "'python3 engine.py'");
        return NULL;
    }
    char name[64];
    size_t n = (size_t)(colon - spec);
    if (n >= sizeof name) {
        snprintf(err, errlen, "'%.40s...': the name before ':' is at most 63 characters", spec);
        return NULL;
    }
    if (!name_ok(spec, n)) {
        snprintf(err, errlen, "'%.80s': the name before ':' must be a-z, 0-9, '-', '_'", spec);
        return NULL;
    }
    memcpy(name, spec, n);
    name[n] = '\0';
    char *end;
    errno = 0;
    long order = strtol(colon + 1, &end, 10);
    if (!(colon[1] >= '0' && colon[1] <= '9') || end != eq || errno || order < 1 || order > 16) {
        snprintf(err, errlen, "'%.80s': the order between ':' and '=' must be 1 to 16", spec);
        return NULL;
    }
    if (is_dir && eq[1]) {
        /* said now, not as every run failing on its missing file */
        struct stat st;
        const char *bad = NULL;
        if (stat(eq + 1, &st) != 0)
            bad = errno == ENOENT || errno == ENOTDIR ? "no such directory" : strerror(errno);
        else if (!S_ISDIR(st.st_mode))
            bad = "not a directory (one trajectory file: verletbench score FILE)";
        if (bad) {
            snprintf(err, errlen, "%.200s: %s", eq + 1, bad);
            return NULL;
        }
    }
    return vb_engine_new(name, (int)order, is_dir ? NULL : eq + 1, is_dir ? eq + 1 : NULL, NULL,
                         VB_ENGINE_TIMEOUT, err, errlen);
}

void vb_engine_free(vb_engine *e)
{
    if (!e)
        return;
    free(e->command);
    free(e->dir);
    free(e->file);
    free(e->cwd);
    free(e);
}

/* ---- the request ------------------------------------------------------------------ */

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void json_array(FILE *f, const double *a, size_t n)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%.17g", i ? "," : "", a[i]);
    fputc(']', f);
}

static const char *run_id(const vb_plan_spec *plan) { return plan->id[0] ? plan->id : "run"; }

void vb_engine_header(char *buf, size_t len, const vb_model *m, const vb_plan_spec *plan)
{
    size_t used = 0;
#define ADD(...)                                                                                  \
    do {                                                                                          \
        int w_ = snprintf(buf + used, used < len ? len - used : 0, __VA_ARGS__);                  \
        used += w_ > 0 ? (size_t)w_ : 0;                                                          \
    } while (0)
    ADD("# verletbench run=%s model=%s", run_id(plan), m->type->name);
    for (unsigned i = 0; i < m->type->n_params; i++)
        ADD(" %s=%.17g", m->type->params[i].name, m->p[i]);
    ADD(" plan=%s t_end=%.17g level=%d", vb_plan_name(plan->kind), plan->t_end, plan->level);
    if (plan->kind != VB_PLAN_TRACE)
        ADD(" dt=%.17g", plan->dt);
    if (plan->kind == VB_PLAN_RANDOM)
        ADD(" jitter=%.17g seed=%lu", plan->jitter, plan->seed);
    if (plan->kind == VB_PLAN_TRACE)
        ADD(" trace=%s trace_scale=%.17g", plan->trace && plan->trace->path ? plan->trace->path : "?",
            plan->trace_scale);
#undef ADD
    if (used >= len && len > 0)
        buf[len - 1] = '\0';
}

int vb_engine_write_request(FILE *f, const vb_model *m, const vb_plan_spec *plan)
{
    const vb_model_type *t = m->type;
    size_t n = m->n;
    double *xv = malloc(2 * n * sizeof *xv);
    vb_plan p;
    if (!xv || vb_plan_begin(&p, plan) != 0) {
        free(xv);
        return -1;
    }
    char header[2048];
    vb_engine_header(header, sizeof header, m, plan);
    t->initial(m->self, xv, xv + n);
    fputs("{\"kind\":\"run\",\"run\":", f);
    json_string(f, run_id(plan));
    fputs(",\"model\":", f);
    json_string(f, t->name);
    fputs(",\"params\":{", f);
    for (unsigned i = 0; i < t->n_params; i++) {
        fprintf(f, "%s", i ? "," : "");
        json_string(f, t->params[i].name);
        fprintf(f, ":%.17g", m->p[i]);
    }
    fprintf(f, "},\"dim\":%u,\"particles\":%zu,\"masses\":", t->dim, m->particles);
    json_array(f, m->mass, m->particles);
    fputs(",\"x0\":", f);
    json_array(f, xv, n);
    fputs(",\"v0\":", f);
    json_array(f, xv + n, n);
    if (vb_model_constrained(m)) {
        /* the rods an engine must keep: [i, j, L] with particles from 0,
         * j = -1 and the pivot's coordinates for a rod to a fixed point;
         * the force law is then gravity alone (docs/engines.md) */
        fputs(",\"rods\":[", f);
        for (size_t k = 0; k < m->cons.n; k++) {
            const vb_constraint *r = &m->cons.rod[k];
            fprintf(f, "%s{\"i\":%zu,\"j\":", k ? "," : "", r->i);
            if (r->j == VB_PIVOT) {
                fputs("-1,\"pivot\":", f);
                json_array(f, r->pivot, t->dim);
            } else {
                fprintf(f, "%zu", r->j);
            }
            fprintf(f, ",\"length\":%.17g}", r->length);
        }
        fputc(']', f);
    }
    fputs(",\"plan\":", f);
    json_string(f, vb_plan_name(plan->kind));
    fprintf(f, ",\"level\":%d,\"t_end\":%.17g", plan->level, vb_plan_t_end(plan));
    if (plan->kind == VB_PLAN_RANDOM)
        fprintf(f, ",\"seed\":%lu", plan->seed);
    fputs(",\"header\":", f);
    json_string(f, header);
    /* the steps, as the built-in integrators take them */
    fputs(",\"h\":[", f);
    double h, tn, last = NAN;
    unsigned long long k = 0;
    char text[40] = "";
    while (vb_plan_next(&p, &h, &tn)) {
        /* formatting a double is most of a request's cost, and a fixed
         * plan repeats one step: its text is kept */
        if (!(h == last))
            snprintf(text, sizeof text, "%.17g", h);
        last = h;
        if (k++)
            fputc(',', f);
        fputs(text, f);
    }
    fprintf(f, "],\"steps\":%llu}", k);
    vb_plan_end(&p);
    free(xv);
    return ferror(f) ? -1 : 0;
}

/* ---- a run ---------------------------------------------------------------------------- */

struct vb_engine_run {
    const vb_engine *e;
    const vb_model *m;
    char id[40];
    char header[2048]; /* the "# verletbench run=..." line of this run */
    pid_t pid; /* -1: a file */
    int exited, status; /* the engine's process has ended, and how */
    int poll_file;      /* a file that is not regular (a FIFO): read with the time limit */
    char path[4096];    /* the file read, for messages */
    int fd, err_fd;
    char err_tail[ERR_TAIL + 1];
    size_t err_len;
    char *buf;
    size_t cap, len, pos;
    int eof;
    unsigned long line; /* lines read */
    double deadline;
    size_t n;
    size_t ncols;
    long evals_col; /* -1 when the engine gives no count */
    unsigned long long evals; /* its count at the row before */
    unsigned long long rows;
    char why[768];
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

const char *vb_engine_why(const vb_engine_run *r) { return r->why; }

static void set_why(vb_engine_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_why(vb_engine_run *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why, sizeof r->why, fmt, ap);
    va_end(ap);
}

/* what the engine said on stderr, its last line or two */
static void add_err_tail(vb_engine_run *r)
{
    if (!r->err_len)
        return;
    char tail[ERR_TAIL + 1];
    size_t n = 0;
    for (size_t i = 0; i < r->err_len && n < ERR_TAIL; i++) {
        char c = r->err_tail[i];
        tail[n++] = (c == '\n' || c == '\r' || c == '\t') ? ' ' : ((unsigned char)c < 0x20 ? '?' : c);
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
static void drain_stderr(vb_engine_run *r)
{
    char chunk[4096];
    ssize_t got;
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
static int leader_exited(vb_engine_run *r)
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
static int read_line(vb_engine_run *r, char **line)
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
                set_why(r, "line %lu of its output is longer than %u bytes", r->line + 1,
                        MAX_LINE);
                return -1;
            }
            size_t cap = r->cap * 2;
            char *b = realloc(r->buf, cap + 1);
            if (!b) {
                set_why(r, "out of memory reading its output");
                return -1;
            }
            r->buf = b;
            r->cap = cap;
        }
        if (r->pid > 0 || r->poll_file) {
            double left = r->deadline - now_s();
            if (left <= 0) {
                if (r->pid > 0)
                    set_why(r, "timed out: no answer within %g s, the time limit of a run; "
                               "killed (raise it with --engine-timeout, or timeout = in "
                               "[engines])",
                            r->e->timeout);
                else
                    set_why(r, "%s: timed out: no more of it within %g s, the time limit of a "
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
                set_why(r, "poll: %s", strerror(errno));
                return -1;
            }
            if (r->err_fd >= 0 && (pf[1].revents & (POLLIN | POLLHUP | POLLERR)))
                drain_stderr(r);
            if (got == 0 && r->pid > 0)
                leader_exited(r);
            if (got <= 0 || !(pf[0].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
        }
        ssize_t got = read(r->fd, r->buf + r->len, r->cap - r->len);
        if (got < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            set_why(r, "reading its output: %s", strerror(errno));
            return -1;
        }
        if (got == 0)
            r->eof = 1;
        r->len += (size_t)got;
    }
}

static const char *where(const vb_engine_run *r);

/* The tokens of a header line after its "# verletbench " (separated by
 * spaces; a written one may also have tabs and a CR): the next one from *p,
 * its length, and the length of its key (up to '=', all of it without). */
static size_t header_token(const char **p, size_t *klen)
{
    while (**p == ' ' || **p == '\t' || **p == '\r')
        (*p)++;
    size_t n = strcspn(*p, " \t\r");
    const char *eq = memchr(*p, '=', n);
    *klen = eq ? (size_t)(eq - *p) : n;
    return n;
}

/* the token of LINE whose key is key[0..klen), and how many there are */
static const char *header_find(const char *line, const char *key, size_t klen, size_t *len,
                               int *count)
{
    const char *found = NULL;
    *count = 0;
    for (const char *p = line;;) {
        size_t kl, n = header_token(&p, &kl);
        if (!n)
            return found;
        if (kl == klen && kl < n && !strncmp(p, key, klen) && (*count)++ == 0) {
            found = p;
            *len = n;
        }
        p += n;
    }
}

/* Two values of one key say the same: the same text, the same number in
 * another spelling (1 and 1.0), or, for a trace, a file of the same name:
 * the same steps may lie elsewhere on another machine, and every row's time
 * is checked against them anyway. */
static int same_value(const char *a, size_t na, const char *b, size_t nb, int is_trace)
{
    if (na == nb && !strncmp(a, b, na))
        return 1;
    if (is_trace) {
        const char *ba = a + na, *bb = b + nb;
        while (ba > a && ba[-1] != '/')
            ba--;
        while (bb > b && bb[-1] != '/')
            bb--;
        return (size_t)(a + na - ba) == (size_t)(b + nb - bb) &&
               !strncmp(ba, bb, (size_t)(a + na - ba));
    }
    char ta[64], tb[64];
    double x, y;
    if (na >= sizeof ta || nb >= sizeof tb)
        return 0;
    memcpy(ta, a, na), ta[na] = '\0';
    memcpy(tb, b, nb), tb[nb] = '\0';
    return vb_parse_double(ta, &x) == 0 && vb_parse_double(tb, &y) == 0 && x == y;
}

/* The first KEY=VALUE of a header line that differs from the run's, as
 * "KEY=VALUE" texts (got, want).  Compared key by key, in any order: a
 * header with its parameters in another order is the same run.  A key the
 * run has that the line lacks, one the line has that the run lacks, or one
 * the line gives twice differ. */
static int header_differs(const char *want_line, const char *got_line, char *got, char *want,
                          size_t len)
{
    static const char lead[] = "# verletbench ";
    const char *w0 = want_line + (strncmp(want_line, lead, sizeof lead - 1) ? 0 : sizeof lead - 1);
    const char *g0 = got_line + (strncmp(got_line, lead, sizeof lead - 1) ? 0 : sizeof lead - 1);
    /* every key of the run's, in its order */
    for (const char *a = w0;;) {
        size_t ka, na = header_token(&a, &ka), nb = 0;
        if (!na)
            break;
        int count;
        const char *b = header_find(g0, a, ka, &nb, &count);
        if (count != 1 || !same_value(a + ka + 1, na - ka - 1, b + ka + 1, nb - ka - 1,
                                      ka == 5 && !strncmp(a, "trace", 5))) {
            if (!b)
                snprintf(got, len, "no '%.*s='", (int)(ka > 40 ? 40 : ka), a);
            else
                snprintf(got, len, "'%.*s'%s", (int)(nb > 80 ? 80 : nb), b,
                         count > 1 ? " and more of that key" : "");
            snprintf(want, len, "'%.*s'", (int)(na > 80 ? 80 : na), a);
            return 1;
        }
        a += na;
    }
    /* and none besides */
    for (const char *b = g0;;) {
        size_t kb, nb = header_token(&b, &kb), na;
        if (!nb)
            return 0;
        int count;
        if (!header_find(w0, b, kb, &na, &count)) {
            snprintf(got, len, "'%.*s'", (int)(nb > 80 ? 80 : nb), b);
            snprintf(want, len, "no '%.*s='", (int)(kb > 40 ? 40 : kb), b);
            return 1;
        }
        b += nb;
    }
}

/* the next line that is not blank and not a comment */
static int read_row(vb_engine_run *r, char **line)
{
    int rc;
    while ((rc = read_line(r, line)) == 1) {
        const char *s = *line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s && *s != '#')
            return 1;
        /* a "# verletbench run=ID ..." comment must be this run's */
        if (!strncmp(s, "# verletbench run=", 18)) {
            const char *id = s + 18;
            size_t k = strcspn(id, " ");
            if (k != strlen(r->id) || strncmp(id, r->id, k) != 0) {
                set_why(r, "line %lu of %s: a trajectory of run '%.*s', not of '%s'", r->line,
                        where(r), (int)(k > 40 ? 40 : k), id, r->id);
                return -1;
            }
            char got[96], want[96];
            if (header_differs(r->header, s, got, want, sizeof got)) {
                set_why(r, "line %lu of %s: the header says %s, but this run has %s (a "
                           "trajectory of another case, or of other parameters?)",
                        r->line, where(r), got, want);
                return -1;
            }
        }
    }
    return rc;
}

static const char *where(const vb_engine_run *r)
{
    return r->path[0] ? r->path : "its output";
}

/* a number as an engine prints it, the whole field: any decimal form
 * strtod reads, and nan or inf (a run that diverged); spaces around it */
static int parse_number(const char *s, double *out)
{
    char *end;
    while (*s == ' ')
        s++;
    double x = strtod(s, &end);
    if (end == s)
        return -1;
    /* strtod reads hexadecimal too; an engine writes decimals */
    for (const char *c = s; c < end; c++)
        if (*c == 'x' || *c == 'X')
            return -1;
    while (*end == ' ')
        end++;
    if (*end)
        return -1;
    *out = x;
    return 0;
}

/* one row: t, x (n), v (n), then any columns; the evaluation count.  The
 * fields are split in the one pass that counts them: exactly the header's
 * number (a trailing comma is one more, empty). */
static int parse_row(vb_engine_run *r, char *line, double *t, double *x, double *v,
                     unsigned long long *evals)
{
    char *p = line;
    for (size_t col = 0; col < r->ncols; col++) {
        char *comma = strchr(p, ',');
        if (!comma != (col + 1 == r->ncols)) {
            size_t fields = col + 1;
            for (const char *c = p; (c = strchr(c, ',')) != NULL; c++)
                fields++;
            set_why(r, "line %lu of %s: %zu fields, the header has %zu", r->line, where(r), fields,
                    r->ncols);
            return -1;
        }
        if (comma)
            *comma = '\0';
        if (col < 1 + 2 * r->n) {
            double val;
            if (parse_number(p, &val) != 0) {
                set_why(r, "line %lu of %s, field %zu: not a number", r->line, where(r), col + 1);
                return -1;
            }
            if (col == 0)
                *t = val;
            else if (col <= r->n)
                x[col - 1] = val;
            else
                v[col - 1 - r->n] = val;
        } else if ((long)col == r->evals_col) {
            char *end;
            errno = 0;
            unsigned long long e = strtoull(p, &end, 10);
            if (end == p || *end || errno || !(p[0] >= '0' && p[0] <= '9')) {
                set_why(r, "line %lu of %s: evals '%.20s' is not a whole number", r->line,
                        where(r), p);
                return -1;
            }
            /* a count so far: a step may make no evaluation, never undo one */
            if (e < r->evals) {
                set_why(r, "line %lu of %s: evals %llu is less than the row before's %llu: a "
                           "count of the force evaluations so far never falls",
                        r->line, where(r), e, r->evals);
                return -1;
            }
            *evals = r->evals = e;
        }
        if (comma)
            p = comma + 1;
    }
    if (r->evals_col < 0)
        *evals = r->rows; /* one a row: the start's, then one a step */
    return 0;
}

/* the header: t, the positions, the velocities, then any columns */
static int parse_header(vb_engine_run *r, char *line)
{
    char want[64];
    char *p = line;
    size_t col = 0;
    r->evals_col = -1;
    while (p) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        char *name = p;
        while (*name == ' ')
            name++;
        size_t k = strlen(name);
        while (k && name[k - 1] == ' ')
            name[--k] = '\0';
        if (col == 0)
            snprintf(want, sizeof want, "t");
        else if (col <= 2 * r->n)
            vb_state_column(want, sizeof want, r->m, col > r->n, (col - 1) % r->n);
        if (col <= 2 * r->n && strcmp(name, want) != 0) {
            set_why(r, "line %lu of %s: column %zu is '%.40s', want '%s' (the header is t, "
                       "then the positions, then the velocities; docs/engines.md)",
                    r->line, where(r), col + 1, name, want);
            return -1;
        }
        if (col > 2 * r->n && !strcmp(name, "evals")) {
            if (r->evals_col >= 0) {
                set_why(r, "line %lu of %s: two columns named evals", r->line, where(r));
                return -1;
            }
            r->evals_col = (long)col;
        }
        col++;
        p = comma ? comma + 1 : NULL;
    }
    if (col < 1 + 2 * r->n) {
        set_why(r, "line %lu of %s: %zu columns, want t and %zu positions and velocities",
                r->line, where(r), col, 2 * r->n);
        return -1;
    }
    r->ncols = col;
    return 0;
}

static void close_fds(vb_engine_run *r)
{
    if (r->fd >= 0)
        close(r->fd);
    if (r->err_fd >= 0)
        close(r->err_fd);
    r->fd = r->err_fd = -1;
}

/* the engine's exit, once its output has ended: 0, or -1 with why set
 * (appended to what was already wrong, if anything) */
static int reap(vb_engine_run *r, int kill_it)
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
            if (now_s() > r->deadline) {
                kill(-r->pid, SIGKILL);
                got = waitpid(r->pid, &status, 0);
                break;
            }
            drain_stderr(r);
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
    drain_stderr(r);
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
        set_why(r, "the engine ended with %s", what);
    }
    return -1;
}

/* How an engine ended, from waitpid's status.  The engine is a command of
 * /bin/sh, which reports a program killed by signal N as exit status
 * 128 + N: said as the signal too. */
/* spawn /bin/sh -c COMMAND in cwd, the request on its stdin */
static int spawn(vb_engine_run *r, FILE *request)
{
    int out[2], err[2];
    if (pipe2(out, O_CLOEXEC) != 0) {
        set_why(r, "pipe: %s", strerror(errno));
        return -1;
    }
    if (pipe2(err, O_CLOEXEC) != 0) {
        set_why(r, "pipe: %s", strerror(errno));
        close(out[0]), close(out[1]);
        return -1;
    }
    int in = fileno(request);
    const char *cwd = r->e->cwd;
    char *argv[] = {"sh", "-c", r->e->command, NULL};
    char why[200];
    pid_t pid = vb_child_fork(why, sizeof why);
    if (pid < 0) {
        set_why(r, "%s", why);
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

static int near_enough(double a, double b, double size)
{
    /* row 0 is the initial state the request gave: to the digits it was
     * given with (17), an engine that prints fewer reads back otherwise */
    return fabs(a - b) <= 1e-14 * size;
}

vb_engine_run *vb_engine_start(const vb_engine *e, const vb_model *m, const vb_plan_spec *plan,
                               char *why, size_t whylen)
{
    vb_engine_run *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    r->e = e;
    r->m = m;
    r->n = m->n;
    r->fd = r->err_fd = -1;
    r->pid = -1;
    snprintf(r->id, sizeof r->id, "%s", run_id(plan));
    vb_engine_header(r->header, sizeof r->header, m, plan);
    r->cap = 1 << 16;
    r->buf = malloc(r->cap + 1);
    double *xv = malloc(4 * m->n * sizeof *xv);
    if (!r->buf || !xv) {
        set_why(r, "out of memory");
        goto fail;
    }
    r->deadline = now_s() + e->timeout;
    if (e->command) {
        FILE *req = tmpfile();
        if (!req || vb_engine_write_request(req, m, plan) != 0 || fputc('\n', req) == EOF ||
            fflush(req) != 0 || fseek(req, 0, SEEK_SET) != 0) {
            set_why(r, "writing the request: %s", strerror(errno));
            if (req)
                fclose(req);
            goto fail;
        }
        int rc = spawn(r, req);
        fclose(req); /* the engine has its own descriptor of it */
        if (rc != 0)
            goto fail;
    } else {
        char path[4096];
        if (e->file)
            snprintf(path, sizeof path, "%s", e->file);
        else if (snprintf(path, sizeof path, "%s/%s.csv", e->dir, r->id) >= (int)sizeof path) {
            set_why(r, "%s/%s.csv: the path is too long", e->dir, r->id);
            goto fail;
        }
        char err[512];
        FILE *f = vb_open_input(path, "a trajectory", err, sizeof err);
        if (!f) {
            set_why(r, "%s", err);
            goto fail;
        }
        r->fd = dup(fileno(f));
        fclose(f);
        if (r->fd < 0) {
            set_why(r, "%s: %s", path, strerror(errno));
            goto fail;
        }
        snprintf(r->path, sizeof r->path, "%s", path);
        /* a FIFO may stall: read it under the time limit, as an engine */
        struct stat st;
        if (fstat(r->fd, &st) == 0 && !S_ISREG(st.st_mode)) {
            r->poll_file = 1;
            fcntl(r->fd, F_SETFL, fcntl(r->fd, F_GETFL) | O_NONBLOCK);
        }
    }
    /* the header, then row 0: the initial state */
    char *line;
    int got = read_row(r, &line);
    if (got <= 0) {
        if (got == 0)
            set_why(r, "%s is empty: no header line", where(r));
        goto fail;
    }
    if (parse_header(r, line) != 0)
        goto fail;
    got = read_row(r, &line);
    if (got <= 0) {
        if (got == 0)
            set_why(r, "%s ends after its header: no row for t = 0", where(r));
        goto fail;
    }
    double t0;
    unsigned long long ev;
    double *x0 = xv, *v0 = xv + m->n, *x = xv + 2 * m->n, *v = xv + 3 * m->n;
    if (parse_row(r, line, &t0, x, v, &ev) != 0)
        goto fail;
    m->type->initial(m->self, x0, v0);
    double sx = 0.0, sv = 0.0;
    for (size_t i = 0; i < m->n; i++) {
        sx = fmax(sx, fabs(x0[i]));
        sv = fmax(sv, fabs(v0[i]));
    }
    if (t0 != 0.0) {
        set_why(r, "line %lu of %s: the first row is at t = %.17g, not 0", r->line, where(r), t0);
        goto fail;
    }
    for (size_t i = 0; i < m->n; i++)
        if (!near_enough(x[i], x0[i], fmax(sx, 1e-300)) ||
            !near_enough(v[i], v0[i], fmax(sv, 1e-300))) {
            char col[64];
            int vel = !near_enough(x[i], x0[i], fmax(sx, 1e-300));
            vb_state_column(col, sizeof col, m, !vel, i);
            set_why(r, "line %lu of %s: row 0 is not the initial state of the request (%s = "
                       "%.17g, want %.17g): start from x0 and v0, and print 17 significant "
                       "digits",
                    r->line, where(r), col, vel ? x[i] : v[i], vel ? x0[i] : v0[i]);
            goto fail;
        }
    r->rows = 1;
    free(xv);
    return r;
fail:
    if (r->pid > 0) {
        int died = 0;
        /* an engine that ended early: say how */
        if (r->eof) {
            for (int k = 0; k < 500 && !died; k++) {
                if (leader_exited(r)) {
                    int status = r->status;
                    died = 1;
                    vb_child_untrack(r->pid);
                    drain_stderr(r);
                    char what[160] = "";
                    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
                        vb_child_describe_status(status, what, sizeof what);
                    if (what[0]) {
                        size_t used = strlen(r->why);
                        snprintf(r->why + used, sizeof r->why - used, " (the engine: %s)",
                                 what);
                    }
                    r->pid = -1;
                } else {
                    struct timespec ts = {0, 2000000};
                    nanosleep(&ts, NULL);
                }
            }
        }
        if (!died)
            reap(r, 1);
    }
    drain_stderr(r);
    add_err_tail(r);
    snprintf(why, whylen, "%s", r->why);
    close_fds(r);
    free(r->buf);
    free(r);
    free(xv);
    return NULL;
}

int vb_engine_next(vb_engine_run *r, double t, double h, double *x, double *v,
                   unsigned long long *evals)
{
    char *line;
    int got = read_row(r, &line);
    if (got <= 0) {
        if (got == 0) {
            set_why(r, "%s ends after %llu rows; the run has more steps (row %llu, t = %.17g, "
                       "is missing)",
                    where(r), r->rows, r->rows, t);
            reap(r, 0);
        }
        add_err_tail(r);
        return -1;
    }
    double tr;
    r->rows++;
    if (parse_row(r, line, &tr, x, v, evals) != 0) {
        add_err_tail(r);
        return -1;
    }
    /* a thousandth of the step: an engine that sums t += h or computes
     * t = n h is within it, one that skipped or repeated a step is not */
    if (!(fabs(tr - t) <= 1e-3 * h)) {
        set_why(r, "line %lu of %s: row %llu is at t = %.17g, but the step sequence is at "
                   "t = %.17g there (the first row that does not match)",
                r->line, where(r), r->rows - 1, tr, t);
        add_err_tail(r);
        return -1;
    }
    return 0;
}

int vb_engine_finish(vb_engine_run *r)
{
    char *line;
    int got = read_row(r, &line);
    if (got != 0) {
        if (got > 0)
            set_why(r, "line %lu of %s: more rows than the run's %llu steps", r->line, where(r),
                    r->rows - 1);
        reap(r, 1);
        add_err_tail(r);
        return -1;
    }
    if (reap(r, 0) != 0) {
        add_err_tail(r);
        return -1;
    }
    return 0;
}

void vb_engine_stop(vb_engine_run *r)
{
    if (!r)
        return;
    if (r->pid > 0)
        reap(r, 1);
    close_fds(r);
    free(r->buf);
    free(r);
}

/* ---- a trajectory's header, read back ---- */

int vb_engine_parse_header(const char *line, vb_model *m, vb_plan_spec *plan, vb_trace *trace,
                           char *err, size_t errlen)
{
    static const char lead[] = "# verletbench run=";
    memset(plan, 0, sizeof *plan);
    memset(trace, 0, sizeof *trace);
    if (strncmp(line, lead, sizeof lead - 1) != 0) {
        snprintf(err, errlen, "the first line is not '%s...' (the header the request gave)",
                 lead);
        return -1;
    }
    char *copy = strdup(line + 2), *save = NULL;
    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    const vb_model_type *type = NULL;
    int have_plan = 0, rc = 0;
    char trace_path[4096] = "";
    /* the model first: its parameters follow it */
    const char *seen[128];
    size_t n_seen = 0;
    for (char *tok = strtok_r(copy + strlen("verletbench "), " ", &save); tok && rc == 0;
         tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) {
            snprintf(err, errlen, "'%.60s': want KEY=VALUE", tok);
            rc = -1;
            break;
        }
        *eq = '\0';
        const char *key = tok, *val = eq + 1;
        /* each key once: a second would silently win */
        for (size_t k = 0; k < n_seen; k++)
            if (!strcmp(seen[k], key)) {
                snprintf(err, errlen, "%.40s= is given twice", key);
                rc = -1;
            }
        if (rc != 0)
            break;
        if (n_seen == sizeof seen / sizeof seen[0]) {
            snprintf(err, errlen, "more than %zu keys", sizeof seen / sizeof seen[0]);
            rc = -1;
            break;
        }
        seen[n_seen++] = key;
        double x = 0.0;
        int num = vb_parse_double(val, &x) == 0;
        /* level and seed are whole numbers: 0..24 and 0..2^53 */
        if (num && (!strcmp(key, "level") || !strcmp(key, "seed")) &&
            (x != floor(x) || x < 0 || x > (!strcmp(key, "level") ? 24.0 : 9007199254740992.0)))
            num = 0;
        if (!strcmp(key, "run")) {
            snprintf(plan->id, sizeof plan->id, "%s", val);
        } else if (!strcmp(key, "model")) {
            if (!(type = vb_model_find(val))) {
                snprintf(err, errlen, "model=%.60s: no such model", val);
                rc = -1;
            } else {
                vb_model_defaults(m, type);
            }
        } else if (!strcmp(key, "plan")) {
            have_plan = 1;
            if (!strcmp(val, "fixed"))
                plan->kind = VB_PLAN_FIXED;
            else if (!strcmp(val, "random"))
                plan->kind = VB_PLAN_RANDOM;
            else if (!strcmp(val, "trace"))
                plan->kind = VB_PLAN_TRACE;
            else {
                snprintf(err, errlen, "plan=%.40s: want fixed, random or trace", val);
                rc = -1;
            }
        } else if (!strcmp(key, "trace")) {
            snprintf(trace_path, sizeof trace_path, "%s", val);
        } else if (!strcmp(key, "t_end") || !strcmp(key, "dt") || !strcmp(key, "jitter") ||
                   !strcmp(key, "trace_scale") || !strcmp(key, "level") ||
                   !strcmp(key, "seed")) {
            if (!num) {
                snprintf(err, errlen, "%s=%.40s: not a number%s", key, val,
                         !strcmp(key, "level")  ? " from 0 to 24"
                         : !strcmp(key, "seed") ? ", or not a whole one from 0 to 2^53"
                                                : "");
                rc = -1;
            } else if (!strcmp(key, "t_end"))
                plan->t_end = x;
            else if (!strcmp(key, "dt"))
                plan->dt = x;
            else if (!strcmp(key, "jitter"))
                plan->jitter = x;
            else if (!strcmp(key, "trace_scale"))
                plan->trace_scale = x;
            else if (!strcmp(key, "level"))
                plan->level = (int)x;
            else
                plan->seed = (unsigned long)x;
        } else if (type) {
            char why[512];
            if (vb_model_set(m, key, val, why, sizeof why) != 0) {
                snprintf(err, errlen, "%s", why);
                rc = -1;
            }
        } else {
            snprintf(err, errlen, "%s=: model= must come before the model's parameters", key);
            rc = -1;
        }
    }
    free(copy);
    if (rc == 0 && (!type || !have_plan || !(plan->t_end > 0.0))) {
        snprintf(err, errlen, "the header names no %s",
                 !type ? "model" : !have_plan ? "plan" : "t_end");
        rc = -1;
    }
    if (rc == 0 && plan->kind == VB_PLAN_TRACE) {
        if (!trace_path[0]) {
            snprintf(err, errlen, "plan=trace but no trace=FILE");
            rc = -1;
        } else if (vb_trace_load_unquoted(trace_path, trace, err, errlen) == 0) {
            plan->trace = trace;
        } else {
            rc = -1;
        }
    }
    if (rc == 0 && vb_plan_check(plan, err, errlen) != 0)
        rc = -1;
    if (rc == 0 && vb_model_setup(m, err, errlen) != 0)
        rc = -1;
    if (rc != 0)
        vb_trace_free(trace);
    return rc;
}
