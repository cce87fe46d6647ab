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

And on the MR the run leaves (AGENTIC_REPLAY_STATE: the GitLab model as
the writes left it, P63), as tests/torture checks GitHub's:

- every note that was not a G6 sticky of review_login (roots, replies,
  others' notes, verdict notes, internal and system notes) is still there
  with its body (B1, U6), and the run PUT or DELETEd only such a sticky
  or one it created;
- the last body the report lists for a note is the body it holds (§9's
  body_sha256), unless an answer was lost;
- the newest pr-review status the run wrote links the sticky left
  (<web_url>#note_<id>, §5.5) and names its tier (W6), unless lost;
- with a fault: the last sticky written and the newest status claim no
  better tier than the fault-free run's, and the sticky left keeps every
  finding id of the fault-free sticky whenever the run wrote (L1007: no
  finding lost).

  tests/gitlab-torture.py BIN [FIXTURE...]
(BIN may be the sanitizer build, build/san/offline/agentic-apply: a
sanitizer report is a violation too.)
"""
import glob
import hashlib
import json
import re
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
    state_path = os.path.join(tmp, "state.json")
    if os.path.exists(state_path):
        os.remove(state_path)
    env = dict(os.environ, AGENTIC_STATS="trace", AGENTIC_REPLAY_STATE=state_path)
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
    try:
        state = json.load(open(state_path))
    except (OSError, ValueError):
        state = None
    return p.returncode, rep, calls, p.stderr, state


VERDICT_MARKER = re.compile(r"<!--\s*agentic:(check|needs-human)\s+v1", re.I)


def is_sticky(body):
    lines = (body or "").split("\n")
    return re.match(r"^<!-- pr-review:sticky -->[ \t\r]*$", lines[0]) is not None and \
        not any(VERDICT_MARKER.search(l) for l in lines)


def sticky_facts(body):
    m = re.search(r"^<!-- pr-review:status=([A-Za-z_]+) -->[ \t\r]*$", body, re.M)
    ids, in_state = set(), False
    for line in body.split("\n"):
        if not in_state:
            in_state = line.startswith("<!-- pr-review:state=")
            continue
        if line.startswith("-->"):
            break
        if re.match(r"^F[1-9][0-9]*$", line.split(" ")[0]):
            ids.add(line.split(" ")[0])
    return (m.group(1) if m else None), ids


def mr_of(snap):
    iid = snap["command"]["pr"]
    if isinstance(iid, str):
        iid = int(re.search(r"(\d+)(?:[/?#].*)?$", iid.split("merge_requests/")[-1].split("!")[-1]).group(1))
    return next((m for m in snap.get("merge_requests", []) if m["iid"] == iid), None)


def notes_of(mr):
    """Every note of the MR: (note, is the first of a non-diff discussion)."""
    out = []
    for n in (mr or {}).get("notes", []) or []:
        out.append((n, True))
    for d in (mr or {}).get("discussions", []) or []:
        for k, n in enumerate(d["notes"]):
            out.append((n, k == 0 and n.get("type", "DiscussionNote") != "DiffNote"))
    return out


def login_of(snap):
    cfg = snap.get("config") or {}
    return (cfg.get("review_login") or cfg.get("trusted_login") or "lfx-reviewer").lower()


def g6_stickies(snap, mr):
    me = login_of(snap)
    return sorted((n for n, first in notes_of(mr)
                   if first and (n.get("author") or "").lower() == me and not n.get("system")
                   and not n.get("internal") and is_sticky(n.get("body"))), key=lambda n: n["id"])


def claims(snap, state):
    """What the MR shows after the run: the sticky left (newest G6), the
    last sticky the run wrote, the newest pr-review status it wrote on
    the head."""
    mr0, mr1 = mr_of(snap), mr_of(state)
    before = {n["id"]: n.get("body") for n, _ in notes_of(mr0)}
    st = g6_stickies(state, mr1)
    written = [n for n in st if before.get(n["id"]) != n.get("body")]
    ctx = (snap.get("config") or {}).get("review_context") or "pr-review"
    old = {x["id"] for x in snap.get("commit_statuses", [])}
    mine = [x for x in sorted(state.get("commit_statuses", []), key=lambda x: x["id"])
            if x["id"] not in old and x["sha"] == mr1["sha"] and x["name"] == ctx
            and (x.get("author") or "").lower() == login_of(snap)]
    url = lambda n: "%s#note_%d" % (mr1["web_url"], n["id"])  # noqa: E731
    facts = lambda n: n and dict(id=n["id"], body=n["body"], url=url(n), tier=sticky_facts(n["body"])[0],  # noqa: E731
                                 ids=sticky_facts(n["body"])[1])
    return dict(canonical=facts(st[-1] if st else None), sticky=facts(written[-1] if written else None),
                status=mine[-1] if mine else None, notes={n["id"]: n for n, _ in notes_of(mr1)})


def status_tier(st):
    if not st or st["status"] == "pending":
        return None
    return (st.get("description") or "").split(" \u00b7 ")[0].replace(" ", "_")


def state_problems(snap, rep, state, lost, dry, base):
    """The checks over the MR the run leaves (the docstring's second list)."""
    bad = []
    if state is None:
        return ["no state written (AGENTIC_REPLAY_STATE)"]
    mr0 = mr_of(snap)
    me = login_of(snap)
    before = {n["id"]: (n, first) for n, first in notes_of(mr0)}
    cl = claims(snap, state)
    created = {w["comment_id"] for w in rep["writes"] if w["kind"] == "comment_create"}
    for w in rep["writes"]:
        if w["kind"] not in ("comment_update", "comment_delete") or w["comment_id"] in created:
            continue
        n0 = before.get(w["comment_id"])
        if not n0 or not n0[1] or (n0[0].get("author") or "").lower() != me or not is_sticky(n0[0].get("body")) \
                or n0[0].get("system") or n0[0].get("internal"):
            bad.append("%s of note %d, which is not a G6 sticky of review_login (B1, U6)" % (w["kind"], w["comment_id"]))
    for nid, (n0, first) in before.items():
        if first and (n0.get("author") or "").lower() == me and not n0.get("system") \
                and not n0.get("internal") and is_sticky(n0.get("body")):
            continue
        n1 = cl["notes"].get(nid)
        if n1 is None:
            bad.append("note %d (not a sticky of review_login) was deleted (B1, U6)" % nid)
        elif n1.get("body") != n0.get("body"):
            bad.append("note %d (not a sticky of review_login) was edited (B1, U6)" % nid)
    if dry:
        return bad
    last = {}
    for w in rep["writes"]:
        if w["kind"] in ("comment_create", "comment_update"):
            last[w["comment_id"]] = w["body_sha256"]
    for nid, h in last.items():
        n = cl["notes"].get(nid)
        if n and hashlib.sha256(n["body"].encode()).hexdigest() != h and not lost:
            bad.append("note %d: body_sha256 %s… is not the body it holds (§9)" % (nid, h[:12]))
    if cl["status"] and not cl["canonical"]:
        bad.append("the run wrote a pr-review status, yet no sticky is left on the MR")
    elif cl["status"] and cl["status"].get("target_url") and cl["status"]["target_url"] != cl["canonical"]["url"]:
        bad.append("the newest status written links %s, the sticky left is %s (§5.5)"
                   % (cl["status"]["target_url"], cl["canonical"]["url"]))
    t = status_tier(cl["status"])
    if t and cl["canonical"] and t != cl["canonical"]["tier"] and not lost:
        bad.append("the newest status written says %s, the sticky left %s (W6)" % (t, cl["canonical"]["tier"]))
    if base is None:
        return bad
    btier, bids = base
    for what, tt in (("the last sticky written", cl["sticky"] and cl["sticky"]["tier"]),
                     ("the newest status written", t)):
        if tt and btier and RANK.get(tt, -1) > RANK.get(btier, -1):
            bad.append("%s claims %s, better than the fault-free %s (L1007)" % (what, tt, btier))
    if cl["sticky"] and bids - cl["sticky"]["ids"]:
        bad.append("the last sticky written lacks %s of the fault-free sticky (L1007)" % sorted(bids - cl["sticky"]["ids"]))
    if (rep["writes"] or cl["sticky"] or cl["status"]) and bids:
        if not cl["canonical"]:
            bad.append("the run wrote, and no sticky is left: %s lost (L1007)" % sorted(bids))
        elif bids - cl["canonical"]["ids"]:
            bad.append("the sticky left (%d) lacks %s of the fault-free sticky (L1007)"
                       % (cl["canonical"]["id"], sorted(bids - cl["canonical"]["ids"])))
    return bad


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


runs = failures = states = 0
for f in files:
    name = os.path.basename(f)[:-5]
    snap = json.load(open(f))
    if snap["command"]["name"] != "publish":
        continue
    dry = bool(snap["command"].get("dry_run"))
    code, rep, calls, err, state = run(snap)
    if rep is None or not rep.get("steps"):
        continue  # a refusal before any read: nothing to fail
    base_rank = final_rank(rep)
    lost0 = any(f.get("mode") == "lost_response" for f in snap.get("faults", []))
    problems = check(code, rep, calls, None, dry, False, err) + \
        state_problems(snap, rep, state, lost0, dry, None)
    # What the findings justify: the run with no fault at all (the
    # fixture's own removed too; a failed write of the fixture makes its
    # run PARTIAL), as tests/torture's base tier.
    base = None
    if not dry:
        clean = state if not snap.get("faults") else run(dict(snap, faults=[]))[4]
        cl = claims(snap, clean) if clean is not None else None
        if cl and cl["canonical"]:
            base = (cl["canonical"]["tier"], cl["canonical"]["ids"])
    states += 1
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
            c2, r2, calls2, err2, state2 = run(s)
            runs += 1
            problems = check(c2, r2, calls2, base_rank, dry,
                             n == 1 and kind == "user" and "call" in fault,
                             err2)
            if r2 is not None and not problems:
                problems = state_problems(snap, r2, state2, lost0 or fault.get("mode") == "lost_response",
                                          dry, base)
                states += 1
            if problems:
                failures += 1
                print("FAIL %s, call %d (%s %s), %s: %s" % (
                    name, n, op, kind, json.dumps(fault), "; ".join(problems)))
print("gitlab torture: %d faulted runs, %d end states checked, %d violations" % (runs, states, failures))
sys.exit(1 if failures else 0)
