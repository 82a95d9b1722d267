# over-time.gp — one error against time, one panel per plan; loaded by
# error-time.gp and energy-time.gp after they set COL, YLABEL and WHAT.
#   DATA = results/NAME/timeseries.csv: integrator, plan, dt, t, COL
# Each point is the largest error in one time window, so spikes between
# samples are not lost; zero errors (t = 0, exact methods) are not drawn on
# the log axis.
load "plots/style.gp"
RANDOM_TITLE = "random steps (seed 1)"
NEED = "t dt ".COL
@REQUIRE
@GROUPS
NP = words(PLANLIST)
stats DATA using "t" nooutput
TMAX = STATS_max
stats DATA using "dt" nooutput
DT = STATS_max
stats DATA using (column(COL) > 0 ? log10(column(COL)) : NaN) nooutput
EMIN = 10**floor(STATS_min)
EMAX = 10**ceil(STATS_max)
set terminal pngcairo size 1000, 430 * NP + 50 enhanced font "DejaVu Sans,11" linewidth 1.5
set output OUT
set logscale y
set format y "10^{%L}"
set xlabel "time t (time units)" noenhanced
set ylabel YLABEL noenhanced
set xrange [0 : TMAX]
set yrange [EMIN : EMAX]
set key outside right top vertical noenhanced nobox samplen 2 font ",10"
set multiplot layout NP, 1 title sprintf("%s%s, dt = %g", TITLE ne "" ? TITLE.": " : "", WHAT, DT) noenhanced font ",13"
do for [p in PLANLIST] {
    set title plan_title(p) noenhanced
    plot for [s in SERIES] DATA every ::first_row(p, s)::last_row(p, s) using "t":(column(COL) > 0 ? column(COL) : NaN) \
             with lines lw 1.4 lc rgb colour(s) title key_title(p, s, s)
}
unset multiplot
