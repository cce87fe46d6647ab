/*
 * snapshot.c - SNAPSHOT.md §2: the strict loader (the writer is
 * snapshot_write.c).
 *
 * The loader copies each field it needs out of the cJSON tree with a type
 * check and frees the tree at once; it never guesses a default for a field
 * that carries meaning for a rule (ids, times, states).
 */
#include "formats/snapshot.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "formats/snapshot_int.h"

/* --- loader --- */

/* Builds "parent[i]" or "parent.key" paths for messages. */
const char *pathf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	buf_reset(b);
	va_start(ap, fmt);
	if (buf_vaddf(b, fmt, ap) < 0)
		buf_reset(b);
	va_end(ap);
	return b->ptr;
}

static int array_len(size_t *n, const cJSON *arr, const char *path,
		     struct buf *err)
{
	int size = cJSON_GetArraySize(arr);

	if (size < 0 || size > SNAP_MAX_ITEMS) {
		buf_setf(err, "%s: more than %d entries", path, SNAP_MAX_ITEMS);
		return AA_ERR;
	}
	*n = (size_t)size;
	return AA_OK;
}

static int load_strv(char ***out, size_t *nout, const cJSON *arr,
		     const char *path, struct buf *err)
{
	const cJSON *item;
	size_t n, i = 0;

	if (array_len(&n, arr, path, err) < 0)
		return AA_ERR;
	*out = xcalloc(n ? n : 1, sizeof(char *));
	*nout = 0;
	cJSON_ArrayForEach(item, arr)
	{
		if (!json_string(item)) {
			buf_setf(err, "%s[%zu]: expected a string", path, i);
			return AA_ERR;
		}
		(*out)[(*nout)++] = xstrdup(json_string(item));
		i++;
	}
	return AA_OK;
}

static int load_edit(void *item, const cJSON *o, const char *path,
		     struct buf *err)
{
	struct snap_edit *e = item;

	if (!cJSON_IsObject(o)) {
		buf_setf(err, "%s: expected an object", path);
		return AA_ERR;
	}
	if (jget_str(&e->editor, o, path, "editor", JNULL, err) ||
	    jget_time(&e->edited_at, o, path, "edited_at", 0, err))
		return AA_ERR;
	return AA_OK;
}


static int load_comment(void *item, const cJSON *o,
			const char *path, struct buf *err)
{
	struct snap_comment *c = item;
	if (!cJSON_IsObject(o)) {
		buf_setf(err, "%s: expected an object", path);
		return AA_ERR;
	}
	if (jget_int(&c->id, o, path, "id", 0, 1, JSON_MAX_INT, err) ||
	    jget_str(&c->author, o, path, "author", JOPT | JNULL, err) ||
	    jget_time(&c->created_at, o, path, "created_at", 0, err) ||
	    jget_str(&c->body, o, path, "body", JNULL, err) ||
	    jget_str(&c->edited_by, o, path, "edited_by", JOPT | JNULL, err) ||
	    jget_time(&c->edited_at, o, path, "edited_at", JOPT | JNULL, err) ||
	    jget_str(&c->html_url, o, path, "html_url", JOPT | JNULL, err) ||
	    jget_time(&c->updated_at, o, path, "updated_at", JOPT | JNULL,
		      err) ||
	    load_list((void **)&c->edits, &c->nedits, sizeof(*c->edits),
		      load_edit, o, path, "edits", err))
		return AA_ERR;
	if (!c->body)
		c->body = xstrdup("");
	c->body_len = strlen(c->body);
	/* Presence, not value: an edit at the epoch is still an edit. */
	c->edited = c->edited_by != NULL || json_has(o, "edited_at");
	return AA_OK;
}

static int load_event(void *item, const cJSON *o, const char *path,
		      struct buf *err)
{
	struct snap_event *e = item;
	if (!cJSON_IsObject(o)) {
		buf_setf(err, "%s: expected an object", path);
		return AA_ERR;
	}
	if (jget_int(&e->id, o, path, "id", 0, 1, JSON_MAX_INT, err) ||
	    jget_str(&e->event, o, path, "event", 0, err) ||
	    jget_str(&e->label, o, path, "label", JOPT | JNULL, err) ||
	    jget_str(&e->actor, o, path, "actor", JOPT | JNULL, err) ||
	    jget_time(&e->created_at, o, path, "created_at", 0, err))
		return AA_ERR;
	if (strcmp(e->event, "unlabeled") == 0)
		e->kind = TL_UNLABELED;
	else if (strcmp(e->event, "labeled") == 0)
		e->kind = TL_LABELED;
	else if (strcmp(e->event, "base_ref_changed") == 0)
		e->kind = TL_BASE_REF_CHANGED;
	else
		e->kind = TL_OTHER;
	return AA_OK;
}

