/* `toolcell serve`'s pure parts (see serve.h): one request line into a
 * struct tc_serve_request, the policy's "serve" section, who may connect.
 * Strings in, structs out; no I/O. The line is held to the strict scanner
 * (tc_json_members) before cJSON decodes a single string of it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base64.h"
#include "json.h"
#include "protocol.h"
#include "serve.h"
#include "util.h"

#define STAGE TC_STAGE_REQUEST

enum {
	R_ID,
	R_KIND,
	R_SOURCE,
	R_ARGS,
	R_ARGV,
	R_STDIN,
	R_NAME,
	R_TIMEOUT,
	R_LIMITS,
	R_STDIN64,
	R_ALLOW_IMPORTS,
	R_DEFAULT_IMPORTS,
	R__MAX
};
static const char *const request_keys[R__MAX] = {
	"id",	"kind",	     "source", "args",	       "argv",		"stdin",
	"name", "timeout_s", "limits", "stdin_base64", "allow_imports", "default_imports"
};

/* The kinds of request by name; a new kind adds its row here and its bit
 * to each member it takes (check_members). */
static const char *const kind_names[] = {
	[TC_SERVE_CALL] = "call",
	[TC_SERVE_EXEC] = "exec",
	[TC_SERVE_STATS] = "stats",
	[TC_SERVE_SESSION] = "session",
};

/* A decoded JSON string value from its raw bytes (already valid JSON):
 * -EINVAL when it is no string or holds a NUL. */
static int decode_string(const char *raw, const char *key, size_t max, char **ret, size_t *ret_len,
			 struct tc_error *err)
{
	cJSON *v = raw ? cJSON_Parse(raw) : NULL;
	const char *s = cJSON_GetStringValue(v);
	size_t len;

	*ret = NULL;
	if (!s) {
		cJSON_Delete(v);
		return tc_error_set(err, STAGE, EINVAL, "request: \"%s\" must be a string", key);
	}
	len = strlen(s);
	/* cJSON stops a string at an escaped NUL: the raw text says if there was one */
	if (strstr(raw, "\\u0000")) {
		cJSON_Delete(v);
		return tc_error_set(err, STAGE, EINVAL, "request: \"%s\" holds a NUL character",
				    key);
	}
	if (len > max) {
		cJSON_Delete(v);
		return tc_error_set(err, STAGE, E2BIG,
				    "request: \"%s\" is longer than the %zu-byte limit", key, max);
	}
	*ret = strdup(s);
	cJSON_Delete(v);
	if (!*ret)
		return tc_error_set(err, STAGE, ENOMEM, "request: out of memory");
	if (ret_len)
		*ret_len = len;
	return 0;
}

/* "name": a plain file name ending in .py, no slash, no leading dot. */
static int parse_name(const char *raw, struct tc_serve_request *r, struct tc_error *err)
{
	char *name = NULL;
	size_t len = 0;
	int ret = decode_string(raw, "name", TC_SERVE_NAME_MAX, &name, &len, err);

	if (ret < 0)
		return ret;
	if (len < 4 || strcmp(name + len - 3, ".py") || name[0] == '.' || strchr(name, '/')) {
		free(name);
		return tc_error_set(err, STAGE, EINVAL,
				    "request: \"name\" must be a file name ending in .py, without "
				    "a slash (the tool is shown as /tool/NAME)");
	}
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f) {
			free(name);
			return tc_error_set(err, STAGE, EINVAL,
					    "request: \"name\" holds a control character");
		}
	memcpy(r->name, name, len + 1);
	free(name);
	return 0;
}

