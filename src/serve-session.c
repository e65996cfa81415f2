/* `toolcell serve`'s sessions (see serve.h, TC_SERVE_SESSION): a "session"
 * request takes one warm entry for one `toolcell session --server`, whose
 * harness (rootfs/serve.py's "sess" frame) runs the session harness with
 * the server's session policy and the request's imports; the answer line
 * ({"ok":true,"session":{...}}) turns the connection into a stream. The
 * caller's bytes go to the harness's stdin as they come (the caller's
 * toolcell frames each request with its nonce and holds each answer to its
 * caps and time, as a cold session does: session.c); the harness's stdout
 * and stderr come back as chunks, a 14-byte head ("out %09zu\n" or "err
 * %09zu\n") and the bytes, and last one "end" chunk, JSON saying how the
 * sandbox ended. The caller's half-close is the harness's EOF; its close
 * kills the sandbox. The server holds at most SESSION_HOLD bytes each way
 * (the other side waits). Sessions hold their entries for long, so the
 * server bounds them: at most --max-sessions open at once, at most the
 * policy's serve.sessions_per_uid for one caller uid (else Busy), each
 * ended (timeout) after serve.session_idle_s without a byte either way.
 * Runs in the parent. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "json.h"
#include "policy.h"
#include "serve-internal.h"
#include "session.h"
#include "util.h"

#define SESSION_HOLD	 (1u << 20)	   /* bytes held for one side while the other waits */
#define SESSION_READS	 16		   /* reads of one stream per event */
#define SESSION_LIFE_MS	 (86400ull * 1000) /* as `toolcell session`'s own sandbox */
#define SESSION_HEAD_LEN 14

static bool is_session(const struct entry *e)
{
	return e->call && e->call->req.kind == TC_SERVE_SESSION;
}

/* A byte went either way: the session's idle time counts from now. */
static void touch(struct call *c)
{
	uint64_t idle = tc_now_ns() + c->idle_s * 1000000000ull;

	c->deadline_ns = idle < c->until_ns ? idle : c->until_ns;
}

/* One string of a JSON array (raw, already valid JSON) into list. */
static int import_list(const char *raw, const char *key, cJSON **tree, const char **list, size_t *n,
		       struct tc_error *err)
{
	const cJSON *it;

	*tree = raw ? cJSON_Parse(raw) : NULL;
	if (raw && !cJSON_IsArray(*tree))
		return tc_error_set(err, TC_STAGE_REQUEST, EINVAL,
				    "request: \"%s\" must be an array of strings", key);
	cJSON_ArrayForEach(it, *tree)
	{
		const char *s = cJSON_GetStringValue(it);

		if (!s || strlen(s) > 256)
			return tc_error_set(err, TC_STAGE_REQUEST, EINVAL,
					    "request: \"%s\" must be an array of module names",
					    key);
		if (*n == TC_MAX_IMPORTS)
			return tc_error_set(err, TC_STAGE_REQUEST, E2BIG,
					    "request: \"%s\" has more than %d entries", key,
					    TC_MAX_IMPORTS);
		list[(*n)++] = s;
	}
	return 0;
}

int tc_serve_session_imports(const char *allow, const char *defaults, struct tc_overrides *o,
			     cJSON *trees[2], struct tc_error *err)
{
	int r = import_list(allow, "allow_imports", &trees[0], o->allow_import, &o->n_allow_import,
			    err);

	if (r >= 0)
		r = import_list(defaults, "default_imports", &trees[1], o->default_import,
				&o->n_default_import, err);
	return r;
}

/* The harness's config (the server's session policy, the request's
 * imports within its max_imports) into req->source, its folder into
 * req->argv[0]; -errno with err saying why. */
