/* Policy files: parse and validate the operator's JSON ceiling (pure:
 * bytes in, struct out), print the effective policy back as a policy file,
 * merge a caller's overrides into a struct tc_config under the policy's
 * ceilings, and load one file with a size cap and its sha256. Every refusal
 * names the file, the key path or option, and what was expected. Runs in
 * the parent before clone; policies/README.md documents the schema. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "env.h"
#include "json.h"
#include "policy-internal.h"
#include "policy.h"
#include "serve.h"
#include "sha256.h"
#include "util.h"

#define HOSTNAME_MAX 63
/* 0x70000000: far above the ranges /etc/subuid usually hands out */
#define UID_RANGE_START	  UINT32_C(1879048192)
#define UID_RANGE_COUNT	  UINT32_C(65536)
#define UID_RANGE_END_MAX UINT64_C(4294967294) /* start + count; (uid_t)-1 is never valid */

enum top_key {
	K_VERSION,
	K_DESCRIPTION,
	K_NETWORK,
	K_HOSTNAME,
	K_LIMITS,
	K_MAX,
	K_ALLOW,
	K_ENV,
	K_PASS_ENV,
	K_BINDS,
	K_UID_RANGE,
	K_REQUIRE,
	K_SECCOMP,
	K_CGROUP_PARENT,
	K_SESSION,
	K_ROOTFS,
	K_PROGRAMS,
	K_WARN_ENV,
	K_WORKSPACE_APPLY,
	K_SERVE,
	K__MAX
};
static const char *const top_keys[K__MAX] = {
	"version",	   "description",   "network",
	"hostname",	   "limits",	    "max",
	"allow",	   "env",	    "pass_env",
	"binds",	   "uid_range",	    "require",
	"seccomp",	   "cgroup_parent", "session",
	"rootfs",	   "programs",	    "warn_env_not_passed",
	"workspace_apply", "serve"
};
static const char *const allow_keys[] = { "ro_bind",  "bind",	       "workspace", "env",
					  "pass_env", "cgroup_parent", "rootfs" };
#define ALLOW_BOOLS (TC_ARRAY_SIZE(allow_keys) - 1) /* "rootfs", the last, is a list */
static const char *const bind_keys[] = { "host", "inside", "writable" };
static const char *const uid_keys[] = { "start", "count" };
static const char *const require_keys[] = { "cgroup2", "landlock" };
#define LANDLOCK_ABI_MAX 255 /* a sanity bound on require.landlock */

/* Bind targets the host side may never name: these and everything beneath
 * them, then these exactly (a home root holds every user's files). */
static const char *const host_refused_tree[] = { "/proc", "/sys", "/dev", "/run" };
static const char *const host_refused_exact[] = { "/home", "/root" };
/* Inside paths the launcher itself mounts or relies on: these and
 * everything beneath them, then these exactly (a bind below /tmp is
 * mounted on the sandbox's own /tmp, but not over it). */
static const char *const inside_refused_tree[] = { "/usr",	  "/etc",   "/proc",
						   "/dev",	  "/bin",   "/sbin",
						   "/lib",	  "/lib64", WORKSPACE_INSIDE,
						   "/tmp/pycache" };
static const char *const inside_refused_exact[] = { "/tmp" };

int perr(const struct parse_ctx *c, const char *path, const char *fmt, ...)
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

int oom(struct tc_error *err)
{
	return tc_error_set(err, STAGE, ENOMEM, "out of memory");
}

/* Copy s for a message: printable ASCII kept, anything else as '?', cut at
 * max characters with "..." appended. */
