/*
 * publish_out.c - what a publish says (PUBLISH.md §5, §7.4, §9): the step's
 * members in the report, the sticky bodies S, F and R with the status that
 * goes with them, and a dry run's payloads and planned writes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "formats/gitlab_body.h"
#include "run/publish_int.h"

/* --- the report --- */

static void json_findings(struct jw *w, const struct review_model *m)
{
	jw_arr_begin(w);
	for (size_t i = 0; i < m->n; i++) {
		const struct rv_finding *f = &m->f[i];
		char id[RV_FID_BUF];

		jw_obj_begin(w);
		jw_key_str(w, "id", rv_fid(id, f->id));
		jw_key_str(w, "p_code", rv_pcode_names[f->p]);
		jw_key_str(w, "section", rv_section_names[f->section]);
		jw_key_str(w, "thread", rv_thread_names[f->thread]);
		jw_key_str(w, "why", f->thread_reason);
		jw_key_str(w, "url", f->thread_url);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

void pub_json_fid(struct jw *w, uint32_t id)
{
	char s[RV_FID_BUF];

	jw_str(w, rv_fid(s, id));
}

/* The step's own members (§9), written once at the end. */
void pub_finish_extra(struct pub *u, enum rv_tier tier,
		      const struct buf *payloads)
{
	struct buf b = BUF_INIT(BUF_MAX_DOC);
	struct jw w;

	jw_init(&w, &b, false);
	jw_obj_begin(&w);
	jw_key(&w, "mode");
	jw_str(&w, rv_mode_names[u->in->mode]);
	if (u->has_model) {
		jw_key(&w, "status");
		jw_str(&w, rv_tier_tokens[tier]);
		jw_key(&w, "open_counts");
		jw_obj_begin(&w);
		for (int k = 0; k < RV_PCODE_COUNT; k++) {
			jw_key(&w, rv_pcode_names[k]);
			jw_int(&w, (int64_t)u->m.open_counts[k]);
		}
		jw_obj_end(&w);
	}
	jw_key(&w, "sticky");
	if (u->sticky_action) {
		jw_obj_begin(&w);
		jw_key(&w, "id");
		if (u->sticky_id)
			jw_int(&w, u->sticky_id);
		else
			jw_null(&w);
		jw_key(&w, "html_url");
		jw_str_or_null(&w, u->sticky_url);
		jw_key(&w, "action");
		jw_str(&w, u->sticky_action);
		jw_obj_end(&w);
	} else {
		jw_null(&w);
	}
	if (u->has_model) {
		jw_key(&w, "findings");
		json_findings(&w, &u->m);
		jw_key(&w, "merged");
		jw_arr_begin(&w);
		for (size_t i = 0; i < u->m.nmerged; i++) {
			jw_obj_begin(&w);
			jw_key(&w, "from");
			pub_json_fid(&w, u->m.merged[i].from);
			jw_key(&w, "into");
			pub_json_fid(&w, u->m.merged[i].into);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		jw_key(&w, "carried");
		jw_arr_begin(&w);
		for (size_t i = 0; i < u->m.n; i++)
			if (u->m.f[i].carried)
				pub_json_fid(&w, u->m.f[i].id);
		jw_arr_end(&w);
	}
	jw_key(&w, "deleted");
	jw_arr_begin(&w);
	for (size_t i = 0; i < u->ndeleted; i++)
		jw_int(&w, u->deleted[i]);
	jw_arr_end(&w);
	if (payloads && payloads->len) {
		jw_key(&w, "payloads");
		buf_add(&b, payloads->ptr, payloads->len);
		w.after_key = false;
	}
	jw_obj_end(&w);
	free(STEP(u)->extra);
	STEP(u)->extra = buf_detach(&b, NULL);
}

/* The report's outcomes and core/publish.h's, one for one. */
static const enum step_outcome step_of[] = {
    [PUBLISH_PUBLISHED] = OUT_PUBLISHED, [PUBLISH_UNCHANGED] = OUT_UNCHANGED,
    [PUBLISH_NOOP] = OUT_NOOP,           [PUBLISH_SKIPPED] = OUT_SKIPPED,
    [PUBLISH_REFUSED] = OUT_REFUSED,     [PUBLISH_SUPERSEDED] = OUT_SUPERSEDED,
    [PUBLISH_PARTIAL] = OUT_PARTIAL,     [PUBLISH_ERROR] = OUT_ERROR,
};

static enum publish_outcome publish_of(enum step_outcome out)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(step_of); i++)
		if (step_of[i] == out)
			return (enum publish_outcome)i;
	return PUBLISH_ERROR; /* not a publish outcome: never better */
}

void pub_finish(struct pub *u, enum step_outcome out, int code)
{
	u->exit = exit_merge(u->exit, code);
	u->outcome = step_of[publish_agree(publish_of(out), u->exit)];
	u->outcome_exit = u->exit;
}

/* --- rendering --- */

void pub_doc_init(struct pub *u, struct sticky_doc *d, bool incomplete)
{
	memset(d, 0, sizeof(*d));
	d->in = u->in;
	d->m = &u->m;
	d->publish_incomplete = incomplete;
	d->status_unwritten = u->status_unwritten;
	d->iteration = u->iteration;
	d->next_id = u->next_id;
}

/* Does any row say the publish is incomplete (§7)? */
bool pub_rows_incomplete(const struct pub *u)
{
	return review_model_incomplete(&u->m);
}

int pub_render(struct pub *u, struct buf *out, bool incomplete,
	       enum rv_tier *tier)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct sticky_doc d;
	int error;

	pub_doc_init(u, &d, incomplete);
	*tier = sticky_tier(&d);
	error = sticky_render(out, &d, &err);
	if (error < 0)
		step_reason(STEP(u), "the summary comment does not fit "
				     "GitHub's limit: %s", err.ptr);
	else if (u->e->gh->gitlab)
		error = gitlab_neutralise(out); /* G13 */
	buf_release(&err);
	return error;
}

