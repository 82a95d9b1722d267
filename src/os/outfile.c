/* outfile.c — write to a temporary, then rename. */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporaries open right now, for a signal handler to remove.  Only
 * the main thread opens and commits output files. */
/* at once: the requests of every point of a grid (casefile.h), each held
 * until all are written */
#define MAX_OPEN 4096
static char *volatile open_tmp[MAX_OPEN];

static void track(char *tmp)
{
    for (int i = 0; i < MAX_OPEN; i++)
        if (!open_tmp[i]) {
            open_tmp[i] = tmp;
            return;
        }
}

static void untrack(const char *tmp)
{
    for (int i = 0; i < MAX_OPEN; i++)
        if (open_tmp[i] == tmp)
            open_tmp[i] = NULL;
}

void vb_outfile_abort_all_signal_safe(void)
{
    for (int i = 0; i < MAX_OPEN; i++)
        if (open_tmp[i])
            unlink(open_tmp[i]);
}

/* A special file (a device, a FIFO, a terminal): written in place. */
static int open_direct(vb_outfile *o, const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return 0;
}

/* The file this process's standard output or error already writes to
 * (`--trajectory /dev/stdout > file`, or the file's own name): written
 * through a duplicate of that descriptor, sharing its offset.  Renamed
 * over, the file would lose what stdout wrote; opened anew, it would be
 * overwritten from its start. */
static int open_shared(vb_outfile *o, const char *path, const struct stat *st, char *err,
                       size_t errlen)
{
    for (int fd = 1; fd <= 2; fd++) {
        struct stat fst;
        if (fstat(fd, &fst) != 0 || fst.st_dev != st->st_dev || fst.st_ino != st->st_ino)
            continue;
        fflush(fd == 1 ? stdout : stderr);
        int d = fcntl(fd, F_DUPFD_CLOEXEC, 3);
        if (d < 0 || !(o->path = strdup(path)) || !(o->f = fdopen(d, "w"))) {
            snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
            if (d >= 0)
                close(d);
            free(o->path);
            memset(o, 0, sizeof *o);
            return -1;
        }
        return 1;
    }
    return 0;
}

int vb_outfile_open(vb_outfile *o, const char *path, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    struct stat lst, st;
    char *target = NULL;
    int keep_mode = -1; /* the mode of the file replaced */
    if (lstat(path, &lst) == 0) {
        if (stat(path, &st) != 0) {
            snprintf(err, errlen, "%s: a symbolic link to nothing (%s): not writing through it",
                     path, strerror(errno));
            return -1;
        }
        if (S_ISDIR(st.st_mode)) {
            snprintf(err, errlen, "%s: is a directory", path);
            return -1;
        }
        int shared = open_shared(o, path, &st, err, errlen);
        if (shared != 0)
            return shared < 0 ? -1 : 0;
        if (!S_ISREG(st.st_mode)) {
            if (!(o->path = strdup(path)) || open_direct(o, path, err, errlen) != 0) {
                free(o->path);
                memset(o, 0, sizeof *o);
                return -1;
            }
            return 0;
        }
        if (!(st.st_mode & 0222)) {
            snprintf(err, errlen, "%s is read-only: not replacing it (chmod u+w it to allow)", path);
            return -1;
        }
        keep_mode = (int)(st.st_mode & 07777);
        /* a link to a regular file: replace the file it names, not the link */
        if (S_ISLNK(lst.st_mode) && !(target = realpath(path, NULL))) {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            return -1;
        }
    }
    const char *dest = target ? target : path;
    size_t n = strlen(dest);
    o->path = strdup(dest);
    o->tmp = malloc(n + 16);
    free(target);
    if (!o->path || !o->tmp) {
        snprintf(err, errlen, "%s: out of memory", path);
        goto fail;
    }
    memcpy(o->tmp, o->path, n);
    memcpy(o->tmp + n, ".tmp.XXXXXX", 12);
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old); /* no window where a signal leaves it behind */
    int fd = mkstemp(o->tmp);
    if (fd >= 0)
        track(o->tmp);
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot write here: %s", path, strerror(errno));
        goto fail;
    }
    /* mkstemp makes 0600: give the replaced file's mode, or what creat()
     * would give a new one */
    if (keep_mode >= 0) {
        fchmod(fd, (mode_t)keep_mode);
    } else {
        mode_t mask = umask(0);
        umask(mask);
        fchmod(fd, 0666 & ~mask);
    }
    o->f = fdopen(fd, "w");
    if (!o->f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        close(fd);
        unlink(o->tmp);
        untrack(o->tmp);
        goto fail;
    }
    return 0;
fail:
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
    return -1;
}

static void release(vb_outfile *o)
{
    untrack(o->tmp);
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

int vb_outfile_finish(vb_outfile *o, char *err, size_t errlen)
{
    if (!o->tmp || !o->f)
        return 0;
    int failed = fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f)) != 0;
    int saved = errno;
    if (fclose(o->f) != 0 && !failed) {
        failed = 1;
        saved = errno;
    }
    o->f = NULL;
    if (failed) {
        snprintf(err, errlen, "%s: write failed: %s", o->path, strerror(saved));
        unlink(o->tmp);
        release(o);
        return -1;
    }
    return 0;
}

int vb_outfile_commit(vb_outfile *o, char *err, size_t errlen)
{
    if (o->tmp && !o->f) { /* finished: only the rename is left */
        if (rename(o->tmp, o->path) != 0) {
            snprintf(err, errlen, "%s: write failed: %s", o->path, strerror(errno));
            unlink(o->tmp);
            release(o);
            return -1;
        }
        release(o);
        return 0;
    }
    if (!o->tmp) { /* a special file, written in place: nothing to rename */
        int failed = fflush(o->f) != 0 || ferror(o->f);
        int saved = errno;
        if (fclose(o->f) != 0 && !failed) {
            failed = 1;
            saved = errno;
        }
        if (failed)
            snprintf(err, errlen, "%s: write failed: %s", o->path, strerror(saved));
        release(o);
        return failed ? -1 : 0;
    }
    int failed = fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f)) != 0;
    int saved = errno;
    if (fclose(o->f) != 0 && !failed) {
        failed = 1;
        saved = errno;
    }
    o->f = NULL;
    if (!failed && rename(o->tmp, o->path) != 0) {
        failed = 1;
        saved = errno;
    }
    if (failed) {
        snprintf(err, errlen, "%s: write failed: %s", o->path, strerror(saved));
        unlink(o->tmp);
        release(o);
        return -1;
    }
    release(o);
    return 0;
}

void vb_outfile_abort(vb_outfile *o)
{
    if (o->f)
        fclose(o->f);
    if (o->tmp)
        unlink(o->tmp);
    if (o->path)
        release(o);
}
