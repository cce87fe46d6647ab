/*
 * exit.c - BEHAVIOR §10: a run's exit code is the most severe of its
 * steps' (exit.h).
 */
#include "core/exit.h"

#include "base/util.h"

static int severity(int code)
{
	switch (code) {
	case EXIT_USAGE:
		return 3;
	case EXIT_API:
		return 2;
	case EXIT_REFUSED:
		return 1;
	default:
		return 0;
	}
}

int exit_merge(int a, int b)
{
	return severity(a) >= severity(b) ? a : b;
}

int exit_of_error(int error)
{
	return error == AA_EUSAGE ? EXIT_USAGE : EXIT_API;
}
