/*
 * sticky_render.c - the sticky comment of PUBLISH.md §5.2, its state block
 * (§5.3) and its degradation under GitHub's body limit (§5.5, §7.6).
 *
 * A body is a list of blocks joined by one empty line; in §5.2 a `;`
 * separates blocks and a `,` or `+` joins lines of one block (the seed's
 * template, L740-L800, has exactly these empty lines). Every input value
 * passes through rv_one() on its way in, so no input can open a fence, an
 * HTML comment or a block that would hide the rows or the state block;
 * only the state block carries raw values, percent-encoded.
 */
#include "formats/sticky.h"
#include "formats/sticky_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Start a block: one empty line after the one before. */
struct buf *sr_block(struct rd *r)
{
	if (r->out->len)
		buf_adds(r->out, "\n\n");
	return r->out;
}

bool sr_is_open(const struct rv_finding *f)
{
	return f->section == RV_SEC_OPEN || f->section == RV_SEC_AWAITING;
}

static size_t count_section(const struct rd *r, enum rv_section s)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n; i++)
		if (r->f[i].section == s)
			n++;
	return n;
}

void sticky_sha7(struct buf *out, const char *sha)
{
	buf_add(out, sha, strnlen(sha, 7));
}

void sticky_loc(struct buf *out, const char *file, int64_t start, int64_t end)
{
	buf_adds(out, file ? file : "");
	if (start > 0)
		buf_addf(out, ":%lld", (long long)start);
	if (end > 0 && end != start)
		buf_addf(out, "-%lld", (long long)end);
}

/* one(loc(f)) */
void sr_one_loc(struct buf *out, const struct rv_finding *f, bool cell)
{
	struct buf t = BUF_INIT(BUF_MAX_SMALL);

	sticky_loc(&t, f->file, f->line_start, f->line_end);
	rv_one(out, t.ptr, RV_ONE_CAP, cell);
	buf_release(&t);
}

static bool safe_byte(unsigned char c)
{
	return is_alnum(c) || c == '-' || c == '.' || c == '_' || c == '~' ||
	       c == '/';
}

void sticky_pct_encode(struct buf *out, const char *s)
{
	if (!s) {
		buf_addch(out, '-');
		return;
	}
	if (strcmp(s, "-") == 0) {
		buf_adds(out, "%2D");
		return;
	}
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (safe_byte(*p))
			buf_addch(out, (char)*p);
		else
			buf_addf(out, "%%%02X", *p);
	}
}

static int hexval(char c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int sticky_pct_decode(struct buf *out, bool *is_null, const char *s, size_t n)
{
	*is_null = n == 1 && s[0] == '-';
	if (*is_null)
		return 0;
	if (n == 3 && memcmp(s, "%2D", 3) == 0)
		return buf_addch(out, '-');
	if (n == 0)
		return AA_ERR;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		int hi, lo;

		if (safe_byte(c)) {
			buf_addch(out, (char)c);
			continue;
		}
		if (c != '%' || n - i < 3)
			return AA_ERR;
		hi = hexval(s[i + 1]);
		lo = hexval(s[i + 2]);
		if (hi < 0 || lo < 0)
			return AA_ERR;
		c = (unsigned char)(hi * 16 + lo);
		/* One spelling per value: a safe byte is never encoded, and
		 * no control character is carried. */
		if (safe_byte(c) || c < 0x20 || c == 0x7F)
			return AA_ERR;
		buf_addch(out, (char)c);
		i += 2;
	}
	return 0;
}

/*
 * An I7 string with its one placeholder filled, through one(): an
 * override is input too. A placeholder the string lacks is no error
 * (findings.c checked the overrides); the value is inserted as is.
 */
void sr_fill(struct buf *out, const char *tmpl, const char *key,
             const char *val)
{
	struct buf t = BUF_INIT(BUF_MAX_SMALL);
	const char *at = key ? strstr(tmpl, key) : NULL;

	if (at) {
		buf_add(&t, tmpl, (size_t)(at - tmpl));
		buf_adds(&t, val);
		buf_adds(&t, at + strlen(key));
	} else {
		buf_adds(&t, tmpl);
	}
	rv_one(out, t.ptr, RV_ONE_CAP, false);
	buf_release(&t);
}

