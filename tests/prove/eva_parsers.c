/*
 * eva_parsers.c - the EVA entry point of make prove (tests/prove/eva.sh,
 * docs/proof.md): every comment body up to MARKER_MAX_BYTES bytes, of any
 * content, through the verdict and ledger parsers (core/marker*.c) and the
 * row judgement of §3.3 (core/verdict.c), against threads whose ids are
 * any strings of up to EVA_ID_MAX bytes.
 */
#include "__fc_builtin.h"

#include "core/marker.h"
#include "core/policy.h"
#include "core/verdict.h"

/* The largest body the analysis feeds: GitHub's comment limit is 65,536
 * characters, 4 bytes at most each. */
#define EVA_BODY_MAX (4 * 65536)
/* Thread ids and authors: any bytes, NUL-terminated. */
#define EVA_ID_MAX 64
#define EVA_THREADS 3

static char body[EVA_BODY_MAX];
static char ids[EVA_THREADS][EVA_ID_MAX + 1];
static char authors[EVA_THREADS][EVA_ID_MAX + 1];

int main(void)
{
	struct marker_result m;
	struct check_judgement j;
	struct snap_thread threads[EVA_THREADS];
	struct policy p;
	size_t len = Frama_C_interval(0, EVA_BODY_MAX);
	size_t nthreads = Frama_C_interval(0, EVA_THREADS);
	size_t i;

	Frama_C_make_unknown(body, EVA_BODY_MAX);
	for (i = 0; i < EVA_THREADS; i++) {
		Frama_C_make_unknown(ids[i], EVA_ID_MAX);
		ids[i][EVA_ID_MAX] = '\0';
		Frama_C_make_unknown(authors[i], EVA_ID_MAX);
		authors[i][EVA_ID_MAX] = '\0';
		threads[i].id = ids[i];
		threads[i].url = 0;
		threads[i].author = Frama_C_nondet(0, 1) ? authors[i] : 0;
		threads[i].comments = Frama_C_long_interval(0, 1000000);
		threads[i].resolved = Frama_C_nondet(0, 1);
	}
	policy_init(&p);
	marker_parse(&m, body, len);
	verdict_judge_check(&j, body, len, &m.check, threads, nthreads, &p);
	return 0;
}
