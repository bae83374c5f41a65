/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define ARENA_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define ARENA_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define ARENA_POISON(p, n) ((void)(p), (void)(n))
#define ARENA_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#include "lib/decode.h"
#include "lib/report.h"

json_t *ep_report_new(const char *schema)
{
	return json_pack("{s:s, s:s, s:[], s:{}}", "schema", schema, "elfplt_version",
			 PACKAGE_VERSION, "files", "totals");
}

json_t *ep_json_enum(const char *name, uint64_t value)
{
	return json_pack("{s:o, s:o}", "name", name ? json_string(name) : json_null(), "value",
			 ep_json_u64(value));
}

json_t *ep_json_u64(uint64_t v)
{
	/* Counts of a file's bytes or entries never reach 2^63. */
	return json_integer((json_int_t)v);
}

json_t *ep_json_file_error(const char *path, const struct ep_error *err)
{
	return json_pack("{s:s, s:{s:s, s:s}}", "path", path, "error", "code",
			 ep_errcode_name(err->code), "message", err->message);
}

/* s as a JSON string of clean text (lib/error.h); NULL gives null. */
static json_t *json_clean(const char *s)
{
	char *c;
	json_t *v;

	if (!s)
		return json_null();
	if (ep_text_is_clean(s, strlen(s)))
		return json_string(s);
	c = strdup(s);
	if (!c)
		return NULL;
	ep_text_clean(c);
	v = json_string(c);
	free(c);
	return v;
}

void ep_json_input_keys(json_t *file, const struct ep_blob *blob)
{
	json_object_set_new(file, "compression",
			    json_string(ep_compression_name(blob->compression)));
	json_object_set_new(file, "archive", json_clean(blob->archive));
	json_object_set_new(file, "member", json_clean(blob->member));
}

json_t *ep_json_elf(const struct ep_image *img)
{
	const GElf_Ehdr *eh = &img->ehdr;
	char buf[32];
	json_t *machine = ep_json_enum(ep_machine_name(eh->e_machine), eh->e_machine);

	json_object_set_new(machine, "description",
			    json_string(ep_machine_label(eh->e_machine, buf, sizeof(buf))));
	return json_pack("{s:o, s:o, s:o, s:o}", "class",
			 ep_json_enum(ep_class_name(eh->e_ident[EI_CLASS]), eh->e_ident[EI_CLASS]),
			 "data",
			 ep_json_enum(ep_data_name(eh->e_ident[EI_DATA]), eh->e_ident[EI_DATA]),
			 "type", ep_json_enum(ep_type_name(eh->e_type), eh->e_type), "machine",
			 machine);
}

/*
 * json_dumpf() calls fwrite() for every token; for a report of thousands of
 * files that locking and bookkeeping cost more than building the document.
 * Gather the text in a buffer and write it a large block at a time.
 */
struct dump_buf {
	FILE *out;
	size_t used;
	bool failed;
	char bytes[1 << 16];
};

static void dump_flush(struct dump_buf *b)
{
	if (b->used && fwrite(b->bytes, 1, b->used, b->out) != b->used)
		b->failed = true;
	b->used = 0;
}

static int dump_chunk(const char *text, size_t size, void *data)
{
	struct dump_buf *b = data;

	if (size > sizeof(b->bytes) - b->used) {
		dump_flush(b);
		if (size > sizeof(b->bytes)) {
			if (fwrite(text, 1, size, b->out) != size)
				b->failed = true;
			return b->failed ? -1 : 0;
		}
	}
	memcpy(b->bytes + b->used, text, size);
	b->used += size;
	return b->failed ? -1 : 0;
}

int ep_report_write_json(json_t *doc, FILE *out)
{
	struct dump_buf *b = malloc(sizeof(*b));
	int rc = 0;

	if (!b)
		return -EP_ENOMEM;
	b->out = out;
	b->used = 0;
	b->failed = false;
	if (json_dump_callback(doc, dump_chunk, b,
			       JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9)) != 0)
		rc = -EP_EIO;
	dump_flush(b);
	if (b->failed || fputc('\n', out) == EOF || ferror(out))
		rc = -EP_EIO;
	free(b);
	return rc;
}

