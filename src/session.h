/* `toolcell session`: one long-lived sandbox per agent, spoken to in JSON
 * lines (README "Stateful sessions"). This process reads the caller's
 * requests, checks each, and hands it to the session harness
 * (rootfs/session.py) inside the sandbox framed with a nonce; it takes back
 * only the answer that carries that nonce, and owns the answer's id,
 * timed_out, duration_s and state_lost. It drives the sandbox itself
 * through the lifecycle API (sandbox.h, TC_IO_PIPES) in one poll loop; a
 * request past its time, or a reset, ends the sandbox, and the next request
 * starts a fresh one. The workspace's changes reach the host folder after
 * each answered request. */
#ifndef TOOLCELL_SESSION_H
#define TOOLCELL_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "toolcell/config.h"
#include "toolcell/record.h"
#include "util.h"

struct tc_cli;

struct tc_session_spec {
	const struct tc_config *cfg; /* limits: memory, pids, ... for the whole session */
	uint64_t request_ms;	     /* the longest a request may run (and its default) */
	const char *harness_config;  /* JSON for the harness: allowed and default imports */
	const char *cwd;	     /* inside: /workspace, or /tmp */
	int in_fd, out_fd;	     /* the caller's requests and our answers */
	bool verbose;
	/* --server: each sandbox is a warm entry of the `toolcell serve` at
	 * this socket, asked for with server_request (session-remote.c);
	 * its limits come from the server. NULL: a sandbox of our own */
	const char *server, *server_request;
};

/* One request line, checked (the caller's untrusted input). */
enum tc_session_op {
	TC_SESSION_CODE, /* run "code" */
	TC_SESSION_RESET,
	TC_SESSION_SHUTDOWN,
};

struct tc_session_request {
	char *id; /* raw JSON of "id", or NULL; owned */
	enum tc_session_op op;
	uint64_t limit_ms;   /* CODE: this request's time limit */
	uint64_t clamped_ms; /* CODE: 0, or the ceiling "timeout_s" was lowered to */
};

/* Check one request line of at most max_bytes: JSON, "op" or a string
 * "code", "timeout_s" a number above 0 (one above ceiling_ms is lowered to
 * it, and clamped_ms says so). -EINVAL (err says why; ret->id is still set
 * when the line had one), -E2BIG, -ENOMEM. Release with
 * tc_session_request_release, also after a failure. */
int tc_session_request_parse(const char *line, size_t len, size_t max_bytes, uint64_t ceiling_ms,
			     struct tc_session_request *ret, struct tc_error *err);
void tc_session_request_release(struct tc_session_request *r);

/* ---- session-answer.c: the answers (pure) ---- */

#define TC_SESSION_ANSWER_KEYS 6
/* success, stdout, stderr, globals, exception, output_files: the members
 * of the harness's answer that reach the caller */
extern const char *const tc_session_answer_keys[TC_SESSION_ANSWER_KEYS];

struct tc_session_answer {
	const char *id;				 /* raw JSON, or NULL for null */
	const char *raw[TC_SESSION_ANSWER_KEYS]; /* the harness's, raw; NULL: the default */
	const char *err_type;			 /* toolcell's own exception, or NULL */
	const char *err_message;
	bool timed_out;
	double duration_s;
	uint64_t clamped_ms; /* "timeout_s" was above the session's limit and lowered to it */
};

/* The answer line ('\n'-terminated, heap), built as a cJSON tree like all
 * JSON toolcell writes; NULL when out of memory. */
char *tc_session_answer_line(const struct tc_session_answer *a, bool state_lost);

/* How a session's sandbox ended when the harness's own stderr (fd 2, not
 * an answer's "stderr") went past --stderr-size; with the limit in bytes.
 * The session (its own sandbox) and the server (a served one) say it alike. */
#define TC_SESSION_STDERR_OVER "its stderr went past the limit of %" PRIu64 " bytes (--stderr-size)"

/* The exception type for how a sandbox ended under a request. A timeout
 * status here is a session-wide limit: the CPU time (RLIMIT_CPU of the
 * long-lived interpreter) or the sandbox's 24-hour lifetime, never the
 * request's own time (that is "Timeout"). */
const char *tc_session_ended_type(enum tc_status status);

/* raw (the harness's member i of tc_session_answer_keys) has that
 * member's JSON type. */
bool tc_session_raw_is(const char *raw, int i);

/* Serve requests until shutdown or EOF on in_fd; returns 0. Every failure
 * is an answer (BadRequest, Timeout, MemoryLimit, SandboxError, ...);
 * with --server, a first session that cannot start returns 125, the
 * reason said on stderr. */
int tc_session_serve(const struct tc_session_spec *spec);

/* ---- session-remote.c: `toolcell session --server [SOCKET]` ---- */

#define TC_SESSION_CHUNK_MAX (1u << 20) /* bytes of one chunk of the server's stream */

/* A session started by the server: the stream, and its limits. */
struct tc_session_remote {
	int fd;
	uint64_t request_ms, answer_max, request_max;
	struct tc_buf rest; /* stream bytes that came with the answer line */
};

/* Connect to the server at socket, send the session request line, read
 * its answer; -errno with err saying why (the server's refusal in its
 * words, or the socket and the fix). */
int tc_session_remote_start(const char *socket, const char *request, struct tc_session_remote *ret,
			    struct tc_error *err);

/* How the server's sandbox ended (the stream's "end" chunk). */
struct tc_session_end {
	enum tc_status status;
	char message[TC_ERROR_MESSAGE_MAX];
};

/* Take the whole chunks of the server's stream from buf: "out" bytes onto
 * out, "err" bytes written to err_fd, "end" into *ret_end. 0, 1 once the
 * end came, -EPROTO for bytes that are not the stream's (a head of
 * another shape, a chunk over TC_SESSION_CHUNK_MAX, an end that is not
 * its JSON), -ENOMEM. Pure but for the write to err_fd. */
int tc_session_remote_take(struct tc_buf *buf, struct tc_buf *out, int err_fd,
			   struct tc_session_end *ret_end);

/* `toolcell session --server [SOCKET]`: the session protocol on stdin and
 * stdout, each sandbox a warm entry of the server's; returns the exit
 * status (0, or 125 when no session could start). */
int tc_session_client(const struct tc_cli *cli);

#endif
