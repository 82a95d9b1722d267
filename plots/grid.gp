# grid.gp — a case file's grid: what each integrator measured against the
# grid's parameter, one panel per plan.
#   gnuplot -c plots/grid.gp results/NAME/grid.csv OUT.png TITLE KEY MODE
# KEY is the column drawn along x (the grid's first key, e.g. "e"); MODE is
#   order   the fitted order of err_pos_max at each point, its 95 % interval
#           as an error bar; a trend (*: no single power law) as an open
#           point without one; grey dashed lines at the labels;
#   error   err_pos_max at each point's finest step (log scale).
# Reads point, KEY, integrator, plan, norm, order, order_ci95, range,
# expected, err_finest and same_as (a curve equal to an earlier one at every
# point is drawn striped over it, its key saying "= NAME", as style.gp does).  Only the rows of err_pos_max are drawn.  A grid of
# several keys is drawn one value of the others at a time (plots/draw cuts
# grid.csv into those).  x is logarithmic when the values are positive and
# span a factor of 20 or more.
load "plots/style.gp"
DATA = ARG1
OUTFILE = ARG2
TITLE = ARGC >= 3 ? ARG3 : ""
XKEY = ARGC >= 4 ? ARG4 : "e"
MODE = ARGC >= 5 ? ARG5 : "order"
NEED = XKEY." err_finest"
@REQUIRE
@GROUPS
@TRACEPASS
# a curve that would hide another is drawn over it: errors on a log axis,
# orders (the asymptotic ones, the points with their bars) on a linear one
NEARCOL = MODE eq "error" ? "err_finest" : "order"
NEAR_LOG = MODE eq "error"
NEAR_WHAT = MODE eq "error" ? "errors" : "orders"
near_value(dummy) = strcol("norm") eq "err_pos_max" && (MODE eq "error" || strcol("range") eq "asymptotic") ? column(NEARCOL) : NaN
@NEARPASS
NP = words(PLANLIST)
if (NP == 0) { print sprintf("%s: no rows to draw", DATA); exit status 3 }

is_pos(r) = strcol("norm") eq "err_pos_max"
asym_order(r) = is_pos(r) && strcol("range") eq "asymptotic" ? column("order") : NaN
trend_order(r) = is_pos(r) && strcol("range") eq "all" ? column("order") : NaN
ci(r) = (c = column("order_ci95"), c == c ? c : 0)
err_at(r) = (y = column("err_finest"), is_pos(r) && finite(y) && y > 0 ? y : NaN)

# the x range, and whether it is logarithmic
stats DATA using (column(XKEY)) nooutput
XMIN = STATS_min; XMAX = STATS_max
LOGX = XMIN > 0 && XMAX / XMIN >= 20
# the labels, for the guide lines of the order chart
LABELS = " "
stats DATA using (l = sprintf("%d", column("expected")), strstrt(LABELS, " ".l." ") == 0 ? LABELS = LABELS.l." " : 0, 0) nooutput

# the order chart's y range: the labels and every asymptotic order, with
# room (a flat series of 2.00 is not stretched over a hundredth); a trend
# (*) widens it at most to two orders beyond the labels, and error bars are
# clipped: a trend of 90 would flatten every order that means something
YLO = 1e300; YHI = -1e300
do for [l in LABELS] { YLO = min(YLO, real(l) - 0.75); YHI = max(YHI, real(l) + 0.75) }
LLO = YLO + 0.75; LHI = YHI - 0.75
stats DATA using (o = is_pos(0) && strcol("range") ne "none" ? column("order") : NaN, \
                  finite(o) ? (o = strcol("range") eq "all" ? max(LLO - 2, min(LHI + 2, o)) : o, \
                               YLO = min(YLO, o - 0.25), YHI = max(YHI, o + 0.25)) : 0, 0) nooutput
