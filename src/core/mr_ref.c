/*
 * mr_ref.c - G1's two forms of a GitLab merge request reference, and G2's
 * host rule: the host is the URL's or gitlab_host, never a default, and a
 * URL must name gitlab_host when it is set. Every byte is checked before
 * it is copied; what G1 does not list is refused rather than guessed.
 */
#include "core/mr_ref.h"

#include <string.h>

#include "base/util.h"

#define MR_PATH_SEP "/-/"
#define MR_MR_WORD  "merge_requests/"

struct view {
	const char *p;
	size_t n;
};

static bool starts(const char *p, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && memcmp(p, prefix, k) == 0;
}

static bool ends(const char *p, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && memcmp(p + n - k, suffix, k) == 0;
}

/* Printable ASCII without the space: what a URL or a path may hold. */
static bool printable(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)p[i] <= 0x20 || (unsigned char)p[i] >= 0x7f)
			return false;
	return true;
}

/*
 * HOST[:PORT] as url_authority reads it, and G1's limits: at most
 * MR_REF_HOST_MAX bytes, a HOST name starting and ending with a letter
 * or digit, PORT 1..65535. *name_len is HOST's length.
 */
static bool authority(const char *a, size_t n, size_t *name_len)
{
	size_t i;
	int64_t port;

	if (n == 0 || n > MR_REF_HOST_MAX || !url_authority(a, n, name_len))
		return false;
	i = *name_len;
	if (a[0] != '[' && (!is_alnum((unsigned char)a[0]) ||
			    !is_alnum((unsigned char)a[i - 1])))
		return false;
	if (i == n)
		return true;
	return parse_decimal(&port, a + i + 1, n - i - 1, 65535) == 0 &&
	       port >= 1;
}

bool mr_ref_loopback(const char *host, size_t len)
{
	size_t name_len;

	if (!authority(host, len, &name_len))
		return false;
	return host_is_loopback(host, name_len);
}

/*
 * One segment of a project path (G1): A-Z a-z 0-9 _ - . , not starting
 * with '-' or '.' (so never "." or ".."), not ending in ".git" or ".atom"
 * (GitLab's own path rule, as case-sensitive as snapshot.schema.json's).
 */
static bool segment_ok(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || s[0] == '-' || s[0] == '.')
		return false;
	for (i = 0; i < n; i++)
		if (!is_alnum((unsigned char)s[i]) && s[i] != '_' &&
		    s[i] != '-' && s[i] != '.')
			return false;
	return !ends(s, n, ".git") && !ends(s, n, ".atom");
}

static int check_path(struct view path, size_t *segments)
{
	size_t i, start = 0, count = 0;

	if (path.n > MR_REF_PATH_MAX)
		return MR_REF_EPATH_LONG;
	for (i = 0; i <= path.n; i++) {
		if (i < path.n && path.p[i] != '/')
			continue;
		if (!segment_ok(path.p + start, i - start))
			return MR_REF_EPATH;
		count++;
		start = i + 1;
	}
	if (count < MR_REF_SEGMENTS_MIN || count > MR_REF_SEGMENTS_MAX)
		return MR_REF_EDEPTH;
	*segments = count;
	return 0;
}

/* 1-9 digits, no leading zero; *used is how many bytes it took. */
static int parse_iid(int64_t *out, const char *p, size_t n, size_t *used)
{
	size_t k = 0;

	while (k < n && is_digit((unsigned char)p[k]))
		k++;
	if (k == 0 || k > MR_REF_IID_DIGITS_MAX || p[0] == '0')
		return MR_REF_EIID;
	if (parse_decimal(out, p, k, MR_REF_IID_MAX) < 0 || *out < 1)
		return MR_REF_EIID;
	*used = k;
	return 0;
}

/* After the IID: "", "/", "/diffs", "/commits" or "/pipelines", then an
 * optional "?..." and "#..." (their content is ignored). */
static bool suffix_ok(const char *p, size_t n)
{
	static const char *const tails[] = {"/diffs", "/commits", "/pipelines",
	                                    "/"};
	size_t i;

	for (i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		size_t k = strlen(tails[i]);

		if (starts(p, n, tails[i]) &&
		    (n == k || p[k] == '?' || p[k] == '#')) {
			p += k;
			n -= k;
			break;
		}
	}
	return n == 0 || p[0] == '?' || p[0] == '#';
}

static void copy_lower(char *dst, const char *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		dst[i] = (char)to_lower((unsigned char)src[i]);
	dst[n] = '\0';
}

/* gitlab_host set and well-formed: 1; unset: 0; malformed: error. */
static int config_host(const char *gitlab_host, size_t *len)
{
	size_t name_len;

	if (!gitlab_host || !*gitlab_host)
		return 0;
	*len = strnlen(gitlab_host, MR_REF_HOST_MAX + 1);
	if (!authority(gitlab_host, *len, &name_len))
		return MR_REF_ECONFIG_HOST;
	return 1;
}

