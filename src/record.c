/* The result record (README.md, "The result record"): struct tc_outcome, as the supervisor
 * filled it, turned into the JSON document toolcell writes after the tool
 * ended. Built with cJSON, never by hand; every string that did not
 * originate in toolcell is made valid UTF-8 first. Pure; runs in the
 * parent. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "audit.h"
#include "json.h"
#include "record-tree.h"
#include "toolcell/record.h"
#include "util.h"

#ifndef TOOLCELL_VERSION
#define TOOLCELL_VERSION "0.0.0"
#endif

/* Above 2^53 a double no longer holds every integer. */
#define JSON_EXACT_MAX (UINT64_C(1) << 53)

/* Below this cJSON prints a whole number as its plain digits. */
#define WHOLE_DIGITS_MAX INT64_C(1000000000000000)

/* uid/gid fields hold this until toolcell knows them: (uid_t)-1. */
#define UNKNOWN_ID UINT32_MAX

/* Names by enum value: tables, each checked against its enum's last value
 * (a value added at the end must add its name), and each lookup falls back
 * to a name that never claims success. */
static const char *const status_names[] = { [TC_STATUS_OK] = "ok",
					    [TC_STATUS_EXIT_NONZERO] = "exit_nonzero",
					    [TC_STATUS_SIGNALED] = "signaled",
					    [TC_STATUS_TIMEOUT] = "timeout",
					    [TC_STATUS_MEMORY_LIMIT] = "memory_limit",
					    [TC_STATUS_PIDS_LIMIT] = "pids_limit",
					    [TC_STATUS_OUTPUT_LIMIT] = "output_limit",
					    [TC_STATUS_SYSCALL_DENIED] = "syscall_denied",
					    [TC_STATUS_REJECTED] = "rejected",
					    [TC_STATUS_SANDBOX_ERROR] = "sandbox_error" };
_Static_assert(TC_ARRAY_SIZE(status_names) == TC_STATUS_SANDBOX_ERROR + 1, "status names");

static const char *const enforcer_names[] = { [TC_ENFORCER_NONE] = "none",
					      [TC_ENFORCER_RLIMIT] = "rlimit",
					      [TC_ENFORCER_CGROUP2] = "cgroup2",
					      [TC_ENFORCER_TOOLCELL] = "toolcell" };
_Static_assert(TC_ARRAY_SIZE(enforcer_names) == TC_ENFORCER_TOOLCELL + 1, "enforcer names");

static const char *const unit_names[] = { [TC_UNIT_BYTES] = "bytes",
					  [TC_UNIT_COUNT] = "count",
					  [TC_UNIT_MS] = "ms",
					  [TC_UNIT_MILLICPU] = "cpus" };
_Static_assert(TC_ARRAY_SIZE(unit_names) == TC_UNIT_MILLICPU + 1, "unit names");

static const char *name_of(const char *const *names, size_t n, unsigned v, const char *other)
{
	return v < n && names[v] ? names[v] : other;
}

const char *tc_status_name(enum tc_status s)
{
	/* not a status: never claim success */
	return name_of(status_names, TC_ARRAY_SIZE(status_names), s, "sandbox_error");
}

const char *tc_enforcer_name(enum tc_enforcer e)
{
	return name_of(enforcer_names, TC_ARRAY_SIZE(enforcer_names), e, "none");
}

static const char *unit_name(enum tc_unit u)
{
	return name_of(unit_names, TC_ARRAY_SIZE(unit_names), u, "count");
}

void tc_outcome_init(struct tc_outcome *o)
{
	size_t i;

	/* all but the refused calls' slots, which n_denied (0) says are
	 * unused: their 36 KB would be 9 pages touched for nothing, and
	 * shared with the sandbox's init by the clone */
	memset(o, 0, offsetof(struct tc_outcome, denied));
	memset(&o->n_denied, 0, sizeof(*o) - offsetof(struct tc_outcome, n_denied));
	/* A half-filled outcome must never read as success. */
	o->status = TC_STATUS_SANDBOX_ERROR;
	o->exited = false;
	o->exit_code = -1;
	o->signaled = false;
	o->memory_peak_bytes.known = false;
	o->oom_kills.known = false;
	o->pids_peak.known = false;
	for (i = 0; i < TC_LIMIT__MAX; i++)
		o->enforced_by[i] = TC_ENFORCER_NONE;
	o->seccomp = "none";
	o->landlock = "unavailable";
	o->host_uid = o->host_gid = o->tool_uid = UNKNOWN_ID;
}

