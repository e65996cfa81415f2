/* `toolcell session` (see session.h). Single-threaded, with one poll loop
 * (pump) that watches everything at once: the session's sandbox through
 * the lifecycle API (sandbox.h), the harness's stdin, stdout and stderr
 * (TC_IO_PIPES: the session relays them itself), and the caller's requests
 * while no request runs. One request runs at a time. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "json.h"
#include "protocol.h"
#include "rootfs.h"
#include "toolcell/record.h"
#include "toolcell/sandbox.h"
#include "session.h"
#include "status.h"
#include "util.h"

#define SESSION_LIFETIME_MS (86400ull * 1000) /* the sandbox's own wall clock: 24 h */
#define STOP_GRACE_MS	    2000	      /* for the harness to end after EOF */

/* How the last sandbox ended, once it did. */
struct ended {
	bool known;
	enum tc_status status;
	char message[TC_ERROR_MESSAGE_MAX];
};

struct session {
	const struct tc_session_spec *spec;
	struct tc_config cfg; /* spec->cfg with the session's own wall clock */
	char *argv[6];
	struct tc_sandbox_spec sp;
	struct tc_sandbox *sb; /* NULL: no sandbox now */
	bool over;	       /* its run is over (the harness is gone) */
	int to_h, from_h, err_h;
	bool harness_eof;   /* the harness's stdout ended, or its stdin broke */
	struct tc_buf hout; /* the harness's answers, not yet whole lines */
	struct tc_buf in;   /* the caller's requests, not yet whole lines */
	bool in_eof;	    /* the caller sent its last request */
	struct ended ended; /* how the sandbox stop() finished last ended */
	bool ended_idle;    /* it ended while no request ran: the next request is told */
	uint64_t nonce;
	bool state_lost;     /* the next answer comes from a fresh sandbox after a loss */
	bool gone;	     /* the caller stopped reading our answers */
	uint64_t answer_max; /* bytes of one answer line: the stdout limit */
	uint64_t err_max;    /* bytes of the harness's own stderr a sandbox may pass on */
	uint64_t err_passed; /* ... that this sandbox passed on */
	bool err_over;	     /* ... and it went past err_max: it is being killed */
	uint64_t request_ms; /* the longest a request may run (and its default) */
	int srv;	     /* --server: the stream to our sandbox (to_h, from_h), or -1 */
	struct tc_buf demux; /* its chunks, not yet whole */
	bool no_server;	     /* --server: no fresh sandbox came: the session ends (125) */
};

enum outcome {
	ANSWERED,
	TIMED_OUT,
	ENDED,
	TOO_LARGE
};

/* ---- the sandbox ---- */

static void take_chunks(struct session *s, const char *p, size_t n);

/* A sandbox runs: our own, or one of the server's. */
static bool live(const struct session *s)
{
	return s->sb || s->srv >= 0;
}

/* A sandbox of the server's (--server): its stream is the harness's
 * stdin and its stdout; its stderr comes in the stream's chunks. */
static int start_remote(struct session *s, int fds[3], struct tc_error *err)
{
	struct tc_session_remote rm;
	int r = tc_session_remote_start(s->spec->server, s->spec->server_request, &rm, err);

	if (r < 0)
		return r;
	s->srv = fds[0] = fds[1] = rm.fd;
	fds[2] = -1;
	s->request_ms = rm.request_ms;
	s->answer_max = rm.answer_max;
	s->cfg.limit[TC_LIMIT_REQUEST] = rm.request_max;
	s->ended = (struct ended){ .known = false }; /* until its stream's end says */
	/* what came after the answer line: the stream's first chunks */
	tc_buf_release(&s->demux);
	s->demux = rm.rest;
	return 0;
}

static int start(struct session *s, struct tc_error *err)
{
	int fds[3];
	int r = s->spec->server ? start_remote(s, fds, err) : tc_sandbox_start(&s->sp, &s->sb, err);

	if (r < 0)
		return r;
	if (s->sb)
		tc_sandbox_take_stdio(s->sb, fds);
	s->to_h = fds[0];
	s->from_h = fds[1];
	s->err_h = fds[2];
	s->over = s->harness_eof = s->err_over = false;
	s->hout.len = s->err_passed = 0;
	s->ended_idle = false;
	if (s->srv >= 0)
		take_chunks(s, NULL, 0);
	fcntl(s->from_h, F_SETFL, O_NONBLOCK);
	if (s->err_h >= 0)
		fcntl(s->err_h, F_SETFL, O_NONBLOCK);
	/* a harness that stops reading must not block us past a deadline */
	fcntl(s->to_h, F_SETFL, O_NONBLOCK);
	return 0;
}