/* The flags of every dump, so fragments and whole documents come out alike. */
#define DUMP_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9))

/*
 * jansson indents a value nested depth levels deep by 2 * depth more spaces
 * on every line after its first: so v is dumped as the one element of depth
 * nested one-element arrays, and what lies between their openings and
 * closings is v exactly as the document has it.  (Putting the spaces in
 * after a dump of v alone, line by line, took a tenth of `stats --json`; a
 * callback per token cost more than building the objects.)
 */
char *ep_json_dump_at(const json_t *v, unsigned int depth, size_t *len)
{
	/*
	 * The buffer starts as large as the largest dump so far: a file's
	 * object of more than 16 KiB (a module of 30 relocation sections) was
	 * dumped twice, once to learn its size.
	 */
	static size_t largest = 16384;
	size_t cap = largest, n, head = 0, tail = 0, k;
	json_t *wrapped = json_incref((json_t *)v), *outer;
	char *buf = NULL, *bigger;

	*len = 0;
	/* Level k opens with "[", a newline and 2(k+1) spaces, and closes with a newline, 2k spaces and "]". */
	for (k = 0; k < depth && wrapped; k++) {
		outer = json_array();
		if (!outer || json_array_append_new(outer, wrapped)) {
			json_decref(outer);
			wrapped = NULL;
			break;
		}
		wrapped = outer;
		head += 2 + 2 * (k + 1);
		tail += 2 + 2 * k;
	}
	if (!wrapped)
		return NULL;
	buf = malloc(cap);
	if (!buf)
		goto fail;
	n = json_dumpb(wrapped, buf, cap, DUMP_FLAGS | JSON_ENCODE_ANY);
	if (n >= cap) {
		/* Too small: now the size is known, dump again. */
		cap = n + 1;
		bigger = realloc(buf, cap);
		if (!bigger)
			goto fail;
		buf = bigger;
		n = json_dumpb(wrapped, buf, cap, DUMP_FLAGS | JSON_ENCODE_ANY);
	}
	if (n == 0 || n >= cap || n <= head + tail)
		goto fail;
	if (n > largest && n <= 64 << 20)
		largest = n + n / 4;
	*len = n - head - tail;
	memmove(buf, buf + head, *len);
	buf[*len] = '\0';
	json_decref(wrapped);
	return buf;
fail:
	json_decref(wrapped);
	free(buf);
	*len = 0;
	return NULL;
}

/* Dump v at depth onto js->out; false (and js->failed) on error. */
static bool stream_value(struct ep_json_stream *js, const json_t *v, unsigned int depth)
{
	size_t len;
	char *text = ep_json_dump_at(v, depth, &len);

	if (!text || fwrite(text, 1, len, js->out) != len)
		js->failed = true;
	free(text);
	return !js->failed;
}

/* "\n", 2 * depth spaces, then key (through jansson) and ": ". */
static void stream_key(struct ep_json_stream *js, unsigned int depth, const char *key)
{
	json_t *k = json_string(key);

	fprintf(js->out, "\n%*s", (int)(2 * depth), "");
	if (!k || !stream_value(js, k, depth))
		js->failed = true;
	fputs(": ", js->out);
	json_decref(k);
}

int ep_json_stream_begin(struct ep_json_stream *js, FILE *out, const char *schema)
{
	json_t *head = json_pack("{s:s, s:s}", "schema", schema, "elfplt_version", PACKAGE_VERSION);

	memset(js, 0, sizeof(*js));
	js->out = out;
	if (!head)
		return -EP_ENOMEM;
	fputc('{', out);
	stream_key(js, 1, "schema");
	stream_value(js, json_object_get(head, "schema"), 1);
	fputc(',', out);
	stream_key(js, 1, "elfplt_version");
	stream_value(js, json_object_get(head, "elfplt_version"), 1);
	fputc(',', out);
	stream_key(js, 1, "files");
	fputc('[', out);
	json_decref(head);
	return js->failed || ferror(out) ? -EP_EIO : 0;
}