/* A string from outside toolcell, at most max bytes of s (a fixed-size
 * field need not be NUL-terminated), or JSON null when NULL or empty. */
static cJSON *outside_string(const char *s, size_t max)
{
	_cleanup_free_ char *clean = NULL;

	if (!s || !s[0])
		return cJSON_CreateNull();
	clean = tc_utf8_sanitize(s, strnlen(s, max));
	return clean ? cJSON_CreateString(clean) : NULL;
}

/* A whole number, printed as cJSON prints it. Under 10^15 that is its
 * plain digits (%1.15g keeps every one), which we write ourselves: cJSON's
 * printf and sscanf round trip costs ten times as much, and a served call
 * prints some 60 of them on its way to the caller. From 10^15 its %g may
 * give an exponent (1e+15), so cJSON prints those as before. */
static cJSON *whole_number(int64_t v)
{
	char digits[24];

	if (v <= -WHOLE_DIGITS_MAX || v >= WHOLE_DIGITS_MAX)
		return cJSON_CreateNumber((double)v);
	snprintf(digits, sizeof(digits), "%" PRId64, v);
	return cJSON_CreateRaw(digits);
}

static cJSON *u64_number(uint64_t v)
{
	char digits[24];

	if (v <= JSON_EXACT_MAX)
		return whole_number((int64_t)v);
	/* Only digits, so still exactly one JSON number: a double would round. */
	snprintf(digits, sizeof(digits), "%" PRIu64, v);
	return cJSON_CreateRaw(digits);
}

/* Whole numbers under their keys, in order. */
struct u64_field {
	const char *key;
	uint64_t value;
};

static void add_u64s(bool *failed, cJSON *obj, const struct u64_field *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		tc_json_add(failed, obj, f[i].key, u64_number(f[i].value));
}

static cJSON *maybe_number(const struct tc_maybe *m)
{
	return m->known ? u64_number(m->value) : cJSON_CreateNull();
}

static cJSON *signal_name(int sig)
{
	const char *abbrev = sigabbrev_np(sig);
	char name[32];

	if (abbrev)
		snprintf(name, sizeof(name), "SIG%s", abbrev);
	else if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		snprintf(name, sizeof(name), "SIGRTMIN+%d", sig - SIGRTMIN);
	else
		return cJSON_CreateNull();
	return cJSON_CreateString(name);
}

static cJSON *id_number(uint32_t id)
{
	return id == UNKNOWN_ID ? cJSON_CreateNull() : whole_number(id);
}

/* record_version, run_id, verb, started_at, ended_at, caller_uid, caller_pid */
static void add_run(bool *failed, cJSON *r, const struct tc_run *run)
{
	char at[32];

	tc_json_add(failed, r, "record_version", whole_number(TC_RECORD_VERSION));
	tc_json_add(failed, r, "run_id",
		    run && run->id[0] ? cJSON_CreateString(run->id) : cJSON_CreateNull());
	tc_json_add(failed, r, "verb",
		    run && run->verb ? cJSON_CreateString(run->verb) : cJSON_CreateNull());
	if (run && run->started_ms)
		tc_rfc3339(run->started_ms, at);
	tc_json_add(failed, r, "started_at",
		    run && run->started_ms ? cJSON_CreateString(at) : cJSON_CreateNull());
	if (run && run->ended_ms)
		tc_rfc3339(run->ended_ms, at);
	tc_json_add(failed, r, "ended_at",
		    run && run->ended_ms ? cJSON_CreateString(at) : cJSON_CreateNull());
	tc_json_add(failed, r, "caller_uid",
		    run ? u64_number(run->caller_uid) : cJSON_CreateNull());
	tc_json_add(failed, r, "caller_pid",
		    run ? whole_number(run->caller_pid) : cJSON_CreateNull());
}

