# work-time.gp — work against precision in wall time: the error bought by
# each second of computing, on the machine that ran `run --timing`.
#   gnuplot -c plots/work-time.gp results/NAME/timing.csv OUT.png [TITLE]
# Reads integrator, plan, seconds, err_pos_max (timing.csv: each run timed
# alone, the median of repeats; docs/method.md §8).  Lower left is better.
# The same runs as work.gp's, so a method that wins there on force
# evaluations and loses here pays for its arithmetic between them.
load "plots/style.gp"
DATA = ARG1
OUTFILE = ARG2
TITLE = ARGC >= 3 ? ARG3 : ""
NEED = "seconds err_pos_max"
@REQUIRE
@GROUPS
@TRACEPASS
NP = words(PLANLIST)

# each panel's axes fit its own data (log10 units), with a modest margin
PANEL_RANGE = 'XLO = 1e300; XHI = -1e300; YLO = 1e300; YHI = -1e300; \
    do for [s in SERIES] { if (has_group(p, s)) { \
        stats DATA every ::first_row(p, s)::last_row(p, s) using (x = column("seconds"), y = column("err_pos_max"), \
            (finite(x) && finite(y) && x > 0 && y > 0) ? (XLO = min(XLO, log10(x)), XHI = max(XHI, log10(x)), YLO = min(YLO, log10(y)), YHI = max(YHI, log10(y))) : 0, 1) nooutput } }'

KEYCHARS = 10
do for [s in SERIES] { KEYCHARS = max(KEYCHARS, strlen(s)) }
WIDTH = 1000.0

TERMNAME = term_name(OUTFILE)
set terminal @TERMNAME size 1000, 430 * NP + 50 enhanced font "DejaVu Sans,11" linewidth 1.5 butt
set output OUTFILE
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xlabel "wall time of the run (seconds, median of repeats, this machine)" noenhanced
set ylabel "max position error (length units)" noenhanced
set key outside right top vertical noenhanced nobox width -5 samplen 2.5 font ",10"
@MARGINS
set multiplot layout NP, 1 title (TITLE ne "" ? TITLE.": " : "")."work against precision, in seconds" noenhanced font ",13"
do for [p in PLANLIST] {
    set autoscale xy
    @PANEL_RANGE
    if (XLO <= XHI) {
        XPAD = max(0.1, 0.04 * (XHI - XLO))
        YPAD = max(0.25, 0.06 * (YHI - YLO))
        set xrange [10**(XLO - XPAD) : 10**(XHI + XPAD)]
        set yrange [10**(YLO - YPAD) : 10**(YHI + YPAD)]
        unset label 21
    } else {
        set xrange [1e-6 : 1e-2]
        set yrange [1e-3 : 1]
        set label 21 "no finite errors to draw: every run diverged,\nor its exact solution could not be computed" at graph 0.5, graph 0.5 center font ",11" tc rgb "#555555" noenhanced
    }
    set title plan_title(p) noenhanced
    if (XLO <= XHI) {
        plot for [s in SERIES] DATA every ::first_row(p, s)::last_row(p, s) using "seconds":"err_pos_max" \
                 with linespoints lw 1.6 pt ptype(s) ps 1.0 lc rgb colour(s) notitle, \
             for [s in SERIES] keyentry with linespoints lw 1.6 pt ptype(s) ps 1.0 lc rgb colour(s) title key_title(p, s, s)
    } else {
        plot 1e300 notitle, \
             for [s in SERIES] keyentry with linespoints lw 1.6 pt ptype(s) ps 1.0 lc rgb colour(s) title key_title(p, s, s)
    }
}
unset multiplot
