#!/bin/sh
# Install the pinned npm test peers when missing or older than the lock.
set -eu
cd "$(dirname "$0")"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; then
	npm ci --no-audit --no-fund --loglevel=error >&2
	touch node_modules
fi
