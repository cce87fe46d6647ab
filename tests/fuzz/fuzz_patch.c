/*
 * fuzz_patch.c - the unified-diff patch parser (core/diff.h) on arbitrary
 * bytes: a pull file's `patch` is written by whoever pushed the branch.
 * Beyond "no crash", checks what inline selection relies on: an error
 * leaves no hunk and a message that quotes nothing, and every hunk kept is
 * bounded, ordered, and found by diff_hunk_of() at both of its ends.
 */
#include <string.h>

#include "fuzz.h"
#include "core/diff.h"

static void check_error(const struct diff_hunks *h, const struct buf *err)
{
	size_t i;

	FUZZ_ASSERT(h->n == 0 && h->v == NULL);
	FUZZ_ASSERT(err->len > 0 && strncmp(err->ptr, "patch line ", 11) == 0);
	for (i = 0; i < err->len; i++)
		FUZZ_ASSERT((unsigned char)err->ptr[i] >= 0x20 &&
		            (unsigned char)err->ptr[i] < 0x7f);
}

static void check_hunk(const struct diff_hunks *h, size_t i)
{
	const struct diff_hunk *k = &h->v[i];

	FUZZ_ASSERT(k->old_count >= 0 && k->new_count >= 0);
	FUZZ_ASSERT(k->old_count + k->new_count > 0);
	FUZZ_ASSERT(k->old_start >= (k->old_count > 0));
	FUZZ_ASSERT(k->new_start >= (k->new_count > 0));
	FUZZ_ASSERT(k->old_start + k->old_count <= DIFF_MAX_LINE + 1);
	FUZZ_ASSERT(k->new_start + k->new_count <= DIFF_MAX_LINE + 1);
	if (i > 0) {
		const struct diff_hunk *p = &h->v[i - 1];

		FUZZ_ASSERT(k->old_start >= p->old_start + p->old_count);
		FUZZ_ASSERT(k->new_start >= p->new_start + p->new_count);
	}
	if (k->new_count > 0) {
		FUZZ_ASSERT(diff_hunk_of(h, k->new_start) == (int)i);
		FUZZ_ASSERT(diff_hunk_of(h, k->new_start + k->new_count - 1) ==
		            (int)i);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diff_hunks h = {NULL, 0}, again = {NULL, 0};
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	int rc;
	size_t i;

	rc = diff_parse(&h, (const char *)data, size, &err);
	FUZZ_ASSERT(rc == AA_OK || rc == AA_ERR);
	if (rc < 0)
		check_error(&h, &err);
	else
		FUZZ_ASSERT(err.len == 0);
	for (i = 0; i < h.n; i++)
		check_hunk(&h, i);
	FUZZ_ASSERT(diff_hunk_of(&h, 0) == -1);
	FUZZ_ASSERT(diff_hunk_of(&h, -1) == -1);
	FUZZ_ASSERT(diff_hunk_of(&h, DIFF_MAX_LINE + 1) == -1);
	/* Same bytes, same answer (no state kept between calls). */
	FUZZ_ASSERT(diff_parse(&again, (const char *)data, size, NULL) == rc);
	FUZZ_ASSERT(again.n == h.n);
	FUZZ_ASSERT(h.n == 0 || memcmp(again.v, h.v, h.n * sizeof(*h.v)) == 0);
	diff_hunks_release(&again);
	diff_hunks_release(&h);
	buf_release(&err);
	return 0;
}
