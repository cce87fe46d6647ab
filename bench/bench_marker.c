/*
 * bench_marker.c - throughput of the verdict parser on 65 KB comments,
 * realistic and adversarial. A benchmark, never a test: it prints MB/s and
 * the ratio of each input to the realistic one, measured in one run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/buf.h"
#include "core/marker.h"

/* Each input is parsed for at least this long. */
#define BENCH_SECONDS 0.5

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fill(struct buf *b, const char *unit, size_t bytes)
{
	while (b->len + strlen(unit) <= bytes)
		buf_adds(b, unit);
}

static void realistic(struct buf *b)
{
	size_t i = 0;

	buf_adds(b, "### Agentic review check — ❌ 3 blocking\n\n"
		    "The change is close; three findings remain.\n\n"
		    "| Severity | Finding | Next step |\n| --- | --- | --- |\n");
	while (b->len < 40000)
		buf_addf(b, "| high | finding %zu in the retry loop | "
			    "return on ctx.Done() |\n", i++);
	buf_adds(b, "\n<details>\n<summary>Machine ledger (conductor "
		    "state)</summary>\n\n<!-- agentic:check v1 -->\n"
		    "head: 0123456789abcdef0123456789abcdef01234567\n"
		    "round: 31209152290\nclean: false\nthreads:\n");
	for (i = 0; b->len < 65000; i++)
		buf_addf(b, "- id: PRRT_kwDOAbc%zu, status: %s, severity: "
			    "should-fix, reason: the reason, with commas.\n",
			 i, i % 3 ? "fixed" : "outstanding");
	buf_adds(b, "\n</details>\n");
}

static double bench(const char *name, const struct buf *in, double base)
{
	struct marker_result m;
	double start = now(), elapsed;
	long n = 0;
	double mbs;

	do {
		marker_parse(&m, in->ptr, in->len);
		n++;
		elapsed = now() - start;
	} while (elapsed < BENCH_SECONDS);
	mbs = (double)in->len * (double)n / elapsed / 1e6;
	printf("  %-34s %8zu bytes %9.1f MB/s", name, in->len, mbs);
	if (base > 0)
		printf("  (%.2fx realistic)", mbs / base);
	printf("\n");
	return mbs;
}

int main(void)
{
	struct buf a = BUF_INIT(BUF_MAX_DOC), b = BUF_INIT(BUF_MAX_DOC),
		   c = BUF_INIT(BUF_MAX_DOC), d = BUF_INIT(BUF_MAX_DOC),
		   e = BUF_INIT(BUF_MAX_DOC), f = BUF_INIT(BUF_MAX_DOC);
	double base;
	size_t i;

	realistic(&a);
	fill(&b, "-", 65536);
	fill(&c, "<!--", 65536);
	buf_adds(&d, "<!-- agentic:check v1 -->\nhead: "
		     "0123456789abcdef0123456789abcdef01234567\nround: 1\n");
	for (i = 0; i < 10000; i++)
		buf_addf(&d, "- id: T%zu, status: fixed, severity: nit, "
			     "reason: r\n", i);
	fill(&e, "<!-- head: ", 65536);
	fill(&f, "- id: x, status: fixed, severity: high, reason: ", 65536);
	printf("marker parser throughput:\n");
	base = bench("realistic 65 KB verdict", &a, 0);
	bench("65 KB of '-'", &b, base);
	bench("65 KB of '<!--'", &c, base);
	bench("10,000 ledger rows", &d, base);
	bench("65 KB of '<!-- head: '", &e, base);
	bench("one 65 KB row line", &f, base);
	buf_release(&a);
	buf_release(&b);
	buf_release(&c);
	buf_release(&d);
	buf_release(&e);
	buf_release(&f);
	return 0;
}
