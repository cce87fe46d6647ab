/*
 * cmark_diff.c - the differential test's driver (tests/cmark/README.md):
 * every comment body it is given is read by cmark-gfm and by the program
 * (or, with --model, by the spec model of A11/A12), and every place where
 * the reader hides what GitHub shows is printed.
 *
 *   cmark_diff [--model] [--fence-effect] [--quiet] PATH...
 *
 * A PATH ending in .json is a fixture: each pulls[].comments[].body is a
 * case, and the event's comment.body when it is not one of them. A directory's
 * files are taken in name order; any other file is one body. Prints one block
 * per failing case and "cmark: N passed, N failed"; exits 1 when a case failed,
 * 2 when a PATH cannot be read.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cJSON.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/util.h"
#include "gfmdiff.h"
#include "specmodel.h"

static bool use_model, quiet;
static unsigned opts;
static long passed, failed, rows, fenced, markers, keys;

/* A line of the body, printable: control bytes escaped, cut at 100. */
static void show_line(const char *body, size_t len, size_t lineno)
{
	size_t off = 0, n = 0, i;
	const char *p = body;

	for (i = 1; i < lineno && off < len; off++)
		if (body[off] == '\n')
			i++;
	p = body + off;
	while (off + n < len && body[off + n] != '\n')
		n++;
	fputs("      | ", stdout);
	for (i = 0; i < n && i < 100; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c < 0x20 || c == 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	puts(n > 100 ? "…" : "");
}

static void run_case(const char *name, const char *body, size_t len)
{
	struct gfmdiff_reading r;
	struct gfmdiff d;
	size_t i;

	gfmdiff_reading_init(&r, gfmdiff_count_lines(body, len));
	if (use_model)
		specmodel_read(&r, body, len);
	else
		gfmdiff_read_program(&r, body, len);
	gfmdiff_run(&d, body, len, &r, opts);
	rows += (long)d.checked_rows;
	fenced += (long)d.checked_fenced;
	markers += (long)d.checked_markers;
	keys += (long)d.checked_keys;
	if (d.n == 0) {
		passed++;
		gfmdiff_reading_release(&r);
		return;
	}
	failed++;
	if (quiet) {
		printf("FAIL %s: %zu disagreement(s)\n", name, d.n);
		gfmdiff_reading_release(&r);
		return;
	}
	printf("FAIL %s (block at line %zu):\n", name, r.block_line);
	for (i = 0; i < d.n && i < GFMDIFF_MAX_FINDINGS; i++) {
		const struct gfmdiff_finding *f = &d.f[i];

		printf("    line %zu: %s", f->line, gfmdiff_kind_name(f->kind));
		if (f->kind == GFMDIFF_HIDDEN_ROW)
			printf(" (%s; GitHub: %s)", f->why,
			       f->context[0] ? f->context : "in no block");
		else if (f->kind == GFMDIFF_FENCE)
			printf(" (the fence opened at line %zu; GitHub: %s)",
			       f->other, f->context[0] ? f->context : "-");
		else if (f->kind == GFMDIFF_BLOCK_START) {
			if (f->other)
				printf(" (the reader's block: line %zu",
				       f->other);
			else
				printf(" (the reader has no block");
			if (f->opener)
				printf("; its fence opened at line %zu, which "
				       "GitHub shows in: %s)",
				       f->opener, f->context);
			else
				printf("; GitHub: %s)", f->context);
		} else if (f->kind == GFMDIFF_NH_MARKER)
			printf(" (GitHub: %s)",
			       f->context[0] ? f->context : "no block");
		else if (f->kind == GFMDIFF_KEY_CODE)
			printf(" (%s; GitHub: %s)", f->why, f->context);
		putchar('\n');
		show_line(body, len, f->line);
	}
	if (d.n > GFMDIFF_MAX_FINDINGS)
		printf("    … %zu more\n", d.n - GFMDIFF_MAX_FINDINGS);
	gfmdiff_reading_release(&r);
}

static int read_all(struct buf *b, const char *path)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	int rc = file_read(b, path, &err);

	if (rc != AA_OK)
		fprintf(stderr, "cmark_diff: '%s': %s\n", path, err.ptr);
	buf_release(&err);
	return rc;
}

static void run_body(const char *name, const cJSON *body)
{
	if (cJSON_IsString(body) && body->valuestring)
		run_case(name, body->valuestring, strlen(body->valuestring));
}

