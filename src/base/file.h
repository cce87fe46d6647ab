/*
 * file.h - the one way this program reads a whole file.
 *
 * file_read() reads `path` ("-" is standard input) into `out`, up to the
 * ceiling `out` was made with: a file larger than that is an error, never
 * silently cut. Its messages name the cause in one line without the path,
 * which the caller names once ("snapshot 'x': is a directory").
 */
#ifndef AA_FILE_H
#define AA_FILE_H

#include "base/buf.h"

/*
 * Returns AA_OK; AA_ENOTFOUND when there is no such file; AA_ETOOBIG when
 * it is larger than out's ceiling; AA_ERR otherwise ("cannot open: …",
 * "is a directory", "cannot read: …"). On error `out` holds nothing.
 */
int file_read(struct buf *out, const char *path, struct buf *err);

#endif
