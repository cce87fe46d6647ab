/*
 * eva_json.c - an EVA entry point of make prove (tests/prove/eva.sh,
 * docs/proof.md §2): json_parse_at (base/json.c), as the findings reader
 * calls it, over every text of up to RV_MAX_INPUT_BYTES bytes (the limit
 * findings_parse enforces first), of any content: the copy, the NUL test,
 * the pre-scan (UTF-8, "\u0000", nesting) and, over any tree the parse
 * may answer (tests/prove/eva_stubs.c), the duplicate-key check with its
 * JSON pointer.
 */
#include "__fc_builtin.h"

#include "base/json.h"
#include "core/review.h"
#include "eva_stubs.h"

static char text[RV_MAX_INPUT_BYTES];

int main(void)
{
	cJSON *root;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	struct buf where = BUF_INIT(BUF_MAX_SMALL);
	size_t len = Frama_C_size_t_interval(0, RV_MAX_INPUT_BYTES);

	Frama_C_make_unknown(text, RV_MAX_INPUT_BYTES);
	json_parse_at(&root, text, len, &err,
	              Frama_C_nondet(0, 1) ? &where : NULL);
	return 0;
}
