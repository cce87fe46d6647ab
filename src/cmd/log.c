/*
 * log.c - escaped one-line messages (git's message printer) and Actions
 * annotations.
 */
#include "cmd/log.h"

#include <stdarg.h>
#include <stdio.h>

static bool actions;
static bool quiet;

void log_set_actions(bool on)
{
	actions = on;
}

void log_set_quiet(bool on)
{
	quiet = on;
}

void log_escape(struct buf *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\n')
			buf_adds(out, "\\n");
		else if (c == '\r')
			buf_adds(out, "\\r");
		else if (c == '\t')
			buf_addch(out, ' ');
		else if (c < 0x20 || c == 0x7f)
			buf_addf(out, "\\x%02x", c);
		else
			buf_addch(out, (char)c);
	}
}

void log_escape_command(struct buf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '%')
			buf_adds(out, "%25");
		else if (*s == '\r')
			buf_adds(out, "%0D");
		else if (*s == '\n')
			buf_adds(out, "%0A");
		else
			buf_addch(out, *s);
	}
}

static void emit_as(enum note_level level, const char *text, bool bare)
{
	static const char *const cmd[] = {"error", "warning", "notice", NULL};
	static const char *const word[] = {"error: ", "warning: ", "", ""};
	struct buf line = BUF_INIT(BUF_MAX_DOC), safe = BUF_INIT(BUF_MAX_DOC);

	if (quiet && level > NOTE_WARNING)
		return;
	log_escape(&safe, text);
	if (actions && cmd[level]) {
		buf_addf(&line, "::%s::", cmd[level]);
		log_escape_command(&line, safe.ptr);
	} else {
		buf_addf(&line, "agentic-apply: %s%s", bare ? "" : word[level],
			 safe.ptr);
	}
	buf_addch(&line, '\n');
	fputs(line.ptr, stderr);
	buf_release(&line);
	buf_release(&safe);
}

static void emit(enum note_level level, const char *text)
{
	emit_as(level, text, false);
}

void log_note(enum note_level level, const char *text)
{
	emit(level, text);
}

void log_error_bare(const char *fmt, ...)
{
	struct buf b = BUF_INIT(BUF_MAX_SMALL);
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	emit_as(NOTE_ERROR, b.ptr, true);
	buf_release(&b);
}

static void vlog(enum note_level level, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
static void vlog(enum note_level level, const char *fmt, va_list ap)
{
	struct buf b = BUF_INIT(BUF_MAX_SMALL);

	buf_vaddf(&b, fmt, ap);
	emit(level, b.ptr);
	buf_release(&b);
}

void log_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(NOTE_ERROR, fmt, ap);
	va_end(ap);
}

void log_warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(NOTE_WARNING, fmt, ap);
	va_end(ap);
}

