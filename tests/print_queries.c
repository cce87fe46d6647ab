/*
 * print_queries.c - print every GraphQL document the live port can send,
 * as a JSON array of {"name", "query"}, for the schema-validation test.
 */
#include <stdio.h>

#include "base/buf.h"
#include "github/live.h"

int main(void)
{
	struct buf out = BUF_INIT(BUF_MAX_DOC);

	github_live_queries(&out);
	fputs(out.ptr, stdout);
	buf_release(&out);
	return 0;
}
