/*
 * exit.h - BEHAVIOR §10: the exit codes of a run and how they merge.
 *
 * A run can touch several steps; its exit code is the most severe of
 * theirs: 2 (usage, configuration, identity) over 3 (API failure) over 1
 * (verdict refused) over 0.
 */
#ifndef AA_EXIT_H
#define AA_EXIT_H

#define EXIT_OK      0
#define EXIT_REFUSED 1
#define EXIT_USAGE   2
#define EXIT_API     3

/* The more severe of two exit codes: 2 > 3 > 1 > 0. */
int exit_merge(int a, int b);

/* The exit code of a failed write or identity check by its error: 2 for
 * another login (AA_EUSAGE), else 3. */
int exit_of_error(int error);

#endif