static int parse_url(struct mr_ref *out, const char *p, size_t n)
{
	struct view auth, path;
	const char *rest, *sep;
	size_t name_len, used = 0;
	int error;

	if (starts(p, n, "https://")) {
		rest = p + 8;
	} else if (starts(p, n, "http://")) {
		rest = p + 7;
		out->http = true;
	} else {
		return MR_REF_ESCHEME;
	}
	n -= (size_t)(rest - p);
	auth.p = rest;
	auth.n = 0;
	while (auth.n < n && rest[auth.n] != '/')
		auth.n++;
	if (!authority(auth.p, auth.n, &name_len))
		return MR_REF_EHOST;
	if (out->http && !host_is_loopback(auth.p, name_len))
		return MR_REF_ESCHEME;
	if (auth.n == n)
		return MR_REF_EURL;
	path.p = auth.p + auth.n + 1;
	n -= auth.n + 1;
	/* The project path ends at the first "/-/": no segment is "-". */
	sep = NULL;
	for (path.n = 0; path.n + 3 <= n; path.n++)
		if (memcmp(path.p + path.n, MR_PATH_SEP, 3) == 0) {
			sep = path.p + path.n;
			break;
		}
	if (!sep)
		return MR_REF_EURL;
	if ((error = check_path(path, &out->segments)) < 0)
		return error;
	rest = sep + 3;
	n -= path.n + 3;
	if (!starts(rest, n, MR_MR_WORD))
		return MR_REF_EURL;
	rest += strlen(MR_MR_WORD);
	n -= strlen(MR_MR_WORD);
	if ((error = parse_iid(&out->iid, rest, n, &used)) < 0)
		return error;
	if (!suffix_ok(rest + used, n - used))
		return MR_REF_ESUFFIX;
	out->form = MR_REF_URL;
	copy_lower(out->host, auth.p, auth.n);
	memcpy(out->project, path.p, path.n);
	out->project[path.n] = '\0';
	return 0;
}

static int parse_bang(struct mr_ref *out, const char *p, size_t n,
                      const char *bang)
{
	struct view path = {p, (size_t)(bang - p)};
	size_t used = 0;
	int error;

	if ((error = check_path(path, &out->segments)) < 0)
		return error;
	if ((error = parse_iid(&out->iid, bang + 1, n - path.n - 1, &used)) < 0)
		return error;
	if (used != n - path.n - 1)
		return MR_REF_ESUFFIX;
	out->form = MR_REF_BANG;
	memcpy(out->project, path.p, path.n);
	out->project[path.n] = '\0';
	return 0;
}

int mr_ref_parse(struct mr_ref *out, const char *untrusted, size_t len,
                 const char *gitlab_host)
{
	const char *bang;
	size_t host_len = 0;
	int error, configured;

	memset(out, 0, sizeof(*out));
	if (!untrusted)
		return MR_REF_ENOT_GITLAB;
	if (mem_contains(untrusted, len, "://")) {
		if (!mem_contains(untrusted, len, "/-/merge_requests"))
			return MR_REF_ENOT_GITLAB;
	} else if (!memchr(untrusted, '!', len)) {
		return MR_REF_ENOT_GITLAB;
	}
	if (len > MR_REF_INPUT_MAX) {
		error = MR_REF_ETOO_LONG;
		goto out;
	}
	if (!printable(untrusted, len)) {
		error = MR_REF_ECHAR;
		goto out;
	}
	configured = config_host(gitlab_host, &host_len);
	if (configured < 0) {
		error = configured;
		goto out;
	}
	if (mem_contains(untrusted, len, "://")) {
		error = parse_url(out, untrusted, len);
		if (!error && configured &&
		    !(strlen(out->host) == host_len &&
		      mem_eq_nocase(gitlab_host, host_len, out->host)))
			error = MR_REF_EOTHER_HOST;
	} else {
		bang = memchr(untrusted, '!', len);
		error = parse_bang(out, untrusted, len, bang);
		if (!error && !configured)
			error = MR_REF_ENO_HOST;
		if (!error)
			copy_lower(out->host, gitlab_host, host_len);
	}
out:
	if (error)
		memset(out, 0, sizeof(*out));
	return error;
}

bool mr_ref_names(const struct mr_ref *r, const char *host, const char *project)
{
	return r && host && project && str_eq_nocase(r->host, host) &&
	       str_eq_nocase(r->project, project);
}

const char *mr_ref_strerror(int error)
{
	switch (error) {
	case 0:
		return "no error";
	case MR_REF_ENOT_GITLAB:
		return "not a GitLab merge request reference";
	case MR_REF_ETOO_LONG:
		return "the reference is longer than 4096 bytes";
	case MR_REF_ECHAR:
		return "the reference holds a byte that is not printable ASCII";
	case MR_REF_ESCHEME:
		return "not an https:// URL (http:// only on a loopback host)";
	case MR_REF_EHOST:
		return "the URL's host is not HOST[:PORT]";
	case MR_REF_EPATH:
		return "a project path segment is not A-Z a-z 0-9 _ - . "
		       "(not starting with - or ., not ending in .git or "
		       ".atom)";
	case MR_REF_EDEPTH:
		return "the project path does not have 2 to 21 segments";
	case MR_REF_EPATH_LONG:
		return "the project path is longer than 1024 bytes";
	case MR_REF_EURL:
		return "not a merge request URL "
		       "(https://HOST/GROUP/PROJECT/-/merge_requests/IID)";
	case MR_REF_EIID:
		return "the IID is not 1-9 digits without a leading zero";
	case MR_REF_ESUFFIX:
		return "unexpected text after the IID";
	case MR_REF_ENO_HOST:
		return "GROUP/PROJECT!IID needs gitlab_host (no default host)";
	case MR_REF_ECONFIG_HOST:
		return "gitlab_host is not HOST[:PORT]";
	case MR_REF_EOTHER_HOST:
		return "the URL names another host than gitlab_host";
	default:
		return "unknown error";
	}
}
