/* pendulum_solution.h — the nonlinear pendulum theta'' = -(g/L) sin theta
 * from rest at theta0, exact through Jacobi's elliptic functions
 * (docs/method.md §3): shared by the angle model (pendulum.c) and the
 * particle on a rod (rod_pendulum.c), so both have the same bits. */
#ifndef VB_PENDULUM_SOLUTION_H
#define VB_PENDULUM_SOLUTION_H

typedef struct vb_pendulum_solution {
    double w2, w;  /* (g/L) and its root */
    double k, kc;  /* modulus sin(theta0/2) and its complement cos(theta0/2) */
    double K;      /* quarter period in u: K(k) */
    double theta0;
} vb_pendulum_solution;

void vb_pendulum_solution_init(vb_pendulum_solution *s, double g, double L, double theta0);
/* theta(t) and theta'(t): 0, or -1 if the elliptic functions failed */
int vb_pendulum_angle(const vb_pendulum_solution *s, double t, double *theta, double *omega);
/* the period 4K/w */
double vb_pendulum_period(const vb_pendulum_solution *s);

#endif
