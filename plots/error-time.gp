# error-time.gp — position error against time at one step size, log y.
#   gnuplot -c plots/error-time.gp results/NAME/timeseries.csv OUT.png [TITLE]
DATA = ARG1
OUT = ARG2
TITLE = ARGC >= 3 ? ARG3 : ""
COL = "err_pos"
YLABEL = "position error |x - x_exact| (length units)"
WHAT = "position error over time"
load "plots/over-time.gp"