static int prepare(const struct server *s, struct tc_serve_request *req, struct tc_error *err)
{
	const struct tc_config *cfg = s->setup->cfg;
	struct tc_overrides o = { 0 };
	cJSON *trees[2] = { NULL, NULL };
	int r = tc_serve_session_imports(req->allow_imports, req->default_imports, &o, trees, err);

	/* each of an answer's stdout and stderr: the answer (escaped) must fit */
	if (r >= 0)
		r = tc_policy_session_config(s->setup->session_policy, &o,
					     req->limit[TC_LIMIT_STDOUT] / 4, &req->source, err);
	cJSON_Delete(trees[0]);
	cJSON_Delete(trees[1]);
	if (r < 0)
		return r;
	req->source_len = strlen(req->source);
	req->argv[0] = strdup(cfg->workspace ? cfg->workspace_inside : "/tmp");
	if (!req->argv[0])
		return tc_error_set(err, TC_STAGE_REQUEST, ENOMEM, "out of memory");
	req->argc = 1;
	return 0;
}

/* Why c may not open one more session (a Busy answer's words), or NULL. */
static const char *over_limit(const struct server *s, const struct conn *c, char *buf, size_t n)
{
	unsigned all = 0, mine = 0, per_uid = s->setup->policy.sessions_per_uid;

	for (const struct conn *o = s->conns; o; o = o->next)
		if (o->mode == CONN_SESSION_WAIT || o->mode == CONN_SESSION) {
			all++;
			mine += o->uid == c->uid;
		}
	if (!per_uid)
		snprintf(buf, n,
			 "the policy's serve.sessions_per_uid is 0: this server runs no sessions");
	else if (mine >= per_uid)
		snprintf(buf, n,
			 "uid %u has %u session%s open, the most the policy's "
			 "serve.sessions_per_uid (%u) allows: end one, or ask again later",
			 (unsigned)c->uid, mine, mine == 1 ? "" : "s", per_uid);
	else if (all >= s->opt->max_sessions)
		snprintf(buf, n,
			 "the server has %u session%s open, the most its --max-sessions allows; "
			 "try again later",
			 all, all == 1 ? "" : "s");
	else
		return NULL;
	return buf;
}

void tc_serve_session_request(struct server *s, struct conn *c, struct tc_serve_request *req)
{
	struct tc_error e = { 0 };
	char why[256];
	bool ok;

	if (c->mode != CONN_REQUESTS || c->calls) {
		tc_serve_answer_error(s, c, req->id, "BadRequest",
				      "request: a session takes a connection of its own: no other "
				      "request may be in flight on it, and none may follow");
		return;
	}
	if (over_limit(s, c, why, sizeof(why))) {
		tc_serve_answer_error(s, c, req->id, "Busy", why);
		return;
	}
	if (prepare(s, req, &e) < 0) {
		tc_serve_answer_error(s, c, req->id,
				      e.err == EPERM ? "PermissionDenied" : "BadRequest",
				      e.message);
		return;
	}
	/* from here on nothing the caller sends is a request line */
	c->mode = CONN_SESSION_WAIT;
	c->requesting = true;
	ok = tc_serve_enqueue(s, c, req);
	c->requesting = false;
	if (!ok)
		c->mode = CONN_REQUESTS; /* answered Busy: it may ask again */
}

/* One chunk to the caller: the head, then the bytes. */
static void chunk(struct conn *c, const char *tag, const char *p, size_t n)
{
	char head[32];

	/* n is at most one read's 64 KiB, or the end's few hundred bytes */
	snprintf(head, sizeof(head), "%-3s %09zu\n", tag, n);
	if (tc_buf_add(&c->out, head, SESSION_HEAD_LEN) == 0 && n)
		(void)tc_buf_add(&c->out, p, n);
}

