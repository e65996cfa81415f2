/* Unit tests for record.c: every key README.md's record table names, for an ok run and
 * for signaled, timeout and failed runs; null with a reason for what
 * toolcell could not measure; limits, isolation and provenance shapes;
 * strings from outside toolcell made valid UTF-8. */

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "tc-test.h"
#include "protocol.h"
#include "sha256.h"
#include "audit.h"
#include "record-tree.h"
#include "toolcell/record.h"
#include "util.h"

/* The record's keys (README.md, "The result record"). */
static const char *const record_keys[] = {
	"record_version",
	"run_id",
	"verb",
	"started_at",
	"ended_at",
	"caller_uid",
	"caller_pid",
	"status",
	"status_inferred",
	"exit_code",
	"signal",
	"signal_name",
	"wall_ms",
	"cpu_user_ms",
	"cpu_system_ms",
	"toolcell_cpu_user_ms",
	"toolcell_cpu_system_ms",
	"memory_peak_bytes",
	"oom_kills",
	"pids_peak",
	"unknown",
	"stdout_bytes",
	"stderr_bytes",
	"stdout_truncated",
	"stderr_truncated",
	"denied_syscall",
	"denied_syscalls",
	"limits",
	"isolation",
	"provenance",
	"workspace",
	"error",
	"toolcell_version",
};

static const cJSON *get(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!v)
		fail_msg("no key \"%s\"", key);
	return v;
}

static const char *str(const cJSON *obj, const char *key)
{
	const cJSON *v = get(obj, key);

	assert_true(cJSON_IsString(v));
	return v->valuestring;
}

static double num(const cJSON *obj, const char *key)
{
	const cJSON *v = get(obj, key);

	assert_true(cJSON_IsNumber(v));
	return v->valuedouble;
}

static bool is_null(const cJSON *obj, const char *key)
{
	return cJSON_IsNull(get(obj, key));
}

/* The record as text (checked strictly) and parsed (caller deletes both). */
static cJSON *record(const struct tc_outcome *o, char **ret_text)
{
	char *text = tc_record_to_json(o);
	size_t len, i, n = 0;
	cJSON *r, *item;

	assert_non_null(text);
	len = strlen(text);
	assert_int_equal(text[len - 1], '\n');
	assert_int_equal(tc_json_validate(text, len, len, TC_STAGE_RESPONSE, NULL), 0);
	r = cJSON_ParseWithLengthOpts(text, len + 1, NULL, 1);
	assert_non_null(r);
	for (i = 0; i < TC_ARRAY_SIZE(record_keys); i++)
		get(r, record_keys[i]);
	cJSON_ArrayForEach(item, r) n++;
	assert_int_equal(n, TC_ARRAY_SIZE(record_keys));
	assert_string_equal(str(r, "toolcell_version"), TOOLCELL_VERSION);
	if (ret_text)
		*ret_text = text;
	else
		free(text);
	return r;
}

static void fill_ok(struct tc_outcome *o)
{
	tc_outcome_init(o);
	o->status = TC_STATUS_OK;
	o->exited = true;
	o->exit_code = 0;
	o->wall_ms = 1234;
	o->cpu_user_ms = 800;
	o->cpu_system_ms = 120;
	o->toolcell_cpu_user_ms = 7;
	o->toolcell_cpu_system_ms = 9;
	o->memory_peak_bytes = (struct tc_maybe){ .known = true, .value = 52428800 };
	o->oom_kills = (struct tc_maybe){ .known = true, .value = 0 };
	o->pids_peak = (struct tc_maybe){ .known = true, .value = 3 };
	o->stdout_bytes = 17;
	o->stderr_bytes = 0;
	o->namespaces = TC_NS_USER | TC_NS_MOUNT | TC_NS_PID | TC_NS_NET | TC_NS_IPC | TC_NS_UTS;
	o->seccomp = "kill";
	o->landlock = "abi 3";
	o->no_new_privs = true;
	o->cap_eff = 0;
	o->host_uid = 100000;
	o->host_gid = 100000;
	o->tool_uid = 1000;
}

