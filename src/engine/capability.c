/* capability.c — an engine's capability line (docs/real-engines.md §1.2,
 * §4.1, §6.1, §7): "# verletbench-engine protocol=2 persistent=1
 * precision=float32 velocity=derived substeps=4 engine=NAME@VERSION", and
 * from protocol 3 on angvel=world|body, read key by key, each key at most
 * once, a value not in its list refused with the token. */
#include "capability.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const velocity_names[] = {"state", "derived", "none"};
static const char *const angvel_names[] = {"world", "body"};

const char *vb_velocity_kind_name(vb_velocity_kind v)
{
    return (unsigned)v < 3 ? velocity_names[v] : "?";
}

const char *vb_angvel_frame_name(vb_angvel_frame f)
{
    return (unsigned)f < 2 ? angvel_names[f] : "?";
}

/* a whole number lo..hi, all of the text */
static int whole(const char *s, size_t n, long lo, long hi, long *out)
{
    char text[24];
    if (n == 0 || n >= sizeof text || s[0] < '0' || s[0] > '9')
        return -1;
    memcpy(text, s, n);
    text[n] = '\0';
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (*end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int vb_engine_caps_parse(const char *s, vb_engine_caps *caps, char *err, size_t errlen)
{
    static const char *const keys[] = {"protocol", "precision", "persistent", "velocity",
                                       "substeps", "engine",    "angvel"};
    enum { NKEYS = sizeof keys / sizeof keys[0] };
    int seen[NKEYS] = {0};
    *caps = (vb_engine_caps){0};
    const char *p = s + strlen("# verletbench-engine");
    const char *angvel = NULL; /* the token, for a message once the protocol is known */
    size_t angvel_len = 0;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        size_t n = strcspn(p, " \t\r");
        if (!n)
            break;
        const char *eq = memchr(p, '=', n);
        size_t kl = eq ? (size_t)(eq - p) : n;
        const char *val = eq ? eq + 1 : p + n;
        size_t vl = (size_t)(p + n - val);
        int k = 0;
        while (k < NKEYS && !(strlen(keys[k]) == kl && !strncmp(p, keys[k], kl)))
            k++;
        const char *want = NULL;
        if (k == NKEYS || !eq) {
            want = "keys are protocol, persistent, precision, velocity, substeps, engine and "
                   "(protocol 3) angvel, each as KEY=VALUE";
        } else if (seen[k]++) {
            want = "a key given twice";
        } else if (k == 0) {
            long v;
            if (whole(val, vl, 1, 1000000, &v) != 0)
                want = "want a whole number";
            else if (v > VB_ENGINE_PROTOCOL_STACK) {
                snprintf(err, errlen,
                         "its capability line says protocol=%ld; this verletbench speaks 1 to %d",
                         v, VB_ENGINE_PROTOCOL_STACK);
                return -1;
            } else
                caps->protocol = (int)v;
        } else if (k == 1) {
            char text[16];
            vb_precision pr;
            snprintf(text, sizeof text, "%.*s", (int)(vl < 15 ? vl : 15), val);
            if (vl >= 15 || vb_precision_parse(text, &pr) != 0)
                want = "want float64 or float32";
            else
                caps->precision = pr;
        } else if (k == 2) {
            long v;
            if (whole(val, vl, 0, 1, &v) != 0)
                want = "want 0 or 1";
            else
                caps->persistent = (int)v;
        } else if (k == 3) {
            int v = 0;
            while (v < 3 && !(strlen(velocity_names[v]) == vl && !strncmp(val, velocity_names[v], vl)))
                v++;
            if (v == 3)
                want = "want state, derived or none";
            else
                caps->velocity = (vb_velocity_kind)v;
        } else if (k == 4) {
            long v;
            if (whole(val, vl, 1, 1000000, &v) != 0)
                want = "want a whole number from 1";
            else
                caps->substeps = (int)v;
        } else if (k == 6) {
            int v = 0;
            while (v < 2 && !(strlen(angvel_names[v]) == vl && !strncmp(val, angvel_names[v], vl)))
                v++;
            if (v == 2)
                want = "want world or body (the frame of a rigid body's wx, wy, wz)";
            else {
                caps->angvel = (vb_angvel_frame)v;
                caps->angvel_said = 1;
                angvel = p;
                angvel_len = n;
            }
        } else {
            /* the last '@': an npm name may begin with one (@scope/name) */
            const char *at = NULL;
            for (const char *c = val; c < val + vl; c++)
                if (*c == '@')
                    at = c;
            if (!at || at == val || at == val + vl - 1 || vl >= sizeof caps->engine)
                want = "want NAME@VERSION";
            else
                snprintf(caps->engine, sizeof caps->engine, "%.*s", (int)vl, val);
        }
        if (want) {
            snprintf(err, errlen, "capability '%.*s': %s", (int)(n > 60 ? 60 : n), p, want);
            return -1;
        }
        p += n;
    }
    if (!seen[0]) {
        snprintf(err, errlen,
                 "its capability line has no protocol= (want protocol=%d, %d for a rigid body, "
                 "%d for a body at a contact, %d for a stack of bodies)",
                 VB_ENGINE_PROTOCOL, VB_ENGINE_PROTOCOL_BODY, VB_ENGINE_PROTOCOL_CONTACT,
                 VB_ENGINE_PROTOCOL_STACK);
        return -1;
    }
    /* a version-3 key: a version-2 line with it is refused as any unknown
     * key is (docs/real-engines.md §4.1) */
    if (angvel && caps->protocol < VB_ENGINE_PROTOCOL_BODY) {
        snprintf(err, errlen,
                 "capability '%.*s': a key of protocol 3 (a rigid body), but the line says "
                 "protocol=%d",
                 (int)(angvel_len > 60 ? 60 : angvel_len), angvel, caps->protocol);
        return -1;
    }
    return 0;
}

void vb_engine_caps_says(const vb_engine_caps *c, char *buf, size_t len)
{
    if (c)
        snprintf(buf, len, "its capability line says protocol=%d", c->protocol);
    else
        snprintf(buf, len, "it has no capability line: protocol 1");
}

int vb_engine_caps_differ(const vb_engine_caps *a, const vb_engine_caps *was, char *buf,
                          size_t len)
{
    if (a->protocol != was->protocol)
        snprintf(buf, len, "protocol=%d, was %d", a->protocol, was->protocol);
    else if (a->persistent != was->persistent)
        snprintf(buf, len, "persistent=%d, was %d", a->persistent, was->persistent);
    else if (a->precision != was->precision)
        snprintf(buf, len, "precision=%s, was %s", vb_precision_name(a->precision),
                 vb_precision_name(was->precision));
    else if (a->velocity != was->velocity)
        snprintf(buf, len, "velocity=%s, was %s", vb_velocity_kind_name(a->velocity),
                 vb_velocity_kind_name(was->velocity));
    else if (a->angvel != was->angvel)
        snprintf(buf, len, "angvel=%s, was %s", vb_angvel_frame_name(a->angvel),
                 vb_angvel_frame_name(was->angvel));
    else if (a->substeps != was->substeps)
        snprintf(buf, len, "substeps=%d, was %d", a->substeps, was->substeps);
    else if (strcmp(a->engine, was->engine) != 0)
        snprintf(buf, len, "engine=%s, was %s", a->engine[0] ? a->engine : "(none)",
                 was->engine[0] ? was->engine : "(none)");
    else
        return 0;
    return 1;
}
