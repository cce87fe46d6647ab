/*
 * graphql.c - every GraphQL document the live port sends: a PR's parts in
 * one query (each connection's first page, and the head's newest status
 * per context), a connection's further pages, the sweep's listings, the
 * read-ahead batch, edit histories (A5), a label, a PR's base. Text only:
 * nothing here sends or decodes. tests/print_queries.c lists them all, so
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
	 ",itemTypes:[LABELED_EVENT,UNLABELED_EVENT,BASE_REF_CHANGED_EVENT]){nodes{"
	 "__typename ... on LabeledEvent{actor{__typename login} createdAt label{name}} "
	 "... on UnlabeledEvent{actor{__typename login} createdAt label{name}} "
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

/* Edit histories (A5): a page of userContentEdits. GraphQL gives a bot
 * editor's login without "[bot]": the __typename puts it back (dec_login). */
#define EDITS_SELECTION                                                     \
	"nodes{editedAt editor{__typename login}} pageInfo{hasNextPage "    \
	"endCursor}}"

static const char query_page[] =
	"query($owner:String!,$name:String!,$number:Int!,$after:String!)";
static const char query_number[] =
	"query($owner:String!,$name:String!,$number:Int!)";
static const char query_edits[] =
	"query($owner:String!,$name:String!,$number:Int!,$ids:[ID!]!)";

void pull_query(struct buf *q, unsigned parts, bool edits)
{
	size_t i;

	buf_addf(q, "%s{repository(owner:$owner,name:$name){%spullRequest("
		    "number:$number){", edits ? query_edits : query_number,
		 (parts & PART_PULL) ? "defaultBranchRef{name} " : "");
	if (parts & PART_PULL)
		buf_adds(q, pull_fields);
	for (i = 0; i < ARRAY_SIZE(conns); i++) {
		if (!(parts & conns[i].part))
			continue;
		buf_addf(q, " %s%s%s", conns[i].head, conns[i].tail, page_info);
	}
	if (parts & PART_HEAD_STATUS)
		buf_addf(q, " %s", head_status);
	buf_adds(q, "}}");
	if (edits)
		buf_adds(q, " edits:nodes(ids:$ids){__typename ... on "
			    "IssueComment{id userContentEdits(first:100){"
			    EDITS_SELECTION "}}");
	buf_adds(q, "}");
}

/*
 * PUBLISH's reads (review_pull.c): the comments with their edit histories
 * (U2 needs the sticky's whole history, T2 the verdicts'), the review
 * threads with their comments (U3's roots, H4's replies), the commits (H3's
 * ancestry). Each a connection of the pull, paged like conns[].
 */
const struct conn_query review_conns[LIVE_REVIEW_NCONNS] = {
	{RV_READ_COMMENTS, "comments", "comments(first:100",
	 "){nodes{id fullDatabaseId author{__typename login} body createdAt "
	 "lastEditedAt editor{__typename login} url "
	 "userContentEdits(first:100){" EDITS_SELECTION "}"},
	{RV_READ_ROOTS, "reviewThreads", "reviewThreads(first:100",
	 "){nodes{comments(first:100){nodes{fullDatabaseId "
	 "author{__typename login} body path line startLine commit{oid} "
	 "replyTo{fullDatabaseId} pullRequestReview{fullDatabaseId} "
	 "createdAt url} pageInfo{hasNextPage endCursor}}}"},
	{RV_READ_COMMITS, "commits", "commits(first:100",
	 "){totalCount nodes{commit{oid}}"},
};

