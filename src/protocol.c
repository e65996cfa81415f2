/* The `call` protocol (DESIGN §3): strict validation of a JSON request or
 * response, reading the tool's response, and building the envelope `call`
 * prints. Validation runs our own RFC 8259 scanner first, because the bytes
 * of `data` are copied into the envelope verbatim and so must be JSON that
 * every consumer accepts (cJSON alone takes leading zeros, raw control
 * characters in strings, a BOM and control bytes as white space). The
 * scanner gives exact byte offsets, bounds the depth with a fixed stack,
 * decodes keys so duplicates are compared exactly (cJSON's keys stop at a
 * \u0000), and knows the byte span of every member's value. cJSON then
 * parses a NUL-terminated copy as a second opinion and gives us decoded
 * string values. Pure; runs in the parent. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "toolcell/config.h"
#include "protocol.h"
#include "util.h"

#define RESPONSE_TYPE_MAX    128  /* bytes of the tool's error.type we keep */
#define RESPONSE_MESSAGE_MAX 4096 /* bytes of the tool's error.message we keep */
#define KEY_SHOWN_MAX	     64	  /* bytes of a duplicate key quoted in a message */
#define NO_OBJECT	     UINT32_MAX

/* One member of one object, in document order. */
struct json_member {
	uint32_t obj;		   /* the object it belongs to: objects are numbered by their '{' */
	uint32_t index;		   /* its position among that object's members */
	uint32_t val_obj;	   /* the number of the object that is its value, or NO_OBJECT */
	size_t key_off, key_len;   /* its decoded key, in json_scan.keys */
	size_t val_start, val_end; /* its value's bytes in the input */
};

struct json_scan {
	const unsigned char *p;
	size_t len, pos;
	size_t bad;  /* offset of the first byte that is wrong */
	bool nested; /* the failure was the depth limit */
	struct json_member *m;
	size_t n_m, cap_m;
	char *keys; /* decoded keys; never longer than the input */
	size_t keys_len;
	uint32_t n_obj;
	size_t root_start, root_end;
};

/* An open object or array. */
struct json_frame {
	bool is_object;
	uint32_t obj;  /* object number */
	uint32_t n;    /* index of the member or element being read */
	size_t member; /* object: index in json_scan.m of the member being read */
};

static void scan_release(struct json_scan *s)
{
	free(s->m);
	free(s->keys);
	s->m = NULL;
	s->keys = NULL;
}

static void cjson_deletep(cJSON **j)
{
	cJSON_Delete(*j);
}

#define _cleanup_scan_	__attribute__((cleanup(scan_release)))
#define _cleanup_cjson_ __attribute__((cleanup(cjson_deletep)))

