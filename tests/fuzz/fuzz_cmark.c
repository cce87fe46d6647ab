/*
 * fuzz_cmark.c - the differential test on arbitrary Markdown (issue 20):
 * the verdict parser and cmark-gfm, GitHub's engine, read the same body;
 * any place where the program hides what GitHub shows (a row-like line
 * that is no row, a skipped fence that is no code, a needs-human marker
 * outside the leading HTML blocks; tests/cmark/gfmdiff.h) is printed and
 * aborts. With FUZZ_CMARK_READER=model the spec model of A11/A12
 * (tests/cmark/specmodel.h) stands in for the program: a finding is then
 * the spec's. Only bodies GitHub could hold are compared (valid UTF-8,
 * no NUL). Built with libcmark-gfm only (scripts/fuzz, and the replay
 * driver of `make test-corpora`).
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
__attribute__((used, section("__libfuzzer_extra_counters"))) static unsigned char
	feel_counters[FEEL_SLOTS];

static void feel(int type, int parent, int grandparent, bool row)
{
	unsigned h = (unsigned)type * 2654435761u;

	h ^= (unsigned)parent * 40503u;
	h ^= (unsigned)grandparent * 9973u;
	h = h * 2u + (row ? 1u : 0u);
	feel_counters[h % FEEL_SLOTS]++;
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
	const char *text = (const char *)data;
	struct gfmdiff_reading r;
	struct gfmdiff d;

	if (model < 0) {
		const char *e = getenv("FUZZ_CMARK_READER");

		model = e && strcmp(e, "model") == 0;
		gfmdiff_feel = feel;
	}
	if (size > FUZZ_CMARK_MAX_INPUT || !gfmdiff_plausible(text, size))
		return 0;
	gfmdiff_reading_init(&r, gfmdiff_count_lines(text, size));
	if (model)
		specmodel_read(&r, text, size);
	else
		gfmdiff_read_program(&r, text, size);
	gfmdiff_run(&d, text, size, &r);
	gfmdiff_reading_release(&r);
	if (d.n)
		report(text, size, &d);
	FUZZ_ASSERT(d.n == 0);
	return 0;
}
