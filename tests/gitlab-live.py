#!/usr/bin/env python3
"""Live == replay for fixtures/gitlab (issue 26, G23): each fixture's
snapshot is loaded into one fake GitLab (tests/fakegitlab, POST
/_fake/state), the program runs its command live against it
(AGENTIC_GITLAB_HOST = the snapshot's host, AGENTIC_GITLAB_API_URL = the
fake), and the report must meet the expectation (the fixture checker) and
equal the replay's report byte for byte, with the same stderr (P65).
Beside the report, the fake's
log: every request with the PRIVATE-TOKEN header (G3), none after a G4
refusal but the first, no quick action run (G13). Then G18's
concurrent cases (fixtures/gitlab S5, P64), live only: the fake's mid-run
hooks change the MR between two requests of a publish.

  tests/gitlab-live.py BIN CHECKER [FIXTURE...]
"""
import glob
import json
import os
import subprocess

import gitlab_fake  # tests/gitlab_fake.py
import sys
import tempfile

bin_, checker = sys.argv[1], sys.argv[2]
files = sys.argv[3:] or sorted(glob.glob("fixtures/gitlab/[0-9]*.json"))
files = [f for f in files if not f.endswith(".expect.json")]

fake = subprocess.Popen(["node", "tests/fakegitlab/server.mjs", "--snapshot",
                         files[0]], stdout=subprocess.PIPE, text=True)
base = fake.stdout.readline().strip().rstrip("/")


def ctl(method, path, body=None):
    return gitlab_fake.ctl(base, method, path, body)


# B7's binding of command.pr to the snapshot's project: a live run has no
# snapshot, reads (the user, then a 404) and cannot print the stub report.
REPLAY_ONLY = {
    "2005-other-project-exit-2": "another project than the snapshot's",
    "2011-relative-url-root-exit-2": "a relative URL root names another project",
}

# G4: a refused identity makes no request after GET /user.
USER_ONLY = {"2014-user-401-exit-2-nothing-read", "2015-plan-user-403-exit-2",
             "2016-plan-wrong-username-exit-2", "2018-user-502-exit-3",
             "2020-rerun-unchanged-still-reads-user-first",
             "2087-user-answer-not-json-exit-3",
             "2101-rate-limit-past-deadline-exit-3"}


def log_problems(snap, name, log):
    """What the report cannot show (fixtures/gitlab README, "Checks a live
    run needs beyond the report")."""
    bad = []
    mr = snap["merge_requests"][0] if snap.get("merge_requests") else {}
    source = mr.get("source_project_id", snap.get("project_id", 1))
    branch = mr.get("source_branch", "feature")
    if any(e.get("auth") != "header" for e in log):
        bad.append("a request without the PRIVATE-TOKEN header (G3)")
    if any("private_token" in (e.get("query") or {}) for e in log):
        bad.append("a private_token= query (G3)")
    noop = (snap["command"].get("findings") or {}).get("mode") == "noop"
    if log and not noop and (log[0]["method"], log[0]["path"]) != ("GET", "/api/v4/user"):
        bad.append("the first request is %s %s, not GET /api/v4/user (G4)" % (log[0]["method"], log[0]["path"]))
    if noop and log:
        bad.append("a noop input made %d request(s) (G4, §7.1.1)" % len(log))
    # (a 5xx on GET /user is retried: G21)
    if name in USER_ONLY and any(e["path"] != "/api/v4/user" for e in log):
        bad.append("a request other than GET /user after a G4 refusal")
    if name.startswith("2063") and any(e["path"].endswith("/graphql") for e in log):
        bad.append("a GraphQL request although no review_login note was edited (G11)")
    for e in log:
        body = e.get("body") if isinstance(e.get("body"), dict) else {}
        if e["method"] == "POST" and "/statuses/" in e["path"]:
            if not e["path"].startswith("/api/v4/projects/%s/statuses/" % source) or body.get("ref") != branch:
                bad.append("a status POSTed to %s ref %s, not project %s ref %s (G17)" % (e["path"], body.get("ref"), source, branch))
        if e["method"] == "PUT" and "/discussions/" in e["path"]:
            bad.append("a PUT of a discussion (G15)")
        if any(k in body for k in ("internal", "created_at", "resolved", "confidential")):
            bad.append("a write with internal/created_at/resolved (G15)")
    # G5: the reads before the first write, in its order.
    rank = []
    for e in log:
        if e["method"] not in ("GET",) and not e["path"].endswith("/graphql"):
            break
        p = e["path"]
        r = (1 if p == "/api/v4/user" else 4 if p.endswith("/graphql")
             else 3 if p.endswith("/discussions") else 5 if p.endswith("/statuses")
             else 6 if p.endswith("/diffs") else 7 if p.endswith("/merge_base")
             else 2 if "/merge_requests/" in p else 0)
        rank.append(r)
    while len(rank) > 2 and rank[-1] == 2:
        rank.pop()  # §7.2's head re-read (G) before W1, not a G5 read
    if rank != sorted(rank):
        bad.append("the reads are not in G5's order: %s" % rank)
    return bad


