/*
 * plan.c - `review-plan` (PUBLISH.md §6): what the next review iteration
 * is (mode, ranges, iteration, next F-id), what the trusted sticky says
 * was found before, and what the PR's author answered (H1-H5). Reads
 * only; the plan is JSON for the skill that dispatches the reviewers.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "core/merge.h"
#include "run/pr_review.h"
#include "run/engine_int.h"
#include "run/review_int.h"

/* Known findings: the trusted state's rows and the roots (H4). */
struct known {
	uint32_t id;
	const char *slug;
};

struct plan {
	struct engine *e;
	size_t step;
	int64_t pr;
	struct rv_pr p;
	bool rc_ok;              /* the review comments were read */
	const struct review_state *prior;
	char mode[16];
	struct buf reason;
	char unreachable[SHA_BUF];
	char merge_base[SHA_BUF];
	int64_t iteration;
	uint32_t next_id;
	struct known *known;
	size_t nknown, aknown;
	/* H3 found nothing new since the last reviewed head (L259). */
	bool nothing_new;
	struct engine_result res; /* what the step came to (finish) */
};

static struct report_step *STEP(struct plan *pl)
{
	return &pl->e->report->steps[pl->step];
}

static bool is_bot(const char *login)
{
	size_t n = login ? strlen(login) : 0;

	return n >= 5 && strcmp(login + n - 5, "[bot]") == 0;
}

static void add_known(struct plan *pl, uint32_t id, const char *slug)
{
	for (size_t i = 0; i < pl->nknown; i++)
		if (pl->known[i].id == id &&
		    strcmp(pl->known[i].slug, slug) == 0)
			return;
	ALLOC_GROW(pl->known, pl->nknown + 1, pl->aknown);
	pl->known[pl->nknown].id = id;
	pl->known[pl->nknown++].slug = slug;
}

/* Does text name F<id> between non-alphanumerics? */
static bool names_id(const char *text, uint32_t id)
{
	char want[16];
	size_t n = (size_t)snprintf(want, sizeof(want), "F%u", (unsigned)id);

	for (const char *p = text; (p = strstr(p, want)); p++) {
		bool before = p == text || !isalnum((unsigned char)p[-1]);
		bool after = !isalnum((unsigned char)p[n]);

		if (before && after)
			return true;
	}
	return false;
}

/* Does text quote `slug` in backticks (X18)? */
static bool names_slug(const char *text, const char *slug)
{
	size_t n = strlen(slug);

	for (const char *p = text; (p = strchr(p, '`')); p++)
		if (strncmp(p + 1, slug, n) == 0 && p[1 + n] == '`')
			return true;
	return false;
}

static bool reply_author_ok(const struct plan *pl, const char *login)
{
	const char *author = pl->p.pull.pull.author;

	return login && author && str_eq_nocase(login, author) &&
	       !policy_is_review_login(pl->e->policy, login) && !is_bot(login);
}

static void json_reply(struct jw *w, const char *channel, int64_t id,
		       int64_t created, const char *url, const char *body)
{
	jw_obj_begin(w);
	jw_key_str(w, "channel", channel);
	jw_key_int(w, "comment_id", id);
	jw_key(w, "created_at");
	jw_time(w, created);
	jw_key_str(w, "html_url", url);
	jw_key_str(w, "body", body);
	jw_obj_end(w);
}

/* The finding a review comment answers: its thread's root's id, or 0. */
static uint32_t in_thread_finding(const struct plan *pl,
				  const struct snap_review_comment *c)
{
	for (size_t i = 0; i < pl->p.nroots; i++)
		if (pl->p.roots[i].comment_id == c->in_reply_to)
			return pl->p.roots[i].id;
	return 0;
}