/* Forward what the harness wrote on its stderr (tracebacks of its own, a
 * stray thread's os.write(2)) to ours, and let the classification see its
 * last line. Past --stderr-size a sandbox is ended, as a one-shot run's
 * tool is (the session's server caps its stream the same way). */
static void drain_stderr(struct session *s)
{
	char b[4096];
	ssize_t n;

	while (s->err_h >= 0 && (n = read(s->err_h, b, sizeof(b))) != 0) {
		size_t room = s->err_passed < s->err_max ? s->err_max - s->err_passed : 0;

		if (n < 0) {
			if (errno != EAGAIN && errno != EINTR)
				tc_closep(&s->err_h);
			return;
		}
		room = (size_t)n < room ? (size_t)n : room;
		s->err_passed += room;
		if (room < (size_t)n && s->sb && !s->err_over) {
			s->err_over = true;
			tc_sandbox_stderr_over(s->sb);
		}
		if (s->sb)
			tc_sandbox_stderr_seen(s->sb, b, room);
		if (room && tc_write_all(STDERR_FILENO, b, room) < 0)
			return;
	}
	tc_closep(&s->err_h); /* EOF: every process of the sandbox is gone */
}

/* What one turn of the loop waits for besides the sandbox itself. */
struct want {
	bool request;		    /* a request from the caller */
	bool answer;		    /* the harness's stdout */
	const struct tc_buf *frame; /* to send to the harness's stdin, from *sent */
	size_t *sent;
	uint64_t until; /* CLOCK_MONOTONIC ns: return by then */
};

enum {
	P_ERR = TC_SANDBOX_POLLFDS,
	P_OUT,
	P_IN,
	P_REQ,
	P__N
};

/* --server: the stream's chunks; the end says how the sandbox ended (as
 * stop() learns it for a sandbox of our own). */
static void take_chunks(struct session *s, const char *p, size_t n)
{
	struct tc_session_end end;
	int r = n ? tc_buf_add(&s->demux, p, n) : 0;

	if (r >= 0)
		r = tc_session_remote_take(&s->demux, &s->hout, STDERR_FILENO, &end);
	if (r == 0)
		return;
	s->harness_eof = s->over = true;
	if (r > 0) {
		s->ended = (struct ended){ .known = true, .status = end.status };
		snprintf(s->ended.message, sizeof(s->ended.message), "%s", end.message);
	}
}

/* The harness's stdout ended; --server: the stream did, so all has ended,
 * and with no end chunk first the server went away (killed, say). */
static void server_eof(struct session *s)
{
	s->harness_eof = s->over = s->over || s->srv >= 0;
	if (s->srv >= 0 && !s->ended.known)
		snprintf(s->ended.message, sizeof(s->ended.message),
			 "the server at %s closed the session's stream without its end",
			 s->spec->server);
}

static void pump_events(struct session *s, const struct want *w, const struct pollfd *p)
{
	char chunk[65536];
	ssize_t n;

	if (p[P_ERR].revents)
		drain_stderr(s);
	/* killed for its stderr: nothing more goes to it or comes from it */
	if (s->err_over || (p[P_IN].revents & (POLLERR | POLLHUP | POLLNVAL))) {
		s->harness_eof = true;
	} else if (p[P_IN].revents & POLLOUT) {
		n = write(s->to_h, w->frame->p + *w->sent, w->frame->len - *w->sent);
		if (n > 0)
			*w->sent += (size_t)n;
		else if (n < 0 && errno != EAGAIN && errno != EINTR)
			s->harness_eof = true;
	}
	if (p[P_OUT].revents && !s->err_over) {
		n = read(s->from_h, chunk, sizeof(chunk));
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			server_eof(s);
		else if (n > 0 && s->srv >= 0)
			take_chunks(s, chunk, (size_t)n);
		else if (n > 0 && tc_buf_add(&s->hout, chunk, (size_t)n) < 0)
			s->harness_eof = true;
	}
	if (p[P_REQ].revents) {
		n = read(s->spec->in_fd, chunk, sizeof(chunk));
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			s->in_eof = true;
		else if (n > 0 && tc_buf_add(&s->in, chunk, (size_t)n) < 0)
			s->in_eof = true;
	}
}

/* The one poll loop's turn: the sandbox, the harness's streams, the
 * caller's requests, as w asks; returns after one poll. */
