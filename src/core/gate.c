/*
 * gate.c - BEHAVIOR §5.2: the four conditions, on the PR's current head H.
 *
 * 1. clean: the newest trusted clean-context status with pr=#N: on H is
 *    success. 2. the escalation label is absent. 3. every review thread
 *    has at least two comments. 4. escalation is satisfied for H: decided by
 *    the newest trusted, unedited needs-human verdict naming H that is newer
 *    than the last base retarget, and by who last lifted the label (the
 *    table of §5.2, implemented row by row in escalation()).
 */
#include "core/gate.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/marker.h"
#include "core/stamp.h"
#include "core/verdict.h"

const char *const gate_cond_keys[COND_COUNT] = {
	"clean", "label_absent", "threads_answered", "escalation"};
const char *const gate_cond_titles[COND_COUNT] = {
	"clean status", "needs-human label absent", "every thread answered",
	"human sign-off not needed, or given"};
const char *const gate_outcome_names[4] = {"approve", "withhold", "skipped",
					   "error"};

/* How many unanswered thread ids a reason names before "…". */
#define GATE_MAX_LISTED 5

void gate_decision_init(struct gate_decision *d)
{
	int i;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < COND_COUNT; i++)
		buf_init(&d->why[i], BUF_MAX_SMALL);
}

void gate_decision_release(struct gate_decision *d)
{
	int i;

	for (i = 0; i < COND_COUNT; i++)
		buf_release(&d->why[i]);
	strv_free(d->reasons, d->nreasons);
	d->reasons = NULL;
	d->nreasons = 0;
	free(d->verdict_url);
	free(d->check_url);
	d->verdict_url = d->check_url = NULL;
}

void gate_add_reason(struct gate_decision *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strv_vaddf(&d->reasons, &d->nreasons, fmt, ap);
	va_end(ap);
}

bool gate_skip(const struct snap_pull *pull, const char *repository,
	       struct buf *why)
{
	if (pull->merged) {
		buf_setf(why, "PR #%lld is merged", (long long)pull->number);
		return true;
	}
	if (strcmp(pull->state, "open") != 0) {
		buf_setf(why, "PR #%lld is closed", (long long)pull->number);
		return true;
	}
	if (!str_eq_nocase(pull->head_repo, repository)) {
		buf_setf(why, "PR #%lld comes from a fork (%s)",
			 (long long)pull->number, pull->head_repo);
		return true;
	}
	return false;
}

/* A commit in a sentence: its first 7 hex digits. */
#define SHORT_SHA "%.7s"

/*@ requires GateInputOK((struct gate_input *)in, (struct policy *)p);
    assigns *url;
    ensures \result ==>
      \old(CleanOK((struct gate_input *)in, (struct policy *)p)); */
static bool cond_clean(const struct gate_input *in, const struct policy *p,
		       struct buf *why, const char **url)
{
	const struct snap_status *st;
	const char *h = in->pull->head_sha;
	bool ok;

	if (!in->statuses) {
		buf_setf(why, "the statuses of " SHORT_SHA " could not be read",
			 h);
		return false;
	}
	st = stamp_clean(in->statuses, p, in->pr);
	if (!st) {
		buf_setf(why, "no trusted %s status for PR #%lld on " SHORT_SHA,
			 p->clean_context, (long long)in->pr, h);
		return false;
	}
	buf_setf(why, "%s is %s on " SHORT_SHA, p->clean_context, st->state,
		 h);
	ok = strcmp(st->state, "success") == 0;
	*url = st->target_url;
	return ok;
}

/*@ requires GateInputOK((struct gate_input *)in, (struct policy *)p);
    requires PullOK(in->pull);
    assigns \nothing;
    ensures \result ==> (in->ok & PART_LABELS) != 0;
    ensures \result ==>
      LabelAbsentOK((struct gate_input *)in, (struct policy *)p); */
static bool cond_label_absent(const struct gate_input *in,
			      const struct policy *p, struct buf *why)
{
	size_t i;

	if (!(in->ok & PART_LABELS)) {
		buf_setf(why, "the labels could not be read");
		return false;
	}
	if (in->label_write_failed) {
		buf_setf(why, "adding the %s label failed in this run, so it "
			      "counts as set", p->label);
		return false;
	}
	/*@ loop invariant 0 <= i <= in->pull->nlabels;
	    loop invariant \forall integer j; 0 <= j < i ==>
	      !IsLabel((struct policy *)p, in->pull->labels[j]);
	    loop assigns i;
	    loop variant in->pull->nlabels - i; */
	for (i = 0; i < in->pull->nlabels; i++)
		if (policy_is_label(p, in->pull->labels[i])) {
			buf_setf(why, "the %s label is set", p->label);
			return false;
		}
	buf_setf(why, "no %s label", p->label);
	return true;
}

