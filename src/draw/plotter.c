/* plotter.c — one gnuplot for many charts (plotter.h). */
#define _GNU_SOURCE /* execvpe: gnuplot found on PATH, with its own environment */
#include "plotter.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "children.h"

/* an empty frame is ~2 kB: a chart is more */
#define MIN_PNG 6000

extern char **environ;

const char *vb_gnuplot_name(void)
{
    const char *g = getenv("GNUPLOT");
    return g && g[0] ? g : "gnuplot";
}

int vb_gnuplot_found(void)
{
    const char *g = vb_gnuplot_name();
    if (strchr(g, '/'))
        return access(g, X_OK) == 0;
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    char dir[4096 + 256];
    for (const char *p = path;;) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        if (snprintf(dir, sizeof dir, "%.*s/%s", (int)n, n ? p : ".", g) < (int)sizeof dir &&
            access(dir, X_OK) == 0)
            return 1;
        if (!colon)
            return 0;
        p = colon + 1;
    }
}

/* pngfast.so (src/draw/pngfast/pngfast.c): beside the binary (a build
 * tree), or in PREFIX/lib/verletbench/ when the binary is PREFIX/bin/.  0,
 * or -1 when there is none (gnuplot then writes its PNGs as it would). */
static int pngfast_path(char *buf, size_t len)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return -1;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    const char *tails[] = {"/pngfast.so", "/../lib/verletbench/pngfast.so"};
    for (size_t i = 0; i < sizeof tails / sizeof *tails; i++) {
        /* LD_PRELOAD splits its list at spaces and colons */
        if (snprintf(buf, len, "%s%s", exe, tails[i]) < (int)len && !strpbrk(buf, " :") &&
            access(buf, R_OK) == 0)
            return 0;
    }
    return -1;
}

/* gnuplot's environment: ours, with pngfast.so added to LD_PRELOAD when
 * there is one.  Made before the fork (the child of a threaded process may
 * only make async-signal-safe calls).  NULL when out of memory. */
static char **gnuplot_env(char **preload_var)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 2, sizeof *env);
    if (!env)
        return NULL;
    *preload_var = NULL;
    char lib[4200];
    const char *old = getenv("LD_PRELOAD");
    if (pngfast_path(lib, sizeof lib) == 0) {
        size_t len = strlen(lib) + (old ? strlen(old) : 0) + 16;
        *preload_var = malloc(len);
        if (*preload_var)
            snprintf(*preload_var, len, "LD_PRELOAD=%s%s%s", lib, old && old[0] ? ":" : "",
                     old ? old : "");
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!*preload_var || strncmp(environ[i], "LD_PRELOAD=", 11) != 0)
            env[k++] = environ[i];
    if (*preload_var)
        env[k++] = *preload_var;
    env[k] = NULL;
    return env;
}

int vb_plotter_start(vb_plotter *p, const char *parent, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->pid = -1;
    p->err_fd = -1;
    size_t n = strlen(parent) + 32;
    p->dir = malloc(n);
    if (!p->dir) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    snprintf(p->dir, n, "%s/.drawing-XXXXXX", parent);
    if (!mkdtemp(p->dir)) {
        snprintf(err, errlen, "%s: cannot make a scratch directory: %s", parent, strerror(errno));
        free(p->dir);
        p->dir = NULL;
        return -1;
    }
    int in[2], er[2];
    if (pipe(in) != 0 || pipe(er) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        vb_plotter_stop(p);
        return -1;
    }
    char *preload = NULL;
    char **env = gnuplot_env(&preload);
    char why[256];
    pid_t pid = env ? vb_child_fork(why, sizeof why) : -1;
    if (pid < 0) {
        snprintf(err, errlen, "cannot start gnuplot: %s", env ? why : "out of memory");
        close(in[0]), close(in[1]), close(er[0]), close(er[1]);
        free(env);
        free(preload);
        vb_plotter_stop(p);
        return -1;
    }
    if (pid == 0) {
        /* only async-signal-safe calls from here to exec */
        signal(SIGPIPE, SIG_DFL);
        signal(SIGXFSZ, SIG_DFL);
        if (dup2(in[0], 0) < 0 || dup2(er[1], 2) < 0 || chdir(p->dir) != 0)
            _exit(126);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, 1);
        const char *g = vb_gnuplot_name();
        char *argv[] = {(char *)g, NULL};
        if (strchr(g, '/'))
            execve(g, argv, env);
        else
            execvpe(g, argv, env);
        _exit(127);
    }
    free(env);
    free(preload);
    close(in[0]);
    close(er[1]);
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    fcntl(er[0], F_SETFD, FD_CLOEXEC);
    p->pid = pid;
    p->in = fdopen(in[1], "w");
    p->err_fd = er[0];
    if (!p->in) {
        snprintf(err, errlen, "fdopen: %s", strerror(errno));
        close(in[1]);
        vb_plotter_stop(p);
        return -1;
    }
    /* the charts are UTF-8 (set encoding utf8) */
    fputs("set encoding utf8\n", p->in);
    return 0;
}