void tc_serve_session_begin(struct server *s, struct call *c, struct entry *e)
{
	const struct tc_serve_request *r = &c->req;
	struct conn *cn = c->conn;
	const char *id = r->id ? r->id : "null"; /* raw JSON, as long as the request's */
	char rest[256];

	/* the server's own deadline: the session's lifetime, or its idle time
	 * once the caller and the harness stop */
	c->until_ns = c->dispatch_ns + SESSION_LIFE_MS * 1000000ull;
	/* never shorter than one request's time: a request that runs
	 * silently is ended by its own timeout, not taken for idleness */
	c->idle_s = e->setup->policy.session_idle_s;
	if (c->idle_s < (r->limit_ms + 999) / 1000)
		c->idle_s = (unsigned)((r->limit_ms + 999) / 1000);
	touch(c);
	s->stats.sessions++;
	snprintf(rest, sizeof(rest),
		 ",\"ok\":true,\"session\":{\"timeout_s\":%.3f,\"stdout_size\":%llu,"
		 "\"request_size\":%llu},\"pool\":{\"warm\":%s,\"waited_ms\":%llu}}\n",
		 (double)r->limit_ms / 1000, (unsigned long long)r->limit[TC_LIMIT_STDOUT],
		 (unsigned long long)r->limit[TC_LIMIT_REQUEST], c->warm ? "true" : "false",
		 (unsigned long long)((c->dispatch_ns - c->queued_ns) / 1000000));
	(void)tc_buf_add(&cn->out, "{\"id\":", 6);
	(void)tc_buf_add(&cn->out, id, strlen(id));
	(void)tc_buf_add(&cn->out, rest, strlen(rest));
	cn->mode = CONN_SESSION;
	cn->session = e;
	c->stdin_eof = cn->rd_eof;
	/* while its request is taken, the line is still in cn->in: the caller
	 * of on_line passes on the rest */
	if (!cn->requesting)
		tc_serve_session_flush(cn);
}

void tc_serve_session_flush(struct conn *c)
{
	/* what the caller sent before its session began follows the frame */
	if (c->mode != CONN_SESSION || !c->session)
		return;
	if (c->in.len)
		(void)tc_buf_add(&c->session->frame, c->in.p, c->in.len);
	tc_buf_release(&c->in);
}

void tc_serve_session_input(struct server *s, struct conn *c, const char *p, size_t n, bool eof)
{
	struct entry *e = c->session;

	(void)s;
	switch (c->mode) {
	case CONN_REQUESTS:
	case CONN_SESSION_OVER:
		return; /* dropped: the session is over */
	case CONN_SESSION_WAIT:
		if (!c->calls) { /* its session was refused while it waited */
			c->mode = CONN_SESSION_OVER;
			c->closing = true;
			return;
		}
		if (n)
			(void)tc_buf_add(&c->in, p, n);
		return;
	case CONN_SESSION:
		if (!e || !e->call)
			return;
		if (n && e->to >= 0)
			(void)tc_buf_add(&e->frame, p, n);
		if (n)
			touch(e->call);
		e->call->stdin_eof |= eof;
		tc_serve_entry_on_writable(e);
		return;
	}
}

bool tc_serve_session_want_input(const struct conn *c)
{
	switch (c->mode) {
	case CONN_REQUESTS:
	case CONN_SESSION_OVER:
		return true;
	case CONN_SESSION_WAIT:
		return c->in.len < SESSION_HOLD;
	case CONN_SESSION:
		return c->session && c->session->frame.len < SESSION_HOLD;
	}
	return true;
}

bool tc_serve_session_want_output(const struct entry *e)
{
	return !is_session(e) || !e->call->conn || e->call->conn->out.len < SESSION_HOLD;
}

/* Of n bytes of a session's stderr, how many the caller gets: past the
 * cap (--stderr-size, as a call's) the rest is dropped and the session
 * ended, its end chunk saying output_limit. */
static size_t err_room(struct entry *e, size_t n)
{
	struct call *c = e->call;
	uint64_t cap = tc_serve_io_cap(e, TC_LIMIT_STDERR);
	size_t room = c->err_relayed < cap ? (size_t)(cap - c->err_relayed) : 0;

	room = n < room ? n : room;
	c->err_relayed += room;
	if (room < n && !c->over_stderr) {
		c->over_stderr = true;
		tc_serve_entry_end(NULL, e);
		/* the runner kills it soon, not now: until then nothing more
		 * goes to the harness (EOF), and nothing of its stdout comes */
		tc_closep(&e->to);
		tc_buf_release(&e->frame);
		e->sent = 0;
	}
	return room;
}

