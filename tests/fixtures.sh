#!/usr/bin/env bash
# Replay every fixture and compare its report with the expectation beside it
# (fixtures/README.md). Each fixture is replayed twice: the reports must be
# byte-identical. With --again BIN2 the second replay is BIN2's (make
# test-fixtures: the offline build, which the torture runs, must give the
# product's report on every fixture). fixtures/doctor/ holds `doctor`
# scenarios: each is run as `doctor --snapshot FILE --json` (its report
# has the same `exit`).
#   tests/fixtures.sh BIN CHECKER [--again BIN2] [FIXTURE...]
set -u
bin=$1 checker=$2
shift 2
again=$bin
if [ "${1:-}" = --again ]; then
	again=$2
	shift 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
if [ $# -eq 0 ]; then
	set -- fixtures/[0-9]*.json fixtures/publish/[0-9]*.json \
		fixtures/gitlab/[0-9]*.json \
		fixtures/doctor/[0-9]*.json
fi
for f in "$@"; do
	case $f in *.expect.json) continue ;; esac
	exp=${f%.json}.expect.json
	name=$(basename "$f" .json)
	if [ ! -f "$exp" ]; then
		echo "FAIL $name: no expectation file"
		fail=$((fail + 1))
		continue
	fi
	mapfile -t args < <("$checker" --args "$exp")
	case $f in
	*/doctor/*) cmd=(doctor --quiet --json "${args[@]}" --snapshot "$f") ;;
	*) cmd=(replay --quiet "${args[@]}" "$f") ;;
	esac
	"$bin" "${cmd[@]}" >"$tmp/out" 2>"$tmp/err"
	code=$?
	"$again" "${cmd[@]}" >"$tmp/out2" 2>/dev/null
	if ! out=$("$checker" "$exp" "$tmp/out" "$tmp/err" "$code"); then
		echo "FAIL $name"
		printf '%s\n' "$out"
		sed 's/^/    stderr: /' "$tmp/err" | head -5
		fail=$((fail + 1))
	elif ! cmp -s "$tmp/out" "$tmp/out2"; then
		if [ "$again" = "$bin" ]; then
			echo "FAIL $name: two replays gave different reports"
		else
			echo "FAIL $name: $again gave another report than $bin"
		fi
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
done
echo "fixtures: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
