/* capability.h — an engine's capability line read and compared
 * (capability.c; docs/real-engines.md §1.2, §4.1, §6.1), for trajectory.c
 * and scene.c.
 * Inside engine/ only. */
#ifndef VB_CAPABILITY_H
#define VB_CAPABILITY_H

#include <stddef.h>

#include "engine.h"

/* A capability line ("# verletbench-engine ...", at s) into *caps: 0, or
 * -1 with a message naming the token. */
int vb_engine_caps_parse(const char *s, vb_engine_caps *caps, char *err, size_t errlen);
/* What an engine's capability line (c; NULL: none) says of its protocol,
 * for a refusal: "its capability line says protocol=2", "it has no
 * capability line: protocol 1". */
void vb_engine_caps_says(const vb_engine_caps *c, char *buf, size_t len);
/* The first declaration two capability lines differ in, as "KEY=VALUE,
 * was VALUE"; 0 when they agree. */
int vb_engine_caps_differ(const vb_engine_caps *a, const vb_engine_caps *was, char *buf,
                          size_t len);

#endif
