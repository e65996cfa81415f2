/* `toolcell session` (see session.h). Single-threaded: one request at a
 * time, one poll loop while it runs, blocking reads of the caller's
 * requests in between. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "json.h"
#include "protocol.h"
#include "toolcell/record.h"
#include "toolcell/sandbox.h"
#include "session.h"
#include "util.h"

#define SESSION_LIFETIME_MS (86400ull * 1000) /* the sandbox's own wall clock: 24 h */
#define STOP_GRACE_MS	    2000	      /* for the runner to end the sandbox */
#define HARNESS		    "/usr/lib/toolcell/session.pyc"

struct session {
	const struct tc_session_spec *spec;
	struct tc_config cfg; /* spec->cfg with the session's own wall clock */
	pid_t runner;	      /* -1: no sandbox now */
	int to_h, from_h, err_h, status_fd;
	struct tc_buf hout; /* the harness's answers, not yet whole lines */
	uint64_t nonce;
	bool state_lost;     /* the next answer comes from a fresh sandbox after a loss */
	bool gone;	     /* the caller stopped reading our answers */
	uint64_t answer_max; /* bytes of one answer line: the stdout limit */
	bool started;	     /* a sandbox was built at least once */
};

enum outcome {
	ANSWERED,
	TIMED_OUT,
	ENDED,
	TOO_LARGE
};

/* ---- the runner: our child that runs the sandbox ---- */

_Noreturn static void runner_main(struct session *s, pid_t controller, int fds[4])
{
	char *argv[] = { "python3", "-I", "-S", HARNESS, (char *)s->spec->harness_config, NULL };
	struct tc_sandbox_spec sp = { .cfg = &s->cfg,
				      .argv = argv,
				      .cwd = s->spec->cwd,
				      .io = TC_IO_RELAY,
				      .verbose = s->spec->verbose };
	struct tc_sandbox_result res;
	struct tc_error e = { 0 };
	struct tc_outcome o;

	/* the controller's death (even by SIGKILL) ends the sandbox */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != controller)
		_exit(1);
	if (dup2(fds[0], 0) < 0 || dup2(fds[1], 1) < 0 || dup2(fds[2], 2) < 0)
		_exit(1);
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	fcntl(fds[3], F_SETFD, FD_CLOEXEC);
	tc_outcome_init(&o);
	tc_sandbox_run(&sp, &o, &res, &e);
	dprintf(fds[3], "%s\t%s\n", tc_status_name(o.status), o.err.message);
	_exit(0);
}

static int start(struct session *s)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 }, st[2] = { -1, -1 };
	pid_t self = getpid(), pid;

	int *pairs[4] = { in, out, err, st };

	for (size_t i = 0; i < TC_ARRAY_SIZE(pairs); i++)
		if (pipe2(pairs[i], O_CLOEXEC) < 0) {
			int e = errno;
			while (i-- > 0) {
				close(pairs[i][0]);
				close(pairs[i][1]);
			}
			return -e;
		}
	pid = fork();
	if (pid < 0) {
		int e = errno,
		    all[8] = { in[0], in[1], out[0], out[1], err[0], err[1], st[0], st[1] };
		for (size_t i = 0; i < TC_ARRAY_SIZE(all); i++)
			close(all[i]);
		return -e;
	}
	if (pid == 0) {
		int fds[4] = { in[0], out[1], err[1], st[1] };
		close(in[1]);
		close(out[0]);
		close(err[0]);
		close(st[0]);
		runner_main(s, self, fds);
	}
	close(in[0]);
	close(out[1]);
	close(err[1]);
	close(st[1]);
	s->runner = pid;
	s->to_h = in[1];
	s->from_h = out[0];
	s->err_h = err[0];
	s->status_fd = st[0];
	s->hout.len = 0;
	s->started = true;
	fcntl(s->from_h, F_SETFL, O_NONBLOCK);
	fcntl(s->err_h, F_SETFL, O_NONBLOCK);
	/* a harness that stops reading must not block us past a deadline */
	fcntl(s->to_h, F_SETFL, O_NONBLOCK);
	return 0;
}

static bool wait_runner(pid_t pid, uint64_t ms)
{
	uint64_t end = tc_now_ns() + ms * 1000000ull;

	do {
		pid_t r = waitpid(pid, NULL, WNOHANG);
		if (r == pid || (r < 0 && errno == ECHILD))
			return true;
		struct timespec ts = { 0, 5000000 };
		nanosleep(&ts, NULL);
	} while (tc_now_ns() < end);
	return false;
}

