/* rigid_analysis.h — what a run of a rigid body did, from its states in
 * the order of time (docs/rigid.md §4): the flips of a body spinning about
 * its intermediate axis and their period (the first flip of a stable spin
 * is its tumble), and the polhode's D.  Pure functions of the sequence, fed one state at a
 * time (a runner calls them at every step, as it measures errors) or a
 * whole array at once.  They read only the body-frame angular velocity
 * and the moments, so they apply to an exact solution, a method's run or
 * an engine's trajectory alike. */
#ifndef VB_RIGID_ANALYSIS_H
#define VB_RIGID_ANALYSIS_H

#include <stddef.h>

#include "rigid.h"

/* ---- flips ----
 * A flip is the body's axis `axis` turning over against the angular
 * momentum: c = L_axis / |L| (the cosine of the angle between that body
 * axis and L; L_axis = I_axis w_axis) goes from c >= +threshold to
 * c <= -threshold, or back.  Its time is that of the last zero of c
 * before the other side of the band was reached, by linear interpolation
 * between the two samples around it.  The band ignores a wobble about a
 * stable axis, where c of a transverse axis crosses zero but stays small;
 * with threshold 1/2 a flip is a turn from within 60 degrees of L to
 * within 60 degrees of -L.  A free body's flips come twice a period of
 * w(t), evenly: the zeros of c are those of sn u, 2K apart.  So the flip
 * period is measured as twice the mean time between successive flips,
 * 2 g, g = (t_last - t_first) / (flips - 1), where the flips are regular:
 * at least two, every gap between successive flips within
 * VB_FLIP_GAP_TOL of g, and neither the stretch from the first sample to
 * the first flip nor the one from the last flip to the last sample longer
 * than 2 g (a body that starts or stops flipping, or one that tumbled and
 * then turned over every now and then, has no period).  The exact motion
 * meets the rule with room: gaps all 2K/lambda, the first flip within
 * two gaps of the start, the last within one of the end. */
#define VB_FLIP_THRESHOLD 0.5
/* 0.25: at 60 Hz over 120 s of the default flip, ODE's linearised
 * implicit step (docs/real-engines.md §5.6) flips at gaps from 8.15 s
 * down to 4.93 s, 38 % over their mean and 17 % under it, and stops after
 * 70 s; the engines whose period is steady keep every gap within 3.1 % of
 * the mean (Rapier 3D's gaps 19.21 s to 18.17 s, Jolt's within 1.2 %,
 * Bullet's 0.3 %, MuJoCo's Euler 0) */
#define VB_FLIP_GAP_TOL 0.25

typedef struct vb_flip_tracker {
    int axis;
    double threshold;
    int side;        /* +1 or -1 beyond the band, 0 not yet */
    int have_prev;
    double prev_t, prev_c;
    double last_zero; /* time of the latest zero of c, NAN before one */
    size_t flips;
    double first_flip, last_flip; /* NAN before the first */
    double first_t;               /* the first sample's time, NAN before it */
    double gap_min, gap_max;      /* between successive flips; NAN before two */
} vb_flip_tracker;

/* axis 0, 1 or 2 (the intermediate one for the Dzhanibekov flip);
 * threshold in (0, 1) */
void vb_flip_tracker_start(vb_flip_tracker *tr, int axis, double threshold);
/* The state at t (t increasing).  Returns 1 when this sample completed a
 * flip, else 0. */
int vb_flip_tracker_add(vb_flip_tracker *tr, const vb_rigid_props *p, double t,
                        const vb_rigid_state *s);
/* 1 when the flips so far are regular (above), up to the last sample
 * added; 0 otherwise (fewer than two flips among them) */
int vb_flip_tracker_regular(const vb_flip_tracker *tr);
/* The measured flip period: 2 (t_last - t_first) / (flips - 1) where the
 * flips are regular, else NAN. */
double vb_flip_tracker_period(const vb_flip_tracker *tr);

/* The axis of the intermediate moment (the median; of a tie, the first in
 * index order among the tied) */
int vb_rigid_intermediate_axis(const double I[3]);

/* ---- tumbling ----
 * A stable spin (about the largest or the smallest axis, with a wobble
 * the band above ignores) tumbles when it first flips: the time a
 * runner reports is its flip tracker's first_flip, in a run whose exact
 * motion has no flip (docs/rigid.md §4).  It is the first time the body
 * is seen to turn over, which is what a user sees.
 *
 * D = L^2 - 2 T I_mid = sum_i I_i (I_i - I_mid) w_i^2 (I_mid the
 * intermediate moment) is conserved by the true motion, and its sign says
 * which axis the polhode circles: D > 0 the axis of the largest moment,
 * D < 0 that of the smallest, D = 0 the separatrix through the
 * intermediate axis.  A method's errors draw a spin towards the
 * separatrix; the body flips once D is small enough that the polhode
 * passes within 60 degrees of the intermediate axis, before (and without)
 * D changing sign. */
double vb_rigid_polhode_D(const vb_rigid_props *p, const double w[3]);

/* ---- drift ----
 * The world angular momentum's drift of state s from L0 (its value at the
 * start, |L0| = L0_norm): |L - L0| / |L0|, absolute for a body that does
 * not turn (L0 = 0).  What err_angmom_max and the charts' drift measure. */
double vb_rigid_angmom_drift(const vb_rigid_props *p, const vb_rigid_state *s,
                             const double L0[3], double L0_norm);

/* ---- whole sequences ---- */

/* n states at times t[0] < t[1] < ...: the flips seen (and the measured
 * period, NAN unless they are regular). */
size_t vb_rigid_count_flips(const vb_rigid_props *p, const double *t, const vb_rigid_state *s,
                            size_t n, int axis, double threshold, double *period);

#endif