static int parse_argv(const char *raw, struct tc_serve_request *r, struct tc_error *err)
{
	cJSON *v = cJSON_Parse(raw), *it;
	int ret = 0;

	if (!cJSON_IsArray(v)) {
		cJSON_Delete(v);
		return tc_error_set(err, STAGE, EINVAL,
				    "request: \"argv\" must be an array of strings");
	}
	cJSON_ArrayForEach(it, v)
	{
		const char *s = cJSON_GetStringValue(it);
		if (!s) {
			ret = tc_error_set(err, STAGE, EINVAL,
					   "request: \"argv\" must be an array of strings");
			break;
		}
		if (r->argc == TC_SERVE_ARGV_MAX) {
			ret = tc_error_set(err, STAGE, E2BIG,
					   "request: \"argv\" has more than %d arguments",
					   TC_SERVE_ARGV_MAX);
			break;
		}
		r->argv[r->argc] = strdup(s);
		if (!r->argv[r->argc]) {
			ret = tc_error_set(err, STAGE, ENOMEM, "request: out of memory");
			break;
		}
		r->argc++;
	}
	if (ret == 0 && strstr(raw, "\\u0000"))
		ret = tc_error_set(err, STAGE, EINVAL, "request: \"argv\" holds a NUL character");
	cJSON_Delete(v);
	return ret;
}

static int parse_kind(const char *raw, struct tc_serve_request *r, struct tc_error *err)
{
	size_t n = raw ? strlen(raw) : 0;

	/* raw is a JSON value: a name needs no escape, so its text is it */
	for (size_t i = 0; n > 2 && raw[0] == '"' && i < TC_ARRAY_SIZE(kind_names); i++)
		if (strlen(kind_names[i]) == n - 2 && !memcmp(raw + 1, kind_names[i], n - 2)) {
			r->kind = (enum tc_serve_kind)i;
			return 0;
		}
	return tc_error_set(err, STAGE, EINVAL,
			    "request: \"kind\" must be \"call\", \"exec\", \"session\" or "
			    "\"stats\"");
}

/* The members a kind allows; any other (unknown: the first key that is no
 * request member at all, or NULL) is a mistake worth naming. */
static int check_members(char *const *m, enum tc_serve_kind kind, const char *unknown,
			 struct tc_error *err)
{
	/* for each member, the kinds it belongs in */
	enum {
		CALL = 1u << TC_SERVE_CALL,
		EXEC = 1u << TC_SERVE_EXEC,
		SESS = 1u << TC_SERVE_SESSION,
		ALL = (1u << TC_ARRAY_SIZE(kind_names)) - 1
	};
	static const unsigned allowed[R__MAX] = {
		[R_ID] = ALL,
		[R_KIND] = ALL,
		[R_SOURCE] = CALL | EXEC,
		[R_ARGS] = CALL,
		[R_ARGV] = EXEC,
		[R_STDIN] = EXEC,
		[R_NAME] = CALL | EXEC,
		[R_TIMEOUT] = CALL | EXEC | SESS,
		[R_LIMITS] = CALL | EXEC | SESS,
		[R_STDIN64] = EXEC,
		[R_ALLOW_IMPORTS] = SESS,
		[R_DEFAULT_IMPORTS] = SESS,
	};
	char names[256];
	size_t used = 0;

	for (size_t i = 0; unknown && i < R__MAX && used < sizeof(names); i++)
		if (allowed[i] & 1u << kind)
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
						 used ? ", " : "", request_keys[i]);
	if (unknown)
		return tc_error_set(err, STAGE, EINVAL,
				    "request: unknown key \"%s\" (known for \"%s\": %s)", unknown,
				    kind_names[kind], names);
	for (size_t i = 0; i < R__MAX; i++)
		if (m[i] && !(allowed[i] & 1u << kind))
			return tc_error_set(err, STAGE, EINVAL,
					    "request: \"%s\" does not belong in a \"%s\" request",
					    request_keys[i], kind_names[kind]);
	if (m[R_STDIN] && m[R_STDIN64])
		return tc_error_set(err, STAGE, EINVAL,
				    "request: \"stdin\" and \"stdin_base64\" are the same input: "
				    "give one");
	if ((kind == TC_SERVE_CALL || kind == TC_SERVE_EXEC) && !m[R_SOURCE])
		return tc_error_set(err, STAGE, EINVAL,
				    "request: \"source\" is missing (the tool's source text; the "
				    "server never reads a file for a caller)");
	return 0;
}

