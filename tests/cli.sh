#!/usr/bin/env bash
# Command-line behaviour: usage errors, malformed input, exit codes, lint,
# the offline commands, and that replay never touches the network.
#   tests/cli.sh BIN
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
usage_report='{"report": 1, "steps": [], "writes": [], "exit": 2}'

ok() { pass=$((pass + 1)); }
bad() {
	echo "FAIL $1"
	[ -s "$tmp/err" ] && sed 's/^/    stderr: /' "$tmp/err" | head -3
	fail=$((fail + 1))
}

# expect NAME CODE CMD... : run CMD, check the exit code.
expect() {
	local name=$1 want=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	local got=$?
	if [ "$got" -eq "$want" ]; then ok; else
		echo "    exit $got, expected $want"
		bad "$name"
	fi
}
# stdout_is NAME TEXT, stderr_has NAME TEXT, stderr_lines NAME N
stdout_is() { if [ "$(cat "$tmp/out")" = "$2" ]; then ok; else bad "$1: stdout"; fi; }
stdout_has() { if grep -qF -- "$2" "$tmp/out"; then ok; else bad "$1: stdout lacks '$2'"; fi; }
stderr_has() { if grep -qF -- "$2" "$tmp/err"; then ok; else bad "$1: stderr lacks '$2'"; fi; }
stderr_lines() {
	local n
	n=$(wc -l <"$tmp/err")
	if [ "$n" -eq "$2" ]; then ok; else bad "$1: $n stderr lines, expected $2"; fi
}

# --- top level ---
expect "no command" 2 "$bin"
expect "--help" 0 "$bin" --help
stdout_has "--help" "Exit codes:"
expect "--version" 0 "$bin" --version
stdout_has "--version" "agentic-apply $(cat VERSION)"
expect "unknown command" 2 "$bin" frobnicate
stderr_has "unknown command" "unknown command 'frobnicate'"
stderr_lines "unknown command" 1
for c in run apply gate sweep replay lint record status; do
	expect "$c --help" 0 "$bin" "$c" --help
	stdout_has "$c --help" "usage: agentic-apply $c"
done
# Each command's options: parser, --help and README agree (tests/options.sh).
if tests/options.sh "$bin"; then ok; else bad "options: parser, --help and README disagree"; fi
expect "help CMD" 0 "$bin" help gate
stdout_has "help CMD" "usage: agentic-apply gate"
stdout_has "help CMD" "--pr N"
expect "help unknown CMD" 2 "$bin" help frob
stderr_has "help unknown CMD" "unknown command 'frob'"
expect "sweep --help" 0 "$bin" sweep --help
stdout_has "sweep --help" "--state FILE"
stdout_has "sweep --help" "--repos A/B,C/D"
expect "run --help" 0 "$bin" run --help
stdout_has "run --help" "--state FILE"
expect "status --help" 0 "$bin" status --help
stdout_has "status --help" "--count N"
expect "lint --help" 0 "$bin" lint --help
stdout_has "lint --help" "1  not usable"
if grep -q "verdict was refused" "$tmp/out"; then bad "lint --help: exit 1 of the acting commands"; else ok; fi
expect "--help: no common options" 0 "$bin" --help
if grep -q "Common options" "$tmp/out"; then bad "--help claims common options"; else ok; fi
expect "replay --repo" 2 "$bin" replay --repo a/b fixtures/000-demo.json
stderr_has "replay --repo" "--repo is not an option of replay"
stderr_lines "replay --repo" 1
expect "lint --quiet" 2 "$bin" lint --quiet
stderr_has "lint --quiet" "--quiet is not an option of lint"
expect "status --json" 2 "$bin" status --json --pr 1
stderr_has "status --json" "--json is not an option of status"
expect "run --version" 2 "$bin" run --version
stderr_has "run --version" "--version is not an option of run (agentic-apply --version"

# --- replay: malformed input gives exit 2 and the minimal report ---
expect "replay without a file" 2 "$bin" replay
stdout_is "replay without a file" "$usage_report"
expect "replay missing file" 2 "$bin" replay "$tmp/nope.json"
stdout_is "replay missing file" "$usage_report"
stderr_has "replay missing file" "snapshot '$tmp/nope.json': cannot open: No such file"
if [ "$(grep -o "nope.json" "$tmp/err" | wc -l)" -eq 1 ]; then ok; else bad "replay missing file: the path repeated"; fi
expect "replay a directory" 2 "$bin" replay "$tmp"
stderr_has "replay a directory" "snapshot '$tmp': is a directory"
expect "gate --snapshot a directory" 2 "$bin" gate --snapshot "$tmp" --pr 1
stderr_has "gate --snapshot a directory" "is a directory"
expect "lint a directory" 2 "$bin" lint "$tmp"
stderr_has "lint a directory" "lint: '$tmp': is a directory"
expect "replay unknown option" 2 "$bin" replay --frob fixtures/000-demo.json
stdout_is "replay unknown option" "$usage_report"

