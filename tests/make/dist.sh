#!/usr/bin/env bash
# make dist is reproducible (`make test-dist`): two copies of the tree, in
# directories of different names and depths, each run `make dist` with a
# different environment (locale, time zone, umask, parallel jobs) on the
# libraries `make static` cached; the release binary, its SHA256SUMS and its
# ledger line must be byte for byte the same, name neither directory, and
# be the binary dist/checksum describes.
#
#   tests/make/dist.sh
#
# Run `make static` first (make test-dist does): a copy that found no cached
# library would build it, minutes long, and the test says so.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
static=$(cd "$root" && mkdir -p "${STATIC_DIR:-build/static}" && cd "${STATIC_DIR:-build/static}" && pwd)
version=$(cat "$root/VERSION")
asset=agentic-apply-linux-x86_64
tmp=$(mktemp -d /tmp/aa-dist.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
unset MAKEFLAGS MFLAGS MAKELEVEL

pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() {
	echo "FAIL $1"
	shift
	local line
	for line in "$@"; do echo "    $line"; done
	fail=$((fail + 1))
}
finish() {
	echo "dist: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}

# checkout DIR: the files make dist reads, and the static build's cache of
# this tree: apt indexes, sources and the lock shared; each library prefix
# linked one by one, so a library the copy had to build would land in the
# copy, never in the shared cache.
checkout() {
	mkdir -p "$1/build/static/deps"
	for x in apt src .lock; do
		if [ "$x" = .lock ]; then touch "$static/.lock"; else mkdir -p "$static/$x"; fi
		ln -s "$static/$x" "$1/build/static/$x"
	done
	local d
	for d in "$static"/deps/*/; do
		[ -d "$d" ] || continue
		ln -s "${d%/}" "$1/build/static/deps/$(basename "$d")"
	done
}

a=$tmp/a
b=$tmp/elsewhere/a-checkout-with-a-longer-name
# One snapshot of the sources (others may be editing the tree), copied twice.
mkdir -p "$a" "$b"
(cd "$root" && tar cf - VERSION Makefile mk scripts src dist) | (cd "$a" && tar xf -)
(cd "$a" && tar cf - .) | (cd "$b" && tar xf -)
checkout "$a"
checkout "$b"

# make_dist DIR LOG ENV...: make dist in DIR with only ENV (and PATH, HOME).
make_dist() {
	local dir=$1 log=$2
	shift 2
	(cd "$dir" && env -i PATH="$PATH" HOME="${HOME:-/root}" "$@" make --no-print-directory dist) >"$log" 2>&1
}
if ! make_dist "$a" "$tmp/a.log" LANG=C.UTF-8 TZ=UTC JOBS=2; then
	bad "make dist in $a" "$(tail -20 "$tmp/a.log")"
	finish
fi
if ! make_dist "$b" "$tmp/b.log" TZ=Pacific/Chatham JOBS=1 sh -c 'umask 077 && exec "$@"' sh; then
	bad "make dist in $b" "$(tail -20 "$tmp/b.log")"
	finish
fi
ok

# Every library came from the cache of make static.
for log in "$tmp/a.log" "$tmp/b.log"; do
	built=$(awk '$1 ~ /^(zlib|openssl|nghttp2|cjson|curl)$/ && /built in/ { print $1 }' "$log" | tr '\n' ' ')
	cached=$(awk '$1 ~ /^(zlib|openssl|nghttp2|cjson|curl)$/ && / cached / { n++ } END { print n + 0 }' "$log")
	if [ -n "$built" ]; then
		bad "the copy reuses the cached libraries" "it built: $built(run make static first: make test-dist does)"
	elif [ "$cached" -ne 5 ]; then
		bad "the copy reports five cached libraries" "$(grep -A6 'static-build: ELF' "$log")"
	else ok; fi
done

ba=$a/build/dist/$asset
bb=$b/build/dist/$asset
for f in "$ba" "$bb"; do
	if [ -s "$f" ]; then ok; else bad "$f exists"; fi
done
if cmp -s "$ba" "$bb"; then ok; else
	bad "the two builds are the same bytes" \
		"$(sha256sum "$ba" "$bb")" \
		"first differences: $(cmp -l "$ba" "$bb" 2>/dev/null | head -3 | tr '\n' ';')" \
		"(diffoscope $ba $bb shows where)"
fi
if cmp -s "$a/build/dist/SHA256SUMS" "$b/build/dist/SHA256SUMS" &&
	cmp -s "$a/build/dist/ledger-line" "$b/build/dist/ledger-line"; then ok; else
	bad "SHA256SUMS and the ledger line are the same" "$(cat "$a/build/dist/SHA256SUMS" "$b/build/dist/SHA256SUMS" "$a/build/dist/ledger-line" "$b/build/dist/ledger-line")"
fi

# The release's checksum file checks the binary; the ledger line is
# dist/checksum's, for this version and these sources.
if (cd "$a/build/dist" && sha256sum -c --quiet SHA256SUMS) >/dev/null 2>&1; then ok; else
	bad "sha256sum -c SHA256SUMS" "$(cat "$a/build/dist/SHA256SUMS")"
fi
want=$(sh "$a/dist/checksum" line "$version" "$ba" "$a")
if [ "$want" = "$(cat "$a/build/dist/ledger-line")" ] && grep -qxF "$want" "$tmp/a.log"; then ok; else
	bad "make dist prints the ledger line of dist/checksum" "want: $want" "have: $(cat "$a/build/dist/ledger-line")"
fi
cp "$a/dist/SHA256SUMS" "$tmp/ledger.orig"
printf '%s\n' "$want" >>"$a/dist/SHA256SUMS"
if sh "$a/dist/checksum" verify "$version" "$bb" "$a" 2>"$tmp/verify.err"; then ok; else
	bad "the other build passes dist/checksum verify with that line" "$(cat "$tmp/verify.err")"
fi
cp "$tmp/ledger.orig" "$a/dist/SHA256SUMS"

# Neither directory is in the binary.
for dir in "$a" "$b" "$tmp"; do
	if grep -qaF "$dir" "$ba"; then bad "the binary does not name $dir"; else ok; fi
done

# It is the static program of this version.
if [ "$("$ba" --version 2>&1)" = "agentic-apply $version" ]; then ok; else
	bad "$asset --version says agentic-apply $version" "$("$ba" --version 2>&1 | head -3)"
fi
if ! command -v file >/dev/null 2>&1; then
	bad "file(1) is installed" "scripts/bootstrap --static"
elif file -b "$ba" | grep -q 'statically linked'; then ok; else
	bad "file says statically linked" "$(file -b "$ba")"
fi
finish