static void test_names(void **state)
{
	assert_string_equal(tc_status_name(TC_STATUS_OK), "ok");
	assert_string_equal(tc_status_name(TC_STATUS_EXIT_NONZERO), "exit_nonzero");
	assert_string_equal(tc_status_name(TC_STATUS_SIGNALED), "signaled");
	assert_string_equal(tc_status_name(TC_STATUS_TIMEOUT), "timeout");
	assert_string_equal(tc_status_name(TC_STATUS_MEMORY_LIMIT), "memory_limit");
	assert_string_equal(tc_status_name(TC_STATUS_PIDS_LIMIT), "pids_limit");
	assert_string_equal(tc_status_name(TC_STATUS_OUTPUT_LIMIT), "output_limit");
	assert_string_equal(tc_status_name(TC_STATUS_SYSCALL_DENIED), "syscall_denied");
	assert_string_equal(tc_status_name(TC_STATUS_REJECTED), "rejected");
	assert_string_equal(tc_status_name(TC_STATUS_SANDBOX_ERROR), "sandbox_error");
	assert_string_equal(tc_status_name((enum tc_status)99), "sandbox_error");
	assert_string_equal(tc_enforcer_name(TC_ENFORCER_NONE), "none");
	assert_string_equal(tc_enforcer_name(TC_ENFORCER_RLIMIT), "rlimit");
	assert_string_equal(tc_enforcer_name(TC_ENFORCER_CGROUP2), "cgroup2");
	assert_string_equal(tc_enforcer_name(TC_ENFORCER_TOOLCELL), "toolcell");
}

static void test_hex(void **state)
{
	unsigned char d[32];
	char hex[65];
	size_t i;

	for (i = 0; i < 32; i++)
		d[i] = (unsigned char)(i * 8 + 1);
	memset(hex, 'z', sizeof(hex));
	tc_hex_sha256(d, hex);
	assert_string_equal(hex,
			    "0109111921293139414951596169717981899199a1a9b1b9c1c9d1d9e1e9f1f9");
}

/* Nothing happened yet: nothing may look like success or like root. */
static void test_init(void **state)
{
	struct tc_outcome o;
	cJSON *r, *unknown, *iso, *prov;

	memset(&o, 0x5a, sizeof(o));
	tc_outcome_init(&o);
	r = record(&o, NULL);
	assert_string_equal(str(r, "status"), "sandbox_error");
	assert_true(cJSON_IsFalse(get(r, "status_inferred")));
	/* no run: the run's fields are null, the version is not */
	assert_int_equal(num(r, "record_version"), TC_RECORD_VERSION);
	assert_true(is_null(r, "run_id"));
	assert_true(is_null(r, "started_at"));
	assert_true(is_null(r, "caller_pid"));
	assert_true(is_null(r, "exit_code"));
	assert_true(is_null(r, "signal"));
	assert_true(is_null(r, "signal_name"));
	assert_true(is_null(r, "memory_peak_bytes"));
	assert_true(is_null(r, "oom_kills"));
	assert_true(is_null(r, "pids_peak"));
	unknown = (cJSON *)get(r, "unknown");
	assert_int_equal(cJSON_GetArraySize(unknown), 3);
	assert_string_equal(str(unknown, "memory_peak_bytes"), "not measured");
	assert_string_equal(str(unknown, "oom_kills"), "not measured");
	assert_string_equal(str(unknown, "pids_peak"), "not measured");
	assert_true(is_null(r, "denied_syscall"));
	assert_int_equal(cJSON_GetArraySize(get(r, "denied_syscalls")), 0);
	assert_true(is_null(r, "error"));
	iso = (cJSON *)get(r, "isolation");
	assert_int_equal(cJSON_GetArraySize(get(iso, "namespaces")), 0);
	assert_string_equal(str(iso, "seccomp"), "none");
	assert_string_equal(str(iso, "landlock"), "unavailable");
	assert_true(cJSON_IsFalse(get(iso, "no_new_privs")));
	assert_string_equal(str(iso, "capabilities"), "0x0000000000000000");
	assert_true(is_null(iso, "uid_inside"));
	assert_true(is_null(iso, "uid_host"));
	assert_true(is_null(iso, "gid_host"));
	prov = (cJSON *)get(r, "provenance");
	assert_true(is_null(get(prov, "policy"), "path"));
	assert_true(is_null(get(prov, "policy"), "sha256"));
	assert_true(is_null(get(prov, "tool"), "path"));
	assert_true(is_null(get(prov, "tool"), "sha256"));
	assert_true(is_null(get(prov, "rootfs_manifest"), "sha256"));
	cJSON_Delete(r);
}

