/*
 * summary.c - BEHAVIOR §9: what people and later workflow steps are told.
 *
 * Outputs are promises (A7): they describe GitHub as it is after the run,
 * so a dry run never says a PR was approved, and "approved by this run"
 * names only approvals this run posted. The markdown says, for every PR,
 * what happened and what decided it, in words: the heading carries the
 * outcome and any cause the table of the four conditions does not show.
 * A sweep leads with an overview and keeps one line per PR collapsed, so
 * the summary stays far below GitHub's 1 MiB limit at thousands of PRs.
 * This file holds the markdown; outputs.c the Actions outputs.
 */
#include "formats/report.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "formats/summary_int.h"

/* Above this many steps the summary is an overview plus one line per PR. */
#define SUMMARY_FULL_STEPS 10
/* Stop listing PRs past this size (GitHub's step summary limit: 1 MiB). */
#define SUMMARY_MAX_BYTES ((size_t)512 * 1024)
/* Approved or erroring PRs linked by number in the overview. */
#define SUMMARY_MAX_LINKED 200

/* --- markdown --- */

/*
 * Text for markdown: control characters become spaces, and characters
 * markdown or HTML would act on are escaped, so untrusted text (branch
 * names, logins) shows as itself and cannot break a table. An underscore
 * between two letters or digits stays: it cannot open or close emphasis
 * there (CommonMark flanking rules), and "issue_comment" reads better.
 */
static void md_text(struct buf *out, const char *s)
{
	const char *start = s;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			buf_addch(out, ' ');
		else if (c == '_' && s > start && is_alnum(s[-1]) &&
			 is_alnum(s[1]))
			buf_addch(out, '_');
		else if (strchr("|\\`*_[]<>~", c))
			buf_addf(out, "&#%d;", c);
		else
			buf_addch(out, (char)c);
	}
}

/* A plain https URL that cannot break out of a markdown link. */
static bool url_ok(const char *url)
{
	size_t i;

	if (!url || strncmp(url, "https://", 8) != 0)
		return false;
	for (i = 0; url[i]; i++)
		if ((unsigned char)url[i] <= 0x20 ||
		    strchr("()<>[]\"'`\\|", url[i]))
			return false;
	return true;
}

/* `text` (trusted, plain), linked to the URL built from parts when that
 * URL is safe. */
static void md_link(struct buf *out, const char *text, const char *url)
{
	if (url_ok(url))
		buf_addf(out, "[%s](%s)", text, url);
	else
		buf_adds(out, text);
}

/* https://SERVER/OWNER/NAME/<kind>/<what>, or NULL (caller frees). */
static char *web_url(const struct report *r, const struct report_step *s,
		     const char *kind, const char *what)
{
	struct buf b = BUF_INIT(BUF_MAX_SMALL);
	const char *repo = s && s->repository ? s->repository : r->repository;

	if (!r->server_url || !repo)
		return NULL;
	if (r->gitlab && strcmp(kind, "pull") == 0)
		kind = "-/merge_requests"; /* G0 */
	buf_addf(&b, "%s/%s/%s/%s", r->server_url, repo, kind, what);
	return buf_detach(&b, NULL);
}

/* "PR #7" (or "#7" when `brief`), linked to the PR. */
static void md_pr(struct buf *out, const struct report *r,
		  const struct report_step *s, bool brief)
{
	struct buf num = BUF_INIT(BUF_MAX_SMALL), text = BUF_INIT(BUF_MAX_SMALL);
	char *url;

	buf_addf(&num, "%lld", (long long)s->pr);
	if (s->repository)
		md_text(out, s->repository);
	buf_addf(&text, "%s#%lld", brief ? "" : "PR ", (long long)s->pr);
	url = web_url(r, s, "pull", num.ptr);
	md_link(out, text.ptr, url);
	free(url);
	buf_release(&num);
	buf_release(&text);
}

static void md_head(struct buf *out, const struct report *r,
		    const struct report_step *s)
{
	char text[8], *url;

	if (!s->head[0])
		return;
	memcpy(text, s->head, 7);
	text[7] = '\0';
	url = web_url(r, s, "commit", s->head);
	buf_adds(out, " (head ");
	md_link(out, text, url);
	buf_adds(out, ")");
	free(url);
}

/* A reason without the spec's rule code ("R4: ", "T2: "): codes stay in
 * the JSON report, people read words. */
