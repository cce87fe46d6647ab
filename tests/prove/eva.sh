#!/bin/sh
# tests/prove/eva.sh - EVA over the verdict and ledger parsers (docs/proof.md).
#
# Runs Frama-C's EVA from tests/prove/eva_parsers.c (any comment body up
# to the limit the code enforces, through core/marker*.c and the row
# judgement of core/verdict.c) and lists its alarms, one a line, without
# line numbers (file, function, kind, the property): build/prove/alarms.
# Fails when an alarm is not in tests/prove/alarms.expected, and says when
# one listed there is gone (then shorten the list: make prove-eva
# ALARMS_UPDATE=1 writes it).
set -eu

here=$(cd "$(dirname "$0")/../.." && pwd)
out=$here/build/prove
mkdir -p "$out"
log=$out/eva.log
csv=$out/eva.csv
expected=$here/tests/prove/alarms.expected

cd "$here"
# util.c reads <openssl/evp.h>: a shim declares what it names.
src="tests/prove/eva_parsers.c src/core/marker.c src/core/marker_fence.c
src/core/marker_line.c src/core/mdblock.c src/core/mdblock_line.c
src/core/verdict.c src/core/visible.c src/core/kind.c src/core/stamp.c
src/core/policy.c src/base/text.c src/base/util.c"
# The settings (measured in docs/proof-alarms.md): precision 1, with
# -eva-split-return auto (an out-parameter that a function sets when it
# answers true is read as set on that path), -eva-plevel 64 (md_block's
# 32 containers updated one by one), -eva-alloc-builtin fresh (each
# xstrdup of policy_init an exact block of its own), loops of up to 64
# turns unrolled (visible.c's table of entity names) and one state per
# path in mem_eq_nocase and names_field. Precision 2 with these takes 3.6
# times the CPU and leaves the same alarms. The contracts of policy.c and
# stamp.c are WP's, over tests/prove/*_spec.h (wp.sh): EVA skips them.
# shellcheck disable=SC2086 # a list of files
nice -n 19 frama-c \
	-cpp-extra-args="-Isrc -Itests/prove/shim -D_POSIX_C_SOURCE=200809L" \
	$src \
	-eva -eva-precision "${EVA_PRECISION:-1}" -eva-no-show-progress \
	-eva-split-return auto -eva-plevel 64 -eva-alloc-builtin fresh \
	-eva-auto-loop-unroll 64 \
	-eva-slevel-function mem_eq_nocase:200,names_field:200 \
	-eva-warn-key builtins:missing-spec=abort \
	-kernel-warn-key annot-error=active \
	-then -report-csv "$csv" -report-no-proven \
	>"$log" 2>&1 || { tail -n 30 "$log" >&2; echo "prove-eva: frama-c failed ($log)" >&2; exit 1; }

# The CSV: directory, file, line, function, property kind, status, property.
# -report-no-proven leaves the alarms and the callee preconditions EVA
# could not show (the library's, for memcmp, strlen, ...).
awk -F'\t' 'NR > 1 && $6 != "Valid" {
	print $2 ": " $4 ": " $5 ": " $7 }' "$csv" | sort -u >"$out/alarms"
n=$(wc -l <"$out/alarms")
if [ "${ALARMS_UPDATE:-}" = 1 ]; then
	cp "$out/alarms" "$expected"
	echo "prove-eva: $n alarms written to tests/prove/alarms.expected"
	exit 0
fi
new=$(sort -u "$expected" | comm -13 - "$out/alarms")
gone=$(sort -u "$expected" | comm -23 - "$out/alarms")
[ -z "$gone" ] || { echo "prove-eva: alarms gone (ALARMS_UPDATE=1 shortens the list):"; echo "$gone"; }
if [ -n "$new" ]; then
	echo "prove-eva: FAILED: new alarms ($log):" >&2
	echo "$new" >&2
	exit 1
fi
echo "prove-eva: $n alarms, all in tests/prove/alarms.expected ($log)"
