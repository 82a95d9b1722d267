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

# integrators in table order; plugins and anything new fall back to grey
INTEGRATORS = "euler euler-semi verlet verlet-naive tcv verlet-var velocity-verlet leapfrog rk4"
COLOURS = "#d62728 #ff7f0e #1f77b4 #9467bd #2ca02c #17becf #000000 #8c564b #e377c2"
POINTS = "1 2 6 8 4 12 7 10 14"
integ_index(s) = sum [i=1:words(INTEGRATORS)] (word(INTEGRATORS, i) eq s ? i : 0)
colour(s) = integ_index(s) ? word(COLOURS, integ_index(s)) : "#7f7f7f"
ptype(s) = integ_index(s) ? int(word(POINTS, integ_index(s))) : 3
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
#   then has_group(p, s), first_row(p, s), last_row(p, s).
# A file whose pairs are not contiguous stops the chart (exit status 3).
GROUPS = 'GROUPS = " "; PREV = ""; BROKEN = 0; LASTROW = -1; SERIES = " "; PLANLIST = " "; stats DATA using (k = strcol("plan")."/".strcol("integrator"), (k ne PREV ? (BROKEN = BROKEN || strstrt(GROUPS, " ".k."=") > 0, GROUPS = GROUPS.(PREV ne "" ? sprintf("-%d ", column(0) - 1) : "").k."=".sprintf("%d", column(0)), PREV = k, n = strcol("integrator"), p = strcol("plan"), (strstrt(SERIES, " ".n." ") == 0 && n ne "exact" ? SERIES = SERIES.n." " : 0), (strstrt(PLANLIST, " ".p." ") == 0 && p ne "exact" ? PLANLIST = PLANLIST.p." " : 0)) : 0), LASTROW = column(0), 0) nooutput; GROUPS = GROUPS.sprintf("-%d ", LASTROW); if (BROKEN) { print sprintf("%s: the rows of one plan and integrator are not contiguous", DATA); exit status 3 }; PLANLIST = (strstrt(PLANLIST, " fixed ") ? "fixed " : "").(strstrt(PLANLIST, " random ") ? "random " : "").(strstrt(PLANLIST, " trace ") ? "trace" : "")'
group_at(p, s) = strstrt(GROUPS, " ".p."/".s."=")
group_range(p, s) = word(GROUPS[group_at(p, s) + strlen(p) + strlen(s) + 3:], 1)
has_group(p, s) = group_at(p, s) > 0
first_row(p, s) = has_group(p, s) ? int(group_range(p, s)[1:strstrt(group_range(p, s), "-") - 1]) : 0
last_row(p, s) = has_group(p, s) ? int(group_range(p, s)[strstrt(group_range(p, s), "-") + 1:]) : -1
# the title of a curve, empty (no key entry) when the pair is absent
key_title(p, s, t) = has_group(p, s) ? t : ""

# a chart of single runs (time series, paths) sets RANDOM_TITLE to name its seed
RANDOM_TITLE = "random steps, median of seeds"
plan_title(p) = p eq "fixed" ? "fixed steps" : p eq "random" ? RANDOM_TITLE : p eq "trace" ? "recorded 60 Hz frame trace" : p

# The column names of DATA's header, as " integrator plan dt ... ":   @HEADER
HEADER = 'stats DATA using 0 nooutput; COLUMNS = " "; do for [i = 1:STATS_columns] { stats DATA using (COLUMNS = COLUMNS.columnhead(i)." ", 0) every ::0::0 nooutput }'
has_column(c) = strstrt(COLUMNS, " ".c." ") > 0

# Fail loudly when a column the chart needs is missing or holds no numbers
# (gnuplot would otherwise only warn and draw an empty chart):
#   NEED = "dt err"; @REQUIRE        (also runs @HEADER)
REQUIRE = '@HEADER; do for [c in NEED] { if (!has_column(c)) { print sprintf("%s: no column \"%s\" in the header: the chart needs it", DATA, c); exit status 3 }; stats DATA using (column(c)) nooutput; if (STATS_records == 0) { print sprintf("%s: no numbers in column \"%s\": the chart needs them", DATA, c); exit status 3 } }'
