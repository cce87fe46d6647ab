/*
 * world.c - the GitHub port over a snapshot in memory (replay and
 * unit tests).
 *
 * Reads copy out of the snapshot; writes change it the way GitHub would (a
 * new status gets the next id, an approval becomes a review, a dismissal
 * changes the review's state), so later reads of the same run see them.
 * The snapshot's faults make matching calls fail exactly where the live API
 * call would fail: a faulted part of a pull read fails alone, a 404 means
 * "not found". Nothing here touches the network, the clock or the
 * environment: the same snapshot always gives the same answers.
 */
#include <stdlib.h>
#include <string.h>

#include "port/port.h"
#include "port/world_int.h"
#include "formats/sweepstate.h"
#include "base/util.h"

static int fault_hit(struct world *w, enum fault_op op, int kind, int64_t pr,
                     const char *sha, struct buf *err)
{
	return world_fault(w, op, kind, pr, sha, 0, NULL, err);
}

static int write_fault(struct world *w, enum gh_write kind, int64_t pr,
                       const char *sha, bool *lost, struct buf *err)
{
	return world_fault(w, FAULT_WRITE, (int)kind, pr, sha, 0, lost, err);
}

/* A timeout or a 5xx: the program cannot tell the write was not made. */
static bool no_answer(const struct snap_fault *f)
{
	return f->timeout || f->status >= 500;
}

int world_fault(struct world *w, enum fault_op op, int kind, int64_t pr,
                const char *sha, int64_t comment_id, bool *lost,
                struct buf *err)
{
	const char *name = op == FAULT_READ ? gh_read_names[kind]
					    : gh_write_names[kind];
	size_t i;

	w->calls++;
	if (w->trace)
		buf_addf(w->trace, "call %lld: %s %s pr=%lld%s%s\n",
			 (long long)w->calls, op == FAULT_READ ? "read" : "write",
			 name, (long long)pr, sha ? " sha=" : "", sha ? sha : "");
	for (i = 0; i < w->s->nfaults; i++) {
		const struct snap_fault *f = &w->s->faults[i];

		if (f->op == FAULT_CALL && f->call == w->calls) {
			w->last_by_call = true;
			buf_setf(err, "%s %s%s%.0lld: %s (call %lld)",
			         op == FAULT_READ ? "read" : "write", name,
			         pr ? " of PR #" : "", (long long)pr,
			         f->timeout ? "timed out" : "HTTP error",
			         (long long)w->calls);
			if (f->status == 404)
				return AA_ENOTFOUND;
			return op == FAULT_WRITE && no_answer(f) ? AA_ELOST
			                                         : AA_EAPI;
		}
		if (f->op != op || f->kind != kind)
			continue;
		if (f->pr && f->pr != pr)
			continue;
		if (f->sha[0] && (!sha || strcmp(f->sha, sha) != 0))
			continue;
		if (f->comment_id && f->comment_id != comment_id)
			continue;
		if (w->s->gitlab && f->page && f->page != (w->page ? w->page : 1))
			continue;
		if (f->mode && strcmp(f->mode, "offhost_link") == 0)
			continue; /* a Link header: never followed (G3) */
		if (w->fault_seen[i]++ < f->skip)
			continue;
		if (f->times && w->fault_used[i] >= f->times)
			continue;
		w->fault_used[i]++;
		w->last_by_call = false;
		w->last_status = f->status;
		w->last_retry_after = f->retry_after;
		if (f->lost_response && lost) {
			/* Applied by the caller, then answered with an error. */
			*lost = true;
			buf_setf(err,
			         "write %s%s%.0lld: HTTP %d after "
			         "the write was made (response lost)",
			         name, pr ? " of PR #" : "", (long long)pr,
			         f->status ? f->status : 502);
			return AA_OK;
		}
		if (f->timeout)
			buf_setf(err, "%s %s%s%.0lld: timed out",
			         op == FAULT_READ ? "read" : "write", name,
			         pr ? " of PR #" : "", (long long)pr);
		else
			buf_setf(err, "%s %s%s%.0lld: HTTP %d",
			         op == FAULT_READ ? "read" : "write", name,
			         pr ? " of PR #" : "", (long long)pr,
			         f->status);
		if (f->status == 404)
			return AA_ENOTFOUND;
		if (op == FAULT_READ)
			return AA_EAPI;
		/* A write GitHub refuses for its content (PUBLISH §7.2); one
		 * that got no answer may have landed, for all the program can
		 * tell (the write contract, port.h): this one did not. */
		if (f->status == 422)
			return AA_EREJECTED;
		return no_answer(f) ? AA_ELOST : AA_EAPI;
	}
	return AA_OK;
}

