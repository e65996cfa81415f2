/* Unit tests for policy.c: every refusal class with its message, defaults
 * and ceilings, the shipped policies, tc_policy_apply (ceilings, allow
 * keys, bind rules, environment order) and the to_json round trip. Pure
 * apart from reading the shipped policies and a few temporary files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "tc-test.h"
#include "policy.h"
#include "seccomp.h"
#include "sha256.h"
#include "util.h"

#define ORIGIN "policies/x.json"
#define MIB    (UINT64_C(1) << 20)

static int parse(const char *json, struct tc_policy *p, struct tc_error *e)
{
	return tc_policy_parse(json, strlen(json), ORIGIN, p, e);
}

static void parse_ok(const char *json, struct tc_policy *p)
{
	struct tc_error e = { 0 };

	if (parse(json, p, &e) != 0)
		fail_msg("refused %s: %s", json, e.message);
}

/* json is refused with -EINVAL and a message containing want. */
static void refused_len(const char *json, size_t len, const char *want)
{
	struct tc_policy p;
	struct tc_error e = { 0 };
	int r = tc_policy_parse(json, len, ORIGIN, &p, &e);

	if (r != -EINVAL || !strstr(e.message, want))
		fail_msg("%.200s\n  got %d: %s\n  want -EINVAL: %s", json, r, e.message, want);
	assert_int_equal(e.stage, TC_STAGE_POLICY);
	assert_int_equal(e.err, EINVAL);
	assert_true(tc_startswith(e.message, ORIGIN ": "));
	assert_null(p.origin); /* nothing left behind on failure */
	assert_int_equal(p.n_env, 0);
	tc_policy_release(&p);
}

static void refused(const char *json, const char *want)
{
	refused_len(json, strlen(json), want);
}

static char *read_source_file(const char *rel, size_t *ret_len)
{
	char path[512];
	char *buf = NULL;

	snprintf(path, sizeof(path), "%s/%s", TC_SOURCE_DIR, rel);
	assert_int_equal(tc_read_file(path, TC_POLICY_FILE_MAX, false, &buf, ret_len), 0);
	return buf;
}

/* A shipped policy parsed with its repo-relative name as origin, so
 * messages read as the user would see them. */
static void shipped(const char *rel, struct tc_policy *p)
{
	struct tc_error e = { 0 };
	size_t len;
	char *buf = read_source_file(rel, &len);

	if (tc_policy_parse(buf, len, rel, p, &e) != 0)
		fail_msg("%s: %s", rel, e.message);
	free(buf);
}

/* --- refusals -------------------------------------------------------- */

static void test_invalid_json(void **state)
{
	refused("{\"version\": 1,", "policies/x.json: invalid JSON near byte 14 (line 1)");
	refused("{\"version\": 1}\n x", "invalid JSON near byte 16 (line 2)");
	refused("", "invalid JSON near byte 0");
	refused("{\"version\": 1, 'a': 2}", "invalid JSON near byte");
	refused("{\"version\": 1, \"description\": \"\\x\"}", "invalid JSON");
	refused("{\"version\": 1, \"description\": \"\\udc00\"}", "invalid JSON");
	refused("{\"version\": 1, \"description\": \"a\xff\"}", "invalid UTF-8 at byte 32");
	refused("{\"version\": 1, \"description\": \"\xc0\xaf\"}", "invalid UTF-8"); /* overlong */
	refused("{\"version\": 1, \"description\": \"\xed\xa0\x80\"}",
		"invalid UTF-8"); /* surrogate */
	refused_len("{\"version\": 1}\0", 15, "NUL byte at byte 14; a policy is JSON text");
	refused("{\"version\": 1, \"env\": {\"A\": \"x\\u0000y\"}}",
		"\\u0000 at byte 30; strings cannot hold NUL");
	refused("{\"version\": 1, \"env\": {\"A\\u0000B\": \"x\"}}", "\\u0000 at byte");
	refused("[]", "policies/x.json: expected a JSON object at the top level, got an array");
	refused("1", "expected a JSON object at the top level, got 1");
}

/* json is refused with exactly the message want. */
static void refused_exact(const char *json, const char *want)
{
	struct tc_policy p;
	struct tc_error e = { 0 };

	assert_int_equal(tc_policy_parse(json, strlen(json), ORIGIN, &p, &e), -EINVAL);
	assert_string_equal(e.message, want);
	assert_int_equal(e.stage, TC_STAGE_POLICY);
	assert_null(p.origin);
}

/* A policy passes the strict scanner a request passes (json.h), not only
 * cJSON: what cJSON alone took is refused, naming the byte or key path. */
static void test_strict_scan(void **state)
{
	/* a repeated key at any depth, named by its path, even where no
	 * fixed-key object would have noticed (default_imports is free-form) */
	refused_exact("{\"version\": 1, \"session\": {\"default_imports\": "
		      "{\"np\": \"numpy\", \"np\": \"pandas\"}}}",
		      ORIGIN ": session.default_imports.np: duplicate key");
	refused_exact("{\"version\": 1, \"limits\": {\"pids\": 1, \"pids\": 2}}",
		      ORIGIN ": limits.pids: duplicate key");
	refused_exact("{\"version\": 1, \"binds\": [{\"host\": \"/a\"}, "
		      "{\"host\": \"/b\", \"host\": \"/c\"}]}",
		      ORIGIN ": binds[1].host: duplicate key");
	/* every fixed-key object and env: the scan is the only check of a
	 * repeated key (the parsers behind it keep none of their own) */
	refused_exact("{\"version\": 1, \"allow\": {\"bind\": true, \"bind\": false}}",
		      ORIGIN ": allow.bind: duplicate key");
	refused_exact("{\"version\": 1, \"require\": {\"cgroup2\": true, \"cgroup2\": true}}",
		      ORIGIN ": require.cgroup2: duplicate key");
	refused_exact("{\"version\": 1, \"uid_range\": {\"count\": 1, \"count\": 1}}",
		      ORIGIN ": uid_range.count: duplicate key");
	refused_exact("{\"version\": 1, \"seccomp\": {\"add\": [], \"add\": []}}",
		      ORIGIN ": seccomp.add: duplicate key");
	refused_exact("{\"version\": 1, \"session\": {\"max_imports\": 1, \"max_imports\": 2}}",
		      ORIGIN ": session.max_imports: duplicate key");
	refused_exact("{\"version\": 1, \"max\": {\"memory\": 1, \"memory\": 1}}",
		      ORIGIN ": max.memory: duplicate key");
	refused_exact("{\"version\": 1, \"env\": {\"A\": \"1\", \"\\u0041\": \"2\"}}",
		      ORIGIN ": env.A: duplicate key");
	/* escapes: a lone surrogate, and a key that holds a NUL */
	refused_exact("{\"version\": 1, \"description\": \"\\ud800\"}",
		      ORIGIN ": invalid JSON near byte 31 (line 1)");
	refused_exact("{\"version\": 1, \"description\": \"\\ud800\\u0041\"}",
		      ORIGIN ": invalid JSON near byte 31 (line 1)");
	/* what cJSON took: a leading zero, a raw tab in a string, a form
	 * feed as white space, a byte order mark */
	refused_exact("{\"version\": 1, \"limits\": {\"pids\": 064}}",
		      ORIGIN ": invalid JSON near byte 35 (line 1)");
	refused_exact("{\"version\": 1, \"description\": \"a\tb\"}",
		      ORIGIN ": invalid JSON near byte 32 (line 1)");
	refused_exact("{\"version\": 1,\n\f\"description\": \"x\"}",
		      ORIGIN ": invalid JSON near byte 15 (line 2)");
	refused_exact("\xef\xbb\xbf{\"version\": 1}",
		      ORIGIN ": invalid JSON near byte 0 (line 1): a byte order mark (save the "
			     "file as UTF-8 without one)");
	refused_exact("{\"version\": 1}\n\n]", ORIGIN ": invalid JSON near byte 16 (line 3)");
}

static void test_escaped_backslash_is_not_nul(void **state)
{
	struct tc_policy p;

	/* "\\u0000" is a backslash and five characters, not a NUL */
	parse_ok("{\"version\": 1, \"env\": {\"A\": \"x\\\\u0000\"}}", &p);
	assert_string_equal(p.env[0], "A=x\\u0000");
	tc_policy_release(&p);
	parse_ok("{\"version\": 1, \"description\": \"\xc3\xa9\xe2\x82\xac\xf0\x9f\x90\x8d\"}", &p);
	tc_policy_release(&p);
}

static void test_depth(void **state)
{
	char buf[512], *s = buf;
	int i;

	/* the top object is level 1: 63 arrays inside it are fine (and then
	 * a type error), 64 are one too many */
	s += sprintf(s, "{\"version\": 1, \"description\": ");
	for (i = 0; i < 63; i++)
		*s++ = '[';
	for (i = 0; i < 63; i++)
		*s++ = ']';
	strcpy(s, "}");
	refused(buf, "description: expected a string, got an array");

	s = buf + sprintf(buf, "{\"version\": 1, \"description\": ");
	for (i = 0; i < 64; i++)
		*s++ = '[';
	for (i = 0; i < 64; i++)
		*s++ = ']';
	strcpy(s, "}");
	refused(buf, "policies/x.json: nesting deeper than 64 levels at byte 93");
	/* brackets inside strings do not count */
	s = buf + sprintf(buf, "{\"version\": 1, \"description\": \"");
	for (i = 0; i < 100; i++)
		*s++ = '[';
	strcpy(s, "\"}");
	{
		struct tc_policy p;
		parse_ok(buf, &p);
		tc_policy_release(&p);
	}
}

static void test_too_big(void **state)
{
	size_t len = TC_POLICY_FILE_MAX + 1;
	char *big = malloc(len);

	assert_non_null(big);
	memset(big, ' ', len);
	refused_len(big, len, "1048577 bytes; a policy is at most 1048576");
	free(big);
}

static void test_version(void **state)
{
	refused("{}", "policies/x.json: version: missing; a policy must say \"version\": 1");
	refused("{\"version\": 2}", "version: expected 1 (the only policy version), got 2");
	refused("{\"version\": \"1\"}", "version: expected 1 (the only policy version), got \"1\"");
	refused("{\"version\": 1.5}", "got 1.5");
}