bad_snapshot() { # NAME JSON FIELD-IN-MESSAGE
	printf '%s' "$2" >"$tmp/bad.json"
	expect "malformed: $1" 2 "$bin" replay "$tmp/bad.json"
	stdout_is "malformed: $1" "$usage_report"
	stderr_has "malformed: $1" "$3"
	stderr_lines "malformed: $1" 1
}
ev='"event":{"name":"schedule","payload":{}}'
bad_snapshot "not JSON" '{"snapshot": 1,' "invalid JSON"
bad_snapshot "not an object" '[1,2]' "expected a JSON object"
bad_snapshot "version" '{"snapshot":2,"repository":"a/b",'"$ev"',"pulls":[]}' "version 2"
bad_snapshot "no repository" '{"snapshot":1,'"$ev"',"pulls":[]}' "repository: missing"
bad_snapshot "bad repository" '{"snapshot":1,"repository":"a",'"$ev"',"pulls":[]}' "repository: expected OWNER/NAME"
bad_snapshot "no pulls" '{"snapshot":1,"repository":"a/b",'"$ev"'}' "pulls: missing"
bad_snapshot "bad sha" '{"snapshot":1,"repository":"a/b",'"$ev"',"pulls":[{"number":7,"head":{"sha":"abc"}}]}' "pulls[0].head.sha"
bad_snapshot "bad comment id" '{"snapshot":1,"repository":"a/b",'"$ev"',"pulls":[{"number":7,"head":{"sha":"0123456789abcdef0123456789abcdef01234567"},"comments":[{"id":"x","created_at":"2026-01-01T00:00:00Z","body":""}]}]}' "pulls[0].comments[0].id"
bad_snapshot "bad time" '{"snapshot":1,"repository":"a/b",'"$ev"',"pulls":[{"number":7,"head":{"sha":"0123456789abcdef0123456789abcdef01234567"},"comments":[{"id":1,"created_at":"yesterday","body":""}]}]}' "pulls[0].comments[0].created_at"
bad_snapshot "bad fault" '{"snapshot":1,"repository":"a/b",'"$ev"',"pulls":[],"faults":[{"read":"everything","status":500}]}' "faults[0].read"
bad_snapshot "bad status state" '{"snapshot":1,"repository":"a/b",'"$ev"',"pulls":[],"statuses":{"0123456789abcdef0123456789abcdef01234567":[{"id":1,"state":"green","context":"c","created_at":"2026-01-01T00:00:00Z"}]}}' "statuses.0123456789abcdef0123456789abcdef01234567[0].state"
bad_snapshot "bad unlabeler" '{"snapshot":1,"repository":"a/b","config":{"unlabelers":["a b;c"]},'"$ev"',"pulls":[]}' "config.unlabelers"
bad_snapshot "not UTF-8" $'{"snapshot":1,"repository":"a/b","x":"\xff",'"$ev"',"pulls":[]}' "not valid UTF-8"
bad_snapshot "too deep" "$(printf '%0.s[' $(seq 100))" "nested deeper"
# A control character in a message cannot start a new line.
bad_snapshot "newline in a key" '{"snapshot":1,"repository":"a/b","config":{"label":"x\n::set-output name=a::b"},'"$ev"',"pulls":[]}' 'config label'

# A payload that does not decode is a usage error with the full report.
printf '%s' '{"snapshot":1,"repository":"a/b","event":{"name":"issue_comment","payload":{"action":"created"}},"pulls":[]}' >"$tmp/ev.json"
expect "bad payload" 2 "$bin" replay "$tmp/ev.json"
stdout_has "bad payload" '"event": "issue_comment"'
stderr_has "bad payload" "payload.issue: missing"

