#!/usr/bin/python3
"""Drive the fake GitLab with a real GitLab client: Debian's python3-gitlab.

    /usr/bin/python3 tests/fakegitlab/client_check.py BASE_URL

Checks that the fake speaks the dialect python-gitlab expects: the current
user, MR notes over several pages (x-next-page), create/update/delete of a
note, a discussion with a JSON position, statuses listed and created, an MR's commits, the
error bodies. Prints "N passed, N failed" and exits 1 on a failure.
"""
import sys

import gitlab
import gitlab.exceptions

BASE = sys.argv[1]
PASSED = []
FAILED = []

HEAD = "7e" * 20
REFS = {"base_sha": "ba" * 20, "start_sha": "bc" * 20, "head_sha": HEAD}


def check(name, fn):
    try:
        fn()
        PASSED.append(name)
        print(f"ok - {name}")
    except Exception as e:  # noqa: BLE001 - report every failure
        FAILED.append(name)
        print(f"not ok - {name}: {type(e).__name__}: {e}")


# keep_base_url: the fake's links name a self-hosted host (G2), its API is on 127.0.0.1.
gl = gitlab.Gitlab(BASE, private_token="tok", per_page=2, keep_base_url=True)
proj = gl.projects.get("platform/backend/svc", lazy=True)


def current_user():
    gl.auth()
    assert gl.user.username == "review-bot", gl.user.username


def unauthorized():
    bad = gitlab.Gitlab(BASE, keep_base_url=True)  # no token at all
    try:
        bad.http_get("/user")
    except gitlab.exceptions.GitlabAuthenticationError as e:  # python-gitlab's class for a 401
        assert e.response_code == 401, e.response_code
        assert "401 Unauthorized" in str(e.error_message), e.error_message
        return
    raise AssertionError("no 401")


def mr_fields():
    mr = proj.mergerequests.get(7)
    assert mr.sha == HEAD
    assert mr.diff_refs == REFS, mr.diff_refs
    assert mr.web_url.startswith("https://gitlab.example.com/platform/backend/svc/-/merge_requests/7")


def notes_all_pages():
    mr = proj.mergerequests.get(7, lazy=True)
    first = mr.notes.list(per_page=2, get_all=False)
    assert len(first) == 2
    everything = mr.notes.list(get_all=True, per_page=2)
    ids = [n.id for n in everything]
    assert len(ids) == len(set(ids)) == 5, ids
    assert ids == sorted(ids, reverse=True), ids  # newest first by default
    asc = mr.notes.list(get_all=True, sort="asc", order_by="created_at")
    assert [n.id for n in asc][:3] == [501, 502, 503]
    listing = mr.notes.list(iterator=True, per_page=2)
    assert listing.total == 5 and listing.total_pages == 3, (listing.total, listing.total_pages)


def note_crud():
    mr = proj.mergerequests.get(7, lazy=True)
    note = mr.notes.create({"body": "<!-- pr-review:sticky -->\nsummary"})
    assert note.author["username"] == "review-bot"
    note.body = "<!-- pr-review:sticky -->\nsummary 2"
    note.save()
    again = mr.notes.get(note.id)
    assert again.body.endswith("summary 2")
    again.delete()
    try:
        mr.notes.get(note.id)
    except gitlab.exceptions.GitlabGetError as e:
        assert e.response_code == 404
        return
    raise AssertionError("deleted note still there")


def discussion_with_position():
    mr = proj.mergerequests.get(7, lazy=True)
    pos = dict(REFS, position_type="text", old_path="src/auth.c", new_path="src/auth.c", new_line=12)
    d = mr.discussions.create({"body": "root", "position": pos})
    first = d.attributes["notes"][0]
    assert first["type"] == "DiffNote", first["type"]
    assert first["position"]["new_line"] == 12
    bad = dict(pos, new_line=99)
    try:
        mr.discussions.create({"body": "outside", "position": bad})
    except gitlab.exceptions.GitlabCreateError as e:
        assert e.response_code == 400
        assert "must be a valid line code" in str(e.error_message), e.error_message
    else:
        raise AssertionError("a position outside the diff was accepted")
    listed = mr.discussions.list(get_all=True)
    assert any(x.id == d.id for x in listed)


def statuses():
    commit = proj.commits.get(HEAD, lazy=True)
    st = commit.statuses.create({"state": "pending", "name": "pr-review", "ref": "feature", "description": "publishing"})
    assert st.status == "pending"
    st2 = commit.statuses.create({"state": "failed", "name": "pr-review", "ref": "feature", "description": "BLOCKED"})
    assert st2.id == st.id and st2.status == "failed"
    listed = commit.statuses.list(get_all=True, all=True, name="pr-review")
    assert [s.id for s in listed][0] == st.id
    assert all(s.name == "pr-review" for s in listed)


def mr_commits():
    # record's read (P61): the MR's commits, newest first, over pages.
    mr = proj.mergerequests.get(7, lazy=True)
    ids = [c.id for c in mr.commits(get_all=True)]
    assert ids == [HEAD, "6d" * 20], ids
    assert all(len(c.short_id) == 8 for c in mr.commits(get_all=True))


def missing_mr():
    try:
        proj.mergerequests.get(99)
    except gitlab.exceptions.GitlabGetError as e:
        assert e.response_code == 404
        return
    raise AssertionError("no 404")


for name, fn in [
    ("current user", current_user),
    ("401 without a token", unauthorized),
    ("merge request fields", mr_fields),
    ("notes over pages", notes_all_pages),
    ("note create, update, delete", note_crud),
    ("discussion with a JSON position", discussion_with_position),
    ("statuses create and list", statuses),
    ("merge request commits", mr_commits),
    ("missing MR is 404", missing_mr),
]:
    check(name, fn)

print(f"python-gitlab {gitlab.__version__}: {len(PASSED)} passed, {len(FAILED)} failed")
sys.exit(1 if FAILED else 0)
