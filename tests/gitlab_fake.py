"""Helpers the GitLab scripts share (tests/gitlab-live.py, tests/gitlab-record.py):
the fake GitLab's control calls and a live run's environment."""
import json
import os
import urllib.request


def ctl(base, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req) as r:
        text = r.read().decode()
        return json.loads(text) if text else None


def config_env(cfg):
    env = {}
    for k, v in (cfg or {}).items():
        if isinstance(v, bool):
            v = "true" if v else "false"
        elif isinstance(v, list):
            v = ",".join(v)
        env["AGENTIC_" + k.upper()] = str(v)
    return env


def live_env(snap, base):
    """The environment of a live run against the fake at `base`."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("AGENTIC_", "GITHUB_", "GITLAB_", "INPUT_"))}
    env.update(config_env(snap.get("config")))
    env.update({"AGENTIC_GITLAB_HOST": snap["host"],
                "AGENTIC_GITLAB_API_URL": base + "/api/v4",
                "GITLAB_TOKEN": "glpat-fake", "AGENTIC_RETRY_BASE_MS": "1",
                "AGENTIC_WRITE_INTERVAL_MS": "0"})
    return env
