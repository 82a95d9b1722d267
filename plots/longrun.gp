# longrun.gp — the running maximum of the relative energy error |E - E0|/|E0|
# against time, on log scales, a curve a method (dashed: with Kahan
# compensation), with guides of slope 1/2 and 1.
#   gnuplot -c plots/longrun.gp DIR/longrun.csv OUT.png [TITLE]
load "plots/style.gp"
DATA = ARG1
OUTFILE = ARG2
TITLE = ARGC >= 3 ? ARG3 : ""
SERIES = " "
stats DATA using (n = strcol("integrator"), (strstrt(SERIES, " ".n." ") == 0 ? SERIES = SERIES.n." " : 0), 0) nooutput
if (STATS_records == 0) {
    print sprintf("%s: no rows to draw", DATA)
    exit status 3
}
stats DATA using "periods" nooutput
PMAX = STATS_max
stats DATA using (column("energy_max") > 0 ? log10(column("energy_max")) : NaN) nooutput
EMIN = 10**STATS_min
EMAX = 10**STATS_max

set terminal term_name(OUTFILE) size 1000, 640 enhanced font "DejaVu Sans,11" linewidth 1.5
set output OUTFILE
set title (TITLE ne "" ? TITLE.": " : "")."max |E - E_0|/|E_0| up to t; dashed: Kahan-compensated" noenhanced
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xlabel "t (periods)"
set ylabel "max relative energy error so far"
set xrange [1 : PMAX * 1.5]
set yrange [EMIN / 3 : EMAX * 3]
set key outside right top vertical noenhanced nobox samplen 3 font ",10"
mine(s, k) = strcol("integrator") eq s && column("kahan") == k
plot for [s in SERIES] DATA using (mine(s, 0) ? column("periods") : NaN):"energy_max" \
         with linespoints lc rgb colour(s) pt ptype(s) ps 0.8 title s, \
     for [s in SERIES] DATA using (mine(s, 1) ? column("periods") : NaN):"energy_max" \
         with linespoints dt 2 lc rgb colour(s) pt ptype(s) ps 0.8 title s." (Kahan)", \
     EMIN * sqrt(x) dt 3 lc rgb "#888888" title "t^{1/2}" enhanced, \
     EMIN * x dt 4 lc rgb "#bbbbbb" title "t^1" enhanced
