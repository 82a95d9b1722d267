/* trajectory.c — an engine's trajectory, read as the run goes: its header
 * of columns (t, the positions, the velocities unless it declares
 * velocity=none, then any), row 0 against
 * the request's initial state, then a row a step, each at the time of its
 * step, and nothing after the last. */
#include "engine.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bodies.h"
#include "body.h"
#include "capability.h"
#include "children.h"
#include "columns.h"
#include "header.h"
#include "infile.h"
#include "process.h"
#include "scene.h"
#include "stack.h"

#include <pthread.h>

static const char *where(const vb_engine_run *r);
static int bare_output(vb_engine_run *r);

/* A rigid body's run goes only to an engine that said protocol=3 (c; NULL:
 * no capability line, protocol 1), which then sends its velocities and
 * says in which frame its w comes (docs/real-engines.md §4.6).  A particle
 * run's engine may say 3 too: an engine of bodies alone refuses the
 * request itself, with an error line (§4.4).  0, or -1 with why set. */
static int body_protocol(vb_engine_run *r, const vb_engine_caps *c)
{
    if (!r->body)
        return 0;
    char refused[160];
    snprintf(refused, sizeof refused,
             "the request has a rigid body (model '%s'); this engine takes particles only",
             r->m->type->name);
    return vb_engine_rigid_caps(r, c, VB_ENGINE_PROTOCOL_BODY, refused, "a rigid body",
                                "a rigid body's rows carry its velocities", "4.1");
}

/* The capability line, at the top of a process's output (or a file):
 * what it declares, held to what the engine's first such line said. */
static int capability_line(vb_engine_run *r, const char *s)
{
    if (r->line != 1) {
        vb_engine_set_why(r,
                          "line %lu of %s: a capability line ('# verletbench-engine ...') must be "
                          "the first line of the output",
                          r->line, where(r));
        return -1;
    }
    char err[256];
    vb_engine_caps c;
    if (vb_engine_caps_parse(s, &c, err, sizeof err) != 0) {
        vb_engine_set_why(r, "line %lu of %s: %s", r->line, where(r), err);
        return -1;
    }
    struct vb_engine_shared *sh = r->e->shared;
    char diff[200] = "";
    pthread_mutex_lock(&sh->lock);
    int bare = sh->bare_seen;
    if (bare) {
        /* an earlier run's output had none: not this engine's twin */
    } else if (!sh->caps_known) {
        sh->caps = c;
        sh->caps_known = 1;
    } else {
        vb_engine_caps_differ(&c, &sh->caps, diff, sizeof diff);
    }
    pthread_mutex_unlock(&sh->lock);
    if (bare) {
        vb_engine_set_why(r,
                          "line %lu of %s: a capability line, but an earlier run of this engine "
                          "began without one: every output of an engine begins with the same "
                          "line, or none does (docs/real-engines.md §1.2)",
                          r->line, where(r));
        return -1;
    }
    if (diff[0]) {
        vb_engine_set_why(r, "line %lu of %s: its capability line differs from the first run's: %s",
                          r->line, where(r), diff);
        return -1;
    }
    r->caps = c;
    r->has_caps = 1;
    /* a rigid body needs protocol 3, a body at a contact 4 (scene.h), a
     * stack 5 (bodies.h) */
    if (body_protocol(r, &c) != 0 || vb_engine_stack_protocol(r, &c) != 0)
        return -1;
    return vb_engine_contact_protocol(r, &c);
}

/* "# verletbench-end run=ID [retire=1]" ends a persistent worker's answer
 * (1); elsewhere a comment (0); -1 for another run's end line */
static int end_line(vb_engine_run *r, const char *s)
{
    if (!r->persistent)
        return 0;
    const char *id = s + strlen("# verletbench-end run=");
    size_t k = strcspn(id, " \t");
    if (k != strlen(r->id) || strncmp(id, r->id, k) != 0) {
        vb_engine_set_why(r, "line %lu of %s: end line of run '%.*s', but the request was run '%s'",
                          r->line, where(r), (int)(k > 40 ? 40 : k), id, r->id);
        return -1;
    }
    const char *rest = id + k;
    while (*rest == ' ' || *rest == '\t')
        rest++;
    if (!strncmp(rest, "retire=1", 8))
        r->retire = 1;
    r->ended = 1;
    return 1;
}