static void test_ok_record(void **state)
{
	struct tc_outcome o;
	cJSON *r, *iso, *ns;
	const char *want_ns[] = { "user", "mount", "pid", "net", "ipc", "uts" };
	size_t i;

	fill_ok(&o);
	r = record(&o, NULL);
	assert_string_equal(str(r, "status"), "ok");
	assert_true(cJSON_IsFalse(get(r, "status_inferred")));
	assert_int_equal(num(r, "exit_code"), 0);
	assert_true(is_null(r, "signal"));
	assert_true(is_null(r, "signal_name"));
	assert_int_equal(num(r, "wall_ms"), 1234);
	assert_int_equal(num(r, "cpu_user_ms"), 800);
	assert_int_equal(num(r, "cpu_system_ms"), 120);
	assert_int_equal(num(r, "toolcell_cpu_user_ms"), 7);
	assert_int_equal(num(r, "toolcell_cpu_system_ms"), 9);
	assert_int_equal(num(r, "memory_peak_bytes"), 52428800);
	assert_int_equal(num(r, "oom_kills"), 0);
	assert_int_equal(num(r, "pids_peak"), 3);
	assert_int_equal(cJSON_GetArraySize(get(r, "unknown")), 0);
	assert_int_equal(num(r, "stdout_bytes"), 17);
	assert_int_equal(num(r, "stderr_bytes"), 0);
	assert_true(cJSON_IsFalse(get(r, "stdout_truncated")));
	assert_true(cJSON_IsFalse(get(r, "stderr_truncated")));
	assert_true(is_null(r, "error"));

	iso = (cJSON *)get(r, "isolation");
	ns = (cJSON *)get(iso, "namespaces");
	assert_int_equal(cJSON_GetArraySize(ns), TC_ARRAY_SIZE(want_ns));
	for (i = 0; i < TC_ARRAY_SIZE(want_ns); i++)
		assert_string_equal(cJSON_GetArrayItem(ns, (int)i)->valuestring, want_ns[i]);
	assert_string_equal(str(iso, "seccomp"), "kill");
	assert_string_equal(str(iso, "landlock"), "abi 3");
	assert_true(cJSON_IsTrue(get(iso, "no_new_privs")));
	assert_int_equal(num(iso, "uid_inside"), 1000);
	assert_int_equal(num(iso, "uid_host"), 100000);
	assert_int_equal(num(iso, "gid_host"), 100000);
	assert_true(is_null(iso, "cgroup")); /* no leaf: rlimits */
	assert_int_equal(cJSON_GetArraySize(iso), 9);
	cJSON_Delete(r);
}

static void test_namespace_order_and_caps(void **state)
{
	struct tc_outcome o;
	cJSON *r, *ns, *iso;

	fill_ok(&o);
	o.namespaces = TC_NS_CGROUP | TC_NS_NET | TC_NS_USER;
	o.cap_eff = UINT64_C(0x000001ffffffffff);
	r = record(&o, NULL);
	iso = (cJSON *)get(r, "isolation");
	ns = (cJSON *)get(iso, "namespaces");
	assert_int_equal(cJSON_GetArraySize(ns), 3);
	assert_string_equal(cJSON_GetArrayItem(ns, 0)->valuestring, "user");
	assert_string_equal(cJSON_GetArrayItem(ns, 1)->valuestring, "net");
	assert_string_equal(cJSON_GetArrayItem(ns, 2)->valuestring, "cgroup");
	assert_string_equal(str(iso, "capabilities"), "0x000001ffffffffff");
	cJSON_Delete(r);
}

