/*
 * live.c - the live GitLab port: its lifetime, its requests and its reads
 * (docs/rules/gitlab.md G4-G12): GET /user first, the MR, its discussions
 * every page by x-next-page (G9), the note editors over GraphQL only when
 * a review_login note was edited (G11), the diffs, the statuses of the
 * source project (G12), the merge base (G7). What was read is kept as a
 * merge request (core/mr_model.h) and handed to the flows in the shapes
 * every platform shares (port/gitlab.h). The writes are in writes.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "gitlab/live_int.h"
#include "port/gitlab.h"

/* A path segment or query value, percent-encoded (RFC 3986 unreserved
 * bytes kept). */
void gl_enc(struct buf *out, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ||
		    c == '~')
			buf_addch(out, (char)c);
		else
			buf_addf(out, "%%%c%c", hex[c >> 4], hex[c & 15]);
	}
}

/* The message of a failed answer, in the words replay prints too
 * (P65): the GraphQL URL is named by its path, as the REST paths are
 * named without the API base. */
static void answer_error(struct gl_live *l, const char *method,
                         const char *path, const struct http_response *r,
                         struct buf *err)
{
	if (strcmp(path, l->graphql_url) == 0)
		path = "/api/graphql";
	gitlab_answer_text(err, method, path, r->status, r->body.ptr,
	                   r->body.len);
}

static int send_req(struct gl_live *l, const char *method, const char *path,
                    const char *body, struct http_response *r, struct buf *err)
{
	bool read = strcmp(method, "GET") == 0;
	struct buf why = BUF_INIT(BUF_MAX_SMALL);
	int error;

	error = http_request(l->http, method, path, body, read, r, &why);
	if (error < 0) {
		buf_setf(err, "%s", why.ptr);
		buf_release(&why);
		return read ? AA_EAPI : AA_ELOST;
	}
	buf_release(&why);
	if (r->status >= 200 && r->status < 300)
		return AA_OK;
	answer_error(l, method, path, r, err);
	if (r->status == 404)
		return AA_ENOTFOUND;
	if (r->status == 401 || r->status == 403)
		return AA_EDENIED;
	if (r->status == 400 || r->status == 422)
		return AA_EREJECTED;
	/* G3: a redirect is a failed request; a write's 5xx may have
	 * landed (G20). */
	return !read && r->status >= 500 ? AA_ELOST : AA_EAPI;
}

int gl_request(struct gl_live *l, const char *method, const char *path,
               const char *body, cJSON **root, long *status, struct buf *err)
{
	struct http_response r;
	struct buf why = BUF_INIT(BUF_MAX_SMALL);
	int error;

	http_response_init(&r);
	error = send_req(l, method, path, body, &r, err);
	*status = r.status;
	if (error == AA_OK && root &&
	    json_parse(root, r.body.ptr, r.body.len, &why) < 0) {
		buf_setf(err, "%s %s: the answer is not JSON", method, path);
		/* A write's unreadable answer: it may have landed. */
		error = strcmp(method, "GET") == 0 ? AA_EAPI : AA_ELOST;
	}
	buf_release(&why);
	http_response_release(&r);
	return error;
}

static bool has_id(const cJSON *all, int64_t id)
{
	const cJSON *it;

	cJSON_ArrayForEach(it, all)
	{
		int64_t x;

		if (json_int_value(&x,
		                   cJSON_GetObjectItemCaseSensitive(it, "id"), 0,
		                   JSON_MAX_INT) &&
		    x == id)
			return true;
	}
	return false;
}

/* Every page of a list (G9): per_page=100, page=<x-next-page>; a page
 * that is not the one asked, not an array, or past GL_MAX_PAGES fails
 * the read (never a partial list); items deduplicated by id. */