/* "stdin_base64": the script's stdin as bytes, any bytes. */
static int parse_stdin64(const char *raw, size_t request_max, struct tc_serve_request *r,
			 struct tc_error *err)
{
	size_t len = strlen(raw);
	int ret;

	/* base64 has no escapes: the raw string's text is the encoding */
	if (len < 2 || raw[0] != '"' || memchr(raw + 1, '\\', len - 2))
		ret = -EINVAL;
	else if ((len - 2) / 4 * 3 > request_max + 2)
		return tc_error_set(err, STAGE, E2BIG,
				    "request: \"stdin_base64\" is longer than the %zu-byte limit",
				    request_max);
	else
		ret = tc_base64_decode(raw + 1, len - 2, &r->input, &r->input_len);
	if (ret == -ENOMEM)
		return tc_error_set(err, STAGE, ENOMEM, "request: out of memory");
	if (ret < 0)
		return tc_error_set(err, STAGE, EINVAL,
				    "request: \"stdin_base64\" must be a base64 string (RFC 4648, "
				    "padded)");
	if (r->input_len > request_max)
		return tc_error_set(err, STAGE, E2BIG,
				    "request: \"stdin_base64\" is longer than the %zu-byte limit",
				    request_max);
	return 0;
}

static int parse_members(char **m, const char *unknown, size_t max_bytes, const uint64_t *ceiling,
			 struct tc_serve_request *r, struct tc_error *err)
{
	size_t request_max = ceiling[TC_LIMIT_REQUEST];
	int ret = parse_kind(m[R_KIND], r, err);

	if (ret >= 0)
		ret = check_members(m, r->kind, unknown, err);
	if (ret < 0 || r->kind == TC_SERVE_STATS)
		return ret;
	if (r->kind == TC_SERVE_SESSION) {
		r->allow_imports = TAKE_PTR(m[R_ALLOW_IMPORTS]);
		r->default_imports = TAKE_PTR(m[R_DEFAULT_IMPORTS]);
		return tc_serve_limits_parse(m[R_LIMITS], m[R_TIMEOUT], max_bytes, ceiling, r, err);
	}
	ret = decode_string(m[R_SOURCE], "source", request_max, &r->source, &r->source_len, err);
	if (ret >= 0 && m[R_NAME])
		ret = parse_name(m[R_NAME], r, err);
	if (ret >= 0)
		ret = tc_serve_limits_parse(m[R_LIMITS], m[R_TIMEOUT], max_bytes, ceiling, r, err);
	if (ret >= 0 && m[R_ARGV])
		ret = parse_argv(m[R_ARGV], r, err);
	if (ret >= 0 && m[R_STDIN])
		ret = decode_string(m[R_STDIN], "stdin", request_max, &r->input, &r->input_len,
				    err);
	if (ret >= 0 && m[R_STDIN64])
		ret = parse_stdin64(m[R_STDIN64], request_max, r, err);
	if (ret >= 0 && r->kind == TC_SERVE_CALL) {
		r->input_len = m[R_ARGS] ? strlen(m[R_ARGS]) : 4;
		if (r->input_len > request_max)
			return tc_error_set(err, STAGE, E2BIG,
					    "request: \"args\" is larger than the %zu-byte limit",
					    request_max);
		r->input = strdup(m[R_ARGS] ? m[R_ARGS] : "null");
		if (!r->input)
			return tc_error_set(err, STAGE, ENOMEM, "request: out of memory");
	}
	return ret;
}

int tc_serve_request_parse(const char *line, size_t len, size_t max_bytes,
			   const uint64_t ceiling[TC_LIMIT__MAX], struct tc_serve_request *ret,
			   struct tc_error *err)
{
	char *m[R__MAX] = { 0 }, unknown[TC_JSON_KEY_SHOWN_MAX + 4];
	int r, has_unknown;