static void test_unknown_and_duplicate_keys(void **state)
{
	refused("{\"version\": 1, \"colour\": 1}",
		"policies/x.json: colour: unknown key (known: version, description, network, "
		"hostname, limits, max, allow, env, pass_env, binds, uid_range, require, seccomp, "
		"cgroup_parent, session, rootfs, programs, warn_env_not_passed, workspace_apply, serve)");
	refused("{\"version\": 1, \"limits\": {\"colour\": 1}}",
		"policies/x.json: limits.colour: unknown key (known: memory, cpus, pids, timeout, "
		"cpu_time, tmp_size, tmp_inodes, shm_size, file_size, open_files, request_size, "
		"stdout_size, stderr_size, workspace_size, workspace_files)");
	refused("{\"version\": 1, \"max\": {\"Memory\": 1}}", "max.Memory: unknown key");
	refused("{\"version\": 1, \"allow\": {\"network\": true}}",
		"allow.network: unknown key (known: ro_bind, bind, workspace, env, pass_env, "
		"cgroup_parent, rootfs)");
	refused("{\"version\": 1, \"binds\": [{\"host\": \"/a\", \"mode\": \"rw\"}]}",
		"binds[0].mode: unknown key (known: host, inside, writable)");
	refused("{\"version\": 1, \"uid_range\": {\"begin\": 1}}",
		"uid_range.begin: unknown key (known: start, count)");
	refused("{\"version\": 1, \"require\": {\"seccomp\": true}}",
		"require.seccomp: unknown key (known: cgroup2, landlock)");
	refused("{\"version\": 1, \"seccomp\": {\"deny\": []}}",
		"seccomp.deny: unknown key (known: allow, add, remove, kill, otherwise)");
	refused("{\"version\": 1, \"version\": 1}", "policies/x.json: version: duplicate key");
	refused("{\"version\": 1, \"limits\": {\"pids\": 1, \"pids\": 2}}",
		"limits.pids: duplicate key");
	refused("{\"version\": 1, \"env\": {\"A\": \"1\", \"A\": \"2\"}}", "env.A: duplicate key");
	refused("{\"version\": 1, \"col\\nour\": 1}", "col?our: unknown key");
}

static void test_limit_types(void **state)
{
	struct tc_policy p;
	struct tc_error e = { 0 };

	assert_int_equal(parse("{\"version\": 1, \"limits\": {\"memory\": \"lots\"}}", &p, &e),
			 -EINVAL);
	assert_string_equal(
		e.message,
		"policies/x.json: limits.memory: expected a size such as \"256M\", got \"lots\"");
	refused("{\"version\": 1, \"limits\": {\"memory\": true}}",
		"limits.memory: expected a size such as \"256M\", got true");
	refused("{\"version\": 1, \"limits\": {\"memory\": -5}}", "got -5");
	refused("{\"version\": 1, \"limits\": {\"memory\": 268435456.5}}", "got 268435456.5");
	refused("{\"version\": 1, \"limits\": {\"memory\": \"1.5\"}}", "got \"1.5\"");
	refused("{\"version\": 1, \"limits\": {\"pids\": 1.5}}",
		"limits.pids: expected a whole number, got 1.5");
	refused("{\"version\": 1, \"limits\": {\"pids\": \"64\"}}",
		"limits.pids: expected a whole number, got \"64\"");
	refused("{\"version\": 1, \"limits\": {\"pids\": null}}", "got null");
	refused("{\"version\": 1, \"limits\": {\"timeout\": \"30\"}}",
		"limits.timeout: expected a number of seconds such as 30 or 0.25, got \"30\"");
	refused("{\"version\": 1, \"limits\": {\"timeout\": -1}}", "got -1");
	refused("{\"version\": 1, \"limits\": {\"cpus\": \"two\"}}",
		"limits.cpus: expected a number of CPUs such as 1 or 0.5, got \"two\"");
	refused("{\"version\": 1, \"limits\": {\"cpus\": []}}", "got an array");
	refused("{\"version\": 1, \"limits\": []}", "limits: expected an object, got an array");
	refused("{\"version\": 1, \"max\": 5}", "max: expected an object, got 5");
	refused("{\"version\": 1, \"limits\": {\"memory\": \"a very long string indeed, longer than "
		"forty-eight characters\"}}",
		"got \"a very long string indeed, longer than forty-eig...\"");
}

static void test_limit_ranges(void **state)
{
	refused("{\"version\": 1, \"limits\": {\"memory\": \"1K\"}}",
		"policies/x.json: limits.memory: 1K is below toolcell's minimum of 4M");
	refused("{\"version\": 1, \"limits\": {\"memory\": \"128G\"}}",
		"limits.memory: 128G is above toolcell's maximum of 64G");
	refused("{\"version\": 1, \"limits\": {\"memory\": 4194303}}",
		"limits.memory: 4194303 is below toolcell's minimum of 4M");
	refused("{\"version\": 1, \"limits\": {\"memory\": \"99999999999999T\"}}",
		"limits.memory: \"99999999999999T\" is above toolcell's maximum of 64G");
	refused("{\"version\": 1, \"limits\": {\"memory\": 1e300}}",
		"limits.memory: 1e+300 is above toolcell's maximum of 64G");
	refused("{\"version\": 1, \"limits\": {\"timeout\": 100000}}",
		"limits.timeout: 100000s is above toolcell's maximum of 86400s");
	refused("{\"version\": 1, \"limits\": {\"timeout\": 1e12}}",
		"limits.timeout: 1000000000000 is above toolcell's maximum of 86400s");
	refused("{\"version\": 1, \"limits\": {\"timeout\": 0}}",
		"limits.timeout: 0s is below toolcell's minimum of 0.001s");
	refused("{\"version\": 1, \"limits\": {\"cpus\": 0.005}}",
		"limits.cpus: 0.005 is below toolcell's minimum of 0.01");
	refused("{\"version\": 1, \"limits\": {\"cpus\": 2000}}",
		"limits.cpus: 2000 is above toolcell's maximum of 1024");
	refused("{\"version\": 1, \"limits\": {\"pids\": 0}}",
		"limits.pids: 0 is below toolcell's minimum of 1");
	refused("{\"version\": 1, \"limits\": {\"open_files\": 100000}}",
		"limits.open_files: 100000 is above toolcell's maximum of 65536");
	refused("{\"version\": 1, \"limits\": {\"stdout_size\": \"2G\"}}",
		"limits.stdout_size: 2G is above toolcell's maximum of 1G");
	refused("{\"version\": 1, \"max\": {\"pids\": 70000}}",
		"max.pids: 70000 is above toolcell's maximum of 65536");
}

static void test_max_below_limit(void **state)
{
	refused("{\"version\": 1, \"limits\": {\"memory\": \"256M\"}, \"max\": {\"memory\": \"128M\"}}",
		"policies/x.json: max.memory: 128M is below the limit of 256M (limits.memory); a "
		"ceiling cannot be lower");
	refused("{\"version\": 1, \"max\": {\"timeout\": 10}}",
		"max.timeout: 10s is below the limit of 30s (limits.timeout, toolcell's default)");
}

static void test_scalar_keys(void **state)
{
	char name[80];

	refused("{\"version\": 1, \"description\": 5}", "description: expected a string, got 5");
	refused("{\"version\": 1, \"network\": \"host\"}",
		"network: expected \"none\" (the only network mode in this version), got \"host\"");
	refused("{\"version\": 1, \"network\": null}", "network: expected \"none\"");
	refused("{\"version\": 1, \"warn_env_not_passed\": 1}",
		"warn_env_not_passed: expected true or false, got 1");
	{
		struct tc_policy w;

		parse_ok("{\"version\": 1, \"warn_env_not_passed\": true}", &w);
		assert_true(w.warn_env_not_passed);
		tc_policy_release(&w);
		parse_ok("{\"version\": 1}", &w);
		assert_false(w.warn_env_not_passed);
		tc_policy_release(&w);
	}
	refused("{\"version\": 1, \"hostname\": \"\"}",
		"hostname: expected 1 to 63 letters, digits or '-', got \"\"");
	refused("{\"version\": 1, \"hostname\": \"bad_name\"}", "got \"bad_name\"");
	refused("{\"version\": 1, \"hostname\": \"a.b\"}", "hostname: expected");
	refused("{\"version\": 1, \"hostname\": 7}", "hostname: expected");
	memset(name, 'a', 64);
	name[64] = '\0';
	{
		char json[160];
		snprintf(json, sizeof(json), "{\"version\": 1, \"hostname\": \"%s\"}", name);
		refused(json, "hostname: expected 1 to 63");
		name[63] = '\0';
		snprintf(json, sizeof(json), "{\"version\": 1, \"hostname\": \"%s\"}", name);
		struct tc_policy p;
		parse_ok(json, &p);
		assert_string_equal(p.hostname, name);
		tc_policy_release(&p);
	}
	refused("{\"version\": 1, \"allow\": {\"bind\": \"yes\"}}",
		"allow.bind: expected true or false, got \"yes\"");
	refused("{\"version\": 1, \"allow\": {\"env\": 1}}",
		"allow.env: expected true or false, got 1");
	refused("{\"version\": 1, \"allow\": true}", "allow: expected an object, got true");
	refused("{\"version\": 1, \"require\": {\"cgroup2\": \"yes\"}}",
		"require.cgroup2: expected true or false, got \"yes\"");
	refused("{\"version\": 1, \"require\": []}", "require: expected an object");
}

