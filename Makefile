# agentic-apply — see README.md. `make` builds build/agentic-apply.
#
#   make            build (needs cc, pkg-config, cJSON, libcurl, OpenSSL; says
#                   what is missing and how to install it, installs nothing)
#   make check      install what the tests need, then every test: unit,
#                   fixtures, fuzz corpora, cmark-gfm differential, sanitizers,
#                   lint, two suites at a time, with each suite's time at the
#                   end (tests/README.md)
#   make check-full everything make check runs, the whole torture matrix under
#                   the sanitizers, the static binary and reproducible dist,
#                   fuzz campaigns (nightly in CI, and before a release)
#   make mutants    plant faults one at a time; make check must fail on each
#                   (tests/mutants/)
#   make demo       install what the build needs, build, replay the bundled examples
#   make dist       the release binary, reproducibly (mk/dist.mk)
#   make prove      the WP proof of the gate, EVA over the parsers (mk/prove.mk)
#   make lint       clang-tidy, cppcheck, banned functions
#   make format     clang-format the sources
#   make fuzz       libFuzzer campaigns (FUZZ_SECONDS per target, default 60)
#   make bench      benchmarks (never timed tests)
#   make SANITIZE=address,undefined ...   build with sanitizers (in build/san)

VERSION := $(shell cat VERSION)
CC ?= cc
PKG_CONFIG ?= pkg-config
DEPS := libcjson libcurl openssl

ifeq ($(SANITIZE),)
BUILD := build
SAN_FLAGS :=
else
BUILD := build/san
SAN_FLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
endif

WARN := -Wall -Wextra -Werror -Wpedantic -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wpointer-arith -Wcast-qual -Wwrite-strings \
	-Wformat=2 -Wvla -Wundef -Wold-style-definition -Wnull-dereference
HARDEN := -D_FORTIFY_SOURCE=2 -fstack-protector-strong -fPIE
OPT ?= -O2 -g
DEP_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(DEPS) 2>/dev/null)
DEP_LIBS := $(shell $(PKG_CONFIG) --libs $(DEPS) 2>/dev/null)
CFLAGS_ALL := -std=c11 -D_POSIX_C_SOURCE=200809L $(OPT) $(WARN) $(HARDEN) \
	$(SAN_FLAGS) $(DEP_CFLAGS) -DAGENTIC_APPLY_VERSION='"$(VERSION)"' $(CFLAGS)
LDFLAGS_ALL := -pie -Wl,-z,relro,-z,now $(SAN_FLAGS) $(LDFLAGS)
LIBS := $(DEP_LIBS) -lm

