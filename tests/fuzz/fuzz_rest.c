/*
 * fuzz_rest.c - the live port's strict decoder of a REST status history
 * page (GET /repos/{o}/{r}/commits/{sha}/statuses: a JSON array of
 * statuses), without a network (LIVE_FUZZ_STATUSES). Beyond "no crash",
 * the campaign's LeakSanitizer checks every failure path frees its work.
 */
#include "fuzz.h"
#include "github/live.h"

/* Inputs above this are not interesting (and slow the campaign). */
#define FUZZ_REST_MAX ((size_t)1 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > FUZZ_REST_MAX)
		return 0;
	github_live_fuzz(LIVE_FUZZ_STATUSES, (const char *)data, size);
	return 0;
}