# --- offline commands on a snapshot ---
demo=fixtures/000-demo.json
expect "run --snapshot" 0 "$bin" run --snapshot "$demo" --json
stdout_has "run --snapshot" '"kind": "approve"'
expect "run without --json prints no report" 0 "$bin" run --snapshot "$demo"
stdout_is "run without --json prints no report" ""
expect "gate --snapshot" 0 "$bin" gate --snapshot "$demo" --pr 42 --json
stdout_has "gate --snapshot" '"outcome": "withhold"'
expect "gate needs --pr" 2 "$bin" gate --snapshot "$demo"
stderr_has "gate needs --pr" "--pr N is required"
expect "gate bad --pr" 2 "$bin" gate --snapshot "$demo" --pr 12abc
expect "gate --pr=0" 2 "$bin" gate --snapshot "$demo" --pr=0
expect "apply needs --comment" 2 "$bin" apply --snapshot "$demo" --pr 42
expect "apply --comment" 0 "$bin" apply --snapshot "$demo" --pr 42 --comment 2519634101 --json
stdout_has "apply --comment" '"state": "success"'
# An explicit PR or comment that does not exist is an error (exit 2), like
# record and status; an event's is a skip (the fixtures).
expect "apply unknown comment" 2 "$bin" apply --snapshot "$demo" --pr 42 --comment 99 --json
stdout_has "apply unknown comment" '"outcome": "error"'
stderr_has "apply unknown comment" "apply: comment 99 is not a comment of PR #42"
if grep -q "GitHub call failed" "$tmp/err"; then bad "apply unknown comment: blamed GitHub"; else ok; fi
expect "apply unknown PR" 2 "$bin" apply --snapshot "$demo" --pr 9 --comment 99
stderr_has "apply unknown PR" "apply: PR #9 not found"
expect "gate unknown PR" 2 "$bin" gate --snapshot "$demo" --pr 9 --json
stdout_has "gate unknown PR" '"exit": 2'
stderr_has "gate unknown PR" "gate: PR #9 not found"
expect "sweep --snapshot" 0 "$bin" sweep --snapshot "$demo" --json
stdout_has "sweep --snapshot" '"step": "gate"'
expect "dry run plans" 0 "$bin" replay --dry-run "$demo"
stdout_has "dry run plans" '"dry_run": true'
stdout_has "dry run plans" '"kind": "approve"'
expect "live without a snapshot" 2 "$bin" gate --pr 7

# record and status, offline on a snapshot
expect "record --pr" 0 "$bin" record --snapshot "$demo" --pr 42 --out "$tmp/rec.json"
expect "replay a recording" 0 "$bin" replay "$tmp/rec.json"
stdout_has "replay a recording" '"event": "workflow_dispatch"'
stdout_has "replay a recording" '"outcome": "withhold"'
expect "record --all" 0 "$bin" record --snapshot "$demo" --all --out -
stdout_has "record --all" '"name": "schedule"'
expect "record needs --out" 2 "$bin" record --snapshot "$demo" --pr 42
expect "record --pr and --all" 2 "$bin" record --snapshot "$demo" --pr 42 --all --out -
expect "record unknown PR" 2 "$bin" record --snapshot "$demo" --pr 9 --out -
expect "status" 0 "$bin" status --snapshot "$demo" --pr 42
stdout_is "status" "head=47bceea76a51b6f45fd1865bcb4e72a8ae8b65a4 stamp=31209152290/pending label=false approved=false verdict=no unanswered=0"
expect "status unknown PR" 2 "$bin" status --snapshot "$demo" --pr 9
expect "status --watch prints changes only" 0 "$bin" status --snapshot "$demo" --pr 42 --watch --interval 1 --count 2
if [ "$(wc -l <"$tmp/out")" -eq 1 ]; then ok; else bad "status --watch printed a repeat"; fi
expect "status --watch stall line" 0 "$bin" status --snapshot "$demo" --pr 42 --watch --interval 1 --count 3 --stall-after 1
stdout_has "status --watch stall line" "stall: no stamp newer than the round baseline"

