/* commands/list.c — `verletbench list`: what can be run. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "handler.h"
#include "plugin.h"
#include "integrator.h"
#include "model.h"
#include "rigid.h"
#include "rigid_method.h"
#include "schema.h"
#include "shardfile.h"
#include "orders_table.h"
#include "tables.h"
#include "study_tables.h"
#include "simulate.h"
#include "runs_table.h"
#include "rows.h"
#include "ratefiles.h"
#include "grid.h"
#include "contact_table.h"
#include "stack_table.h"
#include "rigidcontact.h" /* the solvers that take a world */
#include "stack.h" /* vb_stack_face */
#include "contact_orders_table.h"
#include "charts.h"
#include "body_table.h"

/* list --csv: a row an integrator, rigid-body method, model, rigid-body
 * model or contact handler, each cell text as RFC 4180 has it (quoted
 * when it holds a comma, a quote or a line break, its quotes doubled);
 * blank where the kind has no such thing */
typedef struct list_row {
    const char *kind, *name, *order, *symplectic, *dim, *params, *summary, *particles;
} list_row;

#define COLUMN(name, f)                                                                            \
    {name, VB_FMT_QUOTED, vb_get_text, offsetof(list_row, f), 0, NULL, 0, VB_READ, 0, 0, 0, 0}
static const vb_column csv_columns[] = {
    COLUMN("kind", kind),       COLUMN("name", name),     COLUMN("order", order),
    COLUMN("symplectic", symplectic), COLUMN("dim", dim), COLUMN("params", params),
    COLUMN("summary", summary), COLUMN("particles", particles),
};
static const vb_schema list_schema = VB_SCHEMA("list --csv", csv_columns);

/* text broken at spaces into lines of at most width columns (a word
 * longer than that on a line of its own), each indented by indent */
static void wrap(const char *text, int indent, int width)
{
    const char *s = text;
    while (*s) {
        int room = width - indent, n = (int)strlen(s);
        if (n > room) {
            n = room;
            while (n > 0 && s[n] != ' ')
                n--;
            if (n == 0) /* one long word */
                n = (int)strcspn(s, " ");
        }
        printf("%*s%.*s\n", indent, "", n, s);
        s += n;
        while (*s == ' ')
            s++;
    }
}

static void csv_row(const list_row *row) { vb_schema_row(stdout, &list_schema, 0, NULL, row); }

const vb_schema *const vb_tables[] = {
    /* run's, a case's directory (output/names.c) and a grid's */
    &vb_runs_schema, &vb_orders_schema, &vb_bands_schema, &vb_onestep_schema,
    &vb_onestep_orders_schema, &vb_reverse_schema, &vb_rates_schema, &vb_flips_schema,
    &vb_contact_schema, &vb_contact_orders_schema, &vb_stack_schema, &vb_conv_schema, &vb_series_schema,
    &vb_paths_schema,
    &vb_bounces_schema, &vb_rigid_series_schema, &vb_polhode_schema, &vb_timing_schema,
    &vb_grid_schema, &vb_body_schema, &vb_motion_schema, &vb_shard_schema,
    /* the studies', the benchmark's, the float32 sweep's (plots/float32-sweep.sh) */
    &vb_stab_schema, &vb_stab_summary_schema, &vb_longrun_schema, &vb_longrun_summary_schema,
    &vb_bench_schema, &vb_float32_schema,
    /* sim --trajectory, and this command's own */
    &vb_trajectory_schema, &vb_rigid_trajectory_schema, &list_schema};
const size_t vb_n_tables = sizeof vb_tables / sizeof vb_tables[0];

/* list --columns: a line a table, its name, then its columns as its header
 * has them; a column only some of its files have (a view's: runs.csv's
 * level, in a sweep's) in brackets, [,level]; a group of columns as many
 * as the table decides (a trajectory's state, a grid's keys) as NAME... */
static void print_columns(void)
{
    for (size_t k = 0; k < vb_n_tables; k++) {
        const vb_schema *s = vb_tables[k];
        printf("%s: ", s->file);
        for (size_t i = 0; i < s->n; i++) {
            const vb_column *c = &s->col[i];
            printf("%s%s%s%s%s", c->in ? "[" : "", i ? "," : "", c->name,
                   c->fmt == VB_FMT_GROUP ? "..." : "", c->in ? "]" : "");
        }
        putchar('\n');
    }
}

static void list(int csv);

