/* infile.h — opening what verletbench reads (case files, traces, baseline
 * tables): a regular file or a pipe, never a device or a directory.  A
 * device would be read to a limit for nothing (/dev/zero, /dev/urandom);
 * a named FIFO nobody writes to would hang open(): it is opened without
 * waiting, and reads as empty. */
#ifndef VB_INFILE_H
#define VB_INFILE_H

#include <stdio.h>

/* The stream, or NULL with a message naming the path and what it is. */
FILE *vb_open_input(const char *path, const char *what, char *err, size_t errlen);

#endif
