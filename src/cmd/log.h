/*
 * log.h - one-line messages on stderr, and GitHub Actions annotations.
 *
 * Messages may carry untrusted text (logins, branch names, comment
 * excerpts). Every control character is escaped before printing, so a
 * message is always exactly one line and can never begin a line of its own
 * choosing: nothing from a comment can forge a log line or a workflow
 * command (::set-output::, ::add-mask::, …).
 */
#ifndef AA_LOG_H
#define AA_LOG_H

#include <stdbool.h>

#include "base/buf.h"
#include "formats/report.h"

/* Use ::error::/::warning::/::notice:: annotations (GitHub Actions). */
void log_set_actions(bool on);
/* Print nothing below warnings (for --quiet). */
void log_set_quiet(bool on);

void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_note(enum note_level level, const char *text);
/* An error line whose text carries its own subject, without "error: "
 * (PUBLISH B8: `agentic-apply: findings: <pointer>: <reason>`). */
void log_error_bare(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Append s with every control character made visible (\n, \xNN). */
void log_escape(struct buf *out, const char *s);
/* Append s escaped for a workflow command's data (%, CR, LF). */
void log_escape_command(struct buf *out, const char *s);

#endif
