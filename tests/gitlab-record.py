#!/usr/bin/env python3
"""`record --pr <GitLab reference>` against the fake GitLab (issue 26, G23,
P60, P61), as tests/integration/record.test.mjs does for GitHub: each
fixture of fixtures/gitlab whose state a live run reads whole (no stub
report, not replay-only; a faulted fixture with its faults removed on both
sides, as 2090's fork MR) is loaded into the fake, recorded with the
reference its command names, and

  - record makes no write, and GET /api/v4/user is its first request (G4);
  - the recording is a GitLab snapshot that replays (its command is
    review-plan on that reference) to the report a live `review-plan --pr
    REF --json` prints against the same state, byte for byte;
  - the recording with the fixture's own command replays to the report
    the fixture replays to, byte for byte (publish, its dry run, plan);
  - every recording is valid against docs/schemas/snapshot.schema.json;
  - the recording loads into the fake GitLab unchanged (the fake's state
    checks), and recording it again from there gives the same file but
    for `now`.

Then the failures: a 401 on GET /user and an MR that does not exist are
exit 2, a failed read (discussions, diffs, statuses: 502) exit 3, and
none writes a file.

  tests/gitlab-record.py BIN [FIXTURE...]
"""
import glob
import json
import os
import subprocess

import gitlab_fake  # tests/gitlab_fake.py
import sys
import tempfile
import urllib.request

bin_ = sys.argv[1]
files = sys.argv[2:] or sorted(glob.glob("fixtures/gitlab/[0-9]*.json"))
files = [f for f in files if not f.endswith(".expect.json")]

fake = subprocess.Popen(["node", "tests/fakegitlab/server.mjs", "--snapshot",
                         files[0]], stdout=subprocess.PIPE, text=True)
base = fake.stdout.readline().strip().rstrip("/")

REPLAY_ONLY = {"2005-other-project-exit-2", "2011-relative-url-root-exit-2"}


def ctl(method, path, body=None):
    return gitlab_fake.ctl(base, method, path, body)


def live_env(snap):
    return gitlab_fake.live_env(snap, base)


def reference(snap):
    pr = snap["command"]["pr"]
    return pr if isinstance(pr, str) else "%s!%d" % (snap["repository"], pr)


SANITIZER = []  # (BIN may be a sanitizer build: any report is a failure)


def run(args, env=None):
    r = subprocess.run([bin_] + args, env=env, capture_output=True, text=True)
    if "Sanitizer" in r.stderr or "runtime error:" in r.stderr:
        SANITIZER.append("%s: %s" % (" ".join(args[:3]), next(
            l for l in r.stderr.splitlines() if "Sanitizer" in l or "runtime error:" in l)))
    return r


def record(snap, out, pr=None):
    ctl("POST", "/_fake/state", snap)
    ctl("POST", "/_fake/log/clear")
    if os.path.exists(out):
        os.remove(out)
    r = run(["record", "--pr", pr or reference(snap), "--out", out],
            live_env(snap))
    return r, ctl("GET", "/_fake/log") or []


def recordable(name, snap, expect, faults_ok=False):
    """The fixtures whose state a live run reads whole."""
    if name in REPLAY_ONLY or (snap.get("faults") and not faults_ok) or snap.get("tokens"):
        return False
    if "steps" not in expect or (expect.get("exit") == 2 and not expect["steps"]):
        return False  # a stub report: refused before any read
    if len(snap.get("merge_requests") or []) != 1:
        return False  # record reads one MR (P61)
    if (snap["command"].get("findings") or {}).get("mode") == "noop":
        return False  # no request at all (G4)
    return expect.get("exit") != 2  # a refused identity or MR: below


passed = failed = skipped = 0
tmp = tempfile.mkdtemp()
recordings = []
names = []

# Every recording against docs/schemas/snapshot.schema.json (ajv, as
# tests/gitlab-fixtures.mjs checks the fixtures): one node process.
VALIDATE = r"""
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
const peers = createRequire(process.cwd() + '/tests/peers/package.json');
const Ajv2020 = peers('ajv/dist/2020').default;
const addFormats = peers('ajv-formats').default;
const ajv = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true, allErrors: true });
addFormats(ajv);
const v = ajv.compile(JSON.parse(readFileSync('docs/schemas/snapshot.schema.json', 'utf8')));
for (const f of process.argv.slice(1)) {
  if (!v(JSON.parse(readFileSync(f, 'utf8')))) console.log(f + ': ' + JSON.stringify(v.errors.slice(0, 3)));
}
"""


def check(name, problems):
    global passed, failed
    if problems:
        failed += 1
        print("FAIL %s" % name)
        for p in problems:
            print("    " + p.replace("\n", "\n    ")[:1500])
    else:
        passed += 1


