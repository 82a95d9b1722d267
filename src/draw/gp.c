/* gp.c — writing gnuplot programs (gp.h). */
#include "gp.h"

#include <math.h>
#include <string.h>

void vb_gp_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p == '`' || *p < 0x20 || *p == 0x7f)
            fprintf(f, "\\%03o", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

void vb_gp_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.17g", v);
    else
        fputs("NaN", f);
}

void vb_gp_begin(vb_chart *ch, double w, double h, int pt, double lw, int butt)
{
    FILE *f = ch->f;
    ch->blocks = 0;
    /* each chart starts from gnuplot's defaults, as a script of its own did */
    fputs("reset\n"
          "set encoding utf8\n"
          "set datafile separator comma\n"
          "set datafile nocolumnheaders\n"
          "set datafile missing \"\"\n"
          /* gnuplot otherwise installs and removes a SIGFPE handler and
           * saves the signal mask around every expression it evaluates:
           * three system calls a `using ($3-$1)` a row, half of a path
           * chart's CPU.  x86-64 and arm64 never trap on floating point (the
           * exceptions are masked), and gnuplot checks its own integer
           * division by zero, so the handler has nothing to catch here. */
          "set datafile nofpe_trap\n"
          "set grid xtics ytics mxtics mytics lc rgb \"#dddddd\" lw 0.6\n"
          "set border lw 1.0\n"
          "set key box opaque samplen 2.5 spacing 1.1 font \",9\"\n"
          "set tics font \",10\"\n",
          f);
    fprintf(f, "set terminal %s size %g, %g enhanced font \"DejaVu Sans,%d\" linewidth %g%s\n",
            ch->svg ? "svg" : "pngcairo", w, h, pt, lw, butt ? " butt" : "");
    fputs("set output ", f);
    vb_gp_str(f, ch->out);
    fputc('\n', f);
}

void vb_gp_end(vb_chart *ch) { fputs("unset output\n", ch->f); }

int vb_gp_block_begin(vb_chart *ch)
{
    int id = ++ch->blocks;
    fprintf(ch->f, "$c%d << EOD\n", id);
    return id;
}

void vb_gp_block_end(vb_chart *ch) { fputs("EOD\n", ch->f); }

size_t vb_utf8_len(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

double vb_key_px(size_t chars) { return (double)chars * 7.6 + 62.0; }

void vb_gp_margins(FILE *f, size_t keychars, double width)
{
    fprintf(f, "set lmargin at screen %.17g\nset rmargin at screen %.17g\n", 90.0 / width,
            1 - vb_key_px(keychars) / width);
}

const char *vb_plan_title(const char *plan, const char *random_title, const char *trace_title)
{
    return strcmp(plan, "fixed") == 0    ? "fixed steps"
           : strcmp(plan, "random") == 0 ? random_title
           : strcmp(plan, "trace") == 0  ? trace_title
                                         : plan;
}

void vb_trace_title(char *const *comments, size_t n, char *buf, size_t len)
{
    snprintf(buf, len, "recorded frame trace");
    for (size_t i = 0; i < n; i++) {
        const char *at = strstr(comments[i], " trace=");
        if (!at)
            continue;
        const char *t = at + 7, *slash = strrchr(t, '/');
        snprintf(buf, len, "recorded frame trace %s", slash ? slash + 1 : t);
        return;
    }
}
