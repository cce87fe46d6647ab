/*
 * port.c - helpers common to every implementation of the port.
 */
#include "port/port.h"

#include <stdlib.h>
#include <string.h>

void gh_pull_keep_error(struct gh_pull *p, const struct buf *err)
{
	if (!p->failed || p->error)
		return;
	p->error = xstrdup(err->len ? err->ptr : "unknown error");
}

void gh_pull_release(struct gh_pull *p)
{
	snap_pull_release(&p->pull);
	p->ok = p->failed = 0;
	free(p->error);
	p->error = NULL;
}

void gh_briefs_free(struct gh_pull_brief *list, size_t n)
{
	size_t i;

	for (i = 0; list && i < n; i++) {
		snap_statuses_release(&list[i].contexts);
		strv_free(list[i].approvers, list[i].napprovers);
	}
	free(list);
}

void github_set_deadline(struct github *gh, int64_t deadline_ms)
{
	for (; gh; gh = github_dryrun_inner(gh))
		gh->deadline = deadline_ms;
}

void github_free(struct github *gh)
{
	if (gh)
		gh->ops->free(gh);
}

void gh_review_posted_release(struct gh_review_posted *r)
{
	free(r->html_url);
	memset(r, 0, sizeof(*r));
}

void gh_review_pull_release(struct gh_review_pull *r)
{
	gh_pull_release(&r->pull);
	for (size_t i = 0; i < r->nrc; i++)
		snap_review_comment_release(&r->rc[i]);
	free(r->rc);
	memset(r, 0, sizeof(*r));
}