static void test_signaled_record(void **state)
{
	struct tc_outcome o;
	cJSON *r, *unknown;

	fill_ok(&o);
	o.status = TC_STATUS_MEMORY_LIMIT;
	o.status_inferred = true;
	o.exited = false;
	o.signaled = true;
	o.signal = SIGKILL;
	o.oom_kills =
		(struct tc_maybe){ .known = false, .reason = "no cgroup v2 (rlimit fallback)" };
	o.pids_peak = (struct tc_maybe){ .known = false, .reason = "no cgroup v2" };
	r = record(&o, NULL);
	assert_string_equal(str(r, "status"), "memory_limit");
	assert_true(cJSON_IsTrue(get(r, "status_inferred")));
	assert_true(is_null(r, "exit_code"));
	assert_int_equal(num(r, "signal"), 9);
	assert_string_equal(str(r, "signal_name"), "SIGKILL");
	assert_int_equal(num(r, "memory_peak_bytes"), 52428800);
	assert_true(is_null(r, "oom_kills"));
	assert_true(is_null(r, "pids_peak"));
	unknown = (cJSON *)get(r, "unknown");
	assert_int_equal(cJSON_GetArraySize(unknown), 2);
	assert_string_equal(str(unknown, "oom_kills"), "no cgroup v2 (rlimit fallback)");
	assert_string_equal(str(unknown, "pids_peak"), "no cgroup v2");
	cJSON_Delete(r);

	o.signal = SIGRTMIN + 2;
	r = record(&o, NULL);
	assert_string_equal(str(r, "signal_name"), "SIGRTMIN+2");
	cJSON_Delete(r);
	o.signal = SIGSYS;
	r = record(&o, NULL);
	assert_string_equal(str(r, "signal_name"), "SIGSYS");
	cJSON_Delete(r);
}

static void test_timeout_record(void **state)
{
	struct tc_outcome o;
	cJSON *r;

	fill_ok(&o);
	o.status = TC_STATUS_TIMEOUT;
	o.exited = false;
	o.signaled = true;
	o.signal = SIGKILL;
	o.wall_ms = 30001;
	o.stdout_truncated = true;
	o.stdout_bytes = 65536;
	r = record(&o, NULL);
	assert_string_equal(str(r, "status"), "timeout");
	assert_int_equal(num(r, "wall_ms"), 30001);
	assert_true(cJSON_IsTrue(get(r, "stdout_truncated")));
	assert_int_equal(num(r, "stdout_bytes"), 65536);
	assert_true(is_null(r, "error"));
	cJSON_Delete(r);
}

static void test_error_record(void **state)
{
	struct tc_outcome o;
	cJSON *r, *e;

	tc_outcome_init(&o);
	tc_error_errno(&o.err, TC_STAGE_USERNS, EPERM, "cannot create user namespace");
	r = record(&o, NULL);
	assert_string_equal(str(r, "status"), "sandbox_error");
	e = (cJSON *)get(r, "error");
	assert_int_equal(cJSON_GetArraySize(e), 4);
	assert_string_equal(str(e, "stage"), "userns");
	assert_string_equal(str(e, "message"),
			    "cannot create user namespace: Operation not permitted");
	assert_int_equal(num(e, "errno"), EPERM);
	assert_string_equal(str(e, "errno_name"), "EPERM");
	cJSON_Delete(r);

	/* no errno applies: both null */
	tc_error_set(&o.err, TC_STAGE_REQUEST, 0, "request: nesting deeper than 64 levels");
	o.status = TC_STATUS_REJECTED;
	r = record(&o, NULL);
	assert_string_equal(str(r, "status"), "rejected");
	e = (cJSON *)get(r, "error");
	assert_string_equal(str(e, "message"), "request: nesting deeper than 64 levels");
	assert_true(is_null(e, "errno"));
	assert_true(is_null(e, "errno_name"));
	cJSON_Delete(r);
}

