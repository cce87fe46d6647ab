/*
 * review_local.h - the JSON line `review-local` prints (PUBLISH.md §7.5,
 * the seed's L297–L354 document).
 */
#ifndef AA_REVIEW_LOCAL_H
#define AA_REVIEW_LOCAL_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "core/merge.h"
#include "core/review.h"

/*
 * Append the document for `in` and its merged model `m` (merge_run with
 * ctx.local) to out: one line, no spaces between tokens, ending in "\n",
 * keys in the seed's order. A model whose tier is RV_NOOP_TIER prints
 * status "NOOP", a null status_heading, zero counts and empty lists.
 * Strings escape only `"`, `\` and U+0000–U+001F (\n \t \r \b \f, else
 * \u00xx); all other UTF-8 is written as it is. AA_OK, or AA_ETOOBIG
 * when out's ceiling is reached (message in err).
 */
int review_local_render(struct buf *out, const struct review_input *in,
                        const struct review_model *m, struct buf *err);

/* Is this input a noop for review-local (§7.5: last_sha = head)? */
bool review_local_is_noop(const struct review_input *in);

/* Exit codes of review_local() (PUBLISH §2). */
#define RL_EXIT_OK      0
#define RL_EXIT_REFUSED 1 /* every subagent failed; the output too large */
#define RL_EXIT_USAGE   2 /* malformed findings (§3), or M2's two priors */

/*
 * The whole command on len bytes of findings text: parse (§3, local),
 * NOOP when last_sha = head, else merge_run (local), then render into
 * out. Returns the exit code; out is written only for RL_EXIT_OK. On
 * any other code err holds one line without the program's name. The
 * code says which kind: RL_EXIT_USAGE is always a findings line,
 * "findings: <JSON pointer>: <reason>" for §3, "findings: <reason>"
 * for M2 (B8 prints it without "error: "); RL_EXIT_REFUSED the reason
 * of a refusal.
 */
int review_local(struct buf *out, const char *text, size_t len,
                 struct buf *err);

#endif
