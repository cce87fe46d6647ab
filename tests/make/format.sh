#!/bin/sh
# make format leaves a clean tree clean (issue 24): in a fresh clone of the
# committed tree, `make format` changes nothing; a line changed against
# HEAD is the only thing it would touch.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! command -v git-clang-format >/dev/null 2>&1 && ! git clang-format -h >/dev/null 2>&1; then
	echo "format: SKIPPED, git clang-format is missing (clang-format)"
	echo "format: 0 passed, 0 failed"
	exit 0
fi
if ! git -C "$root" rev-parse --git-dir >/dev/null 2>&1 ||
	! git clone -q "$root" "$tmp/tree" 2>/dev/null; then
	echo "format: SKIPPED, $root is not a git checkout"
	echo "format: 0 passed, 0 failed"
	exit 0
fi
(cd "$tmp/tree" && make --no-print-directory format >/dev/null 2>&1)
if [ -z "$(git -C "$tmp/tree" status --porcelain)" ]; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL make format changed a clean tree:"
	git -C "$tmp/tree" status --porcelain | sed 's/^/    /' | head -10
fi
echo "format: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