/*@ assigns \nothing;
    ensures \result ==> (in->ok & PART_THREADS) != 0;
    ensures \result ==> ThreadsOK((struct gate_input *)in); */
static bool cond_threads(const struct gate_input *in, struct buf *why)
{
	size_t i, open = 0;

	if (!(in->ok & PART_THREADS)) {
		buf_setf(why, "the review threads could not be read");
		return false;
	}
	/*@ loop invariant 0 <= i <= in->pull->nthreads && open <= i;
	    loop invariant open == 0 ==> \forall integer j; 0 <= j < i ==>
	      in->pull->threads[j].comments >= 2;
	    loop assigns i, open;
	    loop variant in->pull->nthreads - i; */
	for (i = 0; i < in->pull->nthreads; i++)
		if (in->pull->threads[i].comments < 2)
			open++;
	if (!open) {
		if (in->pull->nthreads == 0)
			buf_setf(why, "the PR has no review threads");
		else if (in->pull->nthreads == 1)
			buf_setf(why, "its one review thread has a reply");
		else
			buf_setf(why, "all %zu review threads have a reply",
				 in->pull->nthreads);
		return true;
	}
	buf_setf(why, "%zu review thread%s without a reply:", open,
		 open == 1 ? "" : "s");
	/*@ loop assigns i, open; */
	for (i = 0, open = 0; i < in->pull->nthreads; i++) {
		if (in->pull->threads[i].comments >= 2)
			continue;
		if (open++ == GATE_MAX_LISTED) {
			buf_adds(why, " …");
			break;
		}
		/* A reviewer clicks a URL; a node id is the fallback. */
		buf_addf(why, " %s", in->pull->threads[i].url
					     ? in->pull->threads[i].url
					     : in->pull->threads[i].id);
	}
	return false;
}

/* The newest unlabel of the escalation label: authorized, and when. */
struct unlabel {
	const struct snap_event *newest;
	bool authorized;
};

/*@ predicate UnlabelOf{L}(struct unlabel u, struct snap_pull *pull,
			  struct policy *p) =
    (u.newest == \null ==> NoUnlabel(pull, p) && !u.authorized) &&
    (u.newest != \null ==> \exists integer i;
      NewestUnlabel(pull, p, i) && u.newest == &pull->timeline[i] &&
      (u.authorized <==> IsUnlabeler(p, pull->timeline[i].actor)));
*/

/*
 * Returned by value, and the escalation helpers take it by value: it is
 * read, never written, after find_unlabel() (and the proof then has no
 * memory of it to keep apart from the input's).
 */
/*@ requires \valid_read(p);
    requires PullOK((struct snap_pull *)pull);
    assigns \nothing;
    ensures UnlabelOf(\result, (struct snap_pull *)pull, (struct policy *)p); */
static struct unlabel find_unlabel(const struct snap_pull *pull,
				   const struct policy *p)
{
	const struct snap_event *newest = NULL;
	struct unlabel u;
	size_t i;

	/*@ loop invariant 0 <= i <= pull->ntimeline;
	    loop invariant newest == \null ==> \forall integer j;
	      0 <= j < i ==> !Unlabel((struct snap_pull *)pull, (struct policy *)p, j);
	    loop invariant newest != \null ==> \exists integer k;
	      0 <= k < i && newest == &pull->timeline[k] &&
	      Unlabel((struct snap_pull *)pull, (struct policy *)p, k) &&
	      (\forall integer j; 0 <= j < i &&
		Unlabel((struct snap_pull *)pull, (struct policy *)p, j) ==>
		pull->timeline[j].id <= pull->timeline[k].id) &&
	      (\forall integer j; 0 <= j < k &&
		Unlabel((struct snap_pull *)pull, (struct policy *)p, j) ==>
		pull->timeline[j].id < pull->timeline[k].id);
	    loop assigns i, newest;
	    loop variant pull->ntimeline - i; */
	for (i = 0; i < pull->ntimeline; i++) {
		const struct snap_event *e = &pull->timeline[i];

		if (e->kind == TL_UNLABELED && policy_is_label(p, e->label) &&
		    (!newest || e->id > newest->id))
			newest = e;
	}
	u.newest = newest;
	u.authorized = newest && policy_is_unlabeler(p, newest->actor);
	return u;
}

