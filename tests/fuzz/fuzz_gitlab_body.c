/*
 * fuzz_gitlab_body.c - G13's quick-action neutralisation
 * (formats/gitlab_body.c) on arbitrary bytes, then the sticky parser on
 * what it gives (what W1 compares and W5 reads back). Beyond "no crash":
 * no line of the result starts with `/`; dropping the one space put before
 * each such line gives the input back (no other byte changes); a second
 * pass changes nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "formats/gitlab_body.h"
#include "formats/sticky.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf b = BUF_INIT(BUF_MAX_DOC), again = BUF_INIT(BUF_MAX_DOC);
	struct buf back = BUF_INIT(BUF_MAX_DOC);
	struct sticky_info info;

	if (memchr(data, '\0', size))
		return 0; /* bodies are NUL-free (json_parse) */
	buf_add(&b, data, size);
	FUZZ_ASSERT(gitlab_neutralise(&b) == 0);
	for (size_t i = 0; i < b.len; i++) {
		bool bol = i == 0 || b.ptr[i - 1] == '\n';

		FUZZ_ASSERT(!(bol && b.ptr[i] == '/'));
		if (bol && b.ptr[i] == ' ' && i + 1 < b.len && b.ptr[i + 1] == '/' &&
		    !(back.len < size && data[back.len] == ' '))
			continue; /* the space G13 put there */
		buf_addch(&back, b.ptr[i]);
	}
	FUZZ_ASSERT(back.len == size && memcmp(back.ptr, data, size) == 0);
	buf_add(&again, b.ptr, b.len);
	FUZZ_ASSERT(gitlab_neutralise(&again) == 0);
	FUZZ_ASSERT(again.len == b.len && memcmp(again.ptr, b.ptr, b.len) == 0);
	if (sticky_parse(&info, b.ptr, b.len) == 0)
		sticky_info_release(&info);
	buf_release(&b);
	buf_release(&again);
	buf_release(&back);
	return 0;
}