/* CRLF → LF, final LFs trimmed: the body GitHub shows (W1). */
bool pub_same_body(const char *have, size_t n, const struct buf *want)
{
	struct buf b = BUF_INIT(BUF_MAX_DOC);
	bool same;

	for (size_t i = 0; i < n; i++)
		if (!(have[i] == '\r' && i + 1 < n && have[i + 1] == '\n'))
			buf_addch(&b, have[i]);
	while (b.len && b.ptr[b.len - 1] == '\n')
		b.ptr[--b.len] = '\0';
	same = b.len == want->len && memcmp(b.ptr, want->ptr, b.len) == 0;
	buf_release(&b);
	return same;
}

void pub_status_fields(const struct pub *u, enum rv_tier tier,
		       bool pending, const char **state, struct buf *desc)
{
	buf_reset(desc);
	if (pending) {
		*state = "pending";
		buf_adds(desc, "publishing");
		return;
	}
	*state = rv_tier_state(tier);
	/* L197: GitLab's state is `failed`, never `failure`. */
	if (u->e->gh->gitlab && strcmp(*state, "failure") == 0)
		*state = "failed";
	status_description(desc, tier, u->m.f, u->m.n);
}

const char *pub_status_url(const struct pub *u, const char *url)
{
	/* G17: GitLab refuses a longer target_url: sent without one. */
	if (u->e->gh->gitlab && url && strlen(url) > GITLAB_TARGET_URL_MAX)
		return NULL;
	return url;
}

/* The newest U4 status on head: context review_context, creator
 * review_login (T3 of BEHAVIOR for this context). */
static const struct snap_status *newest_status(const struct pub *u)
{
	const struct snap_status *best = NULL;

	for (size_t i = 0; u->has_st && i < u->st.n; i++) {
		const struct snap_status *x = &u->st.v[i];

		if (strcmp(x->context, u->e->policy->review_context) != 0 ||
		    !policy_is_review_login(u->e->policy, x->creator))
			continue;
		if (!best || x->id > best->id)
			best = x;
	}
	return best;
}

bool pub_status_matches(const struct pub *u, const char *state,
			const char *desc, const char *url)
{
	const struct snap_status *x = newest_status(u);

	url = pub_status_url(u, url);
	if (x && u->e->gh->gitlab && !url && !x->target_url)
		return strcmp(x->state, state) == 0 &&
		       strcmp(x->description, desc) == 0; /* G17: both null */
	return x && strcmp(x->state, state) == 0 &&
	       strcmp(x->description, desc) == 0 && x->target_url && url &&
	       strcmp(x->target_url, url) == 0;
}

/*
 * A dry run's planned writes (§7.6), as the real run would make them
 * when every write succeeds: W1, W2, then the status (pending with
 * attempts), the review, and the final status. W5's body is left out: it
 * holds the links GitHub gives the posted threads.
 */
static void planned_writes(struct pub *u, const struct buf *first,
			   bool create, bool unchanged, const char *state,
			   const char *desc)
{
	if (!unchanged)
		pub_record_comment(u, create ? W_COMMENT_CREATE : W_COMMENT_UPDATE,
			       create ? 0 : u->p.canonical->id, first);
	for (size_t i = 0; i < u->p.nstickies; i++)
		if (create || u->p.stickies[i] != u->p.canonical) {
			struct report_write *w = report_add_write(
				u->e->report, W_COMMENT_DELETE, u->pr);

			w->comment_id = u->p.stickies[i]->id;
		}
	if (u->plan.n) {
		size_t *idx = xcalloc(u->plan.n, sizeof(*idx));

		for (size_t i = 0; i < u->plan.n; i++)
			idx[i] = i;
		pub_record_status(u, "pending", "publishing", u->sticky_url);
		if (u->e->gh->gitlab)
			for (size_t i = 0; i < u->plan.n; i++)
				pub_record_discussion(u, NULL, i);
		else
			pub_record_review(u, 0, idx, u->plan.n);
		free(idx);
	}
	if (u->plan.n || !pub_status_matches(u, state, desc, u->sticky_url))
		pub_record_status(u, state, desc, u->sticky_url);
}