/*@ assigns \nothing;
    ensures \result ==> u.authorized &&
      u.newest->created_at > lk->comment->created_at; */
static bool esc_verdict_yes(const struct nh_lookup *lk,
			    struct unlabel u, struct buf *why)
{
	int64_t id = lk->comment->id;

	if (!u.newest) {
		buf_setf(why, "needs-human: yes (comment %lld) and the label "
			      "was never lifted", (long long)id);
		return false;
	}
	if (!u.authorized) {
		buf_setf(why, "needs-human: yes (comment %lld); the label was "
			      "last removed by %s, who is not allowed to",
			 (long long)id,
			 u.newest->actor ? u.newest->actor : "an unknown actor");
		return false;
	}
	if (u.newest->created_at <= lk->comment->created_at) {
		buf_setf(why, "needs-human: yes (comment %lld) is newer than the "
			      "last authorized removal of the label",
			 (long long)id);
		return false;
	}
	buf_setf(why, "needs-human: yes (comment %lld), lifted afterwards by "
		      "%s", (long long)id, u.newest->actor);
	return true;
}

/*@ assigns \nothing;
    ensures \result ==> u.newest == \null || u.authorized; */
static bool esc_verdict_no(const struct nh_lookup *lk, struct unlabel u,
			   struct buf *why)
{
	int64_t id = lk->comment->id;

	if (u.newest && !u.authorized) {
		buf_setf(why, "needs-human: no (comment %lld), but the label was "
			      "last removed by %s, who is not allowed to",
			 (long long)id,
			 u.newest->actor ? u.newest->actor : "an unknown actor");
		return false;
	}
	buf_setf(why, "needs-human: no (comment %lld)", (long long)id);
	return true;
}

/* No verdict for H: say what was there instead of one, if anything. */
/*@ assigns \nothing; */
static void no_verdict_why(const struct nh_lookup *lk, struct buf *why)
{
	if (lk->tampered)
		buf_setf(why, "the needs-human verdict for the head (comment "
			      "%lld) was edited by %s, so it no longer counts",
			 (long long)lk->tampered->id,
			 lk->edited_by_other ? lk->edited_by_other
					     : "an unknown account");
	else if (lk->quoted)
		buf_setf(why, "no needs-human verdict for the head: comment %lld "
			      "holds needs-human markers (line %zu) that are "
			      "quoted, fenced or not at its start, which is not "
			      "a verdict",
			 (long long)lk->quoted->id, lk->quoted_line);
	else if (lk->dropped)
		buf_setf(why, "no needs-human verdict for the head since the "
			      "base branch was changed (the judge must run "
			      "again)");
	else
		buf_setf(why, "no needs-human verdict for the head yet (the "
			      "escalation judge is still running)");
}

/*
 * No verdict for H: a skip marker newer than the round (`round`, `skip`:
 * the newest of each among the statuses `st`, read by the caller), and an
 * allowed unlabel after the round started.
 */
/*@ assigns \nothing;
    ensures \result ==> st != \null && round != \null && skip != \null &&
      skip->id > round->id && u.authorized &&
      u.newest->created_at > round->created_at; */
static bool esc_no_verdict(const struct snap_statuses *st,
			   const struct snap_status *round,
			   const struct snap_status *skip,
			   const struct nh_lookup *lk, struct unlabel u,
			   struct buf *why)
{
	if (!st) {
		buf_setf(why, "no verdict for the head, and its statuses could "
			      "not be read");
		return false;
	}
	if (!skip || !round || skip->id <= round->id) {
		no_verdict_why(lk, why);
		return false;
	}
	if (!u.newest || !u.authorized ||
	    u.newest->created_at <= round->created_at) {
		buf_setf(why, "escalation was skipped because the label was "
			      "set, and no allowed person has lifted it since "
			      "the round started");
		return false;
	}
	buf_setf(why, "escalation skipped (label set); lifted by %s after "
		      "the round started", u.newest->actor);
	return true;
}

/*
 * A1: a yes binds until an allowed person removes the label after it,
 * whatever happened to the label itself (renamed, deleted) and whatever a
 * later verdict says; so does an edit of the trusted login's comment by
 * someone else, which could have removed a yes.
 */