static int load_thread(void *item, const cJSON *o, const char *path,
		       struct buf *err)
{
	struct snap_thread *t = item;
	if (!cJSON_IsObject(o)) {
		buf_setf(err, "%s: expected an object", path);
		return AA_ERR;
	}
	if (jget_str(&t->id, o, path, "id", 0, err) ||
	    jget_str(&t->url, o, path, "url", JOPT | JNULL, err) ||
	    jget_str(&t->author, o, path, "author", JOPT | JNULL, err) ||
	    jget_int(&t->comments, o, path, "comments", 0, 0, SNAP_MAX_NUMBER,
		     err) ||
	    jget_bool(&t->resolved, o, path, "resolved", JOPT | JNULL, err))
		return AA_ERR;
	if (!*t->id) {
		buf_setf(err, "%s.id: must not be empty", path);
		return AA_ERR;
	}
	return AA_OK;
}

static int load_review(void *item, const cJSON *o, const char *path,
		       struct buf *err)
{
	struct snap_review *r = item;
	if (!cJSON_IsObject(o)) {
		buf_setf(err, "%s: expected an object", path);
		return AA_ERR;
	}
	if (jget_int(&r->id, o, path, "id", 0, 1, JSON_MAX_INT, err) ||
	    jget_str(&r->author, o, path, "author", JOPT | JNULL, err) ||
	    jget_str(&r->state, o, path, "state", 0, err) ||
	    jget_sha(r->commit_id, o, path, "commit_id", JOPT | JNULL, err) ||
	    jget_time(&r->submitted_at, o, path, "submitted_at", JOPT | JNULL,
		      err) ||
	    jget_str(&r->body, o, path, "body", JOPT | JNULL, err))
		return AA_ERR;
	return AA_OK;
}

static bool status_state_valid(const char *s)
{
	return strcmp(s, "pending") == 0 || strcmp(s, "success") == 0 ||
	       strcmp(s, "failure") == 0 || strcmp(s, "error") == 0;
}

static int load_status(struct snap_status *st, const cJSON *o,
		       const char *path, struct buf *err)
{
	if (!cJSON_IsObject(o)) {
		buf_setf(err, "%s: expected an object", path);
		return AA_ERR;
	}
	if (jget_int(&st->id, o, path, "id", 0, 1, JSON_MAX_INT, err) ||
	    jget_str(&st->state, o, path, "state", 0, err) ||
	    jget_str(&st->context, o, path, "context", 0, err) ||
	    jget_str(&st->description, o, path, "description", JOPT | JNULL,
		     err) ||
	    jget_str(&st->creator, o, path, "creator", JOPT | JNULL, err) ||
	    jget_time(&st->created_at, o, path, "created_at", 0, err) ||
	    jget_str(&st->target_url, o, path, "target_url", JOPT | JNULL, err))
		return AA_ERR;
	if (!status_state_valid(st->state)) {
		buf_setf(err, "%s.state: expected pending, success, failure or "
			      "error", path);
		return AA_ERR;
	}
	if (!st->description)
		st->description = xstrdup("");
	return AA_OK;
}

int load_list(void **list, size_t *n, size_t size, item_loader loader,
		     const cJSON *obj, const char *ppath, const char *key,
		     struct buf *err)
{
	struct buf path = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *arr, *item;
	size_t cap = 0;
	int error;

	if ((error = jget_arr(&arr, obj, ppath, key, JOPT | JNULL, err)) ||
	    !arr)
		return error;
	pathf(&path, "%s%s%s", ppath, *ppath ? "." : "", key);
	if ((error = array_len(&cap, arr, path.ptr, err)))
		goto out;
	*list = xcalloc(cap ? cap : 1, size);
	cJSON_ArrayForEach(item, arr)
	{
		pathf(&path, "%s%s%s[%zu]", ppath, *ppath ? "." : "", key, *n);
		(*n)++;
		if ((error = loader((char *)*list + (*n - 1) * size, item,
				    path.ptr, err)))
			break;
	}
out:
	buf_release(&path);
	return error;
}