/* the next line that is not blank and not a comment; 0 at the end of the
 * output, or of a persistent worker's answer */
static int read_row(vb_engine_run *r, char **line)
{
    int rc;
    if (r->ended)
        return 0;
    while ((rc = vb_engine_read_line(r, line)) == 1) {
        const char *s = *line;
        while (*s == ' ' || *s == '\t')
            s++;
        int caps = !strncmp(s, "# verletbench-engine ", 21) || !strcmp(s, "# verletbench-engine");
        /* a worker's output begins with the capability line too, as every
         * process's of the engine does (docs/real-engines.md §1.2, §1.4):
         * one without it would be read as the engine that declared, at
         * one -j, and refused as another at the next (a process's run) */
        if (r->persistent && r->line == 1 && !caps && bare_output(r) != 0)
            return -1;
        if (*s && *s != '#')
            return 1;
        if (caps) {
            if (capability_line(r, s) != 0)
                return -1;
            continue;
        }
        if (!strncmp(s, "# verletbench-end run=", 22)) {
            int end = end_line(r, s);
            if (end != 0)
                return end < 0 ? -1 : 0;
            continue;
        }
        if (!strncmp(s, "# verletbench-error run=", 24)) {
            /* the engine could not serve this request, and says why; a
             * worker is then ready for the next */
            const char *msg = s + 24 + strcspn(s + 24, " \t");
            while (*msg == ' ' || *msg == '\t')
                msg++;
            vb_engine_set_why(r, "the engine reported: %.300s", *msg ? msg : "(no message)");
            r->reusable = r->persistent;
            return -1;
        }
        /* a "# verletbench run=ID ..." comment must be this run's */
        if (!strncmp(s, "# verletbench run=", 18)) {
            const char *id = s + 18;
            size_t k = strcspn(id, " ");
            if (k != strlen(r->id) || strncmp(id, r->id, k) != 0) {
                vb_engine_set_why(r, "line %lu of %s: a trajectory of run '%.*s', not of '%s'",
                                  r->line, where(r), (int)(k > 40 ? 40 : k), id, r->id);
                return -1;
            }
            char got[96], want[96];
            if (vb_engine_header_differs(r->header, s, got, want, sizeof got)) {
                vb_engine_set_why(r,
                                  "line %lu of %s: the header says %s, but this run has %s (a "
                                  "trajectory of another case, or of other parameters?)",
                                  r->line, where(r), got, want);
                return -1;
            }
        }
    }
    return rc;
}


/* what the run reads, for messages (body.c's too: process.h) */
static const char *where(const vb_engine_run *r) { return vb_engine_source(r); }

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

