/*
 * unchanged.c - BEHAVIOR §7: a sweep skips a PR only when its digest is
 * the last sweep's, that sweep is younger than the TTL, and its outcome
 * was one that holds until the PR changes (unchanged.h).
 */
#include "core/unchanged.h"

#include <string.h>

/* The outcomes that hold until the PR changes: an error never does. */
static bool outcome_holds(const char *outcome)
{
	if (strcmp(outcome, "approve") != 0 &&
	    strcmp(outcome, "withhold") != 0 && strcmp(outcome, "skipped") != 0)
		return false;
	return true;
}

bool unchanged_holds(const struct unchanged_input *in)
{
	if (!in->digest[0])
		return false;
	if (!in->kept_digest || strcmp(in->kept_digest, in->digest) != 0)
		return false;
	if (in->kept_at > in->now || in->now - in->kept_at >= in->ttl_ms)
		return false; /* expired, or dated in the future: re-read */
	return outcome_holds(in->kept_outcome);
}

const char *unchanged_keep(const char *outcome, const char *digest)
{
	return strcmp(outcome, "error") == 0 ? "" : digest;
}