static const char *in_words(const char *reason)
{
	if ((reason[0] == 'R' || reason[0] == 'T') && is_digit(reason[1]) &&
	    reason[2] == ':' && reason[3] == ' ')
		return reason + 4;
	return reason;
}

/* The page of docs/rules/ that defines a rule code (R4, T2, A11, …), or
 * NULL (tests/docs/refs.sh checks every answer against the pages). */
const char *summary_rule_page(const char *code)
{
	static const struct {
		const char *code, *page;
	} a[] = {
		{"A1", "gate"},      {"A2", "verdicts"}, {"A3", "verdicts"},
		{"A4", "verdicts"},  {"A5", "trust"},    {"A6", "sweep"},
		{"A7", "conduct"},   {"A8", "conduct"},  {"A9", "rounds"},
		{"A10", "gate"},     {"A11", "verdicts"}, {"A12", "verdicts"},
		{"A13", "gate"},     {"B1", "trust"},
	};
	size_t i;

	switch (code[0]) {
	case 'R':
		return "rounds";
	case 'T':
	case 'U':
		return "trust";
	case 'A':
	case 'B':
		for (i = 0; i < ARRAY_SIZE(a); i++)
			if (strcmp(code, a[i].code) == 0)
				return a[i].page;
		return code[0] == 'B' ? "publish" : NULL;
	case 'I':
	case 'M':
	case 'H':
	case 'W':
	case 'X':
		return "publish";
	default:
		return NULL;
	}
}

/*
 * A reason in words, then the rule it applies as a link to the paragraph
 * that defines it (issue 24): " ([R4](…/docs/rules/rounds.md#r4))" in an
 * Action, " (R4, docs/rules/rounds.md#r4)" elsewhere.
 */
static void md_reason(struct buf *out, const struct report *r,
		      const char *reason)
{
	const char *words = in_words(reason), *page;
	char code[8], anchor[8];
	size_t i;

	md_text(out, words);
	if (words == reason)
		return;
	memcpy(code, reason, 2);
	code[2] = '\0';
	page = summary_rule_page(code);
	if (!page)
		return;
	for (i = 0; i < 3; i++)
		anchor[i] = (char)to_lower((unsigned char)code[i]);
	if (r->docs_url && url_ok(r->docs_url))
		buf_addf(out, " ([%s](%s/rules/%s.md#%s))", code, r->docs_url,
			 page, anchor);
	else
		buf_addf(out, " (%s, docs/rules/%s.md#%s)", code, page,
			 anchor);
}

/* The pr-review steps (PUBLISH §9) in words. */
static const char *review_outcome_words(const struct report *r,
					const struct report_step *s)
{
	bool dry = r->dry_run;

	switch (s->outcome) {
	case OUT_PLANNED:
		return "review planned";
	case OUT_NOOP:
		return "nothing to review: the head was reviewed";
	case OUT_PUBLISHED:
		return dry ? "review would be published" : "review published";
	case OUT_UNCHANGED:
		return "review unchanged: nothing to write";
	case OUT_SKIPPED:
		return "review skipped: the PR is not open";
	case OUT_REFUSED:
		return dry ? "review would be refused" : "review refused";
	case OUT_SUPERSEDED:
		return "review superseded: the PR or its sticky moved on";
	case OUT_PARTIAL:
		return dry ? "review would be published in part"
			   : "review published in part";
	default:
		break;
	}
	if (s->kind == STEP_LOCAL)
		return s->outcome == OUT_ERROR ? "local review refused"
					       : "local review done";
	if (s->exit == EXIT_USAGE)
		return "review not published: bad input";
	return r->gitlab ? "review not published: a GitLab call failed"
			 : "review not published: a GitHub call failed";
}

static const char *outcome_words(const struct report *r,
				 const struct report_step *s)
{
	if (s->kind >= STEP_PLAN)
		return review_outcome_words(r, s);
	/* An explicit command's PR or comment that does not exist. */
	if (s->outcome == OUT_ERROR && s->exit == EXIT_USAGE)
		return s->kind == STEP_APPLY ? "verdict not applied"
					     : "not approved";
	if (s->kind == STEP_APPLY) {
		if (s->outcome == OUT_APPLIED)
			return "verdict applied";
		if (s->outcome == OUT_REFUSED)
			return s->exit ? "verdict refused"
				       : "verdict not applied";
		if (s->outcome == OUT_SKIPPED)
			return "comment skipped";
		return "verdict not applied: a GitHub call failed";
	}
	if (summary_is_approve(s))
		return summary_approval_exists(r, s) ? "approved" : "would approve";
	if (s->outcome == OUT_WITHHOLD)
		return "not approved";
	if (s->outcome == OUT_SKIPPED)
		return "skipped";
	return "not approved: a GitHub call failed";
}