# Options that mean nothing together are refused, not ignored.
expect "--interval without --watch" 2 "$bin" status --snapshot "$demo" --pr 42 --interval 5
stderr_has "--interval without --watch" "status: --interval needs --watch"
expect "--count without --watch" 2 "$bin" status --snapshot "$demo" --pr 42 --count 2
stderr_has "--count without --watch" "--count needs --watch"
expect "--repo with --snapshot" 2 "$bin" gate --snapshot "$demo" --pr 42 --repo a/b
stderr_has "--repo with --snapshot" "gate: --repo cannot be used with --snapshot"
expect "--repos with --snapshot" 2 "$bin" sweep --snapshot "$demo" --repos lf/svc,a/b
stderr_has "--repos with --snapshot" "sweep: --repos cannot be used with --snapshot"
if grep -q "is not OWNER/NAME" "$tmp/err"; then bad "--repos with --snapshot: blamed the name"; else ok; fi
# --pr OWNER/NAME#N with --snapshot: the snapshot's repository or an error
# naming both; never "--repo" when --repo was not typed (issue 24).
expect "--pr OWNER/NAME#N with --snapshot" 0 "$bin" review-plan --snapshot "$demo" --pr lf/member-service#42
expect "--pr another repo with --snapshot" 2 "$bin" review-plan --snapshot "$demo" --pr https://github.com/a/b/pull/42
stderr_has "--pr another repo with --snapshot" "--pr names a/b, but the snapshot is lf/member-service"
# publish --snapshot F: nothing reads the event; a hand-written one may lack it.
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d.pop("event"); print(json.dumps(d))' "$demo" >"$tmp/noevent.json"
expect "publish --snapshot without an event" 0 "$bin" review-plan --snapshot "$tmp/noevent.json" --pr 42
expect "run --snapshot still needs its event" 2 "$bin" replay "$tmp/noevent.json"
stderr_has "run --snapshot still needs its event" "event: missing"
# Issue 24: a round id naming someone else's status says whose it is.
expect "R4 names the stamp's poster" 1 "$bin" replay fixtures/036-check-r4-untrusted-stamp.json
stderr_has "R4 names the stamp's poster" "status 1003 on this head was posted by dev1, not the trusted login"
# Issue 24: near misses are named.
expect "--dryrun: did you mean" 2 "$bin" gate --snapshot "$demo" --pr 42 --dryrun
stderr_has "--dryrun: did you mean" "gate: unknown option '--dryrun' (did you mean --dry-run?)"
printf '<!-- agentic:check v1 -->\nround: 1001\nhead: 47bceea\nclean: true\nthreads:\n' >"$tmp/shorthead.md"
expect "lint: a short head" 1 "$bin" lint "$tmp/shorthead.md"
stdout_has "lint: a short head" 'line 3: head: "47bceea" is not a full 40-hex SHA'
expect "sweep --dry-run --state says it saves nothing" 0 "$bin" sweep --snapshot fixtures/150-sweep-mixed.json --dry-run --state "$tmp/dry-state.json"
stderr_has "sweep --dry-run --state says it saves nothing" "was read, not saved"
if [ ! -e "$tmp/dry-state.json" ]; then ok; else bad "sweep --dry-run --state wrote the state"; fi
expect "--pr 0 names its command" 2 "$bin" gate --snapshot "$demo" --pr 0
stderr_has "--pr 0 names its command" "gate: --pr: '0' is not a number"

# sweep change detection (--state), offline
sweep=fixtures/150-sweep-mixed.json
rm -f "$tmp/state.json"
expect "sweep --state: first run" 0 "$bin" sweep --snapshot "$sweep" --state "$tmp/state.json" --json
if grep -q '"agentic_sweep_state": 1' "$tmp/state.json"; then ok; else bad "sweep --state wrote no state"; fi
first_steps=$(grep -c '"step": "gate"' "$tmp/out")
expect "sweep --state: unchanged run" 0 "$bin" sweep --snapshot "$sweep" --state "$tmp/state.json" --json
stdout_has "sweep --state: unchanged run" "unchanged since the last sweep"
if [ "$(grep -c '"step": "gate"' "$tmp/out")" -eq "$first_steps" ]; then ok; else bad "sweep --state: a PR lost its step"; fi
if grep -q '"kind": "approve"' "$tmp/out"; then bad "sweep --state: unchanged run wrote"; else ok; fi
printf 'not json' >"$tmp/state-bad.json"
expect "sweep --state: unreadable state starts afresh" 0 "$bin" sweep --snapshot "$sweep" --state "$tmp/state-bad.json" --json
stderr_has "sweep --state: unreadable state starts afresh" "starting afresh"
if grep -q 'unchanged since' "$tmp/out"; then bad "a bad state skipped PRs"; else ok; fi

# T2: a re-read comment edited by someone else is refused (exit 1).
python3 - "$demo" "$tmp/edited.json" <<'PY' 2>/dev/null || cp "$demo" "$tmp/edited.json"
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["pulls"][0]["comments"]:
    if c["id"] == 2519634101:
        c["edited_by"] = "mallory"; c["edited_at"] = "2026-11-29T11:00:00Z"