int ep_json_stream_file_text(struct ep_json_stream *js, const char *text, size_t len)
{
	fputs(js->nfiles++ ? ",\n    " : "\n    ", js->out);
	if (fwrite(text, 1, len, js->out) != len)
		js->failed = true;
	return js->failed ? -EP_EIO : 0;
}

int ep_json_stream_file(struct ep_json_stream *js, const json_t *file)
{
	size_t len;
	char *text = ep_json_dump_at(file, 2, &len);
	int rc;

	if (!text)
		return -EP_ENOMEM;
	rc = ep_json_stream_file_text(js, text, len);
	free(text);
	return rc;
}

static void close_files(struct ep_json_stream *js)
{
	if (!js->closed)
		fputs(js->nfiles ? "\n  ]," : "],", js->out);
	js->closed = true;
}

int ep_json_stream_key(struct ep_json_stream *js, const char *key, const json_t *value)
{
	close_files(js);
	stream_key(js, 1, key);
	stream_value(js, value, 1);
	fputc(',', js->out);
	return js->failed || ferror(js->out) ? -EP_EIO : 0;
}

int ep_json_stream_end(struct ep_json_stream *js, const json_t *totals)
{
	close_files(js);
	stream_key(js, 1, "totals");
	stream_value(js, totals, 1);
	fputs("\n}\n", js->out);
	return js->failed || ferror(js->out) ? -EP_EIO : 0;
}

/*
 * A table keeps all its cells' text in one growing buffer and each cell as
 * an offset and a length into it: a report of thousands of files makes
 * hundreds of thousands of cells, and a string allocated for each one cost
 * more than formatting them.
 */
struct ep_cell {
	size_t off; /* into text */
	size_t len; /* bytes; 0 for an empty or missing cell */
};

struct ep_table {
	unsigned int ncols;
	char align[16];
	struct ep_cell *cells; /* row-major, headers first */
	size_t nrows;	       /* including the header row */
	size_t cap;	       /* rows allocated */
	unsigned int col;      /* next cell of the last row */
	char *text;	       /* every cell's bytes, one after the other */
	size_t used, size;     /* bytes of text in use, allocated */
	bool nomem;
};

struct ep_table *ep_table_new(unsigned int ncols, const char *const *headers, const char *align)
{
	struct ep_table *t;
	unsigned int i;

	if (ncols == 0 || ncols >= sizeof(t->align))
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->ncols = ncols;
	memcpy(t->align, align, ncols);
	ep_table_row(t);
	for (i = 0; i < ncols; i++)
		ep_table_cell_str(t, headers[i]);
	return t;
}

void ep_table_row(struct ep_table *t)
{
	if (t->nomem)
		return;
	if (t->nrows == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		struct ep_cell *c = realloc(t->cells, cap * t->ncols * sizeof(*c));

		if (!c) {
			t->nomem = true;
			return;
		}
		t->cells = c;
		t->cap = cap;
	}
	memset(&t->cells[t->nrows * t->ncols], 0, t->ncols * sizeof(*t->cells));
	t->nrows++;
	t->col = 0;
}

/* Room for need more bytes of text; false (and nomem) when out of memory. */
static bool text_room(struct ep_table *t, size_t need)
{
	size_t size;
	char *p;

	if (need <= t->size - t->used)
		return true;
	size = t->size ? t->size : 1024;
	while (size - t->used < need) {
		if (size > SIZE_MAX / 2) {
			t->nomem = true;
			return false;
		}
		size *= 2;
	}
	p = realloc(t->text, size);
	if (!p) {
		t->nomem = true;
		return false;
	}
	t->text = p;
	t->size = size;
	return true;
}

/* The next cell of the last row, or NULL when there is none to fill. */
static struct ep_cell *next_cell(struct ep_table *t)
{
	if (t->nomem || t->nrows == 0 || t->col >= t->ncols)
		return NULL;
	return &t->cells[(t->nrows - 1) * t->ncols + t->col++];
}

