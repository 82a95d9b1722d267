/* loop.c — frame loops: their names, the entry that wraps an integrator,
 * and a loop run a frame at a time. */
#include "loop.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "integrator.h"
#include "numbers.h"

static const char *const kind_names[VB_N_LOOP_KINDS] = {"variable", "accumulator", "semi-fixed",
                                                        "substeps"};
static const char *const draw_names[VB_N_DRAWS] = {"last", "interpolate", "extrapolate"};

const char *vb_loop_kind_name(vb_loop_kind k) { return kind_names[k]; }
const char *vb_draw_name(vb_draw d) { return draw_names[d]; }

int vb_loop_kind_find(const char *s, vb_loop_kind *k)
{
    for (int i = 0; i < VB_N_LOOP_KINDS; i++)
        if (strcmp(s, kind_names[i]) == 0) {
            *k = (vb_loop_kind)i;
            return 0;
        }
    return -1;
}

int vb_draw_find(const char *s, vb_draw *d)
{
    for (int i = 0; i < VB_N_DRAWS; i++)
        if (strcmp(s, draw_names[i]) == 0) {
            *d = (vb_draw)i;
            return 0;
        }
    return -1;
}

int vb_loop_parse_time(const char *text, double *out)
{
    const char *slash = strchr(text, '/');
    if (!slash)
        return vb_parse_double(text, out);
    char num[64];
    double a, b;
    size_t n = (size_t)(slash - text);
    if (n >= sizeof num)
        return -1;
    memcpy(num, text, n);
    num[n] = '\0';
    if (vb_parse_double(num, &a) != 0 || vb_parse_double(slash + 1, &b) != 0 || b == 0.0)
        return -1;
    *out = a / b;
    return isfinite(*out) ? 0 : -1;
}

/* METHOD@LOOP into buf (len bytes, as snprintf): its length */
static int loop_name(char *buf, size_t len, const char *inner, const vb_loop_spec *s)
{
    switch (s->kind) {
    case VB_LOOP_VARIABLE:
        return snprintf(buf, len, "%s@variable", inner);
    case VB_LOOP_ACCUMULATOR:
        if (s->max_substeps > 0)
            return snprintf(buf, len, "%s@accumulator(%s;%s;max=%d)", inner, s->dt_text,
                            draw_names[s->draw], s->max_substeps);
        return snprintf(buf, len, "%s@accumulator(%s;%s)", inner, s->dt_text,
                        draw_names[s->draw]);
    case VB_LOOP_SEMI_FIXED:
        return snprintf(buf, len, "%s@semi-fixed(%s)", inner, s->dt_text);
    case VB_LOOP_SUBSTEPS:
    case VB_N_LOOP_KINDS:
        break;
    }
    return snprintf(buf, len, "%s@substeps(%d)", inner, s->substeps);
}

vb_loop *vb_loop_new(const vb_integrator *inner, const vb_loop_spec *spec)
{
    vb_loop *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->inner = inner;
    l->spec = *spec;
    /* the name whole, however long the inner method's: a name cut short
     * would give two rows one name (docs/method.md §9) */
    int len = loop_name(NULL, 0, inner->name, &l->spec);
    if (len < 0 || !(l->name = malloc((size_t)len + 1))) {
        free(l);
        return NULL;
    }
    loop_name(l->name, (size_t)len + 1, inner->name, &l->spec);
    /* its callbacks are never called: a loop is run by the driver a frame
     * at a time (frameloop.h) */
    l->integ = vb_integrator_wrapper(inner, l->name, (inner->flags & ~VB_LOOP_FLAG) | VB_LOOP_FLAG);
    return l;
}

void vb_loop_free(vb_loop *l)
{
    if (l)
        free(l->name);
    free(l);
}

double vb_loop_physics_dt(const vb_loop_spec *s, int level)
{
    return ldexp(s->physics_dt, -level);
}

/* A step is due when the accumulator holds physics_dt less this share of
 * it, and a semi-fixed frame of h takes ceil(h/physics_dt - DUE_TOL)
 * steps: frame times summed in floating point (1/60 + 1/60 against
 * 2/120) must not defer a step by a whole frame on round-off, nor a frame
 * that is a whole number of physics steps but for rounding gain one. */
#define DUE_TOL 1e-9

/* the steps of a semi-fixed frame of h at the physics step dt: the fewest
 * equal ones no larger than dt, at least one; as many as that is, the
 * step limit counts them (docs/method.md §9) */
static double semi_fixed_steps(double h, double dt)
{
    double k = ceil(h / dt - DUE_TOL);
    return k < 1.0 ? 1.0 : k;
}

double vb_loop_max_steps(const vb_loop_spec *s, double n, double h_equal, double t_end,
                         int level)
{
    double dt = vb_loop_physics_dt(s, level);
    switch (s->kind) {
    case VB_LOOP_SUBSTEPS:
        return n * s->substeps;
    case VB_LOOP_SEMI_FIXED:
        /* equal frames: exactly n of ceil(h/dt) steps; frames that vary:
         * each takes at most h_i/dt + 1, and the frames sum to t_end */
        if (h_equal > 0.0)
            return n * semi_fixed_steps(h_equal, dt);
        return n + floor(t_end / dt) + 1.0;
    case VB_LOOP_ACCUMULATOR:
        return floor(t_end / dt) + 1.0;
    case VB_LOOP_VARIABLE:
    case VB_N_LOOP_KINDS:
        break;
    }
    return n;
}

int vb_loop_holds_frames(const vb_integrator *g)
{
    const vb_loop *l = vb_loop_of(g);
    return l && l->spec.kind == VB_LOOP_ACCUMULATOR;
}

/* ---- running ---- */