static void add_outcome(bool *failed, cJSON *r, const struct tc_outcome *o)
{
	const struct u64_field times[] = { { "wall_ms", o->wall_ms },
					   { "cpu_user_ms", o->cpu_user_ms },
					   { "cpu_system_ms", o->cpu_system_ms },
					   { "toolcell_cpu_user_ms", o->toolcell_cpu_user_ms },
					   { "toolcell_cpu_system_ms",
					     o->toolcell_cpu_system_ms } };

	tc_json_add(failed, r, "status", cJSON_CreateString(tc_status_name(o->status)));
	tc_json_add(failed, r, "status_inferred", cJSON_CreateBool(o->status_inferred));
	tc_json_add(failed, r, "exit_code",
		    o->exited ? whole_number(o->exit_code) : cJSON_CreateNull());
	tc_json_add(failed, r, "signal",
		    o->signaled ? whole_number(o->signal) : cJSON_CreateNull());
	tc_json_add(failed, r, "signal_name",
		    o->signaled ? signal_name(o->signal) : cJSON_CreateNull());
	add_u64s(failed, r, times, TC_ARRAY_SIZE(times));
}

static void add_part(bool *failed, cJSON *r, const struct tc_outcome *o, enum tc_record_part part,
		     struct tc_record_memo *memo);

/* "unknown": why each figure that is null is, and what the figures leave out */
static cJSON *unknown_of(bool *failed, const struct tc_outcome *o)
{
	const struct tc_maybe *const maybes[] = { &o->memory_peak_bytes, &o->oom_kills,
						  &o->pids_peak };
	static const char *const keys[] = { "memory_peak_bytes", "oom_kills", "pids_peak" };
	cJSON *unknown = cJSON_CreateObject();

	for (size_t i = 0; i < TC_ARRAY_SIZE(maybes); i++)
		if (!maybes[i]->known)
			tc_json_add(failed, unknown, keys[i],
				    cJSON_CreateString(maybes[i]->reason ? maybes[i]->reason
									 : "not measured"));
	if (o->kernel_memory)
		tc_json_add(failed, unknown, "kernel_memory", cJSON_CreateString(o->kernel_memory));
	if (o->warm_up)
		tc_json_add(failed, unknown, "warm_up", cJSON_CreateString(o->warm_up));
	return unknown;
}

static void add_measures(bool *failed, cJSON *r, const struct tc_outcome *o,
			 struct tc_record_memo *memo)
{
	const struct {
		const char *key;
		const struct tc_maybe *m;
	} maybes[] = {
		{ "memory_peak_bytes", &o->memory_peak_bytes },
		{ "oom_kills", &o->oom_kills },
		{ "pids_peak", &o->pids_peak },
	};
	const struct u64_field streams[] = { { "stdout_bytes", o->stdout_bytes },
					     { "stderr_bytes", o->stderr_bytes } };
	size_t i;

	for (i = 0; i < TC_ARRAY_SIZE(maybes); i++)
		tc_json_add(failed, r, maybes[i].key, maybe_number(maybes[i].m));
	add_part(failed, r, o, TC_RECORD_PART_UNKNOWN, memo);
	add_u64s(failed, r, streams, TC_ARRAY_SIZE(streams));
	tc_json_add(failed, r, "stdout_truncated", cJSON_CreateBool(o->stdout_truncated));
	tc_json_add(failed, r, "stderr_truncated", cJSON_CreateBool(o->stderr_truncated));
}

static void add_syscalls(bool *failed, cJSON *r, const struct tc_outcome *o)
{
	size_t n = o->n_denied < TC_ARRAY_SIZE(o->denied) ? o->n_denied : TC_ARRAY_SIZE(o->denied);
	cJSON *all;
	size_t i;

	if (o->has_denied_syscall) {
		cJSON *d = tc_json_add(failed, r, "denied_syscall", cJSON_CreateObject());
		tc_json_add(failed, d, "name",
			    outside_string(o->denied_syscall_name, sizeof(o->denied_syscall_name)));
		tc_json_add(failed, d, "nr", cJSON_CreateNumber(o->denied_syscall_nr));
	} else {
		tc_json_add(failed, r, "denied_syscall", cJSON_CreateNull());
	}

	all = tc_json_add(failed, r, "denied_syscalls", cJSON_CreateObject());
	for (i = 0; i < n && all; i++) {
		_cleanup_free_ char *name = NULL;
		cJSON *seen;

		if (!o->denied[i].name[0])
			continue;
		name = tc_utf8_sanitize(o->denied[i].name,
					strnlen(o->denied[i].name, sizeof(o->denied[i].name)));
		if (!name) {
			*failed = true;
			break;
		}
		/* One key per name, even if the supervisor listed it twice. */
		seen = cJSON_GetObjectItemCaseSensitive(all, name);
		if (seen)
			cJSON_SetNumberValue(seen, seen->valuedouble + o->denied[i].count);
		else
			tc_json_add(failed, all, name, cJSON_CreateNumber(o->denied[i].count));
	}
}

