/*
 * eva_stubs.c - the trusted code the EVA runs over the findings reader
 * stand on (docs/proof.md §2), in place of cJSON and of two libc
 * functions whose Frama-C specification EVA reads too coarsely:
 *
 * - cJSON's parse returns NULL (a syntax error at any byte) or any tree of
 *   EVA_DEPTH levels of EVA_WIDTH nodes: each node of any of cJSON's seven
 *   types; its key (below the root) and its string any bytes, at most
 *   EVA_STR_MAX; its number any double; the children of an array or an
 *   object the list of the next level's nodes, and each list cut
 *   anywhere. The predicates and the lookups are cJSON's own (cJSON.c),
 *   on that tree.
 * - vsnprintf and qsort: below.
 */
#include "__fc_builtin.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "eva_stubs.h"

/* The longest text a format makes (vsnprintf below): past the ceiling of
 * every buf the reader formats into. */
#define EVA_FMT_MAX (BUF_MAX_SMALL + 1)

static cJSON pool[EVA_DEPTH][EVA_WIDTH];
static char keys[EVA_DEPTH][EVA_WIDTH][EVA_STR_MAX + 1];
static char strs[EVA_DEPTH][EVA_WIDTH][EVA_STR_MAX + 1];

static const int types[7] = {cJSON_False,  cJSON_True,   cJSON_NULL,
                             cJSON_Number, cJSON_String, cJSON_Array,
                             cJSON_Object};

cJSON *eva_any_tree(void)
{
	size_t l, k;

	/* unrolled at any precision: the levels stay apart */
	/*@ loop unroll EVA_DEPTH; */
	for (l = 0; l < EVA_DEPTH; l++) {
		/*@ loop unroll EVA_WIDTH; */
		for (k = 0; k < EVA_WIDTH; k++) {
			cJSON *n = &pool[l][k];
			int t = types[Frama_C_interval(0, 6)];

			Frama_C_make_unknown(keys[l][k], EVA_STR_MAX);
			keys[l][k][EVA_STR_MAX] = '\0';
			Frama_C_make_unknown(strs[l][k], EVA_STR_MAX);
			strs[l][k][EVA_STR_MAX] = '\0';
			n->type = t;
			/* cJSON gives every member of an object its key;
			 * an element of an array has none, and the reader
			 * never reads it there */
			n->string = l > 0 ? keys[l][k] : NULL;
			/* cJSON gives every string node its string; a node
			 * of another type has none, and the reader reads it
			 * only after cJSON_IsString: EVA, which does not
			 * relate a node's fields, would read a NULL there */
			n->valuestring = strs[l][k];
			n->valuedouble =
			    Frama_C_double_interval(-0x1p996, 0x1p996);
			n->valueint =
			    Frama_C_interval(-2147483647 - 1, 2147483647);
			n->child = (t == cJSON_Array || t == cJSON_Object) &&
			                   l + 1 < EVA_DEPTH &&
			                   Frama_C_nondet(0, 1)
			               ? &pool[l + 1][0]
			               : NULL;
			n->next = k + 1 < EVA_WIDTH && Frama_C_nondet(0, 1)
			              ? &pool[l][k + 1]
			              : NULL;
			n->prev = NULL;
		}
	}
	pool[0][0].next = NULL;
	return &pool[0][0];
}

/*
 * vsnprintf is trusted (libc): the formatted text is any bytes of some
 * length up to EVA_FMT_MAX, the same for the sizing call (n 0: nothing is
 * written, whatever s is, C11 7.21.6.12) and the writing call that
 * buf_vaddf makes after it (n the length + 1). Its arguments are not read:
 * Frama-C's own specification of vsnprintf does not read them either, and
 * it makes the text depend on the va_list, i.e. on the addresses of the
 * caller's arguments, which then escape their scope.
 */
static int fmt_len;

int vsnprintf(char *restrict s, size_t n, const char *restrict format,
              va_list arg)
{
	size_t k;

	(void)format;
	(void)arg;
	if (!n)
		fmt_len = Frama_C_interval(0, EVA_FMT_MAX);
	if (n) {
		k = (size_t)fmt_len < n - 1 ? (size_t)fmt_len : n - 1;
		Frama_C_make_unknown(s, k);
		s[k] = '\0';
	}
	return fmt_len;
}

/*
 * qsort is trusted (libc): an insertion sort, so that EVA sees the
 * elements moved whole and runs the comparison on them (Frama-C's
 * specification of qsort writes the array as bytes from any of its bytes,
 * which leaves the keys' pointers misaligned). Elements of up to
 * EVA_QSORT_SIZE bytes.
 */
#define EVA_QSORT_SIZE 64

void qsort(void *base, size_t nmemb, size_t size,
           int (*compar)(const void *, const void *))
{
	unsigned char tmp[EVA_QSORT_SIZE];
	char *b = base;
	size_t i, j;

	/* unrolled at any precision (the run sorts at most EVA_WIDTH keys):
	 * each element is moved whole */
	/*@ loop unroll EVA_WIDTH; */
	for (i = 1; i < nmemb; i++)
		/*@ loop unroll EVA_WIDTH; */
		for (j = i;
		     j > 0 && compar(b + (j - 1) * size, b + j * size) > 0;
		     j--) {
			memcpy(tmp, b + j * size, size);
			memcpy(b + j * size, b + (j - 1) * size, size);
			memcpy(b + (j - 1) * size, tmp, size);
		}
}

cJSON *cJSON_ParseWithLengthOpts(const char *value, size_t buffer_length,
                                 const char **return_parse_end,
                                 cJSON_bool require_null_terminated)
{
	/* the tree first, on both paths: EVA would otherwise join the
	 * failing path's empty pool (all NULL) into the tree's nodes */
	cJSON *tree = eva_any_tree();

	(void)require_null_terminated;
	if (Frama_C_nondet(0, 1)) {
		if (return_parse_end)
			*return_parse_end =
			    buffer_length ? value + Frama_C_size_t_interval(
			                                0, buffer_length - 1)
			                  : value;
		return NULL;
	}
	return tree;
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