/* Is this reason one the conditions table already shows? */
static bool in_table(const struct report_step *s, const char *reason)
{
	int c;

	if (s->kind != STEP_GATE || !s->has_conditions)
		return false;
	for (c = 0; c < COND_COUNT; c++)
		if (!s->cond[c] && s->why[c] && strcmp(s->why[c], reason) == 0)
			return true;
	return false;
}

/* The first reason the table does not show, or NULL. */
static const char *first_extra(const struct report_step *s)
{
	size_t i;

	for (i = 0; i < s->nreasons; i++)
		if (!in_table(s, s->reasons[i]))
			return s->reasons[i];
	return NULL;
}

static void md_table(struct buf *out, const struct report_step *s)
{
	int c;

	buf_adds(out, "| condition | | reason |\n|---|---|---|\n");
	for (c = 0; c < COND_COUNT; c++) {
		buf_addf(out, "| %s | %s | ", gate_cond_titles[c],
			 s->cond[c] ? "✅" : "❌");
		md_text(out, s->why[c] ? s->why[c] : "");
		buf_adds(out, " |\n");
	}
	buf_adds(out, "\n");
}

static void md_verdicts(struct buf *out, const struct report_step *s)
{
	bool any = false;

	if (url_ok(s->check_url)) {
		buf_adds(out, "Verdicts: ");
		md_link(out, "check verdict", s->check_url);
		any = true;
	}
	if (url_ok(s->verdict_url)) {
		buf_adds(out, any ? " · " : "Verdicts: ");
		md_link(out, "needs-human verdict", s->verdict_url);
		any = true;
	}
	if (any)
		buf_adds(out, "\n\n");
}

/* One PR in full: heading with outcome and cause, table, links, reasons. */
static void md_step(struct buf *out, const struct report *r,
		    const struct report_step *s)
{
	const char *extra = first_extra(s);
	bool listed = false;
	size_t i;

	buf_adds(out, "### ");
	md_pr(out, r, s, false);
	buf_addf(out, ": %s", outcome_words(r, s));
	if (s->kind == STEP_APPLY && s->comment)
		buf_addf(out, " (comment %lld)", (long long)s->comment);
	if (s->kind == STEP_GATE)
		md_head(out, r, s);
	if (extra) {
		buf_adds(out, " — ");
		md_reason(out, r, extra);
	}
	buf_adds(out, "\n\n");
	if (s->kind == STEP_GATE && s->has_conditions)
		md_table(out, s);
	md_verdicts(out, s);
	for (i = 0; i < s->nreasons; i++) {
		if (s->reasons[i] == extra || in_table(s, s->reasons[i]))
			continue;
		buf_adds(out, "- ");
		md_reason(out, r, s->reasons[i]);
		buf_adds(out, "\n");
		listed = true;
	}
	if (listed)
		buf_adds(out, "\n");
}

/* One PR in one line, for sweeps: outcome and every reason. */
static void md_step_line(struct buf *out, const struct report *r,
			 const struct report_step *s)
{
	size_t i;

	buf_adds(out, "- ");
	md_pr(out, r, s, true);
	buf_addf(out, ": %s", outcome_words(r, s));
	for (i = 0; i < s->nreasons; i++) {
		buf_adds(out, i ? "; " : " — ");
		md_reason(out, r, s->reasons[i]);
	}
	buf_adds(out, "\n");
}

/* A write's verb, done and planned (a dry run), by kind. */
static const char *const write_verbs[][2] = {
    [W_CREATE_LABEL] = {"created", "would create"},
    [W_LABEL] = {"added", "would add"},
    [W_STATUS] = {"set", "would set"},
    [W_APPROVE] = {"approved", "would approve"},
    [W_DISMISS] = {"dismissed", "would dismiss"},
    [W_COMMENT_CREATE] = {"posted", "would post"},
    [W_COMMENT_UPDATE] = {"updated", "would update"},
    [W_COMMENT_DELETE] = {"deleted", "would delete"},
    [W_REVIEW] = {"posted", "would post"},
    [W_DISCUSSION] = {"posted", "would post"},
};