void shown(char *out, size_t n, const char *s, size_t max)
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
static void describe(const cJSON *v, char *buf, size_t n)
{
	char s[SHOWN_STRING_MAX + 4];
	char *num;

	if (cJSON_IsString(v)) {
		shown(s, sizeof(s), v->valuestring, SHOWN_STRING_MAX);
		snprintf(buf, n, "\"%s\"", s);
	} else if (cJSON_IsNumber(v)) {
		/* cJSON prints with '.' whatever the locale */
		num = cJSON_PrintUnformatted(v);
		snprintf(buf, n, "%s", num ? num : "a number");
		cJSON_free(num);
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

int expect(const struct parse_ctx *c, const char *path, const char *what, const cJSON *v)
{
	char got[SHOWN_STRING_MAX + 8];

	describe(v, got, sizeof(got));
	return perr(c, path, "expected %s, got %s", what, got);
}

void path_key(char *buf, size_t n, const char *parent, const char *key)
{
	char k[SHOWN_STRING_MAX + 4];

	shown(k, sizeof(k), key, SHOWN_STRING_MAX);
	if (parent)
		snprintf(buf, n, "%s.%s", parent, k);
	else
		snprintf(buf, n, "%s", k);
}

/* The strict scan (json.h) before cJSON sees the bytes: no NUL byte, valid
 * UTF-8, no BOM, RFC 8259 syntax (no leading zeros, no raw control
 * characters in strings, no lone surrogate escapes), no "\u0000" escape
 * (cJSON would silently cut the string there), nesting at most
 * TC_JSON_DEPTH_MAX and no key twice in one object: a policy is held to
 * the JSON a tool's response is held to. */
static int json_scan(const struct parse_ctx *c, const char *json, size_t len)
{
	_cleanup_scan_ struct tc_json_scan s = { 0 };
	const char *nul = len ? memchr(json, '\0', len) : NULL;
	char path[KEY_PATH_MAX];
	size_t i, line = 1;

	if (nul)
		return perr(c, NULL, "NUL byte at byte %zu; a policy is JSON text",
			    (size_t)(nul - json));
	if (tc_json_scan(json, len, TC_JSON_NO_NUL, &s) == 0)
		return 0;
	for (i = 0; i < s.at && i < len; i++)
		line += json[i] == '\n';
	switch (s.fault) {
	case TC_JSON_FAULT_UTF8:
		return perr(c, NULL, "invalid UTF-8 at byte %zu", s.at);
	case TC_JSON_FAULT_BOM:
		return perr(c, NULL,
			    "invalid JSON near byte 0 (line 1): a byte order mark (save the file "
			    "as UTF-8 without one)");
	case TC_JSON_FAULT_DEPTH:
		return perr(c, NULL, "nesting deeper than %d levels at byte %zu", TC_JSON_DEPTH_MAX,
			    s.at);
	case TC_JSON_FAULT_NUL_ESCAPE:
		return perr(c, NULL, "\\u0000 at byte %zu; strings cannot hold NUL", s.at);
	case TC_JSON_FAULT_DUPLICATE:
		tc_json_path(&s, s.dup, path, sizeof(path));
		return perr(c, path, "duplicate key");
	case TC_JSON_FAULT_NOMEM:
		return oom(c->err);
	case TC_JSON_FAULT_NONE:
	case TC_JSON_FAULT_EMPTY:
	case TC_JSON_FAULT_SYNTAX:
	case TC_JSON_FAULT_END:
	case TC_JSON_FAULT_EXTRA:
		break;
	}
	return perr(c, NULL, "invalid JSON near byte %zu (line %zu)", s.at, line);
}

/* Collect the members of an object whose keys are fixed: ret[i] is the
 * member named keys[i] or NULL. Unknown and repeated keys are refused. */
int object_fields(const struct parse_ctx *c, const cJSON *obj, const char *path,
		  const char *const *keys, size_t n_keys, const cJSON **ret)
{
	char sub[KEY_PATH_MAX], known[TC_ERROR_MESSAGE_MAX];
	const cJSON *it;
	size_t i, off;

	if (!cJSON_IsObject(obj))
		return path ? expect(c, path, "an object", obj)
			    : expect(c, path, "a JSON object at the top level", obj);
	memset(ret, 0, n_keys * sizeof(*ret));
	cJSON_ArrayForEach(it, obj)
	{
		for (i = 0; i < n_keys && strcmp(keys[i], it->string); i++)
			;
		path_key(sub, sizeof(sub), path, it->string);
		if (i == n_keys) {
			for (i = 0, off = 0; i < n_keys && off < sizeof(known); i++)
				off += (size_t)snprintf(known + off, sizeof(known) - off, "%s%s",
							i ? ", " : "", keys[i]);
			return perr(c, sub, "unknown key (known: %s)", known);
		}
		if (ret[i])
			return perr(c, sub, "duplicate key");
		ret[i] = it;
	}
	return 0;
}

/* A JSON number that is a whole number of units, exactly. */
static int number_whole(const cJSON *v, uint64_t *ret)
{
	double d;

	if (!cJSON_IsNumber(v))
		return -EINVAL;
	d = v->valuedouble;
	if (!(d >= 0))
		return -EINVAL;
	if (d >= 18446744073709551616.0)
		return -ERANGE;
	if ((double)(uint64_t)d != d)
		return -EINVAL;
	*ret = (uint64_t)d;
	return 0;
}

/* A JSON number of seconds or CPUs in thousandths, rounded up. The double
 * is first rounded to millionths, which recovers the decimal the file
 * wrote (up to 6 digits after the point) from its binary approximation. */
static int number_thousandths(const cJSON *v, uint64_t *ret)
{
	double d;
	uint64_t micro;

	if (!cJSON_IsNumber(v))
		return -EINVAL;
	d = v->valuedouble;
	if (!(d >= 0))
		return -EINVAL;
	if (d > 1e9)
		return -ERANGE;
	micro = (uint64_t)(d * 1e6 + 0.5);
	*ret = (micro + 999) / 1000;
	return 0;
}

static int limit_value(const struct parse_ctx *c, const char *path, enum tc_limit_id id,
		       const cJSON *v, uint64_t *ret)
{
	const struct tc_limit_info *li = &tc_limit_info[id];
	char got[SHOWN_STRING_MAX + 8], bound[32];
	int r;

	if (li->unit == TC_UNIT_BYTES && cJSON_IsString(v))
		r = tc_parse_size(v->valuestring, ret);
	else if (li->unit == TC_UNIT_BYTES || li->unit == TC_UNIT_COUNT)
		r = number_whole(v, ret);
	else
		r = number_thousandths(v, ret);
	if (r == -EINVAL)
		return expect(c, path, tc_unit_info[li->unit].policy_value, v);
	if (r == 0)
		tc_limit_format(li->unit, *ret, true, got, sizeof(got));
	else
		describe(v, got, sizeof(got));
	if (r < 0 || *ret > li->max) {
		tc_limit_format(li->unit, li->max, true, bound, sizeof(bound));
		return perr(c, path, "%s is above toolcell's maximum of %s", got, bound);
	}
	if (*ret < li->min) {
		tc_limit_format(li->unit, li->min, true, bound, sizeof(bound));
		return perr(c, path, "%s is below toolcell's minimum of %s", got, bound);
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
	r = object_fields(c, obj, section, keys, TC_LIMIT__MAX, items);
	if (r < 0)
		return r;
	for (i = 0; i < TC_LIMIT__MAX; i++) {
		if (!items[i])
			continue;
		path_key(sub, sizeof(sub), section, keys[i]);
		r = limit_value(c, sub, (enum tc_limit_id)i, items[i], &vals[i]);
		if (r < 0)
			return r;
		set[i] = true;
	}
	return 0;
}

static int parse_bool(const struct parse_ctx *c, const char *path, const cJSON *v, bool *ret)
{
	if (!v)
		return 0;
	if (!cJSON_IsBool(v))
		return expect(c, path, "true or false", v);
	*ret = cJSON_IsTrue(v);
	return 0;
}

static int parse_env(const struct parse_ctx *c, const cJSON *obj, struct tc_policy *p)
{
	char sub[KEY_PATH_MAX];
	const char *why;
	const cJSON *it;
	size_t len;
	int n;

	if (!cJSON_IsObject(obj))
		return expect(c, "env", "an object of \"NAME\": \"value\" pairs", obj);
	n = cJSON_GetArraySize(obj);
	if (n > TC_MAX_ENV)
		return perr(c, "env", "%d variables; at most %d", n, TC_MAX_ENV);
	cJSON_ArrayForEach(it, obj)
	{
		path_key(sub, sizeof(sub), "env", it->string);
		len = strlen(it->string);
		why = tc_env_name_problem(it->string, len);
		if (why)
			return perr(c, sub, "%s", why);
		if (!cJSON_IsString(it))
			return expect(c, sub, "a string", it);
		if (tc_env_find(p->env, p->n_env, it->string, len) < p->n_env)
			return perr(c, sub, "duplicate key");
		p->env[p->n_env] = tc_env_entry(it->string, len, it->valuestring);
		if (!p->env[p->n_env])
			return errno == E2BIG ? perr(c, sub, "NAME=VALUE is longer than %d bytes",
						     TC_ENV_ENTRY_MAX)
					      : oom(c->err);
		p->n_env++;
	}
	return 0;
}

static int parse_pass_env(const struct parse_ctx *c, const cJSON *arr, struct tc_policy *p)
{
	char sub[KEY_PATH_MAX];
	const char *why;
	const cJSON *it;
	size_t i;
	int n;

	if (!cJSON_IsArray(arr))
		return expect(c, "pass_env", "an array of variable names", arr);
	n = cJSON_GetArraySize(arr);
	if ((size_t)n + p->n_env > TC_MAX_ENV)
		return perr(c, "pass_env", "env and pass_env name %zu variables; at most %d",
			    (size_t)n + p->n_env, TC_MAX_ENV);
	cJSON_ArrayForEach(it, arr)
	{
		snprintf(sub, sizeof(sub), "pass_env[%zu]", p->n_pass_env);
		if (!cJSON_IsString(it))
			return expect(c, sub, "a variable name", it);
		why = tc_env_name_problem(it->valuestring, strlen(it->valuestring));
		if (why)
			return expect(c, sub, "a variable name that is not TOOLCELL_*", it);
		for (i = 0; i < p->n_pass_env; i++)
			if (!strcmp(p->pass_env[i], it->valuestring))
				return perr(c, sub, "%s is listed twice", it->valuestring);
		p->pass_env[p->n_pass_env] = strdup(it->valuestring);
		if (!p->pass_env[p->n_pass_env])
			return oom(c->err);
		p->n_pass_env++;
	}
	return 0;
}

bool at_or_beneath(const char *path, const char *root)
{
	size_t n = strlen(root);

	return !strncmp(path, root, n) && (path[n] == '\0' || path[n] == '/');
}

static int why_set(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int why_set(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int tc_bind_path_check(const char *path, bool inside, char *why, size_t why_len)
{
	const char *s;
	size_t i, len = strlen(path);

	if (path[0] != '/')
		return why_set(why, why_len, "is not an absolute path");
	if (len >= TC_PATH_MAX)
		return why_set(why, why_len, "is longer than %d bytes", TC_PATH_MAX - 1);
	for (s = path; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return why_set(why, why_len, "contains a control character");
	if (!strcmp(path, "/"))
		return why_set(why, why_len,
			       inside ? "is the sandbox's root, which the launcher owns"
				      : "is the host's root");
	/* every component non-empty (no "//", no trailing "/"), not "." or ".." */
	for (s = path; s; s = strchr(s + 1, '/')) {
		const char *e = strchr(s + 1, '/');
		size_t n = e ? (size_t)(e - s - 1) : strlen(s + 1);
		if (n == 0 || (n == 1 && s[1] == '.') || (n == 2 && s[1] == '.' && s[2] == '.'))
			return why_set(why, why_len,
				       "is not normalized (no \".\" or \"..\" components, no "
				       "\"//\", no trailing \"/\")");
	}
	if (inside) {
		for (i = 0; i < TC_ARRAY_SIZE(inside_refused_tree); i++)
			if (at_or_beneath(path, inside_refused_tree[i]))
				return why_set(why, why_len,
					       "is at or beneath %s, which the launcher owns",
					       inside_refused_tree[i]);
		for (i = 0; i < TC_ARRAY_SIZE(inside_refused_exact); i++)
			if (!strcmp(path, inside_refused_exact[i]))
				return why_set(
					why, why_len,
					"is %s itself, which the launcher owns; bind below it",
					inside_refused_exact[i]);
		return 0;
	}
	for (i = 0; i < TC_ARRAY_SIZE(host_refused_tree); i++)
		if (at_or_beneath(path, host_refused_tree[i]))
			return why_set(why, why_len, "is at or beneath %s, which is never bound",
				       host_refused_tree[i]);
	for (i = 0; i < TC_ARRAY_SIZE(host_refused_exact); i++)
		if (!strcmp(path, host_refused_exact[i]))
			return why_set(why, why_len,
				       "is a home directory root; bind a folder in it");
	return 0;
}

static int parse_bind(const struct parse_ctx *c, const cJSON *obj, size_t idx, struct tc_policy *p)
{
	char path[32], sub[KEY_PATH_MAX], why[128], show[SHOWN_STRING_MAX + 4];
	struct tc_bind *b = &p->binds[p->n_binds];
	const cJSON *f[TC_ARRAY_SIZE(bind_keys)];
	size_t i;
	int r;

	snprintf(path, sizeof(path), "binds[%zu]", idx);
	r = object_fields(c, obj, path, bind_keys, TC_ARRAY_SIZE(bind_keys), f);
	if (r < 0)
		return r;
	if (!f[0])
		return perr(c, path, "missing key \"host\"");
	for (i = 0; i < 2; i++) {
		const cJSON *v = f[i] ? f[i] : f[0]; /* inside defaults to host */
		snprintf(sub, sizeof(sub), "%s.%s", path, bind_keys[i]);
		if (!cJSON_IsString(v))
			return expect(c, sub, "an absolute path", v);
		if (tc_bind_path_check(v->valuestring, i == 1, why, sizeof(why)) < 0) {
			shown(show, sizeof(show), v->valuestring, SHOWN_STRING_MAX);
			return perr(c, sub, "\"%s\"%s %s", show, f[i] ? "" : " (from host)", why);
		}
	}
	for (i = 0; i < p->n_binds; i++)
		if (!strcmp(p->binds[i].inside, f[1] ? f[1]->valuestring : f[0]->valuestring))
			return perr(c, path, "binds[%zu] already binds to the same inside path", i);
	snprintf(sub, sizeof(sub), "%s.writable", path);
	r = parse_bool(c, sub, f[2], &b->writable);
	if (r < 0)
		return r;
	b->host = strdup(f[0]->valuestring);
	b->inside = strdup(f[1] ? f[1]->valuestring : f[0]->valuestring);
	p->n_binds++; /* counted now so release frees whichever copy succeeded */
	if (!b->host || !b->inside)
		return oom(c->err);
	return 0;
}

static int parse_binds(const struct parse_ctx *c, const cJSON *arr, struct tc_policy *p)
{
	const cJSON *it;
	size_t i = 0;
	int r, n;

	if (!cJSON_IsArray(arr))
		return expect(c, "binds", "an array of {\"host\": \"/path\"} objects", arr);
	n = cJSON_GetArraySize(arr);
	if (n > TC_MAX_BINDS)
		return perr(c, "binds", "%d binds; at most %d", n, TC_MAX_BINDS);
	cJSON_ArrayForEach(it, arr)
	{
		r = parse_bind(c, it, i++, p);
		if (r < 0)
			return r;
	}
	return 0;
}

static int parse_hostname(const struct parse_ctx *c, const cJSON *v, struct tc_policy *p)
{
	const char *what = "1 to 63 letters, digits or '-'";
	size_t i, len;

	if (!cJSON_IsString(v))
		return expect(c, "hostname", what, v);
	len = strlen(v->valuestring);
	if (len == 0 || len > HOSTNAME_MAX)
		return expect(c, "hostname", what, v);
	for (i = 0; i < len; i++) {
		char ch = v->valuestring[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '-'))
			return expect(c, "hostname", what, v);
	}
	free(p->hostname);
	p->hostname = strdup(v->valuestring);
	return p->hostname ? 0 : oom(c->err);
}

static int parse_uid_range(const struct parse_ctx *c, const cJSON *obj, struct tc_policy *p)
{
	const cJSON *f[TC_ARRAY_SIZE(uid_keys)];
	uint64_t start = p->uid_base, count = p->uid_count;
	int r;

	r = object_fields(c, obj, "uid_range", uid_keys, TC_ARRAY_SIZE(uid_keys), f);
	if (r < 0)
		return r;
	if (f[0] && (number_whole(f[0], &start) < 0 || start < 1 || start >= UID_RANGE_END_MAX))
		return expect(c, "uid_range.start", "a whole number from 1 to 4294967292", f[0]);
	if (f[1] && (number_whole(f[1], &count) < 0 || count < 2 || count % 2 ||
		     count >= UID_RANGE_END_MAX))
		return expect(c, "uid_range.count", "an even whole number of at least 2", f[1]);
	if (start + count > UID_RANGE_END_MAX)
		return perr(c, "uid_range",
			    "start + count is %" PRIu64 ", above %" PRIu64
			    " (the last usable uid + 1)",
			    start + count, UID_RANGE_END_MAX);
	p->uid_base = (uint32_t)start;
	p->uid_count = (uint32_t)count;
	return 0;
}

/* allow.rootfs: false, or the variant names and absolute paths a caller may
 * name with --rootfs (rootfs.c checks the tree itself at run time). */
static int parse_allow_rootfs(const struct parse_ctx *c, const cJSON *v, struct tc_policy *p)
{
	const char *want = "false or a list of rootfs variant names and absolute paths";
	char sub[KEY_PATH_MAX];
	const cJSON *it;
	size_t i = 0;

	if (!v || cJSON_IsFalse(v))
		return 0;
	if (!cJSON_IsArray(v))
		return expect(c, "allow.rootfs", want, v);
	cJSON_ArrayForEach(it, v)
	{
		const char *s = cJSON_GetStringValue(it);

		snprintf(sub, sizeof(sub), "allow.rootfs[%zu]", i++);
		if (p->n_allow_rootfs >= TC_MAX_ROOTFS_CHOICES)
			return perr(c, "allow.rootfs", "more than %d entries",
				    TC_MAX_ROOTFS_CHOICES);
		if (!s || !(s[0] == '/' ? strlen(s) < TC_PATH_MAX : tc_rootfs_name_valid(s)))
			return expect(c, sub,
				      "a variant name such as \"data\" ([a-z0-9][a-z0-9_-]*, at "
				      "most 32) or an absolute path",
				      it);
		if (!strcmp(s, "/"))
			return perr(c, sub, "the host's root is never a rootfs");
		p->allow_rootfs[p->n_allow_rootfs] = strdup(s);
		if (!p->allow_rootfs[p->n_allow_rootfs])
			return oom(c->err);
		p->n_allow_rootfs++;
	}
	return 0;
}

static int parse_allow(const struct parse_ctx *c, const cJSON *obj, struct tc_policy *p)
{
	bool *dst[ALLOW_BOOLS] = { &p->allow_ro_bind, &p->allow_bind,	  &p->allow_workspace,
				   &p->allow_env,     &p->allow_pass_env, &p->allow_cgroup_parent };
	const cJSON *f[TC_ARRAY_SIZE(allow_keys)];
	char sub[KEY_PATH_MAX];
	size_t i;
	int r;

	r = object_fields(c, obj, "allow", allow_keys, TC_ARRAY_SIZE(allow_keys), f);
	for (i = 0; r >= 0 && i < ALLOW_BOOLS; i++) {
		path_key(sub, sizeof(sub), "allow", allow_keys[i]);
		r = parse_bool(c, sub, f[i], dst[i]);
	}
	return r < 0 ? r : parse_allow_rootfs(c, f[ALLOW_BOOLS], p);
}

/* Limits and their ceilings together: a missing limit takes the built-in
 * default, a missing ceiling the limit, and a ceiling below its limit is
 * a mistake worth refusing. */
static int parse_all_limits(const struct parse_ctx *c, const cJSON *limits, const cJSON *max,
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
		path_key(sub, sizeof(sub), "max", li->name);
		return perr(c, sub,
			    "%s is below the limit of %s (limits.%s%s); a ceiling cannot be lower",
			    a, b, li->name, set[i] ? "" : ", toolcell's default");
	}
	return 0;
}

/* "programs": the bare names `run` may start in workspace mode. */
static int parse_programs(const struct parse_ctx *c, const cJSON *arr, struct tc_policy *p)
{
	char sub[KEY_PATH_MAX];
	const cJSON *it;
	size_t i = 0;

	if (!cJSON_IsArray(arr))
		return expect(c, "programs", "an array of program names", arr);
	cJSON_ArrayForEach(it, arr)
	{
		const char *name = cJSON_GetStringValue(it);
		size_t len = name ? strlen(name) : 0;

		snprintf(sub, sizeof(sub), "programs[%zu]", i++);
		if (p->n_programs >= TC_MAX_PROGRAMS)
			return perr(c, "programs", "more than %d programs", TC_MAX_PROGRAMS);
		if (!name || len == 0 || len > 64 || !strcmp(name, ".") || !strcmp(name, "..") ||
		    strspn(name,
			   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-") !=
			    len)
			return expect(c, sub, "a program's bare name such as \"cat\" (no '/')", it);
		for (size_t j = 0; j < p->n_programs; j++)
			if (!strcmp(p->programs[j], name))
				return perr(c, sub, "\"%s\" is listed twice", name);
		p->programs[p->n_programs] = strdup(name);
		if (!p->programs[p->n_programs])
			return oom(c->err);
		p->n_programs++;
	}
	return 0;
}

/* "require": what the host must have. landlock is false, true (any ABI)
 * or the lowest ABI number. */
/* "serve": checked by serve-proto.c's parser, kept as compact JSON. */
static int parse_serve(const struct parse_ctx *c, const cJSON *obj, struct tc_policy *p)
{
	struct tc_serve_policy sp;
	int r;

	p->serve_json = cJSON_PrintUnformatted(obj);
	if (!p->serve_json)
		return oom(c->err);
	r = tc_serve_policy_parse(p->serve_json, c->origin, &sp, c->err);
	return r < 0 ? r : 0;
}

static int parse_require(const struct parse_ctx *c, const cJSON *obj, struct tc_policy *p)
{
	const cJSON *f[TC_ARRAY_SIZE(require_keys)];
	uint64_t abi = 0;
	int r;

	r = object_fields(c, obj, "require", require_keys, TC_ARRAY_SIZE(require_keys), f);
	if (r >= 0)
		r = parse_bool(c, "require.cgroup2", f[0], &p->require_cgroup2);
	if (r < 0 || !f[1])
		return r;
	if (cJSON_IsBool(f[1]))
		abi = cJSON_IsTrue(f[1]) ? 1 : 0;
	else if (number_whole(f[1], &abi) < 0 || abi > LANDLOCK_ABI_MAX)
		return expect(c, "require.landlock",
			      "false, true (any Landlock ABI) or the lowest ABI number, 1 to 255",
			      f[1]);
	p->require_landlock = (unsigned)abi;
	return 0;
}

static int policy_from_json(const struct parse_ctx *c, const cJSON *root, struct tc_policy *p)
{
	const cJSON *f[K__MAX];
	int r;

	r = object_fields(c, root, NULL, top_keys, K__MAX, f);
	if (r < 0)
		return r;
	if (!f[K_VERSION])
		return perr(c, "version", "missing; a policy must say \"version\": 1");
	if (!cJSON_IsNumber(f[K_VERSION]) || f[K_VERSION]->valuedouble != 1)
		return expect(c, "version", "1 (the only policy version)", f[K_VERSION]);
	if (f[K_DESCRIPTION] && !cJSON_IsString(f[K_DESCRIPTION]))
		return expect(c, "description", "a string", f[K_DESCRIPTION]);
	if (f[K_NETWORK] &&
	    (!cJSON_IsString(f[K_NETWORK]) || strcmp(f[K_NETWORK]->valuestring, "none")))
		return expect(c, "network", "\"none\" (the only network mode in this version)",
			      f[K_NETWORK]);
	p->hostname = strdup(DEFAULT_HOSTNAME);
	if (!p->hostname)
		return oom(c->err);
	if (f[K_HOSTNAME] && (r = parse_hostname(c, f[K_HOSTNAME], p)) < 0)
		return r;
	if ((r = parse_all_limits(c, f[K_LIMITS], f[K_MAX], p)) < 0)
		return r;
	if (f[K_ALLOW] && (r = parse_allow(c, f[K_ALLOW], p)) < 0)
		return r;
	if (f[K_ENV] && (r = parse_env(c, f[K_ENV], p)) < 0)
		return r;
	if (f[K_PASS_ENV] && (r = parse_pass_env(c, f[K_PASS_ENV], p)) < 0)
		return r;
	if ((r = parse_bool(c, "warn_env_not_passed", f[K_WARN_ENV], &p->warn_env_not_passed)) < 0)
		return r;
	if (f[K_BINDS] && (r = parse_binds(c, f[K_BINDS], p)) < 0)
		return r;
	p->uid_base = UID_RANGE_START;
	p->uid_count = UID_RANGE_COUNT;
	if (f[K_UID_RANGE] && (r = parse_uid_range(c, f[K_UID_RANGE], p)) < 0)
		return r;
	if (f[K_REQUIRE] && (r = parse_require(c, f[K_REQUIRE], p)) < 0)
		return r;
	if (f[K_CGROUP_PARENT]) {
		const char *v = cJSON_GetStringValue(f[K_CGROUP_PARENT]);
		if (!v || v[0] != '/' || strlen(v) >= TC_PATH_MAX)
			return expect(c, "cgroup_parent",
				      "the absolute path of a delegated cgroup v2 directory",
				      f[K_CGROUP_PARENT]);
		p->cgroup_parent = strdup(v);
		if (!p->cgroup_parent)
			return oom(c->err);
	}
	if (f[K_SESSION] && (r = parse_session(c, f[K_SESSION], p)) < 0)
		return r;
	if (f[K_ROOTFS]) {
		const char *v = cJSON_GetStringValue(f[K_ROOTFS]);
		if (!v || !tc_rootfs_name_valid(v))
			return expect(
				c, "rootfs",
				"\"default\", \"workspace\" (the rootfs with toolcell-utils) "
				"or a variant's name such as \"data\" ([a-z0-9][a-z0-9_-]*, at "
				"most 32; built by 'toolcell rootfs build --name NAME')",
				f[K_ROOTFS]);
		if (strcmp(v, "default") && !(p->rootfs_name = strdup(v)))
			return oom(c->err);
	}
	if (f[K_PROGRAMS] && (r = parse_programs(c, f[K_PROGRAMS], p)) < 0)
		return r;
	if (f[K_WORKSPACE_APPLY]) {
		const char *v = cJSON_GetStringValue(f[K_WORKSPACE_APPLY]);
		if (!v || (strcmp(v, "always") && strcmp(v, "on_success")))
			return expect(c, "workspace_apply", "\"always\" or \"on_success\"",
				      f[K_WORKSPACE_APPLY]);
		p->workspace_on_success = !strcmp(v, "on_success");
	}
	if (f[K_SERVE] && (r = parse_serve(c, f[K_SERVE], p)) < 0)
		return r;
	return parse_seccomp(c, f[K_SECCOMP], p);
}

int tc_policy_parse(const char *json, size_t len, const char *origin, struct tc_policy *ret,
		    struct tc_error *err)
{
	struct parse_ctx c = { origin ? origin : "policy", err };
	struct tc_policy p = { 0 };
	_cleanup_free_ char *copy = NULL;
	const char *end = NULL;
	size_t i, line = 1;
	cJSON *root;
	int r;

	memset(ret, 0, sizeof(*ret));
	if (len > TC_POLICY_FILE_MAX)
		return perr(&c, NULL, "%zu bytes; a policy is at most %d", len, TC_POLICY_FILE_MAX);
	r = json_scan(&c, json, len);
	if (r < 0)
		return r;
	/* cJSON only ever parses a NUL-terminated copy (json need not be). */
	copy = malloc(len + 1);
	if (!copy)
		return oom(err);
	if (len)
		memcpy(copy, json, len);
	copy[len] = '\0';
	root = cJSON_ParseWithOpts(copy, &end, true);
	if (!root) {
		size_t off = end && end >= copy ? (size_t)(end - copy) : 0;
		for (i = 0; i < off && i < len; i++)
			line += copy[i] == '\n';
		return perr(&c, NULL, "invalid JSON near byte %zu (line %zu)", off, line);
	}
	r = policy_from_json(&c, root, &p);
	cJSON_Delete(root);
	if (r >= 0) {
		p.origin = strdup(c.origin);
		if (!p.origin)
			r = oom(err);
	}
	if (r < 0) {
		tc_policy_release(&p);
		return r;
	}
	*ret = p;
	return 0;
}

int tc_policy_load(const char *path, struct tc_policy *ret, struct tc_error *err)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	int r;

	memset(ret, 0, sizeof(*ret));
	r = tc_read_file(path, TC_POLICY_FILE_MAX, false, &buf, &len);
	if (r == -EFBIG)
		return tc_error_set(err, STAGE, EFBIG,
				    "%s: larger than %d bytes; a policy is smaller", path,
				    TC_POLICY_FILE_MAX);
	if (r == -EINVAL)
		return tc_error_set(
			err, STAGE, EINVAL,
			"%s: not a regular file (a FIFO, socket or device is never read "
			"as a policy); name the policy file itself",
			path);
	if (r < 0)
		return tc_error_errno(err, STAGE, -r, "cannot read policy file %s", path);
	r = tc_policy_parse(buf, len, path, ret, err);
	if (r < 0)
		return r;
	tc_sha256(buf, len, ret->sha256);
	return 0;
}

void tc_policy_release(struct tc_policy *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->n_binds && i < TC_MAX_BINDS; i++) {
		free(p->binds[i].host);
		free(p->binds[i].inside);
	}
	for (i = 0; i < p->n_env && i < TC_MAX_ENV; i++)
		free(p->env[i]);
	for (i = 0; i < p->n_pass_env && i < TC_MAX_ENV; i++)
		free(p->pass_env[i]);
	free(p->hostname);
	free(p->cgroup_parent);
	cJSON_free(p->session_json);
	cJSON_free(p->serve_json);
	for (i = 0; i < p->n_programs && i < TC_MAX_PROGRAMS; i++)
		free(p->programs[i]);
	for (i = 0; i < p->n_allow_rootfs && i < TC_MAX_ROOTFS_CHOICES; i++)
		free(p->allow_rootfs[i]);
	free(p->rootfs_name);
	free(p->origin);
	memset(p, 0, sizeof(*p));
}

/* --- the effective policy as JSON ------------------------------------- */

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

/* Add item to obj (or to the array obj when name is NULL); false and item
 * freed when either is missing. */
bool json_add(cJSON *obj, const char *name, cJSON *item)
{
	if (!obj || !item ||
	    !(name ? cJSON_AddItemToObject(obj, name, item) : cJSON_AddItemToArray(obj, item))) {
		cJSON_Delete(item);
		return false;
	}
	return true;
}

static cJSON *limits_to_json(const uint64_t *v)
{
	cJSON *o = cJSON_CreateObject();
	size_t i;

	for (i = 0; o && i < TC_LIMIT__MAX; i++) {
		if (!json_add(o, tc_limit_info[i].name, limit_to_json((enum tc_limit_id)i, v[i]))) {
			cJSON_Delete(o);
			return NULL;
		}
	}
	return o;
}

static cJSON *rest_to_json(const struct tc_policy *p, cJSON *root)
{
	const bool allow[ALLOW_BOOLS] = { p->allow_ro_bind,   p->allow_bind,
					  p->allow_workspace, p->allow_env,
					  p->allow_pass_env,  p->allow_cgroup_parent };
	cJSON *o, *a, *b;
	size_t i;

	if (!json_add(root, "allow", o = cJSON_CreateObject()))
		return NULL;
	for (i = 0; i < ALLOW_BOOLS; i++)
		if (!json_add(o, allow_keys[i], cJSON_CreateBool(allow[i])))
			return NULL;
	if (!p->n_allow_rootfs && !json_add(o, "rootfs", cJSON_CreateBool(false)))
		return NULL;
	if (p->n_allow_rootfs && !json_add(o, "rootfs", a = cJSON_CreateArray()))
		return NULL;
	for (i = 0; i < p->n_allow_rootfs; i++)
		if (!json_add(a, NULL, cJSON_CreateString(p->allow_rootfs[i])))
			return NULL;
	if (!json_add(root, "env", o = cJSON_CreateObject()))
		return NULL;
	for (i = 0; i < p->n_env; i++) {
		const char *eq = strchr(p->env[i], '=');
		_cleanup_free_ char *name = strndup(p->env[i], (size_t)(eq - p->env[i]));
		if (!name || !json_add(o, name, cJSON_CreateString(eq + 1)))
			return NULL;
	}
	if (!json_add(root, "pass_env", a = cJSON_CreateArray()))
		return NULL;
	for (i = 0; i < p->n_pass_env; i++)
		if (!json_add(a, NULL, cJSON_CreateString(p->pass_env[i])))
			return NULL;
	if (!json_add(root, "binds", a = cJSON_CreateArray()))
		return NULL;
	for (i = 0; i < p->n_binds; i++)
		if (!json_add(a, NULL, b = cJSON_CreateObject()) ||
		    !json_add(b, "host", cJSON_CreateString(p->binds[i].host)) ||
		    !json_add(b, "inside", cJSON_CreateString(p->binds[i].inside)) ||
		    !json_add(b, "writable", cJSON_CreateBool(p->binds[i].writable)))
			return NULL;
	if (!json_add(root, "uid_range", o = cJSON_CreateObject()) ||
	    !json_add(o, "start", cJSON_CreateNumber(p->uid_base)) ||
	    !json_add(o, "count", cJSON_CreateNumber(p->uid_count)) ||
	    !json_add(root, "require", o = cJSON_CreateObject()) ||
	    !json_add(o, "cgroup2", cJSON_CreateBool(p->require_cgroup2)) ||
	    !json_add(o, "landlock",
		      p->require_landlock ? cJSON_CreateNumber(p->require_landlock)
					  : cJSON_CreateBool(false)) ||
	    !json_add(root, "warn_env_not_passed", cJSON_CreateBool(p->warn_env_not_passed)) ||
	    !json_add(root, "seccomp", seccomp_to_json(&p->syscalls)) ||
	    (p->cgroup_parent &&
	     !json_add(root, "cgroup_parent", cJSON_CreateString(p->cgroup_parent))) ||
	    (p->session_json && !json_add(root, "session", session_to_json(p))) ||
	    (p->serve_json && !json_add(root, "serve", cJSON_Parse(p->serve_json))) ||
	    !json_add(root, "rootfs",
		      cJSON_CreateString(p->rootfs_name ? p->rootfs_name : "default")) ||
	    !json_add(root, "workspace_apply",
		      cJSON_CreateString(p->workspace_on_success ? "on_success" : "always")))
		return NULL;
	if (p->n_programs) {
		if (!json_add(root, "programs", a = cJSON_CreateArray()))
			return NULL;
		for (size_t j = 0; j < p->n_programs; j++)
			if (!json_add(a, NULL, cJSON_CreateString(p->programs[j])))
				return NULL;
	}
	return root;
}

char *tc_policy_to_json(const struct tc_policy *p)
{
	cJSON *root = cJSON_CreateObject();
	char *printed, *out = NULL;

	if (!json_add(root, "version", cJSON_CreateNumber(1)) ||
	    !json_add(root, "network", cJSON_CreateString("none")) ||
	    !json_add(root, "hostname",
		      cJSON_CreateString(p->hostname ? p->hostname : DEFAULT_HOSTNAME)) ||
	    !json_add(root, "limits", limits_to_json(p->limit)) ||
	    !json_add(root, "max", limits_to_json(p->limit_max)) || !rest_to_json(p, root)) {
		cJSON_Delete(root);
		return NULL;
	}
	printed = cJSON_Print(root);
	cJSON_Delete(root);
	/* hand back memory the caller can free() whatever cJSON's hooks are */
	if (printed)
		out = strdup(printed);
	cJSON_free(printed);
	return out;
}
