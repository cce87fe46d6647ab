/*
 * file.c - file_read() (file.h).
 */
#include "base/file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/crypto.h>

#include "base/util.h"

int file_read(struct buf *out, const char *path, struct buf *err)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	struct stat st;
	char chunk[65536];
	size_t n;
	int error = AA_OK;

	buf_reset(out);
	if (!f) {
		error = errno == ENOENT ? AA_ENOTFOUND : AA_ERR;
		buf_setf(err, "cannot open: %s", strerror(errno));
		return error;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		buf_setf(err, "is a directory");
		error = AA_ERR;
		goto out;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		if (buf_add(out, chunk, n) < 0) {
			buf_setf(err, "larger than %zu bytes", out->max);
			error = AA_ETOOBIG;
			goto out;
		}
	if (ferror(f)) {
		buf_setf(err, "cannot read: %s", strerror(errno));
		error = AA_ERR;
	}
out:
	/* A secret (a key file) may pass through here: leave no copy. */
	OPENSSL_cleanse(chunk, sizeof(chunk));
	if (f != stdin)
		fclose(f);
	if (error < 0)
		buf_reset(out);
	return error;
}
