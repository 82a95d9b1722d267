/* outdir.h — a results directory (run --out DIR, check --save DIR) that
 * changes a case at a time, each case whole.
 *
 * One writer at a time: a run holds an flock on DIR itself while it
 * computes and writes, and a second run into the same DIR is refused.  The
 * kernel drops the lock when the process ends, however it ends, so a
 * killed run never leaves DIR locked, and there is no lock file.
 *
 * A case's files are written into a hidden sibling DIR/.NAME.new-XXXXXX and
 * swapped in for DIR/NAME in one rename (renameat2 RENAME_EXCHANGE), so a
 * reader sees the old case or the new one, never a mix, even when the
 * writer is killed (SIGKILL) or a write fails (a full disk, a file-size
 * limit) halfway.  What a killed run leaves behind (.NAME.new-*,
 * .NAME.old-*, *.tmp.*) is removed by the next run, under the lock. */
#ifndef VB_OUTDIR_H
#define VB_OUTDIR_H

#include <stddef.h>
#include <stdio.h>

typedef struct vb_outdir {
    char *dir;
    int lock_fd;
} vb_outdir;

/* Results of the functions below: 0; VB_OUTDIR_USAGE for what the user can
 * fix (another run holds the lock, a file is read-only, DIR/NAME is not a
 * case directory); VB_OUTDIR_FAIL for a failure of the machine. */
#define VB_OUTDIR_USAGE (-2)
#define VB_OUTDIR_FAIL (-1)

/* mkdir -p DIR, take its lock, remove stale temporaries. */
int vb_outdir_open(vb_outdir *o, const char *dir, char *err, size_t errlen);
/* Release the lock. */
void vb_outdir_close(vb_outdir *o);

typedef struct vb_casedir {
    char *path; /* DIR/NAME */
    char *tmp;  /* DIR/.NAME.new-XXXXXX, where the files are written */
} vb_casedir;

/* DIR/NAME may be replaced: absent, or a case directory verletbench
 * wrote, with no read-only file in it.  0, or VB_OUTDIR_USAGE with why. */
int vb_casedir_check(const vb_outdir *o, const char *name, char *err, size_t errlen);

/* Check that DIR/NAME may be replaced (absent, or a case directory with
 * no read-only file) and make the temporary directory to write into. */
int vb_casedir_begin(const vb_outdir *o, const char *name, vb_casedir *cd, char *err,
                     size_t errlen);
/* Swap the temporary in for DIR/NAME and remove the old one. */
int vb_casedir_commit(vb_casedir *cd, char *err, size_t errlen);
/* Remove the temporary; DIR/NAME is untouched. */
void vb_casedir_abort(vb_casedir *cd);

/* Once a case directory has been swapped in, what an interrupt must say
 * instead of "no output file was changed": the message (naming DIR) and
 * its length, else NULL.  Async-signal-safe: for the signal handler. */
const char *vb_outdir_replaced_signal_safe(size_t *len);

/* DIR/FILE, new (nothing else writes a fresh case directory), its bytes
 * from body(ctx, f), flushed and synced before it counts as written: a
 * full disk is an error here, not a short table later.  0, or -1 with
 * err naming the file. */
typedef void vb_file_body_fn(const void *ctx, FILE *f);
int vb_casedir_write_file(const char *dir, const char *file, vb_file_body_fn *body,
                          const void *ctx, char *err, size_t errlen);

/* rm -rf PATH without following symbolic links.  0 or -1. */
int vb_remove_tree(const char *path);

/* A regular file that exists and has no write permission bit at all: the
 * user protected it, so it is not replaced. */
int vb_is_read_only(const char *path);

/* The first of the directories dirs that out is, holds or lies in (by
 * their real paths: a link or ".." is no way out), or -1: a command that
 * writes out from what it reads there (merge) would replace it. */
long vb_outdir_clash(const char *out, char *const *dirs, size_t n_dirs);

#endif
