// bench/odeint.cpp — velocity Verlet from the tables beside Boost.Odeint's
// velocity_verlet stepper, on the Kepler orbit (e = 0.5, from periapsis, dt
// = 1e-5, two components on both sides), both built -O2 -ffp-contract=off
// -fno-math-errno (the flags of the models' force laws): the yardstick of a
// library step that a C++ user would reach for.  `make bench` builds and
// runs it (libboost-dev); it is not part of verletbench.
//
// Each repeat times, back to back: Odeint with the force law inlined (what
// a C++ user writes: a functor, the same operations as models/orbit.c);
// the table's step through verletbench's own single mode (bench/modes.h:
// the integrator and the model's force through their function pointers);
// the same velocity Verlet written by hand with every value in registers
// (bench/fused.c: the arithmetic alone); and Odeint calling the model's
// force through its function pointer, as the tables do.  Every ratio is
// taken against the Odeint timing of the same repeat, so a drift of the
// machine's speed moves both sides of it.  All four are CPU time of this
// process (vb_cpu_ns), each timing at least MIN_TIMING_NS after an untimed
// run.  Prints CSV, then the min, median and max of each ratio.
#include <algorithm>
#include <array>
#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

extern "C" {
#include "clock.h"
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

// the model's own force, through its function pointer
struct through_table {
    const vb_model *m;
    void operator()(const state &x, const state &v, state &a, double t) const
    {
        m->type->accel(m->self, t, x.data(), v.data(), a.data());
    }
};

volatile double sink;

template <class System> void odeint_run(const vb_model &m, System sys, unsigned long steps)
{
    double x0[2], v0[2];
    m.type->initial(m.self, x0, v0);
    state x{x0[0], x0[1]}, v{v0[0], v0[1]};
    boost::numeric::odeint::velocity_verlet<state> st;
    const double h = VB_BENCH_DT;
    double t = 0.0;
    for (unsigned long s = 0; s < steps; s++) {
        st.do_step(sys, std::make_pair(std::ref(x), std::ref(v)), t, h);
        t += h;
    }
    sink = x[0] + v[1];
}

// Odeint's side, timed as bench/modes.c times the table's: an untimed run
// sets how many runs make a timing of at least MIN_TIMING_NS
template <class System> struct odeint_timer {
    const vb_model &m;
    System sys;
    unsigned long steps, runs = 1;

    void init()
    {
        double t0 = vb_cpu_ns();
        odeint_run(m, sys, steps);
        double once = vb_cpu_ns() - t0;
        runs = once >= MIN_TIMING_NS ? 1 : (unsigned long)std::ceil(MIN_TIMING_NS / std::fmax(once, 1.0));
    }
    double ns_per_step()
    {
        double t0 = vb_cpu_ns();
        for (unsigned long k = 0; k < runs; k++)
            odeint_run(m, sys, steps);
        return (vb_cpu_ns() - t0) / (double)(runs * steps);
    }
};

// one timing of a table-side timer (vb_time_paired with one repeat, no pair)
double table_ns(vb_timer &t)
{
    double ns, unused;
    return vb_time_paired(&t, nullptr, 1, 1, 1, &ns, &unused) == 0 ? ns : NAN;
}

void summary(std::vector<double> r, int repeat, const char *what)
{
    std::sort(r.begin(), r.end());
    std::printf("# %s, orbit e = 0.5, %d interleaved repeats: min %.3f, median %.3f, max %.3f\n",
                what, repeat, r.front(), r[r.size() / 2], r.back());
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
    vb_timer table{}, fused{};
    table.md = VB_BENCH_SINGLE;
    table.g = vb_integrator_find("velocity-verlet");
    fused.md = VB_BENCH_FUSED;
    fused.fk = VB_FUSED_ORBIT;
    fused.mu = m.p[0];
    for (vb_timer *t : {&table, &fused}) {
        t->m = &m;
        t->steps = steps;
        if (vb_timer_init(t) != 0)
            return 1;
    }
    odeint_timer<kepler> ode{m, kepler{m.p[0]}, steps};
    odeint_timer<through_table> ode_ptr{m, through_table{&m}, steps};
    ode.init();
    ode_ptr.init();
    std::vector<double> ratio, fused_ratio, ptr_ratio;
    std::printf("repeat,odeint_ns,table_ns,ratio,fused_ns,fused_ratio,odeint_pointer_ns,"
                "table_to_odeint_pointer\n");
    for (int k = 0; k < repeat; k++) {
        double o = ode.ns_per_step(), t = table_ns(table), f = table_ns(fused),
               p = ode_ptr.ns_per_step();
        if (!std::isfinite(t) || !std::isfinite(f))
            return 1;
        ratio.push_back(t / o);
        fused_ratio.push_back(f / o);
        ptr_ratio.push_back(t / p);
        std::printf("%d,%.3f,%.3f,%.4f,%.3f,%.4f,%.3f,%.4f\n", k + 1, o, t, t / o, f, f / o, p,
                    t / p);
    }
    summary(ratio, repeat, "velocity Verlet from the tables / Boost.Odeint's velocity_verlet");
    summary(fused_ratio, repeat,
            "the same velocity Verlet written by hand, in registers / Boost.Odeint's");
    summary(ptr_ratio, repeat,
            "velocity Verlet from the tables / Odeint calling the model's force through its "
            "pointer");
    vb_model_free(&m);
    return 0;
}