static void pump(struct session *s, const struct want *w)
{
	struct pollfd p[P__N];
	uint64_t until = w->until;
	bool sending = w->frame && *w->sent < w->frame->len;

	for (int i = 0; i < P__N; i++)
		p[i] = (struct pollfd){ .fd = -1 };
	if (s->sb && !s->over) {
		tc_sandbox_pollfds(s->sb, p);
		if (tc_sandbox_deadline(s->sb) < until)
			until = tc_sandbox_deadline(s->sb);
	}
	p[P_ERR] = (struct pollfd){ .fd = s->err_h, .events = POLLIN };
	/* --server: its stream also says when the sandbox ended while idle */
	p[P_OUT] = (struct pollfd){ .fd = (w->answer ||
					   (s->srv >= 0 && s->hout.len <= s->answer_max)) &&
							  !s->harness_eof
						  ? s->from_h
						  : -1,
				    .events = POLLIN };
	p[P_IN] = (struct pollfd){ .fd = sending && !s->harness_eof ? s->to_h : -1,
				   .events = POLLOUT };
	p[P_REQ] = (struct pollfd){ .fd = w->request && !s->in_eof ? s->spec->in_fd : -1,
				    .events = POLLIN };
	if (poll(p, P__N, tc_poll_timeout(until)) < 0) {
		if (errno != EINTR)
			s->in_eof = s->harness_eof = true; /* nothing can go on */
		return;
	}
	if (s->sb && !s->over && tc_sandbox_on_events(s->sb, p))
		s->over = true;
	pump_events(s, w, p);
}

/* --server: EOF to the harness (gently: it ends, and the stream's end
 * says how), or the stream closed at once (the server kills the sandbox). */
static void stop_remote(struct session *s, bool gently)
{
	uint64_t grace = tc_now_ns() + STOP_GRACE_MS * 1000000ull;
	struct want w = { .until = grace };

	if (s->to_h >= 0)
		shutdown(s->srv, SHUT_WR);
	s->to_h = -1;
	while (gently && !s->over && tc_now_ns() < grace)
		pump(s, &w);
	tc_closep(&s->srv);
	s->from_h = -1;
	s->over = false;
}

/* End the sandbox (gently: EOF to the harness, a grace to end; else at
 * once), finish it and keep how it ended in s->ended; the workspace is
 * applied as at the end of any run. */
static void stop(struct session *s, bool gently)
{
	uint64_t grace = tc_now_ns() + STOP_GRACE_MS * 1000000ull;
	struct want w = { .until = grace };
	struct tc_sandbox_result res;
	struct tc_error e = { 0 };
	struct tc_outcome o;

	if (s->srv >= 0) {
		stop_remote(s, gently);
		return;
	}
	if (!s->sb)
		return;
	tc_closep(&s->to_h);
	if (!gently && !s->over)
		tc_sandbox_kill(s->sb, SIGTERM);
	while (!s->over && tc_now_ns() < grace)
		pump(s, &w);
	drain_stderr(s); /* its last line is the classification's too */
	tc_outcome_init(&o);
	tc_sandbox_finish(s->sb, &o, &res, &e);
	tc_sandbox_result_release(&res);
	s->ended.known = true;
	s->ended.status = o.status;
	snprintf(s->ended.message, sizeof(s->ended.message), "%s", o.err.message);
	if (o.status == TC_STATUS_OUTPUT_LIMIT && o.stderr_truncated && !o.err.message[0])
		snprintf(s->ended.message, sizeof(s->ended.message), TC_SESSION_STDERR_OVER,
			 s->err_max);
	/* the sandbox is gone: what the harness wrote on stderr is all there */
	drain_stderr(s);
	tc_sandbox_release(&s->sb);
	tc_closep(&s->from_h);
	tc_closep(&s->err_h);
	s->over = false;
}

/* ---- answers ---- */

/* The answer line to the caller. */
static int respond(struct session *s, const struct tc_session_answer *a)
{
	_cleanup_free_ char *text = tc_session_answer_line(a, s->state_lost);
	int r = text ? tc_write_all(s->spec->out_fd, text, strlen(text)) : -ENOMEM;

	if (r == -EPIPE)
		s->gone = true; /* nobody reads: the session ends */
	return r;
}

static int refuse(struct session *s, const char *id, const char *type, const char *message)
{
	struct tc_session_answer a = { .id = id, .err_type = type, .err_message = message };

	return respond(s, &a);
}

/* ---- one request ---- */

