/*
 * publish.c - PUBLISH §7.1's refusals, §9's outcomes (B4) and §5.5's
 * status state of a tier (publish.h): a publish never reads better than
 * what it wrote, and its outcome never disagrees with its exit.
 */
#include "core/publish.h"

#include <string.h>

#include "core/exit.h"

enum publish_refusal publish_refusal(const struct publish_refusal_input *in)
{
	if (in->incremental && (!in->sticky || !in->trusted || !in->state))
		return REFUSAL_NO_TRUSTED_STATE;
	if (!in->pr_base || strcmp(in->base, in->pr_base) != 0)
		return REFUSAL_BASE;
	if (in->incremental &&
	    (!in->state_base || strcmp(in->state_base, in->pr_base) != 0))
		return REFUSAL_STATE_BASE;
	if (in->incremental && strcmp(in->sticky_sha, in->last_sha) != 0 &&
	    strcmp(in->sticky_sha, in->head) != 0)
		return REFUSAL_SUPERSEDED;
	return REFUSAL_NONE;
}

enum publish_outcome publish_agree(enum publish_outcome out, int exit)
{
	if (exit == EXIT_USAGE || exit == EXIT_API)
		return PUBLISH_ERROR;
	if (exit == EXIT_REFUSED &&
	    (out == PUBLISH_PUBLISHED || out == PUBLISH_UNCHANGED))
		return PUBLISH_PARTIAL;
	return out;
}

enum publish_outcome publish_conclude(const struct publish_tally *t, int *exit)
{
	enum publish_outcome out = PUBLISH_PUBLISHED;

	*exit = EXIT_OK;
	if (t->dropped || t->rejected || t->failed || t->status_unwritten ||
	    t->incomplete)
		out = PUBLISH_PARTIAL;
	if (t->dropped || t->rejected)
		*exit = EXIT_REFUSED; /* content: a rerun does the same */
	return out;
}

bool publish_may_post(const struct review_input *in)
{
	for (size_t i = 0; i < in->nfindings; i++) {
		const struct rv_finding *f = &in->findings[i];

		if (f->file && f->line_start > 0 && f->p <= RV_P2 &&
		    f->confidence != RV_LOW)
			return true;
	}
	return false;
}