static void test_env_rules(void **state)
{
	char *json;
	size_t i, off;

	refused("{\"version\": 1, \"env\": []}",
		"env: expected an object of \"NAME\": \"value\" pairs, got an array");
	refused("{\"version\": 1, \"env\": {\"1A\": \"x\"}}",
		"policies/x.json: env.1A: is not a variable name ([A-Za-z_][A-Za-z0-9_]*)");
	refused("{\"version\": 1, \"env\": {\"A-B\": \"x\"}}", "env.A-B: is not a variable name");
	refused("{\"version\": 1, \"env\": {\"\": \"x\"}}", "env.: is not a variable name");
	refused("{\"version\": 1, \"env\": {\"TOOLCELL_POLICY\": \"x\"}}",
		"env.TOOLCELL_POLICY: starts with TOOLCELL_: toolcell's own settings are never "
		"passed to the tool");
	refused("{\"version\": 1, \"env\": {\"A\": 1}}", "env.A: expected a string, got 1");

	json = malloc(TC_ENV_ENTRY_MAX + 64);
	assert_non_null(json);
	/* "A=" + value: exactly TC_ENV_ENTRY_MAX is fine, one more is not */
	off = (size_t)sprintf(json, "{\"version\": 1, \"env\": {\"A\": \"");
	memset(json + off, 'v', TC_ENV_ENTRY_MAX - 2);
	strcpy(json + off + TC_ENV_ENTRY_MAX - 2, "\"}}");
	{
		struct tc_policy p;
		parse_ok(json, &p);
		assert_int_equal(strlen(p.env[0]), TC_ENV_ENTRY_MAX);
		tc_policy_release(&p);
	}
	memset(json + off, 'v', TC_ENV_ENTRY_MAX - 1);
	strcpy(json + off + TC_ENV_ENTRY_MAX - 1, "\"}}");
	refused(json, "env.A: NAME=VALUE is longer than 32768 bytes");
	free(json);

	json = malloc(4096);
	assert_non_null(json);
	off = (size_t)sprintf(json, "{\"version\": 1, \"env\": {");
	for (i = 0; i < TC_MAX_ENV + 1; i++)
		off += (size_t)sprintf(json + off, "%s\"V%zu\": \"x\"", i ? ", " : "", i);
	strcpy(json + off, "}}");
	refused(json, "env: 65 variables; at most 64");
	free(json);

	refused("{\"version\": 1, \"pass_env\": \"HOME\"}",
		"pass_env: expected an array of variable names, got \"HOME\"");
	refused("{\"version\": 1, \"pass_env\": [3]}",
		"pass_env[0]: expected a variable name, got 3");
	refused("{\"version\": 1, \"pass_env\": [\"A\", \"TOOLCELL_X\"]}",
		"pass_env[1]: expected a variable name that is not TOOLCELL_*, got \"TOOLCELL_X\"");
	refused("{\"version\": 1, \"pass_env\": [\"A B\"]}",
		"pass_env[0]: expected a variable name");
	refused("{\"version\": 1, \"pass_env\": [\"HOME\", \"HOME\"]}",
		"pass_env[1]: HOME is listed twice");

	json = malloc(4096);
	assert_non_null(json);
	off = (size_t)sprintf(json, "{\"version\": 1, \"env\": {\"E\": \"x\"}, \"pass_env\": [");
	for (i = 0; i < TC_MAX_ENV; i++)
		off += (size_t)sprintf(json + off, "%s\"P%zu\"", i ? ", " : "", i);
	strcpy(json + off, "]}");
	refused(json, "pass_env: env and pass_env name 65 variables; at most 64");
	free(json);
}

static void test_bind_rules(void **state)
{
	static const struct {
		const char *bind, *want;
	} bad[] = {
		{ "{\"host\": \"data\"}", "binds[0].host: \"data\" is not an absolute path" },
		{ "{\"host\": \"\"}", "binds[0].host: \"\" is not an absolute path" },
		{ "{\"host\": \"/data/\"}",
		  "binds[0].host: \"/data/\" is not normalized (no \".\" or \"..\" components, no "
		  "\"//\", no trailing \"/\")" },
		{ "{\"host\": \"//data\"}", "is not normalized" },
		{ "{\"host\": \"/a//b\"}", "is not normalized" },
		{ "{\"host\": \"/a/./b\"}", "is not normalized" },
		{ "{\"host\": \"/a/../b\"}", "is not normalized" },
		{ "{\"host\": \"/a/..\"}", "is not normalized" },
		{ "{\"host\": \"/a/.\"}", "is not normalized" },
		{ "{\"host\": \"/..\"}", "is not normalized" },
		{ "{\"host\": \"/a\\nb\"}",
		  "binds[0].host: \"/a?b\" contains a control character" },
		{ "{\"host\": \"/\"}", "binds[0].host: \"/\" is the host's root" },
		{ "{\"host\": \"/proc\"}",
		  "\"/proc\" is at or beneath /proc, which is never bound" },
		{ "{\"host\": \"/proc/1/root\"}", "is at or beneath /proc" },
		{ "{\"host\": \"/sys/fs/cgroup\"}", "is at or beneath /sys" },
		{ "{\"host\": \"/dev/null\"}", "is at or beneath /dev" },
		{ "{\"host\": \"/run/docker.sock\"}", "is at or beneath /run" },
		{ "{\"host\": \"/home\"}",
		  "binds[0].host: \"/home\" is a home directory root; bind a folder in it" },
		{ "{\"host\": \"/root\"}", "\"/root\" is a home directory root" },
		{ "{\"host\": \"/data\", \"inside\": \"/\"}",
		  "binds[0].inside: \"/\" is the sandbox's root, which the launcher owns" },
		{ "{\"host\": \"/data\", \"inside\": \"/usr/lib\"}",
		  "binds[0].inside: \"/usr/lib\" is at or beneath /usr, which the launcher owns" },
		{ "{\"host\": \"/etc/ssl\"}",
		  "binds[0].inside: \"/etc/ssl\" (from host) is at or beneath /etc" },
		{ "{\"host\": \"/data\", \"inside\": \"/tmp\"}", "is /tmp itself" },
		{ "{\"host\": \"/data\", \"inside\": \"/tmp/pycache/x\"}",
		  "is at or beneath /tmp/pycache" },
		{ "{\"host\": \"/data\", \"inside\": \"/proc/x\"}", "is at or beneath /proc" },
		{ "{\"host\": \"/data\", \"inside\": \"/dev/x\"}", "is at or beneath /dev" },
		{ "{\"host\": \"/data\", \"inside\": \"/bin\"}", "is at or beneath /bin" },
		{ "{\"host\": \"/data\", \"inside\": \"/sbin\"}", "is at or beneath /sbin" },
		{ "{\"host\": \"/data\", \"inside\": \"/lib/x\"}", "is at or beneath /lib," },
		{ "{\"host\": \"/data\", \"inside\": \"/lib64\"}", "is at or beneath /lib64" },
		{ "{\"host\": \"/data\", \"inside\": \"/workspace/sub\"}",
		  "is at or beneath /workspace" },
		{ "{\"host\": \"/data\", \"inside\": \"data\"}",
		  "binds[0].inside: \"data\" is not an absolute path" },
		{ "{\"host\": \"/data\", \"inside\": 5}",
		  "binds[0].inside: expected an absolute path, got 5" },
		{ "{\"host\": true}", "binds[0].host: expected an absolute path, got true" },
		{ "{\"inside\": \"/data\"}", "binds[0]: missing key \"host\"" },
		{ "{\"host\": \"/data\", \"writable\": \"yes\"}",
		  "binds[0].writable: expected true or false, got \"yes\"" },
		{ "\"/data\"", "binds[0]: expected an object, got \"/data\"" },
	};
	char json[512];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(json, sizeof(json), "{\"version\": 1, \"binds\": [%s]}", bad[i].bind);
		refused(json, bad[i].want);
	}
	refused("{\"version\": 1, \"binds\": {}}",
		"binds: expected an array of {\"host\": \"/path\"} objects, got an object");
	refused("{\"version\": 1, \"binds\": [{\"host\": \"/a\", \"inside\": \"/data\"}, "
		"{\"host\": \"/b\", \"inside\": \"/data\"}]}",
		"binds[1]: binds[0] already binds to the same inside path");
}

static void test_bind_limits(void **state)
{
	char *json = malloc(8192);
	struct tc_policy p;
	size_t i, off;

	assert_non_null(json);
	off = (size_t)sprintf(json, "{\"version\": 1, \"binds\": [");
	for (i = 0; i < TC_MAX_BINDS + 1; i++)
		off += (size_t)sprintf(json + off, "%s{\"host\": \"/d%zu\"}", i ? ", " : "", i);
	strcpy(json + off, "]}");
	refused(json, "binds: 33 binds; at most 32");

	/* a path of TC_PATH_MAX - 1 bytes is fine, TC_PATH_MAX is not */
	free(json);
	json = malloc(TC_PATH_MAX + 128);
	assert_non_null(json);
	off = (size_t)sprintf(json, "{\"version\": 1, \"binds\": [{\"host\": \"/");
	memset(json + off, 'a', TC_PATH_MAX - 2);
	strcpy(json + off + TC_PATH_MAX - 2, "\"}]}");
	parse_ok(json, &p);
	assert_int_equal(strlen(p.binds[0].host), TC_PATH_MAX - 1);
	tc_policy_release(&p);
	memset(json + off, 'a', TC_PATH_MAX - 1);
	strcpy(json + off + TC_PATH_MAX - 1, "\"}]}");
	refused(json, "is longer than 4095 bytes");
	free(json);

	/* neighbours of refused paths are fine */
	parse_ok(
		"{\"version\": 1, \"binds\": [{\"host\": \"/processes\", \"inside\": \"/library\"}, "
		"{\"host\": \"/home/alice/data\", \"inside\": \"/usrdata\", \"writable\": true}, "
		"{\"host\": \"/rootfs\"}, {\"host\": \"/srv/models\", \"inside\": \"/models\"}]}",
		&p);
	assert_int_equal(p.n_binds, 4);
	assert_string_equal(p.binds[0].host, "/processes");
	assert_string_equal(p.binds[0].inside, "/library");
	assert_false(p.binds[0].writable);
	assert_true(p.binds[1].writable);
	assert_string_equal(p.binds[2].inside, "/rootfs"); /* inside defaults to host */
	tc_policy_release(&p);
}

