/*
 * approval.c - BEHAVIOR §6: approve only on a re-check that comes out as
 * the decision did, dismiss on any change, and never leave two approvals
 * of one head (approval.h).
 */
#include "core/approval.h"

#include <string.h>

#include "core/exit.h"
#include "core/verdict.h"

/*@ requires \valid_read(r) && \valid_read(p);
    requires valid_read_string(&r->commit_id[0]) && valid_read_string(head);
    assigns \nothing;
    ensures \result <==> TrustedApproval((struct snap_review *)r,
      (struct policy *)p) && strcmp(&r->commit_id[0], head) == 0; */
static bool trusted_of(const struct snap_review *r, const struct policy *p,
                       const char *head)
{
	return verdict_trusted_approval(r, p) &&
	       strcmp(r->commit_id, head) == 0;
}

bool approval_exists(const struct approval_eval *ev, const struct policy *p)
{
	size_t i;

	/*@ loop invariant 0 <= i <= ev->nreviews || !ev->reviews_read;
	    loop invariant ev->reviews_read ==> \forall integer k; 0 <= k < i ==>
	      !(TrustedApproval(&ev->reviews[k], (struct policy *)p) &&
		strcmp(&ev->reviews[k].commit_id[0], ev->head) == 0);
	    loop assigns i;
	    loop variant ev->nreviews - i; */
	for (i = 0; ev->reviews_read && i < ev->nreviews; i++)
		if (trusted_of(&ev->reviews[i], p, ev->head))
			return true;
	return false;
}

enum approval_recheck approval_recheck(const struct approval_eval *first,
                                       const struct approval_eval *again)
{
	/* A PR that vanishes between two reads of one run is a failed
	 * read, not "no such PR". */
	if (!again->read)
		return APPROVAL_UNREADABLE;
	if (again->skip || again->ungated)
		return APPROVAL_CHANGED;
	if (again->outcome == GATE_ERROR)
		return APPROVAL_UNREADABLE;
	if (again->outcome != GATE_APPROVE ||
	    strcmp(again->head, first->head) != 0)
		return APPROVAL_CHANGED;
	return APPROVAL_HOLDS;
}

const struct approval_eval *
approval_reviews_from(const struct approval_eval *first,
                      const struct approval_eval *again)
{
	return again->reviews_read ? again : first;
}

bool approval_unlisted(const struct approval_eval *after, int64_t mine,
                       const struct policy *p)
{
	bool listed = false;
	size_t i;

	/*@ loop invariant 0 <= i <= after->nreviews || !after->reviews_read;
	    loop invariant listed <==> after->reviews_read &&
	      \exists integer k; 0 <= k < i && after->reviews[k].id == mine &&
		TrustedApproval(&after->reviews[k], (struct policy *)p);
	    loop assigns i, listed;
	    loop variant after->nreviews - i; */
	for (i = 0; after->reviews_read && i < after->nreviews; i++)
		if (after->reviews[i].id == mine &&
		    verdict_trusted_approval(&after->reviews[i], p))
			listed = true;
	return mine && !listed;
}

int64_t approval_older(const struct approval_eval *after, int64_t mine,
                       const struct policy *p)
{
	int64_t oldest = 0;
	size_t i;

	/*@ loop invariant 0 <= i <= after->nreviews || !after->reviews_read;
	    loop invariant oldest == 0 ==> \forall integer k; 0 <= k < i ==>
	      !OlderApproval((struct approval_eval *)after, (struct policy *)p,
	                     mine, k);
	    loop invariant oldest != 0 ==> \exists integer b; 0 <= b < i &&
	      OlderApproval((struct approval_eval *)after, (struct policy *)p,
	                    mine, b) && after->reviews[b].id == oldest;
	    loop invariant oldest != 0 ==> \forall integer k; 0 <= k < i &&
	      OlderApproval((struct approval_eval *)after, (struct policy *)p,
	                    mine, k) ==> oldest <= after->reviews[k].id;
	    loop assigns i, oldest;
	    loop variant after->nreviews - i; */
	for (i = 0; after->reviews_read && i < after->nreviews; i++) {
		const struct snap_review *r = &after->reviews[i];

		if (r->id < mine && trusted_of(r, p, after->head) &&
		    (!oldest || r->id < oldest))
			oldest = r->id;
	}
	return oldest;
}

struct approval_end approval_withheld(enum gate_outcome kept, bool read_failed,
                                      int dismissed)
{
	struct approval_end end = {kept, EXIT_OK};

	if (dismissed == AA_EUSAGE) {
		end.outcome = GATE_ERROR;
		end.exit = EXIT_USAGE;
	} else if (read_failed || dismissed < 0) {
		end.outcome = GATE_ERROR;
		end.exit = EXIT_API;
	}
	return end;
}
