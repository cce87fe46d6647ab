/*
 * fuzz_snapshot.c - the snapshot loader on arbitrary bytes. A snapshot
 * that loads must write out and load back to the same bytes.
 */
#include <string.h>

#include "fuzz.h"
#include "formats/snapshot.h"

/* Inputs above this are not interesting (and slow the campaign). */
#define FUZZ_SNAPSHOT_MAX ((size_t)1 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct buf a = BUF_INIT(BUF_MAX_DOC), b = BUF_INIT(BUF_MAX_DOC);
	struct snapshot s, t;

	if (size > FUZZ_SNAPSHOT_MAX)
		return 0;
	if (snapshot_from_json(&s, (const char *)data, size, &err) == 0) {
		FUZZ_ASSERT(snapshot_to_json(&s, &a) == 0);
		FUZZ_ASSERT(snapshot_from_json(&t, a.ptr, a.len, &err) == 0);
		FUZZ_ASSERT(snapshot_to_json(&t, &b) == 0);
		FUZZ_ASSERT(a.len == b.len && memcmp(a.ptr, b.ptr, a.len) == 0);
		snapshot_release(&t);
		snapshot_release(&s);
	} else {
		FUZZ_ASSERT(err.len > 0);
	}
	buf_release(&a);
	buf_release(&b);
	buf_release(&err);
	return 0;
}
