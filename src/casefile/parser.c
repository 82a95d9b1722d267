/* parser.c — a case file's text into entries, through libinih.
 *
 * Debian's libinih is built without line numbers in the handler, so the text
 * reaches it through a reader that counts lines; the reader also does what
 * inih would otherwise get subtly wrong for us: it strips leading blanks (so
 * an indented line is not taken as the continuation of the previous value),
 * cuts '#' comments after a value, rejects lines longer than inih's buffer
 * instead of letting inih split them, and notes section headers (inih
 * reports only keys, so an empty or unknown section would pass unseen). */
#include "parser.h"

#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numbers.h"

/* the first three are required; [engines], [loop] and [contact] are not */
static const char *const known_sections[] = {"case", "steps", "integrators", "engines", "loop",
                                             "contact"};
#define N_SECTIONS 6

void vb_parser_fail(vb_parser *p, unsigned long line, const char *fmt, ...)
{
    if (p->failed)
        return; /* the first mistake is the one to fix */
    int n = snprintf(p->err, sizeof p->err, "%s:%lu: ", p->path, line);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err + n, sizeof p->err - (size_t)n, fmt, ap);
    va_end(ap);
    p->failed = 1;
}

/* s is the line's n characters, not NUL-terminated */
static void note_section(vb_parser *p, const char *s, size_t len)
{
    const char *end = memchr(s, ']', len);
    if (!end) {
        /* inih would take "[steps" as a section name; say what is wrong */
        vb_parser_fail(p, p->line, "syntax error: '[' without a closing ']'");
        return;
    }
    size_t n = (size_t)(end - s - 1);
    char name[64];
    if (n >= sizeof name)
        n = sizeof name - 1;
    memcpy(name, s + 1, n);
    name[n] = '\0';
    for (size_t i = 0; i < N_SECTIONS; i++)
        if (strcmp(name, known_sections[i]) == 0) {
            for (int k = 0; k < p->n_sections; k++)
                if (strcmp(p->sections[k], name) == 0) {
                    vb_parser_fail(p, p->line, "[%s] appears twice", name);
                    return;
                }
            strcpy(p->sections[p->n_sections++], name);
            return;
        }
    vb_parser_fail(p, p->line,
                   "unknown section [%s] (valid: [case], [steps], [integrators], [engines], [loop], "
                   "[contact])",
                   name);
}

