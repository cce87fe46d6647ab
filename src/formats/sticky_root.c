/*
 * sticky_root.c - an inline root (PUBLISH.md §5.4) and its assertions
 * (§4.1 step 4), the review that carries the roots, and the commit status
 * (§5.5).
 *
 * A root's evidence is the one input text shown verbatim: it sits in a
 * fence one backtick longer than any backtick run inside it, so nothing in
 * it can close the fence. Over GitHub's body limit a root first loses its
 * Details, then the tail of its evidence (the fence recomputed from the
 * text that is left).
 */
#include "formats/sticky.h"

#include <string.h>

#include "base/json.h"

#define DOT      " \xC2\xB7 "       /* · */
#define E_NEW    "\xF0\x9F\x86\x95" /* 🆕 */
#define E_CYCLE  "\xF0\x9F\x94\x84" /* 🔄 */
#define ELLIPSIS "\xE2\x80\xA6"     /* … */

static const char *const tier_names[RV_TIER_COUNT] = {
    "PASSED",  "PASSED WITH NOTES", "REVIEW BEFORE MERGE",
    "BLOCKED", "PARTIAL",           "NOOP",
};

size_t sticky_fence_len(const char *s, size_t n)
{
	size_t best = 0, run = 0;

	for (size_t i = 0; i < n; i++) {
		run = s[i] == '`' ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	return best + 1 > 3 ? best + 1 : 3;
}

/* Bytes of the first cp code points of s. */
static size_t prefix_bytes(const char *s, size_t n, size_t cp)
{
	size_t i = 0;

	for (; i < n; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80 && cp-- == 0)
			break;
	return i;
}

/* Details keep their lines; only a comment's opening and closing are
 * defused, so no details text can end a marker or hide what follows. */
static void neutralise(struct buf *o, const char *s)
{
	for (; *s; s++) {
		if (strncmp(s, "<!--", 4) == 0) {
			buf_adds(o, "&lt;!--");
			s += 3;
		} else if (strncmp(s, "-->", 3) == 0) {
			buf_adds(o, "--&gt;");
			s += 2;
		} else {
			buf_addch(o, *s);
		}
	}
}

static void block(struct buf *o)
{
	if (o->len)
		buf_adds(o, "\n\n");
}

/* A URL from GitHub, through one() all the same: it lands in markers. */
static void url(struct buf *o, const char *u)
{
	rv_one(o, u ? u : "", RV_ONE_CAP_LONG, false);
}

static void root_head(struct buf *o, const struct root_doc *d)
{
	const struct rv_finding *f = d->f;
	bool still = f->disposition == RV_DISP_STILL_PRESENT;

	buf_addf(o,
	         ROOT_MARKER "\n<!-- pr-review:finding-id=F%u -->\n"
	                     "<!-- pr-review:status=%s -->\n"
	                     "<!-- pr-review:head=%s -->\n"
	                     "<!-- pr-review:sticky-url=",
	         f->id, still ? "still_present" : "open", d->head);
	url(o, d->sticky_url);
	buf_adds(o, " -->\n<!-- pr-review:previous-thread-url=");
	if (d->previous_url)
		url(o, d->previous_url);
	else
		buf_adds(o, "none");
	buf_adds(o, " -->");
	block(o);
	buf_addf(o, "**F%u %s `", f->id, rv_pcode_names[f->p]);
	rv_one(o, f->slug, RV_ONE_CAP, false);
	buf_adds(o, "`**" DOT);
	buf_adds(o, still ? E_CYCLE " Still present" : E_NEW " New");
	block(o);
	buf_adds(o, "**Sticky summary**: ");
	url(o, d->sticky_url);
	buf_adds(o, "\n**Iteration**: `");
	if (d->mode == RV_INCREMENTAL && d->last_sha && d->last_sha[0])
		sticky_sha7(o, d->last_sha);
	else
		rv_one(o, d->base ? d->base : "", RV_ONE_CAP, false);
	buf_adds(o, "..");
	sticky_sha7(o, d->head);
	buf_adds(o, "`<br>");
	if (d->previous_url) {
		buf_adds(o, "\n**Previous thread**: ");
		url(o, d->previous_url);
	}
	block(o);
	buf_adds(o, "**Failure mode**: ");
	rv_one(o, f->failure_mode, RV_ONE_CAP_LONG, false);
	block(o);
	buf_adds(o, "**Mitigation**: ");
	rv_one(o, f->mitigation, RV_ONE_CAP_LONG, false);
}

static void root_tail(struct buf *o, const struct rv_finding *f, bool details)
{
	if (details && f->details) {
		block(o);
		buf_adds(o, "<details><summary>Details</summary>");
		block(o);
		neutralise(o, f->details);
		block(o);
		buf_adds(o, "</details>");
	}
	block(o);
	buf_adds(o, "<sub>blast: ");
	rv_one(o, f->blast, RV_ONE_CAP, false);
	if (f->reversible) {
		buf_adds(o, DOT);
		rv_one(o, f->reversible, RV_ONE_CAP, false);
	}
	buf_addf(o, DOT "confidence: %s" DOT "justification: ",
	         rv_confidence_names[f->confidence]);
	rv_one(o, f->justification, RV_ONE_CAP, false);
	buf_adds(o, "</sub>");
	block(o);
	buf_adds(o, "<!-- pr-review:justification=");
	rv_one(o, f->justification, RV_ONE_CAP, false);
	buf_adds(o, " -->");
}

/* The whole root with evn bytes of evidence (cut when evn is short). */
static void render_root(struct buf *o, const struct root_doc *d, bool details,
                        size_t evn)
{
	const char *ev = d->f->evidence ? d->f->evidence : "";
	size_t fence = sticky_fence_len(ev, evn);

	buf_reset(o);
	root_head(o, d);
	block(o);
	buf_adds(o, "<details><summary>Evidence</summary>");
	block(o);
	for (size_t i = 0; i < fence; i++)
		buf_addch(o, '`');
	buf_addch(o, '\n');
	if (evn) {
		buf_add(o, ev, evn);
		buf_addch(o, '\n');
	}
	for (size_t i = 0; i < fence; i++)
		buf_addch(o, '`');
	if (evn < strlen(ev))
		buf_adds(o, "\n" ELLIPSIS " (evidence truncated)");
	block(o);
	buf_adds(o, "</details>");
	root_tail(o, d->f, details);
}

static bool fits(const struct buf *b)
{
	return !buf_error(b) && rv_codepoints(b->ptr, b->len) <= RV_BODY_LIMIT;
}

int root_render(struct buf *out, const struct root_doc *d, struct buf *err)
{
	struct buf b = BUF_INIT(BUF_MAX_DOC);
	const char *ev = d->f->evidence ? d->f->evidence : "";
	size_t evn = strlen(ev), lo = 0, hi;
	int error = AA_ETOOBIG;

	buf_reset(out);
	render_root(&b, d, true, evn);
	if (!fits(&b))
		render_root(&b, d, false, evn);
	if (fits(&b))
		goto done;
	/* The longest prefix that fits: the body grows with the prefix
	 * (its fence too), so a binary search over code points finds it. No
	 * prefix longer than the limit can fit. */
	hi = rv_codepoints(ev, evn);
	if (hi > RV_BODY_LIMIT)
		hi = RV_BODY_LIMIT;
	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2;
		render_root(&b, d, false, prefix_bytes(ev, evn, mid));
		if (fits(&b))
			lo = mid;
		else
			hi = mid - 1;
	}
	render_root(&b, d, false, prefix_bytes(ev, evn, lo));
	if (!fits(&b)) {
		buf_setf(err,
		         "root F%u: over %d characters without its "
		         "evidence",
		         d->f->id, RV_BODY_LIMIT);
		goto out;
	}
done:
	error = buf_add(out, b.ptr, b.len);
	if (error)
		buf_setf(err, "root F%u: body over the buffer's ceiling",
		         d->f->id);
out:
	buf_release(&b);
	return error;
}