static void test_denied_syscalls(void **state)
{
	struct tc_outcome o;
	cJSON *r, *d, *all;

	fill_ok(&o);
	o.status = TC_STATUS_SYSCALL_DENIED;
	o.has_denied_syscall = true;
	strcpy(o.denied_syscall_name, "ptrace");
	o.denied_syscall_nr = 101;
	strcpy(o.denied[0].name, "socket");
	o.denied[0].count = 3;
	strcpy(o.denied[1].name, "mount");
	o.denied[1].count = 1;
	strcpy(o.denied[2].name, "socket"); /* listed twice: one key */
	o.denied[2].count = 2;
	memset(o.denied[3].name, 'x', sizeof(o.denied[3].name)); /* no NUL in the field */
	o.denied[3].count = 7;
	o.n_denied = 4;
	r = record(&o, NULL);
	d = (cJSON *)get(r, "denied_syscall");
	assert_string_equal(str(d, "name"), "ptrace");
	assert_int_equal(num(d, "nr"), 101);
	all = (cJSON *)get(r, "denied_syscalls");
	assert_int_equal(cJSON_GetArraySize(all), 3);
	assert_int_equal(num(all, "socket"), 5);
	assert_int_equal(num(all, "mount"), 1);
	assert_int_equal(num(all, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"), 7);
	cJSON_Delete(r);

	o.n_denied = 1000; /* more than the array holds: only the array is read */
	r = record(&o, NULL);
	cJSON_Delete(r);
}

static void test_limits(void **state)
{
	struct tc_outcome o;
	cJSON *r, *limits, *l;
	char *text;
	size_t i, n = 0;

	fill_ok(&o);
	for (i = 0; i < TC_LIMIT__MAX; i++) {
		o.limit[i] = 1000 + i;
		o.enforced_by[i] = TC_ENFORCER_RLIMIT;
	}
	o.limit[TC_LIMIT_CPUS] = 500;
	o.enforced_by[TC_LIMIT_CPUS] = TC_ENFORCER_NONE;
	o.limit[TC_LIMIT_MEMORY] = UINT64_MAX;
	o.enforced_by[TC_LIMIT_MEMORY] = TC_ENFORCER_CGROUP2;
	o.enforced_by[TC_LIMIT_WALL] = TC_ENFORCER_TOOLCELL;
	r = record(&o, &text);
	limits = (cJSON *)get(r, "limits");
	for (i = 0; i < TC_LIMIT__MAX; i++) {
		const char *unit = NULL;

		if (!tc_limit_info[i].name)
			continue;
		n++;
		l = (cJSON *)get(limits, tc_limit_info[i].name);
		assert_int_equal(cJSON_GetArraySize(l), 3);
		switch (tc_limit_info[i].unit) {
		case TC_UNIT_BYTES:
			unit = "bytes";
			break;
		case TC_UNIT_COUNT:
			unit = "count";
			break;
		case TC_UNIT_MS:
			unit = "ms";
			break;
		case TC_UNIT_MILLICPU:
			unit = "cpus";
			break;
		}
		assert_string_equal(str(l, "unit"), unit);
		if (i == TC_LIMIT_CPUS) {
			assert_true(num(l, "value") == 0.5);
			assert_string_equal(str(l, "enforced_by"), "none");
		} else if (i == TC_LIMIT_MEMORY) {
			assert_string_equal(str(l, "enforced_by"), "cgroup2");
		} else if (i == TC_LIMIT_WALL) {
			assert_string_equal(str(l, "enforced_by"), "toolcell");
		} else {
			assert_int_equal(num(l, "value"), 1000 + i);
			assert_string_equal(str(l, "enforced_by"), "rlimit");
		}
	}
	assert_int_equal(cJSON_GetArraySize(limits), n);
	/* past 2^53 the value is still printed exactly */
	assert_non_null(strstr(text, "18446744073709551615"));
	free(text);
	cJSON_Delete(r);
}

static void test_provenance(void **state)
{
	struct tc_outcome o;
	unsigned char d[32] = { 0xab };
	cJSON *r, *p;

	fill_ok(&o);
	o.policy_path = "/etc/toolcell/default.json";
	tc_hex_sha256(d, o.policy_sha256);
	o.tool_path = "/srv/tools/caf\xe9.py"; /* Latin-1, not UTF-8 */
	tc_hex_sha256(d, o.tool_sha256);
	o.rootfs_sha256[0] = '\0';
	r = record(&o, NULL);
	p = (cJSON *)get(r, "provenance");
	assert_string_equal(str(get(p, "policy"), "path"), "/etc/toolcell/default.json");
	assert_string_equal(str(get(p, "policy"), "sha256"), o.policy_sha256);
	assert_string_equal(str(get(p, "tool"), "path"), "/srv/tools/caf\xef\xbf\xbd.py");
	assert_string_equal(str(get(p, "tool"), "sha256"), o.tool_sha256);
	assert_true(is_null(get(p, "rootfs_manifest"), "sha256"));
	assert_int_equal(cJSON_GetArraySize(get(p, "rootfs_manifest")), 1);
	cJSON_Delete(r);

	o.tool_path = "";
	r = record(&o, NULL);
	assert_true(is_null(get(get(r, "provenance"), "tool"), "path"));
	cJSON_Delete(r);
}

/* A message with tool-derived or cut bytes becomes valid UTF-8; control
 * characters are escaped by cJSON. */
static void test_error_message_sanitized(void **state)
{
	struct tc_outcome o;
	cJSON *r;
	char *text;

	tc_outcome_init(&o);
	tc_error_set(&o.err, TC_STAGE_RESPONSE, 0,
		     "bad \xff\xfe tail \xed\xa0\x80 ok \xc3\xa9 \x01 \xe2\x82");
	r = record(&o, &text);
	assert_string_equal(
		str(get(r, "error"), "message"),
		"bad \xef\xbf\xbd\xef\xbf\xbd tail \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd ok "
		"\xc3\xa9 \x01 \xef\xbf\xbd\xef\xbf\xbd");
	assert_non_null(strstr(text, "\\u0001"));
	cJSON_Delete(r);
	free(text);

	/* a message that fills the whole buffer, without a NUL */
	memset(o.err.message, 'm', sizeof(o.err.message));
	r = record(&o, NULL);
	assert_int_equal(strlen(str(get(r, "error"), "message")), sizeof(o.err.message));
	cJSON_Delete(r);
}

/* A whole number's bytes are the ones cJSON prints for it (record.c
 * writes the digits itself under 10^15, where %1.15g gives them all; from
 * there cJSON's own exponent form stays), and a negative exit code too. */
static void test_number_bytes(void **state)
{
	static const uint64_t values[] = { 0,
					   1,
					   9,
					   10,
					   268435456,
					   4294967295u,
					   999999999999999ull,
					   1000000000000000ull,
					   1000000000000001ull,
					   5000000000000000ull,
					   (1ull << 53) - 1,
					   1ull << 53 };
	struct tc_outcome o;
	char *text, want[64], *at;
	cJSON *n;

	(void)state;
	for (size_t i = 0; i < TC_ARRAY_SIZE(values); i++) {
		char *printed;

		fill_ok(&o);
		o.wall_ms = values[i];
		o.exit_code = -(int)i;
		n = tc_record_to_cjson(&o); /* as the server prints it */
		assert_non_null(n);
		text = cJSON_PrintUnformatted(n);
		cJSON_Delete(n);
		assert_non_null(text);
		n = cJSON_CreateNumber((double)values[i]);
		printed = cJSON_PrintUnformatted(n);
		snprintf(want, sizeof(want), "\"wall_ms\":%s,", printed);
		free(printed);
		cJSON_Delete(n);
		at = strstr(text, "\"wall_ms\":");
		assert_non_null(at);
		assert_memory_equal(at, want, strlen(want));
		n = cJSON_CreateNumber((double)-(int)i);
		printed = cJSON_PrintUnformatted(n);
		snprintf(want, sizeof(want), "\"exit_code\":%s,", printed);
		free(printed);
		cJSON_Delete(n);
		assert_non_null(strstr(text, want));
		free(text);
	}
}

/* tc_record_to_cjson as compact text (the caller frees it). */
static char *compact(const struct tc_outcome *o, struct tc_record_memo *memo)
{
	cJSON *r = tc_record_to_cjson_memo(o, memo);
	char *text;

	assert_non_null(r);
	text = cJSON_PrintUnformatted(r);
	cJSON_Delete(r);
	assert_non_null(text);
	return text;
}

/* A record built with a memo is byte for byte the one built without,
 * whatever changed since the last one: a limit, what enforces it, a
 * reason, whether a figure is known, a string NULL or not, provenance. */
static void test_memo(void **state)
{
	struct tc_record_memo memo = { 0 };
	struct tc_outcome o;

	(void)state;
	fill_ok(&o);
	o.oom_kills = (struct tc_maybe){ .known = false, .reason = "no leaf" };
	for (int step = 0; step < 12; step++) {
		char *with, *without;

		switch (step) {
		case 2:
			o.limit[TC_LIMIT_MEMORY] = 1u << 20;
			break;
		case 3:
			o.enforced_by[TC_LIMIT_PIDS] = TC_ENFORCER_CGROUP2;
			break;
		case 4:
			o.oom_kills.reason = "no leaf either";
			break;
		case 5:
			o.oom_kills.reason = NULL; /* "not measured" */
			break;
		case 6:
			o.kernel_memory = "what the kernel holds";
			break;
		case 7:
			o.warm_up = "";
			break;
		case 8:
			o.tool_path = "/t.py";
			break;
		case 9:
			snprintf(o.tool_sha256, sizeof(o.tool_sha256), "%064d", 7);
			break;
		case 10:
			o.pids_peak.known = false;
			break;
		case 11:
			o.policy_path = "/p.json";
			break;
		default: /* the same again */
			break;
		}
		with = compact(&o, &memo);
		without = compact(&o, NULL);
		assert_string_equal(with, without);
		free(with);
		free(without);
		for (size_t i = 0; i < TC_ARRAY_SIZE(memo.part); i++)
			assert_non_null(memo.part[i].text);
	}
	tc_record_memo_release(&memo);
	assert_null(memo.part[0].text);
}

/* run_id is a UUID v4 from getrandom; times are RFC 3339 UTC with
 * milliseconds; the caller is the real uid and toolcell's pid. */
static void test_run_fields(void **state)
{
	static const unsigned char ones[16] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
						0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	struct tc_outcome o;
	struct tc_run run, other;
	struct tc_error e = { 0 };
	char id[37], at[32];
	cJSON *r;

	tc_uuid4_format(ones, id);
	assert_string_equal(id, "ffffffff-ffff-4fff-bfff-ffffffffffff");
	tc_uuid4_format((const unsigned char[16]){ 0 }, id);
	assert_string_equal(id, "00000000-0000-4000-8000-000000000000");
	tc_rfc3339(0, at);
	assert_string_equal(at, "1970-01-01T00:00:00.000Z");
	tc_rfc3339(1795479483123ull, at);
	assert_string_equal(at, "2026-11-24T00:18:03.123Z");

	assert_int_equal(tc_run_begin(&run, "python", &e), 0);
	assert_int_equal(tc_run_begin(&other, "python", &e), 0);
	assert_string_not_equal(run.id, other.id); /* random, not a counter */
	assert_int_equal(strlen(run.id), 36);
	assert_int_equal(run.id[14], '4');
	assert_non_null(strchr("89ab", run.id[19]));
	tc_run_end(&run);
	tc_outcome_init(&o);
	o.run = &run;
	r = record(&o, NULL);
	assert_string_equal(str(r, "run_id"), run.id);
	assert_string_equal(str(r, "verb"), "python");
	assert_int_equal(num(r, "caller_uid"), getuid());
	assert_int_equal(num(r, "caller_pid"), getpid());
	tc_rfc3339(run.started_ms, at);
	assert_string_equal(str(r, "started_at"), at);
	assert_int_equal(strlen(str(r, "ended_at")), 24);
	assert_true(strcmp(str(r, "ended_at"), str(r, "started_at")) >= 0);
	cJSON_Delete(r);
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_names), cmocka_unit_test(test_hex),
	     cmocka_unit_test(test_init), cmocka_unit_test(test_ok_record),
	     cmocka_unit_test(test_namespace_order_and_caps),
	     cmocka_unit_test(test_signaled_record), cmocka_unit_test(test_timeout_record),
	     cmocka_unit_test(test_error_record), cmocka_unit_test(test_denied_syscalls),
	     cmocka_unit_test(test_limits), cmocka_unit_test(test_provenance),
	     cmocka_unit_test(test_error_message_sanitized), cmocka_unit_test(test_run_fields),
	     cmocka_unit_test(test_number_bytes), cmocka_unit_test(test_memo))
