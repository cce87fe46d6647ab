/*
 * commands.h - one function per command (cmd_<verb>.c); main.c dispatches.
 * Each returns the process exit code (SNAPSHOT.md §1).
 */
#ifndef AA_COMMANDS_H
#define AA_COMMANDS_H

#include <stdbool.h>

int cmd_run(int argc, char **argv);
int cmd_apply(int argc, char **argv);
int cmd_gate(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_lint(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_review_plan(int argc, char **argv);
int cmd_publish(int argc, char **argv);
int cmd_review_local(int argc, char **argv);
int cmd_doctor(int argc, char **argv);

/* replay of a snapshot's `command` (PUBLISH §8) on an open session:
 * 0, or -1 when the findings are malformed (the caller prints the stub
 * report, exit 2). */
struct session;
int replay_command(struct session *s, bool dry_run);

/* Pick the command named by argv[1] and run it. */
int commands_main(int argc, char **argv);

/* The options a command takes (cli.h bits): its parser and its --help use
 * this one mask. */
unsigned command_options(const char *command);

/* Help text of a command (printed by --help). */
void usage_command(const char *command);

/* A usage error's exit code (2); with `json`, SNAPSHOT §2's stub report
 * (`{"report":1,"steps":[],"writes":[],"exit":2}`) on stdout first. */
int usage_exit(bool json);

#endif
