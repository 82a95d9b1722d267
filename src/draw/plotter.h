/* plotter.h — one gnuplot process that draws many charts: each chart's
 * program is a file of its own in a scratch directory (gnuplot's working
 * directory, so no path of the user's ever appears in a program), loaded in
 * turn; a marker printed after each says where its messages end.  An error
 * in one chart ends only that chart's file: the next is drawn as if it
 * were the first (each starts with reset). */
#ifndef VB_PLOTTER_H
#define VB_PLOTTER_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* the gnuplot to run: $GNUPLOT, else "gnuplot" */
const char *vb_gnuplot_name(void);
/* 1 when it can be run (a path that is executable, or a name on PATH) */
int vb_gnuplot_found(void);

typedef struct vb_plotter {
    pid_t pid;
    FILE *in;   /* gnuplot's commands */
    int err_fd; /* what it says, read line by line */
    char *dir;  /* the scratch directory: its working directory */
    char buf[8192];
    size_t have;
    unsigned long next; /* the next chart's number */
} vb_plotter;

/* Start gnuplot in a new scratch directory under parent.  0, or -1 with a
 * message. */
int vb_plotter_start(vb_plotter *p, const char *parent, char *err, size_t errlen);
/* A new chart's program, opened for writing: the file and the name of its
 * output in the scratch directory (out: room for 64). */
FILE *vb_plotter_chart(vb_plotter *p, int svg, unsigned long *id, char *out, char *err,
                       size_t errlen);
/* Draw the charts opened since the last call (ids first..last) and wait
 * until gnuplot is done with them: failed[k] set for chart first + k when
 * gnuplot reported an error in it (its messages on stderr).  0, or -1 when
 * gnuplot ended (the rest failed). */
int vb_plotter_draw(vb_plotter *p, unsigned long first, unsigned long last, unsigned char *failed);
/* the path of a file in the scratch directory */
void vb_plotter_path(const vb_plotter *p, const char *name, char *buf, size_t len);
/* Stop gnuplot and remove the scratch directory. */
void vb_plotter_stop(vb_plotter *p);

/* 1 when a file is a real chart: the PNG signature and more than an empty
 * frame (~2 kB), or an SVG that ends its document */
int vb_chart_file_ok(const char *path, int svg);

#endif
