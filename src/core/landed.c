/*
 * landed.c - the lost-answer rule (BEHAVIOR §8, PUBLISH §7.2, P27, N61): a
 * write whose answer did not come back is done exactly when its effect
 * shows in a fresh read, and only an effect this program's own login could
 * have made counts — a label present, the newest status of ours saying
 * what was written, our approval of that very commit, that review
 * dismissed, our comment holding exactly the body, the comment gone, the
 * finding's root on the head. Anything else is a failed write.
 */
#include "core/landed.h"

#include <string.h>

#include "base/util.h"
#include "core/stamp.h"
#include "core/verdict.h"

bool landed_same_body(const char *have, size_t have_len, const char *want,
                      size_t want_len)
{
	size_t i = 0, j = 0, end = have_len;

	/* GitHub keeps the body minus its final LFs (and CRs before them). */
	while (end &&
	       (have[end - 1] == '\n' ||
	        (have[end - 1] == '\r' && end < have_len && have[end] == '\n')))
		end--;
	while (i < end) {
		if (have[i] == '\r' && i + 1 < have_len && have[i + 1] == '\n')
			i++; /* CRLF reads as LF */
		if (j == want_len || have[i] != want[j])
			return false;
		i++;
		j++;
	}
	return j == want_len;
}

static bool by_writer(const struct landed_write *w, const char *login,
                      const struct policy *p)
{
	return w->as_review_login ? policy_is_review_login(p, login)
	                          : policy_is_trusted(p, login);
}

static ptrdiff_t label_shows(const struct landed_write *w,
                             const struct landed_seen *s)
{
	for (size_t i = 0; i < s->nlabels; i++)
		if (str_eq_nocase(s->labels[i], w->label))
			return 0;
	return -1;
}

/* The newest status of ours in the context (of the PR, when the write
 * names one) says exactly what was written. */
static ptrdiff_t status_shows(const struct landed_write *w,
                              const struct landed_seen *s,
                              const struct policy *p)
{
	ptrdiff_t best = -1;

	for (size_t i = 0; i < s->nstatuses; i++) {
		const struct snap_status *x = &s->statuses[i];

		if (strcmp(x->context, w->context) != 0 ||
		    (w->pr && !stamp_desc_has_pr(x->description, w->pr)))
			continue;
		if (!(w->as_review_login ? policy_is_review_login(p, x->creator)
		                         : stamp_trusted(x, p)))
			continue;
		if (best < 0 || x->id > s->statuses[best].id)
			best = (ptrdiff_t)i;
	}
	if (best < 0)
		return -1;
	{
		const struct snap_status *x = &s->statuses[best];
		bool url = w->target_url
		               ? x->target_url &&
		                     strcmp(x->target_url, w->target_url) == 0
		               : !x->target_url;

		if (strcmp(x->state, w->state) != 0 ||
		    strcmp(x->description, w->description) != 0 || !url)
			return -1;
	}
	return best;
}

/* Our newest approval of that very commit. */
static ptrdiff_t approval_shows(const struct landed_write *w,
                                const struct landed_seen *s,
                                const struct policy *p)
{
	ptrdiff_t best = -1;

	for (size_t i = 0; i < s->nreviews; i++) {
		const struct snap_review *r = &s->reviews[i];

		if (!verdict_trusted_approval(r, p) ||
		    strcmp(r->commit_id, w->commit_id) != 0)
			continue;
		if (best < 0 || r->id > s->reviews[best].id)
			best = (ptrdiff_t)i;
	}
	return best;
}

static ptrdiff_t dismissal_shows(const struct landed_write *w,
                                 const struct landed_seen *s)
{
	for (size_t i = 0; i < s->nreviews; i++)
		if (s->reviews[i].id == w->id && s->reviews[i].state &&
		    strcmp(s->reviews[i].state, "DISMISSED") == 0)
			return (ptrdiff_t)i;
	return -1;
}

/* Created: a comment of ours newer than the newest known before, holding
 * the body. Patched: that comment holds the body. */
static ptrdiff_t comment_shows(const struct landed_write *w,
                               const struct landed_seen *s,
                               const struct policy *p)
{
	for (size_t i = 0; i < s->ncomments; i++) {
		const struct snap_comment *c = &s->comments[i];
		bool which = w->kind == LANDED_COMMENT_PATCH
		                 ? c->id == w->id
		                 : c->id > w->id && by_writer(w, c->author, p);

		if (which && landed_same_body(c->body, c->body_len, w->body,
		                              w->body_len))
			return (ptrdiff_t)i;
	}
	return -1;
}

static ptrdiff_t deletion_shows(const struct landed_write *w,
                                const struct landed_seen *s)
{
	for (size_t i = 0; i < s->ncomments; i++)
		if (s->comments[i].id == w->id)
			return -1;
	return 0;
}

static ptrdiff_t root_shows(const struct landed_write *w,
                            const struct landed_seen *s)
{
	const struct inline_root *r;

	if (!inline_has_root_at(w->finding, s->roots, s->nroots, w->head) ||
	    !(r = inline_root_of(w->finding, s->roots, s->nroots)))
		return -1;
	return r - s->roots;
}

ptrdiff_t landed(const struct landed_write *w, const struct landed_seen *seen,
                 const struct policy *p)
{
	switch (w->kind) {
	case LANDED_CREATE_LABEL:
	case LANDED_ADD_LABEL:
		return label_shows(w, seen);
	case LANDED_STATUS:
		return status_shows(w, seen, p);
	case LANDED_APPROVE:
		return approval_shows(w, seen, p);
	case LANDED_DISMISS:
		return dismissal_shows(w, seen);
	case LANDED_COMMENT_CREATE:
	case LANDED_COMMENT_PATCH:
		return comment_shows(w, seen, p);
	case LANDED_COMMENT_DELETE:
		return deletion_shows(w, seen);
	case LANDED_ROOT:
		return root_shows(w, seen);
	}
	return -1;
}
