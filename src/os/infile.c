/* infile.c — open an input: regular files and pipes only. */
#define _POSIX_C_SOURCE 200809L
#include "infile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m)    ? "a directory"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISSOCK(m) ? "a socket"
                         : "not a regular file";
}

FILE *vb_open_input(const char *path, const char *what, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot open %s: %s", path, what, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(err, errlen, "%s: cannot open %s: %s", path, what, strerror(errno));
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
        snprintf(err, errlen, "%s: %s, not %s (a file or a pipe)", path, kind_of(st.st_mode), what);
        close(fd);
        return NULL;
    }
    /* opened: from here on a pipe's reads may wait for its writer */
    int flags = fcntl(fd, F_GETFL);
    FILE *f = NULL;
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 || !(f = fdopen(fd, "rb"))) {
        snprintf(err, errlen, "%s: cannot open %s: %s", path, what, strerror(errno));
        close(fd);
        return NULL;
    }
    return f;
}