/* §7.4: what the real run would write, printed and in the step. */
void pub_dry_run(struct pub *u, const struct buf *first, bool create,
		 bool unchanged, enum rv_tier final_tier,
		 struct buf *dry_out)
{
	struct buf url = BUF_INIT(BUF_MAX_SMALL), desc = BUF_INIT(BUF_MAX_SMALL);
	struct buf status = BUF_INIT(BUF_MAX_SMALL);
	struct buf review = BUF_INIT(BUF_MAX_DOC);
	struct buf pay = BUF_INIT(BUF_MAX_DOC);
	struct review_comment *rc;
	struct buf *bodies;
	const char *state;
	struct jw w;

	if (create && u->e->gh->gitlab) {
		/* G22: a planned note's link. */
		buf_addf(&url, "%s#note_0", u->p.pull.pull.html_url
						    ? u->p.pull.pull.html_url
						    : "");
	} else if (create) {
		rv_pr_url(&url, u->e, u->pr);
		buf_adds(&url, "#issuecomment-0");
	} else {
		buf_adds(&url, u->p.canonical->html_url
				       ? u->p.canonical->html_url
				       : "");
	}
	free(u->sticky_url);
	u->sticky_url = xstrdup(url.ptr);
	u->sticky_id = create ? 0 : u->p.canonical->id;
	u->sticky_action = create ? "create" : unchanged ? "unchanged"
							 : "update";
	pub_status_fields(u, final_tier, false, &state, &desc);
	status_payload(&status, state, desc.ptr, pub_status_url(u, url.ptr),
		       u->e->policy->review_context, false);

	rc = xcalloc(u->plan.n ? u->plan.n : 1, sizeof(*rc));
	bodies = xcalloc(u->plan.n ? u->plan.n : 1, sizeof(*bodies));
	for (size_t i = 0; i < u->plan.n; i++) {
		struct buf err = BUF_INIT(BUF_MAX_SMALL);

		buf_init(&bodies[i], BUF_MAX_DOC);
		/* A root that cannot fit is refused at its write (post_review):
		 * the plan shows what rendered. */
		pub_render_root(u, i, &bodies[i], &err);
		buf_release(&err);
		rc[i].path = u->m.f[u->plan.v[i].finding].file;
		rc[i].line = u->plan.v[i].line;
		rc[i].start_line = u->plan.v[i].start_line;
		rc[i].body = bodies[i].ptr;
	}
	if (u->e->gh->gitlab)
		pub_discussion_payloads(u, rc, &review);
	else if (u->plan.n)
		review_payload(&review, u->in->head, desc.ptr, url.ptr, rc,
			       u->plan.n, false);
	else
		buf_adds(&review, "[]");
	planned_writes(u, first, create, unchanged, state, desc.ptr);

	if (dry_out) {
		if (create)
			buf_adds(dry_out, "--- sticky (create) ---\n");
		else
			buf_addf(dry_out, "--- sticky (%s %lld) ---\n",
				 unchanged ? "unchanged" : "update",
				 (long long)u->p.canonical->id);
		buf_add(dry_out, first->ptr, first->len);
		buf_adds(dry_out, "\n--- status ---\n");
		buf_add(dry_out, status.ptr, status.len);
		buf_addf(dry_out, "\n--- review (%zu) ---\n", u->plan.n);
		buf_add(dry_out, review.ptr, review.len);
		buf_adds(dry_out, "\n");
	}
	jw_init(&w, &pay, false);
	jw_obj_begin(&w);
	jw_key(&w, "sticky");
	jw_strn(&w, first->ptr, first->len);
	jw_key(&w, "status");
	buf_add(&pay, status.ptr, status.len);
	w.after_key = false;
	jw_key(&w, "review");
	buf_add(&pay, review.ptr, review.len);
	w.after_key = false;
	jw_obj_end(&w);
	pub_finish_extra(u, final_tier, &pay);

	for (size_t i = 0; i < u->plan.n; i++)
		buf_release(&bodies[i]);
	free(bodies);
	free(rc);
	buf_release(&url);
	buf_release(&desc);
	buf_release(&status);
	buf_release(&review);
	buf_release(&pay);
}

/* The outcome of a run that wrote what it could. */
