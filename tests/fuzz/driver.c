/*
 * driver.c - replay fuzz corpora without libFuzzer: each argument is a
 * file or a directory of files, each fed once to LLVMFuzzerTestOneInput.
 * Prints how many inputs ran.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* Corpus files larger than this are skipped (the targets cap input). */
#define DRIVER_MAX_INPUT ((size_t)4 * 1024 * 1024)

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *data;
	size_t n;

	if (!f) {
		fprintf(stderr, "driver: cannot open %s\n", path);
		return -1;
	}
	data = malloc(DRIVER_MAX_INPUT);
	if (!data) {
		fclose(f);
		return -1;
	}
	n = fread(data, 1, DRIVER_MAX_INPUT, f);
	fclose(f);
	LLVMFuzzerTestOneInput(data, n);
	free(data);
	return 0;
}

int main(int argc, char **argv)
{
	long ran = 0;
	int i;

	for (i = 1; i < argc; i++) {
		struct stat st;
		DIR *d;
		struct dirent *e;

		if (stat(argv[i], &st) < 0) {
			fprintf(stderr, "driver: %s: no such file\n", argv[i]);
			return 1;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (run_file(argv[i]) < 0)
				return 1;
			ran++;
			continue;
		}
		if (!(d = opendir(argv[i])))
			return 1;
		while ((e = readdir(d))) {
			char path[4096];
			int n;

			if (e->d_name[0] == '.')
				continue;
			n = snprintf(path, sizeof(path), "%s/%s", argv[i],
				     e->d_name);
			if (n < 0 || (size_t)n >= sizeof(path))
				continue;
			if (run_file(path) < 0) {
				closedir(d);
				return 1;
			}
			ran++;
		}
		closedir(d);
	}
	printf("%ld inputs\n", ran);
	return 0;
}
