#!/bin/sh
# Run every unit test binary; cmocka prints each suite's summary. Ends with
# one line totalling the suites.
pass=0 fail=0
for t in "$@"; do
	if "$t"; then
		pass=$((pass + 1))
	else
		echo "FAIL: $t"
		fail=$((fail + 1))
	fi
done
echo "unit suites: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