/* The next whole line of hout, if it is the answer with our nonce; other
 * lines are dropped (never passed on). */
static char *take_answer(struct session *s)
{
	static const char *const nonce_key[] = { "nonce" };
	char *nl;

	while (s->hout.p && (nl = memchr(s->hout.p, '\n', s->hout.len))) {
		size_t line_len = (size_t)(nl - s->hout.p);
		char *keys_nonce[1] = { NULL };
		struct tc_error e = { 0 };
		char want[32], *line;
		bool ours;

		/* a line over the limit stays: ask answers OutputLimit, as for
		 * one whose end has not come */
		if (line_len > s->answer_max)
			return NULL;
		/* a NUL in the line makes it no answer (and no C string) */
		line = memchr(s->hout.p, '\0', line_len) ? NULL : strndup(s->hout.p, line_len);
		tc_buf_drop(&s->hout, line_len + 1);
		snprintf(want, sizeof(want), "%" PRIu64, s->nonce);
		ours = line &&
		       tc_json_members(line, line_len, s->answer_max, TC_STAGE_ANSWER, nonce_key, 1,
				       keys_nonce, &e) == 0 &&
		       keys_nonce[0] && !strcmp(keys_nonce[0], want);
		free(keys_nonce[0]);
		if (ours)
			return line;
		free(line);
	}
	return NULL;
}

/* Send the framed request and wait for the answer with our nonce. */
static enum outcome ask(struct session *s, const char *req, size_t len, uint64_t deadline,
			char **ret_line)
{
	_cleanup_cjson_ cJSON *doc = cJSON_CreateObject();
	_cleanup_free_ char *frame_p = NULL;
	struct tc_buf frame = { 0 };
	size_t sent = 0;
	struct want w = { .answer = true, .frame = &frame, .sent = &sent, .until = deadline };
	bool failed = false;
	char nonce[24];
	int n = snprintf(nonce, sizeof(nonce), "%" PRIu64, s->nonce);

	*ret_line = NULL;
	/* the nonce in all its digits (cJSON would print a number of 16 with
	 * 15 of them), as take_answer compares it; the request as it came */
	tc_json_add(&failed, doc, "nonce", tc_json_raw(nonce, (size_t)n));
	tc_json_add(&failed, doc, "request", tc_json_raw(req, len));
	frame_p = failed ? NULL : tc_json_document(doc, false);
	if (!frame_p)
		return ENDED;
	frame.p = frame_p;
	frame.len = strlen(frame_p);
	for (;;) {
		*ret_line = take_answer(s);
		if (*ret_line)
			return ANSWERED;
		if (s->hout.len > s->answer_max)
			return TOO_LARGE;
		if (s->harness_eof)
			return ENDED;
		if (tc_now_ns() >= deadline)
			return TIMED_OUT;
		pump(s, &w);
	}
}

/* The answer for a sandbox that ended (s->ended) under a request, or
 * between requests (idle: this request did not run). */
static void ended_answer(const struct session *s, bool idle, struct tc_session_answer *a, char *msg,
			 size_t size)
{
	const struct ended *e = &s->ended;

	a->err_type = e->known ? tc_session_ended_type(e->status) : "SandboxExited";
	snprintf(msg, size,
		 "the session's sandbox ended (%s%s%s) %s; the next request starts a "
		 "fresh one",
		 e->known ? tc_status_name(e->status) : "unknown", e->message[0] ? ": " : "",
		 e->message,
		 idle ? "between requests, so this request did not run" : "while the request ran");
	a->err_message = msg;
}

/* The workspace's changes reach the host folder after each request, not
 * only when the sandbox ends: the caller may read them before the next
 * request. With workspace_apply on_success, only after a request that
 * succeeded. */
static void apply_workspace(struct session *s, const struct tc_session_answer *a)
{
	struct tc_workspace_stats st;
	int r;

	if (!s->sb || !s->cfg.workspace)
		return;
	if (s->cfg.workspace_on_success && !(a->raw[0] && !strcmp(a->raw[0], "true")))
		return;
	r = tc_sandbox_apply_workspace_now(s->sb, &st);
	if (r < 0 || st.errors)
		dprintf(STDERR_FILENO, "toolcell: session: cannot apply the workspace to %s: %s\n",
			s->cfg.workspace,
			r < 0		    ? strerror(-r)
			: st.first_error[0] ? st.first_error
					    : "an entry failed");
}

