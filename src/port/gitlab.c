/*
 * gitlab.c - what the GitLab implementations of the port share
 * (port/gitlab.h): the notes in the shapes every platform shares (G6),
 * and a discussion's JSON position (G16).
 */
#include <stdlib.h>
#include <string.h>

#include "port/gitlab.h"

void gitlab_answer_text(struct buf *out, const char *method, const char *path,
                        long status, const char *body, size_t body_len)
{
	const char *q = strchr(path, '?');
	int n = q ? (int)(q - path) : (int)strlen(path);

	buf_setf(out, "%s %.*s: HTTP %ld", method, n, path, status);
	if (body && body_len && body_len < 300)
		buf_addf(out, " (%.*s)", (int)body_len, body);
}

void gitlab_error_body(struct buf *out, long status, bool discussion,
                       const char *message)
{
	static const struct {
		long status;
		const char *text;
	} reasons[] = {
	    {400, "400 Bad request"},       {401, "401 Unauthorized"},
	    {403, "403 Forbidden"},         {404, "404 Not found"},
	    {409, "409 Conflict"},          {422, "422 Unprocessable Entity"},
	    {429, "429 Too Many Requests"}, {500, "500 Internal Server Error"},
	    {502, "502 Bad Gateway"},       {503, "503 Service Unavailable"},
	    {504, "504 Gateway Timeout"},
	};
	struct buf num = BUF_INIT(BUF_MAX_SMALL);
	struct jw j;

	if (!message && status == 400 && discussion)
		message = "400 Bad request - Note {:line_code=>[\"can't be "
		          "blank\", \"must be a valid line code\"]}";
	for (size_t i = 0; !message && i < sizeof(reasons) / sizeof(*reasons);
	     i++)
		if (reasons[i].status == status)
			message = reasons[i].text;
	if (!message) {
		buf_addf(&num, "%ld", status);
		message = num.ptr;
	}
	jw_init(&j, out, false);
	jw_obj_begin(&j);
	jw_key_str(&j, "message", message);
	jw_obj_end(&j);
	buf_release(&num);
}

void gitlab_project_enc(struct buf *out, const char *project)
{
	for (const char *p = project; *p; p++)
		if (*p == '/')
			buf_adds(out, "%2F");
		else
			buf_addch(out, *p);
}

char *gitlab_note_url(const struct merge_request *mr, int64_t note_id)
{
	struct buf u = BUF_INIT(BUF_MAX_SMALL);

	buf_addf(&u, "%s#note_%lld", mr->web_url, (long long)note_id);
	return buf_detach(&u, NULL);
}

static bool is_diff(const struct mr_note *n)
{
	return n->type && strcmp(n->type, "DiffNote") == 0;
}

static void edited_by(const struct mr_note *n, bool *edited, char **by)
{
	*edited = n->last_edited_at != 0;
	*by = *edited ? xstrdup_or_null(n->last_edited_by) : NULL;
}

static void as_comment(struct snap_comment *c, const struct merge_request *mr,
                       const struct mr_note *n)
{
	memset(c, 0, sizeof(*c));
	c->id = n->id;
	c->author = xstrdup_or_null(n->author);
	c->created_at = n->created_at;
	c->updated_at = n->updated_at;
	c->body = xstrdup(n->body);
	c->body_len = strlen(n->body);
	edited_by(n, &c->edited, &c->edited_by);
	c->edited_at = n->last_edited_at;
	c->html_url = gitlab_note_url(mr, n->id);
}

static void as_review_comment(struct snap_review_comment *c,
                              const struct merge_request *mr,
                              const struct mr_note *n, int64_t reply_to)
{
	memset(c, 0, sizeof(*c));
	c->id = n->id;
	c->author = xstrdup_or_null(n->author);
	c->body = xstrdup(n->body);
	c->path = xstrdup(n->new_path ? n->new_path : "");
	c->line = n->new_line;
	c->side = xstrdup("RIGHT");
	memcpy(c->commit_id, n->commit_id, SHA_BUF);
	c->in_reply_to = reply_to;
	c->created_at = n->created_at;
	c->html_url = gitlab_note_url(mr, n->id);
	edited_by(n, &c->edited, &c->edited_by);
}

