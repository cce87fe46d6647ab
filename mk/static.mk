# The fully static x86_64 binary (musl), included by the Makefile.
#
#   make static        build build/static/agentic-apply (scripts/static-build:
#                      OpenSSL, curl, nghttp2, zlib and cJSON from exactly
#                      the Debian source packages dist/static-sources pins,
#                      checked by SHA-256, cached in build/static/deps; a pin
#                      that cannot be downloaded stops the build)
#   make test-static   build it, then tests/static.sh (static, no dynamic deps,
#                      same report as build/agentic-apply, verified HTTPS)

STATIC_DIR ?= build/static
STATIC_BIN := $(STATIC_DIR)/agentic-apply

.PHONY: static test-static

static:
	@STATIC_DIR=$(STATIC_DIR) scripts/static-build

# The replay comparison needs the ordinary build too.
test-static: static build/agentic-apply
	@tests/static.sh $(STATIC_BIN) build/agentic-apply
