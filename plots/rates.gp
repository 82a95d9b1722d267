# rates.gp — the frame-rate table: what the player sees at each display rate.
#   gnuplot -c plots/rates.gp results/NAME/rates.csv OUT.png [TITLE]
# Reads integrator, plan, rate_hz, err_draw_max: the largest error of the
# drawn position over the run, against the display rate, a panel for fixed
# frames and one for random frames.  The rates in the title are the data's
# own, never a fixed "60 Hz".  A fixed-step accumulator computes the same
# physics at every rate: its curve is what its draw costs.
load "plots/style.gp"
DATA = ARG1
OUTFILE = ARG2
TITLE = ARGC >= 3 ? ARG3 : ""
NEED = "rate_hz err_draw_max"
SAMECOL = "same_as"   # rates.csv has none: the passes below mark them
@REQUIRE
@GROUPS
NP = words(PLANLIST)

# the rates of the data, in the order of the file ("30, 60, 144, 240")
RATES_SEEN = ""
RATES = ""
stats DATA using (r = sprintf("%g", column("rate_hz")), \
    strstrt(" ".RATES_SEEN." ", " ".r." ") == 0 ? (RATES = RATES.(RATES eq "" ? "" : ", ").r, RATES_SEEN = RATES_SEEN." ".r) : 0, 0) nooutput
rates_title(p) = p eq "fixed" ? "fixed frames" : p eq "random" ? "random frames (seed 1)" : \
                 p eq "trace" ? "the case's recorded frames, scaled to a mean of 1/rate" : p

# a row METHOD@LOOP: the method's colour and points (style.gp), a dash
# pattern per loop in the order of the file, so that one method's loops
# read as one family
method_of(s) = strstrt(s, "@") ? s[1:strstrt(s, "@") - 1] : s
loop_of(s) = strstrt(s, "@") ? s[strstrt(s, "@") + 1:] : ""
LOOPS = " "
do for [s in SERIES] { if (strstrt(LOOPS, " ".loop_of(s)." ") == 0) { LOOPS = LOOPS.loop_of(s)." " } }
loop_dt(s) = (sum [i=1:words(LOOPS)] (word(LOOPS, i) eq loop_of(s) ? i : 0))
# a curve with the same errors at every rate as an earlier one (TCV's and
# velocity Verlet's accumulators: the same physics) says "= NAME" in the
# key, and is drawn wider beneath it, so that neither hides the other
SIGS = " "
do for [p in PLANLIST] { do for [s in SERIES] { if (has_group(p, s)) { SIG = ""; \
    stats DATA every ::first_row(p, s)::last_row(p, s) using (SIG = SIG.sprintf("%.9g;", column("err_draw_max")), 0) nooutput; \
    SIGS = SIGS.p."/".s."=".SIG." " } } }
sig_of(p, s) = (k = strstrt(SIGS, " ".p."/".s."="), k ? word(SIGS[k:], 1)[strlen(p) + strlen(s) + 3:] : "")
same_rate(p, s) = (found = "", sum [i=1:words(SERIES)] ((found eq "" && word(SERIES, i) ne s && \
    series_index(word(SERIES, i)) < series_index(s) && has_group(p, word(SERIES, i)) && \
    sig_of(p, word(SERIES, i)) eq sig_of(p, s)) ? (found = word(SERIES, i), 0) : 0), found)
# a curve not the same as an earlier one but within a line's width of it
# (style.gp's @NEARPASS: velocity Verlet's variable step under TCV's, 2.7e-15
# apart at 240 Hz) says "≈ NAME", and is drawn wider beneath it too
NEARCOL = "err_draw_max"
@NEARPASS
# the other curve by its whole name (method@loop): "= tcv" alone would
# read as another row, tcv@variable
rate_note(p, s) = (o = same_rate(p, s), o ne "" ? "  = ".o : \
                   near_as(p, s) ne "" ? "  ≈ ".near_as(p, s) : "")
KEYCHARS = 10
do for [p in PLANLIST] { do for [s in SERIES] { KEYCHARS = max(KEYCHARS, strlen(s.rate_note(p, s))) } }
# a long key ("≈ tcv@accumulator(1/120;last)") widens the canvas, not
# narrows the panels
WIDTH = max(1000.0, 90 + 450 + key_px(KEYCHARS))
TERMNAME = term_name(OUTFILE)
set terminal @TERMNAME size WIDTH, 430 * NP + 50 enhanced font "DejaVu Sans,11" linewidth 1.5 butt
set output OUTFILE
set logscale xy
eval "set xtics (".RATES.")"
set mxtics default
set format y "10^{%L}"
set xlabel "display rate (Hz)" noenhanced
set ylabel "largest error of the drawn position (length units)" noenhanced
set key outside right top vertical noenhanced nobox width -5 samplen 2.5 font ",10"
@MARGINS
set multiplot layout NP, 1 title (TITLE ne "" ? TITLE.": " : "")."drawn-state error against display rate (".RATES." Hz)" noenhanced font ",13"
do for [p in PLANLIST] {
    set autoscale y
    stats DATA using "rate_hz" nooutput
    set xrange [STATS_min / 1.3 : STATS_max * 1.3]
    set title rates_title(p) noenhanced
    # style.gp's @NEARNOTE, for curves drawn wider beneath, not striped
    unset label 22
    if (sum [i=1:words(SERIES)] (has_group(p, word(SERIES, i)) && strstrt(rate_note(p, word(SERIES, i)), "≈") ? 1 : 0)) {
        set label 22 "≈ NAME: within a line width of\nthe curve of NAME over 3/4 of it,\ndrawn wider beneath it; not the\nsame errors" at graph 1.04, graph NEARNOTE_Y left font ",9" tc rgb "#333333" noenhanced }
    # the later of two equal curves first, wide, then the others over it
    plot for [s in SERIES] DATA every ::first_row(p, s)::last_row(p, s) using "rate_hz":(rate_note(p, s) ne "" ? column("err_draw_max") : NaN) \
             with linespoints lw 5 dt loop_dt(s) pt ptype(method_of(s)) ps 2.0 lc rgb colour(method_of(s)) title (rate_note(p, s) ne "" ? s.rate_note(p, s) : ""), \
         for [s in SERIES] DATA every ::first_row(p, s)::last_row(p, s) using "rate_hz":(rate_note(p, s) eq "" ? column("err_draw_max") : NaN) \
             with linespoints lw 1.6 dt loop_dt(s) pt ptype(method_of(s)) ps 1.0 lc rgb colour(method_of(s)) notitle, \
         for [s in SERIES] keyentry with linespoints lw 1.6 dt loop_dt(s) pt ptype(method_of(s)) lc rgb colour(method_of(s)) title (rate_note(p, s) eq "" && has_group(p, s) ? s : "")
}
unset multiplot
