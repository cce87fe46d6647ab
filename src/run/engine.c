/*
 * engine.c - the engine's lifetime and how a flow's step ends: each flow
 * returns what its step came to, and records it here once.
 */
#include "run/engine_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void engine_init(struct engine *e, struct github *gh, const struct policy *p,
                 const char *repository, struct report *r)
{
	memset(e, 0, sizeof(*e));
	e->gh = gh;
	e->policy = p;
	e->repository = repository;
	e->report = r;
}

void engine_release(struct engine *e)
{
	free(e->label_failed);
	e->label_failed = NULL;
	free(e->identity_login);
	e->identity_login = NULL;
	e->identity = ID_UNCHECKED;
	e->nlabel_failed = e->alabel_failed = 0;
}

struct engine_result engine_result_error(int error)
{
	struct engine_result r = {OUT_ERROR, exit_of_error(error)};

	return r;
}

void engine_result_merge(struct engine_result *r, enum step_outcome outcome,
                         int exit)
{
	if (exit_merge(r->exit, exit) == exit)
		r->outcome = outcome;
	r->exit = exit_merge(r->exit, exit);
}

struct report_step *engine_add_step(struct engine *e, enum step_kind kind,
                                    int64_t pr, size_t *step)
{
	struct report_step *s = report_add_step(e->report, kind, pr);

	if (e->steps_name_repository)
		s->repository = xstrdup(e->repository);
	if (step)
		*step = e->report->nsteps - 1;
	return s;
}

void engine_finish(struct engine *e, size_t step, struct engine_result r)
{
	step_finish(e->report, &e->report->steps[step], r.outcome, r.exit);
}

struct engine_result engine_missing(struct engine *e, struct report_step *s,
                                    const char *fmt, ...)
{
	struct engine_result r = {OUT_SKIPPED, EXIT_OK};
	bool first = !s->missing; /* one log line a step */
	va_list ap;

	va_start(ap, fmt);
	strv_vaddf(&s->reasons, &s->nreasons, fmt, ap);
	va_end(ap);
	s->missing = true;
	if (e->missing_command) {
		if (first) /* the reason just given */
			report_note(e->report, NOTE_ERROR, "%s: %s",
			            e->missing_command,
			            s->reasons[s->nreasons - 1]);
		r.outcome = OUT_ERROR;
		r.exit = EXIT_USAGE;
	}
	return r;
}