	*ret = (struct tc_serve_request){ .limit_ms = ceiling[TC_LIMIT_WALL]
							      ? ceiling[TC_LIMIT_WALL]
							      : 1 };
	memcpy(ret->limit, ceiling, sizeof(ret->limit));
	ret->limit[TC_LIMIT_WALL] = ret->limit_ms;
	snprintf(ret->name, sizeof(ret->name), "tool.py");
	has_unknown = tc_json_members_known(line, len, max_bytes, STAGE, request_keys, R__MAX, m,
					    unknown, err);
	if (has_unknown < 0)
		return has_unknown;
	r = 0;
	/* the id comes back in every answer: a string or a number only */
	if (m[R_ID] &&
	    (m[R_ID][0] == '"' || m[R_ID][0] == '-' || (m[R_ID][0] >= '0' && m[R_ID][0] <= '9')))
		ret->id = TAKE_PTR(m[R_ID]);
	else if (m[R_ID])
		r = tc_error_set(err, STAGE, EINVAL,
				 "request: \"id\" must be a string or a number");
	if (r >= 0)
		r = parse_members(m, has_unknown ? unknown : NULL, max_bytes, ceiling, ret, err);
	for (size_t i = 0; i < R__MAX; i++)
		free(m[i]);
	return r;
}

void tc_serve_request_release(struct tc_serve_request *r)
{
	free(r->id);
	free(r->source);
	free(r->input);
	free(r->allow_imports);
	free(r->default_imports);
	for (size_t i = 0; i < r->argc; i++)
		free(r->argv[i]);
	memset(r, 0, sizeof(*r));
}

/* ---- the policy's "serve" section ---- */

/* 1 when serve.key is an array of at most max items, 0 when it is absent,
 * else -errno with err naming what it should hold. */
static int serve_list(const cJSON *list, const char *origin, const char *key, const char *items,
		      int max, struct tc_error *err)
{
	if (!list)
		return 0;
	if (!cJSON_IsArray(list))
		return tc_error_set(err, TC_STAGE_POLICY, EINVAL,
				    "%s: serve.%s: expected an array of %s", origin, key, items);
	if (cJSON_GetArraySize(list) > max)
		return tc_error_set(err, TC_STAGE_POLICY, E2BIG, "%s: serve.%s: more than %d %s",
				    origin, key, max, items);
	return 1;
}

static int id_list(const cJSON *list, const char *key, const char *origin, uint32_t *ids, size_t *n,
		   struct tc_error *err)
{
	int r = serve_list(list, origin, key, "ids", TC_SERVE_IDS_MAX, err);
	const cJSON *it;

	cJSON_ArrayForEach(it, (r > 0 ? list : NULL))
	{
		double v = it->valuedouble;
		if (!cJSON_IsNumber(it) || v < 0 || v > 4294967294.0 || v != (double)(uint32_t)v)
			return tc_error_set(err, TC_STAGE_POLICY, EINVAL,
					    "%s: serve.%s: expected ids from 0 to 4294967294",
					    origin, key);
		ids[(*n)++] = (uint32_t)v;
	}
	return r < 0 ? r : 0;
}

static bool module_name(const char *s)
{
	bool start = true;

	if (!*s)
		return false;
	for (; *s; s++) {
		bool alpha = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_';
		if (*s == '.' && !start) {
			start = true;
			continue;
		}
		if (!alpha && (start || !(*s >= '0' && *s <= '9')))
			return false;
		start = false;
	}
	return !start;
}

static int preimport_list(const cJSON *list, const char *origin, struct tc_serve_policy *p,
			  struct tc_error *err)
{
	int r = serve_list(list, origin, "preimport", "module names", TC_SERVE_IMPORTS_MAX, err);
	const cJSON *it;

	p->has_preimport = r > 0;
	cJSON_ArrayForEach(it, (r > 0 ? list : NULL))
	{
		const char *s = cJSON_GetStringValue(it);
		if (!s || strlen(s) >= sizeof(p->preimport[0]) || !module_name(s))
			return tc_error_set(err, TC_STAGE_POLICY, EINVAL,
					    "%s: serve.preimport: expected module names such as "
					    "\"json\" or \"os.path\"",
					    origin);
		snprintf(p->preimport[p->n_preimport++], sizeof(p->preimport[0]), "%s", s);
	}
	return r < 0 ? r : 0;
}

