/* The policy's "limits" and "max" sections: each limit read in its unit
 * (a size, a count, seconds or CPUs), held to toolcell's range, a missing
 * one given the built-in default, a ceiling never below its limit; and
 * both printed back in the same spelling. Pure; runs in the parent before
 * clone. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "policy-internal.h"
#include "util.h"

static int limit_value(const struct parse_ctx *c, const char *path, enum tc_limit_id id,
		       const cJSON *v, uint64_t *ret)
{
	const struct tc_limit_info *li = &tc_limit_info[id];
	char got[SHOWN_STRING_MAX + 8], bound[32];
	int r;

	if (li->unit == TC_UNIT_BYTES && cJSON_IsString(v))
		r = tc_parse_size(v->valuestring, ret);
	else
		r = tc_policy_number(v, li->unit == TC_UNIT_MS || li->unit == TC_UNIT_MILLICPU,
				     ret);
	if (r == -EINVAL)
		return tc_policy_expect(c, path, tc_unit_info[li->unit].policy_value, v);
	if (r == 0)
		tc_limit_format(li->unit, *ret, true, got, sizeof(got));
	else
		tc_policy_describe(v, got, sizeof(got));
	if (r < 0 || *ret > li->max) {
		tc_limit_format(li->unit, li->max, true, bound, sizeof(bound));
		return tc_policy_err(c, path, "%s is above toolcell's maximum of %s", got, bound);
	}
	if (*ret < li->min) {
		tc_limit_format(li->unit, li->min, true, bound, sizeof(bound));
		return tc_policy_err(c, path, "%s is below toolcell's minimum of %s", got, bound);
	}
	return 0;
}

/* "limits" or "max": any subset of the limit keys. */
static int parse_limits(const struct parse_ctx *c, const cJSON *obj, const char *section,
			uint64_t *vals, bool *set)
{
	const char *keys[TC_LIMIT__MAX];
	const cJSON *items[TC_LIMIT__MAX];
	char sub[KEY_PATH_MAX];
	size_t i;
	int r;

	for (i = 0; i < TC_LIMIT__MAX; i++)
		keys[i] = tc_limit_info[i].name;
	r = tc_policy_fields(c, obj, section, keys, TC_LIMIT__MAX, items);
	if (r < 0)
		return r;
	for (i = 0; i < TC_LIMIT__MAX; i++) {
		if (!items[i])
			continue;
		tc_policy_key(sub, sizeof(sub), section, keys[i]);
		r = limit_value(c, sub, (enum tc_limit_id)i, items[i], &vals[i]);
		if (r < 0)
			return r;
		set[i] = true;
	}
	return 0;
}

/* Limits and their ceilings together: a missing limit takes the built-in
 * default, a missing ceiling the limit, and a ceiling below its limit is
 * a mistake worth refusing. */
int tc_policy_parse_limits(const struct parse_ctx *c, const cJSON *limits, const cJSON *max,
			   struct tc_policy *p)
{
	bool set[TC_LIMIT__MAX] = { false }, max_set[TC_LIMIT__MAX] = { false };
	char a[32], b[32], sub[KEY_PATH_MAX];
	size_t i;
	int r;

	for (i = 0; i < TC_LIMIT__MAX; i++)
		p->limit[i] = tc_limit_info[i].def;
	if (limits && (r = parse_limits(c, limits, "limits", p->limit, set)) < 0)
		return r;
	if (max && (r = parse_limits(c, max, "max", p->limit_max, max_set)) < 0)
		return r;
	for (i = 0; i < TC_LIMIT__MAX; i++) {
		const struct tc_limit_info *li = &tc_limit_info[i];
		if (!max_set[i])
			p->limit_max[i] = p->limit[i];
		if (p->limit_max[i] >= p->limit[i])
			continue;
		tc_limit_format(li->unit, p->limit_max[i], true, a, sizeof(a));
		tc_limit_format(li->unit, p->limit[i], true, b, sizeof(b));
		tc_policy_key(sub, sizeof(sub), "max", li->name);
		return tc_policy_err(
			c, sub,
			"%s is below the limit of %s (limits.%s%s); a ceiling cannot be lower", a,
			b, li->name, set[i] ? "" : ", toolcell's default");
	}
	return 0;
}

static cJSON *limit_to_json(enum tc_limit_id id, uint64_t v)
{
	char buf[32];

	switch (tc_limit_info[id].unit) {
	case TC_UNIT_BYTES:
		if (v % 1024)
			return cJSON_CreateNumber((double)v);
		tc_limit_format(TC_UNIT_BYTES, v, true, buf, sizeof(buf));
		return cJSON_CreateString(buf);
	case TC_UNIT_COUNT:
		return cJSON_CreateNumber((double)v);
	case TC_UNIT_MS:
	case TC_UNIT_MILLICPU:
		return cJSON_CreateNumber((double)v / 1000.0);
	}
	return NULL;
}

cJSON *tc_policy_limits_to_json(const uint64_t *v)
{
	cJSON *o = cJSON_CreateObject();
	size_t i;

	for (i = 0; o && i < TC_LIMIT__MAX; i++) {
		if (!tc_json_add(NULL, o, tc_limit_info[i].name,
				 limit_to_json((enum tc_limit_id)i, v[i]))) {
			cJSON_Delete(o);
			return NULL;
		}
	}
	return o;
}
