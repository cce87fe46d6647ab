#!/usr/bin/env bash
# The static binary (scripts/static-build, `make test-static`): fully static,
# no dynamic dependencies, runs with an empty environment, gives the same
# report as the ordinary build, and speaks HTTPS with certificate
# verification (fakehub with a throwaway CA), also from an empty root
# directory when the machine lets an unprivileged user namespace chroot.
#
#   tests/static.sh [STATIC_BIN [DYNAMIC_BIN]]
#
# Needs file, ldd, openssl and node (tests/peers are installed if missing).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
sbin=$(realpath -m "${1:-build/static/agentic-apply}")
dbin=$(realpath -m "${2:-build/agentic-apply}")
fixture=fixtures/000-demo.json
tmp=$(mktemp -d)
pass=0 fail=0 skip=0
HUB_PID=
cleanup() {
	[ -z "$HUB_PID" ] || kill "$HUB_PID" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ok() { pass=$((pass + 1)); }
bad() {
	echo "FAIL $1"
	shift
	local line
	for line in "$@"; do echo "    $line"; done
	fail=$((fail + 1))
}
skipped() {
	echo "SKIP $1"
	skip=$((skip + 1))
}
# show FILE: the first lines of FILE, indented (stderr of a failed run).
show() { [ ! -s "$1" ] || sed -n '1,6s/^/    | /p' "$1"; }

if [ ! -x "$sbin" ]; then
	bad "the static binary $sbin exists" "build it: make static (scripts/static-build)"
	echo "static: $pass passed, $fail failed"
	exit 1
fi

# --- 1. Fully static --------------------------------------------------------
if ! command -v file >/dev/null 2>&1; then
	bad "file(1) is installed" "scripts/bootstrap --static"
elif file -b "$sbin" | grep -q 'statically linked'; then ok; else
	bad "file says statically linked" "file: $(file -b "$sbin")"
fi
if ! command -v ldd >/dev/null 2>&1; then
	bad "ldd is installed"
else
	out=$(ldd "$sbin" 2>&1)
	if printf '%s\n' "$out" | grep -q '=>\|ld-linux\|ld-musl'; then
		bad "ldd finds no dynamic dependencies" "$(printf '%s\n' "$out" | head -5)"
	elif printf '%s\n' "$out" | grep -qi 'not a dynamic executable\|statically linked'; then ok; else
		bad "ldd finds no dynamic dependencies" "$out"
	fi
fi
if command -v readelf >/dev/null 2>&1; then
	if readelf -ld "$sbin" 2>/dev/null | grep -q 'INTERP\|(NEEDED)'; then
		bad "no program interpreter and no DT_NEEDED" "$(readelf -ld "$sbin" | grep 'INTERP\|NEEDED')"
	else ok; fi
fi

# --- 2. An empty environment: --version and an offline replay ----------------
want="agentic-apply $(cat VERSION)"
got=$(env -i PATH= "$sbin" --version 2>"$tmp/err")
code=$?
if [ "$code" -eq 0 ] && [ "$got" = "$want" ]; then ok; else
	bad "env -i PATH= agentic-apply --version" "exit $code, printed '$got', expected '$want'"
	show "$tmp/err"
fi
if [ ! -x "$dbin" ]; then
	bad "replay equals the ordinary build" "$dbin is missing: make"
else
	env -i PATH= "$sbin" replay "$fixture" >"$tmp/static.json" 2>"$tmp/err"
	scode=$?
	"$dbin" replay "$fixture" >"$tmp/dynamic.json" 2>/dev/null
	dcode=$?
	if [ "$scode" -eq "$dcode" ] && [ -s "$tmp/static.json" ] &&
		cmp -s "$tmp/static.json" "$tmp/dynamic.json"; then ok; else
		bad "env -i PATH= agentic-apply replay $fixture = $dbin replay" \
			"exit $scode (ordinary build: $dcode)" \
			"$(diff "$tmp/dynamic.json" "$tmp/static.json" | head -10)"
		show "$tmp/err"
	fi
fi

# --- 3. HTTPS against fakehub ----------------------------------------------
# check_report FILE: exit 0 when the report holds an approve (a gate step
# with outcome approve and an approve write).
check_report() {
	node -e '
		const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
		const gate = (r.steps || []).some((s) => s.step === "gate" && s.outcome === "approve");
		const write = (r.writes || []).some((w) => w.kind === "approve");
		process.exit(gate && write ? 0 : 1);' "$1" 2>/dev/null
}
# hub_log: "REQUESTS APPROVALS": API requests fakehub served, and reviews
# it accepted (read over TLS with the test CA).
hub_log() {
	node -e '
		const https = require("https");
		const [url, ca] = process.argv.slice(1);
		https.get(url + "/_fakehub/log", { ca: require("fs").readFileSync(ca) }, (res) => {
			let body = "";
			res.on("data", (c) => (body += c));
			res.on("end", () => {
				const log = JSON.parse(body);
				const approvals = log.filter((e) => e.method === "POST" &&
					/\/pulls\/\d+\/reviews$/.test(e.path) && e.status === 200 &&
					JSON.stringify(e.body || "").includes("APPROVE")).length;
				console.log(log.length, approvals);
			});
		}).on("error", (e) => { console.log("error", e.message); process.exit(1); });' \
		"$HUB_URL" "$tmp/ca.pem" 2>&1
}
# start_hub: a fresh fakehub on the fixture, over TLS (HUB_PID, HUB_URL).
start_hub() {
	stop_hub
	local out=$tmp/hub.out
	node tests/fakehub/server.mjs --snapshot "$fixture" \
		--tls-cert "$tmp/server.pem" --tls-key "$tmp/server.key" >"$out" 2>"$tmp/hub.err" &
	HUB_PID=$!
	for _ in $(seq 300); do
		[ ! -s "$out" ] || break
		kill -0 "$HUB_PID" 2>/dev/null || break
		sleep 0.1
	done
	HUB_URL=$(head -1 "$out" 2>/dev/null)
	case $HUB_URL in https://127.0.0.1:*) return 0 ;; esac
	echo "    fakehub did not start: $(head -3 "$tmp/hub.err")"
	return 1
}
stop_hub() {
	[ -n "$HUB_PID" ] || return 0
	kill "$HUB_PID" 2>/dev/null
	wait "$HUB_PID" 2>/dev/null
	HUB_PID=
}
# live ENV... -- CMD...: run a live `run --json` of the fixture's event
# against the hub with only ENV in the environment; sets code, writes
# $tmp/out.json and $tmp/err.
live() {
	local envs=()
	while [ "$1" != -- ]; do
		envs+=("$1")
		shift
	done
	shift
	env -i "${envs[@]}" \
		GITHUB_API_URL="$HUB_URL" GITHUB_GRAPHQL_URL="$HUB_URL/graphql" \
		GITHUB_REPOSITORY=lf/member-service GITHUB_TOKEN=x \
		GITHUB_EVENT_NAME=issue_comment \
		"$@" run --json >"$tmp/out.json" 2>"$tmp/err"
	code=$?
}
# expect_approved NAME: exit 0, an approve in the report and at the hub.
expect_approved() {
	local log
	log=$(hub_log)
	if [ "$code" -eq 0 ] && check_report "$tmp/out.json" && [ "${log#* }" = 1 ]; then ok; else
		bad "$1" "exit $code (expected 0); approve in the report: $(check_report "$tmp/out.json" && echo yes || echo no); fakehub requests/approvals: $log"
		show "$tmp/err"
	fi
}
# expect_refused NAME WHY: exit 3, nothing approved, not one request served,
# and the error on stderr matches WHY (the TLS failure).
expect_refused() {
	local log
	log=$(hub_log)
	if [ "$code" -eq 3 ] && ! check_report "$tmp/out.json" && [ "$log" = "0 0" ] &&
		grep -qi "$2" "$tmp/err"; then ok; else
		bad "$1" "exit $code (expected 3); approve in the report: $(check_report "$tmp/out.json" && echo yes || echo no); fakehub requests/approvals: $log (expected 0 0); stderr matches '$2': $(grep -qi "$2" "$tmp/err" && echo yes || echo no)"
		show "$tmp/err"
	fi
}

tls_ready=1
for tool in openssl node; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		bad "$tool is installed (needed for the HTTPS checks)" "scripts/bootstrap --check"
		tls_ready=0
	fi
done
if [ "$tls_ready" = 1 ] && ! sh tests/peers/ensure.sh; then
	bad "the npm test peers install (tests/peers)"
	tls_ready=0
fi
if [ "$tls_ready" = 1 ]; then
	# A throwaway CA and a server certificate for 127.0.0.1.
	if ! (
		set -e
		cd "$tmp"
		openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem \
			-days 2 -subj '/CN=agentic-apply static test CA' \
			-addext 'basicConstraints=critical,CA:TRUE' \
			-addext 'keyUsage=critical,keyCertSign,cRLSign'
		openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr \
			-subj '/CN=127.0.0.1'
		printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >server.ext
		openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial \
			-out server.pem -days 2 -extfile server.ext
		mkdir ca-dir empty-dir
		cp ca.pem ca-dir/
		openssl rehash ca-dir
	) >"$tmp/openssl.log" 2>&1; then
		bad "openssl makes the test certificates" "$(tail -3 "$tmp/openssl.log")"
		tls_ready=0
	elif ! node -e '
		const fs = require("fs");
		const s = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
		fs.writeFileSync(process.argv[2], JSON.stringify(s.event.payload));' \
		"$fixture" "$tmp/payload.json"; then
		bad "the event payload of $fixture"
		tls_ready=0
	fi
fi

if [ "$tls_ready" = 1 ]; then
	# SSL_CERT_FILE = the test CA: verified, applied, approved.
	if start_hub; then
		live SSL_CERT_FILE="$tmp/ca.pem" GITHUB_EVENT_PATH="$tmp/payload.json" -- "$sbin"
		expect_approved "HTTPS with SSL_CERT_FILE=<test CA>: exit 0 and an approve"
	else bad "fakehub starts with TLS"; fi
	# SSL_CERT_DIR = a hashed directory holding the test CA (no bundle).
	if start_hub; then
		live SSL_CERT_DIR="$tmp/ca-dir" GITHUB_EVENT_PATH="$tmp/payload.json" -- "$sbin"
		expect_approved "HTTPS with SSL_CERT_DIR=<hashed dir with the test CA>: exit 0 and an approve"
	else bad "fakehub starts with TLS"; fi
	# No SSL_CERT_FILE, SSL_CERT_DIR = an empty directory: verification fails.
	if start_hub; then
		live SSL_CERT_DIR="$tmp/empty-dir" GITHUB_EVENT_PATH="$tmp/payload.json" -- "$sbin"
		expect_refused "HTTPS without the CA (SSL_CERT_DIR=<empty dir>): exit 3, nothing approved" \
			'peer certificate'
	else bad "fakehub starts with TLS"; fi

	# --- 4. From an empty root directory ------------------------------------
	# Only the binary, the CA and the payload: no /etc, /dev, /proc, /lib. An
	# unprivileged user namespace stands in for chroot (unshare -r, or bwrap
	# where the system allows only that, as Ubuntu 24.04 does).
	jail=$tmp/jail
	mkdir "$jail"
	cp "$sbin" "$jail/agentic-apply"
	cp "$tmp/ca.pem" "$tmp/payload.json" "$jail/"
	runner=()
	if u=$(command -v unshare) &&
		[ "$(env -i "$u" --user --map-root-user --root="$jail" /agentic-apply --version 2>/dev/null)" = "$want" ]; then
		runner=("$u" --user --map-root-user --root="$jail")
	elif b=$(command -v bwrap) &&
		[ "$(env -i "$b" --unshare-user --bind "$jail" / --chdir / /agentic-apply --version 2>/dev/null)" = "$want" ]; then
		runner=("$b" --unshare-user --bind "$jail" / --chdir /)
	fi
	if [ ${#runner[@]} -eq 0 ]; then
		skipped "the empty-root checks: neither unshare -r nor bwrap can run the binary from an empty root here (missing, or no unprivileged user namespaces)"
	else
		if start_hub; then
			live SSL_CERT_FILE=/ca.pem GITHUB_EVENT_PATH=/payload.json -- "${runner[@]}" /agentic-apply
			expect_approved "empty root ($(basename "${runner[0]}")): SSL_CERT_FILE=/ca.pem, exit 0 and an approve"
		else bad "fakehub starts with TLS"; fi
		# No CA at all: no /etc/ssl/certs, curl's built-in bundle path is absent.
		if start_hub; then
			live GITHUB_EVENT_PATH=/payload.json -- "${runner[@]}" /agentic-apply
			expect_refused "empty root ($(basename "${runner[0]}")), no CA anywhere: exit 3, nothing approved" \
				'CA cert\|peer certificate'
		else bad "fakehub starts with TLS"; fi
	fi
	stop_hub
fi

[ "$skip" -eq 0 ] || echo "static: $skip skipped"
echo "static: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