/* Length of the valid UTF-8 sequence at p[0..len) (len > 0), or 0. */
static size_t utf8_seq_len(const unsigned char *p, size_t len)
{
	unsigned char c = p[0];

	if (c < 0x80)
		return 1;
	if (c < 0xc2) /* a continuation byte, or the lead of an overlong pair */
		return 0;
	if (c < 0xe0)
		return len >= 2 && (p[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c < 0xf0) {
		if (len < 3 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80)
			return 0;
		if (c == 0xe0 && p[1] < 0xa0) /* overlong */
			return 0;
		if (c == 0xed && p[1] >= 0xa0) /* U+D800..U+DFFF, surrogates */
			return 0;
		return 3;
	}
	if (c < 0xf5) {
		if (len < 4 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80 ||
		    (p[3] & 0xc0) != 0x80)
			return 0;
		if (c == 0xf0 && p[1] < 0x90) /* overlong */
			return 0;
		if (c == 0xf4 && p[1] >= 0x90) /* above U+10FFFF */
			return 0;
		return 4;
	}
	return 0;
}

static bool utf8_check(const char *buf, size_t len, size_t *ret_bad)
{
	const unsigned char *p = (const unsigned char *)buf;
	size_t i = 0;

	while (i < len) {
		size_t n;

		if (p[i] < 0x80) {
			i++;
			continue;
		}
		n = utf8_seq_len(p + i, len - i);
		if (n == 0) {
			*ret_bad = i;
			return false;
		}
		i += n;
	}
	return true;
}

bool tc_utf8_valid(const char *buf, size_t len)
{
	size_t bad;

	return utf8_check(buf, len, &bad);
}

static bool json_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool only_ws(const char *buf, size_t len)
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

static void scan_ws(struct json_scan *s)
{
	while (s->pos < s->len && json_ws(s->p[s->pos]))
		s->pos++;
}

static int scan_bad(struct json_scan *s, size_t at)
{
	s->bad = at;
	return -EINVAL;
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
static size_t scan_unicode_escape(const struct json_scan *s, size_t i, uint32_t *ret_cp)
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

static size_t utf8_put(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* The string at s->pos (its opening quote). With out, its decoded bytes are
 * appended there (never more than the raw bytes) and *out_len grows. */
static int scan_string(struct json_scan *s, char *out, size_t *out_len)
{
	/* each escape letter followed by the byte it stands for */
	static const char escapes[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
	size_t i = s->pos + 1;

	for (;;) {
		unsigned char c, e;
		uint32_t cp;
		size_t n;

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
		if (i + 1 >= s->len)
			return scan_bad(s, i + 1);
		e = s->p[i + 1];
		if (e == 'u') {
			n = scan_unicode_escape(s, i + 1, &cp);
			if (n == 0)
				return scan_bad(s, i);
		} else {
			size_t k = 0;

			while (escapes[k] && escapes[k] != e)
				k += 2;
			if (!escapes[k])
				return scan_bad(s, i + 1);
			cp = (unsigned char)escapes[k + 1];
			n = 1;
		}
		if (out)
			*out_len += utf8_put(out + *out_len, cp);
		i += 1 + n;
	}
	s->pos = i + 1;
	return 0;
}

static int scan_number(struct json_scan *s)
{
	const unsigned char *p = s->p;
	size_t i = s->pos;

	if (p[i] == '-')
		i++;
	if (i >= s->len || !is_digit(p[i]))
		return scan_bad(s, i);
	if (p[i] == '0') /* no leading zeros */
		i++;
	else
		while (i < s->len && is_digit(p[i]))
			i++;
	if (i < s->len && p[i] == '.') {
		i++;
		if (i >= s->len || !is_digit(p[i]))
			return scan_bad(s, i);
		while (i < s->len && is_digit(p[i]))
			i++;
	}
	if (i < s->len && (p[i] == 'e' || p[i] == 'E')) {
		i++;
		if (i < s->len && (p[i] == '+' || p[i] == '-'))
			i++;
		if (i >= s->len || !is_digit(p[i]))
			return scan_bad(s, i);
		while (i < s->len && is_digit(p[i]))
			i++;
	}
	s->pos = i;
	return 0;
}

static int scan_literal(struct json_scan *s, const char *word)
{
	size_t i;

	for (i = 0; word[i]; i++)
		if (s->pos + i >= s->len || s->p[s->pos + i] != (unsigned char)word[i])
			return scan_bad(s, s->pos + i);
	s->pos += i;
	return 0;
}

/* At the key of a new member of f: record it, read up to its value. */
static int scan_member(struct json_scan *s, struct json_frame *f)
{
	struct json_member *m;
	int r;

	if (s->pos >= s->len || s->p[s->pos] != '"')
		return scan_bad(s, s->pos);
	if (s->n_m == s->cap_m) {
		size_t cap = s->cap_m ? 2 * s->cap_m : 16;
		struct json_member *nm = reallocarray(s->m, cap, sizeof(*nm));

		if (!nm)
			return -ENOMEM;
		s->m = nm;
		s->cap_m = cap;
	}
	if (!s->keys) {
		/* Keys decode to at most their raw length, so one buffer the
		 * size of the input holds them all. */
		s->keys = malloc(s->len);
		if (!s->keys)
			return -ENOMEM;
	}
	m = &s->m[s->n_m];
	m->obj = f->obj;
	m->index = f->n;
	m->val_obj = NO_OBJECT;
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

/* A value starts at s->pos. Scalars are read whole; '{' and '[' are pushed
 * (and popped at once when empty). *ret_done says a value was completed. */
static int scan_value(struct json_scan *s, struct json_frame *stack, size_t *depth, bool *ret_done)
{
	unsigned char c;
	struct json_frame *f;

	*ret_done = true;
	if (s->pos >= s->len)
		return scan_bad(s, s->pos);
	c = s->p[s->pos];
	switch (c) {
	case '"':
		return scan_string(s, NULL, NULL);
	case 't':
		return scan_literal(s, "true");
	case 'f':
		return scan_literal(s, "false");
	case 'n':
		return scan_literal(s, "null");
	case '{':
	case '[':
		break;
	default:
		if (c == '-' || is_digit(c))
			return scan_number(s);
		return scan_bad(s, s->pos);
	}
	if (*depth == TC_JSON_DEPTH_MAX) {
		s->nested = true;
		return scan_bad(s, s->pos);
	}
	f = &stack[(*depth)++];
	f->is_object = c == '{';
	f->n = 0;
	f->obj = NO_OBJECT;
	if (f->is_object) {
		f->obj = s->n_obj++;
		if (*depth >= 2 && stack[*depth - 2].is_object)
			s->m[stack[*depth - 2].member].val_obj = f->obj;
	}
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
static int scan_after_value(struct json_scan *s, struct json_frame *stack, size_t *depth,
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
static int scan_document(struct json_scan *s)
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
	if (s->pos != s->len)
		return scan_bad(s, s->pos);
	return 0;
}

static int member_cmp(const void *a, const void *b, void *data)
{
	const struct json_scan *s = data;
	const struct json_member *x = &s->m[*(const size_t *)a];
	const struct json_member *y = &s->m[*(const size_t *)b];
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
 * big object costs n log n. Sets *ret_dup to the earliest repeated member
 * in document order, or NULL. */
static int scan_duplicates(const struct json_scan *s, const struct json_member **ret_dup)
{
	_cleanup_free_ size_t *order = NULL;
	size_t i, first = SIZE_MAX;

	*ret_dup = NULL;
	if (s->n_m < 2 || !s->m || !s->keys)
		return 0;
	order = reallocarray(NULL, s->n_m, sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (i = 0; i < s->n_m; i++)
		order[i] = i;
	qsort_r(order, s->n_m, sizeof(*order), member_cmp, (void *)s);
	for (i = 1; i < s->n_m; i++) {
		const struct json_member *x = &s->m[order[i - 1]], *y = &s->m[order[i]];

		if (x->obj == y->obj && x->key_len == y->key_len &&
		    memcmp(s->keys + x->key_off, s->keys + y->key_off, x->key_len) == 0 &&
		    order[i] < first)
			first = order[i];
	}
	if (first != SIZE_MAX)
		*ret_dup = &s->m[first];
	return 0;
}

/* The member of object obj whose key is exactly key, or NULL. */
static const struct json_member *scan_find(const struct json_scan *s, uint32_t obj, const char *key)
{
	size_t klen = strlen(key), i;

	for (i = 0; i < s->n_m; i++) {
		const struct json_member *m = &s->m[i];

		if (m->obj == obj && m->key_len == klen &&
		    memcmp(s->keys + m->key_off, key, klen) == 0)
			return m;
	}
	return NULL;
}

/* A key, quoted in a message: at most KEY_SHOWN_MAX bytes cut at a
 * character boundary, control characters shown as '?'. */
static void key_for_message(const char *key, size_t len, char out[KEY_SHOWN_MAX + 4])
{
	size_t n = len, i;

	if (len > KEY_SHOWN_MAX) {
		n = KEY_SHOWN_MAX;
		while (n > 0 && ((unsigned char)key[n] & 0xc0) == 0x80)
			n--;
	}
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)key[i];

		out[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	snprintf(out + n, 4, "%s", n < len ? "..." : "");
}

static int syntax_error(const struct json_scan *s, const char *what, struct tc_error *err)
{
	if (s->nested)
		return tc_error_set(err, what, 0, "%s: nesting deeper than %d levels", what,
				    TC_JSON_DEPTH_MAX);
	if (s->bad >= s->len)
		return tc_error_set(err, what, 0,
				    "%s: not valid JSON near byte %zu (unexpected end)", what,
				    s->bad);
	if (s->bad >= s->root_end && s->root_end > s->root_start)
		return tc_error_set(err, what, 0,
				    "%s: not valid JSON near byte %zu (extra data after the value; "
				    "expected exactly one JSON value)",
				    what, s->bad);
	return tc_error_set(err, what, 0, "%s: not valid JSON near byte %zu", what, s->bad);
}

/* Size, UTF-8 and RFC 8259 syntax with the depth limit: enough to know
 * the bytes are exactly one JSON value. The scan is left in s. */
static int json_syntax(const char *buf, size_t len, size_t max_bytes, const char *what,
		       struct tc_error *err, struct json_scan *s)
{
	size_t bad;
	int r;

	if (len > max_bytes)
		return tc_error_set(err, what, E2BIG,
				    "%s: %zu bytes is larger than the %zu-byte limit", what, len,
				    max_bytes);
	if (only_ws(buf, len))
		return tc_error_set(err, what, 0, "%s: empty (expected one JSON value)", what);
	if (!utf8_check(buf, len, &bad))
		return tc_error_set(err, what, 0, "%s: not valid UTF-8 at byte %zu", what, bad);
	if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		return tc_error_set(err, what, 0,
				    "%s: not valid JSON near byte 0 (a byte order mark; expected "
				    "one JSON value)",
				    what);

	s->p = (const unsigned char *)buf;
	s->len = len;
	r = scan_document(s);
	if (r == -ENOMEM)
		return tc_error_set(err, what, ENOMEM, "%s: out of memory", what);
	if (r < 0)
		return syntax_error(s, what, err);
	return 0;
}

/* Everything tc_json_validate promises. With s, the scan is left there
 * for the caller (released by the caller either way); with ret_root, so is
 * cJSON's tree. */
static int json_check(const char *buf, size_t len, size_t max_bytes, const char *what,
		      struct tc_error *err, struct json_scan *s, cJSON **ret_root)
{
	_cleanup_scan_ struct json_scan local = { 0 };
	_cleanup_free_ char *copy = NULL;
	const struct json_member *dup;
	const char *end = NULL;
	cJSON *root;
	int r;

	if (!s)
		s = &local;
	r = json_syntax(buf, len, max_bytes, what, err, s);
	if (r < 0)
		return r;
	r = scan_duplicates(s, &dup);
	if (r < 0)
		return tc_error_set(err, what, ENOMEM, "%s: out of memory", what);
	if (dup) {
		char shown[KEY_SHOWN_MAX + 4];

		key_for_message(s->keys + dup->key_off, dup->key_len, shown);
		return tc_error_set(err, what, 0, "%s: duplicate key \"%s\" in an object", what,
				    shown);
	}

	/* A second opinion: cJSON parses a NUL-terminated copy and must
	 * reach the terminator, so it too sees exactly one value. */
	copy = malloc(len + 1);
	if (!copy)
		return tc_error_set(err, what, ENOMEM, "%s: out of memory", what);
	memcpy(copy, buf, len);
	copy[len] = '\0';
	root = cJSON_ParseWithLengthOpts(copy, len + 1, &end, 1);
	if (!root)
		return tc_error_set(err, what, 0, "%s: not valid JSON near byte %zu", what,
				    end ? (size_t)(end - copy) : (size_t)0);
	if (ret_root)
		*ret_root = root;
	else
		cJSON_Delete(root);
	return 0;
}

int tc_json_validate(const char *buf, size_t len, size_t max_bytes, const char *what,
		     struct tc_error *err)
{
	return json_check(buf, len, max_bytes, what ? what : "input", err, NULL, NULL);
}

int tc_json_members(const char *buf, size_t len, size_t max_bytes, const char *what,
		    const char *const *keys, size_t n, char **ret, struct tc_error *err)
{
	_cleanup_scan_ struct json_scan s = { 0 };
	_cleanup_cjson_ cJSON *root = NULL;
	int r;

	what = what ? what : "input";
	memset(ret, 0, n * sizeof(*ret));
	r = json_check(buf, len, max_bytes, what, err, &s, &root);
	if (r < 0)
		return r;
	if (!cJSON_IsObject(root))
		return tc_error_set(err, what, 0, "%s: expected a JSON object", what);
	for (size_t i = 0; i < n; i++) {
		const struct json_member *m = scan_find(&s, 0, keys[i]);

		if (!m)
			continue;
		ret[i] = strndup(buf + m->val_start, m->val_end - m->val_start);
		if (!ret[i]) {
			for (size_t j = 0; j < i; j++) {
				free(ret[j]);
				ret[j] = NULL;
			}
			return tc_error_set(err, what, ENOMEM, "%s: out of memory", what);
		}
	}
	return 0;
}

/* A copy of s cut to at most max bytes at a UTF-8 character boundary. */
static char *strdup_cut(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n > max) {
		n = max;
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	return strndup(s, n);
}

/* The string value of member key of the object numbered obj (whose cJSON
 * node is node), or NULL when absent or not a string. */
static const char *member_string(const struct json_scan *s, uint32_t obj, const cJSON *node,
				 const char *key)
{
	const struct json_member *m = scan_find(s, obj, key);
	const cJSON *v;

	if (!m)
		return NULL;
	/* cJSON keeps the members in document order, so index i is ours. */
	v = cJSON_GetArrayItem(node, (int)m->index);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int response_error(const struct json_scan *s, const cJSON *root, struct tc_response *r,
			  struct tc_error *err)
{
	const struct json_member *m = scan_find(s, 0, "error");
	const cJSON *e = m ? cJSON_GetArrayItem(root, (int)m->index) : NULL;
	const char *type, *message;

	if (!m || !cJSON_IsObject(e) || m->val_obj == NO_OBJECT)
		return tc_error_set(err, "response", 0,
				    "response: \"ok\" is false but \"error\" is not an object");
	type = member_string(s, m->val_obj, e, "type");
	message = member_string(s, m->val_obj, e, "message");
	r->ok = false;
	r->err_type = strdup_cut(type && type[0] ? type : "ToolError", RESPONSE_TYPE_MAX);
	r->err_message = strdup_cut(message ? message : "", RESPONSE_MESSAGE_MAX);
	if (!r->err_type || !r->err_message)
		return tc_error_set(err, "response", ENOMEM, "response: out of memory");
	return 0;
}

int tc_response_parse(const char *buf, size_t len, size_t max_bytes, struct tc_response *ret,
		      struct tc_error *err)
{
	_cleanup_scan_ struct json_scan s = { 0 };
	_cleanup_cjson_ cJSON *root = NULL;
	struct tc_response r = { 0 };
	size_t start, end;
	int rc;

	memset(ret, 0, sizeof(*ret));
	if (len <= max_bytes && only_ws(buf, len))
		return tc_error_set(err, "response", 0, "response: the tool printed no response");
	rc = json_check(buf, len, max_bytes, "response", err, &s, &root);
	if (rc < 0)
		return rc;

	start = s.root_start;
	end = s.root_end;
	if (cJSON_IsObject(root)) {
		const struct json_member *ok = scan_find(&s, 0, "ok");
		const cJSON *okv = ok ? cJSON_GetArrayItem(root, (int)ok->index) : NULL;

		if (cJSON_IsFalse(okv)) {
			rc = response_error(&s, root, &r, err);
			if (rc < 0) {
				tc_response_release(&r);
				return rc;
			}
			*ret = r;
			return 0;
		}
		if (cJSON_IsTrue(okv)) {
			const struct json_member *data = scan_find(&s, 0, "data");

			if (!data)
				start = end = 0;
			else
				start = data->val_start, end = data->val_end;
		}
	}
	r.ok = true;
	r.data = end > start ? strndup(buf + start, end - start) : strdup("null");
	if (!r.data)
		return tc_error_set(err, "response", ENOMEM, "response: out of memory");
	*ret = r;
	return 0;
}

void tc_response_release(struct tc_response *r)
{
	free(r->data);
	free(r->err_type);
	free(r->err_message);
	r->data = r->err_type = r->err_message = NULL;
}

/* Add item under key; on any failure note it and drop the item. */
static cJSON *put(bool *failed, cJSON *obj, const char *key, cJSON *item)
{
	if (!item || !cJSON_AddItemToObject(obj, key, item)) {
		cJSON_Delete(item);
		*failed = true;
		return NULL;
	}
	return item;
}

/* A JSON string of s's longest valid UTF-8 prefix. The strings here are
 * valid (tc_response_parse cuts at character boundaries) unless a caller
 * passes a message that a fixed-size buffer cut mid-character. */
static cJSON *utf8_string(const char *s)
{
	_cleanup_free_ char *cut = NULL;
	size_t bad;

	if (utf8_check(s, strlen(s), &bad))
		return cJSON_CreateString(s);
	cut = strndup(s, bad);
	return cut ? cJSON_CreateString(cut) : NULL;
}

/* meta: the record's subset, taken from the record itself so the two
 * never disagree. */
static const char *const meta_keys[] = {
	"status",	    "status_inferred",	"exit_code",	     "signal",	     "wall_ms",
	"cpu_user_ms",	    "cpu_system_ms",	"memory_peak_bytes", "stdout_bytes", "stderr_bytes",
	"stdout_truncated", "stderr_truncated", "denied_syscall",
};

static cJSON *envelope_meta(const struct tc_outcome *o)
{
	_cleanup_free_ char *text = tc_record_to_json(o);
	_cleanup_cjson_ cJSON *record = NULL;
	cJSON *meta;
	size_t i;

	if (!text)
		return NULL;
	record = cJSON_ParseWithLengthOpts(text, strlen(text) + 1, NULL, 1);
	meta = cJSON_CreateObject();
	if (!record || !meta) {
		cJSON_Delete(meta);
		return NULL;
	}
	for (i = 0; i < TC_ARRAY_SIZE(meta_keys); i++) {
		cJSON *v = cJSON_DetachItemFromObjectCaseSensitive(record, meta_keys[i]);
		bool failed = false;

		put(&failed, meta, meta_keys[i], v);
		if (failed) {
			cJSON_Delete(meta);
			return NULL;
		}
	}
	return meta;
}

char *tc_envelope_to_json(const struct tc_outcome *o, const struct tc_response *resp,
			  const char *toolcell_type, const char *toolcell_message)
{
	_cleanup_cjson_ cJSON *env = cJSON_CreateObject();
	_cleanup_scan_ struct json_scan s = { 0 };
	const char *data = NULL;
	bool failed = false;

	if (!toolcell_type && !resp) {
		toolcell_type = "SandboxError";
		toolcell_message = "no response to report";
	}
	if (!toolcell_type && resp->ok) {
		data = resp->data ? resp->data : "null";
		/* The bytes go into the envelope as they are: never unless they
		 * are one valid JSON value. */
		if (json_syntax(data, strlen(data), SIZE_MAX, "data", NULL, &s) < 0) {
			toolcell_type = "InvalidResponse";
			toolcell_message = "the tool's data is not one valid JSON value";
		}
	}

	put(&failed, env, "ok", cJSON_CreateBool(!toolcell_type && resp->ok));
	if (!toolcell_type && resp->ok) {
		put(&failed, env, "data", cJSON_CreateRaw(data));
	} else {
		cJSON *e = put(&failed, env, "error", cJSON_CreateObject());

		if (toolcell_type) {
			put(&failed, e, "type", utf8_string(toolcell_type));
			put(&failed, e, "message",
			    utf8_string(toolcell_message ? toolcell_message : ""));
			put(&failed, e, "source", cJSON_CreateString("toolcell"));
		} else {
			put(&failed, e, "type",
			    utf8_string(resp->err_type ? resp->err_type : "ToolError"));
			put(&failed, e, "message",
			    utf8_string(resp->err_message ? resp->err_message : ""));
			put(&failed, e, "source", cJSON_CreateString("tool"));
		}
	}
	put(&failed, env, "meta", envelope_meta(o));
	if (failed)
		return NULL;

	return tc_json_document(env, false);
}