static int load_pull(struct snap_pull *p, const cJSON *o, const char *path,
		     const char *repository, struct buf *err)
{
	struct buf sub = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *head, *base, *arr, *item;
	size_t n, i = 0;
	int error = AA_ERR;

	if (!cJSON_IsObject(o)) {
		buf_setf(err, "%s: expected an object", path);
		goto out;
	}
	if (jget_int(&p->number, o, path, "number", 0, 1, SNAP_MAX_NUMBER,
		     err) ||
	    jget_str(&p->state, o, path, "state", JOPT | JNULL, err) ||
	    jget_bool(&p->merged, o, path, "merged", JOPT | JNULL, err) ||
	    jget_bool(&p->draft, o, path, "draft", JOPT | JNULL, err) ||
	    jget_str(&p->author, o, path, "author", JOPT | JNULL, err) ||
	    jget_time(&p->updated_at, o, path, "updated_at", JOPT | JNULL,
		      err) ||
	    jget_obj(&head, o, path, "head", 0, err) ||
	    jget_obj(&base, o, path, "base", JOPT | JNULL, err))
		goto out;
	if (!p->state)
		p->state = xstrdup("open");
	if (strcmp(p->state, "open") != 0 && strcmp(p->state, "closed") != 0) {
		buf_setf(err, "%s.state: expected \"open\" or \"closed\"", path);
		goto out;
	}
	pathf(&sub, "%s.head", path);
	if (jget_sha(p->head_sha, head, sub.ptr, "sha", 0, err) ||
	    jget_str(&p->head_ref, head, sub.ptr, "ref", JOPT | JNULL, err) ||
	    jget_str(&p->head_repo, head, sub.ptr, "repository", JOPT | JNULL,
		     err))
		goto out;
	if (!p->head_ref)
		p->head_ref = xstrdup("");
	if (!p->head_repo)
		p->head_repo = xstrdup(repository);
	pathf(&sub, "%s.base", path);
	if (base && jget_str(&p->base_ref, base, sub.ptr, "ref", JOPT | JNULL,
			     err))
		goto out;
	if (!p->base_ref)
		p->base_ref = xstrdup("");
	if (base && jget_sha(p->base_sha, base, sub.ptr, "sha", JOPT | JNULL,
			     err))
		goto out;

	if (jget_arr(&arr, o, path, "labels", JOPT | JNULL, err))
		goto out;
	if (arr) {
		pathf(&sub, "%s.labels", path);
		if (load_strv(&p->labels, &p->nlabels, arr, sub.ptr, err))
			goto out;
	}
	if (jget_arr(&arr, o, path, "commits", JOPT | JNULL, err))
		goto out;
	if (arr) {
		pathf(&sub, "%s.commits", path);
		if (array_len(&n, arr, sub.ptr, err))
			goto out;
		p->commits = xcalloc(n ? n : 1, sizeof(*p->commits));
		cJSON_ArrayForEach(item, arr)
		{
			if (!json_string(item) ||
			    !sha_parse(p->commits[p->ncommits],
				       json_string(item),
				       strlen(json_string(item)))) {
				buf_setf(err, "%s[%zu]: expected a 40-hex-digit "
					      "commit SHA", sub.ptr, i);
				goto out;
			}
			p->ncommits++;
			i++;
		}
	}
	if (LOAD_LIST(o, path, "comments", p->comments, p->ncomments,
		      load_comment, err) ||
	    LOAD_LIST(o, path, "timeline", p->timeline, p->ntimeline,
		      load_event, err) ||
	    LOAD_LIST(o, path, "threads", p->threads, p->nthreads, load_thread,
		      err) ||
	    LOAD_LIST(o, path, "reviews", p->reviews, p->nreviews, load_review,
		      err) ||
	    snapshot_load_publish_parts(p, o, path, err))
		goto out;
	error = AA_OK;
out:
	buf_release(&sub);
	return error;
}

static int load_fault(void *item, const cJSON *o, const char *path,
		      struct buf *err)
{
	struct snap_fault *f = item;
	char *read = NULL, *write = NULL, *name;
	const char *const *names;
	const cJSON *status;
	size_t count, k;
	int error = AA_ERR;

