/* Policy files: parse and validate the operator's JSON ceiling (pure:
 * bytes in, struct out), print the effective policy back as a policy file,
 * merge a caller's overrides into a struct tc_config under the policy's
 * ceilings, and load one file with a size cap and its sha256. Every refusal
 * names the file, the key path or option, and what was expected. Runs in
 * the parent before clone; policies/README.md documents the schema. */
#include <errno.h>
#include <stddef.h>
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

const struct tc_policy_allow tc_policy_allows[TC_POLICY_ALLOWS] = {
	{ "ro_bind", offsetof(struct tc_policy, allow_ro_bind) },
	{ "bind", offsetof(struct tc_policy, allow_bind) },
	{ "workspace", offsetof(struct tc_policy, allow_workspace) },
	{ "env", offsetof(struct tc_policy, allow_env) },
	{ "pass_env", offsetof(struct tc_policy, allow_pass_env) },
	{ "cgroup_parent", offsetof(struct tc_policy, allow_cgroup_parent) },
};
static const char *const bind_keys[] = { "host", "inside", "writable" };
static const char *const uid_keys[] = { "start", "count" };
static const char *const require_keys[] = { "cgroup2", "landlock" };
#define LANDLOCK_ABI_MAX 255 /* a sanity bound on require.landlock */

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
		return tc_policy_err(c, NULL, "NUL byte at byte %zu; a policy is JSON text",
				     (size_t)(nul - json));
	if (tc_json_scan(json, len, TC_JSON_NO_NUL, &s) == 0)
		return 0;
	for (i = 0; i < s.at && i < len; i++)
		line += json[i] == '\n';
	switch (s.fault) {
	case TC_JSON_FAULT_UTF8:
		return tc_policy_err(c, NULL, "invalid UTF-8 at byte %zu", s.at);
	case TC_JSON_FAULT_BOM:
		return tc_policy_err(
			c, NULL,
			"invalid JSON near byte 0 (line 1): a byte order mark (save the file "
			"as UTF-8 without one)");
	case TC_JSON_FAULT_DEPTH:
		return tc_policy_err(c, NULL, "nesting deeper than %d levels at byte %zu",
				     TC_JSON_DEPTH_MAX, s.at);
	case TC_JSON_FAULT_NUL_ESCAPE:
		return tc_policy_err(c, NULL, "\\u0000 at byte %zu; strings cannot hold NUL", s.at);
	case TC_JSON_FAULT_DUPLICATE:
		tc_json_path(&s, s.dup, path, sizeof(path));
		return tc_policy_err(c, path, "duplicate key");
	case TC_JSON_FAULT_NOMEM:
		return tc_policy_oom(c->err);
	case TC_JSON_FAULT_NONE:
	case TC_JSON_FAULT_EMPTY:
	case TC_JSON_FAULT_SYNTAX:
	case TC_JSON_FAULT_END:
	case TC_JSON_FAULT_EXTRA:
		break;
	}
	return tc_policy_err(c, NULL, "invalid JSON near byte %zu (line %zu)", s.at, line);
}

static int parse_bool(const struct parse_ctx *c, const char *path, const cJSON *v, bool *ret)
{
	if (!v)
		return 0;
	if (!cJSON_IsBool(v))
		return tc_policy_expect(c, path, "true or false", v);
	*ret = cJSON_IsTrue(v);
	return 0;
}

/* s is among list[0..n). */
static bool listed(char *const *list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], s))
			return true;
	return false;
}

/* Append a copy of s to list (room checked by the caller). */
static int keep(const struct parse_ctx *c, char **list, size_t *n, const char *s)
{
	list[*n] = strdup(s);
	if (!list[*n])
		return tc_policy_oom(c->err);
	(*n)++;
	return 0;
}

/* One member of "env": NAME: "value". */
static int env_one(const struct parse_ctx *c, const cJSON *it, struct tc_policy *p)
{
	size_t len = strlen(it->string);
	const char *why = tc_env_name_problem(it->string, len);
	char sub[KEY_PATH_MAX];

	tc_policy_key(sub, sizeof(sub), "env", it->string);
	if (why)
		return tc_policy_err(c, sub, "%s", why);
	if (!cJSON_IsString(it))
		return tc_policy_expect(c, sub, "a string", it);
	p->env[p->n_env] = tc_env_entry(it->string, len, it->valuestring);
	if (!p->env[p->n_env])
		return errno == E2BIG ? tc_policy_err(c, sub, "NAME=VALUE is longer than %d bytes",
						      TC_ENV_ENTRY_MAX)
				      : tc_policy_oom(c->err);
	p->n_env++;
	return 0;
}