static void md_write(struct buf *out, const struct report *r,
		     const struct report_write *w)
{
	long long pr = (long long)w->pr;

	buf_addf(out, "- %s ", write_verbs[w->kind][r->dry_run ? 1 : 0]);
	switch (w->kind) {
	case W_CREATE_LABEL:
		buf_adds(out, "the repository label ");
		md_text(out, w->label);
		break;
	case W_LABEL:
		buf_adds(out, "the label ");
		md_text(out, w->label);
		buf_addf(out, " to PR #%lld", pr);
		break;
	case W_STATUS:
		buf_addf(out, "%s to %s on %.7s: ", w->context, w->state,
		         w->sha);
		md_text(out, w->description);
		break;
	case W_APPROVE:
		buf_addf(out, "PR #%lld at %.7s", pr, w->commit_id);
		break;
	case W_DISMISS:
		buf_addf(out, "review %lld on PR #%lld",
		         (long long)w->review_id, pr);
		break;
	case W_COMMENT_CREATE:
		buf_addf(out, "the review summary comment on PR #%lld", pr);
		break;
	case W_COMMENT_UPDATE:
	case W_COMMENT_DELETE:
		buf_addf(out, "the %s summary comment %lld on PR #%lld",
		         w->kind == W_COMMENT_UPDATE ? "review" : "duplicate",
		         (long long)w->comment_id, pr);
		break;
	case W_REVIEW:
	case W_DISCUSSION:
		buf_addf(out, "inline findings on PR #%lld at %.7s", pr,
		         w->commit_id);
		break;
	}
	buf_adds(out, "\n");
}

static void md_writes(struct buf *out, const struct report *r, bool compact)
{
	size_t i;

	if (!r->nwrites) {
		buf_adds(out, r->dry_run ? "**Planned writes:** none\n"
					 : "**Writes:** none\n");
		return;
	}
	buf_adds(out, r->dry_run ? "**Planned writes** (dry run: nothing was "
				   "written):\n"
				 : "**Writes:**\n");
	if (compact)
		buf_addf(out, "<details><summary>%zu writes</summary>\n\n",
			 r->nwrites);
	for (i = 0; i < r->nwrites && out->len < SUMMARY_MAX_BYTES; i++)
		md_write(out, r, &r->writes[i]);
	if (i < r->nwrites)
		buf_addf(out, "- … and %zu more (see the JSON report)\n",
			 r->nwrites - i);
	if (compact)
		buf_adds(out, "\n</details>\n");
}

/* "Approved: #7, #9" — PRs of one kind, linked, in the overview. */
static void md_overview_list(struct buf *out, const struct report *r,
			     const char *title,
			     bool (*pick)(const struct report *,
					  const struct report_step *))
{
	size_t i, n = 0;

	for (i = 0; i < r->nsteps; i++) {
		const struct report_step *s = &r->steps[i];

		if (!pick(r, s))
			continue;
		if (n == SUMMARY_MAX_LINKED) {
			buf_adds(out, ", …");
			break;
		}
		buf_adds(out, n++ ? ", " : title);
		md_pr(out, r, s, true);
	}
	if (n)
		buf_adds(out, "\n");
}

static bool pick_approved(const struct report *r, const struct report_step *s)
{
	return summary_approval_exists(r, s);
}

static bool pick_would(const struct report *r, const struct report_step *s)
{
	return summary_is_approve(s) && !summary_approval_exists(r, s);
}

static bool pick_error(const struct report *r, const struct report_step *s)
{
	(void)r;
	return s->outcome == OUT_ERROR;
}

static bool pick_dismissed(const struct report *r, const struct report_step *s)
{
	size_t i;

	for (i = 0; i < r->nwrites; i++)
		if (r->writes[i].kind == W_DISMISS && r->writes[i].pr == s->pr &&
		    (!s->repository || s->kind == STEP_GATE))
			return s->kind == STEP_GATE;
	return false;
}

static size_t count(const struct report *r,
		    bool (*pick)(const struct report *,
				 const struct report_step *))
{
	size_t i, n = 0;

	for (i = 0; i < r->nsteps; i++)
		n += pick(r, &r->steps[i]);
	return n;
}

static bool pick_withheld(const struct report *r, const struct report_step *s)
{
	(void)r;
	return s->outcome == OUT_WITHHOLD;
}

