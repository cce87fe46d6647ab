#!/usr/bin/env bash
# What plain `make` needs and who installs (`make test-make`). A copy of the
# tree is built with shims first on PATH: dpkg, dpkg-query, apt, apt-get and
# sudo log every call (apt-get, when asked, plays an archive that works or
# one that is offline; the others answer 127, as on a machine without
# them), and pkg-config hides the modules listed in a file. Proved:
# - `make` builds when pkg-config finds every library, and never calls
#   dpkg, apt or sudo for it;
# - a missing library stops `make` before anything is compiled, naming it
#   and the one command that installs it (apt-get on Debian/Ubuntu, dnf on
#   Fedora, the pkg-config module names elsewhere), never "Error 127", and
#   nothing is installed, even as root with a working apt-get;
# - the single test targets do the same for the test tools;
# - `make demo` installs what is missing, then builds and replays; offline
#   it says what it could not install and the command, not a bare
#   "Error 100";
# - `make check` installs first.
#
#   tests/make/deps.sh
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d /tmp/aa-make.XXXXXX)
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

tree=$tmp/tree
shims=$tmp/shims
calls=$tmp/calls.log
hidden=$tmp/hidden
mkdir -p "$tree/fixtures" "$shims"
(cd "$root" && tar cf - VERSION Makefile mk scripts src) | (cd "$tree" && tar xf -)
cp "$root/fixtures/000-demo.json" "$tree/fixtures/"
mkdir -p "$tree/fixtures/demo"
cp "$root/fixtures/demo/publish.json" "$root/fixtures/demo/verdict-comment.md" "$root/fixtures/demo/publish-summary.md" "$tree/fixtures/demo/"

# shim NAME BODY: log "NAME ARGS", then run BODY.
shim() {
	printf '#!/bin/sh\nprintf "%%s\\n" "%s $*" >>"%s"\n%s\n' "$1" "$calls" "$2" >"$shims/$1"
	chmod 755 "$shims/$1"
}
for c in dpkg dpkg-query apt sudo; do shim "$c" 'exit 127'; done
# APT=ok: update works, install "installs" (pkg-config finds everything
# again); APT=offline: both fail as without a network (exit 100); unset:
# no apt-get (127).
shim apt-get "case \${APT:-} in
ok) case \" \$* \" in *' install '*) : >\"$hidden\" ;; esac; exit 0 ;;
offline) echo 'E: Unable to locate package libcjson-dev' >&2; exit 100 ;;
*) exit 127 ;;
esac"
real_pc=$(command -v pkg-config) || {
	echo "FAIL pkg-config is installed (the test hides modules behind it)"
	exit 1
}
cat >"$shims/pkg-config" <<PC
#!/bin/sh
for a in "\$@"; do
	case \$a in -*) ;; *) grep -qxF -- "\$a" "$hidden" 2>/dev/null && exit 1 ;; esac
done
exec "$real_pc" "\$@"
PC
chmod 755 "$shims/pkg-config"
printf 'ID=fedora\nID_LIKE="rhel centos"\n' >"$tmp/fedora"
printf 'ID=plan9\n' >"$tmp/unknown"
[ "$(id -u)" -eq 0 ] && sudo= || sudo='sudo '

# run NAME HIDE [VAR=VALUE...] -- MAKE-ARGS...: make in the copy; output in
# $tmp/NAME.out, exit code in $rc, calls of the shims in $log.
run() {
	local name=$1
	printf '%s' "$2" | tr ' ' '\n' >"$hidden"
	shift 2
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	: >"$calls"
	(cd "$tree" && env PATH="$shims:$PATH" "${envs[@]}" make --no-print-directory "$@") >"$tmp/$name.out" 2>&1
	rc=$?
	log=$(cat "$calls")
}
has() { grep -qF -- "$2" "$tmp/$1.out"; }
show() { sed -n '1,12s/^/    | /p' "$tmp/$1.out"; }

# 1. Everything there: make builds, asks neither dpkg nor apt nor sudo.
run build '' APT=ok -- -j2 BUILD=build
if [ "$rc" -eq 0 ] && [ -x "$tree/build/agentic-apply" ]; then ok; else
	bad "make builds when pkg-config finds every library (exit $rc)"
	show build
fi
if [ -z "$log" ]; then ok; else bad "make asks no dpkg, apt or sudo" "$log"; fi
if "$tree/build/agentic-apply" --version >/dev/null 2>&1; then ok; else bad "the built program runs"; fi
run rebuild '' BOOTSTRAP_OS_RELEASE="$tmp/unknown" -- BUILD=build
if [ "$rc" -eq 0 ] && [ -z "$log" ]; then ok; else bad "make on another system: nothing asked (exit $rc)" "$log"; fi

