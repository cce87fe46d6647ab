#!/bin/sh
# tests/prove/wp.sh [ROOT] - the WP proof of gate_decide, of the sweep's
# selection and of apply's decisions (docs/proof.md).
#
# Proves the contracts of src/core/gate.c (gate_decide and the helpers it
# calls) under the model of tests/prove/gate_spec.h, then those of
# src/core/select.c under tests/prove/select_spec.h, with the provers z3
# and cvc4 through why3, and fails unless every goal is proved. ROOT is the
# tree to prove (default: this checkout): tests/prove/weaken.sh passes a
# weakened copy. Output: build/prove/wp.log (and wp-select.log: the
# sweep's selection, src/core/select.c; wp-apply.log: apply's decisions,
# src/core/apply.c) of the checkout that runs it.
#
# PROVE_EXTRA: more frama-c options (e.g. "-wp-prop NAME" while iterating).
# Deterministic: each goal gets a fixed number of prover steps
# (PROVE_STEPS, default 2000000), not a time, so a loaded machine proves
# the same goals, only later; PROVE_TIMEOUT (seconds per goal, default
# 300) only stops a prover that hangs. PROVE_PAR: provers at a time
# (default 2). WHY3CONFIG: default build/prove/why3.conf, written by `why3
# config detect` when missing.
set -eu

here=$(cd "$(dirname "$0")/../.." && pwd)
root=${1:-$here}
out=$here/build/prove
mkdir -p "$out"
log=${PROVE_LOG:-$out/wp.log}
timeout=${PROVE_TIMEOUT:-300}
steps=${PROVE_STEPS:-2000000}
par=${PROVE_PAR:-2}
WHY3CONFIG=${WHY3CONFIG:-$out/why3.conf}
export WHY3CONFIG
if [ ! -s "$WHY3CONFIG" ]; then
	why3 config detect -C "$WHY3CONFIG" >/dev/null 2>&1 || {
		echo "prove: why3 config detect failed (scripts/bootstrap --prove installs why3, z3, cvc4)" >&2
		exit 1
	}
fi

# The functions of gate.c the proof covers: gate_decide and every helper
# it calls (gate_add_reason is trusted: its contract in gate.h).
fcts=cond_clean,cond_label_absent,cond_threads,find_unlabel
fcts=$fcts,esc_verdict_yes,esc_verdict_no,no_verdict_why,esc_no_verdict
fcts=$fcts,esc_hold_lifted,cond_escalation,part_name,gate_decide
# PROVE_FCTS: only these (the proof is modular: each function is proved
# from the contracts of those it calls; tests/prove/weaken.sh).
fcts=${PROVE_FCTS:-$fcts}

cd "$root"
# prove_one NAME SPEC FILE FCTS LOG: WP over FILE's functions FCTS, under
# the model SPEC (force-included); fails unless every goal is proved.
# -wp-literals: the contents of "success" are known to the provers.
prove_one() {
	name=$1 spec=$2 file=$3 fns=$4 plog=$5
	# shellcheck disable=SC2086 # PROVE_EXTRA: frama-c options, split
	nice -n 19 frama-c \
		-cpp-extra-args="-Isrc -D_POSIX_C_SOURCE=200809L -include $here/tests/prove/$spec" \
		"$file" \
		-wp -wp-fct "$fns" -wp-literals -wp-prover cvc4,z3 \
		-wp-steps "$steps" -wp-timeout "$timeout" -wp-par "$par" -wp-cache none \
		-wp-warn-key pedantic-assigns=inactive \
		-kernel-warn-key annot:missing-spec=inactive \
		${PROVE_EXTRA:-} \
		>"$plog" 2>&1 || { tail -n 30 "$plog" >&2; echo "prove: frama-c failed ($plog)" >&2; return 1; }

	line=$(grep 'Proved goals:' "$plog" | tail -n 1)
	proved=$(echo "$line" | sed 's/.*Proved goals: *\([0-9]*\) *\/ *\([0-9]*\).*/\1/')
	total=$(echo "$line" | sed 's/.*Proved goals: *\([0-9]*\) *\/ *\([0-9]*\).*/\2/')
	if [ -z "$total" ] || [ "$proved" != "$total" ]; then
		grep -A3 '\[Failed\]\|Timeout\|Unknown' "$plog" | grep -v '^--$' | head -n 60 >&2 || true
		echo "prove-gate: $name: FAILED: $proved of $total goals proved ($plog)" >&2
		return 1
	fi
	echo "prove-gate: $name: $proved of $total goals proved ($(echo "$fns" | tr ',' ' '); $plog)"
}

# Apply's decisions (apply.h): apply_classify and apply_label_decide and
# what they call but say, which is trusted (its contract names only the
# count). apply_check_decide's contract is written but not yet proved
# (docs/proof.md): PROVE_FCTS=$apply_check_fcts PROVE_ONLY=apply tries it.
apply_fcts=decision_zero,no_verdict,apply_classify,apply_label_decide
apply_check_fcts=refuse,refused_early,refuse_early,stamp_not_ours
apply_check_fcts=$apply_check_fcts,round_holds,round_lost,row_details,judge
apply_check_fcts=$apply_check_fcts,apply_check_decide

# PROVE_ONLY=apply: apply.c's functions alone (PROVE_FCTS of them;
# weaken.sh); otherwise gate.c's (PROVE_FCTS of them), then, in a whole
# run, the sweep's selection and apply's decisions.
if [ "${PROVE_ONLY:-}" = apply ]; then
	prove_one apply apply_spec.h src/core/apply.c \
		"${PROVE_FCTS:-$apply_fcts}" "$log"
	exit
fi
prove_one gate gate_spec.h src/core/gate.c "$fcts" "$log"
# The sweep's selection (§7; select.h) and apply's decisions (§3;
# apply.h): only in a whole run (weaken.sh proves gate.c's functions
# alone).
if [ -z "${PROVE_FCTS:-}" ]; then
	prove_one select select_spec.h src/core/select.c \
		from_contexts,select_listed_approval,select_decide \
		"${log%.log}-select.log"
	prove_one apply apply_spec.h src/core/apply.c "$apply_fcts" \
		"${log%.log}-apply.log"
fi
