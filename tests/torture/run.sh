#!/usr/bin/env bash
# Error-path torture (tests/torture/README.md): every fixture × every GitHub
# call × {502, 404, timeout}, with the sanitizer build; the publishing
# fixtures (fixtures/publish/) × every call × {502, 404}, every write also
# lost and refused (422).
#   tests/torture/run.sh [torture.mjs options] [FIXTURE-PREFIX...]
# Runs the offline builds (the product's objects without the libcurl layer,
# Makefile OFFLINE_BIN): build/offline/agentic-apply and, with the
# sanitizers, build/san/offline/agentic-apply. Builds both first unless
# TORTURE_NO_BUILD is set (the Makefile target builds them itself).
# TORTURE_PLAIN=DIR / TORTURE_SAN=DIR: build into (and run) DIR/offline/agentic-apply
# instead, so that a torture never races another build of build/ or
# build/san (e.g. TORTURE_PLAIN=build/torture-plain TORTURE_SAN=build/torture-san).
set -eu
cd "$(dirname "$0")/../.."
plain=${TORTURE_PLAIN:-build}
san=${TORTURE_SAN:-build/san}
if [ -z "${TORTURE_NO_BUILD:-}" ]; then
	make -s BUILD="$plain" "$plain/offline/agentic-apply" >/dev/null
	make -s SANITIZE=address,undefined CC=clang BUILD="$san" "$san/offline/agentic-apply" >/dev/null
fi
exec node tests/torture/torture.mjs --bin "$plain/offline/agentic-apply" --san "$san/offline/agentic-apply" "$@"
