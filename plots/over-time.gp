# over-time.gp — one error against time, one panel per plan; loaded by
# error-time.gp and energy-time.gp after they set COL, YLABEL and WHAT.
#   DATA = results/NAME/timeseries.csv: integrator, plan, dt, t, COL
# Each point is the largest error in one time window, so spikes between
# samples are not lost; zero errors (t = 0, exact methods) are not drawn on
# the log axis.  Each panel's y axis fits its own curves.  A curve equal to
# an earlier one (same_as, energy_same_as) says "= NAME" in the key and is
# drawn striped over it (style.gp).
load "plots/style.gp"
RANDOM_TITLE = "random steps (seed 1)"
# which curves coincide: same_as for err_pos, energy_same_as for err_energy;
# drift off the rods (constraint-time.gp) is not compared
SAMECOL = COL eq "err_energy" ? "energy_same_as" : COL eq "err_pos" ? "same_as" : "none"
NEED = "t dt ".COL
@REQUIRE
@GROUPS
NEARCOL = COL
@NEARPASS
NP = words(PLANLIST)
stats DATA using "t":"dt" nooutput
TMAX = STATS_max_x
DT = STATS_max_y

# each panel's y axis fits its own curves: whole decades around them
PANEL_RANGE = 'YLO = 1e300; YHI = -1e300; \
    do for [s in SERIES] { if (has_group(p, s)) { \
        stats DATA every ::first_row(p, s)::last_row(p, s) using (y = column(COL), \
            finite(y) && y > 0 ? (ly = log10(y), YLO = ly < YLO ? ly : YLO, YHI = ly > YHI ? ly : YHI) : 0, 1) nooutput } }'

# the energy of an engine without velocity (docs/real-engines.md §1.7):
# its cells are empty, nothing is drawn, and its key says why
NOVEL = " "
if (COL eq "err_energy") { CI = col_index(COL); do for [p in PLANLIST] { do for [s in SERIES] { \
    if (has_group(p, s)) { stats DATA every ::first_row(p, s)::last_row(p, s) using (valid(CI) ? 1 : 0) nooutput; \
        if (STATS_sum == 0) { NOVEL = NOVEL.p."/".s." " } } } } }
key_note(p, s) = strstrt(NOVEL, " ".p."/".s." ") ? "  (no velocity)" : same_note(p, s)

KEYCHARS = 10
do for [p in PLANLIST] { do for [s in SERIES] { KEYCHARS = max(KEYCHARS, strlen(s.key_note(p, s))) } }
WIDTH = 1000.0

TERMNAME = term_name(OUT)
set terminal @TERMNAME size 1000, 430 * NP + 50 enhanced font "DejaVu Sans,11" linewidth 1.5 butt
set output OUT
set logscale y
set format y "10^{%L}"
set xlabel "time t (time units)" noenhanced
set ylabel YLABEL noenhanced
set xrange [0 : TMAX]
set key outside right top vertical noenhanced nobox width -5 samplen 2.5 font ",10"
@MARGINS
set multiplot layout NP, 1 title sprintf("%s%s, dt = %g", TITLE ne "" ? TITLE.": " : "", WHAT, DT) noenhanced font ",13"
do for [p in PLANLIST] {
    set autoscale y   # stats filters by the axis ranges: not by the last panel's
    @PANEL_RANGE
    if (YLO <= YHI) { YHI = min(YHI, YLO + MAX_DECADES); set yrange [10**floor(YLO - 0.05) : 10**ceil(YHI + 0.05)] }
    set title plan_title(p) noenhanced
    @NEARNOTE
    @STRIPES
    plot for [s in SERIES] DATA every ::first_row(p, s)::last_row(p, s) using "t":(column(COL) > 0 ? column(COL) : NaN) \
             with lines lw curve_lw(p, s, 1.4) dt curve_dt(p, s) lc rgb colour(s) notitle, \
         for [s in SERIES] keyentry with lines lw 1.6 lc rgb colour(s) title key_title(p, s, s.key_note(p, s))
}
unset multiplot
