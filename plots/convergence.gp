# convergence.gp — error against step size, log-log, one panel per plan.
#   gnuplot -c plots/convergence.gp results/NAME/convergence.csv OUT.png [TITLE]
# Reads integrator, plan, dt, err_pos_max, order (and same_as if present).
# The key gives each integrator's fitted order (a "*" is explained under it:
# a trend, no single power law), or "= NAME" for a curve equal to an earlier
# one (the same errors to round-off, so the same order; drawn striped over
# it, style.gp).  Each panel's axes fit its own data.  Short grey guides of
# slope p, labelled, fan out in an empty part of the panel, for the orders
# its curves have.
load "plots/style.gp"
DATA = ARG1
OUTFILE = ARG2
TITLE = ARGC >= 3 ? ARG3 : ""
NEED = "dt err_pos_max"
@REQUIRE
@GROUPS
@TRACEPASS
@STEPSIZED
NEARCOL = "err_pos_max"
@NEARPASS
NP = words(PLANLIST)

# the order text of one integrator and plan (the same on each of its rows)
ORDERS = " "
stats DATA using (ORDERS = ORDERS.strcol("plan")."/".strcol("integrator")."=".strcol("order")." ", 0) nooutput
order_of(p, s) = (k = strstrt(ORDERS, " ".p."/".s."="), k ? word(ORDERS[k:], 1)[strlen(p) + strlen(s) + 3:] : "?")
is_trend(o) = strlen(o) > 1 && o[strlen(o):] eq "*"
# The guides: a slope-p guide is drawn only when some curve of the panel has
# order p, rounded to the nearest integer from its fitted order (a trend "*"
# included: its guide shows how far it is from a power law; "exact" and
# "undetermined" have none, nor does an order below 1/2).  The fitted order
# rather than the expected one (orders.csv): a guide is for comparing with the
# slopes drawn, and a method that falls short of its order (verlet with random
# steps) has no line of that slope to compare with.
order_num(o) = (t = is_trend(o) ? o[1:strlen(o) - 1] : o, \
                strlen(t) > 0 && strstrt("0123456789.-", t[1:1]) ? real(t) : NaN)
order_note(p, s) = (o = order_of(p, s), (o eq "exact" || o eq "undetermined" || o eq "?") ? o : "p = ".o)

# ---- geometry, in log10 units: the panels' plot areas in pixels, roughly
# (canvas 1000 x 470 a panel, less the tics, labels and the key on the right)
PANEL_H = 350.0
LABEL_PX = 46.0   # "slope 4" at font 9 and its gap
HALF_TEXT_PX = 8.0
GAP_PX = 8.0      # between a guide and a curve (half a point symbol and some)

NROWS = LASTROW + 2
array PX[NROWS]
array PY[NROWS]
array CS[words(SERIES) + 1]   # first point of each curve in PX/PY
array CE[words(SERIES) + 1]   # last
array SL[8]                   # the slopes to draw, ascending
array CA[words(SERIES) + 1]   # curve c passes above the fan if ANCHOR <= CA[c],
array CB[words(SERIES) + 1]   # below it if ANCHOR >= CB[c]

# interpolate curve c (points in order of decreasing dt) at log10 dt = u;
# NaN outside its range
curve_at(c, u) = (v = NaN, CS[c] <= CE[c] ? sum [j=CS[c]:CE[c]-1] ((v != v && PX[j] >= u && PX[j + 1] <= u) ? \
                   (v = (PX[j] == PX[j + 1]) ? PY[j] : PY[j + 1] + (PY[j] - PY[j + 1]) * (u - PX[j + 1]) / (PX[j] - PX[j + 1]), 0) : 0) : 0, \
                   (v != v && CS[c] == CE[c] && abs(PX[CS[c]] - u) < 1e-9) ? PY[CS[c]] : v)

# the data of panel p: PX/PY, XLO..XHI and YLO..YHI (log10), NC curves
PANEL_DATA = 'NPT = 0; NC = 0; XLO = 1e300; XHI = -1e300; YLO = 1e300; YHI = -1e300; \
    do for [s in SERIES] { if (has_group(p, s)) { NC = NC + 1; CS[NC] = NPT + 1; \
        stats DATA every ::first_row(p, s)::last_row(p, s) using (x = column("dt"), y = column("err_pos_max"), \
            (finite(x) && finite(y) && x > 0 && y > 0) ? (NPT = NPT + 1, PX[NPT] = log10(x), PY[NPT] = log10(y), \
                XLO = min(XLO, PX[NPT]), XHI = max(XHI, PX[NPT]), YLO = min(YLO, PY[NPT]), YHI = max(YHI, PY[NPT])) : 0, 1) nooutput; \
        CE[NC] = NPT } }'

