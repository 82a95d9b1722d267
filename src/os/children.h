/* children.h — the child processes verletbench starts (external engines,
 * plugin workers: isolate.h), each in a process group of its own, and
 * killed, group and all, by an interrupt: none is left behind. */
#ifndef VB_CHILDREN_H
#define VB_CHILDREN_H

#include <stddef.h>
#include <sys/types.h>

/* At most this many at once (32 engines a case, each on up to 1024
 * threads). */
#define VB_MAX_CHILDREN 32768

/* fork(), the child in a process group of its own and known to
 * vb_children_kill_all_signal_safe from the start: no interrupt can come
 * between the fork and that.  The pid in the parent; 0 in the child, its
 * signal mask as the caller's (only async-signal-safe calls there until it
 * execs, if the parent has threads that may hold locks); -1 with why (fork
 * failed, too many children, or verletbench is stopping). */
pid_t vb_child_fork(char *why, size_t whylen);
/* The child has been reaped: forget it. */
void vb_child_untrack(pid_t pid);
/* Kill every child's process group.  Async-signal-safe: for a handler. */
void vb_children_kill_all_signal_safe(void);

/* How a child ended, from waitpid's status: "exit status 3", "killed by
 * signal 11 (Segmentation fault)", "exit status 139, the shell's report of
 * signal 11 (...)". */
void vb_child_describe_status(int status, char *what, size_t len);

#endif
