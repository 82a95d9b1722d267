# work.gp — work against precision: the error bought by each force evaluation.
#   gnuplot -c plots/work.gp results/NAME/convergence.csv OUT.png [TITLE]
# Reads integrator, plan, force_evals, err_pos_max.  Lower left is better:
# at equal cost, the method lower down is more accurate.
load "plots/style.gp"
DATA = ARG1
TITLE = ARGC >= 3 ? ARG3 : ""
NEED = "force_evals err_pos_max"
@REQUIRE
@GROUPS
NP = words(PLANLIST)
stats DATA using (column("force_evals") > 0 ? column("force_evals") : NaN) nooutput
NMIN = STATS_min
NMAX = STATS_max
stats DATA using (column("err_pos_max") > 0 ? log10(column("err_pos_max")) : NaN) nooutput
EMIN = 10**STATS_min
EMAX = 10**STATS_max

set terminal pngcairo size 1000, 430 * NP + 50 enhanced font "DejaVu Sans,11" linewidth 1.5
set output ARG2
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xlabel "force evaluations over the run (count)" noenhanced
set ylabel "max position error (length units)" noenhanced
set xrange [NMIN / 1.5 : NMAX * 1.5]
set yrange [EMIN / 5 : EMAX * 5]
set key outside right top vertical noenhanced nobox samplen 2 font ",10"
set multiplot layout NP, 1 title (TITLE ne "" ? TITLE.": " : "")."work against precision" noenhanced font ",13"
do for [p in PLANLIST] {
    set title plan_title(p) noenhanced
    plot for [s in SERIES] DATA every ::first_row(p, s)::last_row(p, s) using "force_evals":"err_pos_max" \
             with linespoints lw 1.6 pt ptype(s) ps 1.0 lc rgb colour(s) title key_title(p, s, s)
}
unset multiplot
