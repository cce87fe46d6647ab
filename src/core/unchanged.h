/*
 * unchanged.h - BEHAVIOR §7's change detection: may a sweep skip a PR as
 * unchanged since the last sweep, without reading it again?
 *
 * Pure: the listing's digest of the PR now and what the last sweep kept
 * for it go in; the decision comes out. An error is never kept (its
 * digest is stored empty), so a PR whose gate failed is always read
 * again.
 */
#ifndef AA_UNCHANGED_H
#define AA_UNCHANGED_H

#include <stdbool.h>
#include <stdint.h>

struct unchanged_input {
	const char *digest; /* the PR's digest in this listing; "" none */
	/* What the last sweep kept for the PR; kept_digest NULL: nothing. */
	const char *kept_digest;
	const char *kept_outcome; /* the report's outcome name */
	int64_t kept_at;          /* when it was evaluated (ms) */
	int64_t now;              /* the port's clock (ms) */
	int64_t ttl_ms;           /* how long an outcome holds */
};

/* Unchanged since the last sweep, and that sweep's outcome still holds? */
bool unchanged_holds(const struct unchanged_input *in);

/* The digest a sweep keeps for a PR whose gate came to `outcome` (the
 * report's name): "" for an error, so that it is read again. */
const char *unchanged_keep(const char *outcome, const char *digest);

#endif