# src/<layer>/*.c: the folders are the layers (src/README.md).
LAYERS := base core formats port github gitlab run cmd
SRC := $(foreach l,$(LAYERS),$(wildcard src/$(l)/*.c))
HDR := $(foreach l,$(LAYERS),$(wildcard src/$(l)/*.h))
LIB_SRC := $(filter-out src/cmd/main.c,$(SRC))
LIB_OBJ := $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o)
BIN := $(BUILD)/agentic-apply

UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_SECONDS ?= 60

ifeq ($(V),1)
Q :=
else
Q := @
endif

.PHONY: all check demo lint lint-fast format format-all fuzz fuzz-keep bench clean deps deps-test deps-node install-deps \
	install-deps-test test-make test-unit \
	test-fixtures test-corpora test-cmark test-cli test-docs test-fakehub test-live \
	test-torture sanitize-check sanitize-check-full mutants

all: $(BIN)

$(BUILD)/obj/%.o: src/%.c $(HDR) | deps
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<",:)
	$(Q)$(CC) $(CFLAGS_ALL) -Isrc -c $< -o $@

$(BIN): $(BUILD)/obj/cmd/main.o $(LIB_OBJ)
	@$(if $(Q),echo "  LINK    $@",:)
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LIBS)

# The offline build: the same objects, with tests/offline/http_none.c (every
# call aborts) in place of the libcurl layer. Replay never reaches that
# layer; without libcurl and the ~30 libraries it pulls the program starts
# in a third of the time: the torture's replays run it (tests/README.md).
OFFLINE_BIN := $(BUILD)/offline/agentic-apply
OFFLINE_LIBS := $(shell $(PKG_CONFIG) --libs libcjson openssl 2>/dev/null) -lm

$(BUILD)/obj/offline/http_none.o: tests/offline/http_none.c $(HDR) | deps
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<",:)
	$(Q)$(CC) $(CFLAGS_ALL) -Isrc -c $< -o $@

$(OFFLINE_BIN): $(BUILD)/obj/cmd/main.o \
		$(filter-out $(BUILD)/obj/github/http.o $(BUILD)/obj/github/http_batch.o,$(LIB_OBJ)) \
		$(BUILD)/obj/offline/http_none.o
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LINK    $@",:)
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(OFFLINE_LIBS)

# The library objects as an archive, for test tools that need only a part
# of them: with --as-needed they load no library they do not call (the
# fixture checker starts twice per fixture).
$(BUILD)/libagentic.a: $(LIB_OBJ)
	@$(if $(Q),echo "  AR      $@",:)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# The test binaries link the library objects with cmocka.
$(BUILD)/tests/test_%: tests/unit/test_%.c tests/unit/unit.h $(LIB_OBJ)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LINK    $@",:)
	$(Q)$(CC) $(CFLAGS_ALL) -Isrc $(shell $(PKG_CONFIG) --cflags cmocka) \
		$(LDFLAGS_ALL) -o $@ $< $(LIB_OBJ) $(LIBS) \
		$(shell $(PKG_CONFIG) --libs cmocka)

$(BUILD)/tests/fixture_check: tests/fixture_check.c $(BUILD)/libagentic.a
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LINK    $@",:)
	$(Q)$(CC) $(CFLAGS_ALL) -Isrc $(LDFLAGS_ALL) -o $@ $< \
		-Wl,--as-needed $(BUILD)/libagentic.a $(LIBS)

$(BUILD)/tests/print_queries: tests/print_queries.c $(LIB_OBJ)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LINK    $@",:)
	$(Q)$(CC) $(CFLAGS_ALL) -Isrc $(LDFLAGS_ALL) -o $@ $< $(LIB_OBJ) $(LIBS)

# The standalone fuzz driver: replays corpora with any compiler.
$(BUILD)/tests/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/driver.c $(LIB_OBJ)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LINK    $@",:)
	$(Q)$(CC) $(CFLAGS_ALL) -Isrc $(LDFLAGS_ALL) -o $@ $< tests/fuzz/driver.c \
		$(LIB_OBJ) $(LIBS)

# The differential test against GitHub's Markdown engine (tests/cmark/):
# libcmark-gfm is linked into these two test binaries and nothing else.
CMARK_SRC := tests/cmark/gfmdiff.c tests/cmark/specmodel.c
CMARK_HDR := tests/cmark/gfmdiff.h tests/cmark/specmodel.h
CMARK_CFLAGS = $(shell $(PKG_CONFIG) --cflags libcmark-gfm) -Itests/cmark
CMARK_LIBS = $(shell $(PKG_CONFIG) --libs libcmark-gfm)

$(BUILD)/tests/cmark_diff: tests/cmark/cmark_diff.c $(CMARK_SRC) $(CMARK_HDR) $(LIB_OBJ)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LINK    $@",:)
	$(Q)$(CC) $(CFLAGS_ALL) -Isrc $(CMARK_CFLAGS) $(LDFLAGS_ALL) -o $@ $< \
		$(CMARK_SRC) $(LIB_OBJ) $(LIBS) $(CMARK_LIBS)

$(BUILD)/tests/replay_cmark: tests/fuzz/fuzz_cmark.c tests/fuzz/driver.c $(CMARK_SRC) \
		$(CMARK_HDR) $(LIB_OBJ)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LINK    $@",:)
	$(Q)$(CC) $(CFLAGS_ALL) -Isrc $(CMARK_CFLAGS) $(LDFLAGS_ALL) -o $@ $< \
		tests/fuzz/driver.c $(CMARK_SRC) $(LIB_OBJ) $(LIBS) $(CMARK_LIBS)

$(BUILD)/bench/bench_%: bench/bench_%.c $(LIB_OBJ)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LINK    $@",:)
	$(Q)$(CC) $(CFLAGS_ALL) -Isrc $(LDFLAGS_ALL) -o $@ $< $(LIB_OBJ) $(LIBS)

# Plain `make` and the single test targets only check (by pkg-config and by
# command, never with dpkg or apt): a missing piece stops them with what is
# missing and the one command that installs it. Only `make demo` and `make
# check` install (scripts/bootstrap --build / --check: apt-get on
# Debian/Ubuntu, with sudo when not root).
BOOTSTRAP = CC="$(CC)" PKG_CONFIG="$(PKG_CONFIG)" scripts/bootstrap

deps:
	@$(BOOTSTRAP) --need-build

deps-test:
	@$(BOOTSTRAP) --need-test

# The node suites ask for node and npm alone (issue 24: test-actions does
# not stop for cmocka, which it does not use).
deps-node:
	@$(BOOTSTRAP) --need-node

install-deps:
	@$(BOOTSTRAP) --build

install-deps-test:
	@$(BOOTSTRAP) --check

# Plain make without dpkg or apt, its message when a library is missing,
# what make demo installs (tests/make/deps.sh).
test-make:
	@tests/make/deps.sh
	@tests/make/layers.sh
	@tests/make/format.sh
	@tests/make/static-pins.sh

test-unit: $(UNIT_BIN)
	@tests/run-unit.sh $(UNIT_BIN)

test-fixtures: $(BIN) $(OFFLINE_BIN) $(BUILD)/tests/fixture_check
	@tests/fixtures-generated.sh
	@tests/fixtures.sh $(BIN) $(BUILD)/tests/fixture_check --again $(OFFLINE_BIN)

# docs/schemas/: every fixture snapshot against snapshot.schema.json and
# every fixture's report against report.schema.json (tests/schemas/,
# node --test with ajv from tests/peers).
.PHONY: test-schemas
test-schemas: deps-node $(BIN)
	@tests/peers/ensure.sh
	@mkdir -p build
	@AGENTIC_APPLY_BIN="$(abspath $(BIN))" node --test tests/schemas/ \
		>build/test-schemas.log 2>&1; rc=$$?; \
	awk '/^# (tests|pass|fail|skipped) [0-9]+$$/ { v[$$2] = $$3 } \
		END { printf "test-schemas: %d tests: %d passed, %d failed, %d skipped (build/test-schemas.log)\n", \
			v["tests"], v["pass"], v["fail"], v["skipped"] }' build/test-schemas.log; \
	[ $$rc -eq 0 ] || { awk '/^ *not ok / { p = 1 } p { print } p && /^ *\.\.\.$$/ { p = 0 }' \
		build/test-schemas.log | head -150; exit $$rc; }

# Is cmark-gfm here (with its extensions)? Asked only by the goals that
# need it (a compile and link, so not on every make).
ifneq ($(filter test-corpora test-cmark check-build check-build-plain check-build-san,$(MAKECMDGOALS)),)
CMARK_OK := $(shell $(BOOTSTRAP) --check-cmark && echo yes)
endif

# Without libcmark-gfm the cmark corpus is skipped, and says so.
test-corpora: $(filter-out $(if $(CMARK_OK),,%/replay_cmark),$(FUZZ_TARGETS:%=$(BUILD)/tests/replay_%))
	@CORPORA_SKIP="$(if $(CMARK_OK),,cmark)" \
		tests/fuzz/replay-corpora.sh $(BUILD)/tests $(FUZZ_TARGETS)

# Every comment body against cmark-gfm (tests/cmark/README.md): what
# GitHub shows as a row, a fence or a needs-human marker, the program must
# read the same way. Skipped, and says so, without libcmark-gfm.
test-cmark: $(if $(CMARK_OK),$(BUILD)/tests/cmark_diff)
	@if [ -n "$(CMARK_OK)" ]; then \
		tests/cmark/run.sh $(BUILD)/tests/cmark_diff; \
	else \
		echo "test-cmark: SKIPPED (not passed): cmark-gfm with its extensions is missing;" \
			"scripts/bootstrap --check installs it (libcmark-gfm-dev libcmark-gfm-extensions-dev)"; \
	fi

test-cli: $(BIN)
	@tests/cli.sh $(BIN)
	@tests/demo/extract.py $(BIN) --check

# The documents explain the repository from inside it (tests/docs): no
# reference outside it, every rule code defined in docs/rules/ or
# docs/spec-notes.md, links into docs/rules/ resolve; the examples of
# docs/conductor.md pass (or fail) lint and replay as the page says.
test-docs: $(BIN)
	@tests/docs/refs.sh
	@command -v node >/dev/null 2>&1 || { echo "test-docs: node is missing (Debian/Ubuntu: apt-get install nodejs)" >&2; exit 1; }
	@node tests/docs/conductor.mjs $(BIN)

# fakehub's own tests, then the program live against it (differential,
# Prism, budget, faults, secrets, identity, record/status, …).
test-fakehub: deps-node
	@tests/peers/ensure.sh
	@mkdir -p build
	@node --test tests/fakehub/test/ >build/test-fakehub.log 2>&1; rc=$$?; \
		grep -E '^# (tests|pass|fail)' build/test-fakehub.log; \
		[ $$rc -eq 0 ] || { grep -B2 -A20 '^not ok' build/test-fakehub.log | head -80; exit $$rc; }

# The fake GitLab (tests/fakegitlab): its node tests, its answers checked
# against @gitbeaker/core's types and GitLab's documented examples, and a
# real client (Debian's python3-gitlab) against it (docs/rules/gitlab.md).
.PHONY: test-fakegitlab
test-fakegitlab: deps-test
	@tests/peers/ensure.sh
	@tests/fakegitlab/run.sh

# fixtures/gitlab (issue 26 phase 2; the program does not run them yet):
# each snapshot and expectation checked against docs/schemas/, each snapshot
# loaded by the fake GitLab (tests/gitlab-fixtures.mjs).
.PHONY: test-gitlab-fixtures
test-gitlab-fixtures: deps-node
	@tests/peers/ensure.sh
	@node tests/gitlab-fixtures.mjs

# fixtures/gitlab live against the fake GitLab, each report equal to its
# replay's (issue 26 phase 2; tests/gitlab-live.py).
.PHONY: test-gitlab-live
test-gitlab-live: $(BIN) $(BUILD)/tests/fixture_check deps-node
	@python3 tests/gitlab-live.py $(BIN) $(BUILD)/tests/fixture_check

# record --pr <GitLab reference> against the fake GitLab: each recording
# replays to the live review-plan's report and, with the fixture's
# command, to the fixture's (tests/gitlab-record.py, P60).
.PHONY: test-gitlab-record
test-gitlab-record: $(BIN) deps-node
	@python3 tests/gitlab-record.py $(BIN)

# The publish torture over fixtures/gitlab (tests/gitlab-torture.py): every
# call failed in turn (502, 404), every write also lost and refused (400);
# PUBLISH's fail-closed rule, 0 violations.
.PHONY: test-gitlab-torture
test-gitlab-torture: $(OFFLINE_BIN)
	@python3 tests/gitlab-torture.py $(OFFLINE_BIN)

# make check: the per-fixture columns (live = replay, --dry-run, Prism) over
# a rotating share of the fixtures, 1/LIVE_SHARE and every faulted one
# (tests/integration/lib/fixtures.mjs), every other live test whole;
# test-live-full (check-full): every column over every fixture.
LIVE_SHARE ?= 6
.PHONY: test-live-full
test-live test-live-full: deps-node
	@mkdir -p build
	@LIVE_SHARE=$(if $(filter test-live-full,$@),1,$(LIVE_SHARE)) \
		tests/integration/run.sh >build/$@.log 2>&1; rc=$$?; \
		grep -E '^# (tests|pass|fail|skipped) [0-9]|^# [a-z -]+: [0-9]+ of [0-9]+ fixtures' build/$@.log; \
		[ $$rc -eq 0 ] || { grep -B2 -A30 '^not ok' build/$@.log | head -120; exit $$rc; }

SAN := SANITIZE=address,undefined CC=clang

# The sanitizer build's unit tests, corpora and command line. Its fixture
# replays are the torture's fault-free runs: every fixture, gate and
# publish, with its expectation's arguments, under the same sanitizers.
sanitize-check:
	@SANITIZED=1 $(MAKE) --no-print-directory $(SAN) test-unit test-corpora test-cmark test-cli

# check-full adds the fixtures replayed by the sanitizer build, twice, as
# test-fixtures replays them (the torture's fault-free pass replays them once).
sanitize-check-full:
	@SANITIZED=1 $(MAKE) --no-print-directory $(SAN) test-unit test-fixtures \
		test-corpora test-cmark test-cli

# Fail every GitHub call of every fixture in turn (tests/torture): never an
# approval on a failed read, no leak, no UB. make check: the gate fixtures'
# 502 and 404 columns (a "timeout" call fault is the same failure as a 502
# to replay: port/world.c gives both AA_EAPI, only the message differs) and
# the publish matrix, on the offline build; every fault-free run, and a
# rotating 1/TORTURE_SAN_SHARE of the faulted runs, on the sanitizer build.
# test-torture-full: every column, every run under the sanitizers.
TORTURE_SAN_SHARE ?= 32
TORTURE_BINS := $(OFFLINE_BIN) build/san/offline/agentic-apply
TORTURE_RUN = TORTURE_NO_BUILD=1 tests/torture/run.sh
TORTURE_LOG = >build/$@.log 2>&1; rc=$$?; \
	if [ $$rc -eq 0 ]; then grep '^torture:' build/$@.log | tail -n 1; tail -n 1 build/$@.log; \
	else head -n 120 build/$@.log; tail -n 30 build/$@.log; fi; exit $$rc

.PHONY: test-torture-full torture-bins
torture-bins:
	@$(MAKE) --no-print-directory $(OFFLINE_BIN)
	@$(MAKE) --no-print-directory $(SAN) build/san/offline/agentic-apply

test-torture: torture-bins
	@$(TORTURE_RUN) --kinds 502,404 --san-kinds '' --publish-san-kinds '' \
		--san-share $(TORTURE_SAN_SHARE) $(TORTURE_LOG)

test-torture-full: torture-bins
	@$(TORTURE_RUN) --kinds 502,404,timeout --san-kinds 502,404,timeout \
		--publish-san-kinds 502,404,lost,422 $(TORTURE_LOG)

# make check's suites, one a line, the longest first (test-live, which also
# waits on held-open requests, before the CPU-bound ones): tests/check.sh
# starts them in this order, CHECK_JOBS at a time, after check-build
# (everything they build, so that no two suites build the same file at once).
CHECK_SUITES := \
	test-live \
	test-torture \
	lint-fast \
	sanitize-check \
	test-schemas \
	test-fixtures \
	test-cmark \
	test-actions \
	test-cli \
	test-docs \
	test-fakehub \
	test-fakegitlab \
	test-gitlab-live \
	test-gitlab-record \
	test-gitlab-torture \
	test-make \
	test-unit \
	test-corpora \
	check-static

# check-full: everything. The torture and the sanitizers whole, the static
# binary and dist whatever the cache holds, fuzz campaigns of a fixed length.
CHECK_FULL_SUITES := \
	test-torture-full \
	test-live-full \
	fuzz-full \
	lint \
	sanitize-check-full \
	test-static \
	test-dist \
	test-schemas \
	test-fixtures \
	test-cmark \
	test-actions \
	test-cli \
	test-docs \
	test-fakehub \
	test-fakegitlab \
	test-gitlab-fixtures \
	test-gitlab-live \
	test-gitlab-record \
	test-gitlab-torture \
	test-make \
	test-unit \
	test-corpora

CHECK_JOBS ?= 2
# The wall time make check keeps to on 2 cores (tests/README.md): a line says
# when a run went over it.
CHECK_BUDGET ?= 900
CHECK_FLAGS ?=

.PHONY: check-full check-build check-build-plain check-build-san check-static fuzz-full

check-build: check-build-plain check-build-san

# The corpus drivers check-build builds (cmark's only with libcmark-gfm).
CHECK_FUZZ = $(filter-out $(if $(CMARK_OK),,cmark),$(FUZZ_TARGETS))

check-build-plain:
	@$(MAKE) --no-print-directory $(BIN) $(OFFLINE_BIN) $(UNIT_BIN) \
		$(BUILD)/tests/fixture_check $(BUILD)/tests/print_queries \
		$(CHECK_FUZZ:%=$(BUILD)/tests/replay_%) \
		$(if $(CMARK_OK),$(BUILD)/tests/cmark_diff)

check-build-san:
	@$(MAKE) --no-print-directory $(SAN) build/san/agentic-apply \
		build/san/offline/agentic-apply $(UNIT_BIN:build/%=build/san/%) \
		$(CHECK_FUZZ:%=build/san/tests/replay_%) \
		$(if $(CMARK_OK),build/san/tests/cmark_diff)

# The static binary and the reproducibility of dist need OpenSSL, curl and
# the rest built with musl (~5 minutes of 2 cores, scripts/static-build).
# With them cached (make static) only src/ is compiled, and make check runs
# both; without, check-full and CI's static job build them, and make check
# says it skipped them.
STATIC_CACHED = libs=$$(sed -n 's/^PKGS=(\(.*\))$$/\1/p' scripts/static-build); \
	[ -n "$$libs" ] || exit 1; \
	for p in $$libs; do ls $(STATIC_DIR)/deps/$$p-*/.done >/dev/null 2>&1 || exit 1; done

check-static:
	@if ($(STATIC_CACHED)); then \
		$(MAKE) --no-print-directory test-static test-dist; \
	else \
		echo "check-static: test-static and test-dist skipped: no static libraries cached in $(STATIC_DIR)/deps (make static builds them; make check-full runs both)"; \
	fi

# Fuzz campaigns of a fixed length (FUZZ_FULL_SECONDS per target).
FUZZ_FULL_SECONDS ?= 60
fuzz-full: deps
	@FUZZ_KEEP=0 scripts/fuzz $(FUZZ_FULL_SECONDS) $(FUZZ_TARGETS)

# Installs what is missing first; the sub-makes then find it (the pkg-config
# flags above are read when a make starts).
check: install-deps-test
	@tests/check.sh --jobs $(CHECK_JOBS) --build check-build \
		--budget $(CHECK_BUDGET) $(CHECK_FLAGS) $(CHECK_SUITES)

check-full: install-deps-test
	@tests/check.sh --jobs $(CHECK_JOBS) --build check-build \
		--name "make check-full" $(CHECK_FLAGS) $(CHECK_FULL_SUITES)

.PHONY: check-suites
check-suites:
	@echo $(CHECK_SUITES)

# Plant faults in the rules that matter, one at a time, in a copy of the
# tree; make check must fail on every one (tests/mutants/, tests/README.md).
# MUTANTS=NAME... plants only those.
mutants: install-deps-test
	@tests/mutants/run.sh $(MUTANTS)

# Installs what is missing, then builds in a new make (see check).
# Two offline replays, each printing its JSON report (stdout) and the human
# summary (stderr): a verdict arrives and the gate approves; then a pr-review
# agent's findings are published (docs/publish.md). The second is skipped in a
# tree without fixtures/demo/ (tests/make/deps.sh copies 000-demo.json only).
DEMO_PUBLISH := fixtures/demo/publish.json
# The demo: each scenario's input, the summary replay prints, and where its
# JSON report went (issue 24: no screens of JSON). The two .md files are
# checked against their snapshots by make test-cli (tests/demo/extract.py).
demo: install-deps
	@$(MAKE) --no-print-directory $(BIN)
	@mkdir -p $(BUILD)/demo
	@echo "== 1. The conductor posts this verdict comment on PR #42 (fixtures/demo/verdict-comment.md):"
	@echo
	@sed 's/^/    /' fixtures/demo/verdict-comment.md
	@echo
	@echo "== agentic-apply replay fixtures/000-demo.json: apply sets the clean status, the gate approves"
	@echo
	@$(BIN) replay fixtures/000-demo.json 2>&1 >$(BUILD)/demo/verdict-report.json
	@echo "   (the JSON report: $(BUILD)/demo/verdict-report.json)"
	@echo
	@echo "== 2. A pr-review agent found a P1 and a P3 on PR #7."
	@echo "== agentic-apply replay $(DEMO_PUBLISH): publish posts the summary comment,"
	@echo "== one inline thread (the P1) and the pr-review status"
	@echo
	@$(BIN) replay $(DEMO_PUBLISH) 2>&1 >$(BUILD)/demo/publish-report.json
	@echo "   (the JSON report: $(BUILD)/demo/publish-report.json)"
	@echo
	@echo "== The summary comment it posted (fixtures/demo/publish-summary.md):"
	@echo
	@sed 's/^/    /' fixtures/demo/publish-summary.md

lint: deps
	@scripts/lint

# make check's lint: every check but clang-tidy's path-sensitive analyzer
# (make lint and check-full run it; tests/README.md).
lint-fast: deps
	@LINT_ANALYZER=0 scripts/lint

# make format formats the lines changed since HEAD (git clang-format):
# the tree as committed is the reference, so a clean tree stays clean
# (issue 24: Debian's clang-format would rewrite files nobody touched).
# make format-all reformats every file.
format:
	@git clang-format --binary clang-format --force -q HEAD -- $(SRC) $(HDR) \
		tests/unit/*.c tests/unit/*.h tests/fuzz/*.c tests/cmark/*.c \
		tests/cmark/*.h tests/*.c || true

format-all:
	clang-format -i $(SRC) $(HDR) tests/unit/*.c tests/unit/*.h \
		tests/fuzz/*.c tests/cmark/*.c tests/cmark/*.h tests/*.c

# make fuzz leaves the tree clean (issue 24); make fuzz-keep merges what
# adds coverage into tests/fuzz/corpus, to be committed.
fuzz: deps
	@FUZZ_KEEP=0 scripts/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-keep: deps
	@FUZZ_KEEP=1 scripts/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

bench: deps
	@scripts/bench

clean:
	rm -rf build

# The fully static x86_64 binary (musl): build/static/agentic-apply.
include mk/static.mk

# The release files: make dist, make test-dist (reproducible).
include mk/dist.mk

# The GitHub Action: make test-actions, make release-checksum (docs/actions.md).
include mk/actions.mk

# make prove: the WP proof of the gate, EVA over the parsers (docs/proof.md).
include mk/prove.mk
