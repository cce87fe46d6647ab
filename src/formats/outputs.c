/*
 * outputs.c - BEHAVIOR §9: the Actions outputs (decision, pr, head,
 * approved_prs, would_approve_prs, approved, dry_run). Outputs are
 * promises (A7): they describe GitHub as it is after the run, so a dry run
 * never says a PR was approved, and "approved by this run" names only
 * approvals this run posted. The summary's markdown asks the same
 * questions (formats/summary_int.h).
 */
#include "formats/report.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "formats/summary_int.h"

/* Did this run write (or, dry, plan) an approval of PR `pr`? */
bool summary_approval_written(const struct report *r, int64_t pr)
{
	size_t i;

	for (i = 0; i < r->nwrites; i++)
		if (r->writes[i].kind == W_APPROVE && r->writes[i].pr == pr)
			return true;
	return false;
}

bool summary_is_approve(const struct report_step *s)
{
	return s->kind == STEP_GATE && s->outcome == OUT_APPROVE;
}

/* Does an approval exist after the run (not merely planned)? */
bool summary_approval_exists(const struct report *r, const struct report_step *s)
{
	return summary_is_approve(s) && !(r->dry_run && summary_approval_written(r, s->pr));
}

/* The step the outputs describe: the last gate step, else the last step. */
static const struct report_step *deciding_step(const struct report *r)
{
	size_t i = r->nsteps;

	while (i-- > 0)
		if (r->steps[i].kind == STEP_GATE)
			return &r->steps[i];
	return r->nsteps ? &r->steps[r->nsteps - 1] : NULL;
}

static void pr_list(struct buf *out, const struct report *r, bool planned)
{
	size_t i, n = 0;

	for (i = 0; i < r->nsteps; i++) {
		const struct report_step *s = &r->steps[i];

		if (!summary_is_approve(s) || !summary_approval_written(r, s->pr) ||
		    r->dry_run != planned)
			continue;
		buf_addf(out, "%s%lld", n++ ? "," : "", (long long)s->pr);
	}
}

int report_outputs(const struct report *r, struct buf *out)
{
	const struct report_step *last = deciding_step(r);
	bool approved = false;
	size_t i;

	if (r->sweep)
		buf_adds(out, "decision=sweep\npr=\nhead=\n");
	else if (last)
		buf_addf(out, "decision=%s\npr=%lld\nhead=%s\n",
			 summary_is_approve(last) && !summary_approval_exists(r, last)
				 ? "would-approve"
				 : step_outcome_names[last->outcome],
			 (long long)last->pr, last->head);
	else
		buf_adds(out, "decision=none\npr=\nhead=\n");
	buf_adds(out, "approved_prs=");
	pr_list(out, r, false);
	buf_adds(out, "\nwould_approve_prs=");
	pr_list(out, r, true);
	if (r->sweep) {
		for (i = 0; i < r->nsteps && !approved; i++)
			approved = summary_approval_exists(r, &r->steps[i]);
	} else {
		approved = last && summary_approval_exists(r, last);
	}
	buf_addf(out, "\napproved=%s\ndry_run=%s\n", approved ? "true" : "false",
		 r->dry_run ? "true" : "false");
	return buf_error(out);
}