void ep_table_cell(struct ep_table *t, const char *fmt, ...)
{
	struct ep_cell *c = next_cell(t);
	va_list ap;
	int n;

	if (!c || !text_room(t, 32))
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->text + t->used, t->size - t->used, fmt, ap);
	va_end(ap);
	if (n < 0) {
		t->nomem = true;
		return;
	}
	if ((size_t)n >= t->size - t->used) {
		/* Did not fit (or no buffer yet): make room and format again. */
		if (!text_room(t, (size_t)n + 1))
			return;
		va_start(ap, fmt);
		vsnprintf(t->text + t->used, t->size - t->used, fmt, ap);
		va_end(ap);
	}
	c->off = t->used;
	c->len = (size_t)n;
	t->used += (size_t)n;
}

void ep_table_cell_str(struct ep_table *t, const char *s)
{
	struct ep_cell *c = next_cell(t);
	size_t n = strlen(s);

	if (!c || !text_room(t, n))
		return;
	memcpy(t->text + t->used, s, n);
	c->off = t->used;
	c->len = n;
	t->used += n;
}

void ep_table_cell_u64(struct ep_table *t, uint64_t v)
{
	struct ep_cell *c = next_cell(t);
	char digits[20]; /* 2^64 - 1 has 20 */
	size_t n = 0;

	if (v < 10) { /* most of them: counts of one file's sites and slots */
		if (!c || !text_room(t, 1))
			return;
		t->text[t->used] = (char)('0' + v);
		c->off = t->used++;
		c->len = 1;
		return;
	}
	do {
		digits[sizeof(digits) - ++n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (!c || !text_room(t, n))
		return;
	memcpy(t->text + t->used, digits + sizeof(digits) - n, n);
	c->off = t->used;
	c->len = n;
	t->used += n;
}

void ep_table_cell_index(struct ep_table *t, uint64_t index, const char *name)
{
	struct ep_cell *c = next_cell(t);
	size_t name_len = name ? strlen(name) : 0, n = 0;
	char digits[20]; /* 2^64 - 1 has 20 */
	char *p;

	do {
		digits[sizeof(digits) - ++n] = (char)('0' + index % 10);
		index /= 10;
	} while (index);
	if (!c || !text_room(t, n + 3 + name_len))
		return;
	p = t->text + t->used;
	*p++ = '[';
	memcpy(p, digits + sizeof(digits) - n, n);
	p += n;
	*p++ = ']';
	if (name) {
		*p++ = ' ';
		memcpy(p, name, name_len);
		p += name_len;
	}
	c->off = t->used;
	c->len = (size_t)(p - (t->text + t->used));
	t->used += c->len;
}

static size_t text_width;

void ep_text_width_set(size_t columns)
{
	text_width = columns;
}

size_t ep_text_width(void)
{
	return text_width;
}

size_t ep_text_abbrev(const char *s, size_t len, size_t width, char *buf)
{
	size_t head, tail;

	if (len <= width) {
		memcpy(buf, s, len);
		buf[len] = '\0';
		return len;
	}
	head = width / 2;
	tail = width - 1 - head;
	/* Cut before a UTF-8 continuation byte, never inside a character. */
	while (head > 0 && ((unsigned char)s[head] & 0xc0) == 0x80)
		head--;
	while (tail > 0 && ((unsigned char)s[len - tail] & 0xc0) == 0x80)
		tail--;
	memcpy(buf, s, head);
	buf[head] = '~';
	memcpy(buf + head + 1, s + len - tail, tail);
	buf[head + 1 + tail] = '\0';
	return head + 1 + tail;
}

/* The width of columns [first, last) plus column 0 when first > 0, with separators. */
static size_t span_width(const size_t *width, unsigned int first, unsigned int last)
{
	size_t w = first > 0 ? width[0] + 2 : 0;
	unsigned int c;

	for (c = first; c < last; c++)
		w += width[c] + (c + 1 < last ? 2 : 0);
	return w;
}

/*
 * Narrow the left-aligned columns of a block (column 0 when first > 0, and
 * [first, last)), widest first, down to EP_TABLE_MIN_NAME (or the header),
 * until the block fits in room columns or none can narrow.
 */
static void narrow_names(const struct ep_table *t, size_t *width, unsigned int first,
			 unsigned int last, size_t room)
{
	while (span_width(width, first, last) > room) {
		unsigned int c, widest = t->ncols;

		for (c = first > 0 ? 0 : first; c < last; c = c == 0 && first > 0 ? first : c + 1) {
			size_t floor = t->cells[c].len > EP_TABLE_MIN_NAME ? t->cells[c].len
									   : EP_TABLE_MIN_NAME;

			if (t->align[c] == 'r' || width[c] <= floor)
				continue;
			if (widest == t->ncols || width[c] > width[widest])
				widest = c;
		}
		if (widest == t->ncols)
			return;
		width[widest]--;
	}
}

/*
 * Print columns 0 (when first > 0) and [first, last) of every row, the
 * lines gathered in buf (size bytes, at least line_max: the most a line
 * takes) and written a bufferful at a time.  A line is first all spaces,
 * then each cell's text is put in its place: one memset() a line, not two
 * a cell.  abbr: room for the widest cell's abbreviation.
 */
static void print_span(const struct ep_table *t, FILE *out, const char *indent, const size_t *width,
		       unsigned int first, unsigned int last, char *buf, size_t size,
		       size_t line_max, char *abbr)
{
	const size_t ilen = strlen(indent), span = ilen + span_width(width, first, last);
	size_t r, used = 0;

	for (r = 0; r < t->nrows; r++) {
		char *line = buf + used;
		size_t n = ilen;
		unsigned int c;

		memset(line, ' ', span);
		memcpy(line, indent, ilen);
		for (c = first > 0 ? 0 : first; c < last; c = c == 0 && first > 0 ? first : c + 1) {
			const struct ep_cell *cell = &t->cells[r * t->ncols + c];
			const char *text = t->text + cell->off;
			const bool right = t->align[c] == 'r';
			size_t len = cell->len, pad;

			if (len > width[c]) {
				len = ep_text_abbrev(text, len, width[c], abbr);
				text = abbr;
			}
			pad = width[c] - len;
			memcpy(line + n + (right ? pad : 0), text, len);
			if (c + 1 == last) /* no padding after the last, when left-aligned */
				n += right ? width[c] : len;
			else
				n += width[c] + 2;
		}
		line[n++] = '\n';
		used += n;
		if (size - used < line_max) {
			fwrite(buf, 1, used, out);
			used = 0;
		}
	}
	if (used)
		fwrite(buf, 1, used, out);
}

int ep_table_print(const struct ep_table *t, FILE *out, const char *indent)
{
	size_t width[16] = { 0 }, line_max, ilen = strlen(indent), r, room, size, widest;
	unsigned int c, first;
	char *buf;

	if (t->nomem)
		return -EP_ENOMEM;
	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++)
			if (t->cells[r * t->ncols + c].len > width[c])
				width[c] = t->cells[r * t->ncols + c].len;
	/*
	 * Lines made in a buffer, padding by memset, not printf, and written
	 * many at a time: a module tree's report is hundreds of thousands of
	 * table lines.
	 */
	line_max = ilen + 1;
	for (c = 0; c < t->ncols; c++)
		line_max += 2 * width[c] + 4; /* more than a line takes */
	size = line_max + 16384;
	for (c = 0, widest = 0; c < t->ncols; c++)
		widest = width[c] > widest ? width[c] : widest;
	buf = malloc(size + widest + 1); /* and room for an abbreviation */
	if (!buf)
		return -EP_ENOMEM;
	room = text_width > ilen ? text_width - ilen : 1;
	if (text_width && span_width(width, 0, t->ncols) > room) {
		/* Abbreviated names when that is enough, else whole names in blocks. */
		size_t narrowed[16];

		memcpy(narrowed, width, sizeof(narrowed));
		narrow_names(t, narrowed, 0, t->ncols, room);
		if (span_width(narrowed, 0, t->ncols) <= room)
			memcpy(width, narrowed, sizeof(width));
	}
	/* As many columns as fit in each block, column 0 leading each. */
	for (first = 0; first < t->ncols;) {
		unsigned int last = first + 1;

		while (last < t->ncols &&
		       (!text_width || span_width(width, first, last + 1) <= room))
			last++;
		if (text_width)
			narrow_names(t, width, first, last, room);
		print_span(t, out, indent, width, first, last, buf, size, line_max, buf + size);
		first = last;
	}
	free(buf);
	return 0;
}

size_t ep_table_rows(const struct ep_table *t)
{
	return t->nrows ? t->nrows - 1 : 0;
}

void ep_table_free(struct ep_table *t)
{
	if (!t)
		return;
	free(t->cells);
	free(t->text);
	free(t);
}

/*
 * printf("%.1f") of a double is exact but slow (a big-number conversion,
 * 6% of a text run).  With part <= whole < 2^40, x = 100.0 * part / whole
 * is q = 100 * part / whole rounded once to a double (part, whole and
 * 100 * part convert exactly), so |x - q| <= q * 2^-53 <= 1.2e-14.
 * Rounding q to the nearest tenth gives printf's digits unless a half-tenth
 * lies between q and x; but q, in tenths, is 1000 * part / whole = tenths +
 * rem / whole, at least 1 / (2 * whole) tenths (above 4e-14 percent) from
 * any half-tenth unless it is one (2 * rem == whole): that tie, and larger
 * numbers, go to printf.
 */
const char *ep_percent(char *buf, size_t size, uint64_t part, uint64_t whole)
{
	uint64_t tenths, rem;

	if (whole == 0) {
		snprintf(buf, size, "-");
		return buf;
	}
	if (whole < ((uint64_t)1 << 40) && part <= whole) {
		tenths = part * 1000 / whole;
		rem = part * 1000 % whole;
		if (2 * rem != whole && size >= sizeof("100.0%")) {
			char *p = buf;

			tenths += 2 * rem > whole; /* 0 to 1000 */
			if (tenths >= 1000)
				*p++ = '1';
			if (tenths >= 100)
				*p++ = (char)('0' + tenths / 100 % 10);
			*p++ = (char)('0' + tenths / 10 % 10);
			*p++ = '.';
			*p++ = (char)('0' + tenths % 10);
			*p++ = '%';
			*p = '\0';
			return buf;
		}
	}
	snprintf(buf, size, "%.1f%%", 100.0 * (double)part / (double)whole);
	return buf;
}

/* ---- the arena of one file's JSON values (ep_json_arena_begin()) ---- */

struct arena_block {
	struct arena_block *next;
	size_t cap, used;	 /* bytes of data[] */
	max_align_t data[]; /* aligned as malloc() aligns */
};

static struct arena_block *arena; /* the newest block first */
static bool arena_open;

static void *arena_malloc(size_t n)
{
	const size_t align = sizeof(max_align_t);
	struct arena_block *b = arena;
	void *p;

	if (!arena_open)
		return malloc(n);
	if (n > SIZE_MAX / 2)
		return NULL;
	n = (n + align - 1) / align * align;
	if (!b || b->cap - b->used < n) {
		/* Doubling: a file of a million symbols takes a few blocks, not thousands. */
		size_t cap = b ? 2 * b->cap : (size_t)1 << 20;

		while (cap < n)
			cap *= 2;
		b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->cap = cap;
		b->used = 0;
		b->next = arena;
		ARENA_POISON(b->data, cap);
		arena = b;
	}
	p = (char *)b->data + b->used;
	b->used += n;
	ARENA_UNPOISON(p, n);
	return p;
}

/* A value from a block is taken back by ep_json_arena_end(), the rest freed. */
static void arena_free(void *p)
{
	const struct arena_block *b;

	for (b = arena; b; b = b->next)
		if ((const char *)p >= (const char *)b->data &&
		    (const char *)p < (const char *)b->data + b->cap)
			return;
	free(p);
}

int ep_json_arena_begin(void)
{
	static bool installed;

	if (!installed) {
		json_set_alloc_funcs(arena_malloc, arena_free);
		installed = true;
	}
	arena_open = true;
	return 0;
}

void ep_json_arena_end(void)
{
	struct arena_block *b, *next;

	arena_open = false;
	if (!arena)
		return;
	/* Keep the largest (newest) block for the next file; free the others. */
	for (b = arena->next; b; b = next) {
		next = b->next;
		ARENA_UNPOISON(b->data, b->cap);
		free(b);
	}
	arena->next = NULL;
	arena->used = 0;
	ARENA_POISON(arena->data, arena->cap);
}
