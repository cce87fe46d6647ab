/*
 * fuzz_graphql.c - the live port's strict decoders of GraphQL answers,
 * without a network. The first byte picks the answer (its value modulo 4,
 * so the ASCII digits '0' to '3' name the modes in seed files):
 *   0  a pull bundle      data.repository.pullRequest       (LIVE_FUZZ_PULL;
 *                         also read as a pr-review read's page)
 *   1  the sweep listing  data.repository.pullRequests      (LIVE_FUZZ_LISTING)
 *   2  a read-ahead batch data.repository.p0 … p9           (LIVE_FUZZ_BATCH)
 *   3  edit histories     data.nodes[] / data.node          (LIVE_FUZZ_EDITS)
 * The rest is the answer's body. Decoding frees everything it made, so
 * beyond "no crash" the campaign's LeakSanitizer checks every failure path.
 */
#include "fuzz.h"
#include "github/live.h"

/* Inputs above this are not interesting (and slow the campaign). */
#define FUZZ_GRAPHQL_MAX ((size_t)1 << 20)

static const int modes[] = {LIVE_FUZZ_PULL, LIVE_FUZZ_LISTING, LIVE_FUZZ_BATCH,
			    LIVE_FUZZ_EDITS};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > FUZZ_GRAPHQL_MAX)
		return 0;
	github_live_fuzz(modes[data[0] % (sizeof(modes) / sizeof(modes[0]))],
	                 (const char *)data + 1, size - 1);
	return 0;
}