const char *world_viewer(struct world *w)
{
	return w->s->viewer ? w->s->viewer : w->policy->trusted_login;
}

static int world_user(struct github *gh, char **login, struct buf *err)
{
	int error;

	*login = NULL;
	if (!W(gh)->viewer_read &&
	    (error = fault_hit(W(gh), FAULT_READ, READ_USER, 0, NULL, err)) < 0)
		return error == AA_ENOTFOUND ? AA_EAPI : error;
	*login = xstrdup(world_viewer(W(gh)));
	return AA_OK;
}

static int cmp_brief(const void *a, const void *b)
{
	const struct gh_pull_brief *x = a, *y = b;

	return (x->number > y->number) - (x->number < y->number);
}

static int world_open_pulls(struct github *gh, enum gh_listing what,
                            struct gh_pull_brief **list, size_t *n,
                            struct buf *err)
{
	struct world *w = W(gh);
	size_t i;

	(void)what; /* memory has it all */
	*list = NULL;
	*n = 0;
	if (fault_hit(w, FAULT_READ, READ_PULLS, 0, NULL, err) < 0)
		return AA_EAPI;
	*list = xcalloc(w->s->npulls ? w->s->npulls : 1, sizeof(**list));
	for (i = 0; i < w->s->npulls; i++) {
		const struct snap_pull *p = &w->s->pulls[i];

		if (!snap_pull_is_open(p))
			continue;
		(*list)[*n].number = p->number;
		memcpy((*list)[*n].head_sha, p->head_sha, SHA_BUF);
		(*list)[*n].updated_at = p->updated_at;
		sweepstate_pull_digest((*list)[*n].digest, p,
				       snapshot_statuses(w->s, p->head_sha,
							 false));
		(*n)++;
	}
	qsort(*list, *n, sizeof(**list), cmp_brief);
	return AA_OK;
}

/* Which read kind covers each part. */
static const struct {
	unsigned part;
	enum gh_read read;
} part_reads[] = {
	{PART_PULL, READ_PULL},		{PART_LABELS, READ_LABELS},
	{PART_COMMENTS, READ_COMMENTS}, {PART_TIMELINE, READ_TIMELINE},
	{PART_THREADS, READ_THREADS},	{PART_REVIEWS, READ_REVIEWS},
	{PART_COMMITS, READ_COMMITS},
};

static int world_pull(struct github *gh, int64_t number, unsigned parts,
                      struct gh_pull *out, struct buf *err)
{
	struct world *w = W(gh);
	struct snap_pull *p = snapshot_pull(w->s, number);
	unsigned ok = 0, failed = 0;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!p) {
		buf_setf(err, "PR #%lld not found", (long long)number);
		return AA_ENOTFOUND;
	}
	for (i = 0; i < ARRAY_SIZE(part_reads); i++) {
		int error;

		if (!(parts & part_reads[i].part))
			continue;
		error = fault_hit(w, FAULT_READ, (int)part_reads[i].read,
		                  number, NULL, err);
		if (error == AA_ENOTFOUND && part_reads[i].part == PART_PULL)
			return AA_ENOTFOUND;
		if (error < 0)
			failed |= part_reads[i].part;
		else
			ok |= part_reads[i].part;
	}
	snap_pull_copy(&out->pull, p, ok);
	if (ok & PART_PULL) { /* A13: SNAPSHOT §2's default */
		free(out->pull.default_branch);
		out->pull.default_branch = xstrdup(
			w->s->default_branch ? w->s->default_branch : "main");
	}
	out->ok = ok;
	out->failed = failed;
	gh_pull_keep_error(out, err);
	return AA_OK;
}

