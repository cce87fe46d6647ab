/*
 * visible.c - A11's "names an id: or status:", read as GitHub renders the
 * line (visible.h). A decoder hands out the visible code points of a line
 * one at a time; a matcher keeps the last few and looks back at each
 * colon.
 */
#include "core/visible.h"

#include <stdint.h>
#include <string.h>

#include "base/util.h"

#define VIS_END  (-1)
#define VIS_SKIP (-2) /* renders as nothing */
#define VIS_OPAQUE 0xFFFD

struct vis {
	const unsigned char *p;
	size_t n;
	size_t i;
	bool raw; /* the source as it stands: nothing decoded or skipped */
};

static bool in(uint32_t cp, uint32_t lo, uint32_t hi)
{
	return cp >= lo && cp <= hi;
}

/* What a code point looks like: a space, a colon, an ASCII character,
 * nothing at all (VIS_SKIP), or something else (VIS_OPAQUE). */
static int32_t fold(uint32_t cp)
{
	static const uint32_t colons[] = {0x02D0, 0x02F8, 0x0589, 0x05C3,
					  0x0703, 0x0704, 0x16EC, 0x1804,
					  0x2236, 0x2237, 0xA789, 0xFE13,
					  0xFE55};
	size_t k;

	if (cp < 0x80) {
		if (cp == '\t' || cp == '\v' || cp == '\f' || cp == '\r')
			return ' ';
		return to_lower((int)cp);
	}
	if (cp == 0x00AD || cp == 0x034F || cp == 0x061C || cp == 0x115F ||
	    cp == 0x1160 || cp == 0x17B4 || cp == 0x17B5 || cp == 0x3164 ||
	    cp == 0xFEFF || cp == 0xFFA0 || in(cp, 0x180B, 0x180E) ||
	    in(cp, 0x200B, 0x200F) || in(cp, 0x202A, 0x202E) ||
	    in(cp, 0x2060, 0x206F) || in(cp, 0xFE00, 0xFE0F) ||
	    in(cp, 0xE0000, 0xE007F))
		return VIS_SKIP;
	if (cp == 0x00A0 || cp == 0x1680 || in(cp, 0x2000, 0x200A) ||
	    cp == 0x202F || cp == 0x205F || cp == 0x3000)
		return ' ';
	if (in(cp, 0xFF01, 0xFF5E))
		return to_lower((int)(cp - 0xFEE0)); /* full-width ASCII */
	for (k = 0; k < ARRAY_SIZE(colons); k++)
		if (cp == colons[k])
			return ':';
	return VIS_OPAQUE;
}

/* One UTF-8 sequence at i (an invalid byte is one opaque character). */
static uint32_t utf8(struct vis *v)
{
	const unsigned char *p = v->p + v->i;
	size_t left = v->n - v->i, len, k;
	uint32_t cp;

	if (p[0] < 0xC2 || p[0] > 0xF4) {
		v->i++;
		return VIS_OPAQUE;
	}
	len = p[0] < 0xE0 ? 2 : p[0] < 0xF0 ? 3 : 4;
	if (left < len) {
		v->i++;
		return VIS_OPAQUE;
	}
	cp = p[0] & (0x7F >> len);
	for (k = 1; k < len; k++) {
		if ((p[k] & 0xC0) != 0x80) {
			v->i++;
			return VIS_OPAQUE;
		}
		cp = (cp << 6) | (p[k] & 0x3F);
	}
	v->i += len;
	return cp;
}

static const struct {
	const char *name;
	int32_t shows;
} named[] = {
	{"colon", ':'},   {"Colon", ':'},     {"nbsp", ' '},
	{"ensp", ' '},    {"emsp", ' '},      {"thinsp", ' '},
	{"hairsp", ' '},  {"Tab", ' '},       {"shy", VIS_SKIP},
	{"zwj", VIS_SKIP}, {"zwnj", VIS_SKIP}, {"lrm", VIS_SKIP},
	{"rlm", VIS_SKIP}, {"ZeroWidthSpace", VIS_SKIP},
	{"NoBreak", VIS_SKIP}, {"InvisibleTimes", VIS_SKIP},
	{"InvisibleComma", VIS_SKIP}, {"ApplyFunction", VIS_SKIP},
	{"it", VIS_SKIP}, {"ic", VIS_SKIP}, {"af", VIS_SKIP},
};

/* A character reference at i ("&…;", as cmark scans one): what it shows,
 * and i past it; VIS_END when there is none (the "&" shows as itself). */
static int32_t entity(struct vis *v)
{
	const unsigned char *p = v->p + v->i;
	size_t left = v->n - v->i, k = 1, max;
	uint32_t cp = 0;
	bool hex;

	if (left > 2 && p[1] == '#') {
		hex = p[2] == 'x' || p[2] == 'X';
		k = hex ? 3 : 2;
		max = k + (hex ? 6 : 7);
		for (; k < left && k < max &&
		       (hex ? is_hex(p[k]) : is_digit(p[k]));
		     k++)
			cp = cp * (hex ? 16 : 10) +
			     (uint32_t)(is_digit(p[k]) ? p[k] - '0'
						       : (to_lower(p[k]) - 'a' + 10));
		if (k == (hex ? 3u : 2u) || k >= left || p[k] != ';')
			return VIS_END;
		v->i += k + 1;
		return cp == 0 || cp > 0x10FFFF ? VIS_OPAQUE : fold(cp);
	}
	if (left < 3 || !is_alpha(p[1]))
		return VIS_END;
	while (k < left && k < 33 && is_alnum(p[k]))
		k++;
	if (k < 3 || k >= left || p[k] != ';')
		return VIS_END;
	v->i += k + 1;
	for (size_t j = 0; j < ARRAY_SIZE(named); j++)
		if (strlen(named[j].name) == k - 1 &&
		    memcmp(named[j].name, p + 1, k - 1) == 0)
			return named[j].shows;
	return VIS_OPAQUE;
}