int gl_list(struct gl_live *l, const char *path, cJSON **out, struct buf *err)
{
	cJSON *all = cJSON_CreateArray();
	int64_t page = 1;
	int error = AA_OK;

	for (;;) {
		struct buf url = BUF_INIT(BUF_MAX_SMALL);
		struct buf why = BUF_INIT(BUF_MAX_SMALL);
		struct http_response r;
		cJSON *arr = NULL, *it;
		int64_t next = 0, n = 0;

		if (page > GL_MAX_PAGES) {
			buf_setf(err, "GET %s: more than %d pages", path,
			         GL_MAX_PAGES);
			error = AA_EAPI;
			break;
		}
		buf_addf(&url, "%s%cper_page=%d&page=%lld", path,
		         strchr(path, '?') ? '&' : '?', GL_PER_PAGE,
		         (long long)page);
		http_response_init(&r);
		error = send_req(l, "GET", url.ptr, NULL, &r, err);
		if (!error &&
		    (json_parse(&arr, r.body.ptr, r.body.len, &why) < 0 ||
		     !cJSON_IsArray(arr) || (r.page >= 0 && r.page != page))) {
			buf_setf(err,
			         "GET %s: page %lld is not the "
			         "page asked, or not a list",
			         path, (long long)page);
			error = AA_EAPI;
		}
		if (!error) {
			while ((it = cJSON_DetachItemFromArray(arr, 0))) {
				int64_t id = 0;

				n++;
				if (json_int_value(&id,
				        cJSON_GetObjectItemCaseSensitive(it, "id"),
				        0, JSON_MAX_INT) && has_id(all, id))
					cJSON_Delete(it);
				else
					cJSON_AddItemToArray(all, it);
			}
			if (r.next && r.next[0]) {
				char *end;

				next = strtoll(r.next, &end, 10);
				if (*end || next <= page) {
					buf_setf(err,
					         "GET %s: x-next-page "
					         "'%s' after page %lld",
					         path, r.next, (long long)page);
					error = AA_EAPI;
				}
			} else if (!r.next && n >= GL_PER_PAGE) {
				next = page + 1; /* no header: ask while full */
			}
		}
		cJSON_Delete(arr);
		http_response_release(&r);
		buf_release(&url);
		buf_release(&why);
		if (error || !next)
			break;
		page = next;
	}
	if (error == AA_ENOTFOUND)
		error = AA_EAPI;
	if (error) {
		cJSON_Delete(all);
		all = NULL;
	}
	*out = all;
	return error;
}

const char *gl_jstr(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

int64_t gl_jint(const cJSON *o, const char *key)
{
	int64_t v = 0;

	json_int_value(&v, cJSON_GetObjectItemCaseSensitive(o, key), 0,
	               JSON_MAX_INT);
	return v;
}

static bool jbool(const cJSON *o, const char *key)
{
	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, key));
}

/* GitLab's times: ISO 8601 with Z or +00:00. */
int64_t gl_jtime(const cJSON *o, const char *key)
{
	const char *s = gl_jstr(o, key);
	char t[40];
	size_t n;
	int64_t ms = 0;

	if (!s || (n = strlen(s)) >= sizeof(t))
		return 0;
	memcpy(t, s, n + 1);
	if (n > 6 && strcmp(t + n - 6, "+00:00") == 0)
		memcpy(t + n - 6, "Z", 2);
	time_parse(&ms, t);
	return ms;
}

char *gl_juser(const cJSON *o, const char *key)
{
	const cJSON *u = cJSON_GetObjectItemCaseSensitive(o, key);

	return xstrdup_or_null(gl_jstr(u, "username"));
}

static void sha_of(char out[SHA_BUF], const cJSON *o, const char *key)
{
	const char *s = gl_jstr(o, key);

	if (!s || !sha_parse(out, s, strlen(s)))
		out[0] = '\0';
}

void gl_mr_clear(struct gl_live *l)
{
	struct snap_gitlab g = {0};

	if (!l->have_mr) { /* only diffs read ahead of the MR, if any */
		for (size_t i = 0; i < l->mr.ndiffs; i++) {
			free(l->mr.diffs[i].old_path);
			free(l->mr.diffs[i].new_path);
			free(l->mr.diffs[i].diff);
		}
		free(l->mr.diffs);
		memset(&l->mr, 0, sizeof(l->mr));
		return;
	}
	/* One MR in a project of its own: snap_gitlab_free's release. */
	g.mrs = xcalloc(1, sizeof(*g.mrs));
	g.mrs[0] = l->mr;
	g.nmrs = 1;
	{
		struct snap_gitlab *p = xcalloc(1, sizeof(*p));

		*p = g;
		snap_gitlab_free(p);
	}
	memset(&l->mr, 0, sizeof(l->mr));
	l->have_mr = false;
}