static cJSON *limits_of(bool *failed, const struct tc_outcome *o)
{
	cJSON *limits = cJSON_CreateObject();
	size_t i;

	for (i = 0; i < TC_LIMIT__MAX; i++) {
		const struct tc_limit_info *info = &tc_limit_info[i];
		cJSON *l;

		if (!info->name)
			continue;
		l = tc_json_add(failed, limits, info->name, cJSON_CreateObject());
		tc_json_add(failed, l, "value",
			    info->unit == TC_UNIT_MILLICPU
				    ? cJSON_CreateNumber((double)o->limit[i] / 1000.0)
				    : u64_number(o->limit[i]));
		tc_json_add(failed, l, "unit", cJSON_CreateString(unit_name(info->unit)));
		tc_json_add(failed, l, "enforced_by",
			    cJSON_CreateString(tc_enforcer_name(o->enforced_by[i])));
	}
	return limits;
}

static void add_isolation(bool *failed, cJSON *r, const struct tc_outcome *o)
{
	static const struct {
		unsigned bit;
		const char *name;
	} ns[] = {
		{ TC_NS_USER, "user" },	    { TC_NS_MOUNT, "mount" }, { TC_NS_PID, "pid" },
		{ TC_NS_NET, "net" },	    { TC_NS_IPC, "ipc" },     { TC_NS_UTS, "uts" },
		{ TC_NS_CGROUP, "cgroup" },
	};
	cJSON *iso = tc_json_add(failed, r, "isolation", cJSON_CreateObject());
	cJSON *list = tc_json_add(failed, iso, "namespaces", cJSON_CreateArray());
	char caps[24];
	size_t i;

	for (i = 0; i < TC_ARRAY_SIZE(ns) && list; i++) {
		if (o->namespaces & ns[i].bit)
			tc_json_add(failed, list, NULL, cJSON_CreateString(ns[i].name));
	}
	tc_json_add(failed, iso, "seccomp", cJSON_CreateString(o->seccomp ? o->seccomp : "none"));
	tc_json_add(failed, iso, "landlock",
		    cJSON_CreateString(o->landlock ? o->landlock : "unavailable"));
	tc_json_add(failed, iso, "cgroup",
		    o->cgroup ? cJSON_CreateString(o->cgroup) : cJSON_CreateNull());
	if (o->cgroup)
		tc_json_add(failed, iso, "cgroup_swap_max",
			    cJSON_CreateString(o->cgroup_swap ? o->cgroup_swap : "0"));
	tc_json_add(failed, iso, "no_new_privs", cJSON_CreateBool(o->no_new_privs));
	snprintf(caps, sizeof(caps), "0x%016" PRIx64, o->cap_eff);
	tc_json_add(failed, iso, "capabilities", cJSON_CreateString(caps));
	tc_json_add(failed, iso, "uid_inside", id_number(o->tool_uid));
	tc_json_add(failed, iso, "uid_host", id_number(o->host_uid));
	tc_json_add(failed, iso, "gid_host", id_number(o->host_gid));
}

static cJSON *provenance_entry(bool *failed, cJSON *parent, const char *key, const char *path,
			       const char *sha256, size_t sha_size, bool with_path)
{
	cJSON *e = tc_json_add(failed, parent, key, cJSON_CreateObject());

	if (with_path)
		tc_json_add(failed, e, "path", outside_string(path, TC_PATH_MAX));
	tc_json_add(failed, e, "sha256", outside_string(sha256, sha_size));
	return e;
}

static cJSON *provenance_of(bool *failed, const struct tc_outcome *o)
{
	cJSON *p = cJSON_CreateObject();

	provenance_entry(failed, p, "policy", o->policy_path, o->policy_sha256,
			 sizeof(o->policy_sha256), true);
	provenance_entry(failed, p, "tool", o->tool_path, o->tool_sha256, sizeof(o->tool_sha256),
			 true);
	provenance_entry(failed, p, "rootfs_manifest", NULL, o->rootfs_sha256,
			 sizeof(o->rootfs_sha256), false);
	return p;
}

/* Bytes added to a key; *ok false once one could not be (out of memory:
 * a key cut short must never be compared). */
