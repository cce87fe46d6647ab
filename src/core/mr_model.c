/*
 * mr_model.c - the GitLab snapshot model's lifetime and look-ups
 * (docs/snapshot.md "GitLab merge requests", D1, D3).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mr_model.h"

void mr_note_release(struct mr_note *n)
{
	free(n->type);
	free(n->author);
	free(n->body);
	free(n->last_edited_by);
	free(n->new_path);
	free(n->old_path);
	memset(n, 0, sizeof(*n));
}

void mr_discussion_release(struct mr_discussion *d)
{
	for (size_t i = 0; i < d->nnotes; i++)
		mr_note_release(&d->notes[i]);
	free(d->notes);
	memset(d, 0, sizeof(*d));
}

void mr_status_release(struct mr_status *st)
{
	free(st->ref);
	free(st->name);
	free(st->status);
	free(st->description);
	free(st->target_url);
	free(st->author);
	memset(st, 0, sizeof(*st));
}

static void mr_release(struct merge_request *m)
{
	free(m->state);
	free(m->author);
	free(m->source_branch);
	free(m->target_branch);
	free(m->web_url);
	free(m->commits);
	for (size_t i = 0; i < m->ndiscussions; i++)
		mr_discussion_release(&m->discussions[i]);
	free(m->discussions);
	for (size_t i = 0; i < m->ndiffs; i++) {
		free(m->diffs[i].old_path);
		free(m->diffs[i].new_path);
		free(m->diffs[i].diff);
	}
	free(m->diffs);
}

void snap_gitlab_free(struct snap_gitlab *g)
{
	if (!g)
		return;
	free(g->host);
	for (size_t i = 0; i < g->nmrs; i++)
		mr_release(&g->mrs[i]);
	free(g->mrs);
	for (size_t i = 0; i < g->nstatuses; i++)
		mr_status_release(&g->statuses[i]);
	free(g->statuses);
	free(g);
}

struct merge_request *snap_gitlab_mr(struct snap_gitlab *g, int64_t iid)
{
	for (size_t i = 0; g && i < g->nmrs; i++)
		if (g->mrs[i].iid == iid)
			return &g->mrs[i];
	return NULL;
}

int64_t snap_gitlab_max_note_id(const struct snap_gitlab *g)
{
	int64_t max = 0;

	for (size_t i = 0; i < g->nmrs; i++)
		for (size_t j = 0; j < g->mrs[i].ndiscussions; j++) {
			const struct mr_discussion *d = &g->mrs[i].discussions[j];

			for (size_t k = 0; k < d->nnotes; k++)
				if (d->notes[k].id > max)
					max = d->notes[k].id;
		}
	return max;
}

void mr_discussion_id(char out[MR_DISCUSSION_ID_BUF], int64_t iid,
                      int64_t note_id)
{
	char text[64];
	int n = snprintf(text, sizeof(text), "discussion:%lld:%lld",
	                 (long long)iid, (long long)note_id);

	if (n < 0 || (size_t)n >= sizeof(text))
		n = 0; /* cannot happen: two int64 values */
	sha1_hex(out, text, (size_t)n);
}

int mr_diff_line(const char *diff, int64_t new_line, int64_t *old_line)
{
	int64_t o = 0, n = 0;
	bool in_hunk = false;

	*old_line = 0;
	for (const char *p = diff; p && *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		if (len >= 2 && p[0] == '@' && p[1] == '@') {
			const char *q = p + 2;
			char *end;

			while (*q == ' ')
				q++;
			if (*q != '-')
				return 0;
			o = strtoll(q + 1, &end, 10);
			q = strchr(end, '+');
			if (!q || q > p + len)
				return 0;
			n = strtoll(q + 1, &end, 10);
			in_hunk = true;
		} else if (in_hunk && len && p[0] == '+') {
			if (n == new_line)
				return MR_LINE_ADDED;
			n++;
		} else if (in_hunk && len && p[0] == '-') {
			o++;
		} else if (in_hunk && (!len || p[0] == ' ')) {
			if (n == new_line) {
				*old_line = o;
				return MR_LINE_CONTEXT;
			}
			o++;
			n++;
		}
		p = eol ? eol + 1 : p + len;
	}
	return 0;
}
