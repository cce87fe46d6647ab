/*
 * sticky_int.h - what the sticky's files share, private to them: the
 * renderer (sticky_render.c, sticky_tables.c) and the reading back
 * (sticky_parse.c, sticky_state.c, sticky_root_read.c).
 */
#ifndef AA_STICKY_INT_H
#define AA_STICKY_INT_H

#include <stdbool.h>

#include "base/buf.h"
#include "base/text.h"
#include "core/merge.h"
#include "core/review.h"
#include "formats/sticky.h"

#define E_CHECK     "\xE2\x9C\x85"             /* ✅ */
#define E_YELLOW    "\xF0\x9F\x9F\xA1"         /* 🟡 */
#define E_ORANGE    "\xF0\x9F\x9F\xA0"         /* 🟠 */
#define E_RED       "\xF0\x9F\x94\xB4"         /* 🔴 */
#define E_WARN      "\xE2\x9A\xA0\xEF\xB8\x8F" /* ⚠️ */
#define E_CLIPBOARD "\xF0\x9F\x93\x8B"         /* 📋 */
#define E_PAUSE     "\xE2\x8F\xB8\xEF\xB8\x8F" /* ⏸️ */
#define E_HOOK      "\xE2\x86\xAA"             /* ↪ */
#define E_PIN       "\xF0\x9F\x93\x8D"         /* 📍 */
#define E_SCALES    "\xE2\x9A\x96\xEF\xB8\x8F" /* ⚖️ */
#define E_CYCLE     "\xF0\x9F\x94\x84"         /* 🔄 */
#define E_NO        "\xF0\x9F\x9A\xAB"         /* 🚫 */
#define E_COMPASS   "\xF0\x9F\xA7\xAD"         /* 🧭 */
#define E_CHART     "\xF0\x9F\x93\x8A"         /* 📊 */
#define E_QUESTION  "\xE2\x9D\x93"             /* ❓ */
#define E_WRENCH    "\xF0\x9F\x94\xA7"         /* 🔧 */
#define E_HOURGLASS "\xE2\x8F\xB3"             /* ⏳ */
#define DOT         " \xC2\xB7 "               /* · */
#define DASH        " \xE2\x80\x94 "           /* — */
#define TIMES       "\xC3\x97"                 /* × */
#define ARROW       " \xE2\x86\x92 "           /* → */

/* The degradation steps of §5.5, in order: each level includes those
 * before it. */
enum degrade {
	DG_NONE,
	DG_CHECKED,  /* checked rows → one line */
	DG_GAPS,     /* spec gaps → their ### lines */
	DG_FILES,    /* Files cells → "<n> files" */
	DG_REASONS,  /* ⏸️ reasons → 120 code points */
	DG_COLLAPSE, /* every 📋 P3/Q row collapsed */
	DG_COUNT
};

struct rd {
	const struct sticky_doc *d;
	const struct review_input *in;
	/* The model as this rendering shows it: the doc's publish
	 * incompleteness and the tier that follows from it. */
	struct review_model v;
	const struct rv_finding *f;
	size_t n;
	enum degrade dg;
	struct buf *out;
};

/* Start a block: one empty line after the one before. */
struct buf *sr_block(struct rd *r);
/* Open findings: section open or awaiting. */
bool sr_is_open(const struct rv_finding *f);
/* Does the finding's row link a thread? */
bool sr_links_thread(const struct rv_finding *f);
/* one(loc(f)). */
void sr_one_loc(struct buf *out, const struct rv_finding *f, bool cell);
/* An I7 string with its placeholder `key` (or none) filled, through one(). */
void sr_fill(struct buf *out, const char *tmpl, const char *key,
             const char *val);

/* Blocks 10-15 (sticky_tables.c). */
void sr_block_adjustments(struct rd *r);
void sr_block_changes(struct rd *r);
void sr_block_overview(struct rd *r);
void sr_block_gaps(struct rd *r);
void sr_block_clean(struct rd *r);
void sr_block_footer(struct rd *r);

/* --- reading back --- */

#define STATE_OPEN "<!-- pr-review:state="

/* One pass over a sticky's lines (sticky_parse.c). */
struct sp_scan {
	struct sticky_info *out;
	int state; /* 0 before, 1 inside, 2 after a block */
	size_t rows_alloc;
	struct review_state st;
	bool clean_seen;
	bool bad;
	/* markers */
	int nsha, nstatus, nversion;
	bool bad_marker;
	char sha[SHA_BUF];
	int status;
	int version;
};

/* The value of a marker line `<prefix><value> -->`. */
bool sp_marker_value(struct mview l, const char *prefix, struct mview *v);
/* A finding's slug (§3) / its id "F<n>". */
bool sp_slug_valid(const char *s, size_t n);
bool sp_id_parse(uint32_t *out, const char *s, size_t n);
/* The state block (sticky_state.c): its header line, then every line up
 * to "-->" (s->state is 2 after it, s->bad when the block is no state). */
bool sp_state_header(struct review_state *s, struct mview l);
void sp_state_line(struct sp_scan *s, struct mview l);

#endif