static void key_add(bool *ok, struct tc_buf *k, const void *p, size_t n)
{
	if (tc_buf_add(k, p, n) < 0)
		*ok = false;
}

/* A string as part of a key: whether it is NULL, then its bytes (at most
 * max) and a NUL. */
static void key_string(bool *ok, struct tc_buf *k, const char *s, size_t max)
{
	key_add(ok, k, s ? "s" : "n", 1);
	if (s)
		key_add(ok, k, s, strnlen(s, max));
	key_add(ok, k, "", 1);
}

/* Everything a part is built from, as bytes: equal keys, equal text;
 * false when the key could not be made whole. */
static bool part_key(struct tc_buf *k, const struct tc_outcome *o, enum tc_record_part part)
{
	bool ok = true;
	const struct tc_maybe *const maybes[] = { &o->memory_peak_bytes, &o->oom_kills,
						  &o->pids_peak };

	switch (part) {
	case TC_RECORD_PART_UNKNOWN:
		for (size_t i = 0; i < TC_ARRAY_SIZE(maybes); i++) {
			key_add(&ok, k, maybes[i]->known ? "k" : "u", 1);
			key_string(&ok, k, maybes[i]->reason, SIZE_MAX);
		}
		key_string(&ok, k, o->kernel_memory, SIZE_MAX);
		key_string(&ok, k, o->warm_up, SIZE_MAX);
		break;
	case TC_RECORD_PART_LIMITS:
		key_add(&ok, k, o->limit, sizeof(o->limit));
		key_add(&ok, k, o->enforced_by, sizeof(o->enforced_by));
		break;
	case TC_RECORD_PART_PROVENANCE:
		key_string(&ok, k, o->policy_path, TC_PATH_MAX);
		key_string(&ok, k, o->policy_sha256, sizeof(o->policy_sha256));
		key_string(&ok, k, o->tool_path, TC_PATH_MAX);
		key_string(&ok, k, o->tool_sha256, sizeof(o->tool_sha256));
		key_string(&ok, k, o->rootfs_sha256, sizeof(o->rootfs_sha256));
		break;
	case TC_RECORD_PART__MAX:
		break;
	}
	return ok;
}

static cJSON *part_of(bool *failed, const struct tc_outcome *o, enum tc_record_part part)
{
	switch (part) {
	case TC_RECORD_PART_UNKNOWN:
		return unknown_of(failed, o);
	case TC_RECORD_PART_LIMITS:
		return limits_of(failed, o);
	case TC_RECORD_PART_PROVENANCE:
		return provenance_of(failed, o);
	case TC_RECORD_PART__MAX:
		break;
	}
	return NULL;
}

/* A part of the record under its name: with a memo, the text printed for
 * the last record whose part was built from the same bytes (a served
 * call's limits, reasons and provenance seldom change), else built and
 * printed for the next. */
static void add_part(bool *failed, cJSON *r, const struct tc_outcome *o, enum tc_record_part part,
		     struct tc_record_memo *memo)
{
	static const char *const names[] = { [TC_RECORD_PART_UNKNOWN] = "unknown",
					     [TC_RECORD_PART_LIMITS] = "limits",
					     [TC_RECORD_PART_PROVENANCE] = "provenance" };
	struct tc_record_memo_part *m = memo ? &memo->part[part] : NULL;
	struct tc_buf key = { 0 };
	cJSON *item;
	char *text;

	if (m && !part_key(&key, o, part)) {
		tc_buf_release(&key);
		m = NULL; /* built, and not kept: its key is not whole */
	}
	if (m) {
		if (m->text && key.p && key.len == m->len && !memcmp(key.p, m->key, key.len)) {
			tc_buf_release(&key);
			tc_json_add(failed, r, names[part], cJSON_CreateRaw(m->text));
			return;
		}
	}
	item = tc_json_add(failed, r, names[part], part_of(failed, o, part));
	text = m && key.p && item && !*failed ? cJSON_PrintUnformatted(item) : NULL;
	if (text) {
		free(m->key);
		free(m->text);
		m->key = key.p; /* the buffer's bytes, now the memo's */
		m->len = key.len;
		m->text = text;
		return;
	}
	tc_buf_release(&key);
}

void tc_record_memo_release(struct tc_record_memo *memo)
{
	for (size_t i = 0; i < TC_ARRAY_SIZE(memo->part); i++) {
		free(memo->part[i].key);
		free(memo->part[i].text);
	}
	memset(memo, 0, sizeof(*memo));
}