	if (!cJSON_IsObject(o)) {
		buf_setf(err, "%s: expected an object", path);
		return AA_ERR;
	}
	if (jget_str(&read, o, path, "read", JOPT | JNULL, err) ||
	    jget_str(&write, o, path, "write", JOPT | JNULL, err) ||
	    jget_int(&f->pr, o, path, "pr", JOPT | JNULL, 1, SNAP_MAX_NUMBER,
		     err) ||
	    jget_sha(f->sha, o, path, "sha", JOPT | JNULL, err) ||
	    jget_int(&f->times, o, path, "times", JOPT | JNULL, 0,
		     SNAP_MAX_NUMBER, err) ||
	    jget_int(&f->page, o, path, "page", JOPT | JNULL, 1,
		     SNAP_MAX_NUMBER, err) ||
	    jget_str(&f->mode, o, path, "mode", JOPT | JNULL, err) ||
	    jget_int(&f->retry_after, o, path, "retry_after", JOPT | JNULL, 0,
		     86400, err) ||
	    jget_int(&f->call, o, path, "call", JOPT | JNULL, 1, SNAP_MAX_NUMBER,
		     err) ||
	    jget_int(&f->comment_id, o, path, "comment_id", JOPT | JNULL, 1,
		     JSON_MAX_INT, err) ||
	    jget_int(&f->skip, o, path, "skip", JOPT | JNULL, 0,
		     SNAP_MAX_NUMBER, err))
		goto out;
	f->lost_response = f->mode && strcmp(f->mode, "lost_response") == 0;
	if (f->call && !read && !write) {
		f->op = FAULT_CALL;
		goto status;
	}
	if (!read == !write) {
		buf_setf(err, "%s: needs exactly one of \"read\", \"write\" "
			      "and \"call\"", path);
		goto out;
	}
	f->op = read ? FAULT_READ : FAULT_WRITE;
	name = read ? read : write;
	names = read ? gh_read_names : gh_write_names;
	count = read ? READ_KIND_COUNT : WRITE_KIND_COUNT;
	for (k = 0; k < count; k++)
		if (strcmp(name, names[k]) == 0)
			break;
	if (k == count)
		k = (size_t)snapshot_gitlab_fault_kind(name, read != NULL);
	if (k >= count) {
		buf_setf(err, "%s.%s: unknown kind \"%s\"", path,
			 read ? "read" : "write", name);
		goto out;
	}
	f->kind = (int)k;
status:
	status = json_get(o, "status");
	if (json_is_str(status, "timeout")) {
		f->timeout = true;
	} else if (f->mode && (!status || cJSON_IsNull(status))) {
		/* PUBLISH §8: lost_response's default; GitLab's modes. */
		f->status = f->lost_response			  ? 502
			    : strcmp(f->mode, "rate_limit") == 0 ? 429
								  : 200;
	} else {
		int64_t code;

		if (!status || !json_int_value(&code, status, 100, 599)) {
			buf_setf(err, "%s.status: expected an HTTP status code "
				      "or \"timeout\"", path);
			goto out;
		}
		f->status = (int)code;
	}
	error = AA_OK;
out:
	free(read);
	free(write);
	return error;
}

/* Config values: strings as they are; string arrays joined with commas;
 * booleans and integers in their text form. */
static int config_value(char **out, const cJSON *v, const char *path,
			struct buf *err)
{
	struct buf b = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *item;
	int64_t n;

	if (json_string(v)) {
		*out = xstrdup(json_string(v));
		return AA_OK;
	}
	if (cJSON_IsBool(v)) {
		*out = xstrdup(cJSON_IsTrue(v) ? "true" : "false");
		return AA_OK;
	}
	if (json_int_value(&n, v, 0, JSON_MAX_INT)) {
		buf_addf(&b, "%lld", (long long)n);
		*out = buf_detach(&b, NULL);
		return AA_OK;
	}
	if (cJSON_IsArray(v)) {
		cJSON_ArrayForEach(item, v)
		{
			if (!json_string(item) ||
			    strpbrk(json_string(item), ", \t\n")) {
				buf_setf(err, "%s: expected a list of names",
					 path);
				buf_release(&b);
				return AA_ERR;
			}
			if (b.len)
				buf_addch(&b, ',');
			buf_adds(&b, json_string(item));
		}
		*out = buf_detach(&b, NULL);
		return AA_OK;
	}
	buf_setf(err, "%s: expected a string, list, boolean or number", path);
	return AA_ERR;
}