/* One item of "pass_env": a NAME. */
static int pass_env_one(const struct parse_ctx *c, const cJSON *it, struct tc_policy *p)
{
	char sub[KEY_PATH_MAX];

	snprintf(sub, sizeof(sub), "pass_env[%zu]", p->n_pass_env);
	if (!cJSON_IsString(it))
		return tc_policy_expect(c, sub, "a variable name", it);
	if (tc_env_name_problem(it->valuestring, strlen(it->valuestring)))
		return tc_policy_expect(c, sub, "a variable name that is not TOOLCELL_*", it);
	if (listed(p->pass_env, p->n_pass_env, it->valuestring))
		return tc_policy_err(c, sub, "%s is listed twice", it->valuestring);
	return keep(c, p->pass_env, &p->n_pass_env, it->valuestring);
}

/* "env" (an object, pass false) or "pass_env" (an array, pass true); the
 * two together name at most TC_MAX_ENV variables. */
static int parse_env(const struct parse_ctx *c, const cJSON *v, bool pass, struct tc_policy *p)
{
	const char *key = pass ? "pass_env" : "env";
	const cJSON *it;
	size_t n;
	int r;

	if (pass ? !cJSON_IsArray(v) : !cJSON_IsObject(v))
		return tc_policy_expect(c, key,
					pass ? "an array of variable names"
					     : "an object of \"NAME\": \"value\" pairs",
					v);
	n = (size_t)cJSON_GetArraySize(v);
	if (!pass && n > TC_MAX_ENV)
		return tc_policy_err(c, key, "%zu variables; at most %d", n, TC_MAX_ENV);
	if (pass && n + p->n_env > TC_MAX_ENV)
		return tc_policy_err(c, key, "env and pass_env name %zu variables; at most %d",
				     n + p->n_env, TC_MAX_ENV);
	cJSON_ArrayForEach(it, v)
	{
		r = pass ? pass_env_one(c, it, p) : env_one(c, it, p);
		if (r < 0)
			return r;
	}
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
	r = tc_policy_fields(c, obj, path, bind_keys, TC_ARRAY_SIZE(bind_keys), f);
	if (r < 0)
		return r;
	if (!f[0])
		return tc_policy_err(c, path, "missing key \"host\"");
	for (i = 0; i < 2; i++) {
		const cJSON *v = f[i] ? f[i] : f[0]; /* inside defaults to host */
		snprintf(sub, sizeof(sub), "%s.%s", path, bind_keys[i]);
		if (!cJSON_IsString(v))
			return tc_policy_expect(c, sub, "an absolute path", v);
		if (tc_bind_path_check(v->valuestring, i == 1, why, sizeof(why)) < 0) {
			tc_policy_shown(show, sizeof(show), v->valuestring, SHOWN_STRING_MAX);
			return tc_policy_err(c, sub, "\"%s\"%s %s", show,
					     f[i] ? "" : " (from host)", why);
		}
	}
	for (i = 0; i < p->n_binds; i++)
		if (!strcmp(p->binds[i].inside, f[1] ? f[1]->valuestring : f[0]->valuestring))
			return tc_policy_err(c, path,
					     "binds[%zu] already binds to the same inside path", i);
	snprintf(sub, sizeof(sub), "%s.writable", path);
	r = parse_bool(c, sub, f[2], &b->writable);
	if (r < 0)
		return r;
	b->host = strdup(f[0]->valuestring);
	b->inside = strdup(f[1] ? f[1]->valuestring : f[0]->valuestring);
	p->n_binds++; /* counted now so release frees whichever copy succeeded */
	if (!b->host || !b->inside)
		return tc_policy_oom(c->err);
	return 0;
}

static int parse_binds(const struct parse_ctx *c, const cJSON *arr, struct tc_policy *p)
{
	const cJSON *it;
	size_t i = 0;
	int r, n;

	if (!cJSON_IsArray(arr))
		return tc_policy_expect(c, "binds", "an array of {\"host\": \"/path\"} objects",
					arr);
	n = cJSON_GetArraySize(arr);
	if (n > TC_MAX_BINDS)
		return tc_policy_err(c, "binds", "%d binds; at most %d", n, TC_MAX_BINDS);
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

	if (!v) {
		p->hostname = strdup(DEFAULT_HOSTNAME);
		return p->hostname ? 0 : tc_policy_oom(c->err);
	}
	if (!cJSON_IsString(v))
		return tc_policy_expect(c, "hostname", what, v);
	len = strlen(v->valuestring);
	if (len == 0 || len > HOSTNAME_MAX)
		return tc_policy_expect(c, "hostname", what, v);
	for (i = 0; i < len; i++) {
		char ch = v->valuestring[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '-'))
			return tc_policy_expect(c, "hostname", what, v);
	}
	p->hostname = strdup(v->valuestring);
	return p->hostname ? 0 : tc_policy_oom(c->err);
}

