#!/bin/sh
# The repository explains itself (issue 24): nothing points outside it, and
# every rule code it uses is defined in it.
#
#   tests/docs/refs.sh        (make test-docs; run from the repository root)
#
# 1. outside references: no file of the tree (this script excepted) names
#    the specification texts by a path outside the repository
#    (../shared, /work/shared, shared/spec, shared/seeds);
# 2. rule codes (T1-T4, R1-R4, A1-A13, B1-B8, U1-U6, I1-I7, M1-M9, H1-H5,
#    W1-W6, X.., G.., N.., P..) used in docs/, README.md, SECURITY.md,
#    action.yml and the string literals of src/ (the reasons the program
#    prints) are each defined: an anchor (<a id="r4">) or a heading in
#    docs/rules/*.md, or a bold "**N12." note in docs/spec-notes.md;
# 3. links into docs/rules/ (from anywhere in docs/, README.md, SECURITY.md)
#    and every link of docs/rules/*.md and docs/conductor.md name a file
#    that exists and, after '#', an anchor or heading it has.
# Section references (BEHAVIOR §5.2, PUBLISH §7) are fine: docs/rules/README.md
# maps every section to the page that states it.
# shellcheck disable=SC2016 # the awk programs are single-quoted on purpose
set -u
LC_ALL=C
export LC_ALL
cd "$(dirname "$0")/../.." || exit 2
self=tests/docs/refs.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
	fail=$((fail + 1))
	echo "FAIL refs: $*"
}

# Codes whose letter and digits mean something else where they stand.
#   X64  RUNNER_ARCH's value (action.yml)
not_codes='X64'
code_re='(T|R|A|B|U|I|M|H|W|X|G|N|P)[0-9]{1,3}'

# --- the files of the tree ----------------------------------------------------
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -co --exclude-standard >"$tmp/files"
else
	find . -path ./build -prune -o -path ./.git -prune -o -type f -print |
		sed 's|^\./||' >"$tmp/files"
fi
grep -v -e '^build/' -e "^$self\$" "$tmp/files" | while IFS= read -r f; do
	[ -f "$f" ] && printf '%s\n' "$f"
done >"$tmp/tree"

# --- 1. outside references ----------------------------------------------------
outside='\.\./shared|/work/shared|shared/spec|shared/seeds'
tr '\n' '\0' <"$tmp/tree" | xargs -0 grep -I -n -E "$outside" >"$tmp/outside" 2>/dev/null
if [ -s "$tmp/outside" ]; then
	while IFS= read -r line; do
		bad "points outside the repository: $line"
	done <"$tmp/outside"
else
	ok
fi

