/* `toolcell serve`'s answers (see serve.h): one JSON line per request,
 * carrying the request's id. A call is answered with the `call` envelope
 * (built by protocol.c exactly as `toolcell call` builds it) plus "id" and
 * the full record; an exec with the script's stdout, stderr, exit and the
 * record; the record has "pool": {"warm", "waited_ms"} besides the
 * one-shot record's keys. Runs in the parent. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <cjson/cJSON.h>

#include "audit.h"
#include "outcome.h"
#include "base64.h"
#include "protocol.h"
#include "record-tree.h"
#include "serve-internal.h"
#include "sha256.h"
#include "util.h"

#define CONN_OUT_MAX (256u << 20) /* bytes of answers a caller may leave unread */

void tc_serve_conn_send(struct conn *c, const char *line, size_t len)
{
	ssize_t n = 0;

	if (!c || c->out.len + len > CONN_OUT_MAX)
		return; /* a caller this far behind loses answers, never the server */
	/* nothing queued before it: it goes now, not after the loop's other
	 * work (a refill's fork); what the socket does not take waits there */
	if (!c->out.len)
		n = send(c->fd, line, len, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (n < 0)
		n = 0; /* full, or the caller gone: the loop's write finds out */
	(void)tc_buf_add(&c->out, line + n, len - (size_t)n);
}

/* An answer line from a document and raw JSON members spliced in first
 * ("id", then extra: members such as "limits_clamped_to":{...}) and last
 * ("record"); all but id may be NULL. The document's own bytes stay as
 * they are (data is raw, byte for byte); a line break in it can only be
 * white space, which becomes a space, so the answer is one line. The
 * record, printed compact, has none: its raw members are digits and the
 * record memo's parts, themselves printed compact by cJSON (strings
 * escaped). */
static void send_spliced(struct conn *c, const char *id, const char *extra, const char *doc,
			 const char *record)
{
	struct tc_buf b = { 0 };
	size_t n = strlen(doc), before;

	while (n && doc[n - 1] == '\n')
		n--;
	if (n && doc[n - 1] == '}')
		n--; /* the document's own closing brace */
	tc_buf_add(&b, "{\"id\":", 6);
	tc_buf_add(&b, id ? id : "null", strlen(id ? id : "null"));
	if (extra) {
		tc_buf_add(&b, ",", 1);
		tc_buf_add(&b, extra, strlen(extra));
	}
	if (n > 1) {
		tc_buf_add(&b, ",", 1);
		tc_buf_add(&b, doc + 1, n - 1);
	}
	before = b.len;
	if (record) {
		tc_buf_add(&b, ",\"record\":", 10);
		tc_buf_add(&b, record, strlen(record));
	}
	if (tc_buf_add(&b, "}\n", 2) == 0) {
		for (size_t i = 0; i < before; i++)
			if (b.p[i] == '\n' || b.p[i] == '\r')
				b.p[i] = ' ';
		tc_serve_conn_send(c, b.p, b.len);
	}
	tc_buf_release(&b);
}

void tc_serve_answer_error(struct server *s, struct conn *c, const char *id, const char *type,
			   const char *message)
{
	cJSON *doc = cJSON_CreateObject(), *e;
	char *text;

	if (!strcmp(type, "Busy"))
		s->stats.busy++;
	else if (!strcmp(type, "SandboxError"))
		s->stats.by_status[TC_STATUS_SANDBOX_ERROR]++;
	else
		s->stats.bad++;
	cJSON_AddBoolToObject(doc, "ok", 0);
	e = cJSON_AddObjectToObject(doc, "error");
	cJSON_AddStringToObject(e, "type", type);
	cJSON_AddStringToObject(e, "message", message);
	cJSON_AddStringToObject(e, "source", "toolcell");
	text = tc_json_print(doc, false);
	cJSON_Delete(doc);
	if (text)
		send_spliced(c, id, NULL, text, NULL);
	free(text);
}

/* The record of the call as a tree, with "pool" (the caller deletes it). */
static cJSON *record_tree(struct server *s, const struct call *c, const struct tc_outcome *o)
{
	cJSON *r = tc_record_to_cjson_memo(o, &s->memo);
	cJSON *pool;

	if (!r)
		return NULL;
	pool = cJSON_AddObjectToObject(r, "pool");
	cJSON_AddBoolToObject(pool, "warm", c->warm);
	cJSON_AddNumberToObject(pool, "waited_ms",
				(double)((c->dispatch_ns - c->queued_ns) / 1000000));
	return r;
}

/* toolcell's own error type for a status, and what it says (a table, so
 * -Wswitch is not needed: a status not in it is the tool's own outcome) */
static const struct {
	enum tc_status status;
	const char *type, *words;
} limit_types[] = {
	{ TC_STATUS_TIMEOUT, "Timeout", "the tool reached its time limit" },
	{ TC_STATUS_MEMORY_LIMIT, "MemoryLimit", "the tool reached its memory limit" },
	{ TC_STATUS_PIDS_LIMIT, "PidsLimit", "the tool reached its process limit" },
	{ TC_STATUS_OUTPUT_LIMIT, "OutputLimit",
	  "the tool exceeded its output limit and was stopped" },
	{ TC_STATUS_SYSCALL_DENIED, "SyscallDenied", "the tool made a forbidden system call" },
	{ TC_STATUS_SIGNALED, "Signaled", "the tool was ended by a signal" },
	{ TC_STATUS_REJECTED, "BadRequest", "the request was refused" },
	{ TC_STATUS_SANDBOX_ERROR, "SandboxError", "the sandbox could not be built" },
};

static size_t limit_type(enum tc_status st)
{
	size_t i = 0;

	while (i < TC_ARRAY_SIZE(limit_types) && limit_types[i].status != st)
		i++;
	return i;
}

/* The envelope of a call, as verb_call builds it for a one-shot run, its
 * meta from the call's record tree r. */
static char *call_envelope(const struct tc_outcome *o, const cJSON *r, const struct tc_buf *out,
			   size_t max)
{
	struct tc_response resp = { 0 };
	struct tc_error e = { 0 };
	size_t t = limit_type(o->status);
	char msg[TC_ERROR_MESSAGE_MAX + 64], *env;
	int ret;

	if (o->status == TC_STATUS_SANDBOX_ERROR)
		return tc_envelope_of_record(o, r, &resp, limit_types[t].type, o->err.message);
	if (t < TC_ARRAY_SIZE(limit_types))
		return tc_envelope_of_record(o, r, &resp, limit_types[t].type,
					     limit_types[t].words);
	ret = tc_response_parse(out->p ? out->p : "", out->len, max, &resp, &e);
	if (ret < 0 || (o->exit_code != 0 && resp.ok)) {
		if (ret >= 0)
			snprintf(msg, sizeof(msg), "the tool exited with status %d", o->exit_code);
		else
			snprintf(msg, sizeof(msg), "%s", e.message);
		tc_response_release(&resp);
		memset(&resp, 0, sizeof(resp));
		return tc_envelope_of_record(o, r, &resp, "InvalidResponse", msg);
	}
	env = tc_envelope_of_record(o, r, &resp, NULL, NULL);
	tc_response_release(&resp);
	return env;
}

/* A byte string as a JSON member: "key" when it is UTF-8, else
 * "key_base64". */
static void add_bytes(cJSON *doc, const char *key, const struct tc_buf *b)
{
	const char *p = b->p ? b->p : "";
	char name[32], *enc;

	if (tc_utf8_valid(p, b->len) && !memchr(p, '\0', b->len)) {
		cJSON_AddStringToObject(doc, key, p);
		return;
	}
	enc = tc_base64_encode(p, b->len);
	if (!enc)
		return;
	snprintf(name, sizeof(name), "%s_base64", key);
	cJSON_AddStringToObject(doc, name, enc);
	free(enc);
}

static char *exec_answer(const struct tc_outcome *o, const struct tc_buf *out,
			 const struct tc_buf *err)
{
	cJSON *doc = cJSON_CreateObject();
	char *text;

	cJSON_AddBoolToObject(doc, "ok", o->status == TC_STATUS_OK);
	cJSON_AddStringToObject(doc, "status", tc_status_name(o->status));
	if (o->exited)
		cJSON_AddNumberToObject(doc, "exit_code", o->exit_code);
	else
		cJSON_AddNullToObject(doc, "exit_code");
	if (o->signaled && sigabbrev_np(o->signal))
		cJSON_AddStringToObject(doc, "signal", sigabbrev_np(o->signal));
	else
		cJSON_AddNullToObject(doc, "signal");
	add_bytes(doc, "stdout", out);
	add_bytes(doc, "stderr", err);
	text = tc_json_print(doc, false);
	cJSON_Delete(doc);
	return text;
}

/* The last line of what the tool wrote on stderr that is not empty. */
static bool last_line_starts(const struct tc_buf *b, const char *prefix)
{
	size_t end = b->len, start;

	while (end && (b->p[end - 1] == '\n' || b->p[end - 1] == '\r'))
		end--;
	start = end;
	while (start && b->p[start - 1] != '\n')
		start--;
	return end - start >= strlen(prefix) && !memcmp(b->p + start, prefix, strlen(prefix));
}

/* The call's own limits in the record, and what its output did (the
 * server reads it from the tool's pipes and holds the caps: the runner
 * never sees it): past a cap it ended the call (OutputLimit, the output cut
 * at the cap); a MemoryError (or fork's EAGAIN) at its end, at the memory
 * (process) limit, is that limit's, as the one-shot run infers it from its
 * stderr's last line. */
static void call_limits(const struct call *c, const struct entry *e, struct tc_outcome *o)
{
	for (int i = 0; i < TC_LIMIT__MAX; i++)
		if (c->req.asked[i] || i == TC_LIMIT_WALL)
			o->limit[i] = c->req.limit[i];
	o->stdout_bytes = e->out.len;
	o->stderr_bytes = e->errb.len;
	o->stdout_truncated = c->over_stdout;
	o->stderr_truncated = c->over_stderr;
	if (!c->timed_out && (c->over_stdout || c->over_stderr)) {
		o->status = TC_STATUS_OUTPUT_LIMIT;
		o->status_inferred = false;
		tc_error_clear(&o->err);
	}
	if (o->status != TC_STATUS_EXIT_NONZERO)
		return;
	if (last_line_starts(&e->errb, "MemoryError") && o->memory_peak_bytes.known &&
	    TC_MEMORY_PEAK_AT_LIMIT(o->memory_peak_bytes.value, o->limit[TC_LIMIT_MEMORY])) {
		o->status = TC_STATUS_MEMORY_LIMIT;
		o->status_inferred = true;
	} else if (last_line_starts(&e->errb, "BlockingIOError: [Errno 11]") &&
		   o->pids_peak.known && o->pids_peak.value >= o->limit[TC_LIMIT_PIDS]) {
		o->status = TC_STATUS_PIDS_LIMIT; /* fork() refused by RLIMIT_NPROC */
		o->status_inferred = true;
	}
}

/* What the server knows better than the runner: the call's own clock and
 * CPU (from dispatch), a deadline it enforced, who called, provenance. */
static void adjust(struct server *s, const struct call *c, const struct entry *e,
		   struct tc_outcome *o, struct tc_run *run)
{
	/* the CPU figures count from dispatch already (the runner's
	 * tc_sandbox_begin) */
	o->wall_ms = (tc_now_ns() - c->dispatch_ns) / 1000000;
	if (c->timed_out) {
		o->status = TC_STATUS_TIMEOUT;
		o->status_inferred = false;
		tc_error_clear(&o->err);
	}
	if (c->limit_errno) { /* the call never ran (serve-pool.c, dispatch) */
		o->status = TC_STATUS_SANDBOX_ERROR;
		o->status_inferred = false;
		tc_error_set(&o->err, TC_STAGE_SERVE, c->limit_errno,
			     "cannot write the call's memory limit into its cgroup leaf");
	}
	o->warm_up = o->cgroup ? SERVE_WARM_UP_LEAF : SERVE_WARM_UP_RLIMIT;
	o->limit[TC_LIMIT_STDOUT] = s->setup->cfg->limit[TC_LIMIT_STDOUT];
	call_limits(c, e, o);
	/* the policy the entry was made with (a SIGHUP may have loaded another) */
	memcpy(o->policy_sha256, e->setup->policy_sha256, sizeof(o->policy_sha256));
	memcpy(o->rootfs_sha256, e->setup->rootfs_sha256, sizeof(o->rootfs_sha256));
	tc_hex_sha256(c->tool_sha256, o->tool_sha256);
	o->policy_path = e->setup->policy_path;
	run->verb = c->req.kind == TC_SERVE_CALL ? "call" : "exec";
	run->caller_uid = c->conn ? c->conn->uid : 0;
	run->caller_pid = c->conn ? c->conn->pid : 0;
	tc_run_end(run);
	o->run = run;
}

/* "limits_clamped_to": {"memory": 268435456, "timeout": 30, ...}: the
 * limits the request asked above the server's, with what the call ran
 * with (seconds for times, bytes or counts for the rest); NULL when none. */
static char *clamped_json(const struct tc_serve_request *r)
{
	struct tc_buf b = { 0 };
	char num[64];

	for (int i = 0; i < TC_LIMIT__MAX; i++) {
		if (!r->clamped[i])
			continue;
		if (tc_limit_info[i].unit == TC_UNIT_MS)
			snprintf(num, sizeof(num), "%.3f", (double)r->limit[i] / 1000);
		else
			snprintf(num, sizeof(num), "%llu", (unsigned long long)r->limit[i]);
		tc_buf_add(&b, b.len ? ",\"" : "\"limits_clamped_to\":{\"", b.len ? 2 : 22);
		tc_buf_add(&b, tc_limit_info[i].name, strlen(tc_limit_info[i].name));
		tc_buf_add(&b, "\":", 2);
		tc_buf_add(&b, num, strlen(num));
	}
	if (b.len && tc_buf_add(&b, "}", 1) < 0)
		tc_buf_release(&b);
	return b.p;
}

void tc_serve_answer_call(struct server *s, struct call *c, struct entry *e, struct tc_outcome *o)
{
	struct tc_outcome lost;
	struct tc_run run = { 0 };
	char *doc = NULL, *record = NULL, *clamped = NULL;

	if (c->req.kind == TC_SERVE_SESSION) { /* its stream ends (serve-session.c) */
		tc_serve_session_end(s, c, o);
		return;
	}
	if (!o) {
		tc_outcome_init(&lost);
		lost.status = TC_STATUS_SANDBOX_ERROR;
		tc_error_set(&lost.err, TC_STAGE_SERVE, EPIPE,
			     "the pool entry's runner ended without an "
			     "outcome");
		o = &lost;
	}
	if (tc_run_begin(&run, "call", NULL) == 0)
		run.started_ms -= (tc_now_ns() - c->queued_ns) / 1000000;
	adjust(s, c, e, o, &run);
	s->stats.by_status[o->status]++;
	if (c->conn) {
		/* one tree: the envelope's meta and the record agree, and the
		 * record is built once */
		_cleanup_cjson_ cJSON *r = record_tree(s, c, o);

		doc = c->req.kind == TC_SERVE_CALL
			      ? call_envelope(o, r, &e->out, s->setup->cfg->limit[TC_LIMIT_REQUEST])
			      : exec_answer(o, &e->out, &e->errb);
		record = r ? tc_json_print(r, false) : NULL;
		clamped = clamped_json(&c->req);
		if (doc)
			send_spliced(c->conn, c->req.id, clamped, doc, record);
		c->conn->calls--;
	}
	free(doc);
	free(record);
	free(clamped);
	tc_serve_request_release(&c->req);
	free(c);
}

static uint64_t percentile(const struct serve_stats *st, unsigned pct)
{
	size_t n = st->n_latency < SERVE_LATENCIES ? st->n_latency : SERVE_LATENCIES;
	uint64_t v[SERVE_LATENCIES];

	if (!n)
		return 0;
	memcpy(v, st->latency_us, n * sizeof(v[0]));
	/* insertion sort: n is at most SERVE_LATENCIES, asked for rarely */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint64_t t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return v[(n - 1) * pct / 100];
}

static void add_pools(const struct server *s, cJSON *doc)
{
	cJSON *pools = cJSON_AddArrayToObject(doc, "pools");

	for (const struct entry *e = s->entries; e; e = e->next) {
		cJSON *p = NULL, *it;
		static const char *const names[] = { "starting", "ready", "busy", "ending" };

		cJSON_ArrayForEach(
			it, pools) if ((uid_t)cJSON_GetObjectItem(it, "uid")->valuedouble == e->uid)
			p = it;
		if (!p) {
			p = cJSON_CreateObject();
			cJSON_AddNumberToObject(p, "uid", e->uid);
			for (size_t i = 0; i < TC_ARRAY_SIZE(names); i++)
				cJSON_AddNumberToObject(p, names[i], 0);
			cJSON_AddItemToArray(pools, p);
		}
		it = cJSON_GetObjectItem(p, names[e->state]);
		cJSON_SetNumberValue(it, it->valuedouble + 1);
	}
}

void tc_serve_answer_stats(struct server *s, struct conn *c, const char *id)
{
	cJSON *doc = cJSON_CreateObject(), *calls, *lat;
	char *text;

	cJSON_AddBoolToObject(doc, "ok", 1);
	add_pools(s, doc);
	cJSON_AddNumberToObject(doc, "queue", s->n_queue);
	cJSON_AddNumberToObject(doc, "sandboxes", s->n_entries);
	calls = cJSON_AddObjectToObject(doc, "calls");
	for (int i = 0; i <= TC_STATUS_SANDBOX_ERROR; i++)
		cJSON_AddNumberToObject(calls, tc_status_name((enum tc_status)i),
					(double)s->stats.by_status[i]);
	cJSON_AddNumberToObject(calls, "busy", (double)s->stats.busy);
	cJSON_AddNumberToObject(calls, "bad_request", (double)s->stats.bad);
	cJSON_AddNumberToObject(calls, "abandoned", (double)s->stats.abandoned);
	cJSON_AddNumberToObject(calls, "warm", (double)s->stats.warm);
	cJSON_AddNumberToObject(calls, "cold", (double)s->stats.cold);
	lat = cJSON_AddObjectToObject(doc, "dispatch_ms");
	cJSON_AddNumberToObject(lat, "p50", (double)percentile(&s->stats, 50) / 1000);
	cJSON_AddNumberToObject(lat, "p90", (double)percentile(&s->stats, 90) / 1000);
	cJSON_AddNumberToObject(lat, "p99", (double)percentile(&s->stats, 99) / 1000);
	cJSON_AddNumberToObject(lat, "n", (double)s->stats.n_latency);
	tc_serve_session_stats(s, doc);
	text = tc_json_print(doc, false);
	cJSON_Delete(doc);
	if (text)
		send_spliced(c, id, NULL, text, NULL);
	free(text);
}
