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

# The integrators present in a file, in the order of their rows:
#   SERIES = ""; @COLLECT   (needs DATA set; leaves " euler tcv ... " in SERIES)
# It reads the "integrator" column, so a file without one fails here, loudly.
COLLECT = 'SERIES = " "; stats DATA using (name = strcol("integrator"), (strstrt(SERIES, " ".name." ") == 0 && name ne "exact" ? SERIES = SERIES.name." " : 0), 0) nooutput'

# Plans present, in the order fixed, random, trace:   @PLANS  -> PLANLIST
PLANS = 'PLANLIST = " "; stats DATA using (p = strcol("plan"), (strstrt(PLANLIST, " ".p." ") == 0 && p ne "exact" ? PLANLIST = PLANLIST.p." " : 0), 0) nooutput; PLANLIST = (strstrt(PLANLIST, " fixed ") ? "fixed " : "").(strstrt(PLANLIST, " random ") ? "random " : "").(strstrt(PLANLIST, " trace ") ? "trace" : "")'

plan_title(p) = p eq "fixed" ? "fixed steps" : p eq "random" ? sprintf("random steps, median of seeds") : p eq "trace" ? "recorded 60 Hz frame trace" : p

# The column names of DATA's header, as " integrator plan dt ... ":   @HEADER
HEADER = 'stats DATA using 0 nooutput; COLUMNS = " "; do for [i = 1:STATS_columns] { stats DATA using (COLUMNS = COLUMNS.columnhead(i)." ", 0) every ::0::0 nooutput }'
has_column(c) = strstrt(COLUMNS, " ".c." ") > 0

# Fail loudly when a column the chart needs is missing or holds no numbers
# (gnuplot would otherwise only warn and draw an empty chart):
#   NEED = "dt err"; @REQUIRE        (also runs @HEADER)
REQUIRE = '@HEADER; do for [c in NEED] { if (!has_column(c)) { print sprintf("%s: no column \"%s\" in the header: the chart needs it", DATA, c); exit status 3 }; stats DATA using (column(c)) nooutput; if (STATS_records == 0) { print sprintf("%s: no numbers in column \"%s\": the chart needs them", DATA, c); exit status 3 } }'
