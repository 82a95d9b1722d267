# path.gp — the computed paths over the exact one, every body.
#   gnuplot -c plots/path.gp results/NAME/paths.csv OUT.png [TITLE] [PLAN] [INTEGRATORS] [LAYOUT]
#     PLAN         fixed (default), random (seed 1) or trace
#     INTEGRATORS  space-separated names (default: every one in the file)
#     LAYOUT       grid: one small panel per integrator (default for > 4)
#                  single: all in one panel
# A file with a y column is drawn in the x-y plane (projectile, orbit, the
# bodies of the two-body and three-body problems on one plane); otherwise x
# is drawn against t (spring, pendulum), and a 1-D system of several bodies
# (a chain) as a waterfall: body b's displacement drawn about a baseline of
# its own, b - 1 steps up; of more than 8 bodies, 6 spread along the chain
# (the first, the last, and four evenly between): 64 stripes of a panel
# showed nothing but where Euler failed.  The axis ranges come from the exact path, with a
# margin, so a method that flies off leaves the frame instead of shrinking
# the exact one to a dot.
#
# The rows of one integrator and plan hold each body's path in turn, time
# running from the start again at each.  A path is drawn as the segments
# between consecutive rows, and a segment whose time does not move forward
# (the first row of the next body) is left out: no line joins two bodies,
# and no point is dropped.
load "plots/style.gp"
DATA = ARG1
OUTFILE = ARG2
TERMNAME = term_name(OUTFILE)
TITLE = ARGC >= 3 ? ARG3 : ""
PLAN = ARGC >= 4 && ARG4 ne "" ? ARG4 : "fixed"
NEED = "t x"
@REQUIRE
PLANE = has_column("y")
@GROUPS
if (ARGC >= 5 && ARG5 ne "") { SERIES = ARG5 }
NS = words(SERIES)
LAYOUT = ARGC >= 6 && ARG6 ne "" ? ARG6 : (NS > 4 ? "grid" : "single")

if (!has_group("exact", "exact")) {
    print sprintf("%s: no rows of the exact path (integrator \"exact\")", DATA)
    exit status 3
}
if (strstrt(PLANLIST, PLAN) == 0) {
    print sprintf("%s: no rows with plan \"%s\"", DATA, PLAN)
    exit status 3
}
S1 = word(SERIES, 1)
stats DATA every ::first_row(PLAN, S1)::last_row(PLAN, S1) using "dt" nooutput
DT = STATS_min
EX = 'every ::first_row("exact", "exact")::last_row("exact", "exact")'
# the rows named "exact" hold a reference solution where the model has no
# exact one: the file's "# truth:" line says so.  Read by gnuplot itself
# (its comment lines as data, for once): a path never goes through a shell
TRUTH = "exact"
set datafile commentschars ""
set datafile nocolumnheaders
stats DATA using (strcol(1)[1:26] eq "# truth: no exact solution" ? TRUTH = "reference" : 0, 0) nooutput
set datafile commentschars
set datafile columnheaders
TRUTH_NAME = TRUTH eq "reference" ? "the reference solution" : "the exact path"
NB = 1
if (has_column("body")) {
    stats DATA @EX using "body" nooutput
    NB = int(STATS_max)
}
NPTS = STATS_records / NB
WATERFALL = !PLANE && NB > 1
if (PLANE) {
    stats DATA @EX using "x":"y" nooutput
    XLO = STATS_min_x; XHI = STATS_max_x; YLO = STATS_min_y; YHI = STATS_max_y
    XC = "x"; YC = "y"
    XLAB = "x (length units)"; YLAB = "y (length units)"
} else {
    stats DATA @EX using "t":"x" nooutput
    XLO = STATS_min_x; XHI = STATS_max_x; YLO = STATS_min_y; YHI = STATS_max_y
    XC = "t"; YC = "x"
    XLAB = "time t (time units)"; YLAB = "position x (length units)"
}
# the waterfall's baselines: 2.2 times the largest exact swing apart; the
# bodies drawn: every one of up to 8, else NSHOW spread along the chain
NSHOW = NB <= 8 ? NB : 6
shown_body(k) = NSHOW == NB ? k + 1 : 1 + int(floor((NB - 1) * k / (NSHOW - 1.0) + 0.5))
stripe_of(b) = sum [k=0:NSHOW - 1] (shown_body(k) == b ? k + 1 : 0)
AMP = max(abs(YLO), abs(YHI))
LIFT = WATERFALL ? 2.2 * (AMP > 0 ? AMP : 1) : 0
lifted(b) = WATERFALL ? (stripe_of(b) ? LIFT * (stripe_of(b) - 1) : NaN) : 0
if (WATERFALL) {
    YLO = -0.5 * LIFT; YHI = LIFT * (NSHOW - 0.5)
    YLAB = NSHOW < NB ? sprintf("body (%d of %d): its x about its baseline", NSHOW, NB) \
                      : "body (its x drawn about a baseline of its own)"
    set ytics () font ",8"
    do for [k = 0:NSHOW - 1] { set ytics add (sprintf("%d", shown_body(k)) LIFT * k) }
    set grid noytics nomytics
}
# segments between consecutive rows, none across a restart of time
PT = 1e308; PX = 0; PY = 0
SEGS = 'using (T0 = PT, X0 = PX, Y0 = PY, PT = column("t"), PX = column(XC), \
               PY = column(YC) + (WATERFALL ? lifted(column("body")) : 0), X0):(Y0): \
              (PT > T0 ? PX - X0 : NaN):(PY - Y0)'
