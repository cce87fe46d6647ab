/*
 * mr_ref.h - a GitLab merge request reference, as `--pr` and a snapshot's
 * `command.pr` give it (docs/rules/gitlab.md G1, G2).
 *
 * Two forms:
 *   1. https://HOST[:PORT]/GROUP[/SUBGROUP...]/PROJECT/-/merge_requests/IID
 *      optionally followed by one of "/", "/diffs", "/commits",
 *      "/pipelines", then an optional "?query" and "#fragment" (ignored);
 *      http:// only on a loopback host (A8).
 *   2. GROUP[/SUBGROUP...]/PROJECT!IID, the host being `gitlab_host`.
 * A bare N and OWNER/REPO#N are GitHub's (PUBLISH §2): they, and anything
 * that is neither form's shape, are MR_REF_ENOT_GITLAB, for the caller to
 * read as GitHub's. The platform is never guessed beyond that.
 *
 * Pure: no allocation, no I/O; the result is copied into fixed buffers
 * inside struct mr_ref, bounded by the limits below.
 */
#ifndef AA_MR_REF_H
#define AA_MR_REF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* G1: a project path of at most 1,024 bytes in all. */
#define MR_REF_PATH_MAX 1024
/* G1: GROUP/PROJECT at least; GitLab nests subgroups 20 deep. */
#define MR_REF_SEGMENTS_MIN 2
#define MR_REF_SEGMENTS_MAX 21
/* HOST[:PORT] as snapshot.schema.json's `host` bounds it. */
#define MR_REF_HOST_MAX 255
/* The whole reference: the path, the host and a query or fragment that a
 * copied browser URL may carry; longer is refused, not truncated. */
#define MR_REF_INPUT_MAX 4096
/* G1: 1-9 decimal digits, no leading zero, at most 2^31-1. */
#define MR_REF_IID_DIGITS_MAX 9
#define MR_REF_IID_MAX        INT64_C(2147483647)

enum mr_ref_form {
	MR_REF_URL = 1, /* form 1: the host is the URL's */
	MR_REF_BANG     /* form 2: the host is gitlab_host */
};

/* Errors (negative); 0 is success. */
enum {
	MR_REF_ENOT_GITLAB = -1, /* neither form's shape: GitHub's to read */
	MR_REF_ETOO_LONG = -2,   /* over MR_REF_INPUT_MAX bytes */
	MR_REF_ECHAR = -3,       /* a byte that is not printable ASCII */
	MR_REF_ESCHEME = -4,     /* not https://, or http:// off loopback */
	MR_REF_EHOST = -5,       /* malformed HOST[:PORT] in the URL */
	MR_REF_EPATH = -6,       /* a malformed project path segment */
	MR_REF_EDEPTH = -7,      /* not 2 to 21 segments */
	MR_REF_EPATH_LONG = -8,  /* project path over MR_REF_PATH_MAX */
	MR_REF_EURL = -9,        /* not .../-/merge_requests/IID */
	MR_REF_EIID = -10,       /* IID empty, 0, leading zero, too long */
	MR_REF_ESUFFIX = -11,    /* something after the IID G1 does not list */
	MR_REF_ENO_HOST = -12,   /* the ! form without gitlab_host */
	MR_REF_ECONFIG_HOST = -13, /* gitlab_host is not HOST[:PORT] */
	MR_REF_EOTHER_HOST = -14   /* the URL's host is not gitlab_host (G2) */
};

struct mr_ref {
	enum mr_ref_form form;
	bool http;                         /* http:// (loopback host) */
	char host[MR_REF_HOST_MAX + 1];    /* HOST[:PORT], lower case */
	char project[MR_REF_PATH_MAX + 1]; /* as written (GitLab's case) */
	size_t segments;                   /* of project */
	int64_t iid;
};

/*
 * Parse the untrusted reference of len bytes (need not be NUL-terminated).
 * gitlab_host is the configuration's `gitlab_host` (G2), or NULL or "" when
 * unset: form 2 needs it, and form 1 must then name it (compared
 * case-insensitively, port included). Returns 0 and fills *out, or one of
 * the MR_REF_E* errors (then *out is zeroed). Nothing is kept of the input.
 */
int mr_ref_parse(struct mr_ref *out, const char *untrusted, size_t len,
                 const char *gitlab_host);

/*
 * Does the reference name this host and project path? Both compare ASCII
 * case-insensitively (GitLab's hosts and full paths are looked up without
 * regard to case; P32 does the same for GitHub repositories); the host's
 * port must match as written.
 */
bool mr_ref_names(const struct mr_ref *r, const char *host,
                  const char *project);

/* One line for an error code ("the IID is not 1-9 digits without a
 * leading zero", ...); never NULL. */
const char *mr_ref_strerror(int error);

/* Is HOST[:PORT] a loopback host (127.0.0.0/8 as four decimal octets,
 * localhost, [::1]), the only hosts http:// may name (A8)? */
bool mr_ref_loopback(const char *host, size_t len);

#endif
