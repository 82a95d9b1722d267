/* provenance.c — how every file verletbench writes says how it was made. */
#include "provenance.h"

/* generated from VERSION, git and the sources: VB_VERSION, VB_GIT_HASH, VB_BUILD_ID */
#include "version.h"

const char *vb_version(void) { return VB_VERSION; }

const char *vb_version_text(void)
{
    return VB_GIT_HASH[0] ? VB_VERSION " (git " VB_GIT_HASH ")" : VB_VERSION;
}

const char *vb_build_id(void) { return VB_BUILD_ID; }
