# convergence.gp — error against step size, log-log, one panel per plan.
#   gnuplot -c plots/convergence.gp results/NAME/convergence.csv OUT.png [TITLE]
# Reads integrator, plan, dt, err_pos_max, order.  The legend gives each
# integrator's fitted order (* = a trend: no single power law), and dashed
# grey lines show slopes 1, 2 and 4 for comparison.
load "plots/style.gp"
DATA = ARG1
TITLE = ARGC >= 3 ? ARG3 : ""
NEED = "dt err_pos_max"
@REQUIRE
@GROUPS
NP = words(PLANLIST)

# the order text of one integrator and plan (the same on each of its rows)
ORDERS = " "
stats DATA using (ORDERS = ORDERS.strcol("plan")."/".strcol("integrator")."=".strcol("order")." ", 0) nooutput
order_of(p, s) = (k = strstrt(ORDERS, " ".p."/".s."="), k ? word(ORDERS[k:], 1)[strlen(p) + strlen(s) + 3:] : "?")

# reference slopes through the middle of the data at the largest dt
stats DATA using "dt" nooutput
DTMAX = STATS_max
DTMIN = STATS_min
stats DATA using (column("err_pos_max") > 0 ? log10(column("err_pos_max")) : NaN) nooutput
EMIN = 10**STATS_min
EMAX = 10**STATS_max
EMID = 10**((STATS_max + STATS_min) / 2)
DTMID = sqrt(DTMIN * DTMAX)
# drawn only over the measured step sizes, so they do not cross the legend
ref(x, p) = (x >= DTMIN && x <= DTMAX) ? EMID * (x / DTMID)**p : NaN

# panels stacked, one per plan, so each keeps its own legend of orders and
# the figure stays readable at README width
set terminal pngcairo size 1000, 470 * NP + 40 enhanced font "DejaVu Sans,11" linewidth 1.5
set output ARG2
set logscale xy
set format x "%.2g"
set xtics 2  # dt halves from level to level: a tic per factor of 2
set format y "10^{%L}"
set xlabel "step size dt (time units)" noenhanced
set ylabel "max position error (length units)" noenhanced
set xrange [DTMIN / 1.5 : DTMAX * 1.5]
set yrange [EMIN / 5 : EMAX * 5]
set key outside right top vertical noenhanced nobox width -4 samplen 2 font ",10"
set samples 400
set multiplot layout NP, 1 title TITLE noenhanced font ",13"
do for [p in PLANLIST] {
    set title plan_title(p) noenhanced
    plot for [s in SERIES] DATA every ::first_row(p, s)::last_row(p, s) using "dt":"err_pos_max" \
             with linespoints lw 1.6 pt ptype(s) ps 1.1 lc rgb colour(s) title key_title(p, s, sprintf("%s  p = %s", s, order_of(p, s))), \
         ref(x, 1) with lines dt 2 lw 1 lc rgb "#999999" title "slope 1", \
         ref(x, 2) with lines dt 3 lw 1 lc rgb "#999999" title "slope 2", \
         ref(x, 4) with lines dt 4 lw 1 lc rgb "#999999" title "slope 4"
}
unset multiplot
