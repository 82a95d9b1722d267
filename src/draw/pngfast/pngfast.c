/* pngfast.c — a small library that `verletbench draw` preloads into the
 * gnuplot it starts (LD_PRELOAD; build/pngfast.so, installed beside the
 * binary's lib/verletbench/).  Not part of verletbench itself: it is built on
 * its own and linked into nothing.
 *
 * gnuplot's pngcairo terminal hands each chart to cairo, whose PNG writer
 * leaves libpng at its defaults: zlib level 6, and every row tried with all
 * five PNG filters to pick the best ("adaptive" filtering).  On our charts,
 * mostly flat white with thin lines, that search is wasted: measured with
 * callgrind on 20 charts of two cases, writing the PNGs took 69 % of
 * gnuplot's instructions, 35 % in libpng's filter search alone.  With no
 * filter and zlib level 3 the same charts took 52 % fewer instructions and
 * their files were 10 % smaller.  A PNG is lossless: the pixels are the same
 * whatever the filter and level (draw's charts are compared pixel by pixel
 * in docs/speed.md); only the compressed bytes differ.
 *
 * It replaces one libpng call, png_set_IHDR (cairo makes it once a file,
 * before any row is written): the real one is called, then the filter and
 * level are set on the same png_struct.  The library is looked up at run
 * time (dlsym RTLD_NEXT), so this file needs no libpng headers and does
 * nothing in a process that never writes a PNG. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>

/* from libpng 1.6's png.h: PNG_FILTER_TYPE_BASE (line 682), PNG_FILTER_NONE
 * (line 1465) */
#define FILTER_TYPE_BASE 0
#define FILTER_NONE 0x08
/* zlib's level: 3 compresses our charts better than the default 6 does
 * once the filters are off, at the cost of level 1 (measured) */
#define LEVEL 3

typedef void set_ihdr_fn(void *, void *, uint32_t, uint32_t, int, int, int, int, int);
typedef void set_filter_fn(void *, int, int);
typedef void set_level_fn(void *, int);

void png_set_IHDR(void *png, void *info, uint32_t width, uint32_t height, int bit_depth,
                  int color_type, int interlace, int compression, int filter);

void png_set_IHDR(void *png, void *info, uint32_t width, uint32_t height, int bit_depth,
                  int color_type, int interlace, int compression, int filter)
{
    set_ihdr_fn *real = (set_ihdr_fn *)dlsym(RTLD_NEXT, "png_set_IHDR");
    set_filter_fn *set_filter = (set_filter_fn *)dlsym(RTLD_NEXT, "png_set_filter");
    set_level_fn *set_level = (set_level_fn *)dlsym(RTLD_NEXT, "png_set_compression_level");
    if (!real)
        return; /* cannot happen: the caller linked libpng to call it */
    real(png, info, width, height, bit_depth, color_type, interlace, compression, filter);
    if (set_filter)
        set_filter(png, FILTER_TYPE_BASE, FILTER_NONE);
    if (set_level)
        set_level(png, LEVEL);
}