# the error chart's: every error of err_pos_max, a third of a decade of room
ELO = 1e300; EHI = -1e300
stats DATA using (y = err_at(0), y == y ? (ELO = min(ELO, y), EHI = max(EHI, y)) : 0, 0) nooutput

KEYCHARS = 12
do for [p in PLANLIST] { do for [s in SERIES] { KEYCHARS = max(KEYCHARS, strlen(s.same_note(p, s))) } }
WIDTH = 1000.0
TERMNAME = term_name(OUTFILE)
set terminal @TERMNAME size 1000, 400 * NP + 60 enhanced font "DejaVu Sans,11" linewidth 1.5 butt
set output OUTFILE
if (LOGX) { set logscale x; set format x "%g" } else { unset logscale x }
set xlabel XKEY." (the grid's parameter)" noenhanced
if (MODE eq "error") {
    set logscale y
    set format y "10^{%L}"
    set ylabel "max position error at the finest step (length units)" noenhanced
    WHAT = "max position error at each point's finest step"
} else {
    unset logscale y
    set format y "%.1f"
    set ylabel "fitted order of the max position error" noenhanced
    WHAT = "fitted order (95 % interval) against ".XKEY
}
set key outside right top vertical noenhanced nobox width -2 samplen 2.5 font ",10"
@MARGINS
# a margin of a twentieth of the range each side (a 20th of a decade, on a log axis)
XPAD = LOGX ? 10**(0.05 * log10(XMAX / XMIN)) : 0.05 * (XMAX - XMIN)
if (XMAX > XMIN) {
    if (LOGX) { set xrange [XMIN / XPAD : XMAX * XPAD] } else { set xrange [XMIN - XPAD : XMAX + XPAD] }
}
set multiplot layout NP, 1 title (TITLE ne "" ? TITLE.": " : "").WHAT noenhanced font ",13"
do for [p in PLANLIST] {
    set title plan_title(p) noenhanced
    unset arrow
    set autoscale y
    # a curve equal to an earlier one at every point (same_as) is drawn
    # striped over it and says "= NAME" (style.gp)
    @STRIPES
    if (MODE eq "error") {
        @NEARNOTE
        if (ELO <= EHI) { set yrange [ELO / 10**0.35 : EHI * 10**0.35] }
        plot for [s in SERIES] DATA every ::first_row(p, s)::last_row(p, s) \
                 using (column(XKEY)):(err_at(0)) with linespoints lw curve_lw(p, s, 1.6) dt curve_dt(p, s) pt ptype(s) ps curve_ps(p, s, 1.1) lc rgb colour(s) notitle, \
             for [s in SERIES] keyentry with linespoints lw 1.6 pt ptype(s) ps 1.1 lc rgb colour(s) \
                 title key_title(p, s, s.same_note(p, s))
    } else {
        set yrange [YLO : YHI]
        @NEARNOTE
        # the labels as grey dashed lines across the panel
        i = 0
        do for [l in LABELS] { i = i + 1; set arrow i from graph 0, first real(l) to graph 1, first real(l) nohead dt 2 lw 1 lc rgb "#999999" back }
        plot for [s in SERIES] DATA every ::first_row(p, s)::last_row(p, s) \
                 using (column(XKEY)):(asym_order(0)):(ci(0)) with yerrorlines lw curve_lw(p, s, 1.6) dt curve_dt(p, s) pt ptype(s) ps curve_ps(p, s, 1.1) lc rgb colour(s) notitle, \
             for [s in SERIES] DATA every ::first_row(p, s)::last_row(p, s) \
                 using (column(XKEY)):(trend_order(0)) with points pt 6 ps curve_ps(p, s, 1.3) lc rgb colour(s) notitle, \
             for [s in SERIES] keyentry with linespoints lw 1.6 pt ptype(s) ps 1.1 lc rgb colour(s) \
                 title key_title(p, s, s.same_note(p, s)), \
             keyentry with points pt 6 ps 1.3 lc rgb "#555555" title "open: a trend (*)"
    }
}
unset multiplot