PTS = 'using (column(XC)):(column(YC) + (WATERFALL ? lifted(column("body")) : 0))'
span(a, b) = (b - a) > 0 ? b - a : 1
MX = PLANE ? 0.15 * span(XLO, XHI) : 0
MY = WATERFALL ? 0 : 0.25 * span(YLO, YHI)
set xrange [XLO - MX : XHI + MX]
set yrange [YLO - MY : YHI + MY]
# equal scales on both axes, so an ellipse is not drawn as a circle; not
# for a flat path (a long throw), which would be squeezed into a strip
ASPECT = span(YLO, YHI) / span(XLO, XHI)
if (PLANE && ASPECT > 0.4 && ASPECT < 2.5) { set size ratio -1 }

# mark the steps themselves only when they are few enough to see
PS = NPTS < 120 ? 1.0 : 0.0
head = sprintf("%s%s", TITLE ne "" ? TITLE.": " : "", \
               PLAN eq "fixed" ? sprintf("fixed steps, dt = %g", DT) : \
               PLAN eq "random" ? sprintf("random steps (seed 1), mean dt = %g", DT) : plan_title(PLAN))
if (LAYOUT eq "grid") {
    COLS = NS > 4 ? 3 : NS
    ROWS = int((NS + COLS - 1) / COLS)
    set terminal @TERMNAME size 360 * COLS + 40, 330 * ROWS + 60 enhanced font "DejaVu Sans,10" linewidth 1.3
    set output OUTFILE
    # no key, which covered the end of an oscillation: each panel is titled
    # with its integrator, in its colour, and the figure's title says grey
    # is the exact path
    unset key
    # about four x tics a panel, at 1, 2 or 5 times a power of 10: the
    # default ran the labels of a narrow panel into each other
    XSPAN = span(XLO, XHI) + 2 * MX
    TIC = 10**floor(log10(XSPAN / 4.0))
    TIC = XSPAN / TIC > 20 ? 5 * TIC : XSPAN / TIC > 8 ? 2 * TIC : TIC
    set xtics TIC
    set xlabel XLAB noenhanced font ",9"
    set ylabel YLAB noenhanced font ",9"
    set multiplot layout ROWS, COLS title head."   (grey: ".TRUTH_NAME.")" noenhanced font ",13"
    do for [s in SERIES] {
        set title s noenhanced font ",10" tc rgb colour(s) offset 0, -0.4
        plot DATA @EX @SEGS with vectors nohead lw (WATERFALL ? 2 : 3) lc rgb "#c8c8c8" title TRUTH, \
             DATA every ::first_row(PLAN, s)::last_row(PLAN, s) @SEGS with vectors nohead lw 1.4 lc rgb colour(s) title key_title(PLAN, s, s), \
             for [i = 1:(PS > 0)] DATA every ::first_row(PLAN, s)::last_row(PLAN, s) @PTS with points pt ptype(s) ps 0.8 * PS lc rgb colour(s) notitle
    }
    unset multiplot
} else {
    # an equal-scale plane is about square: a narrower canvas wastes less
    W = (PLANE && ASPECT > 0.4 && ASPECT < 2.5) ? 860 : 1000
    set terminal @TERMNAME size W, 640 enhanced font "DejaVu Sans,11" linewidth 1.5
    set output OUTFILE
    set title head noenhanced font ",13"
    set key outside right top vertical noenhanced nobox samplen 2 font ",10"
    set xlabel XLAB noenhanced
    set ylabel YLAB noenhanced
    plot DATA @EX @SEGS with vectors nohead lw (WATERFALL ? 2.5 : 3.5) lc rgb "#c8c8c8" title TRUTH, \
         for [s in SERIES] DATA every ::first_row(PLAN, s)::last_row(PLAN, s) @SEGS \
             with vectors nohead lw 1.5 lc rgb colour(s) notitle, \
         for [i = 1:(PS > 0 ? words(SERIES) : 0)] DATA every ::first_row(PLAN, word(SERIES, i))::last_row(PLAN, word(SERIES, i)) @PTS \
             with points pt ptype(word(SERIES, i)) ps PS lc rgb colour(word(SERIES, i)) notitle, \
         for [s in SERIES] keyentry with linespoints lw 1.5 pt ptype(s) ps PS lc rgb colour(s) title key_title(PLAN, s, s)
}
