#!/usr/bin/env python3
"""The demo's two Markdown files, from the snapshots they come from.

    tests/demo/extract.py BIN [--check]

fixtures/demo/verdict-comment.md is the comment the verdict demo
(fixtures/000-demo.json) receives; fixtures/demo/publish-summary.md is the
summary comment replay posts for fixtures/demo/publish.json
(AGENTIC_REPLAY_STATE). make demo prints both; --check (make test-cli)
fails when either file differs from what the snapshots give today.
"""
import json
import os
import subprocess
import sys
import tempfile

def main():
    binary, check = sys.argv[1], '--check' in sys.argv[2:]
    want = {}
    with open('fixtures/000-demo.json', encoding='utf-8') as f:
        want['fixtures/demo/verdict-comment.md'] = json.load(f)['event']['payload']['comment']['body']
    with tempfile.TemporaryDirectory() as tmp:
        state = os.path.join(tmp, 'after.json')
        subprocess.run([binary, 'replay', '--quiet', 'fixtures/demo/publish.json'],
                       env={**os.environ, 'AGENTIC_REPLAY_STATE': state},
                       stdout=subprocess.DEVNULL, check=True)
        with open(state, encoding='utf-8') as f:
            pull = json.load(f)['pulls'][0]
    sticky = [c for c in pull['comments'] if c['body'].startswith('<!-- pr-review:sticky -->')]
    want['fixtures/demo/publish-summary.md'] = sticky[-1]['body']
    bad = 0
    for path, body in want.items():
        body = body.rstrip('\n') + '\n'
        if check:
            with open(path, encoding='utf-8') as f:
                if f.read() != body:
                    print(f'demo: {path} differs from its snapshot (tests/demo/extract.py BIN rewrites it)')
                    bad += 1
        else:
            with open(path, 'w', encoding='utf-8') as f:
                f.write(body)
    if check:
        print(f'demo: {len(want) - bad} passed, {bad} failed')
    return 1 if bad else 0

sys.exit(main())
