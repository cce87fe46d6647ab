/*
 * test_publish_golden.c - PUBLISH §5 byte for byte: every case in
 * tests/golden/publish is a findings input (<case>.in.json) whose
 * top-level "context" key (ignored by findings_parse, I1) says what the
 * reads would have said. The case runs findings_parse → merge_run → the
 * threads of the context → root_render/root_assert for each attempt →
 * sticky_render, and compares with the files beside it:
 *
 *   <case>.sticky.md        the sticky (R: the threads' real outcomes)
 *   <case>.root-F<n>.md     each attempt's root (dropped ones too)
 *   <case>.review.json      the review of the attempts that pass §4.1
 *                           step 4 (absent when there is none)
 *   <case>.status.json      the final status
 *
 * Every step is one of the product's own functions, the ones publish
 * calls (run/publish*.c): incompleteness is review_model_incomplete(),
 * the final status rv_tier_state() + status_description() +
 * status_payload(); nothing here restates a rule.
 *
 * GOLDEN_UPDATE=1 rewrites the files instead (read every diff before
 * committing one). GOLDEN_DIR overrides the directory (default
 * tests/golden/publish, from the repository's top).
 *
 * "context" keys (all optional): pr_author ("author"), review_login
 * ("pr-review-bot"), iteration (1), sticky_url, status_unwritten,
 * publish_incomplete, prior_sticky (a sticky body: parsed, and its state
 * is the trusted prior when its markers are), threads {"F<n>": {thread
 * (rv_thread_names), root_id, url, reason, line, start_line,
 * previous_url}}: an entry with `line` is an attempt.
 *
 * Every case also checks the reading back: the sticky parses as a
 * trusted-looking sticky whose state rows are the model's, and each root
 * parses to its finding.
 */
#include "unit.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/file.h"
#include "base/json.h"
#include "core/merge.h"
#include "formats/findings.h"
#include "formats/sticky.h"

#define DEFAULT_DIR "tests/golden/publish"
#define DEFAULT_URL "https://github.com/o/r/pull/7#issuecomment-1000"
#define MAX_CASES   256

struct gcase {
	const char *dir;
	const char *name;
	bool update;
	int bad;
	struct review_input in;
	struct review_model m;
	cJSON *json;
	const cJSON *ctx;
	struct sticky_info prior;
	bool have_prior;
};

static const char *ctx_str(const struct gcase *c, const char *key,
                           const char *def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(c->ctx, key);
	return cJSON_IsString(v) ? v->valuestring : def;
}

static bool ctx_bool(const struct gcase *c, const char *key)
{
	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c->ctx, key));
}

static int64_t obj_int(const cJSON *o, const char *key, int64_t def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) ? (int64_t)v->valuedouble : def;
}

static const char *obj_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Compare (or rewrite) one output file. */
static void check_file(struct gcase *c, const char *suffix,
                       const struct buf *got)
{
	char path[1024];
	struct buf want = BUF_INIT(BUF_MAX_DOC), err = BUF_INIT(BUF_MAX_SMALL);
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.%s", c->dir, c->name, suffix);
	if (c->update) {
		f = fopen(path, "wb");
		assert_non_null(f);
		assert_int_equal(fwrite(got->ptr, 1, got->len, f), got->len);
		fclose(f);
		goto out;
	}
	if (file_read(&want, path, &err)) {
		print_error("%s: %s\n", path, err.ptr);
		c->bad++;
		goto out;
	}
	if (want.len != got->len || memcmp(want.ptr, got->ptr, got->len)) {
		size_t i = 0, line = 1;
		while (i < want.len && i < got->len &&
		       want.ptr[i] == got->ptr[i])
			if (want.ptr[i++] == '\n')
				line++;
		print_error(
		    "%s: differs at line %zu (byte %zu)\n--- got:\n%s\n", path,
		    line, i, got->ptr);
		c->bad++;
	}
out:
	buf_release(&want);
	buf_release(&err);
}

static int thread_kind(const char *s)
{
	for (int i = 0; i < RV_THREAD_COUNT; i++)
		if (s && strcmp(s, rv_thread_names[i]) == 0)
			return i;
	return RV_THREAD_STICKY_ONLY;
}

