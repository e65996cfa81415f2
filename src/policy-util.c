/* The policy parser's shared helpers (see policy-internal.h): refusals
 * that name the file, the key path and what was expected, objects with a
 * fixed set of keys, whole numbers read exactly, and adding to a cJSON
 * tree. Pure; runs in the parent before clone. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "policy-internal.h"
#include "util.h"

int tc_policy_err(const struct parse_ctx *c, const char *path, const char *fmt, ...)
{
	char msg[TC_ERROR_MESSAGE_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (path)
		return tc_error_set(c->err, STAGE, EINVAL, "%s: %s: %s", c->origin, path, msg);
	return tc_error_set(c->err, STAGE, EINVAL, "%s: %s", c->origin, msg);
}

int tc_policy_oom(struct tc_error *err)
{
	return tc_error_set(err, STAGE, ENOMEM, "out of memory");
}

/* Copy s for a message: printable ASCII kept, anything else as '?', cut at
 * max characters with "..." appended. */
void tc_policy_shown(char *out, size_t n, const char *s, size_t max)
{
	size_t i;

	for (i = 0; i < max && i + 4 < n && s[i]; i++)
		out[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	if (s[i] && i + 4 <= n) {
		memcpy(out + i, "...", 3);
		i += 3;
	}
	out[i] = '\0';
}

/* What a bad value was, for "expected X, got Y". */
void tc_policy_describe(const cJSON *v, char *buf, size_t n)
{
	char s[SHOWN_STRING_MAX + 4];
	char *num;

	if (cJSON_IsString(v)) {
		tc_policy_shown(s, sizeof(s), v->valuestring, SHOWN_STRING_MAX);
		snprintf(buf, n, "\"%s\"", s);
	} else if (cJSON_IsNumber(v)) {
		/* cJSON prints with '.' whatever the locale */
		num = tc_json_print(v, false);
		snprintf(buf, n, "%s", num ? num : "a number");
		free(num);
	} else if (cJSON_IsTrue(v)) {
		snprintf(buf, n, "true");
	} else if (cJSON_IsFalse(v)) {
		snprintf(buf, n, "false");
	} else if (cJSON_IsNull(v)) {
		snprintf(buf, n, "null");
	} else if (cJSON_IsArray(v)) {
		snprintf(buf, n, "an array");
	} else {
		snprintf(buf, n, "an object");
	}
}

int tc_policy_expect(const struct parse_ctx *c, const char *path, const char *what, const cJSON *v)
{
	char got[SHOWN_STRING_MAX + 8];

	tc_policy_describe(v, got, sizeof(got));
	return tc_policy_err(c, path, "expected %s, got %s", what, got);
}

void tc_policy_key(char *buf, size_t n, const char *parent, const char *key)
{
	char k[SHOWN_STRING_MAX + 4];

	tc_policy_shown(k, sizeof(k), key, SHOWN_STRING_MAX);
	if (parent)
		snprintf(buf, n, "%s.%s", parent, k);
	else
		snprintf(buf, n, "%s", k);
}

/* Collect the members of an object whose keys are fixed: ret[i] is the
 * member named keys[i] or NULL. An unknown key is refused; a repeated one
 * never gets here (the strict scan refused the file, naming its path). */
int tc_policy_fields(const struct parse_ctx *c, const cJSON *obj, const char *path,
		     const char *const *keys, size_t n_keys, const cJSON **ret)
{
	char sub[KEY_PATH_MAX], known[TC_ERROR_MESSAGE_MAX];
	const cJSON *it;
	size_t i, off;

	if (!cJSON_IsObject(obj))
		return path ? tc_policy_expect(c, path, "an object", obj)
			    : tc_policy_expect(c, path, "a JSON object at the top level", obj);
	memset(ret, 0, n_keys * sizeof(*ret));
	cJSON_ArrayForEach(it, obj)
	{
		for (i = 0; i < n_keys && strcmp(keys[i], it->string); i++)
			;
		tc_policy_key(sub, sizeof(sub), path, it->string);
		if (i == n_keys) {
			for (i = 0, off = 0; i < n_keys && off < sizeof(known); i++)
				off += (size_t)snprintf(known + off, sizeof(known) - off, "%s%s",
							i ? ", " : "", keys[i]);
			return tc_policy_err(c, sub, "unknown key (known: %s)", known);
		}
		ret[i] = it;
	}
	return 0;
}

int tc_policy_number(const cJSON *v, bool thousandths, uint64_t *ret)
{
	double d = cJSON_IsNumber(v) ? v->valuedouble : -1;

	if (!(d >= 0))
		return -EINVAL; /* not a number, negative, or NaN */
	if (thousandths) {
		/* rounded to millionths first, which recovers the decimal the
		 * file wrote (up to 6 digits after the point) from its binary
		 * approximation */
		if (d > 1e9)
			return -ERANGE;
		*ret = ((uint64_t)(d * 1e6 + 0.5) + 999) / 1000;
		return 0;
	}
	if (d >= 18446744073709551616.0)
		return -ERANGE;
	if ((double)(uint64_t)d != d)
		return -EINVAL;
	*ret = (uint64_t)d;
	return 0;
}
