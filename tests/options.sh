#!/usr/bin/env bash
# Every command's options, three ways, must agree: the parser (tried on
# every option any command takes), `CMD --help`'s Options section and
# README.md's options table. `CMD --list-options` is the parser's mask.
#   tests/options.sh BIN   (run by tests/cli.sh)
set -u
bin=$1
fail=0
commands="run apply gate sweep replay record status review-plan publish review-local lint"
sorted() { tr ' ' '\n' | grep -v '^$' | sort -u | tr '\n' ' '; }
all=$(for c in $commands; do "$bin" "$c" --list-options; done | sorted)
for c in $commands; do
	parser=$("$bin" "$c" --list-options | sorted)
	help=$("$bin" "$c" --help | sed -n '/^Options:/,/^$/p' |
		grep -o '^  --[a-z-]*' | sorted)
	readme=$(grep "^| \`$c\` | \`--" README.md | cut -d'|' -f3 |
		grep -o -- '--[a-z-]*' | sorted)
	[ -n "$parser" ] || { echo "FAIL options: $c lists no options"; fail=1; }
	[ "$parser" = "$help" ] ||
		{ echo "FAIL options: $c: parser [$parser] vs --help [$help]"; fail=1; }
	[ "$parser" = "$readme" ] ||
		{ echo "FAIL options: $c: parser [$parser] vs README [$readme]"; fail=1; }
	# The parser itself: every option of any command is refused by name
	# exactly when it is not in this command's list.
	for o in $all; do
		[ "$o" = --help ] && continue
		err=$("$bin" "$c" "$o=1" --help 2>&1 >/dev/null </dev/null)
		case " $parser " in
		*" $o "*) want=no ;;
		*) want=yes ;;
		esac
		if printf '%s' "$err" | grep -qF -- "$o is not an option of $c"; then
			got=yes
		else
			got=no
		fi
		[ "$want" = "$got" ] ||
			{ echo "FAIL options: $c $o: refused=$got, listed=$([ $want = no ] && echo yes || echo no)"; fail=1; }
	done
done
exit $fail