static bool blank_char(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static bool has_text_line(const char *s)
{
	for (; s && *s; s++)
		if (*s != '\n' && !blank_char(*s))
			return true;
	return false;
}

/* `[^ \t\n] {2,}[^ \t\n]`: what a shell leaves where it swallowed an
 * unquoted `$name` or `$(…)`. */
static bool swallowed(const char *s)
{
	size_t i = 0, n = strlen(s);

	while (i < n) {
		size_t j = i + 1;
		if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			i++;
			continue;
		}
		while (j < n && s[j] == ' ')
			j++;
		if (j - i - 1 >= 2 && j < n && s[j] != '\t' && s[j] != '\n')
			return true;
		i = j;
	}
	return false;
}

int root_assert(const struct rv_finding *f, const char **why)
{
	struct buf t = BUF_INIT(BUF_MAX_SMALL);
	bool bad;

	*why = NULL;
	if (!has_text_line(f->evidence)) {
		*why = "empty evidence";
		return AA_ERR;
	}
	rv_one(&t, f->failure_mode, RV_ONE_CAP_LONG, false);
	bad = swallowed(t.ptr);
	buf_reset(&t);
	rv_one(&t, f->mitigation, RV_ONE_CAP_LONG, false);
	bad = bad || swallowed(t.ptr);
	buf_release(&t);
	if (bad) {
		*why = "swallowed identifier";
		return AA_ERR;
	}
	return 0;
}