/* one row: t, x (n), v (nv: n, or none), then any columns; the evaluation
 * count.  The fields are split in the one pass that counts them: exactly
 * the header's number (a trailing comma is one more, empty). */
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
            vb_engine_set_why(r, "line %lu of %s: %zu fields, the header has %zu%s", r->line,
                              where(r), fields, r->ncols,
                              r->nv ? ""
                                    : " (velocity=none: a row is t and the positions, then the "
                                      "header's other columns; docs/real-engines.md §1.7)");
            return -1;
        }
        if (comma)
            *comma = '\0';
        if (col < 1 + r->n + r->nv) {
            double val;
            if (parse_number(p, &val) != 0) {
                vb_engine_set_why(r, "line %lu of %s, field %zu: not a number", r->line, where(r),
                                  col + 1);
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
                vb_engine_set_why(r, "line %lu of %s: evals '%.20s' is not a whole number", r->line,
                                  where(r), p);
                return -1;
            }
            /* a count so far: a step may make no evaluation, never undo one */
            if (e < r->evals) {
                vb_engine_set_why(
                    r,
                    "line %lu of %s: evals %llu is less than the row before's %llu: a "
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

/* The velocity columns this run's rows carry (§1.7): none when its
 * output, or its persistent worker's first, declared velocity=none; a
 * version-1 engine, and a file without a capability line, have them. */
static size_t velocity_columns(const vb_engine_run *r)
{
    vb_engine_caps caps;
    if (r->body) /* v and w, always (§4.3) */
        return VB_BODY_VELOCITIES;
    if (r->stack) /* each body's 13 numbers a row, read as 7 n then 6 n (§7) */
        return VB_BODY_VELOCITIES * (size_t)r->stack->n;
    int none = r->has_caps ? r->caps.velocity == VB_VELOCITY_NONE
                           : r->persistent && vb_engine_caps_of(r->e, &caps) &&
                                 caps.velocity == VB_VELOCITY_NONE;
    return none ? 0 : r->n;
}

/* An output (a process's, a file's) whose first line is not a capability
 * line: refused when an earlier one of the engine had it (its rows would
 * be read as another engine's: a velocity=none engine's with velocity
 * columns, a float32 one's by a double's floor), and remembered, so that a
 * later one that has it is refused too: whichever order they come in, the
 * tables never mix the two. */
static int bare_output(vb_engine_run *r)
{
    struct vb_engine_shared *sh = r->e->shared;
    pthread_mutex_lock(&sh->lock);
    int known = sh->caps_known;
    vb_engine_caps c = sh->caps;
    if (!known)
        sh->bare_seen = 1;
    pthread_mutex_unlock(&sh->lock);
    if (!known)
        return 0;
    vb_engine_set_why(r,
                      "line 1 of %s: not a capability line, but the engine's first run began "
                      "with one (precision=%s velocity=%s): every output of an engine begins "
                      "with the same line (docs/real-engines.md §1.2)",
                      where(r), vb_precision_name(c.precision),
                      vb_velocity_kind_name(c.velocity));
    return -1;
}

/* name is one of the model's velocity columns (v, vx, vy1, ...) */
static int is_velocity_column(const vb_engine_run *r, const char *name)
{
    char col[64];
    for (size_t i = 0; i < r->n; i++) {
        vb_state_column(col, sizeof col, r->m, 1, i);
        if (!strcmp(name, col))
            return 1;
    }
    return 0;
}

/* the header: t, the positions, the velocities (unless velocity=none),
 * then any columns */
static int parse_header(vb_engine_run *r, char *line)
{
    char want[64], shown[81];
    snprintf(shown, sizeof shown, "%s", line);
    char *p = line;
    size_t col = 0, named = r->n + r->nv; /* the columns after t that have names */
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
        else if (r->body)
            snprintf(want, sizeof want, "%s", vb_engine_body_column(col));
        else if (r->stack)
            vb_engine_stack_column(want, sizeof want, col);
        else if (col <= 2 * r->n)
            vb_state_column(want, sizeof want, r->m, col > r->n, (col - 1) % r->n);
        if (col == 0 && strcmp(name, "t") != 0) {
            /* the first line that is not a comment is not the column line:
             * something else writes on the engine's stdout */
            vb_engine_set_why(r,
                              "line %lu of %s: '%.80s' comes before the column line: standard "
                              "output must carry only the trajectory (a library's banner? send it "
                              "to stderr; docs/real-engines.md#210-stdout-banners-and-aborts)",
                              r->line, where(r), shown);
            return -1;
        }
        if (col <= named && strcmp(name, want) != 0) {
            vb_engine_set_why(r,
                              "line %lu of %s: column %zu is '%.40s', want '%s' (the header is %s)",
                              r->line, where(r), col + 1, name, want,
                              r->body    ? "t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz for a rigid body; "
                                           "docs/real-engines.md §4.3"
                              : r->stack ? "t, then x1,y1,z1,qw1,...,wz1, x2, ... for a stack of "
                                           "bodies, 13 columns a body; docs/real-engines.md §7"
                                         : "t, then the positions, then the velocities; "
                                           "docs/engines.md");
            return -1;
        }
        if (col > named && !r->nv && is_velocity_column(r, name)) {
            /* velocity=none, and a velocity column after the positions,
             * in whatever order or place */
            vb_engine_set_why(r,
                              "line %lu of %s: column %zu is '%s', a velocity, but the capability "
                              "line says velocity=none: the header is t and the positions, then "
                              "any other columns (docs/real-engines.md §1.7)",
                              r->line, where(r), col + 1, name);
            return -1;
        }
        if (col > named && !strcmp(name, "evals")) {
            if (r->evals_col >= 0) {
                vb_engine_set_why(r, "line %lu of %s: two columns named evals", r->line, where(r));
                return -1;
            }
            r->evals_col = (long)col;
        }
        col++;
        p = comma ? comma + 1 : NULL;
    }
    if (col < 1 + named) {
        if (r->stack)
            vb_engine_set_why(r,
                              "line %lu of %s: %zu columns, want 1 + 13 n = %zu (t, then 13 a "
                              "body for %d bodies; docs/real-engines.md §7)",
                              r->line, where(r), col, 1 + named, r->stack->n);
        else if (r->nv)
            vb_engine_set_why(r,
                              "line %lu of %s: %zu columns, want t and %zu positions and velocities",
                              r->line, where(r), col, 2 * r->n);
        else
            vb_engine_set_why(r, "line %lu of %s: %zu columns, want t and %zu positions", r->line,
                              where(r), col, r->n);
        return -1;
    }
    r->ncols = col;
    return 0;
}

/* A worker whose output ended before it answered the request: it exited
 * (after its last answer, or at once), which persistent=1 promised it
 * would not.  Said with its status, once it is reaped (a second at most). */
static void worker_gone(vb_engine_run *r)
{
    int died = 0;
    for (int k = 0; k < 500 && !(died = vb_engine_leader_exited(r)); k++) {
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    char what[160] = "";
    if (died) {
        vb_child_describe_status(r->status, what, sizeof what);
        vb_child_untrack(r->pid);
        vb_engine_drain_stderr(r);
        r->pid = -1;
    }
    vb_engine_set_why(r,
                      "its worker %s%s%s before it answered run '%s': an engine that declares "
                      "persistent=1 must read request lines until its input ends "
                      "(docs/real-engines.md §1.4)",
                      died ? "exited (" : "closed its output", what, died ? ")" : "", r->id);
}

/* A process of one run that wrote its whole trajectory and then neither
 * ended its output nor exited within the run's time limit: killed, and the
 * run judged by its rows (they are all there, each checked); said once an
 * engine on stderr, as the time limit it costs every run is the user's to
 * know. */
static int lingered(vb_engine_run *r)
{
    if (r->pid > 0)
        vb_engine_reap(r, 1);
    r->why[0] = '\0';
    struct vb_engine_shared *sh = r->e->shared;
    pthread_mutex_lock(&sh->lock);
    int said = sh->lingered_said;
    sh->lingered_said = 1;
    pthread_mutex_unlock(&sh->lock);
    if (!said)
        fprintf(stderr,
                "verletbench: engine %s: run '%s' wrote its whole trajectory (%llu rows), then "
                "neither ended its output nor exited within %g s, the time limit of a run: "
                "killed, and the run judged by its rows (an engine must exit at the end of its "
                "input; each run of it costs the time limit: docs/real-engines.md §1.4)\n",
                r->e->name, r->id, r->rows, r->e->timeout);
    return 0;
}

/* protocol 2: a worker of a persistent engine serves this run; the request
 * is one line.  0, or -1 with why set. */
static int serve_by_worker(vb_engine_run *r, const vb_model *m, const vb_plan_spec *plan)
{
    char *text = NULL;
    size_t len = 0;
    FILE *req = open_memstream(&text, &len);
    int bad = !req || vb_engine_write_request(req, m, plan) != 0 || fputc('\n', req) == EOF;
    if (req && fclose(req) != 0)
        bad = 1;
    if (bad) {
        vb_engine_set_why(r, "writing the request: %s", strerror(errno));
        free(text);
        return -1;
    }
    int rc = vb_engine_worker_send(r, text, len);
    free(text);
    return rc != 0 ? -1 : 0;
}

/* protocol 1: a process of the run's own, the request its stdin.  0, or -1
 * with why set. */
static int spawn_process(vb_engine_run *r, const vb_model *m, const vb_plan_spec *plan)
{
    FILE *req = tmpfile();
    if (!req || vb_engine_write_request(req, m, plan) != 0 || fputc('\n', req) == EOF ||
        fflush(req) != 0 || fseek(req, 0, SEEK_SET) != 0) {
        vb_engine_set_why(r, "writing the request: %s", strerror(errno));
        if (req)
            fclose(req);
        return -1;
    }
    int rc = vb_engine_spawn(r, req);
    fclose(req); /* the engine has its own descriptor of it */
    return rc != 0 ? -1 : 0;
}

/* --trajectories: the file another program wrote (e->file, or the run's
 * in e->dir), read as an engine's output; a FIFO under the time limit.  0,
 * or -1 with why set. */
static int open_written(vb_engine_run *r, const vb_engine *e)
{
    char path[4096];
    if (e->file)
        snprintf(path, sizeof path, "%s", e->file);
    else if (snprintf(path, sizeof path, "%s/%s.csv", e->dir, r->id) >= (int)sizeof path) {
        vb_engine_set_why(r, "%s/%s.csv: the path is too long", e->dir, r->id);
        return -1;
    }
    char err[512];
    FILE *f = vb_open_input(path, "a trajectory", err, sizeof err);
    if (!f) {
        vb_engine_set_why(r, "%s", err);
        return -1;
    }
    r->fd = dup(fileno(f));
    fclose(f);
    if (r->fd < 0) {
        vb_engine_set_why(r, "%s: %s", path, strerror(errno));
        return -1;
    }
    snprintf(r->path, sizeof r->path, "%s", path);
    /* a FIFO may stall: read it under the time limit, as an engine */
    struct stat st;
    if (fstat(r->fd, &st) == 0 && !S_ISREG(st.st_mode)) {
        r->poll_file = 1;
        fcntl(r->fd, F_SETFL, fcntl(r->fd, F_GETFL) | O_NONBLOCK);
    }
    return 0;
}

/* Where the run's trajectory comes from, begun: a worker, a process of its
 * own, or a file.  0, or -1 with why set. */
static int open_source(vb_engine_run *r, const vb_engine *e, const vb_model *m,
                       const vb_plan_spec *plan)
{
    vb_engine_caps caps;
    /* VERLETBENCH_ENGINE_PROCESSES=1: one process a run even for an engine
     * that declares persistent=1, as protocol 1 runs it (to measure what
     * the workers save, and to hold their answers to a process's own) */
    const char *per_process = getenv("VERLETBENCH_ENGINE_PROCESSES");
    if (e->command && vb_engine_caps_of(e, &caps) && caps.persistent &&
        !(per_process && !strcmp(per_process, "1")))
        return serve_by_worker(r, m, plan);
    if (e->command)
        return spawn_process(r, m, plan);
    return open_written(r, e);
}

/* The header (and the capability line before it, whose protocol a rigid
 * body's or a contact's run needs), read into what the rows are read by.
 * 0, or -1 with why set. */
static int read_header(vb_engine_run *r, const vb_engine *e, const vb_model *m)
{
    char *line;
    int got = read_row(r, &line);
    if (got <= 0) {
        if (got == 0 && r->persistent)
            worker_gone(r);
        else if (got == 0)
            vb_engine_set_why(r, "%s is empty: no header line", where(r));
        return -1;
    }
    if (!r->has_caps && !r->persistent && bare_output(r) != 0)
        return -1;
    /* a worker's later answers have no capability line: its first had */
    if (!r->has_caps && (r->body || r->stack || vb_engine_at_contact(m))) {
        vb_engine_caps caps;
        int known = r->persistent && vb_engine_caps_of(e, &caps);
        if (body_protocol(r, known ? &caps : NULL) != 0 ||
            vb_engine_stack_protocol(r, known ? &caps : NULL) != 0 ||
            vb_engine_contact_protocol(r, known ? &caps : NULL) != 0)
            return -1;
    }
    r->nv = velocity_columns(r); /* the capability line, if any, is read */
    return parse_header(r, line) != 0 ? -1 : 0;
}

/* Row 0: at t = 0, the request's initial state to the 17 digits printed
 * (a rigid body's as body.c reads it).  xv: room for 4 m->n numbers.  0,
 * or -1 with why set. */
static int check_row0(vb_engine_run *r, const vb_model *m, double *xv)
{
    char *line;
    int got = read_row(r, &line);
    if (got <= 0) {
        if (got == 0)
            vb_engine_set_why(r, "%s ends after its header: no row for t = 0", where(r));
        return -1;
    }
    double t0;
    unsigned long long ev;
    double *x0 = xv, *v0 = xv + m->n, *x = xv + 2 * m->n, *v = xv + 3 * m->n;
    if (r->stack) /* a stack's row whole, 13 numbers a body (bodies.h) */
        x = r->stack_row, v = r->stack_row + r->n;
    if (parse_row(r, line, &t0, x, v, &ev) != 0)
        return -1;
    if (r->body || r->stack) {
        if (t0 != 0.0) {
            vb_engine_set_why(r, "line %lu of %s: the first row is at t = %.17g, not 0", r->line,
                              where(r), t0);
            return -1;
        }
        if (r->stack)
            return vb_engine_stack_row0(r);
        return vb_engine_body_row0(r, x, v) != 0 ? -1 : 0;
    }
    m->type->initial(m->self, x0, v0);
    double sx = 0.0, sv = 0.0;
    for (size_t i = 0; i < m->n; i++) {
        sx = fmax(sx, fabs(x0[i]));
        sv = fmax(sv, fabs(v0[i]));
    }
    if (t0 != 0.0) {
        vb_engine_set_why(r, "line %lu of %s: the first row is at t = %.17g, not 0", r->line,
                          where(r), t0);
        return -1;
    }
    for (size_t i = 0; i < m->n; i++)
        if (!vb_engine_row0_near(x[i], x0[i], fmax(sx, 1e-300)) ||
            (r->nv && !vb_engine_row0_near(v[i], v0[i], fmax(sv, 1e-300)))) {
            char col[64];
            int vel = !vb_engine_row0_near(x[i], x0[i], fmax(sx, 1e-300));
            vb_state_column(col, sizeof col, m, !vel, i);
            vb_engine_set_why(r,
                              "line %lu of %s: row 0 is not the initial state of the request (%s = "
                              "%.17g, want %.17g): start from x0%s, and print 17 significant "
                              "digits",
                              r->line, where(r), col, vel ? x[i] : v[i], vel ? x0[i] : v0[i],
                              r->nv ? " and v0" : "");
            return -1;
        }
    return 0;
}

/* A run that could not start, ended: its worker released (to serve
 * another run when it can), its process reaped, with how an engine that
 * ended early ended added to why, copied out to why[whylen]; r freed. */
static void start_failed(vb_engine_run *r, char *why, size_t whylen)
{
    if (r->persistent && (r->reusable || r->ended)) {
        r->reusable = 1;
        vb_engine_worker_release(r);
    }
    if (r->pid > 0) {
        int died = 0;
        /* an engine that ended early: say how */
        if (r->eof) {
            for (int k = 0; k < 500 && !died; k++) {
                if (vb_engine_leader_exited(r)) {
                    int status = r->status;
                    died = 1;
                    vb_child_untrack(r->pid);
                    vb_engine_drain_stderr(r);
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
            vb_engine_reap(r, 1);
    }
    vb_engine_drain_stderr(r);
    vb_engine_add_err_tail(r);
    snprintf(why, whylen, "%s", r->why);
    vb_engine_close_fds(r);
    vb_engine_stack_free(r);
    free(r->buf);
    free(r);
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
    r->body = vb_engine_body_of(m);
    r->stack = vb_stack_of(m);
    r->fd = r->err_fd = r->in_fd = -1;
    r->pid = -1;
    snprintf(r->id, sizeof r->id, "%s", vb_engine_run_id(plan));
    vb_engine_header(r->header, sizeof r->header, m, plan);
    r->cap = 1 << 16;
    r->buf = malloc(r->cap + 1);
    double *xv = malloc(4 * m->n * sizeof *xv);
    if (!r->buf || !xv) {
        vb_engine_set_why(r, "out of memory");
        goto fail;
    }
    /* a stack's rows: x, q, v, w of each body, read whole (bodies.h) as
     * 7 n "positions" and 6 n velocities */
    if (r->stack) {
        r->n = VB_BODY_POSITIONS * (size_t)r->stack->n;
        if (vb_engine_stack_alloc(r) != 0)
            goto fail;
    }
    r->deadline = vb_engine_now() + e->timeout;
    /* the source begun, then its header, then row 0: the initial state */
    if (open_source(r, e, m, plan) != 0 || read_header(r, e, m) != 0 || check_row0(r, m, xv) != 0)
        goto fail;
    r->rows = 1;
    free(xv);
    return r;
fail:
    start_failed(r, why, whylen);
    free(xv);
    return NULL;
}

int vb_engine_run_has_velocity(const vb_engine_run *r) { return r->nv != 0; }

int vb_engine_next(vb_engine_run *r, double t, double h, double *x, double *v,
                   unsigned long long *evals)
{
    char *line;
    int got = read_row(r, &line);
    if (got <= 0) {
        if (got == 0) {
            vb_engine_set_why(
                r,
                "%s ends after %llu rows; the run has more steps (row %llu, t = %.17g, "
                "is missing)",
                r->persistent ? "its answer" : where(r), r->rows, r->rows, t);
            if (r->ended) /* the worker is at the end of its answer: ready for more */
                r->reusable = 1;
            else
                vb_engine_reap(r, 0);
        }
        vb_engine_add_err_tail(r);
        return -1;
    }
    double tr;
    r->rows++;
    if (parse_row(r, line, &tr, r->stack ? r->stack_row : x, r->stack ? r->stack_row + r->n : v,
                  evals) != 0) {
        vb_engine_add_err_tail(r);
        return -1;
    }
    /* a thousandth of the step: an engine that sums t += h or computes
     * t = n h is within it, one that skipped or repeated a step is not */
    if (!(fabs(tr - t) <= 1e-3 * h)) {
        vb_engine_set_why(r,
                          "line %lu of %s: row %llu is at t = %.17g, but the step sequence is at "
                          "t = %.17g there (the first row that does not match)",
                          r->line, where(r), r->rows - 1, tr, t);
        vb_engine_add_err_tail(r);
        return -1;
    }
    if ((r->body && vb_engine_body_row(r, tr, x, v) != 0) ||
        (r->stack && vb_engine_stack_row(r, tr, x, v) != 0)) {
        vb_engine_add_err_tail(r);
        return -1;
    }
    return 0;
}

const struct vb_rigid_state *vb_engine_stack_states(const vb_engine_run *r)
{
    return r->stack ? r->stack_states : NULL;
}

int vb_engine_finish(vb_engine_run *r)
{
    char *line;
    int got = read_row(r, &line);
    if (got == 0 && r->persistent && !r->ended) {
        vb_engine_set_why(r, "its output ended before the end line of run '%s' (the worker ended)",
                          r->id);
        vb_engine_reap(r, 0);
        vb_engine_add_err_tail(r);
        return -1;
    }
    if (got == 0 && r->persistent) {
        vb_engine_worker_release(r);
        return 0;
    }
    if (got < 0 && !r->persistent && r->pid > 0 && !strncmp(r->why, "timed out", 9))
        return lingered(r); /* every row in, and then nothing: not a timeout of the answer */
    if (got != 0) {
        if (got > 0)
            vb_engine_set_why(r, "line %lu of %s: more rows than the run's %llu steps", r->line,
                              where(r), r->rows - 1);
        vb_engine_reap(r, 1);
        vb_engine_add_err_tail(r);
        return -1;
    }
    if (vb_engine_reap(r, 0) != 0) {
        if (r->outlived) /* its output ended, its process went on */
            return lingered(r);
        vb_engine_add_err_tail(r);
        return -1;
    }
    return 0;
}

void vb_engine_stop(vb_engine_run *r)
{
    if (!r)
        return;
    if (r->persistent && r->pid > 0 && !r->ended && !r->why[0]) {
        /* the run was stopped early (a NaN: diverged) with its worker
         * sound: read the rest of its answer up to the end line, so the
         * worker can serve the next run instead of being started again */
        char *line;
        int got;
        while ((got = read_row(r, &line)) == 1)
            ;
        if (got == 0 && r->ended)
            r->reusable = 1;
    }
    if (r->persistent && r->reusable)
        vb_engine_worker_release(r);
    if (r->pid > 0)
        vb_engine_reap(r, 1);
    vb_engine_close_fds(r);
    vb_engine_stack_free(r);
    free(r->buf);
    free(r);
}