/* GET the MR (G5) into l->mr. */
int gl_read_mr(struct gl_live *l, int64_t iid, struct buf *err)
{
	struct buf path = BUF_INIT(BUF_MAX_SMALL);
	struct merge_request *m = &l->mr;
	cJSON *o = NULL;
	const cJSON *refs;
	struct mr_diff *diffs = NULL;
	size_t ndiffs = 0;
	long status;
	int error;

	buf_addf(&path, "/projects/%s/merge_requests/%lld", l->project_enc,
	         (long long)iid);
	error = gl_request(l, "GET", path.ptr, NULL, &o, &status, err);
	buf_release(&path);
	if (error == AA_EDENIED)
		error = AA_ENOTFOUND; /* no access: as no such MR (G5) */
	if (error)
		return error == AA_ENOTFOUND ? AA_ENOTFOUND : AA_EAPI;
	/* The diffs read before (publish reads them first, P38) stay. */
	if (l->mr.iid == iid) {
		diffs = l->mr.diffs;
		ndiffs = l->mr.ndiffs;
		l->mr.diffs = NULL;
		l->mr.ndiffs = 0;
	}
	gl_mr_clear(l);
	l->have_mr = true;
	m->diffs = diffs;
	m->ndiffs = ndiffs;
	m->iid = iid;
	m->state = xstrdup(gl_jstr(o, "state") ? gl_jstr(o, "state") : "");
	m->draft = jbool(o, "draft");
	m->author = gl_juser(o, "author");
	m->source_branch = xstrdup(gl_jstr(o, "source_branch") ? gl_jstr(o, "source_branch") : "");
	m->target_branch = xstrdup(gl_jstr(o, "target_branch") ? gl_jstr(o, "target_branch") : "");
	m->source_project_id = gl_jint(o, "source_project_id");
	m->target_project_id = gl_jint(o, "target_project_id");
	sha_of(m->sha, o, "sha");
	m->web_url = xstrdup(gl_jstr(o, "web_url") ? gl_jstr(o, "web_url") : "");
	refs = cJSON_GetObjectItemCaseSensitive(o, "diff_refs");
	m->diff_refs_null = !cJSON_IsObject(refs);
	if (!m->diff_refs_null) {
		sha_of(m->base_sha, refs, "base_sha");
		sha_of(m->start_sha, refs, "start_sha");
		sha_of(m->head_sha, refs, "head_sha");
	}
	cJSON_Delete(o);
	if (!m->sha[0]) {
		buf_setf(err, "the merge request !%lld has no head sha",
		         (long long)iid);
		return AA_EAPI;
	}
	return AA_OK;
}

static void note_of(struct mr_note *n, const cJSON *o)
{
	const cJSON *pos = cJSON_GetObjectItemCaseSensitive(o, "position");

	n->id = gl_jint(o, "id");
	n->type = xstrdup_or_null(gl_jstr(o, "type"));
	n->author = gl_juser(o, "author");
	n->body = xstrdup(gl_jstr(o, "body") ? gl_jstr(o, "body") : "");
	n->system = jbool(o, "system");
	n->internal = jbool(o, "internal") || jbool(o, "confidential");
	n->created_at = gl_jtime(o, "created_at");
	n->updated_at = gl_jtime(o, "updated_at");
	if (cJSON_IsObject(pos)) {
		n->new_path = xstrdup_or_null(gl_jstr(pos, "new_path"));
		n->old_path = xstrdup_or_null(gl_jstr(pos, "old_path"));
		n->new_line = gl_jint(pos, "new_line");
		n->old_line = gl_jint(pos, "old_line");
	}
	sha_of(n->commit_id, o, "commit_id");
}

/* GET …/discussions, every page, into l->mr. */
int gl_read_discussions(struct gl_live *l, struct buf *err)
{
	struct buf path = BUF_INIT(BUF_MAX_SMALL);
	struct merge_request *m = &l->mr;
	cJSON *all = NULL;
	const cJSON *d;
	int error;

	buf_addf(&path, "/projects/%s/merge_requests/%lld/discussions",
	         l->project_enc, (long long)m->iid);
	error = gl_list(l, path.ptr, &all, err);
	buf_release(&path);
	if (error)
		return AA_EAPI;
	for (size_t i = 0; i < m->ndiscussions; i++)
		mr_discussion_release(&m->discussions[i]);
	free(m->discussions);
	m->discussions = xcalloc((size_t)cJSON_GetArraySize(all) + 1,
	                         sizeof(*m->discussions));
	m->ndiscussions = 0;
	cJSON_ArrayForEach(d, all)
	{
		struct mr_discussion *x = &m->discussions[m->ndiscussions];
		const cJSON *notes = cJSON_GetObjectItemCaseSensitive(d, "notes");
		const char *id = gl_jstr(d, "id");
		const cJSON *n;

		if (!cJSON_IsArray(notes) || !cJSON_GetArraySize(notes))
			continue;
		m->ndiscussions++;
		if (id && strlen(id) < sizeof(x->id))
			memcpy(x->id, id, strlen(id) + 1);
		x->individual = jbool(d, "individual_note");
		x->notes = xcalloc((size_t)cJSON_GetArraySize(notes),
		                   sizeof(*x->notes));
		cJSON_ArrayForEach(n, notes)
		{
			note_of(&x->notes[x->nnotes++], n);
		}
	}
	cJSON_Delete(all);
	return AA_OK;
}

/* --- what GitLab has no part in: never called by review-plan or
 * publish (the command layer runs only those on GitLab) --- */

static int gl_none(struct buf *err)
{
	buf_setf(err, "not available on GitLab");
	return AA_EAPI;
}