static int parse_uid_range(const struct parse_ctx *c, const cJSON *obj, struct tc_policy *p)
{
	const cJSON *f[TC_ARRAY_SIZE(uid_keys)];
	uint64_t start = UID_RANGE_START, count = UID_RANGE_COUNT;
	int r;

	p->uid_base = UID_RANGE_START;
	p->uid_count = UID_RANGE_COUNT;
	if (!obj)
		return 0;
	r = tc_policy_fields(c, obj, "uid_range", uid_keys, TC_ARRAY_SIZE(uid_keys), f);
	if (r < 0)
		return r;
	if (f[0] &&
	    (tc_policy_number(f[0], false, &start) < 0 || start < 1 || start >= UID_RANGE_END_MAX))
		return tc_policy_expect(c, "uid_range.start", "a whole number from 1 to 4294967292",
					f[0]);
	if (f[1] && (tc_policy_number(f[1], false, &count) < 0 || count < 2 || count % 2 ||
		     count >= UID_RANGE_END_MAX))
		return tc_policy_expect(c, "uid_range.count", "an even whole number of at least 2",
					f[1]);
	if (start + count > UID_RANGE_END_MAX)
		return tc_policy_err(c, "uid_range",
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
		return tc_policy_expect(c, "allow.rootfs", want, v);
	cJSON_ArrayForEach(it, v)
	{
		const char *s = cJSON_GetStringValue(it);

		snprintf(sub, sizeof(sub), "allow.rootfs[%zu]", i++);
		if (p->n_allow_rootfs >= TC_MAX_ROOTFS_CHOICES)
			return tc_policy_err(c, "allow.rootfs", "more than %d entries",
					     TC_MAX_ROOTFS_CHOICES);
		if (!s || !(s[0] == '/' ? strlen(s) < TC_PATH_MAX : tc_rootfs_name_valid(s)))
			return tc_policy_expect(
				c, sub,
				"a variant name such as \"data\" ([a-z0-9][a-z0-9_-]*, at "
				"most 32) or an absolute path",
				it);
		if (!strcmp(s, "/"))
			return tc_policy_err(c, sub, "the host's root is never a rootfs");
		if (keep(c, p->allow_rootfs, &p->n_allow_rootfs, s) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int parse_allow(const struct parse_ctx *c, const cJSON *obj, struct tc_policy *p)
{
	const char *keys[TC_POLICY_ALLOWS + 1]; /* the switches, then "rootfs" */
	const cJSON *f[TC_POLICY_ALLOWS + 1];
	char sub[KEY_PATH_MAX];
	size_t i;
	int r;

	for (i = 0; i < TC_POLICY_ALLOWS; i++)
		keys[i] = tc_policy_allows[i].key;
	keys[TC_POLICY_ALLOWS] = "rootfs";
	r = tc_policy_fields(c, obj, "allow", keys, TC_POLICY_ALLOWS + 1, f);
	for (i = 0; r >= 0 && i < TC_POLICY_ALLOWS; i++) {
		tc_policy_key(sub, sizeof(sub), "allow", keys[i]);
		r = parse_bool(c, sub, f[i], (bool *)((char *)p + tc_policy_allows[i].member));
	}
	return r < 0 ? r : parse_allow_rootfs(c, f[TC_POLICY_ALLOWS], p);
}

/* "programs": the bare names `run` may start in workspace mode. */
static int parse_programs(const struct parse_ctx *c, const cJSON *arr, struct tc_policy *p)
{
	char sub[KEY_PATH_MAX];
	const cJSON *it;
	size_t i = 0;

	if (!cJSON_IsArray(arr))
		return tc_policy_expect(c, "programs", "an array of program names", arr);
	cJSON_ArrayForEach(it, arr)
	{
		const char *name = cJSON_GetStringValue(it);
		size_t len = name ? strlen(name) : 0;

		snprintf(sub, sizeof(sub), "programs[%zu]", i++);
		if (p->n_programs >= TC_MAX_PROGRAMS)
			return tc_policy_err(c, "programs", "more than %d programs",
					     TC_MAX_PROGRAMS);
		if (!name || len == 0 || len > 64 || !strcmp(name, ".") || !strcmp(name, "..") ||
		    strspn(name,
			   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-") !=
			    len)
			return tc_policy_expect(
				c, sub, "a program's bare name such as \"cat\" (no '/')", it);
		if (listed(p->programs, p->n_programs, name))
			return tc_policy_err(c, sub, "\"%s\" is listed twice", name);
		if (keep(c, p->programs, &p->n_programs, name) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* "require": what the host must have. landlock is false, true (any ABI)
 * or the lowest ABI number. */
static int parse_require(const struct parse_ctx *c, const cJSON *obj, struct tc_policy *p)
{
	const cJSON *f[TC_ARRAY_SIZE(require_keys)];
	uint64_t abi = 0;
	int r;

	r = tc_policy_fields(c, obj, "require", require_keys, TC_ARRAY_SIZE(require_keys), f);
	if (r >= 0)
		r = parse_bool(c, "require.cgroup2", f[0], &p->require_cgroup2);
	if (r < 0 || !f[1])
		return r;
	if (cJSON_IsBool(f[1]))
		abi = cJSON_IsTrue(f[1]) ? 1 : 0;
	else if (tc_policy_number(f[1], false, &abi) < 0 || abi > LANDLOCK_ABI_MAX)
		return tc_policy_expect(
			c, "require.landlock",
			"false, true (any Landlock ABI) or the lowest ABI number, 1 to 255", f[1]);
	p->require_landlock = (unsigned)abi;
	return 0;
}

static int parse_version(const struct parse_ctx *c, const cJSON *v, struct tc_policy *p)
{
	(void)p;
	if (!v)
		return tc_policy_err(c, "version", "missing; a policy must say \"version\": 1");
	if (!cJSON_IsNumber(v) || v->valuedouble != 1)
		return tc_policy_expect(c, "version", "1 (the only policy version)", v);
	return 0;
}

static int parse_description(const struct parse_ctx *c, const cJSON *v, struct tc_policy *p)
{
	(void)p;
	return cJSON_IsString(v) ? 0 : tc_policy_expect(c, "description", "a string", v);
}

static int parse_network(const struct parse_ctx *c, const cJSON *v, struct tc_policy *p)
{
	(void)p;
	if (!cJSON_IsString(v) || strcmp(v->valuestring, "none"))
		return tc_policy_expect(c, "network",
					"\"none\" (the only network mode in this version)", v);
	return 0;
}

static int parse_env_object(const struct parse_ctx *c, const cJSON *v, struct tc_policy *p)
{
	return parse_env(c, v, false, p);
}

static int parse_pass_env(const struct parse_ctx *c, const cJSON *v, struct tc_policy *p)
{
	return parse_env(c, v, true, p);
}

static int parse_warn_env(const struct parse_ctx *c, const cJSON *v, struct tc_policy *p)
{
	return parse_bool(c, "warn_env_not_passed", v, &p->warn_env_not_passed);
}

static int parse_cgroup_parent(const struct parse_ctx *c, const cJSON *v, struct tc_policy *p)
{
	const char *s = cJSON_GetStringValue(v);

	if (!s || s[0] != '/' || strlen(s) >= TC_PATH_MAX)
		return tc_policy_expect(c, "cgroup_parent",
					"the absolute path of a delegated cgroup v2 directory", v);
	p->cgroup_parent = strdup(s);
	return p->cgroup_parent ? 0 : tc_policy_oom(c->err);
}

static int parse_rootfs(const struct parse_ctx *c, const cJSON *v, struct tc_policy *p)
{
	const char *s = cJSON_GetStringValue(v);

	if (!s || !tc_rootfs_name_valid(s))
		return tc_policy_expect(
			c, "rootfs",
			"\"default\", \"workspace\" (the rootfs with toolcell-utils) or a variant's "
			"name such as \"data\" ([a-z0-9][a-z0-9_-]*, at most 32; built by 'toolcell "
			"rootfs build --name NAME')",
			v);
	if (strcmp(s, "default") && !(p->rootfs_name = strdup(s)))
		return tc_policy_oom(c->err);
	return 0;
}

static int parse_workspace_apply(const struct parse_ctx *c, const cJSON *v, struct tc_policy *p)
{
	const char *s = cJSON_GetStringValue(v);

	if (!s || (strcmp(s, "always") && strcmp(s, "on_success")))
		return tc_policy_expect(c, "workspace_apply", "\"always\" or \"on_success\"", v);
	p->workspace_on_success = !strcmp(s, "on_success");
	return 0;
}

/* "serve": checked by serve-proto.c's parser, kept as compact JSON. */
static int parse_serve(const struct parse_ctx *c, const cJSON *obj, struct tc_policy *p)
{
	struct tc_serve_policy sp;
	int r;

	p->serve_json = tc_json_print(obj, false);
	if (!p->serve_json)
		return tc_policy_oom(c->err);
	r = tc_serve_policy_parse(p->serve_json, c->origin, &sp, c->err);
	return r < 0 ? r : 0;
}

/* The top-level keys, in the order a policy file is documented and parsed.
 * A section's parser runs when its key is there, or always when it has a
 * default to set (version: to refuse its absence). "limits" and "max" are
 * read together, at "limits" (a ceiling is checked against its limit). */
static const struct {
	const char *key;
	int (*parse)(const struct parse_ctx *c, const cJSON *v, struct tc_policy *p);
	bool always;
} sections[] = {
	{ "version", parse_version, true },
	{ "description", parse_description, false },
	{ "network", parse_network, false },
	{ "hostname", parse_hostname, true },
	{ "limits", NULL, true },
	{ "max", NULL, false },
	{ "allow", parse_allow, false },
	{ "env", parse_env_object, false },
	{ "pass_env", parse_pass_env, false },
	{ "binds", parse_binds, false },
	{ "uid_range", parse_uid_range, true },
	{ "require", parse_require, false },
	{ "seccomp", tc_policy_parse_seccomp, true },
	{ "cgroup_parent", parse_cgroup_parent, false },
	{ "session", tc_policy_parse_session, false },
	{ "rootfs", parse_rootfs, false },
	{ "programs", parse_programs, false },
	{ "warn_env_not_passed", parse_warn_env, false },
	{ "workspace_apply", parse_workspace_apply, false },
	{ "serve", parse_serve, false },
};
#define N_SECTIONS TC_ARRAY_SIZE(sections)

static int policy_from_json(const struct parse_ctx *c, const cJSON *root, struct tc_policy *p)
{
	const char *keys[N_SECTIONS];
	const cJSON *f[N_SECTIONS];
	size_t i, max = 0;
	int r;

	for (i = 0; i < N_SECTIONS; i++) {
		keys[i] = sections[i].key;
		max = strcmp(keys[i], "max") ? max : i;
	}
	r = tc_policy_fields(c, root, NULL, keys, N_SECTIONS, f);
	for (i = 0; r >= 0 && i < N_SECTIONS; i++) {
		if (!sections[i].parse && sections[i].always) /* "limits", with "max" */
			r = tc_policy_parse_limits(c, f[i], f[max], p);
		else if (sections[i].parse && (f[i] || sections[i].always))
			r = sections[i].parse(c, f[i], p);
	}
	return r;
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
		return tc_policy_err(&c, NULL, "%zu bytes; a policy is at most %d", len,
				     TC_POLICY_FILE_MAX);
	r = json_scan(&c, json, len);
	if (r < 0)
		return r;
	/* cJSON only ever parses a NUL-terminated copy (json need not be). */
	copy = malloc(len + 1);
	if (!copy)
		return tc_policy_oom(err);
	if (len)
		memcpy(copy, json, len);
	copy[len] = '\0';
	root = cJSON_ParseWithOpts(copy, &end, true);
	if (!root) {
		size_t off = end && end >= copy ? (size_t)(end - copy) : 0;
		for (i = 0; i < off && i < len; i++)
			line += copy[i] == '\n';
		return tc_policy_err(&c, NULL, "invalid JSON near byte %zu (line %zu)", off, line);
	}
	r = policy_from_json(&c, root, &p);
	cJSON_Delete(root);
	if (r >= 0) {
		p.origin = strdup(c.origin);
		if (!p.origin)
			r = tc_policy_oom(err);
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
	if (!p)
		return;
	tc_binds_free(p->binds, p->n_binds);
	tc_free_each(p->env, p->n_env, TC_MAX_ENV);
	tc_free_each(p->pass_env, p->n_pass_env, TC_MAX_ENV);
	free(p->hostname);
	free(p->cgroup_parent);
	free(p->session_json);
	free(p->serve_json);
	tc_free_each(p->programs, p->n_programs, TC_MAX_PROGRAMS);
	tc_free_each(p->allow_rootfs, p->n_allow_rootfs, TC_MAX_ROOTFS_CHOICES);
	free(p->rootfs_name);
	free(p->origin);
	memset(p, 0, sizeof(*p));
}
