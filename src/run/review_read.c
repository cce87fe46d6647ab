/*
 * review_read.c - the reads the pr-review flows share and the trust rules
 * applied to them (PUBLISH §1 U1-U3, U5; §6 H1, H2).
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "run/engine_int.h"
#include "run/review_int.h"

void rv_pr_release(struct rv_pr *p)
{
	gh_pull_release(&p->pull);
	for (size_t i = 0; i < p->nrc; i++)
		snap_review_comment_release(&p->rc[i]);
	free(p->rc);
	free(p->stickies);
	sticky_info_release(&p->info);
	free(p->foreign);
	free(p->rinfo);
	free(p->roots);
	memset(p, 0, sizeof(*p));
}

bool rv_edits_trusted(const struct snap_comment *c, const struct policy *pol)
{
	if (!c->edited)
		return true;
	/* An edit whose editor is unknown is never trusted (A5). */
	if (!policy_is_review_login(pol, c->edited_by))
		return false;
	for (size_t i = 0; i < c->nedits; i++)
		if (!policy_is_review_login(pol, c->edits[i].editor))
			return false;
	return true;
}

/* A sticky by kind (U1 with B1: core/kind.h is the one classifier; a
 * body over GitHub's limit is nothing this program wrote). */
static bool is_sticky(const struct snap_comment *c)
{
	return rv_codepoints(c->body, c->body_len) <= RV_BODY_LIMIT &&
	       comment_kind(PLACE_ISSUE, c->body, c->body_len) == KIND_STICKY;
}

/* U1 and U2 over the pull's comments (ascending id). */
static void find_stickies(struct engine *e, struct rv_pr *p)
{
	const struct snap_pull *pull = &p->pull.pull;
	size_t alloc = 0, aforeign = 0;

	free(p->stickies);
	free(p->foreign);
	sticky_info_release(&p->info);
	p->stickies = NULL;
	p->nstickies = 0;
	p->foreign = NULL;
	p->nforeign = 0;
	p->canonical = NULL;
	p->trusted = false;
	for (size_t i = 0; i < pull->ncomments; i++) {
		const struct snap_comment *c = &pull->comments[i];

		if (!is_sticky(c))
			continue;
		if (policy_is_review_login(e->policy, c->author)) {
			/* An array of pointers: sizeof(*stickies) is meant. */
			/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
			ALLOC_GROW(p->stickies, p->nstickies + 1, alloc);
			p->stickies[p->nstickies++] = c;
		} else {
			ALLOC_GROW(p->foreign, p->nforeign + 1, aforeign);
			p->foreign[p->nforeign++] = c->id;
		}
	}
	/* Comments come in id order from every port; sort anyway: the
	 * canonical is the newest = highest id (H2). */
	for (size_t i = 1; i < p->nstickies; i++)
		for (size_t j = i; j > 0 &&
				   p->stickies[j - 1]->id > p->stickies[j]->id;
		     j--) {
			const struct snap_comment *t = p->stickies[j];

			p->stickies[j] = p->stickies[j - 1];
			p->stickies[j - 1] = t;
		}
	if (!p->nstickies)
		return;
	p->canonical = p->stickies[p->nstickies - 1];
	sticky_parse(&p->info, p->canonical->body, p->canonical->body_len);
	p->trusted = p->info.markers_ok &&
		     rv_edits_trusted(p->canonical, e->policy);
}

/* U3 over the review comments. */
static void find_roots(struct engine *e, struct rv_pr *p)
{
	free(p->rinfo);
	free(p->roots);
	p->rinfo = xcalloc(p->nrc ? p->nrc : 1, sizeof(*p->rinfo));
	p->roots = xcalloc(p->nrc ? p->nrc : 1, sizeof(*p->roots));
	p->nroots = 0;
	for (size_t i = 0; i < p->nrc; i++) {
		const struct snap_review_comment *c = &p->rc[i];
		struct root_info *ri = &p->rinfo[p->nroots];
		struct inline_root *r = &p->roots[p->nroots];

		if (c->in_reply_to ||
		    !policy_is_review_login(e->policy, c->author))
			continue;
		/* G10: on GitLab a root last edited by another account (or
		 * by an unknown one) is no root. */
		if (e->gh->gitlab && c->edited &&
		    !policy_is_review_login(e->policy, c->edited_by))
			continue;
		root_parse(ri, c->body, strlen(c->body));
		if (!ri->is_root)
			continue;
		r->id = ri->id;
		r->slug = ri->slug;
		r->head = ri->has_head ? ri->head : NULL;
		r->comment_id = c->id;
		r->html_url = c->html_url;
		p->nroots++;
	}
}

/* Take the review comments of r into p (U3 redone). */
static void take_roots(struct engine *e, struct rv_pr *p,
		       struct gh_review_pull *r)
{
	for (size_t i = 0; i < p->nrc; i++)
		snap_review_comment_release(&p->rc[i]);
	free(p->rc);
	p->rc = r->rc;
	p->nrc = r->nrc;
	r->rc = NULL;
	r->nrc = 0;
	find_roots(e, p);
}

