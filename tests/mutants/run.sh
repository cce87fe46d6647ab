#!/usr/bin/env bash
# make mutants: plant every fault of tests/mutants/mutants.txt, one at a
# time, into a copy of the tree and run `make check` there, stopping at the
# first failing suite; then a table: mutant, file, what it breaks, the
# suite that killed it, the time. Exit 1 when a mutant survived, no longer
# applies or does not build, or when the tree without a mutant fails.
#
#   tests/mutants/run.sh [--no-baseline] [--list] [NAME...]
#
#   --no-baseline  skip `make check` of the tree without a mutant (it proves
#                  that a kill is the mutant's doing, not a failing suite)
#   --list         check that every mutant applies, print them, run nothing
#   NAME...        only these mutants
#
# The suites are make check's own (Makefile CHECK_SUITES), quick ones first
# so that a kill comes early; two at a time, as make check runs them. The
# copies live in MUTANTS_DIR (default: a new directory under /tmp), each
# starting from one build of the unmutated copy, so that only what the
# mutant changes is compiled again. Logs: MUTANTS_DIR/logs/NAME.log.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
list=0 baseline=1
only=()
for a in "$@"; do
	case $a in
	--list) list=1 ;;
	--no-baseline) baseline=0 ;;
	-*) echo "mutants: unknown option $a" >&2 && exit 2 ;;
	*) only+=("$a") ;;
	esac
done

# --- the mutants -------------------------------------------------------------
names=() files=() breaks=() froms=() tos=()
while IFS= read -r line; do
	case $line in
	'mutant '*) names+=("${line#mutant }") ;;
	'file '*) files+=("${line#file }") ;;
	'breaks '*) breaks+=("${line#breaks }") ;;
	'from '*) froms+=("${line#from }") ;;
	'to '*) tos+=("${line#to }") ;;
	esac
