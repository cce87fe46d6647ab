/*
 * test_mr_ref.c - G1's merge request references and G2's host rule
 * (docs/rules/gitlab.md): one row per case G1 lists and one per G1
 * fixture's command.pr (fixtures/gitlab 2000-2013, 2085, 2086, 2103,
 * 2104), parsed with the host the fixture's live run sets as gitlab_host
 * (the snapshot's host, fixtures/gitlab D2).
 */
#include "unit.h"

#include <stdio.h>

#include "core/mr_ref.h"

#define SNAP_HOST    "gitlab.example.com"
#define SNAP_PROJECT "platform/backend/svc"
#define MR_URL                                                                 \
	"https://gitlab.example.com/platform/backend/svc/-/merge_requests/"

/* 21 and 22 segments (G1's maximum and one more; fixtures 2103, 2104). */
#define DEEP20                                                                 \
	"org/g1/g2/g3/g4/g5/g6/g7/g8/g9/g10/g11/g12/g13/g14/g15/g16/g17/g18/"  \
	"g19"
#define DEEP21 DEEP20 "/svc"
#define DEEP22 DEEP20 "/g20/svc"

struct row {
	const char *ref;
	const char *gitlab_host; /* NULL: unset */
	int want;                /* 0 or MR_REF_E* */
	enum mr_ref_form form;
	const char *host; /* when want == 0 */
	const char *project;
	int64_t iid;
	bool names_snapshot; /* mr_ref_names(SNAP_HOST, SNAP_PROJECT) */
};

#define OK_URL(ref, gh, host, project, iid, names)                             \
	{                                                                      \
		ref, gh, 0, MR_REF_URL, host, project, iid, names              \
	}
#define OK_BANG(ref, gh, host, project, iid, names)                            \
	{                                                                      \
		ref, gh, 0, MR_REF_BANG, host, project, iid, names             \
	}
#define BAD(ref, gh, err)                                                      \
	{                                                                      \
		ref, gh, err, 0, NULL, NULL, 0, false                          \
	}

