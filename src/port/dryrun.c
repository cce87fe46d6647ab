/*
 * github_dryrun.c - a port that plans writes instead of making them.
 *
 * Reads go to the wrapped port; the writes planned so far are laid over
 * what they return (N18), so a gate after apply sees the planned status and
 * a dry run shows what the real run would do. Planned statuses and reviews
 * get ids above every id seen, so they are "newest" as real ones would be.
 */
#include <stdlib.h>
#include <string.h>

#include "port/port.h"
#include "base/util.h"

struct planned_label {
	int64_t pr;
	char *name;
};

struct planned_status {
	int64_t pr;
	struct snap_status st;
	char sha[SHA_BUF];
};

struct planned_review {
	int64_t pr;
	struct snap_review r;
};

struct planned_dismissal {
	int64_t pr;
	int64_t id;
};

struct dryrun {
	struct github gh;
	struct github *inner;
	char *viewer;
	struct planned_label *labels;
	size_t nlabels, alabels;
	char **repo_labels;
	size_t nrepo_labels, arepo_labels;
	struct planned_status *statuses;
	size_t nstatuses, astatuses;
	struct planned_review *reviews;
	size_t nreviews, areviews;
	struct planned_dismissal *dismissals;
	size_t ndismissals, adismissals;
	int64_t max_status_id;
	int64_t max_review_id;
};

static struct dryrun *D(struct github *gh)
{
	return (struct dryrun *)gh;
}

static int dr_user(struct github *gh, char **login, struct buf *err)
{
	struct dryrun *d = D(gh);
	int error = d->inner->ops->user(d->inner, login, err);

	if (error == AA_OK && !d->viewer)
		d->viewer = xstrdup(*login);
	return error;
}

static int dr_open_pulls(struct github *gh, enum gh_listing what,
                         struct gh_pull_brief **list, size_t *n,
                         struct buf *err)
{
	return D(gh)->inner->ops->open_pulls(D(gh)->inner, what, list, n, err);
}

static bool has_label(const struct snap_pull *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nlabels; i++)
		if (str_eq_nocase(p->labels[i], name))
			return true;
	return false;
}

static void overlay_pull(struct dryrun *d, struct gh_pull *out)
{
	struct snap_pull *p = &out->pull;
	size_t i, j, labels_alloc = 0, reviews_alloc = 0;

	if (out->ok & PART_LABELS)
		for (i = 0; i < d->nlabels; i++)
			if (d->labels[i].pr == p->number &&
			    !has_label(p, d->labels[i].name)) {
				char **slot = ALLOC_PUSH(p->labels, p->nlabels,
							 labels_alloc);

				*slot = xstrdup(d->labels[i].name);
			}
	if (!(out->ok & PART_REVIEWS))
		return;
	for (i = 0; i < p->nreviews; i++)
		if (p->reviews[i].id > d->max_review_id)
			d->max_review_id = p->reviews[i].id;
	for (i = 0; i < d->nreviews; i++)
		if (d->reviews[i].pr == p->number)
			snap_review_copy(ALLOC_PUSH(p->reviews, p->nreviews,
						    reviews_alloc),
					 &d->reviews[i].r);
	for (i = 0; i < d->ndismissals; i++)
		for (j = 0; j < p->nreviews; j++)
			if (d->dismissals[i].pr == p->number &&
			    p->reviews[j].id == d->dismissals[i].id) {
				free(p->reviews[j].state);
				p->reviews[j].state = xstrdup("DISMISSED");
			}
}

static int dr_pull(struct github *gh, int64_t number, unsigned parts,
                   struct gh_pull *out, struct buf *err)
{
	struct dryrun *d = D(gh);
	int error = d->inner->ops->pull(d->inner, number, parts, out, err);

	if (error == AA_OK)
		overlay_pull(d, out);
	return error;
}