static void fill_n(struct buf *out, const struct review_input *in,
                   enum rv_string k, size_t n)
{
	struct buf num = BUF_INIT(BUF_MAX_SMALL);

	buf_addf(&num, "%zu", n);
	sr_fill(out, review_string(in, k), "{n}", num.ptr);
	buf_release(&num);
}

/* --- block 3: the status lines --- */

void sticky_open_buckets(struct buf *out, const struct rv_finding *f, size_t n)
{
	size_t c[RV_PCODE_COUNT] = {0};
	bool any = false;

	for (size_t i = 0; i < n; i++)
		if (sr_is_open(&f[i]))
			c[f[i].p]++;
	for (int p = 0; p < RV_PCODE_COUNT; p++) {
		if (!c[p])
			continue;
		buf_addf(out, "%s%s" TIMES "%zu", any ? ", " : "",
		         rv_pcode_names[p], c[p]);
		any = true;
	}
	if (!any)
		buf_adds(out, "none");
}

/* --- block 2: the heading --- */

static void block_heading(struct rd *r)
{
	struct buf *o = sr_block(r);
	size_t w = count_section(r, RV_SEC_AWAITING);

	buf_adds(o, "## ");
	merge_heading(o, r->in, &r->v);
	if (w > 0)
		buf_addf(o, ", %zu awaiting your decision", w);
}

static size_t unfinished_threads(const struct rd *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n; i++)
		if (rv_thread_unfinished(r->f[i].thread))
			n++;
	return n;
}

static void block_status(struct rd *r)
{
	struct buf *o = sr_block(r);
	struct buf next = BUF_INIT(BUF_MAX_SMALL);
	size_t w = count_section(r, RV_SEC_AWAITING);

	buf_adds(o, "**Open**: ");
	sticky_open_buckets(o, r->f, r->n);
	if (w > 0)
		buf_addf(o, " (%zu awaiting author, %zu awaiting decision)",
		         count_section(r, RV_SEC_OPEN), w);
	buf_adds(o, DOT "**Reviewed HEAD**: `");
	sticky_sha7(o, r->in->head);
	buf_addf(o, "`" DOT "**Mode**: %s", rv_mode_names[r->in->mode]);
	buf_addf(o, "\n**Checked**: " E_CHECK " %zu clean", r->in->nclean);
	merge_next_action(&next, r->in, &r->v, unfinished_threads(r),
	                  r->d->status_unwritten);
	if (next.len)
		buf_addf(o, "\n**Next action**: %s", next.ptr);
	buf_release(&next);
}

/* --- blocks 4 and 5: notices and the shape narrative --- */

static void block_notices(struct rd *r)
{
	const struct review_input *in = r->in;

	if (in->prior_sha_unreachable[0]) {
		struct buf s = BUF_INIT(BUF_MAX_SMALL);
		sticky_sha7(&s, in->prior_sha_unreachable);
		buf_adds(sr_block(r), "> " E_WARN " ");
		sr_fill(r->out, review_string(in, RV_STR_FORCE_PUSH_NOTICE),
		        "{last_sha}", s.ptr);
		buf_release(&s);
	}
	if (in->replies_unavailable) {
		buf_adds(sr_block(r), "> " E_WARN " ");
		sr_fill(r->out, review_string(in, RV_STR_REPLIES_UNAVAILABLE),
		        NULL, NULL);
	}
	if (in->shape_narrative) {
		buf_adds(sr_block(r), "> ");
		rv_one(r->out, in->shape_narrative, RV_ONE_CAP, false);
	}
}

/* --- blocks 6 and 7: the open and awaiting rows --- */

static void thread_text(struct buf *o, const struct rv_finding *f)
{
	switch (f->thread) {
	case RV_THREAD_POSTED:
	case RV_THREAD_EXISTING:
		if (f->thread_url) {
			buf_adds(o, "[thread](");
			rv_one(o, f->thread_url, RV_ONE_CAP_LONG, false);
			buf_addch(o, ')');
			return;
		}
		buf_adds(o, "sticky-only");
		return;
	case RV_THREAD_FAILED:
		buf_adds(o, E_WARN " thread failed to post");
		return;
	case RV_THREAD_DROPPED:
		buf_addf(o, E_WARN " thread not posted: %s",
		         f->thread_reason ? f->thread_reason
		                          : "empty evidence");
		return;
	case RV_THREAD_PENDING:
		buf_adds(o, E_HOURGLASS " thread pending");
		return;
	default:
		buf_adds(o, "sticky-only");
		if (f->thread_reason)
			buf_addf(o, " (%s)", f->thread_reason);
		return;
	}
}

