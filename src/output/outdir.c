/* outdir.c — results directories that change a case at a time. */
#define _GNU_SOURCE /* renameat2 */
#include "outdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "names.h"

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path) != 0 && errno != ENOENT ? -1 : 0;
}

int vb_remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 0 : -1;
    return nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int vb_is_read_only(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && !(st.st_mode & 0222);
}

static char *join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s/%s", a, b);
    return s;
}

/* "NAME.tmp.XXXXXX": a file vb_outfile was writing when its run died, NAME
 * one that verletbench writes (top: summary.md; in a case: its tables).
 * Only those: a user's own "notes.tmp.123456" beside them is not ours. */
static int is_stale_file(const char *name, int top)
{
    const char *t = strstr(name, ".tmp.");
    if (!t || strlen(t + 5) != 6)
        return 0;
    char base[64];
    size_t n = (size_t)(t - name);
    if (n >= sizeof base)
        return 0;
    memcpy(base, name, n);
    base[n] = '\0';
    return top ? strcmp(base, "summary.md") == 0
               : vb_sweep_file_name(base) || vb_grid_file_name(base);
}

/* ".NAME.new-XXXXXX" or ".NAME.old-XXXXXX": a case directory being swapped */
static int is_stale_dir_name(const char *name)
{
    size_t n = strlen(name);
    return name[0] == '.' && n > 11 &&
           (strncmp(name + n - 11, ".new-", 5) == 0 || strncmp(name + n - 11, ".old-", 5) == 0);
}

/* ... that holds nothing but the files of a case (or their temporaries):
 * what `run` puts there; anything else and it is left alone */
static int holds_only_case_files(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return 0;
    int only = 1;
    struct dirent *e;
    while (only && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char *q = join(path, e->d_name);
        struct stat st;
        only = q && lstat(q, &st) == 0 && S_ISREG(st.st_mode) &&
               (vb_sweep_file_name(e->d_name) || vb_grid_file_name(e->d_name) ||
                is_stale_file(e->d_name, 0));
        free(q);
    }
    closedir(d);
    return only;
}

/* Under the lock nobody else writes here: whatever temporaries of ours
 * exist were left by a run that was killed. */
static void remove_stale(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char *p = join(dir, e->d_name);
        struct stat st;
        if (!p || lstat(p, &st) != 0) {
            free(p);
            continue;
        }
        if (S_ISDIR(st.st_mode) && is_stale_dir_name(e->d_name)) {
            if (holds_only_case_files(p))
                vb_remove_tree(p);
        } else if (S_ISREG(st.st_mode) && is_stale_file(e->d_name, 1)) {
            unlink(p);
        } else if (S_ISDIR(st.st_mode) && e->d_name[0] != '.') {
            /* a case's directory: one with its runs.csv (or a shard's
             * shard.csv, or a grid's grid.csv) */
            char *runs = join(p, "runs.csv"), *shard = join(p, "shard.csv"),
                 *grid = join(p, "grid.csv");
            struct stat rs;
            int is_case = (runs && lstat(runs, &rs) == 0 && S_ISREG(rs.st_mode)) ||
                          (shard && lstat(shard, &rs) == 0 && S_ISREG(rs.st_mode)) ||
                          (grid && lstat(grid, &rs) == 0 && S_ISREG(rs.st_mode));
            free(runs);
            free(shard);
            free(grid);
            DIR *sub = is_case ? opendir(p) : NULL;
            struct dirent *f;
            while (sub && (f = readdir(sub)))
                if (is_stale_file(f->d_name, 0)) {
                    char *q = join(p, f->d_name);
                    struct stat fs;
                    if (q && lstat(q, &fs) == 0 && S_ISREG(fs.st_mode))
                        unlink(q);
                    free(q);
                }
            if (sub)
                closedir(sub);
        }
        free(p);
    }
    closedir(d);
}

int vb_outdir_open(vb_outdir *o, const char *dir, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->lock_fd = -1;
    if (vb_make_dir(dir, err, errlen) != 0)
        return VB_OUTDIR_USAGE;
    o->dir = strdup(dir);
    if (!o->dir) {
        snprintf(err, errlen, "out of memory");
        return VB_OUTDIR_FAIL;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        snprintf(err, errlen, "%s: cannot write here: %s", dir, strerror(errno));
        vb_outdir_close(o);
        return VB_OUTDIR_USAGE;
    }
    /* the lock is on the directory itself: no lock file to leave behind */
    o->lock_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (o->lock_fd < 0) {
        snprintf(err, errlen, "%s: cannot open: %s", dir, strerror(errno));
        vb_outdir_close(o);
        return VB_OUTDIR_USAGE;
    }
    if (flock(o->lock_fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK) {
            snprintf(err, errlen,
                     "%s: another verletbench is writing there (it holds the directory's lock); "
                     "wait for it, or write elsewhere",
                     dir);
            vb_outdir_close(o);
            return VB_OUTDIR_USAGE;
        }
        /* a file system without flock (some network ones): go on unlocked */
    }
    remove_stale(dir);
    return 0;
}