static int dr_commit_in_pull(struct github *gh, int64_t number, const char *sha,
                             bool *out, struct buf *err)
{
	return D(gh)->inner->ops->commit_in_pull(D(gh)->inner, number, sha, out,
	                                         err);
}

static int dr_statuses(struct github *gh, int64_t pr, const char *sha,
                       unsigned need, struct snap_statuses *out,
                       struct buf *err)
{
	struct dryrun *d = D(gh);
	int error = d->inner->ops->statuses(d->inner, pr, sha, need, out, err);
	size_t i, alloc = 0; /* ALLOC_PUSH's */

	if (error < 0)
		return error;
	for (i = 0; i < out->n; i++)
		if (out->v[i].id > d->max_status_id)
			d->max_status_id = out->v[i].id;
	for (i = 0; i < d->nstatuses; i++)
		if (strcmp(d->statuses[i].sha, sha) == 0)
			snap_status_copy(ALLOC_PUSH(out->v, out->n, alloc),
					 &d->statuses[i].st);
	return AA_OK;
}

static int dr_label_exists(struct github *gh, int64_t pr, const char *name,
                           bool *out, struct buf *err)
{
	struct dryrun *d = D(gh);
	int error = d->inner->ops->label_exists(d->inner, pr, name, out, err);
	size_t i;

	for (i = 0; error == AA_OK && i < d->nrepo_labels; i++)
		if (str_eq_nocase(d->repo_labels[i], name))
			*out = true;
	return error;
}

static int dr_create_label(struct github *gh, int64_t pr, const char *name,
                           const char *color, const char *description,
                           struct buf *err)
{
	struct dryrun *d = D(gh);

	(void)err; /* planned: never fails */
	(void)pr;
	(void)color;
	(void)description;
	ALLOC_GROW(d->repo_labels, d->nrepo_labels + 1, d->arepo_labels);
	d->repo_labels[d->nrepo_labels++] = xstrdup(name);
	return AA_OK;
}

static int dr_add_label(struct github *gh, int64_t pr, const char *name,
                        struct buf *err)
{
	struct dryrun *d = D(gh);

	(void)err; /* planned: never fails */
	ALLOC_GROW(d->labels, d->nlabels + 1, d->alabels);
	d->labels[d->nlabels].pr = pr;
	d->labels[d->nlabels++].name = xstrdup(name);
	return AA_OK;
}

static const char *viewer(struct dryrun *d)
{
	return d->viewer ? d->viewer : "";
}

static int dr_create_status(struct github *gh, int64_t pr, const char *sha,
                            const char *state, const char *context,
                            const char *description, const char *target_url,
                            struct buf *err)
{
	struct dryrun *d = D(gh);
	struct planned_status *p;

	(void)err; /* planned: never fails */
	ALLOC_GROW(d->statuses, d->nstatuses + 1, d->astatuses);
	p = &d->statuses[d->nstatuses++];
	memset(p, 0, sizeof(*p));
	p->pr = pr;
	memcpy(p->sha, sha, SHA_BUF);
	p->st.id = ++d->max_status_id;
	p->st.state = xstrdup(state);
	p->st.context = xstrdup(context);
	p->st.description = xstrdup(description);
	p->st.creator = xstrdup(viewer(d));
	p->st.created_at = d->inner->ops->now(d->inner);
	p->st.target_url = xstrdup_or_null(target_url);
	return AA_OK;
}

static int dr_approve(struct github *gh, int64_t pr, const char *commit_id,
                      const char *body, int64_t *review_id, struct buf *err)
{
	struct dryrun *d = D(gh);
	struct planned_review *p;

	(void)err; /* planned: never fails */
	(void)body;
	ALLOC_GROW(d->reviews, d->nreviews + 1, d->areviews);
	p = &d->reviews[d->nreviews++];
	memset(p, 0, sizeof(*p));
	p->pr = pr;
	p->r.id = ++d->max_review_id;
	p->r.author = xstrdup(viewer(d));
	p->r.state = xstrdup("APPROVED");
	memcpy(p->r.commit_id, commit_id, SHA_BUF);
	p->r.submitted_at = d->inner->ops->now(d->inner);
	*review_id = p->r.id;
	return AA_OK;
}

