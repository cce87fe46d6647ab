/*
 * gitlab_body.c - G13's quick-action neutralisation: the one function
 * every GitLab body (sticky, root, dry-run payload) passes through after
 * rendering and before any comparison or write.
 */
#include <stdbool.h>

#include "formats/gitlab_body.h"

int gitlab_neutralise(struct buf *b)
{
	struct buf out = BUF_INIT(b->max);
	bool bol = true;
	int error = buf_error(b);

	if (error < 0)
		return error;
	for (size_t i = 0; i < b->len; i++) {
		if (bol && b->ptr[i] == '/')
			buf_addch(&out, ' ');
		buf_addch(&out, b->ptr[i]);
		bol = b->ptr[i] == '\n';
	}
	error = buf_error(&out);
	if (error < 0) {
		buf_release(&out);
		buf_fail(b, error);
		return error;
	}
	buf_release(b);
	*b = out;
	return 0;
}
