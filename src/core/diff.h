/*
 * diff.h - the unified-diff `patch` of one file in GitHub's
 * `GET /repos/{o}/{r}/pulls/{n}/files`, read for the lines a review comment
 * may anchor to with side RIGHT (PUBLISH.md §4.1 step 1): a hunk's context
 * and `+` lines.
 *
 * A patch is hunks, each a header `@@ -a[,b] +c[,d] @@[ heading]` (an
 * omitted count is 1) followed by exactly b lines that exist on the left
 * (` ` and `-`) and d on the right (` ` and `+`), any of them followed by a
 * `\ No newline at end of file` line. The parser is strict: anything else
 * is AA_ERR, and the caller then treats the file as having no anchorable
 * line (fail closed: a comment GitHub cannot place is never attempted).
 * A missing patch (binary, too large) is NULL/0: no hunks, no error.
 *
 * Lines are split at LF; one CR before it is dropped (a patch that went
 * through CRLF conversion parses the same). An empty line inside a hunk is
 * an empty context line, as git apply reads it.
 */
#ifndef AA_DIFF_H
#define AA_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/util.h"

/* Largest line number or count accepted: GitHub's line numbers are 32-bit,
 * and a bound keeps start + count far from overflow. */
#define DIFF_MAX_LINE ((int64_t)INT32_MAX)

/*
 * One hunk. The RIGHT lines are new_start … new_start + new_count - 1
 * (every line of the new side of a hunk is context or `+`); new_count 0
 * (a pure deletion) has none. old_* is the left side, kept for messages
 * and tests.
 */
struct diff_hunk {
	int64_t old_start;
	int64_t old_count;
	int64_t new_start;
	int64_t new_count;
};

/* A file's hunks in patch order (both sides ascending, disjoint). */
struct diff_hunks {
	struct diff_hunk *v; /* owned; NULL when n == 0 */
	size_t n;
};

/*
 * Parse len bytes of patch (patch may be NULL when len is 0) into out,
 * whose old contents are not freed. 0, or AA_ERR with out left empty and,
 * when err is not NULL, one line in it ("patch line N …"; the untrusted
 * text is never quoted). Only out's memory is allocated; release it with
 * diff_hunks_release().
 */
int diff_parse(struct diff_hunks *out, const char *patch, size_t len,
               struct buf *err);
void diff_hunks_release(struct diff_hunks *h);

/* The hunk holding RIGHT line `line`, or -1 when the line is not a RIGHT
 * line of the patch (a `-` line's number does not exist on the right). */
int diff_hunk_of(const struct diff_hunks *h, int64_t line);

/* One file of the pull's file list: its path (`filename`, the new name of
 * a rename) and its parsed patch. */
struct diff_file {
	char *path;              /* owned */
	struct diff_hunks hunks; /* empty when the patch is absent or bad */
};

/*
 * Fill f with a copy of path and the parse of the patch. On a malformed
 * patch, f keeps the path with no hunks (nothing in it is anchorable) and
 * AA_ERR is returned with err set as diff_parse() does: the caller reports
 * it and goes on. diff_file_release() frees f in both cases.
 */
int diff_file_init(struct diff_file *f, const char *path, const char *patch,
                   size_t len, struct buf *err);
void diff_file_release(struct diff_file *f);

/* The file named path (bytewise), or NULL when none is, or when two are:
 * a list naming a path twice cannot say which patch GitHub anchors to. */
const struct diff_file *diff_file_find(const struct diff_file *v, size_t n,
                                       const char *path);

#endif
