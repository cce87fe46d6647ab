/*
 * fixture_check.c - compare a replay report with a fixture's expectation
 * (fixtures/README.md).
 *
 *   fixture_check --args EXPECT.json          print the extra replay args
 *   fixture_check EXPECT.json REPORT STDERR CODE
 *
 * Prints one line per mismatch and exits 1 when there is any.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "base/buf.h"
#include "base/json.h"
#include "base/util.h"

static int mismatches;

static int read_file(struct buf *b, const char *path)
{
	FILE *f = fopen(path, "rb");
	char chunk[65536];
	size_t n;

	if (!f) {
		fprintf(stderr, "fixture_check: cannot open %s\n", path);
		return -1;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		if (buf_add(b, chunk, n) < 0)
			break;
	fclose(f);
	return 0;
}

static cJSON *load(const char *path)
{
	struct buf text = BUF_INIT(BUF_MAX_DOC), err = BUF_INIT(BUF_MAX_SMALL);
	cJSON *root = NULL;

	if (read_file(&text, path) == 0 &&
	    json_parse(&root, text.ptr, text.len, &err) < 0)
		fprintf(stderr, "fixture_check: %s: %s\n", path, err.ptr);
	buf_release(&text);
	buf_release(&err);
	return root;
}

static void mismatch(const char *where, const cJSON *want, const cJSON *got)
{
	char *w = want ? cJSON_PrintUnformatted(want) : NULL;
	char *g = got ? cJSON_PrintUnformatted(got) : NULL;

	printf("    %s: expected %s, got %s\n", where, w ? w : "(absent)",
	       g ? g : "(absent)");
	cJSON_free(w);
	cJSON_free(g);
	mismatches++;
}

/* Each string of `want` is part of at least one of the `reasons`. */
static void reasons_contain(const char *where, const cJSON *want,
			    const cJSON *reasons)
{
	const cJSON *needle, *r;

	cJSON_ArrayForEach(needle, want)
	{
		bool found = false;

		if (!cJSON_IsString(needle)) {
			mismatch(where, want, reasons);
			return;
		}
		cJSON_ArrayForEach(r, reasons)
			if (cJSON_IsString(r) &&
			    strstr(r->valuestring, needle->valuestring))
				found = true;
		if (!found) /* "expected <needle>, got <the reasons>" */
			mismatch(where, needle, reasons);
	}
}

/*
 * `contains` (fixtures/README.md): a recursive subset. An object's listed
 * keys must match; an array must have the same length, element by
 * element; anything else must be equal.
 */
static void contains(const char *where, const cJSON *want, const cJSON *got)
{
	const cJSON *item;
	char path[512];
	int i = 0;

	if (cJSON_IsObject(want)) {
		if (!cJSON_IsObject(got)) {
			mismatch(where, want, got);
			return;
		}
		cJSON_ArrayForEach(item, want)
		{
			snprintf(path, sizeof(path), "%s.%s", where,
				 item->string);
			contains(path, item,
				 cJSON_GetObjectItemCaseSensitive(
					 got, item->string));
		}
		return;
	}
	if (cJSON_IsArray(want)) {
		if (!cJSON_IsArray(got) ||
		    cJSON_GetArraySize(got) != cJSON_GetArraySize(want)) {
			mismatch(where, want, got);
			return;
		}
		cJSON_ArrayForEach(item, want)
		{
			snprintf(path, sizeof(path), "%s[%d]", where, i);
			contains(path, item, cJSON_GetArrayItem(got, i++));
		}
		return;
	}
	if (!got || !cJSON_Compare(want, got, 1))
		mismatch(where, want, got);
}

/* Every key of `want` equals the same key of `got`, but the special
 * keys reasons_min, reasons_contain and contains (fixtures/README.md). */
