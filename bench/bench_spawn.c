/*
 * bench_spawn.c - the cold start of a program: run it `n` times (empty
 * environment, output to /dev/null) and print the median wall time of one
 * run, fork to exit, in ms. A benchmark, never a test. Timed here rather
 * than around node's spawnSync, which costs 5-10 ms of its own.
 *
 *   bench_spawn N PROGRAM [ARG...]
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	char *envp[] = {NULL};
	posix_spawn_file_actions_t fa;
	double *ms;
	int n, i;

	if (argc < 3 || (n = atoi(argv[1])) < 1 || n > 10000) {
		fprintf(stderr, "usage: bench_spawn N PROGRAM [ARG...]\n");
		return 2;
	}
	ms = calloc((size_t)n, sizeof(*ms));
	if (!ms)
		return 1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	for (i = 0; i < n; i++) {
		double t0 = now_ms();
		pid_t pid;
		int status;

		if (posix_spawn(&pid, argv[2], &fa, NULL, argv + 2, envp) != 0 ||
		    waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0) {
			fprintf(stderr, "bench_spawn: %s failed\n", argv[2]);
			return 1;
		}
		ms[i] = now_ms() - t0;
	}
	qsort(ms, (size_t)n, sizeof(*ms), cmp_double);
	printf("%.3f\n", ms[n / 2]);
	posix_spawn_file_actions_destroy(&fa);
	free(ms);
	return 0;
}
