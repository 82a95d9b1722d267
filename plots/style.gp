# style.gp — what every chart shares: terminal, fonts, the CSV dialect of
# results/, and one colour and point type per integrator, so a method looks
# the same on every chart.  Load it first: load "plots/style.gp".

set encoding utf8
set terminal pngcairo size 1200,760 enhanced font "DejaVu Sans,11" linewidth 1.5
set datafile separator comma
set datafile columnheaders
set datafile missing ""
set grid xtics ytics mxtics mytics lc rgb "#dddddd" lw 0.6
set border lw 1.0
set key box opaque samplen 2.5 spacing 1.1 font ",9"
set tics font ",10"

# integrators in table order (the constrained ones last: they never share a
# chart with the others, so their colours may repeat)
INTEGRATORS = "euler euler-semi verlet verlet-naive tcv verlet-var velocity-verlet leapfrog rk4 beeman yoshida4 pefrl rkf45 rk8pd jakobsen tcv-jakobsen shake rattle"
COLOURS = "#d62728 #ff7f0e #1f77b4 #9467bd #2ca02c #17becf #000000 #8c564b #e377c2 #bcbd22 #393b79 #e6550d #637939 #7b4173 #d62728 #2ca02c #1f77b4 #000000"
# all open shapes (velocity-verlet's was a filled circle): drawn concentric
# on coincident curves, none hides the smaller ones inside it
POINTS = "1 2 6 8 4 12 3 10 14 1 2 4 6 8 1 4 6 3"
# a built-in method with parameters set ("jakobsen:sweeps=10") takes these
# in turn, by its place among the chart's other names not in the list
EXTRA_COLOURS = "#ff7f0e #9467bd #8c564b #17becf #bcbd22 #e377c2 #393b79 #7f7f7f"
EXTRA_POINTS = "2 8 12 10 14 4 6 1"
# yours (a plugin's method, an engine) take these: colours no built-in has,
# and filled shapes (every built-in's is open), so your curve is never
# mistaken for euler-semi's
USER_COLOURS = "#ff00ff #ffb000 #006d6d #808080 #56b4e9 #800020 #00d084 #ff6f91"
USER_POINTS = "7 5 9 11 13 15 7 5"
integ_index(s) = sum [i=1:words(INTEGRATORS)] (word(INTEGRATORS, i) eq s ? i : 0)
# "jakobsen:sweeps=10" is a built-in's
base_name(s) = strstrt(s, ":") ? s[1:strstrt(s, ":") - 1] : s
is_builtin(s) = integ_index(base_name(s)) > 0
# (SERIES is @GROUPS's; a chart that has not run it has no unknown names in turn)
series_index(s) = exists("SERIES") ? sum [series_i=1:words(SERIES)] (word(SERIES, series_i) eq s ? series_i : 0) : 0
extra_index(s) = 1 + ((sum [extra_i=1:series_index(s)] (integ_index(word(SERIES, extra_i)) ? 0 : 1)) + 7) % 8
colour(s) = integ_index(s) ? word(COLOURS, integ_index(s)) : \
            word(is_builtin(s) ? EXTRA_COLOURS : USER_COLOURS, extra_index(s))
ptype(s) = integ_index(s) ? int(word(POINTS, integ_index(s))) : \
           int(word(is_builtin(s) ? EXTRA_POINTS : USER_POINTS, extra_index(s)))
min(a, b) = a < b ? a : b
max(a, b) = a > b ? a : b
# a number a chart can place: not NaN, not an infinity (results/ writes
# "inf" where runs diverged: a 90th percentile over seeds of which more than
# a tenth diverged, a median of which half did)
finite(v) = v == v && abs(v) <= 1.7976931348623157e308

# The terminal: pngcairo, or svg when the output file ends in ".svg" (the
# tests read the key and the labels from it as text):
#   TERMNAME = term_name(OUT); set terminal @TERMNAME size W, H ...
term_name(f) = strlen(f) > 4 && f[strlen(f) - 3:] eq ".svg" ? "svg" : "pngcairo"
EXACT_COLOUR = "#888888"