# --- 2. rule codes ------------------------------------------------------------
# Defined: anchors and headings of docs/rules/*.md, bold notes of spec-notes.md.
for f in docs/rules/*.md; do
	grep -o -E '<a (id|name)="[a-z]+[0-9]+"' "$f" |
		sed -E 's/.*"([a-z]+[0-9]+)"/\1/' | tr '[:lower:]' '[:upper:]'
	grep -E '^#+ ' "$f" | grep -o -w -E "$code_re"
	grep -o -E '^(- )?\*\*[A-Z][0-9]+[.* ]' "$f" | grep -o -E "$code_re"
done >"$tmp/defined"
grep -o -E '^- \*\*[NP][0-9]+\.' docs/spec-notes.md | grep -o -E '[NP][0-9]+' >>"$tmp/defined"
sort -u "$tmp/defined" -o "$tmp/defined"
[ -s "$tmp/defined" ] || bad "no rule is defined in docs/rules/ or docs/spec-notes.md"

# Used: the documents, and the program's string literals (comments and
# character constants removed first).
{
	grep -E '^(docs/|README\.md$|SECURITY\.md$|action\.yml$)' "$tmp/tree" |
		while IFS= read -r f; do
			grep -o -w -E "$code_re" "$f" | sed "s|^|$f: |"
		done
	# The program's strings, in one pass over src/: comments and character
	# constants dropped, the contents of string literals searched.
	grep -E '^src/.*\.[ch]$' "$tmp/tree" | tr '\n' '\0' | xargs -0 awk -v q="'" '
	FNR == 1 { incomment = 0 }
	{
		line = $0; out = ""; i = 1; n = length(line)
		while (i <= n) {
			c = substr(line, i, 1); d = substr(line, i, 2)
			if (incomment) {
				if (d == "*/") { incomment = 0; i += 2 } else i++
				continue
			}
			if (d == "/*") { incomment = 1; i += 2; continue }
			if (d == "//") break
			if (c == q) { i += (substr(line, i + 1, 1) == "\\") ? 4 : 3; continue }
			if (c == "\"") {
				i++
				while (i <= n && substr(line, i, 1) != "\"") {
					if (substr(line, i, 1) == "\\") { out = out substr(line, i, 2); i += 2 }
					else { out = out substr(line, i, 1); i++ }
				}
				i++; out = out " "; continue
			}
			i++
		}
		# The codes in them, as whole words.
		while (match(out, /[TRABUIMHWXGNP][0-9][0-9]?[0-9]?/)) {
			before = RSTART > 1 ? substr(out, RSTART - 1, 1) : " "
			after = substr(out, RSTART + RLENGTH, 1)
			if (before !~ /[A-Za-z0-9_]/ && after !~ /[A-Za-z0-9_]/)
				print FILENAME " (string): " substr(out, RSTART, RLENGTH)
			out = substr(out, RSTART + RLENGTH)
		}
	}'
} >"$tmp/used"

# shellcheck disable=SC2013 # one code per line, no spaces in them
for c in $(sed 's/.*: //' "$tmp/used" | sort -u); do
	case " $not_codes " in *" $c "*) continue ;; esac
	# The G rules live in docs/rules/gitlab.md, written by the GitLab work
	# (issue 26) on another branch: checked once that file exists.
	case $c in G*) [ -f docs/rules/gitlab.md ] || continue ;; esac
	if grep -q -x "$c" "$tmp/defined"; then
		ok
	else
		where=$(grep -E ": $c\$" "$tmp/used" | sed 's/: [^:]*$//' | sort -u | head -3 | tr '\n' ' ')
		bad "$c is used but defined nowhere in docs/rules/ or docs/spec-notes.md ($where)"
	fi
done

