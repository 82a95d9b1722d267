/* engine.c — an external engine (docs/engines.md): its name, order and
 * command or directory, made into an entry of the integrator table that
 * is never stepped.  Its runs: trajectory.c and process.c; its requests:
 * request.c; a trajectory's header: header.c. */
#include "engine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "integrator.h"
#include "numbers.h"

/* never called: an engine is not stepped (VB_ENGINE_FLAG) */
static size_t no_state(size_t n)
{
    (void)n;
    return 1;
}
static void no_start(void *s, vb_force *f, double t, const double *x, const double *v, double h)
{
    (void)s, (void)f, (void)t, (void)x, (void)v, (void)h;
}
static void no_step(void *s, vb_force *f, double t, double h)
{
    (void)s, (void)f, (void)t, (void)h;
}
static void no_observe(const void *s, double *x, double *v) { (void)s, (void)x, (void)v; }
static void no_reverse(void *s) { (void)s; }

static int name_ok(const char *s, size_t n)
{
    if (n == 0 || n >= 64)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-' ||
              s[i] == '_'))
            return 0;
    return 1;
}

int vb_engine_check_name(const char *name, char *err, size_t errlen)
{
    if (strlen(name) > 63) {
        snprintf(err, errlen, "engine name '%.40s...': at most 63 characters", name);
        return -1;
    }
    if (!name_ok(name, strlen(name))) {
        snprintf(err, errlen, "engine name '%.64s': use a-z, 0-9, '-' and '_' (at most 63)", name);
        return -1;
    }
    if (vb_integrator_find(name)) {
        /* tables and baselines would mistake one for the other */
        snprintf(err, errlen, "engine name '%s' is an integrator's: choose another", name);
        return -1;
    }
    if (!strcmp(name, "exact")) {
        snprintf(err, errlen, "engine name 'exact' is reserved (the charts' exact path)");
        return -1;
    }
    return 0;
}

/* what vb_engine_new refuses: 0, or -1 with a message */
static int parts_ok(const char *name, int order, const char *command, const char *dir,
                    double timeout, char *err, size_t errlen)
{
    if (vb_engine_check_name(name, err, errlen) != 0)
        return -1;
    if (order < 0 || order > 16) {
        snprintf(err, errlen, "engine %s: order %d: give the order its method has, 1 to 16",
                 name, order);
        return -1;
    }
    if (!(timeout > 0.0) || !(timeout <= 1e6)) {
        snprintf(err, errlen, "engine %s: timeout %g s: give 0 < seconds <= 1e6", name, timeout);
        return -1;
    }
    if ((command && !command[0]) || (dir && !dir[0]) || (!command == !dir)) {
        snprintf(err, errlen, "engine %s: %s", name, dir ? "no directory" : "no command");
        return -1;
    }
    return 0;
}

