# band.gp — how much the error of a random-step run depends on the seed.
#   gnuplot -c plots/band.gp results/NAME/convergence.csv OUT.png [TITLE]
# Reads the rows of plan "random": the median over seeds of the maximum
# position error (line) and the 10th-90th percentile band (shaded).
load "plots/style.gp"
DATA = ARG1
TITLE = ARGC >= 3 ? ARG3 : ""
NEED = "dt err_pos_max p10 p90"
@REQUIRE
@GROUPS
is_random(p) = p eq "random"
if (strstrt(PLANLIST, "random") == 0) {
    print sprintf("%s: no rows with plan \"random\": nothing to draw a band from", DATA)
    exit status 3
}
stats DATA using (is_random(strcol("plan")) ? column("dt") : NaN) nooutput
DTMIN = STATS_min
DTMAX = STATS_max
stats DATA using (is_random(strcol("plan")) && column("p10") > 0 ? log10(column("p10")) : NaN) nooutput
EMIN = 10**STATS_min
stats DATA using (is_random(strcol("plan")) && column("p90") > 0 ? log10(column("p90")) : NaN) nooutput
EMAX = 10**STATS_max

set terminal pngcairo size 1000, 640 enhanced font "DejaVu Sans,11" linewidth 1.5
set output ARG2
set title (TITLE ne "" ? TITLE.": " : "")."random steps, median over seeds with the 10th-90th percentile band" noenhanced
set logscale xy
set format x "%.2g"
set xtics 2  # dt halves from level to level: a tic per factor of 2
set format y "10^{%L}"
set xlabel "mean step size dt (time units)" noenhanced
set ylabel "max position error (length units)" noenhanced
set xrange [DTMIN / 1.5 : DTMAX * 1.5]
set yrange [EMIN / 5 : EMAX * 5]
set key outside right top vertical noenhanced nobox samplen 2 font ",10"
set style fill transparent solid 0.22 noborder
plot for [s in SERIES] DATA every ::first_row("random", s)::last_row("random", s) using "dt":"p10":"p90" \
         with filledcurves lc rgb colour(s) notitle, \
     for [s in SERIES] DATA every ::first_row("random", s)::last_row("random", s) using "dt":"err_pos_max" \
         with linespoints lw 1.6 pt ptype(s) ps 1.0 lc rgb colour(s) title key_title("random", s, s)
