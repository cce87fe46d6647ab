#!/bin/sh
# Install the pinned npm test peers when missing or installed from another
# lock: the one installer of tests/peers. The lock's digest is kept in
# node_modules/.lock-sha256, so that a checkout's fresh file times (a new
# clone, a git worktree) cost no reinstall; suites started side by side
# take turns (flock), so that none wipes node_modules under another.
set -eu
cd "$(dirname "$0")"
want=$(sha256sum package-lock.json | cut -d' ' -f1)
exec 9>.ensure.lock
flock 9
have=$(cat node_modules/.lock-sha256 2>/dev/null || true)
if [ ! -d node_modules ] || [ "$want" != "$have" ]; then
	echo "tests/peers: installing the test peers (npm ci)" >&2
	npm ci --no-audit --no-fund --loglevel=error >&2
	echo "$want" >node_modules/.lock-sha256
fi
