/*
 * sweepstate.c - the per-PR digests a sweep compares across runs, and the
 * JSON file that carries them from one sweep to the next.
 */
#include "formats/sweepstate.h"

#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/util.h"

/* Entries kept per repository (far above any repository's open PRs). */
#define SWEEPSTATE_MAX_ENTRIES 100000

void sweepstate_init(struct sweep_state *s)
{
	memset(s, 0, sizeof(*s));
}

void sweepstate_release(struct sweep_state *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->repos[i].repository);
		free(s->repos[i].v);
	}
	free(s->repos);
	memset(s, 0, sizeof(*s));
}

struct sweep_repo *sweepstate_repo(struct sweep_state *s,
				   const char *repository)
{
	struct sweep_repo *r;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (str_eq_nocase(s->repos[i].repository, repository))
			return &s->repos[i];
	ALLOC_GROW(s->repos, s->n + 1, s->alloc);
	r = &s->repos[s->n++];
	memset(r, 0, sizeof(*r));
	r->repository = xstrdup(repository);
	return r;
}

struct sweep_entry *sweepstate_find(struct sweep_repo *r, int64_t number)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->v[i].number == number)
			return &r->v[i];
	return NULL;
}

void sweepstate_put(struct sweep_repo *r, int64_t number, const char *digest,
		    const char *outcome, int64_t now)
{
	struct sweep_entry *e = sweepstate_find(r, number);
	size_t n;

	if (!e) {
		ALLOC_GROW(r->v, r->n + 1, r->alloc);
		e = &r->v[r->n++];
		memset(e, 0, sizeof(*e));
		e->number = number;
	}
	n = strlen(digest);
	if (n >= sizeof(e->digest))
		n = sizeof(e->digest) - 1;
	memcpy(e->digest, digest, n);
	e->digest[n] = '\0';
	n = strlen(outcome);
	if (n >= sizeof(e->outcome))
		n = sizeof(e->outcome) - 1;
	memcpy(e->outcome, outcome, n);
	e->outcome[n] = '\0';
	e->evaluated_at = now;
}

void sweepstate_keep(struct sweep_repo *r, const int64_t *open, size_t n)
{
	size_t i = 0, k;

	while (i < r->n) {
		for (k = 0; k < n && open[k] != r->v[i].number; k++)
			;
		if (k < n)
			i++;
		else
			r->v[i] = r->v[--r->n];
	}
}

/* --- digests --- */

struct lines {
	char **v;
	size_t n, alloc;
};

