#!/usr/bin/env python3
"""The publish torture over fixtures/gitlab (issue 26; PUBLISH's
fail-closed rule, X8): every port call a fixture's replay makes is failed
in turn ({"call": N} with 502 and 404), and every write is also answered
lost after it landed (lost_response) and refused (400, GitLab's answer to
a position it cannot place). Each run is checked against what PUBLISH and
docs/rules/gitlab.md promise about a failed call, never against the
fixture's own expectation:

- the run ends with exit 0-3 and a JSON report whose exit is the process's;
  the outcome agrees with the exit (B4);
- every status written is pending ("publishing") or a final status whose
  state is the tier's (success for PASSED and PASSED WITH NOTES, `failed`
  otherwise, never `failure`: G17) — and never a better tier than the
  fault-free run writes (X8: a failure never leaves a better tier);
- a run that reports a failed thread writes no success status;
- GET /user is the first call (G4), and no write happens unless it
  answered (U5); a dry run writes nothing (§7.4).

  tests/gitlab-torture.py BIN [FIXTURE...]
(BIN may be the sanitizer build, build/san/offline/agentic-apply: a
sanitizer report is a violation too.)
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

RANK = {"PASSED": 4, "PASSED_WITH_NOTES": 3, "REVIEW_BEFORE_MERGE": 2,
        "BLOCKED": 1, "PARTIAL": 0}
OUTCOMES = {0: {"published", "unchanged", "noop", "skipped", "planned"},
            1: {"refused", "superseded", "partial"},
            2: {"error"}, 3: {"error"}}

bin_ = sys.argv[1]
files = sys.argv[2:] or sorted(glob.glob("fixtures/gitlab/[0-9]*.json"))
files = [f for f in files if not f.endswith(".expect.json")]
tmp = tempfile.mkdtemp()


def run(snap):
    path = os.path.join(tmp, "snap.json")
    with open(path, "w") as fh:
        json.dump(snap, fh)
    env = dict(os.environ, AGENTIC_STATS="trace")
    p = subprocess.run([bin_, "replay", "--quiet", path], env=env,
                       capture_output=True, text=True)
    calls = []
    for line in p.stderr.splitlines():
        if line.startswith("call "):
            n, rest = line[5:].split(": ", 1)
            op, kind = rest.split(" ")[:2]
            calls.append((int(n), op, kind))
    try:
        rep = json.loads(p.stdout)
    except ValueError:
        rep = None
    return p.returncode, rep, calls, p.stderr


def tier(w):
    return w["description"].split(" \u00b7 ")[0].replace(" ", "_")


def final_rank(rep):
    ranks = [RANK.get(tier(w)) for w in rep["writes"]
             if w["kind"] == "status" and w["state"] != "pending"]
    return ranks[-1] if ranks else None


def check(code, rep, calls, base_rank, dry, injected_user, err=""):
    bad = []
    if "Sanitizer" in err or "runtime error:" in err:
        bad.append("sanitizer: " + next(l for l in err.splitlines()
                                        if "Sanitizer" in l or "runtime error:" in l))
    if code not in (0, 1, 2, 3):
        return ["exit %d" % code]
    if rep is None:
        return ["stdout is not a JSON report"]
    if rep.get("exit") != code:
        bad.append("report exit %s, process exit %d" % (rep.get("exit"), code))
    for st in rep["steps"]:
        if st.get("outcome") not in OUTCOMES[code]:
            bad.append("outcome %s with exit %d (B4)" % (st.get("outcome"), code))
        if any(f.get("thread") == "failed" for f in st.get("findings", [])) and \
                any(w["kind"] == "status" and w["state"] == "success" for w in rep["writes"]):
            bad.append("a success status although a thread failed")
    for w in rep["writes"]:
        if w["kind"] != "status":
            continue
        if w["state"] == "pending":
            if w["description"] != "publishing":
                bad.append("pending status '%s'" % w["description"])
            continue
        t = RANK.get(tier(w))
        if t is None:
            bad.append("status '%s' names no tier" % w["description"])
        elif w["state"] not in ("success", "failed") or (w["state"] == "success") != (t >= 3):
            bad.append("status %s for %s (G17, §5.5)" % (w["state"], tier(w)))
        elif base_rank is not None and t > base_rank:
            bad.append("status %s better than the fault-free run's (X8)" % tier(w))
    if calls and calls[0][1:] != ("read", "user"):
        bad.append("the first call is %s %s, not GET /user (G4)" % calls[0][1:])
    writes = [c for c in calls if c[1] == "write"]
    if injected_user and writes:
        bad.append("a write after GET /user failed (U5)")
    if dry and writes:
        bad.append("a dry run made %d write call(s)" % len(writes))
    return bad


runs = failures = 0
for f in files:
    name = os.path.basename(f)[:-5]
    snap = json.load(open(f))
    if snap["command"]["name"] != "publish":
        continue
    dry = bool(snap["command"].get("dry_run"))
    code, rep, calls, err = run(snap)
    if rep is None or not rep.get("steps"):
        continue  # a refusal before any read: nothing to fail
    base_rank = final_rank(rep)
    problems = check(code, rep, calls, None, dry, False, err)
    if problems:
        print("FAIL %s (fault-free): %s" % (name, "; ".join(problems)))
        failures += 1
    seen = {}
    for n, op, kind in calls:
        faults = [{"call": n, "status": 502}, {"call": n, "status": 404}]
        if op == "write":
            j = seen.get(kind, 0)
            seen[kind] = j + 1
            faults.append({"write": kind, "skip": j, "times": 1,
                           "mode": "lost_response"})
            faults.append({"write": kind, "skip": j, "times": 1, "status": 400})
        for fault in faults:
            s = dict(snap, faults=list(snap.get("faults", [])) + [fault])
            c2, r2, calls2, err2 = run(s)
            runs += 1
            problems = check(c2, r2, calls2, base_rank, dry,
                             n == 1 and kind == "user" and "call" in fault,
                             err2)
            if problems:
                failures += 1
                print("FAIL %s, call %d (%s %s), %s: %s" % (
                    name, n, op, kind, json.dumps(fault), "; ".join(problems)))
print("gitlab torture: %d faulted runs, %d violations" % (runs, failures))
sys.exit(1 if failures else 0)