static int cmp_known(const void *a, const void *b)
{
	const struct known *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* H4: the replies per known finding, in id order then comment id. */
static void json_replies(struct jw *w, struct plan *pl)
{
	uint32_t last = 0;

	if (pl->nknown)
		qsort(pl->known, pl->nknown, sizeof(*pl->known), cmp_known);
	jw_arr_begin(w);
	for (size_t k = 0; k < pl->nknown; k++) {
		uint32_t id = pl->known[k].id;
		const struct snap_pull *pull = &pl->p.pull.pull;
		bool open = false;
		size_t ri = 0, ci = 0;

		if (id == last)
			continue;
		last = id;
		/* Merge both channels by comment id. */
		for (;;) {
			const struct snap_review_comment *rc = NULL;
			const struct snap_comment *ic = NULL;

			while (ri < pl->p.nrc &&
			       !(reply_author_ok(pl, pl->p.rc[ri].author) &&
				 pl->p.rc[ri].in_reply_to &&
				 in_thread_finding(pl, &pl->p.rc[ri]) == id))
				ri++;
			while (ci < pull->ncomments) {
				const struct snap_comment *c =
					&pull->comments[ci];
				bool named = names_id(c->body, id);

				for (size_t j = 0; !named && j < pl->nknown;
				     j++)
					named = pl->known[j].id == id &&
						names_slug(c->body,
							   pl->known[j].slug);
				if (reply_author_ok(pl, c->author) && named)
					break;
				ci++;
			}
			if (ri < pl->p.nrc)
				rc = &pl->p.rc[ri];
			if (ci < pull->ncomments)
				ic = &pull->comments[ci];
			if (!rc && !ic)
				break;
			if (!open) {
				char fid[RV_FID_BUF];

				jw_obj_begin(w);
				jw_key_str(w, "finding_id", rv_fid(fid, id));
				jw_key(w, "replies");
				jw_arr_begin(w);
				open = true;
			}
			if (rc && (!ic || rc->id < ic->id)) {
				json_reply(w, "in_thread", rc->id,
					   rc->created_at, rc->html_url,
					   rc->body);
				ri++;
			} else {
				json_reply(w, "standalone", ic->id,
					   ic->created_at, ic->html_url,
					   ic->body);
				ci++;
			}
		}
		if (open) {
			jw_arr_end(w);
			jw_obj_end(w);
		}
	}
	jw_arr_end(w);
}

/* F's root (U3: the newest root with F's id and slug), or -1. */
static ptrdiff_t root_of(const struct plan *pl, uint32_t id, const char *slug)
{
	ptrdiff_t best = -1;

	for (size_t i = 0; i < pl->p.nroots; i++) {
		const struct inline_root *r = &pl->p.roots[i];

		if (r->id != id || strcmp(r->slug, slug) != 0)
			continue;
		if (best < 0 || pl->p.roots[best].comment_id < r->comment_id)
			best = (ptrdiff_t)i;
	}
	return best;
}

/* A text root_parse() found, or null. */
static void json_text(struct jw *w, struct root_text t)
{
	if (t.p)
		jw_strn(w, t.p, t.n);
	else
		jw_null(w);
}

/* H5: the prior findings, each with its root's texts. */
static void json_prior(struct jw *w, struct plan *pl)
{
	const struct review_state *st = pl->prior;

	jw_arr_begin(w);
	for (size_t i = 0; st && i < st->nrows; i++) {
		const struct rv_state_row *r = &st->rows[i];
		ptrdiff_t k = root_of(pl, r->id, r->slug);
		struct root_text none = {NULL, 0};
		const struct root_info *ri = k >= 0 ? &pl->p.rinfo[k] : NULL;
		char fid[RV_FID_BUF];

		jw_obj_begin(w);
		jw_key_str(w, "id", rv_fid(fid, r->id));
		jw_key_str(w, "p_code", rv_pcode_names[r->p]);
		jw_key_str(w, "section", rv_section_names[r->section]);
		jw_key_str(w, "slug", r->slug);
		jw_key_str(w, "category", r->category);
		jw_key_str(w, "file", r->file);
		jw_key(w, "line_start");
		if (r->line_start)
			jw_int(w, r->line_start);
		else
			jw_null(w);
		jw_key(w, "line_end");
		if (r->line_end)
			jw_int(w, r->line_end);
		else
			jw_null(w);
		jw_key_str(w, "confidence", rv_confidence_names[r->confidence]);
		jw_key_str(w, "blast", r->blast);
		jw_key_str(w, "justification", r->justification);
		jw_key_str(w, "thread", rv_thread_names[r->thread]);
		jw_key_str(w, "source", st->from_rows ? "rows" : "state");
		/* H5: rows under a nits line hide findings. */
		jw_key(w, "complete");
		jw_bool(w, !st->from_rows || st->complete);
		jw_key(w, "failure_mode");
		json_text(w, ri ? ri->failure_mode : none);
		jw_key(w, "mitigation");
		json_text(w, ri ? ri->mitigation : none);
		jw_key(w, "evidence");
		json_text(w, ri ? ri->evidence : none);
		jw_key_str(w, "html_url",
			   k >= 0 ? pl->p.roots[k].html_url : NULL);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

/* Has the sticky's state a thread that did not post (X5)? */
static bool state_incomplete(const struct review_state *st)
{
	for (size_t i = 0; st && i < st->nrows; i++)
		if (rv_thread_unfinished(st->rows[i].thread))
			return true;
	return false;
}

static void set_mode(struct plan *pl, const char *mode, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set_mode(struct plan *pl, const char *mode, const char *fmt, ...)
{
	va_list ap;

	if (snprintf(pl->mode, sizeof(pl->mode), "%s", mode) >=
	    (int)sizeof(pl->mode))
		pl->mode[0] = '\0'; /* the modes are short constants */
	buf_reset(&pl->reason);
	va_start(ap, fmt);
	buf_vaddf(&pl->reason, fmt, ap);
	va_end(ap);
}

/*
 * H3 up to its ancestry test: true when that settles the mode (pl->mode
 * set); false when the last reviewed commit's ancestry decides.
 */
static bool decide_before_compare(struct plan *pl, const char *want)
{
	const struct snap_pull *pull = &pl->p.pull.pull;
	const char *last, *base;

	if (!snap_pull_is_open(pull)) {
		set_mode(pl, "noop", "the PR is %s",
			 pull->merged ? "merged" : "closed");
		return true;
	}
	if (strcmp(want, "full") == 0) {
		set_mode(pl, "full", "a full review was asked for");
		return true;
	}
	if (!pl->p.canonical) {
		set_mode(pl, "full", "no summary comment of a prior review");
		return true;
	}
	if (!pl->p.trusted) {
		set_mode(pl, "full", "the summary comment is not trusted "
				     "(edited by another login, or its "
				     "markers are malformed)");
		return true;
	}
	/* B3: a review is bound to its base; a retarget after it (or a
	 * sticky from before B3) asks for a full review. */
	base = pl->p.info.state.present ? pl->p.info.state.base : NULL;
	if (!base) {
		set_mode(pl, "full", "the summary comment does not name the "
				     "base it reviewed");
		return true;
	}
	if (!pull->base_ref || strcmp(base, pull->base_ref) != 0) {
		set_mode(pl, "full", "the base changed from '%s' to '%s' since "
				     "the last review", base,
			 pull->base_ref ? pull->base_ref : "");
		return true;
	}
	last = pl->p.info.sha;
	if (strcmp(last, pull->head_sha) == 0) {
		if (pl->p.info.status == RV_PARTIAL ||
		    state_incomplete(&pl->p.info.state)) {
			set_mode(pl, "full", "the head was reviewed, but the "
					     "publish was incomplete");
			return true;
		}
		set_mode(pl, "noop", "nothing new since %s", last);
		pl->nothing_new = true;
		return true;
	}
	return false;
}

/* Is sha one of the PR's commits as read (PART_COMMITS)? */
static bool commit_of_pull(const struct snap_pull *pull, const char *sha)
{
	for (size_t i = 0; i < pull->ncommits; i++)
		if (strcmp(pull->commits[i], sha) == 0)
			return true;
	return false;
}

/*
 * H3's ancestry test of the last reviewed commit: AA_OK, or AA_EAPI when
 * compare failed otherwise than 404. A commit of the PR (not its head) is
 * an ancestor of the head, so compare(last...head) would say `ahead`: it is
 * sent only when the commits do not tell, or when the merge base read
 * failed (a failing compare API still fails H3, exit 3).
 */
static int decide_ancestry(struct plan *pl, struct buf *err)
{
	const struct snap_pull *pull = &pl->p.pull.pull;
	const struct github_review_ops *r = pl->e->gh->ops->review;
	const char *last = pl->p.info.sha;
	struct gh_compare cmp;
	int error;

	if (pl->merge_base[0] && (pl->p.pull.ok & PART_COMMITS) &&
	    commit_of_pull(pull, last)) {
		set_mode(pl, "incremental", "the head is ahead of the last "
					    "reviewed %.7s", last);
		return AA_OK;
	}
	error = r->compare(pl->e->gh, pl->pr, last, pull->head_sha, &cmp, err);
	if (error == AA_OK && cmp.status == CMP_AHEAD) {
		set_mode(pl, "incremental", "the head is ahead of the last "
					    "reviewed %.7s", last);
		return AA_OK;
	}
	if (error == AA_OK || error == AA_ENOTFOUND) {
		memcpy(pl->unreachable, last, SHA_BUF);
		set_mode(pl, "full", "the last reviewed %.7s is not an "
				     "ancestor of the head (force-push?)",
			 last);
		return AA_OK;
	}
	return AA_EAPI;
}

static void json_ids(struct jw *w, const int64_t *v, size_t n)
{
	jw_arr_begin(w);
	for (size_t i = 0; i < n; i++)
		jw_int(w, v[i]);
	jw_arr_end(w);
}

static void write_plan(struct plan *pl, struct buf *out, bool pretty)
{
	const struct snap_pull *pull = &pl->p.pull.pull;
	const struct review_state *st = pl->prior;
	bool incremental = strcmp(pl->mode, "incremental") == 0;
	struct jw w;

	jw_init(&w, out, pretty);
	jw_obj_begin(&w);
	jw_key(&w, "plan");
	jw_int(&w, 1);
	jw_key(&w, "pr");
	jw_int(&w, pl->pr);
	jw_key(&w, "head");
	jw_str(&w, pull->head_sha);
	jw_key(&w, "base");
	jw_obj_begin(&w);
	jw_key(&w, "ref");
	jw_str(&w, pull->base_ref);
	jw_key(&w, "sha");
	jw_str_or_null(&w, pull->base_sha[0] ? pull->base_sha : NULL);
	jw_obj_end(&w);
	jw_key(&w, "merge_base");
	jw_str_or_null(&w, pl->merge_base[0] ? pl->merge_base : NULL);
	jw_key(&w, "author");
	jw_str_or_null(&w, pull->author);
	jw_key(&w, "mode");
	jw_str(&w, pl->mode);
	jw_key(&w, "mode_reason");
	jw_str(&w, pl->reason.ptr);
	jw_key(&w, "last_sha");
	jw_str_or_null(&w, pl->p.trusted ? pl->p.info.sha : NULL);
	jw_key(&w, "prior_sha_unreachable");
	jw_str_or_null(&w, pl->unreachable[0] ? pl->unreachable : NULL);
	jw_key(&w, "prior_fix_range");
	if (incremental) {
		struct buf r = BUF_INIT(BUF_MAX_SMALL);

		buf_addf(&r, "%s..%s", pl->p.info.sha, pull->head_sha);
		jw_str(&w, r.ptr);
		buf_release(&r);
	} else {
		jw_null(&w);
	}
	jw_key(&w, "mr_range");
	if (pl->merge_base[0]) {
		struct buf r = BUF_INIT(BUF_MAX_SMALL);

		buf_addf(&r, "%s..%s", pl->merge_base, pull->head_sha);
		jw_str(&w, r.ptr);
		buf_release(&r);
	} else {
		jw_null(&w);
	}
	jw_key(&w, "iteration");
	jw_int(&w, pl->iteration);
	jw_key(&w, "next_id");
	jw_int(&w, pl->next_id);
	jw_key(&w, "sticky");
	if (pl->p.canonical) {
		jw_obj_begin(&w);
		jw_key(&w, "id");
		jw_int(&w, pl->p.canonical->id);
		jw_key(&w, "html_url");
		jw_str_or_null(&w, pl->p.canonical->html_url);
		jw_key(&w, "status");
		jw_str_or_null(&w, pl->p.trusted
					   ? rv_tier_tokens[pl->p.info.status]
					   : NULL);
		jw_key(&w, "trusted");
		jw_bool(&w, pl->p.trusted);
		jw_obj_end(&w);
	} else {
		jw_null(&w);
	}
	jw_key(&w, "duplicates");
	jw_arr_begin(&w);
	for (size_t i = 0; i + 1 < pl->p.nstickies; i++)
		jw_int(&w, pl->p.stickies[i]->id);
	jw_arr_end(&w);
	jw_key(&w, "foreign_stickies");
	json_ids(&w, pl->p.foreign, pl->p.nforeign);
	jw_key(&w, "prior_findings");
	json_prior(&w, pl);
	jw_key(&w, "prior_checked_clean");
	jw_arr_begin(&w);
	for (size_t i = 0; st && i < st->nclean; i++)
		jw_str(&w, st->clean[i]);
	jw_arr_end(&w);
	jw_key(&w, "replies");
	if (pl->rc_ok)
		json_replies(&w, pl);
	else
		jw_null(&w);
	jw_obj_end(&w);
}

/* Say what the step came to; engine_review_plan records it once. */
static void finish(struct plan *pl, enum step_outcome out, int code)
{
	pl->res.outcome = out;
	pl->res.exit = code;
}

/* Read what H1 names; AA_OK, or the step is finished. */
static int plan_reads(struct plan *pl)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	int error = rv_pr_read(pl->e, pl->pr, RV_READ_ROOTS | RV_READ_COMMITS,
	                       &pl->p, &err);

	if (error == AA_ENOTFOUND) {
		/* review-plan names its PR: exit 2 in replay too. */
		step_reason(STEP(pl), "PR #%lld does not exist",
			    (long long)pl->pr);
		STEP(pl)->missing = true;
		finish(pl, OUT_ERROR, EXIT_USAGE);
		buf_release(&err);
		return error;
	}
	if (error < 0) {
		/* GitLab: the MR's head once read (G5), as publish's. */
		if (pl->e->gh->gitlab)
			memcpy(STEP(pl)->head, pl->p.head, SHA_BUF);
		step_reason(STEP(pl), "the PR could not be read");
		report_note(pl->e->report, NOTE_ERROR, "PR #%lld: %s",
		            (long long)pl->pr, err.ptr);
		finish(pl, OUT_ERROR, EXIT_API);
		buf_release(&err);
		return AA_EAPI;
	}
	/* H4: review comments unreadable → the plan says replies: null,
	 * exit 3 (L511). */
	pl->rc_ok = pl->p.rc_ok;
	buf_release(&err);
	return AA_OK;
}

struct engine_plan engine_review_plan(struct engine *e, int64_t pr,
                                      const char *mode, struct buf *plan_out)
{
	struct engine_plan res;
	struct plan pl = {0};
	struct buf doc = BUF_INIT(BUF_MAX_DOC), err = BUF_INIT(BUF_MAX_SMALL);
	const struct snap_pull *pull;
	bool decided, merge_base_failed = false;
	int code = EXIT_OK;

	memset(&res, 0, sizeof(res));
	pl.e = e;
	pl.pr = pr;
	pl.res.outcome = OUT_SKIPPED;
	buf_init(&pl.reason, BUF_MAX_SMALL);
	engine_add_step(e, STEP_PLAN, pr, &pl.step);
	if (!e->gh->ops->review) {
		step_reason(STEP(&pl), "this GitHub port cannot read reviews");
		finish(&pl, OUT_ERROR, EXIT_API);
		goto out;
	}
	e->report->gitlab = e->gh->gitlab;
	{
		int error = rv_identity_first(e, STEP(&pl));

		if (error < 0) {
			finish(&pl, OUT_ERROR,
			       error == AA_EUSAGE ? EXIT_USAGE : EXIT_API);
			goto out;
		}
	}
	if (plan_reads(&pl) < 0)
		goto out;
	pull = &pl.p.pull.pull;
	memcpy(STEP(&pl)->head, pull->head_sha, SHA_BUF);
	if (strcmp(pull->state, "locked") == 0) { /* G5: transient */
		step_reason(STEP(&pl), "the merge request is locked (a merge "
				       "in progress); rerun");
		finish(&pl, OUT_ERROR, EXIT_API);
		goto out;
	}
	if (pl.p.trusted &&
	    (pl.p.info.state.present || pl.p.info.state.from_rows))
		pl.prior = &pl.p.info.state;
	decided = decide_before_compare(&pl, mode ? mode : "auto");
	/* The merge base of the PR (mr_range): compare(base...head), before
	 * the ancestry test that its success may spare (P-note P37). */
	if (strcmp(pl.mode, "noop") != 0) {
		struct gh_compare cmp;

		if (e->gh->ops->review->compare(e->gh, pr, pull->base_ref,
		                                pull->head_sha, &cmp,
		                                &err) == AA_OK)
			memcpy(pl.merge_base, cmp.merge_base, SHA_BUF);
		else
			merge_base_failed = true;
	}
	if (!decided && decide_ancestry(&pl, &err) < 0) {
		step_reason(STEP(&pl), "comparing the last reviewed commit "
				       "with the head failed");
		report_note(e->report, NOTE_ERROR, "PR #%lld: %s",
		            (long long)pr, err.ptr);
		finish(&pl, OUT_ERROR, EXIT_API);
		goto out;
	}
	if (merge_base_failed)
		step_reason(STEP(&pl), "the merge base could not be read: "
				       "mr_range is null");
	pl.iteration = merge_iteration(pl.p.trusted, pl.p.info.state.present,
				       pl.p.info.state.iteration,
				       pl.p.info.sha, pull->head_sha);
	pl.next_id = rv_next_id(&pl.p, NULL, pl.prior);
	for (size_t i = 0; pl.prior && i < pl.prior->nrows; i++)
		add_known(&pl, pl.prior->rows[i].id, pl.prior->rows[i].slug);
	for (size_t i = 0; i < pl.p.nroots; i++)
		add_known(&pl, pl.p.roots[i].id, pl.p.roots[i].slug);

	write_plan(&pl, &doc, true);
	if (buf_error(&doc) < 0) {
		/* Never a plan cut short (N60). */
		step_reason(STEP(&pl), "the plan is larger than %zu bytes: "
				       "not written", (size_t)BUF_MAX_DOC);
		finish(&pl, OUT_ERROR, EXIT_API);
		goto out;
	}
	if (plan_out)
		buf_add(plan_out, doc.ptr, doc.len);
	buf_reset(&doc);
	buf_adds(&doc, "{\"plan\":");
	write_plan(&pl, &doc, false);
	buf_adds(&doc, "}");
	/* Cut short, it would not parse and the report fails (report.c). */
	STEP(&pl)->extra = buf_detach(&doc, NULL);
	step_reason(STEP(&pl), "%s", pl.reason.ptr);
	if (!pl.rc_ok) {
		step_reason(STEP(&pl), "the review comments could not be "
				       "read: replies are unknown");
		code = EXIT_API;
	}
	finish(&pl, strcmp(pl.mode, "noop") == 0 ? OUT_NOOP : OUT_PLANNED,
	       code);
	if (pl.nothing_new)
		memcpy(res.nothing_new_since, pl.p.info.sha, SHA_BUF);
out:
	engine_finish(e, pl.step, pl.res);
	res.step = pl.res;
	rv_pr_release(&pl.p);
	buf_release(&pl.reason);
	buf_release(&doc);
	buf_release(&err);
	free(pl.known);
	return res;
}
