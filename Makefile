# verletbench — measure how accurate time integrators really are.
#
#   make            build, run every case in cases/, write tables and charts
#   make check      build and run the tests
#   make install    install the binary and the plugin header (PREFIX, DESTDIR)
#
# Missing Debian packages are installed with apt-get when run as root;
# otherwise the exact command is printed (see .ci/ensure-deps).

.DELETE_ON_ERROR:
.SUFFIXES:

CC ?= cc
PKG_CONFIG ?= pkg-config
PREFIX ?= /usr/local
bindir = $(PREFIX)/bin
includedir = $(PREFIX)/include
BUILD ?= build

WARN = -Wall -Wextra -Wshadow -Wconversion -Wdouble-promotion \
       -Wmissing-prototypes -Wstrict-prototypes -Wpointer-arith \
       -Wformat=2 -Wundef -Wvla
OPT ?= -O2
CFLAGS ?= $(OPT) -g
# -ffp-contract=off: no fused multiply-adds behind our back, so the same
# inputs give the same bits on every machine and at every optimisation level.
VB_CFLAGS = -std=c11 -D_DEFAULT_SOURCE -ffp-contract=off $(WARN) -MMD -MP \
            -Isrc -I$(BUILD) $(GSL_CFLAGS)

# Recursive (=) so that they are looked up after ensure-deps has run.
GSL_CFLAGS = $(shell $(PKG_CONFIG) --cflags gsl 2>/dev/null || gsl-config --cflags 2>/dev/null)
GSL_LIBS = $(shell $(PKG_CONFIG) --libs gsl 2>/dev/null || gsl-config --libs 2>/dev/null \
                   || echo -lgsl -lgslcblas -lm)
INIH_LIBS = $(shell $(PKG_CONFIG) --libs inih 2>/dev/null || echo -linih)
LIBS = $(GSL_LIBS) $(INIH_LIBS) -lm

BIN = $(BUILD)/verletbench
LIB = $(BUILD)/libverletbench.a
LIB_SRC = $(filter-out src/main.c,$(wildcard src/*.c))
LIB_OBJ = $(LIB_SRC:src/%.c=$(BUILD)/%.o)
TEST_SRC = $(wildcard tests/*.c)
TEST_OBJ = $(TEST_SRC:tests/%.c=$(BUILD)/tests/%.o)
TEST_BIN = $(BUILD)/unit-tests

CASES = $(wildcard cases/*.case)
TRACES = $(wildcard cases/traces/*.trace)

.PHONY: all build results check install uninstall clean FORCE

# The main job: build, then run every case into results/.
all: results

build: $(BIN)

results: results/summary.md

# One sweep over every case; each file is written to a temporary name and
# renamed, so an interrupted run leaves the previous tables whole.
results/summary.md: $(BIN) $(CASES) $(TRACES)
	$(BIN) run $(CASES) --out results

$(BUILD)/.deps-build:
	@mkdir -p $(BUILD)
	@sh .ci/ensure-deps build
	@touch $@

$(BUILD)/.deps-test:
	@mkdir -p $(BUILD)
	@sh .ci/ensure-deps test
	@touch $@

# The commit the binary comes from, rewritten only when it changes.
$(BUILD)/version.h: FORCE
	@mkdir -p $(BUILD)
	@h=$$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown); \
	 git diff --quiet HEAD -- src cases Makefile 2>/dev/null || h="$$h-dirty"; \
	 printf '#define VB_GIT_HASH "%s"\n' "$$h" > $@.tmp; \
	 if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(BUILD)/%.o: src/%.c | $(BUILD)/.deps-build $(BUILD)/version.h
	$(CC) $(VB_CFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/cli.o: $(BUILD)/version.h

$(LIB): $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(BUILD)/main.o $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/tests/%.o: tests/%.c | $(BUILD)/.deps-build $(BUILD)/version.h
	@mkdir -p $(BUILD)/tests
	$(CC) $(VB_CFLAGS) $(CFLAGS) -Itests -c $< -o $@

$(TEST_BIN): $(TEST_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

check: $(BIN) $(TEST_BIN) | $(BUILD)/.deps-test
	@sh tests/run.sh $(BUILD)

install: $(BIN)
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(includedir)
	install -m 755 $(BIN) $(DESTDIR)$(bindir)/verletbench
	install -m 644 src/verletbench.h $(DESTDIR)$(includedir)/verletbench.h

uninstall:
	rm -f $(DESTDIR)$(bindir)/verletbench $(DESTDIR)$(includedir)/verletbench.h

# results/baseline/ is committed (make baseline); everything else there is generated
clean:
	rm -rf $(BUILD)
	find results -mindepth 1 -maxdepth 1 ! -name baseline -exec rm -rf {} + 2>/dev/null || true

FORCE:

-include $(LIB_OBJ:.o=.d) $(BUILD)/main.d $(TEST_OBJ:.o=.d)