/* Fill a from what ask returned. */
static void outcome_answer(struct session *s, enum outcome out, char *answer, uint64_t limit_ms,
			   char **raw, struct tc_session_answer *a, char *msg, size_t size)
{
	struct tc_error e = { 0 };

	switch (out) {
	case ANSWERED:
		if (tc_json_members(answer, strlen(answer), s->answer_max, TC_STAGE_ANSWER,
				    tc_session_answer_keys, TC_SESSION_ANSWER_KEYS, raw, &e) < 0) {
			a->err_type = "InvalidResponse";
			snprintf(msg, size, "%s", e.message);
			a->err_message = msg;
			break;
		}
		for (size_t i = 0; i < TC_SESSION_ANSWER_KEYS; i++)
			a->raw[i] = raw[i] && tc_session_raw_is(raw[i], (int)i) ? raw[i] : NULL;
		apply_workspace(s, a);
		break;
	case TIMED_OUT:
		stop(s, false);
		a->timed_out = true;
		a->err_type = "Timeout";
		snprintf(msg, size,
			 "the request ran past its time limit of %.3f s; the session's sandbox was "
			 "ended and the next request starts a fresh one",
			 (double)limit_ms / 1000);
		a->err_message = msg;
		break;
	case TOO_LARGE:
		stop(s, false);
		a->err_type = "OutputLimit";
		a->err_message = "the answer was larger than the stdout limit; the session's "
				 "sandbox was ended";
		break;
	case ENDED:
		/* the harness is gone: how the sandbox ended, as it says */
		stop(s, true);
		ended_answer(s, false, a, msg, size);
		break;
	}
}

static void run_code(struct session *s, const char *line, size_t len,
		     const struct tc_session_request *req)
{
	char *raw[TC_SESSION_ANSWER_KEYS] = { 0 }, *answer = NULL, msg[1400];
	struct tc_session_answer a = { .id = req->id, .clamped_ms = req->clamped_ms };
	struct tc_error e = { 0 };
	enum outcome out = ENDED;
	uint64_t t0;

	/* unpredictable, so no line written ahead of time can pass for the
	 * answer to this request; without it the request does not run */
	if (getrandom(&s->nonce, sizeof(s->nonce), 0) != sizeof(s->nonce)) {
		snprintf(msg, sizeof(msg),
			 "cannot draw the request's nonce (getrandom: %s); the request did not run",
			 strerror(errno));
		refuse(s, req->id, "SandboxError", msg);
		return;
	}
	s->nonce >>= 11; /* exact in a double, whatever reads the JSON */
	t0 = tc_now_ns();
	drain_stderr(s);	      /* what it wrote after its last answer counts now */
	if (s->err_over && live(s)) { /* killed for it: no request runs in it */
		stop(s, false);
		s->ended_idle = true;
	}
	if (s->ended_idle && !live(s)) {
		/* the sandbox ended while no request ran: this one finds it so */
		ended_answer(s, true, &a, msg, sizeof(msg));
	} else if (!live(s) && start(s, &e) < 0) {
		s->ended = (struct ended){ .known = true, .status = TC_STATUS_SANDBOX_ERROR };
		snprintf(s->ended.message, sizeof(s->ended.message), "%s", e.message);
		a.err_type = tc_session_ended_type(TC_STATUS_SANDBOX_ERROR);
		snprintf(msg, sizeof(msg),
			 "the session's sandbox could not be started (%s); this request did not "
			 "run, and the next request tries again",
			 e.message);
		a.err_message = msg;
		/* --server: the server is gone or refuses: as when the session
		 * could not start, toolcell says why and ends (this request answered) */
		s->no_server = s->spec->server != NULL;
		if (s->no_server)
			snprintf(
				msg, sizeof(msg),
				"the server gave the session no fresh sandbox (%s); the session ends",
				e.message);
	} else {
		out = ask(s, line, len, t0 + req->limit_ms * 1000000ull, &answer);
		outcome_answer(s, out, answer, req->limit_ms, raw, &a, msg, sizeof(msg));
	}
	s->ended_idle = false;
	a.duration_s = (double)(tc_now_ns() - t0) / 1e9;
	respond(s, &a);
	s->state_lost = out != ANSWERED;
	for (size_t i = 0; i < TC_ARRAY_SIZE(raw); i++)
		free(raw[i]);
	free(answer);
}

