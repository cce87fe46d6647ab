/*
 * print_queries.c - print every GraphQL document the live port can send,
 * as a JSON array of {"name", "query"}, for the schema-validation test
 * (tests/integration/queries.test.mjs). It builds them with the live
 * port's own document builders (src/github/graphql.c), as sent
 * (gql_document).
 */
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/json.h"
#include "github/live_int.h"

/* A document as it is sent (gql_document). */
static void emit_query(struct jw *w, const char *name, const char *query)
{
	struct buf sent = BUF_INIT(BUF_MAX_DOC);

	gql_document(&sent, query, strlen(query));
	jw_obj_begin(w);
	jw_key(w, "name");
	jw_str(w, name);
	jw_key(w, "query");
	jw_str(w, sent.ptr);
	jw_obj_end(w);
	buf_release(&sent);
}

static void print_all(struct buf *out)
{
	struct buf q = BUF_INIT(BUF_MAX_SMALL), name = BUF_INIT(BUF_MAX_SMALL);
	struct jw w;
	unsigned parts;
	size_t i;

	jw_init(&w, out, true);
	jw_arr_begin(&w);
	/* Every subset of parts a read can ask for. */
	for (parts = 1; parts <= (PART_ALL | PART_HEAD_STATUS); parts++) {
		buf_setf(&name, "pull parts 0x%02x", parts);
		buf_reset(&q);
		pull_query(&q, parts, false);
		emit_query(&w, name.ptr, q.ptr);
		if (!(parts & PART_COMMENTS))
			continue;
		buf_setf(&name, "pull parts 0x%02x with edits", parts);
		buf_reset(&q);
		pull_query(&q, parts, true);
		emit_query(&w, name.ptr, q.ptr);
	}
	for (i = 0; i < ARRAY_SIZE(conns); i++) {
		buf_reset(&q);
		page_query(&q, &conns[i]);
		emit_query(&w, conns[i].field, q.ptr);
	}
	/* Every subset of what a pr-review read can ask for (review_pull). */
	for (parts = 0; parts < (RV_READ_VIEWER << 1); parts++) {
		buf_setf(&name, "review read 0x%02x", parts);
		buf_reset(&q);
		review_query(&q, parts, parts & RV_READ_VIEWER);
		emit_query(&w, name.ptr, q.ptr);
	}
	for (i = 0; i < ARRAY_SIZE(review_conns); i++) {
		buf_setf(&name, "review %s page", review_conns[i].field);
		buf_reset(&q);
		page_query(&q, &review_conns[i]);
		emit_query(&w, name.ptr, q.ptr);
	}
	emit_query(&w, "open pulls", open_pulls_query);
	emit_query(&w, "probe", probe_query);
	buf_reset(&q);
	batch_query(&q, (const int64_t[]){7, 8, 9},
	            (const int64_t[]){0, 14, 100}, 3);
	emit_query(&w, "prefetch", q.ptr);
	buf_reset(&q);
	details_query(&q, (const int64_t[]){7, 8, 9}, 3);
	emit_query(&w, "details", q.ptr);
	emit_query(&w, "edits", edits_query);
	emit_query(&w, "edits page", edits_page_query);
	emit_query(&w, "label", label_query);
	emit_query(&w, "base", base_query);
	jw_arr_end(&w);
	buf_release(&q);
	buf_release(&name);
}

int main(void)
{
	struct buf out = BUF_INIT(BUF_MAX_DOC);

	print_all(&out);
	fputs(out.ptr, stdout);
	buf_release(&out);
	return 0;
}
