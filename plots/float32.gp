# float32.gp — one method's error against its steps a period in float64 and
# in float32 about origins shifted by 0, 1e3 and 1e4: where it stops
# converging.
#   gnuplot -c plots/float32.gp SWEEP.csv OUT.png INTEGRATOR [TITLE]
# SWEEP.csv is what plots/float32-sweep.sh writes.
load "plots/style.gp"
DATA = ARG1
OUTFILE = ARG2
INTEG = ARG3
TITLE = ARGC >= 4 ? ARG4 : ""
stats DATA using (strcol("integrator") eq INTEG ? column("err_pos_max") : NaN) nooutput
if (STATS_records == 0 || STATS_invalid == STATS_records) {
    print sprintf("%s: no rows of %s", DATA, INTEG)
    exit status 3
}
set terminal term_name(OUTFILE) size 1000, 640 enhanced font "DejaVu Sans,11" linewidth 1.5
set output OUTFILE
set title (TITLE ne "" ? TITLE.": " : "").INTEG.", largest position error over one period" noenhanced
set logscale xy
set format x "2^{%L}"
set logscale x 2
set format y "10^{%L}"
set xlabel "steps a period"
set ylabel "max position error (scene units)"
set key outside right top vertical noenhanced nobox samplen 3 font ",10"
pick(p, o) = strcol("integrator") eq INTEG && strcol("precision") eq p && strcol("offset") eq o
plot DATA using (pick("float64", "0") ? column("steps_per_period") : NaN):"err_pos_max" \
         with linespoints lc rgb "#000000" pt 6 title "float64", \
     DATA using (pick("float32", "0") ? column("steps_per_period") : NaN):"err_pos_max" \
         with linespoints lc rgb "#1f77b4" pt 4 title "float32, offset 0", \
     DATA using (pick("float32", "1e3") ? column("steps_per_period") : NaN):"err_pos_max" \
         with linespoints lc rgb "#ff7f0e" pt 8 title "float32, offset 10^3" enhanced, \
     DATA using (pick("float32", "1e4") ? column("steps_per_period") : NaN):"err_pos_max" \
         with linespoints lc rgb "#d62728" pt 12 title "float32, offset 10^4" enhanced