/* A whole number from min to max at key (left out: *ret stays as it is). */
static int serve_number(const cJSON *root, const char *key, const char *origin, unsigned min,
			unsigned max, unsigned *ret, struct tc_error *err)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(root, key);
	double v = it ? it->valuedouble : 0;

	if (!it)
		return 0;
	if (!cJSON_IsNumber(it) || v < min || v > max || v != (double)(unsigned)v)
		return tc_error_set(err, TC_STAGE_POLICY, EINVAL,
				    "%s: serve.%s: expected a whole number from %u to %u", origin,
				    key, min, max);
	*ret = (unsigned)v;
	return 0;
}

int tc_serve_policy_parse(const char *json, const char *origin, struct tc_serve_policy *ret,
			  struct tc_error *err)
{
	static const char *const keys[] = { "allow_uids", "allow_gids", "preimport",
					    "sessions_per_uid", "session_idle_s" };
	cJSON *root, *it;
	int r = 0;

	memset(ret, 0, sizeof(*ret));
	ret->sessions_per_uid = TC_SERVE_SESSIONS_UID;
	ret->session_idle_s = TC_SERVE_IDLE_S;
	if (!json)
		return 0;
	root = cJSON_Parse(json);
	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		return tc_error_set(err, TC_STAGE_POLICY, EINVAL, "%s: serve: expected an object",
				    origin);
	}
	cJSON_ArrayForEach(it, root)
	{
		size_t i = 0;
		while (i < TC_ARRAY_SIZE(keys) && strcmp(it->string, keys[i]))
			i++;
		if (i == TC_ARRAY_SIZE(keys)) {
			r = tc_error_set(err, TC_STAGE_POLICY, EINVAL,
					 "%s: serve.%s: unknown key (known: allow_uids, "
					 "allow_gids, preimport, sessions_per_uid, "
					 "session_idle_s)",
					 origin, it->string);
			break;
		}
	}
	ret->present = true;
	ret->has_lists = cJSON_GetObjectItemCaseSensitive(root, "allow_uids") ||
			 cJSON_GetObjectItemCaseSensitive(root, "allow_gids");
	if (r >= 0)
		r = id_list(cJSON_GetObjectItemCaseSensitive(root, "allow_uids"), "allow_uids",
			    origin, ret->allow_uids, &ret->n_allow_uids, err);
	if (r >= 0)
		r = id_list(cJSON_GetObjectItemCaseSensitive(root, "allow_gids"), "allow_gids",
			    origin, ret->allow_gids, &ret->n_allow_gids, err);
	if (r >= 0)
		r = preimport_list(cJSON_GetObjectItemCaseSensitive(root, "preimport"), origin, ret,
				   err);
	if (r >= 0)
		r = serve_number(root, "sessions_per_uid", origin, 0, TC_SERVE_SANDBOXES_MAX,
				 &ret->sessions_per_uid, err);
	if (r >= 0)
		r = serve_number(root, "session_idle_s", origin, 1, TC_SERVE_IDLE_S_MAX,
				 &ret->session_idle_s, err);
	cJSON_Delete(root);
	return r;
}

static bool gid_listed(const struct tc_serve_policy *p, gid_t gid)
{
	for (size_t i = 0; i < p->n_allow_gids; i++)
		if (p->allow_gids[i] == gid)
			return true;
	return false;
}

bool tc_serve_peer_allowed(const struct tc_serve_policy *p, uid_t self, uid_t uid, gid_t gid,
			   const gid_t *groups, size_t n)
{
	if (!p->has_lists)
		return uid == self;
	for (size_t i = 0; i < p->n_allow_uids; i++)
		if (p->allow_uids[i] == uid)
			return true;
	if (gid_listed(p, gid))
		return true;
	for (size_t i = 0; i < n; i++)
		if (gid_listed(p, groups[i]))
			return true;
	return false;
}