int vb_cmd_list(int argc, char **argv)
{
    vb_shared_opts so = vb_shared_opts_plain(); /* only --plugin applies */
    int csv = 0, columns = 0;
    char csv_help[256] = "machine-readable:\n";
    vb_schema_header_text(csv_help + strlen(csv_help), sizeof csv_help - strlen(csv_help),
                          &list_schema, 0);
    const vb_option rows[] = {
        VB_OPT_FLAG("csv", &csv, csv_help),
        VB_OPT_FLAG("columns", &columns,
                    "the columns of every table verletbench writes, a line a\n"
                    "table: FILE: its header, a column some of its files lack\n"
                    "in brackets, a group of columns as NAME..."),
        VB_SHARED_PLUGINS(&so),
        VB_OPT_HELP,
        VB_OPT_END,
    };
    const vb_command_spec spec = {
        .name = "list",
        .options = rows,
        .operands = VB_OPERANDS_NONE,
        .usage =
            "Usage: verletbench list [--csv | --columns] [--plugin FILE]... [--plugin-timeout S]\n\n"
            "Lists every integrator (name, expected global order with fixed steps, whether it\n"
            "is symplectic, one line on what it does) and every model with its parameters\n"
            "and their defaults (set them with --set key=value), and its energy and where its\n"
            "potential energy is zero: err_energy_max is |E - E0|/|E0|, so that zero sets E0\n"
            "(docs/method.md §3); then the rigid-body methods and models, which run only\n"
            "with each other (docs/rigid.md; CSV kinds rigid-integrator, rigid-model), and\n"
            "the stack of boxes they run on inside a contact solver (CSV kind stack-model);\n"
            "then the contact handlers a method runs inside on a model with a contact\n"
            "(docs/contact.md).\n\n",
    };
    int first, rc = vb_options_parse(&spec, argc, argv, &first);
    if (rc != VB_OPTIONS_GO)
        return rc;
    if (columns && csv)
        return vb_usage_error("list", "--csv or --columns: one list at a time");
    if (columns)
        print_columns();
    else
        list(csv);
    return VB_EXIT_OK;
}

/* the integrators and the models, as text or CSV */
/* a model's parameters with their defaults, "k=1 m=1" */
static void param_defaults(const vb_model_type *t, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned k = 0; k < t->n_params && used < len; k++) {
        int n = snprintf(buf + used, len - used, "%s%s=%g", k ? " " : "", t->params[k].name,
                         t->params[k].def);
        if (n > 0)
            used += (size_t)n;
    }
}