done <tests/mutants/mutants.txt
n=${#names[@]}
if [ "${#files[@]}" != "$n" ] || [ "${#breaks[@]}" != "$n" ] ||
	[ "${#froms[@]}" != "$n" ] || [ "${#tos[@]}" != "$n" ]; then
	echo "mutants: tests/mutants/mutants.txt: every mutant needs one file, breaks, from and to line" >&2
	exit 2
fi

# plant I DIR: mutant I's replacement in DIR's copy of its file; 1 when its
# `from` line is not there exactly once.
plant() {
	python3 - "$2/${files[$1]}" "${froms[$1]}" "${tos[$1]}" <<'PY'
import sys
path, old, new = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    lines = open(path, encoding="utf-8").read().split("\n")
except OSError:
    sys.exit(1)
hits = [i for i, l in enumerate(lines) if l == old]
if len(hits) != 1:
    sys.exit(1)
lines[hits[0]] = new
open(path, "w", encoding="utf-8").write("\n".join(lines))
PY
}

selected=()
for ((i = 0; i < n; i++)); do
	if [ ${#only[@]} -gt 0 ]; then
		keep=0
		for o in "${only[@]}"; do [ "$o" = "${names[$i]}" ] && keep=1; done
		[ "$keep" = 1 ] || continue
	fi
	selected+=("$i")
done
[ ${#selected[@]} -gt 0 ] || { echo "mutants: no mutant named ${only[*]}" >&2 && exit 2; }

# Every `from` must still be in the code: a stale mutant is reported.
stale=0
probe=$(mktemp -d)
for i in "${selected[@]}"; do
	mkdir -p "$probe/$(dirname "${files[$i]}")"
	cp "${files[$i]}" "$probe/${files[$i]}" 2>/dev/null
	if ! plant "$i" "$probe"; then
		echo "mutants: ${names[$i]}: its from line is not in ${files[$i]} exactly once (rewrite the mutant for the new code)" >&2
		stale=$((stale + 1))
	fi
done
rm -rf "$probe"
if [ "$list" = 1 ]; then
	for i in "${selected[@]}"; do printf '%-36s %-28s %s\n' "${names[$i]}" "${files[$i]}" "${breaks[$i]}"; done
	echo "mutants: ${#selected[@]} mutants, $stale stale"
	[ "$stale" = 0 ]
	exit
fi
[ "$stale" = 0 ] || exit 1

# --- the copies ----------------------------------------------------------------
work=${MUTANTS_DIR:-$(mktemp -d /tmp/aa-mutants.XXXXXX)}
mkdir -p "$work/logs"
base=$work/base
unset MAKEFLAGS MFLAGS MAKELEVEL
secs() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }'; }

# make check's suites, quick ones first (any other suite before lint).
read -ra suites <<<"$(make -s --no-print-directory check-suites)"
first=(test-unit test-fixtures test-cli test-corpora sanitize-check test-torture
	test-live test-schemas test-fakehub test-actions test-make)
order=()
for s in "${first[@]}"; do
	for x in "${suites[@]}"; do [ "$x" = "$s" ] && order+=("$s"); done
done
for x in "${suites[@]}"; do
	case " ${order[*]} " in *" $x "*) ;; *) [ "$x" = lint ] || [ "$x" = check-static ] || order+=("$x") ;; esac
done
for x in lint check-static; do
	case " ${suites[*]} " in *" $x "*) order+=("$x") ;; esac
done
[ "${#order[@]}" = "${#suites[@]}" ] || { echo "mutants: could not order make check's suites" >&2 && exit 2; }

echo "mutants: ${#selected[@]} mutants; copies in $work; make check's ${#order[@]} suites in this order: ${order[*]}"
rm -rf "$base"
mkdir -p "$base"
git ls-files -z --cached --others --exclude-standard |
	tar --null -T - -cf - 2>/dev/null | (cd "$base" && tar xf -)
[ -d tests/peers/node_modules ] || tests/peers/ensure.sh
ln -sfn "$root/tests/peers/node_modules" "$base/tests/peers/node_modules"
t=$EPOCHREALTIME
if ! (cd "$base" && make --no-print-directory -j2 check-build) >"$work/logs/build.log" 2>&1; then
	echo "mutants: the unmutated copy does not build (see $work/logs/build.log)" >&2
	exit 1
fi
echo "mutants: built the unmutated copy in $(secs "$t") s"

# check DIR LOG: make check in DIR, fail-fast; sets $killer and $took.
check() {
	local t=$EPOCHREALTIME f rc
	(cd "$1" && make --no-print-directory check CHECK_SUITES="${order[*]}" \
		CHECK_FLAGS=--fail-fast) >"$2" 2>&1
	rc=$?
	took=$(secs "$t")
	killer=
	for f in "$1"/build/check/*.time; do
		[ -f "$f" ] || continue
		read -r rc_s _ <"$f"
		[ "$rc_s" = 0 ] || killer="${killer:+$killer, }$(basename "$f" .time)"
	done
	[ -n "$killer" ] || [ "$rc" = 0 ] || killer="make check (exit $rc)"
	return "$rc"
}

if [ "$baseline" = 1 ]; then
	if ! check "$base" "$work/logs/baseline.log"; then
		echo "mutants: make check fails without a mutant ($killer; see $work/logs/baseline.log): a kill would prove nothing" >&2
		exit 1
	fi
	echo "mutants: make check passes without a mutant (${took} s)"
fi

rows=() survived=0 broken=0
for i in "${selected[@]}"; do
	m=$work/m
	rm -rf "$m"
	cp -a "$base" "$m"
	plant "$i" "$m"
	if check "$m" "$work/logs/${names[$i]}.log"; then
		result="SURVIVED"
		survived=$((survived + 1))
	elif [ "$killer" = build ]; then
		result="does not build"
		broken=$((broken + 1))
	else
		result="killed by $killer"
	fi
	echo "mutants: ${names[$i]}: $result (${took} s)"
	rows+=("| ${names[$i]} | ${files[$i]} | ${breaks[$i]} | $result | ${took} s |")
done
rm -rf "$work/m"

echo
echo "| mutant | file | what it breaks | make check | time |"
echo "|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "mutants: ${#selected[@]} planted: $((${#selected[@]} - survived - broken)) killed, $survived survived, $broken did not build"
[ "$survived" = 0 ] && [ "$broken" = 0 ]