static int world_commit_in_pull(struct github *gh, int64_t number,
                                const char *sha, bool *out, struct buf *err)
{
	struct world *w = W(gh);
	const struct snap_pull *p = snapshot_pull(w->s, number);
	size_t i;

	*out = false;
	if (fault_hit(w, FAULT_READ, READ_COMMITS, number, NULL, err) < 0)
		return AA_EAPI;
	if (!p) {
		buf_setf(err, "PR #%lld not found", (long long)number);
		return AA_EAPI;
	}
	if (strcmp(p->head_sha, sha) == 0)
		*out = true;
	for (i = 0; i < p->ncommits && !*out; i++)
		if (strcmp(p->commits[i], sha) == 0)
			*out = true;
	return AA_OK;
}

static int world_statuses(struct github *gh, int64_t pr, const char *sha,
                          unsigned need, struct snap_statuses *out,
                          struct buf *err)
{
	struct world *w = W(gh);
	const struct snap_statuses *st;

	(void)need; /* memory holds the whole history anyway */
	memset(out, 0, sizeof(*out));
	if (fault_hit(w, FAULT_READ, READ_STATUSES, pr, sha, err) < 0)
		return AA_EAPI;
	st = snapshot_statuses(w->s, sha, false);
	if (st) {
		snap_statuses_copy(out, st);
	} else {
		memcpy(out->sha, sha, SHA_BUF);
		out->v = xcalloc(1, sizeof(*out->v));
	}
	return AA_OK;
}

static bool has_name(char *const *v, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (str_eq_nocase(v[i], name))
			return true;
	return false;
}

static int world_label_exists(struct github *gh, int64_t pr, const char *name,
                              bool *out, struct buf *err)
{
	struct world *w = W(gh);

	*out = false;
	if (fault_hit(w, FAULT_READ, READ_LABELS, pr, NULL, err) < 0)
		return AA_EAPI;
	*out = !w->s->has_labels || has_name(w->s->labels, w->s->nlabels, name);
	return AA_OK;
}

static void add_name(char ***v, size_t *n, size_t *alloc, const char *name)
{
	ALLOC_GROW(*v, *n + 1, *alloc);
	(*v)[(*n)++] = xstrdup(name);
}

static int world_create_label(struct github *gh, int64_t pr, const char *name,
                              const char *color, const char *description,
                              struct buf *err)
{
	struct world *w = W(gh);
	bool lost = false;
	int error;

	(void)color;
	(void)description;
	if ((error = write_fault(w, WRITE_LABEL, pr, NULL, &lost, err)) < 0)
		return error;
	if (w->s->has_labels && has_name(w->s->labels, w->s->nlabels, name)) {
		/* GitHub's 422 "already_exists" */
		buf_setf(err, "label \"%s\" already exists", name);
		return AA_EREJECTED;
	}
	if (w->s->has_labels)
		add_name(&w->s->labels, &w->s->nlabels, &w->s->alabels, name);
	return lost ? AA_ELOST : AA_OK;
}

/* GitHub records the label write in the PR's timeline, by the token's
 * login (A10 reads it). */
static void labeled_event(struct world *w, struct snap_pull *p,
			  const char *name)
{
	struct snap_event *e;
	int64_t id = 0;
	size_t i;

	for (i = 0; i < p->ntimeline; i++)
		if (p->timeline[i].id > id)
			id = p->timeline[i].id;
	ALLOC_GROW(p->timeline, p->ntimeline + 1, p->atimeline);
	e = &p->timeline[p->ntimeline++];
	memset(e, 0, sizeof(*e));
	e->id = id + 1;
	e->kind = TL_LABELED;
	e->event = xstrdup("labeled");
	e->label = xstrdup(name);
	e->actor = xstrdup(w->s->viewer ? w->s->viewer
					: w->policy->trusted_login);
	e->created_at = w->now;
}