static void add_error(bool *failed, cJSON *r, const struct tc_outcome *o)
{
	const struct tc_error *err = &o->err;
	const char *errno_name;
	cJSON *e;

	if (!err->message[0]) {
		tc_json_add(failed, r, "error", cJSON_CreateNull());
		return;
	}
	e = tc_json_add(failed, r, "error", cJSON_CreateObject());
	tc_json_add(failed, e, "stage", cJSON_CreateString(tc_stage_name(err->stage)));
	tc_json_add(failed, e, "message", outside_string(err->message, sizeof(err->message)));
	tc_json_add(failed, e, "errno",
		    err->err ? cJSON_CreateNumber(err->err) : cJSON_CreateNull());
	errno_name = err->err ? strerrorname_np(err->err) : NULL;
	tc_json_add(failed, e, "errno_name",
		    errno_name ? cJSON_CreateString(errno_name) : cJSON_CreateNull());
}

/* "workspace": null without one; else what of its layer reached the host
 * folder (applied), what never does (dropped), and the layer's use. */
static void add_workspace(bool *failed, cJSON *r, const struct tc_outcome *o)
{
	const struct tc_workspace_stats *w = &o->workspace;
	const struct u64_field changes[] = { { "files", w->files },
					     { "bytes", w->bytes },
					     { "folders", w->dirs },
					     { "deleted", w->deleted },
					     { "set_id_bits_dropped", w->setid_stripped } };
	const struct u64_field dropped[] = { { "symlinks", w->symlinks },
					     { "hard_links", w->hard_links },
					     { "fifos", w->fifos },
					     { "sockets", w->sockets },
					     { "devices", w->devices } };
	const struct u64_field layer[] = { { "used_bytes", w->used_bytes },
					   { "used_files", w->used_files } };
	cJSON *ws, *l;

	if (!w->present) {
		tc_json_add(failed, r, "workspace", cJSON_CreateNull());
		return;
	}
	ws = tc_json_add(failed, r, "workspace", cJSON_CreateObject());
	tc_json_add(failed, ws, "applied", cJSON_CreateBool(w->applied));
	tc_json_add(failed, ws, "not_applied",
		    w->not_applied ? cJSON_CreateString(w->not_applied) : cJSON_CreateNull());
	add_u64s(failed, tc_json_add(failed, ws, "changes", cJSON_CreateObject()), changes,
		 TC_ARRAY_SIZE(changes));
	add_u64s(failed, tc_json_add(failed, ws, "dropped", cJSON_CreateObject()), dropped,
		 TC_ARRAY_SIZE(dropped));
	tc_json_add(failed, ws, "errors", u64_number(w->errors));
	tc_json_add(failed, ws, "first_error",
		    w->first_error[0] ? outside_string(w->first_error, sizeof(w->first_error))
				      : cJSON_CreateNull());
	l = tc_json_add(failed, ws, "layer", cJSON_CreateObject());
	add_u64s(failed, l, layer, TC_ARRAY_SIZE(layer));
	tc_json_add(failed, l, "full", cJSON_CreateBool(w->full));
}

cJSON *tc_record_to_cjson(const struct tc_outcome *o)
{
	return tc_record_to_cjson_memo(o, NULL);
}

cJSON *tc_record_to_cjson_memo(const struct tc_outcome *o, struct tc_record_memo *memo)
{
	cJSON *r = cJSON_CreateObject();
	bool failed = !r;

	add_run(&failed, r, o->run);
	add_outcome(&failed, r, o);
	add_measures(&failed, r, o, memo);
	add_syscalls(&failed, r, o);
	add_part(&failed, r, o, TC_RECORD_PART_LIMITS, memo);
	add_isolation(&failed, r, o);
	add_part(&failed, r, o, TC_RECORD_PART_PROVENANCE, memo);
	add_workspace(&failed, r, o);
	add_error(&failed, r, o);
	tc_json_add(&failed, r, "toolcell_version", cJSON_CreateString(TOOLCELL_VERSION));

	if (failed) {
		cJSON_Delete(r);
		return NULL;
	}
	return r;
}

char *tc_record_to_json(const struct tc_outcome *o)
{
	cJSON *r = tc_record_to_cjson(o);
	char *text = r ? tc_json_document(r, true) : NULL;

	cJSON_Delete(r);
	return text;
}