# The rows of one (plan, integrator) pair are contiguous in every file of
# results/ (the C writer guarantees it), so a chart draws a pair with
# "every ::first::last" instead of testing two strings on every row of the
# file for every curve: gnuplot then skips the other rows unevaluated,
# which is 15x faster on the time series.
#
#   @GROUPS   needs DATA; one pass over the file sets
#     GROUPS    " fixed/euler=0-999 random/euler=1000-1999 ... "
#     SERIES    the integrators in order of appearance (not "exact")
#     PLANLIST  the plans present, in the order fixed, random, trace
#     SAMES     what each pair coincides with (see "Coincident curves")
#   then has_group(p, s), first_row(p, s), last_row(p, s).
# A file whose pairs are not contiguous stops the chart (exit status 3).
GROUPS = 'GROUPS = " "; PREV = ""; BROKEN = 0; LASTROW = -1; SERIES = " "; PLANLIST = " "; stats DATA using (k = strcol("plan")."/".strcol("integrator"), (k ne PREV ? (BROKEN = BROKEN || strstrt(GROUPS, " ".k."=") > 0, GROUPS = GROUPS.(PREV ne "" ? sprintf("-%d ", column(0) - 1) : "").k."=".sprintf("%d", column(0)), PREV = k, n = strcol("integrator"), p = strcol("plan"), (strstrt(SERIES, " ".n." ") == 0 && n ne "exact" ? SERIES = SERIES.n." " : 0), (strstrt(PLANLIST, " ".p." ") == 0 && p ne "exact" ? PLANLIST = PLANLIST.p." " : 0)) : 0), LASTROW = column(0), 0) nooutput; GROUPS = GROUPS.sprintf("-%d ", LASTROW); if (BROKEN) { print sprintf("%s: the rows of one plan and integrator are not contiguous", DATA); exit status 3 }; @SAMEPASS; PLANLIST = (strstrt(PLANLIST, " fixed ") ? "fixed " : "").(strstrt(PLANLIST, " random ") ? "random " : "").(strstrt(PLANLIST, " trace ") ? "trace" : "")'
group_at(p, s) = strstrt(GROUPS, " ".p."/".s."=")
group_range(p, s) = word(GROUPS[group_at(p, s) + strlen(p) + strlen(s) + 3:], 1)
has_group(p, s) = group_at(p, s) > 0
first_row(p, s) = has_group(p, s) ? int(group_range(p, s)[1:strstrt(group_range(p, s), "-") - 1]) : 0
last_row(p, s) = has_group(p, s) ? int(group_range(p, s)[strstrt(group_range(p, s), "-") + 1:]) : -1
# the title of a curve, empty (no key entry) when the pair is absent
key_title(p, s, t) = has_group(p, s) ? t : ""

# Coincident curves.  @GROUPS also records, from the column SAMECOL
# (same_as; the energy chart sets energy_same_as), the earlier integrator
# whose errors a pair equals to round-off: same_as(p, s), "" if none (or if
# the file has no such column).  Such a "follower" lies exactly on its
# "leader", so that every colour of the group stays visible:
#   - the leader is drawn wider, the followers over it all at one width, the
#     line striped: with K curves in the group, follower r (1 .. K-1) draws
#     only the r-th of every K dashes (@STRIPES sets these dash types), so
#     the line reads leader, 1st, 2nd ... follower's colour in turn, and the
#     wider leader shows along both edges;
#   - the point symbols (each integrator its own shape) are concentric:
#     biggest for the leader, smaller for each later follower;
#   - the key entry of a follower says "= LEADER" (same_note).
# Other curves are solid, at the width and point size the chart asks for.
SAMECOL = "same_as"
SAMES = " "
# @SAMEPASS (run by @GROUPS) reads SAMECOL from the first row of each pair.
# Not with strcol(): gnuplot 5.4 returns stale bytes of an earlier line for
# an empty last field ("a,b,"), and same_as is the last column.  So the pass
# reads each first row whole (a separator that never occurs: one field) and
# cuts the field out of it; it looks only at the rows where a pair starts.
col_index(c) = sum [i=1:words(COLUMNS)] (word(COLUMNS, i) eq c ? i : 0)
field_of(line, n) = (rest = line, sum [i=1:n-1] (rest = strstrt(rest, ",") ? rest[strstrt(rest, ",") + 1:] : "", 0), \
                     strstrt(rest, ",") ? rest[1:strstrt(rest, ",") - 1] : rest)