void review_query(struct buf *q, unsigned what, bool viewer)
{
	size_t i;

	buf_addf(q, "%s{", query_number);
	if (viewer)
		buf_adds(q, "viewer{__typename login} ");
	buf_addf(q, "repository(owner:$owner,name:$name){pullRequest("
		    "number:$number){%s", pull_fields);
	for (i = 0; i < ARRAY_SIZE(review_conns); i++)
		if (what & review_conns[i].part)
			buf_addf(q, " %s%s%s", review_conns[i].head,
				 review_conns[i].tail, page_info);
	if (what & RV_READ_STATUS)
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
 * Several PRs' gate parts in one document, aliased p0, p1, …; PR i with
 * its first threads[i] review threads (at least 1).
 */
void batch_query(struct buf *q, const int64_t *prs, const int64_t *threads,
		 size_t n)
{
	size_t i, k;

	buf_adds(q, "query($owner:String!,$name:String!){repository(owner:"
		    "$owner,name:$name){defaultBranchRef{name} ");
	for (i = 0; i < n; i++) {
		buf_addf(q, "p%zu:pullRequest(number:%lld){%s", i,
			 (long long)prs[i], pull_fields);
		for (k = 0; k < ARRAY_SIZE(conns); k++) {
			if (conns[k].part == PART_COMMITS)
				continue;
			if (conns[k].part == PART_THREADS)
				buf_addf(q, " reviewThreads(first:%lld%s%s",
					 (long long)(threads[i] < 1 ? 1
								   : threads[i]),
					 conns[k].tail, page_info);
			else
				buf_addf(q, " %s%s%s", conns[k].head,
					 conns[k].tail, page_info);
		}
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
 * The sweep's listing, a probe of what changed: per PR, its head, base,
 * draft flag and updatedAt, the last 100 comments' ids and edits, and the
 * head's newest status per context — through the head branch, which is
 * no connection. GitHub charges a connection once per PR of the page, so
 * a page of 100 PRs costs 101 requests: 1 point. updatedAt moves with a
 * new comment, review, review comment, label or timeline event; the
 * comments show an edit (lastEditedAt, editor); docs/sweep.md has the
 * table. No bodies, no approvals: pull_details reads those of the PRs the
 * probe found changed.
 */
const char probe_query[] =
	"query($owner:String!,$name:String!,$after:String){repository(owner:"
	"$owner,name:$name){pullRequests(states:[OPEN],first:100,after:$after,"
	"orderBy:{field:CREATED_AT,direction:ASC}){nodes{number headRefOid "
	"updatedAt baseRefName isDraft comments(last:100){totalCount "
	"nodes{fullDatabaseId lastEditedAt editor{__typename login}}} "
	"headRef{target{__typename ... on Commit{oid status{contexts{context "
	"state description createdAt targetUrl creator{__typename login}}}}}}} "
	"pageInfo{hasNextPage endCursor}}} rateLimit{cost remaining}}";

/* Several PRs' approvals and number of review threads, aliased p0, p1, …:
 * two connections a PR, so LIVE_DETAIL_PRS PRs cost one point. */
void details_query(struct buf *q, const int64_t *prs, size_t n)
{
	size_t i;

	buf_adds(q, "query($owner:String!,$name:String!){repository(owner:"
		    "$owner,name:$name){");
	for (i = 0; i < n; i++)
		buf_addf(q, "p%zu:pullRequest(number:%lld){number "
			    "reviews(last:100){totalCount nodes{state "
			    "author{__typename login}}} "
			    "reviewThreads(first:1){totalCount}} ",
			 i, (long long)prs[i]);
	buf_adds(q, "}}");
}

/* Edit histories (A5): several comments' first pages, then one comment's
 * further pages. */
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

const char *const gql_kind_names[GQL_NKINDS] = {
	[GQL_PULL] = "pull",	       [GQL_PAGE] = "page",
	[GQL_PROBE] = "probe",	       [GQL_DETAILS] = "details",
	[GQL_OPEN_PULLS] = "open_pulls",
	[GQL_AHEAD] = "ahead",	       [GQL_EDITS] = "edits",
	[GQL_LABEL] = "label",	       [GQL_BASE] = "base",
	[GQL_REVIEW] = "review",
};

enum gql_kind gql_kind_of(const char *query)
{
	if (query == probe_query)
		return GQL_PROBE;
	if (query == open_pulls_query)
		return GQL_OPEN_PULLS;
	if (query == edits_query || query == edits_page_query)
		return GQL_EDITS;
	if (query == label_query)
		return GQL_LABEL;
	if (query == base_query)
		return GQL_BASE;
	if (!strncmp(query, query_page, strlen(query_page)))
		return GQL_PAGE;
	return GQL_PULL;
}

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