HEAD = "7e" * 20
STICKY = "<!-- pr-review:sticky -->"
MOVED = "9f" * 20
NOTES = r"^POST /api/v4/projects/[^/]+/merge_requests/7/notes$"
STATUSES = r"^POST /api/v4/projects/42/statuses/"
DISCUSSIONS = r"^POST /api/v4/projects/[^/]+/merge_requests/7/discussions$"


def stickies(state):
    """The G6 stickies left: first notes of non-diff discussions by
    review_login whose first line is the marker."""
    mr = state["merge_requests"][0]
    notes = [n for n in mr.get("notes", [])] + [d["notes"][0] for d in mr.get("discussions", [])
                                                 if d["notes"][0].get("type") != "DiffNote"]
    return sorted(n["id"] for n in notes if n.get("author") == "lfx-reviewer" and not n.get("system")
                  and (n.get("body") or "").split("\n")[0].strip() == "<!-- pr-review:sticky -->")


def statuses_of(state, sha):
    return [s for s in sorted(state["commit_statuses"], key=lambda s: s["id"])
            if s["sha"] == sha and s["name"] == "pr-review"]


def writes_of(log, method, pattern):
    import re
    return [e for e in log if e["method"] == method and re.search(pattern, "%s %s" % (e["method"], e["path"]))]


def want_converged(rep, code, log, state):
    """G18/P28: a concurrent same-head sticky (453, another run's copy of
    S) appears after W1 created 452: W5 converges on the newest, PUTs R
    onto it, deletes 452; W6's final status links it; one sticky left."""
    bad = []
    step = rep["steps"][0]
    if code != 0 or step["outcome"] != "published":
        bad.append("exit %d outcome %s, not 0 published" % (code, step["outcome"]))
    if stickies(state) != [453]:
        bad.append("stickies left %s, not [453] (W5 converges on the newest, W2/W5 delete the other)" % stickies(state))
    puts = [e["path"].rsplit("/", 1)[1] for e in log if e["method"] == "PUT"]
    if puts != ["453"]:
        bad.append("PUTs of notes %s, not [453] (W5 writes R onto the newest)" % puts)
    if [e["path"].rsplit("/", 1)[1] for e in log if e["method"] == "DELETE"] != ["452"]:
        bad.append("the other sticky 452 was not deleted once")
    body = next((n["body"] for n in state["merge_requests"][0]["notes"] if n["id"] == 453), "")
    if "#note_454" not in body or "pending" in body.split("<!--")[0]:
        bad.append("the sticky left is not R (F1's thread posted as note 454)")
    st = statuses_of(state, HEAD)
    if not st or st[-1]["status"] != "failed" or not (st[-1]["target_url"] or "").endswith("#note_453"):
        bad.append("the last status is %s, not failed linking #note_453 (W6: the last sticky written)"
                   % ((st[-1]["status"], st[-1]["target_url"]) if st else None))
    return bad