static const struct row rows[] = {
    /* --- the G1 fixtures, gitlab_host = the snapshot's host ---------- */
    /* 2000: form 1 */
    OK_URL(MR_URL "7", SNAP_HOST, SNAP_HOST, SNAP_PROJECT, 7, true),
    /* 2001: /diffs, a query and a fragment */
    OK_URL(MR_URL "7/diffs?view=parallel#note_451", SNAP_HOST, SNAP_HOST,
           SNAP_PROJECT, 7, true),
    /* 2002: form 2, the host from gitlab_host */
    OK_BANG("platform/backend/svc!7", SNAP_HOST, SNAP_HOST, SNAP_PROJECT, 7,
            true),
    /* 2003: hosts compare case-insensitively; kept lower case */
    OK_URL("https://GitLab.Example.COM/platform/backend/svc/-/"
           "merge_requests/7",
           SNAP_HOST, SNAP_HOST, SNAP_PROJECT, 7, true),
    /* 2004: OWNER/REPO#N stays GitHub's */
    BAD("backend/svc#7", SNAP_HOST, MR_REF_ENOT_GITLAB),
    /* 2005: another project parses, and names another project */
    OK_URL("https://gitlab.example.com/platform/backend/other/-/"
           "merge_requests/7",
           SNAP_HOST, SNAP_HOST, "platform/backend/other", 7, false),
    /* 2006: another host than gitlab_host */
    BAD("https://gitlab.other.example/platform/backend/svc/-/"
        "merge_requests/7",
        SNAP_HOST, MR_REF_EOTHER_HOST),
    /* 2007: a segment starting with '-' */
    BAD("https://gitlab.example.com/platform/-backend/svc/-/"
        "merge_requests/7",
        SNAP_HOST, MR_REF_EPATH),
    /* 2008: IID 0 */
    BAD("platform/backend/svc!0", SNAP_HOST, MR_REF_EIID),
    /* 2009: a leading zero */
    BAD(MR_URL "07", SNAP_HOST, MR_REF_EIID),
    /* 2010: http:// off loopback */
    BAD("http://gitlab.example.com/platform/backend/svc/-/"
        "merge_requests/7",
        SNAP_HOST, MR_REF_ESCHEME),
    /* 2011: a relative URL root is part of the project path */
    OK_URL("https://gitlab.example.com/gitlab/platform/backend/svc/-/"
           "merge_requests/7",
           SNAP_HOST, SNAP_HOST, "gitlab/platform/backend/svc", 7, false),
    /* 2012: one segment */
    BAD("svc!7", SNAP_HOST, MR_REF_EDEPTH),
    /* 2013: a path ending in .git */
    BAD("platform/backend/svc.git!7", SNAP_HOST, MR_REF_EPATH),
    /* 2085: http:// on a loopback host with a port */
    OK_URL("http://127.0.0.1:8929/platform/backend/svc/-/merge_requests/7",
           "127.0.0.1:8929", "127.0.0.1:8929", SNAP_PROJECT, 7, false),
    /* 2086: the port is part of the host */
    BAD("https://gitlab.example.com:8443/platform/backend/svc/-/"
        "merge_requests/7",
        SNAP_HOST, MR_REF_EOTHER_HOST),
    /* 2103: 21 segments */
    OK_URL("https://gitlab.example.com/" DEEP21 "/-/merge_requests/7",
           SNAP_HOST, SNAP_HOST, DEEP21, 7, false),
    /* 2104: 22 segments */
    BAD("https://gitlab.example.com/" DEEP22 "/-/merge_requests/7", SNAP_HOST,
        MR_REF_EDEPTH),

    /* --- form 1, accepted (G1) ---------------------------------------- */
    OK_URL(MR_URL "7", NULL, SNAP_HOST, SNAP_PROJECT, 7, true),
    OK_URL(MR_URL "7/", NULL, SNAP_HOST, SNAP_PROJECT, 7, true),
    OK_URL(MR_URL "7/diffs", NULL, SNAP_HOST, SNAP_PROJECT, 7, true),
    OK_URL(MR_URL "7/commits", NULL, SNAP_HOST, SNAP_PROJECT, 7, true),
    OK_URL(MR_URL "7/pipelines", NULL, SNAP_HOST, SNAP_PROJECT, 7, true),
    OK_URL(MR_URL "7?tab=overview", NULL, SNAP_HOST, SNAP_PROJECT, 7, true),
    OK_URL(MR_URL "7#note_12", NULL, SNAP_HOST, SNAP_PROJECT, 7, true),
    OK_URL(MR_URL "7/?a=1#b", NULL, SNAP_HOST, SNAP_PROJECT, 7, true),
    OK_URL(MR_URL "999999999", NULL, SNAP_HOST, SNAP_PROJECT, 999999999, true),
    OK_URL("https://gitlab.example.com:8443/a/b/-/merge_requests/1", NULL,
           "gitlab.example.com:8443", "a/b", 1, false),
    OK_URL("https://gitlab.example.com/My_Group/sub-group.x/Pro.ject_1/-/"
           "merge_requests/12",
           NULL, SNAP_HOST, "My_Group/sub-group.x/Pro.ject_1", 12, false),
    /* project paths compare case-insensitively, as hosts */
    OK_URL("https://gitlab.example.com/Platform/Backend/SVC/-/"
           "merge_requests/7",
           NULL, SNAP_HOST, "Platform/Backend/SVC", 7, true),
    OK_URL("http://localhost/a/b/-/merge_requests/1", NULL, "localhost", "a/b",
           1, false),
    OK_URL("http://[::1]:8080/a/b/-/merge_requests/1", NULL, "[::1]:8080",
           "a/b", 1, false),
    OK_URL("http://127.8.9.10/a/b/-/merge_requests/1", NULL, "127.8.9.10",
           "a/b", 1, false),
    /* a .git or .atom inside a segment is allowed; only the end is not */
    OK_URL("https://gitlab.example.com/a.gitx/b.atom.c/-/merge_requests/1",
           NULL, SNAP_HOST, "a.gitx/b.atom.c", 1, false),

    /* --- form 1, refused ----------------------------------------------- */
    BAD("ftp://gitlab.example.com/a/b/-/merge_requests/1", NULL,
        MR_REF_ESCHEME),
    BAD("HTTPS://gitlab.example.com/a/b/-/merge_requests/1", NULL,
        MR_REF_ESCHEME),
    BAD("http://127.0.0.1.evil.example/a/b/-/merge_requests/1", NULL,
        MR_REF_ESCHEME),
    BAD("http://127.1/a/b/-/merge_requests/1", NULL, MR_REF_ESCHEME),
    BAD("http://128.0.0.1/a/b/-/merge_requests/1", NULL, MR_REF_ESCHEME),
    BAD("https://user@gitlab.example.com/a/b/-/merge_requests/1", NULL,
        MR_REF_EHOST),
    BAD("https:///a/b/-/merge_requests/1", NULL, MR_REF_EHOST),
    BAD("https://-gitlab.example.com/a/b/-/merge_requests/1", NULL,
        MR_REF_EHOST),
    BAD("https://gitlab.example.com./a/b/-/merge_requests/1", NULL,
        MR_REF_EHOST),
    BAD("https://gitlab.example.com:0/a/b/-/merge_requests/1", NULL,
        MR_REF_EHOST),
    BAD("https://gitlab.example.com:65536/a/b/-/merge_requests/1", NULL,
        MR_REF_EHOST),
    BAD("https://gitlab.example.com:/a/b/-/merge_requests/1", NULL,
        MR_REF_EHOST),
    BAD("https://gitlab.example.com:123456/a/b/-/merge_requests/1", NULL,
        MR_REF_EHOST),
    BAD("https://[zz]/a/b/-/merge_requests/1", NULL, MR_REF_EHOST),
    BAD("https://gitlab%2eexample.com/a/b/-/merge_requests/1", NULL,
        MR_REF_EHOST),
    BAD("https://gitlab.example.com\\@evil.example/a/b/-/merge_requests/1",
        NULL, MR_REF_EHOST),
    BAD("https://gitlab.example.com/-/merge_requests/1", NULL, MR_REF_EURL),
    BAD("https://gitlab.example.com/a/b/-/issues/1?x=/-/merge_requests/2", NULL,
        MR_REF_EURL),
    BAD("https://gitlab.example.com/a/b/-/merge_requests", NULL, MR_REF_EURL),
    BAD("https://gitlab.example.com/a/b/-/merge_requests/", NULL, MR_REF_EIID),
    BAD("https://gitlab.example.com/a/-/merge_requests/1", NULL, MR_REF_EDEPTH),
    BAD("https://gitlab.example.com/a//b/-/merge_requests/1", NULL,
        MR_REF_EPATH),
    BAD("https://gitlab.example.com/a/./b/-/merge_requests/1", NULL,
        MR_REF_EPATH),
    BAD("https://gitlab.example.com/a/../b/-/merge_requests/1", NULL,
        MR_REF_EPATH),
    BAD("https://gitlab.example.com/a/.b/-/merge_requests/1", NULL,
        MR_REF_EPATH),
    BAD("https://gitlab.example.com/a/b.atom/-/merge_requests/1", NULL,
        MR_REF_EPATH),
    BAD("https://gitlab.example.com/a/b%2Fc/-/merge_requests/1", NULL,
        MR_REF_EPATH),
    BAD("https://gitlab.example.com/a/b~c/-/merge_requests/1", NULL,
        MR_REF_EPATH),
    BAD(MR_URL "0", NULL, MR_REF_EIID),
    BAD(MR_URL "1234567890", NULL, MR_REF_EIID),
    BAD(MR_URL "-7", NULL, MR_REF_EIID),
    BAD(MR_URL "x7", NULL, MR_REF_EIID),
    BAD(MR_URL "7x", NULL, MR_REF_ESUFFIX),
    BAD(MR_URL "7/notes", NULL, MR_REF_ESUFFIX),
    BAD(MR_URL "7/diffs/", NULL, MR_REF_ESUFFIX),
    BAD(MR_URL "7/diffsx", NULL, MR_REF_ESUFFIX),
    BAD(MR_URL "7//", NULL, MR_REF_ESUFFIX),
    BAD(MR_URL "7!8", NULL, MR_REF_ESUFFIX),
    BAD(MR_URL "7 ", NULL, MR_REF_ECHAR),
    BAD(MR_URL "7#caf\xc3\xa9", NULL, MR_REF_ECHAR),
    /* gitlab_host itself malformed */
    BAD(MR_URL "7", "https://gitlab.example.com", MR_REF_ECONFIG_HOST),
    BAD(MR_URL "7", "gitlab.example.com/x", MR_REF_ECONFIG_HOST),

    /* --- form 2 ---------------------------------------------------------- */
    OK_BANG("a/b!1", "GitLab.Example.com:8443", "gitlab.example.com:8443",
            "a/b", 1, false),
    OK_BANG(DEEP21 "!2147", SNAP_HOST, SNAP_HOST, DEEP21, 2147, false),
    BAD("platform/backend/svc!7", NULL, MR_REF_ENO_HOST),
    BAD("platform/backend/svc!7", "", MR_REF_ENO_HOST),
    BAD("platform/backend/svc!7", "gitlab.example.com:x", MR_REF_ECONFIG_HOST),
    BAD(DEEP22 "!7", SNAP_HOST, MR_REF_EDEPTH),
    BAD("!7", SNAP_HOST, MR_REF_EPATH),
    BAD("a/b/!7", SNAP_HOST, MR_REF_EPATH),
    BAD("/a/b!7", SNAP_HOST, MR_REF_EPATH),
    BAD("a/-b!7", SNAP_HOST, MR_REF_EPATH),
    BAD("a/b.atom!7", SNAP_HOST, MR_REF_EPATH),
    BAD("a/b!", SNAP_HOST, MR_REF_EIID),
    BAD("a/b!07", SNAP_HOST, MR_REF_EIID),
    BAD("a/b!7!", SNAP_HOST, MR_REF_ESUFFIX),
    BAD("a/b!7#8", SNAP_HOST, MR_REF_ESUFFIX),
    BAD("a/b!7/diffs", SNAP_HOST, MR_REF_ESUFFIX),
    BAD("a/x!b/c!7", SNAP_HOST, MR_REF_EIID),
    BAD("a/b !7", SNAP_HOST, MR_REF_ECHAR),

    /* --- GitHub's forms and others: not GitLab's ------------------------ */
    BAD("7", SNAP_HOST, MR_REF_ENOT_GITLAB),
    BAD("", SNAP_HOST, MR_REF_ENOT_GITLAB),
    BAD("lf/svc#7", SNAP_HOST, MR_REF_ENOT_GITLAB),
    BAD("https://github.example.com/lf/svc/pull/7", NULL, MR_REF_ENOT_GITLAB),
    BAD("https://gitlab.example.com/a/b/merge_requests/7", NULL,
        MR_REF_ENOT_GITLAB),
};

