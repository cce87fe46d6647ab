/*
 * stamp.c - BEHAVIOR §4: which trusted status is the round, the clean state
 * and the skip marker of (sha, PR); and for a reader of GitHub's statuses,
 * whether one status is the clean state's and when a history read newest
 * first holds all it needs (so the live port asks instead of deciding).
 */
#include "core/stamp.h"

#include <stdio.h>
#include <string.h>

/* Find `prefix` immediately followed by the decimal N and a colon. */
static bool has_tag(const char *desc, const char *prefix, int64_t pr)
{
	char tag[64];
	int n;

	if (!desc || pr <= 0)
		return false;
	n = snprintf(tag, sizeof(tag), "%s%lld:", prefix, (long long)pr);
	if (n < 0 || (size_t)n >= sizeof(tag))
		return false;
	return strstr(desc, tag) != NULL;
}

bool stamp_desc_has_pr(const char *description, int64_t pr)
{
	return has_tag(description, "pr=#", pr);
}

bool stamp_desc_has_skip(const char *description, int64_t pr)
{
	return has_tag(description, "skipped pr=#", pr);
}

int64_t stamp_desc_pr(const char *description)
{
	const char *p = description;

	while (p && (p = strstr(p, "pr=#")) != NULL) {
		const char *d = p + 4;
		size_t n = 0;
		int64_t v;

		while (is_digit((unsigned char)d[n]))
			n++;
		if (n && d[n] == ':' && parse_decimal(&v, d, n, INT32_MAX) == 0 &&
		    v > 0)
			return v;
		p = d;
	}
	return 0;
}

bool stamp_trusted(const struct snap_status *st, const struct policy *p)
{
	/* In App mode this program writes statuses as the App's bot. */
	return policy_is_trusted(p, st->creator) ||
	       (p->app_login && st->creator &&
		str_eq_nocase(st->creator, p->app_login));
}

enum pick { PICK_ROUND, PICK_CLEAN, PICK_SKIP };

/* The two states matches compares with: arrays, not literals, because the
 * proof (docs/proof.md) knows a const array's bytes at once, where a
 * literal's being a string costs the provers millions of steps. */
static const char state_pending[] = "pending";
static const char state_success[] = "success";

/*@ requires \valid_read(x) && \valid_read(p);
    requires StampReadable((struct snap_status *)x, (struct policy *)p);
    assigns \nothing;
    ensures \result <==> Stamp((struct snap_status *)x, (struct policy *)p,
      pr, what); */
static bool matches(const struct snap_status *x, const struct policy *p,
		    int64_t pr, enum pick what)
{
	if (!stamp_trusted(x, p))
		return false;
	switch (what) {
	case PICK_ROUND:
		return strcmp(x->context, p->clean_context) == 0 &&
		       strcmp(x->state, state_pending) == 0 &&
		       stamp_desc_has_pr(x->description, pr);
	case PICK_CLEAN:
		return strcmp(x->context, p->clean_context) == 0 &&
		       stamp_desc_has_pr(x->description, pr);
	case PICK_SKIP:
		return strcmp(x->context, p->escalation_context) == 0 &&
		       strcmp(x->state, state_success) == 0 &&
		       stamp_desc_has_skip(x->description, pr);
	}
	return false;
}

/* The first of the highest id among the statuses that match. */
/*@ requires st == \null || StatusesOK((struct snap_statuses *)st);
    requires \valid_read(p);
    requires st != \null ==> StampsReadable((struct snap_statuses *)st,
      (struct policy *)p);
    assigns \nothing;
    ensures st == \null ==> \result == \null;
    ensures st != \null && \result == \null ==>
      NoStamp((struct snap_statuses *)st, (struct policy *)p, pr, what);
    ensures \result != \null ==> \exists integer b;
      NewestStamp((struct snap_statuses *)st, (struct policy *)p, pr, what, b)
      && \result == &st->v[b]; */
static const struct snap_status *newest(const struct snap_statuses *st,
					const struct policy *p, int64_t pr,
					enum pick what)
{
	const struct snap_status *best = NULL;
	size_t i;

	if (!st)
		return NULL;
	/*@ loop invariant 0 <= i <= st->n;
	    loop invariant best == \null ==> \forall integer j; 0 <= j < i ==>
	      !Stamp(&st->v[j], (struct policy *)p, pr, what);
	    loop invariant best != \null ==> \exists integer b; 0 <= b < i &&
	      best == &st->v[b] && Stamp(&st->v[b], (struct policy *)p, pr, what)
	      && (\forall integer j; 0 <= j < i &&
		  Stamp(&st->v[j], (struct policy *)p, pr, what) ==>
		  st->v[j].id <= st->v[b].id)
	      && (\forall integer j; 0 <= j < b &&
		  Stamp(&st->v[j], (struct policy *)p, pr, what) ==>
		  st->v[j].id < st->v[b].id);
	    loop assigns i, best;
	    loop variant st->n - i; */
	for (i = 0; i < st->n; i++)
		if (matches(&st->v[i], p, pr, what) &&
		    (!best || st->v[i].id > best->id))
			best = &st->v[i];
	return best;
}

const struct snap_status *stamp_round(const struct snap_statuses *st,
				      const struct policy *p, int64_t pr)
{
	return newest(st, p, pr, PICK_ROUND);
}

const struct snap_status *stamp_round_by_id(const struct snap_statuses *st,
					    const struct policy *p, int64_t pr,
					    int64_t id)
{
	size_t i;

	for (i = 0; st && i < st->n; i++)
		if (st->v[i].id == id && matches(&st->v[i], p, pr, PICK_ROUND))
			return &st->v[i];
	return NULL;
}

const struct snap_status *stamp_clean(const struct snap_statuses *st,
				      const struct policy *p, int64_t pr)
{
	return newest(st, p, pr, PICK_CLEAN);
}

const struct snap_status *stamp_skip(const struct snap_statuses *st,
				     const struct policy *p, int64_t pr)
{
	return newest(st, p, pr, PICK_SKIP);
}

bool stamp_counts_for_clean(const struct snap_status *st,
			    const struct policy *p, int64_t pr)
{
	return st && matches(st, p, pr, PICK_CLEAN);
}

bool stamp_history_enough(const struct snap_statuses *newest_first,
			  const struct policy *p, int64_t pr)
{
	return stamp_round(newest_first, p, pr) != NULL;
}