json.dump(d, open(sys.argv[2], "w"))
PY
expect "apply edited comment" 1 "$bin" apply --snapshot "$tmp/edited.json" --pr 42 --comment 2519634101 --json
stdout_has "apply edited comment" '"outcome": "refused"'
stdout_has "apply edited comment" '"writes": []'

# apply --comment's other paths (test_engine's apply_id tests): an edit by
# an account GitHub no longer knows is refused too; an edit only by the
# trusted login applies; comments that cannot be read end in exit 3 with
# nothing written.
python3 - "$demo" "$tmp" <<'PY'
import json, sys, copy
d = json.load(open(sys.argv[1]))
def variant(name, change):
    v = copy.deepcopy(d)
    for c in v["pulls"][0]["comments"]:
        if c["id"] == 2519634101:
            change(c)
    if name == "unreadable":
        v["faults"] = [{"read": "comments", "pr": 42, "status": 502}]
    json.dump(v, open(f"{sys.argv[2]}/{name}.json", "w"))
variant("ghost", lambda c: c.update(edited_by=None, edited_at="2026-11-29T11:00:00Z"))
variant("self", lambda c: c.update(edited_by="lfx-reviewer", edited_at="2026-11-29T11:00:00Z"))
variant("unreadable", lambda c: None)
PY
expect "apply comment edited by a deleted account" 1 "$bin" apply --snapshot "$tmp/ghost.json" --pr 42 --comment 2519634101 --json
stdout_has "apply comment edited by a deleted account" 'was edited by an unknown account'
stdout_has "apply comment edited by a deleted account" '"writes": []'
expect "apply comment edited by the trusted login" 0 "$bin" apply --snapshot "$tmp/self.json" --pr 42 --comment 2519634101 --json
stdout_has "apply comment edited by the trusted login" '"state": "success"'
expect "apply with unreadable comments" 3 "$bin" apply --snapshot "$tmp/unreadable.json" --pr 42 --comment 2519634101 --json
stdout_has "apply with unreadable comments" 'the comments could not be read'
stdout_has "apply with unreadable comments" '"writes": []'

# --- live configuration, refused before any request (exit 2) ---
# `live` runs with a clean environment against a closed loopback port: a
# configuration that is accepted gets as far as the first request (exit 3).
live() {
	env -i PATH="$PATH" GITHUB_TOKEN=t GITHUB_API_URL=http://127.0.0.1:9 \
		AGENTIC_RETRIES=0 AGENTIC_CONNECT_TIMEOUT=1 "$@"
}
expect "run without GITHUB_EVENT_PATH" 2 live GITHUB_REPOSITORY=a/b GITHUB_EVENT_NAME=schedule "$bin" run
stderr_has "run without GITHUB_EVENT_PATH" "GITHUB_EVENT_PATH is not set"
if grep -q "payload" "$tmp/err" && grep -q "missing" "$tmp/err"; then bad "run without GITHUB_EVENT_PATH: blamed the payload"; else ok; fi
# A8: repository names (--repo, --repos, GITHUB_REPOSITORY).
for r in a/.. ../b ./b a/. 'a/b c' a/b/c a 'a/b;c' "$(printf 'a/b\033')" \
	"$(printf 'a%.0s' $(seq 40))/b"; do
	expect "A8 --repo '$r'" 2 live "$bin" gate --pr 7 --repo "$r"
	stderr_has "A8 --repo '$r'" "is not OWNER/NAME"
	expect "A8 GITHUB_REPOSITORY '$r'" 2 live GITHUB_REPOSITORY="$r" "$bin" gate --pr 7
	stderr_has "A8 GITHUB_REPOSITORY '$r'" "GITHUB_REPOSITORY: '"
done
expect "A8 --repos with a bad entry" 2 live "$bin" sweep --repos 'a/b,x/..'
stderr_has "A8 --repos with a bad entry" "--repos: 'x/..' is not OWNER/NAME"
expect "A8 --repos empty" 2 live "$bin" sweep --repos ','
expect "A8 good --repo" 3 live "$bin" gate --pr 7 --repo a.b/c_d-e.f
expect "A8 good GITHUB_REPOSITORY" 3 live GITHUB_REPOSITORY=lf/svc "$bin" gate --pr 7
# A8: API URLs (https, or http to a loopback host only).
for u in http://example.com http://10.0.0.1:8080 'http://127.0.0.1@evil.example' \
	http://127.0.0.1.evil.example http://127.0.0.256 http://127.1 \
	'http://[::2]:9' ftp://127.0.0.1 'https://a b' HTTPS://api.github.com \
	'http://localhost%2eevil.example'; do
	expect "A8 GITHUB_API_URL '$u'" 2 live GITHUB_REPOSITORY=a/b GITHUB_API_URL="$u" "$bin" gate --pr 7
	stderr_has "A8 GITHUB_API_URL '$u'" "GITHUB_API_URL:"