static void test_uid_range(void **state)
{
	struct tc_policy p;

	refused("{\"version\": 1, \"uid_range\": {\"start\": 0}}",
		"uid_range.start: expected a whole number from 1 to 4294967292, got 0");
	refused("{\"version\": 1, \"uid_range\": {\"start\": -1}}", "uid_range.start: expected");
	refused("{\"version\": 1, \"uid_range\": {\"start\": \"100000\"}}",
		"uid_range.start: expected");
	refused("{\"version\": 1, \"uid_range\": {\"count\": 3}}",
		"uid_range.count: expected an even whole number of at least 2, got 3");
	refused("{\"version\": 1, \"uid_range\": {\"count\": 0}}", "uid_range.count: expected");
	refused("{\"version\": 1, \"uid_range\": {\"start\": 4294967000, \"count\": 65536}}",
		"policies/x.json: uid_range: start + count is 4295032536, above 4294967294");
	refused("{\"version\": 1, \"uid_range\": []}", "uid_range: expected an object");

	parse_ok("{\"version\": 1, \"uid_range\": {\"start\": 4294901758, \"count\": 65536}}", &p);
	assert_int_equal(p.uid_base, 4294901758u);
	assert_int_equal(p.uid_count, 65536);
	tc_policy_release(&p);
	parse_ok("{\"version\": 1, \"uid_range\": {\"start\": 200000}}", &p);
	assert_int_equal(p.uid_base, 200000);
	assert_int_equal(p.uid_count, 65536); /* default */
	tc_policy_release(&p);
}

/* --- what a valid policy means ---------------------------------------- */

static void test_defaults(void **state)
{
	struct tc_policy p;
	size_t i;

	parse_ok("{\"version\": 1}", &p);
	assert_string_equal(p.origin, ORIGIN);
	assert_int_equal(p.limit[TC_LIMIT_MEMORY], 256 * MIB);
	assert_int_equal(p.limit[TC_LIMIT_CPUS], 1000);
	assert_int_equal(p.limit[TC_LIMIT_PIDS], 64);
	assert_int_equal(p.limit[TC_LIMIT_WALL], 30000);
	assert_int_equal(p.limit[TC_LIMIT_CPU_TIME], 30000);
	assert_int_equal(p.limit[TC_LIMIT_TMP], 64 * MIB);
	assert_int_equal(p.limit[TC_LIMIT_TMP_INODES], 4096);
	assert_int_equal(p.limit[TC_LIMIT_SHM], 16 * MIB);
	assert_int_equal(p.limit[TC_LIMIT_FILE_SIZE], 64 * MIB);
	assert_int_equal(p.limit[TC_LIMIT_OPEN_FILES], 256);
	assert_int_equal(p.limit[TC_LIMIT_REQUEST], MIB);
	assert_int_equal(p.limit[TC_LIMIT_STDOUT], MIB);
	assert_int_equal(p.limit[TC_LIMIT_STDERR], 64 * 1024);
	for (i = 0; i < TC_LIMIT__MAX; i++) {
		assert_int_equal(p.limit_max[i], p.limit[i]);
		assert_in_range(p.limit[i], tc_limit_info[i].min, tc_limit_info[i].max);
	}
	assert_false(p.allow_ro_bind || p.allow_bind || p.allow_workspace || p.allow_env ||
		     p.allow_pass_env);
	assert_string_equal(p.hostname, "toolcell");
	assert_int_equal(p.uid_base, 1879048192u);
	assert_int_equal(p.uid_count, 65536);
	assert_false(p.require_cgroup2);
	assert_int_equal(p.n_env + p.n_pass_env + p.n_binds, 0);
	tc_policy_release(&p);
	tc_policy_release(&p); /* released is zeroed, and releasing again is fine */
}

static void test_values_and_max(void **state)
{
	struct tc_policy p;

	parse_ok(
		"{\"version\": 1, \"description\": \"d\", \"network\": \"none\", \"hostname\": "
		"\"box-1\", \"limits\": {\"memory\": 268435456, \"tmp_size\": \"1.5G\", \"timeout\": "
		"0.25, \"cpu_time\": 0.0001, \"cpus\": 0.5, \"shm_size\": \"512KiB\", \"stdout_size\": "
		"\"1MiB\"}, \"max\": {\"memory\": \"1G\", \"cpus\": 2.25, \"timeout\": 60}, "
		"\"allow\": {\"ro_bind\": true, \"pass_env\": false}, \"require\": {\"cgroup2\": true}}",
		&p);
	assert_string_equal(p.hostname, "box-1");
	assert_int_equal(p.limit[TC_LIMIT_MEMORY], 256 * MIB);
	assert_int_equal(p.limit[TC_LIMIT_TMP], 1536 * MIB);
	assert_int_equal(p.limit[TC_LIMIT_WALL], 250);
	assert_int_equal(p.limit[TC_LIMIT_CPU_TIME], 1); /* rounded up */
	assert_int_equal(p.limit[TC_LIMIT_CPUS], 500);
	assert_int_equal(p.limit[TC_LIMIT_SHM], 512 * 1024);
	assert_int_equal(p.limit[TC_LIMIT_STDOUT], MIB);
	assert_int_equal(p.limit_max[TC_LIMIT_MEMORY], 1024 * MIB);
	assert_int_equal(p.limit_max[TC_LIMIT_CPUS], 2250);
	assert_int_equal(p.limit_max[TC_LIMIT_WALL], 60000);
	assert_int_equal(p.limit_max[TC_LIMIT_PIDS], 64); /* missing max = the limit */
	assert_int_equal(p.limit_max[TC_LIMIT_TMP], 1536 * MIB);
	assert_true(p.allow_ro_bind);
	assert_false(p.allow_bind);
	assert_true(p.require_cgroup2);
	tc_policy_release(&p);

	/* decimals the file wrote survive their binary approximation */
	parse_ok("{\"version\": 1, \"limits\": {\"timeout\": 4.35, \"cpus\": 0.29}}", &p);
	assert_int_equal(p.limit[TC_LIMIT_WALL], 4350);
	assert_int_equal(p.limit[TC_LIMIT_CPUS], 290);
	tc_policy_release(&p);
}

static void test_shipped_policies(void **state)
{
	static const char *const env[] = { "PATH=/usr/bin",
					   "HOME=/tmp",
					   "TMPDIR=/tmp",
					   "LANG=C.UTF-8",
					   "PYTHONPYCACHEPREFIX=/tmp/pycache",
					   "MALLOC_ARENA_MAX=2" };
	unsigned char sum[32], zero[32] = { 0 };
	struct tc_error e = { 0 };
	struct tc_policy p;
	char path[512], *buf;
	size_t i, len;

	snprintf(path, sizeof(path), "%s/policies/default.json", TC_SOURCE_DIR);
	if (tc_policy_load(path, &p, &e) != 0)
		fail_msg("%s", e.message);
	assert_string_equal(p.origin, path);
	buf = read_source_file("policies/default.json", &len);
	tc_sha256(buf, len, sum);
	free(buf);
	assert_memory_equal(p.sha256, sum, 32);
	assert_memory_not_equal(p.sha256, zero, 32);
	assert_int_equal(p.limit[TC_LIMIT_MEMORY], 256 * MIB);
	assert_int_equal(p.limit[TC_LIMIT_CPUS], 1000);
	assert_int_equal(p.limit[TC_LIMIT_WALL], 30000);
	assert_int_equal(p.limit[TC_LIMIT_PIDS], 64);
	assert_int_equal(p.limit[TC_LIMIT_TMP], 64 * MIB);
	assert_int_equal(p.limit[TC_LIMIT_REQUEST], MIB);
	assert_int_equal(p.limit[TC_LIMIT_STDOUT], MIB);
	assert_int_equal(p.limit[TC_LIMIT_STDERR], 64 * 1024);
	for (i = 0; i < TC_LIMIT__MAX; i++)
		assert_int_equal(p.limit_max[i], p.limit[i]); /* tighten only */
	assert_true(p.allow_ro_bind && p.allow_workspace && p.allow_env && p.allow_pass_env);
	assert_false(p.allow_bind);
	assert_false(p.require_cgroup2);
	assert_int_equal(p.n_env, sizeof(env) / sizeof(env[0]));
	for (i = 0; i < p.n_env; i++) {
		assert_string_equal(p.env[i], env[i]);
		assert_false(tc_startswith(p.env[i], "PYTHONDONTWRITEBYTECODE="));
	}
	tc_policy_release(&p);

	shipped("policies/production.json", &p);
	assert_true(p.require_cgroup2);
	assert_int_equal(p.limit[TC_LIMIT_MEMORY], 128 * MIB);
	assert_int_equal(p.limit[TC_LIMIT_WALL], 10000);
	assert_int_equal(p.limit[TC_LIMIT_PIDS], 32);
	assert_int_equal(p.n_pass_env, 0);
	assert_int_equal(p.n_binds, 0);
	assert_false(p.allow_ro_bind || p.allow_bind || p.allow_workspace || p.allow_pass_env);
	for (i = 0; i < TC_LIMIT__MAX; i++)
		assert_true(p.limit_max[i] <= 2 * p.limit[i]);
	tc_policy_release(&p);
}

static void test_load_errors(void **state)
{
	char path[] = "/tmp/tc-policy-XXXXXX";
	struct tc_error e = { 0 };
	struct tc_policy p;
	int fd;

	assert_int_equal(tc_policy_load("/nonexistent/policy.json", &p, &e), -ENOENT);
	assert_string_equal(
		e.message,
		"cannot read policy file /nonexistent/policy.json: No such file or directory");
	assert_int_equal(e.stage, TC_STAGE_POLICY);
	assert_int_equal(tc_policy_load("/tmp", &p, &e), -EISDIR);
	assert_int_equal(tc_policy_load("/dev/null", &p, &e), -EINVAL);
	assert_string_equal(e.message, "/dev/null: not a regular file (a FIFO, socket or device "
				       "is never read as a policy); name the policy file itself");

	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, TC_POLICY_FILE_MAX + 1), 0);
	assert_int_equal(tc_policy_load(path, &p, &e), -EFBIG);
	assert_true(strstr(e.message, "larger than 1048576 bytes") != NULL);
	assert_int_equal(ftruncate(fd, 0), 0);
	assert_int_equal(tc_write_all(fd, "{\"version\": 3}", 14), 0);
	assert_int_equal(tc_policy_load(path, &p, &e), -EINVAL);
	assert_true(tc_startswith(e.message, path));
	assert_true(strstr(e.message, ": version: expected 1") != NULL);
	close(fd);
	unlink(path);
	/* a FIFO with no writer: refused at once, never waited on */
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(tc_policy_load(path, &p, &e), -EINVAL);
	assert_true(strstr(e.message, ": not a regular file (a FIFO") != NULL);
	unlink(path);
}