static int cmp_comment(const void *a, const void *b)
{
	const struct snap_comment *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static int cmp_rc(const void *a, const void *b)
{
	const struct snap_review_comment *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* The notes in the shared shapes (above), ascending id. */
int gitlab_pull_by_review(gh_review_pull_op *rp, struct github *gh,
                          int64_t number, unsigned parts, struct gh_pull *out,
                          struct buf *err)
{
	struct gh_review_pull r;
	int error = rp(gh, number,
	               (parts & PART_COMMENTS) ? RV_READ_COMMENTS : 0, &r, err);

	*out = r.pull;
	return error;
}

void gitlab_notes_out(const struct merge_request *mr, struct snap_pull *p,
                      struct snap_review_comment **rc, size_t *nrc)
{
	size_t ac = 0, ar = 0;

	for (size_t i = 0; i < mr->ndiscussions; i++) {
		const struct mr_discussion *d = &mr->discussions[i];
		const struct mr_note *first = &d->notes[0];

		for (size_t k = 0; k < d->nnotes; k++) {
			const struct mr_note *n = &d->notes[k];

			if (n->system || n->internal)
				continue;
			if (k == 0 && !is_diff(first)) {
				if (!p)
					continue;
				ALLOC_GROW(p->comments, p->ncomments + 1, ac);
				as_comment(&p->comments[p->ncomments++], mr, n);
				continue;
			}
			if (!rc)
				continue;
			ALLOC_GROW(*rc, *nrc + 1, ar);
			as_review_comment(&(*rc)[(*nrc)++], mr, n,
			                  k ? first->id : 0);
		}
	}
	if (p && p->ncomments)
		qsort(p->comments, p->ncomments, sizeof(*p->comments),
		      cmp_comment);
	if (rc && *nrc)
		qsort(*rc, *nrc, sizeof(**rc), cmp_rc);
}

/* The diff of new_path, or NULL. */
const struct mr_diff *gitlab_diff_of(const struct merge_request *mr,
                                     const char *path)
{
	for (size_t i = 0; i < mr->ndiffs; i++)
		if (strcmp(mr->diffs[i].new_path, path) == 0)
			return &mr->diffs[i];
	return NULL;
}

/* G16's JSON body of inl's discussion. */
void gitlab_discussion_json(struct jw *j, const struct merge_request *mr,
                    const struct gh_inline *inl)
{
	const struct mr_diff *d = gitlab_diff_of(mr, inl->path);
	int64_t old_line = 0;
	int kind = d && d->diff ? mr_diff_line(d->diff, inl->line, &old_line)
	                        : 0;

	jw_obj_begin(j);
	jw_key(j, "body");
	jw_str(j, inl->body);
	jw_key(j, "position");
	jw_obj_begin(j);
	jw_key(j, "position_type");
	jw_str(j, "text");
	jw_key(j, "base_sha");
	jw_str_or_null(j, mr->diff_refs_null ? NULL : mr->base_sha);
	jw_key(j, "start_sha");
	jw_str_or_null(j, mr->diff_refs_null ? NULL : mr->start_sha);
	jw_key(j, "head_sha");
	jw_str_or_null(j, mr->diff_refs_null ? NULL : mr->head_sha);
	jw_key(j, "old_path");
	jw_str(j, d ? d->old_path : inl->path);
	jw_key(j, "new_path");
	jw_str(j, inl->path);
	jw_key(j, "new_line");
	jw_int(j, inl->line);
	if (kind == MR_LINE_CONTEXT) {
		jw_key(j, "old_line");
		jw_int(j, old_line);
	}
	jw_obj_end(j);
	jw_obj_end(j);
}

/* Gitlab::Diff::File#line_for_position over what payload() sends: the
 * line whose old and new numbers both match. */
bool gitlab_position_ok(const struct merge_request *mr,
                        const struct gh_inline *inl)
{
	const struct mr_diff *d = gitlab_diff_of(mr, inl->path);
	int64_t old_line;

	if (mr->diff_refs_null || !d || !d->diff)
		return false;
	return mr_diff_line(d->diff, inl->line, &old_line) != 0;
}


int gitlab_discussion_of(const struct merge_request *mr, int64_t note_id,
                         char out[MR_DISCUSSION_ID_BUF])
{
	for (size_t i = 0; mr && i < mr->ndiscussions; i++)
		if (mr->discussions[i].nnotes &&
		    mr->discussions[i].notes[0].id == note_id) {
			memcpy(out, mr->discussions[i].id, MR_DISCUSSION_ID_BUF);
			return AA_OK;
		}
	out[0] = '\0';
	return AA_ENOTFOUND;
}