static bool pick_skipped(const struct report *r, const struct report_step *s)
{
	(void)r;
	return s->outcome == OUT_SKIPPED;
}

/* A sweep: counts by outcome, then the PRs a reviewer acts on. */
static void md_overview(struct buf *out, const struct report *r)
{
	size_t i;

	buf_addf(out, "**%zu PRs:** %zu approved", r->nsteps,
		 count(r, pick_approved));
	if (r->dry_run)
		buf_addf(out, " · %zu would be approved", count(r, pick_would));
	buf_addf(out, " · %zu not approved · %zu errors · %zu skipped\n\n",
		 count(r, pick_withheld), count(r, pick_error),
		 count(r, pick_skipped));
	md_overview_list(out, r, "- Approved: ", pick_approved);
	md_overview_list(out, r, "- Would approve: ", pick_would);
	md_overview_list(out, r,
			 r->dry_run ? "- Approvals that would be dismissed: "
				    : "- Approvals dismissed: ",
			 pick_dismissed);
	md_overview_list(out, r, "- Errors: ", pick_error);
	if (r->nnot_reached) {
		buf_adds(out, "- Not reached before the deadline (the next "
			      "sweep takes them):");
		for (i = 0; i < r->nnot_reached && i < SUMMARY_MAX_LINKED; i++)
			buf_addf(out, " #%lld", (long long)r->not_reached[i]);
		if (i < r->nnot_reached)
			buf_adds(out, " …");
		buf_adds(out, "\n");
	}
	buf_adds(out, "\n<details><summary>Every PR</summary>\n\n");
	for (i = 0; i < r->nsteps && out->len < SUMMARY_MAX_BYTES; i++)
		md_step_line(out, r, &r->steps[i]);
	if (i < r->nsteps)
		buf_addf(out, "- … and %zu more (see the JSON report)\n",
			 r->nsteps - i);
	buf_adds(out, "\n</details>\n\n");
}

/* No step: say why, from the run's notes. */
static void md_nothing(struct buf *out, const struct report *r)
{
	size_t i;
	bool error = false;

	for (i = 0; i < r->nnotes; i++)
		error |= r->notes[i].level == NOTE_ERROR;
	buf_adds(out, error ? "Nothing was decided:\n\n" : "Nothing to do.\n\n");
	for (i = 0; i < r->nnotes; i++) {
		if (r->notes[i].level == NOTE_INFO && error)
			continue;
		buf_adds(out, "- ");
		md_text(out, r->notes[i].text);
		buf_adds(out, "\n");
	}
	if (r->nnotes)
		buf_adds(out, "\n");
}

static const char *exit_words(const struct report *r, int code)
{
	if (r->gitlab && code == EXIT_API)
		return "a GitLab call failed, and the run failed closed";
	switch (code) {
	case EXIT_OK:
		return "ran to completion";
	case EXIT_REFUSED:
		return "a verdict was refused";
	case EXIT_USAGE:
		return "usage, configuration or identity error";
	default:
		return "a GitHub call failed, and the run failed closed";
	}
}

int report_to_markdown(const struct report *r, struct buf *out)
{
	bool compact = r->sweep || r->nsteps > SUMMARY_FULL_STEPS;
	size_t i;

	buf_adds(out, "## agentic-apply");
	if (r->event) {
		/* The event name comes from the environment or a snapshot:
		 * escaped like any untrusted text. */
		buf_adds(out, " (");
		md_text(out, r->event);
		buf_addch(out, ')');
	}
	if (r->dry_run)
		buf_adds(out, " — dry run, nothing was written");
	buf_adds(out, "\n\n");
	if (!r->nsteps)
		md_nothing(out, r);
	else if (compact)
		md_overview(out, r);
	for (i = 0; !compact && i < r->nsteps; i++)
		md_step(out, r, &r->steps[i]);
	md_writes(out, r, compact);
	if (r->nnot_reached && !compact) {
		buf_adds(out, "\n**Not reached before the deadline** (the next "
			      "sweep takes them):");
		for (i = 0; i < r->nnot_reached; i++)
			buf_addf(out, " #%lld", (long long)r->not_reached[i]);
		buf_adds(out, "\n");
	}
	buf_addf(out, "\nExit code %d: %s.\n", r->exit, exit_words(r, r->exit));
	return buf_error(out);
}
