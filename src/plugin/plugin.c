/* plugin.c — load integrators and models from a shared object. */
#include "plugin.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "integrator.h"
#include "model.h"

/* The plugins loaded: each one's file name, content hash and table, kept
 * until exit as the plugins themselves are. */
#define MAX_PLUGINS 64
static struct {
    char file[256];
    unsigned long long hash;
    const vb_plugin *table;
} loaded[MAX_PLUGINS];
static size_t n_loaded;

/* FNV-1a over the file's bytes; 0 and -1 when it cannot be read */
static int content_hash(const char *path, unsigned long long *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    unsigned long long h = 1469598103934665603ULL;
    unsigned char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < n; i++)
            h = (h ^ buf[i]) * 1099511628211ULL;
    int bad = ferror(f);
    fclose(f);
    *out = h;
    return bad ? -1 : 0;
}

static const char *plugin_of(const char *name, int model, unsigned long long *hash)
{
    for (size_t k = 0; name && k < n_loaded; k++) {
        const vb_plugin *p = loaded[k].table;
        size_t n = model ? p->n_models : p->n_integrators;
        for (size_t i = 0; i < n; i++)
            if (!strcmp(model ? p->models[i]->name : p->integrators[i]->name, name)) {
                *hash = loaded[k].hash;
                return loaded[k].file;
            }
    }
    return NULL;
}

const char *vb_plugin_of_integrator(const char *name, unsigned long long *hash)
{
    return plugin_of(name, 0, hash);
}

const char *vb_plugin_of_model(const char *name, unsigned long long *hash)
{
    return plugin_of(name, 1, hash);
}

int vb_plugin_code(const vb_integrator *g, const vb_model *m)
{
    unsigned long long h;
    return (g && vb_plugin_of_integrator(vb_integrator_type(g)->name, &h)) ||
           (m && vb_plugin_of_model(m->type->name, &h));
}

static double plugin_timeout = VB_PLUGIN_TIMEOUT;
void vb_plugin_set_timeout(double seconds) { plugin_timeout = seconds; }
double vb_plugin_timeout(void) { return plugin_timeout; }

int vb_plugin_load(const char *path, char *err, size_t errlen)
{
    /* dlopen searches the library path for a bare name; a user who types
     * "my.so" means the file here */
    char local[4096];
    if (!strchr(path, '/')) {
        snprintf(local, sizeof local, "./%s", path);
        path = local;
    }
    /* RTLD_NOW: an unresolved symbol is reported here, not mid-sweep */
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        snprintf(err, errlen, "--plugin %s: cannot load: %s", path, why ? why : "unknown error");
        return -1;
    }
    /* The handle is kept open: its integrators are used until exit. */
    const vb_plugin *p = dlsym(h, VB_PLUGIN_SYMBOL);
    if (!p) {
        snprintf(err, errlen, "--plugin %s: no symbol '%s': not a verletbench plugin", path,
                 VB_PLUGIN_SYMBOL);
        dlclose(h);
        return -1;
    }
    if (p->abi_version < VB_ABI_VERSION_OLDEST || p->abi_version > VB_ABI_VERSION) {
        snprintf(err, errlen,
                 "--plugin %s: built for plugin ABI version %u, this verletbench has version %d "
                 "(and loads %d): rebuild it against this verletbench.h",
                 path, p->abi_version, VB_ABI_VERSION, VB_ABI_VERSION_OLDEST);
        dlclose(h);
        return -1;
    }
    if (p->n_integrators > 64 || p->n_models > 64 || (p->n_integrators && !p->integrators) ||
        (p->n_models && !p->models) || p->n_integrators + p->n_models == 0) {
        snprintf(err, errlen,
                 "--plugin %s: malformed table: %zu integrators and %zu models (want 0..64 "
                 "each, at least one in all, with their arrays)",
                 path, p->n_integrators, p->n_models);
        dlclose(h);
        return -1;
    }
    unsigned long long hash;
    if (n_loaded == MAX_PLUGINS || content_hash(path, &hash) != 0) {
        snprintf(err, errlen, "--plugin %s: %s", path,
                 n_loaded == MAX_PLUGINS ? "more than 64 plugins" : "cannot read it");
        dlclose(h);
        return -1;
    }
    /* validate every entry before registering any, so a bad plugin adds nothing */
    char why[512];
    for (size_t i = 0; i < p->n_integrators; i++) {
        /* a version-2 entry ends before set_tolerance: read no further */
        if (p->abi_version < 3 && p->integrators[i] &&
            (p->integrators[i]->flags & VB_ADAPTIVE)) {
            snprintf(err, errlen, "--plugin %s: integrator entry %zu: VB_ADAPTIVE needs ABI 3",
                     path, i);
            dlclose(h);
            return -1;
        }
        if (vb_integrator_validate_abi(p->integrators[i], p->abi_version, why, sizeof why) != 0) {
            snprintf(err, errlen, "--plugin %s: integrator entry %zu: %s", path, i, why);
            dlclose(h);
            return -1;
        }
        for (size_t k = 0; k < i; k++)
            if (strcmp(p->integrators[k]->name, p->integrators[i]->name) == 0) {
                snprintf(err, errlen, "--plugin %s: the name '%s' appears twice", path,
                         p->integrators[i]->name);
                dlclose(h);
                return -1;
            }
        if (vb_integrator_find(p->integrators[i]->name)) {
            snprintf(err, errlen, "--plugin %s: integrator name '%s' is already taken", path,
                     p->integrators[i]->name);
            dlclose(h);
            return -1;
        }
    }
    for (size_t i = 0; i < p->n_models; i++) {
        if (vb_model_validate_abi(p->models[i], p->abi_version, why, sizeof why) != 0) {
            snprintf(err, errlen, "--plugin %s: model entry %zu: %s", path, i, why);
            dlclose(h);
            return -1;
        }
        for (size_t k = 0; k < i; k++)
            if (strcmp(p->models[k]->name, p->models[i]->name) == 0) {
                snprintf(err, errlen, "--plugin %s: the model name '%s' appears twice", path,
                         p->models[i]->name);
                dlclose(h);
                return -1;
            }
        if (vb_model_find(p->models[i]->name)) {
            snprintf(err, errlen, "--plugin %s: model name '%s' is already taken", path,
                     p->models[i]->name);
            dlclose(h);
            return -1;
        }
    }
    const char *base = strrchr(path, '/');
    snprintf(loaded[n_loaded].file, sizeof loaded[n_loaded].file, "%.255s", base ? base + 1 : path);
    loaded[n_loaded].hash = hash;
    loaded[n_loaded++].table = p;
    for (size_t i = 0; i < p->n_integrators; i++)
        if (vb_integrator_register_abi(p->integrators[i], p->abi_version, why, sizeof why) != 0) {
            snprintf(err, errlen, "--plugin %s: %s", path, why);
            return -1; /* only past the limit of 64 plugin integrators in all */
        }
    for (size_t i = 0; i < p->n_models; i++)
        if (vb_model_register_abi(p->models[i], p->abi_version, why, sizeof why) != 0) {
            snprintf(err, errlen, "--plugin %s: %s", path, why);
            return -1; /* only past the limit of 64 plugin models in all */
        }
    return 0;
}
