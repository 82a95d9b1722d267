/* provenance.c — how every file verletbench writes says how it was made. */
#include "provenance.h"

#include <math.h>

#include "libraries.h"
#include "truth.h"

/* generated from VERSION, git and the sources: VB_VERSION, VB_GIT_HASH, VB_BUILD_ID */
#include "version.h"

const char *vb_version(void) { return VB_VERSION; }

const char *vb_version_text(void)
{
    return VB_GIT_HASH[0] ? VB_VERSION " (git " VB_GIT_HASH ")" : VB_VERSION;
}

const char *vb_build_id(void) { return VB_BUILD_ID; }

void vb_libraries_provenance(FILE *f)
{
    char v[256];
    vb_library_versions(v, sizeof v);
    fprintf(f, "# libraries: %s\n", v);
}

void vb_markdown_provenance(FILE *f, const char *what)
{
    char v[256];
    vb_library_versions(v, sizeof v);
    fprintf(f, "<!-- verletbench %s %s; libraries: %s -->\n\n", vb_version_text(), what, v);
}

/* A reference solution's own error, the largest over every run of the
 * sweep, in position and velocity; 0 and 0 for an exact solution. */
static int reference_error(const vb_sweep *s, double *pos, double *vel)
{
    *pos = *vel = 0.0;
    int any = 0;
    for (size_t k = 0; k < s->n_jobs; k++)
        if (s->jobs[k].res.has_reference) {
            any = 1;
            *pos = fmax(*pos, s->jobs[k].res.ref_err_pos);
            *vel = fmax(*vel, s->jobs[k].res.ref_err_vel);
        }
    return any;
}

void vb_sweep_provenance(FILE *f, const vb_sweep *s, const char *what)
{
    const vb_case *c = s->c;
    const vb_model *m = &c->model;
    fprintf(f, "# verletbench %s: %s of %s\n", vb_version_text(), what, c->path);
    vb_libraries_provenance(f);
    if (c->description)
        fprintf(f, "# %s\n", c->description);
    if (c->grid) {
        /* which point of the file's grid, and the grid as written */
        fprintf(f, "# grid point %zu of %zu: %s (", c->grid->point + 1, c->grid->points,
                c->grid->label);
        for (int k = 0; k < c->grid->n_keys; k++)
            fprintf(f, "%s%s = %s", k ? "; " : "", c->grid->key[k], c->grid->spec[k]);
        fputs(")\n", f);
    }
    fprintf(f, "# model=%s", m->type->name);
    for (unsigned i = 0; i < m->type->n_params; i++)
        if (vb_param_said(&m->type->params[i], m->p[i]))
            fprintf(f, " %s=%.17g", m->type->params[i].name, m->p[i]);
    fprintf(f, " t_end=%.17g\n# dt=%.17g halvings=%d jitter=%.17g seeds=%d", c->t_end, c->dt,
            c->halvings, c->jitter, c->seeds);
    if (c->trace_path)
        fprintf(f, " trace=%s (%zu steps)", c->trace_path, c->trace.n);
    /* the adaptive methods' tolerance at level 0, where there are any */
    if (c->profile.measures & VB_MEASURE_TOLERANCE)
        fprintf(f, " tolerance=%.17g", c->tolerance);
    fputs("\n# integrators=", f);
    for (size_t i = 0; i < c->n_integ; i++)
        fprintf(f, "%s%s", i ? "," : "", c->integ[i]->name);
    fputc('\n', f);
    /* each engine's command, and what it declared: its name and version
     * (engine=NAME@VERSION), protocol, precision, velocity
     * (docs/real-engines.md §1.10) */
    for (size_t i = 0; i < c->n_integ; i++) {
        char line[1024];
        if (vb_runner_provenance(c->integ[i], line, sizeof line))
            fprintf(f, "# %s\n", line);
    }
    double ep, ev;
    if (reference_error(s, &ep, &ev))
        fprintf(f, "# truth: no exact solution; a reference by GSL's rk8pd at tolerance %g, "
                   "whose own error, measured against a second at %g, is at most %.3g in "
                   "position and %.3g in velocity over every run; errors below %g times "
                   "that are below its resolution and never fitted\n",
                VB_REF_TOL, VB_REF_TOL / VB_REF_TOL_RATIO, ep, ev, VB_REF_RESOLUTION);
}
