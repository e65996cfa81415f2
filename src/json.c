/* The strict JSON scanner (see json.h): our own RFC 8259 reader,
 * because cJSON alone takes leading zeros, raw control characters in
 * strings, a BOM and control bytes as white space, and bytes toolcell
 * passes on verbatim must be JSON every consumer accepts. It gives exact
 * byte offsets, bounds the depth with a fixed stack, decodes keys so
 * duplicates are compared exactly (cJSON's keys stop at a \u0000), and
 * knows the byte span of every member's value. cJSON then parses a
 * NUL-terminated copy as a second opinion and gives decoded values. Pure;
 * runs in the parent. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toolcell/config.h"
#include "json.h"
#include "util.h"

/* ---- the scanner ---- */

/* An open object or array. */
struct json_frame {
	bool is_object;
	uint32_t obj;  /* container number */
	uint32_t n;    /* index of the member or element being read */
	size_t member; /* object: index in tc_json_scan.m of the member being read */
};

void tc_json_scan_release(struct tc_json_scan *s)
{
	free(s->m);
	free(s->c);
	free(s->keys);
	s->m = NULL;
	s->c = NULL;
	s->keys = NULL;
	s->dup = NULL;
	s->n_m = s->cap_m = s->n_c = s->cap_c = 0;
}

static bool json_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool tc_json_blank(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!json_ws((unsigned char)buf[i]))
			return false;
	return true;
}

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static void scan_ws(struct tc_json_scan *s)
{
	while (s->pos < s->len && json_ws(s->p[s->pos]))
		s->pos++;
}

static int scan_bad(struct tc_json_scan *s, size_t at)
{
	s->fault = TC_JSON_FAULT_SYNTAX;
	s->at = at;
	return -EINVAL;
}

static int scan_nomem(struct tc_json_scan *s)
{
	s->fault = TC_JSON_FAULT_NOMEM;
	return -ENOMEM;
}

/* Room for one more of n used in *arr of *cap items of size each. */
static int scan_grow(struct tc_json_scan *s, void **arr, size_t n, size_t *cap, size_t size)
{
	size_t want = *cap ? 2 * *cap : 16;
	void *p;

	if (n < *cap)
		return 0;
	p = reallocarray(*arr, want, size);
	if (!p)
		return scan_nomem(s);
	*arr = p;
	*cap = want;
	return 0;
}

static bool hex4(const unsigned char *p, uint32_t *ret)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		unsigned char c = p[i];

		v <<= 4;
		if (is_digit(c))
			v |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (uint32_t)(c - 'A' + 10);
		else
			return false;
	}
	*ret = v;
	return true;
}

/* Decode a \uXXXX escape (with its pair, for a surrogate) at p[i], where
 * p[i] is the 'u'. Returns the bytes consumed after the backslash, or 0. */
static size_t scan_unicode_escape(const struct tc_json_scan *s, size_t i, uint32_t *ret_cp)
{
	const unsigned char *p = s->p;
	uint32_t cp, lo;

	if (i + 5 > s->len || !hex4(p + i + 1, &cp))
		return 0;
	if (cp >= 0xdc00 && cp <= 0xdfff) /* a low surrogate alone */
		return 0;
	if (cp < 0xd800 || cp > 0xdbff) {
		*ret_cp = cp;
		return 5;
	}
	if (i + 11 > s->len || p[i + 5] != '\\' || p[i + 6] != 'u' || !hex4(p + i + 7, &lo) ||
	    lo < 0xdc00 || lo > 0xdfff)
		return 0;
	*ret_cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	return 11;
}

/* The escape at p[i] (the backslash): its code point and its length after
 * the backslash, or a fault. */
