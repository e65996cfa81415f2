/* `toolcell session`: one long-lived sandbox per agent, spoken to in JSON
 * lines (README "Stateful sessions"). The controller (this process) reads
 * the caller's requests, checks each, and hands it to the session harness
 * (rootfs/session.py) inside the sandbox framed with a nonce; it takes back
 * only the answer that carries that nonce, and owns the answer's id,
 * timed_out, duration_s and state_lost. A runner child of ours runs the
 * sandbox (tc_sandbox_run) with the harness's stdio on pipes to us; a
 * request past its time, or a reset, ends the runner and with it the
 * sandbox, and the next request starts a fresh one. */
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

/* Serve requests until shutdown or EOF on in_fd; returns 0. Every failure
 * is an answer (BadRequest, Timeout, MemoryLimit, SandboxError, ...). */
int tc_session_serve(const struct tc_session_spec *spec);

#endif