# The fan: NS guides from a common point (XHI, ANCHOR) at the right end of
# the data down to the left over W decades, each labelled "slope p" at its
# left end.  The fan and its labels must not touch a curve: each curve must
# pass wholly above it or wholly below, which bounds ANCHOR to <= CA[c] or
# >= CB[c].  Curves are straight between points, and so are the edges of
# the fan and of the labels' box: the bounds are reached at a point of the
# curve or where the fan or the box begins or ends, so those are the places
# looked at.  Of the anchors allowed, the lowest that needs no more room
# than the data's range (failing that, the one that stretches the y axis
# least), moved off the curve it touches by a gap or two when that costs no
# more room.  The width W of the fan keeps its labels apart at the panel's
# scale (2.2 text heights a unit of slope), between a factor 2.5 and 16 in dt.
array HASQ[8]
# a point (u, y) of curve c against the fan (du = u - XHI from its apex, in
# log10 dt) and its labels' box (du below -W): the anchor must be <= y - top
# - M for the fan to pass below the point, >= y - bottom + M to pass above
APPLY = 'du = u - XHI; \
    if (du >= -W - 1e-9) { CA[c] = min(CA[c], y - PMIN * du - M); CB[c] = max(CB[c], y - PMAX * du + M) }; \
    if (du <= -W + 1e-9) { CA[c] = min(CA[c], y + PMIN * W - H - M); CB[c] = max(CB[c], y + PMAX * W + H + M) }'
allowed(a) = (sum [d=1:NC] ((a <= CA[d] + 1e-9 || a >= CB[d] - 1e-9) ? 0 : 1)) == 0
room(a) = max(0, (YLO - YPAD) - (a - PMAX * W - H - M)) + max(0, (a + M) - (YHI + YPAD))
FAN = 'NS = 0; do for [q = 1:8] { HASQ[q] = 0 }; \
    do for [s in SERIES] { if (has_group(p, s)) { v = order_num(order_of(p, s)); \
        if (v == v && v >= 0.5 && v < 8.5) { HASQ[int(v + 0.5)] = 1 } } }; \
    do for [q = 1:8] { if (HASQ[q]) { NS = NS + 1; SL[NS] = q } }; \
    if (NS > 0) { \
        DPMIN = 1; if (NS > 1) { DPMIN = SL[2] - SL[1]; do for [i = 2:NS] { DPMIN = min(DPMIN, SL[i] - SL[i - 1]) } }; \
        PMIN = SL[1]; PMAX = SL[NS]; \
        D = YSPAN; \
        do for [iter = 1:2] { \
            PXD = D / PANEL_H; \
            W = max(log10(2.5), 2.2 * HALF_TEXT_PX * PXD / DPMIN); \
            W = min(W, max(log10(2), min(log10(16), 0.6 * (XHI - XLO)))); \
            H = HALF_TEXT_PX * PXD; M = GAP_PX * PXD; \
            LW = LABEL_PX * XSPAN / PANEL_W; \
            do for [c = 1:NC] { CA[c] = 1e300; CB[c] = -1e300; \
                do for [k = 0:2] { u = XHI - (k == 0 ? 0 : k == 1 ? W : W + LW); y = curve_at(c, u); if (y == y) { @APPLY } }; \
                do for [j = CS[c]:CE[c]] { u = PX[j]; y = PY[j]; if (u >= XHI - W - LW - 1e-9) { @APPLY } } }; \
            BEST = NaN; BESTEXT = 1e300; \
            do for [c = 0:2 * NC] { \
                a = c == 0 ? YLO - YPAD + PMAX * W + H + M : (c <= NC ? CA[c] : CB[c - NC]); \
                if (abs(a) < 1e299 && allowed(a)) { ext = room(a); \
                    if (ext < BESTEXT - 1e-9 || (abs(ext - BESTEXT) <= 1e-9 && a < BEST)) { BEST = a; BESTEXT = ext } } }; \
            if (BEST == BEST) { do for [dd in "2 -2 1 -1"] { a = BEST + real(dd) * M; \
                if (allowed(a) && room(a) <= BESTEXT + 1e-9) { BEST = a; break } } }; \
            ANCHOR = BEST; \
            if (ANCHOR == ANCHOR) { D = max(YHI + YPAD, ANCHOR + M) - min(YLO - YPAD, ANCHOR - PMAX * W - H - M) } } }'

