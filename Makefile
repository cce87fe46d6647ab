# agentic-apply — see README.md. `make` builds build/agentic-apply.
#
#   make            build (needs cc, pkg-config, cJSON, libcurl, OpenSSL; says
#                   what is missing and how to install it, installs nothing)
#   make check      install what the tests need, then every test: unit,
#                   fixtures, fuzz corpora, cmark-gfm differential, sanitizers,
#                   lint
#   make demo       install what the build needs, build, replay the bundled examples
#   make dist       the release binary, reproducibly (mk/dist.mk)
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
LAYERS := base core formats port github run cmd
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

.PHONY: all check demo lint format format-all fuzz fuzz-keep bench clean deps deps-test deps-node install-deps \
	install-deps-test test-make test-unit \
	test-fixtures test-corpora test-cmark test-cli test-docs test-fakehub test-live \
	test-torture \
	sanitize-check

all: $(BIN)

$(BUILD)/obj/%.o: src/%.c $(HDR) | deps
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<",:)
	$(Q)$(CC) $(CFLAGS_ALL) -Isrc -c $< -o $@

$(BIN): $(BUILD)/obj/cmd/main.o $(LIB_OBJ)
	@$(if $(Q),echo "  LINK    $@",:)
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LIBS)

# The test binaries link the library objects with cmocka.
$(BUILD)/tests/test_%: tests/unit/test_%.c tests/unit/unit.h $(LIB_OBJ)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LINK    $@",:)
	$(Q)$(CC) $(CFLAGS_ALL) -Isrc $(shell $(PKG_CONFIG) --cflags cmocka) \
		$(LDFLAGS_ALL) -o $@ $< $(LIB_OBJ) $(LIBS) \
		$(shell $(PKG_CONFIG) --libs cmocka)

$(BUILD)/tests/fixture_check: tests/fixture_check.c $(LIB_OBJ)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LINK    $@",:)
	$(Q)$(CC) $(CFLAGS_ALL) -Isrc $(LDFLAGS_ALL) -o $@ $< $(LIB_OBJ) $(LIBS)

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
	@tests/make/static-pins.sh

test-unit: $(UNIT_BIN)
	@tests/run-unit.sh $(UNIT_BIN)

test-fixtures: $(BIN) $(BUILD)/tests/fixture_check
	@tests/fixtures-generated.sh
	@tests/fixtures.sh $(BIN) $(BUILD)/tests/fixture_check

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
ifneq ($(filter test-corpora test-cmark,$(MAKECMDGOALS)),)
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

test-live: deps-node
	@mkdir -p build
	@tests/integration/run.sh >build/test-live.log 2>&1; rc=$$?; \
		grep -E '^# (tests|pass|fail|skipped)' build/test-live.log; \
		[ $$rc -eq 0 ] || { grep -B2 -A30 '^not ok' build/test-live.log | head -120; exit $$rc; }

sanitize-check:
	@SANITIZED=1 $(MAKE) SANITIZE=address,undefined CC=clang test-unit test-fixtures \
		test-corpora test-cmark test-cli

# Fail every GitHub call of every fixture in turn (tests/torture), under
# ASan+UBSan: never an approval on a failed read, no leak, no UB.
test-torture:
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory SANITIZE=address,undefined CC=clang build/san/agentic-apply
	@TORTURE_NO_BUILD=1 tests/torture/run.sh >build/test-torture.log 2>&1; \
		rc=$$?; tail -n 2 build/test-torture.log; exit $$rc

# Installs what is missing first; the sub-makes then find it (the pkg-config
# flags above are read when a make starts).
check: install-deps-test
	$(MAKE) all
	$(MAKE) test-unit
	$(MAKE) test-fixtures
	$(MAKE) test-schemas
	$(MAKE) test-corpora
	$(MAKE) test-cmark
	$(MAKE) test-cli
	$(MAKE) test-docs
	$(MAKE) test-fakehub
	$(MAKE) test-fakegitlab
	$(MAKE) test-live
	$(MAKE) test-static
	$(MAKE) test-dist
	$(MAKE) test-make
	$(MAKE) test-actions
	$(MAKE) sanitize-check
	$(MAKE) test-torture
	$(MAKE) lint
	@echo "make check: all suites passed"

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