static void line(struct lines *l, struct buf *b)
{
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = buf_detach(b, NULL);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines sorted, each with its NUL, hashed end to end. */
static void hex_digest(char out[SWEEPSTATE_DIGEST], struct lines *l)
{
	size_t *lens = xcalloc(l->n + 1, sizeof(*lens));
	size_t k;

	qsort(l->v, l->n, sizeof(*l->v), cmp_str);
	for (k = 0; k < l->n; k++)
		lens[k] = strlen(l->v[k]) + 1;
	sha256_hex_parts(out, (const void *const *)l->v, lens, l->n);
	for (k = 0; k < l->n; k++)
		free(l->v[k]);
	free(lens);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static const char *or_dash(const char *s)
{
	return s ? s : "-";
}

void sweepstate_text_digest(char out[SWEEPSTATE_DIGEST], const char *text,
			    size_t len)
{
	struct lines l = {NULL, 0, 0};

	ALLOC_GROW(l.v, 1, l.alloc);
	l.v[l.n++] = xstrndup(text, len);
	hex_digest(out, &l);
}

void sweepstate_policy_digest(char out[SWEEPSTATE_DIGEST],
			      const struct policy *p)
{
	struct buf b = BUF_INIT(BUF_MAX_SMALL), v = BUF_INIT(BUF_MAX_SMALL);
	struct lines l = {NULL, 0, 0};
	size_t i;

	for (i = 0; policy_keys[i]; i++) {
		policy_get(p, policy_keys[i], &v);
		buf_addf(&b, "%s=%s", policy_keys[i], v.ptr);
		line(&l, &b);
	}
	buf_release(&v);
	hex_digest(out, &l);
}

/* The newest status of each context: what GraphQL shows, and enough to see
 * any new status in a context that matters. */
static void status_lines(struct lines *l, const struct snap_statuses *st)
{
	struct buf b = BUF_INIT(BUF_MAX_SMALL);
	size_t i, k;

	for (i = 0; st && i < st->n; i++) {
		const struct snap_status *x = &st->v[i];
		bool newest = true;

		for (k = 0; k < st->n; k++)
			if (k != i && strcmp(st->v[k].context, x->context) == 0 &&
			    (st->v[k].id > x->id ||
			     (st->v[k].id == x->id && k > i)))
				newest = false;
		if (!newest)
			continue;
		buf_addf(&b, "status %s %s %s %s %lld", x->context, x->state,
			 x->description, or_dash(x->creator),
			 (long long)(x->created_at / 1000));
		line(l, &b);
	}
	buf_release(&b);
}

void sweepstate_pull_digest(char out[SWEEPSTATE_DIGEST],
			    const struct snap_pull *p,
			    const struct snap_statuses *head_statuses)
{
	struct buf b = BUF_INIT(BUF_MAX_SMALL);
	struct lines l = {NULL, 0, 0};
	size_t i, k;

	buf_addf(&b, "pull %s %s %s %d %d %lld", p->head_sha, or_dash(p->base_ref),
		 or_dash(p->state), p->merged, p->draft,
		 (long long)p->updated_at);
	line(&l, &b);
	for (i = 0; i < p->nlabels; i++) {
		buf_adds(&b, "label ");
		for (k = 0; p->labels[i][k]; k++)
			buf_addch(&b, (char)to_lower((unsigned char)p->labels[i][k]));
		line(&l, &b);
	}
	for (i = 0; i < p->ncomments; i++) {
		const struct snap_comment *c = &p->comments[i];

		buf_addf(&b, "comment %lld %d %lld %s", (long long)c->id,
			 c->edited, (long long)c->edited_at,
			 or_dash(c->edited_by));
		line(&l, &b);
	}
	for (i = 0; i < p->ntimeline; i++) {
		const struct snap_event *e = &p->timeline[i];

		buf_addf(&b, "event %s %lld %s %s", e->event,
			 (long long)e->created_at, or_dash(e->label),
			 or_dash(e->actor));
		line(&l, &b);
	}
	for (i = 0; i < p->nthreads; i++) {
		buf_addf(&b, "thread %s %lld", p->threads[i].id,
			 (long long)p->threads[i].comments);
		line(&l, &b);
	}
	for (i = 0; i < p->nreviews; i++) {
		const struct snap_review *r = &p->reviews[i];

		buf_addf(&b, "review %lld %s %s %s", (long long)r->id, r->state,
			 r->commit_id[0] ? r->commit_id : "-", or_dash(r->author));
		line(&l, &b);
	}
	buf_release(&b);
	status_lines(&l, head_statuses);
	hex_digest(out, &l);
}

/* --- the file --- */

static int load_entry(struct sweep_repo *r, const cJSON *o, struct buf *err)
{
	int64_t number = 0, at = 0;
	char *digest = NULL, *outcome = NULL;
	int error = AA_ERR;

	if (jget_int(&number, o, "pulls[]", "number", 0, 1, INT32_MAX, err) ||
	    jget_str(&digest, o, "pulls[]", "digest", 0, err) ||
	    jget_str(&outcome, o, "pulls[]", "outcome", 0, err) ||
	    jget_time(&at, o, "pulls[]", "evaluated_at", 0, err))
		goto out;
	if (r->n >= SWEEPSTATE_MAX_ENTRIES) {
		buf_setf(err, "more than %d entries", SWEEPSTATE_MAX_ENTRIES);
		goto out;
	}
	sweepstate_put(r, number, digest, outcome, at);
	error = AA_OK;
out:
	free(digest);
	free(outcome);
	return error;
}

int sweepstate_from_json(struct sweep_state *s, const char *text, size_t len,
			 struct buf *err)
{
	const cJSON *repos, *repo, *pulls, *item;
	cJSON *root = NULL;
	int64_t version = 0;
	int error = AA_ERR;

	sweepstate_init(s);
	if (json_parse(&root, text, len, err) < 0)
		goto out;
	if (jget_int(&version, root, "", "agentic_sweep_state", 0, 1, 1, err) ||
	    jget_obj(&repos, root, "", "repositories", 0, err))
		goto out;
	cJSON_ArrayForEach(repo, repos)
	{
		struct sweep_repo *r;
		char *policy = NULL;

		if (!repo_name_valid(repo->string)) {
			buf_setf(err, "repositories: \"%s\" is not OWNER/NAME",
				 repo->string);
			goto out;
		}
		r = sweepstate_repo(s, repo->string);
		if (jget_str(&policy, repo, repo->string, "policy", 0, err) ||
		    jget_arr(&pulls, repo, repo->string, "pulls", 0, err)) {
			free(policy);
			goto out;
		}
		if (strlen(policy) < SWEEPSTATE_DIGEST)
			memcpy(r->policy, policy, strlen(policy) + 1);
		free(policy);
		cJSON_ArrayForEach(item, pulls)
			if (load_entry(r, item, err) < 0)
				goto out;
	}
	error = AA_OK;
out:
	cJSON_Delete(root);
	if (error)
		sweepstate_release(s);
	return error;
}

int sweepstate_to_json(const struct sweep_state *s, struct buf *out)
{
	struct jw w;
	size_t i, k;

	jw_init(&w, out, true);
	jw_obj_begin(&w);
	jw_key(&w, "agentic_sweep_state");
	jw_int(&w, 1);
	jw_key(&w, "repositories");
	jw_obj_begin(&w);
	for (i = 0; i < s->n; i++) {
		const struct sweep_repo *r = &s->repos[i];

		jw_key(&w, r->repository);
		jw_obj_begin(&w);
		jw_key(&w, "policy");
		jw_str(&w, r->policy);
		jw_key(&w, "pulls");
		jw_arr_begin(&w);
		for (k = 0; k < r->n; k++) {
			jw_obj_begin(&w);
			jw_key(&w, "number");
			jw_int(&w, r->v[k].number);
			jw_key(&w, "digest");
			jw_str(&w, r->v[k].digest);
			jw_key(&w, "outcome");
			jw_str(&w, r->v[k].outcome);
			jw_key(&w, "evaluated_at");
			jw_time(&w, r->v[k].evaluated_at);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		jw_obj_end(&w);
	}
	jw_obj_end(&w);
	jw_obj_end(&w);
	return buf_error(out);
}
