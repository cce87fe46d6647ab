/*
 * fuzz_cmark.c - the differential test on arbitrary Markdown (issue 20):
 * the verdict parser and cmark-gfm, GitHub's engine, read the same body;
 * any place where the program hides what GitHub shows (a row-like line
 * that is no row, a skipped fence that is no code, a needs-human marker
 * outside the leading HTML blocks; tests/cmark/gfmdiff.h) is printed and
 * aborts. With FUZZ_CMARK_READER=model the spec model of A11/A12
 * (tests/cmark/specmodel.h) stands in for the program: a finding is then
 * the spec's. FUZZ_CMARK_FENCES=effect judges the fences before the block
 * by what they hide only (GFMDIFF_FENCE_EFFECT). FUZZ_CMARK_IGNORE, a
 * campaign aid to look past a class already known, drops findings by kind
 * and cmark-gfm context: "start:html_block;row:a line a lone CR" (kinds
 * row, fence, start, nh, key, reader; the text after ':' is a substring of
 * the finding's context or why). FUZZ_CMARK_FEEL=0 leaves cmark-gfm's
 * tree shapes out of the coverage (to merge a small corpus). Only bodies GitHub
 * could hold are compared (valid UTF-8, no NUL). Built with libcmark-gfm only
 * (scripts/fuzz, and the replay driver of `make test-corpora`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "gfmdiff.h"
#include "specmodel.h"

/* Comments are short; cmark-gfm 0.29 has superlinear corners (tables)
 * that would only slow the campaign down. */
#define FUZZ_CMARK_MAX_INPUT 16384

/* libFuzzer counts these as coverage: the shapes of cmark-gfm's tree
 * (whose library is not instrumented) guide the campaign. A plain section
 * for the standalone driver. */
#define FEEL_SLOTS 4096
__attribute__((used,
               section("__libfuzzer_extra_counters"))) static unsigned char
    feel_counters[FEEL_SLOTS];

static void feel(int type, int parent, int grandparent, bool row)
{
	unsigned h = (unsigned)type * 2654435761u;

	h ^= (unsigned)parent * 40503u;
	h ^= (unsigned)grandparent * 9973u;
	h = h * 2u + (row ? 1u : 0u);
	feel_counters[h % FEEL_SLOTS]++;
}

static const char *const kind_names[] = {"row", "fence", "start",
                                         "nh",  "key",   "reader"};

/* Is the finding one FUZZ_CMARK_IGNORE names? */
static bool ignored(const char *list, const struct gfmdiff_finding *f)
{
	const char *p = list, *end, *colon;
	size_t klen;
	char sub[GFMDIFF_CONTEXT_MAX];

	while (p && *p) {
		end = strchr(p, ';');
		if (!end)
			end = p + strlen(p);
		colon = memchr(p, ':', (size_t)(end - p));
		klen = colon ? (size_t)(colon - p) : (size_t)(end - p);
		if ((size_t)f->kind <
		        sizeof(kind_names) / sizeof(kind_names[0]) &&
		    strlen(kind_names[f->kind]) == klen &&
		    memcmp(kind_names[f->kind], p, klen) == 0) {
			size_t n = colon ? (size_t)(end - colon - 1) : 0;

			if (n >= sizeof(sub))
				n = sizeof(sub) - 1;
			if (n)
				memcpy(sub, colon + 1, n);
			sub[n] = '\0';
			if (!n || strstr(f->context, sub) ||
			    (f->why && strstr(f->why, sub)))
				return true;
		}
		p = *end ? end + 1 : end;
	}
	return false;
}

static void report(const char *text, size_t size, const struct gfmdiff *d)
{
	size_t i, k, off, line;

	for (i = 0; i < d->n && i < GFMDIFF_MAX_FINDINGS; i++) {
		const struct gfmdiff_finding *f = &d->f[i];

		fprintf(stderr, "fuzz_cmark: line %zu: %s (%s%s%s)\n", f->line,
		        gfmdiff_kind_name(f->kind), f->why ? f->why : "",
		        f->why ? "; " : "", f->context);
		for (off = 0, line = 1; off < size && line < f->line; off++)
			if (text[off] == '\n')
				line++;
		fputs("    | ", stderr);
		for (k = off; k < size && text[k] != '\n' && k - off < 100; k++)
			fputc((unsigned char)text[k] < 0x20 ? '?' : text[k],
			      stderr);
		fputc('\n', stderr);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int model = -1;
	static unsigned opts;
	static const char *ignore;
	size_t i, kept = 0;
	const char *text = (const char *)data;
	struct gfmdiff_reading r;
	struct gfmdiff d;

	if (model < 0) {
		const char *e = getenv("FUZZ_CMARK_READER");

		model = e && strcmp(e, "model") == 0;
		e = getenv("FUZZ_CMARK_FENCES");
		opts = e && strcmp(e, "effect") == 0 ? GFMDIFF_FENCE_EFFECT : 0;
		ignore = getenv("FUZZ_CMARK_IGNORE");
		/* FUZZ_CMARK_FEEL=0: code coverage only (a smaller corpus
		 * when merging). */
		e = getenv("FUZZ_CMARK_FEEL");
		if (!e || strcmp(e, "0") != 0)
			gfmdiff_feel = feel;
	}
	if (size > FUZZ_CMARK_MAX_INPUT || !gfmdiff_plausible(text, size))
		return 0;
	gfmdiff_reading_init(&r, gfmdiff_count_lines(text, size));
	if (model)
		specmodel_read(&r, text, size);
	else
		gfmdiff_read_program(&r, text, size);
	gfmdiff_run(&d, text, size, &r, opts);
	gfmdiff_reading_release(&r);
	for (i = 0; i < d.n && i < GFMDIFF_MAX_FINDINGS; i++)
		if (!ignore || !ignored(ignore, &d.f[i]))
			d.f[kept++] = d.f[i];
	if (d.n > GFMDIFF_MAX_FINDINGS && !ignore)
		kept = d.n;
	d.n = kept;
	if (d.n)
		report(text, size, &d);
	FUZZ_ASSERT(d.n == 0);
	return 0;
}
