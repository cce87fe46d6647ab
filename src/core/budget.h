/*
 * budget.h - BEHAVIOR §7, §8 (A6): may a sweep go on to its next PR, or
 * has it reached its deadline, or spent GitHub's rate limit down to the
 * reserve other workflows need?
 *
 * Pure: the port's clock and the deadline, or the budgets it last saw, go
 * in; the sweep asks the deadline first and reads the budgets only when it
 * has not come.
 */
#ifndef AA_BUDGET_H
#define AA_BUDGET_H

#include <stdbool.h>
#include <stdint.h>

/* A sweep stops (and reports the PRs it did not reach) rather than spend
 * the last of GitHub's rate limits, which other workflows share. */
#define BUDGET_RESERVE_GRAPHQL 100
#define BUDGET_RESERVE_REST    100

/* Has the deadline (0: none) come at `now` (both on the port's clock)? */
bool budget_deadline_passed(int64_t now, int64_t deadline);

/* Is a rate limit down to its reserve? `graphql` and `rest` are what is
 * left of each, negative when unknown. */
bool budget_rate_spent(int64_t graphql, int64_t rest);

#endif