void review_payload(struct buf *out, const char *head, const char *description,
                    const char *sticky_url, const struct review_comment *c,
                    size_t n, bool pretty)
{
	struct jw w;
	struct buf body = BUF_INIT(BUF_MAX_SMALL);

	buf_addf(&body, "pr-review iteration" DOT "%s" DOT "%s", description,
	         sticky_url);
	jw_init(&w, out, pretty);
	jw_obj_begin(&w);
	jw_key(&w, "commit_id");
	jw_str(&w, head);
	jw_key(&w, "event");
	jw_str(&w, "COMMENT");
	jw_key(&w, "body");
	jw_str(&w, body.ptr);
	jw_key(&w, "comments");
	jw_arr_begin(&w);
	for (size_t i = 0; i < n; i++) {
		jw_obj_begin(&w);
		jw_key(&w, "path");
		jw_str(&w, c[i].path);
		jw_key(&w, "line");
		jw_int(&w, c[i].line);
		jw_key(&w, "side");
		jw_str(&w, "RIGHT");
		if (c[i].start_line > 0) {
			jw_key(&w, "start_line");
			jw_int(&w, c[i].start_line);
			jw_key(&w, "start_side");
			jw_str(&w, "RIGHT");
		}
		jw_key(&w, "body");
		jw_str(&w, c[i].body);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_obj_end(&w);
	buf_release(&body);
}

void status_description(struct buf *out, enum rv_tier tier,
                        const struct rv_finding *f, size_t n)
{
	struct buf t = BUF_INIT(BUF_MAX_SMALL), b = BUF_INIT(BUF_MAX_SMALL);

	buf_adds(&t, tier_names[tier]);
	sticky_open_buckets(&b, f, n);
	if (strcmp(b.ptr, "none") != 0)
		buf_addf(&t, DOT "%s", b.ptr);
	if (rv_codepoints(t.ptr, t.len) > STICKY_STATUS_DESC_MAX) {
		t.len = prefix_bytes(t.ptr, t.len, STICKY_STATUS_DESC_MAX - 1);
		t.ptr[t.len] = '\0';
		buf_adds(&t, ELLIPSIS);
	}
	buf_add(out, t.ptr, t.len);
	buf_release(&t);
	buf_release(&b);
}

void status_payload(struct buf *out, const char *state, const char *desc,
                    const char *target_url, const char *context, bool pretty)
{
	struct jw w;

	jw_init(&w, out, pretty);
	jw_obj_begin(&w);
	jw_key(&w, "state");
	jw_str(&w, state);
	jw_key(&w, "target_url");
	jw_str_or_null(&w, target_url);
	jw_key(&w, "description");
	jw_str(&w, desc);
	jw_key(&w, "context");
	jw_str(&w, context);
	jw_obj_end(&w);
}