# a group is "plan/integrator=first-last", and a method with parameters set
# has '=' in its name ("jakobsen:sweeps=10"): the rows follow the last '='
last_eq(g) = (LASTEQ = 0, sum [eq_j=1:strlen(g)] (g[eq_j:eq_j] eq "=" ? (LASTEQ = eq_j, 0) : 0), LASTEQ)
group_key(i) = (g = word(GROUPS, i), g[1:last_eq(g) - 1])
group_start(i) = (g = word(GROUPS, i), g = g[last_eq(g) + 1:], int(g[1:strstrt(g, "-") - 1]))
SAMEPASS = 'SAMES = " "; if (has_column(SAMECOL) && words(GROUPS) > 0) { SAMEIDX = col_index(SAMECOL); NG = words(GROUPS); NEXTG = 1; NEXTROW = group_start(1); \
    set datafile separator "\t"; \
    stats DATA using (column(0) == NEXTROW ? (SAMES = SAMES.group_key(NEXTG)."=".field_of(strcol(1), SAMEIDX)." ", NEXTG = NEXTG + 1, NEXTROW = NEXTG <= NG ? group_start(NEXTG) : -1) : 0, 1) nooutput; \
    set datafile separator comma }'
same_as_raw(p, s) = (k = strstrt(SAMES, " ".p."/".s."="), k ? word(SAMES[k:], 1)[strlen(p) + strlen(s) + 3:] : "")
# Curves that would hide one another without being the same (no "=" in the
# data: verlet under verlet-naive on the 64-mass chain's random panel):
# @NEARPASS, with DATA and NEARCOL (the y column drawn) set, finds for each
# plan every later curve whose points lie within a line's width of an
# earlier curve's (NEAR_FRAC of the plan's span of decades, 4 px of a
# 330 px panel) at NEAR_SHARE (three quarters) of the points either draws
# (the double pendulum's jakobsen and jakobsen:sweeps=10 share 76 % of
# their windows, and the first hid the second), and records it as a follower
# of that curve: it is drawn striped over it and keyed "≈ NAME", near_as.
NEARS = " "
NEAR_FRAC = 0.012
# a chart over time spans at most this many decades: a run that overflows
# (Euler on the chaotic Henon-Heiles, to 1e300) leaves it at the top
# instead of flattening every other curve into one line
MAX_DECADES = 20
NEAR_SHARE = 0.75
near_as(p, s) = (k = strstrt(NEARS, " ".p."/".s."="), k ? word(NEARS[k:], 1)[strlen(p) + strlen(s) + 3:] : "")
# (a chart with a linear y axis, the grid's orders, sets NEAR_LOG = 0)
NEAR_LOG = 1
near_y(y) = !finite(y) ? NaN : !NEAR_LOG ? y : y > 0 ? log10(y) : NaN
# the value a row draws (a chart that draws only some rows redefines it)
near_value(dummy) = column(NEARCOL)
NEARPASS = 'array NY[LASTROW + 2]; NEARS = " "; \
    stats DATA using (NY[int(column(0)) + 1] = near_y(near_value(0)), 0) nooutput; \
    do for [p in PLANLIST] { NLO = 1e300; NHI = -1e300; \
        do for [s in SERIES] { if (has_group(p, s)) { NEAR_DUMMY = sum [k = first_row(p, s) + 1:last_row(p, s) + 1] \
            (NY[k] == NY[k] ? (NLO = min(NLO, NY[k]), NHI = max(NHI, NY[k]), 0) : 0) } }; \
        NEAR_DEC = NEAR_FRAC * max(1, min(NHI - NLO, MAX_DECADES)); \
        do for [jb = 2:words(SERIES)] { b = word(SERIES, jb); \
            if (has_group(p, b) && same_as_raw(p, b) eq "") { \
                do for [ja = 1:jb - 1] { a = word(SERIES, ja); \
                    if (near_as(p, b) eq "" && has_group(p, a) && last_row(p, a) - first_row(p, a) == last_row(p, b) - first_row(p, b)) { \
                        fa = first_row(p, a); fb = first_row(p, b); nn = last_row(p, a) - fa + 1; \
                        drawn = sum [k = 1:nn] (NY[fa + k] == NY[fa + k] || NY[fb + k] == NY[fb + k] ? 1 : 0); \
                        hits = sum [k = 1:nn] (ya = NY[fa + k], yb = NY[fb + k], \
                            (ya == ya && yb == yb) ? (abs(ya - yb) <= NEAR_DEC) : 0); \
                        if (drawn > 0 && hits >= NEAR_SHARE * drawn) { NEARS = NEARS.p."/".b."=".(same_as(p, a) ne "" ? same_as(p, a) : a)." " } } } } } }'
