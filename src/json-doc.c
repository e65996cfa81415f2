/* JSON documents (see json.h): a document from outside validated with a
 * message that says what is wrong and where, its top-level members taken
 * as raw bytes, and JSON built as cJSON trees and printed. The scanning
 * itself is json.c's. Pure; runs in the parent. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toolcell/config.h"
#include "json.h"
#include "util.h"

/* err for a scan's fault, every message starting with the stage's name. */
static int scan_error(const struct tc_json_scan *s, enum tc_stage stage, struct tc_error *err)
{
	const char *what = tc_stage_name(stage);
	char shown[TC_JSON_KEY_SHOWN_MAX + 4];

	switch (s->fault) {
	case TC_JSON_FAULT_EMPTY:
		return tc_error_set(err, stage, 0, "%s: empty (expected one JSON value)", what);
	case TC_JSON_FAULT_UTF8:
		return tc_error_set(err, stage, 0, "%s: not valid UTF-8 at byte %zu", what, s->at);
	case TC_JSON_FAULT_BOM:
		return tc_error_set(err, stage, 0,
				    "%s: not valid JSON near byte 0 (a byte order mark; expected "
				    "one JSON value)",
				    what);
	case TC_JSON_FAULT_DEPTH:
		return tc_error_set(err, stage, 0, "%s: nesting deeper than %d levels", what,
				    TC_JSON_DEPTH_MAX);
	case TC_JSON_FAULT_END:
		return tc_error_set(err, stage, 0,
				    "%s: not valid JSON near byte %zu (unexpected end)", what,
				    s->at);
	case TC_JSON_FAULT_EXTRA:
		return tc_error_set(err, stage, 0,
				    "%s: not valid JSON near byte %zu (extra data after the value; "
				    "expected exactly one JSON value)",
				    what, s->at);
	case TC_JSON_FAULT_DUPLICATE:
		tc_json_key_shown(s->keys + s->dup->key_off, s->dup->key_len, shown);
		return tc_error_set(err, stage, 0, "%s: duplicate key \"%s\" in an object", what,
				    shown);
	case TC_JSON_FAULT_NOMEM:
		return tc_error_set(err, stage, ENOMEM, "%s: out of memory", what);
	case TC_JSON_FAULT_NONE:
	case TC_JSON_FAULT_SYNTAX:
	case TC_JSON_FAULT_NUL_ESCAPE:
		break;
	}
	return tc_error_set(err, stage, 0, "%s: not valid JSON near byte %zu", what, s->at);
}

/* tc_json_parse's first part: the limit and tc_json_scan, without cJSON. */
static int scan_only(const char *buf, size_t len, size_t max_bytes, enum tc_stage stage,
		     struct tc_json_scan *s, struct tc_error *err)
{
	if (len > max_bytes)
		return tc_error_set(err, stage, E2BIG,
				    "%s: %zu bytes is larger than the %zu-byte limit",
				    tc_stage_name(stage), len, max_bytes);
	return tc_json_scan(buf, len, 0, s) < 0 ? scan_error(s, stage, err) : 0;
}

int tc_json_parse(const char *buf, size_t len, size_t max_bytes, enum tc_stage stage,
		  struct tc_json_scan *s, cJSON **ret_root, struct tc_error *err)
{
	const char *what = tc_stage_name(stage);
	_cleanup_free_ char *copy = NULL;
	const char *end = NULL;
	cJSON *root;
	int r;

	r = scan_only(buf, len, max_bytes, stage, s, err);
	if (r < 0)
		return r;

	/* A second opinion: cJSON parses a NUL-terminated copy and must
	 * reach the terminator, so it too sees exactly one value. */
	copy = malloc(len + 1);
	if (!copy)
		return tc_error_set(err, stage, ENOMEM, "%s: out of memory", what);
	memcpy(copy, buf, len);
	copy[len] = '\0';
	root = cJSON_ParseWithLengthOpts(copy, len + 1, &end, 1);
	if (!root)
		return tc_error_set(err, stage, 0, "%s: not valid JSON near byte %zu", what,
				    end ? (size_t)(end - copy) : (size_t)0);
	if (ret_root)
		*ret_root = root;
	else
		cJSON_Delete(root);
	return 0;
}

int tc_json_validate(const char *buf, size_t len, size_t max_bytes, enum tc_stage stage,
		     struct tc_error *err)
{
	_cleanup_scan_ struct tc_json_scan s = { 0 };

	return tc_json_parse(buf, len, max_bytes, stage, &s, NULL, err);
}

/* 1 with the first member of the root object whose key is none of keys in
 * out, shown as tc_json_key_shown shows it; 0 when every key is one. */