int rv_pr_refresh(struct engine *e, struct rv_pr *p, unsigned what,
                  struct buf *err)
{
	const struct github_review_ops *ops = e->gh->ops->review;
	unsigned want = PART_PULL, got;
	struct gh_review_pull r;
	int error;

	assert(ops); /* the flows check it first */
	if (what & RV_READ_COMMENTS)
		want |= PART_COMMENTS;
	error = ops->review_pull(e->gh, p->number, what, &r, err);
	if (error < 0) {
		gh_review_pull_release(&r);
		if (what & RV_READ_ROOTS)
			p->rc_ok = false;
		return error == AA_ENOTFOUND ? AA_ENOTFOUND : AA_EAPI;
	}
	got = r.pull.ok;
	if (got & PART_PULL)
		memcpy(p->head, r.pull.pull.head_sha, SHA_BUF);
	/* The stickies point into the comments: both change together, and
	 * only for a complete read (a first read keeps what it got, so the
	 * caller can tell which part failed). */
	if ((what & RV_READ_COMMENTS) &&
	    ((got & want) == want || !(p->pull.ok & PART_COMMENTS))) {
		gh_pull_release(&p->pull);
		p->pull = r.pull;
		memset(&r.pull, 0, sizeof(r.pull));
		find_stickies(e, p);
	}
	if (what & RV_READ_ROOTS) {
		p->rc_ok = r.rc_ok;
		if (r.rc_ok)
			take_roots(e, p, &r);
	}
	gh_review_pull_release(&r);
	return (got & want) == want ? AA_OK : AA_EAPI;
}

void rv_pr_beside(struct engine *e, int64_t pr, unsigned what)
{
	const struct github_review_ops *ops = e->gh->ops->review;

	if (ops && ops->review_pull_beside)
		ops->review_pull_beside(e->gh, pr, what);
}

int rv_pr_read(struct engine *e, int64_t pr, unsigned what, struct rv_pr *out,
               struct buf *err)
{
	memset(out, 0, sizeof(*out));
	out->number = pr;
	return rv_pr_refresh(e, out, what | RV_READ_COMMENTS, err);
}

int rv_pr_reread_comments(struct engine *e, struct rv_pr *p)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	int error = rv_pr_refresh(e, p, RV_READ_COMMENTS, &err);

	buf_release(&err);
	return error == AA_ENOTFOUND ? AA_EAPI : error;
}

int rv_pr_reread_roots(struct engine *e, struct rv_pr *p)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	int error = rv_pr_refresh(e, p, RV_READ_ROOTS, &err);

	buf_release(&err);
	return error < 0 || !p->rc_ok ? AA_EAPI : AA_OK;
}

uint32_t rv_next_id(const struct rv_pr *p, const struct review_model *m,
		    const struct review_state *prior)
{
	uint32_t *ids = xcalloc(p->nroots + 2, sizeof(*ids));
	size_t n = 0;
	uint32_t next;

	for (size_t i = 0; i < p->nroots; i++)
		ids[n++] = p->roots[i].id;
	for (size_t i = 0; prior && i < prior->nrows; i++)
		if (prior->rows[i].id > ids[n])
			ids[n] = prior->rows[i].id;
	n++;
	if (p->trusted)
		ids[n++] = p->info.rows_max_id;
	next = merge_next_id(m, prior, ids, n);
	free(ids);
	return next;
}

int rv_identity(struct engine *e, struct report_step *s)
{
	return engine_identity_is(e, s, policy_review_login(e->policy),
	                           "review login");
}

void rv_pr_url(struct buf *out, const struct engine *e, int64_t pr)
{
	buf_addf(out, "https://github.com/%s/pull/%lld",
		 e->repository ? e->repository : "", (long long)pr);
}

int rv_identity_first(struct engine *e, struct report_step *s)
{
	const char *want = policy_review_login(e->policy);
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	char *login = NULL;
	int error;

	if (!e->gh->gitlab)
		return AA_OK;
	/* G4: GET /api/v4/user before any other read; 401/403 is an
	 * identity refusal (exit 2), anything else a failed read. */
	error = e->gh->ops->user(e->gh, &login, &err);
	if (error < 0) {
		step_reason(s, "the token's identity could not be read: %s",
		            err.ptr);
		buf_release(&err);
		return error == AA_EDENIED ? AA_EUSAGE : AA_EAPI;
	}
	buf_release(&err);
	if (!str_eq_nocase(login, want)) {
		step_reason(s, "the token belongs to %s, not the review login "
			       "%s", login, want);
		free(login);
		return AA_EUSAGE;
	}
	free(login);
	engine_identity_set(e, want, ID_TRUSTED);
	return AA_OK;
}
