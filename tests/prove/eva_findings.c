/*
 * eva_findings.c - an EVA entry point for the findings reader
 * (src/formats/findings*.c; docs/proof.md §2), not yet in make prove: the
 * run below did not finish in 30 minutes (docs/proof.md says why):
 *
 *	frama-c -c11 -cpp-extra-args="-Isrc -Itests/prove/shim
 *	  -I/usr/include/cjson -D_POSIX_C_SOURCE=200809L" tests/prove/eva_findings.c
 *	  src/formats/findings*.c src/base/json.c src/base/buf.c
 *	  src/base/util.c src/core/review.c -eva -eva-precision 0
 *	  -eva-alloc-builtin imprecise -eva-unroll-recursive-calls 7
 *
 * It feeds every text up to RV_MAX_INPUT_BYTES + 1 bytes, of any content,
 * through findings_parse, with either option set.
 *
 * cJSON is trusted (docs/proof.md): this file is its stub. The parse
 * returns NULL (a syntax error at any byte) or any tree of the shape
 * below: EVA_DEPTH levels of EVA_WIDTH nodes, each node of any of cJSON's
 * seven types, its key and its string any bytes of up to EVA_STR_MAX,
 * its number any double, its children (arrays and objects) the next
 * level, cut anywhere. The predicates and the lookups are cJSON's own
 * (cJSON.c), on that tree.
 */
#include "__fc_builtin.h"

#include <string.h>

#include <cJSON.h>

#include "core/review.h"
#include "formats/findings.h"

#define EVA_TEXT_MAX (RV_MAX_INPUT_BYTES + 1)
#define EVA_DEPTH 6
#define EVA_WIDTH 3
#define EVA_STR_MAX 32

static char text[EVA_TEXT_MAX];
static cJSON pool[EVA_DEPTH][EVA_WIDTH];
static char keys[EVA_DEPTH][EVA_WIDTH][EVA_STR_MAX + 1];
static char strs[EVA_DEPTH][EVA_WIDTH][EVA_STR_MAX + 1];

static const int types[7] = {cJSON_False, cJSON_True,  cJSON_NULL,
			     cJSON_Number, cJSON_String, cJSON_Array,
			     cJSON_Object};

/* Any tree of the shape above (the root: pool[0][0]). */
static void any_tree(void)
{
	size_t l, k;

	for (l = 0; l < EVA_DEPTH; l++) {
		for (k = 0; k < EVA_WIDTH; k++) {
			cJSON *n = &pool[l][k];
			int t = types[Frama_C_interval(0, 6)];

			Frama_C_make_unknown(keys[l][k], EVA_STR_MAX);
			keys[l][k][EVA_STR_MAX] = '\0';
			Frama_C_make_unknown(strs[l][k], EVA_STR_MAX);
			strs[l][k][EVA_STR_MAX] = '\0';
			n->type = t;
			n->string = l > 0 && Frama_C_nondet(0, 1) ? keys[l][k] : NULL;
			n->valuestring = t == cJSON_String ? strs[l][k] : NULL;
			n->valuedouble = Frama_C_double_interval(-0x1p996, 0x1p996);
			n->valueint = Frama_C_interval(-2147483647 - 1, 2147483647);
			n->child = (t == cJSON_Array || t == cJSON_Object) &&
					   l + 1 < EVA_DEPTH && Frama_C_nondet(0, 1)
				   ? &pool[l + 1][0]
				   : NULL;
			n->next = k + 1 < EVA_WIDTH && Frama_C_nondet(0, 1)
				  ? &pool[l][k + 1]
				  : NULL;
			n->prev = NULL;
		}
	}
	pool[0][0].next = NULL;
}

cJSON *cJSON_ParseWithLengthOpts(const char *value, size_t buffer_length,
				 const char **return_parse_end,
				 cJSON_bool require_null_terminated)
{
	(void)require_null_terminated;
	if (Frama_C_nondet(0, 1)) {
		if (return_parse_end)
			*return_parse_end = buffer_length
				? value + Frama_C_size_t_interval(0, buffer_length - 1)
				: value;
		return NULL;
	}
	any_tree();
	return &pool[0][0];
}

void cJSON_Delete(cJSON *item)
{
	(void)item;
}

cJSON_bool cJSON_IsFalse(const cJSON *const item)
{
	return item != NULL && (item->type & 0xFF) == cJSON_False;
}

cJSON_bool cJSON_IsTrue(const cJSON *const item)
{
	return item != NULL && (item->type & 0xFF) == cJSON_True;
}

cJSON_bool cJSON_IsBool(const cJSON *const item)
{
	return item != NULL && (item->type & (cJSON_True | cJSON_False)) != 0;
}

cJSON_bool cJSON_IsNull(const cJSON *const item)
{
	return item != NULL && (item->type & 0xFF) == cJSON_NULL;
}

cJSON_bool cJSON_IsNumber(const cJSON *const item)
{
	return item != NULL && (item->type & 0xFF) == cJSON_Number;
}

cJSON_bool cJSON_IsString(const cJSON *const item)
{
	return item != NULL && (item->type & 0xFF) == cJSON_String;
}

cJSON_bool cJSON_IsArray(const cJSON *const item)
{
	return item != NULL && (item->type & 0xFF) == cJSON_Array;
}

cJSON_bool cJSON_IsObject(const cJSON *const item)
{
	return item != NULL && (item->type & 0xFF) == cJSON_Object;
}

int cJSON_GetArraySize(const cJSON *array)
{
	const cJSON *c;
	int n = 0;

	if (array == NULL)
		return 0;
	for (c = array->child; c != NULL; c = c->next)
		n++;
	return n;
}

cJSON *cJSON_GetObjectItemCaseSensitive(const cJSON *const object,
					const char *const string)
{
	cJSON *c;

	if (object == NULL || string == NULL)
		return NULL;
	for (c = object->child; c != NULL; c = c->next)
		if (c->string != NULL && strcmp(string, c->string) == 0)
			return c;
	return NULL;
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
