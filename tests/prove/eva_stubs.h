/*
 * eva_stubs.h - what the EVA entry points of the findings reader share
 * (tests/prove/eva_json.c, tests/prove/eva_findings.c; docs/proof.md §2):
 * any tree of cJSON nodes of a bounded shape (tests/prove/eva_stubs.c).
 */
#ifndef AA_EVA_STUBS_H
#define AA_EVA_STUBS_H

#include <cJSON.h>

/* The shape of the tree: EVA_DEPTH levels of EVA_WIDTH nodes (eva.sh
 * sets them). */
#ifndef EVA_DEPTH
#define EVA_DEPTH 5
#endif
#ifndef EVA_WIDTH
#define EVA_WIDTH 2
#endif
/* Keys and strings: any bytes, at most this many, NUL-terminated: past
 * every length limit the reader checks (the longest: a finding's file,
 * 1,024 bytes; 300 code points), so both sides of each are analysed. */
#ifndef EVA_STR_MAX
#define EVA_STR_MAX 1100
#endif

/* Any tree of that shape (its root, any node of the first level). */
cJSON *eva_any_tree(void);

#endif
