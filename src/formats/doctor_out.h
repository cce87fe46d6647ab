/*
 * doctor_out.h - what `doctor` prints: its checks as plain lines (stdout),
 * as JSON (--json; docs/actions.md, Doctor) and as the markdown of the
 * step summary. Every string from the repository (branch, team and file
 * names) is escaped: none can forge a line, a cell or a workflow command.
 */
#ifndef AA_DOCTOR_OUT_H
#define AA_DOCTOR_OUT_H

#include "base/buf.h"
#include "core/doctor.h"

void doctor_text(struct buf *out, const struct doctor_result *r,
		 const struct doctor_facts *f);
void doctor_json(struct buf *out, const struct doctor_result *r,
		 const struct doctor_facts *f);
void doctor_markdown(struct buf *out, const struct doctor_result *r,
		     const struct doctor_facts *f);

#endif