static void test_mr_ref__table(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct mr_ref m;
		int got =
		    mr_ref_parse(&m, r->ref, strlen(r->ref), r->gitlab_host);

		if (got != r->want) {
			print_error("row %zu '%s': got %d (%s), want %d (%s)\n",
			            i, r->ref, got, mr_ref_strerror(got),
			            r->want, mr_ref_strerror(r->want));
			bad++;
			continue;
		}
		if (got != 0) {
			if (m.iid != 0 || m.host[0] || m.project[0]) {
				print_error("row %zu: a refusal left output\n",
				            i);
				bad++;
			}
			continue;
		}
		if (m.form != r->form || strcmp(m.host, r->host) != 0 ||
		    strcmp(m.project, r->project) != 0 || m.iid != r->iid ||
		    m.http != (strncmp(r->ref, "http://", 7) == 0)) {
			print_error("row %zu '%s': got form %d host '%s' "
			            "project '%s' iid %lld\n",
			            i, r->ref, (int)m.form, m.host, m.project,
			            (long long)m.iid);
			bad++;
		}
		if (mr_ref_names(&m, SNAP_HOST, SNAP_PROJECT) !=
		    r->names_snapshot) {
			print_error("row %zu: names the snapshot's MR: %d\n", i,
			            !r->names_snapshot);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* The input need not be NUL-terminated: len decides, and no byte past it
 * is read (a longer buffer with a valid tail changes nothing). */
static void test_mr_ref__length_bounds(void **state)
{
	const char text[] = "platform/backend/svc!7123";
	struct mr_ref m;

	(void)state;
	assert_int_equal(mr_ref_parse(&m, text, strlen(text) - 3, SNAP_HOST),
	                 0);
	assert_int_equal(m.iid, 7);
	assert_int_equal(mr_ref_parse(&m, text, strlen(text), SNAP_HOST), 0);
	assert_int_equal(m.iid, 7123);
	assert_int_equal(mr_ref_parse(&m, text, 21, SNAP_HOST), MR_REF_EIID);
	assert_int_equal(mr_ref_parse(&m, text, 20, SNAP_HOST),
	                 MR_REF_ENOT_GITLAB);
	assert_int_equal(mr_ref_parse(&m, NULL, 0, SNAP_HOST),
	                 MR_REF_ENOT_GITLAB);
	/* A NUL inside is a byte like any other: refused, not a terminator. */
	assert_int_equal(mr_ref_parse(&m, "a/b\0c!7", 7, SNAP_HOST),
	                 MR_REF_ECHAR);
}

/* Named limits: the path's 1,024 bytes and the reference's 4,096. */
static void test_mr_ref__limits(void **state)
{
	char ref[MR_REF_INPUT_MAX + 64];
	struct mr_ref m;
	size_t n = 0, s;

	(void)state;
	/* 20 segments of 50 bytes and one of 4: 1,024 bytes with slashes. */
	for (s = 0; s < 20; s++) {
		memset(ref + n, 'a' + (int)s, 50);
		n += 50;
		ref[n++] = '/';
	}
	memcpy(ref + n, "last", 4);
	n += 4;
	assert_int_equal(n, MR_REF_PATH_MAX);
	memcpy(ref + n, "!7", 2);
	assert_int_equal(mr_ref_parse(&m, ref, n + 2, SNAP_HOST), 0);
	assert_int_equal(strlen(m.project), MR_REF_PATH_MAX);
	assert_int_equal(m.segments, 21);
	/* One byte more. */
	memmove(ref + 1, ref, n + 2);
	ref[0] = 'z';
	assert_int_equal(mr_ref_parse(&m, ref, n + 3, SNAP_HOST),
	                 MR_REF_EPATH_LONG);
	/* The whole reference: 4,096 bytes parse on, 4,097 do not. */
	n = (size_t)snprintf(ref, sizeof(ref), "%s", MR_URL "7#");
	memset(ref + n, 'f', MR_REF_INPUT_MAX - n);
	assert_int_equal(mr_ref_parse(&m, ref, MR_REF_INPUT_MAX, NULL), 0);
	ref[MR_REF_INPUT_MAX] = 'f';
	assert_int_equal(mr_ref_parse(&m, ref, MR_REF_INPUT_MAX + 1, NULL),
	                 MR_REF_ETOO_LONG);
	/* A host of 255 bytes is the most gitlab_host may be. */
	memset(ref, 'h', 256);
	ref[256] = '\0';
	assert_int_equal(mr_ref_parse(&m, "a/b!1", 5, ref),
	                 MR_REF_ECONFIG_HOST);
	ref[255] = '\0';
	assert_int_equal(mr_ref_parse(&m, "a/b!1", 5, ref), 0);
	assert_int_equal(strlen(m.host), MR_REF_HOST_MAX);
}

static void test_mr_ref__names_and_messages(void **state)
{
	struct mr_ref m;
	int e;

	(void)state;
	assert_int_equal(mr_ref_parse(&m, LIT(MR_URL "7"), NULL), 0);
	assert_true(mr_ref_names(&m, "GITLAB.example.com", SNAP_PROJECT));
	assert_false(mr_ref_names(&m, "gitlab.example.com:443", SNAP_PROJECT));
	assert_false(mr_ref_names(&m, SNAP_HOST, "platform/backend"));
	assert_false(mr_ref_names(&m, SNAP_HOST, "platform/backend/svc/x"));
	assert_false(mr_ref_names(&m, NULL, SNAP_PROJECT));
	assert_false(mr_ref_names(NULL, SNAP_HOST, SNAP_PROJECT));
	for (e = 0; e >= MR_REF_EOTHER_HOST - 1; e--)
		assert_non_null(mr_ref_strerror(e));
	assert_string_equal(mr_ref_strerror(-99), "unknown error");
	assert_true(mr_ref_loopback(LIT("127.0.0.1:8929")));
	assert_true(mr_ref_loopback(LIT("LocalHost")));
	assert_false(mr_ref_loopback(LIT("127.0.0.1.example")));
	assert_false(mr_ref_loopback(LIT("[::2]")));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_mr_ref__table),
	    cmocka_unit_test(test_mr_ref__length_bounds),
	    cmocka_unit_test(test_mr_ref__limits),
	    cmocka_unit_test(test_mr_ref__names_and_messages),
	};

	return cmocka_run_group_tests_name("mr_ref", tests, NULL, NULL);
}
