# verletbench — measure how accurate time integrators really are.
#
#   make            build, run every case in cases/, write tables and charts
#                   (a few lines of progress; the whole log in build/make.log,
#                   V=1 to see every command and its output instead)
#   make check      build and run the tests, and the regression check against
#                   the committed baseline (results/baseline): a line a suite
#                   as it ends; the whole output in build/check.log
#   make baseline   refresh that baseline on purpose (prints what changed)
#   make bench      what a step costs against a hand-written loop (results/bench.csv)
#   make bench-charts  the charts' CPU time against the sweep's, in one run
#   make engines    the real engines of engines/ (npm and Debian) on cases/engines/:
#                   results/engines/engines.md, "what your engine really does";
#                   and at a contact (cases/engines/bounce*, slide, tunnel through
#                   protocol 4; engines/check/contact.py): results/engines/contact.md;
#                   a ball and a box on an incline (roll, roll-incline, box-incline;
#                   engines/check/body_contact.py): results/engines/body-contact.md,
#                   its creep chart plots/engines/body-contact-creep.png;
#                   stacks of boxes (stack, stack-heavy, stack-tall through
#                   protocol 5; engines/check/stack.py): results/engines/stack.md
#                   (a line a step; the whole log in build/engines.log)
#   make plots      redraw every chart from results/ (and results/REPORT.md)
#   make article    the time-corrected Verlet article's graphs, plots/article/
#   make docs-figures  refresh the figures the README shows (docs/figures/)
#   make install    install the binary (which draws the charts itself) and
#                   pngfast.so, the plugin header and the man page (PREFIX,
#                   DESTDIR)
#
# Missing Debian packages are installed with apt-get when run as root;
# otherwise the exact command is printed (see .ci/ensure-deps).

.DELETE_ON_ERROR:
.SUFFIXES:

CC ?= cc
# only for make bench: Boost.Odeint's velocity Verlet as a yardstick
CXX ?= g++
PKG_CONFIG ?= pkg-config
PREFIX ?= /usr/local
bindir = $(PREFIX)/bin
includedir = $(PREFIX)/include
datadir = $(PREFIX)/share
mandir = $(datadir)/man
# make check SANITIZE=1: AddressSanitizer and UBSan, in a build directory of
# its own so the objects never mix with the normal build
# make NATIVE=1: -march=native in build-native/.  Not the default: the
# results could then differ in the last bits from another machine's.
ifeq ($(NATIVE),1)
BUILD ?= build-native
NATIVE_FLAGS = -march=native
endif
ifeq ($(SANITIZE),1)
BUILD ?= build-sanitize
SAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
else
BUILD ?= build
SAN_FLAGS =
endif

WARN = -Wall -Wextra -Wshadow -Wconversion -Wdouble-promotion \
       -Wmissing-prototypes -Wstrict-prototypes -Wpointer-arith \
       -Wformat=2 -Wundef -Wvla
OPT ?= -O2
CFLAGS ?= $(OPT) -g
# -ffp-contract=off: no fused multiply-adds behind our back, so the same
# inputs give the same bits on every machine and at every optimisation level.
# src/ stands in layers, one folder each, lowest first (docs/architecture.md;
# make check holds the includes to it); verletbench.h, the plugin
# interface, is at the top of src/
SRC_DIRS = os numerics contact models integrators rigidcontact plugin engine loops composed driver casefile sweep bench output check stability longrun draw commands
INCLUDES = -Isrc $(SRC_DIRS:%=-Isrc/%)
VB_CFLAGS = -std=c11 -D_DEFAULT_SOURCE -pthread -ffp-contract=off $(NATIVE_FLAGS) $(SAN_FLAGS) $(WARN) -MMD -MP \
            $(INCLUDES) -I$(BUILD) $(GSL_CFLAGS)

# Recursive (=) so that they are looked up after ensure-deps has run.
GSL_CFLAGS = $(shell $(PKG_CONFIG) --cflags gsl 2>/dev/null || gsl-config --cflags 2>/dev/null)
GSL_LIBS = $(shell $(PKG_CONFIG) --libs gsl 2>/dev/null || gsl-config --libs 2>/dev/null \
                   || echo -lgsl -lgslcblas -lm)
