#!/bin/sh
# Install the pinned npm test peers when missing or installed from another
# lock. The lock's digest is kept in node_modules/.lock-sha256: a checkout's
# fresh file times (a new clone, a git worktree) then cost no reinstall.
set -eu
cd "$(dirname "$0")"
want=$(sha256sum package-lock.json | cut -d' ' -f1)
have=$(cat node_modules/.lock-sha256 2>/dev/null || true)
if [ ! -d node_modules ] || [ "$want" != "$have" ]; then
	npm ci --no-audit --no-fund --loglevel=error >&2
	echo "$want" >node_modules/.lock-sha256
fi
