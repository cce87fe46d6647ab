/*
 * model.c - the model's lifetime: release, deep copies of the parts the
 * GitHub port hands out, lookups.
 */
#include "core/model.h"

#include "core/doctor.h"
#include "core/mr_model.h"

#include <stdlib.h>
#include <string.h>

void snap_comment_release(struct snap_comment *c)
{
	size_t i;

	free(c->author);
	free(c->body);
	free(c->edited_by);
	for (i = 0; i < c->nedits; i++)
		free(c->edits[i].editor);
	free(c->edits);
	free(c->html_url);
	memset(c, 0, sizeof(*c));
}

static void snap_event_release(struct snap_event *e)
{
	free(e->event);
	free(e->label);
	free(e->actor);
	memset(e, 0, sizeof(*e));
}

static void snap_thread_release(struct snap_thread *t)
{
	free(t->id);
	free(t->url);
	free(t->author);
	memset(t, 0, sizeof(*t));
}

void snap_review_release(struct snap_review *r)
{
	free(r->author);
	free(r->state);
	free(r->body);
	memset(r, 0, sizeof(*r));
}

void snap_review_comment_release(struct snap_review_comment *c)
{
	free(c->author);
	free(c->body);
	free(c->path);
	free(c->side);
	free(c->html_url);
	free(c->edited_by);
	memset(c, 0, sizeof(*c));
}

void snap_review_comment_copy(struct snap_review_comment *dst,
			      const struct snap_review_comment *src)
{
	*dst = *src;
	dst->author = xstrdup_or_null(src->author);
	dst->body = xstrdup_or_null(src->body);
	dst->path = xstrdup_or_null(src->path);
	dst->side = xstrdup_or_null(src->side);
	dst->html_url = xstrdup_or_null(src->html_url);
	dst->edited_by = xstrdup_or_null(src->edited_by);
}

void snap_file_release(struct snap_file *f)
{
	free(f->filename);
	free(f->status);
	free(f->patch);
	memset(f, 0, sizeof(*f));
}

void snap_status_release(struct snap_status *st)
{
	free(st->state);
	free(st->context);
	free(st->description);
	free(st->creator);
	free(st->target_url);
	memset(st, 0, sizeof(*st));
}

void snap_statuses_release(struct snap_statuses *st)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		snap_status_release(&st->v[i]);
	free(st->v);
	memset(st, 0, sizeof(*st));
}

void snap_pull_release(struct snap_pull *p)
{
	size_t i;

	free(p->state);
	free(p->author);
	free(p->head_ref);
	free(p->head_repo);
	free(p->base_ref);
	free(p->default_branch);
	free(p->html_url);
	strv_free(p->labels, p->nlabels);
	free(p->commits);
	for (i = 0; i < p->ncomments; i++)
		snap_comment_release(&p->comments[i]);
	free(p->comments);
	for (i = 0; i < p->ntimeline; i++)
		snap_event_release(&p->timeline[i]);
	free(p->timeline);
	for (i = 0; i < p->nthreads; i++)
		snap_thread_release(&p->threads[i]);
	free(p->threads);
	for (i = 0; i < p->nreviews; i++)
		snap_review_release(&p->reviews[i]);
	free(p->reviews);
	for (i = 0; i < p->nreview_comments; i++)
		snap_review_comment_release(&p->review_comments[i]);
	free(p->review_comments);
	for (i = 0; i < p->nfiles; i++)
		snap_file_release(&p->files[i]);
	free(p->files);
	memset(p, 0, sizeof(*p));
}

void snapshot_model_release(struct snapshot *s)
{
	size_t i;

	free(s->repository);
	free(s->viewer);
	free(s->default_branch);
	strv_free(s->config_keys, s->nconfig);
	strv_free(s->config_values, s->nconfig);
	free(s->event_name);
	free(s->event_payload);
	for (i = 0; i < s->npulls; i++)
		snap_pull_release(&s->pulls[i]);
	free(s->pulls);
	strv_free(s->labels, s->nlabels);
	for (i = 0; i < s->nstatuses; i++)
		snap_statuses_release(&s->statuses[i]);
	free(s->statuses);
	snap_setup_free(s->setup);
	snap_gitlab_free(s->gitlab);
	memset(s, 0, sizeof(*s));
}

/* --- copies --- */

static char **strv_copy(char *const *v, size_t n)
{
	char **c = xcalloc(n ? n : 1, sizeof(char *));
	size_t i;

	for (i = 0; i < n; i++)
		c[i] = xstrdup(v[i]);
	return c;
}

void snap_comment_copy(struct snap_comment *dst, const struct snap_comment *src)
{
	size_t i;

	*dst = *src;
	dst->author = xstrdup_or_null(src->author);
	dst->body = xstrndup(src->body, src->body_len);
	dst->edited_by = xstrdup_or_null(src->edited_by);
	dst->edits = NULL;
	dst->aedits = 0;
	if (src->nedits) {
		dst->edits = xcalloc(src->nedits, sizeof(*dst->edits));
		for (i = 0; i < src->nedits; i++) {
			dst->edits[i].editor =
				xstrdup_or_null(src->edits[i].editor);
			dst->edits[i].edited_at = src->edits[i].edited_at;
		}
	}
	dst->html_url = xstrdup_or_null(src->html_url);
}

