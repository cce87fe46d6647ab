#!/bin/sh
# tests/prove/eva.sh - EVA over the verdict and ledger parsers and the
# findings reader (docs/proof.md §2).
#
# Three runs, each from its entry point, each listing its alarms one a
# line, without line numbers (file, function, kind, the property):
#   parsers   tests/prove/eva_parsers.c: any comment body up to the limit
#             the code enforces, through core/marker*.c and the row
#             judgement of core/verdict.c (tests/prove/alarms.expected)
#   json      tests/prove/eva_json.c: base/json.c's json_parse_at as the
#             findings reader calls it: any text up to 8 MiB, any tree
#             (tests/prove/alarms-json.expected)
#   findings  tests/prove/eva_findings.c: formats/findings*.c over any text
#             up to 8 MiB + 1 and any tree, json_parse_at stubbed
#             (tests/prove/alarms-findings.expected; each line's reason
#             in docs/proof-alarms-findings.md)
# Each fails when an alarm is not in its list, and says when one listed
# there is gone (then shorten the list: ALARMS_UPDATE=1 writes it).
# EVA_RUNS picks the runs (default: all three); EVA_PRECISION the
# parsers' precision (1); EVA_DEPTH, EVA_WIDTH the shape of the findings
# runs' trees (tests/prove/eva_stubs.c).
set -eu

here=$(cd "$(dirname "$0")/../.." && pwd)
out=$here/build/prove
mkdir -p "$out"
cd "$here"

# run NAME EXPECTED FRAMA-C-ARGS...: analyse, then compare the alarms.
run() {
	name=$1
	expected=$here/tests/prove/$2
	shift 2
	log=$out/eva-$name.log
	csv=$out/eva-$name.csv
	nice -n 19 frama-c "$@" -eva-no-show-progress \
		-eva-warn-key builtins:missing-spec=abort \
		-then -report-csv "$csv" -report-no-proven \
		>"$log" 2>&1 || {
		tail -n 30 "$log" >&2
		echo "prove-eva: $name: frama-c failed ($log)" >&2
		return 1
	}
	# A recursive call deeper than -eva-unroll-recursive-calls, or a
	# function without code or specification, would be analysed from a
	# made-up specification: refuse the run.
	if grep -q 'User Error\|Neither code nor specification' "$log"; then
		grep -A3 'User Error\|Neither code nor specification' "$log" >&2
		echo "prove-eva: $name: unsound set-up ($log)" >&2
		return 1
	fi
	# The CSV: directory, file, line, function, property kind, status,
	# property. -report-no-proven leaves the alarms and the callee
	# preconditions EVA could not show (the library's, for memcmp,
	# strlen, ...).
	awk -F'\t' 'NR > 1 && $6 != "Valid" {
		print $2 ": " $4 ": " $5 ": " $7 }' "$csv" |
		sort -u >"$out/alarms-$name"
	n=$(wc -l <"$out/alarms-$name")
	if [ "${ALARMS_UPDATE:-}" = 1 ]; then
		cp "$out/alarms-$name" "$expected"
		echo "prove-eva: $name: $n alarms written to ${expected#"$here"/}"
		return 0
	fi
	new=$(sort -u "$expected" | comm -13 - "$out/alarms-$name")
	gone=$(sort -u "$expected" | comm -23 - "$out/alarms-$name")
	[ -z "$gone" ] || {
		echo "prove-eva: $name: alarms gone (ALARMS_UPDATE=1 shortens the list):"
		echo "$gone"
	}
	if [ -n "$new" ]; then
		echo "prove-eva: $name: FAILED: new alarms ($log):" >&2
		echo "$new" >&2
		return 1
	fi
	echo "prove-eva: $name: $n alarms, all in ${expected#"$here"/} ($log)"
}

# util.c reads <openssl/evp.h>, buf.c and json.c <openssl/crypto.h>: a
# shim declares what they name.
cpp="-Isrc -Itests/prove -Itests/prove/shim -D_POSIX_C_SOURCE=200809L"
depth=${EVA_DEPTH:-5}
width=${EVA_WIDTH:-2}
# The findings runs: precision 0 (the loops merged at once), but each loop
# unrolled for its first 3 iterations (a list of up to EVA_WIDTH nodes is
# walked node by node) and sets of up to 64 values kept (the offsets of a
# table's members, 22 at most): docs/proof.md §2.
tcpp="$cpp -I/usr/include/cjson -DEVA_DEPTH=$depth -DEVA_WIDTH=$width"
tree="-c11 -eva -eva-precision 0 -eva-min-loop-unroll 3 -eva-ilevel 64
-eva-unroll-recursive-calls $((depth + 1))"
status=0

for r in ${EVA_RUNS:-parsers json findings}; do
	case $r in
	parsers)
		# stamp.c's and policy.c's ACSL is the WP runs' (wp.sh),
		# written in models this run does not include: dropped here
		# (annot-error), EVA needs none of it.
		# The settings (measured in docs/proof-alarms.md): precision
		# 1, with -eva-split-return auto (an out-parameter that a
		# function sets when it answers true is read as set on that
		# path), -eva-plevel 64 (md_block's 32 containers updated one
		# by one), -eva-alloc-builtin fresh (each xstrdup of
		# policy_init an exact block of its own), loops of up to 64
		# turns unrolled (visible.c's table of entity names) and one
		# state per path in mem_eq_nocase and names_field. Precision
		# 2 with these takes 3.6 times the CPU and leaves the same
		# alarms.
		# shellcheck disable=SC2086 # lists of files and options
		run parsers alarms.expected -cpp-extra-args="$cpp" \
			-kernel-warn-key annot-error=active \
			tests/prove/eva_parsers.c src/core/marker.c \
			src/core/marker_fence.c src/core/marker_line.c \
			src/core/mdblock.c src/core/mdblock_line.c \
			src/core/verdict.c src/core/visible.c src/core/kind.c \
			src/core/stamp.c src/core/policy.c src/base/text.c \
			src/base/util.c \
			-eva -eva-precision "${EVA_PRECISION:-1}" \
			-eva-split-return auto -eva-plevel 64 \
			-eva-alloc-builtin fresh -eva-auto-loop-unroll 64 \
			-eva-slevel-function mem_eq_nocase:200,names_field:200 \
			|| status=1
		;;
	json)
		# Its settings measured, and each alarm's reason:
		# docs/proof-alarms-json.md.
		# shellcheck disable=SC2086
		run json alarms-json.expected -cpp-extra-args="$tcpp" $tree \
			tests/prove/eva_json.c tests/prove/eva_stubs.c \
			src/base/json.c src/base/buf.c src/base/util.c ||
			status=1
		;;
	findings)
		# json_parse_at is eva_findings.c's stub: json.c's own is
		# renamed out of the way (eva_json.c analyses it).
		# shellcheck disable=SC2086
		run findings alarms-findings.expected -cpp-extra-args="$tcpp" \
			$tree -cpp-extra-args-per-file \
			src/base/json.c:-Djson_parse_at=json_parse_at_unused \
			tests/prove/eva_findings.c tests/prove/eva_stubs.c \
			src/formats/findings.c src/formats/findings_entries.c \
			src/formats/findings_read.c src/base/json.c \
			src/base/buf.c src/base/util.c src/core/review.c ||
			status=1
		;;
	*)
		echo "prove-eva: no run $r (parsers, json, findings)" >&2
		status=1
		;;
	esac
done
exit $status
