/*
 * graphql.c - every GraphQL document the live port sends: a PR's parts in
 * one query (each connection's first page, and the head's newest status
 * per context), a connection's further pages, the sweep's listings, the
 * read-ahead batch, edit histories (A5), a label, a PR's base. Text only:
 * nothing here sends or decodes. github_live_queries() lists them all, so
 * a test checks each against GitHub's schema.
 */
#include "github/live.h"

#include <string.h>

#include "base/json.h"
#include "base/util.h"
#include "github/live_int.h"

static const char pull_fields[] =
	"number state merged isDraft author{__typename login} headRefOid headRefName "
	"headRepository{nameWithOwner} baseRefName baseRefOid updatedAt";
static const char page_info[] = " pageInfo{hasNextPage endCursor}}";

const struct conn_query conns[] = {
	{PART_LABELS, "labels", "labels(first:100", "){nodes{name}"},
	{PART_COMMENTS, "comments", "comments(first:100",
	 "){nodes{id fullDatabaseId author{__typename login} body createdAt "
	 "lastEditedAt editor{__typename login} url}"},
	{PART_TIMELINE, "timelineItems", "timelineItems(first:100",
	 ",itemTypes:[UNLABELED_EVENT,BASE_REF_CHANGED_EVENT]){nodes{"
	 "__typename ... on UnlabeledEvent{actor{__typename login} createdAt label{name}} "
	 "... on BaseRefChangedEvent{actor{__typename login} createdAt}}"},
	{PART_THREADS, "reviewThreads", "reviewThreads(first:100",
	 "){nodes{id isResolved comments(first:1){totalCount "
	 "nodes{author{__typename login} url}}}"},
	{PART_REVIEWS, "reviews", "reviews(first:100",
	 "){nodes{fullDatabaseId author{__typename login} state commit{oid} submittedAt}"},
	{PART_COMMITS, "commits", "commits(first:100",
	 "){totalCount nodes{commit{oid}}"},
};

static const char head_status[] =
	"headStatus:commits(last:1){nodes{commit{oid status{contexts{context "
	"state description createdAt targetUrl creator{__typename login}}}}}}";

static const char query_page[] =
	"query($owner:String!,$name:String!,$number:Int!,$after:String!)";
static const char query_number[] =
	"query($owner:String!,$name:String!,$number:Int!)";

void pull_query(struct buf *q, unsigned parts)
{
	size_t i;

	buf_addf(q, "%s{repository(owner:$owner,name:$name){pullRequest("
		    "number:$number){", query_number);
	if (parts & PART_PULL)
		buf_adds(q, pull_fields);
	for (i = 0; i < ARRAY_SIZE(conns); i++) {
		if (!(parts & conns[i].part))
			continue;
		buf_addf(q, " %s%s%s", conns[i].head, conns[i].tail, page_info);
	}
	if (parts & PART_HEAD_STATUS)
		buf_addf(q, " %s", head_status);
	buf_adds(q, "}}}");
}

void page_query(struct buf *q, const struct conn_query *c)
{
	buf_addf(q, "%s{repository(owner:$owner,name:$name){pullRequest("
		    "number:$number){%s,after:$after%s%s}}}",
		 query_page, c->head, c->tail, page_info);
}

/*
 * The first page of review threads in a batch. GitHub prices a nested
 * connection by its parent's page size: each thread's comments(first:1)
 * costs one request per thread asked for, so 100 threads a PR made a
 * batch of 40 PRs cost 42 points, 20 cost 10. A PR with more threads than
 * this is left out of the batch and read on its own (all its pages).
 */
#define BATCH_THREADS "reviewThreads(first:20"

/* Several PRs' gate parts in one document, aliased p0, p1, … */
void batch_query(struct buf *q, const int64_t *prs, size_t n)
{
	size_t i, k;

	buf_adds(q, "query($owner:String!,$name:String!){repository(owner:"
		    "$owner,name:$name){");
	for (i = 0; i < n; i++) {
		buf_addf(q, "p%zu:pullRequest(number:%lld){%s", i,
			 (long long)prs[i], pull_fields);
		for (k = 0; k < ARRAY_SIZE(conns); k++)
			if (conns[k].part != PART_COMMITS)
				buf_addf(q, " %s%s%s",
					 conns[k].part == PART_THREADS
						 ? BATCH_THREADS
						 : conns[k].head,
					 conns[k].tail, page_info);
		buf_addf(q, " %s} ", head_status);
	}
	buf_adds(q, "}}");
}