static int world_add_label(struct github *gh, int64_t pr, const char *name,
                           struct buf *err)
{
	struct world *w = W(gh);
	struct snap_pull *p = snapshot_pull(w->s, pr);
	bool lost = false;
	int error;

	if ((error = write_fault(w, WRITE_LABEL, pr, NULL, &lost, err)) < 0)
		return error;
	if (!p) {
		buf_setf(err, "PR #%lld not found", (long long)pr);
		return AA_ENOTFOUND;
	}
	/* GitHub creates a label that does not exist yet. */
	if (w->s->has_labels && !has_name(w->s->labels, w->s->nlabels, name))
		add_name(&w->s->labels, &w->s->nlabels, &w->s->alabels, name);
	if (!has_name(p->labels, p->nlabels, name)) {
		add_name(&p->labels, &p->nlabels, &p->alabels, name);
		labeled_event(w, p, name);
	}
	return lost ? AA_ELOST : AA_OK;
}

static int64_t max_status_id(const struct snapshot *s)
{
	int64_t max = 0;
	size_t i, j;

	for (i = 0; i < s->nstatuses; i++)
		for (j = 0; j < s->statuses[i].n; j++)
			if (s->statuses[i].v[j].id > max)
				max = s->statuses[i].v[j].id;
	return max;
}

static int world_create_status(struct github *gh, int64_t pr, const char *sha,
                               const char *state, const char *context,
                               const char *description, const char *target_url,
                               struct buf *err)
{
	struct world *w = W(gh);
	struct snap_statuses *st;
	struct snap_status *x;
	bool lost = false;
	int64_t id;
	int error;

	if ((error = write_fault(w, WRITE_STATUS, pr, sha, &lost, err)) < 0)
		return error;
	id = max_status_id(w->s) + 1;
	st = snapshot_statuses(w->s, sha, true);
	ALLOC_GROW(st->v, st->n + 1, st->alloc);
	x = &st->v[st->n++];
	memset(x, 0, sizeof(*x));
	x->id = id;
	x->state = xstrdup(state);
	x->context = xstrdup(context);
	x->description = xstrdup(description);
	x->creator = xstrdup(world_viewer(w));
	x->created_at = w->now;
	x->target_url = xstrdup_or_null(target_url);
	return lost ? AA_ELOST : AA_OK;
}

static int world_approve(struct github *gh, int64_t pr, const char *commit_id,
                         const char *body, int64_t *review_id, struct buf *err)
{
	struct world *w = W(gh);
	struct snap_pull *p = snapshot_pull(w->s, pr);
	struct snap_review *r;
	int64_t max = 0;
	bool lost = false;
	size_t i, j;
	int error;

	(void)body;
	*review_id = 0;
	if ((error = write_fault(w, WRITE_APPROVE, pr, NULL, &lost, err)) < 0)
		return error;
	if (!p) {
		buf_setf(err, "PR #%lld not found", (long long)pr);
		return AA_ENOTFOUND;
	}
	for (i = 0; i < w->s->npulls; i++)
		for (j = 0; j < w->s->pulls[i].nreviews; j++)
			if (w->s->pulls[i].reviews[j].id > max)
				max = w->s->pulls[i].reviews[j].id;
	ALLOC_GROW(p->reviews, p->nreviews + 1, p->areviews);
	r = &p->reviews[p->nreviews++];
	memset(r, 0, sizeof(*r));
	r->id = max + 1;
	r->author = xstrdup(world_viewer(w));
	r->state = xstrdup("APPROVED");
	memcpy(r->commit_id, commit_id, SHA_BUF);
	r->submitted_at = w->now;
	if (lost) /* the id came with the lost answer */
		return AA_ELOST;
	*review_id = r->id;
	return AA_OK;
}