# @NEARNOTE, with p set: under the key of a panel with a "≈", what it means
# (at graph 1.04, NEARNOTE_Y); label 22
NEARNOTE_Y = 0.14
NEAR_WHAT = "errors"
NEARNOTE = 'unset label 22; if (sum [i=1:words(SERIES)] (has_group(p, word(SERIES, i)) && strstrt(same_note(p, word(SERIES, i)), "≈") ? 1 : 0)) { \
    set label 22 "≈ NAME: within a line width of\nthe curve of NAME over 3/4 of it,\ndrawn striped over it; not the\nsame ".NEAR_WHAT at graph 1.04, graph NEARNOTE_Y left font ",9" tc rgb "#333333" noenhanced }'
# what the drawing goes by: the same errors, or else a curve it would hide
# under; a chart whose curves can part even so (work.gp: equal errors at a
# different cost) redefines it
# (a leader that is itself near another curve hands its followers on to
# that one, so the three are striped as one group)
same_as(p, s) = (l = same_as_raw(p, s) ne "" ? same_as_raw(p, s) : near_as(p, s), \
                 l ne "" && near_as(p, l) ne "" ? near_as(p, l) : l)
n_followers(p, s) = sum [i=1:words(SERIES)] (same_as(p, word(SERIES, i)) eq s ? 1 : 0)
series_pos(s) = strstrt(" ".SERIES." ", " ".s." ")
# 0 for a curve that is no follower; 1, 2, ... for the followers of one leader in drawing order
follower_rank(p, s) = same_as(p, s) eq "" ? 0 : \
    sum [i=1:words(SERIES)] ((same_as(p, word(SERIES, i)) eq same_as(p, s) && series_pos(word(SERIES, i)) <= series_pos(s)) ? 1 : 0)
group_size(p, s) = 1 + n_followers(p, same_as(p, s) eq "" ? s : same_as(p, s))
curve_lw(p, s, w) = follower_rank(p, s) == 0 && n_followers(p, s) ? 2.0 * w : w
curve_ps(p, s, z) = (r = follower_rank(p, s), kk = group_size(p, s), kk > 1 ? z * (1 + min(0.6 * (kk - 1), 1.5) * (kk - 1 - r) / (kk - 1)) : z)
curve_dt(p, s) = follower_rank(p, s) ? 40 + words(SERIES[1:series_pos(s)]) : 1
same_note(p, s) = same_as(p, s) eq "" ? "" : same_as_raw(p, s) ne "" ? "  = ".same_as_raw(p, s) : "  ≈ ".near_as(p, s)
# @STRIPES, with p set: the dash type of each follower of plan p; STRIPE is
# one dash, in line widths.  A leading dash of length 0.01 (invisible with
# butt line ends) lets a pattern start with a gap.
STRIPE = 12.0
STRIPES = 'do for [s in SERIES] { r = follower_rank(p, s); if (r) { kk = group_size(p, s); \
    eval sprintf("set dashtype %d (0.01, %g, %g, %g)", curve_dt(p, s), r * STRIPE - 0.01, STRIPE, (kk - 1 - r) * STRIPE + 0.001) } }'