int vb_loop_run_init(vb_loop_run *r, const vb_loop *l, size_t n, int level)
{
    memset(r, 0, sizeof *r);
    r->loop = l;
    r->g = l->inner;
    r->n = n;
    r->dt = vb_loop_physics_dt(&l->spec, level);
    r->max_steps = ldexp((double)l->spec.max_substeps, level);
    r->state = calloc(1, r->g->state_size(n) ? r->g->state_size(n) : 1);
    r->prev = malloc(4 * n * sizeof *r->prev);
    if (!r->state || !r->prev) {
        free(r->state);
        free(r->prev);
        r->state = r->prev = NULL;
        return -1;
    }
    r->cur = r->prev + 2 * n;
    return 0;
}

void vb_loop_run_free(vb_loop_run *r, int started)
{
    if (started && r->g->finish)
        r->g->finish(r->state);
    free(r->state);
    free(r->prev);
    r->state = r->prev = r->cur = NULL;
}

void vb_loop_run_start(vb_loop_run *r, vb_force *f, const double *x0, const double *v0, double h)
{
    size_t n = r->n;
    memcpy(r->cur, x0, n * sizeof *x0);
    memcpy(r->cur + n, v0, n * sizeof *v0);
    memcpy(r->prev, r->cur, 2 * n * sizeof *x0);
    vb_integrator_set_params(r->g, r->state);
    /* the first step the method will take, which a multistep method's
     * start needs (TCV's x_prev): an accumulator's is physics_dt whatever
     * the frames are, so its physics is the same at every display rate
     * (docs/method.md §9) */
    vb_loop_frame fr;
    vb_loop_run probe = *r;
    vb_loop_frame_begin(&probe, &fr, h, h);
    r->g->start(r->state, f, 0.0, x0, v0,
                r->loop->spec.kind == VB_LOOP_ACCUMULATOR ? r->dt : fr.sub);
}

/* the accumulator's leftover time, as a fraction of dt, in [0, 1] */
static double leftover(const vb_loop_run *r, double t_frame)
{
    double a = (t_frame - r->lag - (double)r->n_phys * r->dt) / r->dt;
    return a < 0.0 ? 0.0 : a > 1.0 ? 1.0 : a;
}

void vb_loop_frame_begin(vb_loop_run *r, vb_loop_frame *fr, double t_frame, double h)
{
    const vb_loop_spec *s = &r->loop->spec;
    fr->t_frame = t_frame;
    fr->h = h;
    fr->sub = h;
    fr->left = 1;
    switch (s->kind) {
    case VB_LOOP_VARIABLE:
    case VB_N_LOOP_KINDS:
        break;
    case VB_LOOP_SUBSTEPS:
        fr->left = (unsigned long long)s->substeps;
        fr->sub = h / s->substeps;
        break;
    case VB_LOOP_SEMI_FIXED:
        /* every step the frame needs, however many: the step limit counted
         * them before the run (a cap here would take longer steps than
         * physics_dt and say nothing) */
        fr->left = (unsigned long long)semi_fixed_steps(h, r->dt);
        fr->sub = h / (double)fr->left;
        break;
    case VB_LOOP_ACCUMULATOR: {
        double acc = t_frame - r->lag - (double)r->n_phys * r->dt;
        double due = floor(acc / r->dt + DUE_TOL);
        if (!(due > 0.0))
            due = 0.0;
        if (r->max_steps > 0.0 && due > r->max_steps) {
            /* the spiral of death averted: the time beyond the clamp is
             * dropped, and the game runs that much behind the clock */
            r->lag += (due - r->max_steps) * r->dt;
            due = r->max_steps;
        }
        fr->left = (unsigned long long)due; /* <= the step limit, at most 2^50 */
        fr->sub = r->dt;
        if (fr->left == 0)
            r->alpha = leftover(r, t_frame);
        break;
    }
    }
}

int vb_loop_frame_step(vb_loop_run *r, vb_loop_frame *fr, vb_force *f, double *t_phys)
{
    if (fr->left == 0)
        return 0;
    size_t n = r->n;
    memcpy(r->prev, r->cur, 2 * n * sizeof *r->cur);
    if (r->loop->spec.kind == VB_LOOP_ACCUMULATOR) {
        /* t = n dt, never a sum: the same times at every frame rate */
        r->g->step(r->state, f, (double)r->n_phys * r->dt, r->dt);
        r->n_phys++;
        r->t_phys = (double)r->n_phys * r->dt;
    } else {
        r->g->step(r->state, f, r->t_phys, fr->sub);
        /* the last step lands on the frame's time exactly, as a plain run's */
        r->t_phys = fr->left == 1 ? fr->t_frame : r->t_phys + fr->sub;
    }
    r->g->observe(r->state, r->cur, r->cur + n);
    fr->left--;
    if (fr->left == 0 && r->loop->spec.kind == VB_LOOP_ACCUMULATOR)
        r->alpha = leftover(r, fr->t_frame);
    *t_phys = r->t_phys;
    return 1;
}

void vb_loop_draw(const vb_loop_run *r, double *x, double *v)
{
    size_t n = r->n;
    const double *p = r->prev, *c = r->cur;
    vb_draw d = r->loop->spec.kind == VB_LOOP_ACCUMULATOR ? r->loop->spec.draw : VB_DRAW_LAST;
    double a = r->alpha;
    for (size_t i = 0; i < 2 * n; i++) {
        double y;
        if (d == VB_DRAW_INTERPOLATE)
            y = c[i] * a + p[i] * (1.0 - a); /* "Fix Your Timestep", as written there */
        else if (d == VB_DRAW_EXTRAPOLATE)
            y = c[i] + a * (c[i] - p[i]);
        else
            y = c[i];
        if (i < n)
            x[i] = y;
        else
            v[i - n] = y;
    }
}
