#!/bin/sh
# The committed fixtures are exactly what fixtures/tools/gen.py writes: a
# hand edit of a generated file would be lost on the next generation, so it
# fails here instead. Prints one line in the runner's plain format.
set -eu
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
FIXTURES_OUT="$out" python3 fixtures/tools/gen.py >/dev/null
pass=0
fail=0
for f in "$out"/[0-9][0-9][0-9]-*.json "$out"/COVERAGE.md \
	"$out"/publish/[0-9]*.json "$out"/publish/README.md "$out"/publish/README-b.md \
	"$out"/publish/bodies/*.md "$out"/demo/publish.json; do
	b=${f#"$out"/}
	if cmp -s "$f" "fixtures/$b"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL fixtures/$b differs from what fixtures/tools/gen.py writes" >&2
	fi
done
for f in fixtures/[0-9][0-9][0-9]-*.json fixtures/publish/[0-9]*.json \
	fixtures/publish/bodies/*.md; do
	[ -e "$out/${f#fixtures/}" ] && continue
	fail=$((fail + 1))
	echo "FAIL $f is not written by fixtures/tools/gen.py" >&2
done
echo "fixtures generated: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