/*@ assigns \nothing;
    ensures \result ==> !lk->held ||
      (u.authorized && u.newest->created_at > lk->hold_at); */
static bool esc_hold_lifted(const struct nh_lookup *lk, struct unlabel u,
			    const struct policy *p, struct buf *why)
{
	if (!lk->held || /* a hold at the epoch is still a hold */
	    (u.authorized && u.newest->created_at > lk->hold_at))
		return true;
	if (lk->hold_event)
		buf_setf(why, "%s added the %s label (the escalation judge's "
			      "yes), and no allowed person has removed it "
			      "since (the hold stays even if the yes comment "
			      "was deleted or the label renamed or deleted)",
			 lk->hold_event->actor, p->label);
	else if (lk->hold_edited)
		buf_setf(why, "comment %lld of the machine account was edited "
			      "by %s, which could have removed a needs-human: "
			      "yes; an allowed person must remove the %s "
			      "label after that edit",
			 (long long)lk->hold->id,
			 lk->hold_editor ? lk->hold_editor
					 : "an unknown account",
			 p->label);
	else
		buf_setf(why, "comment %lld said needs-human: yes, and no "
			      "allowed person has removed the %s label since "
			      "(a yes holds until then, even if the label was "
			      "renamed or deleted)",
			 (long long)lk->hold->id, p->label);
	return false;
}

/*@ predicate EscA1{L}(struct gate_input *in, struct policy *p) =
    \forall integer k; 0 <= k < in->pull->ncomments &&
      Trigger(&in->pull->comments[k], p) ==>
      AuthAfter(in->pull, p, in->pull->comments[k].created_at);
  predicate EscA10{L}(struct gate_input *in, struct policy *p) =
    \forall integer j; OwnLabeled(in->pull, p, j) ==>
      AuthAfter(in->pull, p, in->pull->timeline[j].created_at);
*/
/*@ requires GateInputOK((struct gate_input *)in, (struct policy *)p);
    requires PullOK(in->pull);
    assigns *url;
    ensures \result ==>
      (in->ok & PART_COMMENTS) != 0 && (in->ok & PART_TIMELINE) != 0;
    ensures \result ==>
      \old(EscalationOK((struct gate_input *)in, (struct policy *)p));
    ensures a1: \result ==>
      \old(EscA1((struct gate_input *)in, (struct policy *)p));
    ensures a10: \result ==>
      \old(EscA10((struct gate_input *)in, (struct policy *)p)); */
static bool cond_escalation(const struct gate_input *in,
			    const struct policy *p, struct buf *why,
			    const char **url)
{
	const struct snap_statuses *st = in->statuses;
	const struct snap_status *round, *skip;
	struct nh_lookup lk;
	struct unlabel u;
	const struct marker_nh *nh;
	bool ok;

	if (!(in->ok & PART_COMMENTS) || !(in->ok & PART_TIMELINE)) {
		buf_setf(why, "the %s could not be read",
			 !(in->ok & PART_COMMENTS) ? "comments" : "timeline");
		return false;
	}
	/* What the input says is read before verdict_lookup() writes lk
	 * (docs/proof.md: the proof then needs no frame for it); the asserts
	 * below stage the proof of the contract, one path at a time. */
	round = stamp_round(st, p, in->pr);
	skip = stamp_skip(st, p, in->pr);
	u = find_unlabel(in->pull, p);
	verdict_lookup(&lk, in->pull, in->pull->head_sha, p);
	if (!lk.comment) {
		ok = esc_no_verdict(st, round, skip, &lk, u, why);
		ok = ok && esc_hold_lifted(&lk, u, p, why);
		/*@ assert esc_ok_nv: ok ==>
		      \at(EscalationOK((struct gate_input *)in, (struct policy *)p), Pre); */
		return ok;
	}
	nh = &lk.marker.nh;
	if (nh->malformed) {
		buf_setf(why, "the newest needs-human verdict for the head "
			      "(comment %lld) is malformed: %s",
			 (long long)lk.comment->id, marker_nhm_why(nh->malformed));
		ok = false;
	} else if (!text_eq(nh->base, in->pull->base_ref)) {
		buf_setf(why, "the newest needs-human verdict (comment %lld) was "
			      "made for base \"%.*s\", not \"%s\"",
			 (long long)lk.comment->id, (int)nh->base.n, nh->base.p,
			 in->pull->base_ref);
		ok = false;
	} else {
		/*@ assert base: ViewIs(
		      NhBaseP(\at(in->pull, Pre), &\at(in->pull, Pre)->head_sha[0],
			      (struct policy *)p),
		      NhBaseN(\at(in->pull, Pre), &\at(in->pull, Pre)->head_sha[0],
			      (struct policy *)p),
		      \at(in->pull->base_ref, Pre)); */
		ok = nh->value == NH_YES ? esc_verdict_yes(&lk, u, why)
					 : esc_verdict_no(&lk, u, why);
		/*@ assert yes: ok && nh->value == NH_YES ==>
		      \at(AuthAfter(in->pull, (struct policy *)p,
		        in->pull->comments[NhIndex(in->pull, &in->pull->head_sha[0],
						   (struct policy *)p)].created_at),
			  Pre); */
		/*@ assert no: ok && nh->value != NH_YES ==>
		      \at(!UnauthorizedUnlabel(in->pull, (struct policy *)p), Pre); */
		ok = ok && esc_hold_lifted(&lk, u, p, why);
		/*@ assert hold: ok &&
		      NhHeld(\at(in->pull, Pre), (struct policy *)p) ==>
		      \at(AuthAfter(in->pull, (struct policy *)p,
				    NhHoldAt(in->pull, (struct policy *)p)),
			  Pre); */
		/*@ assert esc_a1: ok ==>
		      \at(EscA1((struct gate_input *)in, (struct policy *)p), Pre); */
		/*@ assert esc_a10: ok ==>
		      \at(EscA10((struct gate_input *)in, (struct policy *)p), Pre); */
		/*@ assert esc_ok: ok ==>
		      \at(EscalationOK((struct gate_input *)in, (struct policy *)p), Pre); */
	}
	*url = lk.comment->html_url;
	return ok;
}

