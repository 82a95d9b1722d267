/* parser.h — a case file read into entries (parser.c): each key of each
 * section, with its line, for the checks to take one by one, and the
 * first mistake found, as "FILE:LINE: key: why".  Inside casefile/ only. */
#ifndef VB_PARSER_H
#define VB_PARSER_H

#include <stddef.h>

/* inih's line buffer (INI_MAX_LINE) is 200 bytes, with room for "\r\n\0" */
#define VB_INIH_MAX_LINE 200
#define VB_CASE_LINE_MAX (VB_INIH_MAX_LINE - 3)
#define VB_CASE_MAX_KEYS 64

typedef struct {
    char section[32];
    char key[32];
    char value[VB_CASE_LINE_MAX + 1];
    unsigned long line;
} vb_entry;

typedef struct {
    const char *path;
    const char *text;
    size_t len, pos;
    unsigned long line;
    vb_entry keys[VB_CASE_MAX_KEYS];
    size_t n_keys;
    char sections[5][16];
    int n_sections;
    char err[768];
    int failed;
} vb_parser;

/* The text parsed into entries, its sections checked; NULL with err. */
vb_parser *vb_parser_read(const char *path, const char *text, size_t len, char *err,
                          size_t errlen);

/* Say what is wrong at a line ("FILE:LINE: ..."): the first mistake only,
 * the one to fix. */
void vb_parser_fail(vb_parser *p, unsigned long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The entry of a key, or NULL. */
const vb_entry *vb_parser_find(const vb_parser *p, const char *section, const char *key);
/* The same, or a message that it is missing (and NULL). */
const vb_entry *vb_parser_require(vb_parser *p, const char *section, const char *key);
/* The most entries a list can hold: one a character and a separator */
#define VB_CASE_LIST_MAX (VB_CASE_LINE_MAX / 2 + 1)
/* A list value's entries (docs/cases.md: names or numbers separated by
 * commas or blanks, blanks round a comma allowed), cut in buf (room for
 * VB_CASE_LINE_MAX + 1) into items (room for VB_CASE_LIST_MAX).  An empty
 * entry (a comma first, last, or after another with only blanks between:
 * 'a,,b', 'toi,', ',toi') is refused, naming the line and the key.  Their
 * count, or -1 after the message. */
int vb_parser_list(vb_parser *p, const vb_entry *e, char *buf, char **items);
/* An entry's value as a finite number, or a whole one in lo..hi: 0, or -1
 * after a message. */
int vb_parser_number(vb_parser *p, const vb_entry *e, double *out);
int vb_parser_whole(vb_parser *p, const vb_entry *e, int lo, int hi, int *out);

#endif