# --- 3. links -----------------------------------------------------------------
# Code fences as CommonMark has them: opened by 3+ backticks or tildes
# (after at most 3 spaces), closed by at least as many of the same
# character with nothing after them; a backtick fence's info string holds
# no backtick. (Used by the awk programs below.)
fences='
function fence(line,    run) {
	if (!infence) {
		if (match(line, /^ ? ? ?(```+|~~~+)/)) {
			run = substr(line, RSTART, RLENGTH); sub(/^ */, "", run)
			fch = substr(run, 1, 1); flen = length(run)
			if (fch == "`" && index(substr(line, RSTART + RLENGTH), "`")) return 0
			infence = 1
			return 1
		}
		return 0
	}
	if (match(line, /^ ? ? ?(```+|~~~+)[ \t]*$/)) {
		run = substr(line, RSTART, RLENGTH); sub(/^ */, "", run); sub(/[ \t]*$/, "", run)
		if (substr(run, 1, 1) == fch && length(run) >= flen) infence = 0
	}
	return 1
}'
# Which files: every page of docs/rules/ and docs/conductor.md, and any
# document of docs/, README.md or SECURITY.md that links into docs/rules/.
grep -E '^(docs/.*\.md|README\.md|SECURITY\.md)$' "$tmp/tree" >"$tmp/mds"
{
	grep -E '^docs/(rules/.*|conductor)\.md$' "$tmp/mds"
	tr '\n' '\0' <"$tmp/mds" | xargs -0 grep -l -E '\]\([^)]*rules/'
} | sort -u >"$tmp/linkfiles"

# The anchors of every markdown file: explicit ids, and GitHub's heading
# slugs (lower case; characters other than letters, digits, spaces, '-' and
# '_' dropped; spaces become '-'; a repeated slug gets -1, -2, ...).
tr '\n' '\0' <"$tmp/mds" | xargs -0 awk "$fences"'
FNR == 1 { infence = 0; split("", seen); print FILENAME " " }
fence($0) { next }
{
	line = $0
	while (match(line, /<a (id|name)="[^"]+"/)) {
		a = substr(line, RSTART, RLENGTH); sub(/^[^"]*"/, "", a); sub(/"$/, "", a)
		print FILENAME " " a
		line = substr(line, RSTART + RLENGTH)
	}
}
/^#+ / {
	h = $0; sub(/^#+ +/, "", h); sub(/ +#* *$/, "", h)
	h = tolower(h); gsub(/[^a-z0-9 _-]/, "", h); gsub(/ /, "-", h)
	if (h in seen) { seen[h]++; print FILENAME " " h "-" seen[h] } else { seen[h] = 0; print FILENAME " " h }
}' >"$tmp/anchors"

# The links (outside code fences and code spans), checked in one pass.
tr '\n' '\0' <"$tmp/linkfiles" | xargs -0 awk "$fences"'
FNR == 1 { infence = 0 }
fence($0) { next }
{
	line = $0; gsub(/`[^`]*`/, "", line)
	while (match(line, /\]\([^) ]+\)/)) {
		print FILENAME " " substr(line, RSTART + 2, RLENGTH - 3)
		line = substr(line, RSTART + RLENGTH)
	}
}' | sort -u | awk -v anchors="$tmp/anchors" -v tree="$tmp/tree" '
BEGIN {
	while ((getline l < anchors) > 0) {
		split(l, p, " "); file = p[1]; has[file] = 1
		if (p[2] != "") a[file "#" p[2]] = 1
	}
	while ((getline l < tree) > 0) exists[l] = 1
}
# dir/../x and ./x resolved; a path outside the tree stays as it is.
function resolve(path,    n, parts, out, i, k, r) {
	n = split(path, parts, "/"); k = 0
	for (i = 1; i <= n; i++) {
		if (parts[i] == "" || parts[i] == ".") continue
		if (parts[i] == ".." && k > 0 && out[k] != "..") { k--; continue }
		out[++k] = parts[i]
	}
	r = ""
	for (i = 1; i <= k; i++) r = r (i > 1 ? "/" : "") out[i]
	return r
}
{
	file = $1; link = $2
	if (link ~ /^(https?|mailto):/) next
	own = file ~ /^docs\/(rules\/[^\/]*|conductor)\.md$/
	path = link; anchor = ""
	if (index(link, "#")) { path = substr(link, 1, index(link, "#") - 1); anchor = substr(link, index(link, "#") + 1) }
	if (!own && path !~ /rules\//) next
	dir = file; sub(/[^\/]*$/, "", dir)
	target = path == "" ? file : resolve(dir path)
	if (!(target in exists) && !(target in has)) {
		# Written by the GitLab work (issue 26) on another branch.
		if (target == "docs/rules/gitlab.md") { print "ok"; next }
		# A folder of the tree.
		for (f in exists) if (index(f, target "/") == 1) { print "ok"; next }
		print "FAIL refs: " file ": link " link ": no file " target; next
	}
	if (anchor != "" && target ~ /\.md$/ && !((target "#" anchor) in a))
		print "FAIL refs: " file ": link " link ": " target " has no anchor #" anchor
	else
		print "ok"
}' >"$tmp/links"
pass=$((pass + $(grep -c -x ok "$tmp/links")))
fail=$((fail + $(grep -c '^FAIL' "$tmp/links")))
grep '^FAIL' "$tmp/links"

echo "refs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
