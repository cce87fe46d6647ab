#!/bin/sh
# scripts/layers (part of make lint) on small trees: the real src/ passes;
# an include that points up, one sideways, one without a folder and a file
# outside the layers' folders are each reported.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "not ok: $1" >&2; }

# case NAME FILE TEXT WANT: a tree with core/a.h, base/b.h and FILE holding
# TEXT; WANT is 0 (clean) or a line scripts/layers must print.
case_() {
	rm -rf "$tmp/t"
	mkdir -p "$tmp/t/src/base" "$tmp/t/src/core" "$tmp/t/src/formats" "$tmp/t/src/run" "$tmp/t/src/github"
	echo '#include "base/b.h"' >"$tmp/t/src/core/a.h"
	: >"$tmp/t/src/base/b.h"
	mkdir -p "$(dirname "$tmp/t/$2")"
	printf '%s\n' "$3" >"$tmp/t/$2"
	out=$("$root/scripts/layers" "$tmp/t")
	rc=$?
	if [ "$4" = 0 ]; then
		[ $rc -eq 0 ] && ok || no "$1: exit $rc: $out"
	else
		[ $rc -eq 1 ] && printf '%s' "$out" | grep -qF "$4" && ok || no "$1: exit $rc, wanted '$4' in: $out"
	fi
}

"$root/scripts/layers" "$root" >"$tmp/out" && ok || no "src/ itself: $(cat "$tmp/out")"
case_ down src/formats/x.c '#include "core/a.h"' 0
case_ own src/core/x.c '#include "core/a.h"' 0
case_ up src/core/x.c '#include "formats/y.h"' 'a core file includes formats/y.h'
case_ sideways src/run/x.c '#include "github/live.h"' 'a run file includes github/live.h'
case_ nofolder src/core/x.c '#include "a.h"' 'names no layer folder'
case_ flat src/x.c '#include "base/b.h"' 'not in a layer'
case_ unknown src/misc/x.c '' 'not in a layer'
case_ system src/base/x.c '#include <stdio.h>' 0

echo "layers: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