/* --- to_json ------------------------------------------------------------ */

static void assert_same_policy(const struct tc_policy *a, const struct tc_policy *b)
{
	size_t i;

	assert_memory_equal(a->limit, b->limit, sizeof(a->limit));
	assert_memory_equal(a->limit_max, b->limit_max, sizeof(a->limit_max));
	assert_int_equal(a->allow_ro_bind, b->allow_ro_bind);
	assert_int_equal(a->allow_bind, b->allow_bind);
	assert_int_equal(a->allow_workspace, b->allow_workspace);
	assert_int_equal(a->allow_env, b->allow_env);
	assert_int_equal(a->allow_pass_env, b->allow_pass_env);
	assert_int_equal(a->allow_cgroup_parent, b->allow_cgroup_parent);
	assert_int_equal(a->n_binds, b->n_binds);
	for (i = 0; i < a->n_binds; i++) {
		assert_string_equal(a->binds[i].host, b->binds[i].host);
		assert_string_equal(a->binds[i].inside, b->binds[i].inside);
		assert_int_equal(a->binds[i].writable, b->binds[i].writable);
	}
	assert_int_equal(a->n_env, b->n_env);
	for (i = 0; i < a->n_env; i++)
		assert_string_equal(a->env[i], b->env[i]);
	assert_int_equal(a->n_pass_env, b->n_pass_env);
	for (i = 0; i < a->n_pass_env; i++)
		assert_string_equal(a->pass_env[i], b->pass_env[i]);
	assert_string_equal(a->hostname, b->hostname);
	assert_int_equal(a->uid_base, b->uid_base);
	assert_int_equal(a->uid_count, b->uid_count);
	assert_int_equal(a->require_cgroup2, b->require_cgroup2);
	assert_true((a->rootfs_name == NULL) == (b->rootfs_name == NULL));
	if (a->rootfs_name)
		assert_string_equal(a->rootfs_name, b->rootfs_name);
	assert_int_equal(a->n_allow_rootfs, b->n_allow_rootfs);
	for (i = 0; i < a->n_allow_rootfs; i++)
		assert_string_equal(a->allow_rootfs[i], b->allow_rootfs[i]);
	assert_int_equal(a->n_programs, b->n_programs);
	for (i = 0; i < a->n_programs; i++)
		assert_string_equal(a->programs[i], b->programs[i]);
	if (a->session_json || b->session_json)
		assert_string_equal(a->session_json, b->session_json);
	if (a->cgroup_parent || b->cgroup_parent)
		assert_string_equal(a->cgroup_parent, b->cgroup_parent);
	assert_int_equal(a->require_landlock, b->require_landlock);
	assert_memory_equal(a->syscalls.allow, b->syscalls.allow, sizeof(a->syscalls.allow));
	assert_memory_equal(a->syscalls.kill, b->syscalls.kill, sizeof(a->syscalls.kill));
	assert_int_equal(a->syscalls.kill_others, b->syscalls.kill_others);
	assert_int_equal(a->require_cgroup2, b->require_cgroup2);
	if (a->cgroup_parent || b->cgroup_parent)
		assert_string_equal(a->cgroup_parent, b->cgroup_parent);
}

static void round_trip(const struct tc_policy *p)
{
	struct tc_error e = { 0 };
	struct tc_policy q;
	char *a, *b;

	a = tc_policy_to_json(p);
	assert_non_null(a);
	if (tc_policy_parse(a, strlen(a), "to_json", &q, &e) != 0)
		fail_msg("to_json output refused: %s\n%s", e.message, a);
	assert_same_policy(p, &q);
	b = tc_policy_to_json(&q);
	assert_non_null(b);
	assert_string_equal(a, b);
	free(a);
	free(b);
	tc_policy_release(&q);
}

static void test_to_json(void **state)
{
	static const char *const keys[] = {
		"version",	  "network", "hostname", "limits",  "max",
		"allow",	  "env",     "pass_env", "binds",   "uid_range",
		"require",	  "seccomp", "rootfs",	 "session", "warn_env_not_passed",
		"workspace_apply"
	};
	struct tc_policy p;
	const cJSON *lim;
	cJSON *doc;
	char *s;
	size_t i;

	shipped("policies/default.json", &p);
	round_trip(&p);
	s = tc_policy_to_json(&p);
	doc = cJSON_Parse(s);
	assert_non_null(doc);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		assert_non_null(cJSON_GetObjectItemCaseSensitive(doc, keys[i]));
	assert_int_equal(cJSON_GetArraySize(doc), sizeof(keys) / sizeof(keys[0]));
	lim = cJSON_GetObjectItemCaseSensitive(doc, "limits");
	assert_int_equal(cJSON_GetArraySize(lim), TC_LIMIT__MAX);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "max")),
			 TC_LIMIT__MAX);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(lim, "memory")->valuestring, "256M");
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(lim, "stderr_size")->valuestring,
			    "64K");
	assert_true(cJSON_GetObjectItemCaseSensitive(lim, "timeout")->valuedouble == 30);
	assert_true(cJSON_GetObjectItemCaseSensitive(lim, "cpus")->valuedouble == 1);
	assert_true(cJSON_GetObjectItemCaseSensitive(lim, "pids")->valuedouble == 64);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(
				    cJSON_GetObjectItemCaseSensitive(doc, "env"), "PATH")
				    ->valuestring,
			    "/usr/bin");
	cJSON_Delete(doc);
	free(s);
	tc_policy_release(&p);

	shipped("policies/production.json", &p);
	round_trip(&p);
	tc_policy_release(&p);

	shipped("policies/workspace.json", &p);
	assert_string_equal(p.rootfs_name, "workspace");
	assert_int_equal(p.n_programs, 7);
	assert_string_equal(p.programs[1], "cat");
	round_trip(&p);
	tc_policy_release(&p);

	parse_ok("{\"version\": 1, \"hostname\": \"h\", \"limits\": {\"memory\": 4194305, "
		 "\"timeout\": 0.001, \"cpus\": 0.01, \"cpu_time\": 86399.999, \"tmp_size\": "
		 "\"1.5G\", \"file_size\": \"1T\"}, \"max\": {\"memory\": \"64G\", \"timeout\": "
		 "86400, \"cpus\": 1024}, \"allow\": {\"bind\": true}, \"env\": {\"A\": \"x=y\", "
		 "\"B\": \"\", \"C\": \"\\t\\\"\\u00e9\"}, \"pass_env\": [\"HOME\", \"TERM\"], "
		 "\"binds\": [{\"host\": \"/srv/a\", \"inside\": \"/a\", \"writable\": true}, "
		 "{\"host\": \"/srv/b\"}], \"uid_range\": {\"start\": 1, \"count\": 2}, "
		 "\"require\": {\"cgroup2\": true}}",
		 &p);
	assert_int_equal(p.limit[TC_LIMIT_CPU_TIME], 86399999);
	assert_string_equal(p.env[0], "A=x=y");
	assert_string_equal(p.env[2], "C=\t\"\xc3\xa9");
	round_trip(&p);
	tc_policy_release(&p);
}

/* --- apply ---------------------------------------------------------------- */

static void apply_refused(const struct tc_policy *p, const struct tc_overrides *o,
			  char *const *envp, int want_r, const char *want)
{
	struct tc_error e = { 0 };
	struct tc_config c;
	int r = tc_policy_apply(p, o, envp, "/rootfs", &c, &e);

	if (r != want_r || strcmp(e.message, want))
		fail_msg("got %d: %s\nwant %d: %s", r, e.message, want_r, want);
	assert_int_equal(e.stage, TC_STAGE_POLICY);
	assert_null(c.hostname); /* released on failure */
	assert_int_equal(c.n_env + c.n_binds, 0);
}

static void apply_ok(const struct tc_policy *p, const struct tc_overrides *o, char *const *envp,
		     struct tc_config *c)
{
	struct tc_error e = { 0 };

	if (tc_policy_apply(p, o, envp, "/rootfs", c, &e) != 0)
		fail_msg("apply refused: %s", e.message);
}

static void test_apply_defaults(void **state)
{
	struct tc_overrides o = { 0 };
	struct tc_policy p;
	struct tc_config c;
	size_t i;

	shipped("policies/default.json", &p);
	apply_ok(&p, &o, NULL, &c);
	assert_memory_equal(c.limit, p.limit, sizeof(c.limit));
	assert_string_equal(c.rootfs, "/rootfs");
	assert_string_equal(c.hostname, "toolcell");
	assert_int_equal(c.n_env, p.n_env);
	for (i = 0; i < c.n_env; i++)
		assert_string_equal(c.env[i], p.env[i]);
	assert_null(c.env[c.n_env]);
	assert_null(c.workspace);
	assert_int_equal(c.n_binds, 0);
	assert_int_equal(c.uid_base, p.uid_base);
	assert_int_equal(c.uid_count, p.uid_count);
	assert_false(c.require_cgroup2);
	tc_config_release(&c);

	o.rootfs = "/other";
	apply_ok(&p, &o, NULL, &c);
	assert_string_equal(c.rootfs, "/other");
	tc_config_release(&c);
	tc_policy_release(&p);
}