conv_title(p, s) = s.(same_as_raw(p, s) ne "" ? same_note(p, s) : "  ".order_note(p, s).same_note(p, s))
KEYCHARS = 10
do for [p in PLANLIST] { do for [s in SERIES] { if (has_group(p, s)) { KEYCHARS = max(KEYCHARS, strlen(conv_title(p, s))) } } }
WIDTH = 1000.0
PANEL_W = WIDTH - 90 - key_px(KEYCHARS)   # see MARGINS in style.gp

TERMNAME = term_name(OUTFILE)
set terminal @TERMNAME size 1000, 470 * NP + 40 enhanced font "DejaVu Sans,11" linewidth 1.5 butt
set output OUTFILE
set logscale xy
set format x "%.2g"
set format y "10^{%L}"
set xlabel "step size dt (time units)" noenhanced
set ylabel "max position error (length units)" noenhanced
set key outside right top vertical noenhanced nobox width -4 samplen 2.5 font ",10"
@MARGINS
set multiplot layout NP, 1 title TITLE noenhanced font ",13"
do for [p in PLANLIST] {
    set autoscale xy   # stats filters by the axis ranges: not by the last panel's
    @PANEL_DATA
    NS = 0; ANCHOR = NaN
    unset arrow
    unset label
    if (NPT > 0) {
        # a modest margin: a tenth of a decade in dt (levels are 0.3 apart), 6 % of the span in error
        XPAD = 0.1
        XSPAN = XHI - XLO + 2 * XPAD
        YPAD = max(0.25, 0.06 * (YHI - YLO))
        YSPAN = YHI - YLO + 2 * YPAD
        @FAN
        Y0 = YLO - YPAD; Y1 = YHI + YPAD
        if (NS > 0 && ANCHOR == ANCHOR) {
            Y0 = min(Y0, ANCHOR - PMAX * W - H - M)
            Y1 = max(Y1, ANCHOR + M)
            do for [i = 1:NS] {
                set arrow i from 10**(XHI - W), 10**(ANCHOR - SL[i] * W) to 10**XHI, 10**ANCHOR nohead back lw 1.2 lc rgb "#7a7a7a"
                set label i sprintf("slope %d", SL[i]) at 10**(XHI - W), 10**(ANCHOR - SL[i] * W) right offset -0.4, 0 font ",9" tc rgb "#555555" noenhanced
            }
        }
        set xrange [10**(XLO - XPAD) : 10**(XHI + XPAD)]
        # dt halves from level to level: a tic per factor of 2, from a power of 10
        set xtics 10**floor(XLO - XPAD), 2
        set yrange [10**Y0 : 10**Y1]
    } else {
        # every run of the panel diverged, or its truth could not be
        # computed: an empty panel that says so, not a failed chart
        set xrange [1e-3 : 1]
        set yrange [1e-3 : 1]
        set label 21 "no finite errors to draw: every run diverged,\nor its exact solution could not be computed" at graph 0.5, graph 0.5 center font ",11" tc rgb "#555555" noenhanced
    }
    STARRED = sum [i=1:words(SERIES)] (has_group(p, word(SERIES, i)) && is_trend(order_of(p, word(SERIES, i))) ? 1 : 0)
    if (STARRED) {
        set label 20 "* a trend over all points:\nno single power law" at graph 1.04, graph 0.04 left font ",9" tc rgb "#333333" noenhanced
    }
    NEARNOTE_Y = STARRED ? 0.27 : 0.14
    @NEARNOTE
    set title plan_title(p) noenhanced
    @STRIPES
    # the curves, then their key entries (a plain sample for each, whatever
    # the width and point size of its curve)
    if (NPT > 0) {
        plot for [s in SERIES] DATA every ::first_row(p, s)::last_row(p, s) using "dt":"err_pos_max" \
                 with linespoints lw curve_lw(p, s, 1.6) dt curve_dt(p, s) pt ptype(s) ps curve_ps(p, s, 1.1) lc rgb colour(s) notitle, \
             for [s in SERIES] keyentry with linespoints lw 1.6 pt ptype(s) ps 1.1 lc rgb colour(s) \
                 title key_title(p, s, conv_title(p, s))
    } else {
        plot 1e300 notitle, \
             for [s in SERIES] keyentry with linespoints lw 1.6 pt ptype(s) ps 1.1 lc rgb colour(s) \
                 title key_title(p, s, conv_title(p, s))
    }
}
unset multiplot