done
expect "A8 plain http GraphQL URL off loopback" 2 live GITHUB_REPOSITORY=a/b \
	GITHUB_GRAPHQL_URL=http://example.com/graphql "$bin" gate --pr 7
stderr_has "A8 plain http GraphQL URL off loopback" "GITHUB_GRAPHQL_URL: 'http://example.com/graphql': plain http://"
for u in http://127.0.0.1:9 http://127.9.8.7:9 http://localhost:9 'http://[::1]:9'; do
	expect "A8 loopback '$u'" 3 live GITHUB_REPOSITORY=a/b GITHUB_API_URL="$u" "$bin" gate --pr 7
done
# Where a setting comes from: two names that disagree are refused, naming
# both; equal values are fine (an earlier step's GITHUB_ENV line must not
# silently replace an action input).
conflict() { # NAME VAR1=V1 VAR2=V2 — both set, disagreeing
	expect "config conflict: $1" 2 live GITHUB_REPOSITORY=a/b "$2" "$3" "$bin" gate --pr 7
	stderr_has "config conflict: $1" "${2%%=*} and ${3%%=*} are both set and disagree"
}
conflict "hyphen vs underscore input" INPUT_TRUSTED-LOGIN=mallory INPUT_TRUSTED_LOGIN=lfx-reviewer
conflict "input vs AGENTIC_" INPUT_TRUSTED_LOGIN=lfx-reviewer AGENTIC_TRUSTED_LOGIN=mallory
conflict "hyphen input vs AGENTIC_" INPUT_UNLABELERS=mallory AGENTIC_UNLABELERS=alice
conflict "a list emptied by AGENTIC_" INPUT_AI_REVIEWERS=copilot AGENTIC_AI_REVIEWERS=
conflict "deadline" INPUT_DEADLINE=5 AGENTIC_DEADLINE=60
conflict "read token" INPUT_READ-TOKEN=sekrit-r1 INPUT_READ_TOKEN=sekrit-r2
if grep -q sekrit "$tmp/err"; then bad "config conflict: a token was printed"; else ok; fi
conflict "write token" INPUT_TOKEN=sekrit-w1 AGENTIC_TOKEN=sekrit-w2
if grep -q sekrit "$tmp/err"; then bad "config conflict: a token was printed"; else ok; fi
conflict "App id" INPUT_APP-ID=1 AGENTIC_APP_ID=2
expect "config: equal values agree" 3 live GITHUB_REPOSITORY=a/b INPUT_TRUSTED-LOGIN=bot \
	INPUT_TRUSTED_LOGIN=bot AGENTIC_TRUSTED_LOGIN=bot "$bin" gate --pr 7
expect "config: equal lists in other words agree" 3 live GITHUB_REPOSITORY=a/b \
	INPUT_UNLABELERS='alice, bob' AGENTIC_UNLABELERS='alice bob' "$bin" gate --pr 7
expect "config: an empty input is unset" 3 live GITHUB_REPOSITORY=a/b INPUT_TRUSTED_LOGIN= \
	AGENTIC_TRUSTED_LOGIN=bot "$bin" gate --pr 7
expect "config: a bad value names its variable" 2 live GITHUB_REPOSITORY=a/b \
	INPUT_TRUSTED-LOGIN='a b' "$bin" gate --pr 7
stderr_has "config: a bad value names its variable" "input 'trusted-login' (INPUT_TRUSTED-LOGIN): \"a b\" is not a GitHub login"
expect "config: AGENTIC_ names itself" 2 live GITHUB_REPOSITORY=a/b AGENTIC_TRUSTED_LOGIN='a b' "$bin" gate --pr 7
stderr_has "config: AGENTIC_ names itself" "gate: AGENTIC_TRUSTED_LOGIN: \"a b\" is not a GitHub login"
expect "config: an annotation under Actions" 2 live GITHUB_ACTIONS=true GITHUB_REPOSITORY=a/b \
	INPUT_TRUSTED_LOGIN='a b' "$bin" gate --pr 7
stderr_has "config: an annotation under Actions" "::error::gate: input 'trusted-login'"