static void drain_stderr(struct session *s);

/* End the runner and its sandbox: gently (EOF to the harness) or at once
 * (SIGTERM: the runner kills the sandbox). What the run's status was goes
 * into status ("memory_limit"), when the runner said. */
static void stop(struct session *s, bool gently, char *status, size_t n)
{
	char line[512] = "";
	ssize_t got;

	if (s->runner < 0)
		return;
	tc_closep(&s->to_h);
	if (!gently || !wait_runner(s->runner, STOP_GRACE_MS)) {
		kill(s->runner, SIGTERM);
		if (!wait_runner(s->runner, STOP_GRACE_MS)) {
			kill(s->runner, SIGKILL);
			waitpid(s->runner, NULL, 0);
		}
	}
	got = read(s->status_fd, line, sizeof(line) - 1);
	line[got > 0 ? got : 0] = '\0';
	if (status) {
		/* "STATUS\tmessage\n" */
		line[strcspn(line, "\n")] = '\0';
		snprintf(status, n, "%s", line);
	}
	/* the runner is gone: what the harness wrote on stderr is all there */
	drain_stderr(s);
	tc_closep(&s->from_h);
	tc_closep(&s->err_h);
	tc_closep(&s->status_fd);
	s->runner = -1;
}

/* ---- answers ---- */

struct answer {
	const char *id;	      /* raw JSON, or NULL for null */
	const char *raw[6];   /* success, stdout, stderr, globals, exception, output_files */
	const char *err_type; /* toolcell's own exception, or NULL */
	const char *err_message;
	bool timed_out;
	double duration_s;
	uint64_t clamped_ms; /* "timeout_s" was above the session's limit and lowered to it */
};

static const char *const answer_keys[] = { "success", "stdout",	   "stderr",
					   "globals", "exception", "output_files" };
static const char *const answer_default[] = { "false", "\"\"", "\"\"", "{}", "null", "{}" };

/* The answer line, built as a cJSON tree like all JSON toolcell writes;
 * the harness's values (already validated) go in as raw bytes. */
static int respond(struct session *s, const struct answer *a)
{
	_cleanup_cjson_ cJSON *o = cJSON_CreateObject();
	_cleanup_free_ char *text = NULL;
	bool failed = false;
	char num[64];
	int r;

	tc_json_add(&failed, o, "id", cJSON_CreateRaw(a->id ? a->id : "null"));
	for (size_t i = 0; i < TC_ARRAY_SIZE(answer_keys); i++) {
		cJSON *e;

		if (i != 4 || !a->err_type) {
			tc_json_add(&failed, o, answer_keys[i],
				    cJSON_CreateRaw(a->raw[i] ? a->raw[i] : answer_default[i]));
			continue;
		}
		e = tc_json_add(&failed, o, answer_keys[i], cJSON_CreateObject());
		tc_json_add(&failed, e, "type", tc_json_string(a->err_type));
		tc_json_add(&failed, e, "message", tc_json_string(a->err_message));
		tc_json_add(&failed, e, "traceback", cJSON_CreateNull());
	}
	tc_json_add(&failed, o, "timed_out", cJSON_CreateBool(a->timed_out));
	snprintf(num, sizeof(num), "%.3f", a->duration_s);
	tc_json_add(&failed, o, "duration_s", cJSON_CreateRaw(num));
	tc_json_add(&failed, o, "state_lost", cJSON_CreateBool(s->state_lost));
	if (a->clamped_ms) {
		snprintf(num, sizeof(num), "%.3f", (double)a->clamped_ms / 1000);
		tc_json_add(&failed, o, "timeout_clamped_to", cJSON_CreateRaw(num));
	}
	text = failed ? NULL : tc_json_document(o, false);
	r = text ? tc_write_all(s->spec->out_fd, text, strlen(text)) : -ENOMEM;
	if (r == -EPIPE)
		s->gone = true; /* nobody reads: the session ends */
	return r;
}

static int refuse(struct session *s, const char *id, const char *type, const char *message)
{
	struct answer a = { .id = id, .err_type = type, .err_message = message };

	return respond(s, &a);
}

/* ---- one request ---- */

