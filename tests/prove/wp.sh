#!/bin/sh
# tests/prove/wp.sh [ROOT] - the WP proof of gate_decide, of the sweep's
# selection, of apply's decisions and of the approval protocol
# (docs/proof.md).
#
# Proves the contracts of src/core/gate.c (gate_decide and the helpers it
# calls) under the model of tests/prove/gate_spec.h, then those of
# src/core/select.c, src/core/apply.c and src/core/approval.c under their
# models (tests/prove/*_spec.h), with the provers z3
# and cvc4 through why3, and fails unless every goal is proved. ROOT is the
# tree to prove (default: this checkout): tests/prove/weaken.sh passes a
# weakened copy. Output: build/prove/wp.log (and wp-select.log: the
# sweep's selection, src/core/select.c; wp-apply.log and
# wp-apply-literals.log: apply's decisions, src/core/apply.c;
# wp-approval.log: the approval protocol, src/core/approval.c;
# wp-stamp.log and wp-policy.log: the stamp selection and the label's
# words the gate trusts; wp-util.log: str_eq_nocase, which those words
# compare with; wp-approval-older.log: approval_older; wp-text-lemma.log,
# wp-text.log, wp-mdline.log and wp-mdline-literals.log, wp-markerline.log,
# wp-markerline-memchr.log, wp-markerfence.log: the text views, V, with
# -wp-rte) of the checkout that runs it.
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
# prove_one NAME SPEC FILE FCTS LOG [STEPS]: WP over FILE's functions
# FCTS, under the model SPEC (force-included), with STEPS per goal
# (default PROVE_STEPS); fails unless every goal is proved.
# -wp-literals: the contents of "success" are known to the provers.
prove_one() {
	name=$1 spec=$2 file=$3 fns=$4 plog=$5 nsteps=${6:-$steps}
	# shellcheck disable=SC2086 # PROVE_EXTRA: frama-c options, split
	nice -n 19 frama-c \
		-cpp-extra-args="-Isrc -I$here/tests/prove/shim -D_POSIX_C_SOURCE=200809L -include $here/tests/prove/$spec" \
		"$file" \
		-wp -wp-fct "$fns" -wp-literals -wp-prover cvc4,z3 \
		-wp-steps "$nsteps" -wp-timeout "$timeout" -wp-par "$par" -wp-cache none \
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

# Apply's decisions (apply.h): apply_classify, apply_label_decide and
# apply_check_decide, and what they call but say, which is trusted (its
# contract names only the count). status_says is proved on its own, with
# more steps: that "success" and "failure" are strings (strcmp's
# precondition) takes Z3 about 10 million steps (docs/proof.md).
apply_fcts=decision_zero,no_verdict,apply_classify,apply_label_decide
apply_fcts=$apply_fcts,refuse,refused_early,refuse_early,stamp_not_ours
apply_fcts=$apply_fcts,round_holds,round_lost,row_details,judge
apply_fcts=$apply_fcts,apply_check_decide
literal_steps=${PROVE_LITERAL_STEPS:-15000000}
# The approval protocol (approval.h, §6): what run/gate.c asks before and
# after it approves (approval_older, which picks a duplicate to dismiss,
# is proved on its own, below).
approval_fcts=trusted_of,approval_exists,approval_recheck,approval_unlisted
approval_fcts=$approval_fcts,approval_withheld

# The stamp selection and the label's words, which gate_spec.h's
# contracts state and the gate's proof trusts. The stamp run gets
# literal_steps: that a status's state equals "success" (stamp.c's
# state_success) takes CVC4 about 1.9 million steps, too close to
# PROVE_STEPS (docs/proof.md).
stamp_fcts=matches,newest,stamp_round,stamp_clean,stamp_skip
policy_fcts=policy_is_label,policy_is_unlabeler

# --- V: the text views (docs/proof-alarms.md §2) -----------------------
# base/text.c's cursors (and util.h's character tests they call), then
# core/mdblock_line.c's line helpers, under tests/prove/text_spec.h and
# mdline_spec.h, with -wp-rte: every read inside its view, no signed
# overflow; each function hands back views inside the ones it was given.
# Left out (-wp-prop; docs/spec-notes.md N70-N72): the libc's
# danglingness preconditions (\dangling is not implemented in this WP),
# its initialization preconditions (the views' bytes being set is not
# modelled), and, in attr_value and html7, strchr's precondition that
# its literal is a string. PROVE_ONLY=text runs this alone.
text_fcts=is_ws,is_digit,to_lower,mview_of,text_trim,text_trim_ws
text_fcts=$text_fcts,text_rstrip,text_skip_ws,text_eat_word,text_eat_char
text_fcts=$text_fcts,text_eat_key,text_eq,text_starts,text_eq_nocase
text_fcts=$text_fcts,text_contains,text_find,text_all_digits,text_next_line
mdline_fcts=at,space_or_tab,is_alpha,is_alnum,space_or_end,spacechar
mdline_fcts=$mdline_fcts,mdl_first_nonspace,mdl_advance,word_at
mdline_fcts=$mdline_fcts,contains_from,mdl_run_len,mdl_rest_blank
mdline_fcts=$mdline_fcts,mdl_fence_open,skip_space,tagname
mdline_fcts=$mdline_fcts,mdl_atx_heading,mdl_thematic_break,mdl_setext_line
mdline_fcts=$mdline_fcts,mdl_list_marker,mdl_plain_prefix
# marker_line.c's view readers, then marker_fence.c's fence_run (the
# readers' callers pass literals: the string preconditions at those
# calls are left out, N72); in eat_tag, bare_cr
# and details_shows_row memchr's valid precondition too (N74: Frama-C's
# libc asks a valid pointer even for 0 bytes, and a view of 0 bytes may
# point one past the body).
markerline_fcts=marker_names_row_field,comment_inside,marker_spells
markerline_fcts=$markerline_fcts,near_miss,marker_nh_line,html_cell,row_marker
markerline_fcts=$markerline_fcts,has_pipe,delimiter_row,take_token,field_end
# prove_rte NAME SPEC FILE FCTS LOG [WP-PROP]: prove_one with -wp-rte;
# WP-PROP (",-name...") leaves out more properties.
prove_rte() {
	saved_extra=${PROVE_EXTRA:-}
	PROVE_EXTRA="-wp-rte -wp-no-filter-init -wp-prop=-danglingness,-initialization${6:-} $saved_extra"
	rc=0
	prove_one "$1" "$2" "$3" "$4" "$5" || rc=1
	PROVE_EXTRA=$saved_extra
	return $rc
}
# prove_text_lemma: text_spec.h's lemma sub_ok (a part of a view is a
# view), which the functions' proofs use; a lemma belongs to no function
# (no -wp-fct).
prove_text_lemma() {
	plog=${log%.log}-text-lemma.log
	nice -n 19 frama-c \
		-cpp-extra-args="-Isrc -D_POSIX_C_SOURCE=200809L -include $here/tests/prove/text_spec.h" \
		src/base/text.c -wp -wp-prop sub_ok -wp-prover cvc4,z3 \
		-wp-steps "$steps" -wp-timeout "$timeout" -wp-cache none \
		>"$plog" 2>&1 || { tail -n 30 "$plog" >&2; echo "prove: frama-c failed ($plog)" >&2; return 1; }
	grep -q 'Proved goals: *1 / 1' "$plog" || {
		echo "prove-gate: text-lemma: FAILED ($plog)" >&2
		return 1
	}
	echo "prove-gate: text-lemma: 1 of 1 goals proved (sub_ok; $plog)"
}
prove_text() {
	prove_text_lemma &&
		prove_rte text text_spec.h src/base/text.c "$text_fcts" \
			"${log%.log}-text.log" &&
		prove_rte mdline mdline_spec.h src/core/mdblock_line.c \
			"$mdline_fcts" "${log%.log}-mdline.log" &&
		prove_rte mdline-literals mdline_spec.h \
			src/core/mdblock_line.c attr_value,html7 \
			"${log%.log}-mdline-literals.log" ,-valid_string_s &&
		prove_rte markerline markerline_spec.h src/core/marker_line.c \
			"$markerline_fcts" "${log%.log}-markerline.log" ,-string &&
		prove_rte markerline-memchr markerline_spec.h \
			src/core/marker_line.c eat_tag,bare_cr,details_shows_row \
			"${log%.log}-markerline-memchr.log" ,-string,-valid &&
		prove_rte markerfence markerfence_spec.h src/core/marker_fence.c \
			fence_run "${log%.log}-markerfence.log"
}
if [ "${PROVE_ONLY:-}" = text ]; then
	prove_text
	exit
fi

# With -wp-rte (no undefined behaviour either): base/util.c's
# str_eq_nocase, the SameName policy_spec.h defines the label's words by
# (util_spec.h), with the to_lower it calls; and approval_older (§6.1: the
# duplicate approval to dismiss). A subshell each: PROVE_EXTRA gets
# -wp-rte for that run only.
util_fcts=to_lower,str_eq_nocase
# shellcheck disable=SC2030,SC2031 # PROVE_EXTRA: that run's only
prove_util() {
	(PROVE_EXTRA="${PROVE_EXTRA:-} -wp-rte"
	prove_one util util_spec.h src/base/util.c \
		"${PROVE_FCTS:-$util_fcts}" "$1")
}
# shellcheck disable=SC2030,SC2031 # PROVE_EXTRA: that run's only
prove_older() {
	(PROVE_EXTRA="${PROVE_EXTRA:-} -wp-rte"
	prove_one approval-older approval_spec.h src/core/approval.c \
		"${PROVE_FCTS:-approval_older}" "$1")
}

# PROVE_ONLY=apply, approval, stamp, util (str_eq_nocase) or
# approval-older: those functions alone (PROVE_FCTS of them; weaken.sh);
# otherwise gate.c's (PROVE_FCTS of them), then, in a whole run, the
# sweep's selection, apply's decisions, the approval protocol and the
# functions the gate's model rests on.
case ${PROVE_ONLY:-} in
apply)
	prove_one apply apply_spec.h src/core/apply.c \
		"${PROVE_FCTS:-$apply_fcts}" "$log"
	exit ;;
approval)
	prove_one approval approval_spec.h src/core/approval.c \
		"${PROVE_FCTS:-$approval_fcts}" "$log"
	exit ;;
stamp)
	prove_one stamp stamp_spec.h src/core/stamp.c \
		"${PROVE_FCTS:-$stamp_fcts}" "$log" "$literal_steps"
	exit ;;
util)
	prove_util "$log"
	exit ;;
approval-older)
	prove_older "$log"
	exit ;;
esac
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
	prove_one apply-literals apply_spec.h src/core/apply.c status_says \
		"${log%.log}-apply-literals.log" "$literal_steps"
	prove_one approval approval_spec.h src/core/approval.c \
		"$approval_fcts" "${log%.log}-approval.log"
	prove_one stamp stamp_spec.h src/core/stamp.c "$stamp_fcts" \
		"${log%.log}-stamp.log" "$literal_steps"
	prove_one policy policy_spec.h src/core/policy.c "$policy_fcts" \
		"${log%.log}-policy.log"
	prove_util "${log%.log}-util.log"
	prove_older "${log%.log}-approval-older.log"
fi
# V (above): only in a whole run.
if [ -z "${PROVE_FCTS:-}" ]; then
	prove_text
fi
