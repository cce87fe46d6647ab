/*
 * review_int.h - what the pr-review flows (plan.c, publish.c) share: the
 * reads of §6 H1 / §7.1 and what they say once trust is applied (U1-U4).
 * Private to run/.
 */
#ifndef AA_RUN_REVIEW_INT_H
#define AA_RUN_REVIEW_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/inline.h"
#include "formats/sticky.h"
#include "port/port.h"
#include "run/engine.h"

/* One pull request as the pr-review flows see it. */
struct rv_pr {
	int64_t number;
	struct gh_pull pull;             /* PART_PULL | PART_COMMENTS */
	char head[SHA_BUF];              /* the head as last read (G) */
	struct snap_review_comment *rc;  /* review comments, ascending id */
	size_t nrc;
	bool rc_ok;                      /* the last read of them worked */
	/* U1: the stickies of review_login, ascending id; the newest is the
	 * canonical (H2), the others its duplicates. */
	const struct snap_comment **stickies;
	size_t nstickies;
	const struct snap_comment *canonical; /* NULL: none */
	struct sticky_info info;         /* the canonical's reading */
	bool trusted;                    /* U2 */
	int64_t *foreign;                /* look-alikes by anyone else */
	size_t nforeign;
	/* U3 roots (views into rinfo and rc). */
	struct root_info *rinfo;
	struct inline_root *roots;
	size_t nroots;
};

void rv_pr_release(struct rv_pr *p);

/*
 * Read PR `pr` fresh (the port's review_pull): the pull with its comments
 * (and their edit histories) and what `what` (RV_READ_*) adds. Returns
 * AA_OK, AA_ENOTFOUND (no such PR), or AA_EAPI (the pull or its comments
 * could not be read; err says why). With RV_READ_ROOTS,
 * out->rc_ok says whether the review comments could be read (err says
 * why not).
 */
int rv_pr_read(struct engine *e, int64_t pr, unsigned what, struct rv_pr *out,
               struct buf *err);
/*
 * Read `what` of the PR again: p->head always (G); with RV_READ_COMMENTS
 * the pull and its comments replace p's (U1/U2 redone); with
 * RV_READ_ROOTS the review comments (U3 redone; p->rc_ok says whether
 * they could be read). AA_OK, AA_ENOTFOUND, or AA_EAPI when the pull or
 * its comments could not be read (what failed is kept as it was), err
 * saying why (and why the review comments could not be read). The port
 * has review ops: the flows (review-plan, publish) end their step before
 * any read when it has not.
 */
int rv_pr_refresh(struct engine *e, struct rv_pr *p, unsigned what,
                  struct buf *err);
/*
 * Start what rv_pr_refresh(e, …, what) of PR `pr` will read (rv_pr_read's
 * is `what | RV_READ_COMMENTS`) beside the port's next request, where the
 * port can: that request and the read share one round trip (P67).
 */
void rv_pr_beside(struct engine *e, int64_t pr, unsigned what);
/* Read the comments again (a lost answer) and redo U1/U2 over them; a
 * failure's message is not kept (the lost write's is the one to tell). */
int rv_pr_reread_comments(struct engine *e, struct rv_pr *p);
/* Read the review comments again (a lost answer) and redo U3, the same. */
int rv_pr_reread_roots(struct engine *e, struct rv_pr *p);

/*
 * B5 (§6, §5.3): 1 + the highest F-number seen — the trusted state's
 * next-1 and rows (`prior`), the trusted sticky's rows of blocks 6-8,
 * every U3 root, and the model `m` (NULL: none).
 */
uint32_t rv_next_id(const struct rv_pr *p, const struct review_model *m,
		    const struct review_state *prior);

/* U2's history half: every editor of c is review_login. */
bool rv_edits_trusted(const struct snap_comment *c, const struct policy *pol);

/* U5 (T4 for review_login): AA_OK, AA_EUSAGE (another login: exit 2) or
 * AA_EAPI (unreadable: exit 3), with a reason on the step. */
int rv_identity(struct engine *e, struct report_step *s);
/* G4 on GitLab: the identity read before any other (AA_OK at once on
 * GitHub); AA_EUSAGE for a refused token or another login (exit 2),
 * AA_EAPI when it cannot be read (exit 3); the reason is in s. */
int rv_identity_first(struct engine *e, struct report_step *s);

/* The PR's web address, https://github.com/O/R/pull/N. */
void rv_pr_url(struct buf *out, const struct engine *e, int64_t pr);

#endif
