# stability.gp — the largest stable step against the varied parameter (the
# damped spring's c, the orbit's e) or against the step jitter.
#   gnuplot -c plots/stability.gp DIR/stability-summary.csv OUT.png [TITLE]
# Reads what `verletbench stability` wrote: a point per integrator and value,
# the median over seeds with the range of the seeds as a bar (one seed with
# fixed steps: no bar), and the closed-form limit, where there is one, as a
# dashed line of the same colour.
load "plots/style.gp"
DATA = ARG1
OUTFILE = ARG2
TITLE = ARGC >= 3 ? ARG3 : ""
# the x: the varied parameter when there is one, else the jitter
PARAM = ""
stats DATA using (PARAM = strcol("param"), 0) nooutput
if (STATS_records == 0) {
    print sprintf("%s: no rows to draw", DATA)
    exit status 3
}
X = PARAM ne "" ? "value" : "jitter"
XLABEL = PARAM ne "" ? PARAM : "step jitter j (steps dt (1 + j u), u uniform in [-1, 1))"
SERIES = " "
stats DATA using (n = strcol("integrator"), (strstrt(SERIES, " ".n." ") == 0 ? SERIES = SERIES.n." " : 0), 0) nooutput
WHAT = ""
stats DATA using (WHAT = strcol("model"), 0) nooutput
ZNAME = WHAT eq "orbit" ? "ω_p h" : (WHAT eq "chain" ? "ω_max h" : "ω_0 h")

set terminal term_name(OUTFILE) size 1000, 640 enhanced font "DejaVu Sans,11" linewidth 1.5
set output OUTFILE
set title (TITLE ne "" ? TITLE.": " : "")."largest stable step (jittered: median, bars the range over seeds); dashed: theory" noenhanced
set xlabel XLABEL noenhanced
set ylabel "largest stable ".ZNAME
set key outside right top vertical noenhanced nobox samplen 2.5 font ",10"
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05
mine(s) = strcol("integrator") eq s
plot for [s in SERIES] DATA using (mine(s) ? column(X) : NaN):"z_median":"z_min":"z_max" \
         with yerrorlines lc rgb colour(s) pt ptype(s) ps 1.1 title s, \
     for [s in SERIES] DATA using (mine(s) ? column(X) : NaN):"theory" \
         with lines dt 2 lw 1.2 lc rgb colour(s) notitle
