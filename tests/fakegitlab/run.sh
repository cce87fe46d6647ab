#!/bin/sh
# make test-fakegitlab: the fake GitLab's node tests, then a real GitLab
# client (Debian's python3-gitlab) against a fake started on
# test/mr.json. Prints "N passed, N failed" over both; exit 1 on a failure.
# Logs: build/test-fakegitlab.log, build/test-fakegitlab-client.log.
set -u
cd "$(dirname "$0")/../.."
mkdir -p build
PY=${FAKEGITLAB_PYTHON:-/usr/bin/python3}

node --test tests/fakegitlab/test/ >build/test-fakegitlab.log 2>&1
node_rc=$?
node_pass=$(sed -n 's/^# pass \([0-9]*\)$/\1/p' build/test-fakegitlab.log | tail -1)
node_fail=$(sed -n 's/^# fail \([0-9]*\)$/\1/p' build/test-fakegitlab.log | tail -1)
[ -n "$node_pass" ] || node_pass=0
[ -n "$node_fail" ] || node_fail=$([ $node_rc -eq 0 ] && echo 0 || echo 1)
[ $node_rc -eq 0 ] || grep -B2 -A20 '^not ok' build/test-fakegitlab.log | head -80

py_pass=0
py_fail=0
if ! "$PY" -c 'import gitlab' 2>/dev/null; then
	echo "test-fakegitlab: $PY cannot import gitlab: install Debian's python3-gitlab (apt-get install python3-gitlab)" >&2
	py_fail=1
else
	out=$(mktemp)
	node tests/fakegitlab/server.mjs --snapshot tests/fakegitlab/test/mr.json >"$out" 2>&1 &
	pid=$!
	url=
	i=0
	while [ $i -lt 50 ] && [ -z "$url" ]; do
		sleep 0.1
		url=$(head -n 1 "$out")
		i=$((i + 1))
	done
	if [ -z "$url" ]; then
		echo "test-fakegitlab: the fake did not start:" >&2
		cat "$out" >&2
		py_fail=1
	else
		"$PY" tests/fakegitlab/client_check.py "$url" >build/test-fakegitlab-client.log 2>&1
		py_pass=$(grep -c '^ok - ' build/test-fakegitlab-client.log)
		py_fail=$(grep -c '^not ok - ' build/test-fakegitlab-client.log)
		grep '^not ok - ' build/test-fakegitlab-client.log
		tail -n 1 build/test-fakegitlab-client.log | grep -q ' 0 failed$' || [ "$py_fail" -gt 0 ] || py_fail=1
	fi
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rm -f "$out"
fi

pass=$((node_pass + py_pass))
fail=$((node_fail + py_fail))
echo "test-fakegitlab: node $node_pass passed, $node_fail failed; python-gitlab $py_pass passed, $py_fail failed"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
