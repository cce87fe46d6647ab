#!/usr/bin/env bash
# Error-path torture (tests/torture/README.md): every fixture × every GitHub
# call × {502, 404, timeout}, with the sanitizer build.
#   tests/torture/run.sh [torture.mjs options] [FIXTURE-PREFIX...]
# Builds build/agentic-apply and build/san/agentic-apply first unless
# TORTURE_NO_BUILD is set (the Makefile target builds them itself).
set -eu
cd "$(dirname "$0")/../.."
if [ -z "${TORTURE_NO_BUILD:-}" ]; then
	make -s all >/dev/null
	make -s SANITIZE=address,undefined CC=clang build/san/agentic-apply >/dev/null
fi
exec node tests/torture/torture.mjs "$@"