static int gl_open_pulls(struct github *gh, enum gh_listing what,
                         struct gh_pull_brief **list, size_t *n,
                         struct buf *err)
{
	(void)what;
	*list = NULL;
	*n = 0;
	(void)gh;
	return gl_none(err);
}

static int gl_commit_in_pull(struct github *gh, int64_t number, const char *sha,
                             bool *out, struct buf *err)
{
	(void)number;
	(void)sha;
	*out = false;
	(void)gh;
	return gl_none(err);
}

static int gl_label_exists(struct github *gh, int64_t pr, const char *name,
                           bool *out, struct buf *err)
{
	(void)pr;
	(void)name;
	*out = false;
	(void)gh;
	return gl_none(err);
}

static int gl_create_label(struct github *gh, int64_t pr, const char *name,
                           const char *color, const char *description,
                           struct buf *err)
{
	(void)pr;
	(void)name;
	(void)color;
	(void)description;
	(void)gh;
	return gl_none(err);
}

static int gl_add_label(struct github *gh, int64_t pr, const char *name,
                        struct buf *err)
{
	(void)pr;
	(void)name;
	(void)gh;
	return gl_none(err);
}

static int gl_approve(struct github *gh, int64_t pr, const char *commit_id,
                      const char *body, int64_t *review_id, struct buf *err)
{
	(void)pr;
	(void)commit_id;
	(void)body;
	*review_id = 0;
	/* U6: nothing is ever approved on GitLab */
	(void)gh;
	return gl_none(err);
}

static int gl_dismiss(struct github *gh, int64_t pr, int64_t review_id,
                      const char *message, struct buf *err)
{
	(void)pr;
	(void)review_id;
	(void)message;
	(void)gh;
	return gl_none(err);
}

static void gl_prefetch(struct github *gh, const int64_t *prs, size_t n)
{
	(void)gh;
	(void)prs;
	(void)n;
}

static void gl_details(struct github *gh, struct gh_pull_brief *const *list,
                       size_t n)
{
	(void)gh;
	(void)list;
	(void)n;
}

static void gl_budget(struct github *gh, int64_t *graphql, int64_t *rest)
{
	(void)gh;
	*graphql = *rest = -1;
}

static void gl_refresh(struct github *gh)
{
	(void)gh;
}

static int64_t gl_now(struct github *gh)
{
	(void)gh;
	return clock_wall_ms();
}

static void gl_free(struct github *gh)
{
	struct gl_live *l = GL(gh);

	gl_mr_clear(l);
	http_free(l->http);
	free(l->host);
	free(l->project);
	free(l->project_enc);
	free(l->graphql_url);
	free(l->viewer);
	free(l);
}

static const struct github_ops gl_ops = {
	.user = gl_user,
	.open_pulls = gl_open_pulls,
	.pull = gl_pull,
	.commit_in_pull = gl_commit_in_pull,
	.statuses = gl_statuses,
	.label_exists = gl_label_exists,
	.create_label = gl_create_label,
	.add_label = gl_add_label,
	.create_status = gl_create_status,
	.approve = gl_approve,
	.dismiss = gl_dismiss,
	.prefetch = gl_prefetch,
	.details = gl_details,
	.budget = gl_budget,
	.refresh = gl_refresh,
	.now = gl_now,
	.free = gl_free,
	.review = &gl_review_ops,
	.setup = NULL,
};

int gitlab_live_new(struct github **out, const struct gitlab_config *c,
                    const struct policy *p, struct buf *err)
{
	struct gl_live *l = xcalloc(1, sizeof(*l));
	struct http_config hc = c->http;
	struct buf enc = BUF_INIT(BUF_MAX_SMALL);

	*out = NULL;
	hc.gitlab = true;
	hc.deadline_ms = &l->gh.deadline;
	if (http_new(&l->http, &hc, err) < 0) {
		free(l);
		return AA_EUSAGE;
	}
	l->gh.ops = &gl_ops;
	l->gh.gitlab = true;
	l->policy = p;
	l->host = xstrdup(c->host);
	l->project = xstrdup(c->project);
	gl_enc(&enc, c->project);
	l->project_enc = buf_detach(&enc, NULL);
	l->graphql_url = xstrdup(c->graphql_url);
	*out = &l->gh;
	return AA_OK;
}

struct gl_live *gl_of(struct github *gh)
{
	struct github *inner = github_dryrun_inner(gh);

	if (inner)
		gh = inner;
	return gh->ops == &gl_ops ? GL(gh) : NULL;
}

void gitlab_live_write_burst(struct github *gh, int n)
{
	struct github *inner = github_dryrun_inner(gh);

	if (inner)
		gh = inner;
	if (gh->ops == &gl_ops)
		http_write_burst(GL(gh)->http, n);
}