/* The context's thread for each finding. */
static void set_threads(struct gcase *c)
{
	const cJSON *threads =
	    cJSON_GetObjectItemCaseSensitive(c->ctx, "threads");
	char key[16];

	for (size_t i = 0; i < c->m.n; i++) {
		struct rv_finding *f = &c->m.f[i];
		const cJSON *t;

		snprintf(key, sizeof(key), "F%u", f->id);
		t = cJSON_GetObjectItemCaseSensitive(threads, key);
		if (!t)
			continue;
		f->thread = (enum rv_thread)thread_kind(obj_str(t, "thread"));
		f->thread_reason = obj_str(t, "reason");
		f->root_id = obj_int(t, "root_id", 0);
		free(f->thread_url);
		f->thread_url = xstrdup_or_null(obj_str(t, "url"));
	}
}

/* Roots of the attempts, §4.1 step 4, the review. */
static void attempts(struct gcase *c, const char *url)
{
	const cJSON *threads =
	    cJSON_GetObjectItemCaseSensitive(c->ctx, "threads");
	struct review_comment *rc = xcalloc(c->m.n + 1, sizeof(*rc));
	char **bodies = xcalloc(c->m.n + 1, sizeof(*bodies));
	size_t n = 0;
	char key[32];
	struct buf b = BUF_INIT(BUF_MAX_DOC), err = BUF_INIT(BUF_MAX_SMALL);

	for (size_t i = 0; i < c->m.n; i++) {
		struct rv_finding *f = &c->m.f[i];
		const cJSON *t;
		struct root_doc d;
		struct root_info ri;
		const char *why;

		snprintf(key, sizeof(key), "F%u", f->id);
		t = cJSON_GetObjectItemCaseSensitive(threads, key);
		if (!t || !cJSON_GetObjectItemCaseSensitive(t, "line"))
			continue;
		d = (struct root_doc){f,
		                      c->in.mode,
		                      c->in.head,
		                      c->in.base,
		                      c->in.last_sha,
		                      url,
		                      obj_str(t, "previous_url")};
		assert_int_equal(root_render(&b, &d, &err), 0);
		snprintf(key, sizeof(key), "root-F%u.md", f->id);
		check_file(c, key, &b);
		root_parse(&ri, b.ptr, b.len);
		if (!ri.is_root || ri.id != f->id || strcmp(ri.slug, f->slug) ||
		    strcmp(ri.head, c->in.head)) {
			print_error("%s: root F%u does not parse back\n",
			            c->name, f->id);
			c->bad++;
		}
		if (root_assert(f, &why)) {
			f->thread = RV_THREAD_DROPPED;
			f->thread_reason = why;
			continue;
		}
		rc[n].path = f->file;
		rc[n].line = obj_int(t, "line", 0);
		rc[n].start_line = obj_int(t, "start_line", 0);
		bodies[n] = buf_detach(&b, NULL);
		rc[n].body = bodies[n];
		n++;
	}
	if (n) {
		struct buf desc = BUF_INIT(BUF_MAX_SMALL);
		/* "as if every attempt posts" (§5.4). */
		status_description(&desc,
		                   merge_tier(&c->m, c->in.nfailures, false),
		                   c->m.f, c->m.n);
		buf_reset(&b);
		review_payload(&b, c->in.head, desc.ptr, url, rc, n, true);
		check_file(c, "review.json", &b);
		buf_release(&desc);
	}
	for (size_t i = 0; i < n; i++)
		free(bodies[i]);
	free(bodies);
	free(rc);
	buf_release(&b);
	buf_release(&err);
}

/* The sticky's state read back is the model. */
static void check_round_trip(struct gcase *c, const struct buf *body,
                             const struct sticky_doc *d)
{
	struct sticky_info si;

	sticky_parse(&si, body->ptr, body->len);
	if (!si.is_sticky || !si.markers_ok || !si.state.present ||
	    si.state.nrows != c->m.n || si.state.next != d->next_id ||
	    si.state.iteration != d->iteration || si.status != sticky_tier(d) ||
	    si.state.nclean != c->in.nclean) {
		print_error("%s: the sticky does not read back\n", c->name);
		c->bad++;
	}
	for (size_t i = 0; !c->bad && i < c->m.n; i++) {
		const struct rv_state_row *r = &si.state.rows[i];
		const struct rv_finding *f = &c->m.f[i];
		if (r->id != f->id || strcmp(r->slug, f->slug) ||
		    r->section != f->section || r->p != f->p ||
		    !r->category != !f->category ||
		    (f->category && strcmp(r->category, f->category)) ||
		    (f->file ? !r->file || strcmp(r->file, f->file)
		             : !!r->file)) {
			print_error("%s: state row %zu differs\n", c->name, i);
			c->bad++;
		}
	}
	sticky_info_release(&si);
}

