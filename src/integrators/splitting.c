/* splitting.c — the schemes of splitting.h, each as its file in this
 * folder writes the method: the same stages in the same order, the same
 * coefficients (the constants below are those files'). */
#include "splitting.h"

#include <stddef.h>

#define CBRT2 1.2599210498948731648 /* yoshida4.c */
#define W1 (1.0 / (2.0 - CBRT2))
#define W0 (1.0 - 2.0 * W1)
#define XI 0.1786178958448091 /* pefrl.c */
#define LAMBDA (-0.2123418310626054)
#define CHI (-0.06626458266981849)
#define D1 (0.5 * (1.0 - 2.0 * LAMBDA))

extern const vb_integrator vb_integrator_euler;
extern const vb_integrator vb_integrator_euler_semi;
extern const vb_integrator vb_integrator_velocity_verlet;
extern const vb_integrator vb_integrator_yoshida4;
extern const vb_integrator vb_integrator_pefrl;

static const vb_split schemes[] = {
    /* euler.c: a(x_n, v_n), then x += v_n h and v += a h */
    {&vb_integrator_euler, 3, {'f', 'd', 'k'}, {0.0, 1.0, 1.0}, 0},
    /* euler_semi.c: a(x_n, v_n), v += a h, x += v h */
    {&vb_integrator_euler_semi, 3, {'f', 'k', 'd'}, {0.0, 1.0, 1.0}, 0},
    /* velocity_verlet.c: kick, drift, force, kick (the kick deferred to the next step) */
    {&vb_integrator_velocity_verlet, 4, {'k', 'd', 'f', 'k'}, {0.5, 1.0, 0.0, 0.5}, 1},
    /* yoshida4.c: three kdk of w1 h, w0 h, w1 h */
    {&vb_integrator_yoshida4,
     12,
     {'k', 'd', 'f', 'k', 'k', 'd', 'f', 'k', 'k', 'd', 'f', 'k'},
     {0.5 * W1, W1, 0.0, 0.5 * W1, 0.5 * W0, W0, 0.0, 0.5 * W0, 0.5 * W1, W1, 0.0, 0.5 * W1},
     1},
    /* pefrl.c: drift, (force, kick) four times between five drifts */
    {&vb_integrator_pefrl,
     13,
     {'d', 'f', 'k', 'd', 'f', 'k', 'd', 'f', 'k', 'd', 'f', 'k', 'd'},
     {XI, 0.0, D1, CHI, 0.0, LAMBDA, 1.0 - 2.0 * (CHI + XI), 0.0, LAMBDA, CHI, 0.0, D1, XI},
     0},
};

const vb_split *vb_split_of(const vb_integrator *g)
{
    for (size_t i = 0; i < sizeof schemes / sizeof schemes[0]; i++)
        if (schemes[i].base == g)
            return &schemes[i];
    return NULL;
}

const char *vb_split_names(void) { return "euler, euler-semi, velocity-verlet, yoshida4, pefrl"; }
