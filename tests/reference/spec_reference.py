#!/usr/bin/env python3
"""An independent implementation of verletbench's SPEC, for cross-checking.

Written from the formulas of SPEC.md alone, in plain Python, sharing no code
or library with the C harness: its own MT19937 (seeded as GSL seeds it), the
textbook two-step form of position Verlet, bisection for Kepler's equation,
and the arithmetic-geometric mean for the Jacobi elliptic functions.

    spec_reference.py MODEL INTEGRATOR fixed  T_END DT [KEY=VALUE...]
    spec_reference.py MODEL INTEGRATOR random T_END DT JITTER SEED [KEY=VALUE...]
    spec_reference.py MODEL INTEGRATOR trace  T_END FILE [KEY=VALUE...]

prints the CSV header and row `verletbench sim` prints (T_END 0 = whole trace).
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from suite import max_or_nan  # noqa: E402

# ---- MT19937 (Matsumoto and Nishimura), seeded like GSL's gsl_rng_mt19937 --


class MT19937:
    N, M = 624, 397

    def __init__(self, seed):
        if seed == 0:
            seed = 4357  # GSL's rule for seed 0
        self.mt = [0] * self.N
        self.mt[0] = seed & 0xFFFFFFFF
        for i in range(1, self.N):
            prev = self.mt[i - 1]
            self.mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF
        self.i = self.N

    def next32(self):
        if self.i >= self.N:
            mt = self.mt
            for k in range(self.N):
                y = (mt[k] & 0x80000000) | (mt[(k + 1) % self.N] & 0x7FFFFFFF)
                mt[k] = mt[(k + self.M) % self.N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            self.i = 0
        y = self.mt[self.i]
        self.i += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        return y

    def uniform(self):  # gsl_rng_uniform: [0, 1)
        return self.next32() / 4294967296.0


# ---- elliptic functions by the arithmetic-geometric mean (A&S 16.4, 17.6) --


def ellip_k(m):
    a, b = 1.0, math.sqrt(1.0 - m)
    while abs(a - b) > 1e-16 * a:
        a, b = (a + b) / 2, math.sqrt(a * b)
    return math.pi / (2 * a)


def jacobi_sn_cn(u, m):
    a, b, c = [1.0], [math.sqrt(1.0 - m)], [math.sqrt(m)]
    while abs(c[-1]) > 1e-17 and len(a) < 40:
        a.append((a[-1] + b[-1]) / 2)
        b.append(math.sqrt(a[-2] * b[-1]))
        c.append((a[-2] - b[-2]) / 2)
    n = len(a) - 1
    phi = (2 ** n) * a[n] * u
    for k in range(n, 0, -1):
        phi = (phi + math.asin(c[k] / a[k] * math.sin(phi))) / 2
    return math.sin(phi), math.cos(phi)


# ---- models (SPEC §3) -------------------------------------------------------


class Projectile:
    dim, params = 2, {"g": 9.81, "speed": 20.0, "angle": 45.0}

    def __init__(self, p):
        self.g = p["g"]
        ang = math.radians(p["angle"])
        self.v0 = [p["speed"] * math.cos(ang), p["speed"] * math.sin(ang)]

    def initial(self):
        return [0.0, 0.0], list(self.v0)

    def accel(self, x, v):
        return [0.0, -self.g]

    def exact(self, t):
        return ([self.v0[0] * t, self.v0[1] * t - self.g * t * t / 2],
                [self.v0[0], self.v0[1] - self.g * t])

    def energy(self, x, v):
        return (v[0] ** 2 + v[1] ** 2) / 2 + self.g * x[1]


class Spring:
    dim, params = 1, {"k": 1.0, "m": 1.0, "x0": 1.0, "v0": 0.0}

    def __init__(self, p):
        self.w = math.sqrt(p["k"] / p["m"])
        self.x0, self.v0 = p["x0"], p["v0"]

    def initial(self):
        return [self.x0], [self.v0]

    def accel(self, x, v):
        return [-self.w ** 2 * x[0]]

    def exact(self, t):
        w = self.w
        return ([self.x0 * math.cos(w * t) + self.v0 / w * math.sin(w * t)],
                [-self.x0 * w * math.sin(w * t) + self.v0 * math.cos(w * t)])

    def energy(self, x, v):
        return (v[0] ** 2 + self.w ** 2 * x[0] ** 2) / 2


class DampedSpring:
    dim, params = 1, {"k": 1.0, "m": 1.0, "c": 0.1, "x0": 1.0, "v0": 0.0}
    energy = None

    def __init__(self, p):
        self.k, self.m, self.c, self.x0, self.v0 = p["k"], p["m"], p["c"], p["x0"], p["v0"]
        self.g = self.c / (2 * self.m)
        self.wd = math.sqrt(self.k / self.m - self.g ** 2)

    def initial(self):
        return [self.x0], [self.v0]

    def accel(self, x, v):
        return [-(self.k * x[0] + self.c * v[0]) / self.m]

    def exact(self, t):
        # x = e^{-gt}(A cos + B sin); differentiate term by term
        g, w = self.g, self.wd
        A, B = self.x0, (self.v0 + g * self.x0) / w
        e, c, s = math.exp(-g * t), math.cos(w * t), math.sin(w * t)
        x = e * (A * c + B * s)
        v = -g * x + e * (-A * w * s + B * w * c)
        return [x], [v]


class Orbit:
    dim, params = 2, {"mu": 1.0, "a": 1.0, "e": 0.5}

    def __init__(self, p):
        self.mu, self.a, self.e = p["mu"], p["a"], p["e"]
        self.n = math.sqrt(self.mu / self.a ** 3)

    def initial(self):
        return ([self.a * (1 - self.e), 0.0],
                [0.0, math.sqrt(self.mu / self.a * (1 + self.e) / (1 - self.e))])

    def accel(self, x, v):
        r = math.hypot(x[0], x[1])
        return [-self.mu * x[0] / r ** 3, -self.mu * x[1] / r ** 3]

    def eccentric_anomaly(self, M):
        # bisection: E - e sin E is increasing and E - M lies in [-e, e]
        lo, hi = M - self.e, M + self.e
        for _ in range(200):
            mid = (lo + hi) / 2
            if mid in (lo, hi):
                break
            if mid - self.e * math.sin(mid) - M < 0:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    def exact(self, t):
        M = math.fmod(self.n * t, 2 * math.pi)
        E = self.eccentric_anomaly(M)
        b = self.a * math.sqrt(1 - self.e ** 2)
        Edot = self.n / (1 - self.e * math.cos(E))
        return ([self.a * (math.cos(E) - self.e), b * math.sin(E)],
                [-self.a * math.sin(E) * Edot, b * math.cos(E) * Edot])

    def energy(self, x, v):
        return (v[0] ** 2 + v[1] ** 2) / 2 - self.mu / math.hypot(x[0], x[1])

    def angmom(self, x, v):
        return x[0] * v[1] - x[1] * v[0]


class Pendulum:
    dim, params = 1, {"g": 9.81, "L": 1.0, "theta0": 1.0}

    def __init__(self, p):
        self.w = math.sqrt(p["g"] / p["L"])
        self.theta0 = p["theta0"]
        self.k = math.sin(self.theta0 / 2)
        self.K = ellip_k(self.k ** 2)

    def initial(self):
        return [self.theta0], [0.0]

    def accel(self, x, v):
        return [-self.w ** 2 * math.sin(x[0])]

    def exact(self, t):
        u = math.fmod(self.K - self.w * t, 4 * self.K)
        sn, cn = jacobi_sn_cn(u, self.k ** 2)
        return [2 * math.asin(self.k * sn)], [-2 * self.k * self.w * cn]

    def energy(self, x, v):
        return v[0] ** 2 / 2 + self.w ** 2 * (1 - math.cos(x[0]))


MODELS = {"projectile": Projectile, "spring": Spring, "damped-spring": DampedSpring,
          "orbit": Orbit, "pendulum": Pendulum}

# ---- step plans (SPEC §1) ---------------------------------------------------


def fixed_steps(t_end, dt):
    N = max(1, math.ceil(t_end / dt - 1e-9))
    return [t_end / N] * N


def random_steps(t_end, dt, jitter, seed):
    rng, t, hs = MT19937(seed), 0.0, []
    while True:
        h = dt * (1 + jitter * (2 * rng.uniform() - 1))
        if t + h >= t_end:
            hs.append(t_end - t)
            return hs
        hs.append(h)
        t += h


def trace_steps(path, t_end):
    hs = []
    for line in open(path):
        line = line.split("#")[0].strip()
        if line:
            hs.append(float(line))
    if t_end == 0:
        return hs
    t, out = 0.0, []
    for h in hs:
        if t + h >= t_end:
            out.append(t_end - t)
            return out
        out.append(h)
        t += h
    raise SystemExit("trace too short")

# ---- integrators (SPEC §2): yield (x_n, v_n) after each step --------------


def add(a, b, s=1.0):
    return [ai + s * bi for ai, bi in zip(a, b)]


def run(name, model, hs, counter):
    def acc(x, v):
        counter[0] += 1
        return model.accel(x, v)

    x, v = model.initial()
    if name in ("euler", "euler-semi"):
        for h in hs:
            a = acc(x, v)
            if name == "euler":
                x, v = add(x, v, h), add(v, a, h)
            else:
                v = add(v, a, h)
                x = add(x, v, h)
            yield x, v
    elif name in ("verlet", "verlet-naive", "tcv", "verlet-var"):
        a = acc(x, v)
        h0 = hs[0]
        if name == "verlet-naive":
            xprev = add(x, v, -h0)
        else:  # x_1 = x_0 + v_0 h + a h^2/2, i.e. x_-1 = x_0 - v_0 h + a h^2/2
            xprev = [xi - vi * h0 + ai * h0 * h0 / 2 for xi, vi, ai in zip(x, v, a)]
        hp = h0
        for h in hs:
            if name in ("verlet", "verlet-naive"):
                xn = [2 * xi - pi + ai * h * h for xi, pi, ai in zip(x, xprev, a)]
            elif name == "tcv":
                xn = [xi + (xi - pi) * h / hp + ai * h * h for xi, pi, ai in zip(x, xprev, a)]
            else:
                xn = [xi + (xi - pi) * h / hp + ai * h * (h + hp) / 2
                      for xi, pi, ai in zip(x, xprev, a)]
            xprev, x, hp = x, xn, h
            vback = [(xi - pi) / h for xi, pi in zip(x, xprev)]
            a = acc(x, vback)
            yield x, [vb + ai * h / 2 for vb, ai in zip(vback, a)]
    elif name == "velocity-verlet":
        a = acc(x, v)
        for h in hs:
            x = [xi + vi * h + ai * h * h / 2 for xi, vi, ai in zip(x, v, a)]
            vhalf = add(v, a, h / 2)
            an = acc(x, vhalf)
            v = [vi + (ai + bi) * h / 2 for vi, ai, bi in zip(v, a, an)]
            a = an
            yield x, v
    elif name == "leapfrog":
        a = acc(x, v)
        w = add(v, a, hs[0] / 2)
        for h in hs:
            x = add(x, w, h)
            a = acc(x, w)
            w = add(w, a, h)
            yield x, add(w, a, -h / 2)
    elif name == "rk4":
        for h in hs:
            k1x, k1v = v, acc(x, v)
            k2x, k2v = add(v, k1v, h / 2), None
            k2v = acc(add(x, k1x, h / 2), k2x)
            k3x = add(v, k2v, h / 2)
            k3v = acc(add(x, k2x, h / 2), k3x)
            k4x = add(v, k3v, h)
            k4v = acc(add(x, k3x, h), k4x)
            x = [xi + h / 6 * (a1 + 2 * a2 + 2 * a3 + a4)
                 for xi, a1, a2, a3, a4 in zip(x, k1x, k2x, k3x, k4x)]
            v = [vi + h / 6 * (a1 + 2 * a2 + 2 * a3 + a4)
                 for vi, a1, a2, a3, a4 in zip(v, k1v, k2v, k3v, k4v)]
            yield x, v
    else:
        raise SystemExit("unknown integrator " + name)


def dist(a, b):
    return math.sqrt(sum((ai - bi) ** 2 for ai, bi in zip(a, b)))


def main(argv):
    model_name, integ, plan = argv[1], argv[2], argv[3]
    rest = argv[4:]
    if plan == "fixed":
        t_end, dt = float(rest[0]), float(rest[1])
        hs, sets = fixed_steps(t_end, dt), rest[2:]
        dt_col, jit_col, seed_col = t_end / len(hs), "0", ""
    elif plan == "random":
        t_end, dt, jit, seed = float(rest[0]), float(rest[1]), float(rest[2]), int(rest[3])
        hs, sets = random_steps(t_end, dt, jit, seed), rest[4:]
        dt_col, jit_col, seed_col = dt, repr(jit), str(seed)
    else:
        hs, sets = trace_steps(rest[1], float(rest[0])), rest[2:]
        t_end = sum(hs) if float(rest[0]) == 0 else float(rest[0])
        dt_col, jit_col, seed_col = t_end / len(hs), "", ""
    cls = MODELS[model_name]
    params = dict(cls.params)
    for kv in sets:
        k, v = kv.split("=")
        params[k] = float(v)
    model = cls(params)
    x0, v0 = model.initial()
    E0 = model.energy(x0, v0) if model.energy else None
    L0 = model.angmom(x0, v0) if hasattr(model, "angmom") else None
    counter = [0]
    errs_p, errs_v, errs_e, errs_l = [0.0], [0.0], [0.0], [0.0]
    t, status = 0.0, "ok"
    for n, (x, v) in enumerate(run(integ, model, hs, counter)):
        t = t + hs[n] if n + 1 < len(hs) else t_end
        if not all(math.isfinite(c) for c in x + v):
            status = "diverged"
            break
        xe, ve = model.exact(t)
        errs_p.append(dist(x, xe))
        errs_v.append(dist(v, ve))
        if E0 is not None:
            errs_e.append(abs(model.energy(x, v) - E0) / abs(E0))
        if L0 is not None:
            errs_l.append(abs(model.angmom(x, v) - L0) / abs(L0))
    steps = n + 1
    if status == "ok":
        cols = [errs_p[-1], max_or_nan(errs_p), math.sqrt(sum(e * e for e in errs_p) / len(errs_p)),
                errs_v[-1], max_or_nan(errs_v)]
        emax = repr(max_or_nan(errs_e)) if E0 is not None else ""
        lmax = repr(max_or_nan(errs_l)) if L0 is not None else ""
    else:
        cols = [math.inf] * 5
        emax = "inf" if E0 is not None else ""
        lmax = "inf" if L0 is not None else ""
    print("model,integrator,plan,dt,jitter,seed,steps,t_end,force_evals,err_pos_final,"
          "err_pos_max,err_pos_rms,err_vel_final,err_vel_max,err_energy_max,status,"
          "err_angmom_max")
    print(",".join([model_name, integ, plan, repr(dt_col), jit_col, seed_col, str(steps),
                    repr(t_end), str(counter[0])] + [repr(c) for c in cols] +
                   [emax, status, lmax]))


if __name__ == "__main__":
    main(sys.argv)
