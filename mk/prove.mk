# Machine-checked proofs, included by the Makefile (docs/proof.md).
#
#   make prove          install Frama-C, why3, z3 and cvc4 when missing
#                       (scripts/bootstrap --prove; test-only), then
#                       prove-gate and prove-eva; fails on any unproved goal
#                       or any alarm not in tests/prove/alarms*.expected
#   make prove-gate     the WP proofs of gate_decide, of the sweep's
#                       selection (select_decide), of apply's decisions
#                       and of the approval protocol, and with -wp-rte
#                       the text views' cursors (tests/prove/wp.sh)
#   make prove-eva      EVA over the verdict and ledger parsers and the
#                       findings reader (tests/prove/eva.sh; EVA_RUNS=json
#                       or findings runs one part)
#   make prove-mutants  weaken gate_decide three ways, apply's decisions
#                       two, the approval protocol two and the gate's
#                       model two, one at a time in a copy: prove-gate
#                       must fail on each (tests/prove/weaken.sh;
#                       WEAKEN_ONLY=NAME runs one)

.PHONY: prove prove-deps prove-gate prove-eva prove-mutants

prove-deps:
	@scripts/bootstrap --check-prove || scripts/bootstrap --prove

prove: prove-deps
	@$(MAKE) --no-print-directory prove-gate prove-eva

prove-gate: prove-deps
	@tests/prove/wp.sh

prove-eva: prove-deps
	@tests/prove/eva.sh

prove-mutants: prove-deps
	@tests/prove/weaken.sh