# --- lint ---
sha=0123456789abcdef0123456789abcdef01234567
printf '<!-- agentic:needs-human v1 -->\n<!-- needs-human: no -->\n<!-- head: %s -->\n<!-- base: main -->\nroutine\n' $sha >"$tmp/nh.md"
expect "lint good needs-human" 0 "$bin" lint "$tmp/nh.md"
stdout_has "lint good needs-human" "well-formed"
"$bin" lint - <"$tmp/nh.md" >/dev/null 2>&1 && ok || bad "lint from stdin"
printf '<!-- agentic:needs-human v1 -->\n<!-- needs-human: yes -->\n<!-- head: abc123 -->\n' >"$tmp/nh-bad.md"
expect "lint malformed needs-human" 1 "$bin" lint "$tmp/nh-bad.md"
stdout_has "lint malformed needs-human" "MALFORMED"
printf '<details>\n<!-- agentic:check v1 -->\nhead: %s\nround: 12\nclean: true\n- id: PRRT_1, status: fixed, severity: high, reason: done\n- id: PRRT_2, status: done, severity: high, reason: x\n</details>\n' $sha >"$tmp/check.md"
expect "lint bad row" 1 "$bin" lint "$tmp/check.md"
stdout_has "lint bad row" "row REJECTED: status must be one of"
stdout_has "lint bad row" "row accepted: PRRT_1, fixed, high"
expect "lint --json" 1 "$bin" lint --json "$tmp/check.md"
stdout_has "lint --json" '"ok": false'
printf 'just a comment\n' >"$tmp/plain.md"
expect "lint no marker" 1 "$bin" lint "$tmp/plain.md"
stdout_has "lint no marker" "no verdict marker"
head -c 70000 /dev/zero | tr '\0' a >"$tmp/long.md"
printf '\n<!-- agentic:check v1 -->\nhead: %s\nround: 1\nclean: true\n' $sha >>"$tmp/long.md"
expect "lint too long" 1 "$bin" lint "$tmp/long.md"
stdout_has "lint too long" "longer than 65,536 characters"
printf '<!-- agentic:needs-human v1 -->\n<!-- needs-human: no -->\n<!-- head: %s -->\n<!-- base: main\x1b[31m -->\n' $sha >"$tmp/esc.md"
"$bin" lint "$tmp/esc.md" >"$tmp/out" 2>&1
if grep -q $'\x1b' "$tmp/out"; then bad "lint escapes control characters"; else ok; fi

# --- replay never opens a network connection ---
if [ -z "${SANITIZED:-}" ] && cc -shared -fPIC -o "$tmp/nonet.so" tests/nonet.c 2>/dev/null; then
	n=0
	for f in fixtures/[0-9]*.json; do
		case $f in *.expect.json) continue ;; esac
		LD_PRELOAD="$tmp/nonet.so" "$bin" replay --quiet "$f" >/dev/null 2>"$tmp/err"
		if [ $? -ge 128 ] || grep -q nonet "$tmp/err"; then
			bad "replay opened a socket: $f"
		fi
		n=$((n + 1))
	done
	ok
fi

# --- GitLab merge requests (docs/rules/gitlab.md G1-G3, fixtures/gitlab
# S3): every refusal is exit 2 before any request (the API URL is a dead
# port: a request would be exit 3). ---
gl() { env -i PATH="$PATH" AGENTIC_RETRIES=0 "$@"; }
gl_api=http://127.0.0.1:9/api/v4
expect "gitlab: ! form without gitlab_host" 2 \
	gl GITLAB_TOKEN=t "$bin" review-plan --pr 'platform/svc!7'
stderr_has "gitlab: ! form without gitlab_host" "gitlab_host"
expect "gitlab: URL host other than gitlab_host" 2 \
	gl GITLAB_TOKEN=t AGENTIC_GITLAB_HOST=gitlab.example.com \
	AGENTIC_GITLAB_API_URL=$gl_api "$bin" review-plan \
	--pr https://other.example.com/platform/svc/-/merge_requests/7
expect "gitlab: API override without gitlab_host" 2 \
	gl GITLAB_TOKEN=t AGENTIC_GITLAB_API_URL=$gl_api "$bin" review-plan \
	--pr https://gitlab.example.com/platform/svc/-/merge_requests/7
stderr_has "gitlab: API override without gitlab_host" "gitlab_host"
expect "gitlab: no GitLab token (GITHUB_TOKEN is never used)" 2 \
	gl GITHUB_TOKEN=t AGENTIC_GITLAB_HOST=gitlab.example.com \
	AGENTIC_GITLAB_API_URL=$gl_api "$bin" review-plan --pr 'platform/svc!7'