const char open_pulls_query[] =
	"query($owner:String!,$name:String!,$after:String){repository(owner:"
	"$owner,name:$name){pullRequests(states:[OPEN],first:100,after:$after,"
	"orderBy:{field:CREATED_AT,direction:ASC}){nodes{number headRefOid "
	"updatedAt} pageInfo{hasNextPage endCursor}}}}";
/*
 * The sweep's listing: per PR, what tells whether it changed since the
 * last sweep, whether it is in the review flow (the head's newest status
 * per context) and whose approvals it carries — no bodies.
 *
 * Its price is its nested connections: GitHub charges each one once per PR
 * of the page, so a page of 100 PRs with four costs 4 points (401
 * requests), with six 6. Four carry every change a gate reads (docs/
 * sweep.md has the table): labels; comments (new ones, and edits by
 * lastEditedAt and editor); reviews (a review, a new thread and a reply to
 * one are all reviews); the head's statuses. A push shows in headRefOid, a
 * retarget in baseRefName, an unlabel in the labels, and each of them
 * (a label removed and put back too) in updatedAt.
 */
const char listing_query[] =
	"query($owner:String!,$name:String!,$after:String){repository(owner:"
	"$owner,name:$name){pullRequests(states:[OPEN],first:100,after:$after,"
	"orderBy:{field:CREATED_AT,direction:ASC}){nodes{number headRefOid "
	"updatedAt baseRefName isDraft labels(first:100){totalCount "
	"nodes{name}} comments(last:100){totalCount nodes{fullDatabaseId "
	"lastEditedAt editor{__typename login}}} "
	"reviews(last:100){totalCount "
	"nodes{fullDatabaseId state author{__typename login} commit{oid}}} "
	"headStatus:commits(last:1){nodes{commit{oid status{contexts{context "
	"state description createdAt targetUrl creator{__typename login}}}}}}} "
	"pageInfo{hasNextPage endCursor}}} rateLimit{cost remaining}}";
/* Edit histories (A5): several comments' first pages, then one comment's
 * further pages. GraphQL gives a bot editor's login without "[bot]": the
 * __typename puts it back (dec_login). */
#define EDITS_SELECTION                                                     \
	"nodes{editedAt editor{__typename login}} pageInfo{hasNextPage "    \
	"endCursor}}"
const char edits_query[] =
	"query($ids:[ID!]!){nodes(ids:$ids){__typename ... on IssueComment{id "
	"userContentEdits(first:100){" EDITS_SELECTION "}}}";
const char edits_page_query[] =
	"query($id:ID!,$after:String!){node(id:$id){__typename ... on "
	"IssueComment{userContentEdits(first:100,after:$after){" EDITS_SELECTION
	"}}}";
const char label_query[] =
	"query($owner:String!,$name:String!,$label:String!){repository(owner:"
	"$owner,name:$name){label(name:$label){name}}}";
const char base_query[] =
	"query($owner:String!,$name:String!,$number:Int!){repository(owner:"
	"$owner,name:$name){pullRequest(number:$number){headRefOid baseRefOid}"
	"}}";

void gql_document(struct buf *out, const char *query, size_t len)
{
	/* Every document ends with its operation's closing brace: the cost
	 * goes inside it, unless the document asks for rateLimit itself. */
	if (len && query[len - 1] == '}' && !strstr(query, "rateLimit{")) {
		buf_add(out, query, len - 1);
		buf_adds(out, " rateLimit{cost}}");
	} else {
		buf_add(out, query, len);
	}
}

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

void github_live_queries(struct buf *out)
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
		pull_query(&q, parts);
		emit_query(&w, name.ptr, q.ptr);
	}
	for (i = 0; i < ARRAY_SIZE(conns); i++) {
		buf_reset(&q);
		page_query(&q, &conns[i]);
		emit_query(&w, conns[i].field, q.ptr);
	}
	emit_query(&w, "open pulls", open_pulls_query);
	emit_query(&w, "listing", listing_query);
	buf_reset(&q);
	batch_query(&q, (const int64_t[]){7, 8, 9}, 3);
	emit_query(&w, "prefetch", q.ptr);
	emit_query(&w, "edits", edits_query);
	emit_query(&w, "edits page", edits_page_query);
	emit_query(&w, "label", label_query);
	emit_query(&w, "base", base_query);
	jw_arr_end(&w);
	buf_release(&q);
	buf_release(&name);
}