/* Forward whatever the harness wrote on its stderr (tracebacks of its own,
 * a stray thread's os.write(2)) to ours. */
static void drain_stderr(struct session *s)
{
	char b[4096];
	ssize_t n;

	while (s->err_h >= 0 && (n = read(s->err_h, b, sizeof(b))) > 0)
		if (tc_write_all(STDERR_FILENO, b, (size_t)n) < 0)
			break;
}

/* Send the framed request and wait for the answer with our nonce. */
static enum outcome ask(struct session *s, const char *req, size_t len, uint64_t deadline,
			char **ret_line)
{
	uint64_t max = s->answer_max;
	struct tc_buf frame = { 0 };
	size_t sent = 0;
	char head[64];
	int n;

	/* unpredictable, so no line written ahead of time can pass for the
	 * answer to this request */
	if (getrandom(&s->nonce, sizeof(s->nonce), 0) != sizeof(s->nonce))
		s->nonce = tc_now_ns();
	s->nonce >>= 11; /* exact in a double, whatever reads the JSON */
	n = snprintf(head, sizeof(head), "{\"nonce\":%" PRIu64 ",\"request\":", s->nonce);

	*ret_line = NULL;
	if (tc_buf_add(&frame, head, (size_t)n) < 0 || tc_buf_add(&frame, req, len) < 0 ||
	    tc_buf_add(&frame, "}\n", 2) < 0) {
		free(frame.p);
		return ENDED;
	}
	for (;;) {
		char *nl = s->hout.p ? memchr(s->hout.p, '\n', s->hout.len) : NULL;
		uint64_t now = tc_now_ns();
		struct pollfd p[3] = { { .fd = s->from_h, .events = POLLIN },
				       { .fd = s->err_h, .events = POLLIN },
				       { .fd = sent < frame.len ? s->to_h : -1,
					 .events = POLLOUT } };
		char chunk[65536];
		ssize_t got;

		if (nl) {
			size_t line_len = (size_t)(nl - s->hout.p);
			char *keys_nonce[1] = { NULL };
			static const char *const nonce_key[] = { "nonce" };
			struct tc_error e = { 0 };
			char want[32];
			/* a NUL in the line makes it no answer (and no C string) */
			char *line = memchr(s->hout.p, '\0', line_len)
					     ? NULL
					     : strndup(s->hout.p, line_len);

			tc_buf_drop(&s->hout, line_len + 1);
			snprintf(want, sizeof(want), "%" PRIu64, s->nonce);
			if (line &&
			    tc_json_members(line, line_len, max, "answer", nonce_key, 1, keys_nonce,
					    &e) == 0 &&
			    keys_nonce[0] && !strcmp(keys_nonce[0], want)) {
				free(keys_nonce[0]);
				free(frame.p);
				*ret_line = line;
				return ANSWERED;
			}
			/* not the answer to this request: never passed on */
			free(keys_nonce[0]);
			free(line);
			continue;
		}
		if (s->hout.len > max || now >= deadline) {
			free(frame.p);
			return s->hout.len > max ? TOO_LARGE : TIMED_OUT;
		}
		if (poll(p, 3, (int)((deadline - now) / 1000000 + 1)) < 0 && errno != EINTR) {
			free(frame.p);
			return ENDED;
		}
		if (p[1].revents)
			drain_stderr(s);
		if (p[2].revents & (POLLERR | POLLHUP)) {
			free(frame.p);
			return ENDED;
		}
		if (p[2].revents & POLLOUT) {
			ssize_t w = write(s->to_h, frame.p + sent, frame.len - sent);
			if (w > 0)
				sent += (size_t)w;
			else if (w < 0 && errno != EAGAIN && errno != EINTR) {
				free(frame.p);
				return ENDED;
			}
		}
		if (!p[0].revents)
			continue;
		got = read(s->from_h, chunk, sizeof(chunk));
		if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) {
			free(frame.p);
			return ENDED;
		}
		if (got > 0 && tc_buf_add(&s->hout, chunk, (size_t)got) < 0) {
			free(frame.p);
			return TOO_LARGE;
		}
	}
}

/* The exception type for how a sandbox ended under a request. A timeout
 * status here is a session-wide limit: the CPU time (RLIMIT_CPU of the
 * long-lived interpreter) or the sandbox's 24-hour lifetime, never the
 * request's own time (that is TIMED_OUT). */