stderr_has "gitlab: no GitLab token (GITHUB_TOKEN is never used)" "GITLAB_TOKEN"
expect "gitlab: API override over http off loopback (A8)" 2 \
	gl GITLAB_TOKEN=t AGENTIC_GITLAB_HOST=gitlab.example.com \
	AGENTIC_GITLAB_API_URL=http://gitlab.example.com/api/v4 "$bin" \
	review-plan --pr 'platform/svc!7'
expect "gitlab: a malformed reference" 2 \
	gl GITLAB_TOKEN=t "$bin" review-plan \
	--pr https://gitlab.example.com/platform/svc/-/merge_requests/07
# --snapshot: a GitLab --pr needs a GitLab snapshot of that project.
expect "gitlab: --pr on a GitHub snapshot" 2 \
	"$bin" review-plan --snapshot fixtures/000-demo.json \
	--pr https://gitlab.example.com/platform/svc/-/merge_requests/7
expect "gitlab: --pr on a GitLab snapshot of another project" 2 \
	"$bin" review-plan --snapshot fixtures/gitlab/2001-url-with-diffs-query-fragment-accepted.json \
	--pr https://gitlab.example.com/platform/backend/other/-/merge_requests/7
# P60: record takes a GitLab reference, live only.
expect "gitlab: record --snapshot of a GitLab MR" 2 \
	"$bin" record --snapshot fixtures/gitlab/2000-url-form-first-publish.json \
	--pr 'platform/backend/svc!7' --out "$tmp/gl-rec.json"
expect "gitlab: record --all with a GitLab MR" 2 \
	gl GITLAB_TOKEN=t AGENTIC_GITLAB_HOST=gitlab.example.com "$bin" record \
	--all --pr 'platform/svc!7' --out "$tmp/gl-rec.json"
expect "gitlab: record of an MR on a dead API is a failed read" 3 \
	gl GITLAB_TOKEN=t AGENTIC_GITLAB_HOST=gitlab.example.com \
	AGENTIC_GITLAB_API_URL=$gl_api "$bin" record --pr 'platform/svc!7' \
	--out "$tmp/gl-rec.json"
if [ -e "$tmp/gl-rec.json" ]; then bad "gitlab: a failed record wrote its file"; else ok; fi
# P62: review_login may hold a dot on GitLab only.
expect "gitlab: review_login with a dot is a GitLab username" 3 \
	gl GITLAB_TOKEN=t AGENTIC_GITLAB_HOST=gitlab.example.com \
	AGENTIC_GITLAB_API_URL=$gl_api AGENTIC_REVIEW_LOGIN=review.bot "$bin" \
	review-plan --pr 'platform/svc!7'
expect "gitlab: review_login starting with a dot" 2 \
	gl GITLAB_TOKEN=t AGENTIC_GITLAB_HOST=gitlab.example.com \
	AGENTIC_GITLAB_API_URL=$gl_api AGENTIC_REVIEW_LOGIN=.bot "$bin" \
	review-plan --pr 'platform/svc!7'
stderr_has "gitlab: review_login starting with a dot" "AGENTIC_REVIEW_LOGIN: \".bot\" is not a GitLab username"
expect "github: review_login with a dot is no GitHub login" 2 \
	gl GITHUB_TOKEN=t GITHUB_REPOSITORY=a/b AGENTIC_API_URL=http://127.0.0.1:9 \
	AGENTIC_REVIEW_LOGIN=review.bot "$bin" review-plan --pr 7
stderr_has "github: review_login with a dot is no GitHub login" "AGENTIC_REVIEW_LOGIN: \"review.bot\" is not a GitHub login"
sed '2s/^/  "config": {"review_login": "review.bot"},\n/' \
	fixtures/publish/1000-first-publish-creates-sticky-review-status.json >"$tmp/gh-dot.json"
expect "github: a GitHub snapshot's review_login with a dot is malformed" 2 \
	"$bin" replay "$tmp/gh-dot.json"
stderr_has "github: a GitHub snapshot's review_login with a dot is malformed" "review_login: \"review.bot\" is not a GitHub login"
# A GitLab MR is no longer exit 2: the dead API is a failed read (exit 3).
expect "gitlab: an MR URL is read (exit 3 on a dead API)" 3 \
	gl GITLAB_TOKEN=t AGENTIC_GITLAB_HOST=gitlab.example.com \
	AGENTIC_GITLAB_API_URL=$gl_api "$bin" review-plan \
	--pr https://gitlab.example.com/platform/svc/-/merge_requests/7

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
