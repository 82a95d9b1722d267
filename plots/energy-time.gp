# energy-time.gp — relative energy error |E - E0| / |E0| against time, log y,
# for conservative cases (the file has an err_energy column only for them).
#   gnuplot -c plots/energy-time.gp results/NAME/timeseries.csv OUT.png [TITLE]
# Symplectic methods at fixed steps stay in a band; Euler drifts.
DATA = ARG1
OUT = ARG2
TITLE = ARGC >= 3 ? ARG3 : ""
COL = "err_energy"
YLABEL = "relative energy error |E - E_0| / |E_0| (dimensionless)"
WHAT = "energy error over time"
load "plots/over-time.gp"