static const char *ended_type(const char *status)
{
	static const struct {
		const char *status, *type;
	} map[] = {
		{ "memory_limit", "MemoryLimit" }, { "pids_limit", "PidsLimit" },
		{ "output_limit", "OutputLimit" }, { "syscall_denied", "SyscallDenied" },
		{ "timeout", "SessionLimit" },	   { "sandbox_error", "SandboxError" },
	};

	for (size_t i = 0; i < TC_ARRAY_SIZE(map); i++)
		if (!strcmp(status, map[i].status))
			return map[i].type;
	return "SandboxExited";
}

static bool raw_is(const char *raw, int i)
{
	switch (i) {
	case 0:
		return !strcmp(raw, "true") || !strcmp(raw, "false");
	case 1:
	case 2:
		return raw[0] == '"';
	case 4:
		return raw[0] == '{' || !strcmp(raw, "null");
	default:
		return raw[0] == '{';
	}
}

static void run_code(struct session *s, const char *line, size_t len,
		     const struct tc_session_request *req)
{
	const char *id = req->id;
	uint64_t limit_ms = req->limit_ms;
	char *raw[TC_ARRAY_SIZE(answer_keys)] = { 0 }, *answer = NULL, status[600] = "", msg[800];
	char *why;
	struct answer a = { .id = id, .clamped_ms = req->clamped_ms };
	struct tc_error e = { 0 };
	uint64_t t0;
	enum outcome out;

	if (s->runner < 0 && start(s) < 0) {
		refuse(s, id, "SandboxError", "cannot start the session's sandbox");
		return;
	}
	t0 = tc_now_ns();
	out = ask(s, line, len, t0 + limit_ms * 1000000ull, &answer);
	a.duration_s = (double)(tc_now_ns() - t0) / 1e9;
	switch (out) {
	case ANSWERED:
		if (tc_json_members(answer, strlen(answer), s->answer_max, "answer", answer_keys,
				    TC_ARRAY_SIZE(answer_keys), raw, &e) < 0) {
			a.err_type = "InvalidResponse";
			a.err_message = e.message;
			break;
		}
		for (size_t i = 0; i < TC_ARRAY_SIZE(answer_keys); i++)
			a.raw[i] = raw[i] && raw_is(raw[i], (int)i) ? raw[i] : NULL;
		break;
	case TIMED_OUT:
		stop(s, false, NULL, 0);
		a.timed_out = true;
		a.err_type = "Timeout";
		snprintf(msg, sizeof(msg),
			 "the request ran past its time limit of %.3f s; the session's sandbox was "
			 "ended and the next request starts a fresh one",
			 (double)limit_ms / 1000);
		a.err_message = msg;
		break;
	case ENDED:
	case TOO_LARGE:
		stop(s, false, status, sizeof(status));
		why = strchr(status, '\t');
		if (why)
			*why++ = '\0';
		a.err_type = out == TOO_LARGE ? "OutputLimit" : ended_type(status);
		snprintf(
			msg, sizeof(msg),
			out == TOO_LARGE
				? "the answer was larger than the stdout limit; the session's "
				  "sandbox was ended"
				: "the session's sandbox ended (%s%s%s) while the request ran; the "
				  "next request starts a fresh one",
			status[0] ? status : "unknown", why && *why ? ": " : "", why ? why : "");
		a.err_message = msg;
		break;
	}
	respond(s, &a);
	s->state_lost = out != ANSWERED;
	for (size_t i = 0; i < TC_ARRAY_SIZE(raw); i++)
		free(raw[i]);
	free(answer);
}

int tc_session_request_parse(const char *line, size_t len, size_t max_bytes, uint64_t ceiling_ms,
			     struct tc_session_request *ret, struct tc_error *err)
{
	static const char *const keys[] = { "id", "op", "code", "timeout_s" };
	char *m[TC_ARRAY_SIZE(keys)] = { 0 };
	int r;