def record_case(name, snap, f):
    problems = []
    out = os.path.join(tmp, "rec.json")
    r, log = record(snap, out)
    if r.returncode != 0 or not os.path.exists(out):
        check(name, ["record exit %d: %s" % (r.returncode, r.stderr[-600:])])
        return
    writes = [e for e in log if e["method"] != "GET" and not e["path"].endswith("/graphql")]
    if writes:
        problems.append("record wrote: %s" % ["%s %s" % (e["method"], e["path"]) for e in writes])
    if not log or log[0]["path"] != "/api/v4/user":
        problems.append("the first request is not GET /api/v4/user (G4)")
    rec = json.load(open(out))
    kept = os.path.join(tmp, "rec-%s.json" % name)
    with open(kept, "w") as fh:
        json.dump(rec, fh)
    recordings.append((name, kept))
    if rec.get("platform") != "gitlab" or rec.get("host") != snap["host"]:
        problems.append("not a GitLab snapshot of host %s" % snap["host"])
    if any(k in rec.get("config", {}) for k in ("gitlab_host", "gitlab_api_url", "gitlab_token")):
        problems.append("the recording's config holds a host, API URL or token (G23)")
    if "glpat-fake" in open(out).read():
        problems.append("the token is in the recording")
    # 1. The recording as written: review-plan, replay == live.
    ctl("POST", "/_fake/state", snap)
    plan = run(["review-plan", "--json", "--pr", reference(snap)], live_env(snap))
    rplan = run(["replay", "--quiet", out])
    if not plan.stdout.startswith("{") or not rplan.stdout.startswith("{"):
        problems.append("review-plan printed no report (live exit %d, replay exit %d)\n%s"
                        % (plan.returncode, rplan.returncode, (plan.stderr + rplan.stderr)[-400:]))
    elif rplan.stdout != plan.stdout or rplan.returncode != plan.returncode:
        problems.append("review-plan: the recording replays to another report than live's (exit %d / %d)\n%s"
                        % (rplan.returncode, plan.returncode, rplan.stderr[-400:]))
    # 2. The recording with the fixture's command == the fixture.
    cmdfile = os.path.join(tmp, "cmd.json")
    json.dump({**rec, "command": snap["command"]}, open(cmdfile, "w"))
    a = run(["replay", "--quiet", cmdfile])
    b = run(["replay", "--quiet", f])
    if not b.stdout.startswith("{"):
        problems.append("the fixture replays to no report")
    elif a.stdout != b.stdout or a.returncode != b.returncode:
        problems.append("the fixture's command on the recording: another report (exit %d / %d)\n%s"
                        % (a.returncode, b.returncode, a.stderr[-400:]))
    # 3. The fake serves the recording; recording it again: the same.
    try:
        ctl("POST", "/_fake/state", rec)
        again = os.path.join(tmp, "again.json")
        r2, _ = record(rec, again)
        rec2 = json.load(open(again)) if r2.returncode == 0 else None
        if rec2 is None:
            problems.append("recording the recording failed: %s" % r2.stderr[-300:])
        else:
            rec.pop("now", None)
            rec2.pop("now", None)
            # The fake names a deleted author 'ghost' (as GitLab).
            if rec2 != rec:
                problems.append("recording the recording gives another snapshot")
    except urllib.error.HTTPError as e:
        problems.append("the fake refuses the recording: %s" % e.read().decode()[:300])
    check(name, problems)


try:
    for f in files:
        name = os.path.basename(f)[:-5]
        snap = json.load(open(f))
        expect = json.load(open(f[:-5] + ".expect.json"))
        cases = []
        if recordable(name, snap, expect):
            cases.append((name, snap, f))
        elif snap.get("faults") and recordable(name, snap, expect, faults_ok=True):
            # A faulted fixture's state, its faults removed on both sides
            # (the fork MR of 2090, the states of the failure fixtures).
            clean = dict(snap)
            del clean["faults"]
            path = os.path.join(tmp, "clean-%s.json" % name)
            json.dump(clean, open(path, "w"))
            r0 = run(["replay", "--quiet", path])
            try:
                rep0 = json.loads(r0.stdout)
            except ValueError:
                rep0 = None
            if rep0 and rep0.get("steps") and rep0.get("exit") != 2:
                cases.append((name + " (faults removed)", clean, path))
        if not cases:
            skipped += 1
        for name, snap, f in cases:
            record_case(name, snap, f)
            names.append(name)

    if recordings:
        val = subprocess.run(["node", "--input-type=module", "-e", VALIDATE] + [k for _, k in recordings],
                             capture_output=True, text=True)
        bad = [l for l in val.stdout.splitlines() if l.strip()]
        if val.returncode != 0:
            bad.append("the validator failed: " + val.stderr[-300:])
        check("every recording is a valid snapshot (docs/schemas)", bad)

    # The failures: exit 2 or 3, no file, nothing written.
    snap = json.load(open("fixtures/gitlab/2032-sticky-replied-to-stays-sticky-put-in-place.json"))
    cases = [
        ("401 on GET /user", [{"read": "user", "status": 401}], None, 2),
        ("no such MR", [], "%s!999" % snap["repository"], 2),
        ("502 on the discussions", [{"read": "discussions", "status": 502}], None, 3),
        ("502 on the diffs", [{"read": "diffs", "status": 502}], None, 3),
        ("502 on the statuses", [{"read": "statuses", "status": 502}], None, 3),
        ("502 on the editors", [{"read": "editors", "status": 502}], None, 3),
    ]
    for what, faults, pr, code in cases:
        out = os.path.join(tmp, "fail.json")
        s = dict(snap, faults=faults)
        if what.endswith("editors"):  # an edited note, so the editors are read
            s = json.loads(json.dumps(s))
            n = s["merge_requests"][0]["notes"][0]
            n["last_edited_at"] = n["updated_at"] = "2026-11-29T12:00:00Z"
            n["last_edited_by"] = n.get("author")
        r, log = record(s, out, pr)
        problems = []
        if r.returncode != code:
            problems.append("exit %d, not %d: %s" % (r.returncode, code, r.stderr[-300:]))
        if os.path.exists(out):
            problems.append("a file was written")
        if any(e["method"] != "GET" and not e["path"].endswith("/graphql") for e in log):
            problems.append("a write")
        check("record: " + what, problems)
    check("no sanitizer report", SANITIZER[:5])
finally:
    fake.terminate()
    fake.wait()
print("gitlab record: %d MRs recorded (%d of them faulted fixtures' states)"
      % (len(names), sum(n.endswith("(faults removed)") for n in names)))
print("gitlab record: %d passed, %d failed, %d not recordable" % (passed, failed, skipped))
sys.exit(1 if failed else 0)