static void run_case(struct gcase *c)
{
	char path[1024];
	struct buf text = BUF_INIT(BUF_MAX_DOC), err = BUF_INIT(BUF_MAX_SMALL);
	struct buf out = BUF_INIT(BUF_MAX_DOC);
	struct merge_ctx mc;
	struct sticky_doc d;
	const char *url, *prior;

	snprintf(path, sizeof(path), "%s/%s.in.json", c->dir, c->name);
	assert_int_equal(file_read(&text, path, &err), 0);
	if (findings_parse(&c->in, text.ptr, text.len, NULL, &err)) {
		print_error("%s: findings: %s\n", c->name, err.ptr);
		c->bad++;
		goto out;
	}
	assert_int_equal(json_parse(&c->json, text.ptr, text.len, &err), 0);
	c->ctx = cJSON_GetObjectItemCaseSensitive(c->json, "context");
	url = ctx_str(c, "sticky_url", DEFAULT_URL);
	prior = ctx_str(c, "prior_sticky", NULL);
	if (prior) {
		sticky_parse(&c->prior, prior, strlen(prior));
		c->have_prior = c->prior.markers_ok && c->prior.state.present;
	}
	memset(&mc, 0, sizeof(mc));
	mc.prior = c->have_prior ? &c->prior.state : NULL;
	mc.pr_author = ctx_str(c, "pr_author", "author");
	mc.review_login = ctx_str(c, "review_login", "pr-review-bot");
	if (merge_run(&c->m, &c->in, &mc, &err)) {
		print_error("%s: merge: %s\n", c->name, err.ptr);
		c->bad++;
		goto out;
	}
	set_threads(c);
	attempts(c, url);
	d = (struct sticky_doc){&c->in,
	                        &c->m,
	                        ctx_bool(c, "publish_incomplete") ||
	                            review_model_incomplete(&c->m),
	                        ctx_bool(c, "status_unwritten"),
	                        obj_int(c->ctx, "iteration", 1),
	                        c->m.next_id};
	if (sticky_render(&out, &d, &err)) {
		print_error("%s: sticky: %s\n", c->name, err.ptr);
		c->bad++;
	} else {
		check_file(c, "sticky.md", &out);
		check_round_trip(c, &out, &d);
	}
	buf_reset(&out);
	{
		/* The final status as publish writes it (§5.5, §7.2). */
		struct buf desc = BUF_INIT(BUF_MAX_SMALL);
		enum rv_tier tier = sticky_tier(&d);

		status_description(&desc, tier, c->m.f, c->m.n);
		status_payload(&out, rv_tier_state(tier), desc.ptr, url,
		               "pr-review", true);
		buf_release(&desc);
	}
	check_file(c, "status.json", &out);
out:
	buf_release(&out);
	buf_release(&text);
	buf_release(&err);
	cJSON_Delete(c->json);
	review_model_release(&c->m);
	review_input_release(&c->in);
	sticky_info_release(&c->prior);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_publish_golden__cases(void **state)
{
	const char *dir = getenv("GOLDEN_DIR");
	const char *upd = getenv("GOLDEN_UPDATE");
	char *names[MAX_CASES];
	size_t n = 0;
	int bad = 0;
	DIR *d;
	struct dirent *e;

	(void)state;
	if (!dir)
		dir = DEFAULT_DIR;
	d = opendir(dir);
	assert_non_null(d);
	while ((e = readdir(d)) && n < MAX_CASES) {
		size_t len = strlen(e->d_name);
		if (len > 8 && strcmp(e->d_name + len - 8, ".in.json") == 0)
			names[n++] = xstrndup(e->d_name, len - 8);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_name);
	assert_true(n >= 12);
	for (size_t i = 0; i < n; i++) {
		struct gcase c;

		memset(&c, 0, sizeof(c));
		c.dir = dir;
		c.name = names[i];
		c.update = upd && strcmp(upd, "1") == 0;
		run_case(&c);
		bad += c.bad;
		free(names[i]);
	}
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_publish_golden__cases),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