INIH_LIBS = $(shell $(PKG_CONFIG) --libs inih 2>/dev/null || echo -linih)
# FFTW: the chain's exact solution, a sine transform a step (models/chain.c)
FFTW_LIBS = $(shell $(PKG_CONFIG) --libs fftw3 2>/dev/null || echo -lfftw3)
LIBS = $(GSL_LIBS) $(FFTW_LIBS) $(INIH_LIBS) -ldl -lpthread -lm

BIN = $(BUILD)/verletbench
PNGFAST = $(BUILD)/pngfast.so
LIB = $(BUILD)/libverletbench.a
LIB_SRC = $(filter-out src/commands/main.c,$(foreach d,$(SRC_DIRS),$(wildcard src/$(d)/*.c)))
LIB_OBJ = $(LIB_SRC:src/%.c=$(BUILD)/%.o)
TEST_SRC = $(wildcard tests/*.c)
TEST_OBJ = $(TEST_SRC:tests/%.c=$(BUILD)/tests/%.o)
TEST_BIN = $(BUILD)/unit-tests

CASES = $(wildcard cases/*.case)
PLOTS_STAMP = plots/.drawn
RESULTS_STAMP = results/.swept
ARTICLE_STAMP = plots/article/.drawn
TRACES = $(wildcard cases/traces/*.trace)

.PHONY: all build results plots article docs-figures check baseline bench bench-charts engines fuzz install uninstall \
        clean deps-build deps-bench deps-test deps-fuzz deps-engines FORCE

# The main job: build, run every case into results/, draw every chart.
all: results $(PLOTS_STAMP) $(ARTICLE_STAMP)
	@echo "make: done: results/summary.md, results/REPORT.md, plots/"

build: $(BIN)

results: $(RESULTS_STAMP)

# make's own progress: a line a step; what the commands print goes to
# MAKE_LOG, the sweep's whole output and every message besides the charts'
# one line (V=1: to the terminal instead).  A step that fails shows the end
# of the log.
MAKE_LOG = $(BUILD)/make.log
ifeq ($(V),1)
TO_LOG =
ERR_TO_LOG =
SHOW_LOG = true
Q =
else
TO_LOG = > $(MAKE_LOG) 2>&1
ERR_TO_LOG = 2>> $(MAKE_LOG)
SHOW_LOG = tail -n 30 $(MAKE_LOG); echo "make: failed (exit $$s); the whole log: $(MAKE_LOG)" >&2
Q = @
endif

# One sweep over every case; each file is written to a temporary name and
# renamed, so an interrupted run leaves the previous tables whole.
# results/summary.md holds the cases of the last run into results/ alone:
# a run of other cases there (an example, `score`, your engine) rewrites
# it after make's stamp, and the next make runs the whole sweep again, so
# the report is always every case of cases/.  Examples write elsewhere.
$(RESULTS_STAMP): $(BIN) $(CASES) $(TRACES) $(or $(wildcard results/summary.md),FORCE)
	@mkdir -p $(BUILD); t0=$$(date +%s.%N); \
	 echo "make: the sweep: $(words $(CASES)) case files into results/ (its output: $(MAKE_LOG))"; \
	 $(BIN) run $(CASES) --timing --out results $(TO_LOG) || { s=$$?; $(SHOW_LOG); exit $$s; }; \
	 awk -v a=$$t0 -v b=$$(date +%s.%N) 'BEGIN { printf "make: swept in %.0f s: results/summary.md\n", b - a }'
	@touch $@

# Charts: `verletbench draw` reads the CSV files of results/, decides every
# chart and feeds one gnuplot a CPU; it prints one line.  Without gnuplot
# (and no root to install it) the tables are still made and draw says the
# charts were skipped; the stamps are then not written, so the next make
# tries again.

$(PLOTS_STAMP): $(RESULTS_STAMP) $(BIN)
	@sh .ci/ensure-deps plots || true
	@mkdir -p $(BUILD); t0=$$(date +%s.%N); \
	 $(BIN) draw results plots $(ERR_TO_LOG) || { s=$$?; $(SHOW_LOG); exit $$s; }; \
	 awk -v a=$$t0 -v b=$$(date +%s.%N) 'BEGIN { printf "make: drawn in %.0f s\n", b - a }'
	@if command -v $${GNUPLOT:-gnuplot} >/dev/null 2>&1; then touch $@; fi

$(ARTICLE_STAMP): $(RESULTS_STAMP) $(BIN)
	@sh .ci/ensure-deps plots || true
	@mkdir -p $(BUILD); $(BIN) draw --article results plots/article $(ERR_TO_LOG) || { s=$$?; $(SHOW_LOG); exit $$s; }
	@if command -v $${GNUPLOT:-gnuplot} >/dev/null 2>&1; then touch $@; fi

plots: results
	@rm -f $(PLOTS_STAMP)
	@$(MAKE) --no-print-directory $(PLOTS_STAMP)

article: results
	@rm -f $(ARTICLE_STAMP)
	@$(MAKE) --no-print-directory $(ARTICLE_STAMP)

# The figures README.md and docs/article.md show are committed copies (all
# else that is generated stays out of git); this refreshes them from real runs.
docs-figures: $(PLOTS_STAMP) $(ARTICLE_STAMP)
	@test -f plots/orbit/convergence.png || { echo "docs-figures: no charts (is gnuplot installed?)" >&2; exit 1; }
	@mkdir -p docs/figures/article
	cp plots/spring/band.png docs/figures/spring-random-band.png
	cp plots/orbit/convergence.png docs/figures/orbit-convergence.png
	cp plots/orbit/energy-time.png docs/figures/orbit-energy.png
	cp plots/figure-eight/path.png docs/figures/figure-eight-path.png
	cp plots/chain-64/convergence.png docs/figures/chain-64-convergence.png
	cp plots/work-precision/work.png docs/figures/work-precision-evals.png
	cp plots/work-precision/work-time.png docs/figures/work-precision-seconds.png
	cp plots/spring-jitter/grid-error.png docs/figures/spring-jitter-grid-error.png
	cp plots/hanging-chain-4/convergence.png docs/figures/hanging-chain-4-convergence.png
	cp plots/rod-pendulum/energy-time.png docs/figures/rod-pendulum-energy.png
	@# the real engines' charts, when make engines has drawn them
	if [ -f plots/engines/spring/energy-time.png ]; then \
	    cp plots/engines/spring/energy-time.png docs/figures/engines-spring-energy.png; fi
	if [ -f plots/engines/body-contact-creep.png ]; then \
	    cp plots/engines/body-contact-creep.png docs/figures/engines-creep.png; fi
	if [ -f plots/engines/roll-drop/roll-time.png ]; then \
	    cp plots/engines/roll-drop/roll-time.png docs/figures/engines-roll-drop.png; fi
	cp plots/frame-loop/rates.png docs/figures/frame-loop-rates.png
	cp plots/spin-major-5/polhode.png docs/figures/spin-major-5-polhode.png
	cp plots/roll-map/roll-map.png docs/figures/roll-map.png
	cp plots/stack-heavy/stack-stand.png docs/figures/stack-stand.png
	cp plots/stack-cost-substeps/stack-cost.png docs/figures/stack-cost.png
	if [ -f plots/engines/stack-heavy/stack-stand.png ]; then \
	    cp plots/engines/stack-heavy/stack-stand.png docs/figures/engines-stack-stand.png; fi
	cp plots/article/*.png docs/figures/article/

# What the build, the charts and the tests need, checked by using it (a
# compile and link against every header and library, a gnuplot chart) each
# time make runs, not remembered in a stamp; installed with apt-get as root,
# otherwise the exact command is printed and make stops (exit status 2).
deps-build:
	@sh .ci/ensure-deps build

deps-bench:
	@sh .ci/ensure-deps bench

# Boost.Odeint's velocity_verlet beside the table's (make bench only): C++,
# -O2 -ffp-contract=off as the C code is built, and -fno-math-errno as the
# models' force laws are (its functor is the orbit's force law)
$(BUILD)/bench-odeint: src/bench/odeint.cpp $(LIB) | deps-bench
	$(CXX) -std=c++17 $(OPT) -g -ffp-contract=off -fno-math-errno $(NATIVE_FLAGS) $(SAN_FLAGS) -Wall -Wextra \
	    $(INCLUDES) -I$(BUILD) $(GSL_CFLAGS) -o $@ $< $(LIB) $(LIBS)

deps-test:
	@sh .ci/ensure-deps test

deps-fuzz:
	@sh .ci/ensure-deps fuzz

# The real engines make check measures (planck from npm, Chipmunk from
# Debian, tests/real_engines.py; the 3D engines, tests/real_engines_3d.py):
# engines/ensure-deps, npm ci, the adapters.
deps-engines:
	@$(MAKE) --no-print-directory -C engines setup

# The version (VERSION) and, in a git checkout with git installed, the commit
# ("-dirty" when src, cases, plots, Makefile or VERSION differ from it);
# and the build's identity: a hash of every source file and of the compile
# command (the build directory aside), which tells apart two -dirty builds
# of one commit, or one built with other flags (NATIVE=1), where the version
# cannot (a shard records it: merge refuses shards of two builds).
# Rewritten only when it changes, so a rebuild happens only then.
VB_SOURCES = $(sort $(wildcard src/*.h $(SRC_DIRS:%=src/%/*.c) $(SRC_DIRS:%=src/%/*.h)))
$(BUILD)/version.h: VERSION FORCE
	@mkdir -p $(BUILD)
	@v=$$(tr -d ' \n' < VERSION); \
	 h=$$(git rev-parse --short=12 HEAD 2>/dev/null) && \
	 { git diff --quiet HEAD -- src cases plots Makefile VERSION 2>/dev/null || h="$$h-dirty"; }; \
	 id=$$({ cat $(VB_SOURCES) Makefile VERSION; printf '%s\n' "$(CC) $(filter-out -I$(BUILD),$(VB_CFLAGS)) $(CFLAGS)"; } \
	       | sha256sum | cut -c1-16); \
	 printf '#define VB_VERSION "%s"\n#define VB_GIT_HASH "%s"\n#define VB_BUILD_ID "%s"\n' \
	     "$$v" "$$h" "$${id:-unknown}" > $@.tmp; \
	 if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(BUILD)/%.o: src/%.c | deps-build $(BUILD)/version.h
	@mkdir -p $(@D)
	$(Q)$(CC) $(VB_CFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/output/provenance.o: $(BUILD)/version.h

# The force laws: -fno-math-errno lets sqrt be inlined; it only drops the
# errno write, never changes a value.  Not -O3: it vectorises the steps'
# loops over 2 or 3 dimensions, and their vector loads of what the force law
# just stored as scalars stall store forwarding (measured: single orbit step
# 25 -> 28 ns).
$(patsubst src/%.c,$(BUILD)/%.o,$(wildcard src/models/*.c)): CFLAGS += -fno-math-errno

$(LIB): $(LIB_OBJ)
	$(Q)rm -f $@
	$(Q)$(AR) rcs $@ $^

$(BIN): $(BUILD)/commands/main.o $(LIB) | $(PNGFAST)
	$(Q)$(CC) $(CFLAGS) $(SAN_FLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)
	@echo "make: built $@"

# What draw preloads into gnuplot so that its PNGs are written without
# libpng's filter search (src/draw/pngfast/pngfast.c): a library of its own,
# never sanitized (it is loaded into gnuplot, not into us).
$(PNGFAST): src/draw/pngfast/pngfast.c
	@mkdir -p $(@D)
	$(Q)$(CC) -O2 -std=c11 -fPIC -shared -Wall -Wextra -o $@ $< -ldl

$(BUILD)/tests/%.o: tests/%.c | deps-build $(BUILD)/version.h
	@mkdir -p $(BUILD)/tests
	$(Q)$(CC) $(VB_CFLAGS) $(CFLAGS) -Itests -c $< -o $@

$(TEST_BIN): $(TEST_OBJ) $(LIB)
	$(Q)$(CC) $(CFLAGS) $(SAN_FLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

# The suites run CHECK_JOBS at a time (default: one a CPU; CHECK_JOBS=1 one
# at a time, for a machine loaded by other work: the engine suites hold
# engines to time limits of 1 to 5 s); a line a suite as it ends (a failing
# one's output under it), each suite's whole output in $(BUILD)/check.log;
# the last line "N passed, N failed".
check: $(BIN) $(TEST_BIN) | deps-test deps-engines
	@sh tests/run.sh $(BUILD)

# What a step costs, as ratios against a fused hand-written loop timed in the
# same run (a benchmark: never a test).  results/bench.csv and a table.
bench: $(BIN) $(BUILD)/bench-odeint | deps-engines
	@mkdir -p results
	$(BIN) bench --out results/bench.csv > /dev/null
	@grep -v '^#' results/bench.csv | { column -s, -t 2>/dev/null || tr , '\t'; }
	@echo "(ns per step of one run;"
	@echo " ratio_to_fused per particle-step, against the fused loop of the system named in fused_on)"
	@awk -F, '!/^#/ && $$3 == "single" && $$2 == "velocity-verlet" && $$9 == $$1 && $$1 != "orbit" { \
	     printf "velocity Verlet through the tables on %s (%d particles): %.2fx its fused loop per particle-step\n", $$1, $$7, $$6 } \
	   !/^#/ && $$3 == "reference" { ref[$$1] = $$5 } \
	   !/^#/ && $$3 == "grid" { grid[$$1] = $$5; ni[$$1] = $$2 } \
	   END { for (m in ref) if (m in grid) \
	     printf "reference solution of %s: %.0f ns a grid point; the %d runs it serves %.0f ns together: the reference is %.0f%% of the grid\n", \
	            m, ref[m], ni[m], grid[m] - ref[m], 100 * ref[m] / grid[m] }' results/bench.csv
	@# rods: SHAKE and RATTLE solved directly beside the classic sweeps, a step
	@# of the hanging chain of 16 and 64 rods at dt = 0.005 and 0.002 (the
	@# sweeps on 64 rods: one timing, about 20 ms a step)
	$(BIN) bench --model hanging-chain --set N=16 --modes single --dt 0.005 --steps 16000 --repeat 3 \
	    --integrator shake,shake:solver=sweeps,rattle,rattle:solver=sweeps --out results/bench-rods-16.csv > /dev/null
	$(BIN) bench --model hanging-chain --set N=64 --modes single --dt 0.002 --steps 64000 --repeat 1 \
	    --integrator shake,shake:solver=sweeps,rattle --out results/bench-rods-64.csv > /dev/null
	@for f in results/bench-rods-16.csv results/bench-rods-64.csv; do \
	   awk -F, '!/^#/ && $$3 == "single" { ns[$$2] = $$5; n = $$7 } \
	     END { printf "a step on %d rods: shake %.1f us (the sweeps %.1f us: %.0fx), rattle %.1f us", \
	           n, ns["shake"] / 1e3, ns["shake:solver=sweeps"] / 1e3, ns["shake:solver=sweeps"] / ns["shake"], ns["rattle"] / 1e3; \
	           if ("rattle:solver=sweeps" in ns) printf " (the sweeps %.1f us: %.0fx)", ns["rattle:solver=sweeps"] / 1e3, ns["rattle:solver=sweeps"] / ns["rattle"]; \
	           printf "\n" }' $$f; done
	@# a velocity Verlet step from the tables against Boost.Odeint's, pair by pair
	$(BUILD)/bench-odeint 11 > results/bench-odeint.csv
	@sed -n 's/^# //p' results/bench-odeint.csv
	@# the external-engine protocol: an engine that only echoes its trajectory,
	@# beside the built-in and the Python example computing the same 100 000 steps
	$(BIN) bench --engine "python3 examples/engines/python/engine.py velocity-verlet" \
	    --out results/bench-engine.csv > /dev/null
	@awk -F, '!/^#/ && $$3 == "sim" { s = $$5 } !/^#/ && $$3 == "engine-echo" { e = $$5 } \
	   !/^#/ && $$3 == "engine" { p = $$5 } \
	   END { printf "engine protocol (%s steps): %.0f ns a step (an engine that only echoes its trajectory, %.0f ns, minus the built-in run, %.0f ns); the Python example %.0f ns a step, of which the protocol is %.0f%%\n", \
	         100000, e - s, e, s, p, 100 * (e - s) / (p - s) }' results/bench-engine.csv
	@# the whole sweep on 1 thread and on every CPU: the time ratio, and the same bytes
	@rm -rf results/.bench-j1 results/.bench-jn; \
	 n=$$(nproc 2>/dev/null || echo 2); \
	 t0=$$(date +%s.%N); $(BIN) run -j 1 --quiet --no-chart-data $(CASES) --out results/.bench-j1 || exit 1; \
	 t1=$$(date +%s.%N); $(BIN) run -j $$n --quiet --no-chart-data $(CASES) --out results/.bench-jn || exit 1; \
	 t2=$$(date +%s.%N); \
	 if diff -r results/.bench-j1 results/.bench-jn >/dev/null; then same="byte-identical"; else same="DIFFERENT"; fi; \
	 awk -v a=$$t0 -v b=$$t1 -v c=$$t2 -v n=$$n -v same=$$same 'BEGIN { \
	     printf "run, every case (tables): 1 thread %.2f s, %d threads %.2f s: %.2fx faster, files %s\n", b - a, n, c - b, (b - a) / (c - b), same }'; \
	 rm -rf results/.bench-j1 results/.bench-jn
	@# the real engines in persistent workers (protocol 2), against one process
	@# a run and against the built-ins' sweep of the same case, in this run
	@d=results/.bench-engines; rm -rf $$d; mkdir -p $$d; n=$$(nproc 2>/dev/null || echo 2); \
	 case=cases/engines/spring.case; \
	 sed -e '/^\[engines\]/,$$d' -e "s|^trace = \.\./|trace = $(CURDIR)/cases/|" $$case > $$d/builtins.case; \
	 t0=$$(date +%s.%N); $(BIN) run -j $$n --quiet --no-chart-data $$d/builtins.case --out $$d/b || exit 1; \
	 t1=$$(date +%s.%N); $(BIN) run -j $$n --quiet --no-chart-data --engines-only $$case --out $$d/p || exit 1; \
	 t2=$$(date +%s.%N); VERLETBENCH_ENGINE_PROCESSES=1 $(BIN) run -j $$n --quiet --no-chart-data \
	     --engines-only $$case --out $$d/q || exit 1; \
	 t3=$$(date +%s.%N); \
	 if diff -r -I '^# ' -I '^Generated by' $$d/p $$d/q >/dev/null; then same="byte-identical"; else same="DIFFERENT"; fi; \
	 runs=$$(grep -vc '^[#m]' $$d/p/spring/runs.csv); \
	 settings=$$(grep -c '^# engine ' $$d/p/spring/runs.csv); \
	 awk -v a=$$t0 -v b=$$t1 -v c=$$t2 -v e=$$t3 -v n=$$n -v runs=$$runs -v k=$$settings -v same=$$same 'BEGIN { \
	     printf "engines, %s (%d settings, %d runs, -j %d): persistent workers %.2f s; one process a run %.2f s, %.1fx slower, tables %s; the built-ins sweep of the case %.2f s: the engines in workers cost %.0fx that (%.1fx a setting)\n", \
	            "cases/engines/spring.case", k, runs, n, c - b, e - c, (e - c) / (c - b), same, b - a, (c - b) / (b - a), (c - b) / (b - a) / k }'; \
	 rm -rf $$d

# What a user waits for besides the sweep: the sweep's CPU time (tables
# only, and with chart data), draw's, and draw / sweep, in one run
# (tests/speed_charts.py: add --against TREE to time another checkout's
# side by side; docs/speed.md).  A benchmark, never a test.
bench-charts: $(BIN)
	@python3 tests/speed_charts.py $(BUILD)

# The real engines (engines/README.md): what is missing installed (Debian
# packages by apt-get as root, otherwise the exact command; npm ci from the
# committed package-lock.json), the C and C++ adapters built, every case of
# cases/engines/ run with the engines beside the built-ins (each engine in
# persistent workers: protocol 2, 3 for the 3D engines on the rotation
# cases, 4 for the 2D engines' contact adapters on the bounce, slide and
# tunnel cases, 5 on the stacks), and the summary written, "what your engine does to a
# spinning body" with it: results/engines/engines.md; the contact cases'
# report, results/engines/contact.md.  The charts into plots/engines/ where
# gnuplot is installed (the README's engine chart:
# plots/engines/spring/energy-time.png; the box's creep against dt per
# engine, plots/engines/body-contact-creep.png, engines/check/creep_chart.py).  A line a step as it runs, with
# its seconds (.ci/step); everything the steps print goes to ENGINES_LOG
# (V=1: to the terminal), and a step that fails shows the log's end.  A run
# of an engine that fails (exit status 1: an engine that resets its body or
# overflows, docs/real-engines.md §5.8) is a finding, not a failure of make
# engines: its rows say engine-failed and the report says why; bad usage or
# input (exit status 2) stops it.
ENGINE_CASES = $(wildcard cases/engines/*.case)
ENGINES_LOG = $(BUILD)/engines.log
STEP = V=$(V) sh .ci/step $(ENGINES_LOG)
engines: $(BIN)
	@mkdir -p $(BUILD); : > $(ENGINES_LOG); t0=$$(date +%s.%N); \
	 echo "make engines: what the steps print: $(ENGINES_LOG)"; \
	 $(STEP) "make engines: setup (Debian packages, npm ci, the C and C++ adapters)" \
	     $(MAKE) --no-print-directory -C engines setup || exit $$?; \
	 $(STEP) "make engines: run: the $(words $(ENGINE_CASES)) cases of cases/engines/ into results/engines/" \
	     sh -c '"$$0" "$$@"; s=$$?; [ $$s -eq 1 ] && exit 0; exit $$s' \
	     $(BIN) run $(ENGINE_CASES) -j $$(nproc 2>/dev/null || echo 2) --quiet --out results/engines || exit $$?; \
	 n=$$(cat results/engines/*/runs.csv | grep -c ',engine-failed,'); \
	 if [ "$$n" -gt 0 ]; then echo "make engines: $$n engine runs failed, as findings (the engine reset, overflowed or refused: results/engines/engines.md says which and when; build/engines.log what each said)"; fi; \
	 $(STEP) "make engines: report: results/engines/engines.md" \
	     python3 engines/report.py results/engines || exit $$?; \
	 $(STEP) "make engines: at a contact: results/engines/contact.md" \
	     python3 engines/check/contact.py results/engines || exit $$?; \
	 $(STEP) "make engines: a rolling ball and a resting box: results/engines/body-contact.md" \
	     python3 engines/check/body_contact.py results/engines || exit $$?; \
	 $(STEP) "make engines: how long a stack stands: results/engines/stack.md" \
	     python3 engines/check/stack.py results/engines || exit $$?; \
	 if command -v $${GNUPLOT:-gnuplot} >/dev/null 2>&1; then \
	     $(STEP) "make engines: charts: plots/engines/" $(BIN) draw results/engines plots/engines || exit $$?; \
	     $(STEP) "make engines: creep against dt per engine: plots/engines/body-contact-creep.png" \
	         python3 engines/check/creep_chart.py results/engines plots/engines || exit $$?; \
	 else echo "make engines: charts skipped (no gnuplot)"; fi; \
	 awk -v a=$$t0 -v b=$$(date +%s.%N) 'BEGIN { printf "make engines: done in %.0f s: results/engines/engines.md, contact.md, body-contact.md, stack.md\n", b - a }'

# The committed reference of `verletbench check` (and of make check): every
# case's tables, without chart data.  Prints what changed against the old
# baseline first, so the refresh can be reviewed; then `git diff`.
baseline: $(BIN)
	@rm -rf results/baseline.new
	@if [ -d results/baseline ]; then \
	    $(BIN) check --baseline results/baseline --save results/baseline.new; \
	    [ $$? -le 1 ] || rm -rf results/baseline.new; \
	 fi; \
	 if [ ! -d results/baseline.new ]; then \
	    echo "baseline: no comparable baseline; writing a new one"; \
	    $(BIN) run --quiet --no-chart-data $(CASES) --out results/baseline.new || exit 1; \
	 fi
	rm -rf results/baseline && mv results/baseline.new results/baseline
	@echo "baseline: results/baseline refreshed; review with: git diff --stat -- results/baseline"

# Fuzzing (clang's libFuzzer, with ASan and UBSan): the case-file parser,
# the trace reader, check's baseline reader, merge's shard reader and what
# score reads of a trajectory (its header, then its rows), from the seed
# corpus in tests/fuzz/.  make fuzz
# FUZZ_SECONDS=N runs each target N seconds; new inputs it finds are kept in
# build-fuzz/corpus-*, crashes in build-fuzz/crash-*.
FUZZ_SECONDS ?= 30
FUZZ_CC ?= clang
FUZZ_BUILD = build-fuzz
FUZZ_FLAGS = -g -O1 -std=c11 -D_DEFAULT_SOURCE -ffp-contract=off $(INCLUDES) -I$(BUILD) \
             -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
FUZZ_OBJ = $(LIB_SRC:src/%.c=$(FUZZ_BUILD)/%.o)
FUZZ_TARGETS = casefile trace baseline shard header
FUZZERS = $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)

$(FUZZ_BUILD)/%.o: src/%.c | deps-build deps-fuzz $(BUILD)/version.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(GSL_CFLAGS) -c $< -o $@

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer $^ -o $@ $(LIBS)

# the objects are kept between runs (make would delete them as intermediates)
.SECONDARY: $(FUZZ_OBJ)

fuzz: $(FUZZERS) | deps-fuzz
	@for t in $(FUZZ_TARGETS); do \
	    mkdir -p $(FUZZ_BUILD)/corpus-$$t; \
	    echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
	    if ! $(FUZZ_BUILD)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	            -artifact_prefix=$(FUZZ_BUILD)/crash-$$t- \
	            -max_len=$$(case $$t in baseline|shard) echo 16384 ;; header) echo 8192 ;; *) echo 4096 ;; esac) \
	            $(FUZZ_BUILD)/corpus-$$t tests/fuzz/$$t < /dev/null > $(FUZZ_BUILD)/fuzz-$$t.log 2>&1; then \
	        tail -40 $(FUZZ_BUILD)/fuzz-$$t.log; echo "fuzz: $$t FAILED (input in $(FUZZ_BUILD)/crash-$$t-*)"; exit 1; \
	    fi; \
	    grep -E "number_of_executed_units|new_units_added" $(FUZZ_BUILD)/fuzz-$$t.log; \
	 done; echo "fuzz: no crashes"

