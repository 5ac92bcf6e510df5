/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rcupoll: tables as text, CSV or JSON lines.  A table has a fixed set of
 * columns: every CSV row has exactly the header's columns and every JSON
 * object the same keys, whatever the data.  Strings are escaped for the
 * format (task names may hold quotes, commas, newlines, any bytes).
 */
#ifndef OUTPUT_H
#define OUTPUT_H

#include "rcupoll.h"

enum fmt { FMT_TEXT, FMT_CSV, FMT_JSON };

/* Column types: the matching argument of table_row(). */
enum coltype {
	COL_STR,	/* const char *, NULL: empty (null in JSON) */
	COL_INT,	/* long long; use table_null for none */
	COL_US,		/* double, one decimal; NAN: none */
	COL_TS,		/* u64 ns, printed as seconds.microseconds; 0: none */
};

struct col {
	const char *name;
	enum coltype type;
	int width;		/* text: negative left-aligns; 0: no padding */
	const char *label;	/* text header (NULL: the name) */
};

struct table {
	const char *name;	/* "batches": the JSON "table" key, --table */
	const char *title;	/* text only */
	const struct col *cols;
	int ncols;
	enum fmt fmt;
	int rows;
};

#define TABLE(n, t, c) { .name = n, .title = t, .cols = c, .ncols = sizeof(c) / sizeof(c[0]) }

/* A COL_INT value meaning "none". */
#define TABLE_NULL_INT ((long long)0x8000000000000000ULL)

void table_begin(struct table *t, enum fmt fmt);
void table_row(struct table *t, ...);
void table_end(struct table *t);

/* Escaped strings, for text written outside tables. */
void put_text(FILE *f, const char *s);
void put_json_string(FILE *f, const char *s);
void put_csv_field(FILE *f, const char *s);

#endif
