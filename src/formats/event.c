/*
 * event.c - decode the webhook payloads of BEHAVIOR §5.1.
 */
#include "formats/event.h"

#include <stdlib.h>
#include <string.h>

#include "base/json.h"

void event_release(struct event *ev)
{
	free(ev->name);
	free(ev->action);
	snap_comment_release(&ev->comment);
	free(ev->context);
	free(ev->description);
	free(ev->dispatch_pr);
	memset(ev, 0, sizeof(*ev));
}

static int decode_comment(struct event *ev, const cJSON *root, struct buf *err)
{
	const cJSON *issue, *comment, *user;

	if (jget_obj(&issue, root, "payload", "issue", 0, err) ||
	    jget_int(&ev->pr, issue, "payload.issue", "number", 0, 1,
		     INT32_MAX, err))
		return AA_ERR;
	ev->on_pull = json_has(issue, "pull_request");
	if (!ev->action || strcmp(ev->action, "created") != 0)
		return AA_OK;
	if (jget_obj(&comment, root, "payload", "comment", 0, err) ||
	    jget_int(&ev->comment.id, comment, "payload.comment", "id", 0, 1,
		     JSON_MAX_INT, err) ||
	    jget_obj(&user, comment, "payload.comment", "user", JNULL, err) ||
	    (user && jget_str(&ev->comment.author, user, "payload.comment.user",
			      "login", 0, err)) ||
	    jget_str(&ev->comment.body, comment, "payload.comment", "body",
		     JNULL, err) ||
	    jget_time(&ev->comment.created_at, comment, "payload.comment",
		      "created_at", JOPT | JNULL, err) ||
	    jget_str(&ev->comment.html_url, comment, "payload.comment",
		     "html_url", JOPT | JNULL, err))
		return AA_ERR;
	if (!ev->comment.body)
		ev->comment.body = xstrdup("");
	ev->comment.body_len = strlen(ev->comment.body);
	ev->has_comment = true;
	return AA_OK;
}

static int decode_pull_request(struct event *ev, const cJSON *root,
			       struct buf *err)
{
	const cJSON *pull;

	if (jget_int(&ev->pr, root, "payload", "number", JOPT | JNULL, 1,
		     INT32_MAX, err) ||
	    jget_obj(&pull, root, "payload", "pull_request", JOPT | JNULL, err))
		return AA_ERR;
	if (!ev->pr && pull &&
	    jget_int(&ev->pr, pull, "payload.pull_request", "number", 0, 1,
		     INT32_MAX, err))
		return AA_ERR;
	if (!ev->pr) {
		buf_setf(err, "payload.number: missing");
		return AA_ERR;
	}
	return AA_OK;
}

static int decode_status(struct event *ev, const cJSON *root, struct buf *err)
{
	if (jget_sha(ev->sha, root, "payload", "sha", 0, err) ||
	    jget_str(&ev->context, root, "payload", "context", 0, err) ||
	    jget_str(&ev->description, root, "payload", "description",
		     JOPT | JNULL, err))
		return AA_ERR;
	if (!ev->description)
		ev->description = xstrdup("");
	return AA_OK;
}

static int decode_dispatch(struct event *ev, const cJSON *root,
			   struct buf *err)
{
	const cJSON *inputs, *pr;
	int64_t n;

	if (jget_obj(&inputs, root, "payload", "inputs", JOPT | JNULL, err))
		return AA_ERR;
	pr = json_get(inputs, "pr");
	if (json_string(pr)) {
		ev->dispatch_pr = xstrdup(json_string(pr));
	} else if (pr && json_int_value(&n, pr, 0, JSON_MAX_INT)) {
		struct buf b = BUF_INIT(BUF_MAX_SMALL);

		buf_addf(&b, "%lld", (long long)n);
		ev->dispatch_pr = buf_detach(&b, NULL);
	} else if (pr && !cJSON_IsNull(pr)) {
		buf_setf(err, "payload.inputs.pr: expected a PR number");
		return AA_ERR;
	}
	return AA_OK;
}

int event_decode(struct event *ev, const char *name, const char *payload,
		 size_t len, struct buf *err)
{
	cJSON *root = NULL;
	int error = AA_EUSAGE;

	memset(ev, 0, sizeof(*ev));
	ev->name = xstrdup(name);
	if (strcmp(name, "issue_comment") == 0)
		ev->kind = EV_ISSUE_COMMENT;
	else if (strcmp(name, "status") == 0)
		ev->kind = EV_STATUS;
	else if (strcmp(name, "pull_request") == 0 ||
		 strcmp(name, "pull_request_target") == 0)
		ev->kind = EV_PULL_REQUEST;
	else if (strcmp(name, "workflow_dispatch") == 0)
		ev->kind = EV_DISPATCH;
	else if (strcmp(name, "schedule") == 0)
		ev->kind = EV_SCHEDULE;
	else
		ev->kind = EV_OTHER;
	if (ev->kind == EV_OTHER || ev->kind == EV_SCHEDULE)
		return AA_OK; /* nothing in the payload is read */
	if (len > EVENT_MAX_BYTES) {
		buf_setf(err, "event payload is larger than %zu bytes",
			 EVENT_MAX_BYTES);
		goto out;
	}
	if (json_parse(&root, payload, len, err) < 0)
		goto out;
	if (!cJSON_IsObject(root)) {
		buf_setf(err, "payload: expected an object");
		goto out;
	}
	if (jget_str(&ev->action, root, "payload", "action", JOPT | JNULL, err))
		goto out;
	switch (ev->kind) {
	case EV_ISSUE_COMMENT:
		if (!ev->action) {
			buf_setf(err, "payload.action: missing");
			goto out;
		}
		if (decode_comment(ev, root, err))
			goto out;
		break;
	case EV_PULL_REQUEST:
		if (!ev->action) {
			buf_setf(err, "payload.action: missing");
			goto out;
		}
		if (decode_pull_request(ev, root, err))
			goto out;
		break;
	case EV_STATUS:
		if (decode_status(ev, root, err))
			goto out;
		break;
	case EV_DISPATCH:
		if (decode_dispatch(ev, root, err))
			goto out;
		break;
	default:
		break;
	}
	error = AA_OK;
out:
	cJSON_Delete(root);
	return error;
}
