/*
 * budget.c - BEHAVIOR §7, §8: a sweep stops at its deadline, and before
 * GitHub's rate limits fall below the reserve (budget.h).
 */
#include "core/budget.h"

bool budget_deadline_passed(int64_t now, int64_t deadline)
{
	return deadline && now >= deadline;
}

bool budget_rate_spent(int64_t graphql, int64_t rest)
{
	return (graphql >= 0 && graphql < BUDGET_RESERVE_GRAPHQL) ||
	       (rest >= 0 && rest < BUDGET_RESERVE_REST);
}