def want_superseded_before_w4(rep, code, log, state):
    """§7.2 G before W4: the head moves after the pending status (W3):
    superseded, exit 1, no discussion posted, no tier status at all."""
    bad = []
    step = rep["steps"][0]
    if code != 1 or step["outcome"] != "superseded":
        bad.append("exit %d outcome %s, not 1 superseded" % (code, step["outcome"]))
    if writes_of(log, "POST", DISCUSSIONS):
        bad.append("a discussion was posted on a head that moved (W4)")
    for sha in (HEAD, MOVED):
        if any(s["status"] not in ("pending",) for s in statuses_of(state, sha)):
            bad.append("a tier status on %s after the head moved" % sha[:8])
    if stickies(state) != [452]:
        bad.append("stickies left %s, not [452] (S stays, no W5)" % stickies(state))
    return bad


def want_superseded_at_w5(rep, code, log, state):
    """W5: a concurrent run's sticky of another head is the newest when W5
    re-lists: superseded, exit 1, R is not written (no PUT), no final
    status, nothing deleted."""
    bad = []
    step = rep["steps"][0]
    if code != 1 or step["outcome"] != "superseded":
        bad.append("exit %d outcome %s, not 1 superseded" % (code, step["outcome"]))
    if [e for e in log if e["method"] in ("PUT", "DELETE")]:
        bad.append("W5 wrote or deleted a note although superseded")
    if any(s["status"] != "pending" for s in statuses_of(state, HEAD)):
        bad.append("a final status although superseded")
    return bad


S5 = [
    ("a concurrent same-head sticky appears between W1 and W5 (P28)",
     [{"when": NOTES, "ops": [{"op": "add_note", "author": "lfx-reviewer", "body_of_newest_by": "lfx-reviewer",
                                     "first_line": STICKY}]}],
     want_converged),
    ("the head moves after W3's pending status, before W4",
     [{"when": STATUSES, "ops": [{"op": "push", "sha": MOVED}]}],
     want_superseded_before_w4),
    ("another head's sticky appears before W5's re-list",
     [{"when": DISCUSSIONS, "ops": [{"op": "add_note", "author": "lfx-reviewer", "body_of_newest_by": "lfx-reviewer",
                                     "first_line": STICKY,
                                     "replace": [[HEAD, MOVED]]}]}],
     want_superseded_at_w5),
]

