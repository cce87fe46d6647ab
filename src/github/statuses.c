/*
 * statuses.c - a commit's statuses. REST gives the history (GraphQL has no
 * ids or history), newest first, read page after page only until core
 * says the rest can decide nothing (stamp_history_enough, §4). When what
 * the caller needs is exact from the newest status per context that came
 * with the pull, no request is made (synthesize; whether that status is
 * the clean state is core's stamp_counts_for_clean). The rules are core's:
 * this file only asks.
 *
 * Request budget: a REST history is cached per (PR, commit) and answers a
 * later read after a refresh while the newest clean and escalation
 * statuses, as GraphQL reports them in the same query as the pull, are
 * unchanged — a gate evaluation stays at one GraphQL query plus one REST
 * page.
 */
#include "github/live_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "core/stamp.h"
#include "github/http.h"

struct cache_entry *cache_find(struct live *l, int64_t pr,
			       const char *sha)
{
	size_t i;

	for (i = 0; i < l->ncache; i++)
		if (l->cache[i].pr == pr && strcmp(l->cache[i].st.sha, sha) == 0)
			return &l->cache[i];
	return NULL;
}

void cache_drop_sha(struct live *l, const char *sha)
{
	size_t i = 0;

	/* The newest status per context read with a pull is stale too. */
	if (l->contexts.valid && strcmp(l->contexts.sha, sha) == 0)
		l->contexts.valid = false;

	while (i < l->ncache) {
		if (strcmp(l->cache[i].st.sha, sha) != 0) {
			i++;
			continue;
		}
		snap_statuses_release(&l->cache[i].st);
		l->cache[i] = l->cache[--l->ncache];
	}
}

static const struct snap_status *newest_of(const struct snap_statuses *st,
					   const char *context)
{
	const struct snap_status *best = NULL;
	size_t i;

	for (i = 0; i < st->n; i++)
		if (strcmp(st->v[i].context, context) == 0 &&
		    (!best || st->v[i].id > best->id))
			best = &st->v[i];
	return best;
}

/* Both sides carry "[bot]" (dec_login puts it back): compare exactly. */
bool same_creator(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) == 0 : a == b;
}

static bool same_status(const struct snap_status *rest,
			const struct snap_status *gql)
{
	if (!rest || !gql)
		return rest == gql;
	return strcmp(rest->state, gql->state) == 0 &&
	       strcmp(rest->description, gql->description) == 0 &&
	       same_creator(rest->creator, gql->creator) &&
	       rest->created_at / 1000 == gql->created_at / 1000;
}

/*
 * Is the cached history still current? Only when the newest status of the
 * clean and escalation contexts, as the pull bundle just read them, is the
 * newest of the same context in the cache. A newer status in either context
 * (another round, a forged status, another PR's verdict) shows up there.
 */
static bool cache_current(struct live *l, const struct cache_entry *c)
{
	const char *ctx[2];
	size_t i;

	ctx[0] = l->policy->clean_context;
	ctx[1] = l->policy->escalation_context;
	if (!l->contexts.valid || l->contexts.pr != c->pr ||
	    strcmp(l->contexts.sha, c->st.sha) != 0)
		return false;
	for (i = 0; i < ARRAY_SIZE(ctx); i++)
		if (!same_status(newest_of(&c->st, ctx[i]),
				 newest_of(&l->contexts.newest, ctx[i])))
			return false;
	return true;
}

struct history_page {
	struct live *l;
	int64_t pr;
	unsigned need;
	struct snap_statuses *out;
	size_t alloc; /* ALLOC_PUSH's, for out->v */
};

/* One page of the history: every status, then stop once what has been
 * read holds the newest trusted round of the PR (stamp_history_enough). */
static int history_page(const cJSON *root, void *ctx, struct buf *err)
{
	struct history_page *h = ctx;
	const cJSON *item;

	if (!cJSON_IsArray(root)) {
		buf_setf(err, "expected an array");
		return AA_ERR;
	}
	cJSON_ArrayForEach (item, root) {
		if (dec_status(ALLOC_PUSH(h->out->v, h->out->n, h->alloc),
			     item, err) < 0)
			return AA_ERR;
	}
	if (!(h->need & STATUS_NEED_HISTORY) &&
	    stamp_history_enough(h->out, h->l->policy, h->pr))
		return REST_STOP;
	return REST_MORE;
}

