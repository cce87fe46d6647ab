/*
 * findings.h - the findings input of PUBLISH.md §3 (I1-I4, I6, I7): the
 * `mode: local` JSON an LLM writes, read into a struct review_input.
 *
 * The text is untrusted. findings_parse() either accepts all of it or
 * refuses it with one message naming the first violation; I5 (ids against
 * the prior state) needs the reads and is core's, not this file's.
 */
#ifndef AA_FINDINGS_H
#define AA_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "core/review.h"

struct findings_opts {
	bool local;          /* review-local: `mode: "local"` is allowed */
	size_t max_findings; /* ceiling of `findings`; 0 =
	                        RV_MAX_FINDINGS_DEFAULT */
};

/*
 * Parse len bytes of text (need not be NUL-terminated) into *out, which
 * is overwritten (not released first). o may be NULL (the defaults).
 *
 * Every string in *out is normalised as I6 says: CRLF and CR become LF;
 * evidence and details lose only their leading and trailing lines that
 * hold nothing but whitespace; every other string (checked_and_clean's
 * evidence too) loses the ASCII whitespace (space, tab, LF, VT, FF) at
 * both ends. The rules (non-empty, one line, lengths, enumerations,
 * patterns) then apply to the normalised string. A key that may be null
 * may also be left out (the same as null); an optional array may be left
 * out, never null.
 *
 * Returns AA_OK, or AA_ERR with err set to one line
 * "<JSON pointer>: <reason>" (RFC 6901; the pointer is empty for the
 * whole document, e.g. ": not a JSON object", and "/findings/3/slug: does
 * not match ^[a-z0-9]+(-[a-z0-9]+)*$" for a member). The caller adds the
 * "agentic-apply: findings: " prefix. The message names the first
 * violation: first what is wrong with the document as a whole (size,
 * JSON syntax, UTF-8, a key twice, \u0000, not an object), then the
 * members of each object in document order, an object's missing members
 * and the rules between its members when its last member has been read,
 * and last the rules between the top-level members (last_sha in
 * incremental mode, subagents, shape_narrative, prior_id, spec gap ids).
 * On error *out is released and zeroed.
 */
int findings_parse(struct review_input *out, const char *text, size_t len,
                   const struct findings_opts *o, struct buf *err);

#endif
