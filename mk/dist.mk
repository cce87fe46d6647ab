# The release files, included by the Makefile after mk/static.mk.
#
#   make dist        build/dist/agentic-apply-linux-x86_64: the static binary
#                    of scripts/static-build, built with a fixed locale and
#                    build date; build/dist/SHA256SUMS, the release's checksum
#                    file; build/dist/SOURCES, the exact source packages
#                    it was built from (dist/static-sources, printed too);
#                    build/dist/ledger-line, its line for
#                    dist/SHA256SUMS (docs/actions.md, Releasing). The same
#                    sources and libraries give the same bytes in any
#                    directory (make test-dist).
#   make test-dist   make dist twice, in two copies of the tree in other
#                    directories, on the libraries make static cached; the
#                    bytes must be equal (tests/make/dist.sh)

DIST_DIR := build/dist
DIST_ASSET := agentic-apply-linux-x86_64
# ci.yml and release.yml set the same date (OpenSSL writes its build date
# into its library); a date from the environment wins.
SOURCE_DATE_EPOCH ?= 1704067200

.PHONY: dist test-dist

# The program's objects are linked in the order of a glob: LC_ALL=C makes
# it the same everywhere.
dist:
	@LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) STATIC_DIR=$(STATIC_DIR) scripts/static-build
	@rm -rf $(DIST_DIR)
	@mkdir -p $(DIST_DIR)
	@cp $(STATIC_BIN) $(DIST_DIR)/$(DIST_ASSET)
	@cd $(DIST_DIR) && sha256sum $(DIST_ASSET) >SHA256SUMS
	@sh dist/checksum line $(VERSION) $(DIST_DIR)/$(DIST_ASSET) >$(DIST_DIR)/ledger-line
	@cp $(STATIC_DIR)/sources $(DIST_DIR)/SOURCES
	@echo "dist: built from these Debian source packages (dist/static-sources; PACKAGE VERSION SHA256-OF-.dsc), in $(DIST_DIR)/SOURCES:"
	@sed 's/^/  /' $(DIST_DIR)/SOURCES
	@echo "dist: $(DIST_DIR)/$(DIST_ASSET), $(DIST_DIR)/SHA256SUMS; its line for dist/SHA256SUMS:"
	@cat $(DIST_DIR)/ledger-line

# make static first: the copies reuse the libraries it cached.
test-dist: static
	@tests/make/dist.sh
