/*
 * eva_findings.c - an EVA entry point of make prove (tests/prove/eva.sh,
 * docs/proof.md §2): the findings reader (formats/findings*.c, with
 * core/review.c and the typed reads of base/json.c) over every text of up
 * to RV_MAX_INPUT_BYTES + 1 bytes, of any content, with either option
 * set, and over any tree the JSON parse may answer.
 *
 * json_parse_at is analysed on its own (tests/prove/eva_json.c); here it
 * is stubbed (eva.sh renames json.c's own): it fails, with any message
 * and any JSON pointer, or answers any tree of the bounded shape of
 * tests/prove/eva_stubs.c.
 */
#include "__fc_builtin.h"

#include "base/json.h"
#include "core/review.h"
#include "eva_stubs.h"
#include "formats/findings.h"

#define EVA_TEXT_MAX (RV_MAX_INPUT_BYTES + 1)

static char text[EVA_TEXT_MAX];

int json_parse_at(cJSON **out, const char *text_, size_t len, struct buf *err,
                  struct buf *where)
{
	/* the tree first, on both paths: EVA would otherwise join the
	 * failing path's empty pool (all NULL) into the tree's nodes */
	cJSON *tree = eva_any_tree();

	(void)text_;
	*out = NULL;
	if (Frama_C_nondet(0, 1)) {
		buf_setf(err, "invalid JSON at byte %zu", len);
		if (where && Frama_C_nondet(0, 1))
			buf_addf(where, "/%s", "any pointer");
		return AA_ERR;
	}
	*out = tree;
	return AA_OK;
}

int main(void)
{
	struct review_input out;
	struct findings_opts o;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	size_t len = Frama_C_size_t_interval(0, EVA_TEXT_MAX);

	Frama_C_make_unknown(text, EVA_TEXT_MAX);
	o.local = Frama_C_nondet(0, 1);
	o.max_findings = Frama_C_size_t_interval(0, RV_MAX_FINDINGS_DEFAULT);
	findings_parse(&out, Frama_C_nondet(0, 1) ? text : NULL, len,
	               Frama_C_nondet(0, 1) ? &o : NULL, &err);
	return 0;
}
