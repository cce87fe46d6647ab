/*
 * fuzz_sticky.c - the sticky and root readers (U1-U3, B1, §5.3, H5) on
 * arbitrary bytes: sticky_parse() and root_parse(), the one reader of a
 * root for publish (U3) and review-plan (H5's texts). Beyond "no crash":
 * what they accept is what the renderer could have written. A state block that parses is rendered back
 * from its rows and must parse to the same rows (the round trip that makes
 * a prior state survive an iteration).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "core/merge.h"
#include "formats/sticky.h"

/* The readers refuse bodies over the limit; 4 bytes a code point. */
#define FUZZ_STICKY_MAX ((size_t)4 * RV_BODY_LIMIT + 16)

static int streq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static void check_rows(const struct review_state *s)
{
	for (size_t i = 0; i < s->nrows; i++) {
		const struct rv_state_row *r = &s->rows[i];
		FUZZ_ASSERT(r->id >= 1 && r->id <= RV_MAX_ID);
		FUZZ_ASSERT(r->slug && r->slug[0]);
		FUZZ_ASSERT((r->line_start > 0) == (r->line_end > 0));
		FUZZ_ASSERT(r->line_start <= r->line_end);
		FUZZ_ASSERT(!r->line_start || r->file);
		for (size_t j = 0; j < i; j++)
			FUZZ_ASSERT(s->rows[j].id != r->id);
	}
}

/* Render a model made of the state's rows and read it back. */
static void round_trip(const struct review_state *s)
{
	struct review_input in;
	struct review_model m;
	struct sticky_doc d;
	struct sticky_info back;
	struct buf out = BUF_INIT(BUF_MAX_DOC), err = BUF_INIT(BUF_MAX_SMALL);
	char base[] = "main", ev[] = "e", url[] = "u";

	memset(&in, 0, sizeof(in));
	memset(&m, 0, sizeof(m));
	memset(in.head, 'a', SHA_HEX_LEN);
	in.base = base;
	in.clean = calloc(s->nclean + 1, sizeof(*in.clean));
	FUZZ_ASSERT(in.clean);
	for (size_t i = 0; i < s->nclean; i++) {
		in.clean[i].slug = s->clean[i];
		in.clean[i].evidence = ev;
	}
	in.nclean = s->nclean;
	m.f = calloc(s->nrows + 1, sizeof(*m.f));
	FUZZ_ASSERT(m.f);
	for (size_t i = 0; i < s->nrows; i++) {
		const struct rv_state_row *r = &s->rows[i];
		struct rv_finding *f = &m.f[i];
		f->id = r->id;
		f->p = r->p;
		f->section = r->section;
		f->confidence = r->confidence;
		f->blast = r->blast;
		f->justification = r->justification;
		f->slug = r->slug;
		f->file = r->file;
		f->line_start = r->line_start;
		f->line_end = r->line_end;
		f->category = r->category;
		f->thread = r->thread;
		f->root_id = r->root_id;
		f->thread_url = r->thread == RV_THREAD_EXISTING ? url : NULL;
	}
	m.n = s->nrows;
	d = (struct sticky_doc){&in, &m, false, false, s->iteration, s->next};
	if (sticky_render(&out, &d, &err) == 0) {
		FUZZ_ASSERT(rv_codepoints(out.ptr, out.len) <= RV_BODY_LIMIT);
		sticky_parse(&back, out.ptr, out.len);
		FUZZ_ASSERT(back.is_sticky && back.markers_ok);
		FUZZ_ASSERT(back.state.present && !back.state_malformed);
		FUZZ_ASSERT(back.state.nrows == s->nrows);
		FUZZ_ASSERT(back.state.next == s->next);
		FUZZ_ASSERT(back.state.iteration == s->iteration);
		FUZZ_ASSERT(back.state.nclean == s->nclean);
		FUZZ_ASSERT(back.state.base && strcmp(back.state.base, base) == 0);
		for (size_t i = 0; i < s->nrows; i++) {
			const struct rv_state_row *a = &s->rows[i];
			const struct rv_state_row *b = &back.state.rows[i];
			FUZZ_ASSERT(a->id == b->id && a->p == b->p);
			FUZZ_ASSERT(a->section == b->section);
			FUZZ_ASSERT(a->thread == b->thread);
			FUZZ_ASSERT(a->root_id == b->root_id);
			FUZZ_ASSERT(strcmp(a->slug, b->slug) == 0);
			FUZZ_ASSERT(streq(a->category, b->category));
			FUZZ_ASSERT(streq(a->blast, b->blast));
			FUZZ_ASSERT(streq(a->justification, b->justification));
			FUZZ_ASSERT(!a->file == !b->file);
			FUZZ_ASSERT(!a->file || strcmp(a->file, b->file) == 0);
			FUZZ_ASSERT(a->line_start == b->line_start);
			FUZZ_ASSERT(a->line_end == b->line_end);
		}
		sticky_info_release(&back);
	}
	free(m.f);
	free(in.clean);
	buf_release(&out);
	buf_release(&err);
}

/* A root text (H5) is a view inside the body; the fields are one line. */
static void check_text(struct root_text t, const char *body, size_t size,
                       bool lines)
{
	if (!t.p)
		return;
	FUZZ_ASSERT(t.p >= body && t.n <= size &&
	            (size_t)(t.p - body) <= size - t.n);
	if (!lines)
		FUZZ_ASSERT(!memchr(t.p, '\n', t.n));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct sticky_info si;
	struct root_info ri;

	if (size > FUZZ_STICKY_MAX)
		return 0;
	if (sticky_parse(&si, text, size) == 0) {
		if (si.markers_ok)
			FUZZ_ASSERT(strlen(si.sha) == SHA_HEX_LEN &&
			            si.status < RV_NOOP_TIER);
		FUZZ_ASSERT(!(si.state.present && si.state_malformed));
		FUZZ_ASSERT(!(si.state.present && si.state.from_rows));
		/* B1: a sticky starts with its marker, and no verdict marker
		 * stands anywhere in it */
		if (si.is_sticky)
			FUZZ_ASSERT(size >= strlen(STICKY_MARKER) &&
			            memcmp(text, STICKY_MARKER,
			                   strlen(STICKY_MARKER)) == 0 &&
			            !kind_has_verdict_marker(text, size));
		check_rows(&si.state);
		if (si.state.present)
			round_trip(&si.state);
		sticky_info_release(&si);
	}
	root_parse(&ri, text, size);
	if (ri.is_root) {
		FUZZ_ASSERT(ri.id >= 1 && ri.id <= RV_MAX_ID);
		FUZZ_ASSERT(ri.slug[0] && ri.p < RV_PCODE_COUNT);
		FUZZ_ASSERT(!ri.has_head || strlen(ri.head) == SHA_HEX_LEN);
		check_text(ri.failure_mode, text, size, false);
		check_text(ri.mitigation, text, size, false);
		check_text(ri.evidence, text, size, true);
		/* B1: what reads as a root holds no verdict marker */
		FUZZ_ASSERT(!kind_has_verdict_marker(text, size));
	} else {
		FUZZ_ASSERT(!ri.failure_mode.p && !ri.mitigation.p &&
		            !ri.evidence.p);
	}
	return 0;
}
