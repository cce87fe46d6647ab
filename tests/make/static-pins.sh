#!/bin/sh
# scripts/static-pins (dist/static-sources): the pins themselves are well
# formed, and verify refuses each planted fault: another .dsc, a file that
# differs from its .dsc, a missing file, a package pinned twice or not at
# all. scripts/static-build uses no version but the pinned one (no fallback
# outside --pin). Offline: the source package here is made up.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
pins=$root/dist/static-sources
sp=$root/scripts/static-pins
fail() {
	echo "static-pins: FAIL $*"
	exit 1
}
for pkg in zlib openssl nghttp2 cjson curl; do
	v=$("$sp" version "$pkg") || fail "no pin of $pkg"
	[ -n "$v" ] || fail "empty version of $pkg"
	"$sp" sha256 "$pkg" | grep -Eq '^[0-9a-f]{64}$' || fail "sha256 of $pkg"
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/pkg"
printf 'upstream\n' >"$tmp/pkg/demo_1.0.orig.tar.gz"
printf 'debian\n' >"$tmp/pkg/demo_1.0-1.debian.tar.xz"
sum() { sha256sum "$1" | cut -c1-64; }
size() { wc -c <"$1" | tr -d ' '; }
{
	echo "Format: 3.0 (quilt)"
	echo "Source: demo"
	echo "Version: 1:1.0-1"
	echo "Checksums-Sha256:"
	for f in demo_1.0.orig.tar.gz demo_1.0-1.debian.tar.xz; do
		echo " $(sum "$tmp/pkg/$f") $(size "$tmp/pkg/$f") $f"
	done
	echo "Files:"
	echo " 00 1 x"
} >"$tmp/pkg/demo_1.0-1.dsc"
echo "demo 1:1.0-1 $(sum "$tmp/pkg/demo_1.0-1.dsc")" >"$tmp/pins"
"$sp" verify demo "$tmp/pkg" "$tmp/pins" || fail "the package as pinned"
refused() { # WHY EXPECTED-MESSAGE
	if out=$("$sp" verify demo "$tmp/pkg" "$tmp/pins" 2>&1); then fail "$1: accepted"; fi
	echo "$out" | grep -q "$2" || fail "$1: said '$out'"
}
cp -r "$tmp/pkg" "$tmp/good"
printf 'tampered\n' >"$tmp/pkg/demo_1.0.orig.tar.gz"
refused "a tampered upstream tarball" "does not have the SHA-256\|is not .* bytes"
rm -rf "$tmp/pkg" && cp -r "$tmp/good" "$tmp/pkg"
rm "$tmp/pkg/demo_1.0-1.debian.tar.xz"
refused "a missing file" "is missing"
rm -rf "$tmp/pkg" && cp -r "$tmp/good" "$tmp/pkg"
printf '\n' >>"$tmp/pkg/demo_1.0-1.dsc"
refused "another .dsc" "the pin says"
rm -rf "$tmp/pkg" && cp -r "$tmp/good" "$tmp/pkg"
mv "$tmp/pkg/demo_1.0-1.dsc" "$tmp/pkg/demo_1.0-2.dsc"
refused "another version" "no demo_1.0-1.dsc"
rm -rf "$tmp/pkg" && cp -r "$tmp/good" "$tmp/pkg"
cat "$tmp/pins" "$tmp/pins" >"$tmp/pins2" && mv "$tmp/pins2" "$tmp/pins"
refused "a package pinned twice" "exactly once"
echo "other 1 $(printf '%064d' 0)" >"$tmp/pins"
refused "a package not pinned" "exactly once"
# The build takes no version but the pinned one unless --pin moves the pins.
sb=$root/scripts/static-build
grep -q 'if \[ "$pin" = 0 \]; then list=${VER\[$pkg\]}' "$sb" || fail "static-build fetches other versions than the pinned one"
grep -q 'scripts/static-pins verify "$pkg" "$d.tmp" "$PINS"' "$sb" || fail "static-build does not verify a download against its pin"
grep -q "cannot be downloaded .*a release is built from exactly what it pins or not at all" "$sb" || fail "static-build does not stop when a pin cannot be downloaded"
echo "static-pins: 5 pins, 6 planted faults refused"