/*@ assigns \nothing; */
static const char *part_name(unsigned part)
{
	switch (part) {
	case PART_PULL:
		return "pull request";
	case PART_LABELS:
		return "labels";
	case PART_COMMENTS:
		return "comments";
	case PART_TIMELINE:
		return "timeline";
	case PART_THREADS:
		return "review threads";
	case PART_REVIEWS:
		return "reviews";
	default:
		return "commits";
	}
}

void gate_decide(struct gate_decision *out, const struct gate_input *in,
		 const struct policy *p)
{
	const char *check_url = NULL, *verdict_url = NULL;
	bool all = true, failed, clean, label, threads, escalation;
	unsigned part;
	int c;

	/* Any failed read makes an error; these parts no condition reports by
	 * itself. */
	failed = (in->failed & PART_ALL) != 0;
	/*@ loop assigns part; */
	for (part = PART_PULL; part <= PART_COMMITS; part <<= 1)
		if ((in->failed & part) &&
		    (part == PART_PULL || part == PART_REVIEWS ||
		     part == PART_COMMITS))
			gate_add_reason(out, "the %s could not be read",
					part_name(part));
	if (!(in->ok & PART_PULL)) {
		out->outcome = GATE_ERROR;
		return;
	}
	if (!in->statuses)
		failed = true;
	/* The four conditions read only the input; then they are written. */
	clean = cond_clean(in, p, &out->why[COND_CLEAN], &check_url);
	label = cond_label_absent(in, p, &out->why[COND_LABEL_ABSENT]);
	threads = cond_threads(in, &out->why[COND_THREADS_ANSWERED]);
	escalation = cond_escalation(in, p, &out->why[COND_ESCALATION],
				     &verdict_url);
	out->evaluated = true;
	out->cond[COND_CLEAN] = clean;
	out->cond[COND_LABEL_ABSENT] = label;
	out->cond[COND_THREADS_ANSWERED] = threads;
	out->cond[COND_ESCALATION] = escalation;
	out->check_url = xstrdup_or_null(check_url);
	out->verdict_url = xstrdup_or_null(verdict_url);
	/*@ loop invariant 0 <= c <= COND_COUNT;
	    loop invariant all ==> \forall integer j; 0 <= j < c ==> out->cond[j];
	    loop assigns c, all; */
	for (c = 0; c < COND_COUNT; c++) {
		if (out->cond[c])
			continue;
		all = false;
		gate_add_reason(out, "%s", out->why[c].ptr);
	}
	if (in->pull->draft && !p->approve_drafts) {
		gate_add_reason(out, "the PR is a draft");
		all = false;
	}
	if (failed)
		out->outcome = GATE_ERROR;
	else
		out->outcome = all ? GATE_APPROVE : GATE_WITHHOLD;
}
