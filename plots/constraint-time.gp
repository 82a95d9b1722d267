# constraint-time.gp — how far the rods are off their lengths against time,
# log y, for a model with rods (the file has an err_constraint column only
# for them): the largest | |x_i - x_j| - L | in each window.
#   gnuplot -c plots/constraint-time.gp results/NAME/timeseries.csv OUT.png [TITLE]
# Relaxation drifts by what its sweeps leave; SHAKE and RATTLE stay at their
# tolerance; a single rod relaxed once is exact.
DATA = ARG1
OUT = ARG2
TITLE = ARGC >= 3 ? ARG3 : ""
COL = "err_constraint"
YLABEL = "rods off their length, largest | |x_i - x_j| - L | (length units)"
WHAT = "drift off the rods over time"
load "plots/over-time.gp"