static void list(int csv)
{
    if (csv)
        vb_schema_header(stdout, &list_schema, 0);
    else
        printf("Integrators (order = expected global order with fixed steps):\n"
               "  %-16s %-5s %-10s %s\n", "name", "order", "symplectic", "what it does");
    for (size_t i = 0; i < vb_integrator_count(); i++) {
        const vb_integrator *g = vb_integrator_at(i);
        const char *sym = (g->flags & VB_SYMPLECTIC) ? "yes" : "no";
        /* its parameters, set as NAME:KEY=VALUE (their defaults here) */
        char params[256];
        size_t used = 0;
        params[0] = '\0';
        for (unsigned k = 0; k < g->n_params && used < sizeof params; k++) {
            char def[32];
            vb_integrator_param_text(g, k, g->params[k].def, def, sizeof def);
            int w = snprintf(params + used, sizeof params - used, "%s%s=%s", k ? " " : "",
                             g->params[k].name, def);
            used += w > 0 ? (size_t)w : 0;
        }
        if (csv) {
            char order[16];
            snprintf(order, sizeof order, "%d", g->order);
            csv_row(&(list_row){"integrator", g->name, order, sym, "", params, g->summary, ""});
        } else {
            printf("  %-16s %-5d %-10s %s\n", g->name, g->order, sym, g->summary);
            if (g->n_params)
                printf("  %-16s %-5s %-10s parameters (%s:KEY=VALUE): %s\n", "", "", "", g->name,
                       params);
            for (unsigned k = 0; k < g->n_params; k++) /* what each is, and its range */
                printf("  %-16s %-5s %-10s   %s: %s\n", "", "", "", g->params[k].name,
                       g->params[k].help);
        }
    }
    /* the rotation methods of rigid bodies (docs/rigid.md §5): on the
     * rigid models only */
    if (!csv)
        printf("\nRigid-body methods (on the rigid-body models only; docs/rigid.md):\n"
               "  %-26s %-5s %-10s %s\n", "name", "order", "symplectic", "what it does");
    for (size_t i = 0; i < vb_rigid_method_count(); i++) {
        const vb_rigid_method *m = vb_rigid_method_at(i);
        const char *sym = (m->flags & VB_RIGID_SYMPLECTIC) ? "yes" : "no";
        char order[16];
        snprintf(order, sizeof order, "%d", m->order);
        if (csv) {
            csv_row(&(list_row){"rigid-integrator", m->name, order, sym, "", "", m->summary, ""});
        } else {
            printf("  %-26s %-5s %-10s %s\n", m->name, order, sym, m->summary);
            printf("  %-26s %-5s %-10s q: %s; centre of mass: %s\n", "", "", "",
                   vb_quat_update_text(m->quaternion), vb_translate_text(m->translation));
        }
    }
    if (!csv)
        printf("\nModels (parameters with their defaults):\n");
    for (size_t i = 0; i < vb_model_count(); i++) {
        const vb_model_type *t = vb_model_at(i);
        char params[512];
        param_defaults(t, params, sizeof params);
        /* how many particles at the defaults (it may depend on them) */
        vb_model m;
        char err[256], count[32] = "?";
        vb_model_defaults(&m, t);
        if (vb_model_setup(&m, err, sizeof err) == 0)
            snprintf(count, sizeof count, "%zu", m.particles);
        vb_model_free(&m);
        if (csv) {
            char dim[16];
            snprintf(dim, sizeof dim, "%u", t->dim);
            csv_row(&(list_row){"model", t->name, "", "", dim, params, t->summary, count});
        } else {
            printf("  %-15s %u-D, %s particle%s\n", t->name, t->dim, count,
                   strcmp(count, "1") ? "s" : "");
            wrap(t->summary, 21, 100);
            printf("  %-15s    %s\n", "", t->n_params ? params : "(no parameters)");
        }
    }
    /* the rigid bodies (docs/rigid.md §2, §3): their rotation methods only */
    if (!csv)
        printf("\nRigid-body models (x, q, v, w: 13 numbers; parameters with their "
               "defaults):\n");
    for (size_t i = 0; i < vb_rigid_face_count(); i++) {
        const vb_model_type *t = vb_rigid_face_at(i);
        char params[512];
        param_defaults(t, params, sizeof params);
        if (csv) {
            csv_row(&(list_row){"rigid-model", t->name, "", "", "3", params, t->summary, "1"});
        } else {
            printf("  %-15s 3-D, a rigid body\n", t->name);
            wrap(t->summary, 21, 100);
            printf("  %-15s    %s\n", "", params);
        }
    }
    /* the stack of boxes (docs/contact.md, "Stacks"): rigid bodies, run
     * inside a contact solver that takes a world */
    const vb_model_type *st = vb_stack_face();
    char sparams[512];
    param_defaults(st, sparams, sizeof sparams);
    if (csv) {
        csv_row(&(list_row){"stack-model", st->name, "", "", "3", sparams, st->summary, ""});
    } else {
        char bodies[128] = "";
        for (size_t i = 0; i < vb_body_solver_count(); i++)
            if (vb_body_solver_at(i)->flags & VB_SOLVER_BODIES)
                snprintf(bodies + strlen(bodies), sizeof bodies - strlen(bodies), "%s%s",
                         bodies[0] ? ", " : "", vb_body_solver_at(i)->name);
        printf("\nA stack of rigid bodies (its boxes' centres: 3n numbers; rotation methods "
               "inside\na contact solver of [contact] handler = %s):\n", bodies);
        printf("  %-15s 3-D, n rigid bodies\n", st->name);
        wrap(st->summary, 21, 100);
        printf("  %-15s    %s\n", "", sparams);
    }
    /* the contact handlers a method runs inside on a model with a contact */
    size_t nh;
    const vb_contact_handler *const *hs = vb_contact_handlers(&nh);
    if (!csv)
        printf("\nContact handlers (round a method on bounce, slide or tunnel: a case's\n"
               "[contact] handler = ..., or sim --contact; rows METHOD+HANDLER):\n");
    for (size_t i = 0; i < nh; i++) {
        if (csv) {
            csv_row(&(list_row){"handler", hs[i]->name, "", "", "", "", hs[i]->summary, ""});
        } else {
            printf("  %s\n", hs[i]->name);
            wrap(hs[i]->summary, 21, 100);
        }
    }
}