/* `- **<id>** <P> `<slug>`` [` — <loc>`] ` · <thread>` */
static void row_line(struct buf *o, const struct rv_finding *f)
{
	buf_addf(o, "- **F%u** %s `", f->id, rv_pcode_names[f->p]);
	rv_one(o, f->slug, RV_ONE_CAP, false);
	buf_addch(o, '`');
	if (f->file) {
		buf_adds(o, DASH);
		sr_one_loc(o, f, false);
	}
	buf_adds(o, DOT);
	thread_text(o, f);
}

static void block_open(struct rd *r)
{
	size_t n = count_section(r, RV_SEC_OPEN), c[RV_PCODE_COUNT] = {0};
	bool nits, questions, done_nits = false, done_q = false;
	struct buf *o;
	bool first = true;

	if (!n)
		return;
	for (size_t i = 0; i < r->n; i++)
		if (r->f[i].section == RV_SEC_OPEN)
			c[r->f[i].p]++;
	nits = c[RV_P3] > 5 || (r->dg >= DG_COLLAPSE && c[RV_P3] > 0);
	questions = r->dg >= DG_COLLAPSE && c[RV_Q] > 0;
	buf_addf(sr_block(r),
	         "## " E_CLIPBOARD " Currently open (%zu)" DASH
	         "awaiting author",
	         n);
	o = sr_block(r);
	for (size_t i = 0; i < r->n; i++) {
		const struct rv_finding *f = &r->f[i];
		if (f->section != RV_SEC_OPEN)
			continue;
		if (!first && !((f->p == RV_P3 && nits && done_nits) ||
		                (f->p == RV_Q && questions && done_q)))
			buf_addch(o, '\n');
		if (f->p == RV_P3 && nits) {
			if (!done_nits)
				buf_addf(o, "- " E_WRENCH " %zu nits",
				         c[RV_P3]);
			done_nits = true;
		} else if (f->p == RV_Q && questions) {
			if (!done_q)
				buf_addf(o, "- " E_QUESTION " %zu questions",
				         c[RV_Q]);
			done_q = true;
		} else {
			row_line(o, f);
		}
		first = false;
	}
}

static void block_awaiting(struct rd *r)
{
	size_t n = count_section(r, RV_SEC_AWAITING);
	size_t cap = r->dg >= DG_REASONS ? STICKY_DEGRADED_REASON : RV_ONE_CAP;
	struct buf *o;
	bool first = true;

	if (!n)
		return;
	buf_addf(sr_block(r), "## " E_PAUSE " Awaiting your decision (%zu)", n);
	o = sr_block(r);
	for (size_t i = 0; i < r->n; i++) {
		const struct rv_finding *f = &r->f[i];
		const struct rv_reply *rp = f->reply;
		if (f->section != RV_SEC_AWAITING)
			continue;
		if (!first)
			buf_addch(o, '\n');
		first = false;
		row_line(o, f);
		if (rp) {
			buf_adds(o, "\n  - **Author** (");
			rv_one(o, rp->kind, RV_ONE_CAP, false);
			buf_adds(o, "): ");
			rv_one(o, rp->reason, cap, false);
		}
		if (rp && rp->recommendation) {
			buf_adds(o, "\n  - **Recommend**: **");
			rv_one(o, rp->recommendation, RV_ONE_CAP, false);
			buf_adds(o, "**" DASH);
			rv_one(o, rp->recommendation_reason, cap, false);
		} else {
			buf_adds(o, "\n  - **Recommend**: unavailable" DASH
			            "assessor failed this iteration");
		}
	}
}

/* --- block 8: accepted exceptions --- */

static void exception_kind(struct buf *o, const struct rv_exception *e)
{
	if (strcmp(e->kind, "follow_up") == 0) {
		buf_adds(o, "follow-up");
		if (e->issue) {
			buf_addch(o, ' ');
			rv_one(o, e->issue, RV_ONE_CAP, false);
		}
	} else if (strcmp(e->kind, "by_design") == 0) {
		buf_adds(o, "by-design");
	} else {
		rv_one(o, e->kind, RV_ONE_CAP, false);
	}
}