vb_engine *vb_engine_new(const char *name, int order, const char *command, const char *dir,
                         const char *cwd, double timeout, char *err, size_t errlen)
{
    if (parts_ok(name, order, command, dir, timeout, err, errlen) != 0)
        return NULL;
    vb_engine *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(e->name, sizeof e->name, "%s", name);
    snprintf(e->summary, sizeof e->summary, "%s %.120s", dir ? "trajectories from" : "engine:",
             dir ? dir : command);
    /* one line: a command with a line break would break the tables */
    for (char *c = e->summary; *c; c++)
        if ((unsigned char)*c < 0x20)
            *c = ' ';
    e->command = command ? strdup(command) : NULL;
    e->dir = dir ? strdup(dir) : NULL;
    e->cwd = cwd ? strdup(cwd) : NULL;
    e->timeout = timeout;
    e->shared = vb_engine_shared_new();
    if ((command && !e->command) || (dir && !e->dir) || (cwd && !e->cwd) || !e->shared) {
        vb_engine_free(e);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    e->integ = (vb_integrator){
        .name = e->name, .summary = e->summary, .order = order, .flags = VB_ENGINE_FLAG,
        .state_size = no_state, .start = no_start, .step = no_step, .observe = no_observe,
        .reverse = no_reverse,
    };
    return e;
}

int vb_engine_spec_parse(const char *spelling, int is_dir, vb_engine_spec *s, char *err,
                         size_t errlen)
{
    const char *colon = strchr(spelling, ':'), *eq = strchr(spelling, '=');
    if (!eq) {
        snprintf(err, errlen, "'%.80s': want NAME:ORDER=%s or NAME=%s (for example my-vv:2=%s)",
                 spelling, is_dir ? "DIR" : "COMMAND", is_dir ? "DIR" : "COMMAND",
                 is_dir ? "traj/" : "'python3 engine.py'");
        return -1;
    }
    /* a name has no ':' or '=': NAME=... is an engine measured without a
     * label, and a ':' after the '=' is the command's */
    if (colon && colon > eq)
        colon = NULL;
    size_t n = (size_t)((colon ? colon : eq) - spelling);
    if (n >= sizeof s->name) {
        snprintf(err, errlen, "'%.40s...': the name before '%c' is at most 63 characters",
                 spelling, colon ? ':' : '=');
        return -1;
    }
    if (!name_ok(spelling, n)) {
        snprintf(err, errlen, "'%.80s': the name before '%c' must be a-z, 0-9, '-', '_'",
                 spelling, colon ? ':' : '=');
        return -1;
    }
    memcpy(s->name, spelling, n);
    s->name[n] = '\0';
    /* the order a whole number as any other (numbers.h) */
    char order_text[8] = "0";
    unsigned long long order = 0;
    if (colon && (size_t)(eq - colon - 1) < sizeof order_text)
        snprintf(order_text, sizeof order_text, "%.*s", (int)(eq - colon - 1), colon + 1);
    if (colon && ((size_t)(eq - colon - 1) >= sizeof order_text ||
                  vb_parse_whole(order_text, 16, &order) != 0 || order < 1)) {
        snprintf(err, errlen, "'%.80s': the order between ':' and '=' must be 1 to 16", spelling);
        return -1;
    }
    s->order = (int)order;
    s->command = is_dir ? NULL : eq + 1;
    s->dir = is_dir ? eq + 1 : NULL;
    if (is_dir && eq[1]) {
        /* said now, not as every run failing on its missing file */
        struct stat st;
        const char *bad = NULL;
        if (stat(eq + 1, &st) != 0)
            bad = errno == ENOENT || errno == ENOTDIR ? "no such directory" : strerror(errno);
        else if (!S_ISDIR(st.st_mode))
            bad = "not a directory (one trajectory file: verletbench score FILE)";
        if (bad) {
            snprintf(err, errlen, "%.200s: %s", eq + 1, bad);
            return -1;
        }
    }
    /* what vb_engine_new would refuse, said now: the name an integrator's
     * or reserved, an empty command or directory */
    return parts_ok(s->name, s->order, s->command, s->dir, VB_ENGINE_TIMEOUT, err, errlen);
}

vb_engine *vb_engine_from_spec(const vb_engine_spec *s, double timeout, const char *cwd,
                               char *err, size_t errlen)
{
    return vb_engine_new(s->name, s->order, s->command, s->dir, cwd, timeout, err, errlen);
}

vb_engine *vb_engine_parse(const char *spelling, int is_dir, char *err, size_t errlen)
{
    vb_engine_spec s;
    if (vb_engine_spec_parse(spelling, is_dir, &s, err, errlen) != 0)
        return NULL;
    return vb_engine_from_spec(&s, VB_ENGINE_TIMEOUT, NULL, err, errlen);
}

vb_velocity_kind vb_engine_velocity_of(const vb_integrator *g)
{
    const vb_engine *e = vb_engine_of(g);
    vb_engine_caps c;
    return e && vb_engine_caps_of(e, &c) ? c.velocity : VB_VELOCITY_STATE;
}

int vb_engine_without_velocity(const vb_integrator *g)
{
    return vb_engine_velocity_of(g) == VB_VELOCITY_NONE;
}

void vb_engine_provenance(const vb_engine *e, char *buf, size_t len)
{
    vb_engine_caps c;
    int known = vb_engine_caps_of(e, &c);
    int w = snprintf(buf, len, "engine %s: %.300s", e->name,
                     e->command ? e->command : (e->file ? e->file : e->dir));
    if (w < 0 || (size_t)w >= len)
        return;
    if (!known) {
        snprintf(buf + w, len - (size_t)w, "; protocol 1");
    } else {
        char sub[32] = "";
        if (c.substeps)
            snprintf(sub, sizeof sub, ", %d substep%s", c.substeps, c.substeps == 1 ? "" : "s");
        /* protocol 3: the frame its bodies' angular velocity comes in (an
         * engine of a body at a contact, protocol 4, says it when its body
         * turns) */
        char frame[32] = "";
        if (c.protocol == VB_ENGINE_PROTOCOL_BODY || c.angvel_said)
            snprintf(frame, sizeof frame, ", angvel %s", vb_angvel_frame_name(c.angvel));
        snprintf(buf + w, len - (size_t)w, "; %s%sprotocol %d, %s%s, velocity %s%s%s",
                 c.engine[0] ? c.engine : "", c.engine[0] ? "; " : "", c.protocol,
                 c.persistent ? "persistent, " : "", vb_precision_name(c.precision),
                 vb_velocity_kind_name(c.velocity), frame, sub);
    }
    /* one line: a command with a line break would break the file */
    for (char *p = buf; *p; p++)
        if ((unsigned char)*p < 0x20)
            *p = ' ';
}

void vb_engine_free(vb_engine *e)
{
    if (!e)
        return;
    if (e->shared) {
        vb_engine_close_workers(e);
        vb_engine_shared_free(e->shared);
    }
    free(e->command);
    free(e->dir);
    free(e->file);
    free(e->cwd);
    free(e);
}