static int dr_dismiss(struct github *gh, int64_t pr, int64_t review_id,
                      const char *message, struct buf *err)
{
	struct dryrun *d = D(gh);

	(void)err; /* planned: never fails */
	(void)message;
	ALLOC_GROW(d->dismissals, d->ndismissals + 1, d->adismissals);
	d->dismissals[d->ndismissals].pr = pr;
	d->dismissals[d->ndismissals++].id = review_id;
	return AA_OK;
}

static void dr_prefetch(struct github *gh, const int64_t *prs, size_t n)
{
	D(gh)->inner->ops->prefetch(D(gh)->inner, prs, n);
}

static void dr_details(struct github *gh, struct gh_pull_brief *const *list,
		       size_t n)
{
	D(gh)->inner->ops->details(D(gh)->inner, list, n);
}

static void dr_budget(struct github *gh, int64_t *graphql, int64_t *rest)
{
	D(gh)->inner->ops->budget(D(gh)->inner, graphql, rest);
}

static void dr_refresh(struct github *gh)
{
	D(gh)->inner->ops->refresh(D(gh)->inner);
}

static int64_t dr_now(struct github *gh)
{
	return D(gh)->inner->ops->now(D(gh)->inner);
}

static void dr_free(struct github *gh)
{
	struct dryrun *d = D(gh);
	size_t i;

	github_free(d->inner);
	free(d->viewer);
	for (i = 0; i < d->nlabels; i++)
		free(d->labels[i].name);
	free(d->labels);
	strv_free(d->repo_labels, d->nrepo_labels);
	for (i = 0; i < d->nstatuses; i++)
		snap_status_release(&d->statuses[i].st);
	free(d->statuses);
	for (i = 0; i < d->nreviews; i++)
		snap_review_release(&d->reviews[i].r);
	free(d->reviews);
	free(d->dismissals);
	free(d);
}

/* --- pr-review (PUBLISH §7.4): reads pass through, writes never happen
 * (the publish flow lists them as planned and makes none). --- */

static const struct github_review_ops *inner_review(struct dryrun *d,
                                                    struct buf *err)
{
	if (!d->inner->ops->review)
		buf_setf(err, "this GitHub port cannot publish");
	return d->inner->ops->review;
}

static int dr_review_pull(struct github *gh, int64_t pr, unsigned what,
                          struct gh_review_pull *out, struct buf *err)
{
	struct dryrun *d = D(gh);
	const struct github_review_ops *r = inner_review(d, err);

	memset(out, 0, sizeof(*out));
	if (!r)
		return AA_EAPI;
	return r->review_pull(d->inner, pr, what, out, err);
}

static int dr_review_comments(struct github *gh, int64_t pr,
                              struct snap_review_comment **out, size_t *n,
                              struct buf *err)
{
	struct dryrun *d = D(gh);
	const struct github_review_ops *r = inner_review(d, err);

	*out = NULL;
	*n = 0;
	if (!r)
		return AA_EAPI;
	return r->review_comments(d->inner, pr, out, n, err);
}

static int dr_files(struct github *gh, int64_t pr, struct snap_file **out,
                    size_t *n, struct buf *err)
{
	struct dryrun *d = D(gh);
	const struct github_review_ops *r = inner_review(d, err);

	*out = NULL;
	*n = 0;
	if (!r)
		return AA_EAPI;
	return r->files(d->inner, pr, out, n, err);
}

static int dr_compare(struct github *gh, int64_t pr, const char *base,
                      const char *head, struct gh_compare *out, struct buf *err)
{
	struct dryrun *d = D(gh);
	const struct github_review_ops *r = inner_review(d, err);

	if (!r)
		return AA_EAPI;
	return r->compare(d->inner, pr, base, head, out, err);
}

