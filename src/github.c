/*
 * github.c - helpers common to every implementation of the port.
 */
#include "github.h"

void gh_pull_release(struct gh_pull *p)
{
	snap_pull_release(&p->pull);
	p->ok = p->failed = 0;
}

void github_free(struct github *gh)
{
	if (gh)
		gh->ops->free(gh);
}
