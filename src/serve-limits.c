/* `toolcell serve`'s per-call limits (see serve.h): a request's "limits"
 * object (and its older "timeout_s") read in the policy's units and names,
 * held to toolcell's range, and applied only downwards: a value above the
 * server's own limit is clamped to it, and the answer says so. Pure; runs
 * in the parent. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "json.h"
#include "serve.h"
#include "util.h"

#define STAGE TC_STAGE_REQUEST

bool tc_serve_limit_per_call(enum tc_limit_id id)
{
	switch (id) {
	case TC_LIMIT_WALL:	  /* the server's deadline, from dispatch */
	case TC_LIMIT_STDOUT:	  /* the server's cap on what it reads */
	case TC_LIMIT_STDERR:	  /* likewise */
	case TC_LIMIT_MEMORY:	  /* RLIMIT_AS, set by the harness before the tool runs */
	case TC_LIMIT_CPU_TIME:	  /* RLIMIT_CPU, from what the warm-up used */
	case TC_LIMIT_FILE_SIZE:  /* RLIMIT_FSIZE */
	case TC_LIMIT_OPEN_FILES: /* RLIMIT_NOFILE */
		return true;
	case TC_LIMIT_CPUS:
	case TC_LIMIT_PIDS:
	case TC_LIMIT_TMP:
	case TC_LIMIT_TMP_INODES:
	case TC_LIMIT_SHM:
	case TC_LIMIT_REQUEST:
	case TC_LIMIT_WORKSPACE:
	case TC_LIMIT_WORKSPACE_FILES:
	case TC_LIMIT__MAX:
		break;
	}
	return false;
}

/* One value, raw JSON: a number in the limit's unit (seconds, bytes, a
 * count), or for a size also a string such as "128M". */
static int limit_value(enum tc_limit_id id, const char *raw, const uint64_t *ceiling,
		       struct tc_serve_request *r, struct tc_error *err)
{
	const struct tc_limit_info *li = &tc_limit_info[id];
	const struct tc_unit_info *u = &tc_unit_info[li->unit];
	char text[64], bound[32];
	size_t n = strlen(raw);
	uint64_t v = 0;
	int ret = -EINVAL;

	/* a string is taken for sizes only, and its text must be plain */
	if (raw[0] == '"' && li->unit == TC_UNIT_BYTES && n - 2 < sizeof(text) &&
	    !memchr(raw + 1, '\\', n - 2)) {
		memcpy(text, raw + 1, n - 2);
		text[n - 2] = '\0';
		ret = u->parse(text, &v);
	} else if (raw[0] != '"' && n < sizeof(text)) {
		ret = u->parse(raw, &v);
	}
	if (ret == -EINVAL)
		return tc_error_set(err, STAGE, EINVAL, "request: limits.%s: expected %s", li->name,
				    li->unit == TC_UNIT_BYTES ? u->policy_value : u->expected);
	if (ret < 0 || v > li->max) {
		tc_limit_format(li->unit, li->max, true, bound, sizeof(bound));
		return tc_error_set(err, STAGE, EINVAL,
				    "request: limits.%s: above toolcell's maximum of %s", li->name,
				    bound);
	}
	if (v < li->min) {
		tc_limit_format(li->unit, li->min, true, bound, sizeof(bound));
		return tc_error_set(err, STAGE, EINVAL,
				    "request: limits.%s: below toolcell's minimum of %s", li->name,
				    bound);
	}
	r->asked[id] = true;
	r->clamped[id] = v > ceiling[id];
	r->limit[id] = v > ceiling[id] ? ceiling[id] : v;
	return 0;
}

/* The names of the limits a call may set, for a message. */
static void per_call_names(char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < TC_LIMIT__MAX && used < n; i++)
		if (tc_serve_limit_per_call((enum tc_limit_id)i))
			used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? ", " : "",
						 tc_limit_info[i].name);
}

static int unknown_keys(const char *raw, struct tc_error *err)
{
	cJSON *obj = cJSON_Parse(raw), *it;
	char names[160];
	int ret = 0;

	if (!cJSON_IsObject(obj)) {
		cJSON_Delete(obj);
		return tc_error_set(err, STAGE, EINVAL, "request: \"limits\" must be an object");
	}
	per_call_names(names, sizeof(names));
	cJSON_ArrayForEach(it, obj)
	{
		int i = 0;

		while (i < TC_LIMIT__MAX && strcmp(it->string, tc_limit_info[i].name))
			i++;
		if (i == TC_LIMIT__MAX)
			ret = tc_error_set(
				err, STAGE, EINVAL,
				"request: limits: unknown limit \"%.64s\" (a call may set "
				"%s)",
				it->string, names);
		else if (!tc_serve_limit_per_call((enum tc_limit_id)i))
			ret = tc_error_set(
				err, STAGE, EINVAL,
				"request: limits.%s cannot be set per call: a pool entry "
				"is built with it (a call may set %s; the server's "
				"policy sets the rest)",
				it->string, names);
		if (ret < 0)
			break;
	}
	cJSON_Delete(obj);
	return ret;
}

int tc_serve_limits_parse(const char *raw, const char *timeout_s, size_t max_bytes,
			  const uint64_t *ceiling, struct tc_serve_request *r, struct tc_error *err)
{
	const char *keys[TC_LIMIT__MAX];
	char *m[TC_LIMIT__MAX] = { 0 };
	int ret = 0;

	memcpy(r->limit, ceiling, sizeof(r->limit));
	if (timeout_s)
		ret = limit_value(TC_LIMIT_WALL, timeout_s, ceiling, r, err);
	if (ret < 0 && timeout_s)
		ret = tc_error_set(err, STAGE, EINVAL,
				   "request: \"timeout_s\" must be a number above 0 (seconds; the "
				   "server's limit is %.3f s)",
				   (double)ceiling[TC_LIMIT_WALL] / 1000);
	if (ret < 0 || !raw)
		goto out;
	ret = unknown_keys(raw, err);
	for (int i = 0; i < TC_LIMIT__MAX; i++)
		keys[i] = tc_limit_info[i].name;
	if (ret >= 0)
		ret = tc_json_members(raw, strlen(raw), max_bytes, STAGE, keys, TC_LIMIT__MAX, m,
				      err);
	if (ret >= 0 && timeout_s && m[TC_LIMIT_WALL])
		ret = tc_error_set(err, STAGE, EINVAL,
				   "request: \"timeout_s\" and limits.timeout are the same limit: "
				   "give one");
	for (int i = 0; ret >= 0 && i < TC_LIMIT__MAX; i++)
		if (m[i])
			ret = limit_value((enum tc_limit_id)i, m[i], ceiling, r, err);
	for (int i = 0; i < TC_LIMIT__MAX; i++)
		free(m[i]);
out:
	r->limit_ms = r->limit[TC_LIMIT_WALL] ? r->limit[TC_LIMIT_WALL] : 1;
	r->limit[TC_LIMIT_WALL] = r->limit_ms;
	return ret;
}