static int load_config(struct snapshot *s, const cJSON *cfg, bool gitlab,
		       struct buf *err)
{
	struct policy scratch;
	const cJSON *item;
	struct buf path = BUF_INIT(BUF_MAX_SMALL);
	int error = AA_OK;
	size_t n = 0;

	policy_init(&scratch);
	scratch.gitlab = gitlab; /* P62 */
	if (array_len(&n, cfg, "config", err) < 0) {
		error = AA_ERR;
		goto out;
	}
	s->config_keys = xcalloc(n ? n : 1, sizeof(char *));
	s->config_values = xcalloc(n ? n : 1, sizeof(char *));
	cJSON_ArrayForEach(item, cfg)
	{
		char *value = NULL;
		int r;

		pathf(&path, "config.%s", item->string);
		if (config_value(&value, item, path.ptr, err) < 0) {
			error = AA_ERR;
			goto out;
		}
		r = policy_set(&scratch, item->string, value, err);
		if (r == AA_ENOTFOUND) {
			/* SNAPSHOT §2: a misspelled key must never fall back
			 * to the default silently. */
			const char *near = policy_nearest_key(item->string);

			buf_setf(err, "%s: unknown configuration key", path.ptr);
			if (near)
				buf_addf(err, " (did you mean \"%s\"?)", near);
			free(value);
			error = AA_ERR;
			goto out;
		}
		if (r < 0) {
			free(value);
			error = AA_ERR;
			goto out;
		}
		s->config_keys[s->nconfig] = xstrdup(item->string);
		s->config_values[s->nconfig++] = value;
	}
out:
	policy_release(&scratch);
	buf_release(&path);
	return error;
}

static int load_statuses(struct snapshot *s, const cJSON *obj, struct buf *err)
{
	struct buf path = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *list, *item;
	size_t n;
	int error = AA_ERR;

	if (array_len(&n, obj, "statuses", err) < 0)
		goto out;
	s->statuses = xcalloc(n ? n : 1, sizeof(*s->statuses));
	cJSON_ArrayForEach(list, obj)
	{
		struct snap_statuses *st = &s->statuses[s->nstatuses];
		size_t i = 0, cap;

		if (!sha_parse(st->sha, list->string, strlen(list->string))) {
			buf_setf(err, "statuses: key \"%s\" is not a 40-hex-digit "
				      "commit SHA", list->string);
			goto out;
		}
		s->nstatuses++;
		pathf(&path, "statuses.%s", st->sha);
		if (!cJSON_IsArray(list)) {
			buf_setf(err, "%s: expected an array", path.ptr);
			goto out;
		}
		if (array_len(&cap, list, path.ptr, err) < 0)
			goto out;
		st->v = xcalloc(cap ? cap : 1, sizeof(*st->v));
		cJSON_ArrayForEach(item, list)
		{
			pathf(&path, "statuses.%s[%zu]", st->sha, i++);
			st->n++;
			if (load_status(&st->v[st->n - 1], item, path.ptr, err))
				goto out;
		}
	}
	error = AA_OK;
out:
	buf_release(&path);
	return error;
}

/* Duplicate ids or numbers would make "newest" and lookups ambiguous. */
static int check_unique(const struct snapshot *s, struct buf *err)
{
	size_t i, j;

	for (i = 0; i < s->npulls; i++)
		for (j = i + 1; j < s->npulls; j++)
			if (s->pulls[i].number == s->pulls[j].number) {
				buf_setf(err, "pulls[%zu].number: PR #%lld is "
					      "listed twice", j,
					 (long long)s->pulls[j].number);
				return AA_ERR;
			}
	for (i = 0; i < s->nstatuses; i++)
		for (j = i + 1; j < s->nstatuses; j++)
			if (strcmp(s->statuses[i].sha, s->statuses[j].sha) == 0) {
				buf_setf(err, "statuses: commit %s is listed "
					      "twice", s->statuses[j].sha);
				return AA_ERR;
			}
	return AA_OK;
}

int snapshot_from_json(struct snapshot *s, const char *text, size_t len,
		       struct buf *err)
{
	return snapshot_from_json_flags(s, text, len, 0, err);
}