# The charts need nothing installed beside the binary but pngfast.so (in
# PREFIX/lib/verletbench, where draw looks for it: the same pictures,
# written faster; src/draw/pngfast/pngfast.c): it writes their gnuplot
# programs itself.  The float32 sweep's script goes to
# $(datadir)/verletbench (docs/float32.md).
install: $(BIN)
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(includedir) $(DESTDIR)$(mandir)/man1 \
	           $(DESTDIR)$(datadir)/verletbench
	install -m 755 $(BIN) $(DESTDIR)$(bindir)/verletbench
	install -d $(DESTDIR)$(PREFIX)/lib/verletbench
	install -m 644 $(PNGFAST) $(DESTDIR)$(PREFIX)/lib/verletbench/pngfast.so
	install -m 644 src/verletbench.h $(DESTDIR)$(includedir)/verletbench.h
	install -m 644 docs/verletbench.1 $(DESTDIR)$(mandir)/man1/verletbench.1
	install -m 755 plots/float32-sweep.sh $(DESTDIR)$(datadir)/verletbench/float32-sweep.sh

uninstall:
	rm -f $(DESTDIR)$(bindir)/verletbench $(DESTDIR)$(includedir)/verletbench.h \
	      $(DESTDIR)$(mandir)/man1/verletbench.1
	rm -rf $(DESTDIR)$(datadir)/verletbench $(DESTDIR)$(PREFIX)/lib/verletbench

# results/baseline/ is committed (make baseline); everything else there is generated
clean:
	rm -rf $(BUILD) build-sanitize build-fuzz build-native
	find results -mindepth 1 -maxdepth 1 ! -name baseline -exec rm -rf {} + 2>/dev/null || true
	find plots -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} + 2>/dev/null || true
	rm -f $(PLOTS_STAMP)

FORCE:

-include $(LIB_OBJ:.o=.d) $(BUILD)/commands/main.d $(TEST_OBJ:.o=.d)
