#!/bin/sh
# tests/prove/weaken.sh - a mutation check of the gate's proof (make
# prove-mutants; docs/proof.md).
#
# Weakens gate_decide three ways, apply's decisions two, the approval
# protocol two and the gate's model two (str_eq_nocase, stamp.c's
# matches), one at a time, in a copy of src/, and runs the WP proof
# (tests/prove/wp.sh) on each copy: each must fail, and the unweakened
# tree must pass. Each weakened copy also compiles (gcc -fsyntax-only), so
# what fails is the proof, not the build.
#
#   drop-condition    condition 3 (every thread answered) no longer counts
#   wrong-head        the escalation verdict is looked up for the base SHA,
#                     not the head
#   unauthorized-unlabel  a yes is lifted by an unlabel whoever made it
#
# and apply's decisions two ways:
#
#   untrusted-author  a comment not by the trusted login is applied (T1)
#   threads-unread    the clean status is judged and written though the
#                     review threads were not read (§3.3)
#
# and the approval protocol two ways:
#
#   recheck-head      §6.1's re-check holds though the head moved
#   newest-duplicate  approval_older picks the newest older approval, not
#                     the oldest (N82)
#
# and two of the functions the gate's model rests on:
#
#   case-sensitive    str_eq_nocase (the label's words, logins) compares
#                     case-sensitively
#   skip-any-state    stamp.c's matches takes a skip marker in any state
#
# WEAKEN_ONLY="NAME ...": only those mutants (and "unweakened": the
# unweakened runs), e.g. WEAKEN_ONLY=case-sensitive.
set -eu

here=$(cd "$(dirname "$0")/../.." && pwd)
out=$here/build/prove/weaken
rm -rf "$out"
mkdir -p "$out"
fail=0

# selected NAME: is NAME among WEAKEN_ONLY (all are when it is unset)?
selected() {
	[ -z "${WEAKEN_ONLY:-}" ] && return 0
	case " $WEAKEN_ONLY " in *" $1 "*) return 0 ;; esac
	return 1
}

# weaken NAME FUNCTION FROM TO [FILE [ONLY]]: plant the fault (FROM must occur
# exactly once in src/core/FILE.c, default gate, or src/FILE.c when FILE
# names a directory: base/util) in FUNCTION, prove FUNCTION (the proof
# is modular: the contracts stay, so the weakened function's own proof
# is the one that must fail), expect a failure. wp.sh's PROVE_ONLY is
# ONLY, by default FILE's last part (none for gate).
weaken() {
	name=$1 fct=$2 from=$3 to=$4 file=${5:-gate} only=${6:-}
	selected "$name" || return 0
	case $file in
	*/*) src=src/$file.c ;;
	*) src=src/core/$file.c ;;
	esac
	dir=$out/$name
	mkdir -p "$dir"
	cp -R "$here/src" "$dir/src"
	n=$(grep -cF -- "$from" "$dir/$src" || true)
	if [ "$n" != 1 ]; then
		echo "prove-mutants: $name: the line to weaken occurs $n times in $src (rewrite the mutant)" >&2
		fail=1
		return
	fi
	FROM=$from TO=$to perl -0pi -e 's/\Q$ENV{FROM}\E/$ENV{TO}/' "$dir/$src"
	if ! gcc -std=c11 -D_POSIX_C_SOURCE=200809L -fsyntax-only -I"$dir/src" \
		"$dir/$src" 2>"$dir/cc.log"; then
		echo "prove-mutants: $name: the weakened $src does not compile ($dir/cc.log)" >&2
		fail=1
		return
	fi
	[ -n "$only" ] || [ "$file" = gate ] || only=${file##*/}
	if PROVE_ONLY=$only PROVE_FCTS=$fct PROVE_LOG=$dir/wp.log \
		"$here/tests/prove/wp.sh" "$dir" >"$dir/out.txt" 2>&1; then
		echo "prove-mutants: $name: NOT caught: the weakened gate still proves ($dir/wp.log)" >&2
		fail=1
		return
	fi
	goals=$(grep -c '^\[wp\] \[Failed\]' "$dir/wp.log" || true)
	echo "prove-mutants: $name: caught ($(tail -n 1 "$dir/out.txt" | sed 's/^prove-gate: [a-z-]*: FAILED: //'); $goals failed:"
	grep '^\[wp\] \[Failed\]' "$dir/wp.log" | sed 's/.*Goal typed_/    /' | head -n 8
}

weaken drop-condition gate_decide \
	'		if (out->cond[c])' \
	'		if (out->cond[c] || c == COND_THREADS_ANSWERED)'
weaken wrong-head cond_escalation \
	'verdict_lookup(&lk, in->pull, in->pull->head_sha, p);' \
	'verdict_lookup(&lk, in->pull, in->pull->base_sha, p);'
weaken unauthorized-unlabel esc_verdict_yes \
	'	if (!u.authorized) {' \
	'	if (0 && !u.authorized) {'

# Apply's decisions (§3): applied for an author who is not the trusted
# login (T1); a status judged though the review threads were not read.
weaken untrusted-author apply_classify \
	'	if (!verdict_author_trusted(c, in->policy)) { /* T1 */' \
	'	if (0 && !verdict_author_trusted(c, in->policy)) { /* T1 */' apply
weaken threads-unread apply_check_decide \
	'	if (!in->threads_ok) {' \
	'	if (0 && !in->threads_ok) {' apply
# The approval protocol (§6.1): a re-check holds on another head.
weaken recheck-head approval_recheck \
	'	    strcmp(again->head, first->head) != 0)' \
	'	    (0 && strcmp(again->head, first->head) != 0))' approval

# What the gate's model rests on: the label and the unlabelers compared
# case-sensitively (SameName); a skip marker whose state is not success
# (Stamp); the duplicate to dismiss is not the oldest.
weaken case-sensitive str_eq_nocase \
	'		if (to_lower((unsigned char)*a) != to_lower((unsigned char)*b))' \
	'		if (*a != *b)' base/util
weaken skip-any-state matches \
	'strcmp(x->state, state_success) == 0 &&' \
	'1 &&' stamp
weaken newest-duplicate approval_older \
	'(!oldest || r->id < oldest))' \
	'(!oldest || r->id > oldest))' approval approval-older

# unweakened NAME ONLY FCTS: the weakened functions, as they are, prove
# (ONLY: wp.sh's PROVE_ONLY, empty for gate.c).
unweakened() {
	name=$1 only=$2 fcts=$3
	selected unweakened || return 0
	if PROVE_ONLY=$only PROVE_FCTS=$fcts PROVE_LOG=$out/unweakened-$name.log \
		"$here/tests/prove/wp.sh" >"$out/unweakened-$name.txt" 2>&1; then
		echo "prove-mutants: unweakened: $(cat "$out/unweakened-$name.txt")"
	else
		echo "prove-mutants: the unweakened $name does not prove ($out/unweakened-$name.log)" >&2
		fail=1
	fi
}

unweakened gate '' gate_decide,cond_escalation,esc_verdict_yes
unweakened apply apply apply_classify,apply_check_decide
unweakened approval approval approval_recheck
unweakened util util str_eq_nocase
unweakened stamp stamp matches
unweakened approval-older approval-older approval_older
exit $fail