static void test_apply_ceilings(void **state)
{
	struct tc_overrides o = { 0 };
	struct tc_policy p;
	struct tc_config c;

	shipped("policies/default.json", &p);
	o.has[TC_LIMIT_MEMORY] = true;
	o.limit[TC_LIMIT_MEMORY] = 512 * MIB;
	apply_refused(&p, &o, NULL, -EPERM,
		      "--memory 512M is above the policy's ceiling of 256M (policies/default.json: "
		      "max.memory)");
	o.limit[TC_LIMIT_MEMORY] = 256 * MIB + 1;
	apply_refused(&p, &o, NULL, -EPERM,
		      "--memory 268435457 is above the policy's ceiling of 256M "
		      "(policies/default.json: max.memory)");
	o.limit[TC_LIMIT_MEMORY] = MIB;
	apply_refused(&p, &o, NULL, -EINVAL, "--memory 1M is below toolcell's minimum of 4M");
	o.limit[TC_LIMIT_MEMORY] = 128 * MIB;
	apply_ok(&p, &o, NULL, &c);
	assert_int_equal(c.limit[TC_LIMIT_MEMORY], 128 * MIB);
	assert_int_equal(c.limit[TC_LIMIT_PIDS], 64);
	tc_config_release(&c);
	o.limit[TC_LIMIT_MEMORY] = 256 * MIB; /* the ceiling itself is fine */
	apply_ok(&p, &o, NULL, &c);
	tc_config_release(&c);
	o.has[TC_LIMIT_MEMORY] = false;

	o.has[TC_LIMIT_WALL] = true;
	o.limit[TC_LIMIT_WALL] = 60000;
	apply_refused(&p, &o, NULL, -EPERM,
		      "--timeout 60s is above the policy's ceiling of 30s (policies/default.json: "
		      "max.timeout)");
	o.limit[TC_LIMIT_WALL] = 1500;
	apply_ok(&p, &o, NULL, &c);
	assert_int_equal(c.limit[TC_LIMIT_WALL], 1500);
	tc_config_release(&c);
	o.has[TC_LIMIT_WALL] = false;

	o.has[TC_LIMIT_CPUS] = true;
	o.limit[TC_LIMIT_CPUS] = 2500;
	apply_refused(&p, &o, NULL, -EPERM,
		      "--cpus 2.5 is above the policy's ceiling of 1 (policies/default.json: "
		      "max.cpus)");
	o.limit[TC_LIMIT_CPUS] = 5;
	apply_refused(&p, &o, NULL, -EINVAL, "--cpus 0.005 is below toolcell's minimum of 0.01");
	o.has[TC_LIMIT_CPUS] = false;

	o.has[TC_LIMIT_PIDS] = true;
	o.limit[TC_LIMIT_PIDS] = 65;
	apply_refused(&p, &o, NULL, -EPERM,
		      "--pids 65 is above the policy's ceiling of 64 (policies/default.json: "
		      "max.pids)");
	o.has[TC_LIMIT_PIDS] = false;
	o.has[TC_LIMIT_STDERR] = true;
	o.limit[TC_LIMIT_STDERR] = 1024;
	apply_refused(&p, &o, NULL, -EINVAL, "--stderr-size 1K is below toolcell's minimum of 4K");
	tc_policy_release(&p);

	/* a max above the limit lets a caller loosen up to it */
	parse_ok("{\"version\": 1, \"max\": {\"memory\": \"1G\"}}", &p);
	memset(&o, 0, sizeof(o));
	o.has[TC_LIMIT_MEMORY] = true;
	o.limit[TC_LIMIT_MEMORY] = 1024 * MIB;
	apply_ok(&p, &o, NULL, &c);
	assert_int_equal(c.limit[TC_LIMIT_MEMORY], 1024 * MIB);
	tc_config_release(&c);
	o.limit[TC_LIMIT_MEMORY] = 1025 * MIB;
	apply_refused(&p, &o, NULL, -EPERM,
		      "--memory 1025M is above the policy's ceiling of 1G (policies/x.json: "
		      "max.memory)");
	tc_policy_release(&p);
}

static void test_apply_binds(void **state)
{
	struct tc_overrides o = { 0 };
	struct tc_policy p;
	struct tc_config c;
	size_t i;

	shipped("policies/default.json", &p);
	o.binds[0] = (struct tc_bind){ "/home/alice/data", NULL, false };
	o.binds[1] = (struct tc_bind){ "/srv/models", "/models", false };
	o.n_binds = 2;
	o.workspace = "/home/alice/ws";
	apply_ok(&p, &o, NULL, &c);
	assert_int_equal(c.n_binds, 2);
	assert_string_equal(c.binds[0].inside, "/home/alice/data");
	assert_string_equal(c.binds[1].host, "/srv/models");
	assert_string_equal(c.binds[1].inside, "/models");
	assert_false(c.binds[1].writable);
	assert_string_equal(c.workspace, "/home/alice/ws");
	assert_string_equal(c.workspace_inside, "/workspace");
	tc_config_release(&c);

	o.binds[1].writable = true;
	apply_refused(&p, &o, NULL, -EPERM,
		      "--bind is not allowed by the policy (policies/default.json: allow.bind is "
		      "false)");
	o.binds[1].writable = false;
	o.binds[1].host = "/proc";
	apply_refused(&p, &o, NULL, -EINVAL,
		      "--ro-bind /proc: host path is at or beneath /proc, which is never bound");
	o.binds[1] = (struct tc_bind){ "/usr/lib", NULL, false };
	apply_refused(&p, &o, NULL, -EINVAL,
		      "--ro-bind /usr/lib: inside path /usr/lib is at or beneath /usr, which the "
		      "launcher owns (give HOST:INSIDE to bind it elsewhere)");
	o.binds[1] = (struct tc_bind){ "/srv/x", "/workspace", false };
	apply_refused(&p, &o, NULL, -EINVAL,
		      "--ro-bind /srv/x: inside path /workspace is at or beneath /workspace, which "
		      "the launcher owns");
	o.binds[1] = (struct tc_bind){ "/srv/x", "/home/alice/data", false };
	apply_refused(&p, &o, NULL, -EINVAL,
		      "--ro-bind /srv/x: /home/alice/data is already bound inside");
	o.binds[1] = (struct tc_bind){ "/srv/x/", "/x", false };
	apply_refused(&p, &o, NULL, -EINVAL,
		      "--ro-bind /srv/x/: host path is not normalized (no \".\" or \"..\" "
		      "components, no \"//\", no trailing \"/\")");
	o.binds[1] = (struct tc_bind){ "/home", "/x", false };
	apply_refused(&p, &o, NULL, -EINVAL,
		      "--ro-bind /home: host path is a home directory root; bind a folder in it");
	o.n_binds = 1;
	o.workspace = "/";
	apply_refused(&p, &o, NULL, -EINVAL, "--workspace /: host path is the host's root");
	o.workspace = "ws";
	apply_refused(&p, &o, NULL, -EINVAL, "--workspace ws: host path is not an absolute path");
	tc_policy_release(&p);

	shipped("policies/production.json", &p);
	apply_refused(&p, &o, NULL, -EPERM,
		      "--ro-bind is not allowed by the policy (policies/production.json: "
		      "allow.ro_bind is false)");
	o.n_binds = 0;
	o.workspace = "/srv/ws";
	apply_refused(&p, &o, NULL, -EPERM,
		      "--workspace is not allowed by the policy (policies/production.json: "
		      "allow.workspace is false)");
	tc_policy_release(&p);

	/* policy binds come first; a writable caller bind where allowed */
	parse_ok("{\"version\": 1, \"allow\": {\"bind\": true}, \"binds\": [{\"host\": \"/srv/p\", "
		 "\"inside\": \"/p\"}]}",
		 &p);
	memset(&o, 0, sizeof(o));
	o.binds[0] = (struct tc_bind){ "/srv/q", "/q", true };
	o.n_binds = 1;
	apply_ok(&p, &o, NULL, &c);
	assert_int_equal(c.n_binds, 2);
	assert_string_equal(c.binds[0].inside, "/p");
	assert_string_equal(c.binds[1].inside, "/q");
	assert_true(c.binds[1].writable);
	tc_config_release(&c);
	o.binds[0] = (struct tc_bind){ "/srv/q", NULL, false };
	apply_refused(&p, &o, NULL, -EPERM,
		      "--ro-bind is not allowed by the policy (policies/x.json: allow.ro_bind is "
		      "false)");
	o.binds[0] = (struct tc_bind){ "/srv/q", "/p", true };
	apply_refused(&p, &o, NULL, -EINVAL, "--bind /srv/q: /p is already bound inside");
	tc_policy_release(&p);

	/* policy binds and caller binds share TC_MAX_BINDS */
	{
		char json[4096];
		size_t off =
			(size_t)sprintf(json, "{\"version\": 1, \"allow\": {\"ro_bind\": true}, "
					      "\"binds\": [");
		for (i = 0; i < TC_MAX_BINDS; i++)
			off += (size_t)sprintf(json + off, "%s{\"host\": \"/d%zu\"}", i ? ", " : "",
					       i);
		strcpy(json + off, "]}");
		parse_ok(json, &p);
	}
	o.binds[0] = (struct tc_bind){ "/srv/q", NULL, false };
	apply_refused(&p, &o, NULL, -E2BIG,
		      "more than 32 binds (the policy's and the command line's together)");
	tc_policy_release(&p);
}