/* Where the run of text at i that needle closes ends (just past needle),
 * or 0 when needle does not come. */
static size_t find_from(const struct vis *v, size_t i, const char *needle)
{
	size_t n = strlen(needle);

	for (; i + n <= v->n; i++)
		if (memcmp(v->p + i, needle, n) == 0)
			return i + n;
	return 0;
}

/* "<": an inline comment or tag renders as nothing (skip it all); an
 * autolink shows its text (skip only the "<"). */
static void angle(struct vis *v)
{
	size_t i = v->i + 1, end;

	if (i + 2 < v->n && memcmp(v->p + i, "!--", 3) == 0 &&
	    (end = find_from(v, i + 3, "-->")) != 0) {
		v->i = end;
		return;
	}
	if (i < v->n && v->p[i] == '/')
		i++;
	if (i < v->n && is_alpha(v->p[i])) {
		while (i < v->n && (is_alnum(v->p[i]) || v->p[i] == '-'))
			i++;
		if (i < v->n && (v->p[i] == '>' || v->p[i] == '/' ||
				 is_ws(v->p[i])) &&
		    (end = find_from(v, i, ">")) != 0) {
			v->i = end;
			return;
		}
	}
	v->i++;
}

/* "]": a link's destination "(…)" or label "[…]" after it shows as
 * nothing. */
static void bracket(struct vis *v)
{
	size_t end = 0;

	v->i++;
	if (v->i < v->n && v->p[v->i] == '(')
		end = find_from(v, v->i, ")");
	else if (v->i < v->n && v->p[v->i] == '[')
		end = find_from(v, v->i, "]");
	if (end)
		v->i = end;
}

/* The next visible character, or VIS_END. */
static int32_t vis_next(struct vis *v)
{
	for (;;) {
		unsigned char c;
		int32_t r;

		if (v->i >= v->n)
			return VIS_END;
		c = v->p[v->i];
		if (v->raw) {
			v->i++;
			return c < 0x80 ? fold(c) : VIS_OPAQUE;
		}
		switch (c) {
		case '\\':
			/* An escaped punctuation character shows as itself. */
			if (v->i + 1 < v->n && v->p[v->i + 1] < 0x80 &&
			    !is_alnum(v->p[v->i + 1]) && v->p[v->i + 1] > ' ') {
				v->i += 2;
				return v->p[v->i - 1];
			}
			v->i++;
			return '\\';
		case '*':
		case '_':
		case '~':
		case '`':
		case '[':
			v->i++; /* emphasis, strike, code, link text */
			continue;
		case ']':
			bracket(v);
			continue;
		case '<':
			angle(v);
			continue;
		case '&':
			if ((r = entity(v)) == VIS_END) {
				v->i++;
				return '&';
			}
			break;
		default:
			r = c < 0x80 ? (v->i++, fold(c)) : fold(utf8(v));
			break;
		}
		if (r != VIS_SKIP)
			return r;
	}
}

/* Do the last characters seen end with `word`? */
static bool ends_with(const char *tail, size_t n, const char *word)
{
	size_t w = strlen(word);

	return n >= w && memcmp(tail + n - w, word, w) == 0;
}

static bool names_field(const char *untrusted_line, size_t n, bool raw)
{
	struct vis v;
	char tail[8]; /* the last visible characters, spaces collapsed */
	size_t nt = 0;
	bool space = false;
	int32_t c;

	v.p = (const unsigned char *)untrusted_line;
	v.n = n;
	v.i = 0;
	v.raw = raw;
	while ((c = vis_next(&v)) != VIS_END) {
		if (c == ' ') {
			space = nt > 0;
			continue;
		}
		if (c == ':') {
			/* ws is allowed before the colon: `space` is ignored */
			if (ends_with(tail, nt, "reason") &&
			    (nt == 6 || !is_alpha(tail[nt - 7])))
				return false;
			if (ends_with(tail, nt, "id") ||
			    ends_with(tail, nt, "status"))
				return true;
		}
		if (space && c != ':') {
			if (nt == sizeof(tail)) {
				memmove(tail, tail + 1, nt - 1);
				nt--;
			}
			tail[nt++] = ' ';
		}
		space = false;
		if (nt == sizeof(tail)) {
			memmove(tail, tail + 1, nt - 1);
			nt--;
		}
		tail[nt++] = c < 0x80 ? (char)c : '\x01';
	}
	return false;
}

/*
 * Both readings: what a reader sees, and the source as it stands. cmark
 * shows as text much of what looks like markup (a tag that is no valid
 * tag, a comment that is no valid comment, code that holds a tag), so a
 * field the source names counts even when the decoder skipped it.
 */
bool visible_names_row_field(const char *untrusted_line, size_t n)
{
	return names_field(untrusted_line, n, false) ||
	       names_field(untrusted_line, n, true);
}