void vb_outdir_close(vb_outdir *o)
{
    if (o->lock_fd >= 0)
        close(o->lock_fd); /* drops the lock */
    free(o->dir);
    o->dir = NULL;
    o->lock_fd = -1;
}

/* DIR/NAME may be replaced: absent, or a directory of files a run wrote,
 * none of them read-only. */
static int replaceable(const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT)
            return 0;
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return VB_OUTDIR_FAIL;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s exists and is not a directory: not replacing it", path);
        return VB_OUTDIR_USAGE;
    }
    DIR *d = opendir(path);
    if (!d) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return VB_OUTDIR_USAGE;
    }
    int files = 0, runs = 0, rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char *p = join(path, e->d_name);
        struct stat fs;
        if (!p || lstat(p, &fs) != 0) {
            free(p);
            continue;
        }
        files++;
        runs |= !strcmp(e->d_name, "runs.csv") || !strcmp(e->d_name, "shard.csv") ||
                !strcmp(e->d_name, "grid.csv");
        if (S_ISDIR(fs.st_mode)) {
            snprintf(err, errlen,
                     "%s holds a directory (%s): not a case directory verletbench wrote; not "
                     "replacing it",
                     path, e->d_name);
            rc = VB_OUTDIR_USAGE;
        } else if (S_ISREG(fs.st_mode) && !(fs.st_mode & 0222)) {
            snprintf(err, errlen, "%s is read-only: not replacing it (chmod u+w it to allow)", p);
            rc = VB_OUTDIR_USAGE;
        }
        free(p);
    }
    closedir(d);
    if (rc == 0 && files > 0 && !runs) {
        snprintf(err, errlen,
                 "%s has no runs.csv (nor a grid's grid.csv): not a case directory verletbench "
                 "wrote; not replacing it",
                 path);
        rc = VB_OUTDIR_USAGE;
    }
    return rc;
}

int vb_casedir_check(const vb_outdir *o, const char *name, char *err, size_t errlen)
{
    char *path = join(o->dir, name);
    if (!path) {
        snprintf(err, errlen, "out of memory");
        return VB_OUTDIR_FAIL;
    }
    int rc = replaceable(path, err, errlen);
    free(path);
    return rc;
}

int vb_casedir_begin(const vb_outdir *o, const char *name, vb_casedir *cd, char *err,
                     size_t errlen)
{
    memset(cd, 0, sizeof *cd);
    cd->path = join(o->dir, name);
    size_t n = strlen(o->dir) + strlen(name) + 16;
    cd->tmp = malloc(n);
    if (!cd->path || !cd->tmp) {
        vb_casedir_abort(cd);
        snprintf(err, errlen, "out of memory");
        return VB_OUTDIR_FAIL;
    }
    int rc = replaceable(cd->path, err, errlen);
    if (rc != 0) {
        vb_casedir_abort(cd);
        return rc;
    }
    snprintf(cd->tmp, n, "%s/.%s.new-XXXXXX", o->dir, name);
    if (!mkdtemp(cd->tmp)) {
        snprintf(err, errlen, "%s: cannot write here: %s", o->dir, strerror(errno));
        free(cd->tmp);
        cd->tmp = NULL;
        vb_casedir_abort(cd);
        return VB_OUTDIR_FAIL;
    }
    mode_t mask = umask(0); /* mkdtemp makes 0700; give what mkdir would */
    umask(mask);
    chmod(cd->tmp, 0777 & ~mask);
    return 0;
}