/* One request line from the caller. false: shutdown. */
static bool serve_one(struct session *s, const char *line, size_t len)
{
	struct tc_session_request req;
	struct tc_error e = { 0 };
	struct tc_session_answer a = { .raw = { "true" } };
	bool go_on = true;

	if (tc_session_request_parse(line, len, s->cfg.limit[TC_LIMIT_REQUEST], s->request_ms, &req,
				     &e) < 0) {
		refuse(s, req.id, "BadRequest", e.message);
		tc_session_request_release(&req);
		return true;
	}
	a.id = req.id;
	switch (req.op) {
	case TC_SESSION_SHUTDOWN:
		go_on = false;
		stop(s, true);
		respond(s, &a);
		break;
	case TC_SESSION_RESET:
		stop(s, false);
		s->ended_idle = false;
		s->state_lost = false; /* asked for: nothing was lost */
		respond(s, &a);
		break;
	case TC_SESSION_CODE:
		run_code(s, line, len, &req);
		break;
	}
	tc_session_request_release(&req);
	return go_on;
}

/* The next request line into *ret (len *ret_len, within s->in), supervising
 * the sandbox meanwhile; false at EOF with nothing left. A line over the
 * request limit is refused at once and skipped. */
static bool next_request(struct session *s, size_t *ret_len, bool *skipping)
{
	size_t max = s->cfg.limit[TC_LIMIT_REQUEST];
	struct want w = { .request = true, .until = UINT64_MAX };

	for (;;) {
		char *nl = s->in.p ? memchr(s->in.p, '\n', s->in.len) : NULL;

		if (nl) {
			*ret_len = (size_t)(nl - s->in.p);
			return true;
		}
		if (s->in.len > max && !*skipping) {
			char msg[128];

			snprintf(msg, sizeof(msg),
				 "request: longer than the %zu-byte limit (one request per line)",
				 max);
			refuse(s, NULL, "BadRequest", msg);
			*skipping = true;
		}
		if (*skipping)
			s->in.len = 0;
		if (s->in_eof || s->gone) {
			*ret_len = s->in.len; /* a last line without newline */
			return s->in.len > 0 && !*skipping;
		}
		/* a sandbox that ended while idle is finished at once; the next
		 * request is told */
		if (s->over) {
			stop(s, true);
			s->ended_idle = true;
		}
		pump(s, &w);
	}
}

int tc_session_serve(const struct tc_session_spec *spec)
{
	struct session s = { .spec = spec,
			     .cfg = *spec->cfg,
			     .to_h = -1,
			     .from_h = -1,
			     .err_h = -1,
			     .srv = -1,
			     .request_ms = spec->request_ms };
	bool go_on = true, skipping = false;
	struct tc_error e = { 0 };

	/* the sandbox's own wall clock is the session's lifetime; output is
	 * capped per answer (answer_max), not over the whole session, and the
	 * harness's own stderr over a sandbox's life (err_max, drain_stderr) */
	s.cfg.limit[TC_LIMIT_WALL] = SESSION_LIFETIME_MS;
	s.answer_max = spec->cfg->limit[TC_LIMIT_STDOUT];
	s.err_max = spec->cfg->limit[TC_LIMIT_STDERR]; /* the harness's own, a sandbox's life */
	s.cfg.limit[TC_LIMIT_STDOUT] = UINT64_MAX / 2;
	s.cfg.limit[TC_LIMIT_STDERR] = UINT64_MAX / 2;
	s.argv[0] = "python3";
	s.argv[1] = "-I";
	s.argv[2] = "-S";
	s.argv[3] = TC_ROOTFS_SESSION;
	s.argv[4] = (char *)spec->harness_config;
	s.sp = (struct tc_sandbox_spec){ .cfg = &s.cfg,
					 .argv = s.argv,
					 .cwd = spec->cwd,
					 .io = TC_IO_PIPES,
					 .verbose = spec->verbose,
					 /* SIGTERM ends the session (its sandbox dies with
					  * it), idle or not */
					 .caller_signals = true };
	/* --server: a session that cannot start says why, and toolcell ends */
	if (spec->server && start(&s, &e) < 0) {
		tc_diag("%s", e.message);
		return 125;
	}
	while (go_on && !s.gone && !s.no_server) {
		size_t len;
		bool eof_line;

		if (!next_request(&s, &len, &skipping))
			break;
		eof_line = s.in.len == len;
		if (!skipping && len > 0)
			go_on = serve_one(&s, s.in.p, len);
		skipping = false;
		tc_buf_drop(&s.in, eof_line ? len : len + 1);
	}
	stop(&s, true);
	free(s.in.p);
	free(s.hout.p);
	free(s.demux.p);
	if (s.no_server)
		tc_diag("%s", s.ended.message);
	return s.no_server ? 125 : 0;
}
