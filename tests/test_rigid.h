/* test_rigid.h — what the rigid-body suites share: an independent
 * reference for the free body, GSL's rk8pd on (q, w). */
#ifndef VB_TEST_RIGID_H
#define VB_TEST_RIGID_H

/* The tolerance asked of rk8pd (absolute and relative): its error is
 * round-off from there on (test_rigid.c measured it against mpmath). */
#define RK8PD_TOL 1e-14

typedef struct test_rk8pd test_rk8pd;
/* q' = q (0, w)/2, I w' = (I w) x w from q0, w0 at t = 0 */
test_rk8pd *test_rk8pd_new(const double I[3], const double q0[4], const double w0[3]);
/* advance to t (increasing) and give q, w there; GSL's status */
int test_rk8pd_to(test_rk8pd *r, double t, double q[4], double w[3]);
void test_rk8pd_free(test_rk8pd *r);

#endif
