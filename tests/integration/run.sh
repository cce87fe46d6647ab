#!/bin/sh
# The live integration suite (`make test-live`): the program against fakehub,
# a fake GitHub speaking GitHub's real GraphQL schema, on loopback.
#
#   tests/integration/run.sh [node --test options or test files]
#
# Installs the pinned npm test peers (tests/peers) when node_modules is
# missing or older than package-lock.json, builds the program and the query
# printer, then runs every tests/integration/*.test.mjs with node's runner.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

command -v node >/dev/null 2>&1 || { echo "run.sh: node (20 or later) is required" >&2; exit 2; }
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] || { echo "run.sh: node 20 or later is required (found $(node --version))" >&2; exit 2; }

peers=tests/peers
"$peers/ensure.sh"

make --no-print-directory build/agentic-apply build/tests/print_queries >&2

# The suite runs a private copy of the program, so a rebuild while it runs
# (make in another shell) cannot swap the binary under a test.
mkdir -p build/integration
bin=$(mktemp build/integration/agentic-apply.XXXXXX)
trap 'rm -f "$bin"' EXIT INT TERM
cp build/agentic-apply "$bin"
chmod 755 "$bin"
AGENTIC_APPLY_BIN="$root/$bin"
export AGENTIC_APPLY_BIN

# node runs test files one at a time on a 2-core machine; two at once keeps
# it busy (much of the suite waits on held-open requests and timeouts).
if [ $# -eq 0 ]; then
	set -- tests/integration/
fi
status=0
node --test --test-concurrency="${TEST_CONCURRENCY:-2}" "$@" || status=$?
exit "$status"