/* Is this body one of the PRs' comments already (the event's own)? */
static bool among_comments(const cJSON *pulls, const char *body)
{
	const cJSON *pull, *c, *b;

	cJSON_ArrayForEach (pull, pulls) {
		cJSON_ArrayForEach (
		    c, cJSON_GetObjectItemCaseSensitive(pull, "comments")) {
			b = cJSON_GetObjectItemCaseSensitive(c, "body");
			if (cJSON_IsString(b) &&
			    strcmp(b->valuestring, body) == 0)
				return true;
		}
	}
	return false;
}

/* Every comment body of a fixture (pulls[].comments[].body) and of its
 * event (event.comment.body). */
static int run_fixture(const char *path)
{
	struct buf text = BUF_INIT(BUF_MAX_DOC);
	const cJSON *pulls, *pull, *comments, *c, *ev;
	cJSON *root;
	char name[4096];
	int k, pi = 0, ci;

	if (read_all(&text, path) != AA_OK)
		return -1;
	root = cJSON_ParseWithLength(text.ptr, text.len);
	buf_release(&text);
	if (!root) {
		fprintf(stderr, "cmark_diff: '%s': not JSON\n", path);
		return -1;
	}
	pulls = cJSON_GetObjectItemCaseSensitive(root, "pulls");
	cJSON_ArrayForEach (pull, pulls) {
		ci = 0;
		comments = cJSON_GetObjectItemCaseSensitive(pull, "comments");
		cJSON_ArrayForEach (c, comments) {
			k = snprintf(name, sizeof(name),
			             "%s pulls[%d].comments[%d]", path, pi, ci);
			if (k > 0 && (size_t)k < sizeof(name))
				run_body(name, cJSON_GetObjectItemCaseSensitive(
				                   c, "body"));
			ci++;
		}
		pi++;
	}
	ev = cJSON_GetObjectItemCaseSensitive(root, "event");
	ev = cJSON_GetObjectItemCaseSensitive(ev, "payload")
	         ? cJSON_GetObjectItemCaseSensitive(ev, "payload")
	         : ev;
	ev = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(ev, "comment"), "body");
	k = snprintf(name, sizeof(name), "%s event.comment", path);
	if (cJSON_IsString(ev) && !among_comments(pulls, ev->valuestring) &&
	    k > 0 && (size_t)k < sizeof(name))
		run_body(name, ev);
	cJSON_Delete(root);
	return 0;
}

static int run_file(const char *path)
{
	struct buf text = BUF_INIT(BUF_MAX_DOC);
	size_t n = strlen(path);

	if (n > 5 && strcmp(path + n - 5, ".json") == 0)
		return run_fixture(path);
	if (read_all(&text, path) != AA_OK)
		return -1;
	run_case(path, text.ptr, text.len);
	buf_release(&text);
	return 0;
}

static int skip_dot(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

static int run_path(const char *path)
{
	struct dirent **list;
	struct stat st;
	char sub[4096];
	int n, i, k, rc = 0;

	if (stat(path, &st) < 0) {
		fprintf(stderr, "cmark_diff: '%s': no such file\n", path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return run_file(path);
	n = scandir(path, &list, skip_dot, alphasort);
	if (n < 0) {
		fprintf(stderr, "cmark_diff: '%s': cannot list\n", path);
		return -1;
	}
	for (i = 0; i < n; i++) {
		k = snprintf(sub, sizeof(sub), "%s/%s", path, list[i]->d_name);
		if (k > 0 && (size_t)k < sizeof(sub) && run_path(sub) < 0)
			rc = -1;
		free(list[i]);
	}
	free(list);
	return rc;
}

int main(int argc, char **argv)
{
	int i, rc = 0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--model") == 0)
			use_model = true;
		else if (strcmp(argv[i], "--quiet") == 0)
			quiet = true;
		else if (strcmp(argv[i], "--fence-effect") == 0)
			opts |= GFMDIFF_FENCE_EFFECT;
		else if (run_path(argv[i]) < 0)
			rc = 2;
	}
	printf("cmark: %ld passed, %ld failed (%s%s; checked %ld row-like "
	       "lines, %ld fenced lines, %ld needs-human markers, %ld key "
	       "lines)\n",
	       passed, failed,
	       use_model ? "the spec model of A11/A12" : "the program",
	       opts & GFMDIFF_FENCE_EFFECT ? ", fences by their effect" : "",
	       rows, fenced, markers, keys);
	if (rc)
		return rc;
	return failed ? 1 : 0;
}
