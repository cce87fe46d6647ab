/*
 * snapshot.h - SNAPSHOT.md §2 as JSON: fixtures, replay input and record
 * output. The model itself is core/model.h.
 *
 * Loading is strict: a field of the wrong type or shape is an error naming
 * the field; unknown keys are ignored.
 */
#ifndef AA_SNAPSHOT_H
#define AA_SNAPSHOT_H

#include <stddef.h>

#include "base/buf.h"
#include "core/model.h"
#include "formats/replay.h"

/*
 * Load a snapshot from JSON text. On error returns AA_EUSAGE with one line
 * naming the bad field in err; *s is then released.
 */
int snapshot_from_json(struct snapshot *s, const char *text, size_t len,
		       struct buf *err);

/* snapshot_from_json() with flags: SNAP_EVENT_OPTIONAL for a snapshot a
 * command other than replay and run acts on (`publish --snapshot F`):
 * nothing reads its event, so a hand-written one may leave it out. */
#define SNAP_EVENT_OPTIONAL 1u
int snapshot_from_json_flags(struct snapshot *s, const char *text, size_t len,
			     unsigned flags, struct buf *err);

/* Serialize (pretty, deterministic) to out. 0, or out's sticky error
 * (buf.h): then out holds no usable snapshot. */
int snapshot_to_json(const struct snapshot *s, struct buf *out);

#endif