static int scan_escape(struct tc_json_scan *s, size_t i, uint32_t *ret_cp, size_t *ret_n)
{
	/* each escape letter followed by the byte it stands for */
	static const char escapes[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
	unsigned char e;
	size_t k = 0;

	if (i + 1 >= s->len)
		return scan_bad(s, i + 1);
	e = s->p[i + 1];
	if (e == 'u') {
		*ret_n = scan_unicode_escape(s, i + 1, ret_cp);
		if (*ret_n == 0)
			return scan_bad(s, i);
		if (*ret_cp == 0 && (s->flags & TC_JSON_NO_NUL)) {
			s->fault = TC_JSON_FAULT_NUL_ESCAPE;
			s->at = i;
			return -EINVAL;
		}
		return 0;
	}
	while (escapes[k] && escapes[k] != e)
		k += 2;
	if (!escapes[k])
		return scan_bad(s, i + 1);
	*ret_cp = (unsigned char)escapes[k + 1];
	*ret_n = 1;
	return 0;
}

/* The string at s->pos (its opening quote). With out, its decoded bytes are
 * appended there (never more than the raw bytes) and *out_len grows. */
static int scan_string(struct tc_json_scan *s, char *out, size_t *out_len)
{
	size_t i = s->pos + 1;

	for (;;) {
		unsigned char c;
		uint32_t cp;
		size_t n;
		int r;

		if (i >= s->len)
			return scan_bad(s, i);
		c = s->p[i];
		if (c == '"')
			break;
		if (c < 0x20) /* control characters must be escaped */
			return scan_bad(s, i);
		if (c != '\\') {
			if (out)
				out[(*out_len)++] = (char)c;
			i++;
			continue;
		}
		r = scan_escape(s, i, &cp, &n);
		if (r < 0)
			return r;
		if (out)
			*out_len += tc_utf8_put(out + *out_len, cp);
		i += 1 + n;
	}
	s->pos = i + 1;
	return 0;
}

/* Digits at s->p[i...]: at least one when need; returns the index after. */
static size_t scan_digits(const struct tc_json_scan *s, size_t i)
{
	while (i < s->len && is_digit(s->p[i]))
		i++;
	return i;
}

static int scan_number(struct tc_json_scan *s)
{
	const unsigned char *p = s->p;
	size_t i = s->pos;

	if (p[i] == '-')
		i++;
	if (i >= s->len || !is_digit(p[i]))
		return scan_bad(s, i);
	i = p[i] == '0' ? i + 1 : scan_digits(s, i); /* no leading zeros */
	if (i < s->len && p[i] == '.') {
		i++;
		if (i >= s->len || !is_digit(p[i]))
			return scan_bad(s, i);
		i = scan_digits(s, i);
	}
	if (i < s->len && (p[i] == 'e' || p[i] == 'E')) {
		i++;
		if (i < s->len && (p[i] == '+' || p[i] == '-'))
			i++;
		if (i >= s->len || !is_digit(p[i]))
			return scan_bad(s, i);
		i = scan_digits(s, i);
	}
	s->pos = i;
	return 0;
}

static int scan_literal(struct tc_json_scan *s, const char *word)
{
	size_t i;

	for (i = 0; word[i]; i++)
		if (s->pos + i >= s->len || s->p[s->pos + i] != (unsigned char)word[i])
			return scan_bad(s, s->pos + i);
	s->pos += i;
	return 0;
}

/* At the key of a new member of f: record it, read up to its value. */
static int scan_member(struct tc_json_scan *s, struct json_frame *f)
{
	struct tc_json_member *m;
	int r;

	if (s->pos >= s->len || s->p[s->pos] != '"')
		return scan_bad(s, s->pos);
	r = scan_grow(s, (void **)&s->m, s->n_m, &s->cap_m, sizeof(*s->m));
	if (r < 0)
		return r;
	if (!s->keys) {
		/* Keys decode to at most their raw length, so one buffer the
		 * size of the input holds them all. */
		s->keys = malloc(s->len);
		if (!s->keys)
			return scan_nomem(s);
	}
	m = &s->m[s->n_m];
	m->obj = f->obj;
	m->index = f->n;
	m->val_obj = TC_JSON_NO_OBJECT;
	m->key_off = s->keys_len;
	r = scan_string(s, s->keys, &s->keys_len);
	if (r < 0)
		return r;
	m->key_len = s->keys_len - m->key_off;
	scan_ws(s);
	if (s->pos >= s->len || s->p[s->pos] != ':')
		return scan_bad(s, s->pos);
	s->pos++;
	scan_ws(s);
	m->val_start = s->pos;
	f->member = s->n_m++;
	return 0;
}

/* Open the container at s->pos on the stack. */
static int scan_open(struct tc_json_scan *s, struct json_frame *stack, size_t *depth)
{
	struct json_frame *up = *depth ? &stack[*depth - 1] : NULL;
	struct json_frame *f;
	int r;

	if (*depth == TC_JSON_DEPTH_MAX) {
		s->fault = TC_JSON_FAULT_DEPTH;
		s->at = s->pos;
		return -EINVAL;
	}
	r = scan_grow(s, (void **)&s->c, s->n_c, &s->cap_c, sizeof(*s->c));
	if (r < 0)
		return r;
	f = &stack[(*depth)++];
	f->is_object = s->p[s->pos] == '{';
	f->n = 0;
	f->obj = (uint32_t)s->n_c++;
	s->c[f->obj] = (struct tc_json_container){
		.parent = up ? up->obj : TC_JSON_NO_OBJECT,
		.slot = up ? up->n : 0,
		.is_object = f->is_object,
	};
	if (up && up->is_object)
		s->m[up->member].val_obj = f->obj;
	return 0;
}

/* A value starts at s->pos. Scalars are read whole; '{' and '[' are pushed
 * (and popped at once when empty). *ret_done says a value was completed. */
static int scan_value(struct tc_json_scan *s, struct json_frame *stack, size_t *depth,
		      bool *ret_done)
{
	struct json_frame *f;
	unsigned char c;
	int r;

	*ret_done = true;
	if (s->pos >= s->len)
		return scan_bad(s, s->pos);
	c = s->p[s->pos];
	if (c == '"')
		return scan_string(s, NULL, NULL);
	if (c == 't' || c == 'f' || c == 'n')
		return scan_literal(s, c == 't' ? "true" : c == 'f' ? "false" : "null");
	if (c == '-' || is_digit(c))
		return scan_number(s);
	if (c != '{' && c != '[')
		return scan_bad(s, s->pos);
	r = scan_open(s, stack, depth);
	if (r < 0)
		return r;
	f = &stack[*depth - 1];
	s->pos++;
	scan_ws(s);
	if (s->pos < s->len && s->p[s->pos] == (f->is_object ? '}' : ']')) {
		s->pos++;
		(*depth)--;
		return 0;
	}
	*ret_done = false;
	return f->is_object ? scan_member(s, f) : 0;
}

/* After a completed value: close the containers it completes. *ret_more
 * says another value follows (after a ','); else the root is complete. */
static int scan_after_value(struct tc_json_scan *s, struct json_frame *stack, size_t *depth,
			    bool *ret_more)
{
	while (*depth > 0) {
		struct json_frame *f = &stack[*depth - 1];
		unsigned char c;

		if (f->is_object)
			s->m[f->member].val_end = s->pos;
		scan_ws(s);
		if (s->pos >= s->len)
			return scan_bad(s, s->pos);
		c = s->p[s->pos];
		if (c == ',') {
			s->pos++;
			scan_ws(s);
			f->n++;
			*ret_more = true;
			return f->is_object ? scan_member(s, f) : 0;
		}
		if (c != (f->is_object ? '}' : ']'))
			return scan_bad(s, s->pos);
		s->pos++;
		(*depth)--;
	}
	*ret_more = false;
	return 0;
}

/* Scan the whole input: exactly one value, surrounded by white space. */
static int scan_document(struct tc_json_scan *s)
{
	struct json_frame stack[TC_JSON_DEPTH_MAX];
	size_t depth = 0;
	bool more = true;

	scan_ws(s);
	s->root_start = s->pos;
	while (more) {
		bool done;
		int r;

		r = scan_value(s, stack, &depth, &done);
		if (r < 0)
			return r;
		if (!done)
			continue;
		r = scan_after_value(s, stack, &depth, &more);
		if (r < 0)
			return r;
	}
	s->root_end = s->pos;
	scan_ws(s);
	if (s->pos != s->len) {
		s->fault = TC_JSON_FAULT_EXTRA;
		s->at = s->pos;
		return -EINVAL;
	}
	return 0;
}

static int member_cmp(const void *a, const void *b, void *data)
{
	const struct tc_json_scan *s = data;
	const struct tc_json_member *x = &s->m[*(const size_t *)a];
	const struct tc_json_member *y = &s->m[*(const size_t *)b];
	size_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
	int c;

	if (x->obj != y->obj)
		return x->obj < y->obj ? -1 : 1;
	c = memcmp(s->keys + x->key_off, s->keys + y->key_off, n);
	if (c)
		return c;
	if (x->key_len != y->key_len)
		return x->key_len < y->key_len ? -1 : 1;
	/* document order among equals, so the later one is the duplicate */
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* Sort the members by (object, key) instead of comparing each pair, so a
 * big object costs n log n. Sets s->dup to the earliest repeated member in
 * document order. */
static int scan_duplicates(struct tc_json_scan *s)
{
	_cleanup_free_ size_t *order = NULL;
	size_t i, first = SIZE_MAX;

	if (s->n_m < 2)
		return 0;
	order = reallocarray(NULL, s->n_m, sizeof(*order));
	if (!order)
		return scan_nomem(s);
	for (i = 0; i < s->n_m; i++)
		order[i] = i;
	qsort_r(order, s->n_m, sizeof(*order), member_cmp, s);
	for (i = 1; i < s->n_m; i++) {
		const struct tc_json_member *x = &s->m[order[i - 1]], *y = &s->m[order[i]];

		if (x->obj == y->obj && x->key_len == y->key_len &&
		    memcmp(s->keys + x->key_off, s->keys + y->key_off, x->key_len) == 0 &&
		    order[i] < first)
			first = order[i];
	}
	if (first == SIZE_MAX)
		return 0;
	s->fault = TC_JSON_FAULT_DUPLICATE;
	s->dup = &s->m[first];
	s->at = s->dup->val_start;
	return -EINVAL;
}

int tc_json_scan(const char *buf, size_t len, unsigned flags, struct tc_json_scan *s)
{
	int r;

	s->p = (const unsigned char *)buf;
	s->len = len;
	s->pos = 0;
	s->flags = flags;
	s->fault = TC_JSON_FAULT_NONE;
	s->at = 0;
	if (tc_json_blank(buf, len)) {
		s->fault = TC_JSON_FAULT_EMPTY;
		s->at = len;
		return -EINVAL;
	}
	s->at = tc_utf8_check(buf, len);
	if (s->at != len) {
		s->fault = TC_JSON_FAULT_UTF8;
		return -EINVAL;
	}
	if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0) {
		s->fault = TC_JSON_FAULT_BOM;
		s->at = 0;
		return -EINVAL;
	}
	r = scan_document(s);
	if (r == -EINVAL && s->fault == TC_JSON_FAULT_SYNTAX && s->at >= len)
		s->fault = TC_JSON_FAULT_END;
	if (r < 0)
		return r;
	return scan_duplicates(s);
}

const struct tc_json_member *tc_json_find(const struct tc_json_scan *s, uint32_t obj,
					  const char *key)
{
	size_t klen = strlen(key), i;

	for (i = 0; i < s->n_m; i++) {
		const struct tc_json_member *m = &s->m[i];

		if (m->obj == obj && m->key_len == klen &&
		    memcmp(s->keys + m->key_off, key, klen) == 0)
			return m;
	}
	return NULL;
}

void tc_json_key_shown(const char *key, size_t len, char out[TC_JSON_KEY_SHOWN_MAX + 4])
{
	size_t n = tc_utf8_cut(key, len, TC_JSON_KEY_SHOWN_MAX), i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)key[i];

		out[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	snprintf(out + n, 4, "%s", n < len ? "..." : "");
}

/* A key as a path shows it: an empty key as "", so that a path never has
 * an empty step ("limits." or nothing at all). */
static void path_key(const struct tc_json_scan *s, const struct tc_json_member *m,
		     char out[TC_JSON_KEY_SHOWN_MAX + 4])
{
	if (m->key_len == 0)
		snprintf(out, TC_JSON_KEY_SHOWN_MAX + 4, "\"\"");
	else
		tc_json_key_shown(s->keys + m->key_off, m->key_len, out);
}

/* Append the path of container obj to buf[*off..n). */
static void path_of(const struct tc_json_scan *s, uint32_t obj, char *buf, size_t n, size_t *off)
{
	const struct tc_json_container *c;
	char shown[TC_JSON_KEY_SHOWN_MAX + 4];
	size_t i;

	if (obj >= s->n_c || s->c[obj].parent == TC_JSON_NO_OBJECT)
		return;
	c = &s->c[obj];
	path_of(s, c->parent, buf, n, off);
	if (!s->c[c->parent].is_object) {
		*off += (size_t)snprintf(buf + *off, n - *off, "[%u]", c->slot);
	} else {
		for (i = 0; i < s->n_m && (s->m[i].obj != c->parent || s->m[i].index != c->slot);
		     i++)
			;
		if (i == s->n_m)
			return;
		path_key(s, &s->m[i], shown);
		*off += (size_t)snprintf(buf + *off, n - *off, "%s%s", *off ? "." : "", shown);
	}
	if (*off >= n)
		*off = n - 1;
}

void tc_json_path(const struct tc_json_scan *s, const struct tc_json_member *m, char *buf, size_t n)
{
	char shown[TC_JSON_KEY_SHOWN_MAX + 4];
	size_t off = 0;

	if (n == 0)
		return;
	buf[0] = '\0';
	path_of(s, m->obj, buf, n, &off);
	path_key(s, m, shown);
	snprintf(buf + off, n - off, "%s%s", off ? "." : "", shown);
}
