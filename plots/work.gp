# work.gp — work against precision: the error bought by each force evaluation.
#   gnuplot -c plots/work.gp results/NAME/convergence.csv OUT.png [TITLE]
# Reads integrator, plan, force_evals, err_pos_max.  Lower left is better:
# at equal cost, the method lower down is more accurate.  Each panel's axes
# fit its own data; a curve equal to an earlier one (same_as) says "= NAME"
# in the key and is drawn striped over it (style.gp).
load "plots/style.gp"
DATA = ARG1
OUTFILE = ARG2
TITLE = ARGC >= 3 ? ARG3 : ""
NEED = "force_evals err_pos_max"
@REQUIRE
@GROUPS
@TRACEPASS
NEARCOL = "err_pos_max"
@NEARPASS
NP = words(PLANLIST)

# each panel's axes fit its own data (log10 units), with a modest margin;
# COST records the force evaluations of each curve's first row
PANEL_RANGE = 'XLO = 1e300; XHI = -1e300; YLO = 1e300; YHI = -1e300; COST = " "; \
    do for [s in SERIES] { if (has_group(p, s)) { FIRST = 1; \
        stats DATA every ::first_row(p, s)::last_row(p, s) using (x = column("force_evals"), y = column("err_pos_max"), \
            (FIRST ? (COST = COST.s."=".sprintf("%.6g", x)." ", FIRST = 0) : 0), \
            (finite(x) && finite(y) && x > 0 && y > 0) ? (XLO = min(XLO, log10(x)), XHI = max(XHI, log10(x)), YLO = min(YLO, log10(y)), YHI = max(YHI, log10(y))) : 0, 1) nooutput } }'
cost_of(s) = (k = strstrt(COST, " ".s."="), k ? real(word(COST[k:], 1)[strlen(s) + 2:]) : NaN)
same_cost(a, b) = abs(cost_of(a) / cost_of(b) - 1) < 0.05
# Equal errors lie on one curve here only at equal cost (within 5 %: a
# method may spend one more evaluation to start): rk4 equal to verlet
# (exact on a projectile) spends 4 force evaluations a step and is drawn
# apart, solid, its key saying "errors = verlet".
# A curve that would hide under another (near_as) is drawn over it on the
# same terms.
same_as(p, s) = (l = same_as_raw(p, s), n = near_as(p, s), \
                 l ne "" && same_cost(s, l) ? l : n ne "" && same_cost(s, n) ? n : "")
work_note(p, s) = same_as(p, s) ne "" ? same_note(p, s) : same_as_raw(p, s) ne "" ? "  errors = ".same_as_raw(p, s) : ""

# the key's width (MARGINS): the longest title a note can make
KEYCHARS = 10
do for [p in PLANLIST] { do for [s in SERIES] { l = same_as_raw(p, s); \
    KEYCHARS = max(KEYCHARS, strlen(s) + (l ne "" ? strlen("  errors = ".l) : near_as(p, s) ne "" ? strlen("  ≈ ".near_as(p, s)) : 0)) } }
WIDTH = 1000.0

TERMNAME = term_name(OUTFILE)
set terminal @TERMNAME size 1000, 430 * NP + 50 enhanced font "DejaVu Sans,11" linewidth 1.5 butt
set output OUTFILE
set logscale xy
set format x "%.0s%c"
set format y "10^{%L}"
set xlabel "force evaluations over the run (count)" noenhanced
set ylabel "max position error (length units)" noenhanced
set key outside right top vertical noenhanced nobox width -5 samplen 2.5 font ",10"
@MARGINS
set multiplot layout NP, 1 title (TITLE ne "" ? TITLE.": " : "")."work against precision" noenhanced font ",13"
do for [p in PLANLIST] {
    set autoscale xy   # stats filters by the axis ranges: not by the last panel's
    @PANEL_RANGE
    if (XLO <= XHI) {
        YPAD = max(0.25, 0.06 * (YHI - YLO))
        set xrange [10**(XLO - 0.1) : 10**(XHI + 0.1)]
        # the force evaluations double from level to level: a tic per factor
        # of 2, on round numbers (..., 250, 500, 1k, 2k, ...)
        set xtics 1000 * 2**floor((XLO - 0.1 - 3) / log10(2)), 2
        set yrange [10**(YLO - YPAD) : 10**(YHI + YPAD)]
        unset label 21
    } else {
        # nothing finite to draw (every run diverged, or its truth failed)
        set xrange [1e2 : 1e4]
        set yrange [1e-3 : 1]
        set label 21 "no finite errors to draw: every run diverged,\nor its exact solution could not be computed" at graph 0.5, graph 0.5 center font ",11" tc rgb "#555555" noenhanced
    }
    set title plan_title(p) noenhanced
    @NEARNOTE
    @STRIPES
    if (XLO <= XHI) {
        plot for [s in SERIES] DATA every ::first_row(p, s)::last_row(p, s) using "force_evals":"err_pos_max" \
                 with linespoints lw curve_lw(p, s, 1.6) dt curve_dt(p, s) pt ptype(s) ps curve_ps(p, s, 1.0) lc rgb colour(s) notitle, \
             for [s in SERIES] keyentry with linespoints lw 1.6 pt ptype(s) ps 1.0 lc rgb colour(s) title key_title(p, s, s.work_note(p, s))
    } else {
        plot 1e300 notitle, \
             for [s in SERIES] keyentry with linespoints lw 1.6 pt ptype(s) ps 1.0 lc rgb colour(s) title key_title(p, s, s.work_note(p, s))
    }
}
unset multiplot
