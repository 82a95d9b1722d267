/* outfile.h — output files that appear whole or not at all.  A regular file
 * (or one a symbolic link names) is written to a temporary in its directory
 * and renamed into place on commit; an interrupted run leaves the old file
 * as it was.  A file that is not a regular file — /dev/null, /dev/stdout, a
 * FIFO, a terminal — is written to directly, never replaced by a regular
 * file.  A read-only file, a directory or a dangling link is refused. */
#ifndef VB_OUTFILE_H
#define VB_OUTFILE_H

#include <stdio.h>

typedef struct vb_outfile {
    FILE *f;
    char *path, *tmp; /* tmp is NULL when writing to a special file directly */
} vb_outfile;

/* 0, or -1 with a message naming the path. */
int vb_outfile_open(vb_outfile *o, const char *path, char *err, size_t errlen);
/* Flush, sync and close a file written to a temporary, which stays until
 * commit renames it (many files at once, few descriptors).  0, or -1 (the
 * temporary is removed). */
int vb_outfile_finish(vb_outfile *o, char *err, size_t errlen);
/* Flush, sync and rename into place.  0, or -1 (the temporary is removed). */
int vb_outfile_commit(vb_outfile *o, char *err, size_t errlen);
/* Remove the temporary; the target is untouched. */
void vb_outfile_abort(vb_outfile *o);

/* Remove every temporary still open.  Async-signal-safe: for signal handlers. */
void vb_outfile_abort_all_signal_safe(void);

#endif
