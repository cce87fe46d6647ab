/*
 * fuzz_mr_ref.c - G1's merge request reference parser (core/mr_ref.c) on
 * arbitrary bytes. The first byte picks gitlab_host (unset, a name, a
 * loopback host with a port, or the bytes up to the first newline); the
 * rest is the reference. Beyond "no crash", checks what callers rely on:
 * a refusal leaves nothing, an accepted reference is within G1's limits,
 * names its own host and path, and reads back the same once rebuilt.
 */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "core/mr_ref.h"

static const char *const hosts[] = {NULL, "gitlab.example.com",
                                    "127.0.0.1:8929", ""};

static int allowed(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' ||
	       c == '/';
}

static void check_ok(const struct mr_ref *r, const char *data, size_t size,
                     const char *gitlab_host)
{
	char again[MR_REF_PATH_MAX + MR_REF_HOST_MAX + 64];
	struct mr_ref r2;
	size_t i, n = strlen(r->project), slashes = 0;
	int len;

	FUZZ_ASSERT(r->form == MR_REF_URL || r->form == MR_REF_BANG);
	FUZZ_ASSERT(n >= 3 && n <= MR_REF_PATH_MAX);
	FUZZ_ASSERT(r->iid >= 1 && r->iid <= MR_REF_IID_MAX);
	FUZZ_ASSERT(r->host[0] && strlen(r->host) <= MR_REF_HOST_MAX);
	for (i = 0; i < n; i++) {
		FUZZ_ASSERT(allowed(r->project[i]));
		slashes += r->project[i] == '/';
	}
	FUZZ_ASSERT(slashes + 1 == r->segments);
	FUZZ_ASSERT(r->segments >= MR_REF_SEGMENTS_MIN &&
	            r->segments <= MR_REF_SEGMENTS_MAX);
	for (i = 0; r->host[i]; i++)
		FUZZ_ASSERT(!(r->host[i] >= 'A' && r->host[i] <= 'Z'));
	FUZZ_ASSERT(mr_ref_names(r, r->host, r->project));
	if (r->http)
		FUZZ_ASSERT(mr_ref_loopback(r->host, strlen(r->host)));
	if (r->form == MR_REF_BANG)
		FUZZ_ASSERT(gitlab_host && *gitlab_host);
	if (gitlab_host && *gitlab_host)
		FUZZ_ASSERT(mr_ref_names(r, gitlab_host, r->project));
	/* The project path is the input's own bytes. */
	FUZZ_ASSERT(n <= size);
	for (i = 0; i + n <= size; i++)
		if (memcmp(data + i, r->project, n) == 0)
			break;
	FUZZ_ASSERT(i + n <= size);
	/* Rebuilt in either form, it reads back the same. */
	len = snprintf(again, sizeof(again), "%s!%lld", r->project,
	               (long long)r->iid);
	FUZZ_ASSERT(len > 0 && (size_t)len < sizeof(again));
	FUZZ_ASSERT(mr_ref_parse(&r2, again, (size_t)len, r->host) == 0);
	FUZZ_ASSERT(strcmp(r2.project, r->project) == 0 && r2.iid == r->iid &&
	            strcmp(r2.host, r->host) == 0);
	len = snprintf(again, sizeof(again), "%s://%s/%s/-/merge_requests/%lld",
	               r->http ? "http" : "https", r->host, r->project,
	               (long long)r->iid);
	FUZZ_ASSERT(len > 0 && (size_t)len < sizeof(again));
	FUZZ_ASSERT(mr_ref_parse(&r2, again, (size_t)len, NULL) == 0);
	FUZZ_ASSERT(strcmp(r2.project, r->project) == 0 && r2.iid == r->iid &&
	            strcmp(r2.host, r->host) == 0 && r2.http == r->http);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct mr_ref zero;
	char host[MR_REF_HOST_MAX + 2];
	const char *gitlab_host, *text;
	struct mr_ref r, r2;
	size_t n, i;
	int e;

	if (size == 0)
		return 0;
	if (data[0] % 5 < 4) {
		gitlab_host = hosts[data[0] % 5];
		text = (const char *)data + 1;
		n = size - 1;
	} else {
		for (i = 1;
		     i < size && data[i] != '\n' && i <= sizeof(host) - 1; i++)
			host[i - 1] = (char)(data[i] ? data[i] : 'x');
		host[i - 1] = '\0';
		gitlab_host = host;
		text = (const char *)data + i + (i < size);
		n = size - i - (i < size);
	}
	e = mr_ref_parse(&r, text, n, gitlab_host);
	FUZZ_ASSERT(e <= 0 && e >= MR_REF_EOTHER_HOST);
	FUZZ_ASSERT(mr_ref_strerror(e) != NULL);
	FUZZ_ASSERT(mr_ref_parse(&r2, text, n, gitlab_host) == e);
	if (e < 0) {
		FUZZ_ASSERT(memcmp(&r, &zero, sizeof(r)) == 0);
		return 0;
	}
	FUZZ_ASSERT(memcmp(&r, &r2, sizeof(r)) == 0);
	check_ok(&r, text, n, gitlab_host);
	return 0;
}
