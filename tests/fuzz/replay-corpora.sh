#!/bin/sh
# Replay every fuzz target's corpus with the standalone driver (plain
# compiler, no libFuzzer), so `make check` exercises every input ever kept.
#   tests/fuzz/replay-corpora.sh BUILD_TESTS_DIR TARGET...
dir=$1
shift
pass=0 fail=0
for t in "$@"; do
	if out=$("$dir/replay_$t" tests/fuzz/corpus/"$t" 2>&1); then
		echo "corpus $t: $out"
		pass=$((pass + 1))
	else
		echo "FAIL corpus $t: $out"
		fail=$((fail + 1))
	fi
done
echo "fuzz corpora: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