static void snap_event_copy(struct snap_event *dst, const struct snap_event *src)
{
	*dst = *src;
	dst->event = xstrdup(src->event);
	dst->label = xstrdup_or_null(src->label);
	dst->actor = xstrdup_or_null(src->actor);
}

static void snap_thread_copy(struct snap_thread *dst,
			     const struct snap_thread *src)
{
	*dst = *src;
	dst->id = xstrdup(src->id);
	dst->url = xstrdup_or_null(src->url);
	dst->author = xstrdup_or_null(src->author);
}

void snap_review_copy(struct snap_review *dst, const struct snap_review *src)
{
	*dst = *src;
	dst->author = xstrdup_or_null(src->author);
	dst->state = xstrdup(src->state);
	dst->body = xstrdup_or_null(src->body);
}

void snap_status_copy(struct snap_status *dst, const struct snap_status *src)
{
	*dst = *src;
	dst->state = xstrdup(src->state);
	dst->context = xstrdup(src->context);
	dst->description = xstrdup(src->description);
	dst->creator = xstrdup_or_null(src->creator);
	dst->target_url = xstrdup_or_null(src->target_url);
}

void snap_statuses_copy(struct snap_statuses *dst,
			const struct snap_statuses *src)
{
	size_t i;

	memcpy(dst->sha, src->sha, SHA_BUF);
	dst->n = src->n;
	dst->alloc = 0;
	dst->v = xcalloc(src->n ? src->n : 1, sizeof(*dst->v));
	for (i = 0; i < src->n; i++)
		snap_status_copy(&dst->v[i], &src->v[i]);
}

/* Copy n elements of size `size` with a per-element copier. */
#define COPY_LIST(dst, dn, src, sn, copier)                                  \
	do {                                                                 \
		size_t i_;                                                   \
		(dn) = (sn);                                                 \
		(dst) = xcalloc((sn) ? (sn) : 1, sizeof(*(dst)));            \
		for (i_ = 0; i_ < (sn); i_++)                                \
			copier(&(dst)[i_], &(src)[i_]);                      \
	} while (0)

void snap_pull_copy(struct snap_pull *dst, const struct snap_pull *src,
		    unsigned parts)
{
	memset(dst, 0, sizeof(*dst));
	dst->number = src->number;
	if (parts & PART_PULL) {
		dst->state = xstrdup(src->state);
		dst->merged = src->merged;
		dst->draft = src->draft;
		dst->author = xstrdup_or_null(src->author);
		memcpy(dst->head_sha, src->head_sha, SHA_BUF);
		dst->head_ref = xstrdup(src->head_ref);
		dst->head_repo = xstrdup(src->head_repo);
		dst->base_ref = xstrdup(src->base_ref);
		dst->default_branch = xstrdup_or_null(src->default_branch);
		dst->html_url = xstrdup_or_null(src->html_url);
		memcpy(dst->base_sha, src->base_sha, SHA_BUF);
		dst->updated_at = src->updated_at;
	}
	if (parts & PART_LABELS) {
		dst->labels = strv_copy(src->labels, src->nlabels);
		dst->nlabels = src->nlabels;
	}
	if (parts & PART_COMMITS) {
		dst->ncommits = src->ncommits;
		dst->commits = xcalloc(src->ncommits ? src->ncommits : 1,
				       sizeof(*dst->commits));
		if (src->ncommits)
			memcpy(dst->commits, src->commits,
			       st_mult(src->ncommits, sizeof(*src->commits)));
	}
	if (parts & PART_COMMENTS)
		COPY_LIST(dst->comments, dst->ncomments, src->comments,
			  src->ncomments, snap_comment_copy);
	if (parts & PART_TIMELINE)
		COPY_LIST(dst->timeline, dst->ntimeline, src->timeline,
			  src->ntimeline, snap_event_copy);
	if (parts & PART_THREADS)
		COPY_LIST(dst->threads, dst->nthreads, src->threads,
			  src->nthreads, snap_thread_copy);
	if (parts & PART_REVIEWS)
		COPY_LIST(dst->reviews, dst->nreviews, src->reviews,
			  src->nreviews, snap_review_copy);
}

bool snap_pull_is_open(const struct snap_pull *p)
{
	return p->state && strcmp(p->state, "open") == 0 && !p->merged;
}

struct snap_pull *snapshot_pull(struct snapshot *s, int64_t number)
{
	size_t i;

	for (i = 0; i < s->npulls; i++)
		if (s->pulls[i].number == number)
			return &s->pulls[i];
	return NULL;
}

struct snap_statuses *snapshot_statuses(struct snapshot *s, const char *sha,
					bool create)
{
	size_t i;

	for (i = 0; i < s->nstatuses; i++)
		if (strcmp(s->statuses[i].sha, sha) == 0)
			return &s->statuses[i];
	if (!create)
		return NULL;
	ALLOC_GROW(s->statuses, s->nstatuses + 1, s->astatuses);
	memset(&s->statuses[s->nstatuses], 0, sizeof(*s->statuses));
	memcpy(s->statuses[s->nstatuses].sha, sha, SHA_BUF);
	return &s->statuses[s->nstatuses++];
}

int snapshot_apply_config(const struct snapshot *s, struct policy *p,
			  struct buf *err)
{
	size_t i;

	p->gitlab = s->gitlab != NULL; /* P62 */
	for (i = 0; i < s->nconfig; i++)
		if (policy_set(p, s->config_keys[i], s->config_values[i], err) < 0)
			return AA_EUSAGE;
	return AA_OK;
}