# 2. A library missing (Debian): stop before compiling, name it and the
# command; install nothing although apt-get would work and this may be root.
run missing libcjson APT=ok -- -j2 BUILD=build-missing
if [ "$rc" -ne 0 ]; then ok; else bad "make fails when libcjson is missing"; fi
if has missing "cannot build agentic-apply: missing libcjson (pkg-config finds no libcjson.pc)"; then ok; else
	bad "the message names libcjson"
	show missing
fi
if has missing "install:  ${sudo}apt-get install -y --no-install-recommends libcjson-dev"; then ok; else
	bad "the message gives the apt-get command"
	show missing
fi
if [ -z "$log" ]; then ok; else bad "make installs nothing (even as root)" "$log"; fi
if [ ! -d "$tree/build-missing/obj" ]; then ok; else bad "nothing is compiled"; fi
if ! has missing "Error 127" && ! has missing "Error 100"; then ok; else bad "no Error 127 or 100"; show missing; fi

# 3. Another system: its own command, no dpkg or apt.
run fedora "libcjson openssl" BOOTSTRAP_OS_RELEASE="$tmp/fedora" -- BUILD=build-missing
if [ "$rc" -ne 0 ] && has fedora "install:  ${sudo}dnf install -y cjson-devel openssl-devel" && [ -z "$log" ] &&
	! has fedora "Error 127"; then ok; else
	bad "Fedora: the dnf command, nothing asked of dpkg or apt (exit $rc)" "$log"
	show fedora
fi
run unknown libcurl BOOTSTRAP_OS_RELEASE="$tmp/unknown" -- BUILD=build-missing
if [ "$rc" -ne 0 ] && has unknown "missing libcurl" && has unknown "pkg-config must find libcjson, libcurl and openssl" &&
	[ -z "$log" ]; then ok; else
	bad "an unknown system: the module and what pkg-config must find (exit $rc)" "$log"
	show unknown
fi
run nopc '' -- BUILD=build-missing PKG_CONFIG=/nonexistent/pkg-config
if [ "$rc" -ne 0 ] && has nopc "missing pkg-config (/nonexistent/pkg-config)" &&
	has nopc "apt-get install -y --no-install-recommends pkg-config libcjson-dev libcurl4-openssl-dev libssl-dev"; then ok; else
	bad "no pkg-config: named, with every library (exit $rc)"
	show nopc
fi

# 4. A single test target: the same for the test tools.
run tests cmocka APT=ok -- BUILD=build deps-test
if [ "$rc" -ne 0 ] && has tests "cannot run the tests: missing cmocka" && has tests "libcmocka-dev" && [ -z "$log" ]; then ok; else
	bad "make deps-test names cmocka and installs nothing (exit $rc)" "$log"
	show tests
fi

# 4b. A node suite asks for node and npm alone: cmocka, which it does not
# use, missing is no reason to stop (issue 24).
run nodesuite cmocka APT=ok -- BUILD=build deps-node
if [ "$rc" -eq 0 ] && [ -z "$log" ]; then ok; else
	bad "make deps-node does not stop for cmocka (exit $rc)" "$log"
	show nodesuite
fi

# 5. make demo installs, then builds and replays.
run demo libcjson APT=ok -- BUILD=build demo
if [ "$rc" -eq 0 ] && grep -q '^apt-get install -y -qq --no-install-recommends libcjson-dev$' "$calls"; then ok; else
	bad "make demo installs libcjson-dev (exit $rc)" "$log"
	show demo
fi
if [ "$rc" -eq 0 ] && has demo 'the JSON report: build/demo/verdict-report.json' && has demo 'approved'; then ok; else bad "make demo then replays the demo"; show demo; fi

# 6. make demo offline: what failed, and the command.
run offline libcjson APT=offline -- BUILD=build-offline demo
if [ "$rc" -ne 0 ] && has offline "apt-get could not install libcjson-dev (offline?" &&
	has offline "install:  ${sudo}apt-get install -y --no-install-recommends libcjson-dev"; then ok; else
	bad "make demo offline says what it could not install and how (exit $rc)"
	show offline
fi

# 7. make check installs before anything else.
run check '' -- -n BUILD=build check
if [ "$(grep -m1 'scripts/bootstrap' "$tmp/check.out")" != "" ] &&
	grep -m1 'scripts/bootstrap' "$tmp/check.out" | grep -q -- '--check$'; then ok; else
	bad "make check starts with scripts/bootstrap --check"
	show check
fi

echo "make: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
