/* process.h — a run of an engine as trajectory.c reads it: the process
 * (or the file) it reads, the line it is at, and what went wrong.  Inside
 * engine/ only. */
#ifndef VB_PROCESS_H
#define VB_PROCESS_H

#include <pthread.h>
#include <stdio.h>
#include <sys/types.h>

#include "engine.h"

/* a trajectory line is at most this long: 2N numbers of 25 characters for
 * the largest built-in system (a chain of 65536) is 3.3 MB */
#define MAX_LINE (8u << 20)

/* what is kept of an engine's standard error for the message */
#define ERR_TAIL 600

/* A persistent worker (protocol 2) between runs: its process, the pipe its
 * requests go down, and what was read of its output. */
typedef struct vb_engine_worker {
    pid_t pid;
    int in_fd, fd, err_fd;
    char *buf;
    size_t cap, len, pos;
    unsigned long line;
    struct vb_engine_worker *next;
} vb_engine_worker;

/* What the threads running one engine share (engine.h: vb_engine.shared). */
struct vb_engine_shared {
    pthread_mutex_t lock;
    int caps_known;
    vb_engine_caps caps;
    /* a run's output (a process's, a file's) began without a capability
     * line: one that has it is then another engine (docs/real-engines.md §1.2) */
    int bare_seen;
    vb_engine_worker *idle; /* workers waiting for a request */
    int lingered_said;      /* a process outlived its whole trajectory: said once */
};

struct vb_engine_run {
    const vb_engine *e;
    const vb_model *m;
    char id[40];
    char header[2048]; /* the "# verletbench run=..." line of this run */
    pid_t pid; /* -1: a file */
    int in_fd;      /* a persistent worker's stdin; -1 otherwise */
    int persistent; /* this run is served by a worker: its answer ends at an end line */
    int ended;      /* the end line was read */
    int retire;     /* ... with retire=1 */
    int reusable;   /* the answer ended cleanly (an error line): the worker is ready for more */
    int has_caps;        /* this output began with a capability line */
    vb_engine_caps caps; /* ... which said this */
    int exited, status; /* the engine's process has ended, and how */
    int outlived;       /* vb_engine_reap: still running at the time limit, killed */
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
    size_t nv; /* velocity columns: n, or 0 for velocity=none (docs/real-engines.md §1.7) */
    size_t ncols;
    /* protocol 3 (body.h): the rigid body the run is of, or NULL for
     * particles; the frame its engine writes w in; the previous row's q */
    const struct vb_rigid_body *body;
    vb_angvel_frame angvel;
    double q_prev[4];
    /* protocol 5 (bodies.h): the stack the run is of, or NULL; its row's
     * 13 n numbers as read, its bodies' states, each body's previous q */
    const struct vb_stack *stack;
    double *stack_row;
    struct vb_rigid_state *stack_states;
    double *stack_q_prev;
    long evals_col; /* -1 when the engine gives no count */
    unsigned long long evals; /* its count at the row before */
    unsigned long long rows;
    char why[768];
};

/* CLOCK_MONOTONIC in seconds: the runs' deadlines */
double vb_engine_now(void);

/* A row-0 value against the request's: to the digits it was given with
 * (17), relative to size, the largest of its part: the test of row 0 that
 * trajectory.c (particles) and body.c (a rigid body) share */
int vb_engine_row0_near(double a, double b, double size);

/* What the run reads, for messages: the file's path, or "its output". */
const char *vb_engine_source(const vb_engine_run *r);

/* Say what went wrong with the run (its failure text). */
void vb_engine_set_why(vb_engine_run *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Add the end of what the engine said on its standard error to why. */
void vb_engine_add_err_tail(vb_engine_run *r);
/* Keep the last ERR_TAIL bytes of its standard error. */
void vb_engine_drain_stderr(vb_engine_run *r);
/* Has the engine's process ended?  Then it is reaped, its status kept. */
int vb_engine_leader_exited(vb_engine_run *r);

/* The next line, NUL-terminated without its line end (CRLF too): 1, or 0
 * at the end of the output, or -1 (why set: a timeout, a line too long, a
 * read error). */
int vb_engine_read_line(vb_engine_run *r, char **line);

/* Persistent workers (process.c).  Take an idle worker of the run's engine
 * or start one, and send it the request (one line): 0, or -1 with why set
 * (the worker is then ended). */
int vb_engine_worker_send(vb_engine_run *r, const char *request, size_t len);
/* After a run whose answer ended cleanly (an end line, or an error line):
 * the worker back to the idle ones, or ended if it retired. */
void vb_engine_worker_release(vb_engine_run *r);

/* Close what the run reads. */
void vb_engine_close_fds(vb_engine_run *r);
/* The engine's exit, once its output has ended (killed first with
 * kill_it): 0, or -1 with why set. */
int vb_engine_reap(vb_engine_run *r, int kill_it);
/* Start /bin/sh -c COMMAND in the engine's directory, the request on its
 * standard input.  0, or -1 with why set. */
int vb_engine_spawn(vb_engine_run *r, FILE *request);

#endif