bool tc_serve_session_relay(struct entry *e, int *fd, const char *tag)
{
	char buf[65536];
	ssize_t n = -1;
	size_t pass;

	if (!is_session(e))
		return false;
	for (int i = 0; i < SESSION_READS && *fd >= 0; i++) {
		n = read(*fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		pass = fd == &e->err	      ? err_room(e, (size_t)n)
		       : e->call->over_stderr ? 0
					      : (size_t)n;
		if (e->call->conn && pass)
			chunk(e->call->conn, tag, buf, pass);
		touch(e->call);
	}
	if (n == 0)
		tc_closep(fd);
	return true;
}

bool tc_serve_session_keep_open(struct entry *e)
{
	if (!is_session(e))
		return false;
	tc_buf_drop(&e->frame, e->sent);
	e->sent = 0;
	/* EOF to the harness once the caller's last bytes are in */
	return !(e->call->stdin_eof && !e->frame.len);
}

void tc_serve_session_end(struct server *s, struct call *c, const struct tc_outcome *o)
{
	enum tc_status status = o ? o->status : TC_STATUS_SANDBOX_ERROR;
	const char *message =
		o ? o->err.message : "the pool entry's runner ended without an outcome";
	cJSON *doc = cJSON_CreateObject();
	char *text, idle[96], over[96];

	if (c->timed_out) { /* the server's deadline: idle, the lifetime, or a drain's */
		status = TC_STATUS_TIMEOUT;
		message = "the session reached its time limit";
		if (c->deadline_ns < c->until_ns) {
			snprintf(idle, sizeof(idle),
				 "the session was idle for %u s (serve.session_idle_s)", c->idle_s);
			message = idle;
		}
	}
	if (c->over_stderr && !c->timed_out) {
		status = TC_STATUS_OUTPUT_LIMIT;
		/* all it passed on: the cap (err_room) */
		snprintf(over, sizeof(over), TC_SESSION_STDERR_OVER, c->err_relayed);
		message = over;
	}
	s->stats.sessions_ended++; /* not among the calls by status */
	cJSON_AddStringToObject(doc, "status", tc_status_name(status));
	cJSON_AddStringToObject(doc, "message", message);
	text = tc_json_print(doc, false);
	cJSON_Delete(doc);
	if (c->conn) {
		if (text)
			chunk(c->conn, "end", text, strlen(text));
		c->conn->calls--;
		c->conn->mode = CONN_SESSION_OVER;
		c->conn->session = NULL;
		c->conn->closing = true; /* the caller reads EOF after the end chunk */
	}
	free(text);
	tc_serve_request_release(&c->req);
	free(c);
}

void tc_serve_session_drain(struct server *s)
{
	uint64_t now = tc_now_ns();

	/* the request that runs finishes within its time; then the harness
	 * reads EOF and ends (what the caller sends from now on is dropped) */
	for (struct entry *e = s->entries; e; e = e->next) {
		if (!is_session(e) || e->state != ENTRY_BUSY)
			continue;
		if (e->call->conn) {
			e->call->conn->mode = CONN_SESSION_OVER;
			e->call->conn->session = NULL;
		}
		e->call->stdin_eof = true;
		if (e->call->until_ns > now + s->setup->cfg->limit[TC_LIMIT_WALL] * 1000000ull)
			e->call->until_ns = now + s->setup->cfg->limit[TC_LIMIT_WALL] * 1000000ull;
		if (e->call->deadline_ns > e->call->until_ns)
			e->call->deadline_ns = e->call->until_ns;
		tc_serve_entry_on_writable(e);
	}
}

void tc_serve_session_stats(const struct server *s, struct cJSON *doc)
{
	cJSON *o = cJSON_AddObjectToObject(doc, "sessions");
	unsigned running = 0;

	for (const struct entry *e = s->entries; e; e = e->next)
		running += is_session(e) && e->state == ENTRY_BUSY;
	cJSON_AddNumberToObject(o, "started", (double)s->stats.sessions);
	cJSON_AddNumberToObject(o, "running", running);
	cJSON_AddNumberToObject(o, "ended", (double)s->stats.sessions_ended);
}
