/* plugin.c — load integrators from a shared object. */
#include "plugin.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "integrator.h"

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
    if (p->abi_version != VB_ABI_VERSION) {
        snprintf(err, errlen,
                 "--plugin %s: built for plugin ABI version %u, this verletbench has version %d: "
                 "rebuild it against this verletbench.h",
                 path, p->abi_version, VB_ABI_VERSION);
        dlclose(h);
        return -1;
    }
    if (p->count == 0 || p->count > 64 || !p->integrators) {
        snprintf(err, errlen, "--plugin %s: malformed table: count %zu (want 1..64)%s", path,
                 p->count, p->integrators ? "" : " and no integrators array");
        dlclose(h);
        return -1;
    }
    /* validate every entry before registering any, so a bad plugin adds nothing */
    char why[512];
    for (size_t i = 0; i < p->count; i++) {
        if (vb_integrator_validate(p->integrators[i], why, sizeof why) != 0) {
            snprintf(err, errlen, "--plugin %s: entry %zu: %s", path, i, why);
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
    for (size_t i = 0; i < p->count; i++)
        if (vb_integrator_register(p->integrators[i], why, sizeof why) != 0) {
            snprintf(err, errlen, "--plugin %s: %s", path, why);
            return -1; /* only past the limit of 64 plugin integrators in all */
        }
    return 0;
}
