#!/bin/sh
# Replay every fuzz target's corpus with the standalone driver (plain
# compiler, no libFuzzer), so `make check` exercises every input ever kept.
# CORPORA_SKIP names targets whose library is missing (cmark: cmark-gfm):
# each is reported as skipped, never as passed.
#   tests/fuzz/replay-corpora.sh BUILD_TESTS_DIR TARGET...
dir=$1
shift
pass=0 fail=0 skip=0
for t in "$@"; do
	case " ${CORPORA_SKIP:-} " in
	*" $t "*)
		echo "SKIPPED corpus $t: its library is missing (scripts/bootstrap --check installs it)"
		skip=$((skip + 1))
		continue
		;;
	esac
	if out=$("$dir/replay_$t" tests/fuzz/corpus/"$t" 2>&1); then
		echo "corpus $t: $out"
		pass=$((pass + 1))
	else
		echo "FAIL corpus $t: $out"
		fail=$((fail + 1))
	fi
done
echo "fuzz corpora: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
