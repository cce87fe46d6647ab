/*
 * world_review.c - the in-memory port's pr-review reads and writes
 * (PUBLISH.md §8): review comments, files, compare over the snapshot's
 * commit chains, and issue comments and COMMENT reviews written the way
 * GitHub writes them (new ids are the highest of their kind + 1; a line
 * comment outside the diff is refused with 422 and nothing is created).
 */
#include <stdlib.h>
#include <string.h>

#include "core/diff.h"
#include "core/review.h"
#include "port/world_int.h"

#define HOST "https://github.com/"

static int read_fault(struct world *w, enum gh_read kind, int64_t pr,
                      struct buf *err)
{
	return world_fault(w, FAULT_READ, (int)kind, pr, NULL, 0, NULL, err);
}

static struct snap_pull *find_pull(struct world *w, int64_t pr, struct buf *err)
{
	struct snap_pull *p = snapshot_pull(w->s, pr);

	if (!p)
		buf_setf(err, "PR #%lld not found", (long long)pr);
	return p;
}

static int cmp_review_comment(const void *a, const void *b)
{
	const struct snap_review_comment *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* A read of PR pr's `kind`: the fault first, then the pull (*p). */
static int pull_read(struct snap_pull **p, struct github *gh, enum gh_read kind,
                     int64_t pr, struct buf *err)
{
	struct world *w = W(gh);
	int error;

	if ((error = read_fault(w, kind, pr, err)) < 0)
		return error;
	return (*p = find_pull(w, pr, err)) ? AA_OK : AA_ENOTFOUND;
}

static int wr_review_comments(struct github *gh, int64_t pr,
                              struct snap_review_comment **out, size_t *n,
                              struct buf *err)
{
	struct snap_pull *p;
	int error;

	*out = NULL;
	*n = 0;
	if ((error = pull_read(&p, gh, READ_REVIEW_COMMENTS, pr, err)) < 0)
		return error;
	*out = xcalloc(p->nreview_comments ? p->nreview_comments : 1,
		       sizeof(**out));
	for (size_t i = 0; i < p->nreview_comments; i++)
		snap_review_comment_copy(&(*out)[i], &p->review_comments[i]);
	*n = p->nreview_comments;
	qsort(*out, *n, sizeof(**out), cmp_review_comment);
	return AA_OK;
}

static int wr_files(struct github *gh, int64_t pr, struct snap_file **out,
                    size_t *n, struct buf *err)
{
	struct snap_pull *p;
	int error;

	*out = NULL;
	*n = 0;
	if ((error = pull_read(&p, gh, READ_FILES, pr, err)) < 0)
		return error;
	*out = xcalloc(p->nfiles ? p->nfiles : 1, sizeof(**out));
	for (size_t i = 0; i < p->nfiles; i++) {
		(*out)[i].filename = xstrdup(p->files[i].filename);
		(*out)[i].status = xstrdup(p->files[i].status);
		(*out)[i].patch = xstrdup_or_null(p->files[i].patch);
	}
	*n = p->nfiles;
	return AA_OK;
}

/* The position of sha in p's chain (commits, then the head), or -1. */
static long chain_index(const struct snap_pull *p, const char *sha)
{
	for (size_t i = 0; i < p->ncommits; i++)
		if (strcmp(p->commits[i], sha) == 0)
			return (long)i;
	if (strcmp(p->head_sha, sha) == 0)
		return (long)p->ncommits;
	return -1;
}

/* Is sha a commit GitHub knows of: in any chain, a status's commit, a
 * review's or a review comment's? */
static bool commit_known(const struct snapshot *s, const char *sha)
{
	for (size_t i = 0; i < s->nstatuses; i++)
		if (strcmp(s->statuses[i].sha, sha) == 0)
			return true;
	for (size_t i = 0; i < s->npulls; i++) {
		const struct snap_pull *p = &s->pulls[i];

		if (chain_index(p, sha) >= 0 || strcmp(p->base_sha, sha) == 0)
			return true;
		for (size_t j = 0; j < p->nreviews; j++)
			if (strcmp(p->reviews[j].commit_id, sha) == 0)
				return true;
		for (size_t j = 0; j < p->nreview_comments; j++)
			if (strcmp(p->review_comments[j].commit_id, sha) == 0)
				return true;
	}
	return false;
}

/*
 * compare over the PR's chain: the base branch (by name or base.sha) is
 * every chain's ancestor; two commits of the chain are ahead, identical or
 * behind by position; a commit known only from elsewhere has diverged; an
 * unknown one is a 404.
 */
static int wr_compare(struct github *gh, int64_t pr, const char *base,
                      const char *head, struct gh_compare *out, struct buf *err)
{
	struct world *w = W(gh);
	struct snap_pull *p;
	long bi, hi;
	int error;

	memset(out, 0, sizeof(*out));
	if ((error = read_fault(w, READ_COMPARE, pr, err)) < 0 ||
	    (error = read_fault(w, READ_COMMITS, pr, err)) < 0)
		return error;
	if (!(p = find_pull(w, pr, err)))
		return AA_ENOTFOUND;
	hi = chain_index(p, head);
	if (strcmp(base, p->base_ref) == 0 ||
	    (p->base_sha[0] && strcmp(base, p->base_sha) == 0)) {
		if (hi < 0)
			goto unknown;
		out->status = CMP_AHEAD;
		memcpy(out->merge_base, p->base_sha, SHA_BUF);
		return AA_OK;
	}
	bi = chain_index(p, base);
	if (hi >= 0 && bi >= 0) {
		out->status = bi < hi	 ? CMP_AHEAD
			      : bi == hi ? CMP_IDENTICAL
					 : CMP_BEHIND;
		memcpy(out->merge_base, bi < hi ? base : head, SHA_BUF);
		return AA_OK;
	}
	if (commit_known(w->s, base) && commit_known(w->s, head)) {
		out->status = CMP_DIVERGED;
		memcpy(out->merge_base, p->base_sha, SHA_BUF);
		return AA_OK;
	}
unknown:
	buf_setf(err, "compare %.7s...%.7s: HTTP 404", base, head);
	return AA_ENOTFOUND;
}

/* What a new id is numbered after: the largest of its kind. */
enum id_kind { ID_COMMENT, ID_REVIEW, ID_REVIEW_COMMENT };

static int64_t max_id(const struct snapshot *s, enum id_kind k)
{
	int64_t max = 0, id;

	for (size_t i = 0; i < s->npulls; i++) {
		const struct snap_pull *p = &s->pulls[i];
		size_t n = k == ID_COMMENT  ? p->ncomments
			   : k == ID_REVIEW ? p->nreviews
					    : p->nreview_comments;

		for (size_t j = 0; j < n; j++) {
			id = k == ID_COMMENT  ? p->comments[j].id
			     : k == ID_REVIEW ? p->reviews[j].id
					      : p->review_comments[j].id;
			if (id > max)
				max = id;
		}
	}
	return max;
}

/* The comment `id` of PR pr (its pull in *pp), or NULL. */
static struct snap_comment *find_comment(struct world *w, int64_t pr,
                                         int64_t id, struct snap_pull **pp,
                                         struct buf *err)
{
	struct snap_pull *p = snapshot_pull(w->s, pr);

	*pp = p;
	for (size_t i = 0; p && i < p->ncomments; i++)
		if (p->comments[i].id == id)
			return &p->comments[i];
	buf_setf(err, "comment %lld of PR #%lld: HTTP 404", (long long)id,
	         (long long)pr);
	return NULL;
}

static bool body_fits(const char *body, struct buf *err)
{
	if (rv_codepoints(body, strlen(body)) <= RV_BODY_LIMIT)
		return true;
	buf_setf(err,
	         "HTTP 422: body is too long (maximum is %d "
	         "characters)",
	         RV_BODY_LIMIT);
	return false;
}

/* A pr-review write's start: its fault, if the snapshot plants one
 * (world_fault's codes; *lost: applied, then its answer lost). */
static int write_fault(struct github *gh, enum gh_write kind, int64_t pr,
                       int64_t comment_id, bool *lost, struct buf *err)
{
	return world_fault(W(gh), FAULT_WRITE, kind, pr, NULL, comment_id, lost,
	                   err);
}

/* A new comment's or review's start: its fault, its pull (*p), its body
 * within GitHub's limit. */
static int write_start(struct github *gh, enum gh_write kind, int64_t pr,
                       const char *body, bool *lost, struct snap_pull **p,
                       struct buf *err)
{
	int error = write_fault(gh, kind, pr, 0, lost, err);

	if (error < 0)
		return error;
	if (!(*p = find_pull(W(gh), pr, err)))
		return AA_ENOTFOUND;
	return body_fits(body, err) ? AA_OK : AA_EREJECTED;
}

static int wr_comment_create(struct github *gh, int64_t pr, const char *body,
                             int64_t *id, char **html_url, struct buf *err)
{
	struct world *w = W(gh);
	struct snap_pull *p;
	struct snap_comment *c;
	bool lost = false;
	int error;

	*id = 0;
	*html_url = NULL;
	if ((error = write_start(gh, WRITE_COMMENT, pr, body, &lost, &p, err)) <
	    0)
		return error;
	ALLOC_GROW(p->comments, p->ncomments + 1, p->acomments);
	c = &p->comments[p->ncomments++];
	memset(c, 0, sizeof(*c));
	c->id = max_id(w->s, ID_COMMENT) + 1;
	c->author = xstrdup(world_viewer(w));
	c->created_at = c->updated_at = w->now;
	c->body = xstrdup(body);
	c->body_len = strlen(body);
	{
		struct buf url = BUF_INIT(BUF_MAX_SMALL);

		buf_addf(&url, HOST "%s/pull/%lld#issuecomment-%lld",
			 w->s->repository, (long long)pr, (long long)c->id);
		c->html_url = buf_detach(&url, NULL);
	}
	if (lost)
		return AA_ELOST;
	*id = c->id;
	*html_url = xstrdup(c->html_url);
	return AA_OK;
}

static int wr_comment_update(struct github *gh, int64_t pr, int64_t id,
                             const char *body, struct buf *err)
{
	struct world *w = W(gh);
	struct snap_pull *p;
	struct snap_comment *c;
	bool lost = false;
	int error;

	if ((error = write_fault(gh, WRITE_COMMENT, pr, id, &lost, err)) < 0)
		return error;
	if (!(c = find_comment(w, pr, id, &p, err)))
		return AA_ENOTFOUND;
	if (!body_fits(body, err))
		return AA_EREJECTED;
	free(c->body);
	c->body = xstrdup(body);
	c->body_len = strlen(body);
	/* GitHub records the edit: the editor and a history entry (A5). */
	free(c->edited_by);
	c->edited_by = xstrdup(world_viewer(w));
	c->edited = true;
	c->edited_at = c->updated_at = w->now;
	ALLOC_GROW(c->edits, c->nedits + 1, c->aedits);
	c->edits[c->nedits].editor = xstrdup(world_viewer(w));
	c->edits[c->nedits++].edited_at = w->now;
	return lost ? AA_ELOST : AA_OK;
}

static int wr_comment_delete(struct github *gh, int64_t pr, int64_t id,
                             struct buf *err)
{
	struct world *w = W(gh);
	struct snap_pull *p;
	struct snap_comment *c;
	bool lost = false;
	size_t i;
	int error;

	if ((error =
	         write_fault(gh, WRITE_COMMENT_DELETE, pr, id, &lost, err)) < 0)
		return error;
	if (!(c = find_comment(w, pr, id, &p, err)))
		return AA_ENOTFOUND;
	i = (size_t)(c - p->comments);
	snap_comment_release(c);
	memmove(c, c + 1, (p->ncomments - i - 1) * sizeof(*c));
	p->ncomments--;
	return lost ? AA_ELOST : AA_OK;
}

/* May a line comment sit on (start_line..)line of path, side RIGHT? Only
 * on the right-side lines of one hunk of the file's patch. */
static bool anchor_ok(const struct snap_pull *p, const struct gh_inline *c)
{
	for (size_t i = 0; i < p->nfiles; i++) {
		struct diff_hunks h;
		struct buf err = BUF_INIT(BUF_MAX_SMALL);
		bool ok = false;
		int hunk;

		if (strcmp(p->files[i].filename, c->path) != 0 ||
		    !p->files[i].patch)
			continue;
		if (diff_parse(&h, p->files[i].patch,
			       strlen(p->files[i].patch), &err) == AA_OK) {
			hunk = diff_hunk_of(&h, c->line);
			ok = hunk >= 0 &&
			     (!c->start_line ||
			      (c->start_line < c->line &&
			       diff_hunk_of(&h, c->start_line) == hunk));
			diff_hunks_release(&h);
		}
		buf_release(&err);
		return ok;
	}
	return false;
}

static char *urlf(const struct world *w, int64_t pr, const char *frag,
		  int64_t id)
{
	struct buf url = BUF_INIT(BUF_MAX_SMALL);

	buf_addf(&url, HOST "%s/pull/%lld#%s%lld", w->s->repository,
		 (long long)pr, frag, (long long)id);
	return buf_detach(&url, NULL);
}

static int wr_review_post(struct github *gh, int64_t pr, const char *commit_id,
                          const char *body, const struct gh_inline *inl,
                          size_t n, struct gh_review_posted *out,
                          struct buf *err)
{
	struct world *w = W(gh);
	struct snap_pull *p;
	struct snap_review *r;
	int64_t next;
	bool lost = false;
	int error;

	memset(out, 0, sizeof(*out));
	if ((error = write_start(gh, WRITE_REVIEW, pr, body, &lost, &p, err)) <
	    0)
		return error;
	for (size_t i = 0; i < n; i++) {
		if (!body_fits(inl[i].body, err))
			return AA_EREJECTED;
		if (!anchor_ok(p, &inl[i])) {
			buf_setf(err,
			         "HTTP 422: Line could not be "
			         "resolved (%s:%lld)",
			         inl[i].path, (long long)inl[i].line);
			return AA_EREJECTED;
		}
	}
	ALLOC_GROW(p->reviews, p->nreviews + 1, p->areviews);
	r = &p->reviews[p->nreviews++];
	memset(r, 0, sizeof(*r));
	r->id = max_id(w->s, ID_REVIEW) + 1;
	r->author = xstrdup(world_viewer(w));
	r->state = xstrdup("COMMENTED");
	r->body = xstrdup(body);
	memcpy(r->commit_id, commit_id, SHA_BUF);
	r->submitted_at = w->now;

	next = max_id(w->s, ID_REVIEW_COMMENT) + 1;
	ALLOC_GROW(p->review_comments, st_add(p->nreview_comments, n) + 1,
		   p->areview_comments);
	for (size_t i = 0; i < n; i++) {
		struct snap_review_comment *c =
			&p->review_comments[p->nreview_comments++];

		memset(c, 0, sizeof(*c));
		c->id = next++;
		c->author = xstrdup(world_viewer(w));
		c->body = xstrdup(inl[i].body);
		c->path = xstrdup(inl[i].path);
		c->line = inl[i].line;
		c->start_line = inl[i].start_line;
		c->side = xstrdup("RIGHT");
		memcpy(c->commit_id, commit_id, SHA_BUF);
		c->review_id = r->id;
		c->created_at = w->now;
		c->html_url = urlf(w, pr, "discussion_r", c->id);
	}
	out->review_id = r->id;
	out->html_url = urlf(w, pr, "pullrequestreview-", r->id);
	if (lost) {
		gh_review_posted_release(out);
		return AA_ELOST;
	}
	return AA_OK;
}

/*
 * review_pull over the snapshot: the parts one by one, each with its own
 * fault, as the live port reads them when its one query fails. The viewer
 * read with it (a `user` fault that lets it pass) answers the next user().
 */
static int wr_review_pull(struct github *gh, int64_t pr, unsigned what,
                          struct gh_review_pull *out, struct buf *err)
{
	struct world *w = W(gh);
	unsigned parts = PART_PULL;
	int error;

	memset(out, 0, sizeof(*out));
	if (what & RV_READ_COMMENTS)
		parts |= PART_COMMENTS;
	if (what & RV_READ_COMMITS)
		parts |= PART_COMMITS;
	error = w->gh.ops->pull(gh, pr, parts | PART_FRESH, &out->pull, err);
	if (error < 0)
		return error;
	if (what & RV_READ_ROOTS)
		out->rc_ok = wr_review_comments(gh, pr, &out->rc, &out->nrc,
		                                err) == AA_OK;
	if ((what & RV_READ_VIEWER) && !w->viewer_read &&
	    world_fault(w, FAULT_READ, READ_USER, 0, NULL, 0, NULL, err) ==
	        AA_OK)
		w->viewer_read = true;
	return AA_OK;
}

const struct github_review_ops world_review_ops = {
    .review_pull = wr_review_pull,
    .review_comments = wr_review_comments,
    .files = wr_files,
    .compare = wr_compare,
    .comment_create = wr_comment_create,
    .comment_update = wr_comment_update,
    .comment_delete = wr_comment_delete,
    .review_post = wr_review_post,
};