/* inih's reader: one line a call, like fgets */
static char *reader(char *buf, int size, void *stream)
{
    vb_parser *p = stream;
    if (p->pos >= p->len || p->failed)
        return NULL;
    const char *s = p->text + p->pos;
    const char *nl = memchr(s, '\n', p->len - p->pos);
    size_t n = nl ? (size_t)(nl - s) : p->len - p->pos;
    p->pos += n + (nl ? 1 : 0);
    p->line++;
    if (memchr(s, '\0', n)) {
        vb_parser_fail(p, p->line, "binary data (a NUL byte); a case file is text");
        return NULL;
    }
    while (n > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    /* a '#' after a blank starts a comment, as ';' does for inih */
    for (size_t i = 1; i < n; i++)
        if (s[i] == '#' && (s[i - 1] == ' ' || s[i - 1] == '\t')) {
            n = i;
            break;
        }
    while (n > 0 && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n > VB_CASE_LINE_MAX || (int)n + 2 > size) {
        vb_parser_fail(p, p->line, "line is longer than %d characters", VB_CASE_LINE_MAX);
        return NULL;
    }
    memcpy(buf, s, n);
    buf[n] = '\n';
    buf[n + 1] = '\0';
    if (n > 0 && s[0] == '[')
        note_section(p, s, n);
    return buf;
}

static int handler(void *user, const char *section, const char *key, const char *value)
{
    vb_parser *p = user;
    if (p->failed)
        return 0;
    if (!section[0]) {
        vb_parser_fail(p, p->line, "%s: a key before any section ([case], [steps], [integrators])",
                       key);
        return 0;
    }
    for (size_t i = 0; i < p->n_keys; i++)
        if (strcmp(p->keys[i].section, section) == 0 && strcmp(p->keys[i].key, key) == 0) {
            vb_parser_fail(p, p->line, "%s: duplicate key (first set at line %lu)", key,
                           p->keys[i].line);
            return 0;
        }
    if (!value[0]) {
        vb_parser_fail(p, p->line, "%s: empty value", key);
        return 0;
    }
    if (p->n_keys == VB_CASE_MAX_KEYS) {
        vb_parser_fail(p, p->line, "%s: more than %d keys", key, VB_CASE_MAX_KEYS);
        return 0;
    }
    if (strlen(key) >= sizeof p->keys[0].key) {
        vb_parser_fail(p, p->line, "%.40s...: unknown key", key);
        return 0;
    }
    vb_entry *e = &p->keys[p->n_keys++];
    snprintf(e->section, sizeof e->section, "%s", section);
    snprintf(e->key, sizeof e->key, "%s", key);
    snprintf(e->value, sizeof e->value, "%s", value);
    e->line = p->line;
    return 1;
}

const vb_entry *vb_parser_find(const vb_parser *p, const char *section, const char *key)
{
    for (size_t i = 0; i < p->n_keys; i++)
        if (strcmp(p->keys[i].section, section) == 0 && strcmp(p->keys[i].key, key) == 0)
            return &p->keys[i];
    return NULL;
}

/* The line of a section header, for "missing key" messages. */
static unsigned long section_line(const vb_parser *p, const char *section)
{
    for (size_t i = 0; i < p->n_keys; i++)
        if (strcmp(p->keys[i].section, section) == 0)
            return p->keys[i].line;
    return 1;
}

const vb_entry *vb_parser_require(vb_parser *p, const char *section, const char *key)
{
    const vb_entry *e = vb_parser_find(p, section, key);
    if (!e)
        vb_parser_fail(p, section_line(p, section), "[%s] %s: missing (required)", section, key);
    return e;
}

int vb_parser_list(vb_parser *p, const vb_entry *e, char *buf, char **items)
{
    snprintf(buf, VB_CASE_LINE_MAX + 1, "%s", e->value);
    int n = 0, after_comma = 1; /* at the start an entry is due, as after a comma */
    for (char *s = buf;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        const char *where = n == 0 ? "before its first comma" : "between two commas";
        if (*s == ',' && after_comma) {
            vb_parser_fail(p, e->line, "%s: an empty entry in the list '%s' (%s)", e->key,
                           e->value, where);
            return -1;
        }
        if (*s == ',') {
            after_comma = 1;
            *s++ = '\0';
            continue;
        }
        if (*s == '\0') {
            if (after_comma && n > 0) {
                vb_parser_fail(p, e->line, "%s: an empty entry in the list '%s' (after its last "
                                           "comma)",
                               e->key, e->value);
                return -1;
            }
            return n;
        }
        items[n++] = s; /* at most VB_CASE_LIST_MAX: each takes a character and a separator */
        s += strcspn(s, ", \t");
        after_comma = 0;
        if (*s != ',' && *s != '\0')
            *s++ = '\0';
    }
}

int vb_parser_number(vb_parser *p, const vb_entry *e, double *out)
{
    if (vb_parse_double(e->value, out) != 0) {
        vb_parser_fail(p, e->line, "%s: '%s' %s", e->key, e->value, vb_number_refusal(e->value));
        return -1;
    }
    return 0;
}

int vb_parser_whole(vb_parser *p, const vb_entry *e, int lo, int hi, int *out)
{
    double x;
    if (vb_parse_double(e->value, &x) != 0 || x != floor(x)) {
        vb_parser_fail(p, e->line, "%s: '%s' is not a whole number", e->key, e->value);
        return -1;
    }
    if (x < lo || x > hi) {
        vb_parser_fail(p, e->line, "%s = %s is out of range: %s must be in %d..%d", e->key,
                       e->value, e->key, lo, hi);
        return -1;
    }
    *out = (int)x;
    return 0;
}

/* The text parsed into entries, its sections checked; NULL with err. */
vb_parser *vb_parser_read(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
    vb_parser *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    p->path = path;
    p->text = text;
    p->len = len;
    /* a UTF-8 byte-order mark is allowed, as inih allows it */
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        p->pos = 3;
    int rc = ini_parse_stream(reader, p, handler, p);
    if (rc > 0 && !p->failed)
        vb_parser_fail(p, (unsigned long)rc, "syntax error: expected '[section]' or 'key = value'");
    if (!p->failed) {
        const char *missing = NULL;
        for (size_t i = 0; i < 3 && !missing; i++) {
            int seen = 0;
            for (int k = 0; k < p->n_sections; k++)
                seen |= strcmp(p->sections[k], known_sections[i]) == 0;
            if (!seen)
                missing = known_sections[i];
        }
        if (missing)
            vb_parser_fail(p, p->line ? p->line : 1, "section [%s] is missing", missing);
    }
    if (p->failed) {
        snprintf(err, errlen, "%s", p->err);
        free(p);
        return NULL;
    }
    return p;
}
