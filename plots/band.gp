# band.gp — how much the error of a random-step run depends on the seed.
#   gnuplot -c plots/band.gp results/NAME/convergence.csv OUT.png [TITLE]
# Reads the rows of plan "random": the median over seeds of the maximum
# position error (line) and the 10th-90th percentile band (shaded).  A curve
# equal to an earlier one (same_as) says "= NAME" in the key and is drawn
# striped over it (style.gp).
load "plots/style.gp"
DATA = ARG1
OUTFILE = ARG2
TITLE = ARGC >= 3 ? ARG3 : ""
NEED = "dt err_pos_max p10 p90"
@REQUIRE
@GROUPS
@STEPSIZED
NEARCOL = "err_pos_max"
@NEARPASS
is_random(p) = p eq "random"
# a random row of a method with steps of its own size (an adaptive one's
# x is a tolerance: left out, as @STEPSIZED leaves it out of SERIES)
HASTOL = has_column("tol")
in_band(p) = is_random(p) && (!HASTOL || column("tol") == 0)
if (strstrt(PLANLIST, "random") == 0) {
    print sprintf("%s: no rows with plan \"random\": nothing to draw a band from", DATA)
    exit status 3
}
stats DATA using (in_band(strcol("plan")) ? column("dt") : NaN) nooutput
DTMIN = STATS_min
DTMAX = STATS_max
# every run diverged, or its truth failed: an empty chart that says so
stats DATA using (in_band(strcol("plan")) && finite(column("p10")) && column("p10") > 0 ? 1 : 0) nooutput
TERMNAME = term_name(OUTFILE)   # (a macro in a block is expanded when the block is read)
if (STATS_sum == 0) {
    set terminal @TERMNAME size 1000, 640 enhanced font "DejaVu Sans,11" linewidth 1.5 butt
    set output OUTFILE
    set title (TITLE ne "" ? TITLE.": " : "")."random steps, median over seeds with the 10th-90th percentile band" noenhanced
    set logscale xy
    set xrange [DTMIN / 10**0.1 : DTMAX * 10**0.1]
    set yrange [1e-3 : 1]
    set label 21 "no finite errors to draw: every run diverged,\nor its exact solution could not be computed" at graph 0.5, graph 0.5 center font ",11" tc rgb "#555555" noenhanced
    plot 1e300 notitle
    exit
}
stats DATA using (in_band(strcol("plan")) && finite(column("p10")) && column("p10") > 0 ? log10(column("p10")) : NaN) nooutput
EMIN = 10**STATS_min
stats DATA using (in_band(strcol("plan")) && finite(column("p90")) && column("p90") > 0 ? log10(column("p90")) : NaN) nooutput
EMAX = 10**STATS_max

TERMNAME = term_name(OUTFILE)
set terminal @TERMNAME size 1000, 640 enhanced font "DejaVu Sans,11" linewidth 1.5 butt
set output OUTFILE
set title (TITLE ne "" ? TITLE.": " : "")."random steps, median over seeds with the 10th-90th percentile band" noenhanced
set logscale xy
set format x "%.2g"
set xtics 2  # dt halves from level to level: a tic per factor of 2
set format y "10^{%L}"
set xlabel "mean step size dt (time units)" noenhanced
set ylabel "max position error (length units)" noenhanced
# a modest margin: a tenth of a decade in dt (levels are 0.3 apart), 6 % of the span in error
YPAD = max(0.25, 0.06 * log10(EMAX / EMIN))
set xrange [DTMIN / 10**0.1 : DTMAX * 10**0.1]
set yrange [EMIN / 10**YPAD : EMAX * 10**YPAD]
set key outside right top vertical noenhanced nobox width -5 samplen 2.5 font ",10"
# the key in a margin sized to its longest title (style.gp's MARGINS): a
# long name ran into the plot area
KEYCHARS = 10
do for [s in SERIES] { if (has_group("random", s)) { KEYCHARS = max(KEYCHARS, strlen(s.same_note("random", s))) } }
WIDTH = 1000.0
@MARGINS
# a 90th percentile of inf (more than a tenth of the seeds diverged) runs
# the band off the top of the chart
YTOP = EMAX * 10**YPAD
band_top(v) = finite(v) ? v : YTOP * 10
set style fill transparent solid 0.22 noborder
p = "random"
@NEARNOTE
@STRIPES
plot for [s in SERIES] DATA every ::first_row(p, s)::last_row(p, s) using "dt":"p10":(band_top(column("p90"))) \
         with filledcurves lc rgb colour(s) notitle, \
     for [s in SERIES] DATA every ::first_row(p, s)::last_row(p, s) using "dt":"err_pos_max" \
         with linespoints lw curve_lw(p, s, 1.6) dt curve_dt(p, s) pt ptype(s) ps curve_ps(p, s, 1.0) lc rgb colour(s) notitle, \
     for [s in SERIES] keyentry with linespoints lw 1.6 pt ptype(s) ps 1.0 lc rgb colour(s) title key_title(p, s, s.same_note(p, s))
