#!/bin/sh
# make test-cmark: the differential test against GitHub's Markdown engine
# (tests/cmark/README.md) on every comment body the project has: the
# fixtures' comments, the lint cases of tests/cli.sh, the markdown examples
# of the docs, the cases in tests/cmark/cases/ and the fuzz corpus of
# tests/fuzz/fuzz_cmark.c.
#   tests/cmark/run.sh CMARK_DIFF [--model]
set -u
bin=$1
shift
tmp=$(mktemp -d /tmp/aa-cmark.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/cli" "$tmp/docs"

# tests/cli.sh writes its lint cases with printf (and head) into
# "$tmp/NAME.md"; run exactly those lines, and its sha=, in a subshell.
# shellcheck disable=SC2016 # a literal $tmp, as tests/cli.sh writes it
lines=$(grep -E '^(sha=[0-9a-f]+|(printf|head) .*>>?"\$tmp/[A-Za-z0-9_-]+\.md")$' tests/cli.sh)
tmp="$tmp/cli" bash -c "$lines" || {
	echo "cmark: the lint cases of tests/cli.sh did not run" >&2
	exit 2
}

# Every ```markdown (or ````markdown, ~~~markdown) example of the docs.
for f in docs/*.md README.md; do
	awk -v out="$tmp/docs/$(basename "$f" .md)" '
		fence == "" && match($0, /^(```+|~~~+)markdown[ \t]*$/) {
			fence = substr($0, 1, RLENGTH - length("markdown"))
			sub(/[ \t]+$/, "", fence)
			n++; file = sprintf("%s-%02d.md", out, n); printf "" >file
			next
		}
		fence != "" {
			line = $0; sub(/[ \t]+$/, "", line)
			if (index(line, fence) == 1 && line ~ /^(`+|~+)$/ &&
			    length(line) >= length(fence)) {
				close(file); fence = ""; next
			}
			print >>file
		}' "$f"
done
ncli=$(find "$tmp/cli" -type f | wc -l)
ndocs=$(find "$tmp/docs" -type f | wc -l)
if [ "$ncli" -lt 5 ] || [ "$ndocs" -lt 5 ]; then
	echo "cmark: found only $ncli lint cases in tests/cli.sh and $ndocs examples in the docs" >&2
	exit 2
fi

"$bin" "$@" fixtures/*.json fixtures/publish/*.json fixtures/demo/*.json \
	"$tmp/cli" "$tmp/docs" tests/cmark/cases tests/fuzz/corpus/cmark >"$tmp/out"
rc=$?
sed -e "s|$tmp/|<extracted>/|" -e "s|^\(cmark: .* failed\) (|\1 ($ncli lint cases of tests/cli.sh, $ndocs doc examples; |" "$tmp/out"
grep -q '^cmark: ' "$tmp/out" || echo "cmark: $bin did not finish (exit $rc)" >&2
exit "$rc"
