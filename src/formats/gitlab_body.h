/*
 * gitlab_body.h - G13: every body written to GitLab is neutralised
 * against quick actions (docs/rules/gitlab.md): each line that begins
 * with `/` gets one space before it, so GitLab's extractor (which
 * matches a `/` in column one only) runs nothing; no other byte changes.
 */
#ifndef AA_GITLAB_BODY_H
#define AA_GITLAB_BODY_H

#include "base/buf.h"

/* Neutralise the body in b in place. 0, or AA_ETOOBIG past b's ceiling
 * (b is then failed, never sent cut short). */
int gitlab_neutralise(struct buf *b);

#endif