static int first_unknown(const struct tc_json_scan *s, const char *const *keys, size_t n,
			 char out[TC_JSON_KEY_SHOWN_MAX + 4])
{
	for (size_t i = 0; i < s->n_m; i++) {
		const struct tc_json_member *m = &s->m[i];
		const char *key = s->keys + m->key_off;
		size_t k = 0;

		if (m->obj != 0)
			continue;
		while (k < n && (strlen(keys[k]) != m->key_len || memcmp(keys[k], key, m->key_len)))
			k++;
		if (k == n) {
			tc_json_key_shown(key, m->key_len, out);
			return 1;
		}
	}
	return 0;
}

/* tc_json_members(_known)'s work; cjson_too: cJSON's second parse as well. */
static int members(const char *buf, size_t len, size_t max_bytes, enum tc_stage stage,
		   const char *const *keys, size_t n, char **ret,
		   char unknown[TC_JSON_KEY_SHOWN_MAX + 4], bool cjson_too, struct tc_error *err)
{
	const char *what = tc_stage_name(stage);
	_cleanup_scan_ struct tc_json_scan s = { 0 };
	_cleanup_cjson_ cJSON *root = NULL;
	int r;

	memset(ret, 0, n * sizeof(*ret));
	r = cjson_too ? tc_json_parse(buf, len, max_bytes, stage, &s, &root, err)
		      : scan_only(buf, len, max_bytes, stage, &s, err);
	if (r < 0)
		return r;
	if (cjson_too ? !cJSON_IsObject(root) : buf[s.root_start] != '{')
		return tc_error_set(err, stage, 0, "%s: expected a JSON object", what);
	for (size_t i = 0; i < n; i++) {
		const struct tc_json_member *m = tc_json_find(&s, 0, keys[i]);

		if (!m)
			continue;
		ret[i] = strndup(buf + m->val_start, m->val_end - m->val_start);
		if (!ret[i]) {
			for (size_t j = 0; j < i; j++) {
				free(ret[j]);
				ret[j] = NULL;
			}
			return tc_error_set(err, stage, ENOMEM, "%s: out of memory", what);
		}
	}
	return unknown ? first_unknown(&s, keys, n, unknown) : 0;
}

int tc_json_members(const char *buf, size_t len, size_t max_bytes, enum tc_stage stage,
		    const char *const *keys, size_t n, char **ret, struct tc_error *err)
{
	return members(buf, len, max_bytes, stage, keys, n, ret, NULL, true, err);
}

int tc_json_members_known(const char *buf, size_t len, size_t max_bytes, enum tc_stage stage,
			  const char *const *keys, size_t n, char **ret,
			  char unknown[TC_JSON_KEY_SHOWN_MAX + 4], struct tc_error *err)
{
	return members(buf, len, max_bytes, stage, keys, n, ret, unknown, true, err);
}

int tc_json_members_made(const char *buf, size_t len, size_t max_bytes, enum tc_stage stage,
			 const char *const *keys, size_t n, char **ret, struct tc_error *err)
{
	return members(buf, len, max_bytes, stage, keys, n, ret, NULL, false, err);
}

cJSON *tc_json_add(bool *failed, cJSON *obj, const char *key, cJSON *item)
{
	if (!obj || !item ||
	    !(key ? cJSON_AddItemToObject(obj, key, item) : cJSON_AddItemToArray(obj, item))) {
		cJSON_Delete(item);
		if (failed)
			*failed = true;
		return NULL;
	}
	return item;
}

cJSON *tc_json_string(const char *s)
{
	_cleanup_free_ char *clean = NULL;

	if (!s)
		s = "";
	if (tc_utf8_valid(s, strlen(s)))
		return cJSON_CreateString(s);
	clean = tc_utf8_sanitize(s, strlen(s));
	return clean ? cJSON_CreateString(clean) : NULL;
}

cJSON *tc_json_raw(const char *buf, size_t len)
{
	_cleanup_free_ char *copy = strndup(buf, len);

	return copy ? cJSON_CreateRaw(copy) : NULL;
}

char *tc_json_print(const cJSON *doc, bool pretty)
{
	return pretty ? cJSON_Print(doc) : cJSON_PrintUnformatted(doc);
}

char *tc_json_document(const cJSON *doc, bool pretty)
{
	char *text = tc_json_print(doc, pretty), *out;
	size_t n;

	if (!text)
		return NULL;
	n = strlen(text);
	out = realloc(text, n + 2);
	if (!out) {
		free(text);
		return NULL;
	}
	memcpy(out + n, "\n", 2);
	return out;
}