# The panels of one figure line up: their plot areas start and end at the
# same x, the key (outside, right) in a margin sized to its longest title.
#   KEYCHARS = that title's length; WIDTH = the canvas width; @MARGINS
# A key title takes 7.6 px a character at the key's font (DejaVu Sans 10 on
# pngcairo, measured on "tcv-jakobsen:sweeps=10  = jakobsen:sweeps=10";
# 6.2 px ran the longer titles into the plot area), its sample and gaps 62.
key_px(chars) = chars * 7.6 + 62.0
MARGINS = 'set lmargin at screen 90.0 / WIDTH; set rmargin at screen 1 - key_px(KEYCHARS) / WIDTH'

# a chart of single runs (time series, paths) sets RANDOM_TITLE to name its seed
RANDOM_TITLE = "random steps, median of seeds"
# the trace panel's title names the trace the run replayed: @TRACEPASS
# reads it from DATA's "#" lines ("... trace=DIR/NAME.trace (N steps)"),
# whole lines read as one field with "#" no comment for the moment
TRACE_TITLE = "recorded frame trace"
trace_of(l) = (t = l[strstrt(l, " trace=") + 7:], k = 0, \
               sum [i=1:strlen(t)] (t[i:i] eq "/" ? (k = i, 0) : 0), t[k + 1:])
TRACEPASS = 'set datafile commentschars ""; set datafile separator "\t"; TRACE_FOUND = 0; \
    stats DATA every ::0::15 using (l = strcol(1), (!TRACE_FOUND && l[1:1] eq "#" && strstrt(l, " trace=")) ? \
        (TRACE_TITLE = "recorded frame trace ".trace_of(l), TRACE_FOUND = 1) : 0, 0) nooutput; \
    set datafile commentschars "#"; set datafile separator comma'
plan_title(p) = p eq "fixed" ? "fixed steps" : p eq "random" ? RANDOM_TITLE : p eq "trace" ? TRACE_TITLE : p

# The column names of DATA's header, as " integrator plan dt ... ":   @HEADER
HEADER = 'stats DATA using 0 every ::0::0 nooutput; COLUMNS = " "; do for [i = 1:STATS_columns] { stats DATA using (COLUMNS = COLUMNS.columnhead(i)." ", 0) every ::0::0 nooutput }'
COLUMNS = " "
has_column(c) = strstrt(COLUMNS, " ".c." ") > 0
# @STEPSIZED (after @GROUPS): leave out of SERIES the integrators whose rows
# have a tolerance > 0 (the adaptive ones): their x is a tolerance, not a step,
# and they belong on the work chart, not on one against dt
STEPSIZED = 'if (has_column("tol")) { ADAPTIVE = " "; stats DATA using ((column("tol") > 0 && strstrt(ADAPTIVE, " ".strcol("integrator")." ") == 0) ? (ADAPTIVE = ADAPTIVE.strcol("integrator")." ") : 0, 0) nooutput; KEEP = " "; do for [s in SERIES] { if (strstrt(ADAPTIVE, " ".s." ") == 0) { KEEP = KEEP.s." " } }; SERIES = KEEP }'

# Fail loudly when a column the chart needs is missing or holds no numbers
# (gnuplot would otherwise only warn and draw an empty chart):
#   NEED = "dt err"; @REQUIRE        (also runs @HEADER)
REQUIRE = '@HEADER; do for [c in NEED] { if (!has_column(c)) { print sprintf("%s: no column \"%s\" in the header: the chart needs it", DATA, c); exit status 3 }; stats DATA using (column(c)) nooutput; if (STATS_records == 0) { print sprintf("%s: no numbers in column \"%s\": the chart needs them", DATA, c); exit status 3 } }'