static void partial(const char *where, const cJSON *want, const cJSON *got)
{
	const cJSON *item;

	cJSON_ArrayForEach(item, want)
	{
		const cJSON *g = cJSON_GetObjectItemCaseSensitive(got, item->string);
		char path[256];

		snprintf(path, sizeof(path), "%s.%s", where, item->string);
		if (strcmp(item->string, "reasons_min") == 0) {
			const cJSON *r =
				cJSON_GetObjectItemCaseSensitive(got, "reasons");

			if (cJSON_GetArraySize(r) < item->valueint)
				mismatch(path, item, r);
			continue;
		}
		if (strcmp(item->string, "contains") == 0) {
			contains(path, item, got);
			continue;
		}
		if (strcmp(item->string, "reasons_contain") == 0) {
			reasons_contain(path, item,
					cJSON_GetObjectItemCaseSensitive(
						got, "reasons"));
			continue;
		}
		if (!g || !cJSON_Compare(item, g, 1))
			mismatch(path, item, g);
	}
}

static void list(const char *name, const cJSON *want, const cJSON *got)
{
	int n, i;
	char path[64];

	if (!want)
		return;
	n = cJSON_GetArraySize(want);
	if (!cJSON_IsArray(got) || cJSON_GetArraySize(got) != n) {
		mismatch(name, want, got);
		return;
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s[%d]", name, i);
		partial(path, cJSON_GetArrayItem(want, i),
			cJSON_GetArrayItem(got, i));
	}
}

static const char *const special[] = {"comment", "args", "stderr_contains",
				      "stderr_lacks", "steps", "writes",
				      "checks"};

static bool is_special(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(special); i++)
		if (strcmp(key, special[i]) == 0)
			return true;
	return false;
}

int main(int argc, char **argv)
{
	cJSON *want, *got = NULL;
	const cJSON *item;
	struct buf err = BUF_INIT(BUF_MAX_DOC);

	if (argc == 3 && strcmp(argv[1], "--args") == 0) {
		if (!(want = load(argv[2])))
			return 2;
		cJSON_ArrayForEach(item,
				   cJSON_GetObjectItemCaseSensitive(want, "args"))
			printf("%s\n", item->valuestring);
		cJSON_Delete(want);
		return 0;
	}
	if (argc != 5) {
		fprintf(stderr, "usage: fixture_check EXPECT REPORT STDERR CODE\n");
		return 2;
	}
	if (!(want = load(argv[1])))
		return 2;
	if (!(got = load(argv[2]))) {
		printf("    stdout is not a JSON report\n");
		cJSON_Delete(want);
		return 1;
	}
	cJSON_ArrayForEach(item, want)
	{
		if (is_special(item->string))
			continue;
		if (!cJSON_Compare(item, cJSON_GetObjectItemCaseSensitive(
						 got, item->string), 1))
			mismatch(item->string, item,
				 cJSON_GetObjectItemCaseSensitive(got,
								  item->string));
	}
	/* The exit code printed in the report is the process's. */
	{
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(got, "exit");

		if (!cJSON_IsNumber(e) || e->valueint != atoi(argv[4])) {
			printf("    process exit %s differs from report exit\n",
			       argv[4]);
			mismatches++;
		}
	}
	list("steps", cJSON_GetObjectItemCaseSensitive(want, "steps"),
	     cJSON_GetObjectItemCaseSensitive(got, "steps"));
	list("writes", cJSON_GetObjectItemCaseSensitive(want, "writes"),
	     cJSON_GetObjectItemCaseSensitive(got, "writes"));
	/* doctor (fixtures/doctor/): the checks, in order, key by key. */
	list("checks", cJSON_GetObjectItemCaseSensitive(want, "checks"),
	     cJSON_GetObjectItemCaseSensitive(got, "checks"));
	read_file(&err, argv[3]);
	cJSON_ArrayForEach(item,
			   cJSON_GetObjectItemCaseSensitive(want, "stderr_contains"))
		if (!strstr(err.ptr, item->valuestring)) {
			printf("    stderr lacks \"%s\"\n", item->valuestring);
			mismatches++;
		}
	cJSON_ArrayForEach(item,
			   cJSON_GetObjectItemCaseSensitive(want, "stderr_lacks"))
		if (strstr(err.ptr, item->valuestring)) {
			printf("    stderr has \"%s\"\n", item->valuestring);
			mismatches++;
		}
	buf_release(&err);
	cJSON_Delete(want);
	cJSON_Delete(got);
	return mismatches ? 1 : 0;
}