static int refuse_write(struct buf *err)
{
	buf_setf(err, "dry run: a pr-review write was attempted");
	return AA_EAPI;
}

static int dr_comment_create(struct github *gh, int64_t pr, const char *body,
                             int64_t *id, char **html_url, struct buf *err)
{
	(void)pr;
	(void)body;
	*id = 0;
	*html_url = NULL;
	(void)gh;
	return refuse_write(err);
}

static int dr_comment_update(struct github *gh, int64_t pr, int64_t id,
                             const char *body, struct buf *err)
{
	(void)pr;
	(void)id;
	(void)body;
	(void)gh;
	return refuse_write(err);
}

static int dr_comment_delete(struct github *gh, int64_t pr, int64_t id,
                             struct buf *err)
{
	(void)pr;
	(void)id;
	(void)gh;
	return refuse_write(err);
}

static int dr_review_post(struct github *gh, int64_t pr, const char *commit_id,
                          const char *body, const struct gh_inline *inl,
                          size_t n, struct gh_review_posted *out,
                          struct buf *err)
{
	(void)pr;
	(void)commit_id;
	(void)body;
	(void)inl;
	(void)n;
	memset(out, 0, sizeof(*out));
	(void)gh;
	return refuse_write(err);
}

static int dr_discussion_post(struct github *gh, int64_t pr,
                              const struct gh_inline *inl,
                              struct gh_discussion_posted *out, struct buf *err)
{
	(void)pr;
	(void)inl;
	memset(out, 0, sizeof(*out));
	(void)gh;
	return refuse_write(err);
}

/* GitLab: the payload and G8's check are reads of the inner port. */
static int dr_discussion_payload(struct github *gh, int64_t pr,
				 const struct gh_inline *inl, struct buf *out)
{
	const struct github_review_ops *r = D(gh)->inner->ops->review;

	/* A formatter: its only failure, an answer too large, is the
	 * caller's to tell (out). */
	if (!r || !r->discussion_payload)
		return AA_EAPI;
	return r->discussion_payload(D(gh)->inner, pr, inl, out);
}

static int dr_diff_ready(struct github *gh, int64_t pr, struct buf *err)
{
	struct dryrun *d = D(gh);
	const struct github_review_ops *r = inner_review(d, err);

	if (!r || !r->diff_ready)
		return AA_EAPI;
	return r->diff_ready(d->inner, pr, err);
}

static const struct github_review_ops dryrun_review_ops = {
	dr_review_pull,	   dr_review_comments, dr_files,
	dr_compare,	   dr_comment_create,  dr_comment_update,
	dr_comment_delete, dr_review_post,     dr_discussion_post,
	dr_discussion_payload, dr_diff_ready,      NULL,
	NULL, /* review_pull_beside: a dry run sends reads as asked */
};

static const struct github_ops dryrun_ops = {
	dr_user,	 dr_open_pulls,	   dr_pull,	  dr_commit_in_pull,
	dr_statuses,	 dr_label_exists,  dr_create_label, dr_add_label,
	dr_create_status, dr_approve,	   dr_dismiss,	  dr_prefetch,
	dr_details,	 dr_budget,	 dr_refresh,	   dr_now,	  dr_free,
	&dryrun_review_ops,
	NULL, /* doctor reads only: it never runs dry */
};

struct github *github_dryrun_inner(struct github *gh)
{
	return gh->ops == &dryrun_ops ? D(gh)->inner : NULL;
}

struct github *github_dryrun_new(struct github *inner)
{
	struct dryrun *d = xcalloc(1, sizeof(*d));

	d->gh.ops = &dryrun_ops;
	d->inner = inner;
	d->gh.gitlab = inner->gitlab;
	return &d->gh;
}
