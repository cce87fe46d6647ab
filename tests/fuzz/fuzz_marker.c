/*
 * fuzz_marker.c - the verdict comment parser on arbitrary bytes. Beyond
 * "no crash", checks the invariants callers rely on.
 */
#include <string.h>

#include "fuzz.h"
#include "core/marker.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct marker_result m;
	struct marker_rows it;
	struct marker_row row;
	size_t rows = 0, invalid = 0;

	marker_parse(&m, text, size);
	FUZZ_ASSERT(m.chars <= size);
	if (m.nh.present && !m.nh.malformed) {
		FUZZ_ASSERT(strlen(m.nh.head) == SHA_HEX_LEN);
		FUZZ_ASSERT(m.nh.base.n > 0);
		FUZZ_ASSERT(m.nh.value == NH_YES || m.nh.value == NH_NO);
		FUZZ_ASSERT(m.nh.any_yes != m.nh.any_no);
	}
	if (m.check.present) {
		FUZZ_ASSERT(m.check.block_off < size || size == 0);
		if (m.check.has_head)
			FUZZ_ASSERT(strlen(m.check.head) == SHA_HEX_LEN);
		marker_rows_init(&it, text, size, &m.check);
		while (marker_rows_next(&it, &row)) {
			rows++;
			if (row.error != ROW_OK)
				invalid++;
			FUZZ_ASSERT(row.text.p >= text &&
				    row.text.p + row.text.n <= text + size);
			if (row.error == ROW_OK) {
				FUZZ_ASSERT(row.id.n > 0 && row.reason.n > 0);
				FUZZ_ASSERT(!memchr(row.id.p, ',', row.id.n));
			}
		}
		FUZZ_ASSERT(rows == m.check.rows);
		FUZZ_ASSERT(invalid == m.check.invalid);
		FUZZ_ASSERT(m.check.blocking <= rows);
	}
	return 0;
}