static void test_apply_env_order(void **state)
{
	static char *envp[] = { "B=host_b", "C=host_c",	  "D=host_d", "TOOLCELL_POLICY=/x",
				"E=host_e", "D=second_d", NULL };
	static const char *const want[] = { "A=caller", "B=host_b", "C=host_c",
					    "E=5",	"D=host_d", NULL };
	struct tc_overrides o = { 0 };
	struct tc_policy p;
	struct tc_config c;
	size_t i;

	parse_ok("{\"version\": 1, \"allow\": {\"env\": true, \"pass_env\": true}, \"env\": "
		 "{\"A\": \"1\", \"B\": \"2\"}, \"pass_env\": [\"C\", \"B\", \"NOT_SET\"]}",
		 &p);
	o.env[0] = "A=caller";
	o.env[1] = "E=5";
	o.n_env = 2;
	o.pass_env[0] = "D";
	o.pass_env[1] = "Z_NOT_SET";
	o.n_pass_env = 2;
	apply_ok(&p, &o, envp, &c);
	assert_int_equal(c.n_env, 5);
	for (i = 0; i <= c.n_env; i++) {
		if (want[i])
			assert_string_equal(c.env[i], want[i]);
		else
			assert_null(c.env[i]);
	}
	tc_config_release(&c);

	/* --pass-env after --env: the host's value wins */
	o.env[0] = "D=caller";
	o.n_env = 1;
	o.n_pass_env = 1;
	apply_ok(&p, &o, envp, &c);
	assert_string_equal(c.env[c.n_env - 1], "D=host_d");
	for (i = 0; i < c.n_env; i++)
		assert_false(tc_startswith(c.env[i], "D=caller"));
	tc_config_release(&c);

	/* no environment at all: pass_env names are skipped */
	o.n_pass_env = 0;
	o.n_env = 0;
	apply_ok(&p, &o, NULL, &c);
	assert_int_equal(c.n_env, 2);
	assert_string_equal(c.env[0], "A=1");
	assert_string_equal(c.env[1], "B=2");
	tc_config_release(&c);
	tc_policy_release(&p);
}

static void test_apply_env_refusals(void **state)
{
	static char *envp[] = { "TOOLCELL_POLICY=/x", "HOME=/home/a", NULL };
	struct tc_overrides o = { 0 };
	struct tc_policy p;
	struct tc_config c;
	char *big;
	size_t i;

	shipped("policies/default.json", &p);
	o.env[0] = "TOOLCELL_X=1";
	o.n_env = 1;
	apply_refused(&p, &o, envp, -EINVAL,
		      "--env TOOLCELL_X=1: the name starts with TOOLCELL_: toolcell's own settings "
		      "are never passed to the tool");
	o.env[0] = "FOO";
	apply_refused(&p, &o, envp, -EINVAL, "--env FOO: expected NAME=VALUE");
	o.env[0] = "=x";
	apply_refused(&p, &o, envp, -EINVAL,
		      "--env =x: the name is not a variable name ([A-Za-z_][A-Za-z0-9_]*)");
	o.env[0] = "1X=2";
	apply_refused(&p, &o, envp, -EINVAL,
		      "--env 1X=2: the name is not a variable name ([A-Za-z_][A-Za-z0-9_]*)");
	o.n_env = 0;
	o.pass_env[0] = "TOOLCELL_POLICY";
	o.n_pass_env = 1;
	apply_refused(&p, &o, envp, -EINVAL,
		      "--pass-env TOOLCELL_POLICY: the name starts with TOOLCELL_: toolcell's own "
		      "settings are never passed to the tool");
	o.pass_env[0] = "HOME";
	apply_ok(&p, &o, envp, &c);
	assert_string_equal(c.env[1], "HOME=/home/a"); /* replaced in place */
	for (i = 0; i < c.n_env; i++)
		assert_false(tc_startswith(c.env[i], "TOOLCELL_"));
	tc_config_release(&c);
	o.n_pass_env = 0;

	/* NAME=VALUE up to TC_ENV_ENTRY_MAX bytes */
	big = malloc(TC_ENV_ENTRY_MAX + 2);
	assert_non_null(big);
	memset(big, 'v', TC_ENV_ENTRY_MAX + 1);
	big[0] = 'A';
	big[1] = '=';
	big[TC_ENV_ENTRY_MAX] = '\0';
	o.env[0] = big;
	o.n_env = 1;
	apply_ok(&p, &o, envp, &c);
	tc_config_release(&c);
	big[TC_ENV_ENTRY_MAX] = 'v';
	big[TC_ENV_ENTRY_MAX + 1] = '\0';
	apply_refused(
		&p, &o, envp, -E2BIG,
		"--env A=vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv...: longer than 32768 bytes");
	free(big);
	tc_policy_release(&p);

	/* the allow keys */
	parse_ok("{\"version\": 1}", &p);
	o.env[0] = "A=1";
	o.n_env = 1;
	apply_refused(&p, &o, envp, -EPERM,
		      "--env is not allowed by the policy (policies/x.json: allow.env is false)");
	o.n_env = 0;
	o.pass_env[0] = "HOME";
	o.n_pass_env = 1;
	apply_refused(&p, &o, envp, -EPERM,
		      "--pass-env is not allowed by the policy (policies/x.json: allow.pass_env is "
		      "false)");
	tc_policy_release(&p);
}

static void test_apply_env_total(void **state)
{
	struct tc_overrides o = { 0 };
	struct tc_policy p;
	struct tc_config c;
	char json[4096];
	size_t i, off;

	off = (size_t)sprintf(json, "{\"version\": 1, \"allow\": {\"env\": true}, \"env\": {");
	for (i = 0; i < TC_MAX_ENV; i++)
		off += (size_t)sprintf(json + off, "%s\"V%zu\": \"x\"", i ? ", " : "", i);
	strcpy(json + off, "}}");
	parse_ok(json, &p);
	o.env[0] = "V3=replaced"; /* replacing keeps the count */
	o.n_env = 1;
	apply_ok(&p, &o, NULL, &c);
	assert_int_equal(c.n_env, TC_MAX_ENV);
	assert_string_equal(c.env[3], "V3=replaced");
	assert_null(c.env[TC_MAX_ENV]);
	tc_config_release(&c);
	o.env[1] = "NEW=1";
	o.n_env = 2;
	apply_refused(&p, &o, NULL, -E2BIG,
		      "more than 64 environment variables (the policy's and the command line's "
		      "together)");
	tc_policy_release(&p);
}

static void test_apply_copies(void **state)
{
	struct tc_overrides o = { 0 };
	struct tc_policy p;
	struct tc_config c;
	char host[] = "/srv/data", env[] = "A=1";

	parse_ok("{\"version\": 1, \"hostname\": \"box\", \"allow\": {\"ro_bind\": true, \"env\": "
		 "true}, \"uid_range\": {\"start\": 100000000, \"count\": 1000}, \"require\": "
		 "{\"cgroup2\": true}}",
		 &p);
	o.binds[0] = (struct tc_bind){ host, NULL, false };
	o.n_binds = 1;
	o.env[0] = env;
	o.n_env = 1;
	apply_ok(&p, &o, NULL, &c);
	tc_policy_release(&p); /* c owns its own copies */
	host[1] = 'X';
	env[0] = 'X';
	assert_string_equal(c.binds[0].host, "/srv/data");
	assert_string_equal(c.env[0], "A=1");
	assert_string_equal(c.hostname, "box");
	assert_int_equal(c.uid_base, 100000000);
	assert_int_equal(c.uid_count, 1000);
	assert_true(c.require_cgroup2);
	tc_config_release(&c);
}

/* require.landlock: false, true (any ABI) or the lowest ABI. */
static void test_require_landlock(void **state)
{
	struct tc_policy p;

	(void)state;
	parse_ok("{\"version\": 1}", &p);
	assert_int_equal(p.require_landlock, 0);
	tc_policy_release(&p);
	parse_ok("{\"version\": 1, \"require\": {\"landlock\": true}}", &p);
	assert_int_equal(p.require_landlock, 1);
	round_trip(&p);
	tc_policy_release(&p);
	parse_ok("{\"version\": 1, \"require\": {\"landlock\": 6, \"cgroup2\": true}}", &p);
	assert_int_equal(p.require_landlock, 6);
	assert_true(p.require_cgroup2);
	round_trip(&p);
	tc_policy_release(&p);
	parse_ok("{\"version\": 1, \"require\": {\"landlock\": false}}", &p);
	assert_int_equal(p.require_landlock, 0);
	round_trip(&p);
	tc_policy_release(&p);
	refused("{\"version\": 1, \"require\": {\"landlock\": 256}}",
		"require.landlock: expected false, true (any Landlock ABI) or the lowest ABI "
		"number, 1 to 255, got 256");
	refused("{\"version\": 1, \"require\": {\"landlock\": 1.5}}", "got 1.5");
	refused("{\"version\": 1, \"require\": {\"landlock\": \"6\"}}", "got \"6\"");
}

static bool allows(const struct tc_policy *p, int nr)
{
	return tc_syscall_in(p->syscalls.allow, nr);
}

/* The seccomp section: the built-in lists by default; a whole list, or
 * additions and removals; extra kills; what other calls do. */
