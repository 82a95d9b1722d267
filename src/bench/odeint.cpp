// bench/odeint.cpp — velocity Verlet from the tables beside Boost.Odeint's
// velocity_verlet stepper, on the Kepler orbit (e = 0.5, from periapsis, dt
// = 1e-5), both built -O2 -ffp-contract=off: the yardstick of a library
// step that a C++ user would reach for.  `make bench` builds and runs it
// (libboost-dev); it is not part of verletbench.
//
// Each repeat times Odeint, then the table's step through verletbench's
// own single mode (bench/modes.h: the integrator and the model's force
// through their function pointers), back to back, so a drift of the
// machine's speed moves both sides of that repeat's ratio.  Prints CSV:
// repeat,odeint_ns,table_ns,ratio; then min, median and max of the ratio.
#include <algorithm>
#include <array>
#include <boost/numeric/odeint.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

extern "C" {
#include "integrator.h"
#include "model.h"
#include "modes.h"
}

namespace {

using state = std::array<double, 2>;

// the orbit's force, as models/orbit.c writes it
struct kepler {
    double mu;
    void operator()(const state &x, const state &, state &a, double) const
    {
        double r2 = x[0] * x[0] + x[1] * x[1], k = -mu / (r2 * std::sqrt(r2));
        a[0] = k * x[0];
        a[1] = k * x[1];
    }
};

volatile double sink;

// ns per step of Odeint's velocity_verlet: `steps` steps a run, runs
// repeated until the timing lasts MIN_TIMING_NS (as bench/modes.c does)
double odeint_ns(const vb_model &m, unsigned long steps)
{
    double x0[2], v0[2];
    m.type->initial(m.self, x0, v0);
    kepler sys{m.p[0]};
    const double h = VB_BENCH_DT;
    unsigned long runs = 0;
    auto t0 = std::chrono::steady_clock::now();
    double ns = 0.0;
    do {
        state x{x0[0], x0[1]}, v{v0[0], v0[1]};
        boost::numeric::odeint::velocity_verlet<state> st;
        double t = 0.0;
        for (unsigned long s = 0; s < steps; s++) {
            st.do_step(sys, std::make_pair(std::ref(x), std::ref(v)), t, h);
            t += h;
        }
        sink = x[0] + v[1];
        runs++;
        ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0)
                 .count();
    } while (ns < MIN_TIMING_NS);
    return ns / (double)(runs * steps);
}

} // namespace

int main(int argc, char **argv)
{
    int repeat = argc > 1 ? std::atoi(argv[1]) : 11;
    unsigned long steps = 200000;
    if (repeat < 1 || repeat > 64) {
        std::fprintf(stderr, "usage: %s [REPEATS 1..64]\n", argv[0]);
        return 2;
    }
    vb_model m;
    char err[256];
    vb_model_defaults(&m, vb_model_find("orbit"));
    if (vb_model_setup(&m, err, sizeof err) != 0) {
        std::fprintf(stderr, "%s\n", err);
        return 1;
    }
    vb_timer t{};
    t.md = VB_BENCH_SINGLE;
    t.g = vb_integrator_find("velocity-verlet");
    t.m = &m;
    t.steps = steps;
    if (vb_timer_init(&t) != 0)
        return 1;
    std::vector<double> ratio;
    std::printf("repeat,odeint_ns,table_ns,ratio\n");
    for (int k = 0; k < repeat; k++) {
        double o = odeint_ns(m, steps), ns, unused;
        if (vb_time_paired(&t, nullptr, 1, 1, 1, &ns, &unused) != 0)
            return 1;
        ratio.push_back(ns / o);
        std::printf("%d,%.3f,%.3f,%.4f\n", k + 1, o, ns, ns / o);
    }
    std::sort(ratio.begin(), ratio.end());
    std::printf("# velocity Verlet from the tables / Boost.Odeint's velocity_verlet, orbit e = "
                "0.5, %d interleaved repeats: min %.3f, median %.3f, max %.3f\n",
                repeat, ratio.front(), ratio[ratio.size() / 2], ratio.back());
    vb_model_free(&m);
    return 0;
}
