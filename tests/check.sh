#!/usr/bin/env bash
# The runner of `make check` and `make check-full` (tests/README.md): every
# suite is `make SUITE`, at most JOBS at a time, started in the order given;
# a suite's output goes to build/check/SUITE.log and is printed whole when
# the suite ends, so two suites never interleave. At the end: the wall and
# CPU (user + sys) time of every suite, so that growth shows at every run.
#
#   tests/check.sh [--jobs N] [--fail-fast] [--build TARGET] [--budget S]
#                  [--name NAME] SUITE...
#
#   --jobs N       suites at once (default 2)
#   --fail-fast    stop at the first failing suite: the running ones are
#                  ended, the rest not started (make mutants)
#   --build T      `make -jN T` first, alone (what every suite needs, so two
#                  suites never build the same file at once)
#   --budget S     the wall-time budget in seconds: the last line says
#                  whether the run kept it (a line, never a failure)
#   --name NAME    what the summary calls the run (default "make check")
#
# Exit 1 when a suite (or the build) failed.
set -u
cd "$(dirname "$0")/.."
jobs=2 fail_fast=0 build= budget=0 name="make check"
while [ $# -gt 0 ]; do
	case $1 in
	--jobs) jobs=$2 && shift 2 ;;
	--fail-fast) fail_fast=1 && shift ;;
	--build) build=$2 && shift 2 ;;
	--budget) budget=$2 && shift 2 ;;
	--name) name=$2 && shift 2 ;;
	-*) echo "check.sh: unknown option $1" >&2 && exit 2 ;;
	*) break ;;
	esac
done
dir=build/check
mkdir -p "$dir"
rm -f "$dir"/*.log "$dir"/*.time "$dir"/*.cpu "$dir"/*.stopped
# The suites' makes are ours to run; none inherits the caller's jobserver.
unset MAKEFLAGS MFLAGS MAKELEVEL

# Each suite in its own process group (job control), so that --fail-fast
# can end a suite with everything it started.
set -m
t0=$EPOCHREALTIME

# run NAME CMD...: CMD with its output in NAME.log; NAME.time gets
# "rc wall user sys" (user and sys: CMD and every process it waited for).
run() {
	local n=$1 start=$EPOCHREALTIME
	shift
	"$@" >"$dir/$n.log" 2>&1
	local rc=$? cpu
	# `times`, a builtin, in this shell (a pipe or $(…) would fork one whose
	# children took no time): its second line, "0m1.250s 0m0.310s".
	times >"$dir/$n.cpu"
	cpu=$(tail -1 "$dir/$n.cpu" | awk '{ n = split($0, f, " "); for (i = 1; i <= n; i++) { split(f[i], p, /[ms]/); s[i] = p[1] * 60 + p[2] } printf "%.1f %.1f", s[1], s[2] }')
	echo "$rc $(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') $cpu" >"$dir/$n.time"
	return "$rc"
}

# show NAME: print a finished suite's log under a header.
show() {
	local rc wall user sys
	read -r rc wall user sys <"$dir/$1.time"
	if [ "$rc" -eq 0 ]; then
		echo "== $1 (${wall} s)"
	else
		echo "== $1 FAILED (exit $rc, ${wall} s)"
	fi
	cat "$dir/$1.log"
}

failed=0
if [ -n "$build" ]; then
	run build make --no-print-directory -j"$jobs" "$build" &
	wait $!
	show build
	if ! awk '{ exit $1 != 0 }' "$dir/build.time"; then
		failed=1
		set -- # nothing to test without the build
	fi
fi

declare -A name_of
suites=("$@")
next=0
total=$#
running=0
# start the next suite
start() {
	local n=${suites[$next]}
	next=$((next + 1))
	run "$n" make --no-print-directory "$n" &
	name_of[$!]=$n
	running=$((running + 1))
}
stopped=0
while [ "$next" -lt "$total" ] || [ "$running" -gt 0 ]; do
	while [ "$stopped" = 0 ] && [ "$running" -lt "$jobs" ] && [ "$next" -lt "$total" ]; do
		start
	done
	[ "$running" -gt 0 ] || break
	wait -n -p done_pid
	running=$((running - 1))
	n=${name_of[$done_pid]}
	unset "name_of[$done_pid]"
	if [ -f "$dir/$n.stopped" ]; then
		echo "== $n stopped (--fail-fast)"
		continue
	fi
	show "$n"
	if ! awk '{ exit $1 != 0 }' "$dir/$n.time"; then
		failed=1
		if [ "$fail_fast" = 1 ] && [ "$stopped" = 0 ]; then
			stopped=1
			for p in "${!name_of[@]}"; do
				: >"$dir/${name_of[$p]}.stopped"
				kill -TERM -- "-$p" 2>/dev/null
			done
		fi
	fi
done

# The table: every suite asked for, in the order given.
echo
printf '%-22s %9s %9s  %s\n' "$name:" "wall s" "cpu s" "result"
for n in ${build:+build} "$@"; do
	if [ -f "$dir/$n.stopped" ]; then
		printf '%-22s %9s %9s  %s\n' "$n" - - "stopped (--fail-fast)"
	elif [ -f "$dir/$n.time" ]; then
		read -r rc wall user sys <"$dir/$n.time"
		printf '%-22s %9s %9s  %s\n' "$n" "$wall" \
			"$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')" \
			"$([ "$rc" -eq 0 ] && echo passed || echo "FAILED (exit $rc)")"
	else
		printf '%-22s %9s %9s  %s\n' "$n" - - "not run"
	fi
done
wall=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
cpu=$(cat "$dir"/*.time 2>/dev/null | awk '$3 != "-" { s += $3 + $4 } END { printf "%.0f", s }')
printf '%-22s %9s %9s  %s\n' "total" "$wall" "$cpu" "$jobs at a time; logs in $dir/"
if [ "$budget" -gt 0 ]; then
	if [ "$wall" -le "$budget" ]; then
		echo "$name: ${wall} s of its ${budget} s budget (tests/README.md)"
	else
		echo "$name: ${wall} s, OVER its ${budget} s budget (tests/README.md: what to move to check-full)"
	fi
fi
if [ "$failed" = 0 ]; then
	echo "$name: all suites passed"
else
	echo "$name: FAILED"
fi
exit "$failed"