static void test_seccomp_section(void **state)
{
	struct tc_syscall_policy def;
	struct tc_policy p;

	(void)state;
	tc_syscall_policy_default(&def);
	parse_ok("{\"version\": 1}", &p);
	assert_memory_equal(p.syscalls.allow, def.allow, sizeof(def.allow));
	assert_memory_equal(p.syscalls.kill, def.kill, sizeof(def.kill));
	assert_false(p.syscalls.kill_others);
	tc_policy_release(&p);

	parse_ok("{\"version\": 1, \"seccomp\": {\"add\": [\"syslog\", \"ioprio_set\"], "
		 "\"remove\": [\"getcpu\"], \"kill\": [\"getcpu\"], \"otherwise\": "
		 "\"kill\"}}",
		 &p);
	assert_true(allows(&p, SYS_syslog));
	assert_false(tc_syscall_in(p.syscalls.kill, SYS_syslog)); /* allowed now */
	assert_true(allows(&p, SYS_ioprio_set));
	assert_false(allows(&p, SYS_getcpu));
	assert_true(tc_syscall_in(p.syscalls.kill, SYS_getcpu));
	assert_true(tc_syscall_in(p.syscalls.kill, SYS_ptrace)); /* the built-in kills stay */
	assert_true(p.syscalls.kill_others);
	round_trip(&p);
	{
		/* a dangerous call allowed is warned about, one line */
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		assert_int_equal(tc_policy_warnings(&p, f), 1);
		fclose(f);
		assert_string_equal(buf, "toolcell: warning: policies/x.json: seccomp allows "
					 "\"syslog\", a call toolcell's default refuses by ending "
					 "the tool\n");
		free(buf);
	}
	tc_policy_release(&p);

	/* a whole list replaces the built-in one */
	parse_ok("{\"version\": 1, \"seccomp\": {\"allow\": [\"execve\", \"sendmsg\", "
		 "\"close\", \"exit_group\", \"exit\", \"rt_sigreturn\", "
		 "\"rt_sigtimedwait\", \"wait4\", \"kill\", \"restart_syscall\", "
		 "\"write\"]}}",
		 &p);
	assert_true(allows(&p, SYS_write));
	assert_false(allows(&p, SYS_read));
	assert_true(tc_syscall_in(p.syscalls.kill, SYS_ptrace));
	round_trip(&p);
	tc_policy_release(&p);

	refused("{\"version\": 1, \"seccomp\": {\"allow\": [\"read\"]}}",
		"seccomp.allow: lacks \"close\", \"rt_sigreturn\", \"sendmsg\", \"execve\", "
		"\"exit\", \"wait4\", \"kill\", \"rt_sigtimedwait\", \"restart_syscall\", "
		"\"exit_group\", which toolcell itself makes once the filter is loaded");
	refused("{\"version\": 1, \"seccomp\": {\"add\": [\"unshare\"]}}",
		"seccomp.add[0]: toolcell never allows \"unshare\": it makes namespaces");
	refused("{\"version\": 1, \"seccomp\": {\"add\": [\"syslog\", \"ptrace\"]}}",
		"seccomp.add[1]: toolcell never allows \"ptrace\": a traced process steps "
		"around the syscall filter");
	refused("{\"version\": 1, \"seccomp\": {\"add\": [\"read\"]}}",
		"seccomp.add[0]: \"read\" is already allowed");
	refused("{\"version\": 1, \"seccomp\": {\"add\": [\"nosuchcall\"]}}",
		"seccomp.add[0]: \"nosuchcall\" is not an x86_64 system call");
	refused("{\"version\": 1, \"seccomp\": {\"add\": [\"Read\"]}}",
		"seccomp.add[0]: expected a system call name such as \"read\", got \"Read\"");
	refused("{\"version\": 1, \"seccomp\": {\"add\": [7]}}",
		"seccomp.add[0]: expected a system call name such as \"read\", got 7");
	refused("{\"version\": 1, \"seccomp\": {\"add\": \"syslog\"}}",
		"seccomp.add: expected an array of system call names, got \"syslog\"");
	refused("{\"version\": 1, \"seccomp\": {\"remove\": [\"getcpu\", \"getcpu\"]}}",
		"seccomp.remove[1]: \"getcpu\" is listed twice");
	refused("{\"version\": 1, \"seccomp\": {\"remove\": [\"execve\"]}}",
		"seccomp.remove[0]: \"execve\" cannot be removed: toolcell itself makes it");
	refused("{\"version\": 1, \"seccomp\": {\"remove\": [\"ptrace\"]}}",
		"seccomp.remove[0]: \"ptrace\" is not allowed, so it cannot be removed");
	refused("{\"version\": 1, \"seccomp\": {\"add\": [\"syslog\"], \"remove\": "
		"[\"syslog\"]}}",
		"seccomp.remove[0]: \"syslog\" is listed twice");
	refused("{\"version\": 1, \"seccomp\": {\"kill\": [\"read\"]}}",
		"seccomp.kill[0]: \"read\" is allowed; a call cannot be both allowed and killed");
	refused("{\"version\": 1, \"seccomp\": {\"otherwise\": \"errno\"}}",
		"seccomp.otherwise: expected \"enosys\" or \"kill\", got \"errno\"");
	refused("{\"version\": 1, \"seccomp\": []}", "seccomp: expected an object");
}

/* cgroup_parent: an absolute path, printed back by policy check. */
static void test_cgroup_parent(void **state)
{
	struct tc_policy p;

	(void)state;
	parse_ok("{\"version\": 1}", &p);
	assert_null(p.cgroup_parent);
	tc_policy_release(&p);
	parse_ok("{\"version\": 1, \"cgroup_parent\": \"/sys/fs/cgroup/tc\"}", &p);
	assert_string_equal(p.cgroup_parent, "/sys/fs/cgroup/tc");
	round_trip(&p);
	tc_policy_release(&p);
	refused("{\"version\": 1, \"cgroup_parent\": \"tc\"}",
		"cgroup_parent: expected the absolute path of a delegated cgroup v2 directory, got "
		"\"tc\"");
	refused("{\"version\": 1, \"cgroup_parent\": true}", "cgroup_parent: expected");
}

/* "rootfs": a variant's name; allow.rootfs: false or the names and absolute
 * paths a caller may choose, never "/". */
static void test_rootfs_keys(void **state)
{
	struct tc_policy p;

	(void)state;
	parse_ok("{\"version\": 1}", &p);
	assert_null(p.rootfs_name);
	assert_int_equal(p.n_allow_rootfs, 0);
	tc_policy_release(&p);
	parse_ok("{\"version\": 1, \"rootfs\": \"default\", \"allow\": {\"rootfs\": false}}", &p);
	assert_null(p.rootfs_name);
	assert_int_equal(p.n_allow_rootfs, 0);
	round_trip(&p);
	tc_policy_release(&p);
	parse_ok("{\"version\": 1, \"rootfs\": \"data\", \"allow\": {\"rootfs\": [\"data\", "
		 "\"workspace\", \"/srv/tc/rootfs-x\"]}}",
		 &p);
	assert_string_equal(p.rootfs_name, "data");
	assert_int_equal(p.n_allow_rootfs, 3);
	assert_string_equal(p.allow_rootfs[2], "/srv/tc/rootfs-x");
	round_trip(&p);
	tc_policy_release(&p);
	refused("{\"version\": 1, \"rootfs\": \"Big\"}", "rootfs: expected \"default\"");
	refused("{\"version\": 1, \"rootfs\": \"-x\"}", "rootfs: expected");
	refused("{\"version\": 1, \"rootfs\": \"a/b\"}", "rootfs: expected");
	refused("{\"version\": 1, \"rootfs\": \"abcdefghijabcdefghijabcdefghijabc\"}",
		"rootfs: expected");
	refused("{\"version\": 1, \"allow\": {\"rootfs\": true}}",
		"allow.rootfs: expected false or a list of rootfs variant names and absolute "
		"paths, got true");
	refused("{\"version\": 1, \"allow\": {\"rootfs\": [\"/\"]}}",
		"allow.rootfs[0]: the host's root is never a rootfs");
	refused("{\"version\": 1, \"allow\": {\"rootfs\": [\"data\", \"rel/x\"]}}",
		"allow.rootfs[1]: expected a variant name");
	refused("{\"version\": 1, \"allow\": {\"rootfs\": [1]}}", "allow.rootfs[0]: expected");
	refused("{\"version\": 1, \"allow\": {\"rootfs\": [\"a\", \"b\", \"c\", \"d\", \"e\", "
		"\"f\", \"g\", \"h\", \"i\", \"j\", \"k\", \"l\", \"m\", \"n\", \"o\", \"p\", "
		"\"q\"]}}",
		"allow.rootfs: more than 16 entries");
}

/* --cgroup-parent: only where allow.cgroup_parent says so, at or below the
 * policy's own; the policy's alone is not the caller's. */
static void test_apply_cgroup_parent(void **state)
{
	struct tc_overrides o = { 0 };
	struct tc_policy p;
	struct tc_config c;

	(void)state;
	parse_ok("{\"version\": 1, \"cgroup_parent\": \"/sys/fs/cgroup/tc\"}", &p);
	apply_ok(&p, &o, NULL, &c);
	assert_string_equal(c.cgroup_parent, "/sys/fs/cgroup/tc");
	assert_false(c.cgroup_parent_from_caller);
	tc_config_release(&c);
	o.cgroup_parent = "/sys/fs/cgroup/tc/sub";
	apply_refused(&p, &o, NULL, -EPERM,
		      "--cgroup-parent is not allowed by the policy (policies/x.json: "
		      "allow.cgroup_parent is false)");
	tc_policy_release(&p);
	parse_ok("{\"version\": 1, \"cgroup_parent\": \"/sys/fs/cgroup/tc\", \"allow\": "
		 "{\"cgroup_parent\": true}}",
		 &p);
	apply_ok(&p, &o, NULL, &c);
	assert_string_equal(c.cgroup_parent, "/sys/fs/cgroup/tc/sub");
	assert_true(c.cgroup_parent_from_caller);
	tc_config_release(&c);
	o.cgroup_parent = "/sys/fs/cgroup/tcx";
	apply_refused(&p, &o, NULL, -EPERM,
		      "--cgroup-parent /sys/fs/cgroup/tcx: not at or below the policy's "
		      "cgroup_parent /sys/fs/cgroup/tc");
	tc_policy_release(&p);
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_invalid_json), cmocka_unit_test(test_strict_scan),
	     cmocka_unit_test(test_escaped_backslash_is_not_nul), cmocka_unit_test(test_depth),
	     cmocka_unit_test(test_too_big), cmocka_unit_test(test_version),
	     cmocka_unit_test(test_unknown_and_duplicate_keys), cmocka_unit_test(test_limit_types),
	     cmocka_unit_test(test_limit_ranges), cmocka_unit_test(test_max_below_limit),
	     cmocka_unit_test(test_scalar_keys), cmocka_unit_test(test_env_rules),
	     cmocka_unit_test(test_bind_rules), cmocka_unit_test(test_bind_limits),
	     cmocka_unit_test(test_uid_range), cmocka_unit_test(test_defaults),
	     cmocka_unit_test(test_values_and_max), cmocka_unit_test(test_shipped_policies),
	     cmocka_unit_test(test_load_errors), cmocka_unit_test(test_to_json),
	     cmocka_unit_test(test_rootfs_keys), cmocka_unit_test(test_apply_defaults),
	     cmocka_unit_test(test_apply_ceilings), cmocka_unit_test(test_apply_binds),
	     cmocka_unit_test(test_apply_env_order), cmocka_unit_test(test_apply_env_refusals),
	     cmocka_unit_test(test_apply_env_total), cmocka_unit_test(test_apply_copies),
	     cmocka_unit_test(test_require_landlock), cmocka_unit_test(test_seccomp_section),
	     cmocka_unit_test(test_cgroup_parent), cmocka_unit_test(test_apply_cgroup_parent))