int snapshot_from_json_flags(struct snapshot *s, const char *text, size_t len,
			     unsigned flags, struct buf *err)
{
	struct buf path = BUF_INIT(BUF_MAX_SMALL);
	const cJSON *ev, *payload = NULL, *arr, *obj;
	cJSON *root = NULL;
	char *payload_text, *platform = NULL;
	bool gitlab;
	int error = AA_EUSAGE;

	snapshot_init(s);
	if (len > SNAP_MAX_BYTES) {
		buf_setf(err, "snapshot is larger than %zu bytes", SNAP_MAX_BYTES);
		goto out;
	}
	if (json_parse(&root, text, len, err) < 0)
		goto out;
	if (!cJSON_IsObject(root)) {
		buf_setf(err, "snapshot: expected a JSON object");
		goto out;
	}
	if (jget_int(&s->version, root, "", "snapshot", 0, 1, 1000, err))
		goto out;
	if (s->version != 1) {
		buf_setf(err, "snapshot: version %lld is not supported (1 is)",
			 (long long)s->version);
		goto out;
	}
	if (jget_str(&s->repository, root, "", "repository", 0, err) ||
	    jget_str(&s->viewer, root, "", "viewer", JOPT | JNULL, err) ||
	    jget_str(&s->default_branch, root, "", "default_branch",
		     JOPT | JNULL, err) ||
	    jget_time(&s->now, root, "", "now", JOPT | JNULL, err) ||
	    snapshot_load_command(s, root, err) ||
	    jget_obj(&ev, root, "", "event",
		     s->command || (flags & SNAP_EVENT_OPTIONAL) ? JOPT | JNULL
								 : 0,
		     err))
		goto out;
	/* PUBLISH §8: with a command the event may be omitted (and for
	 * `publish --snapshot F`, which never reads it). */
	if (!ev)
		s->event_name = xstrdup("workflow_dispatch");
	else if (jget_str(&s->event_name, ev, "event", "name", 0, err) ||
		 jget_obj(&payload, ev, "event", "payload", JOPT | JNULL, err))
		goto out;
	if (jget_str(&platform, root, "", "platform", JOPT | JNULL, err))
		goto out;
	gitlab = platform && strcmp(platform, "gitlab") == 0;
	if (!gitlab && !repo_name_valid(s->repository)) {
		buf_setf(err, "repository: expected OWNER/NAME");
		goto out;
	}
	if (!gitlab && s->viewer && !policy_login_valid(s->viewer)) {
		buf_setf(err, "viewer: not a GitHub login");
		goto out;
	}
	if (s->default_branch && !ref_name_valid(s->default_branch)) {
		buf_setf(err, "default_branch: not a branch name");
		goto out;
	}
	payload_text = payload ? cJSON_PrintUnformatted(payload) : NULL;
	s->event_payload = xstrdup(payload_text ? payload_text : "{}");
	cJSON_free(payload_text);

	if (jget_obj(&obj, root, "", "config", JOPT | JNULL, err) ||
	    (obj && load_config(s, obj, gitlab, err)))
		goto out;
	if (jget_arr(&arr, root, "", "pulls", 0, err))
		goto out;
	{
		const cJSON *item;
		size_t n, i = 0;

		if (array_len(&n, arr, "pulls", err))
			goto out;
		s->pulls = xcalloc(n ? n : 1, sizeof(*s->pulls));
		cJSON_ArrayForEach(item, arr)
		{
			pathf(&path, "pulls[%zu]", i++);
			s->npulls++;
			if (load_pull(&s->pulls[s->npulls - 1], item, path.ptr,
				      s->repository, err))
				goto out;
		}
	}
	if (jget_arr(&arr, root, "", "labels", JOPT | JNULL, err))
		goto out;
	if (arr) {
		s->has_labels = true;
		if (load_strv(&s->labels, &s->nlabels, arr, "labels", err))
			goto out;
	}
	if (jget_obj(&obj, root, "", "statuses", JOPT | JNULL, err) ||
	    (obj && load_statuses(s, obj, err)))
		goto out;
	if (LOAD_LIST(root, "", "faults", s->faults, s->nfaults, load_fault,
		      err))
		goto out;
	if (snapshot_load_setup(s, root, err) ||
	    (gitlab && snapshot_load_gitlab(s, root, err)))
		goto out;
	if (check_unique(s, err))
		goto out;
	error = AA_OK;
out:
	cJSON_Delete(root);
	buf_release(&path);
	free(platform);
	if (error)
		snapshot_release(s);
	return error;
}
