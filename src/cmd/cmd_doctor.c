/*
 * cmd_doctor.c - `doctor`: is this repository set up so that the gate's
 * approvals mean what they should (docs/actions.md, Doctor)? Read what the
 * tokens may read through the port's setup operations, decide every check
 * (core/doctor_checks.c), print them. Nothing is written; exit 0 only when every
 * check that matters is ok.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/log.h"
#include "cmd/session.h"
#include "core/doctor.h"
#include "formats/doctor_out.h"

/* The default environment of the examples (docs/actions.md, Adopting). */
#define DOCTOR_ENVIRONMENT "agentic"

/* A failed read's message, from the err it was passed (N80). */
static void note_read(struct setup_read *r, int error, const struct buf *err)
{
	if (error < 0)
		setup_read_fail(r, error, err->ptr);
}

/* CODEOWNERS of `b`: the first of GitHub's paths found, and the members
 * of the teams it names. */
static void read_codeowners(struct github *gh,
			    const struct github_setup_ops *o,
			    struct setup_base *b, const struct policy *p)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	char **teams = NULL;
	size_t i, nteams = 0;
	int error = AA_ENOTFOUND;

	for (i = 0; i < DOCTOR_NCODEOWNERS && error == AA_ENOTFOUND; i++) {
		error = o->file(gh, b->name, doctor_codeowners_paths[i],
		                &b->codeowners, &err);
		b->codeowners_path = doctor_codeowners_paths[i];
	}
	note_read(&b->codeowners_read, error, &err);
	if (error < 0) {
		buf_release(&err);
		return;
	}
	doctor_codeowners_teams(b->codeowners, &teams, &nteams);
	b->teams = xcalloc(nteams + 1, sizeof(*b->teams));
	for (i = 0; i < nteams; i++) {
		struct setup_team *t = &b->teams[b->nteams++];

		t->name = xstrdup(teams[i]);
		if (i >= DOCTOR_MAX_TEAMS) {
			setup_read_fail(&t->read, AA_EAPI, "not read: too many "
							  "teams");
			continue;
		}
		note_read(&t->read,
		          o->team_member(gh, t->name, p->trusted_login,
		                         &t->member, &err),
		          &err);
	}
	strv_free(teams, nteams);
	buf_release(&err);
}

static void read_base(struct github *gh, const struct github_setup_ops *o,
		      struct setup_base *b, const struct policy *p)
{
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	int error;

	note_read(&b->rules_read,
	          o->branch_rules(gh, b->name, &b->rules, &b->nrules, &err),
	          &err);
	error = o->branch_protected(gh, b->name, &b->is_protected, &err);
	note_read(&b->branch_read, error, &err);
	if (error == AA_OK && b->is_protected)
		note_read(&b->protection_read,
		          o->protection(gh, b->name, &b->protection,
		                        &b->nprotection, &err),
		          &err);
	buf_release(&err);
	read_codeowners(gh, o, b, p);
}

/* Read everything the checks need into `f`. EXIT_OK, or EXIT_USAGE when
 * the repository does not exist for the token. */
static int read_facts(struct session *s, struct doctor_facts *f,
		      const char *env_name)
{
	struct github *gh = s->gh;
	const struct github_setup_ops *o = gh->ops->setup;
	const struct policy *p = &s->policy;
	struct buf err = BUF_INIT(BUF_MAX_SMALL);
	char **branches = NULL, **gated = NULL;
	size_t nbranches = 0, ngated = 0, i;
	int error;

	f->repository = s->repository;
	f->env_name = env_name;
	error = o->repo(gh, &f->default_branch, &f->push, &err);
	if (error == AA_ENOTFOUND) {
		log_error("doctor: repository %s does not exist, or the token "
			  "may not see it", s->repository);
		buf_release(&err);
		return EXIT_USAGE;
	}
	note_read(&f->repo_read, error, &err);
	/* token, app and environment keep their message in their result */
	o->token(gh, &f->token, &err);
	o->app(gh, &f->app, &err);
	note_read(
	    &f->label_read,
	    gh->ops->label_exists(gh, 0, p->label, &f->label_exists, &err),
	    &err);
	if (doctor_needs_branch_list(p))
		note_read(&f->branches_read,
		          o->branches(gh, &branches, &nbranches, &err), &err);
	doctor_gated_bases(p, f->default_branch, branches, nbranches, &gated,
			   &ngated, &f->bases_cut);
	f->bases = xcalloc(ngated + 1, sizeof(*f->bases));
	for (i = 0; i < ngated; i++) {
		f->bases[i].name = gated[i];
		read_base(gh, o, &f->bases[f->nbases++], p);
	}
	free(gated);
	strv_free(branches, nbranches);
	o->environment(gh, env_name, &f->env, &err);
	buf_release(&err);
	if (s->offline || !s->env.actions) {
		f->runner = RUNNER_NOT_ACTIONS;
	} else {
		f->runner_name = s->env.runner_environment;
		f->runner = !f->runner_name ? RUNNER_UNKNOWN
			    : strcmp(f->runner_name, "github-hosted") == 0
				? RUNNER_GITHUB_HOSTED
			    : strcmp(f->runner_name, "self-hosted") == 0
				? RUNNER_SELF_HOSTED
				: RUNNER_UNKNOWN;
	}
	return EXIT_OK;
}

int cmd_doctor(int argc, char **argv)
{
	struct cli c = {.command = "doctor"};
	struct buf out = BUF_INIT(BUF_MAX_DOC);
	struct doctor_facts facts;
	struct doctor_result result;
	struct session s;
	bool malformed;
	int code;

	if (cli_start(&c, argc, argv, 0, &code) < 0)
		return code;
	if (session_open(&s, &c, NULL, &malformed) != EXIT_OK)
		return EXIT_USAGE;
	if (!s.gh->ops->setup) {
		log_error("doctor: this port cannot read a repository's setup");
		session_release(&s);
		return EXIT_USAGE;
	}
	doctor_facts_init(&facts);
	memset(&result, 0, sizeof(result));
	code = read_facts(&s, &facts, c.environment ? c.environment
						    : DOCTOR_ENVIRONMENT);
	if (code == EXIT_OK) {
		doctor_decide(&result, &facts, &s.policy);
		code = doctor_exit(&result);
		if (c.json)
			doctor_json(&out, &result, &facts);
		else
			doctor_text(&out, &result, &facts);
		fputs(out.ptr, stdout);
		buf_reset(&out);
		doctor_markdown(&out, &result, &facts);
		session_append_summary(&s, &out);
		if (code)
			log_error("doctor: %d missing, %d cannot tell (the "
				  "lines above and the step summary say what "
				  "and how to fix it)",
				  result.counts[DOCTOR_MISSING],
				  result.counts[DOCTOR_CANNOT_TELL]);
	}
	doctor_result_release(&result);
	doctor_facts_release(&facts);
	buf_release(&out);
	session_release(&s);
	return code;
}