void vb_plotter_path(const vb_plotter *p, const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", p->dir, name);
}

FILE *vb_plotter_chart(vb_plotter *p, int svg, unsigned long *id, char *out, char *err,
                       size_t errlen)
{
    *id = ++p->next;
    char name[64], path[4200];
    snprintf(name, sizeof name, "c%lu.gp", *id);
    snprintf(out, 64, "c%lu.%s", *id, svg ? "svg" : "png");
    vb_plotter_path(p, name, path, sizeof path);
    FILE *f = fopen(path, "w");
    if (!f)
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
    return f;
}

/* the next line gnuplot said, without its newline: 0, or -1 at its end */
static int read_line(vb_plotter *p, char *line, size_t len)
{
    for (;;) {
        char *nl = memchr(p->buf, '\n', p->have);
        if (nl || p->have == sizeof p->buf) {
            size_t n = nl ? (size_t)(nl - p->buf) : p->have;
            size_t c = n < len - 1 ? n : len - 1;
            memcpy(line, p->buf, c);
            line[c] = '\0';
            size_t used = nl ? n + 1 : n;
            memmove(p->buf, p->buf + used, p->have - used);
            p->have -= used;
            return 0;
        }
        ssize_t got = read(p->err_fd, p->buf + p->have, sizeof p->buf - p->have);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        p->have += (size_t)got;
    }
}

/* an error, not a warning: '... line N: message' */
static int is_error(const char *line)
{
    const char *l = strstr(line, "line ");
    while (l) {
        const char *d = l + 5;
        if (*d >= '0' && *d <= '9') {
            while (*d >= '0' && *d <= '9')
                d++;
            if (d[0] == ':' && d[1] == ' ')
                return strncmp(d + 2, "warning:", 8) != 0;
        }
        l = strstr(l + 1, "line ");
    }
    return 0;
}

int vb_plotter_draw(vb_plotter *p, unsigned long first, unsigned long last, unsigned char *failed)
{
    for (unsigned long k = first; k <= last; k++) {
        failed[k - first] = 0;
        /* a chart that failed inside a multiplot leaves it open: closed
         * here, so that the next chart's terminal can be set */
        fprintf(p->in, "load \"c%lu.gp\"\nunset multiplot\nunset output\nprint \"\\001VB %lu\"\n", k,
                k);
    }
    if (fflush(p->in) != 0)
        goto dead;
    for (unsigned long k = first; k <= last;) {
        char line[2048];
        if (read_line(p, line, sizeof line) != 0)
            goto dead;
        char mark[64];
        snprintf(mark, sizeof mark, "\001VB %lu", k);
        if (strcmp(line, mark) == 0) {
            k++;
            continue;
        }
        /* what gnuplot says of a chart: shown, and an error fails it */
        if (line[0])
            fprintf(stderr, "gnuplot: %s\n", line);
        if (is_error(line))
            failed[k - first] = 1;
    }
    return 0;
dead:
    for (unsigned long k = first; k <= last; k++)
        failed[k - first] = 1;
    return -1;
}

void vb_plotter_stop(vb_plotter *p)
{
    if (p->in) {
        fputs("exit\n", p->in);
        fclose(p->in);
        p->in = NULL;
    }
    if (p->err_fd >= 0) {
        /* what it still says (its last words) goes unread */
        close(p->err_fd);
        p->err_fd = -1;
    }
    if (p->pid > 0) {
        int st;
        while (waitpid(p->pid, &st, 0) < 0 && errno == EINTR)
            ;
        vb_child_untrack(p->pid);
        p->pid = -1;
    }
    if (p->dir) {
        DIR *d = opendir(p->dir);
        struct dirent *e;
        char path[4400];
        while (d && (e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                snprintf(path, sizeof path, "%s/%s", p->dir, e->d_name);
                unlink(path);
            }
        if (d)
            closedir(d);
        rmdir(p->dir);
        free(p->dir);
        p->dir = NULL;
    }
}

int vb_chart_file_ok(const char *path, int svg)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    unsigned char head[8] = {0};
    size_t n = fread(head, 1, sizeof head, f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    int ok;
    if (svg) {
        char tail[32] = {0};
        fseek(f, size > 16 ? size - 16 : 0, SEEK_SET);
        size_t t = fread(tail, 1, sizeof tail - 1, f);
        tail[t] = '\0';
        ok = size > 1000 && strstr(tail, "</svg>") != NULL;
    } else {
        static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
        ok = n == 8 && memcmp(head, sig, 8) == 0 && size > MIN_PNG;
    }
    fclose(f);
    return ok;
}