static void sync_dir(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

static char *parent_of(const char *path)
{
    char *p = strdup(path);
    if (p) {
        char *slash = strrchr(p, '/');
        if (slash && slash != p)
            *slash = '\0';
        else if (slash)
            slash[1] = '\0';
        else
            strcpy(p, ".");
    }
    return p;
}

/* the message of an interrupt after a swap: made before the first swap,
 * outside any handler, and only read by one (its length says it is whole) */
static char replaced_msg[4096 + 256];
static volatile sig_atomic_t replaced_len;

const char *vb_outdir_replaced_signal_safe(size_t *len)
{
    size_t n = (size_t)replaced_len;
    *len = n;
    return n ? replaced_msg : NULL;
}

int vb_casedir_commit(vb_casedir *cd, char *err, size_t errlen)
{
    char *dir = replaced_len ? NULL : parent_of(cd->path);
    int msg = dir ? snprintf(replaced_msg, sizeof replaced_msg,
                             "verletbench: interrupted after case directories in %.4096s were "
                             "replaced (each whole, new; none half-written): what came after "
                             "them was cut short\n",
                             dir)
                  : 0;
    free(dir);
    sync_dir(cd->tmp);
    struct stat st;
    int rc = 0;
    if (lstat(cd->path, &st) != 0) {
        if (rename(cd->tmp, cd->path) != 0)
            rc = -1;
    } else if (renameat2(AT_FDCWD, cd->tmp, AT_FDCWD, cd->path, RENAME_EXCHANGE) == 0) {
        /* the temporary now holds the old case */
        vb_remove_tree(cd->tmp);
    } else if (errno == EINVAL || errno == ENOSYS || errno == ENOTSUP) {
        /* a file system without the exchange: move the old one aside
         * first, so DIR/NAME is the old case, then absent for an instant,
         * then the new one; never a mix */
        char *old = strdup(cd->tmp);
        if (!old) {
            rc = -1;
        } else {
            memcpy(old + strlen(old) - 11, ".old-", 5); /* ".NAME.new-XXXXXX" */
            if (rename(cd->path, old) != 0 || rename(cd->tmp, cd->path) != 0)
                rc = -1;
            else
                vb_remove_tree(old);
            free(old);
        }
    } else {
        rc = -1;
    }
    if (rc != 0) {
        snprintf(err, errlen, "%s: cannot put the new tables in place: %s", cd->path,
                 strerror(errno));
        vb_casedir_abort(cd);
        return VB_OUTDIR_FAIL;
    }
    if (msg > 0) /* from now on an interrupt says so */
        replaced_len = msg < (int)sizeof replaced_msg ? msg : (int)sizeof replaced_msg - 1;
    char *parent = parent_of(cd->path);
    if (parent)
        sync_dir(parent);
    free(parent);
    free(cd->path);
    free(cd->tmp);
    memset(cd, 0, sizeof *cd);
    return 0;
}

void vb_casedir_abort(vb_casedir *cd)
{
    if (cd->tmp)
        vb_remove_tree(cd->tmp);
    free(cd->path);
    free(cd->tmp);
    memset(cd, 0, sizeof *cd);
}

int vb_casedir_write_file(const char *dir, const char *file, vb_file_body_fn *body,
                          const void *ctx, char *err, size_t errlen)
{
    char path[4096 + 64];
    if (snprintf(path, sizeof path, "%s/%s", dir, file) >= (int)sizeof path) {
        snprintf(err, errlen, "%.80s...: path too long", dir);
        return -1;
    }
    /* a fresh directory: the file is new, and nobody reads it until the
     * directory is swapped in */
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    body(ctx, f);
    int failed = fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0;
    int saved = errno;
    if (fclose(f) != 0 && !failed) {
        failed = 1;
        saved = errno;
    }
    if (failed) {
        snprintf(err, errlen, "%s: write failed: %s", path, strerror(saved));
        return -1;
    }
    return 0;
}

long vb_outdir_clash(const char *out, char *const *dirs, size_t n_dirs)
{
    char *out_real = realpath(out, NULL);
    if (!out_real) {
        /* not there yet: where it would be, by its parent's real path */
        char *copy = strdup(out), *slash = copy ? strrchr(copy, '/') : NULL;
        const char *base = slash ? slash + 1 : out;
        if (slash)
            *slash = '\0';
        char *parent = copy ? realpath(slash ? (copy[0] ? copy : "/") : ".", NULL) : NULL;
        if (parent && (out_real = malloc(strlen(parent) + strlen(base) + 2)))
            sprintf(out_real, "%s/%s", parent, base);
        free(parent);
        free(copy);
    }
    long found = -1;
    for (size_t a = 0; out_real && a < n_dirs && found < 0; a++) {
        char *in_real = realpath(dirs[a], NULL);
        size_t lo = strlen(out_real), li = in_real ? strlen(in_real) : 0;
        int clash = in_real && (!strncmp(out_real, in_real, lo < li ? lo : li) &&
                                (lo == li || (lo < li ? in_real[lo] : out_real[li]) == '/'));
        free(in_real);
        if (clash)
            found = (long)a;
    }
    free(out_real);
    return found;
}