static void block_accepted(struct rd *r)
{
	size_t n = count_section(r, RV_SEC_ACCEPTED);
	struct buf *o;
	bool first = true;

	if (!n)
		return;
	buf_addf(sr_block(r),
	         "<details><summary>" E_HOOK
	         " Accepted exceptions (%zu)</summary>",
	         n);
	o = sr_block(r);
	for (size_t i = 0; i < r->n; i++) {
		const struct rv_finding *f = &r->f[i];
		if (f->section != RV_SEC_ACCEPTED)
			continue;
		if (!first)
			buf_addch(o, '\n');
		first = false;
		buf_addf(o, "- **F%u** %s `", f->id, rv_pcode_names[f->p]);
		rv_one(o, f->slug, RV_ONE_CAP, false);
		buf_addch(o, '`');
		if (!f->exception)
			continue;
		buf_adds(o, DASH);
		exception_kind(o, f->exception);
		buf_adds(o, " by ");
		rv_one(o, f->exception->accepted_by, RV_ONE_CAP, false);
		buf_adds(o, ": ");
		rv_one(o, f->exception->reason, RV_ONE_CAP, false);
	}
	buf_adds(sr_block(r), "</details>");
}

/* --- block 9: the inline locator --- */

bool sr_links_thread(const struct rv_finding *f)
{
	return (f->thread == RV_THREAD_POSTED ||
	        f->thread == RV_THREAD_EXISTING) &&
	       f->thread_url;
}

static void block_locator(struct rd *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n; i++)
		if (sr_is_open(&r->f[i]) && sr_links_thread(&r->f[i]))
			n++;
	if (!n)
		return;
	buf_adds(sr_block(r), E_PIN " **Inline comments**: ");
	fill_n(r->out, r->in, RV_STR_INLINE_LOCATOR, n);
}

/* --- the whole body --- */

enum rv_tier sticky_tier(const struct sticky_doc *d)
{
	return merge_tier(d->m, d->in->nfailures, d->publish_incomplete);
}

static void render_once(struct buf *out, const struct sticky_doc *d,
                        enum degrade dg)
{
	struct rd r;

	memset(&r, 0, sizeof(r));
	r.d = d;
	r.in = d->in;
	r.v = *d->m; /* a shallow copy: read only */
	r.v.publish_incomplete = d->publish_incomplete;
	r.v.tier = sticky_tier(d);
	r.f = d->m->f;
	r.n = d->m->n;
	r.dg = dg;
	r.out = out;
	buf_reset(out);
	buf_addf(sr_block(&r),
	         STICKY_MARKER "\n<!-- pr-review:version=%d -->\n"
	                       "<!-- pr-review:sha=%s -->\n"
	                       "<!-- pr-review:status=%s -->",
	         STICKY_VERSION, d->in->head, rv_tier_tokens[r.v.tier]);
	block_heading(&r);
	block_status(&r);
	block_notices(&r);
	block_open(&r);
	block_awaiting(&r);
	block_accepted(&r);
	block_locator(&r);
	sr_block_adjustments(&r);
	sr_block_changes(&r);
	sr_block_overview(&r);
	sr_block_gaps(&r);
	sr_block_clean(&r);
	sr_block_footer(&r);
}

int sticky_render(struct buf *out, const struct sticky_doc *d, struct buf *err)
{
	struct buf b = BUF_INIT(BUF_MAX_DOC);
	size_t cp = 0;
	int error = AA_ETOOBIG;

	buf_reset(out);
	for (int dg = DG_NONE; dg < DG_COUNT; dg++) {
		render_once(&b, d, (enum degrade)dg);
		cp = rv_codepoints(b.ptr, b.len);
		if (cp <= RV_BODY_LIMIT && !buf_error(&b)) {
			/* A caller's ceiling below the body is a refusal,
			 * never a body cut short. */
			error = buf_add(out, b.ptr, b.len);
			if (error)
				buf_setf(err,
				         "sticky: body of %zu bytes over "
				         "the buffer's ceiling",
				         b.len);
			goto out;
		}
	}
	buf_setf(err,
	         "sticky: %zu characters after every degradation step "
	         "(limit %d)",
	         cp, RV_BODY_LIMIT);
out:
	buf_release(&b);
	return error;
}