/*
 * GET the status history of `sha`, newest first, page after page until
 * what has been read holds the newest trusted round of PR `pr`, so nothing
 * older can decide (stamp_history_enough, §4), or the list ends.
 */
int fetch_statuses(struct live *l, int64_t pr, const char *sha, unsigned need,
                   struct snap_statuses *out, struct buf *err)
{
	struct buf path = BUF_INIT(BUF_MAX_SMALL),
	           what = BUF_INIT(BUF_MAX_SMALL);
	struct history_page h = {l, pr, need, out, 0};
	int error;

	memset(out, 0, sizeof(*out));
	memcpy(out->sha, sha, SHA_BUF);
	out->v = xcalloc(1, sizeof(*out->v));
	buf_addf(&path, "/repos/%s/%s/commits/%s/statuses?per_page=100",
		 l->owner, l->name, sha);
	buf_addf(&what, "statuses of %.7s", sha);
	error = rest_pages(l, path.ptr, what.ptr, LIVE_MAX_PAGES, history_page,
	                   &h, err);
	buf_release(&path);
	buf_release(&what);
	if (error) {
		snap_statuses_release(out);
		return AA_EAPI;
	}
	return AA_OK;
}

/*
 * Answer from GraphQL's newest status per context alone, when that is
 * exact for what the caller needs (§4): the newest clean-context status is
 * the newest trusted pr=#N one when it counts for the clean state itself
 * (stamp_counts_for_clean: trusted, for PR N), or there is none at all;
 * and with no escalation-context status at all there is no skip marker,
 * so the round it would have to beat does not matter.
 * The round itself is compared by id (R4), which only REST has. Anything
 * less certain goes to the REST history.
 */
static bool synthesize(struct live *l, int64_t pr, const char *sha,
		       unsigned need, struct snap_statuses *out)
{
	const struct snap_status *clean, *esc, *review;
	bool ours;

	if (!l->contexts.valid || strcmp(l->contexts.sha, sha) != 0)
		return false;
	clean = newest_of(&l->contexts.newest, l->policy->clean_context);
	esc = newest_of(&l->contexts.newest, l->policy->escalation_context);
	review = newest_of(&l->contexts.newest, l->policy->review_context);
	ours = stamp_counts_for_clean(clean, l->policy, pr);
	if ((need & STATUS_NEED_CLEAN) && clean && !ours)
		return false;
	if (need & (STATUS_NEED_ROUND | STATUS_NEED_IDS | STATUS_NEED_HISTORY))
		return false; /* R4 compares the round's id: REST has ids */
	if ((need & STATUS_NEED_SKIP) && esc)
		return false;
	/* PUBLISH U4: the newest review-context status is the newest of
	 * review_login only when review_login wrote it (or there is none). */
	if ((need & STATUS_NEED_REVIEW) && review &&
	    !policy_is_review_login(l->policy, review->creator))
		return false;
	memset(out, 0, sizeof(*out));
	memcpy(out->sha, sha, SHA_BUF);
	out->v = xcalloc(2, sizeof(*out->v));
	/* GraphQL has no ids: 1, 2 (distinct contexts never compare). */
	if (clean && need != STATUS_NEED_REVIEW) {
		snap_status_copy(&out->v[out->n], clean);
		out->v[out->n].id = (int64_t)out->n + 1;
		out->n++;
	}
	if (review && (need & STATUS_NEED_REVIEW)) {
		snap_status_copy(&out->v[out->n], review);
		out->v[out->n].id = (int64_t)out->n + 1;
		out->n++;
	}
	return true;
}

int live_statuses(struct github *gh, int64_t pr, const char *sha, unsigned need,
                  struct snap_statuses *out, struct buf *err)
{
	struct live *l = L(gh);
	struct cache_entry *c = cache_find(l, pr, sha);
	int error;

	if (synthesize(l, pr, sha, need, out))
		return AA_OK;
	if (c && cache_current(l, c) &&
	    (c->whole || !(need & STATUS_NEED_HISTORY))) {
		snap_statuses_copy(out, &c->st);
		return AA_OK;
	}
	if ((error = fetch_statuses(l, pr, sha, need, out, err)) < 0)
		return error;
	if (!c) {
		ALLOC_GROW(l->cache, l->ncache + 1, l->acache);
		c = &l->cache[l->ncache++];
		c->pr = pr;
	} else {
		snap_statuses_release(&c->st);
	}
	snap_statuses_copy(&c->st, out);
	c->whole = (need & STATUS_NEED_HISTORY) != 0;
	return AA_OK;
}