	*ret = (struct tc_session_request){ .op = TC_SESSION_CODE, .limit_ms = ceiling_ms };
	r = tc_json_members(line, len, max_bytes, "request", keys, TC_ARRAY_SIZE(keys), m, err);
	if (r < 0)
		return r;
	ret->id = m[0];
	if (m[1] && !strcmp(m[1], "\"shutdown\"")) {
		ret->op = TC_SESSION_SHUTDOWN;
	} else if (m[1] && !strcmp(m[1], "\"reset\"")) {
		ret->op = TC_SESSION_RESET;
	} else if (m[1]) {
		r = tc_error_set(err, "request", EINVAL,
				 "request: \"op\" must be \"reset\" or \"shutdown\" (or absent, "
				 "with \"code\")");
	} else if (!m[2] || m[2][0] != '"') {
		r = tc_error_set(err, "request", EINVAL, "request: \"code\" must be a string");
	} else if (m[3]) {
		char *end = NULL;
		double t = strtod(m[3], &end);
		/* a JSON number (members are valid JSON), so strtod reads all of it */
		if (!end || *end || !(t > 0))
			r = tc_error_set(err, "request", EINVAL,
					 "request: \"timeout_s\" must be a number above 0 "
					 "(seconds; the session's limit is %.3f s)",
					 (double)ceiling_ms / 1000);
		else if (t * 1000 > (double)ceiling_ms)
			ret->clamped_ms = ceiling_ms; /* Rustic asks 60 s by default */
		else
			ret->limit_ms = (uint64_t)(t * 1000 + 0.999);
	}
	if (!ret->limit_ms)
		ret->limit_ms = 1;
	for (size_t i = 1; i < TC_ARRAY_SIZE(m); i++)
		free(m[i]);
	return r;
}

void tc_session_request_release(struct tc_session_request *r)
{
	free(r->id);
	r->id = NULL;
}

/* One request line from the caller. false: shutdown. */
static bool serve_one(struct session *s, const char *line, size_t len)
{
	struct tc_session_request req;
	struct tc_error e = { 0 };
	struct answer a = { .raw = { "true" } };
	bool go_on = true;

	if (tc_session_request_parse(line, len, s->cfg.limit[TC_LIMIT_REQUEST], s->spec->request_ms,
				     &req, &e) < 0) {
		refuse(s, req.id, "BadRequest", e.message);
		tc_session_request_release(&req);
		return true;
	}
	a.id = req.id;
	switch (req.op) {
	case TC_SESSION_SHUTDOWN:
		go_on = false;
		stop(s, true, NULL, 0);
		respond(s, &a);
		break;
	case TC_SESSION_RESET:
		stop(s, false, NULL, 0);
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

int tc_session_serve(const struct tc_session_spec *spec)
{
	struct session s = { .spec = spec,
			     .cfg = *spec->cfg,
			     .runner = -1,
			     .to_h = -1,
			     .from_h = -1,
			     .err_h = -1,
			     .status_fd = -1 };
	struct tc_buf in = { 0 };
	size_t max = spec->cfg->limit[TC_LIMIT_REQUEST];
	bool go_on = true, skipping = false;
	char chunk[65536];

	/* the sandbox's own wall clock is the session's lifetime; output is
	 * capped per answer (answer_max), not over the whole session */
	s.cfg.limit[TC_LIMIT_WALL] = SESSION_LIFETIME_MS;
	s.answer_max = spec->cfg->limit[TC_LIMIT_STDOUT];
	s.cfg.limit[TC_LIMIT_STDOUT] = UINT64_MAX / 2;
	s.cfg.limit[TC_LIMIT_STDERR] = UINT64_MAX / 2;
	while (go_on && !s.gone) {
		char *nl = in.p ? memchr(in.p, '\n', in.len) : NULL;
		ssize_t n;

		if (nl) {
			size_t len = (size_t)(nl - in.p);
			if (!skipping && len > 0)
				go_on = serve_one(&s, in.p, len);
			skipping = false;
			tc_buf_drop(&in, len + 1);
			continue;
		}
		if (in.len > max && !skipping) {
			char msg[128];
			snprintf(msg, sizeof(msg),
				 "request: longer than the %zu-byte limit (one request per line)",
				 max);
			refuse(&s, NULL, "BadRequest", msg);
			skipping = true;
		}
		if (skipping)
			in.len = 0;
		n = read(spec->in_fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (in.len && !skipping)
				serve_one(&s, in.p, in.len); /* a last line without newline */
			break;
		}
		if (tc_buf_add(&in, chunk, (size_t)n) < 0)
			break;
	}
	stop(&s, true, NULL, 0);
	free(in.p);
	free(s.hout.p);
	return 0;
}