static int world_dismiss(struct github *gh, int64_t pr, int64_t review_id,
                         const char *message, struct buf *err)
{
	struct world *w = W(gh);
	struct snap_pull *p = snapshot_pull(w->s, pr);
	bool lost = false;
	size_t i;
	int error;

	(void)message;
	if ((error = write_fault(w, WRITE_DISMISS, pr, NULL, &lost, err)) < 0)
		return error;
	for (i = 0; p && i < p->nreviews; i++) {
		if (p->reviews[i].id != review_id)
			continue;
		free(p->reviews[i].state);
		p->reviews[i].state = xstrdup("DISMISSED");
		return lost ? AA_ELOST : AA_OK;
	}
	buf_setf(err, "review %lld of PR #%lld not found", (long long)review_id,
	         (long long)pr);
	return AA_ENOTFOUND;
}

static void world_prefetch(struct github *gh, const int64_t *prs, size_t n)
{
	(void)gh; /* memory needs no reading ahead */
	(void)prs;
	(void)n;
}

static void world_details(struct github *gh, struct gh_pull_brief *const *list,
			  size_t n)
{
	(void)gh; /* the selection reads the reviews it needs */
	(void)list;
	(void)n;
}

static void world_budget(struct github *gh, int64_t *graphql, int64_t *rest)
{
	(void)gh;
	*graphql = *rest = -1; /* no limits in memory */
}

static void world_refresh(struct github *gh)
{
	(void)gh; /* memory is always fresh */
}

static int64_t world_now(struct github *gh)
{
	return W(gh)->now;
}

static void world_free(struct github *gh)
{
	struct world *w = W(gh);

	free(w->fault_used);
	free(w->fault_seen);
	free(w);
}

const struct github_ops world_ops = {
	world_user,	    world_open_pulls,  world_pull,
	world_commit_in_pull, world_statuses,  world_label_exists,
	world_create_label, world_add_label,   world_create_status,
	world_approve,	    world_dismiss,     world_prefetch,
	world_details,	    world_budget,	    world_refresh,     world_now,
	world_free,	    &world_review_ops,	&world_setup_ops,
};

static void bump(int64_t *max, int64_t t)
{
	if (t > *max)
		*max = t;
}

/* The replay clock: the snapshot's "now", else its latest time. */
static int64_t snapshot_clock(const struct snapshot *s)
{
	int64_t max = 0;
	size_t i, j;

	if (s->now)
		return s->now;
	for (i = 0; i < s->npulls; i++) {
		const struct snap_pull *p = &s->pulls[i];

		bump(&max, p->updated_at);
		for (j = 0; j < p->ncomments; j++) {
			const struct snap_comment *c = &p->comments[j];
			size_t k;

			bump(&max, c->created_at);
			bump(&max, c->edited_at);
			for (k = 0; k < c->nedits; k++)
				bump(&max, c->edits[k].edited_at);
		}
		for (j = 0; j < p->ntimeline; j++)
			bump(&max, p->timeline[j].created_at);
		for (j = 0; j < p->nreviews; j++)
			bump(&max, p->reviews[j].submitted_at);
	}
	for (i = 0; i < s->nstatuses; i++)
		for (j = 0; j < s->statuses[i].n; j++)
			bump(&max, s->statuses[i].v[j].created_at);
	return max;
}

void github_world_trace(struct github *gh, struct buf *out)
{
	if (gh && (gh->ops == &world_ops || gh->ops == &world_gitlab_ops))
		W(gh)->trace = out;
}

int64_t github_world_calls(struct github *gh)
{
	return gh && (gh->ops == &world_ops || gh->ops == &world_gitlab_ops)
		       ? W(gh)->calls
		       : -1;
}

struct github *github_world_new(struct snapshot *s, const struct policy *p)
{
	struct world *w = xcalloc(1, sizeof(*w));

	w->gh.ops = &world_ops;
	w->s = s;
	w->policy = p;
	w->fault_used = xcalloc(s->nfaults ? s->nfaults : 1, sizeof(int64_t));
	w->fault_seen = xcalloc(s->nfaults ? s->nfaults : 1, sizeof(int64_t));
	w->now = snapshot_clock(s);
	if (s->gitlab)
		world_gitlab_init(w);
	return &w->gh;
}