passed = failed = skipped = 0
tmp = tempfile.mkdtemp()
try:
    for f in files:
        name = os.path.basename(f)[:-5]
        if name in REPLAY_ONLY:
            skipped += 1
            continue
        snap = json.load(open(f))
        cmd = snap["command"]
        exp = f[:-5] + ".expect.json"
        pr = cmd["pr"]
        if isinstance(pr, int):
            pr = "%s!%d" % (snap["repository"], pr)
        args = [cmd["name"], "--json", "--pr", pr]
        if cmd["name"] == "publish":
            fpath = os.path.join(tmp, "findings.json")
            with open(fpath, "w") as fh:
                fi = cmd["findings"]
                fh.write(fi if isinstance(fi, str) else json.dumps(fi))
            args += ["--findings", fpath]
            if cmd.get("dry_run"):
                args.append("--dry-run")
        elif cmd.get("mode"):
            args += ["--mode", cmd["mode"]]
        ctl("POST", "/_fake/state", snap)
        ctl("POST", "/_fake/log/clear")
        env = gitlab_fake.live_env(snap, base)
        live = subprocess.run([bin_] + args, env=env, capture_output=True,
                              text=True)
        rep = subprocess.run([bin_, "replay", "--quiet", f],
                             capture_output=True, text=True)
        out = os.path.join(tmp, "out")
        err = os.path.join(tmp, "err")
        open(out, "w").write(live.stdout)
        open(err, "w").write(live.stderr)
        chk = subprocess.run([checker, exp, out, err, str(live.returncode)],
                             capture_output=True, text=True)
        problems = []
        expect = json.load(open(exp))
        if "steps" not in expect or (expect.get("exit") == 2 and not expect["steps"]):
            # The stub report of a refusal before any read (G1, G2, B7):
            # live, exit 2 and nothing written (a project other than the
            # snapshot's is the snapshot's to know: live reads a 404).
            writes = ctl("GET", "/_fake/writes") or []
            if live.returncode != 2 or writes:
                failed += 1
                print("FAIL %s: live exit %d, %d writes" % (name, live.returncode, len(writes)))
            else:
                passed += 1
            continue
        if chk.returncode != 0:
            problems.append(chk.stdout.strip())
        if live.stdout != rep.stdout:
            problems.append("live and replay reports differ")
        # P65: the same notes on stderr (the summary, warnings, errors in
        # the same words), replay without --quiet as the live run.
        loud = subprocess.run([bin_, "replay", f], capture_output=True, text=True,
                              env={k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")})
        if live.stderr != loud.stderr:
            import difflib
            problems.append("live and replay print different stderr:\n" + "\n".join(
                difflib.unified_diff(loud.stderr.splitlines(), live.stderr.splitlines(), "replay", "live", n=0, lineterm="")))
        log = ctl("GET", "/_fake/log") or []
        problems += log_problems(snap, name, log)
        state = ctl("GET", "/_fake/state")
        for mr in state.get("merge_requests", []):
            if mr.get("quick_actions"):
                problems.append("GitLab ran a quick action")
        if "Sanitizer" in live.stderr or "runtime error:" in live.stderr:
            problems.append("sanitizer report")
        if problems:
            failed += 1
            print("FAIL %s" % name)
            for p in problems:
                print("    " + p.replace("\n", "\n    ")[:1500])
            for line in live.stderr.splitlines()[:4]:
                print("    stderr: " + line)
        else:
            passed += 1

    # S5 (G18): the state changes mid-run, between two requests of the
    # program (the fake's hooks, P64); no snapshot can say so, so these
    # are live only, each checked against the rules from the report, the
    # fake's log and its end state.
    for name, hooks, want in S5:
        snap = json.load(open("fixtures/gitlab/2000-url-form-first-publish.json"))
        ctl("POST", "/_fake/state", snap)
        ctl("POST", "/_fake/log/clear")
        ctl("POST", "/_fake/hooks", hooks)
        fpath = os.path.join(tmp, "findings.json")
        json.dump(snap["command"]["findings"], open(fpath, "w"))
        env = gitlab_fake.live_env(snap, base)
        live = subprocess.run([bin_, "publish", "--json", "--pr", snap["command"]["pr"],
                               "--findings", fpath], env=env, capture_output=True, text=True)
        log = ctl("GET", "/_fake/log") or []
        state = ctl("GET", "/_fake/state")
        problems = []
        if not any(e.get("hook") for e in log):
            problems.append("the hook never fired")
        try:
            rep = json.loads(live.stdout)
        except ValueError:
            rep = None
            problems.append("no report (exit %d): %s" % (live.returncode, live.stderr[-300:]))
        if rep is not None:
            problems += want(rep, live.returncode, log, state)
        if problems:
            failed += 1
            print("FAIL S5 %s" % name)
            for p in problems:
                print("    " + p[:1500])
            for line in live.stderr.splitlines()[:4]:
                print("    stderr: " + line)
        else:
            passed += 1
finally:
    fake.terminate()
    fake.wait()
print("gitlab live: %d passed, %d failed, %d replay-only" % (passed, failed, skipped))
sys.exit(1 if failed else 0)
