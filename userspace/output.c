// SPDX-License-Identifier: GPL-2.0
/*
 * rcupoll: text, CSV (RFC 4180) and JSON lines output of tables.
 *
 * Strings from the trace (task names, function names) are bytes: a comm
 * can hold quotes, commas, newlines, and a multi-byte character cut in
 * half at 15 bytes.  JSON escapes quotes, backslashes and control
 * characters and turns bytes that are not UTF-8 into U+FFFD, so that any
 * JSON parser reads it; CSV quotes a field that needs it and doubles its
 * quotes, with the same UTF-8 repair; text shows control characters and
 * broken bytes as \xNN so that one row stays one line.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

/* Length of the valid UTF-8 sequence at @p (1-4), or 0 if it is not one. */
static int utf8_len(const unsigned char *p)
{
	int n, i;
	unsigned int cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* No overlong forms, no surrogates, nothing past U+10FFFF. */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void put_json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	fputc('"', f);
	while (*p) {
		int n = utf8_len(p);

		if (!n) {
			fputs("\\ufffd", f);
			p++;
		} else if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p++);
		} else if (*p == '\n') {
			fputs("\\n", f);
			p++;
		} else if (*p == '\r') {
			fputs("\\r", f);
			p++;
		} else if (*p == '\t') {
			fputs("\\t", f);
			p++;
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p++);
		} else {
			fwrite(p, 1, n, f);
			p += n;
		}
	}
	fputc('"', f);
}

void put_csv_field(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	bool quote = strpbrk((const char *)p, ",\"\r\n") || (*p == ' ') ||
		     (*p && p[strlen((const char *)p) - 1] == ' ');

	if (quote)
		fputc('"', f);
	while (*p) {
		int n = utf8_len(p);

		if (!n) {
			fputs("\xef\xbf\xbd", f);	/* U+FFFD */
			p++;
		} else if (*p == '"') {
			fputs("\"\"", f);
			p++;
		} else {
			fwrite(p, 1, n, f);
			p += n;
		}
	}
	if (quote)
		fputc('"', f);
}

void put_text(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	while (*p) {
		int n = utf8_len(p);

		if (!n || *p < 0x20 || *p == 0x7f || *p == '\\') {
			if (*p == '\\')
				fputs("\\\\", f);
			else
				fprintf(f, "\\x%02x", *p);
			p++;
		} else {
			fwrite(p, 1, n, f);
			p += n;
		}
	}
}

/* Display width of a text cell: characters, not bytes. */
static int text_width(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int w = 0;

	while (*p) {
		int n = utf8_len(p);

		if (!n || *p < 0x20 || *p == 0x7f || *p == '\\') {
			w += *p == '\\' ? 2 : 4;
			p++;
		} else {
			w++;
			p += n;
		}
	}
	return w;
}

static void pad(int n)
{
	while (n-- > 0)
		putchar(' ');
}

void table_begin(struct table *t, enum fmt fmt)
{
	int i;

	t->fmt = fmt;
	t->rows = 0;
	if (fmt == FMT_CSV) {
		for (i = 0; i < t->ncols; i++) {
			if (i)
				putchar(',');
			put_csv_field(stdout, t->cols[i].name);
		}
		putchar('\n');
	} else if (fmt == FMT_TEXT) {
		printf("\n%s\n ", t->title);
		for (i = 0; i < t->ncols; i++) {
			const struct col *c = &t->cols[i];
			const char *l = c->label ? c->label : c->name;
			int w = c->width < 0 ? -c->width : c->width;

			putchar(' ');
			if (c->width < 0 || !c->width) {
				fputs(l, stdout);
				if (i < t->ncols - 1)
					pad(w - (int)strlen(l));
			} else {
				pad(w - (int)strlen(l));
				fputs(l, stdout);
			}
		}
		putchar('\n');
	}
}

static void cell_text(const struct col *c, const char *s, bool last)
{
	int w = c->width < 0 ? -c->width : c->width;

	putchar(' ');
	if (c->width > 0)
		pad(w - text_width(s));
	put_text(stdout, s);
	if (c->width < 0 && !last)
		pad(w - text_width(s));
}

void table_row(struct table *t, ...)
{
	va_list ap;
	int i;

	va_start(ap, t);
	if (t->fmt == FMT_JSON) {
		fputs("{\"table\":", stdout);
		put_json_string(stdout, t->name);
	} else if (t->fmt == FMT_TEXT) {
		putchar(' ');
	}
	for (i = 0; i < t->ncols; i++) {
		const struct col *c = &t->cols[i];
		char num[64] = "";
		const char *str = NULL;
		bool null = false;

		switch (c->type) {
		case COL_STR:
			str = va_arg(ap, const char *);
			null = !str;
			break;
		case COL_INT: {
			long long v = va_arg(ap, long long);

			null = v == TABLE_NULL_INT;
			if (!null)
				snprintf(num, sizeof(num), "%lld", v);
			break;
		}
		case COL_US: {
			double v = va_arg(ap, double);

			null = isnan(v);
			if (!null)
				snprintf(num, sizeof(num), "%.1f", v);
			break;
		}
		case COL_TS: {
			u64 v = va_arg(ap, u64);

			null = !v;
			if (!null) {
				u64 us = (v + 500) / 1000;	/* as trace-cmd rounds */

				snprintf(num, sizeof(num), "%llu.%06llu", us / 1000000ULL,
					 us % 1000000ULL);
			}
			break;
		}
		}
		if (t->fmt == FMT_JSON) {
			fputc(',', stdout);
			put_json_string(stdout, c->name);
			fputc(':', stdout);
			if (null)
				fputs("null", stdout);
			else if (c->type == COL_STR)
				put_json_string(stdout, str);
			else
				fputs(num, stdout);
		} else if (t->fmt == FMT_CSV) {
			if (i)
				putchar(',');
			if (!null)
				put_csv_field(stdout, c->type == COL_STR ? str : num);
		} else {
			cell_text(c, null ? "-" : c->type == COL_STR ? str : num, i == t->ncols - 1);
		}
	}
	va_end(ap);
	fputs(t->fmt == FMT_JSON ? "}\n" : "\n", stdout);
	t->rows++;
}

void table_end(struct table *t)
{
	if (t->fmt == FMT_TEXT && !t->rows)
		puts("  (none)");
}
