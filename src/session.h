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

struct tc_session_spec {
	const struct tc_config *cfg; /* limits: memory, pids, ... for the whole session */
	uint64_t request_ms;	     /* the longest a request may run (and its default) */
	const char *harness_config;  /* JSON for the harness: allowed and default imports */
	const char *cwd;	     /* inside: /workspace, or /tmp */
	int in_fd, out_fd;	     /* the caller's requests and our answers */
	bool verbose;
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

/* Serve requests until shutdown or EOF on in_fd; returns 0. Every failure
 * is an answer (BadRequest, Timeout, MemoryLimit, SandboxError, ...). */
int tc_session_serve(const struct tc_session_spec *spec);

#endif
