/*
 * fuzz.c - the live port's decoders over one answer, with no network and
 * no state: the entry point of tests/fuzz/fuzz_graphql.c and fuzz_rest.c
 * (github_live_fuzz). Everything decoded is freed, so beyond "no crash"
 * the campaign's LeakSanitizer checks every failure path.
 */
#include "github/live.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "core/policy.h"
#include "github/live_int.h"

void github_live_fuzz(int which, const char *data, size_t len)
{
	struct live l;
	struct policy p;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *d, *repo, *pr, *node, *nodes;
	cJSON *root = NULL;
	size_t i;

	memset(&l, 0, sizeof(l));
	policy_init(&p);
	l.policy = &p;
	if (json_parse(&root, data, len, &err) < 0)
		goto out;
	switch (which) {
	case LIVE_FUZZ_PULL: {
		struct snap_pull out;
		struct history_reads pending = {NULL, 0, 0};
		char *cursor = NULL;
		bool more;
		size_t k;

		memset(&out, 0, sizeof(out));
		if (jget_obj(&d, root, "", "data", 0, &err) < 0 ||
		    jget_obj(&repo, d, "data", "repository", 0, &err) < 0 ||
		    jget_obj(&pr, repo, "repository", "pullRequest", 0, &err) < 0)
			break;
		if (dec_pull_fields(&out, pr, &err) == 0)
			dec_head_status(&l, out.number, out.head_sha, pr, &err);
		for (k = 0; k < ARRAY_SIZE(conns); k++)
			if (dec_conn(&nodes, &more, &cursor, pr, conns[k].field,
				     &err) == 0)
				dec_nodes(&l, &out, conns[k].part, nodes, &pending,
					  &err);
		free(cursor);
		history_reads_release(&pending);
		snap_pull_release(&out);
		/* The same node as a pr-review read's page (review_pull.c):
		 * comments with their histories, threads with their review
		 * comments, commits. */
		{
			struct gh_review_pull rv;
			struct review_more rest;

			memset(&rv, 0, sizeof(rv));
			review_more_init(&rest);
			for (k = 0; k < ARRAY_SIZE(review_conns); k++)
				review_dec_page(&l, &rv, k, pr, &rest, &err);
			review_more_release(&rest);
			gh_review_pull_release(&rv);
		}
		break;
	}
	case LIVE_FUZZ_EDITS: {
		/* data.nodes[] (edits_query) and data.node (a later page). */
		const cJSON *one;
		char *cursor = NULL;
		bool more;

		if (jget_obj(&d, root, "", "data", 0, &err) < 0)
			break;
		nodes = json_get(d, "nodes");
		one = json_get(d, "node");
		cJSON_ArrayForEach(node, nodes)
		{
			struct snap_comment c;

			memset(&c, 0, sizeof(c));
			if (dec_comment_node(node, NULL, &err) == 0 &&
			    dec_edits(&c, node, &more, &cursor, &err) == 0 &&
			    c.nedits > 1)
				qsort(c.edits, c.nedits, sizeof(*c.edits),
				      cmp_edit);
			snap_comment_release(&c);
		}
		if (one) {
			struct snap_comment c;

			memset(&c, 0, sizeof(c));
			if (dec_comment_node(one, NULL, &err) == 0)
				dec_edits(&c, one, &more, &cursor, &err);
			snap_comment_release(&c);
		}
		free(cursor);
		break;
	}
	case LIVE_FUZZ_STATUSES:
		cJSON_ArrayForEach(node, root)
		{
			struct snap_status x;

			memset(&x, 0, sizeof(x));
			dec_status(&x, node, &err);
			snap_status_release(&x);
		}
		break;
	case LIVE_FUZZ_LISTING:
		if (jget_obj(&d, root, "", "data", 0, &err) < 0 ||
		    jget_obj(&repo, d, "data", "repository", 0, &err) < 0 ||
		    jget_obj(&pr, repo, "repository", "pullRequests", 0, &err) < 0 ||
		    jget_arr(&nodes, pr, "pullRequests", "nodes", 0, &err) < 0)
			break;
		cJSON_ArrayForEach(node, nodes)
		{
			struct gh_pull_brief b;

			memset(&b, 0, sizeof(b));
			if (jget_sha(b.head_sha, node, "n", "headRefOid", 0, &err) ==
			    0)
				dec_brief_extra(&b, node, &err);
			snap_statuses_release(&b.contexts);
			strv_free(b.approvers, b.napprovers);
		}
		break;
	case LIVE_FUZZ_BATCH:
		if (jget_obj(&d, root, "", "data", 0, &err) < 0 ||
		    jget_obj(&repo, d, "data", "repository", 0, &err) < 0)
			break;
		for (i = 0; i < LIVE_BATCH_MAX_PRS; i++) {
			struct prefetched one;
			char alias[32];

			if (snprintf(alias, sizeof(alias), "p%zu", i) < 0)
				break;
			if (dec_ahead(&l, json_get(repo, alias),
				      (int64_t)i + 1, &one, &err)) {
				snap_pull_release(&one.pull);
				snap_statuses_release(&one.contexts);
			}
		}
		break;
	default:
		break;
	}
out:
	cJSON_Delete(root);
	snap_statuses_release(&l.contexts.newest);
	buf_release(&err);
	policy_release(&p);
}
